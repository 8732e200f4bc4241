#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2013  # single-quoted bash -c scripts; option names are words
# End-to-end / CLI tests of diskbench: runs the built binary as a user would.
#
#   bash tests/cli/run.sh ./diskbench          (what `make cli` runs)
#
# Every file it writes lives in a scratch directory under /var/tmp (mktemp -d),
# in tmpfs/ramfs mounts it makes inside that directory, or on loop devices it
# attaches to files in that directory.  It never names a real block device.
# A trap removes all of it on exit, on INT/TERM and when a case fails.
#
# Output is TAP-like: `ok N - name`, `not ok N - name` (with `#` lines saying
# why), `ok N - name # SKIP reason`, then `N passed, M failed, K skipped`.
# Exit status: 0 when nothing failed, 1 otherwise.
#
# Cases that need root (mounts, loop devices, running as another user) skip
# with a reason when that is not possible here.  Set DISKBENCH_CLI_VERBOSE=1 to
# see stdout/stderr of failing cases in full (2: also the stderr of passing ones), DISKBENCH_CLI_ONLY="t_signals
# t_enospc" to run only some groups (the t_* functions below).

set -u

if [ $# -lt 1 ]; then
	echo "usage: bash tests/cli/run.sh PATH/TO/diskbench" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
if [ ! -x "$DB" ]; then
	echo "run.sh: $1 is not an executable" >&2
	exit 2
fi
HERE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd -- "$HERE/../.." && pwd)
MAN="$REPO/man/diskbench.1"
TMO=${DISKBENCH_CLI_TIMEOUT:-60}    # seconds allowed to any one diskbench run
VERBOSE=${DISKBENCH_CLI_VERBOSE:-0}
MiB=$((1024 * 1024))
TESTS="seqwrite seqread buffered cached randread randwrite"   # the contract's six
ALL_TESTS=$TESTS   # and every test --help lists (set in t_help)

# ---- scratch space and clean-up ------------------------------------------------
S=$(mktemp -d -p /var/tmp diskbench-cli.XXXXXX) || { echo "run.sh: mktemp failed" >&2; exit 2; }
MOUNTS=()   # mount points we mounted, unmounted in reverse order
LOOPS=()    # loop devices we attached
BGPIDS=()   # background processes we started

URING_RESTORE=""   # kernel.io_uring_disabled to put back, if a case changed it
cleanup() {
	local i pid
	[ -n "$URING_RESTORE" ] && echo "$URING_RESTORE" >/proc/sys/kernel/io_uring_disabled
	URING_RESTORE=""
	for pid in "${BGPIDS[@]}"; do
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	BGPIDS=()
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}" 2>/dev/null
	done
	MOUNTS=()
	for i in "${LOOPS[@]}"; do
		losetup -d "$i" 2>/dev/null
	done
	LOOPS=()
	[ -n "${S:-}" ] && [ -d "$S" ] && rm -rf -- "$S"
}
trap cleanup EXIT
trap 'echo "run.sh: interrupted" >&2; cleanup; trap - EXIT; exit 130' INT
trap 'echo "run.sh: terminated" >&2; cleanup; trap - EXIT; exit 143' TERM

chmod 711 "$S"   # so that the unprivileged cases can reach their files
mkdir -p "$S/log" "$S/bin"
# A copy of the binary that every user can execute (for the non-root cases).
cp -- "$DB" "$S/bin/diskbench" && chmod 755 "$S/bin" "$S/bin/diskbench"
DBN="$S/bin/diskbench"
# Every case runs this snapshot, so a rebuild in the middle of a run does not
# mix two binaries (or find none).
DB_ORIG=$DB
DB=$DBN

IS_ROOT=0; [ "$(id -u)" = 0 ] && IS_ROOT=1
AVAIL=$(df -B1 --output=avail "$S" 2>/dev/null | tail -n 1 | tr -d ' ')
BIG=1
if [ -z "$AVAIL" ] || [ "$AVAIL" -lt $((1024 * MiB)) ]; then
	BIG=0
fi
# How to run a command as a user without privileges: as nobody when we are
# root, as ourselves when we are not.
NOBODY=(); NOBODY_OK=0
if [ $IS_ROOT = 0 ]; then
	NOBODY_OK=1
elif [ $IS_ROOT = 1 ] && command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups); NOBODY_OK=1
elif [ $IS_ROOT = 1 ] && command -v runuser >/dev/null 2>&1 &&
	runuser -u nobody -- true 2>/dev/null; then
	NOBODY=(runuser -u nobody --); NOBODY_OK=1
fi
# Signals to a background job of a non-interactive shell start ignored; reset
# them so the signal cases test diskbench, not the shell.
DEFSIG=()
env --default-signal=INT --default-signal=TERM true 2>/dev/null &&
	DEFSIG=(env --default-signal=INT --default-signal=TERM)

# ---- the JSON/CSV checker (python3) --------------------------------------------
PY="$S/check.py"
export PYTHONPATH="$HERE"   # invariants.py
cat >"$PY" <<'PYEOF'
import csv, io, json, math, re, sys
import invariants

def load(path):
    text = open(path, encoding="utf-8").read()
    if not text.strip():
        raise SystemExit("stdout is empty, expected one JSON document")
    try:
        doc = json.loads(text)      # the whole stdout: one document, nothing else
    except ValueError as e:
        raise SystemExit("stdout is not exactly one JSON document: %s; stdout starts %r"
                         % (e, text[:200]))
    bad = invariants.check(doc)     # tests/cli/invariants.py: what every document holds
    if bad:
        raise SystemExit("invariants: " + "; ".join(bad))
    return doc

def stderr_warnings(path):
    out = []
    for line in open(path, encoding="utf-8", errors="replace"):
        m = re.match(r"^diskbench: warning: (.*)$", line.rstrip("\n"))
        if m:
            out.append(m.group(1))
    return out

def lookup(doc, dotted):
    v = doc
    for part in dotted.split("."):
        if isinstance(v, list):
            v = v[int(part)]
        else:
            v = v[part]
    return v

def isnum(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)

def isint(v):
    return isinstance(v, int) and not isinstance(v, bool)

