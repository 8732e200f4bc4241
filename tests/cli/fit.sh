#!/usr/bin/env bash
# job and fit (issue 41) end to end, against figures the test sets or
# counts itself, never read back from the output under test:
# - every profile shipped in profiles/ is a job file fio itself accepts
#   (fio --parse-only; skipped, with a message, where fio is absent);
# - a job's I/O count is its size over its block size (23000 B of 2300 B
#   writes: 10; numjobs=2: 20 per clone on a file of 2 x size), an fdatasync
#   between each two writes (fdatasync=1: 9 calls; fdatasync=2: 9 per clone;
#   fio 3.33 syncs after the last write only when bytes of size= remain),
#   counted by strace on the job's own descriptor, and by strace of fio on
#   the same job file where fio is installed; ioengine=sync
#   writes with write(2), psync with pwrite64(2); sync=dsync opens with
#   O_DSYNC, sync=sync (and --sync=osync) with O_SYNC;
# - -t replaces a time_based runtime=; seed 004's job file runs as it is;
# - fit --list names each file of profiles/ and the alias it declares; fit
#   by alias runs that profile; a profile any disk passes exits 0, one no
#   disk passes exits 6 with its verdict; their --jsonl lines make report
#   say which host is not fit;
# - a loop device (a file in /dev/shm, else /tmp, with ext4 on it) under a
#   cgroup-v1 blkio.throttle.write_iops_device of 20: fit etcd exits 6 and
#   the write IOPS stay under 25; the same device unthrottled passes (root,
#   skipped otherwise);
# - Ctrl-C: exit 130, the jobs so far on stderr, nothing left behind.
# Runs are sub-second (-t 0.3, sizes of a few KiB), but for the throttle's.
set -u

