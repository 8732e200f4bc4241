#!/usr/bin/env python3
"""Every message that suggests an option suggests one the same command accepts.

Walks every string literal in src/**/*.c that suggests an option ("use --x",
"add --x", "or -t", "a larger -s") and checks it against the options each
command lists in `diskbench help TEST`:
  - a suggestion passed through opt_hint(opt, OPT_BIT, "...") is shown only to
    commands that take OPT_BIT, so its option must be OPT_BIT's;
  - any other suggestion must be accepted by every command that can print it:
    the commands of its cmd_*.c file, or every measuring command for the
    shared files (runner.c, target.c, ...), unless listed in REACH below with
    the reason it is reached by fewer.
usage: option_hints.py SRC_DIR DISKBENCH"""
import re
import subprocess
import sys

SUGGEST = re.compile(r"(?:use|add|or|try|with|larger|smaller)\s+(--[a-z][a-z-]*|-[a-z])\b")
FILE_COMMANDS = {
    "cmd_io.c": ["seqwrite", "seqread", "buffered", "randread", "randwrite"],
    "cmd_cached.c": ["cached"], "cmd_sweep.c": ["sweep"], "cmd_quick.c": ["quick"],
    "cmd_info.c": ["info"], "cmd_matrix.c": ["matrix"], "cmd_files.c": ["files"],
    "cmd_capacity.c": ["capacity"], "capacity_journal.c": ["capacity"],
    # --verify's refusals: only the write tests that take --verify reach them
    "run_verify.c": ["seqwrite", "randwrite"],
    "cmd_job.c": ["job"], "cmd_fit.c": ["fit"], "job_plan.c": ["job", "fit"],
    "job_run.c": ["job", "fit"],
}
MEASURING = ["seqwrite", "seqread", "buffered", "cached", "randread", "randwrite", "sweep", "quick"]
WRITERS = ["seqwrite", "randwrite", "sweep"]
# literal (a substring of it) -> the commands that can reach it, and why
REACH = {
    "or add --force": (WRITERS, "target_check refuses only write tests"),
    "add --force if that is what you want": (WRITERS, "target_check refuses only write tests"),
}
SKIP_FILES = {"cli.c", "cli_check.c", "cli_options.c", "cli_help.c", "cli_verify.c", "fiohints.c", "jobfile_keys.c"}  # the parser's messages (and its checks after parsing) quote what the user typed; the table and help name options themselves


def literals(text):
    """(offset, joined literal) of each run of adjacent string literals."""
    text = re.sub(r"/\*.*?\*/", lambda m: " " * len(m.group(0)), text, flags=re.S)
    for m in re.finditer(r'(?:"(?:[^"\\\n]|\\.)*"\s*)+', text):
        parts = re.findall(r'"((?:[^"\\\n]|\\.)*)"', m.group(0))
        yield m.start(), "".join(parts)


def accepted(db, cmd):
    out = subprocess.run([db, "help", cmd], capture_output=True, text=True).stdout
    opts = set(re.findall(r"(--[a-z][a-z-]*)", out)) | set(re.findall(r"^\s+(-[a-zA-Z]),", out, re.M))
    return opts


def option_bits(cli_c):
    """OPT_* bit -> the options it names, from optdefs[] in cli_options.c."""
    bits = {}
    for m in re.finditer(r'\{\s*"([a-z-]+)",\s*(\'.\'|0),\s*[^,]+,\s*(OPT_[A-Z_]+|0)', cli_c):
        names = bits.setdefault(m.group(3), set())
        names.add("--" + m.group(1))
        if m.group(2) != "0":
            names.add("-" + m.group(2).strip("'"))
    return bits


def main():
    src, db = sys.argv[1], sys.argv[2]
    import os
    # the rooms are folders: every .c below SRC_DIR, by its file name
    paths = {n: os.path.join(d, n) for d, _, names in os.walk(src) for n in names}
    cli_c = open(paths["cli_options.c"]).read()  # the option table
    bits = option_bits(cli_c)
    takes = {c: accepted(db, c) for c in set(MEASURING + ["info", "matrix"]).union(*FILE_COMMANDS.values())}
    problems, checked = [], 0
    for name in sorted(paths):
        if not name.endswith(".c") or name in SKIP_FILES:
            continue
        text = open(paths[name]).read()
        for at, lit in literals(text):
            suggested = SUGGEST.findall(lit)
            if not suggested:
                continue
            checked += 1
            line = text.count("\n", 0, at) + 1
            hint = re.search(r"opt_hint\(\s*[^,]+,\s*(OPT_[A-Z_]+),\s*$", text[max(0, at - 120):at])
            if hint:
                for opt in suggested:
                    if opt not in bits.get(hint.group(1), set()):
                        problems.append(f"{name}:{line}: '{opt}' suggested under {hint.group(1)}")
                continue
            cmds = FILE_COMMANDS.get(name, MEASURING)
            for key, (reach, _why) in REACH.items():
                if key in lit:
                    cmds = reach
            for opt in suggested:
                for c in cmds:
                    if opt not in takes[c]:
                        problems.append(f"{name}:{line}: '{lit[:70]}' suggests {opt}, which {c} does not take")
    for p in problems:
        print("option_hints:", p)
    print(f"option_hints: {checked} suggesting messages checked, {len(problems)} problems")
    return 1 if problems or checked == 0 else 0


sys.exit(main())
