#!/usr/bin/env bash
# End-to-end tests of `diskbench matrix` (iozone -a, honestly).
#
#   bash tests/cli/matrix.sh ./diskbench      (part of `make cli`)
#
# Writes only inside a scratch directory under /var/tmp (mktemp -d) and, as
# root, a 16 MiB tmpfs mounted there; a trap removes all of it, also when a
# case fails or the run is interrupted.  Files are at most 16 MiB.
# Output: `ok N - name` / `not ok N - name`, then `N passed, M failed, K skipped`.
#
# Agreement with single runs: each read and randread cell is compared with
# `diskbench seqread|randread -b BS -s SIZE -t LIMIT` at the same point, on
# the same directory, and must be within NOISE (3x) of it either way.  This
# VM's virtual disk varies 2x from one run to the next on the same command
# (shared host, host page cache behind O_DIRECT), so a tighter factor would
# fail on noise; a cell measuring something else (the page cache, another
# block size, a tenth of the file) would still be off by far more than 3x.
# Cells the tool itself calls too short (under 0.2 s or 20 I/Os) are left
# out: a few I/Os time nothing.  Writes are not compared: O_DSYNC writes here
# vary 5x from run to run (the host's flushes), which no fixed factor covers.
set -u

DB=$(realpath -- "${1:?usage: matrix.sh PATH/TO/diskbench}") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-matrix.XXXXXX) || exit 2
MNT=""
cleanup() {
	[ -n "$MNT" ] && { umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null; }
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

NOISE=${NOISE:-3}
. "$(dirname "$0")/tap.sh"


D="$S/dir"; mkdir -p "$D"
GRID=(--file-sizes 4M,16M --block-sizes 4k,64k,1M)

# ---- the grid, the budget, JSON ------------------------------------------------------
check "matrix --json on a small grid, --budget 10s" 0 matrix "${GRID[@]}" --budget 10s --json "$D"
cp "$S/out" "$S/grid.json"
py "JSON: 36 cells = 6 ops x 2 file sizes x 3 block sizes, each measured" '
d = json.loads(out)
assert d["test"] == "matrix" and d["schema"] == 1, d.get("test")
r = d["result"]
assert r["axes"] == {"block_sizes": [4096, 65536, 1048576], "file_sizes": [4 << 20, 16 << 20],
                     "ops": ["write", "rewrite", "read", "reread", "randread", "randwrite"]}, r["axes"]
cells = r["cells"]
assert len(cells) == 36, len(cells)
keys = {(c["op"], c["file_size"], c["block_size"]) for c in cells}
assert len(keys) == 36, "a point appears twice"
for c in cells:
    assert c["skipped"] is None, c
    assert c["direct"] is True and c["ios"] > 0 and c["seconds"] > 0, c
    assert c["bytes"] == c["ios"] * c["block_size"], c
    assert c["bytes"] <= c["file_size"], "a cell is at most one pass over its file: %r" % c
    assert abs(c["bytes_per_sec"] * c["seconds"] - c["bytes"]) <= 0.01 * c["bytes"] + 1, c
    assert c["lat_ns"]["p50"] <= c["lat_ns"]["p99"], c
    assert c["sync"] == ("dsync" if "write" in c["op"] else None), c
    assert c["whole_file"] == (c["bytes"] == c["region"]), c
assert d["params"]["block_size"] is None and d["params"]["direct"] is True
'
# elapsed_s is the program's own clock from its first layout to its last
# cell; the wall clock adds process start, probing and removal, which a busy
# machine stretches, so it only bounds what elapsed_s can have left out
py "the budget holds: elapsed <= budget + 0.5 s, wall <= budget + 5 s, cell time limits within it" '
d = json.loads(out)
r = d["result"]
assert r["budget_s"] == 10, r["budget_s"]
assert r["elapsed_s"] <= 10.5, r["elapsed_s"]
assert wall <= 15, wall
assert sum(c["seconds"] for c in r["cells"]) <= 10, "cells alone exceed the budget"
'
no_leftovers "$D" "matrix removes its test files"

# Every read and randread cell against a single run at the same point.
timed_cells() {
	python3 - "$1" <<'EOF'
import json, sys
for c in json.load(open(sys.argv[1]))["result"]["cells"]:
    if c["op"] in ("read", "randread") and not c["too_short"]:
        print(c["op"], c["block_size"], c["file_size"], "%.3f" % c["time_limit_s"], c["bytes_per_sec"])
EOF
}
timed_cells "$S/grid.json" >"$S/points"
# A disk fast enough to read the small grid's files in under 0.2 s leaves no
# cell long enough to compare: then a grid of larger files at 4 KiB blocks
# (slowest per byte), still within the tests' 64 MiB.
if [ "$(wc -l <"$S/points")" -lt 2 ] &&
	run 0 matrix --file-sizes 32M,64M --block-sizes 4k --ops read,randread --budget 10 --json "$D"; then
	cp "$S/out" "$S/grid-large.json"
	timed_cells "$S/grid-large.json" >"$S/points"
fi
# Two timed runs compared: other work on the machine can slow either, so a
# point outside NOISE is measured once more, as a one-cell matrix and a
# single run, before it counts (and the message says so).
compared=0 off="" retried=""
while read -r op bs size limit rate; do
	single=seqread; [ "$op" = randread ] && single=randread
	for try in 1 2; do
		if [ $try = 2 ]; then
			run 0 matrix --file-sizes "$size" --block-sizes "$bs" --ops "$op" --budget 5 --json "$D" &&
				rate=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["result"]["cells"][0]["bytes_per_sec"])' "$S/out")
		fi
		if ! run 0 "$single" -b "$bs" -s "$size" -t "$limit" --json "$D"; then
			verdict="exit-$rc"
			continue
		fi
		single_rate=$(sed -n 's/.*"result": {[^{}]*"bytes_per_sec": \([0-9.]*\).*/\1/p' "$S/out")
		verdict=$(awk -v c="$rate" -v s="${single_rate:-0}" -v k="$NOISE" 'BEGIN {
			r = c > 0 ? s / c : 0
			if (r >= 1 / k && r <= k) print "ok"
			else printf "off %.2fx (cell %.1f MB/s, single %.1f MB/s)\n", r, c / 1e6, s / 1e6 }')
		[ "$verdict" = ok ] && break
	done
	[ "$try" = 2 ] && [ "$verdict" = ok ] && retried="$retried $op/bs=$bs/size=$size"
	[ "$verdict" = ok ] || off="$off $op/bs=$bs/size=$size:$verdict"
	compared=$((compared + 1))
