#!/usr/bin/env bash
# How completions are taken, and what io_uring registered (issue 32), end to end:
#
#   bash tests/cli/reap.sh ./diskbench          (part of `make cli`)
#
# - --reap=syscall makes one reap system call per completion: strace counts
#   the io_getevents calls (aio) and the io_uring_enter calls with GETEVENTS
#   (io_uring) of a one-pass run of 2048 reads at 8 in flight; the kernel's
#   count is the JSON's ios plus the one warm-up read (the truth is strace's,
#   not the output under test).  The JSON's own count, result.reap.calls, is
#   strace's less that warm-up read.
# - Negative: the default (--reap=ring) makes fewer such calls than
#   completions at 8 in flight, and its JSON count is strace's less the
#   warm-up's; the sync engine has no reap call at all (mode inline, calls
#   null).
# - Registration: as root, io_uring registers the buffers and the file (no
#   reason given); as nobody under a 16 KiB RLIMIT_MEMLOCK the buffers (1 MiB
#   here) are refused, the run still completes, and both JSON and the text
#   line say why (RLIMIT_MEMLOCK).  nobody runs a copy of the binary in the
#   scratch directory: the checkout may sit under a directory it cannot
#   enter (a clone in /root, 0700).
# - --engine=nop (io_uring NOPs, diskbench's own ceiling): on a read-only
#   loop device over the file, the device's own read counter moves by at
#   most the few reads diskbench makes to see what the device holds, never
#   by the run's thousands of requests (on io_uring by 90 % of them or more:
#   a few merge), the run warns that no
#   data moved and no device finding is made.  (Which of the two goes
#   faster is the scheduler's business on a loaded machine: not held.)
# - --sqpoll: under strace no io_uring_enter carries a submission (to_submit
#   0 in every call; without --sqpoll at least 100 do), and every read is
#   done.  --poll on a loop device (its queue/io_poll, read by the test, is
#   0) is refused before any I/O, exit 2, saying why; --poll or --sqpoll with
#   aio or sync, --poll with --no-direct, --rate or trims: usage errors.
# - Bad input: --reap bogus is a usage error (exit 2) saying the choices.
# strace, setpriv and prlimit are needed for their cases (skipped, saying
# why, where missing); every run is under a second on an 8 MiB file in a
# scratch directory under /var/tmp, removed on exit.
set -u

if [ $# -lt 1 ]; then
	echo "usage: bash tests/cli/reap.sh PATH/TO/diskbench" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-reap.XXXXXX) || exit 2
trap 'rm -rf -- "$S"' EXIT
trap 'rm -rf -- "$S"; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=reap

F=$S/data
head -c $((8 << 20)) /dev/urandom >"$F"
chmod 755 "$S" && chmod 644 "$F"
# the binary as another user can run it, wherever the checkout lives
mkdir "$S/bin" && cp -- "$DB" "$S/bin/diskbench" && chmod 755 "$S/bin" "$S/bin/diskbench"

engine_runs() { "$DB" randread --engine="$1" -s 1M -t 0 "$F" >/dev/null 2>&1; }