def check_valid(out, err, test, expects):
    doc = load(out)
    p = []
    def need(cond, msg):
        if not cond:
            p.append(msg)
    need(isinstance(doc, dict), "document is not an object")
    if not isinstance(doc, dict):
        return doc, p
    need(doc.get("schema") == 1, "schema != 1: %r" % doc.get("schema"))
    need(doc.get("tool") == "diskbench", "tool != diskbench: %r" % doc.get("tool"))
    need(isinstance(doc.get("version"), str) and re.match(r"^\d+\.\d+\.\d+", doc["version"]),
         "version %r" % doc.get("version"))
    need(doc.get("test") == test, "test %r != %r" % (doc.get("test"), test))
    need(isinstance(doc.get("target"), str) and doc["target"], "target %r" % doc.get("target"))
    need(isinstance(doc.get("file"), str) and doc["file"], "file %r" % doc.get("file"))
    need("error" not in doc or not doc["error"], "error key on success: %r" % doc.get("error"))
    write = test in ("seqwrite", "randwrite")
    pr = doc.get("params")
    need(isinstance(pr, dict), "params missing")
    pr = pr if isinstance(pr, dict) else {}
    for k in ("block_size", "size", "time_limit_s", "direct", "sync", "threads",
              "drop_caches", "data"):
        need(k in pr, "params.%s missing" % k)
    need(isint(pr.get("block_size")) and pr["block_size"] > 0, "params.block_size %r" % pr.get("block_size"))
    need(isint(pr.get("size")) and pr["size"] > 0, "params.size %r" % pr.get("size"))
    need(isnum(pr.get("time_limit_s")) and pr["time_limit_s"] >= 0, "params.time_limit_s %r" % pr.get("time_limit_s"))
    need(isinstance(pr.get("direct"), bool), "params.direct %r" % pr.get("direct"))
    need(isint(pr.get("threads")) and pr["threads"] >= 1, "params.threads %r" % pr.get("threads"))
    need(pr.get("data") in ("random", "zeros"), "params.data %r" % pr.get("data"))
    if write:
        need(pr.get("sync") in ("dsync", "fsync", "none"), "params.sync %r" % pr.get("sync"))
    if test in ("seqread", "buffered", "randread"):
        need(pr.get("drop_caches") in ("file", "all", "none"), "params.drop_caches %r" % pr.get("drop_caches"))
    r = doc.get("result")
    need(isinstance(r, dict), "result is not an object: %r" % r)
    r = r if isinstance(r, dict) else {}
    for k in ("bytes", "ios", "seconds", "bytes_per_sec", "iops", "lat_ns", "lat_hist"):
        need(k in r, "result.%s missing" % k)
    bs = pr.get("block_size") or 0
    b, ios, sec = r.get("bytes"), r.get("ios"), r.get("seconds")
    bps, iops = r.get("bytes_per_sec"), r.get("iops")
    need(isint(b) and isint(ios) and isnum(sec) and isnum(bps) and isnum(iops),
         "result numbers have wrong types: %r" % {k: r.get(k) for k in ("bytes", "ios", "seconds", "bytes_per_sec", "iops")})
    if isint(b) and isint(ios) and isnum(sec) and isnum(bps) and isnum(iops):
        need(ios > 0, "no I/O done (ios == 0)")
        need(sec > 0, "seconds <= 0")
        need(ios * bs == b, "ios*bs != bytes: %d*%d != %d" % (ios, bs, b))
        need(abs(iops * sec - ios) <= 1, "|iops*seconds - ios| > 1: %r*%r vs %r" % (iops, sec, ios))
        need(abs(bps * sec - b) <= max(0.005 * b, 1.0), "bytes_per_sec*seconds != bytes: %r*%r vs %r" % (bps, sec, b))
        # -t is a duration: a run that ended at its time limit may go round
        # its region (-s) again; one that did not, moved at most -s
        ended = r.get("ended")
        need(ended in ("time", "one pass", "steady"), "result.ended %r" % ended)
        if isint(pr.get("size")) and ended != "time":
            need(b <= pr["size"] or test == "cached", "bytes %d > size %d (ended %r)" % (b, pr["size"], ended))
        if ended == "time" and isnum(pr.get("time_limit_s")):
            need(pr["time_limit_s"] > 0 and sec >= 0.99 * pr["time_limit_s"],
                 "ended at the time limit after %r s of %r" % (sec, pr.get("time_limit_s")))
        region = pr.get("region")
        if isint(region) and region > 0 and isnum(r.get("passes")):
            need(abs(r["passes"] - b / region) <= 0.001 + 1e-6 * b / region,
                 "passes %r != bytes/region %r" % (r["passes"], b / region))
            need(r.get("wrapped") == (r["passes"] > 1), "wrapped %r with %r passes" % (r.get("wrapped"), r["passes"]))
    buf = r.get("buffer")
    need(isinstance(buf, dict) and buf.get("backing") in ("huge pages", "pages"), "result.buffer %r" % buf)
    if isinstance(buf, dict):
        sg = buf.get("segments_per_request")
        need(sg is None or (isnum(sg) and 1 <= sg <= max(1, bs // 4096 + 1)), "segments_per_request %r" % sg)
    rps = r.get("requests_per_submit")
    need(isnum(rps) and 1 <= rps <= max(1, (pr.get("qd") or 1)), "requests_per_submit %r" % rps)
    need(r.get("engine") == pr.get("engine"), "result.engine %r != params.engine %r" % (r.get("engine"), pr.get("engine")))
    need(r.get("in_flight") == (pr.get("qd") or 1) * pr.get("threads", 1),
         "in_flight %r != qd x threads" % r.get("in_flight"))
    lat = r.get("lat_ns")
    need(isinstance(lat, dict), "result.lat_ns missing")
    lat = lat if isinstance(lat, dict) else {}
    keys = ("min", "mean", "max", "stdev", "p50", "p90", "p99", "p99_9")
    for k in keys:
        need(isnum(lat.get(k)) and lat[k] >= 0, "lat_ns.%s %r" % (k, lat.get(k)))
    if all(isnum(lat.get(k)) for k in keys):
        need(lat["min"] <= lat["p50"], "lat min %r > p50 %r" % (lat["min"], lat["p50"]))
        need(lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["p99_9"],
             "percentiles not ordered: p50 %r p90 %r p99 %r p99_9 %r" % (lat["p50"], lat["p90"], lat["p99"], lat["p99_9"]))
        need(lat["p99"] <= lat["max"], "lat p99 %r > max %r" % (lat["p99"], lat["max"]))
        need(lat["p99_9"] <= lat["max"], "lat p99_9 %r > max %r" % (lat["p99_9"], lat["max"]))
        need(lat["min"] <= lat["mean"] <= lat["max"], "lat mean %r not in [min %r, max %r]" % (lat["mean"], lat["min"], lat["max"]))
    hist = r.get("lat_hist")
    need(isinstance(hist, list), "result.lat_hist is not a list")
    if isinstance(hist, list):
        ok = all(isinstance(h, dict) and isint(h.get("le_ns")) and isint(h.get("count")) for h in hist)
        need(ok, "lat_hist entries are not {le_ns: int, count: int}")
        if ok:
            need(sum(h["count"] for h in hist) == ios, "sum(lat_hist counts) %d != ios %r" % (sum(h["count"] for h in hist), ios))
            les = [h["le_ns"] for h in hist]
            need(les == sorted(les) and len(set(les)) == len(les), "lat_hist le_ns not increasing")
            if hist and isnum(lat.get("max")):
                need(hist[-1]["le_ns"] >= lat["max"], "last lat_hist bound %d < max %r" % (hist[-1]["le_ns"], lat["max"]))
    c = doc.get("cache")
    need(isinstance(c, dict) and "evicted" in c and "resident_before_pct" in c,
         "cache{evicted,resident_before_pct} missing: %r" % c)
    if isinstance(c, dict) and test in ("seqread", "buffered", "randread", "cached"):
        rp = c.get("resident_before_pct")
        hidden = c.get("resident_unknown_reason")  # null only with the reason why
        need((isnum(rp) and 0 <= rp <= 100 and hidden is None) or (rp is None and hidden),
             "cache.resident_before_pct %r (reason %r)" % (rp, hidden))
        ra = c.get("resident_after_pct")  # read after the join: hidden alike
        need(ra is None or (isnum(ra) and 0 <= ra <= 100 and hidden is None),
             "cache.resident_after_pct %r (reason %r)" % (ra, hidden))
    w = doc.get("warnings")
    need(isinstance(w, list) and all(isinstance(x, str) for x in w), "warnings is not a list of strings")
    if isinstance(w, list):
        sw = stderr_warnings(err)
        need(sw == w, "stderr warnings %r != JSON warnings %r" % (sw, w))
    for e in expects:
        key, _, want = e.partition("=")
        try:
            want_v = json.loads(want)
        except ValueError:
            want_v = want
        try:
            got = lookup(doc, key)
        except (KeyError, IndexError, TypeError, ValueError):
            p.append("%s missing" % key)
            continue
        need(got == want_v, "%s = %r, expected %r" % (key, got, want_v))
    return doc, p

def check_error(out, err):
    doc = load(out)
    p = []
    if not isinstance(doc, dict):
        return ["document is not an object"]
    if doc.get("schema") != 1:
        p.append("schema != 1: %r" % doc.get("schema"))
    e = doc.get("error")
    if not isinstance(e, str) or not e:
        p.append("no non-empty \"error\" key: %r" % e)
    else:
        text = open(err, encoding="utf-8", errors="replace").read()
        if ("diskbench: " + e) not in text:
            p.append("error %r is not the text on stderr %r" % (e, text[:300]))
    r = doc.get("result")
    if isinstance(r, dict) and r.get("bytes_per_sec"):
        p.append("a failed run carries a result: %r" % r)
    return p

def check_csv(out, test):
    rows = list(csv.reader(io.StringIO(open(out, encoding="utf-8").read())))
    rows = [r for r in rows if r]
    p = []
    if len(rows) != 2:
        return ["expected a header and one row, got %d lines" % len(rows)]
    head, row = rows
    for col in "test,target,block_size,bytes,seconds,bytes_per_sec,iops,lat_p50_ns,lat_p99_ns".split(","):
        if col not in head:
            p.append("header lacks column %r" % col)
    if len(head) != len(row):
        p.append("header has %d fields, row %d" % (len(head), len(row)))
        return p
    d = dict(zip(head, row))
    if d.get("test") != test:
        p.append("test column %r != %r" % (d.get("test"), test))
    try:
        bs, b = int(d["block_size"]), int(d["bytes"])
        sec, bps, iops = float(d["seconds"]), float(d["bytes_per_sec"]), float(d["iops"])
        p50, p99 = float(d["lat_p50_ns"]), float(d["lat_p99_ns"])
        if b <= 0 or b % bs:
            p.append("bytes %d not a positive multiple of block_size %d" % (b, bs))
        if sec <= 0 or abs(bps * sec - b) > max(0.005 * b, 1):
            p.append("bytes_per_sec*seconds != bytes")
        if abs(iops * sec - b / bs) > 1:
            p.append("iops*seconds != bytes/block_size")
        if not (0 < p50 <= p99):
            p.append("latency columns p50 %r p99 %r" % (p50, p99))
    except (KeyError, ValueError) as e:
        p.append("bad number in row: %s" % e)
    return p

SI = {"B": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "PB": 1e15}
IEC = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40, "PiB": 2**50}

def check_units(out, test):
    """The text result line: SI and IEC figures agree with the byte count and
    with each other (MB = 10^6, MiB = 2^20, never mixed up)."""
    line = next((l for l in open(out, encoding="utf-8") if l.startswith(test + ": ")), None)
    if line is None:
        return ["no result line"]
    m = re.match(r"^\S+: (\d+) bytes \(([\d.]+) (\S+), ([\d.]+) (\S+)\) in ([\d.]+) s = "
                 r"([\d.]+) (\S+)/s \(([\d.]+) (\S+)/s\), ([\d.]+) IOPS", line)
    if not m:
        return ["result line not in the form 'T: N bytes (X MB, Y MiB) in S s = R MB/s (R MiB/s), I IOPS': %r" % line]
    n = int(m.group(1))
    si_v, si_u, iec_v, iec_u = float(m.group(2)), m.group(3), float(m.group(4)), m.group(5)
    sec = float(m.group(6))
    r_si, r_si_u, r_iec, r_iec_u = float(m.group(7)), m.group(8), float(m.group(9)), m.group(10)
    p = []
    def close(a, b, rel=0.06):
        return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-9
    if si_u not in SI:
        p.append("%r is not an SI unit (kB, MB, GB: powers of 1000)" % si_u)
    elif not close(si_v * SI[si_u], n):
        p.append("%s %s != %d bytes" % (m.group(2), si_u, n))
    if iec_u not in IEC:
        p.append("%r is not an IEC unit (KiB, MiB, GiB: powers of 1024)" % iec_u)
    elif not close(iec_v * IEC[iec_u], n):
        p.append("%s %s != %d bytes" % (m.group(4), iec_u, n))
    if r_si_u not in SI:
        p.append("rate unit %r/s is not SI" % r_si_u)
    if r_iec_u not in IEC:
        p.append("rate unit %r/s is not IEC" % r_iec_u)
    if r_si_u in SI and r_iec_u in IEC:
        if not close(r_si * SI[r_si_u], r_iec * IEC[r_iec_u]):
            p.append("%s %s/s and %s %s/s are not the same rate" % (m.group(7), r_si_u, m.group(9), r_iec_u))
        if sec >= 0.1 and not close(r_si * SI[r_si_u], n / sec, 0.08):
            p.append("rate %s %s/s != %d bytes / %s s" % (m.group(7), r_si_u, n, m.group(6)))
    return p

def main():
    cmd = sys.argv[1]
    if cmd == "units":
        p = check_units(sys.argv[2], sys.argv[3])
        for x in p:
            print(x)
        return 1 if p else 0
    if cmd == "valid":
        out, err, test = sys.argv[2:5]
        _, p = check_valid(out, err, test, sys.argv[5:])
    elif cmd == "error":
        p = check_error(sys.argv[2], sys.argv[3])
    elif cmd == "csv":
        p = check_csv(sys.argv[2], sys.argv[3])
    elif cmd == "get":
        v = lookup(load(sys.argv[2]), sys.argv[3])
        print(json.dumps(v) if not isinstance(v, str) else v)
        return 0
    elif cmd == "ratio":   # ratio FILE_A FILE_B KEY: A.KEY / B.KEY
        a = lookup(load(sys.argv[2]), sys.argv[4])
        b = lookup(load(sys.argv[3]), sys.argv[4])
        print("%.3f" % (a / b if b else math.inf))
        return 0
    else:
        raise SystemExit("check.py: unknown command " + cmd)
    for x in p:
        print(x)
    return 1 if p else 0

sys.exit(main())
PYEOF

# ---- the harness -----------------------------------------------------------------
# tap.sh's counters and lines; this file's cases are built of several steps
# (check starts one, fail and expect_* add to it, the next case reports it),
# so run, check and skip are its own.
. "$(dirname "$0")/tap.sh"
T_ACTIVE=""; T_NAME=""; T_CMD=""; T_FAIL=()
OUT=""; ERR=""; RC=0; RUNID=0

# Runs a command (with a time limit), its stdout in $OUT, stderr in $ERR, exit
# code in $RC.  Does not start a case.
run() {
	RUNID=$((RUNID + 1)); local id=$((n + 1))_$RUNID
	OUT="$S/log/$id.out"; ERR="$S/log/$id.err"
	timeout --foreground -k 5 "$TMO" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	return 0
}

# check NAME EXPECTED_EXIT -- CMD...: starts a case, runs CMD, checks its exit
# code.  EXPECTED_EXIT may list alternatives: "130|143".  The assertions that
# follow add to the case; it is reported when the next case starts.
check() {
	finish
	T_NAME=$1; local exp=$2; shift 2
	[ "${1:-}" = "--" ] && shift
	T_ACTIVE=1; T_FAIL=(); T_CMD="$*"
	run "$@"
	if [ "$RC" = 124 ] || [ "$RC" = 137 ]; then
		fail "timed out after ${TMO}s (exit $RC)"
	elif [[ "|$exp|" != *"|$RC|"* ]]; then
		fail "exit code $RC, expected $exp"
	fi
}

# case_begin NAME: starts a case made of several steps, none of them the one
# command (the steps use run/fail/expect_*).
case_begin() {
	finish
	T_NAME=$1; T_ACTIVE=1; T_FAIL=(); T_CMD=""; OUT=/dev/null; ERR=/dev/null; RC=0
}

fail() { T_FAIL+=("$*"); }

# A failed assertion shows the command and its output, so a report can be made
# from the log alone.
finish() {
	[ -n "$T_ACTIVE" ] || return 0
	if [ ${#T_FAIL[@]} -eq 0 ]; then
		ok "$T_NAME"
		if [ "$VERBOSE" = 2 ] && [ -s "$ERR" ]; then head -n 20 "$ERR" | sed 's/^/#   stderr: /'; fi
	else
		local lines=6 details=("${T_FAIL[@]}")
		[ "$VERBOSE" = 1 ] && lines=1000
		[ -n "$T_CMD" ] && details+=("command: $T_CMD  (exit $RC)")
		if [ -s "$OUT" ]; then mapfile -t -O "${#details[@]}" details < <(head -n "$lines" "$OUT" | sed 's/^/stdout: /'); fi
		if [ -s "$ERR" ]; then mapfile -t -O "${#details[@]}" details < <(head -n "$lines" "$ERR" | sed 's/^/stderr: /'); fi
		not_ok "$T_NAME" "${details[@]}"
	fi
	T_ACTIVE=""
}

skip() {
	finish
	tap_skip "$1" "$2"
}

expect_err() { grep -Eq -- "$1" "$ERR" || fail "stderr does not match /$1/"; }
expect_no_err() { ! grep -Eq -- "$1" "$ERR" || fail "stderr matches /$1/ but should not"; }
expect_out() { grep -Eq -- "$1" "$OUT" || fail "stdout does not match /$1/"; }
expect_no_out() { [ ! -s "$OUT" ] || fail "stdout is not empty"; }
# a `diskbench: ...` error message whose text matches the pattern (-i)
expect_msg() {
	grep -Eiq -- "^diskbench: .*($1)" "$ERR" || fail "no 'diskbench: ' message on stderr matching /$1/"
}
expect_json() { # expect_json TEST [key=value...]: stdout is one valid result document
	local p
	p=$(python3 "$PY" valid "$OUT" "$ERR" "$@" 2>&1) || fail "json: ${p//$'\n'/; }"
}
expect_json_error() {
	local p
	p=$(python3 "$PY" error "$OUT" "$ERR" 2>&1) || fail "json: ${p//$'\n'/; }"
}
json_get() { python3 "$PY" get "${2:-$OUT}" "$1" 2>/dev/null; }
# no test file left in DIR (and nothing else unexpected)
expect_clean() {
	local left
	left=$(find "$1" -maxdepth 1 -name '.diskbench-*' 2>/dev/null)
	[ -z "$left" ] || fail "test file left behind: $left"
}
expect_result_line() { # TEST
	expect_out "^$1: [0-9]+ bytes \\([^)]*\\) in [0-9.]+ s = [^(]+ \\([^)]*\\), [0-9.]+ IOPS \\[[^]]*\\]\$"
}
expect_units() { # TEST: the SI/IEC figures of the result line are right
	local p
	p=$(python3 "$PY" units "$OUT" "$1" 2>&1) || fail "units: ${p//$'\n'/; }"
}
expect_latency_line() {
	expect_out '^latency: .*min .*mean .*p50 .*p99 .*max '
}
sha() { sha256sum <"$1" | cut -d' ' -f1; }
fsize() { stat -c %s -- "$1"; }
randfile() { # randfile PATH MiB: real, incompressible data
	head -c $(($2 * MiB)) /dev/urandom >"$1"
}
new_dir() { local d="$S/$1"; rm -rf -- "$d"; mkdir -p -- "$d"; echo "$d"; }

mount_fs() { # mount_fs TYPE DIR [OPTIONS]: 0 on success, and remembered for clean-up
	mkdir -p -- "$2"
	[ $IS_ROOT = 1 ] || return 1
	if [ -n "${3:-}" ]; then
		mount -t "$1" -o "$3" "$1" "$2" 2>/dev/null || return 1
	else
		mount -t "$1" "$1" "$2" 2>/dev/null || return 1
	fi
	MOUNTS+=("$2")
}
umount_fs() { # umount_fs DIR
	local i keep=()
	umount "$1" 2>/dev/null || umount -l "$1" 2>/dev/null
	for i in "${MOUNTS[@]}"; do [ "$i" = "$1" ] || keep+=("$i"); done
	MOUNTS=("${keep[@]}")
}
LOOP=""
attach_loop() { # attach_loop FILE [losetup options]: sets LOOP
	LOOP=""
	[ $IS_ROOT = 1 ] && command -v losetup >/dev/null 2>&1 || return 1
	LOOP=$(losetup -f --show "$@" 2>/dev/null) || { LOOP=""; return 1; }
	[ -b "$LOOP" ] || { LOOP=""; return 1; }
	LOOPS+=("$LOOP")
}
detach_loop() {
	local i keep=()
	losetup -d "$1" 2>/dev/null
	for i in "${LOOPS[@]}"; do [ "$i" = "$1" ] || keep+=("$i"); done
	LOOPS=("${keep[@]}")
}
# Starts diskbench in the background (signal cases): sets BGPID, OUT, ERR.
BGPID=""
start_bg() {
	RUNID=$((RUNID + 1)); local id=$((n + 1))_$RUNID
	OUT="$S/log/$id.out"; ERR="$S/log/$id.err"
	"${DEFSIG[@]}" "$DB" "$@" >"$OUT" 2>"$ERR" </dev/null &
	BGPID=$!
	BGPIDS+=("$BGPID")
	T_CMD="$DB $*"
}
wait_bg() { # wait_bg: waits (at most TMO s) for BGPID, sets RC
	local i
	for ((i = 0; i < TMO * 20; i++)); do
		kill -0 "$BGPID" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$BGPID" 2>/dev/null; then
		kill -KILL "$BGPID" 2>/dev/null
		fail "still running after ${TMO}s; killed"
	fi
	wait "$BGPID" 2>/dev/null
	RC=$?
	local keep=() p
	for p in "${BGPIDS[@]}"; do [ "$p" = "$BGPID" ] || keep+=("$p"); done
	BGPIDS=("${keep[@]}")
}
# wait_for_file DIR MIN_BYTES SECONDS: a .diskbench-* file in DIR of at least
# MIN_BYTES appears; prints its path.  Polls without sleeping at first.
wait_for_file() {
	local end=$((SECONDS + $3)) f
	while [ $SECONDS -le $end ]; do
		for f in "$1"/.diskbench-*; do
			if [ -e "$f" ] && [ "$(stat -c %s -- "$f" 2>/dev/null || echo 0)" -ge "$2" ]; then
				echo "$f"
				return 0
			fi
		done
		kill -0 "$BGPID" 2>/dev/null || return 1
	done
	return 1
}
need_big() { # need_big NAME: skip NAME when /var/tmp is short of space
	[ $BIG = 1 ] && return 0
	skip "$1" "less than 1 GiB free in /var/tmp ($AVAIL bytes)"
	return 1
}
need_root() {
	[ $IS_ROOT = 1 ] && return 0
	skip "$1" "not root"
	return 1
}
need_nobody() {
	[ $NOBODY_OK = 1 ] && return 0
	skip "$1" "root, but cannot run as an unprivileged user (no working setpriv/runuser)"
	return 1
}

# =================================================================================
# help, version, man page
# =================================================================================
t_help() {
	check "--help exits 0 and lists every test" 0 -- "$DB" --help
	expect_out '^usage: diskbench'
	local t
	for t in $TESTS; do expect_out "^ +$t "; done
	[ ! -s "$ERR" ] || fail "stderr is not empty"
	local help_all=$OUT

	check "--version prints the version" 0 -- "$DB" --version
	expect_out '^diskbench [0-9]+\.[0-9]+\.[0-9]+$'
	[ "$(wc -l <"$OUT")" = 1 ] || fail "--version printed more than one line"

	check "-h is --help" 0 -- "$DB" -h
	cmp -s "$OUT" "$help_all" || fail "'-h' and '--help' differ"
	check "-V is --version" 0 -- "$DB" -V
	expect_out '^diskbench [0-9]+\.[0-9]+\.[0-9]+$'

	check "help seqwrite exits 0" 0 -- "$DB" help seqwrite
	expect_out '^usage: diskbench seqwrite'
	expect_out -- '--bs'
	local help_out=$OUT
	check "--help to /dev/full: exit non-zero (1)" 1 -- bash -c 'exec "$1" --help >/dev/full' _ "$DB"
	expect_msg 'write|stdout|space'
	check "help of an unknown test: exit 2" 2 -- "$DB" help frobnicate
	expect_msg 'frobnicate|unknown'
	check "seqwrite --help is the same as help seqwrite" 0 -- "$DB" seqwrite --help
	cmp -s "$OUT" "$help_out" || fail "'seqwrite --help' and 'help seqwrite' differ"

	# every test --help lists (the six of the contract and any later one)
	run "$DB" --help
	ALL_TESTS=$(sed -n '/^tests:/,/^$/p' "$OUT" | sed -n 's/^  \([a-z][a-z0-9-]*\) .*/\1/p' | tr '\n' ' ')
	[ -n "$ALL_TESTS" ] || ALL_TESTS=$TESTS
	for t in $ALL_TESTS; do
		check "help $t exits 0 and shows the test's options" 0 -- "$DB" help "$t"
		expect_out "^usage: diskbench $t"
		grep -qE '^ +-' "$OUT" || fail "no option listed"
		# (a file, not <(...): /dev/fd needs /proc, which a chroot may lack)
		"$DB" "$t" --help >"$S/help.$t" 2>/dev/null
		cmp -s "$OUT" "$S/help.$t" || fail "'help $t' and '$t --help' differ"
	done

	case_begin "every option of every 'TEST --help' is in man/diskbench.1"
	if [ ! -f "$MAN" ]; then
		fail "$MAN does not exist"
	else
		local norm="$S/man.txt" opt missing=""
		sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(em/-/g' "$MAN" >"$norm"
		for t in $ALL_TESTS; do
			run "$DB" "$t" --help
			for opt in $(grep -E '^ +-' "$OUT" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
				grep -Eq -- "${opt}([^a-z0-9-]|\$)" "$norm" || missing="$missing $t:$opt"
			done
		done
		run "$DB" --help
		for opt in $(grep -E '^ +-' "$OUT" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
			grep -Eq -- "${opt}([^a-z0-9-]|\$)" "$norm" || missing="$missing global:$opt"
		done
		[ -z "$missing" ] || fail "options missing from the man page:$missing"
	fi

	case_begin "every test is documented in man/diskbench.1"
	if [ ! -f "$MAN" ]; then
		fail "$MAN does not exist"
	else
		local missing=""
		# a heading or a bold name: `.SS seqwrite`, `.B seqwrite`, `\fBseqwrite\fR`
		for t in $ALL_TESTS; do
			grep -Eq -- "^\.(SH|SS|B|BR|IP|TP) +\"?$t([ \",]|\$)|\\\\fB$t\\\\f" "$MAN" || missing="$missing $t"
		done
		[ -z "$missing" ] || fail "tests missing from the man page:$missing"
		grep -Eqi 'EXIT STATUS|EXIT CODES' "$MAN" || fail "the man page has no EXIT STATUS section"
	fi
}

# =================================================================================
# bad input: exit code and a clear message
# =================================================================================
t_bad_input() {
	local d f
	d=$(new_dir bad)
	check "unknown test: exit 2" 2 -- "$DB" frobnicate "$d"
	expect_msg 'unknown test|frobnicate'
	expect_no_out

	check "no test named: exit 2" 2 -- "$DB"
	expect_msg 'test'

	check "unknown long option: exit 2" 2 -- "$DB" seqwrite --frobnicate "$d"
	expect_msg 'unknown option|frobnicate'
	expect_no_out

	check "unknown short option: exit 2" 2 -- "$DB" seqwrite -Z "$d"
	expect_msg 'unknown option|-Z'

	check "option that needs a value, without one: exit 2" 2 -- "$DB" seqwrite -s
	expect_msg 'size|value'

	local v
	for v in 0 -1 12q 99999999999999999999T ''; do
		check "-s '$v': exit 2" 2 -- "$DB" seqwrite -s "$v" -t 1 "$d"
		expect_msg 'size|-s'
		expect_no_out
		expect_clean "$d"
	done
	check "-s 17179869184T (overflows 64 bits after the suffix): exit 2" 2 -- "$DB" seqwrite -s 17179869184T "$d"
	expect_msg 'size|large|overflow'

	for v in 0 -4 3 12q; do
		check "-b '$v': exit 2" 2 -- "$DB" seqwrite -b "$v" -s 8M -t 1 "$d"
		expect_msg 'block|-b|bs'
		expect_no_out
		expect_clean "$d"
	done
	check "-b 3 for randread: exit 2" 2 -- "$DB" randread -b 3 -s 8M -t 1 "$d"
	expect_msg 'block|align|-b|bs'
	expect_clean "$d"

	for v in 0 100000 -1 x; do
		check "-j '$v': exit 2" 2 -- "$DB" randread -j "$v" -s 8M -t 1 "$d"
		expect_msg 'thread|-j'
		expect_no_out
		expect_clean "$d"
	done
	for v in -1 x 1e; do
		check "-t '$v': exit 2" 2 -- "$DB" seqwrite -t "$v" -s 8M "$d"
		expect_msg 'time|second|-t'
	done

	check "--drop-caches=bogus: exit 2" 2 -- "$DB" buffered --drop-caches=bogus -s 8M "$d"
	expect_msg 'drop-caches|bogus'
	expect_no_out
	expect_clean "$d"

	check "--sync=bogus: exit 2" 2 -- "$DB" seqwrite --sync=bogus -s 8M "$d"
	expect_msg 'sync|bogus'
	expect_clean "$d"

	check "--json and --csv together: exit 2" 2 -- "$DB" --json --csv seqwrite -s 8M "$d"
	expect_clean "$d"

	check "two targets: exit 2" 2 -- "$DB" seqwrite -s 8M "$d" "$d"
	expect_msg 'argument|target'
	expect_clean "$d"

	check "missing target /nonexistent/x/y: exit 2" 2 -- "$DB" seqwrite -s 8M -t 1 /nonexistent/x/y
	expect_msg '/nonexistent/x/y'
	expect_no_out
	[ ! -e /nonexistent ] || fail "/nonexistent was created"

	check "missing target for a read test: exit 2" 2 -- "$DB" seqread -s 8M -t 1 /nonexistent/x/y
	expect_msg '/nonexistent/x/y'

	mkfifo "$d/fifo"
	check "a FIFO as target of a write test: exit 2" 2 -- "$DB" seqwrite --force -s 8M -t 1 "$d/fifo"
	expect_msg 'fifo'
	expect_no_out
	check "a FIFO as target of a read test: exit 2" 2 -- "$DB" buffered -s 8M -t 1 "$d/fifo"
	expect_msg 'fifo'
	[ -p "$d/fifo" ] || fail "the FIFO is gone"
	rm -f -- "$d/fifo"

	check "a char device (/dev/null) as write target: exit 2" 2 -- "$DB" seqwrite --force -s 8M -t 1 /dev/null
	expect_msg '/dev/null'
	expect_no_out
	[ -c /dev/null ] || fail "/dev/null is no longer a char device"
	check "a char device (/dev/zero) as read target: exit 2" 2 -- "$DB" seqread -s 8M -t 1 /dev/zero
	expect_msg '/dev/zero'

	if need_big "a file smaller than one block (randread): exit 2"; then
		printf 'tiny' >"$d/tiny"
		check "a file smaller than one block (randread): exit 2" 2 -- "$DB" randread -s 8M -t 1 "$d/tiny"
		expect_msg 'smaller|block'
		expect_no_out
		[ "$(cat "$d/tiny")" = tiny ] || fail "the file changed"
		check "a new path as read target: laid out, read, removed (exit 0)" 0 -- "$DB" seqread -s 8M -t 1 "$d/newread"
		expect_result_line seqread
		[ ! -e "$d/newread" ] || fail "the new read target was not removed"
		: >"$d/empty"
		check "an empty file (seqread): exit 2" 2 -- "$DB" seqread -s 8M -t 1 "$d/empty"
		expect_msg 'smaller|block|empty'
	fi

	if need_big "-b 1000 with O_DIRECT: exit 2 naming the alignment"; then
		randfile "$d/aligned" 8
		check "-b 1000 with O_DIRECT on a file: exit 2 naming the alignment" 2 -- "$DB" seqread -b 1000 -s 8M -t 1 "$d/aligned"
		expect_msg 'align|multiple'
		expect_err -- '--no-direct'
		expect_no_out
		check "-b 1000 with O_DIRECT on a directory: exit 2, no file left" 2 -- "$DB" seqwrite -b 1000 -s 8M -t 1 "$d"
		expect_msg 'align|multiple'
		expect_err -- '--no-direct'
		expect_clean "$d"
		check "-b 1000 --no-direct is accepted" 0 -- "$DB" seqwrite -b 1000 -s 1M -t 1 --no-direct "$d"
		expect_result_line seqwrite
		expect_clean "$d"
	fi

}

# =================================================================================
# the six tests on a directory: text, JSON, CSV, quiet, keep
# =================================================================================
t_tests_on_dir() {
	local d t extra
	d=$(new_dir dir)
	for t in $TESTS; do
		extra=(-s 16M -t 1)
		check "$t on a directory: exit 0, result and latency lines, file removed" 0 -- "$DB" "$t" "${extra[@]}" "$d"
		expect_result_line "$t"
		expect_units "$t"
		expect_latency_line
		expect_clean "$d"
		[ -z "$(ls -A "$d")" ] || fail "directory not empty afterwards: $(ls -A "$d")"
	done
	local defaults rp
	for t in $TESTS; do
		# the contract's defaults: block size, O_DIRECT, sync mode, eviction
		case $t in
		seqwrite) defaults="params.block_size=$MiB params.direct=true params.sync=dsync" ;;
		randwrite) defaults="params.block_size=4096 params.direct=true params.sync=dsync" ;;
		seqread) defaults="params.block_size=$MiB params.direct=true params.drop_caches=file cache.evicted=file" ;;
		randread) defaults="params.block_size=4096 params.direct=true params.drop_caches=file cache.evicted=file" ;;
		buffered) defaults="params.block_size=$((2 * MiB)) params.direct=false params.drop_caches=file cache.evicted=file" ;;
		cached) defaults="params.block_size=$((2 * MiB)) params.direct=false" ;;
		esac
		check "$t --json: one document, schema, consistency, default parameters" 0 -- "$DB" --json "$t" -s 16M -t 1 "$d"
		# shellcheck disable=SC2086
		expect_json "$t" params.threads=1 params.size=$((16 * MiB)) params.data=random $defaults
		case $t in
		seqread | buffered | randread)
			# laid out, flushed and evicted before the clock starts
			rp=$(json_get cache.resident_before_pct)
			python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < 5 else 1)' "${rp:-100}" 2>/dev/null ||
				fail "resident_before_pct = $rp after the layout, expected < 5"
			;;
		esac
		expect_clean "$d"
	done
	for t in seqwrite randread cached; do
		check "$t --csv: header and one row" 0 -- "$DB" --csv "$t" -s 8M -t 1 "$d"
		local p
		p=$(python3 "$PY" csv "$OUT" "$t" 2>&1) || fail "csv: ${p//$'\n'/; }"
		expect_clean "$d"
	done
	check "global options after TEST: seqwrite ... --json" 0 -- "$DB" seqwrite -s 8M -t 1 --json "$d"
	expect_json seqwrite
	# a target whose name needs escaping in JSON and quoting in CSV
	local odd="$S/we\"ird, \\dir"
	mkdir -p -- "$odd"
	check "JSON escapes a target path with a quote, a comma and a backslash" 0 -- "$DB" --json seqwrite -s 4M -t 1 "$odd"
	expect_json seqwrite
	[ "$(json_get target)" = "$odd" ] || fail "JSON target '$(json_get target)' != '$odd'"
	expect_clean "$odd"
	check "CSV quotes a target path with a quote, a comma and a backslash" 0 -- "$DB" --csv seqwrite -s 4M -t 1 "$odd"
	python3 -c 'import csv,sys; rows=list(csv.DictReader(open(sys.argv[1]))); sys.exit(0 if len(rows)==1 and rows[0]["target"]==sys.argv[2] else 1)' "$OUT" "$odd" 2>/dev/null ||
		fail "CSV target column is not the path"
	expect_clean "$odd"
	rm -rf -- "$odd"

	check "a result that cannot be written (stdout is /dev/full): exit 1" 1 -- bash -c 'exec "$1" seqwrite -s 4M -t 1 "$2" >/dev/full' _ "$DB" "$d"
	expect_msg 'write|stdout|space'
	expect_clean "$d"
	check "--json to /dev/full: exit 1" 1 -- bash -c 'exec "$1" --json seqread -s 4M -t 1 "$2" >/dev/full' _ "$DB" "$d"
	expect_msg 'write|stdout|space'
	expect_clean "$d"

	check "-q: only the result line" 0 -- "$DB" -q seqread -s 8M -t 1 "$d"
	[ "$(wc -l <"$OUT")" = 1 ] || fail "stdout has $(wc -l <"$OUT") lines, expected 1"
	expect_result_line seqread
	check "--quiet after TEST: only the result line" 0 -- "$DB" randwrite -s 8M -t 1 --quiet "$d"
	[ "$(wc -l <"$OUT")" = 1 ] || fail "stdout has $(wc -l <"$OUT") lines, expected 1"
	expect_result_line randwrite

	check "seqwrite --keep keeps the test file, of exactly -s bytes" 0 -- "$DB" seqwrite -s 8M -t 0 --keep "$d"
	local kept
	kept=$(find "$d" -maxdepth 1 -name '.diskbench-*')
	if [ -z "$kept" ] || [ "$(echo "$kept" | wc -l)" != 1 ]; then
		fail "expected one kept .diskbench-* file, found: '$kept'"
	else
		[ "$(fsize "$kept")" = $((8 * MiB)) ] || fail "kept file has $(fsize "$kept") bytes, expected $((8 * MiB))"
	fi
	rm -f -- "$d"/.diskbench-*

	check "seqread --keep: the laid-out file is real, incompressible, not sparse" 0 -- "$DB" seqread -s 8M -t 1 --keep "$d"
	kept=$(find "$d" -maxdepth 1 -name '.diskbench-*' | head -n 1)
	if [ -z "$kept" ]; then
		fail "no kept file"
	else
		local sz alloc gz
		sz=$(fsize "$kept"); alloc=$(($(stat -c '%b * %B' -- "$kept")))
		[ "$sz" = $((8 * MiB)) ] || fail "kept file has $sz bytes, expected $((8 * MiB))"
		[ "$alloc" -ge "$sz" ] || fail "file is sparse: $alloc bytes allocated for $sz"
		gz=$(gzip -1 -c <"$kept" | wc -c)
		[ "$gz" -ge $((sz * 95 / 100)) ] || fail "data compress to $gz of $sz bytes: not incompressible"
		[ "$(head -c 65536 -- "$kept" | tr -d '\0' | wc -c)" -gt 0 ] || fail "file starts with zeros"
	fi
	rm -f -- "$d"/.diskbench-*

	check "seqwrite --zeros --keep writes zeros" 0 -- "$DB" seqwrite --zeros -s 4M -t 0 --keep "$d"
	kept=$(find "$d" -maxdepth 1 -name '.diskbench-*' | head -n 1)
	if [ -z "$kept" ]; then
		fail "no kept file"
	else
		cmp -s -n $((4 * MiB)) -- "$kept" /dev/zero || fail "the file is not all zeros"
		[ "$(fsize "$kept")" = $((4 * MiB)) ] || fail "kept file has $(fsize "$kept") bytes"
	fi
	rm -f -- "$d"/.diskbench-*
	check "--zeros shows in JSON params.data" 0 -- "$DB" --json seqwrite --zeros -s 4M -t 1 "$d"
	expect_json seqwrite params.data=zeros

	check "a new path in an existing directory: created, used, removed" 0 -- "$DB" seqwrite -s 8M -t 1 "$d/newfile"
	expect_result_line seqwrite
	[ ! -e "$d/newfile" ] || fail "$d/newfile was not removed"
	check "a new path with --keep is kept" 0 -- "$DB" seqwrite -s 4M -t 0 --keep "$d/newfile"
	[ -e "$d/newfile" ] || fail "$d/newfile was not kept"
	[ "$(fsize "$d/newfile" 2>/dev/null)" = $((4 * MiB)) ] || fail "kept new file is not 4 MiB"
	rm -f -- "$d/newfile"

	check "TARGET defaults to the current directory" 0 -- bash -c 'cd "$1" && exec "$2" seqwrite -s 4M -t 1' _ "$d" "$DB"
	expect_result_line seqwrite
	expect_clean "$d"

	check "SIZE suffixes: -b 8k -s 4MB are 8192 and 4000000 bytes" 0 -- "$DB" --json seqwrite -b 8k -s 4MB -t 1 "$d"
	expect_json seqwrite params.block_size=8192 params.size=4000000
	randfile "$S/sixteen" 16
	check "SIZE suffixes: -s 1G means GiB (JSON params.size; --once: reads stop at the file's end)" 0 -- "$DB" --json seqread -s 1G -t 1 --once "$S/sixteen"
	expect_json seqread params.size=1073741824 result.bytes=$((16 * MiB))
	check "SIZE suffixes: -s 1GB means 10^9 bytes" 0 -- "$DB" --json randread -s 1GB -t 0.2 "$S/sixteen"
	expect_json randread params.size=1000000000
	# issue 19: a file that shrinks during the run ends it with an error naming
	# where the file ended, never a short success (the runs above are the
	# negative case: a whole file goes round for -t and exits 0)
	check "a file truncated to 1 MiB during randread: exit 1, names where it ended" 1 -- bash -c \
		'( sleep 0.5; truncate -s 1M "$2" ) & exec "$1" randread -s 16M -t 4 "$2"' _ "$DB" "$S/sixteen"
	expect_msg "the file ends at offset 1048576, inside the 16777216 bytes"
	expect_no_out
	rm -f -- "$S/sixteen"
	check "-t with decimals stops the run: -t 0.3 on 32 MiB of 4 KiB dsync writes" 0 -- "$DB" --json randwrite -s 32M -t 0.3 "$d"
	expect_json randwrite params.time_limit_s=0.3
	local secs
	secs=$(json_get result.seconds)
	python3 -c "import sys; s=float(sys.argv[1]); sys.exit(0 if 0.25 <= s <= 1.5 else 1)" "${secs:-0}" ||
		fail "result.seconds = $secs for -t 0.3"
	expect_clean "$d"

	check "a run longer than 1 s: no progress on stderr when it is not a terminal" 0 -- "$DB" seqwrite -b 4k -s 32M -t 1.3 "$d"
	expect_result_line seqwrite
	expect_units seqwrite
	! grep -q $'\r' "$ERR" || fail "progress (carriage returns) written to a non-terminal stderr"
	[ "$(grep -vc '^diskbench: ' "$ERR")" = 0 ] || fail "stderr has lines that are not 'diskbench: ' messages"
	check "--sync=none --no-direct warns that it may measure a cache" 0 -- "$DB" seqwrite --sync=none --no-direct -s 8M -t 1 "$d"
	expect_err '^diskbench: warning: .*cache'
	check "--sync=none --no-direct: the warning is in JSON warnings" 0 -- "$DB" --json seqwrite --sync=none --no-direct -s 8M -t 1 "$d"
	expect_json seqwrite params.sync=none params.direct=false
	python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["warnings"]; sys.exit(0 if any("cache" in x for x in w) else 1)' "$OUT" 2>/dev/null ||
		fail "no cache warning in JSON warnings"
	check "--sync=dsync --no-direct does not warn about a cache" 0 -- "$DB" seqwrite --sync=dsync --no-direct -s 8M -t 1 "$d"
	expect_no_err '^diskbench: warning: .*(cache|sync=none)'
	check "--sync=fsync: exit 0, JSON params.sync=fsync" 0 -- "$DB" --json seqwrite --sync=fsync -s 8M -t 1 "$d"
	expect_json seqwrite params.sync=fsync
	expect_no_err '^diskbench: warning: .*(may measure a cache|sync=none)'
	check "seqwrite default is O_DIRECT + dsync (JSON params)" 0 -- "$DB" --json seqwrite -s 8M -t 1 "$d"
	expect_json seqwrite params.sync=dsync params.direct=true params.block_size=1048576
	expect_clean "$d"
}

