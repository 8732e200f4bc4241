"""The invariants every JSON document diskbench prints must hold, in one place.

Used by the option matrix (tests/cli/optmatrix.py) on each of its runs, and by
every CLI test that parses a document: tests/cli/tap.sh's `py` helper, run.sh's
`load`, golden.sh and doctest.py call check() on what they parse, so a document
that breaks one fails the case that read it.  tests/cli/test_invariants.py
feeds it a hand-made bad document per invariant.

    check(doc, argv=None, own_devices=())  -> [violation, ...]   ([] when fine)
    check_run(rc, out, err, argv)          -> the contract's rules of one run
    python3 tests/cli/invariants.py [--argv-file F] FILE...   (exit 1 on a violation)

The invariants (output(7) names each key):
  percentiles   every latency block: min <= p50 <= p90 <= p99 <= p99.9 <= max, and
                min <= mean <= max (lat_ns, service_lat_ns, ops' blocks, steps' and
                rounds' and cells' blocks: any object holding two of them)
  sums          ops' ios and bytes add up to the totals; so do the series' samples
                with their tail, and several targets' figures
  block size    bytes = ios x block size where one block size is in force: a single
                test (and quick's steps), its operations and targets, steady's
                rounds, matrix's cells, sweep's points
  in flight     result.in_flight and open_loop.in_flight_max = qd x threads
  open depth    (argv known) an open loop (--rate, sla) without --qd runs
                min(128, 64 MiB / bs) in flight a thread on an asynchronous engine
                (diskbench(1), --rate), one on the sync engine
  served        an open loop serves no more than it asked, beyond the draw of its
                arrivals: ios <= asked x seconds + 5 sqrt(asked x seconds) + 2 (a
                Poisson count's 5 sigma, which fixed gaps are well inside)
  response      response time >= service time, statistic by statistic (each I/O's
                response is its service plus its wait); the maxima alone where
                arrivals never started (they are in the response times only)
  nop           --engine=nop moves no byte: the counters of a device that is the run's
                target and its alone (a loop device, or own_devices) stay at 0, no
                device finding is made, and quick gives no device class from NOPs
  numbers       no NaN or Infinity (JSON has neither)
"""
import json
import math
import re
import sys

PCT_CHAIN = ("min", "p50", "p90", "p99", "p99_9", "max")
STATS = ("min", "p50", "p90", "p99", "p99_9", "max", "mean")
OPEN_LOOP_QD, OPEN_LOOP_BUFFERS = 128, 64 << 20
DEVICE_FINDINGS = {"device_saw_less", "device_wrote_more", "device_other_io", "flush_fast"}
SANITIZER = re.compile(r"(ERROR: (Address|Leak|Thread|Memory)Sanitizer|runtime error:|"
                       r"==\d+==ERROR|SUMMARY: \w+Sanitizer)")
CONTRACT_EXITS = {0, 1, 2, 3, 4, 5, 6, 7, 130}
ERROR_EXITS = {1, 2, 3}   # the run failed: its error, once
FIGURE_EXITS = {0, 4, 5, 6, 7}  # the figures stand: a verdict, not an error (main.c); 7:
                                # bad data, its blocks counted and said in warnings


