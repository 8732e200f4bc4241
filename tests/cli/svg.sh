#!/usr/bin/env bash
# --svg FILE, end to end:
#
#   bash tests/cli/svg.sh ./diskbench            (part of `make cli`)
#   bash tests/cli/svg.sh --render ./diskbench   (`make check-svg`: Chromium)
#
# Runs randread, randwrite, seqread, seqwrite, sweep, quick and matrix with
# --json and --svg together, and report over three hosts' randread records, on small files in a scratch directory (whose name holds
# <&"' so that escaping is tested on the way) and checks each picture with
# svg_check.py against the JSON of the same run: it parses as XML, has a
# viewBox, a title and a desc, no outside reference, a bar per histogram
# bucket, the percentiles marked at JSON's values, a point per sweep level,
# the knee and the findings where JSON puts them, quick's verdict as title,
# report's bar per host at its figure with the median and the fleet
# percentiles, matrix's heat-map cell per file size x block size at its rate.
# Then: a picture that cannot be written is `diskbench: FILE: <why>` with
# exit status 1 after the result; tests that draw nothing refuse --svg.
#
# --render: draws each picture with headless Chromium (Debian's `chromium`)
# and checks each screenshot is not blank (svg_check.py png); the PNGs stay
# in $ARTEFACTS when it is set, else in the scratch directory, removed.
# Skips, saying so, where chromium is not installed.
#
# Everything lives in a scratch directory under /var/tmp (and a loop device
# over a file there, as root), removed on exit.
set -u

RENDER=0
if [ "${1:-}" = --render ]; then RENDER=1; shift; fi
DB=$(realpath -- "${1:?usage: svg.sh [--render] PATH/TO/diskbench}") || exit 2
HERE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
CHECK="$HERE/svg_check.py"
S=$(mktemp -d -p /var/tmp diskbench-svg.XXXXXX) || exit 2
LOOP=""
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=svg

D="$S/a<b&c\"d'e"
mkdir -p "$D" "$S/pictures"
dd if=/dev/urandom of="$D/data" bs=1M count=16 status=none

# picture NAME KIND ARGS...: runs diskbench --json --svg $S/pictures/NAME.svg ARGS
# and checks the picture against the JSON.
picture() {
	local name=$1 kind=$2 svg="$S/pictures/$1.svg" msg rc
	shift 2
	timeout 120 "$DB" --json --svg "$svg" "$@" >"$S/$name.json" 2>"$S/$name.err"
	rc=$?
	if [ "$rc" != 0 ] || [ ! -s "$svg" ]; then
		not_ok "$name: --json --svg" "exit $rc" "$(head -c 400 "$S/$name.err")"
		return
	fi
	if msg=$(python3 "$CHECK" "$kind" "$svg" "$S/$name.json" 2>&1); then
		ok "$name: the picture matches the JSON"
	else
		not_ok "$name: the picture matches the JSON" "$msg"
	fi
}

make_pictures() {
	# -s 10G on the 16 MiB file: the region is the file, the run lasts -t
	picture randread single randread -s 10G -t 0.8 --interval 0.1 "$D/data"
	picture seqread single seqread -b 64k -s 10G -t 0.8 --interval 0.1 "$D/data"
	picture randwrite single randwrite -s 16M -t 0.8 --interval 0.1 "$D"
	picture seqwrite single seqwrite -b 64k -s 32M -t 0.8 --interval 0.1 "$D"
	picture sweep sweep sweep -s 16M --levels 1,2,4 --large-levels 1,2 --point-time 0.2 "$D/data"
	picture sweep-curve sweep sweep -s 16M --run oltp --levels 1,2,4 --point-time 0.2 --curve 50,90 "$D/data"
	picture quick quick quick -s 16M -t 2 "$D"
	picture steady steady steady randread --round 0.2 --window 3 --max-rounds 4 --excursion 1000 \
		--slope 1000 -s 8M "$D"
	picture matrix matrix matrix --file-sizes 4M,16M --block-sizes 4k,64k --ops read,write \
		--budget 6 "$D"
	report_records && picture report report report "$S/fleet.jsonl"
}

# Three hosts' randread records of one run, as a fleet launcher gathers them.
report_records() {
	local i
	for i in 1 2 3; do
		if ! timeout 60 "$DB" randread --jsonl --host-label "node$i" --run-id svg-fleet -s 8M \
			-t 0.5 "$D" >>"$S/fleet.jsonl" 2>"$S/fleet.err"; then
			not_ok "report: the hosts' records" "$(head -c 400 "$S/fleet.err")"
			return 1
		fi
	done
}

# A picture of a test file diskbench made and removed names the target, not
# the file's scratch name (which no longer exists); a user's file is named.
t_subject() {
	local f
	for f in randwrite seqwrite; do
		if grep -q "a test file in " "$S/pictures/$f.svg" && ! grep -q '\.diskbench-' "$S/pictures/$f.svg"; then
			ok "$f on a directory: the picture names a test file in it, not the removed file"
		else
			not_ok "$f on a directory: the picture names a test file in it" "$(grep -o '<title[^<]*' "$S/pictures/$f.svg" | head -3)"
		fi
	done
	timeout 120 "$DB" sweep -q --svg "$S/pictures/sweep-dir.svg" -s 8M --levels 1,2 --large-levels 1 \
		--point-time 0.2 "$D" >/dev/null 2>"$S/err"
	if grep -q '<title id="svg-title">sweep of a test file in ' "$S/pictures/sweep-dir.svg" &&
		! grep -q '\.diskbench-' "$S/pictures/sweep-dir.svg"; then
		ok "sweep on a directory: its title names the target"
	else
		not_ok "sweep on a directory: its title names the target" "$(grep -o '<title[^<]*' "$S/pictures/sweep-dir.svg" | head -2)" "$(head -c 300 "$S/err")"
	fi
	grep -q "Latency of [0-9]* reads of $(basename "$D/data" | sed 's/[.]/[.]/g')\|Latency of [0-9]* reads of .*/data " "$S/pictures/randread.svg" &&
		ok "randread of a user's file: the picture names the file" ||
		not_ok "randread of a user's file: the picture names the file" "$(grep -o 'Latency of[^<]*' "$S/pictures/randread.svg")"
}

