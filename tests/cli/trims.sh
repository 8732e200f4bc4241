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
# Every run is a fraction of a second over 1 MiB in a scratch directory
# under /var/tmp, removed on exit.
set -u

if [ $# -lt 2 ]; then
	echo "usage: bash tests/cli/trims.sh PATH/TO/diskbench PATH/TO/diskbench-fake" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
FAKE=$(realpath -- "$2") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-trims.XXXXXX) || exit 2
cleanup() { rm -rf -- "$S"; }
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

tap_done
