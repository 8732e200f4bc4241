#!/usr/bin/env bash
# `make check` inside a chroot composed from the host (no network, no
# debootstrap): see tests/env/lib.sh for what the root holds.
#
#   bash tests/env/chroot.sh [--proc|--no-proc|--both] [MAKE-ARGS...]
#
# Runs `make -C /src MAKE-ARGS` (default: check) as root in a chroot on a copy
# of this checkout, once with /proc mounted (--proc, the default), once
# without it (--no-proc), or both.  Each chroot's root is a plain directory
# under a mktemp dir in /var/tmp, so its mountinfo does not show "/".  All of
# it is unmounted and removed on exit, on failure and on INT/TERM.
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
-*) echo "usage: bash tests/env/chroot.sh [--proc|--no-proc|--both] [MAKE-ARGS...]" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || set -- check

if [ "$(id -u)" != 0 ]; then
	env_say "needs root (chroot, bind mounts)"
	exit 2
fi

trap 'env_teardown' EXIT
trap 'env_say interrupted; env_teardown; trap - EXIT; exit 130' INT
trap 'env_say terminated; env_teardown; trap - EXIT; exit 143' TERM

# One chroot run: compose, copy, make, tear down.  Returns make's status.
run_variant() { # run_variant proc|noproc MAKE-ARGS...
	local variant=$1 base rc t0
	shift
	base=$(mktemp -d -p /var/tmp diskbench-chroot.XXXXXX) || return 2
	if ! env_compose "$base/root" "$variant" || ! env_copy_repo "$REPO" "$base/root/src"; then
		env_say "cannot compose the chroot in $base/root"
		env_teardown
		rm -rf --one-file-system -- "$base"
		return 2
	fi
	env_say "[$variant] make -C /src $* in a chroot at $base/root"
	t0=$SECONDS
	# a clean environment, as a login in the chroot would have
	env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 TERM=dumb ${MAKEFLAGS:+MAKEFLAGS="$MAKEFLAGS"} \
		chroot "$base/root" make -C /src "$@"
	rc=$?
	env_say "[$variant] make exit $rc after $((SECONDS - t0)) s"
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
