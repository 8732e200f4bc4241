#!/usr/bin/env bash
# End-to-end tests of `diskbench files` (bonnie++'s -n):
#
#   bash tests/cli/files.sh ./diskbench      (part of `make cli`)
#
# On a scratch directory, on a tmpfs and on an ext4 filesystem in a loop
# device over a 64 MiB file, all made here: the phase counts add up (files
# of a phase = -n x its passes), latency samples match them, the outputs
# (text, JSON, CSV) agree, -j splits the files, --dir is created, used or
# refused (exit 3) as documented, and nothing is left behind: after a run,
# after SIGINT (exit 130), SIGTERM (143) and two SIGINTs in a row.  On the
# loop filesystem, --sync=fsync makes the create phase slower than without.
# The tmpfs and loop cases need root (and a loop device); they are skipped
# with the reason otherwise.  Everything lives in a scratch directory under
# /var/tmp; a trap unmounts, detaches and removes it, also on failure.
# Output: `ok N - name` / `not ok N - name`, then `N passed, M failed, K skipped`.
set -u

DB=$(realpath -- "${1:?usage: files.sh PATH/TO/diskbench}") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-files.XXXXXX) || exit 2
MNTS=() LOOP=""
cleanup() {
	local i
	for ((i = ${#MNTS[@]} - 1; i >= 0; i--)); do
		umount "${MNTS[i]}" 2>/dev/null || umount -l "${MNTS[i]}" 2>/dev/null
	done
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_TIMEOUT=300

empty_dir() { # empty_dir DIR NAME: nothing left in DIR
	local left
	left=$(find "$1" -mindepth 1 -not -name lost+found 2>/dev/null | head -n 5)
	if [ -z "$left" ]; then ok "$2"; else not_ok "$2" "left in $1: $left"; fi
}

# The JSON of a finished run: every phase's counts and figures agree.
COUNTS='
n, size, j = d["params"]["files"], d["params"]["file_size"], d["params"]["threads"]
ph = d["result"]["phases"]
want = ["seq_create", "seq_stat", "seq_read", "seq_delete",
        "rand_create", "rand_stat", "rand_read", "rand_delete"]
if size == 0:
    want = [k for k in want if not k.endswith("_read")]
assert list(ph) == want, list(ph)
total = 0
for k, p in ph.items():
    assert p["passes"] >= 1 and p["files"] == n * p["passes"], (k, p["files"], n, p["passes"])
    assert sum(b["count"] for b in p["lat_hist"]) == p["files"], k
    assert abs(p["files_per_sec"] * p["seconds"] - p["files"]) <= 1 + p["files"] * 1e-6, k
    assert p["lat_ns"]["min"] <= p["lat_ns"]["p50"] <= p["lat_ns"]["p99"] <= p["lat_ns"]["max"], k
    moves = p["op"] in ("create", "read")
    assert p["bytes"] == (p["files"] * size if moves else 0), (k, p["bytes"])
    total += p["files"]
assert d["result"]["files"] == total
assert d["params"]["per_dir"] == 1024 and "error" not in d
'

D="$S/dir"; mkdir -p "$D"

# ---- a scratch directory ------------------------------------------------------
check "files --json on a directory" 0 files -n 3000 --file-size 4k -t 0.2 --json "$D"
py "JSON: phase counts add up to -n x passes, latencies and bytes agree" "$COUNTS
assert d['test'] == 'files' and d['params']['sync'] == 'none', d['params']
assert d['file'].startswith('$D/.diskbench-files-'), d['file']
assert d['cache']['evicted'] == 'file' and d['cache']['metadata'] in ('cached', 'dropped')
assert d['result']['phases']['seq_read']['resident_before_pct'] is not None"
empty_dir "$D" "the working directory is removed after a run"
health_case "files: health read around the phases, as info reads the disks" "$D"

check "files text, -j 2, an odd -n" 0 files -n 2001 -j 2 -t 0.1 "$D"
py "text: the result line, a table of the six phases of empty files" '
lines = out.splitlines()
assert lines[0].startswith("files: 2001 files of 0 B per pass, 2 threads: seq create "), lines[0]
assert "rand create" in lines[0] and "[no fsync" in lines[0] and " read " not in lines[0], lines[0]
assert lines[1].split() == ["phase", "files", "passes", "seconds", "files/s", "p50", "p99"], lines[1]
rows = [l.split()[0] for l in lines[2:8]]
assert rows == ["seq-create", "seq-stat", "seq-delete", "rand-create", "rand-stat", "rand-delete"], rows
for l in lines[2:8]:
    files, passes = int(l.split()[1]), int(l.split()[2])
    assert files == 2001 * passes, l
assert lines[8].startswith("cache: no file data to read (evicted: file)"), lines[8]'
empty_dir "$D" "-j 2: nothing left"

check "files -j 3 --json" 0 files -n 1000 -j 3 --file-size 100 -t 0.1 --json "$D"
py "-j 3: counts add up over the threads" "$COUNTS
assert j == 3"

check "files --csv" 0 files -n 500 --file-size 1k -b 512 -t 0.05 --csv "$D"
py "CSV: files' own columns, a row per phase, files_per_sec x seconds = files" '
rows = list(csv.DictReader(io.StringIO(out)))
assert out.splitlines()[0] == ("test,target,phase,files,passes,seconds,files_per_sec,lat_p50_ns,"
    "lat_p99_ns,threads,file_size,block_size,bytes,bytes_per_sec,sync,lat_min_ns,lat_mean_ns,"
    "lat_p90_ns,lat_p99_9_ns,lat_max_ns,resident_before_pct,warnings,error"), out.splitlines()[0]
assert [r["phase"] for r in rows] == ["seq-create", "seq-stat", "seq-read", "seq-delete",
    "rand-create", "rand-stat", "rand-read", "rand-delete"], [r["phase"] for r in rows]
for r in rows:
    assert r["test"] == "files", r
    assert int(r["files"]) == 500 * int(r["passes"]), r
    assert abs(float(r["files_per_sec"]) * float(r["seconds"]) - int(r["files"])) <= 1, r
    assert r["block_size"] == "512" and r["file_size"] == "1024" and r["error"] == "", r
    if r["phase"].endswith(("create", "read")):
        assert int(r["bytes"]) == int(r["files"]) * 1024, r
        assert abs(float(r["bytes_per_sec"]) * float(r["seconds"]) - int(r["bytes"])) <= 1024, r
    else:  # stat and delete move no data: no rate, rather than 0
        assert r["bytes"] == "0" and r["bytes_per_sec"] == "", r'

check "files -q" 0 -q files -n 200 -t 0 "$D"
py "-q: the result line alone; -t 0 runs each phase once and says it is short" '
assert len(out.splitlines()) == 1 and out.startswith("files: 200 files"), out
assert "too short to time well" in err and "use a larger -n or -t" in err, err'

check "files -n 100 --keep" 0 files -n 100 -t 0 --keep "$D"
if ls -d "$D"/.diskbench-files-* >/dev/null 2>&1; then ok "--keep keeps the working directory"; else not_ok "--keep keeps the working directory" "$(ls -A "$D")"; fi
rm -rf -- "$D"/.diskbench-files-*

# ---- --dir --------------------------------------------------------------------
check "--dir DIR missing: created" 0 files -n 300 -t 0 --dir "$S/work" 
if [ ! -e "$S/work" ]; then ok "--dir: a directory it created is removed"; else not_ok "--dir: a directory it created is removed" "$(find "$S/work")"; fi
mkdir "$S/empty"
check "--dir DIR empty: used" 0 files -n 300 -t 0 --json --dir "$S/empty"
py "--dir: JSON names it, dir_state existing" '
assert d["file"] == "'"$S"'/empty" and d["target"] == "'"$S"'/empty" and d["params"]["dir_state"] == "existing", d["file"]'
if [ -d "$S/empty" ]; then empty_dir "$S/empty" "--dir: an empty directory stays, emptied"; else not_ok "--dir: an empty directory stays, emptied" "it was removed"; fi
mkdir "$S/full" && echo mine >"$S/full/mine"
check "--dir DIR not empty: refused (exit 3)" 3 files -n 300 --dir "$S/full"
if grep -q "is not empty" "$S/err" && [ "$(cat "$S/full/mine")" = mine ] && [ "$(ls -A "$S/full")" = mine ]; then
	ok "--dir refusal: says why, touches nothing"
else
	not_ok "--dir refusal: says why, touches nothing" "$(cat "$S/err")" "$(ls -A "$S/full")"
fi
check "--dir with a TARGET: usage error" 2 files --dir "$S/work2" "$D"
check "--sync=dsync: usage error" 2 files --sync=dsync "$D"
check "-n 0: usage error" 2 files -n 0 "$D"
check "fewer files than threads: usage error" 2 files -n 2 -j 3 "$D"
check "a file as TARGET: usage error" 2 files "$S/full/mine"
empty_dir "$D" "refusals leave nothing"

# ---- signals ------------------------------------------------------------------
# start_bg ARGS...: diskbench in the background (PID in BG), its stdout/stderr in $S
start_bg() { "$DB" "$@" >"$S/out" 2>"$S/err" & BG=$!; }
# wait_created DIR: until a working directory holds a round's files (or 20 s)
wait_created() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ -n "$(find "$1" -mindepth 5 -type f -print -quit 2>/dev/null)" ] && return 0
		sleep 0.1
	done
	return 1
}
signal_case() { # signal_case NAME WANT FILES SIGNALS...: -n FILES in $D
	local name=$1 want=$2 files=$3 sig; shift 3
	start_bg files -n "$files" -t 30 "$D"
	if ! wait_created "$D"; then
		kill -KILL "$BG" 2>/dev/null; wait "$BG" 2>/dev/null
		rm -rf -- "$D"/.diskbench-files-*
		not_ok "$name" "no files appeared in 20 s"
		return
	fi
	for sig in "$@"; do kill -"$sig" "$BG" 2>/dev/null; done
	wait "$BG"
	rc=$?
	# a second signal leaves at once (after the clean-up), without a message
	if [ "$rc" = "$want" ] && { [ $# -gt 1 ] || grep -q "interrupted by" "$S/err"; } && [ ! -s "$S/out" ]; then
		ok "$name: exit $want"
	else
		not_ok "$name: exit $want" "exit $rc" "$(head -c 300 "$S/err")"
	fi
	empty_dir "$D" "$name: nothing left"
}
signal_case "SIGINT during a run" 130 200000 INT
signal_case "SIGTERM during a run" 143 200000 TERM
signal_case "two SIGINTs in a row" 130 200000 INT INT

# ---- tmpfs and an ext4 loop filesystem (root) ------------------------------------
if [ "$(id -u)" != 0 ]; then
	skip "tmpfs and ext4 loop cases" "not root"
else
	T="$S/tmpfs"; mkdir -p "$T"
	if mount -t tmpfs -o size=32m,nr_inodes=4000 tmpfs "$T" 2>/dev/null; then
		MNTS+=("$T")
		check "files on tmpfs" 0 files -n 2000 --file-size 2k -t 0.1 --json "$T"
		py "tmpfs: counts add up, the RAM warning" "$COUNTS
assert any('on tmpfs: its data live in RAM' in w for w in d['warnings']), d['warnings']"
		empty_dir "$T" "tmpfs: nothing left"
		health_case "tmpfs: health says there is no disk" "$T" "no disk under the target"
		check "tmpfs: too few inodes, refused before the run" 1 files -n 5000 "$T"
		if grep -q "not enough free inodes" "$S/err"; then ok "tmpfs: says it lacks inodes"; else not_ok "tmpfs: says it lacks inodes" "$(cat "$S/err")"; fi
		check "tmpfs: too little space, refused before the run" 1 files -n 1000 --file-size 64k "$T"
		if grep -q "not enough free space" "$S/err"; then ok "tmpfs: says it lacks space"; else not_ok "tmpfs: says it lacks space" "$(cat "$S/err")"; fi
		empty_dir "$T" "tmpfs: refusals leave nothing"
	else
		skip "tmpfs cases" "cannot mount tmpfs"
	fi

	E="$S/ext4"; mkdir -p "$E"
	if ! command -v mkfs.ext4 >/dev/null 2>&1; then
		skip "ext4 loop cases" "no mkfs.ext4 (e2fsprogs)"
	elif ! truncate -s 64M "$S/ext4.img" || ! LOOP=$(losetup -f --show "$S/ext4.img" 2>/dev/null) || [ ! -b "$LOOP" ]; then
		LOOP=""
		skip "ext4 loop cases" "no loop device available"
	elif ! mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1 || ! mount "$LOOP" "$E" 2>/dev/null; then
		skip "ext4 loop cases" "cannot make or mount ext4 on $LOOP"
	else
		MNTS+=("$E")
		check "files on an ext4 loop fs" 0 files -n 2000 --file-size 4k -t 0.2 --json "$E"
		py "ext4: counts add up" "$COUNTS"
		cp "$S/out" "$S/nosync.json"
		empty_dir "$E" "ext4: nothing left"
		check "files --sync=fsync on the ext4 loop fs" 0 files -n 500 -t 0.2 --sync=fsync --json "$E"
		py "ext4: --sync=fsync creates fewer files/s than without" "$COUNTS
nosync = json.load(open('$S/nosync.json'))['result']['phases']['seq_create']['files_per_sec']
synced = d['result']['phases']['seq_create']['files_per_sec']
assert d['params']['sync'] == 'fsync', d['params']
assert synced < nosync, (synced, nosync)
print('seq create: %.0f files/s with fsync, %.0f without' % (synced, nosync), file=sys.stderr)"
		check "files --sync=fsync text" 0 -q files -n 200 -t 0 --sync=fsync "$E"
		py "the result line says the names reached stable storage" '
assert "[fsync of each file and its directory: names on stable storage" in out, out'
		empty_dir "$E" "ext4 --sync=fsync: nothing left"
		if [ -w /proc/sys/vm/drop_caches ]; then
			check "files --drop-caches=all" 0 files -n 1000 --file-size 4k -t 0 --drop-caches=all --json "$E"
			py "drop-caches=all: metadata dropped, data cold before the reads" "$COUNTS
assert d['cache']['evicted'] == 'all' and d['cache']['metadata'] == 'dropped', d['cache']
assert d['result']['phases']['seq_read']['resident_before_pct'] < 50, d['result']['phases']['seq_read']"
		else
			skip "files --drop-caches=all" "cannot write /proc/sys/vm/drop_caches"
		fi
		signal_case_dir() { D="$E"; signal_case "$@"; D="$S/dir"; }
		signal_case_dir "ext4: SIGINT during a run" 130 15000 INT
	fi
fi

tap_done