if [ $# -lt 1 ]; then
	echo "usage: bash tests/cli/fit.sh PATH/TO/diskbench" >&2
	exit 2
fi
DB=$(realpath -- "$1") || exit 2
ROOT=$(cd -- "$(dirname -- "$0")/../.." && pwd)
S=$(mktemp -d -p /var/tmp diskbench-fit.XXXXXX) || exit 2
LOOP="" CG="" IMG="" MNT=""
cleanup() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	[ -n "$CG" ] && rmdir "$CG" 2>/dev/null
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	[ -n "$IMG" ] && rm -f -- "$IMG"
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_NAME=fit
mkdir "$S/d" "$S/j"
J=$S/j

# calls_on_file LOG NAME: the system calls on the job's file (the first
# descriptor opened for writing on a path holding NAME, a regular
# expression), from an strace log: "NAME COUNT" lines
calls_on_file() {
	python3 - "$1" "$2" <<'EOF'
import re, sys, collections
log = open(sys.argv[1]).read().splitlines()
fd = None
for l in log:
    m = re.search(r'openat\(AT_FDCWD, "[^"]*' + sys.argv[2] + r'[^"]*", O_RDWR[^)]*\) = (\d+)', l)
    if m and fd is None:  # the job's own open (the flush check opens later)
        fd = m.group(1)
count = collections.Counter()
for l in log:
    m = re.search(r'\b(write|pwrite64|fdatasync|fsync)\((\d+)', l)
    if m and m.group(2) == fd:
        count[m.group(1)] += 1
for k in ("write", "pwrite64", "fdatasync", "fsync"):
    print(k, count[k])
EOF
}

t_profiles_parse() {
	if ! command -v fio >/dev/null 2>&1; then
		skip "every shipped profile: fio --parse-only" "fio is not installed (apt-get install fio)"
		return
	fi
	local f bad=""
	for f in "$ROOT"/profiles/*.fio; do
		fio --parse-only "$f" >"$S/parse.log" 2>&1 || bad="$bad $(basename "$f"): $(head -c 200 "$S/parse.log")"
	done
	expect "every shipped profile is a job file fio --parse-only accepts" \
		"$([ -z "$bad" ] && [ -n "$(ls "$ROOT"/profiles/*.fio)" ]; echo $?)" "$bad"
}

t_counts() {
	printf '[etcd]\nrw=write\nioengine=sync\nfdatasync=1\nsize=23000\nbs=2300\n' >"$J/etcd.fio"
	check "job: the etcd job, small: exit 0" 0 --json job "$J/etcd.fio" "$S/d"
	py "job: 23000 B of 2300 B writes are 10 writes, an fdatasync between each two (9)" '
t = d["tests"][0]
r = t["result"]
assert r["ios"] == 10 and r["bytes"] == 23000, r
assert r["sync"] == {"call": "fdatasync", "every_writes": 1, "calls": 9, "per_sec": r["sync"]["per_sec"]}, r["sync"]
assert r["sync_lat_ns"]["p99"] >= r["sync_lat_ns"]["p50"] > 0, r["sync_lat_ns"]
assert t["step"] == "etcd" and t["job"]["at"].endswith("etcd.fio:1") and t["test"] == "seqwrite", t["job"]'
	printf '[two]\nrw=write\nioengine=psync\nfdatasync=2\nnumjobs=2\nsize=46000\nbs=2300\ngroup_reporting\n' >"$J/two.fio"
	check "job: numjobs=2, fdatasync=2: exit 0" 0 --json job "$J/two.fio" "$S/d"
	py "job: two clones of 46000 B are 40 writes and 18 fdatasyncs (fio 3.33: 40, 18), on a file of 92000 B" '
r = d["tests"][0]["result"]
assert r["ios"] == 40 and r["sync"]["calls"] == 18, (r["ios"], r["sync"])
assert d["tests"][0]["params"]["region"] == 92000 and d["tests"][0]["params"]["threads"] == 2, d["tests"][0]["params"]'
	no_leftovers "$S/d" "job: no test file left behind"
}

t_strace() {
	if ! command -v strace >/dev/null 2>&1; then
		skip "job under strace" "strace is not installed"
		return
	fi
	strace -f -o "$S/db.trace" "$DB" -q job "$J/etcd.fio" "$S/d" >/dev/null 2>&1
	calls_on_file "$S/db.trace" '\.diskbench-' >"$S/db.calls"
	expect "strace: ioengine=sync is 10 write(2) and 9 fdatasync(2) on the job's file, no pwrite" \
		"$(grep -qx 'write 10' "$S/db.calls" && grep -qx 'fdatasync 9' "$S/db.calls" &&
			grep -qx 'pwrite64 0' "$S/db.calls"; echo $?)" "$(tr '\n' ' ' <"$S/db.calls")"
	# the same job file under fio: the same calls, as many
	if command -v fio >/dev/null 2>&1; then
		sed "s|^size=|directory=$S/d\nsize=|" "$J/etcd.fio" >"$J/etcd-fio.fio"
		(cd "$S" && strace -f -o "$S/fio.trace" fio "$J/etcd-fio.fio" >/dev/null 2>&1)
		calls_on_file "$S/fio.trace" '/etcd\.0\.0' >"$S/fio.calls"
		rm -f "$S"/d/etcd.*
		expect "strace: fio runs the same job file as 10 write(2) and 9 fdatasync(2)" \
			"$(grep -qx 'write 10' "$S/fio.calls" && grep -qx 'fdatasync 9' "$S/fio.calls"; echo $?)" \
			"$(tr '\n' ' ' <"$S/fio.calls")"
	else
		skip "strace: fio's calls for the same job file" "fio is not installed"
	fi
	strace -f -o "$S/two.trace" "$DB" -q job "$J/two.fio" "$S/d" >/dev/null 2>&1
	calls_on_file "$S/two.trace" '\.diskbench-' >"$S/two.calls"
	expect "strace: psync with fdatasync=2 is one fdatasync per two pwrite64: 40 and 18" \
		"$(grep -qx 'pwrite64 40' "$S/two.calls" && grep -qx 'fdatasync 18' "$S/two.calls" &&
			grep -qx 'write 0' "$S/two.calls"; echo $?)" "$(tr '\n' ' ' <"$S/two.calls")"
	printf '[global]\nrw=write\nbs=8k\nsize=8k\ndirect=1\nioengine=psync\nruntime=50ms\ntime_based\nstonewall\n[dsync]\nsync=dsync\n[osync]\nsync=sync\n' >"$J/open.fio"
	strace -f -e trace=openat -o "$S/open.trace" "$DB" -q job "$J/open.fio" "$S/d" >/dev/null 2>&1
	expect "strace: sync=dsync opens with O_DSYNC|O_DIRECT, sync=sync with O_SYNC|O_DIRECT" \
		"$(grep -q 'O_RDWR|O_DSYNC|O_DIRECT' "$S/open.trace" && grep -q 'O_RDWR|O_SYNC|O_DIRECT' "$S/open.trace"; echo $?)" \
		"$(grep diskbench- "$S/open.trace" | head -5)"
	strace -f -e trace=openat -o "$S/osync.trace" "$DB" -q seqwrite --sync=osync -s 1M -b 64k -t 0.1 "$S/d" >/dev/null 2>&1
	expect "strace: seqwrite --sync=osync opens its file with O_SYNC" \
		"$(grep 'diskbench-' "$S/osync.trace" | grep -q 'O_WRONLY|O_SYNC'; echo $?)" "$(grep diskbench- "$S/osync.trace")"
}

t_time_and_seed() {
	printf '[t]\nrw=randread\nbs=4k\nsize=256k\ndirect=1\ntime_based\nruntime=30\n' >"$J/long.fio"
	check "job -t 0.3: a time_based runtime=30 runs 0.3 s" 0 --json job -t 0.3 "$J/long.fio" "$S/d"
	py "... its seconds are -t's, not runtime's" '
r = d["tests"][0]["result"]
assert 0.25 <= r["seconds"] < 2 and r["ended"] == "time", r["seconds"]
assert d["tests"][0]["params"]["time_limit_s"] == 0.3, d["tests"][0]["params"]'
	check "job: seed 004's job file (libaio, 4 clones of 32 in flight, 2 MiB random writes) with -t 0.3" \
		0 --json job -t 0.3 "$ROOT/tests/cli/jobs/seed-004.fio" "$S/d"
	py "... 4 threads of 32 in flight each, on a file of 4 x 16 MiB" '
t = d["tests"][0]
assert t["params"]["threads"] == 4 and t["params"]["qd"] == 32 and t["params"]["engine"] == "aio", t["params"]
assert t["params"]["region"] == 4 * 16 * 2**20 and t["params"]["block_size"] == 2 * 2**20, t["params"]
assert t["result"]["ios"] > 0, t["result"]'
	no_leftovers "$S/d" "job: no test file left behind"
}

t_list_and_alias() {
	run 0 fit --list
	local f name missing=""
	for f in "$ROOT"/profiles/*.fio; do
		name=$(basename "$f" .fio)
		grep -q "^$name " "$S/out" || grep -q "^$name (" "$S/out" || missing="$missing $name"
	done
	expect "fit --list: a line for each file of profiles/" "$([ -z "$missing" ]; echo $?)" "missing:$missing" "$(cat "$S/out")"
	expect "fit --list: ceph-journal with the alias it declares" \
		"$(grep -q '^ceph-journal (slog) ' "$S/out"; echo $?)" "$(cat "$S/out")"
	check "fit slog -t 0.2: the ceph-journal profile, figures only: exit 0" 0 --json fit slog -t 0.2 "$S/d"
	py "... its file is profiles/ceph-journal.fio, and it reports write IOPS and latency" "
f = d['fit']
assert f['file'].endswith('profiles/ceph-journal.fio') and f['requirements'] == [], f
assert [x['metric'] for x in f['reports']] == ['write.iops', 'write.lat.p50', 'write.lat.p99'], f['reports']
assert f['reports'][0]['value'] == d['tests'][0]['result']['iops'], (f['reports'], d['tests'][0]['result']['iops'])"
	check "fit no-such-profile: exit 2" 2 fit no-such-profile "$S/d"
}

t_pass_fail_report() {
	printf '# diskbench-source: fit.sh, a limit any disk meets\n# diskbench-require: write.iops >= 1\n[w]\nrw=write\nbs=4k\nsize=64k\nioengine=psync\nfdatasync=1\n' >"$J/easy.fio"
	printf '# diskbench-source: fit.sh, a limit no disk meets\n# diskbench-require: write.iops >= 1000M\n[w]\nrw=write\nbs=4k\nsize=64k\nioengine=psync\nfdatasync=1\n' >"$J/hard.fio"
	check "fit: a limit any disk meets: exit 0" 0 --json fit "$J/easy.fio" "$S/d"
	py "... PASS, with the value the job measured" '
q = d["fit"]["requirements"][0]
assert q["pass"] and q["status"] == "PASS" and q["value"] == d["tests"][0]["result"]["iops"], q
assert d["fit"]["verdict"].startswith("easy: fit"), d["fit"]["verdict"]'
	check "fit: a limit no disk meets: exit 6" 6 --json fit "$J/hard.fio" "$S/d"
	py "... FAIL, the verdict says not fit, every figure printed" '
q = d["fit"]["requirements"][0]
assert not q["pass"] and q["status"] == "FAIL" and q["limit"] == 1e9, q
assert d["fit"]["verdict"].startswith("hard: not fit: write IOPS"), d["fit"]["verdict"]
assert d["tests"][0]["result"]["ios"] == 16, d["tests"][0]["result"]'
	"$DB" --jsonl --host-label ok-host --run-id fleet1 fit "$J/easy.fio" "$S/d" >"$S/fleet.jsonl" 2>/dev/null
	"$DB" --jsonl --host-label slow-host --run-id fleet1 fit "$J/easy.fio" "$S/d" >>"$S/fleet.jsonl" 2>/dev/null
	# the second host's line as a host whose disk missed the limit would write it
	python3 - "$S/fleet.jsonl" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
d = json.loads(lines[1])
d["fit"]["pass"] = False
d["fit"]["verdict"] = d["fit"]["verdict"].replace("easy: fit", "easy: not fit")
lines[1] = json.dumps(d)
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
EOF
	check "report over two hosts' fit --jsonl lines: exit 0" 0 report "$S/fleet.jsonl"
	expect "report: 1 of 2 hosts fit; slow-host not fit" \
		"$(grep -q 'fit: 1 of 2 hosts fit; not fit: slow-host$' "$S/out" && grep -q '^  slow-host .*NOT FIT$' "$S/out"; echo $?)" "$(cat "$S/out")"
}

t_throttled() {
	local why="" blkio=/sys/fs/cgroup/blkio majmin
	[ "$(id -u)" = 0 ] || why="not root"
	[ -n "$why" ] || [ -e "$blkio/blkio.throttle.write_iops_device" ] || why="no cgroup v1 blkio throttle"
	[ -n "$why" ] || command -v mkfs.ext4 >/dev/null 2>&1 || why="no mkfs.ext4"
	if [ -z "$why" ]; then
		# in RAM where there is room, so that the throttle, not the disk, sets the pace
		IMG=$(mktemp -p /tmp diskbench-fit.XXXXXX)
		[ -d /dev/shm ] && [ "$(df -Pk /dev/shm | awk 'NR == 2 {print $4}')" -gt 131072 ] &&
			rm -f "$IMG" && IMG=$(mktemp -p /dev/shm diskbench-fit.XXXXXX)
		truncate -s 64M "$IMG"
		LOOP=$(losetup -f --show "$IMG" 2>/dev/null) || { LOOP=""; why="losetup failed"; }
	fi
	if [ -z "$why" ]; then
		MNT="$S/mnt"
		mkdir "$MNT"
		# no journal: an fdatasync is the data and a flush, no journal thread to wait for
		mkfs.ext4 -q -F -O ^has_journal "$LOOP" >/dev/null 2>&1 && mount "$LOOP" "$MNT" ||
			{ MNT=""; why="mkfs or mount failed"; }
	fi
	if [ -z "$why" ]; then
		CG="$blkio/diskbench-fit-$$"
		mkdir "$CG" 2>/dev/null || { CG=""; why="cannot make a blkio cgroup"; }
	fi
	if [ -n "$why" ]; then
		skip "fit etcd on a loop device throttled to 20 write IOPS: exit 6; unthrottled: exit 0" "$why"
		return
	fi
	majmin=$(lsblk -dno MAJ:MIN "$LOOP" | tr -d ' ')
	echo "$majmin 20" >"$CG/blkio.throttle.write_iops_device"
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" timeout 120 "$DB" --json \
		fit etcd -t 2 "$MNT" >"$S/thr.json" 2>"$S/thr.err"
	rc=$?
	expect "fit etcd on a loop device throttled to 20 write IOPS: exit 6" "$([ "$rc" = 6 ]; echo $?)" \
		"exit $rc" "$(head -c 400 "$S/thr.err")"
	py "... not fit: write IOPS under the throttle's 20 (25 at most), fdatasync p99 over 10 ms" '
f = d["fit"]
assert not f["pass"] and f["verdict"].startswith("etcd: not fit"), f["verdict"]
q = {r["metric"]: r for r in f["requirements"] if not r["recommended"]}
assert q["write.iops"]["value"] < 25 and q["write.iops"]["status"] == "FAIL", q["write.iops"]
assert q["sync.p99"]["value"] > 10e6 and q["sync.p99"]["status"] == "FAIL", q["sync.p99"]' "$S/thr.json"
	py "... and the failures explained beside them: a cgroup limit of 20 IOPS" '
q = {r["metric"]: r for r in d["fit"]["requirements"] if not r["recommended"]}
assert "explained: a cgroup limit of 20 IOPS" in (q["write.iops"]["note"] or ""), q["write.iops"]' "$S/thr.json"
	echo "$majmin 0" >"$CG/blkio.throttle.write_iops_device"
	"$DB" --json fit etcd -t 2 "$MNT" >"$S/free.json" 2>"$S/free.err"
	rc=$?
	if [ "$rc" = 6 ]; then # a busy machine's scheduling can stretch a p99 of 2 s once: again
		"$DB" --json fit etcd -t 2 "$MNT" >"$S/free.json" 2>"$S/free.err"
		rc=$?
	fi
	expect "the same device unthrottled: exit 0 (fit)" "$([ "$rc" = 0 ]; echo $?)" "exit $rc" \
		"$(head -c 400 "$S/free.err")" "$(python3 -c "import json; print(json.load(open('$S/free.json'))['fit']['verdict'])" 2>&1)"
	no_leftovers "$MNT" "fit: no test file left on the device's file system"
}

t_interrupted() {
	printf '[global]\nrw=write\nbs=4k\nsize=64k\nioengine=psync\ntime_based\nruntime=3\nstonewall\n[first]\nruntime=200ms\n[second]\n[third]\n' >"$J/long3.fio"
	"$DB" job "$J/long3.fio" "$S/d" >"$S/out" 2>"$S/err" &
	local pid=$!
	sleep 1
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	expect "job interrupted in its second job: exit 130" "$([ "$rc" = 130 ]; echo $?)" "exit $rc"
	expect "... stderr lists first with its figures, second cut short, third not run" \
		"$(grep -q '^  first .*IOPS' "$S/err" && grep -q '^  second .*interrupted' "$S/err" &&
			grep -q '^  third .*not run' "$S/err"; echo $?)" "$(cat "$S/err")"
	no_leftovers "$S/d" "... nothing left behind"
}

t_profiles_parse
t_counts
t_strace
t_time_and_seed
t_list_and_alias
t_pass_fail_report
t_interrupted
t_throttled
tap_done
