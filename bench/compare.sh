#!/usr/bin/env bash
# compare.sh - diskbench side by side with fio, dd and hdparm, on the same
# scratch files, in the same minutes, interleaved.
#
# Usage:  bench/compare.sh [SCRATCH_DIR]     (default /var/tmp/diskbench-bench)
#
# Environment:
#   DISKBENCH=./diskbench  the binary under test (a missing or failing binary
#                          turns its rows into ERR; the peers still run)
#   REPS=5                 repetitions; each one runs diskbench, then the peers
#   RUNTIME=3              seconds per time-based run
#   FILE_MB=1024           size of the scratch files in MiB (64..4096)
#   ONLY="wl ..."          run only these workloads:
#                          seqwrite seqread buffered cached buffered_dev
#                          randread_j1 randread_j32 randwrite_j1
#                          randread_qd1 randread_qd32 seqread_qd8 (the async engine)
#                          matrix (iozone -a's points; fio at the same points)
#   MX_MB=64               matrix: the file size of its points (MiB)
#                          files (file create/stat/delete rates beside bonnie++)
#   FILES_K=16             files: bonnie++ -n FILES_K (x 1024 files, in FILES_K
#                          directories), diskbench files -n FILES_K*1024
#   DEV_PAIRS=7            minimum (diskbench, hdparm -t) pairs for buffered_dev
#   SETTLE=3               seconds diskbench waits before `buffered` on the
#                          loop device (hdparm -t sleeps 3 s on its own)
#   VERBOSE=1              echo every command line to stderr
#
# Output (stdout):
#   '#' metadata lines, then one line per workload/tool/metric:
#       workload tool metric median min max unit [failed=K/N]
#   then a RATIO section, one line per (workload, metric, peer):
#       workload metric diskbench/peer = 0.97
# Medians, minimum and maximum over the repetitions. MB/s = 10^6 B/s (hdparm's
# "MB" is MiB and is converted). CPU is user+system time of the whole process
# tree measured the same way for every tool (bash `time`), divided by the
# bytes or I/Os that the tool reports. A row reads ERR when every repetition
# of that tool failed or lacked the value; "failed=K/N" marks a row where K of
# N repetitions failed and the figures come from the others.
# Progress and errors go to stderr.
#
# Safety: needs root (drop_caches, losetup). Writes only files it creates
# inside a fresh `mktemp -d` directory under SCRATCH_DIR, plus a READ-ONLY
# loop device over one of them. Everything is removed on exit, error,
# Ctrl-C or SIGTERM.
set -euo pipefail
export LC_ALL=C
TIMEFORMAT='%3R %3U %3S'          # bash `time`: real user sys

SCRATCH=${1:-/var/tmp/diskbench-bench}
DISKBENCH=${DISKBENCH:-./diskbench}
REPS=${REPS:-5}
RUNTIME=${RUNTIME:-3}
FILE_MB=${FILE_MB:-1024}
ONLY=${ONLY:-}
DEV_PAIRS=${DEV_PAIRS:-7}
SETTLE=${SETTLE:-3}
VERBOSE=${VERBOSE:-0}
ALL_WL="seqwrite seqread buffered cached buffered_dev randread_j1 randread_j32 randwrite_j1"
ALL_WL+=" randread_qd1 randread_qd32 seqread_qd8"
ALL_WL+=" matrix files"
MX_MB=${MX_MB:-64}
FILES_K=${FILES_K:-16}

die() { echo "compare.sh: $*" >&2; exit 1; }
log() { echo "[compare] $*" >&2; }
vlog() { if [[ $VERBOSE == 1 ]]; then echo "[cmd] $*" >&2; fi; return 0; }

