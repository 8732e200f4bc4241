#!/usr/bin/env bash
# CSV (and the JSON beside it) that scripts can rely on (issue 22):
#
#   bash tests/cli/csv.sh ./diskbench      (part of `make cli`)
#
#   - the single-test header has qd,engine,step,verdict appended, with --qd's
#     value and the engine JSON names; step and verdict empty outside quick;
#   - quick: a row per step named as its text table and JSON tests[].step
#     name it, the verdict class in every row (JSON's verdict.class);
#   - --series: the intervals add up to the run's bytes, the last, shorter
#     one flagged partial=true and no other;
#   - files: its own columns, files/s never under iops;
#   - per operation (issue 31; sweep --write's points add up the same way,
#     a sweep of reads alone fills read_ alone): randrw --mix r70,w30 --seed 3 on a 16 MiB
#     file in the scratch directory: read_ios + write_ios = ios, bytes =
#     ios x 4096, each share within 1 point of --mix, trim_ columns empty; the
#     same run in JSON has the same counts and bytes in result.ops (the seed
#     fixes the draw); a plain randread fills read_ with the row's own
#     figures and leaves write_ and trim_ empty.  The expected counts do not
#     come from diskbench alone: on a loop device over a 16 MiB file in
#     /dev/shm (root only; skipped, saying why, otherwise), r70,w30 and
#     r60,w30,t10 are checked against the device's own counters
#     (/sys/block/loopN/stat: reads, sectors read, writes, sectors written,
#     discards, sectors discarded) within 5 % and 2 I/Os, as mix.sh does.
#   - the open loop's columns (issue 39): rate_asked, rate_served,
#     unserved_ios and lat_from at the end of the single-test and sweep
#     headers; an open-loop row (--rate 500 fixed for 0.3 s: 150 due, by
#     hand) fills them with lat_from due, rate_served its own ios over its
#     seconds; a closed-loop row says submit with the rates empty; a failed
#     row leaves all four empty; sweep's --curve rows ask their % of the
#     small series' max, its points are closed loop.
# (That each header is the one the man page documents is tests/cli/doctest.py's.)
# Output: `ok N - name` / `not ok N - name`, then `N passed, M failed, K skipped`.
set -u

DB=$(realpath -- "${1:?usage: csv.sh PATH/TO/diskbench}") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-csv.XXXXXX) || exit 2
LOOP="" SHM_IMG=""
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	[ -n "$SHM_IMG" ] && rm -f -- "$SHM_IMG"
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

# shellcheck source=tests/cli/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"
TAP_NAME=csv
TAP_TIMEOUT=300

# py_run NAME CODE ARGS...: run diskbench ARGS (exit 0 expected), then tap's
# py with CODE, which also sees rows: the CSV's rows as dicts
py_run() {
	local name=$1 code=$2
	shift 2
	if ! tap_run 0 "$@"; then
		not_ok "$name" "exit $rc" "$(head -c 300 "$S/err")"
		return
	fi
	py "$name" "rows = list(csv.DictReader(io.StringIO(out)))
$code"
}

py_run "single test: qd and engine appended; step and verdict empty" '
head = out.splitlines()[0].split(",")
assert head[21:25] == ["qd", "engine", "step", "verdict"], head
assert head[:9] == "test,target,block_size,bytes,seconds,bytes_per_sec,iops,lat_p50_ns,lat_p99_ns".split(","), head
r = rows[0]
assert r["qd"] == "4" and r["engine"] in ("uring", "aio"), r
assert r["step"] == "" and r["verdict"] == "", r' \
	--csv randread --qd 4 -s 8M -t 0.3 "$S"
py_run "a Q1 run says qd 1 and the engine that ran (--engine=sync)" '
r = rows[0]
assert r["qd"] == "1" and r["engine"] == "sync", r' \
	--csv randread --engine=sync -s 8M -t 0.3 "$S"

