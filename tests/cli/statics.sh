#!/usr/bin/env bash
# No run state in module statics (issue 20): the writable static data
# (.data and .bss) of every object of the program is listed by objdump and
# checked against the allowed list below, each with why it is not the state
# of a run.  A new static in a room fails this test until it is either
# moved into storage the caller owns (a run_record, result_keep) or added
# here with its reason.
#
#   bash tests/cli/statics.sh            (from the top of the tree, after make)
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/cli/tap.sh

# object:symbol (a function-local static's suffix .N dropped) and why
allowed='
src/main.o:c                    main owns the command line it parsed
src/main.o:r                    main owns the result every command fills
src/main.o:record               main owns the run record the command measures into
src/main.o:fleet                main owns the fleet record (one per process by design)
src/main.o:signal_count         the signal handler: async-signal-safe flags only
src/main.o:last_signal          the signal handler: async-signal-safe flags only
src/capacity/capacity_dev.o:before  the signal mask capacity restores: per process, as signals are
src/run/bench_worker.o:bench_stop_requested   set by the SIGINT handler, read by every loop
src/run/progress.o:shown        whether a progress line is on the terminal now
src/run/target.o:cleanup_path   files to remove on a signal: the handler reads them
src/run/target.o:cleanup_armed  files to remove on a signal: the handler reads them
src/run/target.o:cleanup_tree   a tree to remove on a signal: the handler reads it
src/run/target.o:tree_armed     a tree to remove on a signal: the handler reads it
src/run/target.o:tree_remove_self  a tree to remove on a signal: the handler reads it
src/run/target.o:keep_files     --keep, set once from the command line
src/run/scratch.o:boot         this boot'"'"'s id, read once: the same for every run of the process
src/run/scratch.o:read         whether that id was read
src/run/target.o:ids            scratch of one check of several targets, rewritten each call
src/run/target.o:d              scratch of one check of overlapping devices, rewritten each call
src/lib/crc32c.o:table          the constant CRC32C tables, built once (pthread_once), the same for every run
src/lib/crc32c.o:shift_long     the constant CRC32C tables, built once (pthread_once), the same for every run
src/lib/crc32c.o:shift_short    the constant CRC32C tables, built once (pthread_once), the same for every run
src/lib/crc32c.o:tables_once    the pthread_once that builds them
src/lib/crc32c.o:have_hw        whether the CPU has SSE4.2, read once with the tables
src/lib/units.o:range           the text fmt_ returns, rewritten each call
src/platform/platform_linux.o:name  the name plat_blockdev_in_ram returns, rewritten each call
src/output/output_svg.o:tc      drawing scratch, rewritten by each picture
src/output/output_svg_matrix.o:labels  drawing scratch, rewritten by each picture
src/output/output_svg_quick.o:c        drawing scratch, rewritten by each picture
src/output/output_svg_report.o:merged  drawing scratch, rewritten by each picture
src/output/output_svg_sweep.o:charts   drawing scratch, rewritten by each picture
src/output/output_svg_steady.o:x      drawing scratch, rewritten by each picture
src/output/output_svg_steady.o:y      drawing scratch, rewritten by each picture
'

objects=$(ls src/*/*.o src/main.o 2>/dev/null)
if [ -z "$objects" ]; then
	echo "statics: no objects (run make first)" >&2
	exit 2
fi
for o in $objects; do
	# writable sections only: .data.rel.ro and .rodata are constant tables
	for sym in $(objdump -t "$o" | awk '$3 == "O" && $4 ~ /^\.(data|bss)/ && $4 !~ /^\.data\.rel\.ro/ && $NF !~ /^(\.|__(asan|ubsan|odr_asan))/ { print $NF }' |
		sed 's/\.[0-9]*$//' | sort -u); do
		if ! printf '%s\n' "$allowed" | grep -q "^$o:$sym[[:space:]]"; then
			not_ok "$o: static '$sym' is not in tests/cli/statics.sh's list of statics that are no run state"
		fi
	done
done
if [ "$failed" = 0 ]; then
	ok "no run state in module statics ($(echo "$objects" | wc -w) objects)"
fi
[ "$failed" = 0 ]