done <"$S/points"
if [ "$compared" -ge 2 ] && [ -z "$off" ]; then
	ok "each of $compared read/randread cells within ${NOISE}x of a single seqread/randread at its point${retried:+ (second single run for$retried)}"
else
	not_ok "each read/randread cell within ${NOISE}x of a single run at its point" "compared $compared;$off"
fi

# ---- blocks larger than the file, --ops ---------------------------------------------
check "a block larger than a file is no cell (iozone skips it)" 0 matrix --file-sizes 4M,16M --block-sizes 64k,8M --ops read,reread --budget 5 --json "$D"
py "JSON: 2 ops x 3 valid pairs; no 8 MiB block on the 4 MiB file" '
cells = json.loads(out)["result"]["cells"]
assert len(cells) == 6, len(cells)
assert not [c for c in cells if c["block_size"] > c["file_size"]], cells
assert [c["op"] for c in cells] == ["read"] * 3 + ["reread"] * 3, [c["op"] for c in cells]
'
check "text: a table per op, '-' where no cell" 0 matrix --file-sizes 4M,16M --block-sizes 64k,8M --ops read,reread --budget 5 "$D"
py "text: two tables, rows = file sizes, the '-' cell and its note, the O_DIRECT reread note" '
lines = out.splitlines()
heads = [l for l in lines if l.startswith("matrix: read") or l.startswith("matrix: reread")]
assert len(heads) == 2, heads
rows = [l.split() for l in lines if l.strip().startswith(("4 MiB", "16 MiB"))]
assert len(rows) == 4, rows
assert rows[0][:2] == ["4", "MiB"] and rows[0][-1] == "-", rows[0]
assert rows[1][-1] != "-", rows[1]
assert any(l.startswith("-: the block is larger than the file") for l in lines), out
assert any(l.startswith("reread: with O_DIRECT") for l in lines), out
assert any(l.startswith("matrix: 6 cells, 6 measured, 0 skipped") for l in lines), out
assert "O_DIRECT" in heads[0] or "O_DIRECT" in lines[lines.index(heads[0]) + 1], out
'

