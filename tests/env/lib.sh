# shellcheck shell=bash
# Shared by tests/env/chroot.sh and tests/env/container.sh (sourced, not run).
#
# env_compose ROOT [proc|noproc] builds a root file system in ROOT from the
# host's own, without network: read-only binds of /usr and /etc (and of /bin,
# /sbin, /lib, /lib64 where they are real directories, the same symlinks into
# /usr where they are not), a bind of /dev (loop devices, /dev/null), a
# private tmpfs on /dev/shm, /proc as proc or absent, and private, writable
# /tmp, /var/tmp and /root directories inside ROOT.  ROOT itself is not a
# mount point (a chroot into it has no "/" in its mountinfo) unless
# `rootmount` is given: then it is a bind of itself, as a container's root.
#
# env_copy_repo REPO DEST copies the tracked (and untracked, not ignored)
# files of the checkout, never its build products, so a build in DEST leaves
# the host's objects alone.
#
# env_teardown unmounts all that env_compose mounted, in reverse order, then
# anything a test left mounted under ROOT, and removes ROOT only when nothing
# is mounted below it any more (a bind of /dev or /usr under an rm -rf would
# delete the host's files).

# The environment a command starts with inside: a login's, not the caller's.
ENV_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# shellcheck disable=SC2034  # used by the scripts that source this file
ENV_VARS=(PATH="$ENV_PATH" HOME=/root LANG=C.UTF-8 TERM=dumb)

ENV_ROOT=""       # the root being composed (removed by env_teardown)
ENV_MOUNTS=()     # what env_compose mounted, in order

env_say() { echo "${ENV_NAME:-env}: $*" >&2; }

# A mount that leaves its peer group: on a host where / is shared (systemd),
# a mount below a bind of /dev would otherwise appear on the host's /dev too.
env_mount() { # env_mount TARGET MOUNT-ARGS...
	local target=$1
	shift
	mount "$@" "$target" || return 1
	ENV_MOUNTS+=("$target")
	mount --make-private "$target"
}

env_bind_ro() { # env_bind_ro SRC TARGET
	mkdir -p "$2" && env_mount "$2" --bind "$1" &&
		mount -o remount,bind,ro "$2"
}

# Mount points under ROOT (deepest first) that the kernel still lists.
env_mounts_below() {
	awk -v root="$1" '
		function unescape(s) { gsub(/\\040/, " ", s); gsub(/\\011/, "\t", s); gsub(/\\134/, "\\", s); return s }
		{ p = unescape($5); if (index(p, root "/") == 1 || p == root) print length(p) "\t" p }' \
		/proc/self/mountinfo | sort -rn | cut -f2-
}

env_compose() { # env_compose ROOT proc|noproc [rootmount]
	local root=$1 proc=${2:-proc} d
	ENV_ROOT=$root
	mkdir -p "$root" || return 1
	if [ "${3:-}" = rootmount ]; then
		# ROOT a mount point of its own, as a container's root is
		env_mount "$root" --bind "$root" || return 1
	fi
	for d in usr etc; do
		env_bind_ro "/$d" "$root/$d" || return 1
	done
	for d in bin sbin lib lib64 lib32 libx32; do
		if [ -L "/$d" ]; then
			ln -s "$(readlink "/$d")" "$root/$d" || return 1
		elif [ -d "/$d" ]; then
			env_bind_ro "/$d" "$root/$d" || return 1
		fi
	done
	mkdir -p "$root/dev" && env_mount "$root/dev" --bind /dev || return 1
	# /dev/shm under the bind is the host's devtmpfs directory: cover it
	env_mount "$root/dev/shm" -t tmpfs -o size=64m,mode=1777 tmpfs || return 1
	mkdir -p "$root/proc" "$root/tmp" "$root/var/tmp" "$root/root" "$root/run" || return 1
	if [ "$proc" = proc ]; then
		env_mount "$root/proc" -t proc proc || return 1
	fi
	chmod 1777 "$root/tmp" "$root/var/tmp"
	chmod 755 "$root" "$root/var"
}

env_copy_repo() { # env_copy_repo REPO DEST
	local repo=$1 dest=$2
	mkdir -p "$dest" || return 1
	if git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		# the work tree's state (edits included), without build products
		(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
			while IFS= read -r -d '' f; do
				[ -e "$f" ] || [ -L "$f" ] && printf '%s\0' "$f"
			done | tar --null -T - -cf -) | tar -xf - -C "$dest" || return 1
	else
		cp -a "$repo/." "$dest/" && make -s -C "$dest" clean >/dev/null || return 1
	fi
}

env_teardown() {
	local i m left
	for ((i = ${#ENV_MOUNTS[@]} - 1; i >= 0; i--)); do
		# a mount a test left below one of ours goes first
		while read -r m; do
			[ -n "$m" ] || continue
			env_say "left mounted by the run: $m"
			umount "$m" 2>/dev/null || umount -l "$m"
		done < <(env_mounts_below "${ENV_MOUNTS[i]}" | grep -vxF -- "${ENV_MOUNTS[i]}")
		umount "${ENV_MOUNTS[i]}" 2>/dev/null || umount -l "${ENV_MOUNTS[i]}" ||
			env_say "cannot unmount ${ENV_MOUNTS[i]}"
	done
	ENV_MOUNTS=()
	[ -n "$ENV_ROOT" ] && [ -d "$ENV_ROOT" ] || return 0
	while read -r m; do
		[ -n "$m" ] || continue
		env_say "left mounted by the run: $m"
		umount "$m" 2>/dev/null || umount -l "$m"
	done < <(env_mounts_below "$ENV_ROOT")
	left=$(env_mounts_below "$ENV_ROOT")
	if [ -n "$left" ]; then
		env_say "still mounted, $ENV_ROOT left in place:"$'\n'"$left"
		return 1
	fi
	rm -rf --one-file-system -- "$ENV_ROOT"
	ENV_ROOT=""
}
