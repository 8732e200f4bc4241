#!/usr/bin/env bash
# CSV (and the JSON beside it) that scripts can rely on (issue 22):
#
#   bash tests/cli/csv.sh ./diskbench      (part of `make cli`)
#
#   - the single-test header ends in qd,engine,step,verdict, with --qd's
#     value and the engine JSON names; step and verdict empty outside quick;
#   - quick: a row per step named as its text table and JSON tests[].step
#     name it, the verdict class in every row (JSON's verdict.class);
#   - --series: the intervals add up to the run's bytes, the last, shorter
#     one flagged partial=true and no other;
#   - files: its own columns, files/s never under iops.
# (That each header is the one the man page documents is tests/cli/doctest.py's.)
# Output: `ok N - name` / `not ok N - name`, then `N passed, M failed, K skipped`.
set -u

DB=$(realpath -- "${1:?usage: csv.sh PATH/TO/diskbench}") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-csv.XXXXXX) || exit 2
trap 'rm -rf -- "$S"' EXIT
trap 'rm -rf -- "$S"; trap - EXIT; exit 130' INT TERM

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
assert head[-4:] == ["qd", "engine", "step", "verdict"], head
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

tap_done