# ---- --no-direct: the page cache, said everywhere ----------------------------------
check "matrix --no-direct --json" 0 matrix "${GRID[@]}" --ops write,read,reread --budget 5 --no-direct --json "$D"
py "--no-direct JSON: direct false in every cell, a page-cache warning, writes without sync" '
d = json.loads(out)
r = d["result"]
assert r["direct"] is False and r["cache"] == "page cache", r
assert all(c["direct"] is False for c in r["cells"]), r["cells"]
assert all(c["sync"] == "none" for c in r["cells"] if c["op"] == "write"), r["cells"]
assert any("page cache" in w and "mostly RAM" in w for w in d["warnings"]), d["warnings"]
assert d["params"]["direct"] is False and d["params"]["sync"] == "none", d["params"]
'
check "matrix --no-direct text" 0 matrix "${GRID[@]}" --ops read,reread --budget 5 --no-direct "$D"
py "--no-direct text: every table header says page cache, a closing note says RAM" '
lines = out.splitlines()
heads = [lines[i + 1] for i, l in enumerate(lines) if l.startswith("matrix: re") or l.startswith("matrix: read")]
assert len(heads) == 2 and all("page cache" in h for h in heads), heads
assert any(l.startswith("page cache: these figures are mostly RAM") for l in lines), out
assert not any(l.startswith("reread: with O_DIRECT") for l in lines), out
'
if grep -q "warning: --no-direct: every figure went through the page cache" "$S/err"; then
	ok "--no-direct: the warning on stderr"
else
	not_ok "--no-direct: the warning on stderr" "$(cat "$S/err")"
fi
check "matrix --no-direct --sync=dsync keeps the sync asked for" 0 matrix --file-sizes 4M --block-sizes 64k --ops write --budget 2 --no-direct --sync=dsync --json "$D"
py "--no-direct --sync=dsync: write cells dsync" '
assert [c["sync"] for c in json.loads(out)["result"]["cells"]] == ["dsync"]
'

# ---- CSV ------------------------------------------------------------------------------
# --engine=nop moves no data: the write cells issue NOPs too, on a test file opened
# read-only, which is neither truncated nor written
check "matrix --engine=nop with write cells: exit 0" 0 matrix --file-sizes 4M --block-sizes 64k --ops write,rewrite,read --budget 2 --engine=nop --json "$D"
py "... every cell's NOPs counted" '
cells = d["result"]["cells"]
assert [c["op"] for c in cells] == ["write", "rewrite", "read"] and all(c["ios"] > 0 for c in cells), cells
assert d["params"]["engine"] == "nop", d["params"]'
check "matrix --csv" 0 matrix --file-sizes 4M --block-sizes 4k,64k --budget 4 --csv "$D"
py "CSV: the contract columns, a row per cell, test = matrix-OP" '
rows = list(csv.DictReader(out.splitlines()))
assert len(rows) == 12, len(rows)
for k in "test,target,block_size,bytes,seconds,bytes_per_sec,iops,lat_p50_ns,lat_p99_ns,op,file_size,direct,skipped".split(","):
    assert k in rows[0], k
assert {r["test"] for r in rows} == {"matrix-" + o for o in ("write", "rewrite", "read", "reread", "randread", "randwrite")}
assert all(r["test"] == "matrix-" + r["op"] and r["direct"] == "true" and float(r["bytes_per_sec"]) > 0 for r in rows), rows
'

