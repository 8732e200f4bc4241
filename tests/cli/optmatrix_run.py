"""Runs the option matrix (tests/cli/optmatrix.py) and holds each run to the contract.

    python3 tests/cli/optmatrix_run.py DISKBENCH OPTABLE [--jobs N] [--only REGEX] [--list]

As root, each worker gets a small ext4 over a loop device (its image in /dev/shm), a
loop device of its own for the block-device rows (which run in order, on one worker),
and a sentinel: a 1 MiB file beside its target directory and a 4 MiB loop device
beside its target device, checksummed after every row, as are the inputs it makes
for job, fit and verify (a job file, profiles, a region and its witness); ramfs and tmpfs mounts serve
the rows where the filesystem is the point.  Not root: a temporary directory, the
rows that need root skipped, saying why.  Every run is held to: its expected exit
status, the contract's (tests/cli/invariants.py check_run: one error line, --json's
document, no sanitizer report, the document's invariants), no .diskbench-* file
left, no new file beside the target or in the working directory, the sentinels
unchanged, and the row's own checks.  A failure that issue 44 names as one of its
defects (KNOWN in optmatrix_defects.py) is reported as such, `# TODO defect N`, and
does not fail the run; any other failure does.  TAP; the last line counts.

OPTMATRIX_JOBS: workers (3; each runs one row at a time), OPTMATRIX_ONLY: a regular
expression of the rows to run, OPTMATRIX_TIMES: a file to write each row's seconds to,
OPTMATRIX_ZONED: a zoned block device the zoned rows may write (none here: skipped).
"""
import argparse
import concurrent.futures as cf
import csv
import hashlib
import io
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import invariants  # noqa: E402
import optmatrix  # noqa: E402
import optmatrix_defects  # noqa: E402

TIMEOUT = 60
MiB = 1 << 20
WRITE_CALLS = ("write", "pwrite64", "writev", "pwritev", "pwritev2", "fsync", "fdatasync",
               "sync_file_range", "fallocate", "ftruncate")
DEVICE_CALLS = ("BLKDISCARD", "BLKSECDISCARD", "BLKZEROOUT", "BLKRESETZONE", "BLKFINISHZONE")


def sh(*cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw).stdout.strip()


def digest(path):
    """A file's or a device's bytes, read past the page cache's copy."""
    h = hashlib.sha256()
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        while True:
            b = os.read(fd, MiB)
            if not b:
                return h.hexdigest()
            h.update(b)
    finally:
        os.close(fd)


def dev_stat(dev):
    """A block device's counters: reads, writes, discards and flushes completed; None
    where /sys cannot tell (a chroot without it: the sentinels' bytes still hold)."""
    try:
        f = open("/sys/block/%s/stat" % os.path.basename(dev)).read().split()
    except OSError:
        return None
    return {"reads": int(f[0]), "writes": int(f[4]),
            "discards": int(f[11]) if len(f) > 11 else 0,
            "flushes": int(f[15]) if len(f) > 15 else 0}


