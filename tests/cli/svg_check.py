#!/usr/bin/env python3
"""Checks a picture diskbench drew (--svg) against the JSON of the same run.

usage: svg_check.py single|sweep|quick|report|matrix|steady FILE.svg FILE.json
       svg_check.py png FILE.png       (a screenshot that is not blank)
       svg_check.py height FILE.svg    (prints the document's height)

Every SVG: parses as XML, has a viewBox, a <title> and a <desc>, and no
reference to anything outside it (no href, no @import, no url() other than
to an id inside, no script, no external font).  Then, by kind:
  single: one rect.bar per bucket of result.lat_hist; markers p50, p99 and
          p99.9 at result.lat_ns's values; throughput over time when
          result.series has two samples or more, with a marker at the time
          of each finding that has one (cliff, sustained, heat);
  sweep:  per series, a circle.point per measured point at its level, for
          the figure and both latencies; the knee marked at JSON's knee;
  quick:  the verdict line as the title; a rect.bar per measured figure
          and per step;
  report: per group, a chart of bars with a rect.bar per host at its
          figure of the group's metric (outliers so classed), the
          line.median at the group's median; its histogram's markers p50,
          p99 and p99.9 at the fleet's lat_ns;
  matrix: per operation, a heat map with a rect.cell per file size x block
          size, each measured cell's data-value its bytes_per_sec;
  steady: a circle.point per round at (n, value), and the window's mean and
          band drawn when JSON has a window, none when not.
Prints what is wrong, one line each; exit status 1 if anything is."""
import json
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"
problems = []


def bad(msg):
    problems.append(msg)


def classes(el):
    return (el.get("class") or "").split()


def find_class(root, tag, cls):
    return [e for e in root.iter(NS + tag) if cls in classes(e)]


def self_contained(text, root):
    if root.tag != NS + "svg":
        bad("the root is %s, not svg" % root.tag)
    if not re.fullmatch(r"0 0 [0-9.]+ [0-9.]+", root.get("viewBox") or ""):
        bad("no viewBox: %r" % root.get("viewBox"))
    if root.find(NS + "title") is None or root.find(NS + "desc") is None:
        bad("no <title> or <desc> for screen readers")
    for el in root.iter():
        for name, value in el.attrib.items():
            if name.endswith("href"):
                bad("a reference: %s=%r" % (name, value))
            if "url(" in value and not re.fullmatch(r"url\(#[^)]*\)", value.strip()):
                bad("an outside url(): %r" % value)
        if el.tag in (NS + "script", NS + "image", NS + "foreignObject", NS + "use"):
            bad("an element that may load or run something: %s" % el.tag)
    for word in ("@import", "@font-face", "http://", "https://"):
        hits = [m for m in re.finditer(re.escape(word), text)]
        if word.startswith("http") and all(
                text[m.start():m.start() + 26] == "http://www.w3.org/2000/svg" for m in hits):
            continue
        if hits:
            bad("%s in the document" % word)


def markers(root):
    return {g.get("data-key"): float(g.get("data-value")) for g in find_class(root, "g", "marker")}


def check_single(root, doc):
    res = doc["result"]
    hist = [g for g in root.iter(NS + "g") if "histogram" in classes(g)]
    if len(hist) != 1:
        bad("%d histograms, not 1" % len(hist))
        return
    bars = find_class(hist[0], "rect", "bar")
    if len(bars) != len(res["lat_hist"]):
        bad("%d bars for %d buckets" % (len(bars), len(res["lat_hist"])))
    counts = sorted(int(b.get("data-count")) for b in bars)
    if counts != sorted(h["count"] for h in res["lat_hist"]):
        bad("bar counts %s differ from lat_hist" % counts)
    m = markers(hist[0])
    for key, json_key in (("p50", "p50"), ("p99", "p99"), ("p99.9", "p99_9")):
        if m.get(key) != res["lat_ns"][json_key]:
            bad("marker %s at %s, JSON says %s" % (key, m.get(key), res["lat_ns"][json_key]))
    xy = [g for g in root.iter(NS + "g") if "xy" in classes(g)]
    samples = len((res.get("series") or {}).get("t_s", []))
    if (samples >= 2) != (len(xy) == 1):
        bad("%d samples but %d charts over time" % (samples, len(xy)))
    if not xy:
        return
    if not find_class(xy[0], "polyline", "line"):
        bad("no throughput line")
    timed = {"cliff": "at_s", "sustained": "steady_from_s", "heat": "peak_t_s"}
    m = markers(xy[0])
    for f in doc["findings"]:
        if f["key"] in timed and abs(m.get(f["key"], -1) - f[timed[f["key"]]]) > 0.001:
            bad("finding %s at %s, marked at %s" % (f["key"], f[timed[f["key"]]], m.get(f["key"])))


