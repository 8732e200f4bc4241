#!/usr/bin/env python3
"""What people read cannot drift from the program (issue 22).

    python3 tests/cli/doctest.py ./diskbench      (part of `make cli`)

1. Every command line in README.md's code blocks and in the man page's
   EXAMPLES runs, on a scratch directory (and, as root, loop devices over
   64 MiB files for /dev/sdX), with small sizes and times substituted; lines
   that need hosts or a launcher (pdsh, srun, ssh, kubectl, ...) are listed as
   skipped with the reason (make check-fleet runs those).
2. Every sample output in README (the lines after a `$ ./diskbench ...` or
   set-up line) is checked for shape against what that command prints now:
   numbers and units masked, each sample line must be a line the program
   prints (device-specific lines: their prefix), and quick's table has as
   many rows as the program's.
3. README's set-up and test commands run verbatim (apt-get, make, sudo and
   the binary stubbed) as root without sudo, and as an unprivileged user
   through sudo; .ci/run runs the same test command.
4. Tables that exist in code agree with the docs: the commands (--help,
   README's table, the man page's SYNOPSIS and TESTS), the exit codes (the
   enum in diskbench.h, README, EXIT STATUS), each CSV kind's header (the
   program's first line, the man page, README), JSON keys, options.
5. The contradictions issue 22 found stay gone.
6. One version (issue 28): debian/changelog's top entry is what --version,
   JSON "version", every man page's header (version and date) and NEWS.md's
   newest section say; debian/docs installs README.md and NEWS.md.
7. What people read (issue 33): quoted names whole, quick's step count, its
   -t 0, its verdict's steps, sections not spliced, the failed quick's row.
8. Docs that fit (issue 43): diskbench(1) renders to at most 1,500 lines at
   MANWIDTH=80 (skipped, saying so, without man(1)); no page renders with a
   groff warning; ARCHITECTURE.md is at most 1,500 words.
Output: `ok N - name` / `not ok N - name` (/ `# SKIP`), then a count.
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./diskbench")
README = open(os.path.join(ROOT, "README.md")).read()
# the command's page first, then the references: what it prints, how it measures
PAGES = ["man/diskbench.1"] + sorted(p for p in (os.path.relpath(q, ROOT) for q in
                                                 glob.glob(os.path.join(ROOT, "man/*.[1-8]")))
                                     if p != "man/diskbench.1")
MAN_SRC = "".join(open(os.path.join(ROOT, p)).read() for p in PAGES)
IS_ROOT = os.geteuid() == 0
counts = {"ok": 0, "fail": 0, "skip": 0}
n = 0


def report(good, name, why=""):
    global n
    n += 1
    counts["ok" if good else "fail"] += 1
    print("%s %d - %s" % ("ok" if good else "not ok", n, name))
    if not good:
        for line in str(why).splitlines()[:30]:
            print("#   " + line)


def skip(name, why):
    global n
    n += 1
    counts["skip"] += 1
    print("ok %d - %s # SKIP %s" % (n, name, why))


def unroff(text):
    """Man source to plain text, enough for commands and headers."""
    for a, b in (("\\-", "-"), ("\\(dq", '"'), ("\\(aq", "'"), ("\\~", " "), ("\\&", ""),
                 ("\\e", "\\"), ("\\(-> ", "-> "), ("\\(mi", "-")):
        text = text.replace(a, b)
    return re.sub(r"\\f[BIRP]", "", text)


MAN = unroff(MAN_SRC)


def man_section(name):
    m = re.search(r"^\.SH %s\n(.*?)(?=^\.SH )" % re.escape(name), MAN, re.S | re.M)
    return m.group(1) if m else ""


def run(cmd, cwd, timeout=300, env=None):
    p = subprocess.run(["bash", "-c", "set -o pipefail; " + cmd], cwd=cwd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


# ---- scratch: a directory for /data and /var/tmp, loop devices for /dev/sdX
S = tempfile.mkdtemp(prefix="diskbench-doctest.", dir="/var/tmp")
T = os.path.join(S, "t")
CWD = os.path.join(S, "cwd")
os.mkdir(T)
os.mkdir(CWD)
LOOPS = {}


def setup_loops():
    if not IS_ROOT or not shutil.which("losetup"):
        return "needs root and losetup"
    for name in ("sdb", "sdc", "sdd"):
        img = os.path.join(S, name + ".img")
        with open(img, "wb") as f:
            f.write(os.urandom(1 << 20) * 64)  # 64 MiB of data, not a sparse file
        p = subprocess.run(["losetup", "-f", "--show", img], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        if p.returncode != 0:
            return "losetup: " + p.stderr.decode().strip()
        LOOPS["/dev/" + name] = p.stdout.decode().strip()
    return None


def cleanup():
    for dev in LOOPS.values():
        subprocess.run(["losetup", "-d", dev], stderr=subprocess.DEVNULL)
    shutil.rmtree(S, ignore_errors=True)


LAUNCHERS = ("pdsh", "clush", "ansible", "srun", "ssh", "kubectl", "START_AT=", "at=", "for ",
             "envsubst", "pdcp", "scp")
MEASURING = {"seqwrite", "seqread", "buffered", "cached", "randread", "randwrite", "sweep",
             "quick", "matrix", "files", "info"}


def small(words):
    """The same command with sizes and times a test can afford."""
    test_at = next((i for i, w in enumerate(words) if w in MEASURING), None)
    if test_at is None:
        return words
    test = words[test_at]
    out, i = [], 0
    drop_next = {"-s", "-t", "--point-time", "--budget", "-n"}
    while i < len(words):
        w = words[i]
        if w in drop_next and i > test_at:
            i += 2
            continue
        if re.match(r"^--(point-time|budget|size|time)=", w):
            i += 1
            continue
        out.append(w)
        i += 1
    extra = {"sweep": ["-s", "16M", "--point-time=0.2", "--budget=3"],
             "quick": ["-s", "16M", "-t", "2"],
             "matrix": ["--file-sizes=4M", "--block-sizes=1M", "--budget=5"],
             "files": ["-n", "256", "-t", "0"],
             "info": [],
             "cached": ["-t", "0.3"]}.get(test, ["-s", "16M", "-t", "0.3"])
    if test == "seqwrite" and "-t" in words and words[words.index("-t") + 1] == "0":
        extra = ["-s", "16M", "-t", "0"]
    return out[:test_at + 1] + extra + out[test_at + 1:]


def substitute(cmd):
    """A documented command line as a test may run it, or (None, why)."""
    c = cmd.strip()
    if c.startswith("$ "):
        c = c[2:]
    if c.startswith("sudo "):
        if not IS_ROOT:
            return None, "needs root"
        c = c[5:]
    c = re.sub(r"\s+#.*$", "", c)  # a trailing comment
    if any(c.startswith(l) for l in LAUNCHERS) or c.startswith(("dd ", "make", "cd ")):
        return None, "needs hosts, a launcher or is not diskbench (make check-fleet, bench/)"
    if re.search(r"\$(at|h|START_AT)\b", c):
        return None, "reads what a launcher's hosts wrote"
    if "jq" in c and not shutil.which("jq"):
        return None, "needs jq"
    for dev in ("/dev/sdb", "/dev/sdc", "/dev/sdd"):
        if dev in c:
            if dev not in LOOPS:
                return None, "needs a block device (root and losetup)"
            c = re.sub(re.escape(dev) + r"\b", LOOPS[dev], c)
    c = re.sub(r"(?<![\w/.])(/var/tmp/dbdoc2|/var/tmp|/data|/scratch/\$USER)(?=[/\s'\"]|$)", T, c)
    c = re.sub(r"(?<=\binfo )/(?=\s|$)", T, c)
    pieces = re.split(r"(\s*(?:&&|\|\||\||;)\s*)", c)
    for k in range(0, len(pieces), 2):
        p = pieces[k]
        if re.match(r"^(\./)?diskbench\b", p):
            try:
                words = shlex.split(p)
            except ValueError:
                continue
            words = [DB] + small(words[1:])
            redirect = re.compile(r"^\d?(>>?|<)(&\d)?$")
            glob_word = re.compile(r"^[\w.-]*\*[\w.-]*$")  # *.jsonl: the shell expands it
            pieces[k] = " ".join(w if redirect.match(w) or glob_word.match(w) else shlex.quote(w)
                                 for w in words)
    return "".join(pieces), None


def jsonl_fixtures(cmd):
    """report lines read files a launcher would have written: write them."""
    for name in re.findall(r"([\w*.-]+\.jsonl)\b", cmd):
        if "*" in name:
            name = "fixture.jsonl"
            if glob.glob(os.path.join(CWD, "*.jsonl")):
                continue
        path = os.path.join(CWD, name)
        if not os.path.exists(path):
            run("%s randread --jsonl -s 4M -t 0.2 %s > %s" % (DB, T, shlex.quote(path)), CWD)


def code_lines(block):
    """Logical lines: a line ending in && or |, or leaving a quote open, goes on."""
    out, cur = [], ""
    for line in block:
        if not cur and line.lstrip().startswith("#"):
            continue  # a comment, whose apostrophes are no quotes
        cur = (cur + "\n" + line) if cur else line
        if cur.rstrip().endswith(("&&", "|", "\\")) or cur.count("'") % 2 == 1:
            continue
        out.append(cur)
        cur = ""
    if cur:
        out.append(cur)
    return out


def readme_blocks():
    """Indented code blocks of README.md, as lists of lines."""
    blocks, cur = [], []
    for line in README.splitlines():
        if line.startswith("    ") or (cur and line.strip() == ""):
            cur.append(line[4:])
        else:
            if cur:
                blocks.append(cur)
            cur = []
    if cur:
        blocks.append(cur)
    return [[l for l in b] for b in blocks]


def is_command(line):
    l = line.strip()
    return bool(re.match(r"^(\$ |sudo )?(\./)?diskbench(\s|$)", l)) or "apt-get" in l or \
        any(l.startswith(x) for x in LAUNCHERS) or l.startswith("dd ")


# ---- shapes of sample output
UNIT = r"(?:ns|us|µs|ms|s|B|kB|KB|MB|GB|TB|KiB|MiB|GiB|TiB|B/s|kB/s|MB/s|GB/s|TB/s|KiB/s|MiB/s|GiB/s|%)"
STRICT = re.compile(r"^(?:(seqwrite|seqread|buffered|cached|randread|randwrite|sweep): |latency: |cache: |"
                    r"quick: over |  step |  (SEQ|RND)\S+ Q\d+T\d+ (read|write)|latency histogram:|"
                    r" +range +count|max IOPS|min latency|knee:|max MB/s|diskbench: )")
PREFIX_ONLY = re.compile(r"^(device|link|looks like|max IOPS with [^:]*|/\S*):")


def skeleton(line):
    s = line.replace(T, "<path>")
    s = re.sub(r"(?<![\w/])/(?:var/tmp|data)\S*", "<path>", s)
    s = re.sub(r"<path>/\.diskbench-\S+", "<path>", s)
    s = re.sub(r"\b(io_uring|libaio|sync)(?=[,\]])", "<engine>", s)
    # how the run chose to submit (issue 40) follows what its probe measured, and a
    # run shorter than the probe says nothing: left out, as golden.sh does
    s = re.sub(r", submitted (?:one by one(?: on \d+ of \d+ threads)?|in batches) \([^)]*\)", "", s)
    s = re.sub(r"\d[\d.]*\s?%s(?![\w/])" % UNIT, "#U", s)
    s = re.sub(r"\d[\d.]*[kMG]?(?![\w/])", "#", s)  # 348 and 2.49k alike
    s = re.sub(r"\d[\d.]*", "#", s)
    s = re.sub(r"#{2,}", "#", s)
    s = re.sub(r"(# \w*[^s\W])s\b", r"\1", s)  # "1 stream" and "4 streams" alike
    return " ".join(s.split())


def table_rows(lines):
    """The rows of quick's table: the indented lines after its header."""
    at = next((i for i, l in enumerate(lines) if l.startswith("  step ")), None)
    if at is None:
        return None
    rows = []
    for l in lines[at + 1:]:
        if not l.startswith("  "):
            break
        rows.append(l)
    return rows