class Env:
    """One worker's places: target directory, existing file, device, sentinels."""

    def __init__(self, root, n, is_root, shared):
        self.n, self.root, self.is_root, self.loops, self.mounts = n, root, is_root, [], []
        self.base = os.path.join(root, "w%d" % n)
        os.makedirs(self.base)
        self.mnt = os.path.join(self.base, "mnt")
        os.makedirs(self.mnt)
        self.dev = self.sentinel_dev = None
        if is_root:
            img = os.path.join(shared["images"], "w%d-fs.img" % n)
            self.fs_dev = self.loop(img, 48 * MiB)
            sh("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0",
               self.fs_dev)
            sh("mount", self.fs_dev, self.mnt)
            self.mounts.append(self.mnt)
            self.dev = self.loop(os.path.join(shared["images"], "w%d-dev.img" % n), 16 * MiB)
            self.sentinel_dev = self.loop(os.path.join(shared["images"], "w%d-sentinel.img" % n),
                                          4 * MiB, fill=True)
            self.sentinel_dev_sum = digest(self.sentinel_dev)
        self.T, self.C, self.O = (os.path.join(self.mnt, x) for x in ("t", "cwd", "out"))
        self.I = os.path.join(self.mnt, "in")  # the inputs (make_inputs), never written
        self.F = os.path.join(self.T, "existing")
        self.sentinel = os.path.join(self.mnt, "sentinel")
        with open(self.sentinel, "wb") as f:
            f.write(os.urandom(MiB))
        self.sentinel_sum = digest(self.sentinel)
        self.places = {"R": os.path.join(shared["ramfs"], "w%d" % n) if shared["ramfs"] else None,
                       "M": os.path.join(shared["tmpfs"], "w%d" % n) if shared["tmpfs"] else None}
        for d in [self.T, self.C, self.O, self.I] + [p for p in self.places.values() if p]:
            os.makedirs(d, exist_ok=True)
        self.top = sorted(os.listdir(self.mnt))
        self.inputs, self.input_sums = {}, {}

    def make_inputs(self, db):
        """The files job, fit and verify run: {JF} a job file of two time_based jobs
        (runtime=60: -t replaces it), {P} a profile any disk is fit for and {PH} one no
        disk is (tests/cli/fit.sh's), {JB} a job file with a value diskbench refuses (verify=md5), {V}
        a region seqwrite --verify --keep left with {W} its witness, {WC} that witness
        cut as a power cut cuts it (no end line, a half line), and {VB} a copy of the
        region with a block changed.  Each is
        checksummed: no row may change one."""
        files = {
            "JF": ("job.fio", "[w]\nrw=randwrite\nbs=4k\nsize=1m\ndirect=1\nioengine=libaio\nsync=dsync\n"
                   "iodepth=4\ntime_based\nruntime=60\n\n[r]\nstonewall\nrw=read\nbs=64k\n"
                   "size=1m\ndirect=1\ntime_based\nruntime=60\n"),
            "P": ("easy.fio", "# diskbench-source: optmatrix, a limit any disk meets\n"
                  "# diskbench-require: write.iops >= 1\n[w]\nrw=write\nbs=4k\nsize=64k\n"
                  "ioengine=psync\nfdatasync=1\n"),
            "PH": ("hard.fio", "# diskbench-source: optmatrix, a limit no disk meets\n"
                   "# diskbench-require: write.iops >= 1000M\n[w]\nrw=write\nbs=4k\n"
                   "size=64k\nioengine=psync\nfdatasync=1\n"),
            "JB": ("bad.fio", "[x]\nrw=write\nbs=4k\nsize=64k\nverify=md5\n"),
        }
        for key, (name, text) in files.items():
            self.inputs[key] = os.path.join(self.I, name)
            with open(self.inputs[key], "w") as f:
                f.write(text)
        self.inputs["V"], self.inputs["W"], self.inputs["WC"] = (
            os.path.join(self.I, x) for x in ("region", "witness", "witness-cut"))
        p = subprocess.run([db, "seqwrite", "--verify", "--keep", "--witness", self.inputs["W"],
                            "-s", "4M", "-t", "30", "--once", self.inputs["V"]],
                           cwd=self.C, capture_output=True)
        if p.returncode != 0:
            raise OSError("the region for verify: exit %d: %s" % (p.returncode, p.stderr[-300:]))
        lines = open(self.inputs["W"]).read().splitlines()
        with open(self.inputs["WC"], "w") as f:
            f.write("\n".join(lines[:3]) + "\n" + lines[3][:5])
        # {VB}: the region with 8 bytes overwritten at 1 MiB + 777, its block 1 corrupt
        self.inputs["VB"] = os.path.join(self.I, "region-bad")
        shutil.copyfile(self.inputs["V"], self.inputs["VB"])
        with open(self.inputs["VB"], "r+b") as f:
            f.seek(MiB + 777)
            f.write(b"XXXXXXXX")
        self.input_sums = {k: digest(v) for k, v in self.inputs.items()}

    def loop(self, img, size, fill=False):
        with open(img, "wb") as f:
            if fill:
                f.write(os.urandom(size))
            else:
                f.truncate(size)
        dev = sh("losetup", "-f", "--show", img)
        self.loops.append(dev)
        return dev

    def own(self):
        return {os.path.basename(d) for d in self.loops}

    def reset(self, row):
        for d in [self.T, self.C, self.O] + [p for p in self.places.values() if p]:
            for e in os.listdir(d):
                p = os.path.join(d, e)
                shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.unlink(p)
        self.cwd_sums = {}
        for name in row.cwd_files:
            p = os.path.join(self.C, name)
            with open(p, "wb") as f:
                f.write(os.urandom(MiB))
            self.cwd_sums[name] = digest(p)
        if row.target == "file":
            with open(self.F, "wb") as f:
                f.write(os.urandom(8 * MiB))
            self.file_sum = digest(self.F)

    def fill(self, arg, shared):
        for key in sorted(self.inputs, key=len, reverse=True):  # {WC} before {W}
            arg = arg.replace("{%s}" % key, self.inputs[key])
        return (arg.replace("{T}", self.T).replace("{F}", self.F).replace("{O}", self.O)
                .replace("{D}", self.dev or "/nonexistent").replace("{J2}", shared["jsonl2"])
                .replace("{Z}", shared["zoned"] or "/nonexistent")
                .replace("{J}", shared["jsonl"])
                .replace("{R}", self.places["R"] or "/nonexistent")
                .replace("{M}", self.places["M"] or "/nonexistent"))

    def close(self):
        for m in reversed(self.mounts):
            for _ in range(50):  # io_uring's teardown may hold the mount for a moment
                if subprocess.run(["umount", m], stderr=subprocess.DEVNULL).returncode == 0:
                    break
                time.sleep(0.1)
            else:
                subprocess.run(["umount", "-l", m], stderr=subprocess.DEVNULL)
        for d in self.loops:
            subprocess.run(["losetup", "-d", d], stderr=subprocess.DEVNULL)


