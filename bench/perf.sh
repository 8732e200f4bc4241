#!/usr/bin/env bash
# perf.sh - is diskbench ever the bottleneck?  (issues 32 and 40)
#
# Usage:  sudo bench/perf.sh [DISKBENCH]          (default ./diskbench)
# Env:    REPS=5  RUNTIME=3 (seconds per run)  DEPTHS="1 8 32 128"
#         DISK=1 (0 skips the disk rows)  DISK_DIR=/var/tmp  DISK_MB=512  JOBS=32 (the -j point)
#         T_IO_URING=/path/to/t/io_uring  (its rows are skipped, with a note, without it)
#         RSS=1 (0 skips the 60 s memory check)  RSS_SECONDS=60
#         VERBOSE=0 (1 echoes every command line to stderr)  ONLY="row ..." (only these rows)
#
# 4 KiB random reads, one thread, on a loop device over a 64 MiB file in a tmpfs
# that the script mounts itself: a device that costs almost nothing, so the tool
# is the limit.  At each depth D (B = min(32, D)) the rows are
#   db-def         diskbench randread --qd D -t RUNTIME -s 64M --json LOOP (as a user runs it)
#   db-nop         the same with --engine=nop, if this diskbench accepts it (else skipped)
#   t/io_uring     t/io_uring -d D -s B -c B -b 4096 -p0 -B1 -F1 -n1 -r RUNTIME+1 LOOP
#                  (its defaults: fixed buffers, registered files and ring)
#   t/io_uring-N1  the same with -N1: no-op requests, the tool's own ceiling
#   fio-def        fio --name=p --filename=LOOP --rw=randread --bs=4k --direct=1
#                  --ioengine=io_uring --iodepth=D --time_based --runtime=RUNTIME --output-format=json
#   fio-best       fio-def + --fixedbufs --registerfiles --iodepth_batch_submit=B
#                  --iodepth_batch_complete_min=1 --iodepth_batch_complete_max=B --hipri=0
#   fio-libaio     fio-def with --ioengine=libaio
#   fio-libaio-ur  fio-libaio + --userspace_reap --iodepth_batch_complete_min=0
#                  --iodepth_batch_complete_max=B (fio reads the AIO ring itself only
#                  when it polls for a minimum of 0 events, so this variant spins)
# Then (DISK=1, issue 40) the same on a DISK_MB file on the machine's own disk, in
# a mktemp -d directory under DISK_DIR, laid out once with random data and read
# by every tool: points disk/D at each depth and disk/jJOBS (JOBS threads, one
# request in flight each: diskbench -j JOBS, fio --numjobs=JOBS --group_reporting,
# t/io_uring -n JOBS), rows db-def, db-b1 (--batch 1: one request per call,
# forced), db-ring (--reap=ring: batched, forced; the two where more than one
# request is in flight), db-sweep (the points of one `diskbench sweep --run=oltp
# --levels=DEPTHS --point-time=RUNTIME` a repetition), t/io_uring (-p0 -B1 -F1,
# as above), fio-def, fio-best and fio-libaio.
# Interleaved (rep 1 of every point and row, then rep 2, ...), it prints the
# median with min-max of IOPS and of CPU per I/O, the load average around every
# run, and the ratios the issues set targets on.
#
# IOPS: each tool's own figure: diskbench result.iops, fio jobs[0].read.iops,
# t/io_uring the median of its once-a-second "IOPS=" lines after the first (it
# prints one per second and none for the last second, hence -r RUNTIME+1).
# CPU per I/O: user+system time of the whole process (and its children) from
# wait4(2), start-up and exit included, over its I/Os (diskbench result.ios, fio
# read.total_ios, t/io_uring median IOPS x the seconds it ran).  The `own` column
# is the tool's own accounting where it has one: diskbench result.cpu.ns_per_io,
# fio (usr_cpu + sys_cpu) x job_runtime / total_ios (no start-up: fio spends
# ~0.2-0.3 s of CPU starting and stopping, which is a lot beside a 3 s run).
#
# Then (RSS=1) one RSS_SECONDS-long `diskbench randread --qd 32` on the device, its
# VmRSS read from /proc/PID/status every 5 s: "flat" when max - min after the
# first sample is under 1 MiB.
#
# t/io_uring is in fio's source tree, not in Debian's fio package.  To build it:
#   git clone https://github.com/axboe/fio /tmp/fio-src    (or a git archive of it)
#   apt-get install -y build-essential libaio-dev zlib1g-dev
#   cd /tmp/fio-src && ./configure --disable-native && make -j2 t/io_uring
#   sudo T_IO_URING=/tmp/fio-src/t/io_uring bench/perf.sh
#
# Needs root (mount, losetup).  Safety: it writes only inside a tmpfs (<= 96 MiB)
# mounted on a fresh mktemp -d directory: a copy of the diskbench binary (so that
# a rebuild during the run cannot mix two) and the 64 MiB file it reads, under a
# read-only loop device; and (DISK=1) the DISK_MB file in its own mktemp -d
# directory under DISK_DIR, refused unless the filesystem keeps 2 x DISK_MB and
# 10 % free after it.  Every tool only reads it.  It never opens any block device
# but its loop device.  On exit, error, Ctrl-C or SIGTERM it detaches the loop
# device, unmounts the tmpfs and removes both directories.  About 30 minutes with
# the defaults (12 without the disk rows).
set -euo pipefail
export LC_ALL=C