# strace_case NAME ENGINE MODE: a one-pass run of 2048 reads at 8 in flight
# under strace; the kernel's count of reap calls against the JSON.
strace_case() {
	local name=$1 engine=$2 mode=$3
	if ! command -v strace >/dev/null; then
		skip "$name" "no strace (apt-get install strace)"
		return
	fi
	if ! strace -qq -o /dev/null true 2>/dev/null; then
		skip "$name" "strace cannot trace here (ptrace refused: a container's seccomp or Yama)"
		return
	fi
	if ! engine_runs "$engine"; then
		skip "$name" "the $engine engine does not run here"
		return
	fi
	if ! traced -f -qq -o "$S/strace" -e trace=io_getevents,io_uring_enter \
		"$DB" randread --engine="$engine" --reap="$mode" --qd 8 -s 8M --once --warmup 1 --json "$F" \
		>"$S/out" 2>"$S/err"; then
		not_ok "$name" "diskbench failed under strace" "$(head -c 300 "$S/err")"
		return
	fi
	py "$name" "
trace = open('$S/strace').read().splitlines()
if '$engine' == 'aio':
    calls = sum(1 for l in trace if 'io_getevents(' in l and 'resumed' not in l)
else:
    calls = sum(1 for l in trace if 'io_uring_enter(' in l and 'GETEVENTS' in l)
r = d['result']
ios = r['ios']
warm = 1  # --warmup 1: one read before the timing, reaped alone
assert ios == 2048 and r['reap']['mode'] == '$mode', (ios, r['reap'])
assert r['reap']['calls'] == calls - warm, (r['reap'], calls, warm)
if '$mode' == 'syscall':
    assert calls == ios + warm, (calls, ios, warm)
    assert r['reap']['completions_per_call'] == 1.0, r['reap']
else:
    assert calls - warm < ios, (calls, ios)
"
}

strace_case "aio --reap=syscall: one io_getevents per completion (strace)" aio syscall
strace_case "io_uring --reap=syscall: one io_uring_enter(GETEVENTS) per completion (strace)" uring syscall
strace_case "aio default (ring): fewer io_getevents than completions, the JSON's count is strace's" aio ring
strace_case "io_uring default (ring): fewer GETEVENTS enters than completions, the JSON's count is strace's" uring ring

check "sync engine: a run" 0 randread --engine=sync -s 1M -t 0 --json "$F"
py "sync engine: no reap call (mode inline, calls null, nothing registered)" "
r = d['result']
assert r['reap'] == {'mode': 'inline', 'calls': None, 'completions_per_call': None}, r['reap']
assert r['registered'] == {'buffers': None, 'file': None, 'why': None}, r['registered']
"

# ---- registration --------------------------------------------------------------
if engine_runs uring; then
	check "io_uring as $(id -un): a run" 0 randread --engine=uring --qd 4 -b 256k -s 8M -t 0 --json "$F"
	if [ "$(id -u)" = 0 ]; then
		py "io_uring as root: buffers and file registered, no reason" "
r = d['result']['registered']
assert r == {'buffers': True, 'file': True, 'why': None}, r
"
	else
		skip "io_uring as root: buffers and file registered, no reason" "not root"
	fi
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && command -v prlimit >/dev/null; then
		low() { setpriv --reuid=65534 --regid=65534 --clear-groups prlimit --memlock=16384:16384 \
			"$S/bin/diskbench" "$@"; }
		if low randread --engine=uring --qd 4 -b 256k -s 8M -t 0 --json "$F" >"$S/out" 2>"$S/err"; then
			py "io_uring under a 16 KiB RLIMIT_MEMLOCK: buffers refused, the run done, JSON says why" "
r = d['result']
g = r['registered']
assert g['buffers'] is False and 'RLIMIT_MEMLOCK' in g['why'], g
assert g['why'].startswith('registered buffers refused: '), g
assert r['ios'] == 32, r['ios']  # 8 MiB in 256 KiB reads, once
"
			low randread --engine=uring --qd 4 -b 256k -s 8M -t 0 "$F" >"$S/out" 2>"$S/err"
			py "io_uring under a 16 KiB RLIMIT_MEMLOCK: the result line says why" "
line = out.splitlines()[0]
assert 'registered buffers refused: ' in line and 'RLIMIT_MEMLOCK' in line, line
"
		elif grep -q "io_uring unavailable" "$S/err"; then
			skip "io_uring under a 16 KiB RLIMIT_MEMLOCK: buffers refused, the run done, JSON says why" \
				"this kernel counts the ring itself against RLIMIT_MEMLOCK: $(head -c 200 "$S/err")"
			skip "io_uring under a 16 KiB RLIMIT_MEMLOCK: the result line says why" "as above"
		else
			not_ok "io_uring under a 16 KiB RLIMIT_MEMLOCK: buffers refused, the run done, JSON says why" \
				"$(head -c 300 "$S/err")"
		fi
	else
		skip "io_uring under a 16 KiB RLIMIT_MEMLOCK: buffers refused, the run done, JSON says why" \
			"needs root, setpriv and prlimit"
	fi