def leftovers(dirs):
    found = []
    for d in dirs:
        for dirpath, dirnames, files in os.walk(d):
            found += [os.path.join(dirpath, x) for x in files + dirnames
                      if x.startswith(".diskbench-")]
    return found


def check_csv(out, rc):
    if rc != 0 and not out.strip():
        return []
    rows = list(csv.reader(io.StringIO(out)))
    if not rows:
        return ["csv: no header"]
    bad, head = [], rows[0]
    chains = {}
    for i, col in enumerate(head):
        m = re.match(r"^(.*?)(min|p50|p90|p99|p99_9|max)_ns$", col)
        if m:
            chains.setdefault(m.group(1), {})[m.group(2)] = i
    for n, r in enumerate(rows[1:], 2):
        if len(r) != len(head):
            bad.append("csv: line %d has %d cells, the header %d" % (n, len(r), len(head)))
            continue
        for prefix, cols in chains.items():
            vals = [(k, float(r[cols[k]])) for k in invariants.PCT_CHAIN
                    if k in cols and re.match(r"^-?[\d.]+$", r[cols[k]])]
            for (a, x), (b, y) in zip(vals, vals[1:]):
                if x > y:
                    bad.append("csv: line %d: %s%s_ns %s > %s%s_ns %s" % (n, prefix, a, x,
                                                                          prefix, b, y))
    return bad


def check_strace(path, watched):
    bad = []
    for line in open(path, errors="replace"):
        m = re.match(r"^(?:\[pid +\d+\] |\d+ +)?(\w+)\((\d+)<([^>]*)>", line)
        if m and m.group(1) in WRITE_CALLS and m.group(3).startswith(watched):
            bad.append("strace: %s on %s" % (m.group(1), m.group(3)))
        if m and m.group(1) == "ioctl" and any(c in line for c in DEVICE_CALLS):
            bad.append("strace: %s" % line.strip()[:120])
    return sorted(set(bad))[:6]


