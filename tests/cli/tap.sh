# tests/cli/tap.sh: the TAP helpers every CLI test sources, so that each
# test's report reads alike and ends in the line CI counts:
#   N passed, N failed, N skipped
# A test sets, before it calls run, check or py: DB (the diskbench binary)
# and S (its scratch directory).  It may set:
#   TAP_TIMEOUT    seconds one diskbench run may take (120)
#   TAP_ERR_BYTES  how much of stderr a failed check shows (600)
#   TAP_NAME       a word put before the closing line ("series: 3 passed, ...")
#   STDIN          what run feeds diskbench (/dev/null)
# shellcheck shell=bash

n=0 passed=0 failed=0 skipped=0
TAP_HERE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)

ok() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n - $1"; }
# not_ok NAME DETAIL...: each detail on a comment line of its own
not_ok() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift
	local l
	for l in "$@"; do echo "#   $l"; done
}
tap_skip() { n=$((n + 1)); skipped=$((skipped + 1)); echo "ok $n - $1 # SKIP $2"; }
skip() { tap_skip "$@"; }
# expect NAME STATUS DETAIL...: ok when STATUS is 0
expect() {
	local name=$1 st=$2; shift 2
	if [ "$st" = 0 ]; then ok "$name"; else not_ok "$name" "$@"; fi
}

# run EXPECTED_EXIT ARGS...: runs diskbench with stdout in $S/out, stderr in
# $S/err, its exit code in $rc and its wall time in $wall_ms; true when the
# exit code is the one expected.  Its ARGS go to $S/.argv for py's invariants.
tap_run() {
	local want=$1 t0; shift
	printf '%s\0' "$@" >"$S/.argv"
	t0=$(date +%s%N)
	timeout "${TAP_TIMEOUT:-120}" "$DB" "$@" >"$S/out" 2>"$S/err" <"${STDIN:-/dev/null}"
	rc=$?
	wall_ms=$((($(date +%s%N) - t0) / 1000000))
	md5sum <"$S/out" | cut -d' ' -f1 >"$S/.argv.md5"  # whose stdout the arguments are
	tap_invariants "$@"
	[ "$rc" = "$want" ]
}

# Every JSON document a run prints is held to tests/cli/invariants.py: a
# violation is a failed case of its own, named by the run's arguments.
tap_invariants() {
	local msg
	[ "$(head -c 1 "$S/out" 2>/dev/null)" = "{" ] || return 0
	if ! msg=$(PYTHONPATH="$TAP_HERE" python3 -m invariants --argv-file "$S/.argv" "$S/out" 2>&1); then
		not_ok "invariants of diskbench $*" "$msg"
	fi
}
run() { tap_run "$@"; }

# check NAME EXPECTED_EXIT ARGS...: one case, on the exit code alone
check() {
	local name=$1; shift
	if run "$@"; then ok "$name"; else not_ok "$name" "exit $rc, wanted $1" "$(head -c "${TAP_ERR_BYTES:-600}" "$S/err")"; fi
}