py_run "quick --csv: one row per step, named, each with the verdict" '
names = [r["step"] for r in rows]
assert len(names) == 9 and len(set(names)) == 9, names
assert [n.split()[0] for n in names] == ["SEQ1M", "SEQ1M", "RND4K", "RND4K"] * 2 + ["SEQ8K"], names
assert [n.split()[2] for n in names] == ["read"] * 4 + ["write"] * 5, names
assert names[-1] == "SEQ8K Q1T1 write (dd oflag=dsync)", names
assert len({r["verdict"] for r in rows}) == 1, [r["verdict"] for r in rows]
for r in rows:
    q, t = r["step"].split()[1][1:].split("T")
    assert r["qd"] == q and r["threads"] == t, r' \
	--csv quick -s 8M -t 2 "$S"
py_run "quick --json: tests[].step names each step; verdict.class is a class id or null" '
d = json.loads(out)
steps = [t["step"] for t in d["tests"]]
assert len(steps) == 9 and steps[0].startswith("SEQ1M Q") and steps[-1].endswith("(dd oflag=dsync)"), steps
assert d["verdict"]["class"] is None or d["verdict"]["class"].isidentifier(), d["verdict"]' \
	--json quick -s 8M -t 2 "$S"

py_run "--series JSON: the intervals and the tail add up to the run's bytes" '
d = json.loads(out)
res = d["result"]; s = res["series"]
tail = s["tail"]["bytes"] if s["tail"] else 0
assert sum(s["bytes"]) + tail == res["bytes"], (sum(s["bytes"]), tail, res["bytes"])
assert s["tail"] is None or s["tail"]["t_s"] > s["t_s"][-1], s["tail"]' \
	--json seqwrite -b 4k -s 64M -t 0.75 --interval 0.2 "$S"
py_run "--csv --series: partial column, true on the last row only" '
assert out.splitlines()[0].endswith(",lat_p99_ns,partial"), out.splitlines()[0]
flags = [r["partial"] for r in rows]
assert set(flags[:-1]) <= {"false"} and flags[-1] in ("true", "false"), flags
assert len(rows) >= 2, rows' \
	--csv --series seqwrite -b 4k -s 64M -t 0.75 --interval 0.2 "$S"

py_run "files --csv: its own columns, files_per_sec, no iops column" '
head = out.splitlines()[0].split(",")
assert "iops" not in head and "files_per_sec" in head and head[2] == "phase", head
assert all(r["test"] == "files" for r in rows), rows' \
	--csv files -n 64 -t 0 "$S"

# ---- per operation (issue 31) -------------------------------------------------
OPS_PY='
OPS = ("read", "write", "trim")
COLS = ("ios", "bytes", "iops", "lat_p50_ns", "lat_p99_ns")
def empty(r, op):
    return all(r[op + "_" + c] == "" for c in COLS)
def n(r, col):
    return int(r[col])'
MIX=(randrw --mix r70,w30 -s 16M -t 0 --seed 3)
py_run "randrw r70,w30 --csv: read_ios + write_ios = ios, each share within 1 point, trim_ empty" "$OPS_PY"'
assert len(rows) == 1, rows
r = rows[0]
assert n(r, "ios") == 4096, r["ios"]
assert n(r, "read_ios") + n(r, "write_ios") == n(r, "ios"), r
assert n(r, "read_bytes") + n(r, "write_bytes") == n(r, "bytes"), r
for op, want in (("read", 70), ("write", 30)):
    assert n(r, op + "_bytes") == n(r, op + "_ios") * 4096, (op, r)
    assert abs(100.0 * n(r, op + "_ios") / n(r, "ios") - want) <= 1, (op, r)
    assert float(r[op + "_iops"]) > 0 and 0 < n(r, op + "_lat_p50_ns") <= n(r, op + "_lat_p99_ns"), (op, r)
assert empty(r, "trim"), r
open(os.path.join(os.path.dirname(os.environ["TAP_OUT"]), "mix.csv"), "w").write(out)' \
	--csv "${MIX[@]}" "$S"
