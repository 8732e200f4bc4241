#!/usr/bin/env bash
# `make check` inside a chroot composed from the host (no network, no
# debootstrap): see tests/env/lib.sh for what the root holds.
#
#   bash tests/env/chroot.sh [--proc|--no-proc|--both] [COMMAND...]
#
# Runs COMMAND (default: make check) in /src, a copy of this checkout, as root
# in a chroot: once with /proc mounted (--proc, the default), once without it
# (--no-proc), or both.  The chroot's root is a plain directory under a mktemp
# dir in /var/tmp, so its mountinfo does not show "/".  All of it is unmounted
# and removed on exit, on failure and on INT/TERM.
# Exit status: 0 when every run passed, 1 when one failed, 2 on a usage or
# set-up error (not root, a mount that failed).
set -u
ENV_NAME=chroot.sh
HERE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd -- "$HERE/../.." && pwd)
# shellcheck source=tests/env/lib.sh
. "$HERE/lib.sh"

variants=(proc)
case "${1:-}" in
--proc) shift ;;
--no-proc) variants=(noproc); shift ;;
--both) variants=(proc noproc); shift ;;
-*) echo "usage: bash tests/env/chroot.sh [--proc|--no-proc|--both] [COMMAND...]" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || set -- make check

if [ "$(id -u)" != 0 ]; then
	env_say "needs root (chroot, bind mounts)"
	exit 2
fi

trap 'env_teardown' EXIT
trap 'env_say interrupted; env_teardown; trap - EXIT; exit 130' INT
trap 'env_say terminated; env_teardown; trap - EXIT; exit 143' TERM

# One chroot run: compose, copy, run, tear down.  0, 1 (the command
# failed) or 2 (set-up).
run_variant() { # run_variant proc|noproc COMMAND...
	local variant=$1 base rc t0
	shift
	base=$(mktemp -d -p /var/tmp diskbench-chroot.XXXXXX) || return 2
	if ! env_compose "$base/root" "$variant" || ! env_copy_repo "$REPO" "$base/root/src"; then
		env_say "cannot compose the chroot in $base/root"
		env_teardown
		rm -rf --one-file-system -- "$base"
		return 2
	fi
	env_say "[$variant] in a chroot at $base/root, /src: $*"
	t0=$SECONDS
	env -i "${ENV_VARS[@]}" chroot "$base/root" sh -c 'cd /src && exec "$@"' sh "$@"
	rc=$?
	env_say "[$variant] exit $rc after $((SECONDS - t0)) s"
	[ $rc = 0 ] || rc=1
	env_teardown || rc=2
	rmdir -- "$base" 2>/dev/null
	return $rc
}

status=0
for v in "${variants[@]}"; do
	run_variant "$v" "$@"
	rc=$?
	[ $rc -gt $status ] && status=$rc
	[ $rc = 0 ] || env_say "[$v] failed (exit $rc)"
done
[ $status = 0 ] && env_say "passed: ${variants[*]}"
exit $status
