#!/usr/bin/env bash
# Fleet runs end to end (issue 13), on the launchers people use, each
# started by this script itself:
#
#   bash tests/cli/fleet.sh ./diskbench      (make check-fleet; .ci/run runs it)
#
#   1. --jsonl records: one line per document with the fleet keys, times that
#      agree with result.seconds, lat_buckets that add up to result.ios, the
#      run id's sources (environment, Slurm, --start-at); quick and sweep.
#   2. --start-at: the wait, late_us, an instant already passed, SIGINT while
#      waiting (exit 130, no file left behind).
#   3. pdsh's exec module (`pdsh -R exec -w node[1-4]`, no ssh): four processes
#      with one --start-at start within FLEET_SKEW_MS (default 50) of each
#      other, and pdsh's "nodeN: " lines parse as records.
#   4. A one-node Slurm (munged, slurmctld, slurmd configured in a temp dir,
#      root only): `srun -n 2 --output=%N-%t.jsonl` gives two records naming
#      SLURM_JOB_ID and SLURM_PROCID, with one run id.
#   5. The Kubernetes Indexed Job of contrib/: its container's args, run as the
#      pod would run them (no cluster here).
#   6. `make static`: the binary has no dynamic section, says "static" in
#      --version, and runs tests in a chroot holding nothing but itself.
#
# Parts whose tools are missing (pdsh, slurm-wlm, munge, python3-yaml, root) are
# skipped with the reason.  Everything lives in a scratch directory under
# /var/tmp; a trap stops the daemons this script started (by their pids)
# and removes it, also when a case fails or the run is interrupted.
# Output: `ok N - name` / `not ok N - name`, then `N passed, M failed, K skipped`.
set -u

