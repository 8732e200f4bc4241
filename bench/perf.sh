#!/usr/bin/env bash
# perf.sh - is diskbench ever the bottleneck?  (issue 32)
#
# Usage:  sudo bench/perf.sh [DISKBENCH]          (default ./diskbench)
# Env:    REPS=5  RUNTIME=3 (seconds per run)  DEPTHS="1 8 32 128"
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
# interleaved (rep 1 of every depth and row, then rep 2, ...), and prints the
# median with min-max of IOPS and of CPU per I/O, and the ratios the issue sets
# targets on.
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
# read-only loop device.  It never opens any other block device.  On exit, error,
# Ctrl-C or SIGTERM it detaches the loop device, unmounts the tmpfs and removes
# the directory.  About 12 minutes with the defaults.
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
MB=64
[[ -x $DB ]] || die "no diskbench binary at $DB (build it with make)"
[[ $REPS =~ ^[1-9][0-9]*$ && $RUNTIME =~ ^[1-9][0-9]*$ && $RSS_SECONDS =~ ^[1-9][0-9]*$ ]] ||
	die "REPS, RUNTIME and RSS_SECONDS are positive integers"
for d in $DEPTHS; do [[ $d =~ ^[1-9][0-9]*$ ]] || die "DEPTHS: '$d' is not a positive integer"; done
for t in fio python3 losetup mount umount; do
	command -v "$t" >/dev/null || die "missing tool: $t"
done

