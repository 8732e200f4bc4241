"""The option matrix: rows generated from diskbench's own option and command tables.

build/tests/diskbench-optable prints the tables the parser reads (tests/cli/optable.c);
this module turns them into rows: every measuring command x every option it accepts,
with a valid value and an edge value (--json, so that every document meets
tests/cli/invariants.py) and an invalid one (--json and text); steady and sla take
each option with one of their tests in turn; every option a command (or a command
with its test) does not accept, refused with exit 2; each command as text, --json,
--csv and -q, and its --help; the pairs that interact (each performance flag with
--rate and with sla; --engine=nop|sync|aio with every write test; --precondition with
--no-direct, -j and --engine; each pair in --json and --csv); the kinds of target
where they are the point (ramfs, tmpfs, the worker's own loop device, an existing
file); --verify with each option of seqwrite, randwrite (=backlog) and rw, and the
witness; job, fit and verify on the files the runner makes for them (a job file, a
profile, a region --verify --keep left and its witness), fit's shipped profiles; and
rows written to catch issue 44's defects (optmatrix_defects.py).
tests/cli/optmatrix_run.py runs them: `make cli`, about 3,200 rows in 3-4 minutes on
2 shared cores (--list prints them, OPTMATRIX_ONLY=REGEX runs some).

VALUES must hold every option of the table: an option without its values fails
the generator (a new option cannot land without its rows), as does a measuring
command without its short run in BASE, or one that runs a file (the command table's
file_operand: job, fit) without the placeholder of one the runner makes.
"""
import re
from dataclasses import dataclass, field

FLAG = object()  # a flag: its valid row gives it, its invalid row gives it a value


@dataclass
class V:
    """An option's values: valid, edge and invalid, and what each should do."""
    valid: object
    edge: object = None
    invalid: object = None
    expect: tuple = (0,)          # exit statuses of the valid row
    edge_expect: tuple = (0,)
    invalid_expect: tuple = (2,)
    fmt: str = None               # a format the option needs (--series: csv)
    needs: tuple = ()             # options it goes with (--arrivals: --rate 2k)
    without: tuple = ()           # options of the command's short run it excludes
    target: str = None            # where its rows run: dir (default), file, dev
    per: dict = field(default_factory=dict)  # command -> V, where it means another thing
    defects: tuple = ()           # issue 44's defects its invalid rows were written to catch