py_run "the same run in JSON: result.ops has the CSV's counts and bytes, and no trim" "$OPS_PY"'
r = list(csv.DictReader(open(os.path.join(os.path.dirname(os.environ["TAP_OUT"]), "mix.csv"))))[0]
ops = json.loads(out)["result"]["ops"]
assert sorted(ops) == ["read", "write"], list(ops)
for op in ("read", "write"):
    assert ops[op]["ios"] == n(r, op + "_ios") and ops[op]["bytes"] == n(r, op + "_bytes"), (op, ops[op], r)' \
	--json "${MIX[@]}" "$S"
py_run "a plain randread: read_ is the row's own figures, write_ and trim_ empty" "$OPS_PY"'
r = rows[0]
for c in COLS:
    assert r["read_" + c] == r[c] != "", (c, r)
assert empty(r, "write") and empty(r, "trim"), r' \
	--csv randread -s 8M -t 0 "$S"

# ---- open loop (issue 39) -----------------------------------------------------
# rate_asked, rate_served, unserved_ios and lat_from appended: an open loop's
# lat_* are response times, from when each I/O was due.  By hand: fixed
# arrivals at 500/s for 0.3 s are 150 due, served or not; rate_served is the
# row's own ios over its seconds.
OPEN_HEAD='rate_asked,rate_served,unserved_ios,lat_from'
py_run "open loop --csv: rate_asked 500, rate_served = ios / seconds, 150 due, lat_from due" '
assert out.splitlines()[0].endswith(",trim_lat_p99_ns,'"$OPEN_HEAD"'"), out.splitlines()[0]
r = rows[0]
assert r["rate_asked"] == "500.00" and r["lat_from"] == "due", r
assert abs(float(r["rate_served"]) - int(r["ios"]) / float(r["seconds"])) <= 0.01 + 1e-5 * float(r["rate_served"]), r
assert abs(int(r["ios"]) + int(r["unserved_ios"]) - 150) <= 1, r' \
	--csv randread --rate 500 --arrivals fixed -t 0.3 -s 8M "$S"
py_run "closed loop --csv: the open loop's columns empty, lat_from submit" '
r = rows[0]
assert (r["rate_asked"], r["rate_served"], r["unserved_ios"], r["lat_from"]) == ("", "", "", "submit"), r' \
	--csv randread -t 0.3 -s 8M "$S"
tap_run 2 --csv randread --rate 100 -s 8M "$S/no/such/dir"
py "a failed run --csv (exit 2): the four empty, as every figure" '
r = list(csv.DictReader(io.StringIO(out)))[0]
assert r["error"] and (r["rate_asked"], r["rate_served"], r["unserved_ios"], r["lat_from"]) == ("", "", "", ""), r'
py_run "sweep --curve --csv: its header ends with them too; curve rows asked their % of the max, lat_from due; points submit" '
assert out.splitlines()[0].endswith(",write_lat_p99_ns,'"$OPEN_HEAD"'"), out.splitlines()[0]
pts = [r for r in rows if not r["workload"].startswith("curve_")]
curve = [r for r in rows if r["workload"].startswith("curve_")]
assert curve and pts, rows
top = max(float(r["iops"]) for r in pts)  # --run oltp: the small series alone
for r in curve:
    assert abs(float(r["rate_asked"]) - top * int(r["workload"][6:]) / 100) <= 0.01, (top, r)
    # seconds has 6 decimals: ios over it agrees to a few parts in a million
    served = int(r["ios"]) / float(r["seconds"])
    assert r["lat_from"] == "due" and abs(served - float(r["rate_served"])) <= 0.01 + 1e-5 * served, r
    assert int(r["unserved_ios"]) >= 0 and float(r["rate_asked"]) > 0, r
for r in pts:
    assert (r["rate_asked"], r["rate_served"], r["unserved_ios"], r["lat_from"]) == ("", "", "", "submit"), r' \
	--csv sweep --run oltp --budget 2 --point-time 0.2 --curve 50 -s 8M "$S"