# =================================================================================
# JSON and CSV on failure
# =================================================================================
t_json_failure() {
	local d f
	d=$(new_dir jfail)
	check "--json, bad -s: exit 2, one document with an error key" 2 -- "$DB" --json seqwrite -s 0 "$d"
	expect_json_error
	check "--json after the bad value: still one document with an error" 2 -- "$DB" seqwrite -s 0 --json "$d"
	expect_json_error
	check "--json, unknown option: exit 2, one document with an error key" 2 -- "$DB" --json seqwrite --frobnicate "$d"
	expect_json_error
	check "--json, unknown test: exit 2, one document with an error key" 2 -- "$DB" --json frobnicate "$d"
	expect_json_error
	check "--json, missing target: exit 2, error document" 2 -- "$DB" --json seqread -s 8M /nonexistent/x/y
	expect_json_error
	if need_big "--json, existing file without --force: exit 3, error document"; then
		randfile "$d/existing" 1
		check "--json, existing file without --force: exit 3, error document" 3 -- "$DB" --json seqwrite -s 1M "$d/existing"
		expect_json_error
	fi
	check "--csv on failure: exit 2, nothing but CSV on stdout" 2 -- "$DB" --csv seqwrite -s 0 "$d"
	if [ -s "$OUT" ]; then
		local p
		p=$(python3 -c '
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if r]
sys.exit(0 if rows and "test" in rows[0] and all(len(r)==len(rows[0]) for r in rows) else 1)' "$OUT" 2>&1) ||
			fail "stdout is not CSV with a header"
	fi
}