# Placeholders, filled by the runner for each worker: {T} its target directory on
# ext4 over a loop device, {F} an existing 8 MiB file there, {D} its own loop device, {Z}
# a zoned device the caller gave (OPTMATRIX_ZONED),
# {O} a directory for outputs (--svg), {J} a JSON Lines file of a fleet run (report);
# the inputs of job, fit and verify (optmatrix_run.Env.make_inputs): {JF} a job file,
# {P} a profile any disk is fit for, {PH} one none is, {JB} a job file diskbench refuses,
# {V} a region seqwrite --verify --keep left, {W} its witness, {WC} that witness cut,
# {VB} the region with a block changed.
VALUES = {
    "bs": V("64k", "512", "3x", per={"files": V("64k", "512", "3x")}),
    "size": V("4M", "2M", "0"),
    # job, fit: -t replaces each job's runtime= ({JF}'s are time_based, 60 s: -t 0 would
    # never end, a usage error); {P}'s job ends after its size=, so -t 0 is no limit
    "time": V("0.2", "0", "-1", per={"quick": V("0.4", "0.2", "0"),
                                     "files": V("0.05", "0", "-1"),
                                     "cached": V("0.2", "0.1", "0"),
                                     "job": V("0.2", "0.01", "0"),
                                     "fit": V("0.2", "0", "-1")}),
    "sync": V("fsync", "none", "bogus", per={"files": V("fsync", "none", "dsync")}),
    "no-direct": V(FLAG),
    # all: the whole machine's page cache dropped, so once (seqread's), not on every command
    "drop-caches": V("none", "file", "bogus", per={"seqread": V("none", "all", "bogus")}),
    "no-drop-caches": V(FLAG),
    "zeros": V(FLAG),
    "threads": V("2", "8", "0", per={"buffered": V("2", "4", "0"),  # 4 blocks of 2 MiB
                                     "sla": V("2", "4", "0")}),  # 64 MiB of buffers each
    "qd": V("4", "64", "0"),
    "engine": V("aio", "nop", "bogus"),
    "warmup": V("0", "100", "-1"),
    "seed": V("42", "18446744073709551615", "18446744073709551616"),
    "histogram": V(FLAG),
    "keep": V(FLAG),  # job: a file per job kept ({JF} has two)
    "max-open-zones": V("4", "1", "0"),
    "force": V(FLAG),
    "grow": V(FLAG, needs=("--force",), target="file"),
    "run": V("oltp", "dss", "bogus"),
    "levels": V("1,2", "1", "2,1"),
    "large-levels": V("1,2", "1", "0"),
    "large-bs": V("256k", "4k", "3x"),
    "point-time": V("0.1", "0.05", "0"),
    "budget": V("1", "0.3", "0", per={"matrix": V("2", "0.5", "0")}),
    "max-latency": V("10ms", "1s,p99.9", "fast"),
    "curve": V("50,100", "100", "101"),
    "write": V("30", "100", "101"),
    "mix": V("r50,w50", "r60,w30,t10", "r70,w20"),
    "interval": V("0.1", "60", "0.05"),
    "series": V(FLAG, fmt="csv"),
    "sustained": V(FLAG),
    "baseline": V("{J2}", "{J}", "{O}/missing.jsonl", expect=(0, 4)),  # 4: a noisy rerun
    "threshold": V("20", "0", "-1", needs=("--baseline", "{J}")),
    "noise-floor": V("rate=5,p99=80", "0", "speed=5", needs=("--baseline", "{J}")),
    "allow-missing": V(FLAG),
    "block-sizes": V("64k,128k", "4k", "3x"),
    "file-sizes": V("4M", "1M", "0"),
    "ops": V("write,read", "randwrite", "bogus"),
    "jsonl": V(FLAG, fmt="jsonl"),
    "host-label": V("h1", "h" * 63, "", fmt="jsonl"),
    "run-id": V("r1", "r" * 63, "", fmt="jsonl"),
    "start-at": V("+0.1", "+0.01", "yesterday"),
    "files": V("32", "1", "0"),
    "file-size": V("4k", "0", "2G"),
    "dir": V("{T}/fdir", "{T}", "", target="none"),
    "svg": V("{O}/p.svg", "/dev/null", "{O}"),
    "buffers": V("pages", "huge", "bogus"),
    "batch": V("1", "4096", "0"),
    # no poll queues here: refused before any I/O, exit 2 (diskbench(1), --poll)
    "poll": V(FLAG, expect=(2,)),
    "sqpoll": V(FLAG),
    "reap": V("syscall", "ring", "bogus"),
    "round": V("0.2", "0.1", "0.05"),
    "max-rounds": V("4", "3", "0"),  # 3: the window's rounds, the least it takes
    "window": V("3", "3", "2"),
    "excursion": V("1000", "0", "-1", edge_expect=(6,)),
    "slope": V("1000", "0", "-1", edge_expect=(0, 6)),
    "metric": V("bw", "lat", "bogus"),
    "precondition": V("=1", "", "=0"),
    "hold": V("1", "0", "-1", expect=(0, 6)),
    "rate": V("2k", "100k", "1e-300", defects=(8,)),  # below the floor of 0.001 IOPS
    "arrivals": V("fixed", "poisson", "bogus", needs=("--rate", "2k")),
    "latency": V("5s,p50", "1us", "fast", edge_expect=(6,)),  # p50: as BASE's mean
    "step-time": V("0.1", "0.1", "0.05"),
    "once": V(FLAG),
    # issue 41: fit --list lists the profiles whatever else the line says
    "list": V(FLAG),
    # issue 42: a write test's read-back, and its witness ({O}: the row's own outputs;
    # -: the witness's lines on stdout, the result on stderr); verify checks the region
    # {V} a write test left (--verify --keep), against its witness {W} (-: on stdin)
    # steady reads back its preconditioning's writes: --verify needs --precondition
    "verify": V("", "=backlog", "=bogus", per={"steady": V("", "=backlog", "=bogus",
                                                             needs=("--precondition=1",))}),
    "witness": V("{O}/witness", "-", "", needs=("--verify",),
                 per={"verify": V("{W}", "-", "{O}/missing")}),
    # capacity (issue 42): its journal beside the scratch outputs, not in /var/tmp
    "destructive": V(FLAG, without=("--journal",)),  # nothing saved, so no journal
    "journal": V("{O}/other.undo", "{T}/beside.undo", ""),
    # global ones: their own rows (FORMAT_ROWS), not one per value
    "json": None, "csv": None, "quiet": None, "help": None, "version": None,
}