def check_witness(out, rc):
    """--witness -: a witness on stdout, its first line, a line a write, the end's count."""
    lines = out.splitlines()
    if rc != 0:
        return []
    if not lines or not lines[0].startswith("# diskbench witness 1 run="):
        return ["witness: stdout does not start with a witness's line: %r" % lines[:1]]
    writes = [l for l in lines[1:-1] if re.match(r"^w \d+ \d+$", l)]
    bad = [l for l in lines[1:-1] if not re.match(r"^w \d+ \d+$", l)]
    if bad or lines[-1] != "# end lines=%d" % len(writes):
        return ["witness: %d lines not a write's, the end %r for %d writes"
                % (len(bad), lines[-1], len(writes))]
    return []


class Result:
    def __init__(self, row, argv):
        self.row, self.argv, self.fail, self.rc, self.out, self.err, self.wall = \
            row, argv, [], None, "", "", 0.0


def run_row(env, row, shared, db):
    argv = [env.fill(a, shared) for a in row.args]
    res = Result(row, argv)
    need = {"dev": env.dev, "ramfs": env.places["R"], "tmpfs": env.places["M"],
            "zoned": shared["zoned"]}
    if row.target in need and not need[row.target]:
        res.skip = "no %s here (%s)" % (row.target, "not root" if not env.is_root else
                                       "OPTMATRIX_ZONED names none" if row.target == "zoned"
                                       else "mount failed")
        return res
    if any(c[0] == "strace_quiet" for c in row.checks) and not shutil.which("strace"):
        res.skip = "no strace"
        return res
    env.reset(row)
    stdin = open(env.fill(row.stdin, shared), "rb") if row.stdin else subprocess.DEVNULL
    watched = {"dev": env.dev, "zoned": shared["zoned"]}.get(row.target)
    counts = dev_stat(watched) if watched else None
    before = (watched, counts) if counts else None
    cmd, extra_env = [db] + argv, {}
    trace = os.path.join(env.O, "strace.txt")
    if any(c[0] == "strace_quiet" for c in row.checks):
        cmd = ["strace", "-f", "-y", "-qq", "-o", trace, "-e",
               "trace=" + ",".join(WRITE_CALLS + ("ioctl",))] + cmd
        extra_env["ASAN_OPTIONS"] = "detect_leaks=0"  # LeakSanitizer cannot run under ptrace
    if row.sandbox:
        cmd = [sys.executable, os.path.join(HERE, "noasync.py")] + cmd
    t0 = time.monotonic()
    for before_args in row.first or []:
        first = [db] + [env.fill(a, shared) for a in before_args]
        p = subprocess.run(first, cwd=env.C, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=TIMEOUT, env=dict(os.environ, LC_ALL="C"))
        if p.returncode not in row.expect:
            res.fail.append("exit %s of the run before, wanted %s: %s" % (
                p.returncode, "/".join(map(str, row.expect)),
                (invariants.error_lines(p.stderr.decode(errors="replace")) or [""])[-1][:200]))
    try:
        p = subprocess.run(cmd, cwd=env.C, stdin=stdin, capture_output=True,
                           timeout=TIMEOUT, env=dict(os.environ, LC_ALL="C", **extra_env))
        res.rc, res.out, res.err = p.returncode, p.stdout.decode(errors="replace"), \
            p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        res.rc, res.err = None, (e.stderr or b"").decode(errors="replace")
        res.fail.append("timeout: still running after %d s" % TIMEOUT)
    finally:
        if row.stdin:
            stdin.close()
    res.wall = time.monotonic() - t0
    if row.sandbox and res.rc == 77:
        res.skip = "no seccomp filter here (tests/cli/noasync.py)"
        return res
    judge(env, row, res, before, trace)
    return res


def sla_unconfirmed(row, res):
    """Exit 6 from an sla row that wanted 0, where the run says why: a rate met the
    target in its step and the confirm run did not hold it (issue 39's "unconfirmed").
    On a busy machine the confirm run shares the CPU with everything else, and this is
    the contract's answer to that, not an option's defect; any other exit 6 fails."""
    if res.rc != 6 or 0 not in row.expect or "sla" not in res.argv[:3]:
        return False
    if row.fmt == "json":
        try:
            doc = json.loads(res.out).get("sla") or {}
        except (ValueError, AttributeError):
            return False
        return bool(doc.get("found_iops")) and doc.get("confirmed") is False
    return re.search(r"^sla \S+: unconfirmed: ", res.out, re.M) is not None


