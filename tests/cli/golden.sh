#!/usr/bin/env bash
# Golden-output test of diskbench: what a user sees, pinned.
#
#   bash tests/cli/golden.sh ./diskbench                   (part of `make cli`)
#   GOLDEN_UPDATE=1 bash tests/cli/golden.sh ./diskbench   (rewrite the expected files)
#
# Runs a fixed list of diskbench invocations (every command in text, --json and
# --csv, --help and `help TEST`, --version, the error cases of the bad-input
# suite) and compares what they print with tests/cli/golden/NAME.out (stdout),
# NAME.err (stderr) and NAME.rc (exit code).  Any difference is printed as a
# unified diff and fails the case; the last line is `golden: N passed, M failed`.
#
# Recording an intended change: when a change of the output is meant, run the
# script once with GOLDEN_UPDATE=1, read `git diff tests/cli/golden/` (that diff
# is the user-visible change) and commit it with the change.  Update mode also
# removes expected files of cases no longer in the list below.
#
# Before comparing, the parts that change from run to run or machine to machine
# are masked (by the python3 script below):
#   - figures that come from measurement: rates, IOPS, seconds, latencies, the
#     histogram (its rows collapse to one line), percentages, byte and I/O
#     counts, and the magnitude of their units (948 MB/s and 1.02 GB/s both
#     become `N xB/s`; SI stays xB, IEC xiB, times xs);
#   - seeds, the scratch directory (<S>), test file names (.diskbench-XXXXXX),
#     loop device numbers, major:minor numbers, free-space figures, numbers in
#     warnings that come from timing, the O_DIRECT alignment of the disk;
#   - the identity of this machine's disk (cases marked `+m`: the JSON
#     "device" and "device_io" objects, info on the scratch directory, quick's
#     verdict class): it is pinned instead on a tmpfs and on a loop device over
#     a tmpfs file; the disk names of the text "device:" line;
#   - warnings whose presence depends on the machine or on timing (I/O buffers
#     not in huge pages, sweep points with few samples, quick's throttled/link
#     warnings, what the disks' counters saw, an unsteady run, a cgroup's limit,
#     a rate cap, fast flushes, a CPU-bound thread, a hot drive) are left out,
#     and so are their JSON findings; JSON "buffer" (huge pages or not), "cpu"
#     and "temps" are masked; so are "health" and the text "health:" lines of
#     `+m` cases (what this machine's disks say of themselves), and how a run
#     chose to submit (JSON "submit_policy", the bracket's "submitted one by
#     one" or "in batches": what its probe measured, null where the engine
#     auto picks or the depth leaves no choice).
# Everything else is kept: JSON key names and their order, parameters, words,
# units of non-measured sizes, messages and exit codes.  JSON is shown indented,
# with a first line saying whether diskbench's own text is exactly the compact
# form (so spacing and number formatting are pinned too); CSV keeps its header
# exactly and says likewise whether the rows re-serialize identically.
#
# The single tests run with a size that makes them always "too short to time
# well" (4 or 16 I/Os), so that warning is always there.  Cases that need root
# (tmpfs, ramfs, loop device, running as nobody) are skipped with a message
# otherwise; their expected files are kept.  Everything written lives in a
# scratch directory under /var/tmp, removed on exit.
# shellcheck disable=SC2016  # single-quoted bash -c scripts take their arguments as $1, $2
set -u

if [ $# -lt 1 ]; then
	echo "usage: bash tests/cli/golden.sh PATH/TO/diskbench" >&2
	exit 2
fi
DB_ORIG=$(realpath -- "$1") || exit 2
[ -x "$DB_ORIG" ] || { echo "golden.sh: $1 is not an executable" >&2; exit 2; }
HERE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
GOLD="$HERE/golden"
command -v python3 >/dev/null 2>&1 || { echo "golden.sh: needs python3" >&2; exit 2; }

S=$(mktemp -d -p /var/tmp diskbench-golden.XXXXXX) || { echo "golden.sh: mktemp failed" >&2; exit 2; }
MOUNTS=()
LOOP=""
cleanup() {
	local i
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	LOOP=""
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}" 2>/dev/null
	done
	MOUNTS=()
	[ -n "${S:-}" ] && [ -d "$S" ] && rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT
trap 'cleanup; trap - EXIT; exit 143' TERM

chmod 711 "$S"
mkdir -p "$S/raw" "$S/bin" "$S/cwd"
# A copy every user can run (the unprivileged cases), immune to a rebuild mid-run.
cp -- "$DB_ORIG" "$S/bin/diskbench" && chmod 755 "$S/bin" "$S/bin/diskbench"
DB="$S/bin/diskbench"
MANIFEST="$S/manifest"
: >"$MANIFEST"
IS_ROOT=0; [ "$(id -u)" = 0 ] && IS_ROOT=1

# ---- cases ------------------------------------------------------------------------
# gcmd NAME MODE CMD...: runs CMD (in $S/cwd, C locale, stdin /dev/null, at most
# 60 s), keeps its stdout, stderr and exit code for the masker.
# MODE: raw (help, errors: paths masked only), text, json, jsonl (a JSON document per line), csv; `+m` masks the
# identity of this machine's disk; `+seed` keeps params.seed (given by --seed).
gcmd() {
	local name=$1 mode=$2; shift 2
	(cd "$S/cwd" && LC_ALL=C timeout -k 5 60 "$@" >"$S/raw/$name.out" 2>"$S/raw/$name.err" </dev/null)
	echo $? >"$S/raw/$name.rc"
	printf 'run %s %s\n' "$name" "$mode" >>"$MANIFEST"
}
g() { local name=$1 mode=$2; shift 2; gcmd "$name" "$mode" "$DB" "$@"; }
skip() { # skip REASON NAME...
	local why=$1 n; shift
	for n in "$@"; do
		echo "golden: skip $n: $why"
		printf 'skip %s -\n' "$n" >>"$MANIFEST"
	done
}

D="$S/dir"; F="$S/file"; M=/nonexistent/diskbench-golden/x
mkdir -p "$D" "$S/odd"
head -c $((4 * 1024 * 1024)) /dev/urandom >"$F"
printf 'tiny' >"$S/odd/tiny"
: >"$S/odd/empty"
mkfifo "$S/odd/fifo"
SZ=(-s 4M -t 0.3)   # sequential tests: 4 I/Os of 1 MiB (buffered: 2 of 2 MiB)
RZ=(-s 64k -t 0.3)  # random tests: 16 I/Os of 4 KiB; both always "too short"
TESTS="seqwrite seqread buffered cached randread randwrite"
COMMANDS="$TESTS info quick sweep"

cases_help() {
	g help.global raw --help
	g help.h raw -h
	g version raw --version
	g version.V raw -V
	local t
	for t in $COMMANDS; do
		g "help.$t" raw help "$t"
		g "help.$t.flag" raw "$t" --help
	done
	g help.capacity raw help capacity
	g help.unknown raw help frobnicate
	gcmd help.devfull raw bash -c 'exec "$1" --help >/dev/full' _ "$DB"
}

# size arguments of each test on the scratch directory
targs() {
	case $1 in
	randread | randwrite) echo "${RZ[@]}" ;;
	*) echo "${SZ[@]}" ;;
	esac
}

cases_dir() {
	local t a
	for t in $TESTS; do
		read -ra a <<<"$(targs "$t")"
		g "$t.dir.text" text "$t" "${a[@]}" "$D"
		g "$t.dir.json" json+m --json "$t" "${a[@]}" "$D"
		g "$t.dir.csv" csv "$t" "${a[@]}" --csv "$D"
	done
	g seqwrite.dir.quiet text -q seqwrite "${SZ[@]}" "$D"
	g randwrite.dir.quiet-after text randwrite "${RZ[@]}" --quiet "$D"
	g randread.dir.histogram text randread --histogram "${RZ[@]}" "$D"
	g randread.dir.histogram.quiet text -q randread --histogram "${RZ[@]}" "$D"
	g randread.dir.histogram.json json+m --json randread --histogram "${RZ[@]}" "$D"
	g randread.dir.threads.json json+m --json randread -j 4 "${RZ[@]}" "$D"
	g randread.dir.seed.json json+m+seed --json randread --seed 12345 "${RZ[@]}" "$D"
	g randwrite.dir.threads.text text randwrite -j 2 "${RZ[@]}" "$D"
	g seqwrite.dir.zeros.json json+m --json seqwrite --zeros "${SZ[@]}" "$D"
	g seqwrite.dir.syncnone.text text seqwrite --sync=none --no-direct "${SZ[@]}" "$D"
	g seqwrite.dir.syncnone.json json+m --json seqwrite --sync=none --no-direct "${SZ[@]}" "$D"
	g seqwrite.dir.fsync.json json+m --json seqwrite --sync=fsync "${SZ[@]}" "$D"
	g seqwrite.dir.dsync-nodirect.text text seqwrite --sync=dsync --no-direct "${SZ[@]}" "$D"
	g seqwrite.dir.suffixes.json json+m --json seqwrite -b 256k -s 4MB -t 0.3 "$D"
	g seqwrite.dir.bs1000-nodirect.text text seqwrite -b 1000 -s 10k -t 0.3 --no-direct "$D"
	g seqread.dir.threads.json json+m --json seqread -j 2 -b 64k -s 1M -t 0.3 "$D"
	g seqwrite.newpath.json json+m --json seqwrite "${SZ[@]}" "$D/newfile"
	g seqread.newpath.text text seqread "${SZ[@]}" "$D/newread"
	gcmd seqwrite.cwd.text text bash -c 'cd "$1" && exec "$2" seqwrite -s 4M -t 0.3' _ "$D" "$DB"
	# issue 19: one pass instead of -t seconds, and peer mode (fio's buffers and batching)
	g seqread.dir.once.text text seqread --once -s 4M -t 30 "$D"
	g randread.dir.once.json json+m --json randread --once -s 64k -t 30 "$D"
	g randread.dir.peer.json json+m --json randread --qd 4 --batch 1 --buffers=pages "${RZ[@]}" "$D"
	g seqread.dir.pages.text text seqread --buffers=pages "${SZ[@]}" "$D"
}