QUICK = ["-t", "0.4", "-s", "8M"]
BASE = {
    "seqwrite": ["-t", "0.2", "-s", "8M"], "seqread": ["-t", "0.2", "-s", "8M"],
    "buffered": ["-t", "0.2", "-s", "8M"], "cached": ["-t", "0.2", "-s", "2M"],
    "randread": ["-t", "0.2", "-s", "8M"], "randwrite": ["-t", "0.2", "-s", "8M"],
    "randrw": ["-t", "0.2", "-s", "8M"], "rw": ["-t", "0.2", "-s", "8M"],
    "trim": ["-t", "0.2", "-s", "8M"], "randtrim": ["-t", "0.2", "-s", "8M"],
    "quick": QUICK,
    "sweep": ["-s", "8M", "--point-time", "0.1", "--budget", "1", "--levels", "1,2",
              "--large-levels", "1"],
    "files": ["-n", "32", "-t", "0.05"],
    "matrix": ["--block-sizes", "64k", "--file-sizes", "4M", "--ops", "write,read",
               "--budget", "2"],
    "steady": ["-s", "8M", "--round", "0.2", "--max-rounds", "3", "--window", "3",
               "--excursion", "1000", "--slope", "1000"],
    # the mean: a p99 step leaves 1 % of its arrivals unstarted on a busy machine and its
    # confirm run fails (exit 6), as doctest.py found; the mean holds there
    "sla": ["-s", "8M", "--latency", "10s,mean", "--step-time", "0.1"],
    "report": ["{J}"],
    "capacity": ["--force", "--journal", "{O}/capacity.undo"],
    # the file a command runs comes first: the runner makes them in each worker ({JF}
    # two time_based jobs, {P} a profile any disk is fit for)
    "job": ["{JF}", "-t", "0.2"],
    "fit": ["{P}", "-t", "0.2"],
    "verify": [],  # its TARGET: {V}, the region (place())
}
# the placeholder of each command's file operand (the command table's file_operand): a
# command that runs a file has its rows only once the runner makes one for it
FILE_OPERAND = {"job": "{JF}", "fit": "{P}"}
NOT_MEASURING = {"info", "report"}
KEPT = {"job": 2}  # --keep: the files a run keeps, one per job ({JF} has two)
PERF_FLAGS = [("--batch", "4"), ("--reap", "syscall"), ("--sqpoll", None), ("--poll", None),
              ("--buffers", "pages"), ("--engine", "aio")]


@dataclass
class Row:
    name: str
    args: list                 # after the program's name, placeholders unfilled
    expect: tuple
    fmt: str = "json"          # json, csv, jsonl or text
    target: str = "dir"        # dir, file, dev, zoned, ramfs, tmpfs, cwd (none given), none
    group: str = None          # rows of a group run in order, on one worker
    keep: int = 0              # --keep: its test files that stay (then removed)
    checks: tuple = ()         # extra checks by name (optmatrix_run.EXTRA)
    cwd_files: tuple = ()      # files made in the run's directory first, unchanged after
    defects: tuple = ()        # issue 44's defects this row was written to catch
    first: list = None         # runs made just before this one (their exits are held too)
    sandbox: bool = False      # io_uring and aio refused (tests/cli/noasync.py): auto is sync
    stdin: str = None          # a file (placeholder) on its standard input, else none


def load(table):
    """The measuring commands, as (label, words, accepts, row) to generate from."""
    opts = [o for o in table["options"]]
    missing = sorted({o["name"] for o in opts} - set(VALUES))
    if missing:
        raise SystemExit("optmatrix: options without values in VALUES: %s (add their valid, "
                         "edge and invalid values)" % ", ".join(missing))
    cmds, runs = {c["name"]: c for c in table["commands"]}, table["runs"]
    subjects = []
    for c in table["commands"]:
        if c["name"] in NOT_MEASURING or c["takes_test"]:
            continue
        subjects.append((c["name"], [c["name"]], c["accepts"], c))
    for r in runs:
        subjects.append(("%s %s" % (r["command"], r["test"]), [r["command"], r["test"]],
                         r["accepts"], cmds[r["test"]]))
    for label, words, _, _ in subjects:
        if words[0] not in BASE:
            raise SystemExit("optmatrix: command %s has no entry in BASE (its short run)" % label)
    for c in table["commands"]:
        if c.get("file_operand") and BASE.get(c["name"], [None])[:1] != [
                FILE_OPERAND.get(c["name"])]:
            raise SystemExit("optmatrix: command %s runs a %s: its BASE starts with the "
                             "placeholder of one the runner makes (FILE_OPERAND)"
                             % (c["name"], c["file_operand"]))
    return opts, subjects, cmds