DB=$(realpath -- "${1:?usage: fleet.sh PATH/TO/diskbench}") || exit 2
ROOT=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd)
SKEW_MS=${FLEET_SKEW_MS:-50}
S=$(mktemp -d -p /var/tmp diskbench-fleet.XXXXXX) || exit 2
chmod 755 "$S"
DAEMONS=()
cleanup() {
	local i
	for ((i = ${#DAEMONS[@]} - 1; i >= 0; i--)); do
		kill "${DAEMONS[i]}" 2>/dev/null && wait "${DAEMONS[i]}" 2>/dev/null
	done
	DAEMONS=()
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "fleet tests" "python3 is needed to read the records"
	tap_done
	exit 0
fi

# The checks of records, in python3 (report_check below runs `diskbench report`
# over them as well).  check_records FILE N [RUN_ID]: FILE holds N records, one
# per line, possibly after a launcher's "host: " prefix; prints what is wrong.
cat >"$S/records.py" <<'PYEOF'
import json, re, sys, datetime

UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")
FLEET = ("host", "run_id", "started_at", "ended_at", "launcher", "clock", "start_at")

def epoch(s):
    t = datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ")
    return t.replace(tzinfo=datetime.timezone.utc).timestamp()

def lat_objects(v):
    """every object holding lat_ns, anywhere in the document"""
    if isinstance(v, dict):
        if "lat_ns" in v:
            yield v
        for x in v.values():
            yield from lat_objects(x)
    elif isinstance(v, list):
        for x in v:
            yield from lat_objects(x)

def check(d, where):
    bad = []
    for k in FLEET:
        if k not in d:
            bad.append("%s: no key %s" % (where, k))
    if bad:
        return bad
    if not isinstance(d["host"], str) or not d["host"]:
        bad.append("%s: host %r" % (where, d["host"]))
    if not isinstance(d["run_id"], str) or not d["run_id"]:
        bad.append("%s: run_id %r" % (where, d["run_id"]))
    if not isinstance(d["launcher"], dict):
        bad.append("%s: launcher %r" % (where, d["launcher"]))
    c = d["clock"]
    if set(c) != {"synchronised", "maxerror_us"} or c["synchronised"] not in (True, False, None):
        bad.append("%s: clock %r" % (where, c))
    sa = d["start_at"]
    if sa is not None and (set(sa) != {"requested", "late_us"} or not isinstance(sa["requested"], float)):
        bad.append("%s: start_at %r" % (where, sa))
    for k in ("started_at", "ended_at"):
        if d[k] is not None and not UTC.match(d[k]):
            bad.append("%s: %s %r" % (where, k, d[k]))
    r = d.get("result")
    if d["started_at"] and isinstance(r, dict) and "seconds" in r:
        span = epoch(d["ended_at"]) - epoch(d["started_at"])
        if abs(span - r["seconds"]) > 0.002:
            bad.append("%s: ended_at - started_at = %.6f s, result.seconds %.6f" % (where, span, r["seconds"]))
    # sweep points keep lat_ns and lat_hist, not the full histogram: no lat_buckets
    for o in ([] if d.get("test") == "sweep" else lat_objects(d)):
        b = o.get("lat_buckets")
        if not b or b.get("scheme") != "log-linear-7":
            bad.append("%s: an object with lat_ns has lat_buckets %r" % (where, b))
            continue
        idx = [p[0] for p in b["pairs"]]
        if idx != sorted(set(idx)) or any(p[1] <= 0 for p in b["pairs"]):
            bad.append("%s: lat_buckets pairs not increasing and non-zero" % where)
        total = sum(p[1] for p in b["pairs"])
        if "ios" in o and total != o["ios"]:
            bad.append("%s: lat_buckets add up to %d, ios %d" % (where, total, o["ios"]))
    return bad

def main():
    path, want = sys.argv[1], int(sys.argv[2])
    run_id = sys.argv[3] if len(sys.argv) > 3 else None
    lines = [l for l in open(path, encoding="utf-8").read().split("\n") if l]
    bad, docs = [], []
    for i, l in enumerate(lines):
        m = re.match(r"^([\w.-]+): (\{.*)$", l)
        text = m.group(2) if m else l
        try:
            docs.append(json.loads(text))
        except ValueError as e:
            bad.append("line %d is not a JSON record (%s): %.120s" % (i + 1, e, l))
            continue
        bad += check(docs[-1], "line %d" % (i + 1))
    if len(lines) != want:
        bad.append("%d lines, wanted %d" % (len(lines), want))
    if run_id and any(d.get("run_id") != run_id for d in docs):
        bad.append("run ids %s, wanted %s" % (sorted({d.get("run_id") for d in docs}), run_id))
    print("\n".join(bad))
    return 1 if bad else 0

sys.exit(main())
PYEOF
check_records() {
	local out
	out=$(python3 "$S/records.py" "$@" 2>&1)
	local st=$?
	printf '%s' "$out" >"$S/why"
	return $st
}
# field FILE EXPR: a python expression over d, the first record of FILE
field() {
	python3 -c "import json,re,sys
l = open(sys.argv[1]).readline()
m = re.match(r'^[\w.-]+: (\{.*)$', l)
d = json.loads(m.group(1) if m else l)
v = ($2)
print(v)" "$1" 2>&1
}

D="$S/dir"
mkdir -p "$D"
R=(-s 8M -t 0.5)

# ---- 1. --jsonl ------------------------------------------------------------------
"$DB" randread --jsonl "${R[@]}" "$D" >"$S/out" 2>"$S/err"
st=$?
check_records "$S/out" 1
expect "randread --jsonl: one record with the fleet keys, times and lat_buckets" $(($? + st)) \
	"exit $st: $(head -c 300 "$S/err")" "$(cat "$S/why")"
expect "randread --jsonl: a random run id of 16 hex digits, no launcher, no start_at" \
	"$([ "$(field "$S/out" '(bool(re.match("^[0-9a-f]{16}$", d["run_id"])), d["launcher"], d["start_at"])')" = \
	"(True, {}, None)" ] && echo 0 || echo 1)" "$(head -c 300 "$S/out")"

"$DB" randread --json "${R[@]}" "$D" >"$S/out" 2>"$S/err"
expect "--json: lat_buckets in result, no fleet keys" \
	"$([ "$(field "$S/out" '("lat_buckets" in d["result"], "host" in d or "run_id" in d)')" = "(True, False)" ] &&
	echo 0 || echo 1)" "$(head -c 300 "$S/out")"

env SLURM_JOB_ID=77 SLURM_STEP_ID=3 SLURM_PROCID=1 JOB_COMPLETION_INDEX=2 PMI_RANK=1 \
	"$DB" randread --jsonl "${R[@]}" "$D" >"$S/out" 2>"$S/err"
got=$(field "$S/out" 'd["run_id"], list(d["launcher"].items())')
want="('slurm-77.3', [('SLURM_JOB_ID', '77'), ('SLURM_PROCID', '1'), ('JOB_COMPLETION_INDEX', '2'), ('PMI_RANK', '1')])"
expect "Slurm's job and step name the run; the launcher variables present are listed" \
	"$([ "$got" = "$want" ] && echo 0 || echo 1)" "got $got" "want $want"
env SLURM_JOB_ID=77 DISKBENCH_RUN_ID=k8s-uid-1 "$DB" randread --jsonl "${R[@]}" "$D" >"$S/out" 2>"$S/err"
got=$(field "$S/out" 'd["run_id"]')
expect "\$DISKBENCH_RUN_ID comes before Slurm's job" "$([ "$got" = k8s-uid-1 ] && echo 0 || echo 1)" "got $got"
env DISKBENCH_RUN_ID=k8s-uid-1 "$DB" randread --jsonl --run-id mine --host-label 'rack 4/node "7"' \
	"${R[@]}" "$D" >"$S/out" 2>"$S/err"
got=$(field "$S/out" 'd["run_id"], d["host"]')
expect "--run-id and --host-label come first" \
	"$([ "$got" = "('mine', 'rack 4/node \"7\"')" ] && echo 0 || echo 1)" "got $got"

"$DB" randread --jsonl "${R[@]}" /nonexistent/diskbench-fleet/x >"$S/out" 2>"$S/err"
st=$?
check_records "$S/out" 1
expect "a failed run's record names its host and says why (exit 2: no such directory)" \
	"$([ $st = 2 ] && [ "$(field "$S/out" 'd["started_at"] is None and bool(d["error"]) and bool(d["host"])')" = True ] &&
	echo 0 || echo 1)" "exit $st" "$(cat "$S/why")" "$(head -c 300 "$S/out")"

"$DB" quick --jsonl -s 16M -t 2 "$D" >"$S/out" 2>"$S/err"
st=$?
check_records "$S/out" 1
expect "quick --jsonl: one record for the whole check, lat_buckets in every step" $(($? + st)) \
	"exit $st: $(head -c 300 "$S/err")" "$(cat "$S/why")"
"$DB" sweep --jsonl -s 16M --levels 1,2 --large-levels 1 --point-time 0.2 "$D" >"$S/out" 2>"$S/err"
st=$?
check_records "$S/out" 1
expect "sweep --jsonl: one record for the whole sweep" $(($? + st)) \
	"exit $st: $(head -c 300 "$S/err")" "$(cat "$S/why")"

# ---- 2. --start-at -----------------------------------------------------------------
"$DB" randread --jsonl --start-at +1 "${R[@]}" "$D" >"$S/out" 2>"$S/err"
st=$?
check_records "$S/out" 1
got=$(field "$S/out" '"at-%d" % d["start_at"]["requested"] == d["run_id"], d["start_at"]["late_us"] >= 0, 0 <= __import__("datetime").datetime.strptime(d["started_at"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=__import__("datetime").timezone.utc).timestamp() - d["start_at"]["requested"] < 1')
expect "--start-at +1: the run id is the instant, the loop starts after it, late_us recorded" \
	"$([ $st = 0 ] && [ "$got" = "(True, True, True)" ] && echo 0 || echo 1)" "exit $st, got $got" "$(cat "$S/why")"
"$DB" randread --start-at "$(date -u -d @$(($(date +%s) - 30)) +%Y-%m-%dT%H:%M:%SZ)" "${R[@]}" "$D" \
	>"$S/out" 2>"$S/err"
st=$?
expect "--start-at in the past: a warning, and the run starts at once" \
	"$([ $st = 0 ] && grep -q 'had passed [0-9.]* s before the run was ready' "$S/err" && echo 0 || echo 1)" \
	"exit $st" "$(cat "$S/err")"

"$DB" randread --jsonl --start-at +30 "${R[@]}" "$D" >"$S/out" 2>"$S/err" &
pid=$!
sleep 1.5
t0=$(date +%s%N)
kill -INT "$pid"
wait "$pid"
st=$?
ms=$((($(date +%s%N) - t0) / 1000000))
expect "SIGINT while waiting for --start-at: exit 130 within 0.5 s, the record says so" \
	"$([ $st = 130 ] && [ $ms -lt 500 ] &&
	[ "$(field "$S/out" 'd["interrupted"], d["start_at"]["late_us"], d["started_at"]')" = "(True, None, None)" ] &&
	grep -q 'interrupted by SIGINT while waiting for --start-at' "$S/err" && echo 0 || echo 1)" \
	"exit $st after $ms ms" "$(cat "$S/err")" "$(head -c 300 "$S/out")"
expect "SIGINT while waiting: no test file left behind" \
	"$([ -z "$(find "$D" -name '.diskbench-*')" ] && echo 0 || echo 1)" "$(ls -a "$D")"

# ---- 3. pdsh -R exec ---------------------------------------------------------------
# skew_ms FILE: the spread of started_at over the records, in ms
skew_ms() {
	python3 -c "import json,re,sys,datetime
t = []
for l in open(sys.argv[1]):
    d = json.loads(re.match(r'^[\w.-]+: (\{.*)$', l).group(1))
    s = datetime.datetime.strptime(d['started_at'], '%Y-%m-%dT%H:%M:%S.%fZ')
    t.append(s.replace(tzinfo=datetime.timezone.utc).timestamp())
print('%.3f' % ((max(t) - min(t)) * 1000))" "$1" 2>&1
}
# pdsh_run NAME START [RUN_ID]: four "hosts", each its own scratch directory;
# the records in $S/pdsh.out
pdsh_run() {
	local name=$1 start=$2 st
	mkdir -p "$S"/node{1,2,3,4}
	timeout 120 pdsh -R exec -w 'node[1-4]' "$DB" randread --jsonl --start-at "$start" \
		--host-label %h -s 8M -t 1 "$S/%h" >"$S/pdsh.out" 2>"$S/pdsh.err"
	st=$?
	check_records "$S/pdsh.out" 4 ${3:+"$3"}
	expect "pdsh $name: four records behind pdsh's \"nodeN: \" prefixes${3:+, one run id}" \
		$(($? + st)) "exit $st: $(grep -v 'clock is not synchronised' "$S/pdsh.err" | head -c 300)" \
		"$(cat "$S/why")"
	rm -rf "$S"/node{1,2,3,4}
}
# skew NAME: the spread of started_at over the records of $S/pdsh.out that
# asked for the most common instant (all four, unless +N's launches straddled
# a second boundary), against SKEW_MS
skew() {
	local got
	got=$(python3 -c "import json,re,sys,datetime,collections
ds = [json.loads(re.match(r'^[\w.-]+: (\{.*)$', l).group(1)) for l in open(sys.argv[1])]
by = collections.Counter(d['start_at']['requested'] for d in ds)
at, n = by.most_common(1)[0]
t = [datetime.datetime.strptime(d['started_at'], '%Y-%m-%dT%H:%M:%S.%fZ')
     .replace(tzinfo=datetime.timezone.utc).timestamp() for d in ds if d['start_at']['requested'] == at]
ids = all(d['run_id'] == 'at-%d' % d['start_at']['requested'] for d in ds)
print(n, '%.3f' % ((max(t) - min(t)) * 1000), ids)" "$S/pdsh.out" 2>&1)
	read -r hosts spread ids <<<"$got"
	echo "# pdsh $1: $hosts hosts asked for one instant; their started_at spread over $spread ms"
	[ "$hosts" = 4 ] || echo "# pdsh $1: the launches straddled a second boundary (a loaded machine)"
	expect "pdsh $1: each run id is its instant; hosts with one instant started within $SKEW_MS ms" \
		"$([ "$ids" = True ] && [ "${hosts:-0}" -ge 2 ] &&
		python3 -c "import sys; sys.exit(0 if float('$spread') < $SKEW_MS else 1)" 2>/dev/null &&
		echo 0 || echo 1)" "got $got"
}
# report_check NAME FILE N: `diskbench report` over the launcher's output
# merges N hosts into one group, its totals add up to the records' bytes and
# I/Os, and the fleet percentiles count every I/O of every host
report_check() {
	local got
	got=$("$DB" report --json "$2" 2>"$S/report.err" | python3 -c "import json,re,sys
d = json.load(sys.stdin)
recs = [json.loads(l[l.index('{'):]) for l in open(sys.argv[1]) if '{' in l]
g = d['groups']
f = g[0]['fleet'] if len(g) == 1 else {}
ok = (len(g) == 1 and f['hosts'] == len(recs) == int(sys.argv[2]) and
      f['bytes'] == sum(r['result']['bytes'] for r in recs) and
      f['ios'] == f['lat_ns']['count'] == sum(r['result']['ios'] for r in recs))
print(ok, len(g), f.get('hosts'), f.get('bytes'))" "$2" "$3" 2>&1)
	expect "report over $1: $3 hosts in one group, totals and merged percentiles add up" \
		"$([[ $got == True* ]] && echo 0 || echo 1)" "got $got" "$(cat "$S/report.err")"
}
if ! command -v pdsh >/dev/null 2>&1; then
	skip "pdsh launcher" "pdsh is not installed (apt-get install pdsh)"
elif ! pdsh -V 2>&1 | grep -q 'exec'; then
	skip "pdsh launcher" "pdsh has no exec module ($(pdsh -V 2>&1 | tail -n 1))"
else
	# the instant computed once, as the README's recipe does on the admin's machine
	T=$(($(date +%s) + 3))
	pdsh_run "--start-at EPOCH" "$T" "at-$T"
	skew "--start-at EPOCH"
	report_check "pdsh's prefixed output" "$S/pdsh.out" 4
	# +N: hosts launched within one second round up to the same instant; start
	# just after a second boundary, as the issue's recipe pasted at any moment may not
	python3 -c "import time; time.sleep(1.02 - time.time() % 1)"
	pdsh_run "--start-at +3" +3
	skew "--start-at +3"
fi

# ---- 4. Slurm ------------------------------------------------------------------------
# slurm_up: munged, slurmctld and slurmd for this test, in $S/slurm; 1 with
# the reason in $S/why when they cannot start
slurm_up() {
	local W="$S/slurm" H i
	H=$(hostname -s)
	mkdir -p "$W/state" "$W/spool" "$W/munge" "$W/out" "$W/d"
	chmod 700 "$W/munge"
	head -c 1024 /dev/urandom >"$W/munge/munge.key" && chmod 600 "$W/munge/munge.key"
	munged -F --force --socket="$W/munge/sock" --key-file="$W/munge/munge.key" \
		--pid-file="$W/munge/pid" --seed-file="$W/munge/seed" --log-file="$W/munge/log" \
		>"$W/munged.out" 2>&1 &
	DAEMONS+=($!)
	local port=$((20000 + RANDOM % 20000))
	cat >"$W/slurm.conf" <<EOF
ClusterName=diskbench
SlurmctldHost=$H(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$W/munge/sock
CredType=cred/munge
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/slurmctld.log
SlurmdLogFile=$W/slurmd.log
PlugStackConfig=$W/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=$H NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=diskbench Nodes=$H Default=YES MaxTime=10 State=UP
EOF
	: >"$W/plugstack.conf"
	export SLURM_CONF="$W/slurm.conf"
	for i in $(seq 50); do [ -S "$W/munge/sock" ] && break; sleep 0.1; done
	if [ ! -S "$W/munge/sock" ]; then
		echo "munged did not start: $(tail -n 3 "$W/munged.out")" >"$S/why"
		return 1
	fi
	slurmctld -D -i -f "$W/slurm.conf" >"$W/slurmctld.out" 2>&1 &
	DAEMONS+=($!)
	slurmd -D -f "$W/slurm.conf" -N "$H" >"$W/slurmd.out" 2>&1 &
	DAEMONS+=($!)
	for i in $(seq 60); do
		[ "$(sinfo -h -n "$H" -o %T 2>/dev/null)" = idle ] && return 0
		sleep 0.5
	done
	echo "slurmctld/slurmd did not bring the node up in 30 s: $(tail -n 2 "$W/slurmctld.log" "$W/slurmd.log" 2>&1 | tr '\n' ' ')" >"$S/why"
	return 1
}
missing=""
for t in munged slurmctld slurmd srun sinfo; do command -v "$t" >/dev/null 2>&1 || missing="$missing $t"; done
if [ -n "$missing" ]; then
	skip "Slurm launcher" "missing:$missing (apt-get install slurm-wlm munge)"
elif [ "$(id -u)" != 0 ]; then
	skip "Slurm launcher" "the daemons run as root: run this as root"
elif ! slurm_up; then
	skip "Slurm launcher" "$(cat "$S/why")"
else
	W="$S/slurm"
	# --error apart: srun sends a task's stderr (diskbench's warnings) to
	# --output too unless told otherwise
	timeout 120 srun -n 2 --output="$W/out/%N-%t.jsonl" --error="$W/out/%N-%t.err" \
		"$DB" randread --jsonl -s 8M -t 1 "$W/d" \
		>"$W/srun.out" 2>"$W/srun.err"
	st=$?
	cat "$W"/out/*.jsonl >"$S/slurm.jsonl" 2>/dev/null
	check_records "$S/slurm.jsonl" 2
	expect "srun -n 2 --output=%N-%t.jsonl: two files with one record each" $(($? + st)) \
		"exit $st: $(head -c 300 "$W/srun.err")" "$(cat "$S/why")" "$(ls "$W/out")"
	report_check "srun's files" "$S/slurm.jsonl" 2
	got=$(python3 -c "import json,sys
ds = [json.loads(l) for l in open(sys.argv[1])]
ids = {d['run_id'] for d in ds}
ranks = sorted(d['launcher'].get('SLURM_PROCID') for d in ds)
jobs = {d['launcher'].get('SLURM_JOB_ID') for d in ds}
job = jobs.pop() if len(jobs) == 1 else None
print(len(ids) == 1 and job and ids.pop().startswith('slurm-%s.' % job), ranks)" "$S/slurm.jsonl" 2>&1)
	expect "srun: SLURM_JOB_ID and SLURM_PROCID 0, 1 in launcher, one run id slurm-JOB.STEP" \
		"$([ "$got" = "True ['0', '1']" ] && echo 0 || echo 1)" "got $got" "$(head -c 400 "$S/slurm.jsonl")"
	unset SLURM_CONF
fi

# ---- 5. the Kubernetes manifest -------------------------------------------------------
# No cluster here: the manifest is read (python3-yaml) and its container's
# args run as the pod would run them, $(NODE_NAME) and $DISKBENCH_RUN_ID from
# its env, START_AT as envsubst puts it, with a small size and a scratch target.
K="$ROOT/contrib/diskbench-indexed-job.yaml"
if ! python3 -c 'import yaml' 2>/dev/null; then
	skip "Kubernetes manifest" "python3-yaml is not installed"
else
	T=$(($(date +%s) + 1))
	if mapfile -t args < <(python3 - "$K" "$T" "$D" <<'PYEOF'
import sys, yaml
path, start_at, target = sys.argv[1:]
job = yaml.safe_load(open(path).read().replace("${START_AT}", start_at))
spec = job["spec"]
assert job["kind"] == "Job" and spec["completionMode"] == "Indexed", "not an Indexed Job"
assert spec["parallelism"] == spec["completions"], "parallelism must equal completions"
pod = spec["template"]["spec"]
anti = pod["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"][0]
assert anti["topologyKey"] == "kubernetes.io/hostname", "not one pod per node"
c = pod["containers"][0]
env = {e["name"]: e["valueFrom"]["fieldRef"]["fieldPath"] for e in c["env"]}
assert env == {"NODE_NAME": "spec.nodeName",
               "DISKBENCH_RUN_ID": "metadata.labels['batch.kubernetes.io/controller-uid']"}, env
args = [a.replace("$(NODE_NAME)", "node-a") for a in c["args"]]
for opt, small in (("-s", "8M"), ("-t", "0.5")):
    args[args.index(opt) + 1] = small
assert args[-1] == "/data", "the target is not the mounted volume"
print("\n".join(args[:-1] + [target]))
PYEOF
	) && [ ${#args[@]} -gt 0 ]; then
		DISKBENCH_RUN_ID=0b1c2d3e-uid "$DB" "${args[@]}" >"$S/out" 2>"$S/err"
		st=$?
		check_records "$S/out" 1 0b1c2d3e-uid
		expect "the Indexed Job's args run as a pod runs them: the node's name, the Job's uid" \
			$(($? + st)) "exit $st: $(head -c 300 "$S/err")" "$(cat "$S/why")"
		got=$(field "$S/out" '(d["host"], d["start_at"]["requested"])')
		expect "the Indexed Job: host is the node, start_at the instant of START_AT" \
			"$([ "$got" = "('node-a', $T.0)" ] && echo 0 || echo 1)" "got $got"
	else
		not_ok "the Kubernetes manifest is an Indexed Job, one pod per node, the run id the Job's uid" \
			"${args[*]}"
	fi
fi

# ---- 6. make static ----------------------------------------------------------------
if ! make -s -C "$ROOT" static >"$S/static.log" 2>&1; then
	skip "make static" "it did not build here: $(tail -n 3 "$S/static.log" | tr '\n' ' ')"
else
	SB="$ROOT/diskbench-static"
	expect "make static: no dynamic section, no interpreter" \
		"$(! readelf -d "$SB" 2>/dev/null | grep -q 'NEEDED' && ! readelf -l "$SB" | grep -q INTERP &&
		echo 0 || echo 1)" "$(readelf -d "$SB" 2>&1 | head -5)"
	if command -v ldd >/dev/null 2>&1; then
		expect "ldd: not a dynamic executable" \
			"$(ldd "$SB" 2>&1 | grep -q 'not a dynamic executable' && echo 0 || echo 1)" "$(ldd "$SB" 2>&1)"
	fi
	if command -v file >/dev/null 2>&1; then
		expect "file: statically linked" "$(file "$SB" | grep -q 'statically linked' && echo 0 || echo 1)" \
			"$(file "$SB")"
	fi
	expect "diskbench-static --version says static" \
		"$("$SB" --version | grep -qx 'diskbench [0-9.]* (static)' && echo 0 || echo 1)" "$("$SB" --version)"
	echo "# diskbench-static: $(stat -c %s "$SB") bytes"
	if [ "$(id -u)" = 0 ] && command -v chroot >/dev/null 2>&1; then
		# a root that holds the binary and an empty /tmp: no libc, no /proc, no /sys
		C="$S/chroot"
		mkdir -p "$C/bin" "$C/tmp"
		cp "$SB" "$C/bin/diskbench"
		chroot "$C" /bin/diskbench randread --jsonl --qd 4 -s 8M -t 0.5 /tmp >"$S/out" 2>"$S/err"
		st=$?
		check_records "$S/out" 1
		expect "the static binary runs randread --jsonl in a chroot with no libc" $(($? + st)) \
			"exit $st: $(head -c 300 "$S/err")" "$(cat "$S/why")"
		chroot "$C" /bin/diskbench seqwrite -s 0 /tmp >"$S/out" 2>"$S/err"
		st=$?
		expect "the static binary refuses bad input there as usual (exit 2)" \
			"$([ $st = 2 ] && grep -q "^diskbench: --size '0'" "$S/err" && echo 0 || echo 1)" \
			"exit $st: $(cat "$S/err")"
	else
		skip "static binary in a chroot" "chroot needs root"
	fi
fi

tap_done
