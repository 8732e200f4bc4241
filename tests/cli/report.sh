#!/usr/bin/env bash
# diskbench report, end to end, over records of real runs:
#
#   bash tests/cli/report.sh ./diskbench          (part of `make cli`)
#
# Three randread runs at once, each on its own scratch directory, become
# fleet records: with --jsonl where diskbench has it, else their --json
# documents with the fleet keys added by python3 (host, run_id, started_at a
# few ms apart, clock, and lat_buckets drawn from their lat_hist ranges).
# Then:
# - pdsh/clush-like ("node1: {...}") and srun --label-like ("0: {...}")
#   output with Ansible's header lines and garbage among it: three hosts,
#   the skipped lines counted in a warning; the JSON's totals (bytes, summed
#   rates, span) equal what python computes from the records; the fleet
#   p50/p90/p99/p99.9 equal the nearest-rank percentiles python computes from
#   the merged [bucket, count] pairs (stats.h's geometry and clamping);
# - records without "host" take the pdsh prefix as their host;
# - several files, stdin, CSV (host rows and the fleet row) and --quiet;
# - --baseline: exit 0 on the same records, exit 4 on a host made slower
#   (and its figures flagged), hosts on one side only listed;
# - mixed params in one run: exit 2 naming the key; nothing parseable: exit 2.
# Everything lives in a scratch directory under /var/tmp, removed on exit.
set -u

