#!/usr/bin/env bash
# What the output left unsaid (issue 39), end to end:
#
#   bash tests/cli/unsaid.sh ./diskbench build/tests/diskbench-fake   (part of `make cli`)
#
# - quick says what it wrote, in its text (not only on a terminal): "this
#   run wrote X (N× its SIZE file)", X against strace's count of the bytes
#   every pwrite64 to quick's file returned (--engine=sync: each write a
#   pwrite64; strace -ff -y names each descriptor's file), within the
#   rounding of X and the flush check's 4 KiB blocks (8 per write step at
#   most), which it leaves out; N is X over the file's size by hand.
#   Negative: quick on an existing file writes nothing and says so.
# - --engine=nop names no device class: quick's verdict is "nop" (no class,
#   no label, no cache nor hypervisor named), its line says the figures are
#   diskbench's own ceiling; report refuses a run that mixes NOP records
#   with a disk's (exit 2, naming params.engine), reports a run of NOP
#   records apart and says so (text and JSON "nop"), and --baseline refuses
#   to compare NOPs with a disk's run.  Negative: records of two real
#   engines (sync, aio: what auto found per host) still group, nothing said.
# - buffers that change the figure: a 1 MiB O_DIRECT seqread from huge-page
#   buffers (1 segment a request, by the kernel's pagemap) says, on a line
#   of its own, that fio and dd from 4 KiB pages send up to 256 segments a
#   request (1 MiB / 4 KiB, by hand) and that --buffers=pages reads as they
#   do; JSON result.buffer.pages_segments_per_request is 256.  Negative:
#   --buffers=pages, 4 KiB blocks (one page either way) and --no-direct
#   (the page cache copies) say nothing of it.  Skipped where this machine
#   gives no huge pages.
# Every run is at most a second over 8 MiB in a scratch directory under
# /var/tmp, removed on exit.
set -u

if [ $# -lt 2 ]; then
	echo "usage: bash tests/cli/unsaid.sh PATH/TO/diskbench PATH/TO/diskbench-fake" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
FAKE=$(realpath -- "$2") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-unsaid.XXXXXX) || exit 2
cleanup() { rm -rf -- "$S"; }
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=unsaid

# ---- quick says what it wrote ----------------------------------------------------
t_quick_wrote() {
	local name="quick's text says what the run wrote, as strace counts it"
	if ! command -v strace >/dev/null; then
		skip "$name" "no strace here"
		return
	fi
	mkdir -p "$S/q"
	# -ff: a file per thread, so that no call is split by another's
	# LeakSanitizer cannot run under ptrace (make sanitize): it would end the run with 1
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -ff -qq -y -e trace=pwrite64 -o "$S/strace" "$DB" quick --engine=sync -s 8M -t 1 \
		"$S/q" >"$S/out" 2>"$S/err"
	rc=$?
	if [ "$rc" != 0 ]; then
		not_ok "$name" "exit $rc" "$(grep -v '^diskbench: warning: ' "$S/err" | tail -c 600)"
		return
	fi
	py "$name" "
import glob, re
total = 0
for name in glob.glob('$S/strace.*'):
    for l in open(name):
        m = re.search(r'pwrite64\(\d+<[^>]*/\.diskbench-[^>]*>, .*\) = (\d+)$', l)
        if m:
            total += int(m.group(1))
lines = [l for l in out.splitlines() if 'this run wrote' in l]
assert len(lines) == 1, out
m = re.search(r'this run wrote ([\d.]+) (kB|MB|GB) \(([\d.]+)× its 8\.0 MiB file: its layout and the write steps\)', lines[0])
assert m, lines[0]
said = float(m.group(1)) * {'kB': 1e3, 'MB': 1e6, 'GB': 1e9}[m.group(2)]
rounding = said * 0.006 + 1e5
flush_checks = 5 * 8 * 4096
assert said - rounding <= total <= said + rounding + flush_checks, (said, total)
assert abs(float(m.group(3)) - said / (8 << 20)) <= 0.051 * said / (8 << 20), (m.group(3), said)
print('# strace: %d bytes; said: %s' % (total, lines[0].strip()))"
}
t_quick_wrote

t_quick_reads_only() {
	local name="quick on an existing file writes nothing, and says so"
	head -c 8388608 /dev/urandom >"$S/existing"
	if ! run 0 quick -s 8M -t 1 "$S/existing"; then
		not_ok "$name" "exit $rc" "$(head -c 400 "$S/err")"
		return
	fi
	py "$name" "
lines = [l for l in out.splitlines() if 'this run wrote' in l]
assert len(lines) == 1 and 'this run wrote nothing' in lines[0], out"
}
t_quick_reads_only

# ---- NOPs: the tool's ceiling, no device's figure ---------------------------------
mkdir -p "$S/n"
if run 0 --json quick --engine=nop -s 8M -t 1 "$S/n"; then
	py "quick --engine=nop: the verdict names no class, and says why" "