def with_option(base, opt, value):
    """base's words with --opt given value, in place of base's own --opt if any."""
    out, i, flag = [], 0, "--" + opt["name"]
    short = "-" + opt["letter"] if opt["letter"] else None
    while i < len(base):
        if base[i] in (flag, short):
            i += 1 if opt["arg"] is None else 2  # a flag has no value word to drop
            continue
        out.append(base[i])
        i += 1
    if value is FLAG:
        return out + [flag]
    if value.startswith("=") or (opt["arg"] or "").startswith("["):
        return out + [flag + value]  # an optional value goes with "=" (or none)
    return out + [flag, value]


TAKES_DIR, TAKES_FILE, TAKES_DEVICE = 1, 2, 4  # enum target_takes (cmd.h)


def place(cmd):
    """Where a command's rows run: the worker's loop device for one that takes a block
    device alone (capacity), the region a write test's --verify --keep left for one that
    takes a file or a device but no directory (verify), else its directory."""
    takes = cmd.get("targets") if cmd else 0
    if takes == TAKES_DEVICE:
        return "dev"
    return "region" if takes and takes & TAKES_FILE and not takes & TAKES_DIR else "dir"


def spell(words, fmt, target):
    pre = {"json": ["--json"], "csv": ["--csv"], "jsonl": ["--jsonl"], "text": []}[fmt]
    tail = {"dir": ["{T}"], "file": ["{F}"], "dev": ["{D}"], "zoned": ["{Z}"], "ramfs": ["{R}"],
            "tmpfs": ["{M}"], "region": ["{V}"], "cwd": [], "none": []}[target]
    return pre + words + tail


def option_rows(opt, label, words, cmd):
    """The valid, edge and invalid rows of one option for one command."""
    v = VALUES[opt["name"]]
    v = v.per.get(words[0], v)
    rows = []
    needs = list(v.needs)
    base = BASE[words[0]]
    for name in v.without:
        if name in base:
            k = base.index(name)
            base = base[:k] + base[k + 2:]
    target = v.target or ("none" if words[0] == "report" else place(cmd))
    subject = words[1:]  # steady's and sla's test

    def row(kind, value, expect, fmt):
        if value is None:
            return
        args = with_option(base + needs, opt, value)
        keep = (KEPT.get(words[0], 1) if opt["name"] == "keep" and kind != "invalid" else 0)
        shown = "" if value is FLAG or value == "" else value if value.startswith("=") \
            else "=" + value
        name = "%s %s --%s%s" % (kind, label, opt["name"], shown)
        stdin, checks = None, ()
        if opt["name"] == "witness" and value == "-":  # verify reads it, a write test writes it
            stdin, checks = ("{W}", ()) if words[0] == "verify" else (None, (("witness_stdout",),))
        rows.append(Row(name, spell(words[:1] + subject + args, fmt, target), tuple(expect),
                        fmt=fmt, target=target, keep=keep, stdin=stdin, checks=checks))
    row("valid", v.valid, v.expect, v.fmt or "json")
    row("edge", v.edge, v.edge_expect, v.fmt or "json")
    if v.valid is FLAG:
        args = base + needs + ["--%s=1" % opt["name"]]
        for fmt in ("json", "text"):
            rows.append(Row("invalid %s --%s=1 (%s)" % (label, opt["name"], fmt),
                            spell(words + args, fmt, target), (2,), fmt=fmt, target=target))
    elif v.invalid is not None:
        for fmt in ("json", "text"):
            args = with_option(base + needs, opt, v.invalid)
            shown = v.invalid if v.invalid.startswith("=") else "=" + v.invalid
            rows.append(Row("invalid %s --%s%s (%s)" % (label, opt["name"], shown, fmt),
                            spell(words + args, fmt, target), tuple(v.invalid_expect),
                            fmt=fmt, target=target, defects=v.defects))
    if (opt["arg"] or "").startswith("["):
        # an optional value never takes the next word (CONTRACT.md, Safety): without a
        # TARGET the word would be the TARGET; a usage error naming --NAME=WORD
        word = "2"
        args = base + ["--" + opt["name"], word]
        rows.append(Row("invalid %s --%s %s (the next word)" % (label, opt["name"], word),
                        spell(words + args, "text", "cwd"), (2,), fmt="text", target="cwd",
                        checks=(("stderr", re.escape("--%s=%s" % (opt["name"], word))),),
                        defects=(2,)))
        rows.append(Row("invalid %s --%s %s --force, a file '%s' here" % (
            label, opt["name"], word, word), spell(words + args + ["--force"], "text", "cwd"),
            (2,), fmt="text", target="cwd", cwd_files=(word,), defects=(2,)))
    return rows