# ---------------------------------------------------------------- checks --
[[ $(id -u) == 0 ]] || die "must run as root (drop_caches, losetup)"
[[ $REPS =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive integer"
[[ $RUNTIME =~ ^[1-9][0-9]*$ ]] || die "RUNTIME must be a positive integer (seconds)"
[[ $FILE_MB =~ ^[0-9]+$ ]] && (( FILE_MB >= 64 && FILE_MB <= 4096 )) || die "FILE_MB must be 64..4096"
[[ $DEV_PAIRS =~ ^[0-9]+$ && $SETTLE =~ ^[0-9]+$ ]] || die "DEV_PAIRS and SETTLE must be integers"
[[ $MX_MB =~ ^[0-9]+$ ]] && (( MX_MB >= 4 && MX_MB <= FILE_MB )) || die "MX_MB must be 4..FILE_MB"
REPS=$((10#$REPS)); RUNTIME=$((10#$RUNTIME)); FILE_MB=$((10#$FILE_MB)); DEV_PAIRS=$((10#$DEV_PAIRS)); SETTLE=$((10#$SETTLE))
for w in $ONLY; do [[ " $ALL_WL " == *" $w "* ]] || die "unknown workload in ONLY: $w (known: $ALL_WL)"; done
for t in fio dd python3 timeout losetup df awk; do command -v "$t" >/dev/null || die "missing tool: $t"; done
HAVE_HDPARM=1; command -v hdparm >/dev/null || { HAVE_HDPARM=0; log "warning: no hdparm; its rows will read ERR"; }
[[ $FILES_K =~ ^[1-9][0-9]*$ ]] && (( FILES_K <= 1024 )) || die "FILES_K must be 1..1024"
HAVE_BONNIE=1; command -v bonnie++ >/dev/null || { HAVE_BONNIE=0; log "warning: no bonnie++ (apt-get install bonnie++); its rows will read ERR"; }

if [[ $DISKBENCH == */* ]]; then DISKBENCH=$(realpath -m -- "$DISKBENCH")
else DISKBENCH=$(command -v -- "$DISKBENCH" || echo "$DISKBENCH"); fi
DB_OK=1
if [[ ! -x $DISKBENCH ]]; then DB_OK=0; log "warning: DISKBENCH=$DISKBENCH is not executable; its rows will read ERR"; fi

SCRATCH=$(realpath -m -- "$SCRATCH")
[[ $SCRATCH =~ ^/[A-Za-z0-9._/-]+$ ]] || die "scratch dir must match [A-Za-z0-9._/-]+: $SCRATCH"
case $SCRATCH in /|/dev|/dev/*|/proc|/proc/*|/sys|/sys/*|/run|/run/*|/boot|/boot/*) die "refusing scratch dir $SCRATCH";; esac
if [[ -e $SCRATCH && ! -d $SCRATCH ]]; then die "$SCRATCH exists and is not a directory"; fi
parent=$SCRATCH; while [[ ! -d $parent ]]; do parent=$(dirname -- "$parent"); done
# Free space: the run needs 2 files of FILE_MB (read, write); require room for
# three (headroom for diskbench's own checks) plus 10 %, and never take the
# filesystem below 10 % free.
read -r fs_mb free_mb < <(df -Pm -- "$parent" | awk 'NR==2{print $2, $4}')
need_mb=$(( 3 * FILE_MB + 3 * FILE_MB / 10 ))
(( free_mb >= need_mb )) || die "not enough free space in $parent: ${free_mb} MiB free, need ${need_mb} MiB (3 x FILE_MB + 10 %)"
(( (free_mb - 3 * FILE_MB) * 10 >= fs_mb )) || die "refusing: the run would leave less than 10 % of $parent free"

CREATED_SCRATCH=0
if [[ ! -d $SCRATCH ]]; then mkdir -p -- "$SCRATCH"; CREATED_SCRATCH=1; fi
T=""; LOOPDEV=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [[ -n $LOOPDEV ]]; then losetup -d "$LOOPDEV" 2>/dev/null || log "warning: could not detach $LOOPDEV"; fi
  if [[ -n $T && -d $T ]]; then rm -rf -- "$T"; fi
  if [[ $CREATED_SCRATCH == 1 ]]; then rmdir -- "$SCRATCH" 2>/dev/null || true; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "terminated"; exit 143' TERM
T=$(mktemp -d "$SCRATCH/compare.XXXXXX")
READF=$T/read.dat      # read workloads; also behind the read-only loop device
WRITEF=$T/write.dat    # write workloads, overwritten in place
SAMPLES=$T/samples.tsv
: > "$SAMPLES"

# ----------------------------------------------------------- py helpers --
cat > "$T/helper.py" <<'PY'
import sys, json, math, statistics

GiB = 1 << 30

def out(m, v, u):
    print(m, repr(float(v)), u)

def load_json(path):
    txt = open(path).read()
    i = txt.find('{')
    if i < 0:
        sys.exit('no JSON in %s' % path)
    return json.loads(txt[i:])

def read_time(path):
    # last line of bash `time` output: real user sys
    lines = [l.split() for l in open(path) if l.strip()]
    r, u, s = map(float, lines[-1][:3])
    return r, u, s

def cpu_rows(kind, nbytes, nios, usr, sy, suffix=''):
    cpu = usr + sy
    if kind == 'bw' and nbytes > 0:
        out('cpu_s_per_GiB' + suffix, cpu / (nbytes / GiB), 's/GiB')
    if kind == 'iops' and nios > 0:
        out('cpu_us_per_io' + suffix, cpu / nios * 1e6, 'us')

def fio(path, tpath, nj, kind):
    j = load_json(path)['jobs'][0]
    r, w = j['read'], j['write']
    x = r if r['io_bytes'] >= w['io_bytes'] else w
    if x['io_bytes'] <= 0:
        sys.exit('fio: no I/O done')
    if kind == 'bw':
        out('bw', x['bw_bytes'] / 1e6, 'MB/s')
    else:
        out('iops', x['iops'], 'IOPS')
        p = x['clat_ns']['percentile']
        out('lat_p50', p['50.000000'] / 1e3, 'us')
        out('lat_p99', p['99.000000'] / 1e3, 'us')
    real, usr, sy = read_time(tpath)
    cpu_rows(kind, x['io_bytes'], x['total_ios'], usr, sy)
    # fio's own accounting: usr_cpu/sys_cpu are % of the job runtime, per job
    # (with group_reporting job_runtime is the sum over the jobs, so this is
    # already the whole process; no factor numjobs)
    rt = j.get('job_runtime', x.get('runtime', 0)) / 1e3
    fu, fs = j['usr_cpu'] / 100 * rt, j['sys_cpu'] / 100 * rt
    cpu_rows(kind, x['io_bytes'], x['total_ios'], fu, fs, '_fio_own')

def dd(passes):
    b = s = u = y = 0.0
    for l in open(passes):
        f = l.split()
        if len(f) < 5: continue
        b += float(f[0]); s += float(f[1]); u += float(f[3]); y += float(f[4])
    if b <= 0 or s <= 0:
        sys.exit('dd: no data')
    out('bw', b / s / 1e6, 'MB/s')
    cpu_rows('bw', b, 0, u, y)

def db(path, tpath, kind):
    try:
        d = load_json(path)
    except Exception as e:
        sys.exit('diskbench: bad JSON: %s' % e)
    t = d['tests'][0] if isinstance(d.get('tests'), list) and d['tests'] else d
    for wmsg in t.get('warnings', []) or []:
        print('diskbench warning: %s' % wmsg, file=sys.stderr)
    if 'error' in t:
        sys.exit('diskbench: error in JSON: %s' % t['error'])
    res = t.get('result') if isinstance(t.get('result'), dict) else {}
    num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    lat = res.get('lat_ns') if isinstance(res.get('lat_ns'), dict) else {}
    missing = []
    def get(src, k, name):
        v = src.get(k)
        if not num(v):
            missing.append(name); return None
        return v
    rows = []
    if kind == 'files':
        ph = res.get('phases') if isinstance(res.get('phases'), dict) else {}
        for m in FILES_METRICS:
            v = get(ph.get(m, {}), 'files_per_sec', 'result.phases.%s.files_per_sec' % m)
            if v is not None: out(m, v, 'files/s')
        for m in missing:
            print('MISSING %s' % m)
        if not ph:
            sys.exit('diskbench: JSON lacks result.phases')
        return
    if kind == 'bw':
        v = get(res, 'bytes_per_sec', 'result.bytes_per_sec')
        if v is not None: rows.append(('bw', v / 1e6, 'MB/s'))
    else:
        v = get(res, 'iops', 'result.iops')
        if v is not None: rows.append(('iops', v, 'IOPS'))
        v = get(lat, 'p50', 'result.lat_ns.p50')
        if v is not None: rows.append(('lat_p50', v / 1e3, 'us'))
        v = get(lat, 'p99', 'result.lat_ns.p99')
        if v is not None: rows.append(('lat_p99', v / 1e3, 'us'))
    for m, v, u in rows:
        out(m, v, u)
    real, usr, sy = read_time(tpath)
    nb = res.get('bytes'); ni = res.get('ios')
    if kind == 'bw' and num(nb): cpu_rows('bw', nb, 0, usr, sy)
    elif kind == 'iops' and num(ni): cpu_rows('iops', 0, ni, usr, sy)
    else: missing.append('result.bytes' if kind == 'bw' else 'result.ios')
    for m in missing:
        print('MISSING %s' % m)
    if not rows:
        sys.exit('diskbench: JSON lacks ' + ', '.join(missing))

def mx_label(bs):
    k = bs // 1024
    return '%dm' % (k // 1024) if k >= 1024 and k % 1024 == 0 else '%dk' % k

def mx(path):
    # one line per cell of a diskbench matrix document: bw_OP_BS
    d = load_json(path)
    if 'error' in d:
        sys.exit('diskbench: error in JSON: %s' % d['error'])
    for c in d['result']['cells']:
        if c['skipped']:
            print('diskbench: %s at bs %d skipped: %s' % (c['op'], c['block_size'], c['skipped']), file=sys.stderr)
            continue
        if not c['whole_file']:
            print('diskbench: %s at bs %d stopped before its whole pass' % (c['op'], c['block_size']), file=sys.stderr)
        out('bw_%s_%s' % (c['op'], mx_label(c['block_size'])), c['bytes_per_sec'] / 1e6, 'MB/s')

def mxfio(path, metric):
    j = load_json(path)['jobs'][0]
    x = j['read'] if j['read']['io_bytes'] >= j['write']['io_bytes'] else j['write']
    if x['io_bytes'] <= 0:
        sys.exit('fio: no I/O done')
    out(metric, x['bw_bytes'] / 1e6, 'MB/s')

FILES_METRICS = ['seq_create', 'seq_stat', 'seq_delete', 'rand_create', 'rand_stat', 'rand_delete']

def bonnie(path):
    # its CSV line (format 1.98): seq_create is field 26 (from 0), then stat (bonnie++'s
    # "Read" of empty files), delete, and the random three, each with a %CPU
    rows = [l.strip().split(',') for l in open(path) if l.startswith('1.9')]
    if not rows or len(rows[-1]) < 36:
        sys.exit('bonnie++: no CSV line')
    f = rows[-1]
    for i, m in enumerate(FILES_METRICS):
        v = f[26 + 2 * i].strip()
        if v.isdigit():
            out(m, float(v), 'files/s')
        else:  # "+++++": done in under 0.5 s, bonnie++ gives no figure
            print('TOOFAST %s %s' % (m, v or 'empty'))

def hdparm(path):
    mb = s = None
    for l in open(path):
        if 'Timing' in l and ' MB in ' in l:
            f = l.split()
            for i, w in enumerate(f):
                if w == 'MB' and i + 1 < len(f) and f[i + 1] == 'in': mb = float(f[i - 1])
                if w == 'seconds': s = float(f[i - 1])
    if not mb or not s:
        sys.exit('hdparm: no result line')
    out('bw', mb * 1048576 / s / 1e6, 'MB/s')

def fmt(v):
    a = abs(v)
    if a >= 1000: return '%.0f' % v
    if a >= 100: return '%.1f' % v
    if a >= 1: return '%.2f' % v
    return '%.3g' % v

PRIMARY = {'bw': 'MB/s', 'iops': 'IOPS'}

def agg(samples, order):
    rows = [l.rstrip('\n').split('\t') for l in open(samples) if l.strip()]
    wls, tools, data, units, reps, fails = [], {}, {}, {}, {}, {}
    toofast = set()  # (workload, tool, metric) where bonnie++ printed +++++
    fast_reps = {}   # ... and in how many repetitions
    for wl, tool, rep, m, v, u in rows:
        if wl not in wls: wls.append(wl); tools[wl] = []
        if tool not in tools[wl]: tools[wl].append(tool)
        k = (wl, tool)
        reps.setdefault(k, set()).add(rep)
        data.setdefault(k, {})
        if m == 'FAIL':
            fails.setdefault(k, {})[rep] = v; continue
        if m == 'MISSING':
            print('%s/%s rep %s: JSON lacks %s' % (wl, tool, rep, v), file=sys.stderr); continue
        if m == 'TOOFAST':
            toofast.add((wl, tool, v)); units.setdefault((wl, v), 'files/s')
            fast_reps[(wl, tool, v)] = fast_reps.get((wl, tool, v), 0) + 1
            data[k].setdefault(v, []); continue
        try:
            fv = float(v)
            if not math.isfinite(fv): raise ValueError
        except ValueError:
            continue
        data[k].setdefault(m, []).append(fv)
        units[(wl, m)] = u
    med = {}
    expect = {}
    for wl in wls:
        for tool in tools[wl]:
            k = (wl, tool)
            for rep, why in sorted(fails.get(k, {}).items()):
                print('%s/%s rep %s failed: %s' % (wl, tool, rep, why), file=sys.stderr)
            others = []
            for t2 in tools[wl]:
                if t2 == tool: continue
                for m in data[(wl, t2)]:
                    if m not in others and not m.endswith('_fio_own'): others.append(m)
            ms = list(data[k])
            if tool == 'diskbench' or not ms:
                # diskbench must deliver what the peers deliver; a tool with no
                # data at all gets ERR rows for the common metrics
                ms += [m for m in others if m not in ms]
            if tool.startswith('hdparm'):
                ms = [m for m in ms if m == 'bw']
            expect[k] = ms
            n = len(reps[k])
            for m in ms:
                u = units.get((wl, m), '-')
                vals = data[k].get(m, [])
                if not vals:
                    miss = '+++++' if (wl, tool, m) in toofast else 'ERR'
                    print(' '.join([wl, tool, m, miss, miss, miss, u])); continue
                line = [wl, tool, m, fmt(statistics.median(vals)), fmt(min(vals)), fmt(max(vals)), u]
                fast = fast_reps.get((wl, tool, m), 0)
                if len(vals) + fast < n:
                    line.append('failed=%d/%d' % (n - len(vals) - fast, n))
                if fast:
                    line.append('+++++=%d/%d' % (fast, n))
                print(' '.join(line))
                med[(wl, tool, m)] = statistics.median(vals)
    print()
    print('# RATIO diskbench/peer, ratio of medians (bw, iops: >1 = diskbench faster; lat_*, cpu_*: <1 = diskbench lower)')
    for wl in wls:
        if 'diskbench' not in tools[wl]: continue
        for m in [m for m in expect[(wl, 'diskbench')] if not m.endswith('_fio_own')]:
            for peer in tools[wl]:
                if peer == 'diskbench' or m not in expect[(wl, peer)]: continue
                a = med.get((wl, 'diskbench', m)); b = med.get((wl, peer, m))
                r = 'ERR' if a is None or b is None or b == 0 else '%.2f' % (a / b)
                if b is None and (wl, peer, m) in toofast:
                    r = 'n/a (%s printed +++++: under 0.5 s, no figure)' % peer
                print('%s %s diskbench/%s = %s' % (wl, m, peer, r))
                # CPU also against fio's own accounting (which leaves out
                # fio's start-up and exit; diskbench's figure includes its own)
                if m.startswith('cpu_') and m + '_fio_own' in expect[(wl, peer)]:
                    b = med.get((wl, peer, m + '_fio_own'))
                    r = 'ERR' if a is None or b is None or b == 0 else '%.2f' % (a / b)
                    print('%s %s diskbench/%s_own_accounting = %s' % (wl, m, peer, r))

if __name__ == '__main__':
    c = sys.argv[1]
    if c == 'fio': fio(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    elif c == 'dd': dd(sys.argv[2])
    elif c == 'db': db(sys.argv[2], sys.argv[3], sys.argv[4])
    elif c == 'hdparm': hdparm(sys.argv[2])
    elif c == 'mx': mx(sys.argv[2])
    elif c == 'mxfio': mxfio(sys.argv[2], sys.argv[3])
    elif c == 'bonnie': bonnie(sys.argv[2])
    elif c == 'agg': agg(sys.argv[2], sys.argv[3:])
    else: sys.exit('unknown helper command ' + c)
PY
py() { python3 "$T/helper.py" "$@"; }

# ------------------------------------------------------------ primitives --
drop_caches() { sync; echo 3 > /proc/sys/vm/drop_caches; }
fe() { printf '%s' "${1//:/\\:}"; }   # escape ':' for fio --filename
# Buffered workloads start from just-freed guest RAM: read the file, then drop
# the cache, and start at once. On this VM (virtio-balloon free page
# reporting) RAM that stays free for ~2 s costs a host page fault on next use,
# which can cut buffered throughput ~3x (shared/bench/baseline.md 5.6).
prime() { cat -- "$READF" > /dev/null; drop_caches; }

make_file() {   # make_file PATH MIB: fully written, incompressible (fio's random data)
  fio --name=prep --filename="$(fe "$1")" --rw=write --bs=1m --direct=1 --ioengine=psync \
      --size="$2m" --end_fsync=1 --output="$T/prep.log" >/dev/null 2>&1 || die "could not create $1"
}

# fio_job NUMJOBS KIND fio-args...   KIND: bw | iops
fio_job() {
  local nj=$1 kind=$2; shift 2
  local -a a=(--name=compare --randrepeat=0 --group_reporting --output-format=json "$@")
  vlog "fio ${a[*]}"
  local rc=0
  { time timeout -k 10 $((RUNTIME * 5 + 120)) fio "${a[@]}" --output="$T/fio.json" \
      >"$T/fio.log" 2>&1; } 2>"$T/time.out" || rc=$?
  if [[ $rc != 0 ]]; then echo "fio exit $rc: $(tail -n 3 "$T/fio.log" | tr '\n' ' ')" >&2; return 1; fi
  py fio "$T/fio.json" "$T/time.out" "$nj" "$kind"
}

# dd_passes MAXPASSES HOOK dd-args...: whole-file passes (HOOK untimed before
# each) until dd's own seconds add up to RUNTIME or MAXPASSES passes are done.
# bandwidth = total bytes / total dd seconds; CPU from bash `time` per pass.
dd_passes() {
  local maxp=$1 hook=$2; shift 2
  local n=0 s=0 rc line
  : > "$T/dd.passes"
  vlog "dd $* (whole-file passes until ${RUNTIME}s; before each: ${hook:-nothing})"
  while :; do
    if [[ -n $hook ]]; then $hook || return 1; fi
    rc=0
    { time timeout -k 10 $((RUNTIME * 10 + 60)) dd "$@" 2>"$T/dd.err"; } 2>"$T/time.out" || rc=$?
    if [[ $rc != 0 ]]; then echo "dd exit $rc: $(tail -n 2 "$T/dd.err" | tr '\n' ' ')" >&2; return 1; fi
    line=$(grep ' copied, ' "$T/dd.err" | tail -n 1) || { echo "dd printed no statistics" >&2; return 1; }
    { awk '{for (i = 1; i <= NF; i++) if ($i == "s,") printf "%s %s ", $1, $(i-1)}' <<<"$line"
      tail -n 1 "$T/time.out"; } | tr '\n' ' ' >> "$T/dd.passes"
    echo >> "$T/dd.passes"
    n=$((n + 1))
    s=$(awk '{s += $2} END {print s + 0}' "$T/dd.passes")
    if (( n >= maxp )) || awk -v s="$s" -v m="$RUNTIME" 'BEGIN{exit !(s >= m)}'; then break; fi
  done
  py dd "$T/dd.passes"
}

hdparm_run() {   # hdparm_run -t|-T
  [[ $HAVE_HDPARM == 1 ]] || { echo "hdparm not installed" >&2; return 1; }
  [[ -n $LOOPDEV ]] || { echo "no loop device" >&2; return 1; }
  vlog "hdparm $1 $LOOPDEV"
  timeout -k 10 120 hdparm "$1" "$LOOPDEV" > "$T/hdparm.out" 2>&1 \
    || { echo "hdparm: $(tr '\n' ' ' < "$T/hdparm.out")" >&2; return 1; }
  py hdparm "$T/hdparm.out"
}

# db KIND diskbench-args...  (the target is the last argument)
db() {
  local kind=$1; shift
  [[ $DB_OK == 1 ]] || { echo "no diskbench binary" >&2; return 1; }
  vlog "$DISKBENCH $* --json"
  local rc=0
  { time timeout -k 10 $((RUNTIME * 10 + 120)) "$DISKBENCH" "$@" --json \
      >"$T/db.json" 2>"$T/db.err"; } 2>"$T/time.out" || rc=$?
  if [[ $rc != 0 ]]; then
    echo "diskbench exit $rc: $DISKBENCH $* --json: $(tail -n 2 "$T/db.err" | tr '\n' ' ')" >&2
    if [[ -s $T/db.json ]]; then echo "  stdout: $(head -c 400 "$T/db.json" | tr '\n' ' ')" >&2; fi
    return 1
  fi
  py db "$T/db.json" "$T/time.out" "$kind"
}

# ------------------------------------------------------ workload driver --
want() { [[ -z $ONLY ]] || [[ " $ONLY " == *" $1 "* ]]; }

# measure TOOL PREP CMD...  (globals WL REP) -> appends samples
measure() {
  local tool=$1 prep=$2; shift 2
  local out rc=0
  if [[ -n $prep ]]; then
    $prep || { printf '%s\t%s\t%s\tFAIL\tprep failed\t-\n' "$WL" "$tool" "$REP" >> "$SAMPLES"; return 0; }
  fi
  log "$WL rep $REP/$NREP: $tool"
  out=$("$@" 2>"$T/measure.err") || rc=$?
  if [[ -s $T/measure.err ]]; then sed 's/^/    /' "$T/measure.err" >&2; fi
  if [[ $rc != 0 || -z $out ]]; then
    local why; why=$(grep -v -e '^diskbench warning' -e '^  stdout:' "$T/measure.err" | head -n 1 | tr '\t' ' ' | cut -c1-300)
    printf '%s\t%s\t%s\tFAIL\t%s\t-\n' "$WL" "$tool" "$REP" "rc=$rc ${why}" >> "$SAMPLES"
    return 0
  fi
  local m v u
  while read -r m v u; do
    if [[ -n $m ]]; then printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$WL" "$tool" "$REP" "$m" "$v" "${u:--}" >> "$SAMPLES"; fi
  done <<< "$out"
  return 0
}

# run_wl WORKLOAD NREP PREP  "tool|fn" ...  (first spec is diskbench's)
run_wl() {
  WL=$1; NREP=$2; local prep=$3; shift 3
  want "$WL" || return 0
  local spec t0=$SECONDS
  for ((REP = 1; REP <= NREP; REP++)); do
    for spec in "$@"; do measure "${spec%%|*}" "$prep" "${spec#*|}"; done
  done
  log "$WL done in $((SECONDS - t0)) s"
}

# ------------------------------------------------------------- workloads --
S="${FILE_MB}M"
# 1. sequential write, 1 MiB, O_DIRECT, one fsync at the end (file overwritten in place)
sw_db()  { db bw seqwrite -b 1M -s "$S" -t "$RUNTIME" --sync=fsync --force "$WRITEF"; }
sw_fio() { fio_job 1 bw --filename="$(fe "$WRITEF")" --ioengine=psync --size="${FILE_MB}m" --rw=write \
             --bs=1m --direct=1 --end_fsync=1 --time_based --runtime="$RUNTIME"; }
# fio-1pass: the same bytes as diskbench and a dd pass (one FILE_MB pass, one
# fsync). The final flush can cost 0.3-1.4 s per GiB on this VM when the host
# is busy, so a time-based run (more bytes per flush) is not comparable alone.
sw_fio1() { fio_job 1 bw --filename="$(fe "$WRITEF")" --ioengine=psync --size="${FILE_MB}m" --rw=write \
             --bs=1m --direct=1 --end_fsync=1; }
sw_dd()  { dd_passes 50 "" if=/dev/zero of="$WRITEF" bs=1M count="$FILE_MB" oflag=direct conv=fsync,notrunc; }
# 2. sequential read, 1 MiB, O_DIRECT (caches dropped before each run)
sr_db()  { db bw seqread -b 1M -s "$S" -t "$RUNTIME" "$READF"; }
sr_fio() { fio_job 1 bw --filename="$(fe "$READF")" --ioengine=psync --size="${FILE_MB}m" --rw=read \
             --bs=1m --direct=1 --time_based --runtime="$RUNTIME"; }
sr_dd()  { dd_passes 50 drop_caches if="$READF" of=/dev/null bs=1M iflag=direct; }
# 3. buffered sequential read, 2 MiB, file evicted first (primed before each run)
br_db()  { db bw buffered -b 2M -s "$S" -t "$RUNTIME" "$READF"; }
# One pass each, like diskbench (-s FILE stops it) and fio: buffered reads are
# bimodal here (~1.0 or ~1.9 GB/s from one priming to the next), and averaging
# several dd passes into one sample would make dd look steadier than the others.
br_dd()  { dd_passes 1 prime if="$READF" of=/dev/null bs=2M; }
br_fio() { fio_job 1 bw --filename="$(fe "$READF")" --ioengine=psync --size="${FILE_MB}m" --rw=read \
             --bs=2m --direct=0 --invalidate=1 --iomem_align=4096; }
# 4. page-cache reads of the read-only loop device (hdparm -T), and buffered
#    reads of it after a cache drop and a settle (hdparm -t: sync + 3 s sleep)
cr_db()  { db bw cached "$LOOPDEV"; }
cr_hd()  { hdparm_run -T; }
bd_db()  { sleep "$SETTLE"; db bw buffered "$LOOPDEV"; }
bd_hd()  { hdparm_run -t; }
# 5. random 4 KiB, O_DIRECT
# the synchronous engine beside fio's psync; the asynchronous ones below
rr1_db()   { db iops randread -b 4k -s "$S" -t "$RUNTIME" -j 1 --engine=sync "$READF"; }
rr1_fio()  { fio_job 1 iops --filename="$(fe "$READF")" --ioengine=psync --size="${FILE_MB}m" \
               --rw=randread --bs=4k --direct=1 --time_based --runtime="$RUNTIME"; }
rr32_db()  { db iops randread -b 4k -s "$S" -t "$RUNTIME" -j 32 --engine=sync "$READF"; }
rr32_ps()  { fio_job 32 iops --filename="$(fe "$READF")" --ioengine=psync --numjobs=32 --thread \
               --size="${FILE_MB}m" --rw=randread --bs=4k --direct=1 --time_based --runtime="$RUNTIME"; }
rr32_aio() { fio_job 1 iops --filename="$(fe "$READF")" --ioengine=libaio --iodepth=32 \
               --size="${FILE_MB}m" --rw=randread --bs=4k --direct=1 --time_based --runtime="$RUNTIME"; }
rw1_db()   { db iops randwrite -b 4k -s "$S" -t "$RUNTIME" -j 1 --sync=none --force "$WRITEF"; }
rw1_fio()  { fio_job 1 iops --filename="$(fe "$WRITEF")" --ioengine=psync --size="${FILE_MB}m" \
               --rw=randwrite --bs=4k --direct=1 --time_based --runtime="$RUNTIME"; }
# 6. the asynchronous engine: one thread, a deep queue, against fio's io_uring
#    and libaio at the same depth; and at depth 1 against the sync engine
ra1_uring() { db iops randread -b 4k -s "$S" -t "$RUNTIME" --engine=uring "$READF"; }
ra1_sync()  { db iops randread -b 4k -s "$S" -t "$RUNTIME" --engine=sync "$READF"; }
ra32_db()   { db iops randread -b 4k -s "$S" -t "$RUNTIME" --qd 32 "$READF"; }
ra32_fu()   { fio_job 1 iops --filename="$(fe "$READF")" --ioengine=io_uring --iodepth=32 \
                --size="${FILE_MB}m" --rw=randread --bs=4k --direct=1 --time_based --runtime="$RUNTIME"; }
sq8_db()    { db bw seqread -b 1M -s "$S" -t "$RUNTIME" --qd 8 "$READF"; }
sq8_fu()    { fio_job 1 bw --filename="$(fe "$READF")" --ioengine=io_uring --iodepth=8 \
                --size="${FILE_MB}m" --rw=read --bs=1m --direct=1 --time_based --runtime="$RUNTIME"; }
# 7. iozone -a's points. iozone3 is in Debian's non-free, not in main, so fio
#    stands in at the same points: each cell one pass over an MX_MB file,
#    O_DIRECT, no sync (iozone -I without -e), one thread, psync. diskbench
#    runs them all in one `matrix` (a budget large enough for whole passes);
#    fio runs one job per cell: write into a new file (no fallocate, like
#    diskbench's truncated file), rewrite it, then read, randread, randwrite.
MX_BS="4k 64k 1m"
mx_db() {
  [[ $DB_OK == 1 ]] || { echo "no diskbench binary" >&2; return 1; }
  mkdir -p "$T/mx"
  local -a a=(matrix --file-sizes "${MX_MB}M" --block-sizes 4k,64k,1M --engine=sync --sync=none
              --ops write,rewrite,read,randread,randwrite --budget 900 --json "$T/mx")
  vlog "$DISKBENCH ${a[*]}"
  local rc=0
  timeout -k 10 1200 "$DISKBENCH" "${a[@]}" >"$T/mx.json" 2>"$T/mx.err" || rc=$?
  if [[ $rc != 0 ]]; then echo "diskbench exit $rc: $(tail -n 2 "$T/mx.err" | tr '\n' ' ')" >&2; return 1; fi
  py mx "$T/mx.json"
}
mx_fio_cell() {   # mx_fio_cell OP BS RW
  local -a a=(--name=compare --randrepeat=0 --output-format=json --filename="$(fe "$T/mx/fio.dat")"
              --ioengine=psync --direct=1 --fallocate=none --size="${MX_MB}m" --bs="$2" --rw="$3")
  vlog "fio ${a[*]}"
  timeout -k 10 600 fio "${a[@]}" --output="$T/mx-fio.json" >"$T/fio.log" 2>&1 \
    || { echo "fio exit: $(tail -n 3 "$T/fio.log" | tr '\n' ' ')" >&2; return 1; }
  py mxfio "$T/mx-fio.json" "bw_$1_$2"
}
mx_fio() {
  local bs
  mkdir -p "$T/mx"
  for bs in $MX_BS; do
    rm -f -- "$T/mx/fio.dat"
    mx_fio_cell write "$bs" write && mx_fio_cell rewrite "$bs" write &&
      drop_caches && mx_fio_cell read "$bs" read &&
      drop_caches && mx_fio_cell randread "$bs" randread &&
      mx_fio_cell randwrite "$bs" randwrite || return 1
  done
  rm -f -- "$T/mx/fio.dat"
}
do_sync() { sync; }
# 7. file metadata: bonnie++'s -n (empty files, FILES_K directories of 1024)
#    beside diskbench files with the same count (its own tree: 1024 per directory)
fl_db() { mkdir -p "$T/files"; db files files -n $((FILES_K * 1024)) "$T/files"; }
fl_bonnie() {
  [[ $HAVE_BONNIE == 1 ]] || { echo "bonnie++ not installed" >&2; return 1; }
  mkdir -p "$T/files"
  vlog "bonnie++ -s 0 -n $FILES_K:0:0:$FILES_K -d $T/files -u root -q"
  timeout -k 10 1800 bonnie++ -s 0 -n "$FILES_K:0:0:$FILES_K" -d "$T/files" -u root -q \
    >"$T/bonnie.csv" 2>"$T/bonnie.err" || { echo "bonnie++: $(tail -n 2 "$T/bonnie.err" | tr '\n' ' ')" >&2; return 1; }
  py bonnie "$T/bonnie.csv"
}

# ------------------------------------------------------------------ main --
START=$SECONDS
qinfo=""
src=$(findmnt -no SOURCE --target "$SCRATCH" 2>/dev/null || true)
if [[ -b $src ]]; then
  blk=$(basename "$(readlink -f "$src")")
  if [[ -e /sys/class/block/$blk/partition ]]; then blk=$(basename "$(readlink -f "/sys/class/block/$blk/..")"); fi
  for f in rotational logical_block_size max_sectors_kb max_segments read_ahead_kb scheduler write_cache; do
    if [[ -r /sys/block/$blk/queue/$f ]]; then qinfo+=" $f=$(tr ' ' '_' < "/sys/block/$blk/queue/$f")"; fi
  done
fi
dbver=$([[ $DB_OK == 1 ]] && "$DISKBENCH" --version 2>&1 | head -n 1 || echo none)
echo "# compare.sh date=$(date -u +%Y-%m-%dT%H:%M:%SZ) kernel=$(uname -r) cpus=$(nproc) mem_mib=$(awk '/MemTotal/{print int($2/1024)}' /proc/meminfo) thp=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
echo "# scratch=$T fs=$(findmnt -no FSTYPE --target "$SCRATCH" 2>/dev/null) reps=$REPS runtime_s=$RUNTIME file_mib=$FILE_MB"
dbgit=$(git -C "$(dirname -- "$DISKBENCH")" log -1 --format=%h 2>/dev/null || true)
if [[ -n $dbgit ]] && [[ -n $(git -C "$(dirname -- "$DISKBENCH")" status --porcelain --untracked-files=no 2>/dev/null) ]]; then dbgit+="+dirty"; fi
echo "# diskbench=$DISKBENCH ($dbver${dbgit:+, git HEAD $dbgit}, built $(date -u -r "$DISKBENCH" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || echo '?'))"
echo "# peers: $(fio --version) | dd $(dd --version | head -n 1 | awk '{print $NF}') | $( [[ $HAVE_HDPARM == 1 ]] && hdparm -V 2>&1 | head -n 1 || echo 'no hdparm') | $( [[ $HAVE_BONNIE == 1 ]] && dpkg-query -W -f='bonnie++ ${Version}' bonnie++ 2>/dev/null || echo 'no bonnie++')"
if [[ -n $qinfo ]]; then echo "# queue(${blk}):$qinfo"; fi
echo "# workload tool metric median min max unit"

# the data files serve every workload but files
DATA_WL=0
for w in $ALL_WL; do if [[ $w != files ]] && want "$w"; then DATA_WL=1; fi; done
if [[ $DATA_WL == 1 ]]; then
  log "preparing ${FILE_MB} MiB files in $T"
  make_file "$READF" "$FILE_MB"
  make_file "$WRITEF" "$FILE_MB"
fi
sync
if want cached || want buffered_dev; then
  LOOPDEV=$(losetup -r -f --show -- "$READF" 2>"$T/losetup.err") \
    || { LOOPDEV=""; log "losetup failed: $(cat "$T/losetup.err"); cached/buffered_dev rows will read ERR"; }
  if [[ -n $LOOPDEV ]]; then log "read-only loop device $LOOPDEV over $READF"; fi
fi

read -r CPU_T0 STEAL_T0 < <(awk '/^cpu /{t = 0; for (i = 2; i <= NF; i++) t += $i; print t, $9}' /proc/stat)
DEV_REPS=$(( REPS > DEV_PAIRS ? REPS : DEV_PAIRS ))

run_wl seqwrite     "$REPS" do_sync     "diskbench|sw_db" "fio|sw_fio" "fio-1pass|sw_fio1" "dd|sw_dd"
run_wl seqread      "$REPS" drop_caches "diskbench|sr_db" "fio|sr_fio" "dd|sr_dd"
run_wl buffered     "$REPS" prime       "diskbench|br_db" "dd|br_dd"   "fio|br_fio"
run_wl cached       "$REPS" ""          "diskbench|cr_db" "hdparm-T|cr_hd"
run_wl buffered_dev "$DEV_REPS" drop_caches "diskbench|bd_db" "hdparm-t|bd_hd"
run_wl randread_j1  "$REPS" drop_caches "diskbench|rr1_db" "fio|rr1_fio"
run_wl randread_j32 "$REPS" drop_caches "diskbench|rr32_db" "fio-psync-j32|rr32_ps" "fio-libaio-qd32|rr32_aio"
run_wl randwrite_j1 "$REPS" do_sync     "diskbench|rw1_db" "fio|rw1_fio"
run_wl randread_qd1  "$REPS" drop_caches "diskbench|ra1_uring" "diskbench-sync|ra1_sync"
run_wl randread_qd32 "$REPS" drop_caches "diskbench|ra32_db" "fio-io_uring-qd32|ra32_fu" "fio-libaio-qd32|rr32_aio"
run_wl seqread_qd8   "$REPS" drop_caches "diskbench|sq8_db" "fio-io_uring-qd8|sq8_fu"
run_wl matrix        "$REPS" do_sync     "diskbench|mx_db" "fio|mx_fio"
run_wl files         "$REPS" do_sync     "diskbench|fl_db" "bonnie++|fl_bonnie"

py agg "$SAMPLES"
read -r CPU_T1 STEAL_T1 < <(awk '/^cpu /{t = 0; for (i = 2; i <= NF; i++) t += $i; print t, $9}' /proc/stat)
echo
echo "# done in $((SECONDS - START)) s; cpu steal $(awk -v a="$((STEAL_T1 - STEAL_T0))" -v b="$((CPU_T1 - CPU_T0))" 'BEGIN{printf "%.1f%%", (b > 0 ? 100*a/b : 0)}')"