# =================================================================================
# safety: existing files, loop devices, mounted devices
# =================================================================================
t_safety_files() {
	local d f before t
	d=$(new_dir safe)
	for t in seqwrite randwrite; do
		f="$d/victim-$t"
		randfile "$f" 16
		before=$(sha "$f")
		check "$t on an existing file without --force: exit 3, file unchanged" 3 -- "$DB" "$t" -s 8M -t 1 "$f"
		expect_msg 'force|exist'
		expect_no_out
		[ "$(sha "$f")" = "$before" ] || fail "the file changed (sha256)"
		[ "$(fsize "$f")" = $((16 * MiB)) ] || fail "the file size changed"

		check "$t on an existing file with --force: exit 0, file not grown" 0 -- "$DB" "$t" --force -s 8M -t 1 "$f"
		expect_result_line "$t"
		[ -e "$f" ] || fail "diskbench removed a file it did not create"
		[ "$(fsize "$f")" = $((16 * MiB)) ] || fail "size $(fsize "$f"), was $((16 * MiB))"

		f="$d/small-$t"
		randfile "$f" 4
		check "$t --force on a 4 MiB file with -s 8M: the file stays <= 8 MiB" 0 -- "$DB" "$t" --force -s 8M -t 1 "$f"
		[ "$(fsize "$f")" -le $((8 * MiB)) ] || fail "file grew to $(fsize "$f") bytes, beyond -s"
		[ -e "$f" ] || fail "the file was removed"
	done
	# seqwrite --force -s 8M on a 16 MiB file leaves bytes 8M..16M alone
	f="$d/tail"
	randfile "$f" 16
	local tail_before
	tail_before=$(tail -c $((8 * MiB)) -- "$f" | sha256sum)
	check "seqwrite --force -s 8M never writes past 8 MiB of a 16 MiB file" 0 -- "$DB" seqwrite --force -s 8M -t 0 "$f"
	[ "$(tail -c $((8 * MiB)) -- "$f" | sha256sum)" = "$tail_before" ] || fail "bytes past -s changed"
	before=$(sha "$f")
	check "read tests leave an existing file unchanged" 0 -- "$DB" seqread -s 16M -t 1 "$f"
	run "$DB" randread -s 16M -t 0.3 "$f"
	[ "$RC" = 0 ] || fail "randread exit $RC"
	run "$DB" buffered -s 16M -t 1 "$f"
	[ "$RC" = 0 ] || fail "buffered exit $RC"
	[ "$(sha "$f")" = "$before" ] || fail "a read test changed the file"
	[ "$(fsize "$f")" = $((16 * MiB)) ] || fail "file size changed"
}