def refused_rows(opts, label, words, accepts, cmd=None):
    """Every option the command does not take: exit 2, "does not apply"."""
    rows, seen = [], set()
    for o in opts:
        if not o["bit"] or (accepts & o["bit"]) or o["name"] in seen:
            continue
        if any(p["name"] == o["name"] and (accepts & p["bit"]) for p in opts):
            continue  # another row of the same name applies (--budget)
        seen.add(o["name"])
        v = VALUES[o["name"]]
        value = v.valid
        arg = ["--" + o["name"]] if value is FLAG else [
            "--%s%s" % (o["name"], value) if value.startswith("=") or (o["arg"] or "").startswith("[")
            else "--%s=%s" % (o["name"], value)]
        rows.append(Row("refused %s --%s" % (label, o["name"]),
                        spell(words + BASE[words[0]] + arg, "text", place(cmd)), (2,), fmt="text",
                        target=place(cmd),
                        checks=(("stderr", "does not apply to"),)))
    return rows


def format_rows(label, words, cmd=None):
    """Each command as text, --json, --csv and --quiet, and its --help."""
    base, where = BASE[words[0]], place(cmd)
    rows = [Row("%s %s" % (fmt, label), spell(words + base, fmt, where), (0,), fmt=fmt,
                target=where) for fmt in ("text", "json", "csv")]
    rows.append(Row("quiet %s" % label, spell(words + base + ["-q"], "text", where), (0,),
                    fmt="text", target=where))
    rows.append(Row("help %s" % label, words + ["--help"], (0,), fmt="text", target="none"))
    return rows


def subject_of(subjects, label):
    return next(s for s in subjects if s[0] == label)


def flag_args(flag, value):
    return [flag] if value is None else ["%s=%s" % (flag, value)]


def pair_rows(subjects, cmds):
    """The options that interact."""
    rows = []
    # each performance flag with --rate and with sla: the open loop keeps its depth
    # (defect 1: --batch, --reap, --sqpoll, --poll counted as --qd given)
    for flag, value in PERF_FLAGS:
        want = (2,) if flag == "--poll" else (0,)  # --poll excludes an open loop
        for test in ("randread", "seqwrite"):
            rows.append(Row("pair %s --rate 2k %s" % (test, " ".join(flag_args(flag, value))),
                            spell([test] + BASE[test] + ["--rate", "2k"] + flag_args(flag, value),
                                  "json", "dir"), want, defects=(1,)))
            rows.append(Row("pair sla %s %s" % (test, " ".join(flag_args(flag, value))),
                            spell(["sla", test] + BASE["sla"] + flag_args(flag, value),
                                  "json", "dir"), want, defects=(1,)))
    # --engine=nop|sync|aio with every write test
    engine_bit = next(o for o in TABLE_OPTS if o["name"] == "engine")["bit"]
    for label, words, accepts, _ in subjects:
        if not (accepts & engine_bit) or words[0] in ("sweep", "quick", "sla", "steady"):
            continue
        if cmds[words[0]]["dir"] != "write":
            continue
        for e in ("nop", "sync", "aio"):
            rows.append(Row("pair %s --engine=%s" % (label, e),
                            spell(words + BASE[words[0]] + ["--engine=" + e], "json", "dir"),
                            (0,), defects=(3,) if e == "nop" else ()))
    # --precondition with --no-direct, -j and --engine (defects 6 and 7)
    for test in ("randwrite", "seqwrite"):
        pre = ["steady", test] + BASE["steady"] + ["--precondition=1"]
        for extra, defects in ((["--no-direct"], (7,)), (["-j", "2"], ()),
                               (["--engine=aio"], ()), (["--engine=sync"], (6,)),
                               (["--engine=nop"], (3,))):
            rows.append(Row("pair steady %s --precondition=1 %s" % (test, " ".join(extra)),
                            spell(pre + extra, "json", "dir"), (0,), defects=defects))
    # the sync engine in an open loop: its depth, and says so (defect 6)
    for words in (["randread"], ["sla", "randread"], ["sla", "randwrite"]):
        base = BASE[words[0]] + (["--rate", "2k"] if words[0] == "randread" else [])
        rows.append(Row("pair %s %s--engine=sync" % (" ".join(words), "--rate 2k " * (
            words[0] == "randread")), spell(words + base + ["--engine=sync"], "json", "dir"),
            (0,), defects=(6,)))
    # and where io_uring and aio are refused (a container's seccomp profile): auto is sync
    for words, extra in ((["randread"], []), (["randread"], ["--rate", "2k"]),
                         (["sla", "randread"], []),
                         (["steady", "randwrite"], ["--precondition=1"])):
        rows.append(Row("sandbox %s (auto falls back to sync)" % " ".join(words + extra),
                        spell(words + BASE[words[0]] + extra, "json", "dir"), (0,),
                        sandbox=True, defects=(6,) if len(words + extra) > 1 else ()))
    # each pair in CSV too
    return rows + [Row(r.name + " (csv)", ["--csv"] + r.args[1:], r.expect, fmt="csv",
                       target=r.target, defects=r.defects, sandbox=r.sandbox)
                   for r in rows if r.fmt == "json"]