v = d['verdict']
assert v['fit'] == 'nop' and v['class'] is None and v['label'] is None, v
assert v['host_cache'] is None and v['or'] is None, v
line = v['line']
assert line.startswith('looks like: no device: --engine=nop'), line
assert 'no class is named' in line and 'ceiling' in line, line
assert 'cache' not in line and 'hypervisor' not in line and ' class (' not in line, line"
else
	not_ok "quick --engine=nop" "exit $rc" "$(head -c 400 "$S/err")"
fi
if run 0 quick --engine=nop -s 8M -t 1 "$S/n"; then
	py "quick --engine=nop's text: the same line" "
last = out.splitlines()[-1]
assert last.startswith('looks like: no device: --engine=nop') and 'no class is named' in last, last"
else
	not_ok "quick --engine=nop's text" "exit $rc" "$(head -c 400 "$S/err")"
fi

# record HOST ENGINE RUN FILE: one --jsonl record of randread on the scratch dir
record() {
	"$DB" --jsonl randread --engine="$2" --host-label "$1" --run-id "$3" -s 8M -t 0.3 "$S/n" \
		>>"$S/$4" 2>/dev/null
}
record a sync r1 mixed.jsonl && record b nop r1 mixed.jsonl
if run 2 report "$S/mixed.jsonl" && grep -q 'params.engine is "sync" on a .* and "nop" on b' "$S/err" &&
	grep -q 'NOPs' "$S/err"; then
	ok "report refuses a run mixing NOP records with a disk's, exit 2, saying why"
else
	not_ok "report refuses a run mixing NOP records with a disk's" "exit $rc (wanted 2)" \
		"$(head -c 400 "$S/err")"
fi
record a nop r2 nop.jsonl && record b nop r2 nop.jsonl
if run 0 report "$S/nop.jsonl"; then
	py "report of NOP records alone: their group says they are no device's figures" "
head = [l for l in out.splitlines() if l.startswith('randread, run r2')]
assert len(head) == 1 and '--engine=nop' in head[0], out
assert 'no device' in out and 'ceiling' in out, out"
else
	not_ok "report of NOP records" "exit $rc" "$(head -c 400 "$S/err")"
fi
if run 0 --json report "$S/nop.jsonl"; then
	py "report's JSON: the NOP group has nop true" "
g = d['groups'][0]
assert g['nop'] is True, g"
else
	not_ok "report's JSON of NOP records" "exit $rc" "$(head -c 400 "$S/err")"
fi
record a sync r3 real.jsonl && record b aio r3 real.jsonl
if run 0 --json report "$S/real.jsonl"; then
	py "negative: records of two real engines still group, no NOP said" "
assert len(d['groups']) == 1 and d['groups'][0]['nop'] is False, d['groups']"
	if run 0 report "$S/real.jsonl" && ! grep -q 'nop\|NOP' "$S/out"; then
		ok "negative: their text says nothing of NOPs"
	else
		not_ok "negative: their text says nothing of NOPs" "exit $rc" "$(head -c 400 "$S/out")"
	fi
else
	not_ok "negative: records of two real engines" "exit $rc" "$(head -c 400 "$S/err")"
fi
if run 2 report --baseline "$S/real.jsonl" "$S/nop.jsonl" && grep -q 'params.engine' "$S/err"; then
	ok "report --baseline refuses NOP records against a disk's run, exit 2"
else
	not_ok "report --baseline refuses NOP records against a disk's run" "exit $rc (wanted 2)" \
		"$(head -c 400 "$S/err")"
fi

# ---- buffers that change the figure -------------------------------------------------
mkdir -p "$S/b"
if run 0 --json seqread -b 1M -s 8M -t 0.3 "$S/b" && python3 -c "
import json, sys
b = json.load(open('$S/out'))['result']['buffer']
sys.exit(0 if b['backing'] == 'huge pages' and b['segments_per_request'] is not None and b['segments_per_request'] <= 2 else 1)"; then
	py "JSON: what 4 KiB pages give a 1 MiB request, 256 segments" "
assert d['result']['buffer']['pages_segments_per_request'] == 256, d['result']['buffer']"
	run 0 seqread -b 1M -s 8M -t 0.3 "$S/b"
	py "text: fio and dd send up to 256 segments a request from 4 KiB pages; --buffers=pages does too" "
lines = [l for l in out.splitlines() if l.startswith('buffers: ')]
assert len(lines) == 1, out
l = lines[0]
assert 'segment' in l and 'per 1 MiB request' in l and 'huge pages' in l, l
assert 'fio and dd' in l and 'up to 256 per request' in l and '--buffers=pages' in l, l"
	for neg in "--buffers=pages -b 1M" "-b 4k" "--no-direct -b 1M"; do
		# shellcheck disable=SC2086
		run 0 seqread $neg -s 8M -t 0.3 "$S/b"
		py "negative: seqread $neg says nothing of buffers" "
assert not [l for l in out.splitlines() if l.startswith('buffers: ')], out
assert '256' not in out.splitlines()[0], out.splitlines()[0]"
	done
else
	skip "buffers that change the figure" "no huge-page buffers here (exit $rc)"
fi

tap_done
