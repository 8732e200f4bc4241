"""The invariant checker (tests/cli/invariants.py) on hand-made documents: a sound
one it must pass, and for each invariant a document that breaks it alone, which
it must reject naming that invariant.  TAP, like the shell tests.

    python3 tests/cli/test_invariants.py
"""
import copy
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import invariants  # noqa: E402

LAT = {"min": 100, "mean": 300.0, "max": 900, "stdev": 50.0,
       "p50": 200, "p90": 400, "p99": 800, "p99_9": 900}


def single(**params):
    """A randrw document whose figures agree: 300 I/Os of 4 KiB, 210 reads and 90
    writes, in 0.3 s, two samples and a tail."""
    p = {"block_size": 4096, "size": 8388608, "time_limit_s": 0.3, "threads": 1,
         "qd": 1, "engine": "uring"}
    p.update(params)
    ops = {"read": {"ios": 210, "bytes": 210 * 4096, "lat_ns": dict(LAT)},
           "write": {"ios": 90, "bytes": 90 * 4096, "lat_ns": dict(LAT)}}
    return {"schema": 1, "test": "randrw", "params": p,
            "result": {"bytes": 300 * 4096, "ios": 300, "seconds": 0.3, "lat_ns": dict(LAT),
                       "ops": ops, "engine": p["engine"], "in_flight": p["qd"] * p["threads"],
                       "series": {"ios": [100, 100], "bytes": [409600, 409600],
                                  "tail": {"ios": 100, "bytes": 409600}},
                       "device_io": [{"name": "loop7", "reads": 0, "read_bytes": 0,
                                      "writes": 0, "write_bytes": 0}]},
            "findings": [], "warnings": []}


def open_loop(asked=1000.0, ios=300, qd=128, threads=1, bs=4096, engine="uring"):
    d = single(qd=qd, threads=threads, block_size=bs, engine=engine)
    r = d["result"]
    del r["ops"], r["series"]
    r.update(ios=ios, bytes=ios * bs, in_flight=qd * threads,
             open_loop={"rate_asked": asked, "rate_served": ios / 0.3,
                        "in_flight_max": qd * threads},
             service_lat_ns=dict(LAT, p99=700, mean=250.0))
    return d


def sla(in_flight=128, asked=1000.0, ios=100, p99=800, service_p99=700):
    return {"schema": 1, "test": "sla", "params": {"block_size": 4096, "threads": 1,
                                                    "qd": in_flight, "engine": "uring"},
            "sla": {"in_flight_max": in_flight, "steps": [
                {"n": 0, "kind": "probe", "asked_iops": None, "served_iops": 5000.0,
                 "seconds": 0.1, "ios": 500, "response_ns": {"mean": 300.0, "p50": 200,
                                                              "p99": 800, "p99_9": 900},
                 "service_p99_ns": 800},
                {"n": 1, "kind": "step", "asked_iops": asked, "served_iops": ios / 0.1,
                 "seconds": 0.1, "ios": ios, "response_ns": {"mean": 300.0, "p50": 200,
                                                             "p99": p99, "p99_9": 900},
                 "service_p99_ns": service_p99}]}}


def quick_nop(verdict_class):
    step = single(engine="nop")
    return {"schema": 1, "test": "quick", "engine": "nop", "tests": [step],
            "verdict": {"class": verdict_class, "line": "looks like: ..."}}


def mutate(doc, fn):
    d = copy.deepcopy(doc)
    fn(d)
    return d


def setitem(path, value):
    def fn(d):
        x = d
        for k in path[:-1]:
            x = x[k]
        x[path[-1]] = value
    return fn