def place_rows():
    """Where the target's kind is the point: a ramfs without O_DIRECT, a tmpfs, and the
    worker's own loop device (one group, in order: two write tests back to back)."""
    rows = []
    for test in ("seqwrite", "randread"):
        rows.append(Row("ramfs %s --no-direct" % test,
                        spell([test] + BASE[test] + ["--no-direct"], "json", "ramfs"), (0,),
                        target="ramfs"))
        rows.append(Row("tmpfs %s" % test, spell([test] + BASE[test], "json", "tmpfs"), (0,),
                        target="tmpfs"))
    rows.append(Row("ramfs steady randwrite --precondition=1 --no-direct",
                    spell(["steady", "randwrite"] + BASE["steady"] +
                          ["--precondition=1", "--no-direct"], "json", "ramfs"), (0,),
                    target="ramfs", defects=(7,)))
    dev = []
    for test in ("seqwrite", "randwrite", "rw", "randtrim"):
        dev.append(Row("device %s --force" % test,
                       spell([test] + BASE[test] + ["--force"], "json", "dev"), (0,),
                       target="dev", defects=(4,)))
    for n in (1, 2):  # the runbook's loop: one write test after another, at once
        runs = [spell([t] + BASE[t] + ["--force"], "text", "dev")
                for t in ("seqwrite", "randwrite", "seqwrite")]
        dev.append(Row("device seqwrite, randwrite, seqwrite, randwrite --force at once (%d of 2)"
                       % n, spell(["randwrite"] + BASE["randwrite"] + ["--force"], "json", "dev"),
                       (0,), target="dev", defects=(4,), first=runs))
    for test in ("seqwrite", "randwrite", "randrw", "trim"):
        dev.append(Row("device %s --engine=nop --force: the device untouched" % test,
                       spell([test] + BASE[test] + ["--engine=nop", "--force"], "json", "dev"),
                       (0,), target="dev", checks=(("device_quiet",),), defects=(3,)))
    dev.append(Row("device randwrite --engine=nop: no write, so no --force needed",
                   spell(["randwrite"] + BASE["randwrite"] + ["--engine=nop"], "text", "dev"),
                   (0,), fmt="text", target="dev",
                   checks=(("device_quiet",), ("no_output", r"this run wrote [1-9]")),
                   defects=(3,)))
    dev.append(Row("device seqread", spell(["seqread"] + BASE["seqread"], "json", "dev"), (0,),
                   target="dev"))
    dev.append(Row("device seqwrite --engine=aio --force", spell(
        ["seqwrite"] + BASE["seqwrite"] + ["--engine=aio", "--force"], "json", "dev"), (0,),
        target="dev", defects=(4,)))
    for r in dev:
        r.group = "device"
    rows += dev
    rows.append(Row("file randwrite --engine=nop --force: no write, flush, trim by strace",
                    spell(["randwrite"] + BASE["randwrite"] + ["--engine=nop", "--force"],
                          "json", "file"), (0,), target="file",
                    checks=(("strace_quiet",),), defects=(3,)))
    rows.append(Row("file seqwrite --engine=nop: no write, so no --force needed",
                    spell(["seqwrite"] + BASE["seqwrite"] + ["--engine=nop"], "json", "file"),
                    (0,), target="file", checks=(("file_unchanged",),), defects=(3,)))
    # sla of a write test on a zoned device: refused before any I/O (defect 5); only where
    # the caller hands over a zoned device to write (OPTMATRIX_ZONED: null_blk, a ZNS
    # namespace in the lab), since none can be made here
    rows.append(Row("zoned sla randwrite --force: refused before any I/O",
                    spell(["sla", "randwrite"] + BASE["sla"] + ["--force"], "text", "zoned"),
                    (2,), fmt="text", target="zoned", checks=(("device_quiet",),),
                    defects=(5,)))
    # a stray word after the TARGET, a new path that reads as a value on the device of
    # the other target, is no second target: a usage error that says how to mean it
    # ('./2'), before anything is made (defect 9)
    for test in ("randread", "randwrite"):
        rows.append(Row("stray %s -s 8M TARGET 2" % test,
                        spell([test] + BASE[test], "text", "dir") + ["2"], (2,), fmt="text",
                        checks=(("stderr", r"'\./2'"),), defects=(9,)))
    rows.append(Row("stray randread -s 8M TARGET ./2: meant, so measured",
                    spell(["randread"] + BASE["randread"], "json", "dir") + ["./2"], (0,)))
    return rows


