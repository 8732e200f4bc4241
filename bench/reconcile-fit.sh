#!/usr/bin/env bash
# reconcile-fit.sh - does `diskbench fit` give the figures of the runbook
# command each profile replaces?  (issue 41)
#
# Usage:  bench/reconcile-fit.sh [DISKBENCH]        (default ./diskbench)
#
# Each row runs diskbench and its peer on the same directory, interleaved (rep
# 1 of every row and tool, then rep 2, ...), so that load from other processes
# hits them alike, and reports the median of REPS (default 5) with min-max and
# the ratio diskbench/peer:
#   etcd          fit etcd  vs  fio --rw=write --ioengine=sync --fdatasync=1
#                 --size=22m --bs=2300 (the etcd runbook's command): fdatasync
#                 p99 and write IOPS; both capped at CAP seconds (fit -t,
#                 fio --runtime) so a slow disk does not take minutes
#   postgres      fit postgres -t PGSECS  vs  pg_test_fsync -s PGSECS: ops/s of
#                 each method, one 8kB write and two
#   ceph-journal  fit ceph-journal -t RUNTIME  vs  fio --ioengine=libaio
#                 --direct=1 --sync=1 --rw=write --bs=4k --iodepth=1
#                 --time_based: write IOPS and p99 latency (fio's lat_ns,
#                 submission to completion, as diskbench times it)
#   oltp          fit oltp -t RUNTIME  vs  diskbench sweep --run=oltp -b 8k and
#                 fio randread bs=8k libaio at the same depths: IOPS per depth
#   dss           fit dss -t RUNTIME  vs  diskbench sweep --run=dss and fio 1 MiB
#                 sequential reads at the same streams: MB/s per stream count
# The machine's load average is recorded before and after.
#
# Environment: REPS=5, RUNTIME=2 (seconds of each time-based point), CAP=10
# (etcd's cap), PGSECS=2, DIR=/var/tmp (where the scratch directory is made),
# ONLY="row ..." (run only these rows).  Needs fio; pg_test_fsync
# (/usr/lib/postgresql/*/bin, Debian's postgresql-15) for the postgres row.
#
# The profiles are the tree's (profiles/ beside this script's bench/),
# whichever binary runs them.
#
# Safety: scratch files only (the profiles' sizes: at most 8 x 128 MiB for
# dss), in a directory it creates with mktemp and removes on exit, also on
# error and Ctrl-C.
set -euo pipefail
export LC_ALL=C

DB=$(realpath -- "${1:-./diskbench}")
REPS=${REPS:-5}
RUNTIME=${RUNTIME:-2}
CAP=${CAP:-10}
PGSECS=${PGSECS:-2}
ONLY=${ONLY:-}

