#!/usr/bin/env bash
# Mixes and trims (issue 31), end to end:
#
#   bash tests/cli/mix.sh ./diskbench          (part of `make cli`)
#
# - Bad input: a mix not summing to 100, an unknown or repeated letter, --mix
#   on a test that has none: usage errors (exit 2) saying why.
# - Safety: randrw and trim refuse an existing file without --force (exit 3);
#   a mix of reads alone is a read test and needs none.
# - The achieved mix: one pass (-t 0) of 12288 random 4 KiB I/Os with a
#   fixed seed: the draw is the seed's, so the shares are exact to the run,
#   and must be within 1 point of --mix.
# - On a loop device over a 64 MiB file in /dev/shm: each operation's count
#   against the device's own counters (/sys/block/loopN/stat: reads field 1,
#   writes field 5, discards field 12) within 5 %; trims in a mix arrive as
#   discards; a read-only mix moves no writes and no discards; randtrim is
#   discards alone; trims are refused without --force and, with it, while
#   the device holds a mounted ext4 (exit 3, no discard reaches it).  Needs
#   root and a loop device; skipped, saying why, otherwise.
# - On a file: a trim pass punches holes (the allocated blocks drop, the data
#   read as zeros, the size stays); a filesystem that cannot punch holes
#   (ramfs, root only) is refused before the run, exit 2.
# - Negative: a pure read test's JSON has no ops and no trim_engine.
# Every run here is one pass of at most 12288 I/Os (well under 2 s on a
# loop device over tmpfs); all files live in a scratch directory under
# /var/tmp and /dev/shm, removed on exit with the loop device.
set -u

if [ $# -lt 1 ]; then
	echo "usage: bash tests/cli/mix.sh PATH/TO/diskbench" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-mix.XXXXXX) || exit 2
