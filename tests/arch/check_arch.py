#!/usr/bin/env python3
"""make check-arch: the rooms of src/ against ARCHITECTURE.md's table.

usage: check_arch.py [--src DIR] [--include DIR] [--arch FILE] [--max-lines N]

Reads which file uses which from the objects themselves (`nm`: a symbol one
object leaves undefined and another defines), since that is what the linker
joins, and which header each file includes from its #include lines.  Fails on:
  - a dependency circle between two or more files (through symbols);
  - a room using a room that ARCHITECTURE.md's table does not let it use, or a
    circle in the table itself;
  - a header included from outside its room that is not one of the room's
    public headers, which live in include/ROOM/ (its internal ones stay
    beside its sources in src/ROOM/; a *_int.h is never public);
  - include/ROOM/ and the table's public headers of ROOM disagreeing, a
    folder of include/ that is no room, or two headers of one name;
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


def sources(src, inc=None):
    """{path: room} for every .c and .h below src ("main" for src/main.c)
    and, when inc is given, every header of inc/ROOM/ (room ROOM)."""
    found = {}
    for top in [src] + ([inc] if inc and os.path.isdir(inc) else []):
        for d, _, names in os.walk(top):
            for n in names:
                if not n.endswith((".c", ".h")):
                    continue
                path = os.path.join(d, n)
                rel = os.path.relpath(path, top).split(os.sep)
                if top == src:
                    found[path] = rel[0] if len(rel) == 2 else ("main" if rel == ["main.c"] else None)
                else:
                    found[path] = rel[0] if len(rel) == 2 and n.endswith(".h") else None
    return found


def public_tree(inc, files):
    """{room: set(header names in inc/ROOM/)}: the rooms' public faces."""
    faces, top = {}, os.path.normpath(inc) + os.sep
    for path, room in files.items():
        if room and os.path.normpath(path).startswith(top):
            faces.setdefault(room, set()).add(os.path.basename(path))
    return faces


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


def check(src, arch, max_lines, inc="include"):
    problems = []
    files = sources(src, inc)
    public = {}
    allowed = parse_table(arch, public)
    if not allowed:
        return [f"{arch}: no table headed '| room | holds | public headers | may use |'"]
    rooms = {r for r in files.values() if r}
    for path, room in sorted(files.items()):
        if room is None:
            problems.append(f"{path}: not in a room (src/ROOM/FILE, or include/ROOM/FILE.h)")
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

    faces = public_tree(inc, files)
    for room in sorted(set(faces) | set(public)):
        tree_h, table_h = faces.get(room, set()), public.get(room, set())
        for h in sorted(tree_h - table_h):
            problems.append(f"{inc}/{room}/{h}: public in the tree, but {arch}'s table does not list it "
                            f"among room {room}'s public headers")
        for h in sorted(table_h - tree_h):
            problems.append(f"{arch}: the table lists {h} as public in room {room}, "
                            f"but it is not in {inc}/{room}/")
        for h in sorted(h for h in tree_h if h.endswith("_int.h")):
            problems.append(f"{inc}/{room}/{h}: an internal header (_int.h) in include/")
    header_room, seen = {}, {}
    for p, r in sorted(files.items()):
        if p.endswith(".h"):
            n = os.path.basename(p)
            if n in seen:
                problems.append(f"{p} and {seen[n]}: two headers named {n}; an include could find either")
            seen[n] = p
            header_room[n] = (r, n in faces.get(r, set()))
    for path, room in sorted(files.items()):
        for name in includes(path):
            hr, is_public = header_room.get(os.path.basename(name), (None, False))
            if hr is None:
                continue
            if hr != room and not is_public:
                problems.append(f"{path} ({room}) includes {name}, internal to room {hr} "
                                f"(only {inc}/{hr}/ is its public face: "
                                f"{', '.join(sorted(faces.get(hr, ()))) or 'none'})")
            elif room and hr != room and hr not in allowed.get(room, set()):
                problems.append(f"{path} ({room}) includes {name} ({hr}); the table does not let {room} use {hr}")
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
    ap.add_argument("--include", default="include")
    ap.add_argument("--arch", default="ARCHITECTURE.md")
    ap.add_argument("--max-lines", type=int, default=650)
    a = ap.parse_args()
    problems = check(a.src, a.arch, a.max_lines, a.include)
    for p in problems:
        print("check-arch:", p)
    n = len(sources(a.src, a.include))
    print(f"check-arch: {n} files in {len(parse_table(a.arch))} rooms, {len(problems)} problems")
    return 1 if problems else 0


sys.exit(main())
