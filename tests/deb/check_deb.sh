#!/usr/bin/env bash
# make check-deb (root): the Debian package as a user gets it.
#   1. dpkg-buildpackage -us -uc -b on a copy of the tracked files (the
#      checkout and its parent stay clean), then lintian: no error and no
#      warning (overrides only with their reason beside them);
#   2. a fresh Debian root from debootstrap (minbase, the release this
#      machine runs, from its own mirror), the package installed into it by
#      autopkgtest, which runs debian/tests/* against /usr/bin/diskbench;
#   3. the package purged, and the root's /usr, /etc and /opt exactly as
#      they were before it was installed.
# TAP; a step whose tool is missing is skipped with the reason.  Everything
# lives under one scratch directory, unmounted and removed on exit.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$repo/tests/cli/tap.sh"

if [ "$(id -u)" != 0 ]; then
	skip "check-deb" "needs root (debootstrap, chroot)"
	tap_done
	exit $?
fi
for tool in dpkg-buildpackage lintian debootstrap autopkgtest; do
	if ! command -v "$tool" >/dev/null; then
		skip "check-deb" "no $tool (apt-get install dpkg-dev debhelper lintian debootstrap autopkgtest)"
		tap_done
		exit $?
	fi
done

S=$(mktemp -d /var/tmp/diskbench-deb.XXXXXX) || exit 2
ROOT=$S/root
cleanup() {
	local m
	# what is mounted below the root, deepest first, then the root itself
	for m in $(awk -v r="$ROOT" 'index($5, r) == 1 { print $5 }' /proc/self/mountinfo | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
	if awk -v r="$ROOT" 'index($5, r) == 1 { f = 1 } END { exit !f }' /proc/self/mountinfo; then
		echo "check-deb: still mounted under $ROOT; left in place" >&2
	else
		rm -rf --one-file-system -- "$S"
	fi
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

# ---- 1. build and lintian ---------------------------------------------------
mkdir -p "$S/src"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	tar --null -T - -cf -) | tar -xf - -C "$S/src"
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$S/src/debian/changelog")
arch=$(dpkg --print-architecture)
deb=$S/diskbench_${version}_${arch}.deb
if (cd "$S/src" && dpkg-buildpackage -us -uc -b) >"$S/build.log" 2>&1 && [ -f "$deb" ]; then
	ok "dpkg-buildpackage -us -uc -b builds diskbench_${version}_${arch}.deb"
else
	not_ok "dpkg-buildpackage -us -uc -b" "$(tail -n 20 "$S/build.log")"
	tap_done
	exit $?
fi
lintian --fail-on error,warning --pedantic --display-info "$S/diskbench_${version}_${arch}.changes" \
	>"$S/lintian.log" 2>&1
rc=$?
tags=$(grep -E '^[EWIPX]: ' "$S/lintian.log")
if [ $rc = 0 ] && ! grep -qE '^[EW]: ' "$S/lintian.log"; then
	ok "lintian: no error, no warning${tags:+ (other tags: $(echo "$tags" | wc -l))}"
else
	not_ok "lintian: no error, no warning" "exit $rc" "$(cat "$S/lintian.log")"
fi
[ -n "$tags" ] && echo "$tags" | sed 's/^/# lintian: /'
# what the binary is linked with: full RELRO (GNU_RELRO and BIND_NOW), PIE
mkdir "$S/x" && dpkg -x "$deb" "$S/x"
bin=$S/x/usr/bin/diskbench
if readelf -lW "$bin" | grep -q GNU_RELRO && readelf -d "$bin" | grep -q 'FLAGS.*BIND_NOW\|FLAGS_1.*NOW' &&
	readelf -h "$bin" | grep -q 'DYN'; then
	ok "/usr/bin/diskbench: full RELRO (GNU_RELRO, BIND_NOW) and PIE"
else
	not_ok "/usr/bin/diskbench: full RELRO and PIE" "$(readelf -d "$bin" | grep FLAGS)"
fi
# README.md and NEWS.md (debian/docs): dh_compress gzips the larger ones
want="usr/bin/diskbench usr/share/man/man1/diskbench.1.gz usr/share/man/man7/diskbench-output.7.gz
usr/share/man/man7/diskbench-methods.7.gz
usr/share/bash-completion/completions/diskbench usr/share/zsh/vendor-completions/_diskbench
usr/share/doc/diskbench/README.md usr/share/doc/diskbench/NEWS.md
$(cd "$(dirname "$0")/../.." && ls profiles/*.fio | sed 's|^|usr/share/diskbench/|')"
missing=""
for f in $want; do [ -f "$S/x/$f" ] || [ -f "$S/x/$f.gz" ] || missing="$missing $f"; done
if [ -z "$missing" ]; then
	ok "the package holds the binary, the man pages, bash and zsh completion, README, NEWS and fit's profiles"
else
	not_ok "the package holds the binary, the man pages, bash and zsh completion, README, NEWS and fit's profiles" \
		"missing:$missing"
fi
th=$(for m in "$S"/x/usr/share/man/man?/*.gz; do
	zcat "$m" | sed -n 's/^\.TH .*"diskbench \([^"]*\)".*/\1/p'; done | sort -u | tr '\n' ' ')
[ "$th" = "$version " ] && ok "the installed man pages' headers say $version" ||
	not_ok "the installed man pages' headers say $version" "they say '$th'"

# ---- 2. a fresh root, the package installed, its autopkgtest ----------------
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\/*\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $2 ~ /^http/ { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
# apt-utils: autopkgtest installs it to serve the .deb from a local archive;
# taken in here, it is part of the root the purge must return to
if debootstrap --variant=minbase --include=apt-utils "$suite" "$ROOT" "$mirror" >"$S/debootstrap.log" 2>&1; then
	ok "debootstrap --variant=minbase $suite (and apt-utils): a fresh root"
else
	not_ok "debootstrap --variant=minbase $suite $mirror" "$(tail -n 15 "$S/debootstrap.log")"
	tap_done
	exit $?
fi
mount -t proc proc "$ROOT/proc" && mount --bind /dev "$ROOT/dev" && mount --make-private "$ROOT/dev"
snapshot() { (cd "$ROOT" && find usr etc opt -xdev \( -type f -o -type l \) -printf '%p %s %m\n' 2>/dev/null |
	grep -v '^etc/ld.so.cache ' | sort); }
snapshot >"$S/before"
if autopkgtest "$deb" "$S/src/" -- chroot "$ROOT" >"$S/autopkgtest.log" 2>&1; then
	ok "autopkgtest in the fresh root: $(grep -E '^[a-z-]+ +PASS' "$S/autopkgtest.log" | sort -u | wc -l) test(s) pass"
else
	not_ok "autopkgtest in the fresh root" "$(tail -n 25 "$S/autopkgtest.log")"
fi
if chroot "$ROOT" dpkg-query -W -f='${Status}' diskbench 2>/dev/null | grep -q 'install ok installed'; then
	ok "the package is installed in the fresh root"
else
	not_ok "the package is installed in the fresh root" "$(chroot "$ROOT" dpkg -l diskbench 2>&1 | tail -2)"
fi

# ---- 3. removed, and nothing left -------------------------------------------
chroot "$ROOT" dpkg --purge diskbench >"$S/purge.log" 2>&1
snapshot >"$S/after"
if ! chroot "$ROOT" dpkg-query -W -f='${Status}' diskbench 2>/dev/null | grep -q installed &&
	diff -q "$S/before" "$S/after" >/dev/null; then
	ok "dpkg --purge diskbench leaves /usr, /etc and /opt as they were"
else
	not_ok "dpkg --purge diskbench leaves /usr, /etc and /opt as they were" \
		"$(cat "$S/purge.log")" "$(diff "$S/before" "$S/after" | head -n 20)"
fi
tap_done
