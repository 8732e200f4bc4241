#!/usr/bin/env bash
# Messages that lead somewhere, and no leftover that survives the next run
# (issue 22).  Each message a user once met without a way forward has a case
# here that fails if it comes back, with a case where it must stay silent:
#
#   bash tests/cli/messages.sh ./diskbench      (part of `make cli`)
#
#   - a missing parent directory: exit 2, "No such file or directory";
#   - a read-only filesystem: the hint to name an existing file (root: a
#     read-only tmpfs mounted here; skipped otherwise);
#   - "did you mean" for mistyped options, and no guess for nonsense;
#   - durations with m and h; conflicting formats are a usage error;
#   - an interrupted quick and files list their finished steps and mark the
#     rest, never "partial: 0 bytes";
#   - a run killed with SIGKILL leaves a file the next run removes, saying
#     so; a live run's file, old-style names and look-alikes stay.
# Everything lives in a scratch directory under /var/tmp, removed by a trap.
# Output: `ok N - name` / `not ok N - name`, then `N passed, M failed, K skipped`.
set -u

DB=$(realpath -- "${1:?usage: messages.sh PATH/TO/diskbench}") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-messages.XXXXXX) || exit 2
MNTS=() PIDS=()
cleanup() {
	local p m
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	for m in "${MNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

# shellcheck source=tests/cli/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"
TAP_NAME=messages
TAP_TIMEOUT=300

# run_db ARGS...: diskbench, stdout in $S/out, stderr in $S/err, exit in $rc
run_db() { tap_run any "$@"; }
# expect_msg NAME EXIT ERE [ARGS...]: exit code and a line of stderr matching ERE
expect_msg() {
	local name=$1 want=$2 re=$3
	shift 3
	run_db "$@"
	if [ "$rc" = "$want" ] && grep -Eq -- "$re" "$S/err"; then
		ok "$name"
	else
		not_ok "$name" "exit $rc (wanted $want), stderr: $(head -c 400 "$S/err")" "wanted: $re"
	fi
}
# absent NAME ERE: the last run's stderr has no line matching ERE
absent() {
	if grep -Eq -- "$2" "$S/err"; then not_ok "$1" "stderr: $(head -c 400 "$S/err")"; else ok "$1"; fi
}
leftovers() { find "$1" -maxdepth 1 -name '.diskbench-*' -printf '%f\n' | sort; }

mkdir "$S/d"

# ---- targets whose directory is missing: exit 2, ENOENT --------------------
expect_msg "a missing directory (trailing slash) is exit 2, No such file or directory" 2 \
	"target '.*nosuchdir/': No such file or directory" randread -s 4M -t 0.1 "$S/d/nosuchdir/"
absent "... and never 'Is a directory'" "Is a directory"
expect_msg "a file in a missing directory is exit 2, No such file or directory" 2 \
	"No such file or directory" seqwrite -s 4M -t 0.1 "$S/d/nosuchdir/f"
expect_msg "a new path in an existing directory still runs" 0 "" \
	randread -s 4M -t 0.1 -q "$S/d/newfile"

# ---- a read-only filesystem names the way out ------------------------------
if [ "$(id -u)" = 0 ] && mkdir "$S/ro" && mount -t tmpfs -o ro,size=8m tmpfs "$S/ro" 2>/dev/null; then
	MNTS+=("$S/ro")
	expect_msg "read-only filesystem: the create error suggests naming an existing file" 1 \
		"Read-only file system; to measure reads here, name an existing file" \
		randread -s 4M -t 0.1 "$S/ro"
	expect_msg "read-only filesystem: files says the same for its directory" 1 \
		"create directory .*Read-only file system; .*name an existing file" files -n 16 "$S/ro"
else
	skip "read-only filesystem hint" "needs root and mount -t tmpfs -o ro"
	skip "read-only filesystem hint (files)" "needs root and mount -t tmpfs -o ro"
fi
run_db randread -s 4M -t 0.1 -q "$S/d"
absent "a writable directory gives no read-only hint" "Read-only|name an existing file"

# ---- did you mean ----------------------------------------------------------
expect_msg "--histo: did you mean --histogram" 2 "unknown option '--histo'; did you mean '--histogram'\?" \
	randread --histo "$S/d"
expect_msg "--qd32: did you mean --qd 32" 2 "unknown option '--qd32'; did you mean '--qd 32'\?" \
	randread --qd32 "$S/d"
expect_msg "--sice: did you mean --size (one letter off)" 2 "did you mean '--size'\?" randread --sice 4M "$S/d"
expect_msg "--xyzzy: unknown, and no guess" 2 "^diskbench: unknown option '--xyzzy'$" randread --xyzzy "$S/d"
expect_msg "--oncx: one letter from --once, which it names" 2 "did you mean '--once'\?" randread --oncx "$S/d"
expect_msg "--xyzzyq: nothing near it, no guess" 2 \
	"^diskbench: unknown option '--xyzzyq'$" randread --xyzzyq "$S/d"

# ---- durations -------------------------------------------------------------
run_db --json randread -s 4M -t 0.01m "$S/d"
if [ "$rc" = 0 ] && python3 -c "import json,sys; d=json.load(open('$S/out')); sys.exit(abs(d['params']['time_limit_s'] - 0.6) > 1e-9)"; then
	ok "-t 0.01m is 0.6 s"
else
	not_ok "-t 0.01m is 0.6 s" "exit $rc: $(head -c 300 "$S/err")"
fi
run_db --json randread -s 4M -t 0.0002h "$S/d"
if [ "$rc" = 0 ] && python3 -c "import json,sys; d=json.load(open('$S/out')); sys.exit(abs(d['params']['time_limit_s'] - 0.72) > 1e-9)"; then
	ok "-t 0.0002h is 0.72 s"
else
	not_ok "-t 0.0002h is 0.72 s" "exit $rc: $(head -c 300 "$S/err")"
fi
expect_msg "-t 1d is refused with examples of the units taken" 2 "not a duration \(examples: 2.5, 90s, 1m, 2h\)" \
	randread -t 1d "$S/d"

# ---- conflicting formats ---------------------------------------------------
for pair in "--json --csv" "--csv --json" "--jsonl --csv" "--json --jsonl"; do
	# shellcheck disable=SC2086
	run_db $pair randread -s 4M -t 0.1 "$S/d"
	if [ "$rc" = 2 ] && [ ! -s "$S/out" ] && grep -q "exclude each other" "$S/err"; then
		ok "$pair: usage error (exit 2), nothing on stdout"
	else
		not_ok "$pair: usage error (exit 2), nothing on stdout" "exit $rc" "stdout: $(head -c 200 "$S/out")"
	fi
done
run_db --csv randread -s 4M -t 0.1 "$S/d"
if [ "$rc" = 0 ] && [ "$(head -c 5 "$S/out")" = "test," ]; then ok "--csv alone still prints CSV"; else not_ok "--csv alone still prints CSV" "exit $rc"; fi

# ---- interrupted multi-step commands ---------------------------------------
# wait_size FILE_GLOB BYTES SECONDS: until a file matching reaches BYTES
wait_size() {
	local f i
	for ((i = 0; i < $3 * 10; i++)); do
		for f in $1; do
			[ -f "$f" ] && [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" -ge "$2" ] && return 0
		done
		sleep 0.1
	done
	return 1
}
mkdir "$S/q"
"$DB" quick -s 16M -t 8.5 "$S/q" >"$S/out" 2>"$S/err" &
qpid=$!
PIDS+=("$qpid")
wait_size "$S/q/.diskbench-*" $((16 << 20)) 60
sleep 2.5
kill -INT "$qpid"
wait "$qpid"
rc=$?
if [ "$rc" = 130 ] && python3 - "$S/err" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
i = lines.index("diskbench: quick interrupted; its steps (not a result):")
rows = lines[i + 1:i + 9]
names = [re.match(r"  (\S+ \S+ \S+)", r).group(1) for r in rows]
want = ["SEQ1M Q%sT%s read", "SEQ1M Q1T1 read", "RND4K Q%sT%s read", "RND4K Q1T1 read",
        "SEQ1M Q%sT%s write", "SEQ1M Q1T1 write", "RND4K Q%sT%s write", "RND4K Q1T1 write"]
assert [n.split()[0] + n.split()[2] for n in names] == [w.split()[0] + w.split()[2] for w in want], names
states = ["done" if re.search(r" IOPS, p50 ", r) else r.split()[-1] for r in rows]
# finished steps, then the one cut short, then those never run, in that order
s = "".join({"done": "d", "interrupted": "i", "run": "n"}[x] for x in states)
assert re.fullmatch(r"d*in*", s), states
assert not any("partial: 0 bytes" in l for l in lines), lines
PY
then ok "interrupted quick: 8 steps listed, finished ones with figures, the rest marked"
else not_ok "interrupted quick: 8 steps listed, finished ones with figures, the rest marked" "exit $rc" "$(head -c 900 "$S/err")"
fi
[ -z "$(leftovers "$S/q")" ] && ok "interrupted quick: its file is gone" || not_ok "interrupted quick: its file is gone" "$(leftovers "$S/q")"

mkdir "$S/f"
"$DB" files -n 20000 -t 2 "$S/f" >"$S/out" 2>"$S/err" &
fpid=$!
PIDS+=("$fpid")
# once a thousand files exist, the first phase is under way
for ((i = 0; i < 600; i++)); do
	[ "$(find "$S/f" -mindepth 2 -type f 2>/dev/null | head -n 1000 | wc -l)" -ge 1000 ] && break
	sleep 0.1
done
sleep 0.5
kill -INT "$fpid"
wait "$fpid"
rc=$?
if [ "$rc" = 130 ] && ! grep -q "partial: 0 bytes" "$S/err" && python3 - "$S/err" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
i = lines.index("diskbench: files interrupted; its phases (not a result):")
rows = [l for l in lines[i + 1:] if l.startswith("  ")]
names = [r.split()[0] for r in rows]
assert names == ["seq-create", "seq-stat", "seq-delete", "rand-create", "rand-stat", "rand-delete"], names
states = "".join("d" if re.search(r" files/s \([0-9]+ files in [0-9.]+ s\)$", r) else
                 {"interrupted": "i", "run": "n"}[r.split()[-1]] for r in rows)
# one phase cut short (create and delete run in rounds, so finished ones may
# follow it), and every phase not run after it
assert states.count("i") == 1 and "n" not in states[:states.index("i")], rows
PY
then ok "interrupted files: phases listed with files/s or marked, no 'partial: 0 bytes'"
else not_ok "interrupted files: phases listed with files/s or marked, no 'partial: 0 bytes'" "exit $rc" "$(head -c 900 "$S/err")"
fi

# ---- leftovers of a killed run ---------------------------------------------
mkdir "$S/k"
"$DB" randread -s 16M -t 60 "$S/k" >/dev/null 2>&1 &
kpid=$!
PIDS+=("$kpid")
if wait_size "$S/k/.diskbench-*" $((16 << 20)) 60; then
	kill -KILL "$kpid"
	wait "$kpid" 2>/dev/null
	left=$(leftovers "$S/k")
	boot=$(head -c 8 /proc/sys/kernel/random/boot_id 2>/dev/null)
	if [[ $left =~ ^\.diskbench-${boot:-00000000}-$kpid-[A-Za-z0-9]{6}$ ]]; then
		ok "a SIGKILLed run's file names its boot and its PID ($left)"
	else
		not_ok "a SIGKILLed run's file names its boot and its PID" "found: '$left'"
	fi
	touch "$S/k/.diskbench-ZNzGbe" "$S/k/$left.keep" "$S/k/data"
	if [ -z "$boot" ]; then
		skip "the next run removes the leftover" "no /proc/sys/kernel/random/boot_id"
	else
		expect_msg "the next run removes the leftover and says so" 0 \
			"warning: removed '$left', left by diskbench process $kpid, which is no longer running" \
			randread -s 4M -t 0.1 -q "$S/k"
		# (sorted alike: the leftover's name starts with the boot id, so where it
		# sorts against .diskbench-ZNzGbe depends on the boot)
		if [ "$(leftovers "$S/k" | LC_ALL=C sort)" = "$(printf '%s\n' .diskbench-ZNzGbe "$left.keep" | LC_ALL=C sort)" ] &&
			[ -f "$S/k/data" ]; then
			ok "... and nothing else: old-style names, look-alikes and other files stay"
		else
			not_ok "... and nothing else: old-style names, look-alikes and other files stay" "$(ls -A "$S/k")"
		fi
	fi
else
	not_ok "a SIGKILLed run's file names its boot and its PID" "the run laid out no file"
fi
mkdir "$S/live"
"$DB" randread -s 16M -t 60 "$S/live" >/dev/null 2>"$S/live.err" &
lpid=$!
PIDS+=("$lpid")
if wait_size "$S/live/.diskbench-*" $((16 << 20)) 60; then
	mine=$(leftovers "$S/live")
	run_db randread -s 4M -t 0.1 -q "$S/live"
	absent "a second run in the same directory leaves a live run's file alone" "removed|left by"
	[ "$(leftovers "$S/live")" = "$mine" ] && ok "... which is still there" || not_ok "... which is still there" "$(leftovers "$S/live")"
	kill -INT "$lpid"
	wait "$lpid"
	[ -z "$(leftovers "$S/live")" ] && ok "... and its owner removes it at the end" || not_ok "... and its owner removes it at the end" "$(leftovers "$S/live")"
else
	not_ok "a second run leaves a live run's file alone" "the run laid out no file"
fi
mkdir "$S/t"
"$DB" files -n 200000 -t 5 "$S/t" >/dev/null 2>&1 &
tpid=$!
PIDS+=("$tpid")
sleep 2
kill -KILL "$tpid"
wait "$tpid" 2>/dev/null
tree=$(leftovers "$S/t")
if [[ $tree == .diskbench-files-* ]]; then
	expect_msg "a SIGKILLed files run's tree is removed by the next run" 0 "removed '$tree'" files -n 16 -q "$S/t"
	[ -z "$(leftovers "$S/t")" ] && ok "... and the directory is clean" || not_ok "... and the directory is clean" "$(leftovers "$S/t")"
else
	skip "a SIGKILLed files run's tree is removed by the next run" "no tree was left (found '$tree')"
fi

# a full filesystem: files of size 0 are not "0 B needed"; the reserve is named
if [ "$(id -u)" = 0 ] && mkdir "$S/full" && mount -t tmpfs -o size=2m tmpfs "$S/full" 2>/dev/null; then
	MNTS+=("$S/full")
	head -c $((2048 * 1024 - 16 * 1024)) /dev/zero >"$S/full/fill" 2>/dev/null
	expect_msg "files on a full filesystem: below the 5 % reserve, named" 1 \
		"not enough free space for the files in '.*full/[^']*': [0-9.]+ KiB available, below the 5 % of the filesystem \(102 KiB\) that must stay free" \
		files -n 16 --file-size 0 "$S/full"
	absent "... and never '0 B needed'" "0 B needed"
	absent "... nor a smaller -n, which would not help" "smaller -n"
	rm -f "$S/full/fill"
	expect_msg "files on the same filesystem, emptied: runs" 0 "" files -n 16 --file-size 0 -q "$S/full"
else
	skip "files on a full filesystem" "not root, or no tmpfs mount here"
fi

# ---- what a new user types (issue 33): fio's options, typos, fractions ------
expect_msg "fio's --iodepth points to --qd" 2 \
	"^diskbench: unknown option '--iodepth' \(a fio option; in diskbench: --qd, requests in flight per thread\)$" \
	randread --iodepth 4 "$S/d/x"
expect_msg "fio's --numjobs points to -j" 2 "unknown option '--numjobs' \(a fio option; in diskbench: -j, threads\)" \
	randread --numjobs=2 "$S/d/x"
expect_msg "fio's --runtime points to -t" 2 "unknown option '--runtime' \(a fio option; in diskbench: -t, a duration\)" \
	randread --runtime=10 "$S/d/x"
expect_msg "fio's --direct says O_DIRECT is the default" 2 "unknown option '--direct' \(a fio option; in diskbench: nothing, O_DIRECT is the default" \
	randread --direct=1 "$S/d/x"
expect_msg "fio's --rw names the test" 2 "unknown option '--rw' \(a fio option; in diskbench: the test's name" \
	randread --rw=randread "$S/d/x"
expect_msg "a diskbench typo still gets did-you-mean, not a fio hint" 2 "unknown option '--histo'; did you mean '--histogram'\?" \
	randread --histo "$S/d/x"
expect_msg "randraed: did you mean 'randread'?" 2 "^diskbench: unknown test 'randraed'; did you mean 'randread'\?$" randraed "$S/d/x"
n=$(grep -c -i "help" "$S/err")
[ "$n" = 1 ] && ok "... and the help hint once" || not_ok "... and the help hint once" "$(cat "$S/err")"
expect_msg "a word far from every test: no guess" 2 "^diskbench: unknown test 'xyzzy'$" xyzzy "$S/d/x"
expect_msg "-s 1.5G: the fraction is the problem, not the suffix" 2 \
	"--size '1.5G': use a whole number of a smaller unit \(1.5G is 1536M\)" randread -s 1.5G "$S/d/x"
absent "... and never 'unknown suffix'" "unknown suffix"
expect_msg "-s 2X: still an unknown suffix" 2 "--size '2X': unknown suffix" randread -s 2X "$S/d/x"
# a usage error in CSV: its parameters are unknown, empty, not zeros
run_db randread --csv --bogus "$S/d/x"
row=$(sed -n 2p "$S/out")
# (after the error: qd, engine, step, verdict, the 15 per-operation columns
# and the open loop's 4)
if [ "$rc" = 2 ] && [[ $row == ,,,,,,,,,,,,,,,,,,,,"unknown option '--bogus'",,,,,,,,,,,,,,,,,,,,,,, ]]; then
	ok "a --csv usage error: a row with the error and nothing else"
else
	not_ok "a --csv usage error: a row with the error and nothing else" "exit $rc: $row"
fi
# JSON of a usage error: the target given, else null, never a made-up "."
run_db randread --json -s 1.5G "$S/d/x"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["target"] == sys.argv[2], d["target"]' "$S/out" "$S/d/x" 2>"$S/py" &&
	ok "a JSON usage error after the target was read names it" || not_ok "a JSON usage error after the target was read names it" "$(cat "$S/py")"
run_db randread --json --bogus "$S/d/x"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["target"] is None, d["target"]' "$S/out" 2>"$S/py" &&
	ok "a JSON unknown option: target null, not '.'" || not_ok "a JSON unknown option: target null, not '.'" "$(cat "$S/py")"

# ---- a write test says up front, on a terminal, how much it may write -------
if ! command -v script >/dev/null 2>&1; then
	skip "a write test says how much it may write on a terminal" "no script(1) here"
elif ! script -qec true /dev/null >/dev/null 2>&1 </dev/null; then
	skip "a write test says how much it may write on a terminal" "script(1) cannot make a pseudo-terminal here (no /dev/pts?)"
else
	mkdir -p "$S/w"
	script -qec "$(printf '%q ' "$DB" seqwrite -s 4M -t 0.3 "$S/w")" /dev/null >"$S/tty.out" 2>&1 </dev/null
	if grep -q "^diskbench: seqwrite will write for 0.3 s, round and round its 4.0 MiB region as fast as the disk takes it: on a fast disk, many times 4.0 MiB (--once: once)" "$S/tty.out"; then
		ok "seqwrite on a terminal: how much it may write, before it writes"
	else
		not_ok "seqwrite on a terminal: how much it may write, before it writes" "$(head -c 400 "$S/tty.out")"
	fi
	script -qec "$(printf '%q ' "$DB" randwrite --once -s 4M "$S/w")" /dev/null >"$S/tty.out" 2>&1 </dev/null
	grep -q "^diskbench: randwrite will write its 4.0 MiB region once" "$S/tty.out" &&
		ok "randwrite --once on a terminal: its region once" ||
		not_ok "randwrite --once on a terminal: its region once" "$(head -c 400 "$S/tty.out")"
	script -qec "$(printf '%q ' "$DB" seqwrite -q -s 4M -t 0.3 "$S/w")" /dev/null >"$S/tty.out" 2>&1 </dev/null
	! grep -q "will write" "$S/tty.out" && ok "... silent with -q" || not_ok "... silent with -q" "$(head -c 400 "$S/tty.out")"
	run_db seqwrite -s 4M -t 0.3 "$S/w"
	absent "... and silent when stderr is not a terminal (scripts)" "will write"
	run_db randread -s 4M -t 0.3 "$S/w"
	absent "... and a read test says nothing of writes" "will write"
fi

tap_done