else
	skip "io_uring: registration cases" "io_uring does not run here"
fi

# ---- --engine=nop: the tool's own ceiling ----------------------------------------
# NOPs reach no disk: the loop device's own read counter (field 1 of
# /sys/block/loopN/stat) does not move, where the same run on io_uring moves it.
reads_of() { awk '{print $1}' "/sys/block/$(basename "$1")/stat"; }
if [ ! -d /sys/block ]; then
	skip "--engine=nop on a loop device: none of its requests reach it" \
		"no /sys here (a chroot): the device's counters cannot be read"
elif engine_runs uring && [ "$(id -u)" = 0 ] && command -v losetup >/dev/null &&
	LOOP=$(losetup -r -f --show "$F" 2>/dev/null); then
	trap 'losetup -d "$LOOP" 2>/dev/null; rm -rf -- "$S"' EXIT
	# udev's probe of the new device reads it too: let it finish first
	command -v udevadm >/dev/null && udevadm settle --timeout=10 2>/dev/null
	before=$(reads_of "$LOOP")
	if run 0 randread --engine=nop --qd 8 -t 0.3 --json "$LOOP"; then
		after=$(reads_of "$LOOP")
		py "--engine=nop on a loop device: none of its requests reach it (its stat: $before -> $after), the run says why" "
r = d['result']
# diskbench's own look at the device before the run (what it holds) is
# a read or two; none of the run's requests
assert $after - $before <= 4, ($before, $after)
assert r['ios'] > 1000 and r['engine'] == 'nop', (r['ios'], r['engine'])
assert 'moves no data' in err and 'its ceiling' in err, err
assert not any(f['key'] == 'device_saw_less' for f in d['findings']), d['findings']
assert r['registered'] == {'buffers': None, 'file': None, 'why': None}, r['registered']
"
		before=$(reads_of "$LOOP")
		run 0 randread --engine=uring --qd 8 -t 0.3 --json "$LOOP"
		after=$(reads_of "$LOOP")
		py "the same on io_uring: reads reach the device (its stat: $before -> $after)" "
r = d['result']
assert $after - $before >= 0.9 * r['ios'] > 0, ($before, $after, r['ios'])  # a few merge
assert r['engine'] == 'uring', r['engine']
"
	else
		not_ok "--engine=nop on a loop device: no read reaches it, the run says why" "exit $rc" "$(head -c 300 "$S/err")"
	fi
	losetup -d "$LOOP"
	trap 'rm -rf -- "$S"' EXIT
else
	skip "--engine=nop on a loop device: no read reaches it" "needs root, a loop device and io_uring"
fi

# ---- --sqpoll and --poll -----------------------------------------------------------
# --sqpoll: a kernel thread takes the submissions, so no io_uring_enter
# carries any (its second argument, to_submit, is 0 in every call strace
# sees); without it, the calls that submit are many.
submitting_enters() { grep -c 'io_uring_enter([0-9]*, [1-9]' "$1"; }
if command -v strace >/dev/null && strace -qq -o /dev/null true 2>/dev/null && engine_runs uring; then
	traced -f -qq -o "$S/strace.sq" -e trace=io_uring_enter "$DB" randread --engine=uring --sqpoll \
		--qd 8 -s 8M --once --json "$F" >"$S/out" 2>"$S/err"
	rc=$?
	if [ $rc != 0 ] && grep -q "io_uring refused SQPOLL" "$S/err"; then
		skip "--sqpoll: no io_uring_enter submits (strace)" "$(head -c 200 "$S/err")"
	else
		traced -f -qq -o "$S/strace.def" -e trace=io_uring_enter "$DB" randread --engine=uring \
			--qd 8 -s 8M --once "$F" >/dev/null 2>&1
		sq=$(submitting_enters "$S/strace.sq") def=$(submitting_enters "$S/strace.def")
		py "--sqpoll: no io_uring_enter submits ($sq calls did; $def without --sqpoll), every read done" "
