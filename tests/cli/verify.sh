#!/usr/bin/env bash
# Data verification (issue 42), end to end:
#
#   bash tests/cli/verify.sh ./diskbench build/tests/diskbench-fake   (part of `make cli`)
#
# - Honest runs report every block good (exit 0): seqwrite, randwrite with
#   several threads and requests in flight, a mix, --verify=backlog, steady's
#   preconditioning; the blocks judged are the ones the run wrote (a
#   sequential run over 8 blocks: 8; backlog: every write, warm-up included).
# - Bad blocks, from a fake whose truth the test sets (tests/cli/fake_env.c):
#   a byte flipped in what is read back at 5 MiB + 100 is one corrupt block
#   at 5 MiB (exit 7, data_bad, no writes_lost); writes dropped after the
#   5th (dm-flakey's drop_writes) leave blocks 4-7 unwritten on a new file
#   and stale over an earlier run's, and the disk lost durable writes
#   (writes_lost).
# - The witness: one line per write acknowledged (O_DSYNC: as many as the
#   writes; --sync=fsync: one per block, after the flush), "# end" with the
#   count; --witness - puts the lines alone on stdout and the result on
#   stderr.
# - diskbench verify on a region kept by --verify --keep: all good from its
#   headers and against its witness, and it writes nothing; then copies of it
#   changed by hand: bytes overwritten at 3 MiB + 777 (corrupt at 3 MiB),
#   block 5 copied over block 2 (misplaced at 2 MiB, written for 5 MiB),
#   block 6 zeroed (only counted from the headers; unwritten, a durable write
#   lost, against the witness), a tear in block 0 (in flight where the
#   witness acknowledged only an older write of it, corrupt where it
#   acknowledged that one); a witness cut by a power cut (console noise, no
#   end line, a half line) still judges; writes dropped by the fake over a
#   copy are lost at their offsets; a witness on stdin; CSV; what is no
#   region of ours.
#   As root, the same on a loop device over a 16 MiB file.
# - job FILE.fio: a write job with verify=crc32c reads back its size / bs
#   blocks (1 MiB of 64 KiB: 16; --verify on the command line over a file
#   without verify=: 1 MiB of 128 KiB, 8), a read job beside it is not
#   checked (a warning says so); the fake's flipped byte at 3 x 64 KiB + 100
#   is one corrupt block at 196608 (exit 7) and the read job after it still
#   runs; verify_backlog=4 reads back every write; do_verify=0 checks
#   nothing; --witness lists a sync=dsync job's 16 writes; verify=md5, a
#   --witness job without sync=, --witness over two such jobs, blocks under
#   512 bytes: exit 2.
# - What --verify cannot run with, refused before anything is written (exit 2).
# Every run is one pass over at most 8 MiB (-t 0.3 for random ones, whose
# checks hold for any count), in a scratch directory
# under /var/tmp removed on exit (with the loop device).
set -u