# py NAME CODE [FILE]: one case, a python3 check of FILE (default $S/out).
# CODE sees out (the text), err (the last run's stderr), d and doc (the JSON
# document, None when out is not one) and wall (the last run's seconds).  A
# document is first held to tests/cli/invariants.py (with the last run's
# ARGS when FILE holds what it printed): a violation fails the case.
py() {
	local name=$1 code=$2 file=${3:-$S/out} msg argv=
	# the last run's arguments, if FILE is still what it printed (not another command's)
	[ -f "$S/.argv.md5" ] && [ "$(md5sum <"$file" | cut -d' ' -f1)" = "$(cat "$S/.argv.md5")" ] &&
		argv=$S/.argv
	if msg=$(TAP_OUT="$file" TAP_ERR="$S/err" TAP_WALL_MS="${wall_ms:-0}" TAP_ARGV="$argv" \
		PYTHONPATH="$TAP_HERE" python3 -c "import csv, io, json, os, sys
import invariants
out = open(os.environ['TAP_OUT']).read()
err = open(os.environ['TAP_ERR']).read() if os.path.exists(os.environ['TAP_ERR']) else ''
wall = int(os.environ['TAP_WALL_MS']) / 1000
try:
    d = doc = json.loads(out)
except ValueError:
    d = doc = None
if isinstance(d, dict) and d.get('tool') == 'diskbench':
    _argv = open(os.environ['TAP_ARGV'], 'rb').read().decode().split(chr(0))[:-1] if os.environ['TAP_ARGV'] else None
    _bad = invariants.check(d, _argv)
    assert not _bad, 'invariants: ' + '; '.join(_bad)
$code" 2>&1); then ok "$name"; else not_ok "$name" "$msg" "stdout: $(head -c 400 "$file")"; fi
}

# no_leftovers DIR NAME: one case, no .diskbench-* file left in DIR
no_leftovers() {
	local left
	left=$(find "$1" -name '.diskbench-*' 2>/dev/null)
	if [ -z "$left" ]; then ok "$2"; else not_ok "$2" "left: $left"; fi
}

# health_case NAME DIR [WHY]: one case, the top-level "health" of the last
# run's JSON (matrix, files, sweep on DIR) against `diskbench info DIR`, which
# reads the same disks: the same names, the same reason for each that cannot
# be read, a reading before and a delta for each that can; with WHY, no disk
# at all and that reason (a tmpfs the test mounted: "no disk under the target").
health_case() {
	local name=$1 dir=$2 why=${3:-}
	cp "$S/out" "$S/health.json"
	"$DB" --json info "$dir" >"$S/info.json" 2>/dev/null
	py "$name" "
h, i = d['health'], json.load(open('$S/info.json'))['result']['health']
assert h['disks_left_out'] == 0 and [x['name'] for x in h['disks']] == [x['name'] for x in i['disks']], (h, i)
if '$why':
    assert h == {'available': False, 'why': '$why', 'disks': [], 'disks_left_out': 0}, h
for x, y in zip(h['disks'], i['disks']):
    assert x['available'] == y['available'] and x.get('why') == y.get('why'), (x, y)
    assert not x['available'] or ('before' in x and 'delta' in x and 'run_bytes' in x), x
assert h['available'] == any(x['available'] for x in h['disks']), h
assert h['available'] or h['why'] == (h['disks'][0]['why'] if h['disks'] else 'no disk under the target'), h" "$S/health.json"
}

# traced ARGS...: strace ARGS without LeakSanitizer, which cannot run under
# ptrace (make sanitize's build dies at exit under strace); the untraced runs
# keep it.
traced() { ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace "$@"; }

# shm_loop NAME SIZE: root only: a loop device over a SIZE file in /dev/shm
# (LOOP, SHM_IMG; the caller's trap detaches and removes them), true when its
# counters can be read; loop_stat FIELD: a counter of /sys/block/LOOP/stat
# (1 reads, 3 sectors read, 5 writes, 7 sectors written, 12 discards, 14
# sectors discarded)
loop_stat() { awk -v f="$1" '{ print $f }' "/sys/block/${LOOP#/dev/}/stat"; }
shm_loop() {
	[ "$(id -u)" = 0 ] || return 1
	SHM_IMG=$(mktemp -p /dev/shm "diskbench-$1.XXXXXX") || { SHM_IMG=""; return 1; }
	truncate -s "$2" "$SHM_IMG"
	LOOP=$(losetup -f --show "$SHM_IMG" 2>/dev/null) || { LOOP=""; return 1; }
	[ -r "/sys/block/${LOOP#/dev/}/stat" ] && [ -n "$(loop_stat 14)" ]
}

# The closing line, and the status: 0 when nothing failed.
tap_done() {
	echo "${TAP_NAME:+$TAP_NAME: }$passed passed, $failed failed, $skipped skipped"
	[ "$failed" = 0 ]
}
