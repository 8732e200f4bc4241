#!/usr/bin/env bash
# `make check` inside containers built from the host (no image, no registry):
#
#   bash tests/env/container.sh [--unshare|--podman|--all] [COMMAND...]
#
# Runs COMMAND (default: make check) in /src, a copy of this checkout, as root
#   unshare: in a new mount and PID namespace (unshare --mount --pid --fork
#            --mount-proc) with the root composed by tests/env/lib.sh, here a
#            mount point of its own as a container's root is; /proc shows
#            only the container's processes;
#   podman:  `podman run --rm --privileged --rootfs` on such a root, where
#            podman is installed and can start a container here (else skipped
#            with podman's reason; a skip does not fail).
# --all (the default) runs both.  Every mount is undone and every file removed
# on exit, on failure and on INT/TERM.
# Exit status: 0 when every run passed or was skipped, 1 when one failed,
# 2 on a usage or set-up error.
set -u
ENV_NAME=container.sh
HERE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd -- "$HERE/../.." && pwd)
# shellcheck source=tests/env/lib.sh
. "$HERE/lib.sh"

kinds=(unshare podman)
case "${1:-}" in
--all) shift ;;
--unshare) kinds=(unshare); shift ;;
--podman) kinds=(podman); shift ;;
-*) echo "usage: bash tests/env/container.sh [--unshare|--podman|--all] [COMMAND...]" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || set -- make check

if [ "$(id -u)" != 0 ]; then
	env_say "needs root (namespaces, bind mounts, loop devices)"
	exit 2
fi

trap 'env_teardown' EXIT
trap 'env_say interrupted; env_teardown; trap - EXIT; exit 130' INT
trap 'env_say terminated; env_teardown; trap - EXIT; exit 143' TERM

run_unshare() { # run_unshare ROOT COMMAND...
	local root=$1
	shift
	env -i "${ENV_VARS[@]}" unshare --mount --pid --fork --mount-proc --root="$root" --wd=/src \
		"$@"
}

# Limits no higher than podman itself holds: podman 4 starts containers
# with nofile 1048576 and nproc 32768, which fails without CAP_SYS_RESOURCE
# where the caller's are lower (its `--ulimit host` is ignored); podman lowers
# its own nproc hard limit to 32768 as it starts.
podman_limits() {
	local nofile nproc
	nofile=$(ulimit -Hn) nproc=$(ulimit -Hu)
	[ "$nofile" = unlimited ] && nofile=1048576
	[ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ] && nproc=32768
	echo "--ulimit=nofile=$nofile:$nofile --ulimit=nproc=$nproc:$nproc"
}

PODMAN_OPTS=()
# The options with which podman starts a container on ROOT: its defaults,
# then the caller's limits, then runc with them (crun refuses hosts with
# cgroup v1 and v2 controllers both in use); 1 when none works, podman's
# reasons on stderr.  `--rootfs ROOT` must end the options: --rootfs is a
# flag, and the first word after it is the root, the rest the command.
podman_probe() { # podman_probe ROOT
	local root=$1 i why
	command -v podman >/dev/null 2>&1 || { env_say "podman is not installed"; return 1; }
	local run=(run --rm --privileged --network=none)
	local limits
	read -ra limits <<<"$(podman_limits)"
	local tries=(0 1)
	command -v runc >/dev/null 2>&1 && tries+=(2)
	for i in "${tries[@]}"; do
		case $i in
		0) PODMAN_OPTS=("${run[@]}") ;;
		1) PODMAN_OPTS=("${run[@]}" "${limits[@]}") ;;
		2) PODMAN_OPTS=(--runtime=runc "${run[@]}" "${limits[@]}") ;;
		esac
		if why=$(timeout 120 podman "${PODMAN_OPTS[@]}" --rootfs "$root" /bin/true 2>&1); then
			env_say "podman ${PODMAN_OPTS[*]} starts a container"
			return 0
		fi
		env_say "podman ${PODMAN_OPTS[*]}: $why"
	done
	return 1
}

# /dev from the host (not podman's own tmpfs, which lacks the loop devices
# that losetup creates after the start) and the clean environment.
run_podman() { # run_podman ROOT COMMAND...
	local root=$1 v
	shift
	local envs=()
	for v in "${ENV_VARS[@]}"; do envs+=(--env "$v"); done
	podman "${PODMAN_OPTS[@]}" --volume /dev:/dev --tmpfs /dev/shm:size=64m \
		"${envs[@]}" --workdir /src --rootfs "$root" "$@"
}

# One container: compose, copy, run, tear down.  0, 1 (the command failed),
# 2 (set-up) or 3 (skipped).
run_kind() { # run_kind unshare|podman COMMAND...
	local kind=$1 base rc t0
	shift
	base=$(mktemp -d -p /var/tmp diskbench-container.XXXXXX) || return 2
	if ! env_compose "$base/root" noproc rootmount || ! env_copy_repo "$REPO" "$base/root/src"; then
		env_say "cannot compose a root in $base/root"
		env_teardown
		rm -rf --one-file-system -- "$base"
		return 2
	fi
	if [ "$kind" = podman ] && ! podman_probe "$base/root"; then
		env_say "[podman] skipped"
		rc=3
	else
		env_say "[$kind] at $base/root, /src: $*"
		t0=$SECONDS
		case $kind in
		unshare) run_unshare "$base/root" "$@" ;;
		podman) run_podman "$base/root" "$@" ;;
		esac
		rc=$?
		env_say "[$kind] exit $rc after $((SECONDS - t0)) s"
		[ $rc = 0 ] || rc=1
	fi
	env_teardown || rc=2
	rmdir -- "$base" 2>/dev/null
	return $rc
}

status=0 passed=() skipped=()
for k in "${kinds[@]}"; do
	run_kind "$k" "$@"
	rc=$?
	case $rc in
	0) passed+=("$k") ;;
	3) skipped+=("$k") ;;
	*) env_say "[$k] failed (exit $rc)"; [ $rc -gt $status ] && status=$rc ;;
	esac
done
[ $status = 0 ] && env_say "passed: ${passed[*]:-none}${skipped:+; skipped: ${skipped[*]}}"
exit $status