def judge(env, row, res, before, trace):
    f = res.fail
    if sla_unconfirmed(row, res):
        res.note = "sla unconfirmed (exit 6): the confirm run fell short on a busy machine"
    elif res.rc is not None and res.rc not in row.expect:
        f.append("exit %s, wanted %s: %s" % (res.rc, "/".join(map(str, row.expect)),
                                             (invariants.error_lines(res.err) or [""])[-1][:200]))
    if res.rc is not None:
        args = res.argv
        out, err = res.out, res.err
        if any(c[0] == "witness_stdout" for c in row.checks):
            # --witness -: stdout holds the witness's lines alone, the result goes to stderr
            out = "\n".join(l for l in err.splitlines() if not l.startswith("diskbench: "))
            err = "\n".join(l for l in err.splitlines() if l.startswith("diskbench: "))
        f += invariants.check_run(res.rc, out, err, args, env.own())
        if row.fmt == "csv":
            f += check_csv(res.out, res.rc)
        if row.fmt == "jsonl":
            for line in res.out.splitlines():
                try:
                    f += invariants.check(invariants.parse(line), args, env.own())
                except ValueError as e:
                    f.append("jsonl: a line is not JSON (%s): %r" % (e, line[:100]))
    places = [env.mnt, env.C] + [p for p in env.places.values() if p]
    left = leftovers(places)
    if row.keep and res.rc == 0:
        if len(left) != row.keep:
            f.append("keep: --keep left %d test files, not %d: %s" % (len(left), row.keep, left))
        left = []
    if left:
        f.append("leftover: %s" % ", ".join(x.replace(env.base, "W") for x in left))
    new = sorted(set(os.listdir(env.C)) - set(row.cwd_files))
    if new:
        f.append("new file: the run made %s in its working directory" % new)
    if sorted(os.listdir(env.mnt)) != env.top:
        f.append("new file: beside the target: %s" % sorted(set(os.listdir(env.mnt)) -
                                                             set(env.top)))
    for name, s in env.cwd_sums.items():
        p = os.path.join(env.C, name)
        if not os.path.exists(p) or digest(p) != s:
            f.append("sentinel: the file '%s' in the working directory changed" % name)
    if digest(env.sentinel) != env.sentinel_sum:
        f.append("sentinel: the file beside the target changed")
    if env.sentinel_dev and digest(env.sentinel_dev) != env.sentinel_dev_sum:
        f.append("sentinel: the loop device beside the target changed")
    for key, s in env.input_sums.items():
        if not os.path.exists(env.inputs[key]) or digest(env.inputs[key]) != s:
            f.append("sentinel: the input {%s} (%s) changed" % (key, env.inputs[key]))
    for c in row.checks:
        extra(env, row, res, c, before, trace)


def extra(env, row, res, c, before, trace):
    f = res.fail
    if c[0] == "stderr" and not re.search(c[1], res.err):
        f.append("stderr: no line matches %r" % c[1])
    elif c[0] == "no_output" and re.search(c[1], res.out + res.err):
        f.append("text: %r" % re.search(c[1], res.out + res.err).group(0))
    elif c[0] == "device_quiet" and before:
        # no write, trim or flush; a read or two is diskbench's own look at what the
        # device holds before the run (tests/cli/reap.sh), never the run's requests
        dev, counts = before
        after = dev_stat(dev) or counts
        moved = {k: after[k] - counts[k] for k in counts if after[k] != counts[k]}
        if moved and set(moved) == {"reads"} and moved["reads"] <= 4:
            moved = {}
        if moved:
            f.append("device: %s counted %s" % (os.path.basename(dev), moved))
    elif c[0] == "strace_quiet" and os.path.exists(trace):
        f += check_strace(trace, (env.T,))
    elif c[0] == "file_unchanged" and digest(env.F) != env.file_sum:
        f.append("file: the existing file was written")
    elif c[0] == "witness_stdout":
        f += check_witness(res.out, res.rc)
    elif c[0] == "served_at_least" and res.rc == 0:
        ol = (invariants.parse(res.out).get("result") or {}).get("open_loop") or {}
        asked, served = ol.get("rate_asked") or 0, ol.get("rate_served") or 0
        if served < c[1] * asked:
            f.append("served: %s IOPS of the %s asked, under %d %% (unserved %s, the longest "
                     "lag %s ns)" % (served, asked, c[1] * 100, ol.get("unserved_ios"),
                                     ol.get("max_lag_ns")))