R = ("result",)
# (name, the invariant it breaks, document, argv)
BAD = [
    ("p90 above p99", "percentiles", mutate(single(), setitem(R + ("lat_ns", "p90"), 801)), None),
    ("p50 below min", "percentiles", mutate(single(), setitem(R + ("lat_ns", "p50"), 50)), None),
    ("p99.9 above max", "percentiles",
     mutate(single(), setitem(R + ("ops", "write", "lat_ns", "p99_9"), 901)), None),
    ("mean above max", "percentiles",
     mutate(single(), setitem(R + ("lat_ns", "mean"), 1000.0)), None),
    ("ops short of the total", "sums",
     mutate(single(), setitem(R + ("ops", "read"), {"ios": 209, "bytes": 209 * 4096})), None),
    ("series' samples short of the total", "sums",
     mutate(single(), setitem(R + ("series", "tail", "ios"), 99)), None),
    ("several targets short of the total", "sums",
     mutate(single(), lambda d: d.update(targets=[{"ios": 100, "bytes": 100 * 4096},
                                                  {"ios": 199, "bytes": 199 * 4096}])), None),
    ("a sweep point's bytes not its I/Os x its series' block size", "block size",
     {"schema": 1, "result": {"series": [{"block_size": 4096, "points": [
         {"outstanding": 1, "ios": 10, "bytes": 40960}, {"outstanding": 2, "ios": 10,
                                                         "bytes": 40960 * 2}]}]}}, None),
    ("bytes not I/Os x block size", "block size",
     mutate(open_loop(), setitem(R + ("bytes",), 300 * 4096 + 512)), None),
    ("an operation's bytes not its I/Os x block size", "block size",
     mutate(single(), lambda d: d["result"]["ops"]["read"].update(bytes=210 * 4096 - 512) or
            d["result"].update(bytes=300 * 4096 - 512) or
            d["result"]["series"]["tail"].update(bytes=409600 - 512)), None),
    ("a matrix cell's bytes not I/Os x its block size", "block size",
     {"schema": 1, "result": {"cells": [{"op": "write", "block_size": 65536, "ios": 64,
                                         "bytes": 64 * 65536 - 1}]}}, None),
    ("in_flight not qd x threads", "in flight",
     mutate(single(qd=4, threads=2), setitem(R + ("in_flight",), 4)), None),
    ("open loop at 1 in flight without --qd", "open depth", open_loop(qd=1),
     ["randread", "--rate", "1000", "-t", "0.3", "DIR"]),
    ("open loop of 1 MiB blocks above 64 MiB of buffers", "open depth",
     open_loop(qd=128, bs=1 << 20), ["seqread", "--rate=100", "DIR"]),
    ("sla at 1 in flight without --qd", "open depth", sla(in_flight=1),
     ["sla", "randread", "--latency", "1ms", "--batch", "4", "DIR"]),
    ("served beyond what was asked", "served", open_loop(asked=1000.0, ios=400), None),
    ("an sla step served beyond what it asked", "served", sla(asked=1000.0, ios=200), None),
    ("response below service", "response",
     mutate(open_loop(), setitem(R + ("service_lat_ns", "p99"), 850)), None),
    ("an sla step's response below its service", "response", sla(p99=600, service_p99=700),
     None),
    ("arrivals unstarted, yet the response's max below the service's", "response",
     mutate(mutate(open_loop(), setitem(R + ("open_loop", "unserved_ios"), 50)),
            setitem(R + ("service_lat_ns", "max"), 10 ** 9)), None),
    ("nop, yet the loop device wrote", "nop",
     mutate(single(engine="nop", file_state="device"), setitem(R + ("device_io",), [
         {"name": "loop7", "reads": 0, "read_bytes": 0, "writes": 16, "write_bytes": 65536}])),
     None),
    ("nop, yet a device finding", "nop",
     mutate(single(engine="nop"), setitem(("findings",), [{"key": "flush_fast"}])), None),
    ("quick's device class from NOPs", "nop", quick_nop("ram"), None),
    ("a NaN", "numbers", mutate(single(), setitem(R + ("seconds",), float("nan"))), None),
]

GOOD = [
    ("a sound randrw document", single(), None),
    ("a sound open loop at 128 in flight", open_loop(), ["randread", "--rate", "1k", "DIR"]),
    ("an open loop of 1 MiB blocks at 64 in flight", open_loop(qd=64, bs=1 << 20),
     ["seqread", "--rate=100", "DIR"]),
    ("an open loop with --qd keeps the depth asked", open_loop(qd=2),
     ["randread", "--rate", "1k", "--qd", "2", "DIR"]),
    ("an open loop on the sync engine keeps one", open_loop(qd=1, engine="sync"),
     ["randread", "--rate", "1k", "--engine=sync", "DIR"]),
    ("sla at 128 in flight", sla(), ["sla", "randread", "--latency", "1ms", "DIR"]),
    ("quick with NOPs and no verdict", quick_nop(None), None),
    # a stall's unstarted arrivals join the response times alone: two populations
    ("an open loop with unstarted arrivals, its response p99 below the service's",
     mutate(mutate(open_loop(), setitem(R + ("open_loop", "unserved_ios"), 50)),
            setitem(R + ("service_lat_ns", "p99"), 850)), None),
    ("an sla step with unstarted arrivals, its response p99 below the service's",
     mutate(sla(p99=600, service_p99=700), setitem(("sla", "steps", 1, "unserved_ios"), 40)),
     None),
    ("served within the draw of Poisson arrivals", open_loop(asked=1000.0, ios=330), None),
    ("nop on a file on a loop device: its filesystem's journal writes too",
     mutate(single(engine="nop", file_state="new"), setitem(R + ("device_io",), [
         {"name": "loop7", "reads": 0, "read_bytes": 0, "writes": 9, "write_bytes": 20480}])),
     None),
    ("nop on a shared disk: its counters are not the run's",
     mutate(single(engine="nop"), setitem(R + ("device_io",), [
         {"name": "vda", "reads": 3, "read_bytes": 12288, "writes": 9, "write_bytes": 36864}])),
     None),
]


class Run:
    """What optmatrix_run.judge reads of a row and its run."""
    def __init__(self, **kw):
        self.__dict__.update(kw)


