#!/usr/bin/env bash
# The engines against fio, interleaved, over a 1 GiB file, O_DIRECT, one
# thread: 4 KiB random reads (qd 32 and 1) and 1 MiB sequential reads at
# qd 8 (CrystalDiskMark's SEQ1M Q8T1).  Each repetition runs every case
# once, in turn; the summary gives the median of IOPS, MB/s, p50 latency and
# CPU time per I/O (user + system of the whole process, from /usr/bin/time,
# for diskbench and fio alike) and the ratios the issue asks for.  fio's
# latency is its total (lat: submission + completion, --lat_percentiles), as
# diskbench's runs from before the submission to the completion.
#
#   bench/engine_compare.sh [SCRATCH_DIR]     (default /var/tmp)
#   REPS=5 RUNTIME=5 CASES="db_uring32 fio_uring32" bench/engine_compare.sh
#
# It builds bench/engine_drive.c against the core objects (make first), and
# writes one file, SCRATCH_DIR/engine-compare-XXXXXX/data (1 GiB, removed on
# exit).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPS=${REPS:-5}
RUNTIME=${RUNTIME:-5}
FILE_MB=${FILE_MB:-1024}
CASES=${CASES:-"db_uring32 db_aio32 fio_uring32 fio_libaio32 db_uring1 db_sync1 fio_psync1 db_seq1m_q8 fio_seq1m_q8"}
scratch=$(mktemp -d "${1:-/var/tmp}/engine-compare-XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
drive=$scratch/engine_drive
objs=$(ls src/*/*.o)
cc -std=c11 -O2 -g -DDISKBENCH_VERSION="\"$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)\"" $(for d in include/*/ src/*/; do printf -- "-I%s " "${d%/}"; done)-o "$drive" bench/engine_drive.c $objs -lpthread -lm
data=$scratch/data
fio --name=layout --filename="$data" --size="${FILE_MB}m" --rw=write --bs=1m --direct=1 \
	--ioengine=psync --output=/dev/null

# each prints: iops MB/s p50_us cpu_us_per_io
run_db() { # engine qd bs rand|seq
	local out cpu
	out=$( { /usr/bin/time -f "TIME %U %S" "$drive" "$1" "$2" 1 "$3" "$4" read "$RUNTIME" "$data"; } 2>&1)
	grep -q '^engine=' <<<"$out" || echo "engine_compare: diskbench $*: $out" >&2
	cpu=$(sed -n 's/^TIME //p' <<<"$out")
	sed -n 's/.*iops=\([0-9.]*\) MBps=\([0-9.]*\) p50_us=\([0-9.]*\).*/\1 \2 \3/p' <<<"$out" |
		awk -v c="$cpu" '{ split(c, t, " "); printf "%s %s %s %.3f\n", $1, $2, $3, (t[1] + t[2]) / ($1 * '"$RUNTIME"') * 1e6 }'
}
run_fio() { # ioengine iodepth bs randread|read
	local out cpu json
	json=$scratch/fio.json
	out=$( { /usr/bin/time -f "TIME %U %S" fio --name=r --filename="$data" --rw="$4" --bs="$3" \
		--direct=1 --ioengine="$1" --iodepth="$2" --runtime="$RUNTIME" --time_based \
		--lat_percentiles=1 --output-format=json --output="$json"; } 2>&1)
	grep -q '^TIME' <<<"$out" && [[ -s $json ]] || echo "engine_compare: fio $*: $out" >&2
	cpu=$(sed -n 's/^TIME //p' <<<"$out")
	jq -r '.jobs[0].read | "\(.iops) \(.bw_bytes / 1e6) \(.lat_ns.percentile."50.000000" / 1000) \(.total_ios)"' "$json" |
		awk -v c="$cpu" '{ split(c, t, " "); printf "%s %s %s %.3f\n", $1, $2, $3, (t[1] + t[2]) / $4 * 1e6 }'
}
run_case() {
	case $1 in
	db_uring32) run_db uring 32 4096 rand ;;
	db_aio32) run_db aio 32 4096 rand ;;
	db_uring1) run_db uring 1 4096 rand ;;
	db_sync1) run_db sync 1 4096 rand ;;
	db_seq1m_q8) run_db uring 8 1048576 seq ;;
	fio_uring32) run_fio io_uring 32 4k randread ;;
	fio_libaio32) run_fio libaio 32 4k randread ;;
	fio_psync1) run_fio psync 1 4k randread ;;
	fio_uring1) run_fio io_uring 1 4k randread ;;
	fio_seq1m_q8) run_fio io_uring 8 1m read ;;
	*) echo "unknown case $1" >&2; exit 2 ;;
	esac
}

results=$scratch/results
for rep in $(seq "$REPS"); do
	for c in $CASES; do
		echo "$c $(run_case "$c")" | tee -a "$results"
	done
done
echo "== medians over $REPS interleaved runs of ${RUNTIME}s"
python3 - "$results" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 5:
        rows.setdefault(f[0], []).append(tuple(map(float, f[1:])))
med = {k: tuple(statistics.median(r[i] for r in v) for i in range(4)) for k, v in rows.items()}
for k, (iops, mbps, p50, cpu) in med.items():
    print(f"{k:14s} iops {iops:9.0f}  MB/s {mbps:8.1f}  p50 {p50:8.1f} us  "
          f"cpu/io {cpu:6.2f} us  (n={len(rows[k])})")
fio = [k for k in ("fio_uring32", "fio_libaio32") if k in med]
if "db_uring32" in med and fio:
    best = max(fio, key=lambda k: med[k][0])
    print(f"db_uring32 / {best}: iops x{med['db_uring32'][0] / med[best][0]:.2f}, "
          f"cpu/io x{med['db_uring32'][3] / med[best][3]:.2f}")
if "db_uring1" in med and "db_sync1" in med:
    print(f"db_uring1 / db_sync1: p50 x{med['db_uring1'][2] / med['db_sync1'][2]:.3f}")
if "db_seq1m_q8" in med and "fio_seq1m_q8" in med:
    print(f"db_seq1m_q8 / fio_seq1m_q8: MB/s x{med['db_seq1m_q8'][1] / med['fio_seq1m_q8'][1]:.2f}")
EOF