if [ $# -lt 2 ]; then
	echo "usage: bash tests/cli/verify.sh PATH/TO/diskbench PATH/TO/diskbench-fake" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
FAKE=$(realpath -- "$2") || exit 2
REAL_DB=$DB
S=$(mktemp -d -p /var/tmp diskbench-verify.XXXXXX) || exit 2
LOOP=""
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=verify
T="$S/t"
Z=(-s 8M -t 30 --once) # one pass: 8 blocks of 1 MiB, however slow the disk is now

# ---- honest runs -------------------------------------------------------------
check "seqwrite --verify: all good" 0 --json seqwrite --verify "${Z[@]}" "$T"
py "seqwrite --verify: the 8 blocks it wrote, read back after the writes, none bad" '
v = d["result"]["verify"]
assert v["mode"] == "after" and v["crc"] in ("sse4.2", "table"), v
assert v["blocks"] == 8 and v["good"] == 8 and v["bad"] == 0, v
assert v["block_size"] == 1048576 and v["region"] == 8 << 20 and v["bytes"] == 8 << 20, v
assert all(v[k] == 0 and v["first"][k] == [] for k in ("corrupt", "misplaced", "stale", "unwritten", "lost")), v
assert v["map_bytes"] == 8 * 4, v
assert len(v["run_id"]) == 16, v
assert not any(f["key"] in ("data_bad", "writes_lost") for f in d.get("findings", [])), d.get("findings")
assert not any("did not verify" in w for w in d["warnings"]), d["warnings"]'
check "seqwrite --verify, text: the verify line" 0 seqwrite --verify "${Z[@]}" "$T"
if grep -q '^  verify: 8 blocks of 1 MiB read back in [0-9.]* s after the writes (CRC32C by [a-z0-9.]*): all good$' "$S/out"; then
	ok "seqwrite --verify, text: 8 blocks, all good"
else
	not_ok "seqwrite --verify, text: 8 blocks, all good" "$(cat "$S/out")"
fi

check "randwrite --verify -j 2 --qd 4: all good" 0 --json randwrite --verify -j 2 --qd 4 -s 1M -t 0.3 "$T"
py "randwrite --verify: the blocks it wrote at least once, all good" '
v = d["result"]["verify"]
assert 0 < v["blocks"] <= 256 and v["good"] == v["blocks"] and v["bad"] == 0, v'
check "rw --verify: a mix's writes all good" 0 --json rw --verify --qd 2 --seed 7 "${Z[@]}" "$T"
py "rw --verify: blocks judged, none bad" '
v = d["result"]["verify"]
assert 0 < v["blocks"] <= 8 and v["bad"] == 0, v'
check "seqwrite --verify=backlog: all good" 0 --json seqwrite --verify=backlog --qd 4 "${Z[@]}" "$T"
py "backlog: every write read back, the warm-up's too, none bad" '
r = d["result"]; v = r["verify"]
assert v["mode"] == "backlog" and v["bad"] == 0, v
assert v["blocks"] == r["ios"] + 1 and v["good"] == v["blocks"], (v["blocks"], r["ios"])'
check "steady --verify --precondition: its writes all good" 0 --json steady randwrite --verify \
	--precondition=1 -s 8M --round 0.2 --max-rounds 3 --window 3 --excursion 1000 --slope 1000 "$T"
py "steady: the preconditioning read back, 64 blocks of 128 KiB" '
v = d["steady"]["precondition"]["verify"]
assert v["blocks"] == 64 and v["block_size"] == 131072 and v["bad"] == 0, v'

# ---- bad blocks (the fake) ----------------------------------------------------
DB=$FAKE
FAKE_READ_FLIP=$((5 * 1048576 + 100)) check "a flipped byte: exit 7" 7 --json seqwrite --verify "${Z[@]}" "$T"
py "a flipped byte: one corrupt block, at 5 MiB" '
v = d["result"]["verify"]
assert v["corrupt"] == 1 and v["bad"] == 1 and v["good"] == 7, v
assert v["first"]["corrupt"] == [{"offset": 5242880, "generation_wanted": v["first"]["corrupt"][0]["generation_wanted"]}], v["first"]
keys = [f["key"] for f in d["findings"]]
assert "data_bad" in keys and "writes_lost" not in keys, keys
assert any("data did not verify: 1 of 8 blocks bad: 1 corrupt (at 5242880)" in w for w in d["warnings"]), d["warnings"]'
FAKE_READ_FLIP=$((5 * 1048576 + 100)) check "a flipped byte, text: figures printed, exit 7" 7 seqwrite --verify "${Z[@]}" "$T"
if grep -q '^seqwrite: ' "$S/out" && grep -q '1 bad, 1 corrupt (the first at 5242880)' "$S/out" &&
	grep -q '^diskbench: warning: data did not verify' "$S/err"; then
	ok "a flipped byte, text: the result, the bad block, the warning"
else
	not_ok "a flipped byte, text: the result, the bad block, the warning" "$(cat "$S/out" "$S/err")"
fi
FAKE_DROP_WRITES=5 check "writes dropped: exit 7" 7 --json seqwrite --engine=sync --verify "${Z[@]}" "$T"
py "writes dropped after the 5th (the warm-up, blocks 0-3): blocks 4-7 unwritten, durable writes lost" '
v = d["result"]["verify"]
assert v["unwritten"] == 4 and v["bad"] == 4 and v["good"] == 4, v
assert [b["offset"] for b in v["first"]["unwritten"]] == [i << 20 for i in range(4, 8)], v["first"]
f = {x["key"]: x for x in d["findings"]}
assert f["writes_lost"]["writes"] == 4 and f["writes_lost"]["first_offset"] == 4 << 20, f
assert any("every durable-write figure from it" in w for w in d["warnings"]), d["warnings"]'
# over a region an earlier run wrote: the dropped blocks hold its blocks, stale
DB=$REAL_DB check "an earlier run's region" 0 seqwrite --verify --keep "${Z[@]}" "$S/old"
FAKE_DROP_WRITES=5 check "writes dropped over an earlier run's blocks: exit 7" 7 --json seqwrite --engine=sync \
	--verify --force "${Z[@]}" "$S/old"
py "writes dropped over an earlier run: blocks 4-7 stale, another run's" '
v = d["result"]["verify"]
assert v["stale"] == 4 and v["bad"] == 4, v
assert [(b["offset"], b["generation_found"]) for b in v["first"]["stale"]] == [(i << 20, 0) for i in range(4, 8)], v["first"]
assert "writes_lost" in [f["key"] for f in d["findings"]], d["findings"]'
check "the fake without a fault: all good" 0 --json seqwrite --verify "${Z[@]}" "$T"
py "the fake without a fault: none bad" 'assert d["result"]["verify"]["bad"] == 0, d["result"]["verify"]'
DB=$REAL_DB

# ---- the witness --------------------------------------------------------------
W="$S/witness"
check "--witness FILE" 0 --json seqwrite --verify --witness "$W" "${Z[@]}" "$T"
cp "$S/out" "$S/doc.json"
py "--witness: a line per write acknowledged, then the end" "
r = json.load(open('$S/doc.json'))['result']
lines = open('$W').read().splitlines()
assert lines[0].startswith('# diskbench witness 1 run=' + r['verify']['run_id'] + ' bs=1048576 region=8388608 target='), lines[0]
w = [l.split() for l in lines if l.startswith('w ')]
assert len(w) == r['ios'] + 1, (len(w), r['ios'])
assert all(int(o) % 1048576 == 0 and int(o) < 8 << 20 and int(g) >= 1 for _, o, g in w), w[:3]
assert lines[-1] == '# end lines=%d' % len(w), lines[-1]
assert r['verify']['witness_lines'] == len(w), r['verify']"
check "--witness with --sync=fsync" 0 --json seqwrite --verify --sync=fsync --witness "$W" "${Z[@]}" "$T"
py "--sync=fsync: one line per block, after the flush" "
lines = open('$W').read().splitlines()
w = [l.split() for l in lines if l.startswith('w ')]
assert sorted(int(o) for _, o, _ in w) == [i << 20 for i in range(8)], w"
check "--witness -: lines on stdout" 0 --json seqwrite --verify --witness - "${Z[@]}" "$T"
py "--witness -: stdout holds the witness alone, the JSON document is on stderr" '
lines = out.splitlines()
assert lines and all(l.startswith(("# diskbench witness", "w ", "# end")) for l in lines), lines[:5]
doc = json.loads(err[err.index("{"):])
assert doc["result"]["verify"]["bad"] == 0, doc["result"]["verify"]'

# ---- diskbench verify: a region read back long after --verify --keep wrote it ----
K="$S/kept"
check "seqwrite --verify --keep --witness" 0 seqwrite --verify --keep --witness "$W" "${Z[@]}" "$K"
sum_before=$(md5sum <"$K")
check "verify: a kept region, from its headers" 0 --json verify "$K"
py "verify: 8 blocks, all good, its run named" '
v = d["verify"]
assert d["test"] == "verify" and v["mode"] == "headers" and v["blocks"] == 8 and v["good"] == 8, v
assert v["bad"] == 0 and v["no_header"] == 0 and v["other_run"] == 0, v'
check "verify --witness: every acknowledged write there" 0 --json verify --witness "$W" "$K"
py "verify --witness: the 8 blocks it lists, all good, none lost" '
v = d["verify"]
assert v["mode"] == "witness" and v["acknowledged"] == 8 and v["good"] == 8 and v["lost"] == 0, v
assert v["witness_lines"] >= 8 and v["witness_noise"] == 0 and v["in_flight"] == 0, v'
[ "$(md5sum <"$K")" = "$sum_before" ] && ok "verify writes nothing" || not_ok "verify writes nothing" "the file changed"

# a block overwritten on this machine between the write and the verify
cp "$K" "$S/k2"
printf 'XXXX' | dd of="$S/k2" bs=1 seek=$((3 * 1048576 + 777)) conv=notrunc status=none
check "verify: a block overwritten since: exit 7" 7 --json verify "$S/k2"
py "verify: corrupt at 3 MiB, where the bytes were overwritten" '
v = d["verify"]
assert v["corrupt"] == 1 and [b["offset"] for b in v["first"]["corrupt"]] == [3 << 20], v
assert "writes_lost" not in [f["key"] for f in d["findings"]], d["findings"]'
# block 5 copied over block 2: a misdirected write, or a fake drive's wrap
cp "$K" "$S/k3"
dd if="$K" of="$S/k3" bs=1M skip=5 seek=2 count=1 conv=notrunc status=none
check "verify: another block's data in block 2: exit 7" 7 --json verify "$S/k3"
py "verify: misplaced at 2 MiB, holding the block written for 5 MiB" '
v = d["verify"]
assert v["misplaced"] == 1 and v["first"]["misplaced"] == [{"offset": 2 << 20, "written_for": 5 << 20}], v'
# block 6 zeroed: without the witness only counted, with it an acknowledged write gone
cp "$K" "$S/k4"
dd if=/dev/zero of="$S/k4" bs=1M seek=6 count=1 conv=notrunc status=none
check "verify: a block without a header is no proof from the headers alone" 0 --json verify "$S/k4"
py "verify: counted without a header, not bad" '
v = d["verify"]
assert v["no_header"] == 1 and v["good"] == 7 and v["bad"] == 0, v'
check "verify --witness: the zeroed block was acknowledged: exit 7" 7 --json verify --witness "$W" "$S/k4"
py "verify --witness: unwritten at 6 MiB, a durable write lost" '
v = d["verify"]
assert v["unwritten"] == 1 and v["first"]["unwritten"][0]["offset"] == 6 << 20, v
assert "writes_lost" in [f["key"] for f in d["findings"]], d["findings"]'
# what a power cut does to the witness: console noise, no end, a line cut in two
python3 - "$W" "$S/w-cut" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines(True)
body = [l for l in lines if not l.startswith("# end")]
open(sys.argv[2], "w").write("[    3.1] serial8250: too much work\n" + body[0] + "[    3.2] EXT4-fs: mounted\n" + "".join(body[1:]) + "w 10485")
PY
check "verify --witness: a witness cut by the power" 0 --json verify --witness "$S/w-cut" "$K"
py "verify --witness: noise counted, no end said, the writes all there" '
v = d["verify"]
assert v["witness_noise"] == 1 and v["good"] == 8 and v["bad"] == 0, v
assert any("no end line" in w for w in d["warnings"]), d["warnings"]'
# block 0 (written twice: the warm-up, then the pass) torn by a write in flight
# at the cut: the witness acknowledged only its first write, the block holds
# the second, torn; nothing was promised
python3 - "$W" "$S/w-older" <<'PY'
import sys
lines = open(sys.argv[1]).read().splitlines()
gen = max(int(l.split()[2]) for l in lines if l.startswith("w 0 "))
assert gen >= 2, lines[:4]
keep = [l for l in lines if not (l.startswith("w 0 ") and int(l.split()[2]) >= gen)]
open(sys.argv[2], "w").write("\n".join(keep) + "\n")
PY
cp "$K" "$S/k5"
printf 'torn' | dd of="$S/k5" bs=1 seek=600000 conv=notrunc status=none
check "verify --witness: a torn block whose newer write was never acknowledged" 0 --json verify --witness "$S/w-older" "$S/k5"
py "verify --witness: in flight, not bad" '
v = d["verify"]
assert v["in_flight"] == 1 and v["bad"] == 0 and v["good"] == 7, v'
check "verify --witness: the same tear where that write was acknowledged: exit 7" 7 --json verify --witness "$W" "$S/k5"
py "verify --witness: corrupt at 0" '
v = d["verify"]
assert v["corrupt"] == 1 and v["first"]["corrupt"][0]["offset"] == 0 and v["in_flight"] == 0, v'
# a disk that dropped acknowledged writes (the fake), checked by the real binary:
# over a copy of the kept region, so that the dropped blocks hold an older run's
cp "$K" "$S/k6"
DB=$FAKE FAKE_DROP_WRITES=5 check "writes dropped, kept with a witness" 7 seqwrite --engine=sync --verify \
	--force --keep --witness "$S/w6" "${Z[@]}" "$S/k6"
check "verify --witness after writes were dropped: exit 7" 7 --json verify --witness "$S/w6" "$S/k6"
py "verify --witness: the 4 acknowledged writes lost, at 4-7 MiB" '
v = d["verify"]
assert v["lost"] == 4 and [b["offset"] for b in v["first"]["lost"]] == [i << 20 for i in range(4, 8)], v
assert all(b["generation_found"] == 0 and b["generation_wanted"] == 1 for b in v["first"]["lost"]), v["first"]["lost"]
assert v["good"] == 4 and v["acknowledged"] == 8, v
f = {x["key"]: x for x in d["findings"]}
assert f["writes_lost"]["writes"] == 4, f'
STDIN=$W check "verify --witness -: the witness on stdin" 0 --json verify --witness - "$K"
py "verify --witness -: read from stdin" 'assert d["verify"]["acknowledged"] == 8, d["verify"]'
check "verify --csv" 0 --csv verify "$K"
py "verify --csv: a header and one row" '
rows = list(csv.DictReader(io.StringIO(out)))
assert len(rows) == 1 and rows[0]["mode"] == "headers" and rows[0]["good"] == "8" and rows[0]["corrupt"] == "0", rows'
check "verify: text" 0 verify "$K"
if grep -q "^verify: $K (run [0-9a-f]\{16\}, region 8.0 MiB): 8 blocks of 1 MiB read back in [0-9.]* s from their headers alone (CRC32C by [a-z0-9.]*): all good$" "$S/out"; then
	ok "verify: the text line"
else
	not_ok "verify: the text line" "$(cat "$S/out")"
fi
head -c $((4 << 20)) /dev/urandom >"$S/random"
check "verify: a file no --verify wrote: exit 1" 1 verify "$S/random"
grep -q "did a write test.s --verify --keep leave it" "$S/err" && ok "verify: says why" || not_ok "verify: says why" "$(cat "$S/err")"
check "verify: a directory is refused" 2 verify "$S"
check "verify: a missing file is refused" 2 verify "$S/nothing"
printf 'not a witness\n' >"$S/bad-witness"
check "verify --witness: not a witness" 2 verify --witness "$S/bad-witness" "$K"

# ---- job files ------------------------------------------------------------------
mkdir "$S/j"
# jobfile NAME [KEY=VALUE...]: [global] with the keys given (from line 5), a
# write job of 1 MiB in 64 KiB blocks on $S/jw, a read job (stonewall) on $S/jr
jobfile() {
	local f="$S/j/$1.fio"; shift
	printf '[global]\ndirect=1\nbs=64k\nsize=1m\n' >"$f"
	printf '%s\n' "$@" >>"$f"
	printf '[w]\nrw=write\nfilename=%s\n[r]\nstonewall\nrw=read\nfilename=%s\n' "$S/jw" "$S/jr" >>"$f"
}
jobfile crc verify=crc32c
check "job: verify=crc32c, all good" 0 --json job "$S/j/crc.fio"
py "job: the write job read back, 1 MiB / 64 KiB = 16 blocks; the read job not checked" '
w, r = d["tests"]
v = w["result"]["verify"]
assert w["step"] == "w" and v["mode"] == "after" and v["block_size"] == 65536, v
assert v["blocks"] == 16 and v["good"] == 16 and v["bad"] == 0 and v["bytes"] == 1 << 20, v
assert "verify" not in r["result"], r["result"].keys()
assert "verify=crc32c" in w["job"]["fio"], w["job"]
assert any(x.startswith("r: a job that only reads is not verified") for x in d["warnings"]), d["warnings"]'
check "job: verify=crc32c, text" 0 job "$S/j/crc.fio"
if grep -q '^  verify: 16 blocks of 64 KiB read back in [0-9.]* s after the writes (CRC32C by [a-z0-9.]*): all good$' "$S/out"; then
	ok "job, text: the write job's verify line"
else
	not_ok "job, text: the write job's verify line" "$(cat "$S/out")"
fi
DB=$FAKE FAKE_READ_FLIP=$((3 * 65536 + 100)) check "job: a flipped byte: exit 7" 7 --json job "$S/j/crc.fio"
py "job: one corrupt block at 3 x 64 KiB, the read job after it run" '
w, r = d["tests"]
v = w["result"]["verify"]
assert v["corrupt"] == 1 and v["bad"] == 1 and v["good"] == 15, v
assert [b["offset"] for b in v["first"]["corrupt"]] == [196608], v["first"]
assert r["result"]["ios"] == 16, r["result"]
assert any("w: data did not verify: 1 of 16 blocks bad: 1 corrupt (at 196608)" in x for x in d["warnings"]), d["warnings"]
assert "data_bad" in [f["key"] for f in d["findings"]], d["findings"]'
jobfile plain bs=128k
check "job --verify over a file without verify=" 0 --json job --verify "$S/j/plain.fio"
py "job --verify: 1 MiB / 128 KiB = 8 blocks" '
v = d["tests"][0]["result"]["verify"]
assert v["blocks"] == 8 and v["good"] == 8 and v["block_size"] == 131072, v
assert "verify" not in d["tests"][1]["result"], d["tests"][1]'
jobfile backlog verify=crc32c verify_backlog=4 iodepth=8 ioengine=libaio
check "job: verify_backlog=4" 0 --json job "$S/j/backlog.fio"
py "job: verify_backlog=4: every write read back as it went" '
r = d["tests"][0]["result"]; v = r["verify"]
assert v["mode"] == "backlog" and v["blocks"] == 16 and r["ios"] == 16 and v["good"] == 16, (v, r["ios"])'
jobfile off verify=crc32c do_verify=0
check "job: do_verify=0" 0 --json job "$S/j/off.fio"
py "job: do_verify=0: nothing read back" 'assert "verify" not in d["tests"][0]["result"], d["tests"][0]["result"]'
jobfile dsync verify=crc32c sync=dsync
check "job --witness: a sync=dsync job" 0 job --witness "$S/jwit" "$S/j/dsync.fio"
if [ "$(grep -c '^w ' "$S/jwit")" = 16 ] && grep -q '^# end lines=16$' "$S/jwit"; then
	ok "job --witness: its 16 writes"
else
	not_ok "job --witness: its 16 writes" "$(head -c 300 "$S/jwit")"
fi
jobfile md5 verify=md5
if run 2 job "$S/j/md5.fio" && grep -q "md5.fio:5: verify=md5: .*use verify=crc32c" "$S/err"; then
	ok "job: verify=md5 refused, with its line and what to use"
else
	not_ok "job: verify=md5 refused, with its line and what to use" "exit $rc" "$(cat "$S/err")"
fi
if run 2 job --witness "$S/jwit2" "$S/j/crc.fio" && grep -q "give it sync=dsync or end_fsync=1" "$S/err"; then
	ok "job --witness: a job without sync= refused"
else
	not_ok "job --witness: a job without sync= refused" "exit $rc" "$(cat "$S/err")"
fi
printf '[global]\nverify=crc32c\nsync=dsync\nbs=64k\nsize=1m\nrw=write\n[a]\nfilename=%s\n[b]\nstonewall\nfilename=%s\n' \
	"$S/jw" "$S/jr" >"$S/j/two.fio"
if run 2 job --witness "$S/jwit3" "$S/j/two.fio" && grep -q "holds one run's writes, and 2 jobs" "$S/err"; then
	ok "job --witness: two jobs that write and verify refused"
else
	not_ok "job --witness: two jobs that write and verify refused" "exit $rc" "$(cat "$S/err")"
fi
jobfile tiny verify=crc32c bs=256 direct=0
if run 2 job "$S/j/tiny.fio" && grep -q "at least 512 bytes" "$S/err"; then
	ok "job: verify with blocks under 512 bytes refused"
else
	not_ok "job: verify with blocks under 512 bytes refused" "exit $rc" "$(cat "$S/err")"
fi
[ -e "$S/jw" ] || [ -e "$S/jr" ] && not_ok "job runs leave no file" "$(ls "$S")" || ok "job runs leave no file"

# ---- a block device -------------------------------------------------------------
if [ "$(id -u)" = 0 ] && truncate -s 16M "$S/dev.img" && LOOP=$(losetup -f --show "$S/dev.img" 2>/dev/null); then
	check "a loop device: seqwrite --verify --force" 0 --json seqwrite --verify --force "${Z[@]}" "$LOOP"
	py "a loop device: all good" 'assert d["result"]["verify"]["bad"] == 0 and d["result"]["verify"]["blocks"] == 8, d["result"]["verify"]'
	check "a loop device: verify reads it back" 0 --json verify "$LOOP"
	py "a loop device: verify, 8 blocks of its 8 MiB region good" '
v = d["verify"]
assert v["region"] == 8 << 20 and v["good"] == 8 and v["bad"] == 0, v
assert d["file"].startswith("/dev/loop"), d["file"]'
else
	skip "a loop device" "needs root and a free loop device"
fi

# ---- refused -----------------------------------------------------------------
refused() {
	local name=$1 words=$2; shift 2
	if run 2 "$@" && grep -q -- "$words" "$S/err"; then
		ok "$name"
	else
		not_ok "$name" "exit $rc" "$(head -c 300 "$S/err")"
	fi
}
refused "--witness without --verify" "goes with --verify" seqwrite --witness "$W" "${Z[@]}" "$T"
refused "--verify=bogus" "use --verify (after the writes) or --verify=backlog" seqwrite --verify=bogus "${Z[@]}" "$T"
refused "--verify with --engine=nop" "writes nothing" seqwrite --verify --engine=nop "${Z[@]}" "$T"
refused "--verify with blocks under 512 bytes" "at least 512 bytes" seqwrite --verify -b 256 --no-direct -s 64k -t 0.3 "$T"
refused "--verify with random writes over too few blocks" "twice as many blocks as writes in flight" \
	randwrite --verify --qd 8 -s 32k -t 0.3 "$T"
refused "--verify with a mix that trims" "trims discard" randrw --verify --mix r50,w40,t10 "${Z[@]}" "$T"
refused "--verify over several targets" "one TARGET" seqwrite --verify "${Z[@]}" "$T" "$S/u"
refused "--witness with --sync=none" "sync=none makes none" seqwrite --verify --sync=none --witness "$W" "${Z[@]}" "$T"
refused "--verify=backlog with --rate" "open loop" seqwrite --verify=backlog --rate 100 "${Z[@]}" "$T"
refused "steady --verify without --precondition" "give --precondition" steady randwrite --verify -s 8M --round 0.2 "$T"
refused "--verify on a read test" "does not apply to seqread" seqread --verify "${Z[@]}" "$S"
[ -e "$T" ] && not_ok "refused runs leave no file" "$T exists" || ok "refused runs leave no file"

tap_done