def zoned_device():
    """OPTMATRIX_ZONED, when it names a zoned block device (its data may be lost)."""
    dev = os.environ.get("OPTMATRIX_ZONED")
    try:
        model = open("/sys/block/%s/queue/zoned" % os.path.basename(dev or "")).read().strip()
    except OSError:
        return None
    return dev if model != "none" else None


def setup_shared(root, is_root):
    shared = {"ramfs": None, "tmpfs": None, "images": root, "mounts": [],
              "zoned": zoned_device() if is_root else None}
    if not is_root:
        return shared
    # loop images in memory, where there is room (a container's /dev/shm may hold 64 MiB):
    # the real disk stays out of it
    if os.path.isdir("/dev/shm") and shutil.disk_usage("/dev/shm").free > 512 * MiB:
        shared["images"] = tempfile.mkdtemp(prefix="diskbench-optmatrix.", dir="/dev/shm")
    for kind, opts in (("ramfs", []), ("tmpfs", ["-o", "size=96m"])):
        d = os.path.join(root, kind)
        os.makedirs(d)
        if subprocess.run(["mount", "-t", kind] + opts + [kind, d],
                          stderr=subprocess.DEVNULL).returncode == 0:
            shared[kind] = d
            shared["mounts"].append(d)
    return shared


def fleet_record(env, shared, db):
    """report's input: two fleet runs' JSON Lines ({J}, and {J2} as a baseline)."""
    for key in ("jsonl", "jsonl2"):
        shared[key] = os.path.join(shared["root"], key.replace("jsonl", "fleet") + ".jsonl")
        with open(shared[key], "w") as f:
            subprocess.run([db, "--jsonl", "randread", "-t", "0.2", "-s", "8M", env.T],
                           stdout=f, stderr=subprocess.DEVNULL, cwd=env.C)


def units(rows):
    """The rows as units of work: a group's rows stay together, in order."""
    groups, out = {}, []
    for r in rows:
        if r.group:
            if r.group not in groups:
                groups[r.group] = []
                out.append(groups[r.group])
            groups[r.group].append(r)
        else:
            out.append([r])
    # the longest first, so that the pool ends together
    return sorted(out, key=lambda u: -len(u))