assert $rc == 0, err
assert $sq == 0 and $def >= 100, ($sq, $def)
assert d['result']['ios'] == 2048 and d['params']['sqpoll'] is True, d['result']['ios']
"
	fi
else
	skip "--sqpoll: no io_uring_enter submits (strace)" "needs strace that can trace and io_uring"
fi

# --poll: where the device has no poll queues (a loop device's queue/io_poll,
# read here, is 0), refused before any I/O, saying why; where there is no
# sysfs to tell (a chroot), refused as unknown; and its other limits.
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && LOOP=$(losetup -r -f --show "$F" 2>/dev/null); then
	trap 'losetup -d "$LOOP" 2>/dev/null; rm -rf -- "$S"' EXIT
	io_poll=$(cat "/sys/block/$(basename "$LOOP")/queue/io_poll" 2>/dev/null || echo "?")
	if [ ! -d /sys/block ]; then
		if run 2 randread --poll --qd 4 -t 0.2 "$LOOP" &&
			grep -q "^diskbench: --poll: cannot tell whether '$LOOP' has poll queues" "$S/err"; then
			ok "--poll on a loop device without /sys: refused as unknown, exit 2"
		else
			not_ok "--poll on a loop device without /sys: refused as unknown, exit 2" "exit $rc" "$(head -c 300 "$S/err")"
		fi
	elif [ "$io_poll" = 0 ] && run 2 randread --poll --qd 4 -t 0.2 "$LOOP" &&
		grep -q "^diskbench: --poll: '$LOOP' ($(basename "$LOOP")) has no poll queues (its queue/io_poll is 0)" "$S/err"; then
		ok "--poll on a loop device (queue/io_poll $io_poll): refused, exit 2, saying why"
	else
		not_ok "--poll on a loop device (queue/io_poll $io_poll): refused, exit 2, saying why" "exit $rc" "$(head -c 300 "$S/err")"
	fi
	losetup -d "$LOOP"
	trap 'rm -rf -- "$S"' EXIT
else
	skip "--poll on a loop device: refused, exit 2, saying why" "needs root and a loop device"
fi
bad_poll() {
	local name=$1 words=$2; shift 2
	if run 2 "$@" && grep -q -- "$words" "$S/err"; then ok "$name"; else
		not_ok "$name" "exit $rc" "$(head -c 300 "$S/err")"; fi
}
bad_poll "--poll --engine=aio: usage error" "--poll is an io_uring setting, not --engine=aio's" \
	randread --poll --engine=aio "$F"
bad_poll "--sqpoll --engine=sync: usage error" "--sqpoll is an io_uring setting, not --engine=sync's" \
	randread --sqpoll --engine=sync "$F"
bad_poll "--poll --no-direct: usage error" "--poll polls O_DIRECT requests" randread --poll --no-direct "$F"
bad_poll "--poll --rate: usage error" "--poll and an open loop" randread --poll --rate 100 "$F"
bad_poll "--poll on a trim test: usage error" "a trim cannot be polled" randtrim --poll --force "$F"

# ---- bad input -----------------------------------------------------------------
if run 2 randread --reap bogus "$F" && grep -q "^diskbench: --reap 'bogus': use ring or syscall" "$S/err"; then
	ok "--reap bogus: usage error naming the choices"
else
	not_ok "--reap bogus: usage error naming the choices" "exit $rc" "$(head -c 300 "$S/err")"
fi

tap_done