def verify_rows(opts, subjects):
    """--verify (issue 42) with each option a write test takes, the witness, and verify
    on the regions it reads: the pairs that interact with a read-back."""
    rows = []
    skip = {"verify", "witness", "keep", "json", "csv", "quiet", "help", "version"}
    for test, mode in (("seqwrite", ""), ("randwrite", "=backlog"), ("rw", "")):
        accepts = subject_of(subjects, test)[2]
        done = set()
        for o in opts:
            if not o["bit"] or not (accepts & o["bit"]) or o["name"] in skip | done:
                continue
            done.add(o["name"])
            v = VALUES[o["name"]]
            v = v.per.get(test, v)
            # the open loop cannot stop its clock for a backlog's read-back (diskbench(1))
            m = "" if o["name"] in ("rate", "arrivals") else mode
            args = with_option(BASE[test] + list(v.needs) + ["--verify" + m], o, v.valid)
            fmt = v.fmt or "json"
            rows.append(Row("readback %s --verify%s --%s" % (test, m, o["name"]),
                            spell([test] + args, fmt, v.target or "dir"), v.expect, fmt=fmt,
                            target=v.target or "dir"))
    # an open loop over a region of fewer blocks than it keeps in flight: a due write whose
    # block has a write in flight waits for a completion (1000 IOPS of 4 KiB over 2
    # blocks, a tenth of what the worker's loop device takes: served at least half).  It
    # waited with a wait of 0, which takes no completion (aio asks for none, io_uring's run
    # only when asked), spinning to the window's end: 7 to 260 of the 1000 served
    for extra in (["--verify"], ["--verify", "--engine=aio"], []):
        rows.append(Row("readback seqwrite --rate 1000 over 2 blocks %s" % " ".join(extra),
                        spell(["seqwrite", "-t", "0.3", "-s", "8k", "--bs", "4k", "--rate",
                               "1000"] + extra, "json", "dir"), (0,),
                        checks=(("served_at_least", 0.5),)))
    # what --witness cannot run without, and where it cannot go: a directory, or in a
    # directory that does not exist, a usage error (2) as verify's missing witness is
    w = ["seqwrite"] + BASE["seqwrite"]
    rows += [Row("readback seqwrite --witness without --verify", spell(w + ["--witness", "{O}/w"],
                 "json", "dir"), (2,), checks=(("stderr", "--verify"),)),
             Row("readback seqwrite --verify --witness DIR", spell(
                 w + ["--verify", "--witness", "{O}"], "json", "dir"), (2,)),
             Row("readback seqwrite --verify --witness NODIR/w", spell(
                 w + ["--verify", "--witness", "{O}/nodir/w"], "json", "dir"), (2,)),
             Row("readback seqwrite --verify --witness --sync=none", spell(
                 w + ["--verify", "--sync=none", "--witness", "{O}/w"], "json", "dir"), (2,)),
             Row("readback steady randwrite --verify --precondition=1", spell(
                 ["steady", "randwrite"] + BASE["steady"] + ["--verify", "--precondition=1"],
                 "json", "dir"), (0,))]
    # verify: a witness cut by a power cut still judges; a block changed (exit 7, the
    # figures printed, the bad block in a warning); what is no region of ours (exit 1), a
    # directory, a missing path (exit 2)
    rows += [Row("verify --witness CUT (no end line)", spell(["verify", "--witness", "{WC}"],
                 "json", "region"), (0,), target="region"),
             Row("verify --witness CORRUPT: exit 7", spell(["verify", "--witness", "{W}"],
                 "json", "none") + ["{VB}"], (7,), target="none",
                 checks=(("stderr", r"1 corrupt \(at 1048576\)"),)),
             Row("verify CORRUPT: exit 7 (csv)", ["--csv", "verify", "{VB}"], (7,), fmt="csv",
                 target="none"),
             Row("verify a file of random bytes", spell(["verify"], "json", "file"), (1,),
                 target="file"),
             Row("verify a directory", spell(["verify"], "json", "dir"), (2,)),
             Row("verify a missing path", ["--json", "verify", "{O}/missing"], (2,),
                 target="none"),
             Row("verify --witness DIR", spell(["verify", "--witness", "{O}"], "json",
                 "region"), (2,), target="region")]
    # on the worker's loop device: the region a write test left there, read back
    dev = ["seqwrite", "-s", "4M", "-t", "30", "--once", "--verify", "--keep", "--force",
           "--witness", "{O}/dw"]
    for fmt in ("json", "csv"):
        rows.append(Row("device verify --witness, of what seqwrite --verify left (%s)" % fmt,
                        spell(["verify", "--witness", "{O}/dw"], fmt, "dev"), (0,), fmt=fmt,
                        target="dev", group="device", first=[spell(dev, "text", "dev")]))
    return rows