cases_file() {
	g seqread.file.text text seqread "${SZ[@]}" "$F"
	g seqread.file.json json+m --json seqread "${SZ[@]}" "$F"
	g seqread.file.big-size.json json+m --json seqread -s 1G -t 0.3 "$F"
	g buffered.file.text text buffered "${SZ[@]}" "$F"
	g cached.file.text text cached -t 0.3 "$F"
	g cached.file.json json+m --json cached -t 0.3 "$F"
	g randread.file.csv csv --csv randread "${RZ[@]}" "$F"
	cat "$F" >/dev/null
	g buffered.file.nodrop.json json+m --json buffered --drop-caches=none "${SZ[@]}" "$F"
	cat "$F" >/dev/null
	g buffered.file.no-drop-caches.text text buffered --no-drop-caches "${SZ[@]}" "$F"
	if [ $IS_ROOT = 0 ]; then
		skip "not root" buffered.file.dropall.json
	elif [ ! -w /proc/sys/vm/drop_caches ]; then
		skip "cannot write /proc/sys/vm/drop_caches (/proc not mounted, a chroot?)" buffered.file.dropall.json
	else
		g buffered.file.dropall.json json+m --json buffered --drop-caches=all "${SZ[@]}" "$F"
	fi
	g seqwrite.file.force.json json+m --json seqwrite --force -s 1M -t 0.3 "$F"
	g randwrite.file.force.text text randwrite --force "${RZ[@]}" "$F"
	g seqwrite.file.refused raw seqwrite "${SZ[@]}" "$F"
	g randwrite.file.refused raw randwrite "${SZ[@]}" "$F"
	g seqwrite.file.refused.json json+m --json seqwrite -s 1M "$F"
	g sweep.file.refused raw sweep --write 30 --point-time 0.2 --levels 1 --run oltp "$F"
	g info.file.json json+m --json info "$F"
}

cases_bad() {
	g bad.unknown-test raw frobnicate "$D"
	g bad.no-test raw
	g bad.unknown-long raw seqwrite --frobnicate "$D"
	g bad.unknown-short raw seqwrite -Z "$D"
	g bad.size-novalue raw seqwrite -s
	g bad.size.zero raw seqwrite -s 0 -t 1 "$D"
	g bad.buffers.bogus raw seqread --buffers=bogus "${SZ[@]}" "$D"
	g bad.batch.zero raw randread --batch 0 "${RZ[@]}" "$D"
	g bad.batch.buffered raw buffered --batch 2 "${SZ[@]}" "$D"
	g bad.reap.bogus raw randread --reap bogus "${RZ[@]}" "$D"
	g bad.poll.no-direct raw randread --poll --no-direct "${RZ[@]}" "$D"
	g bad.poll.aio raw randread --poll --engine=aio "${RZ[@]}" "$D"
	g bad.sqpoll.buffered raw buffered --sqpoll "${SZ[@]}" "$D"
	g bad.engine.nop-poll raw randread --engine=nop --poll "${RZ[@]}" "$D"
	g bad.max-open-zones.zero raw randwrite --max-open-zones 0 "${RZ[@]}" "$D"
	g max-open-zones.not-zoned text randwrite --max-open-zones 2 "${RZ[@]}" "$D"
	g max-open-zones.not-zoned.json json+m --json randread --max-open-zones 2 "${RZ[@]}" "$D"
	g bad.once.cached raw cached --once -t 0.3 "$D"
	g bad.size.negative raw seqwrite -s -1 -t 1 "$D"
	g bad.size.suffix raw seqwrite -s 12q -t 1 "$D"
	g bad.size.huge raw seqwrite -s 99999999999999999999T -t 1 "$D"
	g bad.size.empty raw seqwrite -s '' -t 1 "$D"
	g bad.size.overflow raw seqwrite -s 17179869184T "$D"
	g bad.bs.zero raw seqwrite -b 0 -s 8M -t 1 "$D"
	g bad.bs.negative raw seqwrite -b -4 -s 8M -t 1 "$D"
	g bad.bs.three raw seqwrite -b 3 -s 8M -t 1 "$D"
	g bad.bs.suffix raw seqwrite -b 12q -s 8M -t 1 "$D"
	g bad.bs.randread raw randread -b 3 -s 8M -t 1 "$D"
	g bad.bs.align-file raw seqread -b 1000 -s 8M -t 1 "$F"
	g bad.bs.align-dir raw seqwrite -b 1000 -s 8M -t 1 "$D"
	g bad.threads.zero raw randread -j 0 -s 8M -t 1 "$D"
	g bad.threads.many raw randread -j 100000 -s 8M -t 1 "$D"
	g bad.threads.negative raw randread -j -1 -s 8M -t 1 "$D"
	g bad.threads.word raw randread -j x -s 8M -t 1 "$D"
	g bad.time.negative raw seqwrite -t -1 -s 8M "$D"
	g bad.time.word raw seqwrite -t x -s 8M "$D"
	g bad.time.exponent raw seqwrite -t 1e -s 8M "$D"
	g bad.cached-no-time raw cached -t 0 "$F"
	g bad.drop-caches raw buffered --drop-caches=bogus -s 8M "$D"
	g bad.sync raw seqwrite --sync=bogus -s 8M "$D"
	g bad.json-and-csv csv --json --csv seqwrite -s 8M "$D"
	g bad.two-targets raw seqwrite -s 8M "$D" "$D"
	g bad.missing-write raw seqwrite -s 8M -t 1 "$M"
	g bad.missing-read raw seqread -s 8M -t 1 "$M"
	g bad.fifo-write raw seqwrite --force -s 8M -t 1 "$S/odd/fifo"
	g bad.fifo-read raw buffered -s 8M -t 1 "$S/odd/fifo"
	g bad.devnull-write raw seqwrite --force -s 8M -t 1 /dev/null
	g bad.devzero-read raw seqread -s 8M -t 1 /dev/zero
	g bad.tiny-file raw randread -s 8M -t 1 "$S/odd/tiny"
	g bad.empty-file raw seqread -s 8M -t 1 "$S/odd/empty"
	g bad.json.size json --json seqwrite -s 0 "$D"
	g bad.json.size-after json seqwrite -s 0 --json "$D"
	g bad.json.unknown-option json --json seqwrite --frobnicate "$D"
	g bad.json.unknown-test json --json frobnicate "$D"
	g bad.json.missing json --json seqread -s 8M "$M"
	g bad.csv.size csv --csv seqwrite -s 0 "$D"
	gcmd bad.stdout-full raw bash -c 'exec "$1" seqwrite -s 4M -t 0.3 "$2" >/dev/full' _ "$DB" "$D"
	g sweep.bad.budget2 raw sweep -s 16M --budget 2 "$D"
	g sweep.bad.levels-zero raw sweep --levels 0 "$D"
	g sweep.bad.levels-empty raw sweep --levels 1,,2 "$D"
	g sweep.bad.levels-decreasing raw sweep --levels 4,2 "$D"
	g sweep.bad.budget-zero raw sweep --budget 0 "$D"
	g sweep.bad.write raw sweep --write 150 "$D"
	g sweep.bad.point-time raw sweep --point-time -1 "$D"
	g sweep.bad.max-latency raw sweep --max-latency 1parsec "$D"
	g sweep.bad.run raw sweep --run bogus "$D"
	g sweep.bad.curve raw sweep --curve 50,10 "$D"
	g sweep.bad.curve-dss raw sweep --run dss --curve 50 "$D"
	g info.missing raw info "$M"
	g info.missing.json json --json info "$M"
	g info.missing.csv csv --csv info "$M"
	g quick.missing raw quick -t 2 "$M"
	# capacity (issue 42): a block device only, and options that agree
	g capacity.bad.dir raw capacity --force "$D"
	g capacity.bad.file raw capacity --force "$F"
	g capacity.bad.missing raw capacity --force "$M"
	g capacity.bad.destructive-journal raw capacity --destructive --journal x "$D"
	g capacity.bad.journal-empty raw capacity --journal '' "$D"
	g capacity.bad.bs raw capacity -b 4k "$D"
	g capacity.bad.dir.json json --json capacity "$D"
	g capacity.bad.dir.csv csv --csv capacity "$D"
}

# capacity (issue 42) on a loop device over a file on the tmpfs cases_ram
# mounted (its identity pinned): honest, so every figure but the times is fixed
cases_capacity() {
	local names=(capacity.loop.refused capacity.loop.text capacity.loop.json capacity.loop.csv)
	local loop
	if [ $IS_ROOT = 0 ] || ! mountpoint -q "$S/tmpfs" 2>/dev/null || [ ! -d /sys/dev/block ]; then
		skip "not root, no tmpfs from cases_ram, or no sysfs" "${names[@]}"
		return
	fi
	head -c $((16 * 1024 * 1024)) /dev/urandom >"$S/tmpfs/capacity.img"
	if ! loop=$(losetup -f --show "$S/tmpfs/capacity.img" 2>/dev/null) || [ ! -b "$loop" ]; then
		skip "cannot attach a loop device" "${names[@]}"
		return
	fi
	LOOP=$loop
	g capacity.loop.refused raw capacity "$LOOP"
	g capacity.loop.text text capacity --force --journal "$S/capacity.undo" "$LOOP"
	g capacity.loop.json json --json capacity --force --journal "$S/capacity.undo" "$LOOP"
	g capacity.loop.csv csv --csv capacity --force --journal "$S/capacity.undo" "$LOOP"
	losetup -d "$LOOP" 2>/dev/null
	LOOP=""
	rm -f "$S/tmpfs/capacity.img"
}

