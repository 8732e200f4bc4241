#!/usr/bin/env bash
# Open-loop load (issue 30): --rate and sla, against servers whose capacity
# the test sets, never read back from the output under test:
# - the fake build (tests/cli/fake_env.c), sync engine, one in flight, on
#   its own clock (FAKE_CLOCK=virtual: time passes as the reads take it, so
#   the figures hold on a busy machine):
#   sleep:1000 sleeps 1 ms a read, a server of fixed service time that
#   needs no CPU (a spinning one shared the CPU with the loop on a loaded
#   machine and under ASan, which made it slower than its D).  Fixed
#   arrivals at 500/s (a gap of 2 ms) never queue: the response time's p50
#   is the service time's.  Poisson arrivals are M/D/1: an arrival waits
#   when the server is busy (a share rho of them), so at 500/s (rho 0.5) the
#   median response is D itself and at 800/s (rho 0.8) 2.27 D (a
#   simulation of M/D/1; the mean, 1.5 D and 3 D, moves with every late
#   wake-up of a busy machine, the median less): checked as the second
#   median 1.6-12 x the first and the first within 2 x the service median,
#   the fixed one's within 1.5 x (a loaded machine's late wake-ups add to D
#   and so to rho: under ASan beside a full test run the first median was
#   1.9 D and the second 10 D; measuring from submission would give 1 x).
#   pace:1000 serves 1000 reads a second: --rate 2000 serves about 1000, the
#   rest wait (unserved, late), response p99 >= 10 x service p99, while a
#   closed-loop run of it shows a p99 under a tenth of that; sla with a
#   20 ms p99 target finds 600-1050 IOPS, with 10 us none (exit 6).
# - the schedule's count: fixed arrivals at 2000/s for 1 s on a file due
#   2000 I/Os (+-1), served or not.
# - a loop device under a cgroup-v1 blkio throttle of 400 read IOPS (root):
#   --rate 200 served within 2 % (less what the loop's own start lag left
#   unserved), and where the machine woke the loop on time (a start lag of
#   5 ms at most; else skipped, saying so) its response p50 near the service
#   p50 and its p99 within 5 ms of the service p99 (nothing queues); --rate 800 at 4 in flight for 3 s served 340-460, late I/Os, response p99
#   >= 10 x service p99 (the backlog grows to 1.5 s; the service p99 stays
#   within a 100 ms throttle slice; at 128 in flight the throttle's queue holds the
#   wait, inside the service time); sla with a 100 ms p99 target and 1 s
#   steps finds 0.7-1.1 x 400 (seen: 0.95-0.99; with 0.5 s steps the
#   throttle's slices let a burst through, and steps served up to 1.2 x),
#   unless a step below 0.7 x failed with its I/Os started over 20 ms late
#   (a busy machine: skipped, saying so).
# - a stall at the window's edge (issue 39; FAKE_STALL, the fake's read
#   chosen by its number): fixed arrivals at 1000/s for 0.3 s at one in
#   flight, reads of 50 us, read 101 of the run (the warm-up read is 0, so
#   arrival 100, due at 100 ms) stalls 400 ms, past the window: 101 served,
#   arrivals 101-299 never started (199), each in the response time as
#   waiting at least 300 - k ms; of the 300 values, 100 quick, 1-199 ms, and
#   400 ms: p50 (rank 150) near 50 ms, p99 (rank 297) near 197 ms, where the
#   served alone had a quick read's.  sla with a p50 target of 10 s on
#   pace:1000: its first step (run 2: the probe is 1) stalls 1 s at read
#   100, 50 ms into the 0.2 s window, so about 150 of its 200 arrivals never
#   started: more than the half a p50 leaves above it, so the step fails
#   whatever the waits so far (about 50 ms, far inside 10 s).
# - sweep --curve 50,90 on pace:1000 (the sync engine): the max near 1000,
#   each point asking its share of it and served within 15 %.
# - bad input, exit 2 with the reason.
set -u