if [ $# -lt 1 ]; then
	echo "usage: bash tests/cli/report.sh PATH/TO/diskbench" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
command -v python3 >/dev/null 2>&1 || { echo "report.sh: needs python3" >&2; exit 2; }
S=$(mktemp -d -p /var/tmp diskbench-report.XXXXXX) || exit 2
cleanup() { rm -rf -- "$S"; }
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=report TAP_TIMEOUT=60

# run EXPECTED_EXIT ARGS...: diskbench report, stdin from $STDIN
run() { tap_run "$1" report "${@:2}"; }
# py NAME CODE: a python3 check of $S/out with the records' helpers at hand
py() {
	local name=$1 code=$2 msg
	if msg=$(python3 - "$S" <<EOF 2>&1
import sys; sys.path.insert(0, sys.argv[1])
from fleet import *
out = open(sys.argv[1] + "/out").read()
$code
EOF
	); then ok "$name"; else not_ok "$name" "$msg" "stdout: $(head -c 400 "$S/out")"; fi
}

# ---- the helpers in python: fleet records and the exact merged percentiles --------
cat >"$S/fleet.py" <<'EOF'
import datetime, json, math, random, sys
SUB_BITS = 7
SUB = 1 << SUB_BITS

def bucket_index(v):
    if v < 2 * SUB:
        return v
    shift = v.bit_length() - 1 - SUB_BITS
    return shift * SUB + (v >> shift)

def bucket_low(i):
    if i < 2 * SUB:
        return i
    shift = i // SUB - 1
    return (i - shift * SUB) << shift

def bucket_width(i):
    return 1 if i < 2 * SUB else 1 << (i // SUB - 1)

def iso(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")

def epoch(s):
    d = datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return d.timestamp()

def to_fleet(doc, host, run_id, start):
    """A --json document as a --jsonl record; keys already there are kept."""
    res = doc["result"]
    if "lat_buckets" not in res:
        rng, lat, counts, lo = random.Random(host), res["lat_ns"], {}, 0
        for b in res["lat_hist"]:
            a, z = max(lo, lat["min"]), min(b["le_ns"], lat["max"])
            for _ in range(b["count"]):
                i = bucket_index(rng.randint(a, max(a, z)))
                counts[i] = counts.get(i, 0) + 1
            lo = b["le_ns"] + 1
        res["lat_buckets"] = {"scheme": "log-linear-7", "pairs": [[i, c] for i, c in sorted(counts.items())]}
    doc.setdefault("host", host)
    doc.setdefault("run_id", run_id)
    doc.setdefault("started_at", iso(start))
    doc.setdefault("ended_at", iso(start + res["seconds"]))
    doc.setdefault("launcher", {})
    doc.setdefault("clock", {"synchronised": True, "maxerror_us": 1000})
    doc.setdefault("start_at", None)
    return doc

def load(path):
    return [json.loads(l) for l in open(path) if l.strip()]

def percentile(pairs, n, q, lo, hi):
    """stats_percentile: nearest rank, the bucket's midpoint, kept in [lo, hi]."""
    rank = max(1, math.ceil(q * n / 100 - 1e-9))
    if rank >= n:
        return hi
    seen = 0
    for i, c in pairs:
        seen += c
        if seen >= rank:
            break
    return min(max(bucket_low(i) + bucket_width(i) // 2, lo), hi)

def fleet_percentiles(recs):
    merged = {}
    for r in recs:
        for i, c in r["result"]["lat_buckets"]["pairs"]:
            merged[i] = merged.get(i, 0) + c
    pairs = sorted(merged.items())
    n = sum(c for _, c in pairs)
    lo = min(r["result"]["lat_ns"]["min"] for r in recs)
    hi = max(r["result"]["lat_ns"]["max"] for r in recs)
    return {k: percentile(pairs, n, q, lo, hi) for k, q in
            (("p50", 50), ("p90", 90), ("p99", 99), ("p99_9", 99.9))}, n
EOF

# ---- three runs at once -------------------------------------------------------------
JSONL=0
"$DB" help randread | grep -q -- '--jsonl' && JSONL=1
pids=()
for i in 1 2 3; do
	mkdir -p "$S/d$i"
	if [ $JSONL = 1 ]; then
		"$DB" randread --jsonl --host-label "node$i" --run-id fleet1 -s 8M -t 0.6 --interval 0.1 \
			"$S/d$i" >"$S/run$i.json" 2>"$S/run$i.err" &
	else
		"$DB" randread --json -s 8M -t 0.6 --interval 0.1 "$S/d$i" >"$S/run$i.json" 2>"$S/run$i.err" &
	fi
	pids+=($!)
done
runs_ok=1
for i in 0 1 2; do wait "${pids[i]}" || runs_ok=0; done
if [ $runs_ok = 0 ]; then
	not_ok "three randread runs" "$(cat "$S"/run*.err)"
	tap_done
	exit 1
fi
echo "# records from $([ $JSONL = 1 ] && echo "--jsonl" || echo "--json plus python's fleet keys")"
python3 - "$S" <<'EOF'
import json, sys, time
sys.path.insert(0, sys.argv[1])
from fleet import *
S = sys.argv[1]
t0 = time.time() - 60
for i, skew in zip((1, 2, 3), (0.0, 0.004, 0.012)):
    doc = json.loads(open("%s/run%d.json" % (S, i)).read())
    rec = to_fleet(doc, "node%d" % i, "fleet1", t0 + skew)
    open("%s/rec%d.jsonl" % (S, i), "w").write(json.dumps(rec, separators=(",", ":")) + "\n")
    # the same without "host": a launcher's prefix must name it
    del rec["host"]
    open("%s/nohost%d.jsonl" % (S, i), "w").write(json.dumps(rec, separators=(",", ":")) + "\n")
EOF
cat "$S"/rec[123].jsonl >"$S/all.jsonl"
{
	echo "node1 | CHANGED | rc=0 >>"
	sed 's/^/node1: /' "$S/rec1.jsonl"
	echo "node2 | CHANGED | rc=0 >>"
	sed 's/^/node2: /' "$S/rec2.jsonl"
	echo "pdsh@admin: node9: ssh exited with exit code 255"
	sed 's/^/node3: /' "$S/rec3.jsonl"
	echo
} >"$S/pdsh.txt"
{
	sed 's/^/0: /' "$S/rec1.jsonl"
	sed 's/^/1: /' "$S/rec2.jsonl"
	sed 's/^/2: /' "$S/rec3.jsonl"
} >"$S/srun.txt"
{
	sed 's/^/node1: /' "$S/nohost1.jsonl"
	sed 's/^/node2: /' "$S/nohost2.jsonl"
	sed 's/^/node3: /' "$S/nohost3.jsonl"
} >"$S/pdsh-nohost.txt"

TOTALS='
recs = load(sys.argv[1] + "/all.jsonl")
d = json.loads(out)
assert d["test"] == "report" and d["target"] is None, d["test"]
assert len(d["groups"]) == 1, d["groups"]
g = d["groups"][0]
assert g["run_id"] == "fleet1" and g["test"] == "randread" and g["metric"] == "iops", g
assert [h["host"] for h in g["hosts"]] == ["node1", "node2", "node3"], [h["host"] for h in g["hosts"]]
f = g["fleet"]
res = [r["result"] for r in recs]
assert f["hosts"] == 3
assert f["bytes"] == sum(r["bytes"] for r in res), (f["bytes"], [r["bytes"] for r in res])
assert f["ios"] == sum(r["ios"] for r in res)
assert abs(f["sum_bytes_per_sec"] - sum(r["bytes_per_sec"] for r in res)) < 0.5, f
assert abs(f["sum_iops"] - sum(r["iops"] for r in res)) < 0.05, f
starts = [epoch(r["started_at"]) for r in recs]
ends = [epoch(r["ended_at"]) for r in recs]
span = max(ends) - min(starts)
assert abs(f["span_s"] - span) < 2e-6, (f["span_s"], span)
assert abs(f["span_bytes_per_sec"] / (f["bytes"] / span) - 1) < 1e-5, f
assert abs(f["start_skew_ms"] - (max(starts) - min(starts)) * 1000) < 0.002, f
for h, r in zip(g["hosts"], recs):
    assert abs(h["start_offset_ms"] - (epoch(r["started_at"]) - min(starts)) * 1000) < 0.002, h
    assert h["lat_p99_ns"] == r["result"]["lat_ns"]["p99"], h
want, n = fleet_percentiles(recs)
assert f["lat_ns"]["count"] == n, (f["lat_ns"], n)
for k, v in want.items():
    assert f["lat_ns"][k] == v, (k, f["lat_ns"][k], v)
assert f["lat_unavailable"] is None
'

t_launchers() {
	check "pdsh-like prefixes and Ansible headers: read" 0 --json "$S/pdsh.txt"
	py "pdsh-like: three hosts, totals and exact fleet percentiles as python computes" "$TOTALS"
	if grep -q "warning: input: skipped 3 of 7 lines that hold no diskbench record (first: $S/pdsh.txt:1: no JSON on the line)" "$S/err"; then
		ok "pdsh-like: the skipped lines are counted in a warning"
	else
		not_ok "pdsh-like: the skipped lines are counted in a warning" "$(cat "$S/err")"
	fi
	py "pdsh-like: the warning is in the JSON too" '
d = json.loads(out)
assert d["inputs"] == {"lines": 7, "records": 3, "skipped": 3, "failed": 0}, d["inputs"]
assert any("skipped 3 of 7 lines" in w for w in d["warnings"]), d["warnings"]'
	check "srun --label-like prefixes: read" 0 --json "$S/srun.txt"
	py "srun-like: three hosts, totals and exact fleet percentiles as python computes" "$TOTALS"
	check "several files" 0 --json "$S/rec3.jsonl" "$S/rec1.jsonl" "$S/rec2.jsonl"
	py "several files: the same totals" "$TOTALS"
	STDIN="$S/srun.txt" check "stdin (-)" 0 --json -
	py "stdin: the same totals" "$TOTALS"
	check "records without host" 0 --json "$S/pdsh-nohost.txt"
	py "records without host: the pdsh prefix names them" '
d = json.loads(out)
assert [h["host"] for h in d["groups"][0]["hosts"]] == ["node1", "node2", "node3"], d'
}

t_formats() {
	check "text" 0 "$S/pdsh.txt"
	if grep -q '^randread, run fleet1: 3 hosts' "$S/out" && grep -q '^  node3 ' "$S/out" &&
		grep -q '^  fleet: .* (sum of the hosts. rates)$' "$S/out" &&
		grep -q '^  latency (merged histograms of [0-9]* I/Os): p50 ' "$S/out" &&
		grep -q '^  start skew: ' "$S/out" && grep -q '^  common window: ' "$S/out"; then
		ok "text: the host table and the fleet lines"
	else
		not_ok "text: the host table and the fleet lines" "$(cat "$S/out")"
	fi
	check "quiet" 0 -q "$S/pdsh.txt"
	py "quiet: one line" '
assert out.count("\n") == 1 and out.startswith("randread, run fleet1: 3 hosts, "), out'
	check "csv" 0 --csv "$S/pdsh.txt"
	py "csv: three host rows and the fleet row, as the JSON says" '
import csv, io, subprocess
rows = list(csv.DictReader(io.StringIO(out)))
assert [r["host"] for r in rows] == ["node1", "node2", "node3", "(fleet)"], rows
d = json.loads(subprocess.run(["'"$DB"'", "report", "--json", sys.argv[1] + "/pdsh.txt"],
                              capture_output=True, text=True).stdout)
f = d["groups"][0]["fleet"]
assert int(rows[3]["bytes"]) == f["bytes"] and int(rows[3]["lat_p99_ns"]) == f["lat_ns"]["p99"], rows[3]
assert int(rows[3]["lat_p99_9_ns"]) == f["lat_ns"]["p99_9"]
for r, h in zip(rows, d["groups"][0]["hosts"]):
    assert int(r["bytes"]) == h["bytes"] and r["flags"] == " ".join(h["flags"]), (r, h)'
}

t_baseline() {
	check "baseline: the same records: exit 0" 0 --baseline "$S/all.jsonl" "$S/srun.txt"
	if grep -q '^no regression: none of 16 figures worse by more than 10 %$' "$S/out"; then
		ok "baseline: the same records: no regression said"
	else
		not_ok "baseline: the same records: no regression said" "$(cat "$S/out")"
	fi
	# last month node2 was twice as fast, and node4 existed
	python3 - "$S" <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[1])
from fleet import *
S = sys.argv[1]
recs = load(S + "/all.jsonl")
for r in recs:
    r["run_id"] = "lastmonth"
recs[1]["result"]["bytes_per_sec"] *= 2
recs[1]["result"]["iops"] *= 2
extra = json.loads(json.dumps(recs[2]))
extra["host"] = "node4"
with open(S + "/old.jsonl", "w") as f:
    for r in recs + [extra]:
        f.write(json.dumps(r) + "\n")
EOF
	check "baseline: a host got slower: exit 4" 4 --json --baseline "$S/old.jsonl" "$S/pdsh.txt"
	py "baseline: node2's rates flagged, node4 listed, nothing else regressed" '
b = json.loads(out)["baseline"]
assert b["threshold_pct"] == 10 and b["figures"] == 16, b
run = b["runs"][0]
assert run["old_run_id"] == "lastmonth" and run["new_run_id"] == "fleet1", run
bad = sorted((c["host"], c["figure"]) for c in run["changes"] if c["regressed"])
# the fleet row moves with the measured figures (node2 halved, node4 gone
# from the merged histogram): each of its figures is flagged exactly when it
# is worse beyond 10 %, rates down or latencies up
def worse(c):
    return c["change_pct"] > 10 if c["figure"].startswith("lat_") else c["change_pct"] < -10
want = sorted([("node2", "bytes_per_sec"), ("node2", "iops")] +
              [(c["host"], c["figure"]) for c in run["changes"] if c["host"] == "(fleet)" and worse(c)])
assert bad == want, (bad, want)
assert b["regressed"] == len(want)
n2 = [c for c in run["changes"] if c["host"] == "node2" and c["figure"] == "iops"][0]
assert abs(n2["change_pct"] + 50) < 0.01, n2
assert run["only_in_old"] == ["node4"] and run["only_in_new"] == [], run'
	if grep -q "warning: .* figures regressed beyond 10 % of the baseline" "$S/err"; then
		ok "baseline: the regression is a warning on stderr"
	else
		not_ok "baseline: the regression is a warning on stderr" "$(cat "$S/err")"
	fi
	check "baseline: a threshold above the change: exit 0" 0 --baseline "$S/old.jsonl" --threshold 60% "$S/pdsh.txt"
	check "baseline text: exit 4" 4 --baseline "$S/old.jsonl" "$S/pdsh.txt"
	if grep -q '^  node2  *IOPS .* -50.0 %  REGRESSED$' "$S/out" &&
		grep -q '^  only in the baseline: node4$' "$S/out" && grep -q '^regressed: ' "$S/out"; then
		ok "baseline text: the flagged figure, the missing host and the verdict"
	else
		not_ok "baseline text: the flagged figure, the missing host and the verdict" "$(cat "$S/out")"
	fi
	STDIN="$S/old.jsonl" check "baseline from stdin, csv" 4 --csv --baseline - "$S/all.jsonl"
	py "baseline csv: a row per host and figure, node4 only_in_old" '
import csv, io
rows = list(csv.DictReader(io.StringIO(out)))
assert len(rows) == 17, len(rows)
assert {r["status"] for r in rows if r["host"] == "node2" and r["figure"] in ("bytes_per_sec", "iops")} == {"regressed"}
assert rows[-1]["host"] == "node4" and rows[-1]["status"] == "only_in_old", rows[-1]'
}

t_refusals() {
	python3 - "$S" <<'EOF'
import json, sys
S = sys.argv[1]
lines = open(S + "/all.jsonl").read().splitlines()
r = json.loads(lines[1])
r["params"]["block_size"] = 8192
open(S + "/mixed.jsonl", "w").write("\n".join([lines[0], json.dumps(r), lines[2]]) + "\n")
EOF
	check "mixed params in one run: exit 2" 2 "$S/mixed.jsonl"
	if grep -q "diskbench: input: run 'fleet1' of randread mixes different params: params.block_size is 4096 on node1 ($S/mixed.jsonl:1) and 8192 on node2 ($S/mixed.jsonl:2)" "$S/err"; then
		ok "mixed params: the key and two hosts' values named"
	else
		not_ok "mixed params: the key and two hosts' values named" "$(cat "$S/err")"
	fi
	check "mixed params, --json: exit 2" 2 --json "$S/mixed.jsonl"
	py "mixed params, --json: one document with the error" '
d = json.loads(out)
assert "params.block_size" in d["error"] and d["groups"] == [], d'
	printf 'node1 | FAILED | rc=1 >>\nnode1: diskbench: not found\n' >"$S/none.txt"
	check "nothing parseable: exit 2" 2 "$S/none.txt"
	check "missing file: exit 2" 2 "$S/nonexistent.jsonl"
	check "no file: exit 2" 2
}

t_manual() {
	local o missing=""
	for o in $("$DB" help report | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		grep -Eq -- "(--|\\\\-\\\\-)${o#--}([^a-z-]|\$)" "$(dirname "$0")/../../man/diskbench.1" ||
			missing="$missing $o"
	done
	if [ -z "$missing" ]; then ok "man page documents every option of report"; else not_ok "man page documents every option of report" "missing:$missing"; fi
	if grep -q '^\.B 4$' "$(dirname "$0")/../../man/diskbench.1"; then
		ok "man page: exit status 4"
	else
		not_ok "man page: exit status 4"
	fi
}

t_manual
t_launchers
t_formats
t_baseline
t_refusals
tap_done