cases_commands() {
	g info.dir.text text+m info "$D"
	g info.dir.json json+m --json info "$D"
	g quick.dir.text text+m+q quick -t 2 -s 8M "$D"
	g quick.dir.json json+m+q quick -t 2 -s 8M --json "$D"
	g quick.dir.csv csv+q quick -t 2 -s 8M --csv "$D"
	g sweep.dir.text text sweep --budget 3 --point-time 0.5 -s 8M "$D"
	g sweep.dir.json json+m --json sweep --budget 3 --point-time 0.5 -s 8M "$D"
	g sweep.dir.csv csv --csv sweep --budget 3 --point-time 0.5 -s 8M "$D"
	# steady: limits no real run misses (always steady at round 3) or always
	# does (a range of exactly 0 % is never measured), so the text is fixed;
	# no --hold: a real disk on a busy machine can run a round 6 x faster than
	# the window (beyond any band --excursion allows), and steady.sh holds
	# --hold on the fake's clock
	local ST=(--round 0.2 --window 3 --max-rounds 3 -s 4M)
	g steady.dir.text text steady randread "${ST[@]}" --excursion 1000 --slope 1000 "$D"
	g steady.dir.unmet text steady randread "${ST[@]}" --excursion 0 --slope 0 "$D"
	g steady.dir.json json+m --json steady randread "${ST[@]}" --excursion 1000 --slope 1000 "$D"
	g steady.dir.csv csv --csv steady randwrite "${ST[@]}" --excursion 0 --slope 0 "$D"
	g steady.bad.no-test raw steady "$D"
	g steady.bad.window raw steady randread --window 1 "$D"
	g steady.bad.time raw steady randread -t 5 "$D"
	# open loop (issue 30): a rate any disk keeps up with; sla with targets
	# every run meets at once (10 s) or never (1 ns), so the steps are fixed.
	# Targets of the mean in text, JSON and CSV: a step fails when more of its
	# arrivals never started than its percentile leaves above it (issue 39),
	# however short their waits, and the first step asks the closed-loop
	# ceiling, which an open loop does not quite keep up with; on a busy
	# machine even half of a 0.2 s step's arrivals could wait past its end,
	# while the mean counts each at its wait, which 10 s holds and 1 ns never.
	g openloop.dir.text text randread --rate 200 --arrivals fixed -t 0.2 -s 4M "$D"
	g openloop.dir.json json+m --json randread --rate 200 --arrivals fixed -t 0.2 -s 4M "$D"
	local SL=(--step-time 0.2 -s 4M)
	g sla.dir.text text sla randread "${SL[@]}" --latency 10s,mean "$D"
	g sla.dir.unmet text sla randread "${SL[@]}" --latency 1ns,mean "$D"
	g sla.dir.json json+m --json sla randread "${SL[@]}" --latency 10s,mean "$D"
	g sla.dir.csv csv --csv sla randread "${SL[@]}" --latency 1ns,mean "$D"
	g sla.bad.no-latency raw sla randread "$D"
	g sla.bad.rate raw sla randread --latency 1ms --rate 100 "$D"
	g openloop.bad.rate raw randread --rate 0 "$D"
	g openloop.bad.arrivals raw randread --rate 100 --arrivals bogus "$D"
}

# as an unprivileged user: a file it cannot read, a directory it cannot write
cases_unprivileged() {
	local names=(priv.read-denied priv.write-denied)
	local as=()
	if [ $IS_ROOT = 0 ]; then
		skip "not root (cannot make files this user cannot read)" "${names[@]}"
		return
	elif command -v setpriv >/dev/null 2>&1 && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	else
		skip "cannot run as nobody (no working setpriv)" "${names[@]}"
		return
	fi
	mkdir -p "$S/priv/ro" && chmod 755 "$S/priv" && chmod 555 "$S/priv/ro"
	head -c $((1024 * 1024)) /dev/urandom >"$S/priv/secret" && chmod 000 "$S/priv/secret"
	gcmd priv.read-denied raw "${as[@]}" "$DB" seqread -s 1M -t 0.3 "$S/priv/secret"
	gcmd priv.write-denied raw "${as[@]}" "$DB" seqwrite -s 1M -t 0.3 "$S/priv/ro"
}

mount_fs() { # mount_fs TYPE DIR [OPTIONS]
	mkdir -p -- "$2"
	[ $IS_ROOT = 1 ] || return 1
	mount -t "$1" ${3:+-o "$3"} "$1" "$2" 2>/dev/null || return 1
	MOUNTS+=("$2")
}