die() { echo "reconcile-fit.sh: $*" >&2; exit 1; }
[[ -x $DB ]] || die "no diskbench binary at $DB (build it with make)"
for t in fio python3; do command -v "$t" >/dev/null || die "missing tool: $t (apt-get install $t)"; done
PGTF=$(ls /usr/lib/postgresql/*/bin/pg_test_fsync 2>/dev/null | tail -n 1 || true)
# the tree's profiles, whatever binary runs them
P=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../profiles" && pwd)

S=$(mktemp -d "${DIR:-/var/tmp}/reconcile-fit.XXXXXX")
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	rm -rf -- "$S"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
W=$S/work
mkdir "$W"
OUT=$S/figures.jsonl
: >"$OUT"

wanted() { [[ -z $ONLY || " $ONLY " == *" $1 "* ]]; }
# note ROW TOOL REP METRIC VALUE: one figure
note() { printf '{"row": "%s", "tool": "%s", "rep": %s, "metric": "%s", "value": %s}\n' "$@" >>"$OUT"; }
clean() { rm -rf -- "${W:?}"/* "${W:?}"/.diskbench-* 2>/dev/null || true; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# fit_figures ROW REP JSON: each job's figures from a fit document
fit_figures() {
	python3 - "$@" >>"$OUT" <<'EOF'
import json, sys
row, rep, path = sys.argv[1], sys.argv[2], sys.argv[3]
d = json.load(open(path))
def emit(metric, value):
    print(json.dumps({"row": row, "tool": "diskbench fit", "rep": int(rep), "metric": metric, "value": value}))
for t in d.get("tests", []):
    r = t["result"]
    if not r:
        continue
    name = t["step"]
    if row == "etcd":
        emit("fdatasync p99 (ms)", r["sync_lat_ns"]["p99"] / 1e6)
        emit("write IOPS", r["iops"])
    elif row == "postgres":
        per = 2 if name.endswith("-x2") else 1
        emit("%s ops/s" % name, r["iops"] / per)
    elif row == "ceph-journal":
        emit("write IOPS", r["iops"])
        emit("p99 (ms)", r["lat_ns"]["p99"] / 1e6)
    elif row == "oltp":
        emit("IOPS at %s" % name.split("-")[1], r["iops"])
    elif row == "dss":
        emit("MB/s at %s" % name.split("-")[1], r["bytes_per_sec"] / 1e6)
EOF
}

# fio_figures ROW REP JSON METRIC...: from fio's JSON (group_reporting: one job)
fio_figures() {
	python3 - "$@" >>"$OUT" <<'EOF'
import json, sys
row, rep, path, what = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
text = open(path).read()
d = json.loads(text[text.index("{"):])
j = d["jobs"][0]
def emit(metric, value):
    print(json.dumps({"row": row, "tool": "fio", "rep": int(rep), "metric": metric, "value": value}))
if what == "etcd":
    emit("fdatasync p99 (ms)", j["sync"]["lat_ns"]["percentile"]["99.000000"] / 1e6)
    emit("write IOPS", j["write"]["iops"])
elif what == "journal":
    emit("write IOPS", j["write"]["iops"])
    emit("p99 (ms)", j["write"]["lat_ns"]["percentile"]["99.000000"] / 1e6)
elif what.startswith("IOPS at"):
    emit(what, j["read"]["iops"])
elif what.startswith("MB/s at"):
    emit(what, j["read"]["bw_bytes"] / 1e6)
EOF
}

row_etcd() {
	local rep=$1
	clean
	"$DB" --json -q fit "$P/etcd.fio" -t "$CAP" "$W" >"$S/fit.json" 2>/dev/null || [[ $? == 6 ]]
	fit_figures etcd "$rep" "$S/fit.json"
	clean
	fio --rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=2300 --name=etcd \
		--runtime="$CAP" --directory="$W" --output-format=json >"$S/fio.json" 2>/dev/null
	fio_figures etcd "$rep" "$S/fio.json" etcd
}

row_postgres() {
	local rep=$1 line
	clean
	"$DB" --json -q fit "$P/postgres.fio" -t "$PGSECS" "$W" >"$S/fit.json" 2>/dev/null
	fit_figures postgres "$rep" "$S/fit.json"
	clean
	"$PGTF" -s "$PGSECS" -f "$W/pg_test_fsync.out" >"$S/pg.txt" 2>&1
	python3 - postgres "$rep" "$S/pg.txt" >>"$OUT" <<'EOF'
import json, re, sys
row, rep, path = sys.argv[1], sys.argv[2], sys.argv[3]
section = 0
for line in open(path):
    if "using one 8kB write" in line:
        section = 1
    elif "using two 8kB writes" in line:
        section = 2
    elif line.startswith("Compare open_sync with different write sizes"):
        section = 0
    m = re.match(r"^\s+(open_datasync|fdatasync|fsync|open_sync)\s+([0-9.]+) ops/sec", line)
    if section and m:
        name = m.group(1) + ("-x2" if section == 2 else "")
        print(json.dumps({"row": row, "tool": "pg_test_fsync", "rep": int(rep),
                          "metric": "%s ops/s" % name, "value": float(m.group(2))}))
EOF
}

row_journal() {
	local rep=$1
	clean
	"$DB" --json -q fit "$P/ceph-journal.fio" -t "$RUNTIME" "$W" >"$S/fit.json" 2>/dev/null
	fit_figures ceph-journal "$rep" "$S/fit.json"
	clean
	fio --ioengine=libaio --direct=1 --sync=1 --rw=write --bs=4k --numjobs=1 --iodepth=1 \
		--runtime="$RUNTIME" --time_based --size=256m --lat_percentiles=1 --name=journal \
		--directory="$W" --output-format=json >"$S/fio.json" 2>/dev/null
	fio_figures ceph-journal "$rep" "$S/fio.json" journal
}

row_oltp() {
	local rep=$1 n
	clean
	"$DB" --json -q fit "$P/oltp.fio" -t "$RUNTIME" "$W" >"$S/fit.json" 2>/dev/null
	fit_figures oltp "$rep" "$S/fit.json"
	clean
	"$DB" --json -q sweep --run=oltp -b 8k -s 256M --engine=aio --point-time="$RUNTIME" \
		--budget=600 "$W" >"$S/sweep.json" 2>/dev/null
	python3 - oltp "$rep" "$S/sweep.json" >>"$OUT" <<'EOF'
import json, sys
row, rep, path = sys.argv[1], sys.argv[2], sys.argv[3]
d = json.load(open(path))
for s in d["result"]["series"]:
    for p in s["points"]:
        print(json.dumps({"row": row, "tool": "diskbench sweep", "rep": int(rep),
                          "metric": "IOPS at %d" % p["outstanding"], "value": p["iops"]}))
EOF
	clean
	for n in 1 2 4 8 16 32 64; do
		fio --rw=randread --bs=8k --direct=1 --ioengine=libaio --iodepth="$n" --size=256m \
			--time_based --runtime="$RUNTIME" --ramp_time=500ms --norandommap --name=oltp \
			--directory="$W" --output-format=json >"$S/fio.json" 2>/dev/null
		fio_figures oltp "$rep" "$S/fio.json" "IOPS at $n"
	done
}

row_dss() {
	local rep=$1 n
	clean
	"$DB" --json -q fit "$P/dss.fio" -t "$RUNTIME" "$W" >"$S/fit.json" 2>/dev/null
	fit_figures dss "$rep" "$S/fit.json"
	clean
	"$DB" --json -q sweep --run=dss --large-bs=1M -s 1G --engine=sync --point-time="$RUNTIME" \
		--budget=600 "$W" >"$S/sweep.json" 2>/dev/null
	python3 - dss "$rep" "$S/sweep.json" >>"$OUT" <<'EOF'
import json, sys
row, rep, path = sys.argv[1], sys.argv[2], sys.argv[3]
d = json.load(open(path))
for s in d["result"]["series"]:
    for p in s["points"]:
        print(json.dumps({"row": row, "tool": "diskbench sweep", "rep": int(rep),
                          "metric": "MB/s at %d" % p["outstanding"], "value": p["bytes_per_sec"] / 1e6}))
EOF
	clean
	for n in 1 2 4 8; do
		fio --rw=read --bs=1m --direct=1 --ioengine=psync --numjobs="$n" --size=128m \
			--time_based --runtime="$RUNTIME" --ramp_time=500ms --group_reporting --name=dss \
			--directory="$W" --output-format=json >"$S/fio.json" 2>/dev/null
		fio_figures dss "$rep" "$S/fio.json" "MB/s at $n"
	done
}

echo "reconcile-fit: $("$DB" --version), $(fio --version), ${PGTF:-no pg_test_fsync}"
echo "reconcile-fit: $REPS reps, RUNTIME=$RUNTIME s, CAP=$CAP s, PGSECS=$PGSECS s, in $S"
echo "reconcile-fit: load average before: $(load) ($(nproc) CPUs)"
for rep in $(seq 1 "$REPS"); do
	wanted etcd && row_etcd "$rep"
	wanted postgres && [[ -n $PGTF ]] && row_postgres "$rep"
	wanted ceph-journal && row_journal "$rep"
	wanted oltp && row_oltp "$rep"
	wanted dss && row_dss "$rep"
	echo "reconcile-fit: rep $rep of $REPS done, load average $(load)" >&2
done
echo "reconcile-fit: load average after: $(load)"
python3 - "$OUT" <<'EOF'
import collections, json, statistics, sys
fig = collections.defaultdict(list)
order = []
for line in open(sys.argv[1]):
    d = json.loads(line)
    key = (d["row"], d["metric"], d["tool"])
    if (d["row"], d["metric"]) not in order:
        order.append((d["row"], d["metric"]))
    fig[key].append(d["value"])
peers = {"etcd": ["fio"], "postgres": ["pg_test_fsync"], "ceph-journal": ["fio"],
         "oltp": ["diskbench sweep", "fio"], "dss": ["diskbench sweep", "fio"]}
def cell(v):
    return "%.4g [%.4g-%.4g]" % (statistics.median(v), min(v), max(v)) if v else "-"
print("%-13s %-24s %-30s %-16s %-30s %7s %s" % ("row", "figure", "diskbench fit", "peer", "peer figure", "ratio", "within 10 %"))
for row, metric in order:
    mine = fig.get((row, metric, "diskbench fit"), [])
    for peer in peers[row]:
        theirs = fig.get((row, metric, peer), [])
        if not mine or not theirs:
            continue
        ratio = statistics.median(mine) / statistics.median(theirs) if statistics.median(theirs) else float("nan")
        print("%-13s %-24s %-30s %-16s %-30s %7.3f %s" % (row, metric, cell(mine), peer, cell(theirs), ratio,
              "yes" if abs(ratio - 1) <= 0.10 else "no"))
EOF