def job_rows():
    """job and fit (issue 41): the profiles shipped, a limit no disk meets, a job file's
    refused key, no TARGET (the jobs run where the job file says: here), and a block
    device (one of the device group's: --force, and refused without)."""
    # slog lays out 256 MiB: on the worker's 48 MiB ext4, ENOSPC (exit 1), nothing left
    rows = [Row("fit slog -t 0.2: no room", spell(["fit", "slog", "-t", "0.2"], "json", "dir"),
                (1,), checks=(("stderr", "No space left on device"),)),
            # fdatasync p99 < 10 ms: a busy machine's loop device may miss it
            Row("fit etcd -t 0.2", spell(["fit", "etcd", "-t", "0.2"], "json", "dir"), (0, 6)),
            Row("fit postgres -t 0.05", spell(["fit", "postgres", "-t", "0.05"], "json",
                                              "dir"), (0,)),
            Row("fit HARD: a limit no disk meets", spell(["fit", "{PH}", "-t", "0.2"], "json",
                                                         "dir"), (6,)),
            Row("fit HARD: a limit no disk meets (csv)", spell(["fit", "{PH}", "-t", "0.2"],
                                                              "csv", "dir"), (6,), fmt="csv"),
            Row("fit no-such-profile", spell(["fit", "no-such-profile"], "json", "dir"), (2,)),
            Row("job BAD: a value diskbench does not run", spell(["job", "{JB}"], "json", "dir"),
                (2,), checks=(("stderr", r"bad\.fio:5: verify=md5: .*use verify=crc32c"),)),
            Row("job a missing job file", spell(["job", "{O}/missing.fio"], "json", "dir"),
                (2,)),
            Row("job without TARGET: here", spell(["job"] + BASE["job"], "json", "cwd"), (0,),
                target="cwd"),
            Row("fit --list (json)", ["--json", "fit", "--list"], (0,), target="none"),
            Row("fit --list (csv)", ["--csv", "fit", "--list"], (0,), fmt="csv", target="none")]
    rows += [Row("device job --force", spell(["job"] + BASE["job"] + ["--force"], "json",
                                              "dev"), (0,), target="dev", group="device"),
             Row("device job without --force: refused", spell(["job"] + BASE["job"], "json",
                                                              "dev"), (3,), target="dev",
                 group="device", checks=(("device_quiet",),))]
    return rows


def report_rows():
    """report reads what a fleet run wrote ({J}): its options, and --json of it."""
    return [Row("report --json", ["--json", "report", "{J}"], (0,), target="none"),
            Row("report --csv", ["--csv", "report", "{J}"], (0,), fmt="csv", target="none")]


TABLE_OPTS = []


def generate(table):
    """Every row, from the tables.  A command that runs a test (steady, sla) takes
    each option it accepts with one of its tests, in turn, so that every option is
    run once per command rather than once per test; what it refuses, per test."""
    opts, subjects, cmds = load(table)
    TABLE_OPTS[:] = opts
    rows, turn = [], {}
    by_opt = {}
    for label, words, accepts, cmd in subjects:
        rows += format_rows(label, words, cmd)[: 5 if len(words) == 1 else 2]
        rows += refused_rows(opts, label, words, accepts, cmd)
        done = set()
        for o in opts:
            if not o["bit"] or not (accepts & o["bit"]) or o["name"] in done:
                continue
            done.add(o["name"])
            by_opt.setdefault((words[0], o["name"]), []).append((o, label, words, cmd))
    for (command, _), takers in by_opt.items():
        k = turn.get(command, 0)
        turn[command] = k + 1
        o, label, words, cmd = takers[k % len(takers)]
        rows += option_rows(o, label, words, cmd)
    report = next(c for c in table["commands"] if c["name"] == "report")
    for o in opts:
        if o["bit"] and (report["accepts"] & o["bit"]):
            rows += option_rows(o, "report", ["report"], report)
    return (rows + report_rows() + pair_rows(subjects, cmds) + place_rows() +
            verify_rows(opts, subjects) + job_rows())