cases_ram() {
	local T="$S/tmpfs"
	local tmpfs_cases=(seqwrite.tmpfs.text seqwrite.tmpfs.json seqread.tmpfs.text buffered.tmpfs.text
		cached.tmpfs.json randwrite.tmpfs.csv info.tmpfs.text info.tmpfs.json info.tmpfs.csv
		nospace.seqwrite nospace.seqread.json nospace.csv)
	local loop_cases=(info.loop.text info.loop.json info.loop.csv seqread.loop.json randread.loop.text
		buffered.loop.text seqwrite.loop.refused seqwrite.loop.refused.json quick.loop.text quick.loop.json)
	local ramfs_cases=(ramfs.seqwrite ramfs.seqwrite.json ramfs.seqread ramfs.nodirect.text)
	if [ $IS_ROOT = 0 ]; then
		skip "not root (tmpfs, ramfs, loop device)" "${tmpfs_cases[@]}" "${loop_cases[@]}" "${ramfs_cases[@]}"
		return
	fi
	if [ ! -r /proc/self/mountinfo ]; then
		# the documents name the mount point of the filesystems made here
		skip "no /proc/self/mountinfo (/proc not mounted, a chroot?): mounts made here are not visible" \
			"${tmpfs_cases[@]}" "${loop_cases[@]}" "${ramfs_cases[@]}"
		return
	fi
	if mount_fs tmpfs "$T" size=64m && mount_fs tmpfs "$S/small" size=16m; then
		g seqwrite.tmpfs.text text seqwrite "${SZ[@]}" "$T"
		g seqwrite.tmpfs.json json --json seqwrite "${SZ[@]}" "$T"
		g seqread.tmpfs.text text seqread "${SZ[@]}" "$T"
		g buffered.tmpfs.text text buffered "${SZ[@]}" "$T"
		g cached.tmpfs.json json --json cached -s 4M -t 0.3 "$T"
		g randwrite.tmpfs.csv csv --csv randwrite "${RZ[@]}" "$T"
		g info.tmpfs.text text info "$T"
		g info.tmpfs.json json --json info "$T"
		g info.tmpfs.csv csv --csv info "$T"
		g nospace.seqwrite raw seqwrite -s 32M -t 1 "$S/small"
		g nospace.seqread.json json --json seqread -s 32M -t 1 "$S/small"
		g nospace.csv csv --csv seqwrite -b 256k -s 15872k -t 1 "$S/small"
	else
		skip "cannot mount tmpfs" "${tmpfs_cases[@]}" "${loop_cases[@]}"
		loop_cases=()
	fi
	if [ ${#loop_cases[@]} -gt 0 ]; then
		truncate -s 16M "$T/loop.img"
		if command -v losetup >/dev/null 2>&1 && LOOP=$(losetup -r -f --show "$T/loop.img" 2>/dev/null) &&
			[ -b "$LOOP" ]; then
			g seqwrite.loop.refused raw seqwrite "${SZ[@]}" "$LOOP"
			g seqwrite.loop.refused.json json --json seqwrite "${SZ[@]}" "$LOOP"
			if [ -d /sys/dev/block ]; then
				g info.loop.text text info "$LOOP"
				g info.loop.json json --json info "$LOOP"
				g info.loop.csv csv --csv info "$LOOP"
				g seqread.loop.json json --json seqread "${SZ[@]}" "$LOOP"
				g randread.loop.text text randread "${RZ[@]}" "$LOOP"
				g buffered.loop.text text buffered "${SZ[@]}" "$LOOP"
				g quick.loop.text text+q quick -t 2 "$LOOP"
				g quick.loop.json json+q --json quick -t 2 "$LOOP"
			else
				# the device stack, "data in RAM" and the verdict come from sysfs
				skip "no /sys/dev/block (sysfs not mounted, a chroot?)" info.loop.text info.loop.json \
					info.loop.csv seqread.loop.json randread.loop.text buffered.loop.text \
					quick.loop.text quick.loop.json
			fi
			losetup -d "$LOOP" 2>/dev/null
			LOOP=""
		else
			LOOP=""
			skip "cannot attach a loop device" "${loop_cases[@]}"
		fi
	fi
	if mount_fs ramfs "$S/ramfs"; then
		g ramfs.seqwrite raw seqwrite "${SZ[@]}" "$S/ramfs"
		g ramfs.seqwrite.json json --json seqwrite "${SZ[@]}" "$S/ramfs"
		g ramfs.seqread raw seqread "${SZ[@]}" "$S/ramfs"
		g ramfs.nodirect.text text seqwrite --no-direct "${SZ[@]}" "$S/ramfs"
	else
		skip "cannot mount ramfs" "${ramfs_cases[@]}"
	fi
}

# report over fixed records (no measuring: every figure is pinned), its
# refusals and usage errors
cases_report() {
	local R="$S/report"
	mkdir -p "$R"
	# rec HOST RUN_ID START_S IOPS SLOW [LATE_US]: one --jsonl record (params from
	# $PARAMS) of IOPS I/Os per second for 2 s, SLOW of each second's I/Os at 2 ms
	# (node10 30 % slower: beyond --threshold 10 % and the one-run floor of 10 %)
	rec() {
		local params=${PARAMS:-'{"block_size":4096,"seed":7}'}
		printf '{"schema":1,"tool":"diskbench","version":"0.1.0","test":"randread","target":"/data",'
		printf '"params":%s,"host":"%s","run_id":"%s",' "$params" "$1" "$2"
		printf '"started_at":"2026-11-30T12:00:%09.6fZ",' "$3"
		printf '"ended_at":"2026-11-30T12:00:%09.6fZ",' "$(awk -v s="$3" 'BEGIN { print s + 2 }')"
		printf '"launcher":{},"clock":{"synchronised":true,"maxerror_us":12},'
		printf '"start_at":{"requested":1796040000.0,"late_us":%s},' "${6:-150}"
		printf '"result":{"bytes":%d,"ios":%d,"seconds":2.0,"bytes_per_sec":%d.0,"iops":%d.0,' \
			$(($4 * 8192)) $(($4 * 2)) $(($4 * 4096)) "$4"
		printf '"lat_ns":{"min":90000,"max":2000000,"p50":101376,"p99":1998848},'
		printf '"lat_buckets":{"scheme":"log-linear-7","pairs":[[1350,%d],[1351,%d],[1908,%d]]},' \
			$(($4 - $5)) "$4" "$5"
		printf '"series":{"interval_s":1.0,"t_s":[1.0,2.0],"bytes":[%d,%d],"ios":[%d,%d],' \
			$(($4 * 4096)) $(($4 * 4096)) "$4" "$4"
		printf '"merged":false}},"warnings":[]}\n'
	}
	{
		echo "node1 | CHANGED | rc=0 >>"
		rec node1 golden1 0.000 1000 10 | sed 's/^/node1: /'
		rec node2 golden1 0.004 1010 10 | sed 's/^/node2: /'
		rec node10 golden1 0.030 700 30 25000 | sed 's/^/node10: /'
	} >"$R/new.txt"
	{
		rec node1 golden0 0.000 1000 10
		rec node2 golden0 0.001 1000 10
		rec node10 golden0 0.002 1000 10
		rec node3 golden0 0.002 1000 10
	} >"$R/old.jsonl"
	{
		rec node1 golden1 0.000 1000 10
		PARAMS='{"block_size":8192,"seed":7}' rec node2 golden1 0.001 1000 10
	} >"$R/mixed.jsonl"
	printf 'garbage\n{"test": "randread", \n' >"$R/garbage.txt"
	g report.text raw report "$R/new.txt"
	g report.quiet raw report -q "$R/new.txt"
	g report.json raw report --json "$R/new.txt"
	g report.csv raw report --csv "$R/new.txt"
	g report.baseline.text raw report --baseline "$R/old.jsonl" "$R/new.txt"
	g report.baseline.json raw report --json --baseline "$R/old.jsonl" --threshold 15% "$R/new.txt"
	g report.baseline.csv raw report --csv --baseline "$R/old.jsonl" "$R/new.txt"
	g report.baseline.same raw report --baseline "$R/old.jsonl" "$R/old.jsonl"
	g help.report raw help report
	g help.report.flag raw report --help
	g report.bad.mixed raw report "$R/mixed.jsonl"
	g report.bad.mixed.json raw report --json "$R/mixed.jsonl"
	g report.bad.garbage raw report "$R/garbage.txt"
	g report.bad.empty raw report "$S/odd/empty"
	g report.bad.no-file raw report
	g report.bad.no-file.json raw report --json
	g report.bad.missing raw report "$M"
	g report.bad.directory raw report "$S/odd"
	g report.bad.threshold raw report --baseline "$R/old.jsonl" --threshold 5x "$R/new.txt"
	g report.bad.threshold-range raw report --baseline "$R/old.jsonl" --threshold 2000 "$R/new.txt"
	g report.bad.threshold-alone raw report --threshold 5 "$R/new.txt"
	g report.bad.option raw report -b 4k "$R/new.txt"
	g report.bad.stdin-twice raw report --baseline - -
}

# fleet runs (issue 13): the messages of bad --start-at values and misplaced fleet options
cases_fleet() {
	g fleet.bad.start-at.word raw randread --start-at tomorrow "${RZ[@]}" "$D"
	g fleet.bad.start-at.empty raw randread --start-at '' "${RZ[@]}" "$D"
	g fleet.bad.start-at.plus raw randread --start-at + "${RZ[@]}" "$D"
	g fleet.bad.start-at.negative raw randread --start-at -5 "${RZ[@]}" "$D"
	g fleet.bad.start-at.no-zone raw randread --start-at 2026-11-30T12:00:00 "${RZ[@]}" "$D"
	g fleet.bad.start-at.offset raw randread --start-at 2026-11-30T12:00:00+01:00 "${RZ[@]}" "$D"
	g fleet.bad.start-at.date raw randread --start-at 2026-02-29T12:00:00Z "${RZ[@]}" "$D"
	g fleet.bad.start-at.time raw randread --start-at 2026-11-30T24:00:00Z "${RZ[@]}" "$D"
	g fleet.bad.start-at.1969 raw randread --start-at 1969-12-31T23:59:59Z "${RZ[@]}" "$D"
	g fleet.bad.start-at.decimals raw randread --start-at 1764504000.1234567891 "${RZ[@]}" "$D"
	g fleet.bad.start-at.far raw randread --start-at +90000 "${RZ[@]}" "$D"
	g fleet.bad.start-at.far-utc raw randread --start-at 2099-01-01T00:00:00Z "${RZ[@]}" "$D"
	g fleet.bad.start-at.too-far raw randread --start-at 253402300800 "${RZ[@]}" "$D"
	g fleet.bad.host-label-alone raw randread --host-label node1 "${RZ[@]}" "$D"
	g fleet.bad.run-id-empty json randread --jsonl --run-id '' "${RZ[@]}" "$D"
	g fleet.randread.jsonl json+m randread --jsonl "${RZ[@]}" "$D"
	g fleet.randread.jsonl.labels json+m randread --jsonl --host-label 'node "7"' --run-id r1 \
		"${RZ[@]}" "$D"
	g fleet.seqwrite.jsonl.start-at json+m seqwrite --jsonl --start-at +1 "${SZ[@]}" "$D"
	g fleet.bad.jsonl-and-csv csv --jsonl --csv randread "${RZ[@]}" "$D"
	g fleet.bad.info-start-at raw info --start-at +1 "$D"
	g fleet.quick.jsonl jsonl+m+q quick --jsonl --run-id q1 -t 2 -s 8M "$D"
	g fleet.quick.jsonl.missing jsonl quick --jsonl --run-id q1 -t 2 "$M"
	g fleet.sweep.jsonl json+m sweep --jsonl --run-id s1 --budget 3 --point-time 0.5 -s 8M "$D"
}

# several targets (multi): the usage errors and refusals, and each output
# format over two scratch directories
cases_multi() {
	local D2="$S/dir2" many=() i
	mkdir -p "$D2"
	for ((i = 0; i < 65; i++)); do many+=("$D"); done
	g multi.dirs.text text randread -j 1 "${RZ[@]}" "$D" "$D2"
	g multi.dirs.json json+m --json seqwrite "${SZ[@]}" "$D" "$D2"
	g multi.dirs.csv csv --csv seqread "${SZ[@]}" "$D" "$D2"
	g multi.bad.same-file raw seqread "${SZ[@]}" "$F" "$F"
	g multi.bad.same-dir-slash raw randread "${RZ[@]}" "$D" "$D2" "$D/"
	g multi.bad.same-dir.json json --json randwrite "${RZ[@]}" "$D" "$D"
	g multi.bad.one-target-test raw cached -t 0.3 "$F" "$F"
	g multi.bad.info raw info "$D" "$D2"
	g multi.bad.too-many raw seqread -s 8M "${many[@]}"
	g multi.bad.missing raw seqread -s 8M "$D" "$M"
	g multi.refused.existing-file raw seqwrite "${SZ[@]}" "$D" "$F"
}

# files: its help and its usage errors and refusals (its figures are checked by
# tests/cli/files.sh)
cases_files() {
	g help.files raw help files
	g help.files.flag raw files --help
	g files.bad.n-zero raw files -n 0 "$D"
	g files.bad.n-huge raw files -n 2000000 "$D"
	g files.bad.n-word raw files -n many "$D"
	g files.bad.file-size-huge raw files --file-size 2G "$D"
	g files.bad.file-size-word raw files --file-size 12q "$D"
	g files.bad.dsync raw files --sync=dsync "$D"
	g files.bad.fewer-than-threads raw files -n 2 -j 3 "$D"
	g files.bad.dir-and-target raw files --dir "$S/files-work" "$D"
	g files.bad.dir-empty-name raw files --dir ''
	g files.bad.dir-not-empty raw files --dir "$S/odd"
	g files.bad.dir-is-file raw files --dir "$F"
	g files.bad.dir-missing-parent raw files --dir "$M"
	g files.bad.target-file raw files "$F"
	g files.bad.target-missing raw files "$M"
	g files.bad.no-direct raw files --no-direct "$D"
	g files.bad.size raw files -s 1M "$D"
	g files.bad.json.dsync json --json files --sync=dsync "$D"
	g files.bad.csv.dir-not-empty csv --csv files --dir "$S/odd"
}

# --svg (issue 14): refused where nothing is drawn or before a run it cannot
# end well; a picture that cannot be written after the result
cases_svg() {
	g svg.info raw info --svg "$S/x.svg" "$D"
	g svg.directory raw randread "${RZ[@]}" --svg "$D" "$F"
	g svg.directory.json json --json randread "${RZ[@]}" --svg "$D" "$F"
	g svg.unwritable text seqread "${SZ[@]}" --svg "$M" "$F"
}

# ---- the masker and comparer (python3) ---------------------------------------------
PY="$S/golden.py"
cat >"$PY" <<'PYEOF'
import csv, difflib, io, json, os, re, sys
sys.path.insert(0, os.environ["GOLDEN_HERE"])
import invariants

S, RAW, GOLD, MANIFEST = sys.argv[1:5]
UPDATE = os.environ.get("GOLDEN_UPDATE") == "1"

# ---- strings everywhere: paths, temp names, loop numbers, major:minor
def paths(s):
    s = s.replace(S, "<S>")
    s = re.sub(r"\.diskbench-(files-)?[0-9a-f]{8}-[0-9]+-[A-Za-z0-9]{6}", r".diskbench-\1BOOT-PID-XXXXXX", s)
    s = re.sub(r"\bloop[0-9]+\b", "loopN", s)
    # the engine auto picks depends on the kernel and its sandbox
    s = re.sub(r", (?:io_uring|libaio)([,\]])", r", <engine>\1", s)
    s = re.sub(r"\[[0-9]+:[0-9]+\]", "[N:N]", s)
    # --verify and verify (issue 42): a run's random id, the CPU's way to CRC32C
    s = re.sub(r"\(run [0-9a-f]{16},", "(run <random>,", s)
    s = re.sub(r"CRC32C by (?:sse4\.2|table)", "CRC32C by <crc>", s)
    return re.sub(r"st_dev [0-9]+:[0-9]+", "st_dev N:N", s)

# ---- warnings and errors
# whole warnings whose presence depends on the machine or on timing
DROP = [re.compile(p) for p in (
    # -t is a duration (issue 19): whether a timed run of a small region
    # does 20 I/Os follows the machine's speed and load
    r"(?:[^;]*: )?the run took only [0-9.]+ s \(\d+ I/Os\), too short to time well; use a larger -s(?: or -t)?",
    r"(?:[^;]*: )?the I/O buffers are not in huge pages:[^;]*",
    r"[^;]* at \d+ outstanding: only \d+ I/Os, so p99 and above rest on few samples",
    r"throttled: [^;]*",
    r"link-bound: [^;]*; the device may be faster than its link",
    r"[^;]* is impossible: a cache was measured[^;]*",
    r"[^;]* that the hypervisor claims for this virtual disk: the host's cache was measured[^;]*",
    r"the [^;]* link runs below what the device supports[^;]*",
    r"(?:[^;]*: )?(?:io_uring|aio) unavailable: [^;]*(?:; [^;]*unavailable[^;]*)*; using \w+",
    r"only [0-9.]+ % of the bytes read reached [^;]*",
    # what of a write test's bytes reached the disk follows its writeback (issue 39); the
    # warning's own "; use --sync=dsync ..." goes with it, as the CSV joins with "; "
    r"(?:[^;]*: )?only [0-9.]+ % of the bytes written reached [^;]*(?:; use --sync=dsync[^;]*)?",
    r"[^;]* wrote [0-9.]+ times the bytes diskbench wrote [^;]*",
    r"throughput was unsteady: [^;]*(?:; measure for longer[^;]*)?",  # its advice as above
    r"this process is limited to [^;]* by its cgroup: [^;]*",
    r"throughput held flat at [^;]*: a rate cap [^;]*",
    r"(?:[^;]*: )?flushes return in [^;]*: the device or hypervisor [^;]*; durability is not verified by this run",
    # follows the machine's load; the warning's own "; more threads (-j) ..." hint goes with it,
    # since the CSV joins warnings with the same "; " (a run with a spare CPU hides this)
    r"(?:[^;]*: )?a submitting thread was busy on the CPU for [^;]*(?:; more threads \(-j\)[^;]*)?",
    r"throughput fell while [^;]* (?:heated from|was at) [^;]*; cool it, or quote the sustained figure",
    r"[^;]* moved [^;]* during the run, diskbench [^;]*: other I/O on the disk [^;]*",
    r"--start-at: the system clock is not synchronised [^;]*; synchronise it with chrony, ntpd or "
    r"systemd-timesyncd",
    r"--start-at \S+ had passed [0-9.]+ s before the run was ready \([^;)]*\); it started at once",
    r"\S+ reports (?:a critical warning|SMART attribute) [^;]*; back up its data, and do not take "
    r"its figures for a healthy drive's",
    r"\S+ reports it is too hot [^;]*; cool it, and do not take its figures for a cool drive's",
)]
# findings that follow the machine or timing, as the warnings above
DROP_FINDINGS = {"device_saw_less", "device_wrote_more", "unsteady", "cgroup_limit", "rate_cap",
                 "flush_fast", "cpu_bound", "tool_bound", "heat", "health_warning",
                 "device_other_io"}
# numbers inside a message that come from timing, free space or the disk
MSG = [(re.compile(p), r) for p, r in (
    (r"the run took only [0-9.]+ s \([0-9]+ I/Os\)", "the run took only N s (N I/Os)"),
    # sla's unmet target: the rates and the time measured
    (r"even [0-9.]+ IOPS \(1/64 of the [0-9.]+ IOPS ceiling\) had a (\S+) response time of [0-9.]+ \S+ >",
     r"even N IOPS (1/64 of the N IOPS ceiling) had a \1 response time of N >"),
    (r"over the region, in [0-9.]+ s of -t", "over the region, in N s of -t"),
    (r"[0-9.]+ % of the data was still in the page cache", "N % of the data was still in the page cache"),
    (r"only [0-9.]+ % of the region stayed", "only N % of the region stayed"),
    (r"stopped after [0-9]+ s at [0-9.]+ \S+", "stopped after N s at N"),
    (r"[0-9.]+ [kKMGTP]?i?B available", "N available"),
    (r"not a multiple of [0-9]+, the O_DIRECT alignment", "not a multiple of N, the O_DIRECT alignment"),
    (r"use a multiple of [0-9]+ or --no-direct", "use a multiple of N or --no-direct"),
)]

# quick's steps run for shares of -t: whether a short one ends under 0.2 s
# or 20 I/Os is timing, so its cases (flag q) leave that warning out
SHORT_STEP = re.compile(r"(?:(?:SEQ|RND)\w+ Q\d+T\d+ (?:read|write)(?: \(dd oflag=dsync\))?: )?the run took only "
                        r"[0-9.]+ s \(\d+ I/Os\), too short to time well; use a larger -s(?: or -t)?")
EXTRA_DROP = []

def dropped(w):
    return any(d.fullmatch(w) for d in DROP + EXTRA_DROP)

def msg(s):
    s = paths(s)
    for p, r in MSG:
        s = p.sub(r, s)
    return s

def mask_err(text):
    out = []
    for line in text.split("\n"):
        if line.startswith("diskbench: warning: "):
            w = line[len("diskbench: warning: "):]
            if dropped(w):
                continue
            out.append("diskbench: warning: " + msg(w))
        elif line.startswith("diskbench: "):
            out.append(msg(line))
        else:
            out.append(paths(line))
    return "\n".join(out)

# ---- text: measured figures become N, the magnitude of their unit x
NUM = re.compile(r"(?<![\w.])\d+(?:\.\d+)?k?"
                 r"(?: ?(?:(?P<si>[kMGTP]?B)|(?P<iec>[KMGTP]iB)|(?P<t>ns|us|ms|s))(?!\w))?(?P<ps>/s)?")

def figures(s):
    def rep(m):
        unit = " xB" if m.group("si") else " xiB" if m.group("iec") else " xs" if m.group("t") else ""
        return "N" + unit + (m.group("ps") or "")
    return NUM.sub(rep, s)

# the factors named in the result line (issue 19): huge pages where the
# kernel gives them, requests per submit and passes follow the timing
FACTORS = [(re.compile(p), r) for p, r in (
    (r", huge-page buffers(?: \([0-9.]+ segments/request\))?", ""),
    (r", [0-9.]+ requests/submit", ""),
    (r", [0-9.]+ completions/reap", ""),
    # how the run chose to submit (issue 40) follows what its probe measured
    (r", submitted (?:one by one(?: on \d+ of \d+ threads)?|in batches) \([^)]*\)", ""),
    (r", -t: [0-9.]+ (?:passes \(wrapped\)|of a pass)", ", -t: <passes>"),
)]

def factors(s):
    for p, r in FACTORS:
        s = p.sub(r, s)
    return s

def columns(s):  # a table row: the widths follow the figures, so collapse them
    return re.sub(r"\s+", " ", figures(s)).strip()

RESULT = re.compile(r"^(seqwrite|seqread|buffered|cached|randread|randwrite|randrw|rw|trim|randtrim): "
                    r"(\d.*?)( \[[^\]]*\])?$")
# a mix's line per operation; its trims' way follows the engine auto picks
OP_LINE = re.compile(r"^  (read|write|trim): +(\d.*?)( \[[^\]]*\])?$")
# several targets: "  TARGET (DEVICE, STATE): figures"; the device is the machine's
TARGET_LINE = re.compile(r"^  (\S.*?) \((?:\S+, )?((?:new|existing) file|device)\): (\d.*)$")
HIST_ROW = re.compile(r"^\s+[0-9.]+ \S+ -\s+[0-9.]+ \S+\s+\d+\s")
VERDICT = re.compile(r"^looks like: (.*?) class \((.*)\)(.*)$")
SUMMARY = re.compile(r"^(max IOPS|min latency|knee|max MB/s)([^:]*): (.*)$")

HOST_CACHE = re.compile(r"^looks like: .*? from the host's cache: .* \((seq read .*)\)$")
# memory-speed figures where nothing says the disk is virtual (a chroot
# without /sys on a VM whose host caches the disk): as machine-bound as above
MEMORY_SPEED = re.compile(r"^looks like: (?:\S+: )?a cache, not the disk: the figures are memory "
                          r"speed \((seq read [^)]*)\) on a target not known to live in RAM: .*$")

def verdict_line(line):
    m = HOST_CACHE.match(line) or MEMORY_SPEED.match(line)  # the host's cache measured
    if m:
        return "looks like: <verdict> class (%s)" % figures(m.group(1))
    m = VERDICT.match(line)
    if not m:
        return line
    head = m.group(1) if m.group(1) == "RAM: RAM" else "<verdict>"
    return "looks like: %s class (%s)" % (head, figures(m.group(2)))

def mask_text(text, machine):
    lines = text.split("\n")
    if machine:  # this machine's identity: info's lines, above quick's own
        end = next((i for i, l in enumerate(lines) if l.startswith("quick: ")), None)
        if end is None:
            end = len(lines) - 1 if lines and lines[-1] == "" else len(lines)
        if end > 0:
            lines[:end] = ["<machine info>"]
    out, table = [], None
    for line in lines:
        line = paths(line)
        m = RESULT.match(line)
        if HIST_ROW.match(line):
            if not out or out[-1] != "  <histogram rows>":
                out.append("  <histogram rows>")
            continue
        if m:
            out.append("%s: %s%s" % (m.group(1), figures(m.group(2)), factors(m.group(3) or "")))
        elif OP_LINE.match(line):
            m = OP_LINE.match(line)
            out.append("  %s: %s%s" % (m.group(1), figures(m.group(2)), " [<trim path>]" if m.group(3) else ""))
        elif TARGET_LINE.match(line):
            m = TARGET_LINE.match(line)
            out.append("  %s (%s): %s" % (m.group(1), m.group(2), figures(m.group(3))))
        elif line.startswith(("latency: ", "cache: ", "response time (", "service time (",
                              "fdatasync latency: ", "fsync latency: ")):
            # how many never started by the window's end follows the machine's wake-ups
            out.append(figures(re.sub(r"; the \d+ never started counted to the window's end", "", line)))
        elif line.startswith("open loop: "):
            # how many started late follows the machine's wake-ups
            out.append(figures(re.sub(r"; \d+ I/Os started more than a mean gap late \(max lag [^)]*\)", "", line)))
        elif re.match(r"^(probe: |step \d+: |confirm \d+: |sla \w+: )", line):
            # sla's steps: their figures masked, which steps they are kept
            keep = r"((?:step|confirm) \d+:|1/64)"
            out.append("".join(x if re.fullmatch(keep, x) else figures(x) for x in re.split(keep, line)))
        elif re.match(r"^(spread|scan|narrow): ", line):
            out.append(re.sub(r"\([0-9.]+ s\)$", "(N s)", line))  # capacity's steps: their times
        elif line.startswith("  probe: "):
            out.append(re.sub(r" in [0-9.]+ s;", " in N s;", line))
        elif re.match(r"^(  )?verify: ", line):
            # --verify, verify: the read-back's time; how many blocks a backlog read follows -t
            line = re.sub(r"read back in [0-9.]+ s", "read back in N s", line)
            out.append(re.sub(r"^  verify: \d+ blocks(?=.*\(backlog)", "  verify: N blocks", line))
        elif line.startswith("buffers: huge pages, "):
            continue  # said where the kernel gave huge pages (issue 39): the machine's
        elif re.match(r"^device: \S+ [0-9]+ % busy", line):
            # the disks under the target: absent where sysfs is (a chroot), so not pinned
            continue
        elif machine and line.startswith("health: "):
            continue  # what this machine's disks say of themselves (NVMe, SATA readings)
        elif line.startswith("quick: over "):
            out.append(re.sub(r"laid out in [0-9.]+ s", "laid out in N s", line))
        elif line.startswith("quick: this run wrote ") and "wrote nothing" not in line:
            out.append(figures(line))  # how much the write steps wrote follows the disk
        elif line.startswith("  step "):
            table = "quick"
            out.append(line)
        elif re.match(r"^\s+(outstanding|streams)\s+IOPS", line):
            table = "sweep"
            out.append(line)
        elif table == "quick" and re.match(r"^  (\S.*?)\s{2,}(\d.*)$", line):
            m = re.match(r"^  (\S.*?)\s{2,}(\d.*)$", line)
            out.append("  %s  %s" % (m.group(1), columns(m.group(2))))
        elif table == "sweep" and re.match(r"^(\s+\d+)\s+(\d.*)$", line):
            m = re.match(r"^(\s+\d+)\s+(\d.*)$", line)
            out.append("%s %s" % (m.group(1), columns(m.group(2))))
        elif SUMMARY.match(line):
            m = SUMMARY.match(line)
            rest = re.sub(r"\bstreams?\b", "stream(s)", figures(m.group(3)))  # 1 stream, 2 streams
            out.append("%s%s: %s" % (m.group(1), m.group(2), rest))
        elif line.startswith("looks like: "):
            out.append(verdict_line(line))
        elif re.match(r"^  \S+\s+\S.*\s(PASS|FAIL|BELOW)\s{2}", line):  # fit's requirement rows
            out.append("  " + columns(line))
        elif re.match(r"^\s+undermined: flushes returned in ", line) or \
                line.startswith("advice: durability was not shown"):
            continue  # fast flushes, found or not by the machine's cache: as their warning
        elif re.match(r"^\S+: (?:fit|not fit)[,:]", line):  # fit's verdict line
            out.append(figures(line.replace("fit, undermined (see below):", "fit:")))
        elif re.match(r"^(round \d+|steady \w+(?: on '[^']*')?: )", line):
            # steady's rounds: their figures masked, which rounds they are kept
            keep = r"(rounds? \d+(?:-\d+)?(?: \(hold\))?|after \d+ rounds)"
            out.append("".join(x if re.fullmatch(keep, x) else figures(x) for x in re.split(keep, line)))
        else:
            table = None
            out.append(line)
    return "\n".join(out)

# ---- JSON: by key, numbers kept as diskbench wrote them
class Raw(str):
    pass

def dump(v, indent=None, level=0):
    if isinstance(v, Raw):
        return str(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        items = ["%s: %s" % (json.dumps(k, ensure_ascii=False), dump(x, indent, level + 1)) for k, x in v.items()]
        opener, closer = "{", "}"
    else:
        items = [dump(x, indent, level + 1) for x in v]
        opener, closer = "[", "]"
    if not items:
        return opener + closer
    if indent is None:
        return opener + ", ".join(items) + closer
    pad, end = "\n" + " " * (indent * (level + 1)), "\n" + " " * (indent * level)
    return opener + pad + ("," + pad).join(items) + end + closer

N = "<n>"
VOLATILE = {"bytes", "ios", "seconds", "bytes_per_sec", "iops", "writes", "samples", "lat_ns",
            "littles_law_outstanding", "bdp_outstanding", "lat_ns_mean", "lat_ns_p99", "seed",
            "layout_s", "resident_before_pct", "resident_after_pct", "buffer", "majmin", "st_dev", "serial",
            "qd_hist", "cdm", "run_bytes", "requests_per_submit", "passes", "wrapped",
            "value", "mean", "range_pct", "slope_pct", "off_pct", "t_start_s",  # steady's rounds
            "rate_served", "late_ios", "unserved_ios", "max_lag_ns", "service_lat_ns",  # open loop
            "ceiling_iops", "found_iops", "asked_iops", "served_iops", "response_ns",  # sla
            "service_p99_ns",
            "share_pct",  # a mix's achieved shares
            "sync_lat_ns", "calls", "per_sec",  # a job's sync calls (issue 41)
            "generation_found", "generation_wanted", "witness_lines"}  # --verify: how often -t wrote
# which engine auto picks depends on the kernel and its sandbox
ENGINE_KEYS = {"engine"}
FLEET_MACHINE = {"host", "clock"}  # top-level keys of a --jsonl record
SUMMARIES = {"max_iops", "min_latency", "max_bytes_per_sec", "knee", "max_iops_within_latency"}
MACHINE = "<machine>"

def masked(v):
    if isinstance(v, dict):
        return {k: masked(x) for k, x in v.items()}
    if isinstance(v, list):
        return [masked(x) for x in v]
    return v if v is None else N

def mask_verdict(v, machine):
    ram = v.get("prefix") == "RAM: "
    out = {}
    for k, x in v.items():
        if k in ("class", "label"):
            out[k] = x if ram else N
        elif k in ("or", "fit", "identity_note"):
            out[k] = N  # follow the figures
        elif k == "line":
            out[k] = verdict_line(x) if isinstance(x, str) else x
        elif k == "evidence":
            out[k] = masked(x)
        elif k in ("prefix", "link", "virtual_kind", "cloud_volume", "host_cache") and machine and not ram:
            out[k] = MACHINE  # host_cache follows the figures too
        elif k == "host_cache":
            out[k] = N if x else x
        else:
            out[k] = walk(x, k, machine, False)
    return out

def mask_info_result(r):  # info on this machine's disk: only the path is ours
    out = {}
    for k, x in r.items():
        if k == "fs" and isinstance(x, dict):
            out[k] = {a: (paths(b) if a in ("path", "path_type") else MACHINE) for a, b in x.items()}
        else:
            out[k] = MACHINE
    return out

def walk(v, key, machine, keep_seed, parent=None):
    if key == "seed" and keep_seed:
        return v
    if key in VOLATILE or (key == "outstanding" and parent in SUMMARIES):
        return masked(v)
    if key in ENGINE_KEYS and v in ("uring", "aio"):
        return "<engine>"
    if key == "reap" and isinstance(v, dict):  # how many waits the timing decided
        return {k: (N if k in ("calls", "completions_per_call") and x is not None else x)
                for k, x in v.items()}
    if key == "registered" and isinstance(v, dict):  # io_uring's, or none with aio
        return "<engine's>"
    if key == "submit_policy":  # what the run's probe measured chose; null where the engine
        return "<policy>"       # auto picks (aio, sync) or the depth leaves no choice
    if key == "trim_engine":  # queued through io_uring, or at once: the kernel's say
        return "<trim path>"
    if key == "bytes_written" and parent is None and v is not None and str(v) != "0":  # quick's: the write steps' follow the disk (0 stays)
        return N
    if key in ("lat_hist", "service_lat_hist", "sync_lat_hist") and isinstance(v, list):  # bucket count follows the figures
        return [{"le_ns": N, "count": N}] if v else []
    if key == "lat_buckets" and isinstance(v, dict):  # the scheme is pinned, the pairs measured
        return {k: ([[N, N]] if x else []) if k == "pairs" else x for k, x in v.items()}
    if key in FLEET_MACHINE and parent is None:  # --jsonl: this machine's name and clock
        return MACHINE
    if key == "run_id" and parent in (None, "verify") and re.match(r"^[0-9a-f]{16}$", str(v)):
        return "<random>"
    if key == "crc" and parent == "verify":  # the CPU's: SSE4.2 or the table
        return "<crc>"
    if key == "run_id" and parent is None and re.match(r"^at-\d+$", str(v)):
        return "at-<n>"  # --start-at's instant
    if key in ("started_at", "ended_at") and parent is None and v is not None:
        return "<time>" if re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$", str(v)) else v
    if key == "start_at" and parent is None and isinstance(v, dict):
        return masked(v)
    if key in ("device", "device_io", "health") and machine:
        return MACHINE
    if key == "device_io":  # null where sysfs is absent (a chroot)
        return MACHINE
    if key == "series" and isinstance(v, dict) and v.get("t_s"):
        # how many intervals a timed run holds follows the machine's pace
        return {k: N for k in v}
    if key == "tail" and parent == "series":  # the last, shorter interval: when the run ended
        return "<tail>"
    if key == "temps":  # which disks have a sensor, and its readings, are the machine's
        return MACHINE
    if key == "cpu" and isinstance(v, dict):  # the governor is the machine's (null without cpufreq)
        return {k: MACHINE if k == "governor" else masked(x) for k, x in v.items()}
    if key == "findings" and isinstance(v, list):
        return [f for f in v if not (isinstance(f, dict) and f.get("key") in DROP_FINDINGS)]
    if parent == "fit" and key in ("verdict", "advice", "undermined"):
        return N  # its figures, and whether fast flushes undermined a PASS: the machine's
    if parent == "requirements" and key == "note" and v and v.startswith("undermined: flushes"):
        return None  # as the fast flushes' warning: found or not by the machine's cache
    if key == "verdict" and isinstance(v, dict):
        return mask_verdict(v, machine)
    if key == "dd" and isinstance(v, dict):  # quick's dd step: its figures measured, the rest pinned
        return {k: masked(x) if k.startswith("write_") else x for k, x in v.items()}
    if key == "warnings" and isinstance(v, list):
        return [msg(w) for w in v if not (isinstance(w, str) and dropped(w))]
    if key == "error" and isinstance(v, str):
        return msg(v)
    if isinstance(v, dict):
        if machine and v.get("test") == "info" and isinstance(v.get("result"), dict):
            v = dict(v, result=mask_info_result(v["result"]))
        return {k: walk(x, k, machine, keep_seed, key) for k, x in v.items()}
    if isinstance(v, list):
        return [walk(x, key, machine, keep_seed, parent) for x in v]
    if isinstance(v, str) and not isinstance(v, Raw):
        return paths(v)
    return v

def held(text, mode):
    """tests/cli/invariants.py's violations in a JSON case's raw output (JSON Lines:
    each record's)."""
    if not mode.startswith("json") or not text.strip():
        return []
    docs = text.splitlines() if mode.startswith("jsonl") else [text]
    bad = []
    for t in docs:
        try:
            bad += invariants.check(invariants.parse(t))
        except ValueError:
            pass  # not JSON: what the comparison itself reports
    return bad

def mask_json(text, machine, keep_seed):
    if not text:
        return ""
    try:
        doc = json.loads(text, parse_int=Raw, parse_float=Raw)
    except ValueError:
        return "# not one JSON document\n" + paths(text)
    compact = dump(doc) == text.rstrip("\n")
    one_line = text.endswith("\n") and text.count("\n") == 1
    head = "# json: compact form identical: %s; one line ending in a newline: %s" % (
        "yes" if compact else "no", "yes" if one_line else "no")
    return head + "\n" + dump(walk(doc, None, machine, keep_seed), indent=1) + "\n"

# ---- CSV: header as it is, volatile columns masked
CSV_VOLATILE = re.compile(r"^(bytes|seconds|bytes_per_sec|iops|ios|lat_\w+_ns|resident_before_pct|"
                          r"littles_law_outstanding|files_per_sec|value|range_pct|slope_pct|t_start_s|"
                          r"asked_iops|served_iops|late_ios|unserved_ios|response_\w+_ns|service_p99_ns|"
                          r"(?:read|write|trim)_(?:ios|bytes|iops|lat_p50_ns|lat_p99_ns)|sync_calls|sync_lat_\w+_ns)$")
# (an operation's columns: masked when filled, kept empty when it did not run)

def csv_warnings(cell):
    for d in DROP + EXTRA_DROP:  # remove whole warnings from the "; "-joined list
        cell = re.sub(r"(?:^|; )(?:%s)(?=; |$)" % d.pattern, "", cell)
    return msg(cell[2:] if cell.startswith("; ") else cell)

def mask_csv(text):
    if not text:
        return ""
    rows = list(csv.reader(io.StringIO(text)))
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    same = buf.getvalue() == text
    header = text.split("\n", 1)[0]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    cols = rows[0] if rows else []
    for row in rows[1:]:
        new = []
        failed_run = "error" in cols and cols.index("error") < len(row) and row[cols.index("error")]
        quick_step = "step" in cols and cols.index("step") < len(row) and row[cols.index("step")]
        for i, cell in enumerate(row):
            col = cols[i] if i < len(cols) else ""
            if CSV_VOLATILE.match(col) and cell != "" and not failed_run:  # a failed run's zeros stay
                new.append(N)
            elif col == "warnings":
                new.append(csv_warnings(cell))
            elif col == "note" and cell.startswith("undermined: flushes returned"):
                new.append("")  # fit's note of fast flushes: as their warning, the machine's
            elif col == "error":
                new.append(msg(cell))
            elif col == "run_id" and re.fullmatch(r"[0-9a-f]{16}", cell):  # verify's: random
                new.append("<random>")
            elif col == "engine" and cell in ("uring", "aio"):  # as in the text: the kernel's choice
                new.append("<engine>")
            elif col == "verdict" and (cell or (not failed_run and quick_step)):  # quick's class
                new.append("<class>")  # follows the machine; none where its cache was measured
            else:
                new.append(paths(cell))
        w.writerow(new)
    return "# csv: rows re-serialize identically: %s\n%s\n%s" % (
        "yes" if same else "no", paths(header), out.getvalue())

def mask_out(text, mode):
    kind, flags = mode.split("+")[0], set(mode.split("+")[1:])
    machine = "m" in flags
    if kind == "json":
        return mask_json(text, machine, "seed" in flags)
    if kind == "jsonl":  # several records (quick --jsonl: one per step), each masked alone
        return "".join(mask_json(line + "\n", machine, "seed" in flags) for line in text.splitlines())
    if kind == "csv":
        return mask_csv(text)
    if kind == "text":
        return mask_text(text, machine)
    return paths(text)

def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()

def main():
    passed = failed = skipped = 0
    names = set()
    for line in read(MANIFEST).splitlines():
        what, name, mode = line.split(" ")
        names.add(name)
        EXTRA_DROP[:] = [SHORT_STEP] if "q" in mode.split("+")[1:] else []
        if what == "skip":
            skipped += 1
            continue
        raw_out = read(os.path.join(RAW, name + ".out"))
        got = {
            "out": mask_out(raw_out, mode),
            "err": mask_err(read(os.path.join(RAW, name + ".err"))),
            "rc": read(os.path.join(RAW, name + ".rc")),
        }
        bad = ["invariants: %s\n" % b for b in held(raw_out, mode)]
        for ext, text in got.items():
            path = os.path.join(GOLD, "%s.%s" % (name, ext))
            if UPDATE:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
                continue
            if not os.path.exists(path):
                bad.append("no expected file %s (record it with GOLDEN_UPDATE=1)\n" % path)
                continue
            want = read(path)
            if want != text:
                bad.extend(difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                                "expected/%s.%s" % (name, ext), "got/%s.%s" % (name, ext)))
        if bad:
            failed += 1
            print("golden: FAIL %s" % name)
            for l in bad:
                sys.stdout.write(l if l.endswith("\n") else l + "\n\\ No newline at end of file\n")
        else:
            passed += 1
    if UPDATE:
        for f in sorted(os.listdir(GOLD)):
            if f.rsplit(".", 1)[0] not in names:
                os.remove(os.path.join(GOLD, f))
                print("golden: removed %s (no such case)" % f)
        print("golden: %d expected cases written to %s" % (passed, GOLD))
    print("golden: %d passed, %d failed%s" % (passed, failed,
          ", %d skipped" % skipped if skipped else ""))
    return 1 if failed else 0

sys.exit(main())
PYEOF

# matrix (issue 15): its help and its usage errors (the figures are tests/cli/matrix.sh's)
cases_matrix() {
	g help.matrix raw help matrix
	g matrix.bad.list-empty raw matrix --block-sizes 4k,,1M "$D"
	g matrix.bad.range raw matrix --block-sizes 4k-10M "$D"
	g matrix.bad.range-backwards raw matrix --file-sizes 1G-64M "$D"
	g matrix.bad.step raw matrix --block-sizes 4k-16M:1 "$D"
	g matrix.bad.too-many raw matrix --block-sizes 256-16M:2 "$D"
	g matrix.bad.block-huge raw matrix --block-sizes 512M "$D"
	g matrix.bad.duplicate raw matrix --file-sizes 4M,4M "$D"
	g matrix.bad.ops raw matrix --ops read,frob "$D"
	g matrix.bad.reread-alone raw matrix --ops reread "$D"
	g matrix.bad.block-over-files raw matrix --file-sizes 4M --block-sizes 8M,16M "$D"
	g matrix.bad.block-over-files.json json --json matrix --file-sizes 4M --block-sizes 8M,16M "$D"
	g matrix.bad.budget raw matrix --file-sizes 4M --budget 1 "$D"
	g matrix.bad.bs raw matrix -b 4k "$D"
	g matrix.bad.file-target raw matrix --file-sizes 4M --budget 5 "$F"
}

# mixes and trims (issue 31): one pass (-t 0) of a few I/Os whose operations
# the seed fixes (seed 2's first four: read, read, write, trim; rw's seed 0:
# two reads, two writes), so every operation's line is there on any machine
cases_mix() {
	local t MX=(-s 16k -t 0 --seed 2)
	for t in randrw rw trim randtrim; do
		g "help.$t" raw help "$t"
	done
	g randrw.dir.text text randrw --mix r60,w30,t10 "${MX[@]}" "$D"
	g randrw.dir.json json+m --json randrw --mix r60,w30,t10 "${MX[@]}" "$D"
	g randrw.dir.read-only.text text randrw --mix r100 "${MX[@]}" "$D"
	# CSV: each operation's columns filled, those without a share empty
	g randrw.dir.csv csv --csv randrw --mix r60,w30,t10 "${MX[@]}" "$D"
	g randrw.dir.read-only.csv csv --csv randrw --mix r100 "${MX[@]}" "$D"
	g randtrim.dir.csv csv --csv randtrim "${MX[@]}" "$D"
	g rw.dir.text text rw -s 4M -t 0 --seed 7 "$D"  # a fixed draw: 4 I/Os may otherwise hold no write
	g randtrim.dir.text text randtrim "${MX[@]}" "$D"
	g trim.dir.json json+m --json trim -s 4M -t 0 "$D"
	g trim.file.refused raw trim "${SZ[@]}" "$F"
	g randrw.file.refused raw randrw "${RZ[@]}" "$F"
	g bad.mix.sum raw randrw --mix r70,w20 "$D"
	g bad.mix.letter raw randrw --mix r70,x30 "$D"
	g bad.mix.repeat raw randrw --mix r50,r50 "$D"
	g bad.mix.not-here raw randread --mix r50,w50 "$D"
}

# data verification (issue 42): --verify on write tests (after the writes, one
# pass so that the blocks are 4 however slow the disk; the backlog's block
# count follows -t, so text only), a region kept and read back
# by verify from its headers and against its witness, one overwritten on this
# machine (exit 7), and what is refused
cases_verify() {
	local K="$S/kept" W="$S/kept.witness"
	g help.verify raw help verify
	g help.verify.flag raw verify --help
	g seqwrite.dir.verify.text text seqwrite --verify --once -s 4M "$D"
	g seqwrite.dir.verify.json json+m --json seqwrite --verify --once -s 4M "$D"
	g randwrite.dir.verify-backlog.text text randwrite --verify=backlog "${RZ[@]}" "$D"
	g seqwrite.kept.verify-witness.text text seqwrite --verify --once --keep --witness "$W" -s 4M "$K"
	g verify.kept.text text verify "$K"
	g verify.kept.json json+m --json verify "$K"
	g verify.kept.csv csv --csv verify "$K"
	g verify.kept.witness.json json+m --json verify --witness "$W" "$K"
	gcmd verify.overwritten.text text bash -c 'printf XXXX | dd of="$2" bs=1 seek=1049000 conv=notrunc status=none && exec "$1" verify "$2"' _ "$DB" "$K"
	g verify.overwritten.json json+m --json verify --witness "$W" "$K"
	g verify.bad.dir raw verify "$D"
	g verify.bad.no-header raw verify "$F"
	g verify.bad.witness raw verify --witness "$F" "$K"
	g bad.verify.witness-alone raw seqwrite --witness "$W" "${SZ[@]}" "$D"
	g bad.verify.bogus raw seqwrite --verify=bogus "${SZ[@]}" "$D"
	g bad.verify.nop raw seqwrite --verify --engine=nop "${SZ[@]}" "$D"
	g bad.verify.trims raw randrw --verify --mix r50,w40,t10 "${RZ[@]}" "$D"
	g bad.verify.read-test raw seqread --verify "${SZ[@]}" "$D"
}

# job FILE.fio (issue 41): a small fdatasync job (etcd's check: 4 writes of
# 2300 B, a fdatasync after each) in text, JSON and CSV, and the refusals,
# each naming the file and line
cases_job() {
	local J="$S/jobs"
	mkdir -p "$J"
	printf '[etcd]\nrw=write\nioengine=sync\nfdatasync=1\nsize=9200\nbs=2300\n' >"$J/etcd.fio"
	printf '[a]\nrw=write\nsize=8k\n[b]\nrw=read\n' >"$J/together.fio"
	printf '[a]\nrw=write\niodepht=4\n' >"$J/typo.fio"
	printf '[a]\nrw=write\n' >"$J/nosize.fio"
	g help.job raw help job
	g job.dir.text text job "$J/etcd.fio" "$D"
	g job.dir.json json+m --json job "$J/etcd.fio" "$D"
	g job.dir.csv csv --csv job "$J/etcd.fio" "$D"
	g bad.job.none raw job
	g bad.job.missing raw job "$J/missing.fio" "$D"
	g bad.job.together raw job "$J/together.fio" "$D"
	g bad.job.typo raw job "$J/typo.fio" "$D"
	g bad.job.nosize raw job "$J/nosize.fio" "$D"
}

# fit PROFILE|FILE (issue 41): a small profile whose requirements any disk
# meets (text, JSON, CSV: exit 0, every row PASS) and the refusals of
# profiles and names (the shipped profiles: tests/cli/fit.sh)
cases_fit() {
	local J="$S/jobs"
	mkdir -p "$J"
	printf '# diskbench-about: a profile any disk passes\n# diskbench-source: golden.sh, a test\n# diskbench-require: write.iops >= 1\n# diskbench-require: sync.p99 < 100s\n[gold]\nrw=write\nioengine=sync\nfdatasync=1\nsize=9200\nbs=2300\n' >"$J/gold.fio"
	printf '# diskbench-require: write.iops >= 1\n[a]\nrw=write\nsize=8k\n' >"$J/nosource.fio"
	printf '[a]\nrw=write\nsize=8k\n' >"$J/plain.fio"
	g help.fit raw help fit
	g fit.dir.text text fit "$J/gold.fio" "$D"
	g fit.dir.json json+m --json fit "$J/gold.fio" "$D"
	g fit.dir.csv csv --csv fit "$J/gold.fio" "$D"
	g bad.fit.none raw fit
	g bad.fit.name raw fit no-such-profile "$D"
	g bad.fit.nosource raw fit "$J/nosource.fio" "$D"
	g bad.fit.plain raw fit "$J/plain.fio" "$D"
}

# `completion SHELL`'s errors (the scripts themselves: tests/cli/completion.sh)
cases_completion() {
	g completion.fish raw completion fish
	g completion.noshell raw completion
	g completion.fish.json raw --json completion fish
	g completion.option raw completion bash --bs 4k
}

# ---- run --------------------------------------------------------------------------
start=$SECONDS
cases_help
cases_dir
cases_file
cases_bad
cases_commands
cases_mix
cases_verify
cases_unprivileged
cases_ram
cases_capacity
cases_report
cases_matrix
cases_fleet
cases_multi
cases_files
cases_svg
cases_job
cases_fit
cases_completion
echo "golden: $(grep -c '^run ' "$MANIFEST") cases run in $((SECONDS - start)) s"
[ -n "$(find "$D" -name '.diskbench-*' 2>/dev/null)" ] && echo "golden: note: test files left in $D"
mkdir -p "$GOLD"
GOLDEN_HERE=$HERE python3 "$PY" "$S" "$S/raw" "$GOLD" "$MANIFEST"