def sla_unconfirmed_cases(n, failed):
    """The matrix's one exception to a row's exit: sla's exit 6 where the run says its
    confirm run fell short (a busy machine); every other exit 6 stays a failure."""
    import json
    import optmatrix_run
    doc = lambda found, confirmed: json.dumps({"sla": {"found_iops": found,  # noqa: E731
                                                       "confirmed": confirmed}})
    json_row, text_row = Run(expect=(0,), fmt="json"), Run(expect=(0,), fmt="text")
    cases = [
        ("an unconfirmed sla (a rate found, its confirm run short)", True, json_row,
         Run(rc=6, argv=["--json", "sla", "randwrite"], out=doc(120.0, False))),
        ("its text verdict", True, text_row,
         Run(rc=6, argv=["sla", "randwrite"], out="sla randwrite: unconfirmed: 100 IOPS\n")),
        ("no rate found (exit 6 for another reason)", False, json_row,
         Run(rc=6, argv=["--json", "sla", "randwrite"], out=doc(None, False))),
        ("a confirmed rate with exit 6", False, json_row,
         Run(rc=6, argv=["--json", "sla", "randwrite"], out=doc(120.0, True))),
        ("another command's exit 6", False, json_row,
         Run(rc=6, argv=["--json", "randwrite"], out=doc(120.0, False))),
        ("text without the verdict", False, text_row,
         Run(rc=6, argv=["sla", "randwrite"], out="sla randwrite: 100 IOPS\n")),
        ("a row that wanted 6 or 2, not 0", False, Run(expect=(2,), fmt="json"),
         Run(rc=6, argv=["--json", "sla", "randwrite"], out=doc(120.0, False))),
    ]
    for name, want, row, res in cases:
        n += 1
        got = optmatrix_run.sla_unconfirmed(row, res)
        print(("ok %d" if got == want else "not ok %d") % n + " - sla_unconfirmed %s %s"
              % ("accepts" if want else "refuses", name))
        failed += got != want
    return n, failed


def main():
    n = failed = 0
    for name, doc, argv in GOOD:
        n += 1
        bad = invariants.check(doc, argv)
        if bad:
            failed += 1
            print("not ok %d - passes %s\n#   %s" % (n, name, bad))
        else:
            print("ok %d - passes %s" % (n, name))
    for name, rule, doc, argv in BAD:
        n += 1
        bad = invariants.check(doc, argv)
        if not bad or not all(b.startswith(rule + ":") for b in bad):
            failed += 1
            print("not ok %d - rejects %s (%s)\n#   %s" % (n, name, rule, bad))
        else:
            print("ok %d - rejects %s (%s)" % (n, name, rule))
    runs = [
        ("an exit outside the contract", (9, "", "diskbench: x\n", ["seqread"]), "exit"),
        ("two error lines", (1, "", "diskbench: a\ndiskbench: b\n", ["seqread"]), "stderr"),
        ("no error line on failure", (1, "", "diskbench: warning: w\n", ["seqread"]), "stderr"),
        ("an error line on success", (0, "", "diskbench: seqread: at most\n", ["seqread"]),
         "stderr"),
        ("an error line beside a verdict's figures", (6, "", "diskbench: not steady\n",
                                                      ["steady", "randread"]), "stderr"),
        ("an error line beside bad data's figures", (7, "", "diskbench: data did not verify\n",
                                                     ["verify", "r"]), "stderr"),
        ("a sanitizer report", (0, "", "==12==ERROR: AddressSanitizer: heap-use-after-free\n",
                                ["seqread"]), "sanitizer"),
        ("--json and no document", (2, "", "diskbench: bad\n", ["--json", "seqread"]), "json"),
        ("--json, exit 1 and no error key", (1, '{"schema": 1}', "diskbench: bad\n",
                                             ["--json", "seqread"]), "json"),
        ("--json, error other than stderr's", (1, '{"schema": 1, "error": "b"}',
                                               "diskbench: a\n", ["--json", "seqread"]), "json"),
    ]
    for name, args, rule in runs:
        n += 1
        bad = invariants.check_run(*args)
        if not bad or not bad[0].startswith(rule + ":"):
            failed += 1
            print("not ok %d - check_run rejects %s\n#   %s" % (n, name, bad))
        else:
            print("ok %d - check_run rejects %s" % (n, name))
    n += 1
    good = invariants.check_run(1, '{"schema": 1, "error": "a"}', "diskbench: warning: w\n"
                                "diskbench: a\n", ["--json", "seqread"])
    print(("ok %d" if not good else "not ok %d") % n + " - check_run passes a failed run "
          "told once, in JSON too" + ("" if not good else "\n#   %s" % good))
    failed += bool(good)
    n += 1  # exit 7 prints its figures as 0 does: the bad blocks are warnings, not an error
    good = invariants.check_run(7, '{"schema": 1, "verify": {"bad": 1}}', "diskbench: warning: "
                                "data did not verify\n", ["--json", "verify", "r"])
    print(("ok %d" if not good else "not ok %d") % n + " - check_run passes bad data's "
          "figures, said by warnings" + ("" if not good else "\n#   %s" % good))
    failed += bool(good)
    n, failed = sla_unconfirmed_cases(n, failed)
    print("invariants: %d passed, %d failed, 0 skipped" % (n - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
