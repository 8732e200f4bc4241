#!/usr/bin/env bash
# How requests are submitted when nobody said (issue 40), counted with strace:
#
#   bash tests/cli/policy.sh ./diskbench          (part of `make cli`)
#
# A "submit-only" call is an io_uring_enter that hands requests to the kernel
# without waiting (to_submit >= 1, no GETEVENTS): the way a request goes in a
# call of its own.  The truth is strace's, not the output under test.
# - --batch 1 (forced one request per call, as fio): one submit-only call of
#   one request per request, the warm-up's included (ios + 1 on a one-pass
#   run of 2048 reads at 8 in flight); JSON submit_policy null (not chosen).
# - --reap=ring (forced batched, the old default): no submit-only call at
#   all, every submission rides on the enter that waits; submit_policy null.
# - The default at 8 in flight, time-based so that its 200 ms probe ends: the
#   JSON says what it chose and strace agrees: the probe tried both (submit-only
#   calls of one request, and enters that submit and wait); at the end (the
#   last 40 calls), one_by_one: submit-only calls of one request each and no
#   enter that both submits and waits; batched: no submit-only call.
# - Where the run does not choose: one request in flight, the aio engine
#   (submit_policy null; no submit-only call at depth 1).
# - The text line says the choice where it was measured ("submitted one by
#   one (1.31x the batch's rate in its probe)" or "submitted in batches (one
#   by one 0.92x in its probe)").
# strace is needed for its cases (skipped, saying why, where missing); every
# run is under a second on an 8 MiB file in a scratch directory under
# /var/tmp, removed on exit.
set -u

if [ $# -lt 1 ]; then
	echo "usage: bash tests/cli/policy.sh PATH/TO/diskbench" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-policy.XXXXXX) || exit 2
trap 'rm -rf -- "$S"' EXIT
trap 'rm -rf -- "$S"; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=policy

F=$S/data
head -c $((8 << 20)) /dev/urandom >"$F"

uring_runs() { "$DB" randread --engine=uring -s 1M -t 0 "$F" >/dev/null 2>&1; }

can_trace=""
if ! command -v strace >/dev/null; then
	can_trace="no strace (apt-get install strace)"
elif ! strace -qq -o /dev/null true 2>/dev/null; then
	can_trace="strace cannot trace here (ptrace refused: a container's seccomp or Yama)"
elif ! uring_runs; then
	can_trace="io_uring does not run here"
fi

# traced_case NAME CHECK ARGS...: ARGS run under strace (io_uring_enter
# only, its trace in $S/strace, the JSON in $S/out), then CHECK (python, with
# calls: every io_uring_enter as (to_submit, min_complete, getevents)).
traced_case() {
	local name=$1 code=$2; shift 2
	if [ -n "$can_trace" ]; then
		skip "$name" "$can_trace"
		return
	fi
	if ! traced -f -qq -o "$S/strace" -e trace=io_uring_enter "$DB" "$@" --json "$F" \
		>"$S/out" 2>"$S/err"; then
		not_ok "$name" "diskbench failed under strace" "$(head -c 300 "$S/err")"
		return
	fi
	py "$name" "
import re
calls = []
for l in open('$S/strace').read().splitlines():
    m = re.search(r'io_uring_enter\(\d+, (\d+), (\d+), ([^,]*),', l)
    if m:
        calls.append((int(m.group(1)), int(m.group(2)), 'GETEVENTS' in m.group(3)))
submit_only = [c for c in calls if c[0] >= 1 and not c[2]]
r = d['result']
pol = r['submit_policy']
$code
"
}

traced_case "--batch 1: one submit-only call of one request per request, warm-up's included (strace)" "
assert pol is None, pol
assert r['ios'] == 2048, r['ios']
assert len(submit_only) == r['ios'] + 1, (len(submit_only), r['ios'])
assert all(c[0] == 1 for c in submit_only), [c for c in submit_only if c[0] != 1][:5]
" randread --engine=uring --batch 1 --qd 8 -s 8M --once --warmup 1

traced_case "--reap=ring (batched, forced): no submit-only call, every submission rides on a wait (strace)" "
assert pol is None, pol
assert r['ios'] == 2048, r['ios']
assert submit_only == [], submit_only[:5]
assert any(c[0] > 1 for c in calls) or r['requests_per_submit'] <= 1.05, r['requests_per_submit']
" randread --engine=uring --reap=ring --qd 8 -s 8M --once --warmup 1

traced_case "default at 8 in flight: the choice in the JSON is the one strace saw" "
assert pol is not None and pol['threads'] == 1, pol
assert pol['measured'] == 1, pol  # 1 s: the 200 ms probe ends
gain = pol['gain']['max']
assert len(submit_only) >= 8 and all(c[0] == 1 for c in submit_only), submit_only[:5]
assert any(c[0] > 1 and c[2] for c in calls), 'the probe never submitted a batch with its wait'
end = calls[-40:]
if pol['chosen'] == 'one_by_one':
    assert pol['one_by_one'] == 1 and gain >= 1.03, pol
    assert any(c[0] == 1 and not c[2] for c in end), end
    assert [c for c in end if c[0] >= 1 and c[2]] == [], end
else:
    assert pol['chosen'] == 'batched' and pol['one_by_one'] == 0 and gain < 1.03, pol
    assert [c for c in end if c[0] >= 1 and not c[2]] == [], end
" randread --engine=uring --qd 8 -s 8M -t 1

traced_case "default at one in flight: no choice (null), no submit-only call (strace)" "
assert pol is None, pol
assert submit_only == [], submit_only[:5]
" randread --engine=uring -s 8M -t 0.2

# the aio engine: every submit is a system call already, nothing to choose
check "aio at 8 in flight: a run" 0 randread --engine=aio --qd 8 -s 8M -t 0.2 --json "$F"
if [ "$rc" = 0 ]; then
	py "aio at 8 in flight: no choice (submit_policy null)" "
assert d['result']['submit_policy'] is None, d['result']['submit_policy']
"
fi

# the text line: the choice and what it was made from, once measured
if uring_runs; then
	check "default at 8 in flight, text: a run" 0 randread --engine=uring --qd 8 -s 8M -t 0.6 "$F"
	py "default at 8 in flight, text: the bracket says how it submitted and why" "
import re
line = out.splitlines()[0]
m = re.search(r', submitted (one by one \([0-9.]+x the batch.s rate|in batches \(one by one [0-9.]+x) in its probe\)', line)
assert m, line
"
else
	skip "default at 8 in flight, text: the bracket says how it submitted and why" "io_uring does not run here"
fi

tap_done