def check_samples(cmd, sample, where):
    sub, why = substitute(cmd)
    if sub is None:
        skip("sample output of `%s` (%s)" % (cmd.strip(), where), why)
        return
    rc, out, err = run(sub, CWD)
    got = (out + err).splitlines()
    shapes = {skeleton(l) for l in got}
    prefixes = {l.split(":", 1)[0] for l in got if ":" in l}
    # the disks under the target come from sysfs: where it is not mounted (a
    # chroot, make check-envs) the program prints no device line at all
    if not os.path.isdir("/sys/dev/block"):
        prefixes |= {"device", "link"}
    bad = []
    for line in sample:
        if STRICT.match(line) and not PREFIX_ONLY.match(line) and skeleton(line) not in shapes:
            bad.append("shape: " + line)
        elif PREFIX_ONLY.match(line) and line.split(":", 1)[0] not in prefixes and \
                not line.startswith("/"):
            bad.append("prefix: " + line)
    # a table under a "  step" header: as many rows, each of the program's shape
    mine, theirs = table_rows(sample), table_rows(got)
    if mine is not None and (theirs is None or len(mine) != len(theirs)):
        bad.append("the table has %s rows, the sample %d" % (len(theirs) if theirs else "no", len(mine)))
    for line in mine or []:
        if skeleton(line) not in {skeleton(l) for l in theirs or []}:
            bad.append("row: " + line)
    report(rc == 0 and not bad, "sample output of `%s` (%s) has the program's shape" % (cmd.strip()[:70], where),
           "exit %d\n%s\n-- the program printed:\n%s" % (rc, "\n".join(bad), "\n".join(got[:25])))