def check_curve(chart, curve):
    """--curve's chart: each series a point per curve point, at its IOPS asked."""
    asked = [p["rate_asked"] for p in curve["points"]]
    names = []
    for g in chart.iter(NS + "g"):
        if "series" not in classes(g):
            continue
        names.append(g.get("data-series"))
        xs = [float(c.get("data-x")) for c in find_class(g, "circle", "point")]
        if len(xs) != len(asked) or any(abs(x - a) > 0.01 * a + 0.01 for x, a in zip(xs, asked)):
            bad("curve, %s: points at %s, asked %s" % (g.get("data-series"), xs, asked))
    if names != ["served IOPS", "p99 response", "p50 response"]:
        bad("curve: series %s" % names)


def check_sweep(root, doc):
    charts = [g for g in root.iter(NS + "g") if "xy" in classes(g)]
    series = doc["result"]["series"]
    curve = doc["result"].get("curve")
    if curve:
        if not charts:
            bad("no chart for the curve")
            return
        check_curve(charts.pop(), curve)
    if len(charts) != len(series):
        bad("%d charts for %d series" % (len(charts), len(series)))
        return
    for chart, s in zip(charts, series):
        levels = [p["outstanding"] for p in s["points"]]
        for g in chart.iter(NS + "g"):
            if "series" not in classes(g):
                continue
            xs = [float(c.get("data-x")) for c in find_class(g, "circle", "point")]
            if xs != levels:
                bad("%s, %s: points at %s, levels %s" % (s["workload"], g.get("data-series"), xs, levels))
        names = [g.get("data-series") for g in chart.iter(NS + "g") if "series" in classes(g)]
        want = "MB/s" if s["workload"].startswith("large") else "IOPS"
        if names != [want, "p99 latency", "mean latency"]:
            bad("%s: series %s" % (s["workload"], names))
        knee = s.get("knee")
        m = markers(chart)
        if knee and m.get("knee") != knee["outstanding"]:
            bad("knee at %s, JSON %s" % (m.get("knee"), knee["outstanding"]))


def check_steady(root, doc):
    st = doc["steady"]
    charts = [g for g in root.iter(NS + "g") if "xy" in classes(g)]
    if len(charts) != 1:
        bad("%d charts, not one" % len(charts))
        return
    groups = {g.get("data-series"): g for g in charts[0].iter(NS + "g") if "series" in classes(g)}
    rounds = groups.get("each round")
    if rounds is None:
        bad("no series 'each round': %s" % list(groups))
        return
    pts = [(float(c.get("data-x")), float(c.get("data-y"))) for c in find_class(rounds, "circle", "point")]
    want = [(r["n"], r["value"]) for r in st["rounds"]]
    if len(pts) != len(want) or any(x != wx or abs(y - wy) > 1e-6 * max(1, abs(wy)) for (x, y), (wx, wy) in zip(pts, want)):
        bad("round points %s, JSON %s" % (pts, want))
    w = st["window"]
    if w and ("window mean" not in groups or "band" not in groups):
        bad("a window in JSON, no mean or band drawn: %s" % list(groups))
    if not w and ("window mean" in groups or "band" in groups):
        bad("no window in JSON, yet a mean or band drawn")


def check_quick(root, doc):
    title = root.find(NS + "title").text
    if title != doc["verdict"]["line"]:
        bad("title %r is not the verdict %r" % (title, doc["verdict"]["line"]))
    steps = [g for g in root.iter(NS + "g") if "bars" in classes(g)]
    if len(steps) != 1 or len(find_class(steps[0], "rect", "bar")) != len(doc["tests"]):
        bad("not one bar per step (%d steps)" % len(doc["tests"]))
    ev = doc["verdict"]["evidence"]
    measured = sum(1 for k in ("seq_read_bytes_per_sec", "qd1_read_lat_ns_p50", "qd1_read_iops",
                               "qd32_read_iops", "seq_write_bytes_per_sec") if ev.get(k))
    bullets = [g for g in root.iter(NS + "g") if "bullets" in classes(g)]
    if len(bullets) != 1 or len(find_class(bullets[0], "rect", "bar")) != measured:
        bad("not one bar per measured figure (%d)" % measured)
    if doc["verdict"]["class"] and not find_class(bullets[0], "rect", "band"):
        bad("no class range drawn")


def close(a, b, decimals):
    """a (written with 15 digits) equals b (JSON, rounded to decimals)."""
    return abs(a - b) <= 0.5 * 10 ** -decimals + 1e-9 * abs(b)