t_safety_loop() {
	local name="loop device: write tests refuse without --force"
	need_root "$name" || return
	local d img before
	d=$(new_dir loop)
	img="$d/img"
	randfile "$img" 32
	if ! attach_loop "$img"; then
		skip "$name" "cannot attach a loop device (losetup -f failed)"
		return
	fi
	local L=$LOOP
	before=$(sha "$img")
	check "seqwrite on a loop device without --force: exit 3, unchanged" 3 -- "$DB" seqwrite -s 8M -t 1 "$L"
	expect_msg 'force|block device'
	expect_no_out
	sync; [ "$(sha "$img")" = "$before" ] || fail "the device content changed"
	check "randwrite on a loop device without --force: exit 3, unchanged" 3 -- "$DB" randwrite -s 8M -t 1 "$L"
	expect_msg 'force|block device'
	sync; [ "$(sha "$img")" = "$before" ] || fail "the device content changed"
	check "--json seqwrite on a loop device without --force: exit 3, error document" 3 -- "$DB" --json seqwrite -s 8M -t 1 "$L"
	expect_json_error

	check "seqread on a loop device (read-only): exit 0" 0 -- "$DB" seqread -s 16M -t 1 "$L"
	expect_result_line seqread
	sync; [ "$(sha "$img")" = "$before" ] || fail "a read test changed the device"
	check "seqread --json on a loop device: consistent, file is the device" 0 -- "$DB" --json seqread -s 16M -t 1 "$L"
	expect_json seqread file="\"$L\""
	check "randread on a loop device: exit 0" 0 -- "$DB" randread -s 16M -t 0.3 "$L"
	expect_result_line randread

	local tail_before
	tail_before=$(tail -c $((24 * MiB)) -- "$img" | sha256sum)
	check "seqwrite --force -s 8M on a loop device: exit 0, nothing written past 8 MiB" 0 -- "$DB" seqwrite --force -s 8M -t 0 "$L"
	expect_result_line seqwrite
	sync
	[ -b "$L" ] || fail "$L is no longer a block device"
	[ "$(fsize "$img")" = $((32 * MiB)) ] || fail "backing file size changed"
	[ "$(tail -c $((24 * MiB)) -- "$img" | sha256sum)" = "$tail_before" ] || fail "bytes past -s changed"
	detach_loop "$L"

	# a read-only loop device: cached/buffered work (issue 3)
	if attach_loop -r "$img"; then
		L=$LOOP
		check "cached on a read-only loop device: exit 0" 0 -- "$DB" cached -t 0.5 "$L"
		expect_result_line cached
		check "buffered on a read-only loop device: exit 0" 0 -- "$DB" buffered -t 1 "$L"
		expect_result_line buffered
		check "buffered --json on a loop device: consistent, resident_before_pct < 5" 0 -- "$DB" --json buffered -t 1 "$L"
		expect_json buffered
		local rp
		rp=$(json_get cache.resident_before_pct)
		python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < 5 else 1)' "${rp:-100}" 2>/dev/null ||
			fail "resident_before_pct = $rp, expected < 5"
		check "cached --json on a loop device: resident 100 %" 0 -- "$DB" --json cached -t 0.5 "$L"
		expect_json cached
		rp=$(json_get cache.resident_before_pct)
		python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 99.9 else 1)' "${rp:-0}" 2>/dev/null ||
			fail "resident_before_pct = $rp, expected 100"
		before=$(sha "$img")
		check "seqwrite --force on a read-only loop device: fails (exit 1 or 3), unchanged" "1|3" -- "$DB" seqwrite --force -s 8M -t 1 "$L"
		expect_msg "$L"
		expect_no_out
		sync; [ "$(sha "$img")" = "$before" ] || fail "the device content changed"
		detach_loop "$L"
	else
		skip "cached/buffered on a read-only loop device" "cannot attach a read-only loop device"
	fi
}

t_safety_mounted() {
	local name="a mounted loop device: seqwrite --force refuses (exit 3)"
	need_root "$name" || return
	if ! command -v mkfs.ext4 >/dev/null 2>&1; then
		skip "$name" "no mkfs.ext4"
		return
	fi
	local d img before L
	d=$(new_dir mounted)
	img="$d/fs.img"
	truncate -s 32M "$img"
	if ! mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img" >/dev/null 2>&1; then
		skip "$name" "mkfs.ext4 failed"
		return
	fi
	if ! attach_loop "$img"; then
		skip "$name" "cannot attach a loop device"
		return
	fi
	L=$LOOP
	mkdir -p "$d/mnt"
	if ! mount "$L" "$d/mnt" 2>/dev/null; then
		skip "$name" "cannot mount an ext4 loop device"
		detach_loop "$L"
		return
	fi
	MOUNTS+=("$d/mnt")
	echo hello >"$d/mnt/data"
	sync
	before=$(sha "$img")
	local t
	for t in seqwrite randwrite; do
		check "$t --force on a mounted loop device: exit 3, image unchanged" 3 -- "$DB" "$t" --force -s 8M -t 1 "$L"
		expect_msg 'in use|mounted|busy'
		expect_no_out
		sync
		[ "$(sha "$img")" = "$before" ] || fail "the filesystem image changed"
	done
	check "--json seqwrite --force on a mounted device: exit 3, error document" 3 -- "$DB" --json seqwrite --force -s 8M -t 1 "$L"
	expect_json_error
	check "seqread on a mounted loop device works read-only: exit 0" 0 -- "$DB" seqread -s 16M -t 1 "$L"
	expect_result_line seqread
	sync
	[ "$(sha "$img")" = "$before" ] || fail "the filesystem image changed"
	[ "$(cat "$d/mnt/data" 2>/dev/null)" = hello ] || fail "the file on the mounted filesystem changed"
	umount_fs "$d/mnt"
	detach_loop "$L"
	if command -v fsck.ext4 >/dev/null 2>&1; then
		case_begin "the filesystem is intact afterwards (fsck.ext4 -n)"
		fsck.ext4 -n -f "$img" >"$S/log/fsck.out" 2>&1 || fail "fsck.ext4 reports errors: $(tail -n 3 "$S/log/fsck.out" | tr '\n' ' ')"
	fi
}