def run_block_commands(lines, where):
    for cmd in code_lines(lines):
        if not is_command(cmd.split("\n")[0]) and not cmd.startswith("rm "):
            continue
        if "apt-get" in cmd:
            continue  # part 3
        sub, why = substitute(cmd)
        if sub is None:
            skip("`%s` (%s)" % (cmd.strip().split("\n")[0][:70], where), why)
            continue
        jsonl_fixtures(sub)
        rc, out, err = run(sub, CWD)
        report(rc == 0, "`%s` (%s) runs" % (cmd.strip().split("\n")[0][:70], where),
               "exit %d: %s\n%s" % (rc, sub, err[-800:]))


def part1_2():
    why = setup_loops()
    if why:
        print("# /dev/sdX examples skipped: " + why)
    for block in readme_blocks():
        run_block_commands(block, "README")
        # samples: the lines after a prompt (or the set-up line) up to the next one
        cmd, sample = None, []
        for line in block + ["$ "]:
            if line.startswith("$ ") or "apt-get" in line:
                if cmd and sample:
                    check_samples(cmd, [l for l in sample if l.strip()], "README")
                cmd = line if line.startswith("$ ") else line.split("&& ")[-1]
                cmd = cmd if re.match(r"^(\$ )?\./diskbench ", cmd) else None
                sample = []
            elif cmd:
                sample.append(line)
    ex = man_section("EXAMPLES")
    for block in re.findall(r"^\.EX\n(.*?)^\.EE", ex, re.S | re.M):
        run_block_commands(block.splitlines(), "man EXAMPLES")