def report(results, n0=0):
    passed = failed = skipped = todo = 0
    seen = {}
    for i, res in enumerate(results, n0 + 1):
        name = res.row.name
        if getattr(res, "skip", None):
            skipped += 1
            print("ok %d - %s # SKIP %s" % (i, name, res.skip))
            continue
        known, other = optmatrix_defects.classify(res)
        for d in known.values():
            seen.setdefault(d, []).append(i)
        if not res.fail:
            passed += 1
            note = getattr(res, "note", None)
            print("ok %d - %s%s" % (i, name, " # " + note if note else ""))
        elif not other:
            todo += 1
            print("not ok %d - %s # TODO issue 44 defect %s" % (
                i, name, ",".join(str(d) for d in sorted(set(known.values())))))
            for f, d in known.items():
                print("#   [defect %d] %s" % (d, f))
        else:
            failed += 1
            print("not ok %d - %s" % (i, name))
            print("#   $ diskbench %s" % " ".join(res.argv))
            for f in other:
                print("#   %s" % f)
            for f, d in known.items():
                print("#   [defect %d] %s" % (d, f))
            for d in res.row.defects:
                print("#   (a row written for issue 44's defect %d: %s)"
                      % (d, optmatrix_defects.TITLES[d]))
    return passed, failed, skipped, todo, seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("optable")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("OPTMATRIX_JOBS", "3")))
    ap.add_argument("--only", default=os.environ.get("OPTMATRIX_ONLY"))
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    db = os.path.abspath(a.db)
    table = json.loads(sh(os.path.abspath(a.optable)))
    rows = optmatrix.generate(table)
    if a.only:
        rows = [r for r in rows if re.search(a.only, r.name)]
    if a.list:
        for r in rows:
            print("%s\t%s\t%s" % (r.name, " ".join(r.args), "/".join(map(str, r.expect))))
        return 0
    is_root = os.geteuid() == 0 and shutil.which("losetup") and shutil.which("mkfs.ext4")
    root = tempfile.mkdtemp(prefix="diskbench-optmatrix.", dir="/var/tmp")
    shared, envs = {"root": root, "mounts": []}, []
    t0 = time.monotonic()
    try:
        shared.update(setup_shared(root, is_root))
        try:
            envs = [Env(root, n, is_root, shared) for n in range(max(1, a.jobs))]
        except (subprocess.CalledProcessError, OSError) as e:
            print("# no loop device or ext4 here (%s): a temporary directory instead" % e)
            for env in envs:
                env.close()
            is_root, envs = False, [Env(root + "/plain", n, False, shared)
                                    for n in range(max(1, a.jobs))]
        print("# option matrix: %d rows from %s, %d workers, %s" % (
            len(rows), a.optable, len(envs), "ext4 over a loop device each" if is_root else
            "a temporary directory (not root: the rows on devices and mounts are skipped)"))
        fleet_record(envs[0], shared, db)
        for env in envs:
            env.make_inputs(db)
        work = queue.Queue()
        for u in units(rows):
            work.put(u)
        results, lock = {}, threading.Lock()
        index = {id(r): i for i, r in enumerate(rows)}

        def worker(env):
            while True:
                try:
                    u = work.get_nowait()
                except queue.Empty:
                    return
                for r in u:
                    res = run_row(env, r, shared, db)
                    with lock:
                        results[index[id(r)]] = res
        with cf.ThreadPoolExecutor(len(envs)) as pool:
            list(pool.map(worker, envs))
        ordered = [results[i] for i in range(len(rows))]
        if os.environ.get("OPTMATRIX_TIMES"):  # where the time goes: seconds, then the row
            with open(os.environ["OPTMATRIX_TIMES"], "w") as f:
                f.writelines("%.2f\t%s\n" % (r.wall, r.row.name) for r in ordered)
        passed, failed, skipped, todo, seen = report(ordered)
        wall = time.monotonic() - t0
        slow = sorted(ordered, key=lambda r: -r.wall)[:3]
        print("# %.0f s in all (%.0f s of runs); slowest: %s" % (
            wall, sum(r.wall for r in ordered),
            "; ".join("%s %.1f s" % (r.row.name, r.wall) for r in slow)))
        ran = {d for r in ordered if not getattr(r, "skip", None) for d in r.row.defects}
        for d in sorted(optmatrix_defects.KNOWN):  # the defects still excused
            where, title = seen.get(d), optmatrix_defects.TITLES[d]
            if where:
                rows_hit = sorted(set(where))
                said = "%d rows fail (%s%s): %s" % (
                    len(rows_hit), ",".join(map(str, rows_hit[:12])),
                    ",..." if len(rows_hit) > 12 else "", title)
            elif d in ran:
                said = "its rows pass: fixed? Then remove it from KNOWN in optmatrix_defects.py"
            else:
                said = "none of its rows ran here"
            print("# defect %d: %s" % (d, said))
        print("optmatrix: %d passed, %d failed, %d skipped (%d known defects, TODO)" % (
            passed, failed, skipped, todo))
        return 1 if failed else 0
    finally:
        for env in envs:
            env.close()
        for m in shared.get("mounts", []):
            subprocess.run(["umount", m], stderr=subprocess.DEVNULL)
        if shared.get("images", root) != root:
            shutil.rmtree(shared["images"], ignore_errors=True)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
