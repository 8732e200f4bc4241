#!/usr/bin/env bash
# The dd-trap figure beside dd's own: 8 KiB writes, one at a time, each
# waiting for the device (dd bs=8k oflag=dsync), the figure admins quote
# after "dd ... && sync" gave them a page-cache number.
#
#   bash bench/dd-trap.sh [SCRATCH_DIR]          (default: /var/tmp; ~3 min)
#   REPS=5 MB=8 QUICK_T=8.5 DISKBENCH=./diskbench bash bench/dd-trap.sh /data
#
# Rows, run interleaved (one of each per repetition, in turn), medians of REPS:
#   dd-new        dd if=/dev/zero into a new file, as the habit goes: every
#                 write also allocates blocks and grows the file
#   dd-zero       dd if=/dev/zero over an existing file (conv=notrunc)
#   dd-rand       the same with incompressible data (if= a cached random file)
#   dd-direct     dd oflag=dsync,direct conv=notrunc from the random file:
#                 O_DIRECT|O_DSYNC and the data diskbench writes, its own calls
#   db-zeros      diskbench seqwrite -b 8k --zeros over the same file (--force)
#   diskbench     the same with diskbench's default, incompressible data
#   db-buffered   the same with --no-direct: through the page cache, as dd-rand
#   quick-dd      quick's "SEQ8K Q1T1 write (dd oflag=dsync)" step (bytes over
#                 seconds of its JSON result), quick run in full with -t QUICK_T
# Zeros matter: a hypervisor may turn a block of zeros into a cheap
# write-zeroes (QEMU's detect-zeroes), a compressing or deduplicating
# device stores nothing; dd from /dev/zero measures that, not the disk.
# Writes only in a fresh mktemp -d directory under SCRATCH_DIR (MB MiB per
# file, at most 64), removed on exit, error and Ctrl-C.  Needs no root.
set -euo pipefail

DB=${DISKBENCH:-./diskbench}
REPS=${REPS:-5}
MB=${MB:-8}
QUICK_T=${QUICK_T:-8.5}
SCRATCH=${1:-/var/tmp}
[ "$MB" -ge 1 ] && [ "$MB" -le 64 ] || { echo "dd-trap.sh: MB must be 1..64" >&2; exit 2; }
[ -x "$DB" ] || { echo "dd-trap.sh: $DB is not an executable (make first)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "dd-trap.sh: needs python3" >&2; exit 2; }

T=$(mktemp -d "$SCRATCH/dd-trap.XXXXXX")
trap 'rm -rf -- "$T"' EXIT
trap 'exit 130' INT TERM
COUNT=$((MB * 128)) # 8 KiB blocks
OLD="$T/old.dat"
RAND="$T/rand.dat"
dd if=/dev/urandom of="$OLD" bs=1M count="$MB" conv=fsync status=none
dd if=/dev/urandom of="$RAND" bs=1M count="$MB" status=none # read from the page cache
# diskbench's --once ends a time-based run after one pass, where it has one
ONCE=()
if "$DB" seqwrite --help 2>/dev/null | grep -q -- '--once'; then ONCE=(--once); fi

# dd's own figure: bytes over its own seconds, from its last stderr line
dd_rate() {
	local out
	out=$(LC_ALL=C dd "$@" 2>&1 >/dev/null | tail -n 1)
	python3 -c 'import re,sys; m=re.match(r"(\d+) bytes .* copied, ([0-9.e+-]+) s", sys.argv[1]); print(int(m.group(1))/float(m.group(2)))' "$out"
}

db_rate() { # the JSON result's bytes over its seconds, not the printed rate
	"$DB" --json seqwrite -b 8k -s "${MB}M" -t 60 "${ONCE[@]}" --sync=dsync --force "$@" "$OLD" 2>/dev/null |
		python3 -c 'import json,sys; r=json.load(sys.stdin)["result"]; print(r["bytes"]/r["seconds"])'
}

quick_rate() {
	mkdir -p "$T/q"
	"$DB" --json quick -t "$QUICK_T" -s "${MB}M" "$T/q" 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); i=[k for k,t in enumerate(d["tests"]) if t["params"]["block_size"]==8192][0]; r=d["tests"][i]["result"]; print(r["bytes"]/r["seconds"])'
}

ROWS="dd-new dd-zero dd-rand dd-direct db-zeros diskbench db-buffered quick-dd"
declare -A FIG
for ((rep = 1; rep <= REPS; rep++)); do
	for row in $ROWS; do
		sync
		case $row in
		dd-new) rm -f "$T/new.dat"; v=$(dd_rate if=/dev/zero of="$T/new.dat" bs=8k count="$COUNT" oflag=dsync) ;;
		dd-zero) v=$(dd_rate if=/dev/zero of="$OLD" bs=8k count="$COUNT" oflag=dsync conv=notrunc) ;;
		dd-rand) v=$(dd_rate if="$RAND" of="$OLD" bs=8k count="$COUNT" oflag=dsync conv=notrunc) ;;
		dd-direct) v=$(dd_rate if="$RAND" of="$OLD" bs=8k count="$COUNT" oflag=dsync,direct conv=notrunc) ;;
		db-zeros) v=$(db_rate --zeros) ;;
		diskbench) v=$(db_rate) ;;
		db-buffered) v=$(db_rate --no-direct) ;;
		quick-dd) v=$(quick_rate) ;;
		esac
		FIG[$row]="${FIG[$row]:-} $v"
		echo "rep $rep $row $v" >&2
	done
done

echo "# dd-trap: 8 KiB O_DSYNC writes, one at a time, ${MB} MiB per run, medians of $REPS interleaved runs"
echo "# $(uname -r); $(findmnt -no FSTYPE,SOURCE -T "$SCRATCH" 2>/dev/null || echo "fs unknown"); $(date -u +%Y-%m-%dT%H:%MZ)"
for row in $ROWS; do echo "$row ${FIG[$row]}"; done | python3 -c '
import statistics, sys
rows = {}
for line in sys.stdin:
    name, *vals = line.split()
    rows[name] = [float(v) for v in vals]
ref = rows["dd-direct"]
# the ratio within each repetition (runs seconds apart), then its median:
# steadier than a ratio of medians when other jobs load the host by turns
print("%-11s %11s %8s %8s %10s %18s" % ("row", "median MB/s", "min", "max", "/dd-direct",
                                         "paired (q1..q3)"))
for name, v in rows.items():
    paired = sorted(a / b for a, b in zip(v, ref))
    q = statistics.quantiles(paired, n=4) if len(paired) > 1 else [paired[0]] * 3
    print("%-11s %11.2f %8.2f %8.2f %10.2f %6.2f (%.2f..%.2f)" % (
        name, statistics.median(v) / 1e6, min(v) / 1e6, max(v) / 1e6,
        statistics.median(v) / statistics.median(ref), q[1], q[0], q[2]))
'
