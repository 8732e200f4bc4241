#!/usr/bin/env bash
# What --verify costs the write phase (issue 42): seqwrite -b 1M without it,
# with --verify (stamped writes, read back after the phase) and with
# --verify=backlog, interleaved, REPS times each, on tmpfs (memory speed:
# where a CPU cost shows most) and on a directory of the disk.  Prints the
# median write rate of each, its ratio to the run without, the process's
# CPU time per 1 MiB write (result.cpu.ns_per_io: the stamp's cost, less
# bent by other load than a rate) and the median read-back time (which is
# never in the write figures).
#
#   bench/verify_cost.sh [DISKBENCH] [DIR]      (defaults ./diskbench, /var/tmp)
#   REPS=5 SIZE=256M TIME=3 QD=1 bench/verify_cost.sh
#
# Scratch files only: DIR/diskbench-verify-cost.XXXXXX and the same under
# /dev/shm, removed on exit.  bench/README.md keeps the last run.
set -u
DB=$(realpath -- "${1:-./diskbench}") || exit 2
DIR=${2:-/var/tmp}
REPS=${REPS:-5} SIZE=${SIZE:-256M} TIME=${TIME:-3} QD=${QD:-1}
SHM=$(mktemp -d -p /dev/shm diskbench-verify-cost.XXXXXX) || exit 2
DSK=$(mktemp -d -p "$DIR" diskbench-verify-cost.XXXXXX) || { rm -rf -- "$SHM"; exit 2; }
trap 'rm -rf -- "$SHM" "$DSK"' EXIT
trap 'exit 130' INT TERM
OUT=$(mktemp -p "$DSK" results.XXXXXX)

for place in "$SHM" "$DSK"; do
	for rep in $(seq "$REPS"); do
		for mode in off after backlog; do
			case $mode in
			off) v=() ;;
			after) v=(--verify) ;;
			backlog) v=(--verify=backlog) ;;
			esac
			"$DB" --json seqwrite -b 1M -s "$SIZE" -t "$TIME" --qd "$QD" "${v[@]}" "$place/f" \
				2>/dev/null | python3 -c "
import json, sys
d = json.load(sys.stdin); r = d['result']; v = r.get('verify') or {}
print('$place', '$mode', $rep, r['bytes_per_sec'], v.get('seconds', 0), v.get('blocks', 0),
      (r.get('cpu') or {}).get('ns_per_io') or 0)" >>"$OUT"
		done
	done
done

python3 - "$OUT" "$SHM" "$DSK" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
names = {sys.argv[2]: "tmpfs", sys.argv[3]: "disk"}
for place in (sys.argv[2], sys.argv[3]):
    base = None
    for mode in ("off", "after", "backlog"):
        rate = [float(r[3]) for r in rows if r[0] == place and r[1] == mode]
        back = [float(r[4]) for r in rows if r[0] == place and r[1] == mode]
        cpu = [float(r[6]) for r in rows if r[0] == place and r[1] == mode]
        if not rate:
            continue
        m, c = statistics.median(rate), statistics.median(cpu)
        base = base or (m, c)
        print("%-5s %-8s median %8.1f MB/s (min %8.1f, max %8.1f) = %5.3f of no --verify; "
              "CPU %6.1f us per 1 MiB write (%+6.1f); read-back %.3f s"
              % (names[place], mode, m / 1e6, min(rate) / 1e6, max(rate) / 1e6, m / base[0],
                 c / 1e3, (c - base[1]) / 1e3, statistics.median(back)))
EOF
