"""The lab's data-verification checks (issue 42), for tests/lab/check.py
(and alone, for LAB_POWERCUT_ONLY=1: check_verify.py RESULTS_LOG):
the power cuts of tests/lab/guest-powercut.sh, the lying disk and the
corrupting one.  Each expected value comes from the disk image read on the
host (tests/lab/witness_truth.py: cutN.truth, lying.truth; the corrupted
byte: corrupt.truth) or from what the guest set up (the block at 5 MiB),
never from diskbench's own output."""
MIB = 1 << 20
CORRUPT_AT = 5 * MIB  # guest-powercut.sh: dm-flakey over block 5 of the region


def _keys(d):
    return [f.get("key") for f in d.get("findings", [])]


def _bad_offsets(r, kinds):
    """The lowest offsets of these kinds, together (each kind keeps its 8 lowest)."""
    return sorted(b["offset"] for k in kinds for b in r["first"][k])[:8]


def check_cut(t, runs, doc, n):
    truth, v = doc(runs, f"cut{n}.truth"), doc(runs, f"cut{n}.verify")
    if not t.check(truth is not None, f"power cut {n}: the host read the image against the witness"):
        return
    t.check(truth["acked_blocks"] > 0 and truth["lines"] >= 50,
            f"power cut {n}: the witness reached the host before the cut "
            f"({truth['lines']} writes, {truth['acked_blocks']} blocks)")
    t.check(truth["bad"] == [], f"power cut {n} (cache=none): every acknowledged write is whole in "
            f"the image, as the host reads it", str(truth["bad"][:8]))
    if not t.check(v is not None and runs[f"cut{n}.verify"][0] == 0,
                   f"power cut {n}: verify --witness after the reboot: exit 0",
                   runs.get(f"cut{n}.verify", ("", "", ""))[2][-300:]):
        return
    r = v["verify"]
    t.check(r["mode"] == "witness" and r["bad"] == 0, f"power cut {n}: verify finds 0 lost, 0 corrupt, "
            "0 unwritten", str(r))
    t.check(r["acknowledged"] == truth["acked_blocks"] and r["witness_lines"] == truth["lines"],
            f"power cut {n}: verify read the witness the host holds ({truth['lines']} writes)",
            f"{r['acknowledged']} blocks, {r['witness_lines']} lines")
    t.check(r["good"] == truth["good"] and r["in_flight"] == truth["in_flight"],
            f"power cut {n}: verify's good blocks and those torn by a write in flight are the host's "
            f"({truth['good']}, {truth['in_flight']})", f"{r['good']}, {r['in_flight']}")
    t.check("writes_lost" not in _keys(v), f"power cut {n}: no writes_lost finding")


def check_lying(t, runs, doc):
    truth, w, v = doc(runs, "lying.truth"), doc(runs, "lying.write"), doc(runs, "lying.verify")
    if not t.check(truth is not None and w is not None and v is not None,
                   "lying disk: written through dm-flakey drop_writes, verified, read by the host"):
        return
    bad = truth["bad"]
    t.check(len(bad) > 0, f"lying disk: the host finds acknowledged writes missing from the image "
            f"({len(bad)} blocks)")
    t.check(runs["lying.write"][0] == 7, f"lying disk: --verify exits 7 (got {runs['lying.write'][0]})")
    rv = w["result"]["verify"]
    found = _bad_offsets(rv, ("stale", "unwritten", "corrupt"))
    t.check(rv["stale"] + rv["unwritten"] + rv["corrupt"] == len(bad) and rv["misplaced"] == 0
            and found == bad[:8], f"lying disk: --verify's bad blocks are the {len(bad)} the host found",
            f"stale {rv['stale']}, unwritten {rv['unwritten']}, corrupt {rv['corrupt']} {found}; host {bad[:8]}")
    t.check("writes_lost" in _keys(w), "lying disk: --verify's finding writes_lost")
    t.check(runs["lying.verify"][0] == 7, f"lying disk: verify --witness exits 7 (got {runs['lying.verify'][0]})")
    r = v["verify"]
    found = _bad_offsets(r, ("lost", "unwritten", "corrupt"))
    t.check(r["lost"] + r["unwritten"] + r["corrupt"] == len(bad) and found == bad[:8] and r["lost"] > 0,
            "lying disk: verify --witness reports the lost writes at the offsets the host found",
            f"verify: {r['lost']} lost, {r['unwritten']} unwritten, {r['corrupt']} corrupt {found}; "
            f"host: {bad[:8]}")
    t.check("writes_lost" in _keys(v), "lying disk: verify's finding: no durable-write figure from it stands")


def check_corrupt(t, runs, doc):
    for name in ("honest.write", "honest.verify"):
        d = doc(runs, name)
        r = None
        if d is not None:
            r = d["result"]["verify"] if name == "honest.write" else d["verify"]
        t.check(d is not None and runs[name][0] == 0 and r["bad"] == 0 and r["good"] == 16,
                f"corrupting disk: {name} before it: 16 blocks good, exit 0", str(r))
    truth = runs.get("corrupt.truth", ("", "", ""))[1].strip()
    t.check(truth == "255", "corrupting disk: dm-flakey left byte 48 of block 5 at 255 in the image, "
            "as the host reads it", truth)
    d = doc(runs, "corrupt.verify")
    if not t.check(d is not None and runs["corrupt.verify"][0] == 7, "corrupting disk: verify exits 7",
                   runs.get("corrupt.verify", ("", "", ""))[2][-300:]):
        return
    r = d["verify"]
    t.check(r["corrupt"] == 1 and r["bad"] == 1 and r["first"]["corrupt"][0]["offset"] == CORRUPT_AT,
            "corrupting disk: one corrupt block, at 5 MiB where dm-flakey changed it", str(r["first"]))
    t.check("writes_lost" not in _keys(d), "corrupting disk: no writes_lost (nothing was lost)")


def check_all(t, runs, doc):
    """The power cuts, the lying and the corrupting disk; doc(runs, name) is
    check.py's: the JSON document a run printed, or None."""
    if "powercut.done" not in runs:
        t.check(False, "power-cut boots: the last ran to its end")
    for n in (1, 2):
        check_cut(t, runs, doc, n)
    check_lying(t, runs, doc)
    check_corrupt(t, runs, doc)


if __name__ == "__main__":
    import sys
    import check
    runs = check.parse(sys.argv[1])[0]
    tap = check.Tap()
    check.guarded(tap, "data verification", check_all, runs, check.doc)
    sys.exit(tap.close())