# =================================================================================
# unprivileged user: non-readable file, non-writable directory, block device
# =================================================================================
t_unprivileged() {
	local d f
	d=$(new_dir priv)
	chmod 755 "$d"
	if need_nobody "a read test on a non-readable file (unprivileged): exit 1"; then
		randfile "$d/secret" 8
		chmod 000 "$d/secret"
		check "a read test on a non-readable file (unprivileged): exit 1" 1 -- "${NOBODY[@]}" "$DBN" seqread -s 8M -t 1 "$d/secret"
		expect_msg 'permission denied'
		expect_no_out
		check "buffered on a non-readable file (unprivileged): exit 1" 1 -- "${NOBODY[@]}" "$DBN" buffered -t 1 "$d/secret"
		expect_msg 'permission denied'
		check "cached on a non-readable file (unprivileged): exit 1" 1 -- "${NOBODY[@]}" "$DBN" cached -t 0.5 "$d/secret"
		expect_msg 'permission denied'
		check "--json on a non-readable file (unprivileged): exit 1, error document" 1 -- "${NOBODY[@]}" "$DBN" --json seqread -s 8M -t 1 "$d/secret"
		expect_json_error
	fi
	if need_nobody "a write test in a non-writable directory (unprivileged): exit 1"; then
		mkdir -p "$d/ro"
		chmod 555 "$d/ro"
		check "a write test in a non-writable directory (unprivileged): exit 1" 1 -- "${NOBODY[@]}" "$DBN" seqwrite -s 8M -t 1 "$d/ro"
		expect_msg 'permission denied'
		expect_no_out
		expect_clean "$d/ro"
		check "a read test in a non-writable directory (unprivileged): exit 1" 1 -- "${NOBODY[@]}" "$DBN" seqread -s 8M -t 1 "$d/ro"
		expect_msg 'permission denied'
		expect_clean "$d/ro"
		mkdir -p "$d/rw"
		chmod 777 "$d/rw"
		check "unprivileged, in a writable directory: seqwrite works" 0 -- "${NOBODY[@]}" "$DBN" seqwrite -s 8M -t 1 "$d/rw"
		expect_result_line seqwrite
		expect_clean "$d/rw"
		check "unprivileged: buffered works without root (--drop-caches=file)" 0 -- "${NOBODY[@]}" "$DBN" buffered -s 8M -t 1 "$d/rw"
		expect_result_line buffered
		expect_clean "$d/rw"
		check "unprivileged: --drop-caches=all is a warning, not a failure" 0 -- "${NOBODY[@]}" "$DBN" buffered --drop-caches=all -s 8M -t 1 "$d/rw"
		expect_err '^diskbench: warning: .*(drop_caches|root|all)'
		expect_clean "$d/rw"
	fi
	local name="a block device without permission (unprivileged): exit 1"
	need_root "$name" || return
	need_nobody "$name" || return
	need_big "$name" || return
	randfile "$d/blk.img" 16
	if ! attach_loop "$d/blk.img"; then
		skip "$name" "cannot attach a loop device"
		return
	fi
	local L=$LOOP maj min
	maj=$((16#$(stat -c %t "$L"))); min=$((16#$(stat -c %T "$L")))
	if ! mknod "$d/blkdev" b "$maj" "$min" 2>/dev/null; then
		skip "$name" "cannot mknod in the scratch directory"
		detach_loop "$L"
		return
	fi
	chmod 600 "$d/blkdev"
	check "$name" 1 -- "${NOBODY[@]}" "$DBN" seqread -s 8M -t 1 "$d/blkdev"
	expect_msg 'permission denied'
	expect_no_out
	check "buffered on a block device without permission (unprivileged): exit 1" 1 -- "${NOBODY[@]}" "$DBN" buffered -t 1 "$d/blkdev"
	expect_msg 'permission denied'
	check "cached on a block device without permission (unprivileged): exit 1" 1 -- "${NOBODY[@]}" "$DBN" cached -t 0.5 "$d/blkdev"
	expect_msg 'permission denied'
	check "seqwrite --force on a block device without permission (unprivileged): exit 1" 1 -- "${NOBODY[@]}" "$DBN" seqwrite --force -s 8M -t 1 "$d/blkdev"
	expect_msg 'permission denied'
	rm -f -- "$d/blkdev"
	detach_loop "$L"
}

# =================================================================================
# RAM filesystems: ramfs (no O_DIRECT), tmpfs (memory speed), ENOSPC
# =================================================================================
t_ramfs() {
	local name="ramfs: seqwrite without --no-direct fails naming --no-direct"
	need_root "$name" || return
	local m="$S/ramfs"
	if ! mount_fs ramfs "$m"; then
		skip "$name" "cannot mount ramfs"
		return
	fi
	check "$name (exit 1)" 1 -- "$DB" seqwrite -s 8M -t 1 "$m"
	expect_msg 'direct'
	expect_err -- '--no-direct'
	expect_no_out
	expect_clean "$m"
	check "ramfs: seqread without --no-direct fails (exit 1), no file left" 1 -- "$DB" seqread -s 8M -t 1 "$m"
	expect_err -- '--no-direct'
	expect_clean "$m"
	check "ramfs: --json without --no-direct: exit 1, error document" 1 -- "$DB" --json seqwrite -s 8M -t 1 "$m"
	expect_json_error
	expect_clean "$m"
	check "ramfs: seqwrite --no-direct works and warns about RAM" 0 -- "$DB" seqwrite --no-direct -s 8M -t 1 "$m"
	expect_result_line seqwrite
	expect_err '^diskbench: warning: .*(RAM|memory)'
	expect_clean "$m"
	check "ramfs: --json seqwrite --no-direct carries the RAM warning" 0 -- "$DB" --json seqwrite --no-direct -s 8M -t 1 "$m"
	expect_json seqwrite
	python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["warnings"]; sys.exit(0 if any(("RAM" in x or "memory" in x) for x in w) else 1)' "$OUT" 2>/dev/null ||
		fail "no RAM/memory warning in JSON warnings"
	expect_clean "$m"
	umount_fs "$m"
}

t_tmpfs() {
	local name="tmpfs: seqwrite works and warns that the data live in RAM"
	need_root "$name" || return
	local m="$S/tmpfs"
	if ! mount_fs tmpfs "$m" size=64m; then
		skip "$name" "cannot mount tmpfs"
		return
	fi
	check "$name" 0 -- "$DB" seqwrite -s 8M -t 1 "$m"
	expect_result_line seqwrite
	expect_err '^diskbench: warning: .*(RAM|memory)'
	expect_clean "$m"
	check "tmpfs: --json has the same RAM warning in warnings" 0 -- "$DB" --json seqwrite -s 8M -t 1 "$m"
	expect_json seqwrite   # also checks stderr warnings == JSON warnings
	python3 -c 'import json,sys; w=json.load(open(sys.argv[1]))["warnings"]; sys.exit(0 if any(("RAM" in x or "memory" in x) for x in w) else 1)' "$OUT" 2>/dev/null ||
		fail "no RAM/memory warning in JSON warnings"
	expect_clean "$m"
	check "tmpfs: seqread warns about RAM too" 0 -- "$DB" seqread -s 8M -t 1 "$m"
	expect_err '^diskbench: warning: .*(RAM|memory)'
	expect_clean "$m"
	umount_fs "$m"

	name="not enough free space: refused before writing (exit 1)"
	if ! mount_fs tmpfs "$S/small" size=16m; then
		skip "$name" "cannot mount tmpfs"
		return
	fi
	check "$name" 1 -- "$DB" seqwrite -s 32M -t 1 "$S/small"
	expect_msg 'not enough free space'
	expect_no_out
	expect_clean "$S/small"
	[ "$(df -B1 --output=used "$S/small" | tail -n 1 | tr -d ' ')" -lt $((1 * MiB)) ] || fail "something was written"
	check "not enough free space with the 5 % reserve: 15.5 MiB on a 16 MiB tmpfs (exit 1)" 1 -- "$DB" seqwrite -b 256k -s 15872k -t 1 "$S/small"
	expect_msg 'not enough free space'
	expect_clean "$S/small"
	check "not enough free space for a read test's layout (exit 1)" 1 -- "$DB" seqread -s 32M -t 1 "$S/small"
	expect_msg 'not enough free space'
	expect_clean "$S/small"
	check "not enough free space, --json: error document" 1 -- "$DB" --json seqwrite -s 32M -t 1 "$S/small"
	expect_json_error
	umount_fs "$S/small"
}

# ENOSPC in the middle of a write: a 48 MiB ext4 on a loop device; diskbench
# writes slowly (4 KiB, O_DSYNC); once it has started, a filler takes the rest.
t_enospc() {
	local name="ENOSPC in the middle of seqwrite: exit 1, test file removed"
	need_root "$name" || return
	need_big "$name" || return
	if ! command -v mkfs.ext4 >/dev/null 2>&1; then
		skip "$name" "no mkfs.ext4"
		return
	fi
	local d img L m avail size f
	d=$(new_dir enospc)
	img="$d/fs.img"
	truncate -s 48M "$img"
	mkfs.ext4 -q -F -m 0 -E lazy_itable_init=0,lazy_journal_init=0 "$img" >/dev/null 2>&1 ||
		{ skip "$name" "mkfs.ext4 failed"; return; }
	attach_loop "$img" || { skip "$name" "cannot attach a loop device"; return; }
	L=$LOOP
	m="$d/mnt"; mkdir -p "$m"
	mount "$L" "$m" 2>/dev/null || { skip "$name" "cannot mount ext4"; detach_loop "$L"; return; }
	MOUNTS+=("$m")
	avail=$(df -B1 --output=avail "$m" | tail -n 1 | tr -d ' ')
	size=$(((avail * 3 / 4) / 4096 * 4096))
	case_begin "$name"
	start_bg seqwrite -b 4k --sync=dsync -s "$size" -t 0 "$m"
	if f=$(wait_for_file "$m" $((256 * 1024)) 20); then
		# the free-space check is behind us: take all the space that is left
		dd if=/dev/zero of="$m/filler" bs=1M 2>/dev/null
		sync "$m/filler" 2>/dev/null
		wait_bg
		[ "$RC" = 1 ] || fail "exit code $RC, expected 1"
		expect_msg 'No space left on device'
		expect_no_out
		expect_clean "$m"
	else
		wait_bg
		fail "the test file never grew past 256 KiB (exit $RC); cannot race the filler"
	fi
	rm -f -- "$m/filler"
	sync
	case_begin "ENOSPC in the middle of a write, --json: exit 1, error document, file removed"
	avail=$(df -B1 --output=avail "$m" | tail -n 1 | tr -d ' ')
	size=$(((avail * 3 / 4) / 4096 * 4096))
	start_bg --json seqwrite -b 4k --sync=dsync -s "$size" -t 0 "$m"
	if f=$(wait_for_file "$m" $((256 * 1024)) 20); then
		dd if=/dev/zero of="$m/filler" bs=1M 2>/dev/null
		sync "$m/filler" 2>/dev/null
		wait_bg
		[ "$RC" = 1 ] || fail "exit code $RC, expected 1"
		expect_json_error
		grep -q 'No space left on device' "$OUT" || fail "the JSON error does not say 'No space left on device'"
		expect_clean "$m"
	else
		wait_bg
		fail "the test file never grew past 256 KiB (exit $RC)"
	fi
	rm -f -- "$m/filler"
	umount_fs "$m"
	detach_loop "$L"
}

# =================================================================================
# signals
# =================================================================================
t_signals() {
	local d f sig want
	d=$(new_dir sig)
	for sig in INT TERM; do
		want=130; [ $sig = TERM ] && want="143|130"
		case_begin "SIG$sig in the middle of seqwrite: exit ${want%%|*}, partial figures on stderr, file removed"
		start_bg seqwrite -s 60M -b 4k --sync=dsync -t 30 "$d"
		if ! f=$(wait_for_file "$d" 0 10); then
			wait_bg
			fail "no test file appeared (exit $RC)"
			continue
		fi
		sleep 0.5
		if ! kill -0 "$BGPID" 2>/dev/null; then
			wait_bg
			fail "diskbench finished before the signal (exit $RC): too fast to test"
			continue
		fi
		kill -"$sig" "$BGPID"
		wait_bg
		[[ "|$want|" == *"|$RC|"* ]] || fail "exit code $RC, expected $want"
		expect_msg 'interrupt|partial'
		expect_no_out
		expect_clean "$d"
		[ -e "$f" ] && fail "$f is still there"
	done

	case_begin "SIGINT with --json: exit 130, one document with an error key, file removed"
	start_bg --json seqwrite -s 60M -b 4k --sync=dsync -t 30 "$d"
	if f=$(wait_for_file "$d" 0 10); then
		sleep 0.4
		kill -INT "$BGPID" 2>/dev/null
		wait_bg
		[ "$RC" = 130 ] || fail "exit code $RC, expected 130"
		expect_json_error
		expect_clean "$d"
	else
		wait_bg
		fail "no test file appeared (exit $RC)"
	fi

	case_begin "two SIGINTs in a row: exit 130, file removed"
	start_bg seqwrite -s 60M -b 4k --sync=dsync -t 30 "$d"
	if f=$(wait_for_file "$d" 0 10); then
		sleep 0.3
		kill -INT "$BGPID" 2>/dev/null
		kill -INT "$BGPID" 2>/dev/null
		wait_bg
		[ "$RC" = 130 ] || fail "exit code $RC, expected 130"
		expect_no_out
		expect_clean "$d"
	else
		wait_bg
		fail "no test file appeared (exit $RC)"
	fi

	case_begin "SIGINT during the layout of a read test: exit 130, file removed"
	start_bg seqread -s 60M -t 30 "$d"
	if f=$(wait_for_file "$d" 1 10); then
		kill -INT "$BGPID" 2>/dev/null
		wait_bg
		[ "$RC" = 130 ] || fail "exit code $RC, expected 130"
		expect_msg 'interrupt'
		expect_no_out
		expect_clean "$d"
	else
		wait_bg
		fail "the layout never started (exit $RC)"
	fi

	case_begin "SIGINT during randread with -j 4: exit 130, file removed"
	start_bg randread -b 512 -s 32M -j 4 -t 30 "$d"
	if f=$(wait_for_file "$d" $((32 * MiB)) 10); then
		sleep 0.3
		kill -INT "$BGPID" 2>/dev/null
		wait_bg
		[ "$RC" = 130 ] || fail "exit code $RC, expected 130"
		expect_msg 'interrupt'
		expect_no_out
		expect_clean "$d"
	else
		wait_bg
		fail "the layout never finished (exit $RC)"
	fi

	if need_big "SIGTERM with --force on an existing file: the file is kept"; then
		case_begin "SIGTERM with --force on an existing file: the file is kept"
		randfile "$d/mine" 16
		start_bg seqwrite --force -s 16M -b 4k --sync=dsync -t 30 "$d/mine"
		sleep 0.5
		kill -TERM "$BGPID" 2>/dev/null
		wait_bg
		[[ "$RC" = 143 || "$RC" = 130 ]] || fail "exit code $RC, expected 143"
		[ -e "$d/mine" ] || fail "diskbench removed a file it did not create"
		rm -f -- "$d/mine"
	fi
}

# =================================================================================
# cache eviction proves itself; cached vs buffered (issue 3)
# =================================================================================
t_eviction() {
	local name="buffered after cat: eviction brings residency below 5 %"
	need_big "$name" || return
	local d f rp buf_json
	d=$(new_dir evict)
	f="$d/data"
	randfile "$f" 32
	cat "$f" >/dev/null
	check "$name" 0 -- "$DB" --json buffered -t 3 "$f"
	expect_json buffered cache.evicted=file params.drop_caches=file
	rp=$(json_get cache.resident_before_pct)
	python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < 5 else 1)' "${rp:-100}" 2>/dev/null ||
		fail "resident_before_pct = $rp, expected < 5"
	local bytes
	bytes=$(json_get result.bytes)
	[ "$bytes" = $((32 * MiB)) ] || fail "buffered read $bytes bytes of a 32 MiB file (expected to the end)"
	buf_json="$S/log/buffered.json"; cp "$OUT" "$buf_json"

	check "buffered text shows the cache line (cold)" 0 -- "$DB" buffered -t 3 "$f"
	expect_out '^cache: .*cold'
	expect_result_line buffered

	cat "$f" >/dev/null
	check "buffered --drop-caches=none after cat: resident > 90 % and a warning" 0 -- "$DB" --json buffered --drop-caches=none -t 3 "$f"
	expect_json buffered params.drop_caches=none
	rp=$(json_get cache.resident_before_pct)
	python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 90 else 1)' "${rp:-0}" 2>/dev/null ||
		fail "resident_before_pct = $rp, expected > 90"
	expect_err '^diskbench: warning: .*(cache|memory)'
	python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["warnings"] else 1)' "$OUT" 2>/dev/null ||
		fail "no warning in JSON warnings"

	cat "$f" >/dev/null
	check "--no-drop-caches is --drop-caches=none" 0 -- "$DB" --json buffered --no-drop-caches -t 3 "$f"
	expect_json buffered params.drop_caches=none

	check "cached on the file: resident 100 %, rate > 2x buffered's" 0 -- "$DB" --json cached -t 1 "$f"
	expect_json cached
	rp=$(json_get cache.resident_before_pct)
	python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 99.9 else 1)' "${rp:-0}" 2>/dev/null ||
		fail "resident_before_pct = $rp, expected 100"
	local ratio
	ratio=$(python3 "$PY" ratio "$OUT" "$buf_json" result.bytes_per_sec 2>/dev/null)
	# two timed runs compared: on a busy machine one pair may come out close,
	# so one more pair is measured before the case counts as failed
	if ! python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 2 else 1)' "${ratio:-0}" 2>/dev/null; then
		echo "# cached/buffered = ${ratio:-?} on the first try; measuring the pair once more"
		run "$DB" --json buffered -t 3 "$f"
		cp "$OUT" "$buf_json"
		cat "$f" >/dev/null
		run "$DB" --json cached -t 1 "$f"
		ratio=$(python3 "$PY" ratio "$OUT" "$buf_json" result.bytes_per_sec 2>/dev/null)
	fi
	python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 2 else 1)' "${ratio:-0}" 2>/dev/null ||
		fail "cached/buffered = $ratio on the second try too, expected > 2"

	check "cached on a file: text result line" 0 -- "$DB" cached -t 0.5 "$f"
	expect_result_line cached
	check "cached on a directory: lays out, primes, exit 0" 0 -- "$DB" cached -t 0.5 "$d"
	expect_result_line cached
	expect_clean "$d"
	check "buffered on a directory: exit 0" 0 -- "$DB" buffered -s 16M -t 1 "$d"
	expect_result_line buffered
	expect_clean "$d"
	check "cached -t 0 (no time limit) is refused: exit 2" 2 -- "$DB" cached -t 0 "$f"
	expect_msg 'time|-t'

	# seqread: O_DIRECT, cold
	cat "$f" >/dev/null
	check "seqread on a file after cat: evicted, JSON consistent" 0 -- "$DB" --json seqread -t 1 "$f"
	expect_json seqread params.direct=true
	rp=$(json_get cache.resident_before_pct)
	python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < 5 else 1)' "${rp:-100}" 2>/dev/null ||
		fail "resident_before_pct = $rp, expected < 5"
	check "--drop-caches=all as root: exit 0, evicted=all" 0 -- "$DB" --json buffered --drop-caches=all -t 1 "$f"
	if [ $IS_ROOT = 1 ]; then
		expect_json buffered cache.evicted=all
		# a chroot without /proc cannot drop them: a warning, never silence
		if [ -w /proc/sys/vm/drop_caches ]; then
			expect_no_err 'drop_caches'
		else
			expect_err 'could not drop all caches .*drop_caches'
		fi
	fi
}