die() { echo "perf.sh: $*" >&2; exit 1; }
[[ $(id -u) == 0 ]] || die "needs root (mount -t tmpfs, losetup): run it with sudo"
DB=$(realpath -- "${1:-./diskbench}")
REPS=${REPS:-5}
RUNTIME=${RUNTIME:-3}
DEPTHS=${DEPTHS:-"1 8 32 128"}
RSS=${RSS:-1}
RSS_SECONDS=${RSS_SECONDS:-60}
VERBOSE=${VERBOSE:-0}
T_IO_URING=${T_IO_URING:-}
ONLY=${ONLY:-}
DISK=${DISK:-1}
DISK_DIR=${DISK_DIR:-/var/tmp}
DISK_MB=${DISK_MB:-512}
JOBS=${JOBS:-32}
MB=64
[[ -x $DB ]] || die "no diskbench binary at $DB (build it with make)"
[[ $REPS =~ ^[1-9][0-9]*$ && $RUNTIME =~ ^[1-9][0-9]*$ && $RSS_SECONDS =~ ^[1-9][0-9]*$ &&
	$DISK_MB =~ ^[1-9][0-9]*$ && $JOBS =~ ^[1-9][0-9]*$ ]] ||
	die "REPS, RUNTIME, RSS_SECONDS, DISK_MB and JOBS are positive integers"
for d in $DEPTHS; do [[ $d =~ ^[1-9][0-9]*$ ]] || die "DEPTHS: '$d' is not a positive integer"; done
for t in fio python3 losetup mount umount; do
	command -v "$t" >/dev/null || die "missing tool: $t"
done