# ---- 3. set-up commands, verbatim, with stubs
STUB = """#!/bin/sh
echo "%s $*" >> "%s"
%s
"""


def part3():
    cmds = [l.strip() for l in README.splitlines() if "apt-get" in l and l.startswith("    ")]
    ci = open(os.path.join(ROOT, ".ci/run")).read()
    m = re.search(r"^readme_cmd='(.*)'$", ci, re.M)
    report(m is not None and any(m.group(1) == c for c in cmds),
           ".ci/run's test command is README's, character for character",
           m.group(1) if m else "no readme_cmd in .ci/run")
    report("${cmd//sudo /}" not in ci, ".ci/run runs the command as it is (no sudo stripped)")
    for i, cmd in enumerate(cmds):
        for user in ("root", "user"):
            name = "README set-up command %d runs verbatim as %s" % (i + 1, user +
                                                                     (" without sudo" if user == "root" else " through sudo"))
            if not IS_ROOT:
                skip(name, "needs root (to become a user, and to prove root needs no sudo)")
                continue
            if user == "user" and not shutil.which("setpriv"):
                skip(name, "no setpriv(1)")
                continue
            d = tempfile.mkdtemp(dir=S)
            stubs, log = os.path.join(d, "stubs"), os.path.join(d, "log")
            os.mkdir(stubs)
            open(log, "w").close()
            for prog, tail in (("apt-get", "exit 0"), ("make", "exit 0"), ("sudo", 'exec "$@"'),
                               ("dpkg-buildpackage", "exit 0")):
                with open(os.path.join(stubs, prog), "w") as f:
                    f.write(STUB % (prog, log, tail))
            with open(os.path.join(d, "diskbench"), "w") as f:
                f.write(STUB % ("diskbench", log, "exit 0"))
            for p in glob.glob(stubs + "/*") + [os.path.join(d, "diskbench")]:
                os.chmod(p, 0o755)
            os.chmod(S, 0o711)  # the user must reach the stubs
            os.chmod(d, 0o755)
            os.chmod(stubs, 0o755)
            os.chmod(log, 0o666)
            env = {"PATH": stubs + ":/usr/bin:/bin", "HOME": d}
            argv = ["bash", "-c", cmd]
            if user == "user":
                argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + argv
            p = subprocess.run(argv, cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            calls = open(log).read().splitlines()
            want_sudo = user == "user"
            good = p.returncode == 0 and \
                any(c.startswith("apt-get update") for c in calls) and \
                any(c.startswith("apt-get install -y") for c in calls) and \
                any(c.startswith(("make", "diskbench", "dpkg-buildpackage")) for c in calls) and \
                any(c.startswith("sudo apt-get") for c in calls) == want_sudo
            report(good, name, "exit %d\n%s\ncalls: %s" % (p.returncode, p.stdout.decode()[-400:], calls))


# ---- 4. tables in code against the docs
def program_commands():
    rc, out, _ = run(DB + " --help", CWD)
    part = out.split("\ntests:\n", 1)[1].split("\n\n", 1)[0]
    return {l.split()[0] for l in part.splitlines() if l.strip()}


def part4():
    cmds = program_commands()
    readme_tests = set(re.findall(r"^\| `(\w+)` \|", README.split("## The tests", 1)[1].split("\n## ", 1)[0], re.M))
    report(readme_tests == cmds, "README's table of tests names every command, and only those",
           "program: %s\nREADME: %s" % (sorted(cmds), sorted(readme_tests)))
    syn = man_section("SYNOPSIS")
    listed = set(re.findall(r"^\.BR? (\w+)(?: ,| ;)?$", syn.split("is one of", 1)[1], re.M)) if "is one of" in syn else set()
    report(cmds <= listed | {"report"} and listed <= cmds, "the man SYNOPSIS lists every command",
           "program: %s\nSYNOPSIS: %s" % (sorted(cmds), sorted(listed)))
    tests_sec = man_section("TESTS")
    ss = set(re.findall(r"^\.SS (\w+)$", tests_sec, re.M))
    report(cmds <= ss, "the man page's TESTS has a section per command", "missing: %s" % sorted(cmds - ss))

    import signal
    h = open(os.path.join(ROOT, "include/lib/diskbench.h")).read()
    # the enum, and 128 + N for the signals people send (HUP, INT, QUIT, TERM);
    # the other signals main.c stops on may be listed too
    codes = {int(c) for c in re.findall(r"\bEXIT_\w+ = (\d+)", h)} | {129, 130, 131, 143}
    stops = re.findall(r"\{ (SIG[A-Z0-9]+), \"", open(os.path.join(ROOT, "src/main.c")).read())
    allowed = codes | {128 + int(getattr(signal, n)) for n in stops if hasattr(signal, n)}
    rd = README.split("## Exit status", 1)[1].split("\n## ", 1)[0]
    rcodes = {int(c) for row in re.findall(r"^\| ([\d, ]+) \|", rd, re.M) for c in row.split(",")}
    report(codes <= rcodes <= allowed, "README's exit status table has every exit code, and no other",
           "code: %s\nREADME: %s" % (sorted(codes), sorted(rcodes)))
    es = man_section("EXIT STATUS")
    mcodes = {int(c) for c in re.findall(r"^\.B (\d+)$", es, re.M)}
    mcodes |= {int(c) for c in re.findall(r"^\.BR? (\d+)(?: ,)?", es, re.M)}
    report(codes <= mcodes, "the man page's EXIT STATUS has every exit code",
           "code: %s\nman: %s" % (sorted(codes), sorted(mcodes)))

    # each CSV kind: the program's header is the one the man page shows
    run("%s --jsonl randread -s 4M -t 0.2 %s > %s/h.jsonl" % (DB, T, S), CWD)
    kinds = {"single": "--csv randread -s 4M -t 0.2 " + T,
             "series": "--csv --series randread -s 4M -t 0.2 " + T,
             "sweep": "--csv sweep -s 8M --point-time=0.2 --budget=2 " + T,
             "info": "--csv info " + T,
             "files": "--csv files -n 64 -t 0 " + T,
             "matrix": "--csv matrix --file-sizes=4M --block-sizes=1M --ops=read --budget=5 " + T,
             "report": "--csv report %s/h.jsonl" % S,
             "steady": "--csv steady randread --round 0.2 --window 3 --max-rounds 3 --excursion 1000 "
                       "--slope 1000 -s 4M " + T,
             # the mean: a p99 step at the ceiling may leave 1 % of its arrivals
             # unstarted on a busy machine and fail, the confirm run too (exit 6)
             "sla": "--csv sla randread --latency 10s,mean --step-time 0.2 -s 4M " + T,
             "job": "--csv job %s/j.fio %s" % (S, T),
             "fit": "--csv fit %s/f.fio %s" % (S, T)}
    with open(os.path.join(S, "j.fio"), "w") as f:
        f.write("[j]\nrw=write\nbs=4k\nsize=64k\nfdatasync=1\n")
    with open(os.path.join(S, "f.fio"), "w") as f:
        f.write("# diskbench-source: doctest\n# diskbench-require: write.iops >= 1\n"
                "[j]\nrw=write\nbs=4k\nsize=64k\nfdatasync=1\n")
    headers = {}
    man_lines = set(MAN.splitlines())
    for kind, args in kinds.items():
        rc, out, err = run("%s %s" % (DB, args), CWD)
        headers[kind] = out.split("\n", 1)[0]
        report(rc == 0 and headers[kind] in man_lines,
               "CSV header of %s is in the man page as printed" % kind,
               "exit %d: %s\n%s" % (rc, headers[kind], err[-300:]))
    # capacity needs a block device: refused on a directory (2), its header still printed
    rc, out, err = run("%s --csv capacity %s" % (DB, T), CWD)
    headers["capacity"] = out.split("\n", 1)[0]
    report(rc == 2 and headers["capacity"] in man_lines, "CSV header of capacity is in the man page as printed",
           "exit %d: %s\n%s" % (rc, headers["capacity"], err[-300:]))
    documented = {l for l in man_lines if re.match(r"^(test,target,|run_id,test,)", l) and "..." not in l}
    report(documented <= set(headers.values()),
           "every full CSV header in the man page is one the program prints",
           "\n".join(sorted(documented - set(headers.values()))))
    rh = set(re.findall(r"`((?:test,target|run_id,test),[\w,]+)`", README))
    report(rh <= set(headers.values()), "README's CSV headers are the program's",
           "\n".join(sorted(rh - set(headers.values()))))

    # JSON keys of a test and of quick's steps are documented
    import json
    rc, out, _ = run("%s --json randread -s 4M -t 0.2 %s" % (DB, T), CWD)
    d = json.loads(out)
    keys = set(d) | set(d["result"]) | set(d["params"])
    missing = {k for k in keys if not re.search(r"\b%s\b" % re.escape(k), MAN)}
    report(not missing, "every key of a test's JSON document is in the man page", sorted(missing))
    rc, out, _ = run("%s --json quick -s 8M -t 1 %s" % (DB, T), CWD)
    q = json.loads(out)
    report(all("step" in t for t in q["tests"]) and re.search(r"^\.B step$", MAN_SRC, re.M),
           "quick's tests[] carry step, and the man pages document it")

    # every option of every command's help is in the man page
    missing = set()
    for c in cmds:
        rc, out, _ = run("%s %s --help" % (DB, c), CWD)
        for opt in re.findall(r"--([\w-]+)", out):
            if not re.search(r"--%s\b" % re.escape(opt), MAN):
                missing.add(opt)
    report(not missing, "every option in every --help is in the man page", sorted(missing))


# ---- 5. the contradictions issue 22 found
def part5():
    rc, helps, _ = run("for t in $(%s --help | sed -n '/^tests:/,/^$/p' | awk 'NF {print $1}' | tail -n +2); "
                       "do %s $t --help; done; %s --help" % (DB, DB, DB), CWD)
    for phrase in ("one-minute", "five short measurements"):
        where = [w for w, text in (("help", helps), ("README", README), ("man", MAN)) if phrase in text]
        report(not where, "nobody says '%s'" % phrase, where)
    report(not re.search(r"no asynchronous engine", MAN, re.I) and "uring" in helps,
           "BUGS does not deny the io_uring and aio engines the program has")
    rc, fh, _ = run(DB + " files --help", CWD)
    opts = re.findall(r"^\s+(?:-\w, )?--([\w-]+)", fh, re.M)
    report(len(opts) == len(set(opts)) and fh.count("fsync:") == 1,
           "files --help says each option, and what --sync=fsync does, once", fh)
    launch = [l for l in re.findall(r"^\s{4}(.*)$", README, re.M) + re.findall(r"^(.*)$", "\n".join(
        re.findall(r"^\.EX\n(.*?)^\.EE", MAN, re.S | re.M)), re.M)
        if re.match(r"^\s*(pdsh|clush|ansible|srun)\b", l) and "--start-at +" in l]
    report(not launch, "no launcher recipe uses --start-at +N (each host would round on its own)",
           "\n".join(launch))
    sentences = re.split(r"(?<=[.:;])\s", re.sub(r"\s+", " ", README + " " + MAN))
    bad = [s for s in sentences if re.search(r"(?<![\w-])-j\s*\d+", s) and "queue depth" in s and "--qd" not in s]
    report(not bad, "-j is never called the queue depth without --qd beside it", "\n".join(bad[:5]))
    # -t is a duration (issue 33): no sentence may still say that a run stops at
    # -s bytes or -t seconds, whichever comes first
    stale = [x for x in sentences if re.search(r"whichever (comes|is) first", x) and
             re.search(r"(?<![\w-])-s\b|SIZE|bytes", x) and re.search(r"(?<![\w-])-t\b|SECONDS|seconds", x)]
    stale += [x for x in sentences if re.search(r"stops? (after|when|at) (`?-s`?|SIZE|.{0,3}-s)", x)
              and not re.search(r"\bpeer|\bfio\b|\bdd\b", x)]  # what the peers do is true
    report(not stale, "no doc says a run stops at -s bytes or -t seconds (-t is a duration)",
           "\n".join(stale[:5]))


def changelog_top():
    """The version and the date (YYYY-MM-DD) of debian/changelog's top entry."""
    import email.utils
    text = open(os.path.join(ROOT, "debian/changelog")).read()
    m = re.match(r"^diskbench \(([^)]+)\)", text)
    t = re.search(r"^ -- .*?>  (.+)$", text, re.M)  # the entry's trailer, the first one
    when = email.utils.parsedate_to_datetime(t.group(1)).date().isoformat() if t else None
    return (m.group(1) if m else None), when, text.split("\n", 1)[0]


def part6():
    version, when, cl = changelog_top()
    report(version is not None and when is not None,
           "debian/changelog's top entry names diskbench's version and its date", cl)
    rc, out, _ = run(DB + " --version", CWD)
    report(rc == 0 and re.match(r"^diskbench %s( \(static\))?$" % re.escape(version or "?"), out.strip()),
           "--version says debian/changelog's version", "%s vs %s" % (out.strip(), version))
    rc, out, _ = run(DB + " --json info " + T, CWD)
    report('"version": "%s"' % version in out, "JSON \"version\" is debian/changelog's version",
           out[:200])
    heads = re.findall(r'^\.TH \S+ \d (\S+) "diskbench ([^"]+)"', MAN_SRC, re.M)
    report(len(heads) == len(PAGES) and {v for d, v in heads} == {version},
           "every man page's .TH header carries debian/changelog's version", heads)
    report(len(heads) == len(PAGES) and {d for d, v in heads} == {when},
           "every man page's .TH date is debian/changelog's (%s)" % when, heads)
    samples = set(re.findall(r'"version": "([^"]+)"', MAN_SRC + README))
    report(samples <= {version}, "the docs' sample JSON says debian/changelog's version", samples)
    news = open(os.path.join(ROOT, "NEWS.md")).read()
    first = re.search(r"^## (\S+) \(([\d-]+)\)$", news, re.M)
    report(first is not None and first.groups() == (version, when),
           "NEWS.md's newest section is debian/changelog's version and date",
           first and first.group(0))
    docs = open(os.path.join(ROOT, "debian/docs")).read().split()
    report({"README.md", "NEWS.md"} <= set(docs),
           "debian/docs installs README.md and NEWS.md", docs)


def man_sections(src):
    """(title, body) of each .SH/.SS section of the man sources."""
    parts = re.split(r"^\.S[HS] (.*)$", src, flags=re.M)
    return [(parts[i].strip('"'), parts[i + 1]) for i in range(1, len(parts) - 1, 2)]


def macro_args(line):
    """A macro line's arguments as troff splits them: by spaces, "..." kept whole."""
    return re.findall(r'"(?:[^"]|"")*"|(?:\\ |\S)+', line)[1:]


def quick_steps():
    """quick's steps, counted from its table in src/cmd/cmd_quick.c."""
    src = open(os.path.join(ROOT, "src/cmd/cmd_quick.c")).read()
    table = re.search(r"quick_steps\[\] = \{(.*?)^\};", src, re.S | re.M)
    return len(re.findall(r"^\s*\{ \"", table.group(1), re.M)) if table else 0


WORDS = {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11}


def part7():
    """What people read (issue 33): contradictions of the kinds a new user found."""
    # a quoted JSON string split into two macro arguments renders without its
    # space ("SEQ1MQ8T1" for "SEQ1M Q8T1")
    split = []
    for page in PAGES:
        for i, line in enumerate(open(os.path.join(ROOT, page)).read().split("\n")):
            if re.match(r"^\.(BR|RB|BI|IB|IR|RI)\s", line):  # .B and .I join with spaces
                split += ["%s:%d: %s" % (page, i + 1, line) for a in macro_args(line)
                          if a.startswith("\\(dq") and not a.endswith("\\(dq")]
    report(not split, "no quoted name is split across a macro's arguments (its space lost)",
           "\n".join(split[:5]))
    # how many steps quick runs: the program's table; "eight" only beside
    # CrystalDiskMark (whose steps they are)
    n = quick_steps()
    rc, qhelp, _ = run(DB + " quick --help", CWD)
    texts = (("README", README), ("man", MAN), ("quick --help", qhelp))
    wrong = []
    for where, text in texts:
        flat = re.sub(r"\s+", " ", text)
        for m in re.finditer(r"(?:(\w+)'s )?(\b(?:%s|\d+)\b) (?:\w+ ){0,2}(steps|short measurements)"
                             % "|".join(WORDS), flat):
            count = WORDS.get(m.group(2), int(m.group(2)) if m.group(2).isdigit() else 0)
            cdm = "CrystalDiskMark" in flat[max(0, m.start() - 40):m.end()]
            if count != (n - 1 if cdm else n) and ("quick" in flat[max(0, m.start() - 300):m.end()]
                                                    or where == "quick --help"):
                wrong.append("%s: %s" % (where, flat[max(0, m.start() - 60):m.end() + 20]))
    report(n > 0 and not wrong, "quick's step count (%d, CrystalDiskMark's %d) is what every doc says"
           % (n, n - 1), "\n".join(wrong[:5]))
    # quick refuses -t 0: no quick section gives it a meaning
    rc, _, _ = run(DB + " quick -t 0 " + T, CWD)
    loose = []
    for title, body in man_sections(MAN_SRC):
        if "quick" not in title:
            continue
        for s in re.split(r"(?<=[.;])\s", re.sub(r"\s+", " ", unroff(body))):
            if re.search(r"-t 0\b", s) and not re.search(r"usage error|refuses|exit status 2", s):
                loose.append("%s: %s" % (title, s))
    report(rc == 2 and not loose, "quick -t 0 is a usage error, and every quick section says so",
           "exit %d\n%s" % (rc, "\n".join(loose[:5])))
    # the verdict names its steps, not numbers from an older order
    verdict = [b for t, b in man_sections(MAN_SRC) if "quick's verdict" in t]
    body = unroff(verdict[0]) if verdict else ""
    named = all(x in body for x in ("SEQ1M Q1T1", "RND4K Q1T1", "RND4K Q32T1"))
    report(verdict and named and not re.search(r"\(step \d\)", body),
           "quick's verdict names the three steps it weighs, not step numbers", body[:300])
    # one command's section must not run into another's (report's JSON ran
    # into matrix's tables and back)
    spliced = []
    for title, body in man_sections(MAN_SRC):
        if title == "report in JSON and CSV" and re.search(r"\bcells?\b|file_size", body):
            spliced.append(title)
        if title == "matrix in JSON and CSV" and re.search(r"\bhosts?\b|\bbaseline\b|not_counted", body):
            spliced.append(title)
    report(not spliced, "report's and matrix's sections hold their own keys only", spliced)
    # the fio options the command line recognises are in the man page's table
    src = open(os.path.join(ROOT, "src/lib/fiohints.c")).read()
    known = re.findall(r'^\s*\{ "([\w-]+)", "', src.split("fio_options[] = {")[1].split("};")[0], re.M)
    table = [b for t, b in man_sections(MAN_SRC) if t == "diskbench for fio users"]
    body = unroff(table[0]) if table else ""
    missing = [o for o in known if not re.search(r"--%s\b" % re.escape(o), body) and
               o not in ("readwrite", "blocksize", "fsync_on_close", "time_based", "directory",
                         "filename")]  # said beside their synonyms in the table
    report(table and known and not missing, "the fio options the command line knows are in "
           "the man page's table for fio users", missing)
    flat = re.sub(r"\s+", " ", re.sub(r"^\.[A-Z]+ ?", "", MAN, flags=re.M))
    report(re.search(r"hdparm prints \S*MB/sec\S* but divides mebibytes", flat),
           "the man page says hdparm's MB/sec is MiB/s")
    # a quick that fails prints the steps that ran and a row with its error,
    # as the page says
    rc, out, _ = run(DB + " quick --csv -s 4M -t 1 " + os.path.join(S, "nosuchdir") + "/", CWD)
    rows = out.strip().split("\n")
    said = re.search(r"a last row whose test is quick and whose error says what ended the run",
                     re.sub(r"\s+", " ", re.sub(r"^\.[A-Z]+ ?", "", MAN, flags=re.M)))
    report(rc == 2 and len(rows) == 2 and rows[1].startswith("quick,") and "No such file" in rows[1]
           and said, "a failed quick --csv: the error row the page describes", out)


MAN_LINES_MAX = 1500  # diskbench(1) at 80 columns: a page people read (issue 43)
ARCH_WORDS_MAX = 1500  # ARCHITECTURE.md: the source on one page


def part8():
    """Docs that fit (issue 43): diskbench(1) renders to at most MAN_LINES_MAX
    lines at 80 columns, the long explanations living in the section-7
    pages; every page renders without a groff warning; ARCHITECTURE.md
    stays within ARCH_WORDS_MAX words."""
    words = len(open(os.path.join(ROOT, "ARCHITECTURE.md")).read().split())  # as wc -w
    report(words <= ARCH_WORDS_MAX, "ARCHITECTURE.md is at most %d words (%d)" % (ARCH_WORDS_MAX, words),
           "%d words: say the prose around the table shorter" % words)
    name = "man/diskbench.1 renders to at most %d lines at MANWIDTH=80" % MAN_LINES_MAX
    if not shutil.which("man"):
        skip(name, "no man(1) here (apt-get install man-db)")
        return
    env = dict(os.environ, MANWIDTH="80", MANPAGER="cat", PAGER="cat", LC_ALL="C.UTF-8")
    for page in PAGES:
        p = subprocess.run(["man", "--warnings", "-l", os.path.join(ROOT, page)], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
        report(p.returncode == 0 and out and not err.strip(), "%s renders without a warning" % page,
               "exit %d\n%s" % (p.returncode, err[:600]))
        if page == "man/diskbench.1":
            lines = out.count("\n")
            report(0 < lines <= MAN_LINES_MAX, "%s (%d lines)" % (name, lines),
                   "%d lines: move long explanations to diskbench-methods(7) or "
                   "diskbench-output(7)" % lines)


def main():
    try:
        part1_2()
        part3()
        part4()
        part5()
        part6()
        part7()
        part8()
    finally:
        cleanup()
    print("%d passed, %d failed, %d skipped" % (counts["ok"], counts["fail"], counts["skip"]))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
