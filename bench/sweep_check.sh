#!/usr/bin/env bash
# sweep_check.sh - does `diskbench sweep` add overhead of its own?
#
# Usage:  bench/sweep_check.sh [SCRATCH_DIR]    (default /var/tmp/diskbench-bench)
# Env:    DISKBENCH=./diskbench  REPS=5  POINT=3  LEVELS="1 8 32"  FILE_MB=1024
#         ENGINE=sync (default) or uring: the engine of the sweep and of the
#         randread runs; with uring, fio runs io_uring with the same shape
#         (one job per 32 in flight, each with the rest as its iodepth) and the
#         summary adds the sweep's max IOPS over fio's best over the levels
#
# On one scratch file, interleaved, REPS times: a sweep over LEVELS (small
# random reads, POINT seconds per point), then `randread -j N -t POINT` for
# each N, then fio (psync, numjobs=N, 4 KiB randread, direct) for each N.
# Prints the medians and the ratios sweep/randread and sweep/fio per level,
# then the wall time of a default `sweep` and of `sweep --budget 20`.
# Writes only inside a fresh mktemp -d directory under SCRATCH_DIR, removed on
# exit (also on Ctrl-C).
set -euo pipefail
export LC_ALL=C
SCRATCH=${1:-/var/tmp/diskbench-bench}
DISKBENCH=$(realpath "${DISKBENCH:-./diskbench}")
REPS=${REPS:-5}
POINT=${POINT:-3}
LEVELS=${LEVELS:-"1 8 32"}
ENGINE=${ENGINE:-sync}
FILE_MB=${FILE_MB:-1024}
mkdir -p "$SCRATCH"
avail=$(df -B1M --output=avail "$SCRATCH" | tail -n 1 | tr -d ' ')
if [ "$avail" -lt $((FILE_MB * 2 + 1024)) ]; then
	echo "sweep_check.sh: not enough free space in $SCRATCH" >&2
	exit 1
fi
T=$(mktemp -d "$SCRATCH/sweepcheck.XXXXXX")
trap 'rm -rf -- "$T"' EXIT
trap 'exit 130' INT TERM
F="$T/read.dat"
fio --name=prep --filename="$F" --rw=write --bs=1m --direct=1 --ioengine=psync \
	--size="${FILE_MB}m" --end_fsync=1 --output=/dev/null
levels_csv=$(echo "$LEVELS" | tr ' ' ',')
: >"$T/samples"
for rep in $(seq "$REPS"); do
	echo "[sweep_check] rep $rep/$REPS" >&2
	"$DISKBENCH" sweep --engine="$ENGINE" --run oltp --levels "$levels_csv" --point-time "$POINT" \
		--json "$F" >"$T/sw.json"
	python3 - "$T/sw.json" >>"$T/samples" <<'PY'
import json, sys
for p in json.load(open(sys.argv[1]))["result"]["series"][0]["points"]:
    print("sweep", p["outstanding"], p["iops"])
PY
	for n in $LEVELS; do
		jobs=$n qd=1 fioeng=(--ioengine=psync)
		if [ "$ENGINE" != sync ]; then   # the sweep's shape: a thread per 32 in flight
			jobs=$(((n + 31) / 32)); while [ $((n % jobs)) != 0 ]; do jobs=$((jobs + 1)); done
			qd=$((n / jobs)) fioeng=(--ioengine=io_uring --iodepth="$qd")
		fi
		"$DISKBENCH" randread --engine="$ENGINE" -s 100G -t "$POINT" -j "$jobs" --qd "$qd" \
			--json "$F" >"$T/rr.json"
		python3 -c 'import json,sys; print("randread", sys.argv[2], json.load(open(sys.argv[1]))["result"]["iops"])' \
			"$T/rr.json" "$n" >>"$T/samples"
		fio --name=chk --filename="$F" "${fioeng[@]}" --rw=randread --bs=4k --direct=1 \
			--numjobs="$jobs" --thread --group_reporting --time_based --runtime="$POINT" \
			--randrepeat=0 --size="${FILE_MB}m" --output-format=json --output="$T/fio.json"
		python3 -c 'import json,sys; print("fio", sys.argv[2], json.load(open(sys.argv[1]))["jobs"][0]["read"]["iops"])' \
			"$T/fio.json" "$n" >>"$T/samples"
	done
done
python3 - "$T/samples" <<'PY'
import collections, statistics, sys
v = collections.defaultdict(list)
for line in open(sys.argv[1]):
    tool, n, iops = line.split()
    v[(tool, int(n))].append(float(iops))
levels = sorted({n for _, n in v})
print("level tool median_iops min max")
for n in levels:
    for tool in ("sweep", "randread", "fio"):
        x = v.get((tool, n), [])
        if x:
            print(n, tool, round(statistics.median(x)), round(min(x)), round(max(x)))
print("# ratios of medians")
for n in levels:
    s = statistics.median(v[("sweep", n)])
    print("level %d: sweep/randread = %.2f, sweep/fio = %.2f" % (
        n, s / statistics.median(v[("randread", n)]), s / statistics.median(v[("fio", n)])))
best = lambda tool: max(statistics.median(v[(tool, n)]) for n in levels)
print("max IOPS over the levels: sweep %d, fio %d, sweep/fio = %.2f" % (
    best("sweep"), best("fio"), best("sweep") / best("fio")))
PY
for args in "" "--budget 20"; do
	start=$EPOCHREALTIME
	# shellcheck disable=SC2086
	"$DISKBENCH" sweep $args -q "$T" >/dev/null
	end=$EPOCHREALTIME
	python3 -c 'import sys; print("wall time of diskbench sweep %s (1 GiB layout included): %.1f s"
	                % (sys.argv[3], float(sys.argv[2]) - float(sys.argv[1])))' "$start" "$end" "${args:-(default)}"
done