# ---- scratch: a tmpfs on a mktemp directory, a read-only loop device over a file in it
S=$(mktemp -d /tmp/diskbench-perf.XXXXXX)
MOUNTED=0
LOOPDEV=""
BGPID=""
DS=""
cleanup() {
	local rc=$? i
	trap - EXIT INT TERM
	if [[ -n $BGPID ]]; then kill "$BGPID" 2>/dev/null || true; wait "$BGPID" 2>/dev/null || true; fi
	if [[ -n $DS ]]; then rm -f -- "$DS/disk.dat"; rmdir -- "$DS" 2>/dev/null || echo "perf.sh: could not remove $DS" >&2; fi
	if [[ -n $LOOPDEV ]]; then losetup -d "$LOOPDEV" 2>/dev/null || true; fi
	if [[ $MOUNTED == 1 ]]; then
		for ((i = 0; i < 50; i++)); do   # the loop device lets go of its file asynchronously
			umount "$S" 2>/dev/null && { MOUNTED=0; break; }
			sleep 0.2
		done
		if [[ $MOUNTED == 1 ]]; then umount -l "$S" 2>/dev/null || echo "perf.sh: could not unmount $S" >&2; fi
	fi
	rmdir -- "$S" 2>/dev/null || echo "perf.sh: could not remove $S" >&2
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mount -t tmpfs -o size=$((MB + 32))m,mode=0700 perf-tmpfs "$S"
MOUNTED=1
[[ $(findmnt -n -o FSTYPE --target "$S") == tmpfs ]] || die "$S is not the tmpfs just mounted"
IMG=$S/loop.img
dd if=/dev/urandom of="$IMG" bs=1M count=$MB status=none
LOOPDEV=$(losetup -f --show -r "$IMG") || { LOOPDEV=""; die "losetup failed"; }
[[ $LOOPDEV == /dev/loop* && $(losetup -n -O BACK-FILE "$LOOPDEV" | sed 's/ *$//') == "$IMG" ]] ||
	die "$LOOPDEV is not the loop device over $IMG"

# the disk file (issue 40): on the machine's own disk, laid out once, only read after
DFILE=""
if [[ $DISK != 0 ]]; then
	read -r avail size < <(df -P -k "$DISK_DIR" | awk 'NR == 2 { print $4, $2 }')
	((avail - 2 * DISK_MB * 1024 > size / 10)) ||
		die "$DISK_DIR has $((avail / 1024)) MiB free: the disk rows need 2 x $DISK_MB MiB and 10 % left (DISK=0 skips them)"
	DS=$(mktemp -d "$DISK_DIR/diskbench-perf-disk.XXXXXX")
	DFILE=$DS/disk.dat
	[[ $(findmnt -n -o FSTYPE --target "$DS") != tmpfs ]] || die "$DISK_DIR is a tmpfs: the disk rows need a disk"
	dd if=/dev/urandom of="$DFILE" bs=1M count="$DISK_MB" conv=fsync status=none
fi

cp -- "$DB" "$S/diskbench"
DBSUM=$(sha256sum "$DB" | cut -c1-12)
DBSRC=$DB
DB=$S/diskbench

# ---- the measuring helper: runs a command, reads its figures, prints one line ------
cat >"$S/perf.py" <<'PY'
import json, os, re, statistics, subprocess, sys

def load():
    return open("/proc/loadavg").read().split()[0]

def measure(kind, out, secs, cmd):
    lb = load()
    with open(out, "wb") as fo, open(out + ".err", "wb") as fe:
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    la = load()
    cpu_ns = (ru.ru_utime + ru.ru_stime) * 1e9
    text = open(out, errors="replace").read()
    if p.returncode != 0:
        raise SystemExit("exit %d: %s" % (p.returncode, (open(out + ".err", errors="replace").read() + text).strip()[-300:]))
    own, pol = None, "-"
    if kind == "sweep":  # one line a point: its depth first; CPU over all the sweep's I/Os
        pts = json.loads(text)["result"]["series"][0]["points"]
        ios = sum(x["ios"] for x in pts)
        if not ios:
            raise SystemExit("no I/Os")
        for x in pts:
            print("%d %.1f %d %.1f - %s %s" % (x["outstanding"], x["iops"], x["ios"], cpu_ns / ios, lb, la))
        return
    if kind == "db":
        r = json.loads(text)["result"]
        iops, ios = r["iops"], r["ios"]
        own = (r.get("cpu") or {}).get("ns_per_io")
        sp = r.get("submit_policy")  # issue 40: how the run chose to submit, and its gain
        if sp:
            pol = sp["chosen"] + ("" if sp["gain"]["max"] is None else ":%.2f" % sp["gain"]["max"])
    elif kind == "fio":
        j = json.loads(text[text.index("{"):])["jobs"][0]
        if j.get("error"):
            raise SystemExit("fio error %s" % j["error"])
        rd = j["read"]
        iops, ios = rd["iops"], rd["total_ios"]
        own = (j["usr_cpu"] + j["sys_cpu"]) / 100 * j["job_runtime"] * 1e6 / ios if ios else None
    else:  # t/io_uring: "IOPS=123456, " / "IOPS=123.45K, " / "IOPS=1.23M, " once a second
        if re.search(r"unexpected ret|IO errors|failed|error", text):
            raise SystemExit("t/io_uring: " + text.strip()[-300:])
        v = [float(n) * {"": 1, "K": 1e3, "M": 1e6}[u] for n, u in re.findall(r"^IOPS=([0-9.]+)([KM]?),", text, re.M)]
        if not v:
            raise SystemExit("t/io_uring printed no IOPS line: " + text.strip()[-300:])
        iops = statistics.median(v[1:] if len(v) > 1 else v)
        ios = iops * float(secs)
    if not ios:
        raise SystemExit("no I/Os")
    print("%.1f %.0f %.1f %s %s %s %s" % (iops, ios, cpu_ns / ios, "-" if own is None else "%.1f" % own, lb, la, pol))

def table(samples, meta):
    m = dict(l.split(None, 1) for l in open(meta).read().splitlines())
    points, loads = m["points"].split(), []
    rows = {"loop": m["loop_rows"].split(), "disk": m.get("disk_rows", "").split()}
    data = {}
    for l in open(samples):
        w = l.split()
        d = data.setdefault((w[0], w[1]), {"iops": [], "cpu": [], "own": [], "err": 0, "pol": []})
        if w[3] == "ERR":
            d["err"] += 1
            continue
        d["iops"].append(float(w[3])); d["cpu"].append(float(w[5]))
        if w[6] != "-":
            d["own"].append(float(w[6]))
        loads += [float(w[7]), float(w[8])]
        if len(w) > 9 and w[9] != "-":
            d["pol"].append(w[9])
    med = lambda k, P, r: statistics.median(data[(P, r)][k]) if (P, r) in data and data[(P, r)][k] else None
    ratio = lambda a, b: a / b if a is not None and b else None
    f2 = lambda x: "-" if x is None else "%.2f" % x
    def fio_best(P):  # the fastest fio configuration at this point (median IOPS), and its name
        f = [(med("iops", P, r), r) for r in rows[P.split("/")[0]] if r.startswith("fio") and med("iops", P, r)]
        return max(f) if f else (None, None)
    print("%-9s %-14s %-26s %9s %9s %7s %7s %8s" % ("point", "row", "IOPS median (min-max)", "CPU ns/IO",
          "own ns/IO", "x t/iou", "x fio*", "CPU x fd"))
    for P in points:
        tiou, tnop, fdc = med("iops", P, "t/io_uring"), med("iops", P, "t/io_uring-N1"), med("cpu", P, "fio-def")
        fb = fio_best(P)[0]
        for r in rows[P.split("/")[0]]:
            if (P, r) not in data:
                continue
            x = data[(P, r)]
            if not x["iops"]:
                print("%-9s %-14s %-26s" % (P, r, "ERR (%d/%d failed)" % (x["err"], x["err"])))
                continue
            i, c, o = med("iops", P, r), med("cpu", P, r), med("own", P, r)
            cell = "%.0f (%.0f-%.0f)" % (i, min(x["iops"]), max(x["iops"]))
            if x["err"]:
                cell += " failed=%d" % x["err"]
            ref = tnop if r.endswith("nop") or r.endswith("-N1") else tiou
            print("%-9s %-14s %-26s %9.0f %9s %7s %7s %8s" % (P, r, cell, c, "-" if o is None else "%.0f" % o,
                  f2(ratio(i, ref)), f2(ratio(i, fb)), f2(ratio(c, fdc))))
            if x["pol"]:  # what db-def chose in each repetition, and its probe's gain
                print("%-9s %-14s chose %s" % ("", "", " ".join(x["pol"])))
        print()
    print("x t/iou: IOPS over t/io_uring's (the nop rows: over t/io_uring -N1's); x fio*: IOPS over the fastest")
    print("fio row's at that point (fio-def, fio-best, fio-libaio, fio-libaio-ur); CPU x fd: whole-process CPU")
    print("ns/IO over fio-def's (< 1: diskbench spends less).  db-sweep: CPU over all its points' I/Os.")
    if loads:
        print("load average (1 min) around the runs: min %.2f, median %.2f, max %.2f" %
              (min(loads), statistics.median(loads), max(loads)))
    print()
    print("targets (issue 40), on medians:")
    allmet = True
    def verdict(name, val, op, lim, why=""):
        nonlocal allmet
        if val is None:
            print("  %-58s %-7s n/a" % (name, ""))
            return
        ok = val >= lim if op == ">=" else val <= lim
        allmet &= ok
        print("  %-58s %5.2f   %s%s" % (name, val, "met" if ok else "not met", why))
    for P in points:
        dev, D = P.split("/")
        fb, fbn = fio_best(P)
        db, dc = med("iops", P, "db-def"), med("cpu", P, "db-def")
        lim = 1.0 if dev == "loop" else 0.97
        verdict("%-9s db-def IOPS >= %.2f x fio*" % (P, lim), ratio(db, fb), ">=", lim, " (fio*: %s)" % fbn)
        if (P, "db-sweep") in data:
            verdict("%-9s db-sweep IOPS >= %.2f x fio*" % (P, lim), ratio(med("iops", P, "db-sweep"), fb), ">=", lim)
        if dev == "loop" and D in ("32", "128"):
            verdict("%-9s db-def IOPS >= 0.95 x t/io_uring" % P, ratio(db, med("iops", P, "t/io_uring")), ">=", 0.95)
        if dev == "loop" and (P, "db-nop") in data:
            verdict("%-9s db-nop IOPS >= 1.0 x t/io_uring -N1" % P,
                    ratio(med("iops", P, "db-nop"), med("iops", P, "t/io_uring-N1")), ">=", 1.0)
        if D.isdigit() and int(D) >= 8:
            verdict("%-9s db-def CPU/IO <= 0.6 x fio-def" % P, ratio(dc, med("cpu", P, "fio-def")), "<=", 0.6)
    print("  all targets with figures: %s" % ("met" if allmet else "not met"))

if sys.argv[1] == "measure":
    measure(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[6:])
else:
    table(sys.argv[2], sys.argv[3])
PY

# ---- the rows -----------------------------------------------------------------------
ROWS=(db-def)
NOPNOTE=""
if "$DB" randread --engine=nop --qd 1 -t 0.2 -s ${MB}M --json "$LOOPDEV" >"$S/nop.out" 2>"$S/nop.err"; then
	ROWS+=(db-nop)
else
	NOPNOTE="db-nop skipped: this diskbench refuses --engine=nop ($(head -1 "$S/nop.err"))"
fi
TIOU=()
TNOTE=""
if [[ -z $T_IO_URING ]]; then
	TNOTE="t/io_uring rows skipped: T_IO_URING is not set (see the header of bench/perf.sh to build it)"
elif [[ ! -x $T_IO_URING ]]; then
	TNOTE="t/io_uring rows skipped: T_IO_URING=$T_IO_URING is not an executable"
else
	TIOU=(t/io_uring)
	ROWS+=(t/io_uring t/io_uring-N1)
fi
ROWS+=(fio-def fio-best fio-libaio fio-libaio-ur)
DROWS=()
[[ -z $DFILE ]] || DROWS=(db-def db-b1 db-ring db-sweep "${TIOU[@]}" fio-def fio-best fio-libaio)
only() { # only NAME...: the rows ONLY names, all without ONLY
	local row
	for row in "$@"; do [[ -n $ONLY && " $ONLY " != *" $row "* ]] || printf '%s\n' "$row"; done
}
mapfile -t ROWS < <(only "${ROWS[@]}")
mapfile -t DROWS < <(only "${DROWS[@]}")
POINTS=()
for d in $DEPTHS; do POINTS+=("loop/$d"); done
if ((${#DROWS[@]})); then
	for d in $DEPTHS; do POINTS+=("disk/$d"); done
	POINTS+=("disk/j$JOBS")
fi

KIND="" SECS=0 CMD=()
cmd_for() { # cmd_for ROW POINT: sets KIND, SECS and CMD ("" where the row has no run there)
	local row=$1 dev=${2%/*} d=${2#*/} j=1 tgt=$LOOPDEV mb=$MB
	if [[ $d == j* ]]; then j=${d#j} d=1; fi
	[[ $dev == loop ]] || tgt=$DFILE mb=$DISK_MB
	local b=$((d < 32 ? d : 32)) jobs=() dbj=() tj=1
	if ((j > 1)); then jobs=(--numjobs="$j" --group_reporting) dbj=(-j "$j") tj=$j; fi
	local fio=(fio --name=p --filename="$tgt" --rw=randread --bs=4k --direct=1 --ioengine=io_uring
		--iodepth="$d" --time_based --runtime="$RUNTIME" --output-format=json "${jobs[@]}")
	local db=("$DB" randread --qd "$d" "${dbj[@]}" -t "$RUNTIME" -s "${mb}M" --json)
	KIND=fio SECS=$RUNTIME CMD=()
	case $row in
	db-def) KIND=db CMD=("${db[@]}" "$tgt") ;;
	db-b1) ((d == 1)) || KIND=db CMD=("${db[@]}" --batch 1 "$tgt") ;;
	db-ring) ((d == 1)) || KIND=db CMD=("${db[@]}" --reap=ring "$tgt") ;;
	db-sweep) ;; # one sweep a repetition, below
	db-nop) KIND=db CMD=("$DB" randread --engine=nop --qd "$d" -t "$RUNTIME" -s "${MB}M" --json "$tgt") ;;
	t/io_uring) KIND=tiou SECS=$((RUNTIME + 1))
		CMD=("$T_IO_URING" -d "$d" -s "$b" -c "$b" -b 4096 -p0 -B1 -F1 -n"$tj" -r "$SECS" "$tgt") ;;
	t/io_uring-N1) KIND=tiou SECS=$((RUNTIME + 1))
		CMD=("$T_IO_URING" -N1 -d "$d" -s "$b" -c "$b" -b 4096 -p0 -B1 -F1 -n1 -r "$SECS" "$tgt") ;;
	fio-def) CMD=("${fio[@]}") ;;
	fio-best) CMD=("${fio[@]}" --fixedbufs --registerfiles --iodepth_batch_submit="$b"
		--iodepth_batch_complete_min=1 --iodepth_batch_complete_max="$b" --hipri=0) ;;
	fio-libaio) CMD=("${fio[@]/--ioengine=io_uring/--ioengine=libaio}") ;;
	fio-libaio-ur) CMD=("${fio[@]/--ioengine=io_uring/--ioengine=libaio}" --userspace_reap
		--iodepth_batch_complete_min=0 --iodepth_batch_complete_max="$b") ;;
	*) die "unknown row $row" ;;
	esac
}
SWEEP=("$DB" sweep --run=oltp --levels="$(echo $DEPTHS | tr ' ' ,)" --point-time="$RUNTIME"
	--budget=$((RUNTIME * 8 * $(echo $DEPTHS | wc -w))) -s "${DISK_MB}M" --json "$DFILE")