# =================================================================================
# the page cache read at the gate and after the join (issue 20): what the run
# itself did to it, against what the test did and fincore(1) as the peer
# =================================================================================
pct_in() { # pct_in VALUE LOW HIGH: VALUE a number within [LOW, HIGH]
	python3 -c 'import sys; v = float(sys.argv[1]); sys.exit(0 if float(sys.argv[2]) <= v <= float(sys.argv[3]) else 1)' "$@" 2>/dev/null
}
fincore_pct() { # fincore_pct FILE: its resident share in %, or nothing without fincore
	local res
	command -v fincore >/dev/null || return 0
	res=$(fincore --bytes --noheadings --output RES -- "$1" 2>/dev/null) || return 0
	python3 -c 'import sys; print(100.0 * int(sys.argv[1]) / int(sys.argv[2]))' "${res// /}" "$(fsize "$1")" 2>/dev/null
}
t_cache_instants() {
	local name="buffered on an evicted file: 0 % resident at the gate, 100 % after the join"
	need_big "$name" || return
	local d f rp ra peer
	d=$(new_dir instants)
	f="$d/data"
	randfile "$f" 32
	case $(stat -f -c %T -- "$d") in
	tmpfs | ramfs) skip "$name" "$d is in RAM: its pages are always resident"; return ;;
	esac
	cat "$f" >/dev/null
	# the run evicts the file, then reads all 32 MiB of it through the cache
	check "$name" 0 -- "$DB" --json buffered -t 3 "$f"
	expect_json buffered cache.evicted=file result.bytes=$((32 * MiB))
	rp=$(json_get cache.resident_before_pct)
	ra=$(json_get cache.resident_after_pct)
	pct_in "${rp:-x}" 0 5 || fail "resident_before_pct = $rp, expected < 5 (evicted, nothing read before the gate)"
	pct_in "${ra:-x}" 95 100 || fail "resident_after_pct = $ra, expected ~100 (the whole file read through the cache)"
	peer=$(fincore_pct "$f")
	if [ -n "$peer" ]; then
		pct_in "${ra:-x}" "$(python3 -c "print($peer - 5)")" 100 ||
			fail "resident_after_pct = $ra, fincore says $peer % after the run"
	else
		echo "# fincore (util-linux) not found: resident_after_pct not compared with a peer"
	fi
	# with --start-at the gate's reading comes before the wait: still cold
	check "buffered --start-at: cold before, resident after" 0 -- "$DB" --json buffered -t 3 --start-at $(($(date +%s) + 2)) "$f"
	pct_in "$(json_get cache.resident_before_pct)" 0 5 || fail "resident_before_pct = $(json_get cache.resident_before_pct), expected < 5"
	pct_in "$(json_get cache.resident_after_pct)" 95 100 || fail "resident_after_pct = $(json_get cache.resident_after_pct), expected ~100"
	check "buffered text: the cache line says before and after" 0 -- "$DB" buffered -t 3 "$f"
	expect_out '^cache: cold, [0-9.]+ % resident before the run, [0-9.]+ % after \(evicted: file\)$'

	cat "$f" >/dev/null
	# O_DIRECT reads go past the cache: the file stays out of it
	check "randread on an evicted file: 0 % resident after the join" 0 -- "$DB" --json randread -t 1 "$f"
	expect_json randread cache.evicted=file
	ra=$(json_get cache.resident_after_pct)
	pct_in "${ra:-x}" 0 5 || fail "resident_after_pct = $ra, expected < 5 (O_DIRECT reads)"
	peer=$(fincore_pct "$f")
	if [ -n "$peer" ]; then
		pct_in "$peer" 0 5 || fail "fincore says $peer % resident after randread, expected < 5"
	fi

	# where the instants are not read: null, never a guess
	check "seqwrite: resident_after_pct null" 0 -- "$DB" --json seqwrite -s 8M -t 1 "$d"
	[ "$(json_get cache.resident_after_pct)" = "null" ] || fail "resident_after_pct is not null for a write test"
	expect_clean "$d"
	randfile "$d/other" 8
	check "randread on two files: resident_after_pct null (one target only)" 0 -- "$DB" --json randread -s 8M -t 0.5 "$f" "$d/other"
	[ "$(json_get cache.resident_after_pct)" = "null" ] || fail "resident_after_pct is not null for two targets"
	pct_in "$(json_get cache.resident_before_pct)" 0 5 || fail "two targets: resident_before_pct is not the eviction's"
}

# =================================================================================
# random I/O (issue 4)
# =================================================================================
t_random() {
	local name="randread -j 1 on a 16 MiB file"
	need_big "$name" || return
	local d f t j
	d=$(new_dir rand)
	f="$d/data"
	randfile "$f" 16
	for t in randread randwrite; do
		for j in 1 4; do
			local force=(); [ $t = randwrite ] && force=(--force)
			check "$t -j $j on a 16 MiB file: JSON consistent" 0 -- "$DB" --json "$t" "${force[@]}" -j "$j" -s 16M -t 1 "$f"
			expect_json "$t" params.threads="$j" params.block_size=4096
			[ "$(fsize "$f")" = $((16 * MiB)) ] || fail "file size changed to $(fsize "$f")"
		done
	done
	check "randread -j 4: text result and latency lines" 0 -- "$DB" randread -j 4 -s 16M -t 0.5 "$f"
	expect_result_line randread
	expect_latency_line
	check "randread -b 8k: JSON block_size 8192, bytes multiple of 8192" 0 -- "$DB" --json randread -b 8k -s 16M -t 0.5 "$f"
	expect_json randread params.block_size=8192
	check "seqread -j 4 on a file: JSON consistent" 0 -- "$DB" --json seqread -j 4 -b 64k -s 16M -t 1 "$f"
	expect_json seqread params.threads=4
	check "seqwrite -j 4 on a directory: JSON consistent, file removed" 0 -- "$DB" --json seqwrite -j 4 -b 64k -s 16M -t 1 "$d"
	expect_json seqwrite params.threads=4
	expect_clean "$d"

	check "--histogram prints a bar chart with % and #" 0 -- "$DB" randread --histogram -s 16M -t 0.5 "$f"
	expect_result_line randread
	expect_out '%'
	expect_out '#'
	grep -Eq '[0-9.]+ ?%.*#' "$OUT" || fail "no histogram row (percent followed by a bar)"
	check "--histogram with -q prints only the result line" 0 -- "$DB" -q randread --histogram -s 16M -t 0.3 "$f"
	[ "$(wc -l <"$OUT")" = 1 ] || fail "stdout has $(wc -l <"$OUT") lines, expected 1"

	# --seed: the same seed gives the same file, another seed another one
	local a="$d/seed-a" b="$d/seed-b" c="$d/seed-c"
	head -c $((1 * MiB)) /dev/zero >"$a"; cp "$a" "$b"; cp "$a" "$c"
	check "randwrite --seed 7 (first run)" 0 -- "$DB" randwrite -j 1 --seed 7 -s 1M -t 0 --force "$a"
	check "randwrite --seed 7 twice on identical files gives identical files" 0 -- "$DB" randwrite -j 1 --seed 7 -s 1M -t 0 --force "$b"
	cmp -s "$a" "$b" || fail "the files differ: --seed does not make the run reproducible"
	cmp -s "$a" /dev/zero -n $((1 * MiB)) 2>/dev/null && fail "nothing was written"
	check "randwrite --seed 8 gives a different file than --seed 7" 0 -- "$DB" randwrite -j 1 --seed 8 -s 1M -t 0 --force "$c"
	cmp -s "$a" "$c" && fail "--seed 7 and --seed 8 gave identical files"
	[ "$(fsize "$a")" = $((1 * MiB)) ] || fail "the file grew"
	check "--seed shows in JSON params.seed" 0 -- "$DB" --json randread --seed 12345 -s 16M -t 0.2 "$f"
	expect_json randread params.seed=12345
	check "randread on a file smaller than -s uses the file's size" 0 -- "$DB" --json randread -s 64M -t 0.3 "$f"
	expect_json randread
	[ "$(fsize "$f")" = $((16 * MiB)) ] || fail "the file changed size"
	check "randwrite on a directory: lays out, exit 0, file removed" 0 -- "$DB" randwrite -s 16M -j 2 -t 0.5 "$d"
	expect_result_line randwrite
	expect_clean "$d"
}

# =================================================================================
# trust at the edges (issue 10)
# =================================================================================
t_edge_residency() {
	local name="residency of a file the caller cannot write: null, with the reason"
	need_root "$name" || return
	need_nobody "$name" || return
	local d; d=$(new_dir resid); chmod 755 "$d"
	randfile "$d/f" 8; chmod 644 "$d/f"
	check "$name (JSON)" 0 -- "${NOBODY[@]}" "$DBN" --json buffered -t 0.3 "$d/f"
	expect_json buffered
	[ "$(json_get cache.resident_before_pct)" = "null" ] || fail "resident_before_pct is not null"
	[ "$(json_get cache.resident_after_pct)" = "null" ] || fail "resident_after_pct is not null"
	json_get cache.resident_unknown_reason | grep -q "neither own nor can write" ||
		fail "no reason in cache.resident_unknown_reason"
	expect_no_err 'warning: .*still in the page cache'
	check "residency hidden (text): the cache line says unknown and why" 0 -- "${NOBODY[@]}" "$DBN" seqread -s 8M -t 0.3 "$d/f"
	expect_out '^cache: unknown: the kernel hides'
	check "residency of a file root owns, as root: measured" 0 -- "$DB" --json buffered -t 0.3 "$d/f"
	[ "$(json_get cache.resident_before_pct)" != "null" ] || fail "resident_before_pct is null for root"
}

# CSV rows of a run cut short carry no figures: empty columns, the error set.
csv_no_figures() { # csv_no_figures FILE: every row with an error has empty figure columns
	python3 - "$1" <<'PYEOF' || fail "CSV: a failed row carries figures"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
figs = ("bytes", "seconds", "bytes_per_sec", "iops", "lat_p50_ns", "lat_p99_ns")
bad = [r for r in rows if r.get("error") and any(r.get(k) for k in figs)]
sys.exit(1 if bad or not any(r.get("error") for r in rows) else 0)
PYEOF
}

t_edge_csv_partial() {
	local d f cmd
	d=$(new_dir csvpart)
	for cmd in "seqwrite -s 60M -b 4k --sync=dsync -t 30" "sweep --point-time 5 --budget 30 -s 16M" "quick -t 20 -s 16M"; do
		case_begin "--csv ${cmd%% *} interrupted by SIGINT: figure columns empty, error set"
		# shellcheck disable=SC2086
		start_bg --csv $cmd "$d"
		if ! f=$(wait_for_file "$d" 0 10); then wait_bg; fail "no test file appeared"; continue; fi
		sleep 1.5
		kill -0 "$BGPID" 2>/dev/null || { wait_bg; fail "finished before the signal: too fast to test"; continue; }
		kill -INT "$BGPID"
		wait_bg
		[ "$RC" = 130 ] || fail "exit code $RC, expected 130"
		csv_no_figures "$OUT"
		expect_clean "$d"
	done
}

t_edge_holes() {
	local d; d=$(new_dir holes)
	truncate -s 8M "$d/sparse"
	local t
	for t in seqread randread buffered; do
		check "$t on a file with holes: exit 1, the holes named, --force suggested" 1 -- "$DB" "$t" -s 8M -t 0.3 "$d/sparse"
		expect_msg 'has holes'
		expect_err -- '--force'
		expect_no_out
	done
	check "seqread --force on a file with holes: measures, warns of holes and zeros" 0 -- "$DB" seqread --force -s 8M -t 0.3 "$d/sparse"
	expect_result_line seqread
	expect_err 'warning: .*has holes'
	expect_err 'warning: .*read back as zeros'
	check "quick on a file with holes: exit 1, no option it lacks suggested" 1 -- "$DB" quick -t 1 "$d/sparse"
	expect_msg 'has holes'
	expect_no_err -- '--force'
	randfile "$d/full" 8
	check "seqread on a written file: no holes, no zeros warning" 0 -- "$DB" seqread -s 8M -t 0.3 "$d/full"
	expect_no_err 'holes|as zeros'
}

t_edge_grow() {
	local d; d=$(new_dir grow)
	head -c 4096 /dev/urandom >"$d/small"
	check "seqwrite --force on a 4 KiB file stays within its size" 0 -- "$DB" seqwrite --force -b 4k -s 1M -t 0.3 "$d/small"
	[ "$(fsize "$d/small")" = 4096 ] || fail "the file grew to $(fsize "$d/small") bytes"
	check "seqwrite --force --grow writes up to -s" 0 -- "$DB" seqwrite --force --grow -b 4k -s 1M -t 0 "$d/small"
	[ "$(fsize "$d/small")" = $MiB ] || fail "the file is $(fsize "$d/small") bytes, expected 1 MiB"
	check "--grow checks free space for the growth: exit 1" 1 -- "$DB" seqwrite --force --grow -s 100T -t 0.3 "$d/small"
	expect_msg 'not enough free space'
	[ "$(fsize "$d/small")" = $MiB ] || fail "the file changed size"
}

t_edge_sweep_nodirect() {
	local d; d=$(new_dir sweepnd)
	check "sweep --no-direct: every point starts from an evicted cache" 0 -- "$DB" --json sweep --no-direct --budget 6 --point-time 0.5 --levels 1,2,4 --large-levels 1,2 -s 16M "$d"
	python3 - "$OUT" <<'PYEOF' || fail "a point of sweep --no-direct started with its data cached"
import json, sys
d = json.load(open(sys.argv[1]))
pts = [p for s in d["result"]["series"] for p in s["points"]]
sys.exit(0 if pts and all(p.get("resident_before_pct") is not None and p["resident_before_pct"] < 5 for p in pts) else 1)
PYEOF
}

