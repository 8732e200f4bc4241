"""Issue 44's defects, as the option matrix sees them.

Each predicate says by which failure of which run a defect shows.  While a
defect is in KNOWN, a failure its predicate explains is reported `# TODO issue 44
defect N` and does not fail the matrix; any other failure does.  When a defect
is fixed, the matrix says that its rows pass: its entry leaves KNOWN, so that it
can never come back unseen (a failing row written for it then names it).
"""
import re

TITLES = {
    1: "--batch, --reap, --sqpoll, --poll count as --qd given: an open loop at 1 in flight",
    2: "an optional value (--precondition[=N]) takes the next word, as the TARGET",
    3: "--engine=nop writes and flushes (the flush check), needs --force, says it wrote",
    4: "two write tests back to back on one block device: the second refused, in use",
    5: "sla randwrite on a zoned device writes and resets zones, then is refused",
    6: "the sync engine: --rate, sla and --precondition fail over a depth nobody asked for",
    7: "preconditioning ignores --no-direct",
    8: "--rate 1e-300 is accepted: the gap overflows, the run goes flat out",
    9: "a stray word after the TARGET becomes a second target",
}


def _has(argv, *names):
    return any(a == n or a.startswith(n + "=") for a in argv for n in names)


def _value(argv, name):
    for i, a in enumerate(argv):
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
    return None


def _sla(argv):
    return "sla" in argv[:3]


def d1(res, f):
    a = res.argv
    return (_has(a, "--batch", "--reap", "--sqpoll", "--poll") and
            (_has(a, "--rate") or _sla(a)) and f.startswith("open depth"))


def d2(res, f):
    return 2 in res.row.defects and (f.startswith(("exit", "new file", "sentinel", "stderr",
                                                    "leftover")))


def d3(res, f):
    a = res.argv
    if _value(a, "--engine") != "nop":
        return False
    if f.startswith("nop: verdict"):
        return False  # quick's device class from NOPs: not one of the nine
    if f.startswith(("nop:", "device:", "strace:", "text:", "file:")):
        return True
    return f.startswith("exit 3,") and "--force" in f


def d4(res, f):
    """exit 3, "in use", of the row's run or of the one just before it"""
    return (res.row.target == "dev" and f.startswith(("exit 3,", "exit 3 of the run before",
                                                       "json:")) and
            re.search(r"in use|busy", f + res.err) is not None)


def d5(res, f):
    return 5 in res.row.defects and f.startswith(("exit", "device:"))


def d6(res, f):
    a = res.argv
    return ((_value(a, "--engine") == "sync" or res.row.sandbox) and
            (_has(a, "--rate", "--precondition") or _sla(a)) and f.startswith(("exit", "json:")))


def d7(res, f):
    a = res.argv
    return _has(a, "--precondition") and "--no-direct" in a and f.startswith(("exit", "json:"))


def d8(res, f):
    return "1e-300" in res.argv and f.startswith(("exit 0,", "served:"))


def d9(res, f):
    return 9 in res.row.defects and f.startswith(("exit 0,", "stderr: no line matches"))


# The defects known and not fixed yet: {N: its predicate}.  All nine were fixed
# (defects44, merged with the matrix): none is excused now.  A defect found and
# left for later goes here with its predicate; the summary says when its rows
# pass, so that its entry goes as soon as it is fixed.
PREDICATES = {1: d1, 2: d2, 3: d3, 4: d4, 5: d5, 6: d6, 7: d7, 8: d8, 9: d9}
KNOWN = {}


def classify(res):
    """({failure: defect} for the failures a known defect explains, [the others])."""
    known, other = {}, []
    for f in res.fail:
        d = next((n for n, pred in sorted(KNOWN.items()) if pred(res, f)), None)
        if d is None:
            other.append(f)
        else:
            known[f] = d
    return known, other
