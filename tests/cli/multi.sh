#!/usr/bin/env bash
# End-to-end tests of several targets at once (Orion's LUNs, iozone's -F):
# per-target figures that add up to the total in text, JSON and CSV; writes
# with --force on two loop devices; the refusals that come before anything
# is touched (a mounted second target, the same device twice); two scratch
# directories; a sweep whose default levels grow with the targets.
#
#   bash tests/cli/multi.sh ./diskbench      (part of `make cli`)
#
# Writes only inside a scratch directory under /var/tmp (mktemp -d): two
# 32 MiB image files, the loop devices made over them (losetup) and an ext4
# mounted from one of them; a trap unmounts, detaches and removes all of
# it, also when a case fails or the run is interrupted.  Without root or
# loop devices the device cases are skipped, with the reason.
# Output: `ok N - name` / `not ok N - name`, then `N passed, M failed, K skipped`.
set -u

DB=$(realpath -- "${1:?usage: multi.sh PATH/TO/diskbench}") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-multi.XXXXXX) || exit 2
LOOPS=(); MNT=""
cleanup() {
	local l
	[ -n "$MNT" ] && { umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null; }
	MNT=""
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null; done
	LOOPS=()
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"

left_in() { find "$@" -name '.diskbench-*' 2>/dev/null; }

# The per-target parts of a JSON document against its total: bytes and I/Os
# exactly; each target's rate is over the run's common window, so the rates
# computed here from bytes and seconds add up to the total's (issue 19).
SUMS='
d = json.loads(out)
ts, res = d["targets"], d["result"]
assert len(ts) == 2, len(ts)
assert d["target"] == ts[0]["target"], "the top-level target is the first"
assert sum(t["bytes"] for t in ts) == res["bytes"], (sum(t["bytes"] for t in ts), res["bytes"])
assert sum(t["ios"] for t in ts) == res["ios"]
assert sum(t["lat_ns"]["p50"] > 0 for t in ts) == 2
assert all(t["bytes"] > 0 and t["file"] for t in ts), "every target did I/O"
for t in ts:
    assert abs(t["seconds"] - res["seconds"]) <= 1e-6, ("the common window", t["seconds"], res["seconds"])
    assert abs(t["bytes"] / t["bytes_per_sec"] - t["seconds"]) <= 1e-6, "rate = bytes / seconds"
    assert t["lat_ns"]["p99"] >= t["lat_ns"]["p50"]
    assert t["device"] is None or "name" in t["device"]
'
# A run that ends at its time limit: every target busy to the end, so the
# rates add up too (within 1 %: the threads start and stop a little apart).
RATES='
for key in ("bytes_per_sec", "iops"):
    got, want = sum(t[key] for t in ts), res[key]
    assert abs(got - want) <= 0.01 * want, (key, got, want)
'

# ---- two directories -------------------------------------------------------------
D1="$S/d1"; D2="$S/d2"; mkdir -p "$D1" "$D2"
check "seqwrite on two directories, no --force needed" 0 seqwrite -s 8M -t 2 "$D1" "$D2"
if [ "$(grep -c "^  $S/d[12] (.*new file): [0-9]* bytes in .* IOPS, p50 .*, p99 " "$S/out")" = 2 ] &&
	grep -q '^seqwrite: .*2 targets[],]' "$S/out"; then
	ok "seqwrite text: the total's line, then a line per target"
else
	not_ok "seqwrite text: the total's line, then a line per target" "$(cat "$S/out")"
fi
[ -z "$(left_in "$D1" "$D2")" ] && ok "seqwrite: no test file left" || not_ok "seqwrite: no test file left" "$(left_in "$D1" "$D2")"
check "seqread on two directories" 0 --json seqread -s 8M -t 2 "$D1" "$D2"
py "seqread JSON: the targets add up to the total" "$SUMS"
check "seqread CSV" 0 --csv seqread -s 8M -t 2 "$D1" "$D2"
py "seqread CSV: a row per target, then the total" '
rows = list(csv.DictReader(io.StringIO(out)))
assert [r["target"] for r in rows[:2]] == ["'"$D1"'", "'"$D2"'"], rows
assert rows[2]["target"] == "total", rows[2]
assert int(rows[0]["bytes"]) + int(rows[1]["bytes"]) == int(rows[2]["bytes"])
assert int(rows[0]["threads"]) + int(rows[1]["threads"]) == int(rows[2]["threads"])
assert rows[0]["warnings"] == "" and rows[1]["warnings"] == ""'
# one target done long before the other (--once over 8 MiB and 1 MiB): its
# rate is still over the common window, so the parts add up to the total
head -c 1M /dev/urandom >"$S/small"
check "seqread --once over a directory and a small file" 0 --json seqread --once -b 64k -s 8M "$D1" "$S/small"
py "seqread --once: the parts' rates (bytes / seconds) add up to the total's" "$SUMS"'
parts = sum(t["bytes"] / t["seconds"] for t in ts)
total = res["bytes"] / res["seconds"]
assert abs(parts - total) <= 1e-4 * total, (parts, total)
assert [t["bytes"] for t in ts] == [8 << 20, 1 << 20], [t["bytes"] for t in ts]
assert res["ended"] == "one pass", res["ended"]'
# random reads --once: one pass over each target's own region, not -s bytes
# on each (issue 33: the 1 MiB file was read 8 times over and called one pass)
check "randread --once over a directory and a small file" 0 --json randread --once -s 8M "$D1" "$S/small"
py "randread --once: 8 MiB from the directory's file, 1 MiB from the small one" "$SUMS"'
assert [t["bytes"] for t in ts] == [8 << 20, 1 << 20], [t["bytes"] for t in ts]
assert res["bytes"] == 9 << 20, res["bytes"]
assert res["ended"] == "one pass", res["ended"]'
check "randread -j 1 over two directories" 0 randread -j 1 -s 8M -t 1 "$D1" "$D2"
grep -q 'warning: -j 1 raised to 2' "$S/err" && ok "-j below the number of targets: raised, and said" ||
	not_ok "-j below the number of targets: raised, and said" "$(cat "$S/err")"
check "the same directory twice: a usage error" 2 seqread -s 8M "$D1" "$D2" "$D1/"
grep -q "is the same directory as" "$S/err" && ok "the same directory twice: said" || not_ok "the same directory twice: said" "$(cat "$S/err")"
check "cached takes one target" 2 cached -t 0.3 "$D1" "$D2"
head -c 1048576 /dev/urandom >"$S/existing"
check "seqwrite with an existing file among the targets: refused" 3 seqwrite -s 8M "$D1" "$S/existing"
[ -z "$(left_in "$D1")" ] && ok "refused before creating a file in the first target" || not_ok "refused before creating a file in the first target" "$(left_in "$D1")"

# issue 44: a stray word after the TARGET ('randread -s 64M DIR 2') was a
# second target: a file named 2 made and read beside DIR, two threads on one
# device.  A new path that looks like a value, on a device another target is
# on, is refused before anything is made; './2', an existing 2, or a name
# that looks like none are targets as they were.
mkdir -p "$S/cwd"
pushd "$S/cwd" >/dev/null || exit 2
for w in 2 64M 0.5; do
	check "randread -s 8M DIR $w (a new path that looks like a value): exit 2" 2 randread -s 8M -t 0.2 "$D1" "$w"
	grep -qF "target '$w' does not exist and looks like a value" "$S/err" && grep -qF "'./$w'" "$S/err" &&
		ok "... saying why, and how to mean it ('./$w')" || not_ok "... saying why, and how to mean it ('./$w')" "$(cat "$S/err")"
done
[ -z "$(ls -A "$S/cwd")" ] && [ -z "$(left_in "$D1")" ] && ok "... nothing made in either" || not_ok "... nothing made in either" "$(ls -A "$S/cwd") $(left_in "$D1")"
check "randread DIR ./2: a target as asked, exit 0" 0 randread -s 8M -t 0.2 "$D1" ./2
mkdir 3
check "randread DIR 3 (an existing directory named 3): exit 0" 0 randread -s 8M -t 0.2 "$D1" 3
check "randread DIR newfile (no value): exit 0" 0 randread -s 8M -t 0.2 "$D1" newfile
[ "$(ls -A "$S/cwd")" = 3 ] && ok "... their test files removed" || not_ok "... their test files removed" "$(ls -A "$S/cwd")"
popd >/dev/null || exit 2

# Ctrl-C: every target's test file is removed (a sweep's points run by time)
"$DB" sweep --run oltp --levels 2 --point-time 20 --budget 60 -s 8M "$D1" "$D2" >"$S/out" 2>"$S/err" &
pid=$!
sleep 2
kill -INT "$pid" 2>/dev/null
wait "$pid"; rc=$?
if [ "$rc" = 130 ] && [ -z "$(left_in "$D1" "$D2")" ]; then
	ok "SIGINT: exit 130, no test file left in either directory"
else
	not_ok "SIGINT: exit 130, no test file left in either directory" "exit $rc" "$(left_in "$D1" "$D2")"
fi

# ---- two loop devices ------------------------------------------------------------
LOOP_CASES=("randread on two loop devices: figures add up" "randread text: a line per device"
	"randwrite --force on two loop devices" "randwrite: both devices written"
	"the same device twice: a usage error" "the same device through a symlink: a usage error"
	"sweep over two devices: default levels scaled" "seqwrite refused: the second device mounted"
	"refused before touching the first device" "refused with the mounted device first too")
# loops_ready: two loop devices in LOOPS, or the reason why not in $why
loops_ready() {
	local i l
	[ "$(id -u)" = 0 ] || { why="not root"; return 1; }
	command -v losetup >/dev/null || { why="no losetup"; return 1; }
	for i in 1 2; do
		head -c $((32 * 1024 * 1024)) /dev/urandom >"$S/img$i" || { why="cannot write the image"; return 1; }
		l=$(losetup -f --show "$S/img$i" 2>/dev/null) || { why="losetup failed (no loop devices here?)"; return 1; }
		LOOPS+=("$l")
	done
}
why=""
if ! loops_ready; then
	for c in "${LOOP_CASES[@]}"; do skip "$c" "$why"; done
else
	L1=${LOOPS[0]}; L2=${LOOPS[1]}
	check "randread on two loop devices: figures add up" 0 --json randread -j 4 -s 1G -t 1 "$L1" "$L2"
	# the devices' names come from sysfs: a chroot without /sys knows none
	n1="${L1#/dev/}, " n2="${L2#/dev/}, " names="['${L1#/dev/}', '${L2#/dev/}']"
	[ -d /sys/class/block ] || { n1="" n2="" names="[None, None]"; }
	py "randread JSON: the targets add up to the total" "$SUMS$RATES
assert [t['device']['name'] for t in ts] == $names, [t['device'] for t in ts]
assert all(t['file_state'] == 'device' and t['threads'] == 2 for t in ts)"
	check "randread text: a line per device" 0 randread -s 1G -t 0.5 "$L1" "$L2"
	if grep -q "^  $L1 (${n1}device): " "$S/out" && grep -q "^  $L2 (${n2}device): " "$S/out"; then
		ok "randread text: each device named on its line"
	else
		not_ok "randread text: each device named on its line" "$(cat "$S/out")"
	fi
	s1=$(sha256sum <"$L1"); s2=$(sha256sum <"$L2")
	check "randwrite --force on two loop devices" 0 --json randwrite --force -j 2 -s 1G -t 1 "$L1" "$L2"
	py "randwrite JSON: the targets add up to the total" "$SUMS$RATES"
	if [ "$(sha256sum <"$L1")" != "$s1" ] && [ "$(sha256sum <"$L2")" != "$s2" ]; then
		ok "randwrite: both devices written"
	else
		not_ok "randwrite: both devices written" "checksums unchanged"
	fi
	check "the same device twice: a usage error" 2 randread -s 8M "$L1" "$L2" "$L1"
	ln -s "$L2" "$S/link"
	check "the same device through a symlink: a usage error" 2 randread -s 8M "$L2" "$S/link"
	check "sweep over two devices" 0 --json sweep --run oltp --budget 2 --point-time 0.3 -s 16M "$L1" "$L2"
	py "sweep over two devices: default levels scaled" '
d = json.loads(out)
levels = d["result"]["series"][0]["levels"]
assert levels[0] == 2 and all(l % 2 == 0 for l in levels), levels
assert len(d["targets"]) == 2 and all(t["bytes"] > 0 for t in d["targets"]), d["targets"]'
	if command -v mkfs.ext4 >/dev/null && mkfs.ext4 -q -F "$L2" >/dev/null 2>&1 &&
		mkdir -p "$S/mnt" && mount "$L2" "$S/mnt" 2>/dev/null; then
		MNT="$S/mnt"
		s1=$(sha256sum <"$L1")
		check "seqwrite refused: the second device mounted" 3 seqwrite --force -s 8M -t 1 "$L1" "$L2"
		grep -q "is in use: .* mounted at $S/mnt" "$S/err" && ok "the refusal names the mount" ||
			not_ok "the refusal names the mount" "$(cat "$S/err")"
		check "refused with the mounted device first too" 3 randwrite --force -s 8M -t 1 "$L2" "$L1"
		[ "$(sha256sum <"$L1")" = "$s1" ] && ok "refused before touching the first device" ||
			not_ok "refused before touching the first device" "$L1 changed"
		umount "$MNT" && MNT=""
	else
		for c in "seqwrite refused: the second device mounted" "the refusal names the mount" \
			"refused with the mounted device first too" "refused before touching the first device"; do
			skip "$c" "cannot make and mount an ext4 on $L2"
		done
	fi
fi

tap_done