LOOP="" SHM_IMG="" RAMFS="" MNT=""
cleanup() {
	[ -n "$MNT" ] && { umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null; }
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	[ -n "$SHM_IMG" ] && rm -f -- "$SHM_IMG"
	[ -n "$RAMFS" ] && { umount "$RAMFS" 2>/dev/null || umount -l "$RAMFS" 2>/dev/null; }
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=mix

# ---- bad input ----------------------------------------------------------------
bad_mix() {
	local name=$1 mix=$2 words=$3
	if run 2 randrw --mix "$mix" "$S" && grep -q -- "^diskbench: --mix: .*$words" "$S/err"; then
		ok "$name"
	else
		not_ok "$name" "exit $rc" "$(head -c 300 "$S/err")"
	fi
}
bad_mix "a mix summing to 90 is a usage error" r70,w20 "sums to 90 %, not 100"
bad_mix "a mix summing to 110 is a usage error" r70,w40 "sums to 110 %, not 100"
bad_mix "an unknown letter is a usage error" r70,x30 "'x' is not an operation"
bad_mix "a repeated letter is a usage error" r50,r50 "'r' is given twice"
bad_mix "a share without its percent is a usage error" r,w100 "'r' needs a whole percent"
check "--mix does not apply to randread" 2 randread --mix r50,w50 "$S"

# ---- safety -------------------------------------------------------------------
head -c 4194304 /dev/urandom >"$S/existing"
check "randrw refuses an existing file without --force" 3 randrw -s 4M -t 0 "$S/existing"
check "trim refuses an existing file without --force" 3 trim -s 4M -t 0 "$S/existing"
check "randtrim refuses an existing file without --force" 3 randtrim -s 4M -t 0 "$S/existing"
check "a read-only mix reads an existing file without --force" 0 \
	randrw --mix r100 -s 4M -t 0 "$S/existing"

# ---- the achieved mix, on a file ------------------------------------------------
if run 0 --json randrw --mix r60,w30,t10 -s 48M -t 0 --seed 1 --sync=none "$S"; then
	py "one pass of 12288 I/Os: each share within 1 point of r60,w30,t10, ops add up" '
r = d["result"]; ops = r["ops"]
assert r["ios"] == 12288, r["ios"]
for k, want in (("read", 60), ("write", 30), ("trim", 10)):
    o = ops[k]
    got = 100.0 * o["ios"] / r["ios"]
    assert abs(got - want) <= 1, (k, got)
    assert o["bytes"] == o["ios"] * 4096, (k, o)
    assert o["lat_ns"]["p50"] > 0 and o["lat_hist"], (k, o)
    assert o["mix_pct"] == want
assert sum(o["ios"] for o in ops.values()) == r["ios"]
assert r["trim_engine"] in ("uring_fallocate", "fallocate_punch_hole"), r["trim_engine"]
assert d["params"]["mix"] == "r60,w30,t10", d["params"]'
else
	not_ok "randrw r60,w30,t10 on a file" "exit $rc" "$(head -c 400 "$S/err")"
fi
if run 0 randrw -s 8M -t 0 --seed 1 --sync=none "$S"; then
	py "text: the total, then a line per operation of the default r70,w30" '
lines = out.splitlines()
assert lines[0].startswith("randrw: ") and "mix r70,w30" in lines[0], lines[0]
assert lines[1].startswith("  read:  ") and "I/Os (" in lines[1], lines[1]
assert lines[2].startswith("  write: "), lines[2]
assert not any(l.startswith("  trim:") for l in lines), out'
else
	not_ok "randrw's text" "exit $rc" "$(head -c 400 "$S/err")"
fi
if run 0 --json randread -s 4M -t 0 "$S"; then
	py "a pure read test's JSON has no ops and no trim_engine" '
r = d["result"]
assert "ops" not in r and "trim_engine" not in r, list(r)
assert "mix" not in d["params"]'
else
	not_ok "randread's JSON" "exit $rc" "$(head -c 400 "$S/err")"
fi

# ---- a trim pass on a file ----------------------------------------------------
t_file_trim() {
	local name="a trim pass punches holes in a file, the size stays" f="$S/punch" before after
	head -c 16777216 /dev/urandom >"$f" && sync "$f"
	before=$(stat -c %b "$f")
	if ! run 0 --json trim -b 1M -s 16M -t 0 --force "$f"; then
		not_ok "$name" "exit $rc" "$(head -c 400 "$S/err")"
		return
	fi
	after=$(stat -c %b "$f")
	if [ "$(stat -c %s "$f")" != 16777216 ]; then
		not_ok "$name" "size $(stat -c %s "$f"), wanted 16777216"
	elif [ "$after" -gt $((before / 10)) ]; then
		not_ok "$name" "allocated blocks $before before, $after after"
	elif ! cmp -s -n 16777216 "$f" /dev/zero; then
		not_ok "$name" "the data do not read as zeros"
	else
		ok "$name ($before blocks, then $after)"
	fi
	py "the trim pass names its way and moves no reads or writes" '
r = d["result"]
assert r["trim_engine"] in ("uring_fallocate", "fallocate_punch_hole"), r
assert list(r["ops"]) == ["trim"] and r["ops"]["trim"]["ios"] == 16, r["ops"]'
}
t_file_trim

t_ramfs() {
	local name="a filesystem that cannot punch holes is refused before the run, exit 2"
	if [ "$(id -u)" != 0 ]; then skip "$name" "needs root to mount ramfs"; return; fi
	RAMFS="$S/ramfs"
	mkdir -p "$RAMFS"
	if ! mount -t ramfs ramfs "$RAMFS" 2>/dev/null; then
		RAMFS=""; skip "$name" "cannot mount ramfs here"; return
	fi
	head -c 1048576 /dev/urandom >"$RAMFS/f"
	if run 2 randtrim --no-direct -s 1M -t 0 --force "$RAMFS/f" &&
	   grep -q "cannot discard (trim): .*cannot punch holes" "$S/err"; then
		ok "$name"
	else
		not_ok "$name" "exit $rc" "$(head -c 400 "$S/err")"
	fi
}
t_ramfs

# ---- on a loop device: the device's own counters --------------------------------
# (tap.sh's shm_loop and loop_stat: the device over /dev/shm and its counters)
# within5 GOT WANT: true when GOT is within 5 % of WANT (and 2 I/Os)
within5() { python3 -c "import sys; g, w = int(sys.argv[1]), int(sys.argv[2]); sys.exit(0 if abs(g - w) <= max(2, 0.05 * w) else 1)" "$1" "$2"; }

# counted NAME ARGS...: one pass on the loop device; each operation's count
# in JSON against the counters' deltas, within 5 % and 2 I/Os: the warm-up
# I/O, the zero-sample reads before a read and the flush-timing writes
# after a write are the run's too, and the cache eviction's flush (BLKFLSBUF)
# counts as one write on the loop device, as it does for randread
# (randread -s 16M -t 0 on a loop device: 4113 reads, 1 write, 1 flush)
counted() {
	local name=$1 r0 w0 d0; shift
	r0=$(loop_stat 1) w0=$(loop_stat 5) d0=$(loop_stat 12)
	if ! run 0 --json "$@" --force "$LOOP"; then
		not_ok "$name" "exit $rc" "$(head -c 400 "$S/err")"
		return
	fi
	dr=$(($(loop_stat 1) - r0)) dw=$(($(loop_stat 5) - w0)) dd=$(($(loop_stat 12) - d0))
	py "$name" "
ops = d['result']['ops']
got = {'read': $dr, 'write': $dw, 'trim': $dd}
for k, seen in got.items():
    want = ops[k]['ios'] if k in ops else 0
    assert abs(seen - want) <= max(2, 0.05 * want), (k, 'device', seen, 'diskbench', want)
print('# device: %d reads, %d writes, %d discards' % ($dr, $dw, $dd))"
}

# trims on the loop device while it holds a mounted filesystem: refused,
# exit 3, and not one discard reaches it
t_mounted() {
	local name="loop: trims are refused while the device is mounted, even with --force" d0
	if ! command -v mkfs.ext4 >/dev/null || ! mkfs.ext4 -q -F "$LOOP" 2>/dev/null; then
		skip "$name" "no mkfs.ext4 here"; return
	fi
	MNT="$S/mnt"
	mkdir -p "$MNT"
	if ! mount "$LOOP" "$MNT" 2>/dev/null; then MNT=""; skip "$name" "cannot mount ext4"; return; fi
	d0=$(loop_stat 12)
	if ! run 3 randtrim -s 1M -t 0 --force "$LOOP" || ! grep -q "mounted" "$S/err"; then
		not_ok "$name" "randtrim: exit $rc" "$(head -c 300 "$S/err")"
	elif ! run 3 randrw --mix r60,w30,t10 -s 1M -t 0 --force "$LOOP"; then
		not_ok "$name" "randrw with trims: exit $rc" "$(head -c 300 "$S/err")"
	elif [ "$(loop_stat 12)" != "$d0" ]; then
		not_ok "$name" "discards went from $d0 to $(loop_stat 12)"
	else
		ok "$name"
	fi
	umount "$MNT" && MNT=""
}

if shm_loop mix 64M; then
	counted "loop: r60,w30,t10 counts match reads, writes and discards within 5 %" \
		randrw --mix r60,w30,t10 -s 48M -t 0 --seed 1
	counted "loop: the default r70,w30 at qd 4 matches within 5 %, no discards" \
		randrw -s 48M -t 0 --seed 2 --qd 4
	counted "loop: a read-only mix shows no writes and no discards" \
		randrw --mix r100 -s 16M -t 0 --seed 3
	counted "loop: randtrim's trims all arrive as discards" randtrim -s 16M -t 0 --seed 4
	py "loop: the trims went through io_uring's discard command or BLKDISCARD" '
assert d["result"]["trim_engine"] in ("uring_cmd_discard", "ioctl_blkdiscard"), d["result"]'
	counted "loop: trims through aio are BLKDISCARD, counted as discards" \
		randrw --mix w50,t50 -s 16M -t 0 --engine aio --seed 5
	py "loop: aio names ioctl_blkdiscard" '
assert d["result"]["trim_engine"] == "ioctl_blkdiscard", d["result"]["trim_engine"]'
	check "loop: randtrim refuses the device without --force" 3 randtrim -s 1M -t 0 "$LOOP"
	t_mounted
else
	for c in "r60,w30,t10 counts" "r70,w30 counts" "read-only mix" "randtrim" "trim path" \
		 "aio trims" "aio path" "no --force" "mounted"; do
		skip "loop: $c" "needs root and a loop device over /dev/shm with discard counters"
	done
fi

tap_done
