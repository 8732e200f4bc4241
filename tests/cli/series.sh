#!/usr/bin/env bash
# The per-interval series and the checks over it, end to end:
#
#   bash tests/cli/series.sh ./diskbench          (part of `make cli`)
#
# - JSON result.series: arrays of one length, evenly spaced at --interval,
#   adding up to no more than the result's bytes; CSV --series rows; the text
#   bw line, and the sparkline only on a terminal; the option's limits.
# - The cliff, on a real kernel: random reads of a loop device (over a 64 MiB
#   file here) whose reads the block I/O controller throttles (cgroup v1
#   blkio.throttle.read_bps_device, or v2 io.max) at 40 MB/s, lowered to
#   8 MB/s part-way: the cliff warning fires with its time within one interval
#   of the change, and does not fire when the limit stays.  Needs root and the
#   controller; skipped, saying why, otherwise.
# - Device-side proof: a read of a file already in the page cache
#   (--no-direct --drop-caches=none) reaches the disk for ~0 % of its bytes
#   and says so; a cold O_DIRECT read ~100 %.  Skipped where the disk's stat
#   file cannot be read (JSON device_io null).
# - Throttles: random reads of the loop device in a child cgroup that limits
#   it to 130 read IOPS warn that the figure is the cgroup's limit (finding
#   cgroup_limit with the device's MAJ:MIN); without the limit, no such
#   warning.  Needs root and the controller, as the cliff does.  quick in
#   that cgroup calls the loop device capped, naming the limit, not a class.
# - seqwrite --sustained on the loop device with its writes limited to
#   4 MB/s by the cgroup: the rate is steady after ten 0.2 s intervals, so
#   the run ends before the 64 MiB (16.8 s at the limit) are written, and the
#   finding says steady with a rate near the limit.  A machine busy with
#   other tests delays steadiness by seconds (CI saw 12.6 s), so the bound is
#   15 s: still short of the whole region, which a run that never ended
#   early would take.  Needs root, as the cliff does.
# - Flush honesty: a write test with --force on a loop device over a file in
#   tmpfs (/dev/shm; a "write back" cache whose flushes do nothing) finds
#   flush_fast (within five tries: the machine may be busy); a read of it
#   does not time flushes.  Needs root.
# Everything lives in a scratch directory under /var/tmp, a loop device over
# a file in it and a child cgroup, all removed on exit.
set -u

if [ $# -lt 1 ]; then
	echo "usage: bash tests/cli/series.sh PATH/TO/diskbench" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-series.XXXXXX) || exit 2
