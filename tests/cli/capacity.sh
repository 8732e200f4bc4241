#!/usr/bin/env bash
# capacity (issue 42) end to end, on loop devices this script makes (root;
# skipped otherwise): an honest device holds all it claims (the size the
# kernel gives, blockdev --getsize64) and its bytes are the same after the
# run (sha256 before and after); the undo journal goes away.  Cut short:
# a SIGINT mid-run (strace delivers it at a chosen write) gives exit 130
# and every byte back; a SIGKILL mid-run leaves the journal, and the next
# run puts the bytes back from it; a restore whose flush fails keeps the
# journal and says so.  --destructive leaves what it wrote.  Refused: no
# --force, a mounted device, a read-only one, a file, a directory, a
# journal path holding something else.  Fake capacities (wraps, lost
# writes) are tests/unit/capacity's fakes and the lab's dm tables.
#
#   bash tests/cli/capacity.sh ./diskbench       (part of `make cli`)
#
# Everything lives in a scratch directory under /var/tmp (files of 32 MiB
# and 8 MiB, loop devices over them, a mount); a trap removes it all.
set -u

DB=$(realpath -- "${1:?usage: capacity.sh PATH/TO/diskbench}") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-capacity.XXXXXX) || exit 2
LOOPS=() MNT=""
cleanup() {
	local l
	[ -n "$MNT" ] && { umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null; }
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null; done
	rm -f /var/tmp/diskbench-capacity-"${DEV##*/}".undo 2>/dev/null
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=capacity
DEV=""

# ---- without a device --------------------------------------------------------
mkdir -p "$S/dir"
head -c 1048576 /dev/urandom >"$S/file"
check "capacity on a directory: usage error" 2 capacity --force "$S/dir"
check "capacity on a regular file: usage error (a file holds what it claims)" 2 capacity --force "$S/file"
check "capacity --destructive --journal: usage error" 2 capacity --destructive --journal "$S/j" "$S/dir"
for o in $("$DB" help capacity | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	grep -Eq -- "(--|\\\\-\\\\-)${o#--}([^a-z-]|\$)" "$(dirname "$0")/../../man/diskbench.1" ||
		missing="${missing:-} $o"
done
expect "man page documents every option of capacity" "$([ -z "${missing:-}" ]; echo $?)" "missing:${missing:-}"

if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
	for c in honest json csv quiet default-journal sigint sigkill restore-fails destructive refusals; do
		tap_skip "capacity on a loop device: $c" "not root, or no losetup"
	done
	tap_done
	exit
fi

attach() { # attach FILE [losetup options]: the new device in $NEW (not a subshell:
	# the trap must know every device to detach)
	NEW=$(losetup -f --show "${@:2}" "$1") || return 1
	LOOPS+=("$NEW")
}
sum() { sha256sum <"$S/img" | cut -d' ' -f1; }

head -c $((32 * 1024 * 1024)) /dev/urandom >"$S/img"
attach "$S/img" || { tap_skip "capacity on a loop device" "losetup failed"; tap_done; exit; }
DEV=$NEW
SIZE=$(blockdev --getsize64 "$DEV")
H0=$(sum)
J="$S/journal"

# ---- an honest device --------------------------------------------------------
check "capacity on an honest loop device" 0 capacity --force --journal "$J" "$DEV"
if grep -q "^capacity: $DEV claims .*, holds all of it\$" "$S/out"; then ok "text: holds all of it"
else not_ok "text: holds all of it" "$(cat "$S/out")"; fi
expect "the device's bytes are as they were (sha256)" "$([ "$(sum)" = "$H0" ]; echo $?)"
expect "the journal is gone" "$([ ! -e "$J" ]; echo $?)"
if grep -q "^capacity: $DEV claims .* each block saved first to $J" "$S/err" &&
	! grep -v '^diskbench: warning: ' "$S/err" | grep -q '^diskbench: '; then
	ok "stderr names the journal before the run, not in an error's form"
else not_ok "stderr names the journal before the run, not in an error's form" "$(cat "$S/err")"; fi

check "capacity --json" 0 --json capacity --force --journal "$J" "$DEV"
py "JSON: claims and holds the kernel's size, every range put back" "
c = d['capacity']
assert c['claimed_bytes'] == $SIZE and c['holds_bytes'] == $SIZE and c['holds_all'], c
assert c['done'] and c['past_end'] is None and c['wrap_period_bytes'] is None, c
assert c['last_good_offset'] == $SIZE - c['sector_bytes'], c
assert c['saved_ranges'] > 0 and c['restored_ranges'] == c['saved_ranges'], c
assert c['restore_failed'] == 0 and not c['journal_kept'] and c['journal'] == '$J', c
assert [s['kind'] for s in c['steps']] == ['spread', 'scan'], c['steps']
assert c['bytes_written'] >= c['base_bytes'] and d['file'] == '$DEV', c"
expect "JSON run: the bytes are as they were" "$([ "$(sum)" = "$H0" ]; echo $?)"

check "capacity --csv" 0 --csv capacity --force --journal "$J" "$DEV"
py "CSV: its header and one row" "
rows = list(csv.DictReader(io.StringIO(out)))
assert out.split(chr(10))[0] == 'test,target,claimed_bytes,holds_bytes,holds_all,past_end,last_good_offset,wrap_period_bytes,wraps_to_offset,steps,writes,bytes_written,reads,bytes_read,seconds,restored_ranges,error', out
assert len(rows) == 1 and rows[0]['holds_bytes'] == '$SIZE' and rows[0]['holds_all'] == 'true', rows"

check "capacity -q" 0 -q capacity --force --journal "$J" "$DEV"
expect "-q: the result line alone, nothing on stderr" \
	"$([ "$(wc -l <"$S/out")" = 1 ] && [ ! -s "$S/err" ]; echo $?)" "$(cat "$S/out" "$S/err")"

DEFAULT=/var/tmp/diskbench-capacity-${DEV##*/}.undo
check "capacity with the default journal" 0 capacity --force "$DEV"
expect "default journal: named on stderr, gone after" \
	"$(grep -q "saved first to $DEFAULT" "$S/err" && [ ! -e "$DEFAULT" ]; echo $?)" "$(cat "$S/err")"

# ---- cut short ---------------------------------------------------------------
# strace delivers a signal at the 100th pwrite: the journal's (about 2 per
# range saved, 40 ranges in the first step) are done, the device's are under way.
# (A sanitizer build's leak check cannot run under ptrace: it is off here.)
if command -v strace >/dev/null; then
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
	cut_at() { # cut_at SIGNAL: capacity under strace, the signal at the 100th pwrite
		# (a subshell: bash's own "Killed" goes to /dev/null)
		(timeout 60 strace -f -o /dev/null -e trace=pwrite64 -e inject=pwrite64:signal="$1":when=100 \
			"$DB" capacity --force --journal "$J" "$DEV" >"$S/out" 2>"$S/err") 2>/dev/null
		rc=$?
	}
	cut_at SIGINT
	expect "SIGINT mid-run: exit 130, every byte back, no journal left" \
		"$([ $rc = 130 ] && [ "$(sum)" = "$H0" ] && [ ! -e "$J" ]; echo $?)" "exit $rc" "$(cat "$S/err")"
	if grep -q "interrupted" "$S/err"; then ok "SIGINT: stderr says it was interrupted"
	else not_ok "SIGINT: stderr says it was interrupted" "$(cat "$S/err")"; fi

	cut_at SIGKILL
	expect "SIGKILL mid-run: the journal stays, the device holds capacity's blocks" \
		"$([ $rc = 137 ] && [ -s "$J" ] && [ "$(sum)" != "$H0" ]; echo $?)" "exit $rc"
	check "the next run puts them back first" 0 capacity --force --journal "$J" "$DEV"
	expect "after the next run: every byte back, the journal gone" \
		"$([ "$(sum)" = "$H0" ] && [ ! -e "$J" ]; echo $?)"
	if grep -q "did not finish: [0-9]* sectors it had overwritten were put back" "$S/err"; then
		ok "the next run says what it put back"
	else not_ok "the next run says what it put back" "$(cat "$S/err")"; fi

	# fdatasync: the journal's creation, its sync before the first writes,
	# the device's flush after them, then the restore's flush: the 4th
	timeout 60 strace -f -o /dev/null -e trace=fdatasync -e inject=fdatasync:error=EIO:when=4 \
		"$DB" capacity --force --journal "$J" "$DEV" >"$S/out" 2>"$S/err"
	rc=$?
	expect "a restore that cannot be flushed: exit 1, the journal kept and named" \
		"$([ $rc = 1 ] && [ -s "$J" ] && grep -q "their bytes are in '$J'" "$S/err"; echo $?)" \
		"exit $rc" "$(cat "$S/err")"
	check "the run after it" 0 capacity --force --journal "$J" "$DEV"
	expect "after it: every byte as it was, the journal gone" "$([ "$(sum)" = "$H0" ] && [ ! -e "$J" ]; echo $?)"
	unset ASAN_OPTIONS
else
	tap_skip "capacity cut short by signals" "no strace"
fi

# ---- --destructive -----------------------------------------------------------
check "capacity --destructive" 0 capacity --force --destructive "$DEV"
expect "--destructive: holds all of it, and its blocks stay" \
	"$(grep -q 'holds all of it' "$S/out" && [ "$(sum)" != "$H0" ] && [ ! -e "$DEFAULT" ]; echo $?)"
head -c $((32 * 1024 * 1024)) /dev/urandom >"$S/img"
H0=$(sum)

# ---- refusals ----------------------------------------------------------------
check "no --force: refused (3)" 3 capacity "$DEV"
printf 'my notes' >"$S/notes"
check "a --journal path holding another file: refused (3)" 3 capacity --force --journal "$S/notes" "$DEV"
expect "refusals: the device and the file untouched" \
	"$([ "$(sum)" = "$H0" ] && [ "$(cat "$S/notes")" = "my notes" ]; echo $?)"
attach "$S/img" -r && check "a read-only device: cannot run (1)" 1 capacity --force --journal "$J" "$NEW"
head -c $((8 * 1024 * 1024)) /dev/zero >"$S/fs.img"
attach "$S/fs.img"
FSDEV=$NEW
MNT="$S/mnt"
mkdir -p "$MNT"
if command -v mkfs.ext2 >/dev/null && mkfs.ext2 -q "$FSDEV" 2>/dev/null && mount "$FSDEV" "$MNT" 2>/dev/null; then
	check "a mounted device: refused (3)" 3 capacity --force --journal "$J" "$FSDEV"
	umount "$MNT" && MNT=""
else
	MNT=""
	tap_skip "a mounted device: refused (3)" "cannot make or mount ext2"
fi

head -c $((8 * 1024 * 1024)) /dev/zero >"$S/parts.img"
# the partition's node made here: a container's /dev has none
if command -v sfdisk >/dev/null && echo 'start=2048, type=83' | sfdisk -q "$S/parts.img" >/dev/null 2>&1 &&
	attach "$S/parts.img" -P && PDEV=$NEW && P1=/sys/block/${PDEV##*/}/${PDEV##*/}p1 &&
	{ [ -e "$P1" ] || partx -a "$PDEV" 2>/dev/null; [ -r "$P1/dev" ]; } &&
	mkdir -p "$S/dev" && mknod "$S/dev/${PDEV##*/}p1" b "$(cut -d: -f1 "$P1/dev")" "$(cut -d: -f2 "$P1/dev")"; then
	check "a partition: usage error (2), the whole disk named" 2 capacity --force --journal "$J" "$S/dev/${PDEV##*/}p1"
	if grep -q "name the whole disk, $PDEV" "$S/err"; then ok "a partition: the message names the disk"
	else not_ok "a partition: the message names the disk" "$(cat "$S/err")"; fi
else
	tap_skip "a partition: usage error (2)" "no sfdisk, or no partition scan on loop devices"
fi

tap_done