# ---- scratch: a tmpfs on a mktemp directory, a read-only loop device over a file in it
S=$(mktemp -d /tmp/diskbench-perf.XXXXXX)
MOUNTED=0
LOOPDEV=""
BGPID=""
cleanup() {
	local rc=$? i
	trap - EXIT INT TERM
	if [[ -n $BGPID ]]; then kill "$BGPID" 2>/dev/null || true; wait "$BGPID" 2>/dev/null || true; fi
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

cp -- "$DB" "$S/diskbench"
DBSUM=$(sha256sum "$DB" | cut -c1-12)
DBSRC=$DB
DB=$S/diskbench

# ---- the measuring helper: runs a command, reads its figures, prints one line ------
cat >"$S/perf.py" <<'PY'
import json, os, re, statistics, subprocess, sys

def measure(kind, out, secs, cmd):
    with open(out, "wb") as fo, open(out + ".err", "wb") as fe:
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    cpu_ns = (ru.ru_utime + ru.ru_stime) * 1e9
    text = open(out, errors="replace").read()
    if p.returncode != 0:
        raise SystemExit("exit %d: %s" % (p.returncode, (open(out + ".err", errors="replace").read() + text).strip()[-300:]))
    own = None
    if kind == "db":
        r = json.loads(text)["result"]
        iops, ios = r["iops"], r["ios"]
        own = (r.get("cpu") or {}).get("ns_per_io")
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
    print("%.1f %.0f %.1f %s" % (iops, ios, cpu_ns / ios, "-" if own is None else "%.1f" % own))

def table(samples, meta):
    m = dict(l.split(None, 1) for l in open(meta).read().splitlines())
    depths, rows = m["depths"].split(), m["rows"].split()
    data = {}
    for l in open(samples):
        w = l.split()
        d = data.setdefault((w[0], w[1]), {"iops": [], "cpu": [], "own": [], "err": 0})
        if w[3] == "ERR":
            d["err"] += 1
            continue
        d["iops"].append(float(w[3])); d["cpu"].append(float(w[5]))
        if w[6] != "-":
            d["own"].append(float(w[6]))
    med = lambda k, D, r: statistics.median(data[(D, r)][k]) if (D, r) in data and data[(D, r)][k] else None
    ratio = lambda a, b: a / b if a is not None and b else None
    f2 = lambda x: "-" if x is None else "%.2f" % x
    print("%-5s %-14s %-26s %9s %9s %8s %8s %8s" % ("depth", "row", "IOPS median (min-max)", "CPU ns/IO",
          "own ns/IO", "x t/iou", "x fio-b", "CPU x fb"))
    for D in depths:
        tiou, tnop, fb, fbc = med("iops", D, "t/io_uring"), med("iops", D, "t/io_uring-N1"), \
            med("iops", D, "fio-best"), med("cpu", D, "fio-best")
        for r in rows:
            if (D, r) not in data:
                continue
            x = data[(D, r)]
            if not x["iops"]:
                print("%-5s %-14s %-26s" % (D, r, "ERR (%d/%d failed)" % (x["err"], x["err"])))
                continue
            i, c, o = med("iops", D, r), med("cpu", D, r), med("own", D, r)
            cell = "%.0f (%.0f-%.0f)" % (i, min(x["iops"]), max(x["iops"]))
            if x["err"]:
                cell += " failed=%d" % x["err"]
            ref = tnop if r.endswith("nop") or r.endswith("-N1") else tiou
            print("%-5s %-14s %-26s %9.0f %9s %8s %8s %8s" % (D, r, cell, c, "-" if o is None else "%.0f" % o,
                  f2(ratio(i, ref)), f2(ratio(i, fb)), f2(ratio(c, fbc))))
        print()
    print("x t/iou: IOPS over t/io_uring's (the nop rows: over t/io_uring -N1's); x fio-b: IOPS over fio-best's;")
    print("CPU x fb: whole-process CPU ns/IO over fio-best's (< 1: diskbench spends less).")
    print()
    print("targets (issue 32), on medians:")
    allmet, stricter = True, []
    def verdict(name, val, op, lim):
        nonlocal allmet
        if val is None:
            print("  %-52s %-7s n/a" % (name, ""))
            return
        ok = val >= lim if op == ">=" else val <= lim
        allmet &= ok
        print("  %-52s %5.2f   %s" % (name, val, "met" if ok else "not met"))
    for D in depths:
        db, dc = med("iops", D, "db-def"), med("cpu", D, "db-def")
        if D in ("32", "128"):
            verdict("depth %-3s db-def IOPS >= 0.9 x t/io_uring" % D, ratio(db, med("iops", D, "t/io_uring")), ">=", 0.9)
        verdict("depth %-3s db-def IOPS >= 1.0 x fio-best" % D, ratio(db, med("iops", D, "fio-best")), ">=", 1.0)
        verdict("depth %-3s db-def CPU/IO <= 0.5 x fio-best" % D, ratio(dc, med("cpu", D, "fio-best")), "<=", 0.5)
        if (D, "db-nop") in data:
            verdict("depth %-3s db-nop IOPS >= 0.9 x t/io_uring -N1" % D,
                    ratio(med("iops", D, "db-nop"), med("iops", D, "t/io_uring-N1")), ">=", 0.9)
        else:
            print("  %-52s %-7s n/a (no --engine=nop)" % ("depth %-3s db-nop IOPS >= 0.9 x t/io_uring -N1" % D, ""))
        so, fo = med("own", D, "db-def"), med("own", D, "fio-best")
        if so is not None and fo:
            stricter.append("%s: %.2f" % (D, so / fo))
    print("  all targets with figures: %s" % ("met" if allmet else "not met"))
    if stricter:
        print("  (stricter, not a target: CPU/IO by the tools' own accounting, db-def over fio-best, no start-up: %s)"
              % ", ".join(stricter))
    for D in depths:   # is some other fio row faster than the one called best?
        f = [(med("iops", D, r), r) for r in rows if r.startswith("fio") and med("iops", D, r) is not None]
        if f and max(f)[1] != "fio-best":
            print("  note: at depth %s the fastest fio row is %s (%.0f IOPS), not fio-best" % (D, max(f)[1], max(f)[0]))

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
TNOTE=""
if [[ -z $T_IO_URING ]]; then
	TNOTE="t/io_uring rows skipped: T_IO_URING is not set (see the header of bench/perf.sh to build it)"
elif [[ ! -x $T_IO_URING ]]; then
	TNOTE="t/io_uring rows skipped: T_IO_URING=$T_IO_URING is not an executable"
else
	ROWS+=(t/io_uring t/io_uring-N1)
fi
ROWS+=(fio-def fio-best fio-libaio fio-libaio-ur)
if [[ -n $ONLY ]]; then
	keep=()
	for row in "${ROWS[@]}"; do [[ " $ONLY " != *" $row "* ]] || keep+=("$row"); done
	ROWS=("${keep[@]}")
fi

KIND="" SECS=0 CMD=()
cmd_for() { # cmd_for ROW DEPTH: sets KIND, SECS and CMD
	local row=$1 d=$2 b=$(($2 < 32 ? $2 : 32))
	local fio=(fio --name=p --filename="$LOOPDEV" --rw=randread --bs=4k --direct=1 --ioengine=io_uring
		--iodepth="$d" --time_based --runtime="$RUNTIME" --output-format=json)
	KIND=fio SECS=$RUNTIME
	case $row in
	db-def) KIND=db CMD=("$DB" randread --qd "$d" -t "$RUNTIME" -s "${MB}M" --json "$LOOPDEV") ;;
	db-nop) KIND=db CMD=("$DB" randread --engine=nop --qd "$d" -t "$RUNTIME" -s "${MB}M" --json "$LOOPDEV") ;;
	t/io_uring) KIND=tiou SECS=$((RUNTIME + 1))
		CMD=("$T_IO_URING" -d "$d" -s "$b" -c "$b" -b 4096 -p0 -B1 -F1 -n1 -r "$SECS" "$LOOPDEV") ;;
	t/io_uring-N1) KIND=tiou SECS=$((RUNTIME + 1))
		CMD=("$T_IO_URING" -N1 -d "$d" -s "$b" -c "$b" -b 4096 -p0 -B1 -F1 -n1 -r "$SECS" "$LOOPDEV") ;;
	fio-def) CMD=("${fio[@]}") ;;
	fio-best) CMD=("${fio[@]}" --fixedbufs --registerfiles --iodepth_batch_submit="$b"
		--iodepth_batch_complete_min=1 --iodepth_batch_complete_max="$b" --hipri=0) ;;
	fio-libaio) CMD=("${fio[@]/--ioengine=io_uring/--ioengine=libaio}") ;;
	fio-libaio-ur) CMD=("${fio[@]/--ioengine=io_uring/--ioengine=libaio}" --userspace_reap
		--iodepth_batch_complete_min=0 --iodepth_batch_complete_max="$b") ;;
	*) die "unknown row $row" ;;
	esac
}