def parse(text):
    """One JSON document, NaN and Infinity refused (JSON has neither)."""
    def bad_constant(name):
        raise ValueError("%s is not JSON" % name)
    return json.loads(text, parse_constant=bad_constant)


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class _Checker:
    def __init__(self, argv, own_devices):
        self.bad = []
        self.argv = list(argv) if argv is not None else None
        self.own = set(own_devices)

    def fail(self, rule, path, msg):
        self.bad.append("%s: %s: %s" % (rule, path or "(document)", msg))

    # -- every object ----------------------------------------------------------
    def walk(self, v, path):
        if isinstance(v, dict):
            self.numbers(v, path)
            self.percentiles(v, path)
            self.response(v, path)
            self.sums(v, path)
            self.cell(v, path)
            self.open_loop(v, path)
            for k, x in v.items():
                self.walk(x, "%s.%s" % (path, k) if path else k)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                self.walk(x, "%s[%d]" % (path, i))

    def numbers(self, d, path):
        for k, x in d.items():
            if isinstance(x, float) and not math.isfinite(x):
                self.fail("numbers", path, "%s is %r" % (k, x))

    def percentiles(self, d, path):
        have = [k for k in PCT_CHAIN if _num(d.get(k))]
        if len([k for k in have if k.startswith("p")]) < 2 and not (
                "min" in have and "max" in have):
            return
        for a, b in zip(have, have[1:]):
            if d[a] > d[b]:
                self.fail("percentiles", path, "%s %s > %s %s" % (a, d[a], b, d[b]))
        mean = d.get("mean")
        if _num(mean) and "min" in have and "max" in have:
            # the mean is a float of the exact sum: a hair of rounding either way
            if not d["min"] - 1 <= mean <= d["max"] + 1:
                self.fail("percentiles", path, "mean %s outside [min %s, max %s]"
                          % (mean, d["min"], d["max"]))

    def response(self, d, path):
        """An open loop's response (from when due) and service (from submission)."""
        resp, svc = d.get("lat_ns"), d.get("service_lat_ns")
        # arrivals a stall left unstarted are in the response times alone (issue
        # 39): two populations, so only the maxima compare then
        unserved = (d.get("open_loop") or {}).get("unserved_ios") or 0
        if isinstance(resp, dict) and isinstance(svc, dict):
            for k in STATS if not unserved else ("max",):
                if _num(resp.get(k)) and _num(svc.get(k)) and resp[k] + 1e-6 < svc[k]:
                    self.fail("response", path, "response %s %s < service %s %s"
                              % (k, resp[k], k, svc[k]))
        resp = d.get("response_ns")
        if isinstance(resp, dict) and _num(resp.get("p99")) and _num(d.get("service_p99_ns")) \
                and not d.get("unserved_ios"):
            if resp["p99"] < d["service_p99_ns"]:
                self.fail("response", path, "response p99 %s < service p99 %s"
                          % (resp["p99"], d["service_p99_ns"]))

    def sums(self, d, path):
        if not (_num(d.get("ios")) and _num(d.get("bytes"))):
            return
        ops = d.get("ops")
        if isinstance(ops, dict) and ops:
            for key in ("ios", "bytes"):
                parts = [o.get(key) for o in ops.values() if isinstance(o, dict)]
                if all(_num(x) for x in parts) and sum(parts) != d[key]:
                    self.fail("sums", path, "ops' %s add up to %s, the total is %s"
                              % (key, sum(parts), d[key]))
        s = d.get("series")
        if isinstance(s, dict) and isinstance(s.get("ios"), list) and \
                isinstance(s.get("tail"), dict):
            for key in ("ios", "bytes"):
                vals = s.get(key, []) + [s["tail"].get(key)]
                if all(_num(x) for x in vals) and sum(vals) != d[key]:
                    self.fail("sums", path, "the series' %s with its tail add up to %s, "
                              "the total is %s" % (key, sum(vals), d[key]))

    def cell(self, d, path):
        """matrix's cells and sweep's series carry their own block size."""
        bs = d.get("block_size")
        if not _num(bs) or not bs:
            return
        if _num(d.get("ios")) and _num(d.get("bytes")) and "op" in d:
            self.block_size(d, bs, path)
        for i, p in enumerate(d.get("points") or []):
            if isinstance(p, dict) and "outstanding" in p:
                self.block_size(p, bs, "%s.points[%d]" % (path, i))

    def block_size(self, d, bs, path):
        if _num(d.get("ios")) and _num(d.get("bytes")) and d["bytes"] != d["ios"] * bs:
            self.fail("block size", path, "bytes %s != ios %s x block size %s"
                      % (d["bytes"], d["ios"], bs))

    def open_loop(self, d, path):
        """open_loop blocks, sweep's curve points and sla's steps: served <= asked."""
        ol = d.get("open_loop")
        if isinstance(ol, dict):
            self.served(ol.get("rate_asked"), d.get("ios"), d.get("seconds"), path)
        elif _num(d.get("rate_asked")) and "rate_served" in d:
            self.served(d["rate_asked"], d.get("ios"), d.get("seconds"), path)
        elif d.get("kind") in ("step", "confirm") and "asked_iops" in d:
            self.served(d["asked_iops"], d.get("ios"), d.get("seconds"), path)

    def served(self, asked, ios, seconds, path):
        if not (_num(asked) and _num(ios) and _num(seconds)):
            return
        due = asked * seconds
        if ios > due + 5 * math.sqrt(due) + 2:
            self.fail("served", path, "%s I/Os served in %.3f s at %s IOPS asked (%.0f due)"
                      % (ios, seconds, asked, due))

    # -- a test's document ---------------------------------------------------------
    def test_doc(self, doc, path):
        """A single test's document (or quick's step, or a multi's test)."""
        self.nop(doc, path)
        params, r = doc.get("params"), doc.get("result")
        if not isinstance(params, dict):
            return
        bs, qd, threads = params.get("block_size"), params.get("qd"), params.get("threads")
        fixed = _num(bs) and bs > 0 and "files" not in params
        if isinstance(r, dict):
            if fixed:
                self.block_size(r, bs, path + "result")
                for k, o in (r.get("ops") or {}).items():
                    if isinstance(o, dict):
                        self.block_size(o, bs, "%sresult.ops.%s" % (path, k))
            if _num(r.get("in_flight")) and _num(qd) and _num(threads) and \
                    r["in_flight"] != qd * threads:
                self.fail("in flight", path + "result", "in_flight %s != qd %s x threads %s"
                          % (r["in_flight"], qd, threads))
            ol = r.get("open_loop")
            if isinstance(ol, dict) and _num(qd) and _num(threads) and \
                    ol.get("in_flight_max") != qd * threads:
                self.fail("in flight", path + "result.open_loop", "in_flight_max %s != qd %s "
                          "x threads %s" % (ol.get("in_flight_max"), qd, threads))
        targets = doc.get("targets")
        if isinstance(targets, list) and isinstance(r, dict) and len(targets) > 1:
            for key in ("ios", "bytes"):
                parts = [t.get(key) for t in targets]
                if all(_num(x) for x in parts) and _num(r.get(key)) and sum(parts) != r[key]:
                    self.fail("sums", path + "targets", "the targets' %s add up to %s, the "
                              "total is %s" % (key, sum(parts), r[key]))
            if fixed:
                for i, t in enumerate(targets):
                    self.block_size(t, bs, "%stargets[%d]" % (path, i))
        steady = doc.get("steady")
        if fixed and isinstance(steady, dict):
            for i, rnd in enumerate(steady.get("rounds") or []):
                self.block_size(rnd, bs, "%ssteady.rounds[%d]" % (path, i))

    def engine(self, doc):
        r = doc.get("result") if isinstance(doc.get("result"), dict) else {}
        for e in (r.get("engine"), doc.get("engine"), (doc.get("params") or {}).get("engine")):
            if isinstance(e, str):
                return e
        return None

    def nop(self, doc, path):
        if self.engine(doc) != "nop":
            return
        r = doc.get("result") if isinstance(doc.get("result"), dict) else {}
        # the device's counters are the run's alone where the target is the device (a
        # loop device, or one of own_devices); under a filesystem, its journal and
        # writeback move them too
        on_device = (doc.get("params") or {}).get("file_state") == "device"
        for dev in r.get("device_io") or [] if on_device else []:
            name = dev.get("name", "")
            if name in self.own or name.startswith("loop"):
                moved = {k: dev.get(k) for k in ("reads", "read_bytes", "writes", "write_bytes")
                         if dev.get(k)}
                if moved:
                    self.fail("nop", path + "result.device_io", "--engine=nop, yet %s: %s"
                              % (name, moved))
        for f in doc.get("findings") or []:
            if isinstance(f, dict) and f.get("key") in DEVICE_FINDINGS:
                self.fail("nop", path + "findings", "a device finding from NOPs: %s" % f["key"])
        verdict = doc.get("verdict")
        if isinstance(verdict, dict) and verdict.get("class") is not None:
            self.fail("nop", path + "verdict", "a device class from NOPs: %r"
                      % verdict.get("class"))

    # -- what the command line asked ---------------------------------------------------
    def open_depth(self, doc):
        """diskbench(1), --rate: 128 a thread, fewer above 512 KiB blocks (64 MiB of
        buffers); the sync engine keeps one."""
        argv = self.argv
        if argv is None or not isinstance(doc.get("params"), dict):
            return
        words = [a for a in argv if not a.startswith("-")]
        sla = bool(words) and words[0] == "sla"
        rate = any(a == "--rate" or a.startswith("--rate=") for a in argv)
        qd_given = any(a == "--qd" or a.startswith("--qd=") for a in argv)
        if not (rate or sla) or qd_given:
            return
        params = doc["params"]
        bs, threads = params.get("block_size"), params.get("threads")
        if not (_num(bs) and bs > 0 and _num(threads)):
            return
        engine = self.engine(doc)
        want = 1 if engine == "sync" else max(1, min(OPEN_LOOP_QD, OPEN_LOOP_BUFFERS // bs))
        if params.get("qd") != want:
            self.fail("open depth", "params.qd", "%s in flight a thread, not %s (an open loop "
                      "without --qd, bs %s, engine %s)" % (params.get("qd"), want, bs, engine))
        cap = (doc.get("sla") or {}).get("in_flight_max")
        if _num(cap) and cap != want * threads:
            self.fail("open depth", "sla.in_flight_max", "%s, not %s x %s threads"
                      % (cap, want, threads))


def _test_docs(doc, path=""):
    """The document and every test document inside it (quick's and multi's tests)."""
    yield doc, path
    for i, t in enumerate(doc.get("tests") or []):
        if isinstance(t, dict):
            yield from _test_docs(t, "%stests[%d]." % (path, i))


def check(doc, argv=None, own_devices=()):
    """The violations of doc (a parsed document); [] when it holds every invariant.
    argv: the command line after the program's name, when known; own_devices:
    devices whose counters only this run moved (a loop device the caller made)."""
    c = _Checker(argv, own_devices)
    if not isinstance(doc, dict):
        return ["document: not a JSON object"]
    c.walk(doc, "")
    for d, path in _test_docs(doc):
        c.test_doc(d, path)
    c.open_depth(doc)
    return c.bad


def error_lines(err):
    """stderr's `diskbench: ...` lines that are not warnings."""
    return [l for l in err.splitlines()
            if l.startswith("diskbench: ") and not l.startswith("diskbench: warning: ")]


def check_run(rc, out, err, argv, own_devices=()):
    """The contract's rules of one run (CONTRACT.md): an exit status of the contract;
    on failure (1, 2, 3) exactly one `diskbench: ...` line on stderr (warnings apart),
    none where the figures stand (0, the verdicts 4, 5, 6, and 7, bad data); with
    --json one document on stdout, also on failure, with "error" exactly when the
    run failed; no sanitizer report; and the document's invariants."""
    bad = []
    if rc not in CONTRACT_EXITS:
        bad.append("exit: %s is no exit status of the contract" % rc)
    errors = error_lines(err)
    if rc in ERROR_EXITS and len(errors) != 1:
        bad.append("stderr: %d `diskbench: ...` error lines on exit %s, not 1: %r"
                   % (len(errors), rc, errors[:3]))
    if rc in FIGURE_EXITS and errors:
        bad.append("stderr: an error line on exit %s, whose figures stand: %r" % (rc, errors[0]))
    if SANITIZER.search(err):
        bad.append("sanitizer: %s" % SANITIZER.search(err).group(0))
    if "--json" in argv and "--help" not in argv and "-h" not in argv:
        try:
            doc = parse(out)
        except ValueError as e:
            return bad + ["json: stdout is not one JSON document (%s): %r" % (e, out[:120])]
        if rc in (1, 2, 3) and "error" not in doc:
            bad.append("json: exit %s and no \"error\" key" % rc)
        if rc == 0 and "error" in doc:
            bad.append("json: exit 0 with an error: %r" % doc["error"])
        if "error" in doc and errors and errors[-1] != "diskbench: " + str(doc["error"]):
            bad.append("json: \"error\" %r is not stderr's %r" % (doc["error"], errors[-1]))
        bad += check(doc, argv, own_devices)
    return bad


def main(args):
    argv = None
    if args[:1] == ["--argv-file"]:
        argv = open(args[1], "rb").read().decode().split("\0")[:-1]
        args = args[2:]
    status = 0
    for path in args:
        text = open(path).read()
        try:
            docs = [parse(text)]
        except ValueError:
            try:  # JSON Lines (--jsonl): a record a line
                docs = [parse(line) for line in text.splitlines() if line.strip()]
            except ValueError as e:
                print("%s: neither a JSON document nor JSON Lines: %s" % (path, e))
                status = 1
                continue
        for doc in docs:
            for b in check(doc, argv):
                print("%s: %s" % (path, b))
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