if [ $# -lt 2 ]; then
	echo "usage: bash tests/cli/openloop.sh PATH/TO/diskbench PATH/TO/diskbench-fake" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
FAKE=$(realpath -- "$2") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-openloop.XXXXXX) || exit 2
LOOP="" CG="" IMG=""
cleanup() {
	[ -n "$CG" ] && rmdir "$CG" 2>/dev/null
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	[ -n "$IMG" ] && rm -f -- "$IMG"
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=openloop

dd if=/dev/urandom of="$S/data" bs=1M count=16 status=none

# fake NAME LAT ARGS...: the fake build with FAKE_LAT=LAT, JSON in $S/NAME.json,
# on the fake's clock (FAKE_CLOCK=virtual): time moves as the reads take it,
# so the figures are what diskbench makes of the reads' times, however late
# a busy machine wakes its threads. One thread's absolute sleep moves that
# clock for all, so an open loop of several threads runs on the real one
# (FAKE_CLOCK=real fake ...: on the virtual clock, sla -j 8 on pace:1000
# served 761, 233, 102 of its steps' 1000, 500, 250 IOPS, and found 2.8).
fake() {
	local name=$1 lat=$2
	shift 2
	FAKE_CLOCK=${FAKE_CLOCK:-virtual} FAKE_LAT=$lat timeout 120 "$FAKE" --json "$@" >"$S/$name.json" 2>"$S/$name.err"
	rc=$?
}
ONE=(--engine=sync --no-drop-caches -s 16M)

t_bad_input() {
	check "--rate 0: exit 2" 2 randread --rate 0 "$S/data"
	grep -q "rate '0': must be greater than 0" "$S/err" && ok "... saying why" || not_ok "... saying why" "$(cat "$S/err")"
	# issue 44: a rate whose gap overflows the clock ran flat out
	check "--rate 1e-300: exit 2" 2 randread --rate 1e-300 -t 0.3 "$S/data"
	grep -q "rate '1e-300': at least 0.001" "$S/err" && ok "... saying the floor" || not_ok "... saying the floor" "$(cat "$S/err")"
	check "--rate 0.0009: exit 2" 2 randread --rate 0.0009 -t 0.3 "$S/data"
	check "--rate abc: exit 2" 2 randread --rate abc "$S/data"
	check "--rate 5x: exit 2" 2 randread --rate 5x "$S/data"
	check "--arrivals bogus: exit 2" 2 randread --rate 100 --arrivals bogus "$S/data"
	grep -q "use poisson or fixed" "$S/err" && ok "... naming the kinds" || not_ok "... naming the kinds" "$(cat "$S/err")"
	check "--arrivals without --rate: exit 2" 2 randread --arrivals fixed "$S/data"
	check "--rate with --sustained: exit 2" 2 seqwrite --rate 100 --sustained "$S/new"
	check "--rate on buffered: exit 2" 2 buffered --rate 100 "$S/data"
	check "sla without --latency: exit 2" 2 sla randread "$S/data"
	grep -q "sla needs a target: --latency" "$S/err" && ok "... saying what it needs" || not_ok "... saying what it needs" "$(cat "$S/err")"
	check "sla --rate: exit 2 (sla chooses the rates)" 2 sla randread --latency 1ms --rate 100 "$S/data"
	check "sla --step-time 0.05: exit 2" 2 sla randread --latency 1ms --step-time 0.05 "$S/data"
	check "sla of a test it does not run (buffered): exit 2" 2 sla buffered --latency 1ms "$S/data"
	check "sla randread --no-direct (steps through the page cache): exit 2" 2 sla randread --latency 1ms --no-direct "$S/data"
	grep -q "sla randread --no-direct: its steps would read through the page cache" "$S/err" && ok "... saying why" || not_ok "... saying why" "$(cat "$S/err")"
	[ ! -e "$S/new" ] && ok "... nothing created" || not_ok "... nothing created" "$S/new exists"
}

t_schedule() {
	check "randread --rate 2000 --arrivals fixed -t 1: exit 0" 0 --json randread --rate 2000 --arrivals fixed -t 1 -s 16M "$S/data"
	py "fixed arrivals: 2000 due in 1 s (+-1), served or not; rate, arrivals and cap named" '
r = d["result"]; o = r["open_loop"]
assert abs(r["ios"] + o["unserved_ios"] - 2000) <= 1, (r["ios"], o)
assert o["rate_asked"] == 2000 and o["arrivals"] == "fixed" and o["lat_from"] == "due", o
assert o["in_flight_max"] == 128 and d["params"]["qd"] == 128, o
# the window, or up to the drain of what was in flight at its end: the
# slowest service time at most (a busy machine drains late)
assert 1 - 1e-3 <= r["seconds"] <= 1 + r["service_lat_ns"]["max"] / 1e9 + 0.01, (r["seconds"], r["service_lat_ns"])
assert r["service_lat_ns"]["p50"] <= r["lat_ns"]["p50"] and r["service_lat_hist"], r
assert abs(r["iops"] - r["ios"] / r["seconds"]) < 0.01, (r["iops"], r["ios"], r["seconds"])'
	# issue 44: --batch, --reap and --sqpoll are not --qd: the depth stays --rate's
	local flag
	for flag in "--batch 1" "--reap syscall" "--sqpoll"; do
		# shellcheck disable=SC2086 # the flag and its value, two words
		check "--rate 2000 $flag: exit 0" 0 --json randread --rate 2000 $flag -t 0.3 -s 16M "$S/data"
		py "... $flag is not --qd: an asynchronous engine keeps --rate's 128 in flight" '
o, e = d["result"]["open_loop"], d["result"]["engine"]
assert e != "sync", "the sync engine keeps 1: no asynchronous engine here"
assert o["in_flight_max"] == 128 and d["params"]["qd"] == 128, (o, d["params"]["qd"], e)'
	done
	check "randread without --rate: closed loop, no open_loop key" 0 --json randread -t 0.3 -s 16M "$S/data"
	py "... closed loop: no open_loop, no service_lat_ns" '
r = d["result"]
assert "open_loop" not in r and "service_lat_ns" not in r, sorted(r)'
	check "text: the open-loop line and both latencies" 0 randread --rate 500 -t 0.3 --qd 4 -s 16M "$S/data"
	py "... text: asked, served, arrivals, cap, response and service lines" '
assert "open loop at 500 IOPS, 4 in flight at most" in out, out
assert "poisson arrivals, at most 4 in flight)" in out and "--rate" not in out.split("open loop:")[1].split(")")[0], out
assert "response time (from when each I/O was due): min" in out and "service time (from its submission): min" in out, out'
}

# the figures of t_mdl: p50 fixed, its service p50, p50 at 500/s, at 800/s, service p50
mdl_holds() {
	awk -v g="$1" 'BEGIN { split(g, v, " "); exit !(v[1] < 1.5 * v[2] && v[3] < 2 * v[5] && v[4] > 1.6 * v[3] && v[4] < 12 * v[3]) }'
}

t_mdl() {
	local got try
	for try in 1 2 3; do
		fake fixed sleep:1000 randread "${ONE[@]}" --rate 500 --arrivals fixed -t 2 "$S/data"
		fake p5 sleep:1000 randread "${ONE[@]}" --rate 500 -t 3 "$S/data"
		fake p8 sleep:1000 randread "${ONE[@]}" --rate 800 -t 3 "$S/data"
		got=$(python3 -c '
import json, sys
f, a, b = (json.load(open(sys.argv[i]))["result"] for i in (1, 2, 3))
print("%.0f %.0f %.0f %.0f %.0f" % (f["lat_ns"]["p50"], f["service_lat_ns"]["p50"], a["lat_ns"]["p50"], b["lat_ns"]["p50"], a["service_lat_ns"]["p50"]))' "$S/fixed.json" "$S/p5.json" "$S/p8.json" 2>&1)
		mdl_holds "$got" && break
		echo "# try $try: $got"
	done
	mdl_holds "$got" &&
		ok "M/D/1 on a 1 ms server: fixed arrivals do not queue, Poisson ones do, the median 1.6-12x longer at 800/s than at 500/s (p50 fixed, its service; p50 500/s, 800/s, service: $got ns)" ||
		not_ok "M/D/1 on a 1 ms server" "p50 fixed, its service p50, p50 500/s, p50 800/s, service p50: $got"
}

t_overload() {
	fake over pace:1000 randread "${ONE[@]}" --rate 2000 -t 1 "$S/data"
	expect "pace:1000 asked 2000: exit 0" "$([ "$rc" = 0 ]; echo $?)" "exit $rc" "$(head -c 400 "$S/over.err")"
	py "... about 1000 served, the rest waited: unserved and late I/Os, response p99 >= 10 x service p99" '
r = d["result"]; o = r["open_loop"]
assert 800 < r["iops"] < 1100, r["iops"]
assert o["unserved_ios"] > 500 and o["late_ios"] > 500 and o["max_lag_ns"] > 2e8, o
assert r["lat_ns"]["p99"] >= 10 * r["service_lat_ns"]["p99"], (r["lat_ns"], r["service_lat_ns"])' "$S/over.json"
	fake closed pace:1000 randread "${ONE[@]}" -t 1 "$S/data"
	py "... a closed loop on it shows none of it: its p99 under a tenth of the open loop's" '
r = d["result"]
o = json.load(open(os.environ["TAP_OUT"].replace("closed", "over")))["result"]
assert r["lat_ns"]["p99"] * 10 < o["lat_ns"]["p99"] and 800 < r["iops"] < 1100, (r["lat_ns"], o["lat_ns"])' "$S/closed.json"
}

# known PCT: the python of whether a step's percentile PCT is known: no more
# of its arrivals never started than the percentile leaves above it (by hand:
# the nearest rank of PCT among served + unserved is a served one's)
KNOWN_PY='
import math
def known(x, pct):
    n = x["ios"] + x["unserved_ios"]
    return x["unserved_ios"] == 0 or math.ceil(pct * n / 100 - 1e-9) <= x["ios"]'

t_sla_fake() {
	# eight threads: the queue builds in the server (eight in flight), as in
	# a device's, where at one in flight every arrival waiting for the
	# thread is one that never started, and a p99 leaves room for 1 % of a
	# step's 150-300 arrivals (issue 39); the confirm run at the edge the
	# search found may miss it: then unconfirmed, exit 6 (issue 39)
	FAKE_CLOCK=real fake sla pace:1000 sla randread "${ONE[@]}" -j 8 --latency 20ms --step-time 0.3
	expect "sla on pace:1000, p99 <= 20 ms: exit 0, or 6 when the confirm run missed (unconfirmed)" \
		"$([ "$rc" = 0 ] || { [ "$rc" = 6 ] && grep -q '"error": "unconfirmed: ' "$S/sla.json"; }; echo $?)" "exit $rc" "$(head -c 400 "$S/sla.err")"
	py "... found 450-1050 IOPS below a ceiling of 900-1100; every step in JSON" "$KNOWN_PY"'
s = d["sla"]
assert 900 < s["ceiling_iops"] < 1100 and 450 <= s["found_iops"] <= 1050, s
assert s["latency_ns"] == 20e6 and s["percentile"] == 99 and s["step_s"] == 0.3, s
st = s["steps"]
assert st[0]["kind"] == "probe" and st[0]["asked_iops"] is None and st[-1]["kind"] == "confirm", st
assert all(x["pass"] == (x["response_ns"]["p99"] <= 20e6 and known(x, 99)) for x in st[1:]), st
assert abs(st[-1]["asked_iops"] - s["found_iops"]) < 0.01, st[-1]
assert s["confirmed"] == st[-1]["pass"], s
assert 3 <= len(st) <= 12 and d.get("error") is None if s["confirmed"] else d["error"].startswith("unconfirmed: "), st' "$S/sla.json"
	grep -q "^sla randread on '[^']*': at most 12 steps x (0.3 s + a 0.075 s warm-up) = 4.5 s$" "$S/sla.err" &&
		! grep -v '^diskbench: warning: ' "$S/sla.err" | grep -q '^diskbench: ' &&
		ok "... the worst case said first, not as an error line" ||
		not_ok "... the worst case said first, not as an error line" "$(head -c 400 "$S/sla.err")"
	fake slamiss pace:1000 sla randread "${ONE[@]}" --latency 10us --step-time 0.2
	expect "sla on pace:1000, p99 <= 10 us: exit 6" "$([ "$rc" = 6 ]; echo $?)" "exit $rc" "$(head -c 400 "$S/slamiss.err")"
	py "... not found, the lowest step failed, the error with its figures" '
s = d["sla"]
assert s["found_iops"] is None and not s["confirmed"], s
assert not any(x["pass"] for x in s["steps"][1:]), s["steps"]
assert abs(s["steps"][-1]["asked_iops"] - s["ceiling_iops"] / 64) < 1, s["steps"][-1]
assert d["error"].startswith("target not met: even "), d["error"]' "$S/slamiss.json"
	FAKE_CLOCK=virtual FAKE_LAT=pace:1000 "$FAKE" sla randread "${ONE[@]}" --latency 20ms --step-time 0.2 >"$S/sla.txt" 2>/dev/null
	py "... text: the probe, each step, the verdict" '
lines = out.splitlines()
assert lines[0].startswith("probe: ") and "closed loop at 1 in flight" in lines[0], lines
assert any(l.startswith("step 1: asked ") for l in lines) and lines[-2].startswith("confirm "), lines
held = "with p99 response time <= 20.0 ms" in lines[-1]
missed = lines[-1].startswith("sla randread: unconfirmed: ") and "p99 response time within 20.0 ms" in lines[-1]
assert lines[-1].startswith("sla randread: ") and (held or missed) and (held == (" pass (" in lines[-2])), lines' "$S/sla.txt"
}

t_stall() {
	FAKE_STALL=1:101:400 fake stall sleep:50 randread "${ONE[@]}" --rate 1000 --arrivals fixed -t 0.3 "$S/data"
	expect "a 400 ms stall at 100 ms of a 0.3 s window: exit 0" "$([ "$rc" = 0 ]; echo $?)" "exit $rc" "$(head -c 400 "$S/stall.err")"
	py "... 101 served, 199 never started, each in the response time: p50 ~50 ms, p99 ~197 ms" '
r = d["result"]; o = r["open_loop"]
assert r["ios"] == 101 and o["unserved_ios"] == 199, (r["ios"], o)
assert 40e6 <= r["lat_ns"]["p50"] <= 60e6 and 180e6 <= r["lat_ns"]["p99"] <= 210e6, r["lat_ns"]
assert o["max_lag_ns"] >= 199e6, o
assert r["lat_ns"]["min"] >= r["service_lat_ns"]["min"], (r["lat_ns"], r["service_lat_ns"])' "$S/stall.json"
	FAKE_STALL=1:101:400 FAKE_LAT=sleep:50 "$FAKE" randread "${ONE[@]}" --rate 1000 --arrivals fixed -t 0.3 "$S/data" >"$S/stall.txt" 2>/dev/null
	py "... text: the response line counts the 300 and says the 199 are in it" '
line = [l for l in out.splitlines() if l.startswith("response time")][0]
assert "the 199 never started counted to the window" in line and line.endswith("300 I/Os)"), line' "$S/stall.txt"
	FAKE_STALL=2:100:1000 fake slastall pace:1000 sla randread "${ONE[@]}" --latency 10s,p50 --step-time 0.2
	expect "sla, p50 <= 10 s, its first step stalled 1 s: exit 0" "$([ "$rc" = 0 ]; echo $?)" "exit $rc" "$(head -c 400 "$S/slastall.err")"
	py "... the stalled step fails, more than half its arrivals never started though p50 <= 10 s; every step judged so" "$KNOWN_PY"'
st = d["sla"]["steps"]
one = st[1]
assert one["kind"] == "step" and not one["pass"] and not one["percentile_known"], one
assert one["unserved_ios"] * 2 > one["ios"] + one["unserved_ios"] and one["response_ns"]["p50"] <= 10e9, one
for x in st[1:]:
    assert x["percentile_known"] == known(x, 50), x
    assert x["pass"] == (x["percentile_known"] and x["response_ns"]["p50"] <= 10e9 and x["ios"] > 0), x' "$S/slastall.json"
}

# sla whose confirm run misses (issue 39, item 8): pace:1000 with a p50
# target of 10 s, which the first step, at the ceiling, meets (its median
# wait is milliseconds, and far fewer than half its arrivals are left at
# its end), so the search ends there and the confirm run is the third timed
# run; its read 10, in its warm-up, stalls 2 s, past its 0.2 s window, so it
# serves nothing in it and misses: the rate is unconfirmed, exit 6, where
# it was printed as found with exit 0 and a warning.
t_sla_unconfirmed() {
	FAKE_STALL=3:10:2000 fake slaunc pace:1000 sla randread "${ONE[@]}" --latency 10s,p50 --step-time 0.2
	expect "sla, its confirm run stalled 2 s: exit 6" "$([ "$rc" = 6 ]; echo $?)" "exit $rc" "$(head -c 400 "$S/slaunc.err")"
	py "... the step passed, the confirm run missed: unconfirmed, the error says so" '
s = d["sla"]; st = s["steps"]
assert [x["kind"] for x in st] == ["probe", "step", "confirm"], [(x["kind"], x["pass"]) for x in st]
assert st[1]["pass"] and not st[2]["pass"] and not s["confirmed"], st
assert s["found_iops"] == min(st[1]["asked_iops"], st[1]["served_iops"]), s
assert d["error"].startswith("unconfirmed: ") and "the confirm run" in d["error"], d["error"]' "$S/slaunc.json"
	FAKE_STALL=3:10:2000 FAKE_LAT=pace:1000 "$FAKE" sla randread "${ONE[@]}" --latency 10s,p50 --step-time 0.2 >"$S/slaunc.txt" 2>"$S/slaunc.err"
	py "... text: the verdict line says unconfirmed; no line claims the rate" '
last = out.splitlines()[-1]
assert last.startswith("sla randread: unconfirmed: "), last
assert "IOPS with p50 response time <=" not in out, out' "$S/slaunc.txt"
}

t_throttled() {
	local why="" blkio=/sys/fs/cgroup/blkio majmin
	[ "$(id -u)" = 0 ] || why="not root"
	[ -n "$why" ] || [ -e "$blkio/blkio.throttle.read_iops_device" ] || why="no cgroup v1 blkio throttle"
	if [ -z "$why" ]; then
		IMG="$S/loop.img"
		[ -d /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR == 2 {print $4}')" -gt 65536 ] &&
			IMG=$(mktemp -p /dev/shm diskbench-openloop.XXXXXX)
		head -c 32M /dev/urandom >"$IMG"
		LOOP=$(losetup -f --show "$IMG" 2>/dev/null) || { LOOP=""; why="losetup failed"; }
	fi
	if [ -z "$why" ]; then
		CG="$blkio/diskbench-openloop-$$"
		mkdir "$CG" 2>/dev/null || { CG=""; why="cannot make a blkio cgroup"; }
	fi
	if [ -n "$why" ]; then
		skip "open loop under a blkio throttle" "$why"
		return
	fi
	majmin=$(lsblk -dno MAJ:MIN "$LOOP" | tr -d ' ')
	echo "$majmin 400" >"$CG/blkio.throttle.read_iops_device"
	inside() { sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" timeout 120 "$DB" --json "$@"; }
	inside randread --rate 200 --arrivals fixed -t 2 -s 16M "$LOOP" >"$S/half.json" 2>"$S/err"
	# what the loop's own start lag (the machine's wake-ups) leaves unserved
	# is the code's to count; the response times are the device's only when
	# the machine woke the loop on time, which a busy one does not
	py "throttled to 400 IOPS, --rate 200: served within 2 %, none unserved but what the loop's own lag left" '
r = d["result"]; o = r["open_loop"]
lag = o["max_lag_ns"] / 1e9
assert abs(r["iops"] - 200) <= 4 + 200 * lag and o["unserved_ios"] <= 200 * lag + 1, (r["iops"], o)' "$S/half.json"
	lag_ms=$(python3 -c 'import json, sys; print("%.1f" % (json.load(open(sys.argv[1]))["result"]["open_loop"]["max_lag_ns"] / 1e6))' "$S/half.json" 2>/dev/null)
	if awk -v l="${lag_ms:-999}" 'BEGIN { exit !(l <= 5) }'; then
		py "... nothing queues: response p50 near the service p50, p99 within 5 ms of the service p99 (start lag $lag_ms ms)" '
r = d["result"]
assert r["lat_ns"]["p50"] <= 1.5 * r["service_lat_ns"]["p50"] + 1e5, (r["lat_ns"], r["service_lat_ns"])
assert r["lat_ns"]["p99"] <= r["service_lat_ns"]["p99"] + 5e6, (r["lat_ns"], r["service_lat_ns"])' "$S/half.json"
	else
		skip "... nothing queues: response near service" \
			"the loop itself started I/Os up to ${lag_ms:-?} ms late (this machine's load): its response times measure the scheduler"
	fi
	# 4 in flight: with 128 the throttle's own queue holds the wait, inside
	# the service time, as a deep device queue would
	inside randread --rate 800 --qd 4 -t 3 -s 16M "$LOOP" >"$S/double.json" 2>"$S/err"
	py "... --rate 800 at 4 in flight: about 400 served, late I/Os, response p99 >= 10 x service p99" '
r = d["result"]; o = r["open_loop"]
assert 340 <= r["iops"] <= 460 and o["late_ios"] > 0 and o["unserved_ios"] > 0, (r["iops"], o)
assert r["lat_ns"]["p99"] >= 10 * r["service_lat_ns"]["p99"], (r["lat_ns"], r["service_lat_ns"])' "$S/double.json"
	inside sla randread --latency 100ms --step-time 1 -s 16M "$LOOP" >"$S/slathr.json" 2>"$S/err"
	# a step below 0.7 x the throttle fails only when the machine starts its
	# I/Os late (the device keeps up there): then the search measured the
	# scheduler, and the case says so instead
	local late
	late=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["sla"]
for x in s["steps"][1:]:
    if x["asked_iops"] <= 280 and not x["pass"] and x["max_lag_ns"] > 20e6:
        print("a step of %.0f IOPS (the throttle 400) started I/Os up to %.0f ms late: this machine, not the device" % (x["asked_iops"], x["max_lag_ns"] / 1e6))
        break' "$S/slathr.json" 2>/dev/null)
	if [ -n "$late" ]; then
		skip "... sla, p99 <= 100 ms: found 0.7-1.1 x 400" "$late"
	else
		py "... sla, p99 <= 100 ms: found 0.7-1.1 x 400" '
s = d["sla"]
assert 280 <= s["found_iops"] <= 440, [(x["kind"], x["asked_iops"], x["served_iops"], x["response_ns"]["p99"], x["max_lag_ns"]) for x in s["steps"]]' "$S/slathr.json"
	fi
	echo "$majmin 0" >"$CG/blkio.throttle.read_iops_device"
}

t_curve() {
	fake curve pace:1000 sweep --engine=sync --no-drop-caches --run oltp --levels 1,2 --point-time 0.3 --curve 50,90 "$S/data"
	expect "sweep --curve 50,90 on pace:1000: exit 0" "$([ "$rc" = 0 ]; echo $?)" "exit $rc" "$(head -c 400 "$S/curve.err")"
	py "... the max near the fake's 1000, each point asked its % of it and served about that" '
c = d["result"]["curve"]
assert 900 < c["max_iops"] < 1100 and c["outstanding"] in (1, 2), c
assert [p["pct"] for p in c["points"]] == [50, 90], c["points"]
for p in c["points"]:
    assert abs(p["rate_asked"] - c["max_iops"] * p["pct"] / 100) < 0.01, p
    # Poisson arrivals: over a 0.3 s point the count due has a standard
    # deviation of its square root (12 of 150 at 500/s: a 15 % bound failed
    # once in CI at +2 sd); 4 sd of it, and 2 I/Os of edge
    due = p["rate_asked"] * p["seconds"]
    assert abs(p["rate_served"] - p["rate_asked"]) * p["seconds"] <= 4 * due ** 0.5 + 2, p
    assert p["service_lat_ns"]["p50"] <= p["lat_ns"]["p50"], p' "$S/curve.json"
	check "sweep --curve 0: exit 2" 2 sweep --curve 0 "$S/data"
	check "sweep --curve 50,10: exit 2" 2 sweep --curve 50,10 "$S/data"
	check "sweep --curve 101: exit 2" 2 sweep --curve 101 "$S/data"
	check "sweep --run dss --curve 50: exit 2" 2 sweep --run dss --curve 50 "$S/data"
	grep -q "which --run=dss does not measure" "$S/err" && ok "... saying why" || not_ok "... saying why" "$(cat "$S/err")"
	check "sweep without --curve: curve null" 0 --json sweep --run oltp --levels 1 --point-time 0.2 -s 4M "$S/data"
	py "... no curve key filled" 'assert d["result"]["curve"] is None, d["result"]["curve"]'
}

# issue 44: the sync engine (chosen, or auto's fallback where a seccomp
# profile refuses io_uring and aio: tests/cli/noasync.py) keeps one request
# in flight; --rate's and sla's default depth is clamped to it and said so,
# where it failed the run; a depth asked with --qd still fails.
t_sync_engine() {
	local NA=(python3 "$(dirname "$0")/noasync.py" "$DB")
	"${NA[@]}" --json randread --rate 500 -t 0.3 -s 16M "$S/data" >"$S/out" 2>"$S/err"
	rc=$?
	if [ "$rc" = 77 ]; then
		skip "auto's fallback to sync under a seccomp filter" "$(cat "$S/err")"
	else
		expect "auto falls back to sync, --rate 500: exit 0" "$([ "$rc" = 0 ]; echo $?)" "exit $rc" "$(head -c 400 "$S/err")"
		py "... clamped to one in flight, said in a warning and the JSON" '
r, o = d["result"], d["result"]["open_loop"]
assert r["engine"] == "sync" and d["params"]["qd"] == 1 and o["in_flight_max"] == 1 and r["in_flight"] == 1, (r["engine"], d["params"]["qd"], o, r["in_flight"])
assert any("keeps 1 request in flight per thread" in w and "the open loop" in w for w in d["warnings"]), d["warnings"]'
		"${NA[@]}" --json sla randread --latency 100ms --step-time 0.2 -s 16M "$S/data" >"$S/out" 2>"$S/err"
		rc=$?
		expect "... sla: exit 0 or 6, not 1" "$([ "$rc" = 0 ] || [ "$rc" = 6 ]; echo $?)" "exit $rc" "$(head -c 400 "$S/err")"
		py "... sla clamped to one in flight, said, and its params say so" '
assert d["sla"]["in_flight_max"] == 1 and d["sla"]["steps"][0]["served_iops"] > 0, d["sla"]
assert d["params"]["qd"] == 1 and d["params"]["engine"] == "sync", d["params"]
assert sum("keeps 1 request in flight per thread" in w for w in d["warnings"]) == 1, d["warnings"]'
		"${NA[@]}" randread --rate 500 --qd 4 -t 0.3 -s 16M "$S/data" >"$S/out" 2>"$S/err"
		rc=$?
		expect "... --qd 4 asked, the engine keeps 1: exit 1" "$([ "$rc" = 1 ]; echo $?)" "exit $rc" "$(head -c 400 "$S/err")"
		grep -q "4 requests in flight per thread need an asynchronous engine" "$S/err" &&
			ok "... saying why" || not_ok "... saying why" "$(cat "$S/err")"
	fi
	check "--engine=sync --rate 500: exit 0" 0 --json randread --engine=sync --rate 500 -t 0.3 -s 16M "$S/data"
	py "... one in flight, said" '
assert d["result"]["open_loop"]["in_flight_max"] == 1 and d["params"]["qd"] == 1, d["result"]["open_loop"]
assert any("keeps 1 request in flight per thread" in w for w in d["warnings"]), d["warnings"]'
	check "--rate 500 on an asynchronous engine: exit 0" 0 --json randread --rate 500 -t 0.3 -s 16M "$S/data"
	py "... no such warning (negative case)" '
assert d["result"]["engine"] == "sync" or not any("request in flight per thread" in w for w in d["warnings"]), d["warnings"]'
}

t_bad_input
t_sync_engine
t_schedule
t_curve
t_mdl
t_overload
t_stall
t_sla_unconfirmed
t_sla_fake
t_throttled
tap_done