t_edge_inuse() {
	local name="devices in use: every write test refuses, bytes unchanged"
	need_root "$name" || return
	local d img L before t sfx
	d=$(new_dir inuse)
	img="$d/img"
	# a partitioned device one of whose partitions is mounted
	if command -v sfdisk >/dev/null 2>&1 && command -v mkfs.ext4 >/dev/null 2>&1; then
		truncate -s 48M "$img"
		printf 'label: dos\n,20M,L\n,,L\n' | sfdisk -q "$img" >/dev/null 2>&1
		if attach_loop -P "$img" && [ -b "${LOOP}p1" ] && mkfs.ext4 -q "${LOOP}p1" >/dev/null 2>&1 &&
			mkdir -p "$d/mnt" && mount "${LOOP}p1" "$d/mnt" 2>/dev/null; then
			L=$LOOP; MOUNTS+=("$d/mnt"); sync; before=$(sha "$img")
			for t in "seqwrite -t 1" "randwrite -t 1" "sweep --write 50 --budget 2 --point-time 0.5"; do
				# shellcheck disable=SC2086
				check "${t%% *} --force on a device whose partition is mounted: refused" "1|3" -- "$DB" $t --force -s 8M "$L"
				expect_msg 'in use|mounted|busy'
				sync; [ "$(sha "$img")" = "$before" ] || fail "the device changed"
			done
			umount_fs "$d/mnt"; detach_loop "$L"
		else
			skip "a device with a mounted partition" "the kernel made no partitions of a loop device (losetup -P) or they cannot be mounted here"
			[ -n "${LOOP:-}" ] && detach_loop "$LOOP"
		fi
	else
		skip "a device with a mounted partition" "no sfdisk or mkfs.ext4"
	fi
	# an active swap device.  The kernel's own swap-outs write to it, so the
	# swap area is only its first MiB (mkswap's size, in KiB): the kernel never
	# writes past it, and the rest, which -s 8M covers, changes only if
	# diskbench writes.
	if command -v mkswap >/dev/null 2>&1 && command -v swapon >/dev/null 2>&1; then
		randfile "$img" 16
		if attach_loop "$img" && mkswap "$LOOP" 1024 >/dev/null 2>&1 && swapon "$LOOP" 2>/dev/null; then
			L=$LOOP; before=$(tail -c +$((MiB + 1)) "$img" | sha1sum)
			for t in "seqwrite -t 1" "randwrite -t 1" "sweep --write 50 --budget 2 --point-time 0.5"; do
				# shellcheck disable=SC2086
				check "${t%% *} --force on an active swap device: refused" "1|3" -- "$DB" $t --force -s 8M "$L"
				expect_msg 'in use|busy'
			done
			swapoff "$L"; sync
			[ "$(tail -c +$((MiB + 1)) "$img" | sha1sum)" = "$before" ] ||
				fail "the swap device changed beyond its swap area"
			detach_loop "$L"
		else
			skip "an active swap device" "cannot mkswap/swapon a loop device"
			[ -n "${LOOP:-}" ] && detach_loop "$LOOP"
		fi
	fi
	# a device held open with O_EXCL by another program
	randfile "$img" 16
	if attach_loop "$img"; then
		L=$LOOP; before=$(sha "$img")
		python3 -c 'import os,sys,time; fd=os.open(sys.argv[1], os.O_RDONLY|os.O_EXCL); open(sys.argv[2],"w").close(); time.sleep(60)' "$L" "$d/held" &
		local holder=$!; BGPIDS+=("$holder")
		for _ in $(seq 50); do [ -e "$d/held" ] && break; sleep 0.1; done
		for t in "seqwrite -t 1" "randwrite -t 1" "sweep --write 50 --budget 2 --point-time 0.5"; do
			# shellcheck disable=SC2086
			check "${t%% *} --force on a device another program holds (O_EXCL): refused" "1|3" -- "$DB" $t --force -s 8M "$L"
			expect_msg 'in use|busy'
		done
		kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
		sync; [ "$(sha "$img")" = "$before" ] || fail "the held device changed"
		detach_loop "$L"
	fi
}

t_edge_alloc() {
	local name="allocation failure (ulimit -v): a clear message, exit 1"
	if grep -qa __asan_init "$DB"; then
		skip "$name" "the binary is built with AddressSanitizer, which cannot start under ulimit -v"
		return
	fi
	local d; d=$(new_dir alloc)
	randfile "$d/f" 8
	check "$name" 1 -- bash -c 'ulimit -v 400000; exec "$0" randread -b 4M -j 200 -s 8M -t 0.5 "$1"' "$DB" "$d/f"
	expect_msg 'cannot (allocate|start)'
	expect_err 'Cannot allocate memory|Resource temporarily unavailable'
	expect_no_err 'at offset'
}

t_edge_quick_nodirect() {
	local name="quick on a filesystem without O_DIRECT: advice that works"
	need_root "$name" || return
	local m="$S/ramfs-quick"
	if ! mount_fs ramfs "$m"; then skip "$name" "cannot mount ramfs"; return; fi
	check "$name (exit 1)" 1 -- "$DB" quick -t 1 -s 8M "$m"
	expect_msg 'direct'
	expect_no_err -- '--no-direct'
	expect_err 'diskbench buffered'
	expect_clean "$m"
	umount_fs "$m"
}

t_edge_warmup() {
	local d; d=$(new_dir warmup)
	check "randread: one warm-up I/O by default, in params.warmup_ios, not counted" 0 -- "$DB" --json randread -s 4M -t 0 --seed 7 "$d"
	[ "$(json_get params.warmup_ios)" = 1 ] || fail "params.warmup_ios = $(json_get params.warmup_ios), expected 1"
	[ "$(json_get result.ios)" = 1024 ] || fail "result.ios = $(json_get result.ios), expected 1024 (-s 4M of 4 KiB: the warm-up is not counted)"
	check "--warmup 0: none" 0 -- "$DB" --json randread --warmup 0 -s 4M -t 0 "$d"
	[ "$(json_get params.warmup_ios)" = 0 ] || fail "params.warmup_ios = $(json_get params.warmup_ios), expected 0"
	check "--no-direct: no warm-up (it would warm the cache it measures)" 0 -- "$DB" --json seqread --no-direct --warmup 3 -s 4M -t 0 "$d"
	[ "$(json_get params.warmup_ios)" = 0 ] || fail "params.warmup_ios = $(json_get params.warmup_ios), expected 0"
	check "--warmup on buffered: refused (exit 2)" 2 -- "$DB" buffered --warmup 1 "$d"
}

t_engines() {
	local d; d=$(new_dir engines)
	check "randread --qd 16: the depth in the result line, params and qd_hist" 0 -- "$DB" randread --qd 16 -s 16M -t 0.5 "$d"
	expect_out 'qd 16 × 1 thread = 16 in flight, (io_uring|libaio)'
	check "randread --qd 8 -j 2 --json: params.qd, threads, engine; qd_hist reached 8" 0 -- "$DB" --json randread --qd 8 -j 2 -s 16M -t 0.5 "$d"
	expect_json randread
	python3 - "$OUT" <<'PYEOF' || fail "params.qd/threads/engine or qd_hist wrong"
import json, sys
d = json.load(open(sys.argv[1]))
p, h = d["params"], d["result"]["qd_hist"]
assert p["qd"] == 8 and p["threads"] == 2 and p["engine"] in ("uring", "aio"), p
assert list(h) == ["1", "2-3", "4-7", "8-15", "16-31", "32-63", "64+"], h
assert sum(h.values()) == d["result"]["ios"], (h, d["result"]["ios"])
# batched (aio; io_uring where it chose so), a request stands 8th in the batch
# that fills its lane; one per call (issue 40: what io_uring's probe tried,
# and what it may choose), it stands where its refill found the lane: 5th-8th
# after 4 completions; the lane still reaches 8 with every refill
pol = d["result"]["submit_policy"]
share = 0.1 if pol else 0.9
assert h["8-15"] > share * d["result"]["ios"], (h, pol)
PYEOF
	check "--engine=sync --qd 4: usage error (exit 2)" 2 -- "$DB" randread --engine=sync --qd 4 "$d"
	expect_msg 'asynchronous engine'
	check "--engine=bogus: usage error (exit 2)" 2 -- "$DB" randread --engine=bogus "$d"
	expect_msg 'auto, uring, aio, sync or nop'
	local e sums=()
	for e in sync aio uring; do
		run "$DB" randwrite --engine=$e --seed 77 -s 4M -b 4k -t 0 --keep "$d/eq-$e"
		[ "$RC" = 0 ] || { case_begin "randwrite --seed: byte-identical files with sync, aio and uring"; fail "--engine=$e: exit $RC"; }
		sums+=("$(sha "$d/eq-$e" 2>/dev/null)")
	done
	case_begin "randwrite --seed: byte-identical files with sync, aio and uring"
	[ "${sums[0]}" = "${sums[1]}" ] && [ "${sums[1]}" = "${sums[2]}" ] || fail "files differ: ${sums[*]}"
	check "sweep: each point's threads x qd is its outstanding count" 0 -- "$DB" --json sweep --run oltp --levels 1,8,64 --budget 3 --point-time 0.5 -s 16M "$d"
	python3 - "$OUT" <<'PYEOF' || fail "a point's threads x qd differs from its level, or qd stayed 1 with an async engine"
import json, sys
d = json.load(open(sys.argv[1]))
pts = d["result"]["series"][0]["points"]
assert all(p["threads"] * p["qd"] == p["outstanding"] for p in pts), pts
if d["params"]["engine"] in ("uring", "aio"):
    assert [p["threads"] for p in pts] == [1, 1, 2], pts
PYEOF
	check "sweep --write: reads and writes kept apart per point" 0 -- "$DB" --json sweep --run oltp --levels 2 --write 50 --budget 2 --point-time 0.5 -s 16M "$d"
	python3 - "$OUT" <<'PYEOF' || fail "a mixed point lacks separate read/write latency"
import json, sys
p = json.load(open(sys.argv[1]))["result"]["series"][0]["points"][0]
assert p["read"]["ios"] + p["write"]["ios"] == p["ios"] and p["write"]["ios"] == p["writes"], p
assert "lat_ns" in p["read"] and "lat_hist" in p["write"], p
PYEOF
	check "quick --json: the four CrystalDiskMark figures, read and write" 0 -- "$DB" --json quick -t 3 -s 16M "$d"
	python3 - "$OUT" <<'PYEOF' || fail "quick's cdm figures missing"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cdm"]
if d["engine"] in ("uring", "aio"):
    assert list(c) == ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"], list(c)
assert len(c) == 4 and all(v["read_iops"] > 0 and v["write_iops"] > 0 for v in c.values()), c
assert sum(t["params"]["time_limit_s"] for t in d["tests"]) <= 3.01
PYEOF
	# Value 1 refuses io_uring only to unprivileged processes outside
	# kernel.io_uring_group: the case runs diskbench as nobody, and other
	# root programs on the machine (another diskbench, a CI job) keep theirs.
	local name="io_uring refused (kernel.io_uring_disabled=1, unprivileged): auto falls back, --engine=uring fails"
	need_root "$name" || return
	need_nobody "$name" || return
	local f=/proc/sys/kernel/io_uring_disabled old
	if [ ! -w $f ]; then skip "$name" "no writable $f"; return; fi
	old=$(cat $f)
	if [ "$old" = 2 ]; then skip "$name" "io_uring is disabled for everyone here"; return; fi
	chmod 777 "$d"
	URING_RESTORE=$old
	echo 1 >$f
	check "$name: auto says why and uses aio" 0 -- "${NOBODY[@]}" "$DBN" randread --qd 4 -s 16M -t 0.3 "$d"
	expect_err 'warning: io_uring unavailable: .*\(kernel.io_uring_disabled=1 and not in kernel.io_uring_group\); using aio'
	expect_out 'libaio'
	check "$name: --engine=uring exits 1 with the reason" 1 -- "${NOBODY[@]}" "$DBN" --json randread --engine=uring -s 16M -t 0.3 "$d"
	expect_json_error
	json_get error | grep -q 'io_uring' || fail "the JSON error does not name io_uring"
	echo "$old" >$f
	URING_RESTORE=""
}

t_edge_signal_while_printing() {
	local name="a signal while the result is being written does not turn a good run into a write error"
	# the moment diskbench blocks on the full pipe is read from /proc/PID/wchan
	if [ ! -r /proc/self/wchan ]; then
		skip "$name" "no /proc/PID/wchan (/proc not mounted, a chroot?)"
		return
	fi
	local d; d=$(new_dir sigprint)
	case_begin "$name"
	local res
	res=$(python3 - "$DB" "$d" <<'PYEOF' 2>&1
import fcntl, json, os, signal, subprocess, sys, time
db, d = sys.argv[1], sys.argv[2]
r, w = os.pipe()
fcntl.fcntl(w, 1031, 4096)  # F_SETPIPE_SZ: a small pipe, so writing the document blocks
p = subprocess.Popen([db, "--json", "quick", "-t", "1", "-s", "8M", d], stdout=w,
                     stderr=subprocess.DEVNULL)
os.close(w)
blocked = False
for _ in range(600):  # until it waits on the full pipe, at most 60 s
    try:
        if "pipe_write" in open("/proc/%d/wchan" % p.pid).read():
            blocked = True
            break
    except OSError:
        break
    time.sleep(0.1)
if not blocked:
    p.kill(); print("never blocked writing its result"); sys.exit(1)
p.send_signal(signal.SIGINT)
time.sleep(0.2)
data = b""
while True:
    chunk = os.read(r, 65536)
    if not chunk:
        break
    data += chunk
rc = p.wait()
try:
    doc = json.loads(data)
except ValueError:
    print("exit %d, stdout is not one JSON document (%d bytes)" % (rc, len(data))); sys.exit(1)
if rc != 0 or "error" in doc:
    print("exit %d, error %r" % (rc, doc.get("error"))); sys.exit(1)
PYEOF
) || fail "$res"
	expect_clean "$d"
}

# =================================================================================
main() {
	echo "# diskbench CLI tests: $DB_ORIG (run from a copy: $DB)"
	echo "# scratch: $S (free: $AVAIL bytes; root: $IS_ROOT; unprivileged runs: ${NOBODY[*]:-as $(id -un)})"
	if [ -n "${DISKBENCH_CLI_ONLY:-}" ]; then   # e.g. DISKBENCH_CLI_ONLY="t_signals t_enospc"
		local g
		for g in $DISKBENCH_CLI_ONLY; do "$g"; done
	else
		t_help
		t_bad_input
		if need_big "the six tests on a directory"; then t_tests_on_dir; fi
		t_json_failure
		if need_big "safety on existing files"; then t_safety_files; fi
		if need_big "safety on loop devices"; then t_safety_loop; fi
		if need_big "safety on mounted devices"; then t_safety_mounted; fi
		t_unprivileged
		t_ramfs
		t_tmpfs
		t_enospc
		if need_big "signals"; then t_signals; fi
		t_eviction
		t_cache_instants
		t_random
		t_edge_residency
		t_edge_csv_partial
		t_edge_holes
		t_edge_grow
		t_edge_sweep_nodirect
		t_edge_inuse
		t_edge_alloc
		t_edge_quick_nodirect
		t_edge_warmup
		t_engines
		t_edge_signal_while_printing
	fi
	finish
	tap_done
}
main
