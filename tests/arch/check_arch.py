#!/usr/bin/env python3
"""make check-arch: the rooms of src/ against ARCHITECTURE.md's table.

usage: check_arch.py [--src DIR] [--arch FILE] [--max-lines N]

Reads which file uses which from the objects themselves (`nm`: a symbol one
object leaves undefined and another defines), since that is what the linker
joins, and which header each file includes from its #include lines.  Fails on:
  - a dependency circle between two or more files (through symbols);
  - a room using a room that ARCHITECTURE.md's table does not let it use, or a
    circle in the table itself;
  - a header included from outside its room that the table does not list among
    the room's public headers (a *_int.h never is);
  - a path under /sys or /proc written outside the devinfo and platform rooms;
  - a source file outside a room, or a room the table does not name;
  - a source or header file over --max-lines lines.
Each problem is one line naming the files and the symbol or include."""
import argparse
import os
import re
import subprocess
import sys

SYSFS_ROOMS = {"devinfo", "platform"}


def parse_table(arch_path, public=None):
    """{room: set(rooms it may use)} from the table whose header is
    '| room | holds | public headers | may use |'; public, when given, is
    filled with {room: set(header names other rooms may include)}."""
    allowed, in_table = {}, False
    for line in open(arch_path, encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| room | holds |"):
            in_table = True
            continue
        if not in_table:
            continue
        if not line.startswith("|"):
            break
        if set(cells[0]) <= set("-: "):
            continue
        room = cells[0].strip("`")
        uses = {u.strip().strip("`") for u in cells[-1].split(",") if u.strip() and u.strip() != "—"}
        allowed[room] = uses
        if public is not None and len(cells) >= 4:
            public[room] = {h.strip().strip("`") for h in cells[-2].split(",") if h.strip().strip("`").endswith(".h")}
    return allowed


def sources(src):
    """{path: room} for every .c and .h below src ("main" for src/main.c)."""
    found = {}
    for d, _, names in os.walk(src):
        for n in names:
            if not n.endswith((".c", ".h")):
                continue
            path = os.path.join(d, n)
            rel = os.path.relpath(path, src).split(os.sep)
            found[path] = rel[0] if len(rel) == 2 else ("main" if rel == ["main.c"] else None)
    return found


def symbols(obj):
    defined, undefined = set(), set()
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBRCVWG":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
    return defined, undefined


def symbol_edges(files):
    """{a.c: {b.c: a symbol}}: a's object uses a symbol b's object defines."""
    objs = {p: p[:-2] + ".o" for p in files if p.endswith(".c")}
    missing = [o for o in objs.values() if not os.path.exists(o)]
    if missing:
        sys.exit(f"check-arch: no object {missing[0]}: build first (make)")
    table = {p: symbols(o) for p, o in objs.items()}
    owner = {s: p for p, (d, _) in table.items() for s in d}
    edges = {p: {} for p in objs}
    for p, (_, undefined) in table.items():
        for s in sorted(undefined):
            q = owner.get(s)
            if q and q != p:
                edges[p].setdefault(q, s)
    return edges


def cycles(edges):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def includes(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    return re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, flags=re.M)


def check(src, arch, max_lines):
    problems = []
    files = sources(src)
    public = {}
    allowed = parse_table(arch, public)
    if not allowed:
        return [f"{arch}: no table headed '| room | holds | public headers | may use |'"]
    rooms = {r for r in files.values() if r}
    for path, room in sorted(files.items()):
        if room is None:
            problems.append(f"{path}: not in a room (src/ROOM/FILE)")
        elif room not in allowed:
            problems.append(f"{path}: room '{room}' is not in {arch}'s table")
    for room in sorted(set(allowed) - rooms):
        problems.append(f"{arch}: the table names room '{room}', which src/ does not have")
    for room, uses in sorted(allowed.items()):
        for u in sorted(uses - set(allowed)):
            problems.append(f"{arch}: '{room}' may use '{u}', which is not a room")
    for comp in cycles({r: {u for u in us if u in allowed} for r, us in allowed.items()}):
        problems.append(f"{arch}: the table itself has a circle: {' <-> '.join(comp)}")

    edges = symbol_edges(files)
    for comp in cycles(edges):
        links = [f"{a} uses {b} ({edges[a][b]})" for a in comp for b in comp if b in edges[a]]
        problems.append("circle between files: " + "; ".join(links))
    for a, targets in sorted(edges.items()):
        for b, sym in sorted(targets.items()):
            ra, rb = files[a], files[b]
            if ra and rb and ra != rb and rb not in allowed.get(ra, set()):
                problems.append(f"{a} ({ra}) uses {b} ({rb}): {sym}; the table does not let {ra} use {rb}")

    header_room = {os.path.basename(p): r for p, r in files.items() if p.endswith(".h")}
    for path, room in sorted(files.items()):
        for inc in includes(path):
            hr = header_room.get(inc)
            if hr is None:
                continue
            if hr != room and (inc.endswith("_int.h") or inc not in public.get(hr, set())):
                problems.append(f"{path} ({room}) includes {inc}, internal to room {hr} "
                                f"(its public headers: {', '.join(sorted(public.get(hr, ()))) or 'none'})")
            elif room and hr != room and hr not in allowed.get(room, set()):
                problems.append(f"{path} ({room}) includes {inc} ({hr}); the table does not let {room} use {hr}")
        text = open(path, encoding="utf-8", errors="replace").read()
        if room not in SYSFS_ROOMS and re.search(r'"/(sys|proc)/', text):
            problems.append(f"{path}: names a /sys or /proc path; only {', '.join(sorted(SYSFS_ROOMS))} may")
        lines = text.count("\n")
        if lines > max_lines:
            problems.append(f"{path}: {lines} lines, over {max_lines}: split it by concern")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", default="src")
    ap.add_argument("--arch", default="ARCHITECTURE.md")
    ap.add_argument("--max-lines", type=int, default=650)
    a = ap.parse_args()
    problems = check(a.src, a.arch, a.max_lines)
    for p in problems:
        print("check-arch:", p)
    n = len(sources(a.src))
    print(f"check-arch: {n} files in {len(parse_table(a.arch))} rooms, {len(problems)} problems")
    return 1 if problems else 0


sys.exit(main())
