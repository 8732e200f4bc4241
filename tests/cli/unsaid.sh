#!/usr/bin/env bash
# What the output left unsaid (issue 39), end to end:
#
#   bash tests/cli/unsaid.sh ./diskbench build/tests/diskbench-fake   (part of `make cli`)
#
# - quick says what it wrote, in its text (not only on a terminal): "this
#   run wrote X (N× its SIZE file)", X against strace's count of the bytes
#   every pwrite64 to quick's file returned (--engine=sync: each write a
#   pwrite64; strace -ff -y names each descriptor's file), within the
#   rounding of X and the flush check's 4 KiB blocks (8 per write step at
#   most), which it leaves out; N is X over the file's size by hand.
#   Negative: quick on an existing file writes nothing and says so.
# Every run is at most a second over 8 MiB in a scratch directory under
# /var/tmp, removed on exit.
set -u

if [ $# -lt 2 ]; then
	echo "usage: bash tests/cli/unsaid.sh PATH/TO/diskbench PATH/TO/diskbench-fake" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
FAKE=$(realpath -- "$2") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-unsaid.XXXXXX) || exit 2
cleanup() { rm -rf -- "$S"; }
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=unsaid

# ---- quick says what it wrote ----------------------------------------------------
t_quick_wrote() {
	local name="quick's text says what the run wrote, as strace counts it"
	if ! command -v strace >/dev/null; then
		skip "$name" "no strace here"
		return
	fi
	mkdir -p "$S/q"
	# -ff: a file per thread, so that no call is split by another's
	strace -ff -qq -y -e trace=pwrite64 -o "$S/strace" "$DB" quick --engine=sync -s 8M -t 1 \
		"$S/q" >"$S/out" 2>"$S/err"
	rc=$?
	if [ "$rc" != 0 ]; then
		not_ok "$name" "exit $rc" "$(head -c 400 "$S/err")"
		return
	fi
	py "$name" "
import glob, re
total = 0
for name in glob.glob('$S/strace.*'):
    for l in open(name):
        m = re.search(r'pwrite64\(\d+<[^>]*/\.diskbench-[^>]*>, .*\) = (\d+)$', l)
        if m:
            total += int(m.group(1))
lines = [l for l in out.splitlines() if 'this run wrote' in l]
assert len(lines) == 1, out
m = re.search(r'this run wrote ([\d.]+) (kB|MB|GB) \(([\d.]+)× its 8\.0 MiB file: its layout and the write steps\)', lines[0])
assert m, lines[0]
said = float(m.group(1)) * {'kB': 1e3, 'MB': 1e6, 'GB': 1e9}[m.group(2)]
rounding = said * 0.006 + 1e5
flush_checks = 5 * 8 * 4096
assert said - rounding <= total <= said + rounding + flush_checks, (said, total)
assert abs(float(m.group(3)) - said / (8 << 20)) <= 0.051 * said / (8 << 20), (m.group(3), said)
print('# strace: %d bytes; said: %s' % (total, lines[0].strip()))"
}
t_quick_wrote

t_quick_reads_only() {
	local name="quick on an existing file writes nothing, and says so"
	head -c 8388608 /dev/urandom >"$S/existing"
	if ! run 0 quick -s 8M -t 1 "$S/existing"; then
		not_ok "$name" "exit $rc" "$(head -c 400 "$S/err")"
		return
	fi
	py "$name" "
lines = [l for l in out.splitlines() if 'this run wrote' in l]
assert len(lines) == 1 and 'this run wrote nothing' in lines[0], out"
}
t_quick_reads_only

tap_done