# ---- header -------------------------------------------------------------------------
echo "# perf.sh $(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $("$DB" --version 2>&1 | head -1) ($DBSRC, sha256 $DBSUM); $(fio --version); t/io_uring: ${T_IO_URING:-none}"
echo "# device: $LOOPDEV, read-only loop over a ${MB} MiB file in a tmpfs (loop direct-io: $(cat /sys/block/"${LOOPDEV#/dev/}"/loop/dio 2>/dev/null || echo ?))"
echo "# REPS=$REPS RUNTIME=$RUNTIME DEPTHS=\"$DEPTHS\"; THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
[[ -z $NOPNOTE ]] || echo "# $NOPNOTE"
[[ -z $TNOTE ]] || echo "# $TNOTE"
echo "# command lines at depth 32 (B = min(32, D) where a 32 appears beside --iodepth/-d):"
for row in "${ROWS[@]}"; do
	cmd_for "$row" 32
	echo "#   $(printf '%-14s' "$row") ${CMD[*]}"
done
echo

# ---- interleaved repetitions ----------------------------------------------------------
: >"$S/samples"
for ((rep = 1; rep <= REPS; rep++)); do
	for d in $DEPTHS; do
		for row in "${ROWS[@]}"; do
			cmd_for "$row" "$d"
			[[ $VERBOSE == 0 ]] || echo "+ ${CMD[*]}" >&2
			if out=$(python3 "$S/perf.py" measure "$KIND" "$S/out" "$SECS" -- "${CMD[@]}" 2>"$S/why"); then
				:
			else
				echo "[rep $rep] $d $row failed: $(tr '\n' ' ' <"$S/why")" >&2
				out="ERR - - -"
			fi
			echo "$d $row $rep $out" >>"$S/samples"
			if [[ $rep == 1 && $row == t/io_uring* ]]; then   # what t/io_uring says it set up
				sed -n -E "s@^((polled|Engine)=.*)@$(printf '%-3s %-14s' "$d" "$row") \1@p" "$S/out" >>"$S/tiou.cfg" || true
			fi
			echo "[rep $rep/$REPS] depth $d $row: $out" >&2
		done
	done
done

printf 'depths %s\nrows %s\n' "$DEPTHS" "${ROWS[*]}" >"$S/meta"
python3 "$S/perf.py" table "$S/samples" "$S/meta"
if [[ -s $S/tiou.cfg ]]; then
	echo
	echo "# t/io_uring's own report of its setup (rep 1):"
	sed 's/^/#   /' "$S/tiou.cfg"
fi

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