LOOP="" CG="" SHM_LOOP="" SHM_IMG="" DEV_LOOP="" DEV_MNTS=()
cleanup() {
	local m
	for m in "${DEV_MNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
	[ -n "$DEV_LOOP" ] && losetup -d "$DEV_LOOP" 2>/dev/null
	[ -n "$SHM_LOOP" ] && losetup -d "$SHM_LOOP" 2>/dev/null
	[ -n "$SHM_IMG" ] && rm -f -- "$SHM_IMG"
	[ -n "$CG" ] && [ -d "$CG" ] && rmdir "$CG" 2>/dev/null
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=series

# A 16 MiB file of data: random reads of it run for -t, since -s 10G is
# clipped to the file for the region but not for the bytes to move.
dd if=/dev/urandom of="$S/data" bs=1M count=16 status=none

t_json() {
	local out="$S/json.out"
	"$DB" --json randread -s 10G -t 1.3 --interval 0.2 "$S/data" >"$out" 2>"$S/json.err"
	local why
	why=$(python3 - "$out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["result"]["series"]
n = len(s["t_s"])
if s["interval_s"] != 0.2: print("interval_s", s["interval_s"])
if not (4 <= n <= 6): print("samples", n)
if len(s["bytes"]) != n or len(s["ios"]) != n: print("array lengths differ")
if s["merged"]: print("merged on a short run")
if sum(s["bytes"]) > d["result"]["bytes"]: print("more bytes than the result")
prev = 0.0
for t in s["t_s"]:
    if abs(t - prev - 0.2) > 0.08: print("spacing", prev, t)
    prev = t
if not all(b > 0 for b in s["bytes"]): print("an empty interval", s["bytes"])
# per-interval percentiles: one per sample, p50 <= p99, and inside the run's
# min..max (give or take the coarse histogram's 6.25 %)
lat = d["result"]["lat_ns"]
for k in ("p50_ns", "p99_ns"):
    if len(s.get(k, [])) != n: print(k, "length", len(s.get(k, [])))
for p50, p99 in zip(s.get("p50_ns", []), s.get("p99_ns", [])):
    if p50 is None or p99 is None or not (0.93 * lat["min"] <= p50 <= p99 <= 1.07 * lat["max"]):
        print("interval p50/p99", p50, p99, "run", lat["min"], lat["max"])
if not isinstance(d["findings"], list): print("findings is not a list")
c = d["result"]["cpu"]
if not (0 <= c["busiest_thread_pct"] <= 101): print("busiest_thread_pct", c["busiest_thread_pct"])
if c["governor"] is not None and not c["governor"]: print("an empty governor")
for t in d["result"]["temps"]:
    if len(t["t_s"]) != len(t["celsius"]) or not t["celsius"]: print("temps of", t["name"], t)
EOF
)
	if [ -z "$why" ]; then ok "JSON result.series at --interval 0.2"; else
		not_ok "JSON result.series at --interval 0.2" "$why"; fi
}

t_csv() {
	"$DB" --csv --series randread -s 10G -t 1.1 --interval 0.25 "$S/data" >"$S/csv.out" 2>/dev/null
	local header rows bad
	header=$(head -n 1 "$S/csv.out")
	rows=$(tail -n +2 "$S/csv.out" | wc -l)
	# whole intervals with their latencies; the last, shorter one (issue 22)
	# flagged partial=true, its latencies empty, and no other row flagged
	bad=$(tail -n +2 "$S/csv.out" | awk -F, -v last="$rows" 'NF != 10 || $1 != "randread" || $4 <= 0 || $6 <= 0 ||
		(NR < last && ($10 != "false" || $8 <= 0 || $9 < $8)) ||
		(NR == last && $10 == "true" && ($8 != "" || $9 != "")) || ($10 != "true" && $10 != "false")' | head -n 1)
	if [ "$header" = "test,target,t_s,bytes,ios,bytes_per_sec,iops,lat_p50_ns,lat_p99_ns,partial" ] && [ "$rows" -ge 3 ] &&
		[ "$rows" -le 6 ] && [ -z "$bad" ]; then
		ok "--csv --series: one row per interval"
	else
		not_ok "--csv --series: one row per interval" "header: $header" "rows: $rows" "bad: $bad"
	fi
}

t_text() {
	local out
	out=$("$DB" randread -s 10G -t 1.1 --interval 0.25 "$S/data" 2>/dev/null)
	if grep -Eq '^bw \(MB/s\): min [0-9.]+, max [0-9.]+, avg [0-9.]+, stdev [0-9.]+ \(per 0.25 s, [3-5] samples\)$' <<<"$out" &&
		grep -Eq '^lat p99 per interval: [0-9.]+ [unm]?s \.\. [0-9.]+ [unm]?s \(highest in the interval ending at t = [0-9.]+ s\)$' <<<"$out" &&
		! grep -q 'bw over time' <<<"$out"; then
		ok "text: the bw and p99 lines, no sparkline off a terminal"
	else
		not_ok "text: the bw and p99 lines, no sparkline off a terminal" "$out"
	fi
	if ! command -v script >/dev/null; then
		skip "text: a sparkline on a terminal" "no script(1)"
		return
	fi
	if ! script -qec true /dev/null >/dev/null 2>&1; then
		# a chroot whose /dev has no devpts mounted on /dev/pts
		skip "text: a sparkline on a terminal" "script(1) cannot open a pseudo-terminal here"
		return
	fi
	out=$(script -qec "$DB randread -s 10G -t 1.1 --interval 0.25 $S/data" /dev/null 2>/dev/null)
	if grep -q 'bw over time: .*(full bar ' <<<"$out"; then
		ok "text: a sparkline on a terminal"
	else
		not_ok "text: a sparkline on a terminal" "$out"
	fi
}

t_usage() {
	local args rc
	for args in "randread --interval 0.05" "randread --interval 61" "randread --series" \
		"cached --interval 1" "quick --series --csv"; do
		# shellcheck disable=SC2086  # words on purpose
		"$DB" $args "$S/data" >/dev/null 2>&1
		rc=$?
		if [ "$rc" = 2 ]; then ok "usage error: $args"; else not_ok "usage error: $args" "exit $rc"; fi
	done
}

# Prints the cgroup directory made for the limit on MAJ:MIN, or nothing.
make_cgroup() {
	local mm=$1 bps=$2 dir
	if [ -w /sys/fs/cgroup/blkio ] && [ -e /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
		dir=$(mktemp -d /sys/fs/cgroup/blkio/diskbench-series.XXXXXX 2>/dev/null) || return
		echo "$mm $bps" >"$dir/blkio.throttle.read_bps_device" 2>/dev/null || { rmdir "$dir"; return; }
	elif grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null &&
		grep -qw io /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		dir=$(mktemp -d /sys/fs/cgroup/diskbench-series.XXXXXX 2>/dev/null) || return
		echo "$mm rbps=$bps" >"$dir/io.max" 2>/dev/null || { rmdir "$dir"; return; }
	else
		return
	fi
	echo "$dir"
}

set_limit() {
	if [ -e "$CG/blkio.throttle.read_bps_device" ]; then
		echo "$1 $2" >"$CG/blkio.throttle.read_bps_device"
	else
		echo "$1 rbps=$2" >"$CG/io.max"
	fi
}

# Runs randread of the loop device in the cgroup for 7 s at 0.5 s intervals;
# with $1 = yes, lowers the limit 3 s after the launch.  Prints what the JSON
# says: "cliff AT_S" or "none", and the seconds from the timed loop's start
# (--jsonl's started_at: the origin of at_s, so a slow start on a busy
# machine does not shift the window) to the change.
throttled_run() {
	local mm=$1 lower=$2 t1=""
	set_limit "$mm" 40000000
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" --jsonl randread -b 64k -s 10G -t 7 \
		--interval 0.5 "$3"' sh "$CG" "$DB" "$LOOP" >"$S/cliff.json" 2>"$S/cliff.err" &
	local pid=$!
	if [ "$lower" = yes ]; then
		sleep 3
		set_limit "$mm" 8000000
		t1=$(date +%s.%N)
	fi
	wait "$pid"
	python3 - "$S/cliff.json" "$t1" <<'EOF'
import datetime, json, sys
d = json.loads(open(sys.argv[1]).readline())
c = [f for f in d["findings"] if f["key"] == "cliff"]
print("cliff %.3f" % c[0]["at_s"] if c else "none")
if sys.argv[2]:
    start = datetime.datetime.strptime(d["started_at"], "%Y-%m-%dT%H:%M:%S.%fZ")
    start = start.replace(tzinfo=datetime.timezone.utc).timestamp()
    print("%.3f" % (float(sys.argv[2]) - start))
EOF
}

t_cliff() {
	local name="cliff: a loop device throttled part-way through the run"
	if [ "$(id -u)" != 0 ]; then skip "$name" "needs root"; return; fi
	if [ ! -d /sys/class/block ]; then skip "$name" "no /sys/class/block (sysfs not mounted, a chroot?)"; return; fi
	dd if=/dev/urandom of="$S/img" bs=1M count=64 status=none
	LOOP=$(losetup -f --show "$S/img" 2>/dev/null) || { LOOP=""; skip "$name" "no loop device"; return; }
	local mm
	mm=$(cat "/sys/class/block/${LOOP#/dev/}/dev")
	CG=$(make_cgroup "$mm" 40000000)
	if [ -z "$CG" ]; then skip "$name" "no writable blkio (v1) or io (v2) controller"; return; fi
	local got try
	# a timing case: on a busy machine the loop's own rate swings, so it is
	# run once more before it counts as failed (the message says so)
	for try in 1 2; do
		mapfile -t got < <(throttled_run "$mm" yes)
		[[ ${got[0]} == cliff* ]] &&
			awk -v at="${got[0]#cliff }" -v t="${got[1]}" 'BEGIN { d = at - t; exit !(d <= 0.5 && d >= -0.5) }' &&
			break
	done
	if [[ ${got[0]} == cliff* ]] &&
		awk -v at="${got[0]#cliff }" -v t="${got[1]}" 'BEGIN { d = at - t; exit !(d <= 0.5 && d >= -0.5) }'; then
		ok "$name (found at ${got[0]#cliff } s, limit lowered at ${got[1]} s$([ $try = 2 ] && echo ", second try"))"
	else
		not_ok "$name" "got (second try): ${got[*]}" "$(cat "$S/cliff.err")"
	fi
	mapfile -t got < <(throttled_run "$mm" no)
	if [ "${got[0]}" = none ]; then
		ok "cliff: none when the limit stays"
	else
		not_ok "cliff: none when the limit stays" "got: ${got[*]}"
	fi
}

# Limits reads of MAJ:MIN in $CG to $2 IOPS (0: none), with no bytes/s limit.
set_iops() {
	if [ -e "$CG/blkio.throttle.read_iops_device" ]; then
		echo "$1 0" >"$CG/blkio.throttle.read_bps_device"
		echo "$1 $2" >"$CG/blkio.throttle.read_iops_device"
	else
		local v=$2
		[ "$v" = 0 ] && v=max
		echo "$1 rbps=max riops=$v" >"$CG/io.max"
	fi
}

# Prints the cgroup_limit findings of a 1.5 s randread in $CG: "MAJ:MIN IOPS REACHED".
limit_findings() {
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" --json randread -s 10G -t 1.5 "$3"' \
		sh "$CG" "$DB" "$LOOP" 2>"$S/limit.err" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for f in d["findings"]:
    if f["key"] == "cgroup_limit":
        print("%d:%d %d %.2f" % (f["major"], f["minor"], f["iops"], f["reached"]))'
}

t_limit() {
	local name="throttle: a cgroup's read IOPS limit on the loop device is named"
	if [ -z "$LOOP" ] || [ -z "$CG" ]; then skip "$name" "no loop device in a cgroup (see the cliff)"; return; fi
	local mm got
	mm=$(cat "/sys/class/block/${LOOP#/dev/}/dev")
	set_iops "$mm" 130
	got=$(limit_findings)
	if [[ $got == "$mm 130 "* ]] && awk -v r="${got##* }" 'BEGIN { exit !(r > 0.8) }' &&
		grep -q "limited to 130 IOPS of reads on $mm (${LOOP#/dev/}) by its cgroup: the figure is the limit, not the device" "$S/limit.err"; then
		ok "$name ($got)"
	else
		not_ok "$name" "got: $got" "$(cat "$S/limit.err")"
	fi
	set_iops "$mm" 0
	got=$(limit_findings)
	if [ -z "$got" ] && ! grep -q "by its cgroup" "$S/limit.err"; then
		ok "throttle: no limit, no warning"
	else
		not_ok "throttle: no limit, no warning" "got: $got" "$(cat "$S/limit.err")"
	fi
}

# quick in the cgroup that limits the loop device to 130 read IOPS: a capped
# volume's figures look like a USB stick's; the verdict must name the cap
# instead of a class, and say it once, not once per step: a warning the steps
# give word for word is said once (a step the machine slowed below the cap
# says the other wording, "stayed below it", once too).
t_quick_capped() {
	local name="quick: a cgroup-capped device is called capped, not a device class"
	if [ -z "$LOOP" ] || [ -z "$CG" ]; then skip "$name" "no loop device in a cgroup (see the cliff)"; return; fi
	local mm got
	mm=$(cat "/sys/class/block/${LOOP#/dev/}/dev")
	set_iops "$mm" 130
	got=$(sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" --json quick -t 6 "$3"' \
		sh "$CG" "$DB" "$LOOP" 2>"$S/quick.err" | python3 -c '
import json, sys
d = json.load(sys.stdin)
v = d["verdict"]
limits = [w.split(": ", 1)[-1] for w in d["warnings"] if "by its cgroup" in w]
reached = [w for w in limits if w.endswith("the figure is the limit, not the device")]
print(v["fit"], v["class"], len(reached), len(limits) == len(set(limits)), "|", v["line"])')
	set_iops "$mm" 0
	if [[ $got == "capped None 1 True | looks like: "*"capped by a cgroup limit of 130 IOPS on $mm (reached in "* ]]; then
		ok "$name"
	else
		not_ok "$name" "got: $got" "$(cat "$S/quick.err")"
	fi
}

t_sustained() {
	local name="seqwrite --sustained ends once the limited rate is steady"
	if [ -z "$LOOP" ] || [ -z "$CG" ]; then skip "$name" "no loop device in a cgroup (see the cliff)"; return; fi
	local mm got
	mm=$(cat "/sys/class/block/${LOOP#/dev/}/dev")
	if [ -e "$CG/blkio.throttle.write_bps_device" ]; then
		echo "$mm 4000000" >"$CG/blkio.throttle.write_bps_device"
	else
		echo "$mm wbps=4000000" >"$CG/io.max"
	fi
	# the throttle's 100 ms slices against 0.2 s intervals of 12 writes, on a
	# machine shared with other tests: a run it disturbed is run once more
	local try
	for try in 1 2; do
		got=$(sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" --json seqwrite --sustained --force -b 64k \
			-s 64M -t 30 --interval 0.2 "$3"' sh "$CG" "$DB" "$LOOP" 2>"$S/sustained.err" | python3 -c '
import json, sys
d = json.load(sys.stdin)
f = [f for f in d["findings"] if f["key"] == "sustained"]
print("%.1f" % d["result"]["seconds"], "%d %.0f" % (f[0]["steady"], f[0]["sustained_bytes_per_sec"]) if f else "none")')
		[[ $got == *" 1 "* ]] && break
		echo "# try $try: not steady ($got): again"
	done
	if [ -e "$CG/blkio.throttle.write_bps_device" ]; then
		echo "$mm 0" >"$CG/blkio.throttle.write_bps_device"
	else
		echo "$mm wbps=max" >"$CG/io.max"
	fi
	if awk -v g="$got" 'BEGIN { split(g, a, " "); exit !(a[1] < 15 && a[2] == 1 && a[3] > 3.2e6 && a[3] < 4.8e6) }'; then
		ok "$name (seconds, steady, rate: $got)"
	else
		not_ok "$name" "got: $got" "$(cat "$S/sustained.err")"
	fi
}

# Prints the keys of the findings of a 16 MiB test of $SHM_LOOP.
shm_findings() {
	"$DB" --json "$1" -s 16M --force "$SHM_LOOP" 2>/dev/null |
		python3 -c 'import json, sys; print(" ".join(f["key"] for f in json.load(sys.stdin)["findings"]))'
}

t_flush() {
	local name="flush: a loop device over tmpfs acknowledges flushes at once"
	if [ "$(id -u)" != 0 ]; then skip "$name" "needs root"; return; fi
	if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" != tmpfs ]; then skip "$name" "no tmpfs at /dev/shm"; return; fi
	SHM_IMG=$(mktemp -p /dev/shm diskbench-series.XXXXXX) || { skip "$name" "cannot create in /dev/shm"; return; }
	truncate -s 32M "$SHM_IMG"
	SHM_LOOP=$(losetup -f --show "$SHM_IMG" 2>/dev/null) || { SHM_LOOP=""; skip "$name" "no loop device"; return; }
	if [ "$(cat "/sys/class/block/${SHM_LOOP#/dev/}/queue/write_cache")" != "write back" ]; then
		skip "$name" "the loop device's cache is not write back"; return
	fi
	local got try
	for try in 1 2 3 4 5; do
		got=$(shm_findings seqwrite)
		[[ $got == *flush_fast* ]] && break
	done
	if [[ $got == *flush_fast* ]]; then ok "$name (try $try)"; else not_ok "$name" "findings: $got"; fi
	got=$(shm_findings seqread)
	if [[ $got != *flush_fast* ]]; then ok "flush: not timed on a read test"; else
		not_ok "flush: not timed on a read test" "findings: $got"; fi
}

# Prints the share of the bytes read that reached the disks, and the finding keys.
device_share() {
	"$DB" --json seqread -s 32M "$@" "$DATA32" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
io = d["result"]["device_io"]
if io is None:
    print("unread")
else:
    print("%.3f" % (sum(l["read_bytes"] for l in io) / d["result"]["bytes"]),
          " ".join(f["key"] for f in d["findings"]))'
}

# An ext4 on a loop device over a file in a tmpfs of our own: the loop
# device is the disk at the bottom, and only this test reads it, so its
# counters are exact however busy the machine's real disk is.  Root only;
# else the real disk, whose counters also count other processes' reads.
private_disk() {
	[ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null 2>&1 || return 1
	mkdir -p "$S/devt" "$S/devm"
	mount -t tmpfs -o size=80m tmpfs "$S/devt" 2>/dev/null || return 1
	DEV_MNTS=("$S/devt")
	truncate -s 64M "$S/devt/img" && mkfs.ext4 -q "$S/devt/img" >/dev/null 2>&1 || return 1
	DEV_LOOP=$(losetup -f --show "$S/devt/img" 2>/dev/null) || { DEV_LOOP=""; return 1; }
	mount "$DEV_LOOP" "$S/devm" 2>/dev/null || return 1
	DEV_MNTS=("$S/devm" "$S/devt")
}

t_device() {
	local hot cold room=0.25
	DATA32="$S/data32"
	if private_disk; then DATA32="$S/devm/data32"; room=0.01; fi
	dd if=/dev/urandom of="$DATA32" bs=1M count=32 status=none
	cat "$DATA32" >/dev/null
	hot=$(device_share --no-direct --drop-caches=none)
	if [ "$hot" = unread ]; then
		skip "device: a read from the page cache reaches the disk for ~0 %" "no readable stat file"
		return
	fi
	# a shared disk's counters also count other processes' reads: "~0" leaves them room
	if awk -v s="${hot%% *}" -v room="$room" 'BEGIN { exit !(s < room) }' && [[ $hot == *device_saw_less* ]]; then
		ok "device: a read from the page cache reaches the disk for ~0 % ($hot)"
	else
		not_ok "device: a read from the page cache reaches the disk for ~0 %" "got: $hot"
	fi
	cold=$(device_share)
	if awk -v s="${cold%% *}" 'BEGIN { exit !(s > 0.9) }' && [[ $cold != *device_saw_less* ]]; then
		ok "device: a cold O_DIRECT read reaches the disk for ~100 % ($cold)"
	else
		not_ok "device: a cold O_DIRECT read reaches the disk for ~100 %" "got: $cold"
	fi
}

t_json
t_csv
t_device
t_text
t_usage
t_cliff
t_limit
t_quick_capped
t_sustained
t_flush
tap_done