py_run "sweep --write 30 --csv: each point's read_ios + write_ios = ios, bytes too; --curve rows leave them empty" "$OPS_PY"'
pts = [r for r in rows if not r["workload"].startswith("curve_")]
assert pts and all(r["workload"].endswith("_mixed") for r in pts), [r["workload"] for r in rows]
for r in pts:
    assert n(r, "read_ios") + n(r, "write_ios") == n(r, "ios"), r
    assert n(r, "read_bytes") + n(r, "write_bytes") == n(r, "bytes"), r
    assert n(r, "write_ios") > 0 and n(r, "read_ios") > n(r, "write_ios"), r
assert "trim_ios" not in rows[0], list(rows[0])
curve = [r for r in rows if r["workload"].startswith("curve_")]
assert curve and all(empty(r, "read") and empty(r, "write") for r in curve), curve' \
	--csv sweep --write 30 --budget 2 --point-time 0.2 --curve 50 -s 8M "$S"
py_run "sweep of reads alone --csv: read_ is each point's own figures, write_ empty" "$OPS_PY"'
for r in rows:
    for c in COLS:
        assert r["read_" + c] == r[c] != "", (c, r)
    assert empty(r, "write"), r' \
	--csv sweep --budget 1 --point-time 0.2 -s 8M "$S"

# counted NAME ARGS...: one pass on the loop device in CSV; each operation's
# ios and bytes against the deltas of the device's counters, within 5 % and
# 2 I/Os (the warm-up I/O, the zero-sample reads before a read, the flush
# after writes and the eviction's flush are the run's too: mix.sh), and never
# under them (at qd 1 no two requests merge: the device counts each)
counted() {
	local name=$1 f before after; shift
	before=$(for f in 1 3 5 7 12 14; do loop_stat $f; done | tr '\n' ' ')
	if ! tap_run 0 --csv "$@" --force "$LOOP"; then
		not_ok "$name" "exit $rc" "$(head -c 300 "$S/err")"
		return
	fi
	after=$(for f in 1 3 5 7 12 14; do loop_stat $f; done | tr '\n' ' ')
	py "$name" "$OPS_PY
b, a = [int(x) for x in '$before'.split()], [int(x) for x in '$after'.split()]
dev = {'read': (a[0] - b[0], 512 * (a[1] - b[1])), 'write': (a[2] - b[2], 512 * (a[3] - b[3])),
       'trim': (a[4] - b[4], 512 * (a[5] - b[5]))}
r = list(csv.DictReader(io.StringIO(out)))[0]
for op, (ios, nbytes) in dev.items():
    got_ios = 0 if empty(r, op) else n(r, op + '_ios')
    got_bytes = 0 if empty(r, op) else n(r, op + '_bytes')
    assert abs(ios - got_ios) <= max(2, 0.05 * got_ios), (op, 'device', ios, 'csv', got_ios)
    assert abs(nbytes - got_bytes) <= max(2 * 4096, 0.05 * got_bytes), (op, 'device', nbytes, 'csv', got_bytes)
    # the extras only add: the device sees at least every counted I/O
    assert ios >= got_ios - 2 and nbytes >= got_bytes, (op, 'device', ios, nbytes, 'csv', got_ios, got_bytes)
print('# device: %d reads, %d writes, %d discards' % (dev['read'][0], dev['write'][0], dev['trim'][0]))"
}
if shm_loop csv 16M; then
	counted "loop: r70,w30's read_ and write_ ios and bytes match the device's counters within 5 %" \
		randrw --mix r70,w30 -s 16M -t 0 --seed 3
	counted "loop: r60,w30,t10's trim_ ios and bytes arrive as discards, within 5 %" \
		randrw --mix r60,w30,t10 -s 16M -t 0 --seed 3
else
	skip "loop: r70,w30 against the device's counters" "needs root and a loop device over /dev/shm"
	skip "loop: r60,w30,t10 against the device's counters" "needs root and a loop device over /dev/shm"
fi

tap_done