# ---- a budget too small for the grid: skipped, said, never missing -----------------
# 36 cells need 7.2 s at 0.2 s each: 6 s holds the 4 MiB row's 18 only
check "--budget 6 on 36 cells: the 16 MiB row skipped" 0 matrix "${GRID[@]}" --budget 6 --json "$D"
py "skipped cells are in the JSON with the reason, and a warning says so" '
d = json.loads(out)
cells = d["result"]["cells"]
assert len(cells) == 36, len(cells)
big = [c for c in cells if c["file_size"] == 16 << 20]
assert all(c["skipped"] and "do not fit" in c["skipped"] for c in big), big
sk = [c for c in cells if c["skipped"]]
assert all(c["skipped"].startswith("budget") and c["bytes_per_sec"] is None for c in sk), sk
assert any(c["skipped"] is None for c in cells), "the smallest file size is measured"
assert any("--budget" in w and "skipped" in w for w in d["warnings"]), d["warnings"]
assert d["result"]["elapsed_s"] <= 6.5, d["result"]["elapsed_s"]
'
check "--budget 6 text: skip in the table and its reason" 0 matrix "${GRID[@]}" --budget 6 "$D"
py "text: skip cells and the skip note" '
assert "skip" in out and "\nskip: budget" in out, out
'

# ---- usage errors, targets, SIGINT ----------------------------------------------------
for bad in "--block-sizes 4k,,1M" "--block-sizes 4k-10M" "--file-sizes 0" "--ops read,frob" "--ops reread" "--block-sizes 512M" "--budget 0" "-b 4k"; do
	# shellcheck disable=SC2086
	if run 2 matrix $bad "$D" && grep -q '^diskbench: ' "$S/err"; then ok "matrix $bad: usage error"; else not_ok "matrix $bad: usage error" "exit $rc" "$(cat "$S/err")"; fi
done
check "every block larger than every file: usage error" 2 matrix --file-sizes 4M --block-sizes 8M,16M "$D"
check "--budget too small for the smallest file size: usage error" 2 matrix --file-sizes 4M --budget 1 "$D"
printf 'keep me' >"$S/existing"
if run 2 matrix --file-sizes 4M --budget 5 "$S/existing" && [ "$(cat "$S/existing")" = "keep me" ]; then
	ok "an existing file as target: refused (2), file unchanged"
else
	not_ok "an existing file as target: refused (2), file unchanged" "exit $rc"
fi
check "a new path as target: refused, nothing created" 2 matrix --file-sizes 4M --budget 5 "$S/newpath"
[ -e "$S/newpath" ] && not_ok "nothing created at the new path" || ok "nothing created at the new path"

"$DB" matrix --file-sizes 4M,16M --block-sizes 4k --budget 30 "$D" >/dev/null 2>"$S/err" &
pid=$!
sleep 1.5
kill -INT "$pid"
wait "$pid"; rc=$?
if [ "$rc" = 130 ]; then ok "matrix: SIGINT gives exit 130"; else not_ok "matrix: SIGINT gives exit 130" "exit $rc"; fi
no_leftovers "$D" "matrix: SIGINT leaves no file behind"

# ---- the disks' health before the first cell and after the last ---------------------
check "matrix --json: one small cell per op" 0 matrix --file-sizes 4M --block-sizes 1M --json "$D"
health_case "matrix: health read around the whole grid, as info reads the disks" "$D"

# ---- free space: refused before anything is written ----------------------------------
if [ "$(id -u)" = 0 ] && mkdir -p "$S/small" && mount -t tmpfs -o size=16m tmpfs "$S/small" 2>/dev/null; then
	MNT="$S/small"
	if run 1 matrix --file-sizes 4M,32M --block-sizes 1M --budget 5 "$MNT" &&
		grep -q "not enough free space .* for the 32 MiB file of --file-sizes.*use smaller --file-sizes" "$S/err"; then
		ok "a file size that does not fit: refused (1), naming --file-sizes"
	else
		not_ok "a file size that does not fit: refused (1), naming --file-sizes" "exit $rc" "$(cat "$S/err")"
	fi
	no_leftovers "$MNT" "the refused run leaves no file"
	check "matrix --json on tmpfs" 0 matrix --file-sizes 4M --block-sizes 1M --json "$MNT"
	health_case "matrix on tmpfs: health says there is no disk" "$MNT" "no disk under the target"
else
	skip "a file size that does not fit: refused (1), naming --file-sizes" "needs root to mount a small tmpfs"
	skip "the refused run leaves no file" "needs root to mount a small tmpfs"
	skip "matrix --json on tmpfs" "needs root to mount a small tmpfs"
	skip "matrix on tmpfs: health says there is no disk" "needs root to mount a small tmpfs"
fi

tap_done
