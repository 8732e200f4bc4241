#!/usr/bin/env bash
# Trims whose figures or messages misled (issue 39), end to end:
#
#   bash tests/cli/trims.sh ./diskbench build/tests/diskbench-fake   (part of `make cli`)
#
# - A trim the kernel refuses fails the run with a message about the
#   discard, never the O_DIRECT alignment of a read or a write: the fake
#   build's FAKE_DISCARD=22 makes each synchronous discard (sync, aio)
#   fail with EINVAL, with and without O_DIRECT; a read the kernel refuses
#   keeps its own message (not faked here: the golden cases hold it).
# - trim and randtrim make one pass by default, whatever -t (a second pass
#   would trim blocks the first one freed: 129 GB/s at randtrim's -t 5):
#   ended "one pass", region/bs I/Os, the bytes of the region, a warning
#   saying why the run ended before -t; on a loop device over /dev/shm the
#   device's discarded sectors (field 14 of /sys/block/loopN/stat) are the
#   region's, once (root; skipped otherwise).  Negative: a mix that writes
#   as it trims still goes round for -t, and --once runs warn of nothing.
# Every run is a fraction of a second over at most 8 MiB in a scratch
# directory under /var/tmp and /dev/shm, removed on exit with the loop device.
set -u

if [ $# -lt 2 ]; then
	echo "usage: bash tests/cli/trims.sh PATH/TO/diskbench PATH/TO/diskbench-fake" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
FAKE=$(realpath -- "$2") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-trims.XXXXXX) || exit 2
LOOP="" SHM_IMG=""
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	[ -n "$SHM_IMG" ] && rm -f -- "$SHM_IMG"
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=trims

# ---- a refused trim's message -------------------------------------------------
# refused NAME ARGS...: the fake's discards fail with EINVAL; exit 1, the
# message names the trim and the discard, not alignment nor O_DIRECT
refused() {
	local name=$1
	shift
	DB=$FAKE FAKE_DISCARD=22 tap_run 1 "$@"
	local line
	line=$(grep '^diskbench: ' "$S/err" | grep -v 'warning' | head -1)
	if [ "$rc" = 1 ] && [[ $line == "diskbench: trim '"*"' at offset "*": the kernel refused the discard: Invalid argument" ]] &&
		! grep -qiE 'align|O_DIRECT' <<<"$line"; then
		ok "$name"
	else
		not_ok "$name" "exit $rc (wanted 1)" "$line"
	fi
}
export FAKE_DISCARD
refused "a refused trim (sync, O_DIRECT) names the discard, not alignment" \
	trim --engine=sync -s 1M -t 0.3 "$S"
refused "a refused trim (aio, depth 4, O_DIRECT) names the discard, not alignment" \
	randtrim --engine=aio --qd 4 -s 1M -t 0.3 "$S"
refused "a refused trim in a mix (sync) names the discard" \
	randrw --mix r50,t50 --engine=sync -s 1M -t 0.3 "$S"
refused "a refused trim without O_DIRECT names the discard" \
	trim --engine=sync --no-direct -s 1M -t 0.3 "$S"
# the same runs without the fake's refusal end well (the message above is
# the refusal's, not the command's)
check "the same trim run, nothing refused, ends well" 0 trim --engine=sync -s 1M -t 0.3 "$S"

# ---- trims make one pass by default ----------------------------------------------
# one_pass NAME SIZE IOS ARGS...: a trim run on the scratch directory whose
# JSON says one pass of IOS I/Os over the region of SIZE MiB, and why it
# ended before -t (the -t of these runs is 5 s or 3 s: far more than one
# pass of a few hundred I/Os takes, even on a loaded machine)
one_pass() {
	local name=$1 mib=$2 ios=$3
	shift 3
	if ! run 0 --json "$@" -s "${mib}M" "$S"; then
		not_ok "$name" "exit $rc" "$(head -c 400 "$S/err")"
		return
	fi
	py "$name" "
r = d['result']
assert r['ended'] == 'one pass', (r['ended'], r['passes'])
assert r['ios'] == $ios and r['bytes'] == $mib << 20, (r['ios'], r['bytes'])
assert r['passes'] <= 1.0 and not r['wrapped'], (r['passes'], r['wrapped'])
w = [x for x in d['warnings'] if 'a second pass would trim blocks the first one freed' in x]
assert len(w) == 1, d['warnings']"
}
one_pass "trim at its default -t makes one pass over the region" 4 4 trim
one_pass "randtrim at its default -t makes one pass: region/bs random trims" 1 256 randtrim
one_pass "randtrim -t 3 makes one pass too" 1 256 randtrim -t 3
one_pass "a mix of reads and trims (no writes) makes one pass" 1 256 randrw --mix r50,t50 -t 3

if run 0 --json randrw --mix w50,t50 --sync=none -t 0.3 -s 1M "$S"; then
	py "a mix that writes as it trims still goes round for -t, and no one-pass warning" "
r = d['result']
assert r['ended'] == 'time' and r['wrapped'] and r['passes'] > 1, (r['ended'], r['passes'])
assert not [x for x in d['warnings'] if 'second pass' in x], d['warnings']"
else
	not_ok "a mix that writes as it trims still goes round" "exit $rc" "$(head -c 400 "$S/err")"
fi
if run 0 --json randtrim --once -s 1M "$S"; then
	py "randtrim --once: one pass, said as --once, no warning" "
r = d['result']
assert r['ended'] == 'one pass' and r['ios'] == 256, (r['ended'], r['ios'])
assert not [x for x in d['warnings'] if 'second pass' in x], d['warnings']"
else
	not_ok "randtrim --once" "exit $rc" "$(head -c 400 "$S/err")"
fi

# ---- the device's own counters: what one pass discarded ----------------------
# discarded NAME SECTORS ARGS...: a run on the loop device whose discarded
# sectors, by the device's counter, are SECTORS: the region once, and the
# one untimed warm-up trim of one block (--warmup 1) before it
# exclusive: waits (5 s at most) until the loop device opens with O_EXCL: an
# io_uring run's ring lets go of its file only after the process has gone,
# and a write run started at once is refused as in use (exit 3)
exclusive() {
	python3 -c "
import os, sys, time
for _ in range(500):
    try:
        os.close(os.open(sys.argv[1], os.O_RDWR | os.O_EXCL)); break
    except OSError:
        time.sleep(0.01)" "$LOOP"
}
discarded() {
	local name=$1 want=$2 s0
	shift 2
	exclusive
	s0=$(loop_stat 14)
	if ! run 0 --json "$@" --force "$LOOP"; then
		not_ok "$name" "exit $rc" "$(head -c 400 "$S/err")"
		return
	fi
	local got=$(($(loop_stat 14) - s0))
	if [ "$got" = "$want" ]; then
		ok "$name ($got sectors)"
	else
		not_ok "$name" "the device discarded $got sectors, wanted $want (one pass)"
	fi
}
if shm_loop trims 8M; then
	discarded "loop: trim at its default -t discards the 8 MiB region once (16384 sectors, 2048 warm-up)" \
		$((16384 + 2048)) trim -b 1M -s 8M
	discarded "loop: randtrim -t 3 discards 2048 random blocks of 4 KiB (16384 sectors, 8 warm-up)" \
		$((16384 + 8)) randtrim -s 8M -t 3
else
	skip "loop: one pass of trims by the device's counters" "needs root and a loop device"
	skip "loop: randtrim's one pass by the device's counters" "needs root and a loop device"
fi

tap_done