# ---- header -------------------------------------------------------------------------
echo "# perf.sh $(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $("$DB" --version 2>&1 | head -1) ($DBSRC, sha256 $DBSUM); $(fio --version); t/io_uring: ${T_IO_URING:-none}"
echo "# loop: $LOOPDEV, read-only loop over a ${MB} MiB file in a tmpfs (loop direct-io: $(cat /sys/block/"${LOOPDEV#/dev/}"/loop/dio 2>/dev/null || echo ?))"
[[ -z $DFILE ]] || echo "# disk: $DFILE, $DISK_MB MiB of random data on $(findmnt -n -o SOURCE,FSTYPE --target "$DFILE" | tr -s ' ')"
echo "# REPS=$REPS RUNTIME=$RUNTIME DEPTHS=\"$DEPTHS\" JOBS=$JOBS; THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
[[ -z $NOPNOTE ]] || echo "# $NOPNOTE"
[[ -z $TNOTE ]] || echo "# $TNOTE"
echo "# command lines at loop/32 and disk/j$JOBS (B = min(32, D) where a 32 appears beside --iodepth/-d):"
for row in "${ROWS[@]}"; do
	cmd_for "$row" loop/32
	echo "#   $(printf '%-14s' "$row") ${CMD[*]}"
done
if ((${#DROWS[@]})); then
	for row in "${DROWS[@]}"; do
		cmd_for "$row" "disk/j$JOBS"
		((${#CMD[@]} == 0)) || echo "#   $(printf '%-14s' "$row") ${CMD[*]}"
	done
	echo "#   db-sweep       ${SWEEP[*]}"
	echo "#   (disk/D: the same with -d D / --iodepth=D / --qd D and no -j, --numjobs, -n; db-b1 and db-ring only there)"
fi
echo

# ---- interleaved repetitions ----------------------------------------------------------
: >"$S/samples"
run_one() { # run_one POINT ROW REP: one measured run into the samples
	local P=$1 row=$2 rep=$3 out
	if [[ $row == db-sweep ]]; then
		[[ $P == disk/$(echo $DEPTHS | cut -d' ' -f1) ]] || return 0  # one sweep a repetition
		KIND=sweep SECS=0 CMD=("${SWEEP[@]}")
	else
		cmd_for "$row" "$P"
		((${#CMD[@]})) || return 0
	fi
	[[ $VERBOSE == 0 ]] || echo "+ ${CMD[*]}" >&2
	if out=$(python3 "$S/perf.py" measure "$KIND" "$S/out" "$SECS" -- "${CMD[@]}" 2>"$S/why"); then
		:
	else
		echo "[rep $rep] $P $row failed: $(tr '\n' ' ' <"$S/why")" >&2
		out="ERR - - - - -"
	fi
	if [[ $KIND == sweep && $out != ERR* ]]; then
		while read -r qd rest; do echo "disk/$qd $row $rep $rest" >>"$S/samples"; done <<<"$out"
	else
		echo "$P $row $rep $out" >>"$S/samples"
	fi
	if [[ $rep == 1 && $row == t/io_uring* ]]; then   # what t/io_uring says it set up
		sed -n -E "s@^((polled|Engine)=.*)@$(printf '%-9s %-14s' "$P" "$row") \1@p" "$S/out" >>"$S/tiou.cfg" || true
	fi
	echo "[rep $rep/$REPS] $P $row: $(echo $out)" >&2
}
for ((rep = 1; rep <= REPS; rep++)); do
	for P in "${POINTS[@]}"; do
		if [[ $P == loop/* ]]; then rows=("${ROWS[@]}"); else rows=("${DROWS[@]}"); fi
		for row in "${rows[@]}"; do run_one "$P" "$row" "$rep"; done
	done
done

printf 'points %s\nloop_rows %s\ndisk_rows %s\n' "${POINTS[*]}" "${ROWS[*]}" "${DROWS[*]}" >"$S/meta"
python3 "$S/perf.py" table "$S/samples" "$S/meta"
if [[ -s $S/tiou.cfg ]]; then
	echo
	echo "# t/io_uring's own report of its setup (rep 1):"
	sed 's/^/#   /' "$S/tiou.cfg"
fi
echo "# ended $(date -u +%Y-%m-%dT%H:%M:%SZ), load $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- RSS over a long run -------------------------------------------------------------
if [[ $RSS != 0 ]]; then
	echo
	echo "# RSS check: $DB randread --qd 32 -t $RSS_SECONDS -s ${MB}M --json $LOOPDEV, VmRSS every 5 s"
	"$DB" randread --qd 32 -t "$RSS_SECONDS" -s ${MB}M --json "$LOOPDEV" >"$S/rss.json" 2>"$S/rss.err" &
	BGPID=$!
	samples=()
	while sleep 5; do
		kb=$(awk '/^VmRSS:/ { print $2 }' /proc/$BGPID/status 2>/dev/null) || kb=""
		[[ -n $kb ]] || break
		samples+=("$kb")
		echo "  t=$((${#samples[@]} * 5))s VmRSS=$kb kB"
	done
	rc=0; wait "$BGPID" || rc=$?
	BGPID=""
	[[ $rc == 0 ]] || echo "  the run failed (exit $rc): $(head -3 "$S/rss.err")"
	if ((${#samples[@]} >= 2)); then
		rest=("${samples[@]:1}")
		lo=$(printf '%s\n' "${rest[@]}" | sort -n | head -1)
		hi=$(printf '%s\n' "${rest[@]}" | sort -n | tail -1)
		verdict="not flat"; ((hi - lo < 1024)) && verdict=flat
		echo "  after the first sample: min $lo kB, max $hi kB, max - min $((hi - lo)) kB: $verdict (flat: under 1024 kB)"
	else
		echo "  too few samples"
	fi
	[[ $rc != 0 ]] || python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["result"]; print("  that run: %.0f IOPS, %s I/Os" % (r["iops"], r["ios"]))' "$S/rss.json"
fi
