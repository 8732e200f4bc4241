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
#   12th (dm-flakey's drop_writes) leave all 8 blocks of an 8 MiB region
#   stale, and the disk lost durable writes (writes_lost).
# - The witness: one line per write acknowledged (O_DSYNC: as many as the
#   writes; --sync=fsync: one per block, after the flush), "# end" with the
#   count; --witness - puts the lines alone on stdout and the result on
#   stderr.
# - What --verify cannot run with, refused before anything is written (exit 2).
# Every run is -t 0.3 or one pass over at most 8 MiB, in a scratch directory
# under /var/tmp removed on exit.
set -u

if [ $# -lt 2 ]; then
	echo "usage: bash tests/cli/verify.sh PATH/TO/diskbench PATH/TO/diskbench-fake" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
FAKE=$(realpath -- "$2") || exit 2
REAL_DB=$DB
S=$(mktemp -d -p /var/tmp diskbench-verify.XXXXXX) || exit 2
cleanup() { rm -rf -- "$S"; }
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=verify
T="$S/t"
Z=(-s 8M -t 0.3)

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
check "rw --verify: a mix's writes all good" 0 --json rw --verify --qd 2 "${Z[@]}" "$T"
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
FAKE_DROP_WRITES=12 check "writes dropped: exit 7" 7 --json seqwrite --engine=sync --verify "${Z[@]}" "$T"
py "writes dropped after the 12th: all 8 blocks stale, acknowledged writes lost" '
v = d["result"]["verify"]
assert v["stale"] == 8 and v["bad"] == 8, v
assert [b["offset"] for b in v["first"]["stale"]] == [i << 20 for i in range(8)], v["first"]
assert all(b["generation_found"] < b["generation_wanted"] for b in v["first"]["stale"]), v["first"]
f = {x["key"]: x for x in d["findings"]}
assert f["writes_lost"]["writes"] == 8 and f["writes_lost"]["first_offset"] == 0, f
assert any("every durable-write figure from it" in w for w in d["warnings"]), d["warnings"]'
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
