#!/usr/bin/env python3
"""bench/perf-lab.py RESULTS_LOG: the table of bench/perf-lab.sh's guest runs.

Reads the '@@@'-framed runs bench/perf-lab-guest.sh wrote (NAME is
DEPTH.ROW.REP) and prints, per depth and row, the median IOPS with min-max and
the ratio to t/io_uring's (db-nop, diskbench's own ceiling, has none: the
lab's kernel refuses t/io_uring -N1's NOPs), then the issue's target at depths
32 and 128.  IOPS: diskbench's result.iops; t/io_uring's the median of its
once-a-second 'IOPS=' lines after the first.  Exit 1 when a run failed or
printed no figure (the table says which)."""
import json
import re
import statistics
import sys

ROWS = ["db-def", "db-nop", "t/io_uring"]
# no t/io_uring -N1 in the lab (its kernel refuses those NOPs): db-nop has no anchor
ANCHOR = {"db-def": "t/io_uring", "t/io_uring": "t/io_uring"}


def runs(path):
    """NAME -> (rc, stdout, stderr), and the header lines."""
    out, notes, cur, part = {}, [], None, None
    for line in open(path, errors="replace"):
        line = line.rstrip("\r\n")
        m = re.match(r"@@@ begin (\S+) rc=(\d+)", line)
        if m:
            cur, part = m.group(1), "out"
            out[cur] = [int(m.group(2)), [], []]
        elif cur and line == "@@@ stderr " + cur:
            part = "err"
        elif cur and line == "@@@ end " + cur:
            cur = None
        elif cur:
            out[cur][1 if part == "out" else 2].append(line)
        elif line.startswith("@@@ "):
            notes.append(line[4:])
    return out, notes


def iops(row, stdout):
    if row.startswith("db-"):
        try:
            return json.loads("\n".join(stdout))["result"]["iops"]
        except (ValueError, KeyError, TypeError):
            return None
    unit = {"": 1, "K": 1e3, "M": 1e6}  # 'IOPS=144.56K' above 100k
    lines = [float(m.group(1)) * unit[m.group(2)]
             for m in (re.match(r"IOPS=([0-9.]+)([KM]?),", s) for s in stdout) if m]
    return statistics.median(lines[1:]) if len(lines) > 1 else None


def main(path):
    got, notes = runs(path)
    for n in notes:
        print("# " + n)
    samples, bad = {}, []
    for name, (rc, stdout, stderr) in got.items():
        depth, rest = name.split(".", 1)
        row, _rep = rest.rsplit(".", 1)
        v = iops(row, stdout) if rc == 0 else None
        if v is None:
            bad.append("%s: exit %d, %s" % (name, rc, (stderr or ["no figure"])[-1][:160]))
            continue
        samples.setdefault(int(depth), {}).setdefault(row, []).append(v)
    med = {d: {r: statistics.median(v) for r, v in rows.items()} for d, rows in samples.items()}
    print("%-5s %-14s %-30s %7s" % ("depth", "row", "IOPS median (min-max)", "x t/iou"))
    for d in sorted(samples):
        for r in ROWS:
            v = samples[d].get(r)
            if not v:
                continue
            a = med[d].get(ANCHOR.get(r, ""))
            print("%-5d %-14s %-30s %7s" % (d, r, "%.0f (%.0f-%.0f)" % (med[d][r], min(v), max(v)),
                                           "%.2f" % (med[d][r] / a) if a else "-"))
        print()
    print("x t/iou: IOPS over t/io_uring's (db-nop: diskbench's own ceiling, no anchor here)")
    print("targets (issue 32), on medians:")
    for d in (32, 128):
        for r, a, what in (("db-def", "t/io_uring", "db-def IOPS >= 0.9 x t/io_uring"),):
            m = med.get(d, {})
            if r in m and m.get(a):
                x = m[r] / m[a]
                print("  depth %-4d %-40s %5.2f   %s" % (d, what, x, "met" if x >= 0.9 else "not met"))
    for b in bad:
        print("failed: " + b)
    return 1 if bad or not samples else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