t_write_errors() {
	local out rc
	out=$("$DB" randread -s 10G -t 0.3 --svg "$S/no/such/dir/x.svg" "$D/data" 2>"$S/err")
	rc=$?
	if [ "$rc" = 1 ] && grep -qx "diskbench: $S/no/such/dir/x.svg: No such file or directory" "$S/err" &&
		grep -q '^randread: .* IOPS \[' <<<"$out"; then
		ok "an unwritable --svg: the result, then the error, exit 1"
	else
		not_ok "an unwritable --svg: the result, then the error, exit 1" "exit $rc" "$out" "$(cat "$S/err")"
	fi
	if [ -w /dev/full ]; then
		out=$("$DB" --json randread -s 10G -t 0.3 --svg /dev/full "$D/data" 2>"$S/err")
		rc=$?
		if [ "$rc" = 1 ] && grep -qx "diskbench: /dev/full: No space left on device" "$S/err" &&
			python3 -c 'import json, sys; d = json.loads(sys.argv[1]); assert d["result"]["ios"] > 0' "$out" &&
			[ -c /dev/full ]; then
			ok "--svg /dev/full: ENOSPC after the JSON document, and /dev/full left alone"
		else
			not_ok "--svg /dev/full: ENOSPC after the JSON document" "exit $rc" "$(cat "$S/err")"
		fi
	else
		skip "--svg /dev/full" "no writable /dev/full"
	fi
}

t_refused() {
	local t rc
	for t in info cached buffered; do
		"$DB" "$t" --svg "$S/x.svg" "$D/data" >/dev/null 2>"$S/err"
		rc=$?
		if [ "$rc" = 2 ] && grep -q "option '--svg' does not apply to $t" "$S/err" && [ ! -e "$S/x.svg" ]; then
			ok "$t refuses --svg"
		else
			not_ok "$t refuses --svg" "exit $rc" "$(cat "$S/err")"
		fi
	done
	"$DB" --json randread --svg "$S" "$D/data" >"$S/out" 2>"$S/err"
	rc=$?
	if [ "$rc" = 2 ] && grep -q "^diskbench: --svg '.*' is a directory" "$S/err" &&
		python3 -c 'import json, sys; assert "is a directory" in json.load(open(sys.argv[1]))["error"]' "$S/out"; then
		ok "--svg naming a directory: refused before the run"
	else
		not_ok "--svg naming a directory: refused before the run" "exit $rc" "$(cat "$S/err")"
	fi
	# a loop device over a scratch file: were the check broken, the picture
	# would land in that file, never on a real disk
	truncate -s 1M "$S/loop.img"
	if [ "$(id -u)" = 0 ] && LOOP=$(losetup -f --show "$S/loop.img" 2>/dev/null); then
		"$DB" randread --svg "$LOOP" "$D/data" >/dev/null 2>"$S/err"
		rc=$?
		if [ "$rc" = 2 ] && grep -q "is a block device: a picture goes to a file" "$S/err" &&
			[ -z "$(tr -d '\0' <"$S/loop.img")" ]; then
			ok "--svg naming a block device: refused before the run, nothing written"
		else
			not_ok "--svg naming a block device: refused before the run" "exit $rc" "$(cat "$S/err")"
		fi
	else
		skip "--svg naming a block device" "needs root and a loop device"
	fi
	"$DB" randread -s 1k --svg "$S/x.svg" "$D/data" >/dev/null 2>&1
	rc=$?
	if [ "$rc" = 2 ] && [ ! -e "$S/x.svg" ]; then ok "a test that does not run draws nothing"; else
		not_ok "a test that does not run draws nothing" "exit $rc"; fi
}

# render NAME: a screenshot of $S/pictures/NAME.svg as tall as the picture
render() {
	local name=$1 svg="$S/pictures/$1.svg" png="$ARTEFACTS/$1.png" height msg
	height=$(python3 "$CHECK" height "$svg") || { not_ok "$name: rendered" "no height"; return; }
	rm -f -- "$png"
	timeout 90 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$S/chromium" --screenshot="$png" --window-size="900,$height" \
		"file://$svg" >"$S/chromium.log" 2>&1
	if [ ! -s "$png" ]; then
		not_ok "$name: rendered by Chromium" "$(tail -n 5 "$S/chromium.log")"
	elif msg=$(python3 "$CHECK" png "$png" 2>&1); then
		ok "$name: rendered by Chromium, not blank ($png)"
	else
		not_ok "$name: rendered by Chromium, not blank" "$msg"
	fi
}

if [ "$RENDER" = 1 ]; then
	if ! command -v chromium >/dev/null; then
		skip "pictures rendered by Chromium" "chromium is not installed (apt-get install chromium)"
	else
		ARTEFACTS=${ARTEFACTS:-$S/png}
		mkdir -p -- "$ARTEFACTS"
		make_pictures
		for name in randread seqread randwrite seqwrite sweep quick steady matrix report; do
			[ -s "$S/pictures/$name.svg" ] && render "$name"
		done
	fi
else
	make_pictures
	t_subject
	t_write_errors
	t_refused
fi
tap_done