def check_report(root, doc):
    charts = [g for g in root.iter(NS + "g") if "bars" in classes(g)]
    hists = [g for g in root.iter(NS + "g") if "histogram" in classes(g)]
    groups = doc["groups"]
    if len(charts) != len(groups):
        bad("%d bar charts for %d groups" % (len(charts), len(groups)))
        return
    if len(hists) != sum(1 for g in groups if g["fleet"]["lat_ns"]):
        bad("%d histograms for %d groups with fleet percentiles" % (len(hists), len(groups)))
        return
    hists = iter(hists)
    for chart, g in zip(charts, groups):
        bars = find_class(chart, "rect", "bar")
        decimals = 2 if g["metric"] == "iops" else 1
        if len(bars) != len(g["hosts"]):
            bad("%s: %d bars for %d hosts" % (g["test"], len(bars), len(g["hosts"])))
        for bar, h in zip(bars, g["hosts"]):
            if not close(float(bar.get("data-value")), h[g["metric"]], decimals):
                bad("%s: bar %s for %s's %s" % (h["host"], bar.get("data-value"), g["metric"], h[g["metric"]]))
            if ("outlier" in classes(bar)) != ("outlier" in h["flags"]):
                bad("%s: outlier %s in the picture, flags %s" % (h["host"], classes(bar), h["flags"]))
        median = find_class(chart, "line", "median")
        if len(median) != 1 or not close(float(median[0].get("data-value")), g["median"], 2):
            bad("%s: median line %s, JSON median %s" % (g["test"], [m.get("data-value") for m in median], g["median"]))
        lat = g["fleet"]["lat_ns"]
        if not lat:
            continue
        m = markers(next(hists))
        for key, json_key in (("p50", "p50"), ("p99", "p99"), ("p99.9", "p99_9")):
            if m.get(key) != lat[json_key]:
                bad("%s: marker %s at %s, JSON fleet %s" % (g["test"], key, m.get(key), lat[json_key]))


def check_matrix(root, doc):
    res = doc["result"]
    ops, blocks, files = res["axes"]["ops"], res["axes"]["block_sizes"], res["axes"]["file_sizes"]
    maps = [g for g in root.iter(NS + "g") if "heatmap" in classes(g)]
    if len(maps) != len(ops):
        bad("%d heat maps for %d operations" % (len(maps), len(ops)))
        return
    cells = {(c["op"], c["file_size"], c["block_size"]): c for c in res["cells"]}
    for heat, op in zip(maps, ops):
        title = heat.find(NS + "title").text
        if not title.startswith(op + ":") or ("page cache" in title) == res["direct"]:
            bad("heat map %r for %s, direct %s" % (title, op, res["direct"]))
        rects = find_class(heat, "rect", "cell")
        if len(rects) != len(files) * len(blocks):
            bad("%s: %d cells for %d x %d sizes" % (op, len(rects), len(files), len(blocks)))
        drawn = {(int(r.get("data-row")), int(r.get("data-col"))): float(r.get("data-value"))
                 for r in rects if r.get("data-value") is not None}
        for fi, fs in enumerate(files):
            for bi, bs in enumerate(blocks):
                c = cells.get((op, fs, bs))
                rate = c["bytes_per_sec"] if c else None
                if rate is None and (fi, bi) in drawn:
                    bad("%s %d x %d: drawn %s, not measured" % (op, fs, bs, drawn[(fi, bi)]))
                elif rate is not None and not close(drawn.get((fi, bi), -1), rate, 1):
                    bad("%s %d x %d: drawn %s, JSON %s" % (op, fs, bs, drawn.get((fi, bi)), rate))


def png_pixels(path):
    """Distinct pixel values and the share that is not the background."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, ctype, _, _, interlace = ihdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("unexpected PNG format %s" % (ihdr,))
    bpp = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    prev, seen, other = bytearray(stride), set(), 0
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp):
            px = bytes(line[x:x + 3])
            seen.add(px)
            other += px != b"\xff\xff\xff"
        prev = line
    return len(seen), other / float(width * height)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "png":
        distinct, share = png_pixels(sys.argv[2])
        if distinct < 8 or share < 0.01:
            bad("blank: %d distinct pixel values, %.2f %% not white" % (distinct, 100 * share))
    elif len(sys.argv) == 3 and sys.argv[1] == "height":
        print(int(float(ET.parse(sys.argv[2]).getroot().get("viewBox").split()[3]) + 0.999))
        return 0
    elif len(sys.argv) == 4 and sys.argv[1] in ("single", "sweep", "quick", "report", "matrix",
                                                  "steady"):
        text = open(sys.argv[2], encoding="utf-8").read()
        root = ET.fromstring(text.encode("utf-8"))
        self_contained(text, root)
        doc = json.load(open(sys.argv[3]))
        kinds = {"single": check_single, "sweep": check_sweep, "quick": check_quick,
                 "report": check_report, "matrix": check_matrix, "steady": check_steady}
        kinds[sys.argv[1]](root, doc)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
