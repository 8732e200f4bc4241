#!/usr/bin/env python3
"""Checks what the lab's guest wrote (tests/lab/guest.sh) and prints TAP.

Each expected value comes from a peer in the same guest (lsblk, smartctl,
nvme-cli, sysfs dumped by the guest) or from what tests/lab/lab.sh set on
qemu's command line (TRUTH below), never from diskbench's own output.
Closes with 'N passed, N failed'; exits 1 if any check failed.
usage: check.py RESULTS_LOG
"""
import json
import re
import sys

from check_capacity import check_capacity, check_verify_wrap
import check_verify

MIB = 1 << 20

# What lab.sh and guest.sh gave each disk.
TRUTH = {
    "nvme": {"transport": "nvme", "serial": "LABNVME0001", "model": "QEMU NVMe Ctrl",
             "rotational": False, "link": "pcie", "size": 64 * MIB},
    "zns": {"transport": "nvme", "serial": "LABZNS0001", "model": "QEMU NVMe Ctrl",
            "zoned": "host-managed", "zone_size": 8 * MIB, "size": 64 * MIB},
    "sata_hdd": {"transport": "sata", "serial": "WD-WCC7K0LAB001", "model": "WDC WD40EFRX-68N32N0",
                 "rotational": True, "rpm": 7200, "link": "sata", "size": 64 * MIB},
    "sata_ssd": {"transport": "sata", "serial": "S3YJNB0KLAB002", "model": "Samsung SSD 860 EVO 250GB",
                 "rotational": False, "rpm": 1, "link": "sata", "size": 64 * MIB},
    "scsi_hdd": {"serial": "ZC1LAB03", "vendor": "SEAGATE", "model": "ST4000NM0035",
                 "rotational": True, "rpm": 7200, "size": 64 * MIB},
    "usb": {"transport": "usb", "vendor": "SanDisk", "model": "Extreme SSD", "link": "usb",
            "size": 64 * MIB, "usb_serial": "USB0001"},
    "capped": {"transport": "virtio", "serial": "vol-lab0150", "size": 64 * MIB},
    "burst": {"transport": "virtio", "serial": "vol-labburst", "size": 64 * MIB},
    "null": {"size": 64 * MIB},
    "null_zoned": {"zoned": "host-managed", "zone_size": 8 * MIB, "size": 64 * MIB},
}
CAP_IOPS = 150           # throttling.iops-total on the capped volume
BURST_BASE_IOPS = 100    # the burst volume: throttling.iops-total, after its credits
DELAY_NS = 20_000_000    # dm-delay's table: 20 ms on every read


class Tap:
    def __init__(self):
        self.n = self.failed = self.todos = 0

    def check(self, ok, what, detail=""):
        self.n += 1
        if not ok:
            self.failed += 1
        print(f"{'ok' if ok else 'not ok'} {self.n} - {what}"
              + (f"  # {detail}" if detail and not ok else ""))
        return ok

    def todo(self, ok, what, why):
        """A check of a known gap, reported to the lead: TAP's TODO, counted
        as skipped while it fails, as passed once it holds."""
        if ok:
            return self.check(True, what)
        self.n += 1
        self.todos += 1
        print(f"not ok {self.n} - {what} # TODO {why}")
        return False

    def skip(self, what, why):
        self.n += 1
        print(f"ok {self.n} - {what} # SKIP {why}")

    def close(self):
        print(f"{self.n - self.failed - self.todos} passed, {self.failed} failed, {self.todos} skipped")
        return 1 if self.failed else 0


spans = {}  # seconds each framed command took in the guest, by name


def parse(path):
    """The framed outputs: {name: (rc, stdout, stderr)}, the roles and notes."""
    runs, roles, notes, done = {}, {}, [], False
    spans.clear()
    cur = None
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().replace("\r", "").split("\n")
    for line in lines:
        m = re.match(r"@@@ (begin|stderr|end|role|note|done|kernel)\b ?(.*)", line)
        if not m:
            if cur:
                cur[2 if cur[3] else 1].append(line)
            continue
        word, rest = m.groups()
        if word == "begin":
            name, rc = re.match(r"(\S+) rc=(\d+)", rest).groups()
            span = re.search(r"t0=([\d.]+) t1=([\d.]+)", rest)
            if span:
                spans[name] = float(span.group(2)) - float(span.group(1))
            cur = [name, [], [], False, int(rc)]
        elif word == "stderr" and cur:
            cur[3] = True
        elif word == "end" and cur:
            runs[cur[0]] = (cur[4], "\n".join(cur[1]), "\n".join(cur[2]))
            cur = None
        elif word == "role":
            role, dev = rest.split()
            roles[role] = dev
        elif word in ("note", "kernel"):
            notes.append(rest)
        elif word == "done":
            done = True
    return runs, roles, notes, done


def doc(runs, name):
    """The JSON document a run printed, or None."""
    if name not in runs:
        return None
    try:
        return json.loads(runs[name][1])
    except ValueError:
        return None


def lsblk_row(runs, role):
    d = doc(runs, role + ".lsblk")
    return d["blockdevices"][0] if d and d.get("blockdevices") else None


def same(a, b):
    return a is not None and b is not None and str(a).strip() == str(b).strip()


def check_identity(t, runs, role, dev):
    """info's top device against lsblk, smartctl and what lab.sh set."""
    truth = TRUTH.get(role, {})
    info = doc(runs, role + ".info")
    if not t.check(info is not None and runs[role + ".info"][0] == 0, f"{role}: info /dev/{dev} ran"):
        return
    node = info["result"]["device"]
    row = lsblk_row(runs, role) or {}
    smart = doc(runs, role + ".smartctl") or {}
    t.check(node.get("size_bytes") == truth["size"] and same(row.get("size"), truth["size"]),
            f"{role}: size {truth['size']} B (lsblk says {row.get('size')})",
            f"info {node.get('size_bytes')}")
    if "transport" in truth:
        t.check(node.get("transport") == truth["transport"],
                f"{role}: transport {truth['transport']} (lsblk says {row.get('tran')})",
                f"info {node.get('transport')}")
    if "rotational" in truth:
        t.check(node.get("rotational") == truth["rotational"] and row.get("rota") == truth["rotational"],
                f"{role}: rotational {truth['rotational']} as lsblk", f"info {node.get('rotational')}")
    if "rpm" in truth:
        peer = smart.get("rotation_rate")
        want = truth["rpm"]
        t.check(node.get("rpm") == want and (peer == want or (want == 1 and peer == 0)),
                f"{role}: rpm {want} (smartctl rotation_rate {peer})", f"info {node.get('rpm')}")
    scsi = smart.get("device", {}).get("protocol") == "SCSI"
    for key, peer_key in (("serial", "serial_number"), ("model", "scsi_product" if scsi else "model_name")):
        if key not in truth:
            continue
        peer = smart.get(peer_key)
        ok = node.get(key) == truth[key] and (peer is None or peer == truth[key])
        t.check(ok, f"{role}: {key} '{truth[key]}' (smartctl {peer_key} {peer!r})", f"info {node.get(key)!r}")
    if "usb_serial" in truth:
        # the USB device's iSerialNumber (usb-bot's serial=), which lsblk shows
        t.check(node.get("serial") == truth["usb_serial"] and
                (not row.get("serial") or same(row.get("serial"), truth["usb_serial"])),
                f"{role}: serial '{truth['usb_serial']}' (lsblk SERIAL {row.get('serial')!r})",
                f"info {node.get('serial')!r}")
    if "vendor" in truth:
        t.check(node.get("vendor") == truth["vendor"] and same(row.get("vendor"), truth["vendor"]),
                f"{role}: vendor {truth['vendor']} as lsblk", f"info {node.get('vendor')!r}")
    fw = smart.get("scsi_revision" if scsi else "firmware_version")
    if fw:
        t.check(node.get("firmware") == fw, f"{role}: firmware '{fw}' as smartctl",
                f"info {node.get('firmware')!r}")
    if "zoned" in truth:
        t.check(node.get("zoned") == truth["zoned"] and row.get("zoned") == truth["zoned"],
                f"{role}: zoned {truth['zoned']} as lsblk", f"info {node.get('zoned')!r}")
        t.check(node.get("zone_size_bytes") == truth["zone_size"] and same(row.get("zone-sz"), truth["zone_size"]),
                f"{role}: zone size {truth['zone_size']} B as lsblk (ZONE-SZ {row.get('zone-sz')})",
                f"info {node.get('zone_size_bytes')!r}")
    elif role in ("nvme", "sata_hdd", "sata_ssd", "scsi_hdd", "usb", "capped", "null"):
        t.check(node.get("zoned") in (None, "none") and row.get("zoned") == "none",
                f"{role}: not zoned, as lsblk", f"info {node.get('zoned')!r}")


def sysfs_value(runs, pattern):
    """A line 'path:value' of the guest's sysfs dump whose path matches."""
    for line in runs.get("sysfs.links", (0, "", ""))[1].splitlines():
        # the attribute's name ends the path: PCI addresses hold colons too
        m = re.match(r"^(\S*?/[a-z_]+):(.*)$", line)
        if m and re.search(pattern, m.group(1)):
            return m.group(2).strip()
    return None


def check_link(t, runs, role):
    truth = TRUTH.get(role, {})
    info = doc(runs, role + ".info")
    if "link" not in truth or not info:
        return
    link = info["result"]["device"]["link"]
    smart = doc(runs, role + ".smartctl") or {}
    if truth["link"] == "pcie":
        pci = re.findall(r"/([0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.\d)/", info["result"]["device"]["sysfs_path"])
        at = re.escape(pci[-1]) if pci else "none"
        gts = sysfs_value(runs, rf"/{at}/current_link_speed") or ""
        width = sysfs_value(runs, rf"/{at}/current_link_width")
        number = re.match(r"[\d.]+", gts)
        want = f"{float(number.group(0)):.1f} GT/s" if number else None
        t.check(link.get("kind") == "pcie" and link.get("speed") == want and
                str(link.get("width")) == str(width),
                f"{role}: PCIe link {want} x{width} as sysfs", f"info {link}")
    elif truth["link"] == "sata":
        # qemu's IDENTIFY has no SATA speeds (smartctl prints none): libata's link
        port = re.search(r"/ata(\d+)/", info["result"]["device"].get("sysfs_path", ""))
        cur = sysfs_value(runs, rf"ata_link/link{port.group(1)}/sata_spd") if port else None
        t.check(link.get("kind") == "sata" and cur is not None and link.get("speed") == cur,
                f"{role}: SATA link {cur} as sysfs", f"info {link}")
    elif truth["link"] == "usb":
        mbits = sysfs_value(runs, r"/usb/devices/\d+-[\d.]+/speed$")
        t.check(link.get("kind") == "usb" and link.get("speed") == f"{mbits} Mbit/s",
                f"{role}: USB link {mbits} Mbit/s as sysfs", f"info {link}")


def check_nvme_list(t, runs, roles):
    d = doc(runs, "nvme.list")
    if not d:
        t.skip("nvme list agrees with info", "nvme list printed no JSON")
        return
    for role in ("nvme", "zns"):
        info = doc(runs, role + ".info")
        dev = roles.get(role)
        rows = [x for x in d.get("Devices", []) if x.get("DevicePath") == f"/dev/{dev}"]
        if not info or not rows:
            t.check(False, f"{role}: nvme list names /dev/{dev}")
            continue
        node, row = info["result"]["device"], rows[0]
        t.check(node.get("model") == row.get("ModelNumber").strip() and
                node.get("serial") == row.get("SerialNumber").strip() and
                node.get("firmware") == row.get("Firmware").strip(),
                f"{role}: model, serial, firmware as nvme list "
                f"({row.get('ModelNumber')!r}, {row.get('SerialNumber')!r}, {row.get('Firmware')!r})",
                f"info {node.get('model')!r} {node.get('serial')!r} {node.get('firmware')!r}")


def check_quick(t, runs, role):
    name = role + ".quick"
    d = doc(runs, name)
    if not t.check(d is not None and runs[name][0] == 0, f"{role}: quick ran (exit {runs.get(name, (None,))[0]})",
                   runs.get(name, (0, "", ""))[2][-300:]):
        return
    verdict = (d.get("result") or {}).get("verdict") or d.get("verdict") or {}
    line = verdict.get("line", "")
    print(f"# {role}: {line}")
    t.check(bool(line), f"{role}: quick gives a verdict")
    # every disk here is emulated: the verdict must say so, not file it by speed
    t.check(re.search(r"virtual|emulated", line, re.I) is not None,
            f"{role}: the verdict says the disk is virtual or emulated", line)


def check_quick_ram(t, runs):
    """null_blk has no medium: quick must not file it in a disk's class."""
    d = doc(runs, "null.quick") or {}
    line = ((d.get("result") or {}).get("verdict") or d.get("verdict") or {}).get("line", "")
    print(f"# null: {line}")
    t.check(re.search(r"memory|RAM", line) is not None, "null: quick says null_blk runs at memory speed", line)


def result_of(d):
    return (d or {}).get("result") or {}


def findings_of(d):
    return [f.get("key") for f in (d or {}).get("findings", [])]


def check_cap(t, runs):
    d = doc(runs, "capped.randread")
    r = result_of(d)
    iops = r.get("iops") or 0
    t.check(abs(iops - CAP_IOPS) <= 0.1 * CAP_IOPS, f"capped: QD1 randread at {iops:.1f} IOPS, qemu's cap {CAP_IOPS}")
    keys = findings_of(d)
    ios = (r.get("series") or {}).get("ios") or []
    whole = r.get("ios", 0) / r["seconds"] if r.get("seconds") else 0
    after = sum(ios[1:]) / (len(ios) - 1) if len(ios) > 1 else 0
    # qemu's throttle spaces every I/O evenly (no I/O waits 20 x p50), so the
    # finding comes from the pace: flat intervals at a round 150 after the
    # first interval's burst; with nothing to confirm it, it says "may be"
    t.check("rate_cap" in keys,
            f"capped: the rate-cap finding fires on qemu's token bucket (I/Os per interval {ios}, "
            f"{whole:.1f} IOPS over the run, {after:.1f} after the first interval; findings {keys})")
    cap = next((f for f in (d or {}).get("findings", []) if f.get("key") == "rate_cap"), {})
    t.check(abs((cap.get("iops") or 0) - CAP_IOPS) <= 0.02 * CAP_IOPS,
            f"capped: the finding names {cap.get('iops')} IOPS, qemu's cap {CAP_IOPS}")
    for role in ("nvme", "null"):
        other = doc(runs, role + ".quick") if role == "nvme" else doc(runs, "null.randread")
        if other:
            t.check("rate_cap" not in findings_of(other), f"{role}: no rate-cap finding on an uncapped disk")
    # quick's verdict names the cap: IOPS flat at 1 and 32 in flight after each
    # step's first interval, near 150, the thread idle (issue 33: it said only
    # "resemble the HDD class")
    q = doc(runs, "capped.quick") or {}
    v = (q.get("result") or {}).get("verdict") or q.get("verdict") or {}
    t.check(v.get("fit") == "capped" and "150 IOPS" in (v.get("cap") or "") and v.get("class") is None,
            "capped: quick's verdict is capped by a provisioned cap near 150 IOPS", v.get("line"))
    for role in ("nvme", "null", "sata_ssd"):
        w = (doc(runs, role + ".quick") or {}).get("verdict") or {}
        if w:
            t.check(w.get("fit") != "capped", f"{role}: quick names no cap on an uncapped disk",
                    w.get("line"))


def check_burst(t, runs):
    """steady on the volume with burst credits: the rounds show the drop,
    steady comes after it at the base rate qemu enforces (issue 29)."""
    d = doc(runs, "burst.steady") or {}
    s = d.get("steady") or {}
    rounds = [r["iops"] for r in s.get("rounds", [])]
    w = s.get("window") or {}
    t.check(s.get("attained") is True, f"burst: steady attained (rounds {rounds})", d.get("error"))
    t.check(bool(rounds) and max(rounds[:3]) > 1.5 * BURST_BASE_IOPS,
            f"burst: the first rounds ran on the credits, above 1.5 x {BURST_BASE_IOPS} IOPS ({rounds[:3]})")
    t.check(abs((w.get("mean") or 0) - BURST_BASE_IOPS) <= 0.15 * BURST_BASE_IOPS,
            f"burst: steady at qemu's base rate {BURST_BASE_IOPS} IOPS (window {w})")
    t.check(w.get("first", 0) > 1, f"burst: the steady window starts after the drop (window {w})")
    keys = findings_of(d)
    t.check("cliff" in keys, f"burst: a cliff found where the credits ran out (findings {keys})")


def check_delay(t, runs):
    base, slow = result_of(doc(runs, "null.randread")), result_of(doc(runs, "dm_delay.randread"))
    p50_base = (base.get("lat_ns") or {}).get("p50")
    p50_slow = (slow.get("lat_ns") or {}).get("p50")
    if not t.check(p50_base is not None and p50_slow is not None, "dm-delay: randread on nullb and on dm-delay over it ran"):
        return
    added = p50_slow - p50_base
    t.check(DELAY_NS * 0.95 <= added <= DELAY_NS * 1.5,
            f"dm-delay: p50 {p50_slow / 1e6:.2f} ms against {p50_base / 1e6:.3f} ms below it: "
            f"{added / 1e6:.2f} ms added, the table's 20 ms")
    t.check(p50_base < DELAY_NS / 4, "dm-delay: the nullb below answers well under the delay")


def waited_over(result, ns):
    """How many I/Os of a result's latency histogram took at least ns
    (the buckets whose lower bound, half their inclusive top, is >= ns)."""
    return sum(b["count"] for b in result.get("lat_hist") or [] if (b["le_ns"] + 1) // 2 >= ns)


def check_open_loop(t, runs, accel):
    """Open loop (issue 30): M/D/1 on null_blk, and a 200 ms stall that every
    I/O due meanwhile waits out, where a closed loop shows one."""
    a, b = result_of(doc(runs, "md1.5k")), result_of(doc(runs, "md1.8k"))
    if t.check(a.get("open_loop") and b.get("open_loop"), "M/D/1: open-loop runs at 5k and 8k on nullb2"):
        ma, mb = a["lat_ns"]["mean"], b["lat_ns"]["mean"]
        if accel == "kvm":
            # Pollaczek-Khinchine: D + rho D / (2 (1 - rho)), D = 100 us
            t.check(abs(ma - 150e3) <= 15e3 and abs(mb - 300e3) <= 30e3,
                    f"M/D/1: mean response {ma / 1e3:.0f} us at 5k (150), {mb / 1e3:.0f} us at 8k (300), within 10 %")
        else:
            # emulated CPUs add their own time to every request: the order only
            t.check(mb > ma >= 100e3, f"M/D/1 ({accel}): mean response {ma / 1e3:.0f} us at 5k < {mb / 1e3:.0f} us at 8k, both over D = 100 us")
    o, c = result_of(doc(runs, "stall.open")), result_of(doc(runs, "stall.closed"))
    if t.check(o.get("open_loop") and c.get("lat_hist"), "stall: open and closed runs through a suspended dm device"):
        # 2000 a second due during 200 ms: 400 wait, uniformly up to 200 ms,
        # so about 260 beyond 67 ms (more when suspend itself takes time)
        wo, wc = waited_over(o, 1 << 26), waited_over(c, 1 << 26)
        t.check(wo >= 100, f"stall: {wo} I/Os of the open loop waited 67 ms or more (about 260 for 200 ms at 2000/s)")
        t.check(wc <= 2, f"stall: the closed loop shows {wc} (its one request in flight)")


def check_poll(t, runs):
    """--poll (issue 32): polled I/O runs on a null_blk with a poll queue
    (sysfs says io_poll 1), and the virtio disk, without one (sysfs says
    io_poll 0), is refused, exit 2, saying why."""
    rc, out, err = runs.get("poll.refused", (None, "", ""))
    io_poll = runs.get("poll.refused_io_poll", (None, "?", ""))[1].strip()
    t.check(io_poll == "0" and rc == 2 and "has no poll queues (its queue/io_poll is 0)" in err,
            f"--poll on the virtio disk (io_poll {io_poll}): refused, exit 2 (got {rc})",
            err.strip()[-200:])
    if "poll.io_poll" not in runs or runs["poll.io_poll"][1].strip() != "1":
        t.skip("--poll on a null_blk with a poll queue", "this kernel's null_blk made no poll queue")
        return
    rc, out, err = runs["poll.randread"]
    d = doc(runs, "poll.randread") or {}
    r = result_of(d)
    t.check(rc == 0 and r.get("ios", 0) > 0 and (d.get("params") or {}).get("poll") is True,
            f"--poll on nullb3 (io_poll 1): {r.get('ios')} polled reads, exit {rc}", err.strip()[-200:])


def check_flakey(t, runs, roles):
    name = "dm_flakey.randread"
    if not t.check(name in runs, "dm-flakey: randread ran"):
        return
    rc, out, err = runs[name]
    d = doc(runs, name) or {}
    t.check(rc == 1, f"dm-flakey: an I/O error mid-run exits 1 (got {rc})")
    took = spans.get(name, 0)
    # the table went up just before the command: its 1 s up interval ends
    # mid-run, not at the first I/O (startup takes well under 0.5 s here)
    t.check(0.5 <= took < 5.0, f"dm-flakey: the error came mid-run, near the end of the 1 s up interval, "
            f"before the 5 s limit (the command took {took:.2f} s)")
    t.check(d.get("result") is None and "error" in d, "dm-flakey: no partial figure as the result, an error key",
            f"result {str(d.get('result'))[:80]}")
    t.check(re.search(r"at offset \d+", err) is not None and re.search(r"Input/output error", err) is not None,
            "dm-flakey: the message names the failing offset and EIO", err.strip()[-200:])


# What guest.sh and lab.sh gave the zoned disks (issue 31): zone size and
# capacity, conventional zones (the first ones), the open and active limits
# (0: none), and the zones a -s 32M region holds.
ZONED = {
    "null_zoned": {"zone": 8 * MIB, "cap": 6 * MIB, "conv": 1, "max_open": 3, "max_active": 4,
                   "region_zones": 4, "qd": 8},
    "zns": {"zone": 8 * MIB, "cap": 8 * MIB, "conv": 0, "max_open": 0, "max_active": 0,
            "region_zones": 4, "qd": 1},
}


def blkzone_zones(text):
    """blkzone report's zones: (start, len, cap, written, full, conventional) in bytes."""
    zones = []
    for line in text.splitlines():
        m = re.search(r"start: 0x([0-9a-f]+), len 0x([0-9a-f]+), (?:cap 0x([0-9a-f]+), )?"
                      r"wptr 0x([0-9a-f]+).*zcond:\s*(\d+).*type:\s*(\d+)", line)
        if not m:
            continue
        start, length, wptr = (int(m.group(i), 16) * 512 for i in (1, 2, 4))
        cap = int(m.group(3), 16) * 512 if m.group(3) else length
        full, conventional = int(m.group(5)) == 14, int(m.group(6)) == 1
        written = cap if full else (0 if conventional else wptr)
        zones.append((start, length, cap, written, full, conventional))
    return zones


def check_zoned(t, runs, role, roles):
    z = ZONED[role]
    seq = z["region_zones"] - z["conv"]
    node = doc(runs, f"{role}.info")["result"]["device"]
    t.check(node.get("zone_capacity_bytes") == z["cap"] and node.get("conventional_zones") == z["conv"]
            and node.get("max_open_zones") == z["max_open"] and node.get("max_active_zones") == z["max_active"],
            f"{role}: info's zone capacity {z['cap']}, {z['conv']} conventional, open {z['max_open']}, "
            f"active {z['max_active']} as set",
            f"{node.get('zone_capacity_bytes')} {node.get('conventional_zones')} "
            f"{node.get('max_open_zones')} {node.get('max_active_zones')}")
    rc, out, err = runs[f"{role}.read_empty"]
    if z["conv"]:
        d = doc(runs, f"{role}.read_empty")
        t.check(rc == 0 and d["result"]["zoned"]["readable_bytes"] == z["conv"] * z["zone"],
                f"{role}: nothing written yet: reads only the conventional zone ({z['conv'] * z['zone']} B)",
                f"rc {rc} {err.strip()[-160:]}")
    else:
        t.check(rc == 1 and "nothing written" in err, f"{role}: nothing written yet: a read test refused, "
                f"saying why (exit {rc})", err.strip()[-200:])
    want_open = min(v for v in (z["max_open"], z["max_active"], seq) if v > 0) \
        if z["max_open"] or z["max_active"] else min(z["qd"], seq)
    rc, out, err = runs[f"{role}.randwrite"]
    d = doc(runs, f"{role}.randwrite")
    zd = d["result"]["zoned"] if rc == 0 else {}
    t.check(rc == 0 and zd.get("writes") is True and zd.get("open_limit") == want_open
            and zd.get("zone_capacity_bytes") == z["cap"] and zd.get("sequential_zones") == seq,
            f"{role}: randwrite --force at the write pointers, {want_open} zones open, capacity {z['cap']}",
            f"rc {rc} {err.strip()[-200:]} {zd}")
    if rc == 0:
        unknown = [w for w in d.get("warnings", []) if "zone limits" in w]
        t.check(not unknown, f"{role}: sysfs gives the zone limits: no warning that they are unknown",
                "; ".join(unknown))
        resets, nbytes = zd["zone_resets"]["count"], d["result"]["bytes"]
        least = -(-nbytes // z["cap"]) - seq  # zones opened beyond the first of each
        t.check(resets >= least and (resets == 0 or zd["zone_resets"]["lat_ns"]["p50"] > 0),
                f"{role}: {nbytes} B written in {z['cap']} B zones took >= {least} timed resets ({resets})")
    mid = [x for x in blkzone_zones(runs[f"{role}.blkzone_mid"][1]) if not x[5]]
    rc, out, err = runs[f"{role}.seqwrite"]
    d = doc(runs, f"{role}.seqwrite")
    t.check(rc == 0 and d["result"]["bytes"] == seq * z["cap"],
            f"{role}: seqwrite --once wrote each zone's capacity once ({seq} x {z['cap']} B)",
            f"rc {rc} {err.strip()[-200:]}")
    if rc == 0:
        zd = d["result"]["zoned"]
        emptied = zd["zones_reset_before"] + zd["zone_resets"]["count"]
        nonempty = sum(1 for x in mid[:seq] if x[3] > 0)
        t.check(len(mid) >= seq and emptied == nonempty,
                f"{role}: every zone blkzone saw written was emptied once ({nonempty}: "
                f"{zd['zones_reset_before']} before, {zd['zone_resets']['count']} timed)", f"{emptied}")
        after = [x for x in blkzone_zones(runs[f"{role}.blkzone_after"][1]) if not x[5]][:seq]
        t.check(len(after) == seq and sum(x[3] for x in after) == d["result"]["bytes"]
                and all(x[4] for x in after),
                f"{role}: blkzone's write pointers hold what seqwrite says it wrote ({d['result']['bytes']} B), "
                f"every zone full", f"{after}")
    rc, out, err = runs[f"{role}.randread"]
    d = doc(runs, f"{role}.randread")
    want = z["conv"] * z["zone"] + seq * z["cap"]
    t.check(rc == 0 and d["result"]["zoned"]["readable_bytes"] == want and d["result"]["ios"] > 0,
            f"{role}: randread below the write pointers ({want} B readable)", f"rc {rc} {err.strip()[-200:]}")
    unused = [w for w in (d or {}).get("warnings", []) if "--max-open-zones 2: a read opens no zone" in w]
    t.check(bool(unused), f"{role}: randread says its --max-open-zones was not used",
            f"{(d or {}).get('warnings')}")
    rc, out, err = runs[f"{role}.refused_mix"]
    t.check(rc == 2 and "zoned" in err, f"{role}: randrw refused with the reason (exit {rc})", err.strip()[-200:])
    rc, out, err = runs[f"{role}.refused_open"]
    if z["max_open"]:
        t.check(rc == 2 and "--max-open-zones" in err,
                f"{role}: --max-open-zones above the device's {z['max_open']} refused (exit {rc})", err.strip()[-200:])
    else:
        d = doc(runs, f"{role}.refused_open")
        t.check(rc == 0 and d["result"]["zoned"]["open_limit"] == seq
                and not [w for w in d.get("warnings", []) if "so it was not used" in w],
                f"{role}: no open limit: --max-open-zones 64 runs, capped at the region's {seq} zones "
                f"(and used, so not said unused)", f"rc {rc} {err.strip()[-200:]}")
    rc, out, err = runs[f"{role}.sweep"]
    d = doc(runs, f"{role}.sweep")
    said = [w for w in (d or {}).get("warnings", []) if "zoned device: the reads cover" in w]
    t.check(rc == 0 and said, f"{role}: sweep reads below the write pointers and says so (exit {rc})",
            err.strip()[-200:])
    rc, out, err = runs[f"{role}.seqwrite_text"]
    cap = r" \(capacity 6\.0 MiB\)" if z["cap"] < z["zone"] else ""
    line = re.search(r"^  zoned \(host-managed\): 2 zones of 8\.0 MiB" + cap +
                     r", written at each write pointer: 1 open at once, one write in flight in each; "
                     r"(\d+) zone resets? \(timed, in the run\): p50 ", out, re.M)
    t.check(rc == 0 and line is not None and int(line.group(1)) == 2 - z["conv"],
            f"{role}: the text's zoned line: 2 zones, 1 open, {2 - z['conv']} written zone(s) reset",
            out.strip()[-300:])
    rc, out, err = runs[f"{role}.sla_write"]
    t.check(rc == 2 and "open loop (--rate, sla) of writes" in err,
            f"{role}: sla randwrite refused before its probe (exit {rc})", err.strip()[-200:])
    rc, out, err = runs[f"{role}.nop_write"]
    t.check(rc == 0, f"{role}: seqwrite --engine=nop runs without --force (exit {rc})", err.strip()[-200:])
    pre, post = runs[f"{role}.blkzone_pre44"][1], runs[f"{role}.blkzone_post44"][1]
    t.check(pre.strip() != "" and pre == post,
            f"{role}: sla's refusal and --engine=nop left every zone as it was (blkzone report)",
            f"before: {pre.strip()[:200]} after: {post.strip()[:200]}")
    w0, w1 = (runs[f"{role}.stat_{k}44"][1].split()[4:5] for k in ("pre", "post"))
    t.check(w0 != [] and w0 == w1, f"{role}: its write counter unchanged by them ({w0} -> {w1})")
    rc, out, err = runs[f"{role}.quick"]
    t.check(rc == 0, f"{role}: quick runs, reading below the write pointers (exit {rc})", err.strip()[-200:])
    dev = roles.get(role, "?")
    bad = [ln for ln in runs[f"{role}.dmesg"][1].splitlines()
           if dev in ln and re.search(r"error|Invalid|[Uu]naligned", ln)]
    t.check(not bad, f"{role}: no write error on {dev} in the kernel log", "; ".join(bad[-3:]))


def check_stack(t, runs):
    d = doc(runs, "dm_delay.info")
    if not d:
        t.check(False, "dm-delay: info ran")
        return
    stack = (d.get("result") or {}).get("stack", [])
    names = [n.get("name") for n in stack]
    t.check(len(stack) == 2 and stack[0].get("dm_name") == "labdelay" and names[1].startswith("nullb"),
            f"dm-delay: info's stack {names}, dm name labdelay over the nullb")
    d = doc(runs, "fs.info")
    if d:
        fs = d["result"]["fs"]
        top = d["result"]["device"]
        t.check(fs.get("type") == "ext2" and top.get("name") == runs.get("fs.dev", (0, "", ""))[1].strip(),
                f"fs: info on a mounted ext2 names it and the disk under it ({top.get('name')})")


NVME_UNIT = 512_000  # an NVMe data unit: 1000 blocks of 512 bytes


def health_disk(d, name):
    """The reading of disk name in a document's health object (info or a test)."""
    h = result_of(d).get("health") or {}
    rows = [x for x in h.get("disks", []) if x.get("name") == name]
    return h, (rows[0] if rows else {})


def num(v):
    """nvme-cli prints its 128-bit counters as strings."""
    return int(v) if isinstance(v, str) and v.isdigit() else v


def check_health_nvme(t, runs, roles, role):
    """info's health of an NVMe namespace against nvme smart-log in the same guest."""
    dev, peer = roles.get(role), doc(runs, role + ".smartlog")
    peer = {k: num(v) for k, v in (peer or {}).items()} if peer is not None else None
    h, disk = health_disk(doc(runs, role + ".info"), dev)
    if not t.check(peer is not None and disk.get("available") is True,
                   f"{role}: info reads the NVMe health log of /dev/{dev}", f"health {h}"):
        return
    pairs = [("critical_warning", peer.get("critical_warning")),
             ("temperature_c", peer.get("temperature") - 273 if peer.get("temperature") else None),
             ("available_spare_pct", peer.get("avail_spare")),
             ("spare_threshold_pct", peer.get("spare_thresh")),
             ("percentage_used", peer.get("percent_used")),
             ("media_errors", peer.get("media_errors")),
             ("power_on_hours", peer.get("power_on_hours")),
             ("unsafe_shutdowns", peer.get("unsafe_shutdowns")),
             ("host_read_bytes", peer.get("data_units_read", 0) * NVME_UNIT),
             ("host_written_bytes", peer.get("data_units_written", 0) * NVME_UNIT)]
    for key, want in pairs:
        t.check(want is not None and disk.get(key) == want, f"{role}: health {key} {want} as nvme smart-log",
                f"info {disk.get(key)!r}")


def check_health_warning(t, runs, roles):
    """The critical warning lab.sh injected on the ZNS controller (4) is a finding."""
    dev = roles.get("zns")
    h, disk = health_disk(doc(runs, "zns.info"), dev)
    t.check(disk.get("critical_warning") == 4, "zns: the injected critical warning 4 read back",
            f"health {disk}")
    d = doc(runs, "health_read.zns")
    t.check("health_warning" in findings_of(d), "zns: a run on it carries the health_warning finding",
            f"findings {findings_of(d)}")
    d = doc(runs, "health_write.nvme")
    t.check(d is not None and "health_warning" not in findings_of(d),
            "nvme: no health_warning on the controller without one")


def check_health_nvme_write(t, runs, roles):
    """result.health's delta of a write on NVMe against nvme smart-log before and after."""
    d = doc(runs, "health_write.nvme")
    before, after = doc(runs, "health_before.nvme"), doc(runs, "health_after.nvme")
    h, disk = health_disk(d, roles.get("nvme"))
    if not t.check(d is not None and before is not None and after is not None and "delta" in disk,
                   "nvme: seqwrite's result.health has a delta, nvme smart-log around it ran",
                   f"health {str(h)[:200]}"):
        return
    peer = (num(after["data_units_written"]) - num(before["data_units_written"])) * NVME_UNIT
    got = disk["delta"].get("host_written_bytes")
    t.check(got == peer, f"nvme: host bytes written in the run {got} as nvme smart-log's {peer}")
    run_bytes = h.get("run_bytes") or 0
    t.check(run_bytes > 0 and abs(peer - run_bytes) <= 2 * NVME_UNIT,
            f"nvme: the disk counted the run's {run_bytes} bytes written (within two data units)",
            f"nvme-cli {peer}")


MATRIX_WRITTEN = 3 * 4 << 20  # matrix.nvme: the 4 MiB file laid out, then written and rewritten


def check_health_matrix(t, runs, roles):
    """matrix's top-level health: its readings between nvme smart-log's, and
    the data units it saw written at least what the command wrote."""
    d = doc(runs, "matrix.nvme")
    before, after = doc(runs, "matrix_before.nvme"), doc(runs, "matrix_after.nvme")
    h = (d or {}).get("health") or {}
    rows = [x for x in h.get("disks", []) if x.get("name") == roles.get("nvme")]
    disk = rows[0] if rows else {}
    if not t.check(before is not None and after is not None and "delta" in disk,
                   "nvme: matrix's health has a reading before and after, nvme smart-log around it ran",
                   f"health {str(h)[:300]} error {(d or {}).get('error')}"):
        return
    cells = [c for c in d["result"]["cells"] if c["op"] in ("write", "rewrite")]
    t.check(len(cells) == 2 and all(c["bytes"] == 4 << 20 for c in cells),
            "nvme: matrix wrote both its cells whole", f"cells {cells}")
    lo, hi = num(before["data_units_written"]) * NVME_UNIT, num(after["data_units_written"]) * NVME_UNIT
    b, a = disk["before"]["host_written_bytes"], disk["host_written_bytes"]
    t.check(lo <= b <= a <= hi, f"nvme: matrix's readings {b} and {a} lie between nvme smart-log's {lo} and {hi}")
    got = disk["delta"]["host_written_bytes"]
    t.check(got >= MATRIX_WRITTEN - NVME_UNIT,
            f"nvme: the disk saw {got} bytes written over matrix, at least its {MATRIX_WRITTEN} (one data unit's rounding)")
    t.check(h.get("run_bytes") is not None and h["run_bytes"] >= MATRIX_WRITTEN and
            disk.get("run_bytes") == h["run_bytes"] and disk.get("host_vs_run") is not None,
            f"nvme: matrix's run_bytes {h.get('run_bytes')} hold its {MATRIX_WRITTEN}, the disk's share all of them",
            f"disk run_bytes {disk.get('run_bytes')} host_vs_run {disk.get('host_vs_run')}")


def ata_attr(smart, ident):
    for a in ((smart or {}).get("ata_smart_attributes") or {}).get("table", []):
        if a.get("id") == ident:
            return a.get("raw", {}).get("value")
    return None


def check_health_ata(t, runs, roles):
    """info's ATA SMART reading against smartctl -A in the same guest."""
    for role in ("sata_hdd", "sata_ssd"):
        smart = doc(runs, role + ".smartctl")
        h, disk = health_disk(doc(runs, role + ".info"), roles.get(role))
        if not t.check(disk.get("available") is True and disk.get("source") == "ata",
                       f"{role}: info reads ATA SMART over SG_IO", f"health {h}"):
            continue
        temp = (smart.get("temperature") or {}).get("current")
        hours = (smart.get("power_on_time") or {}).get("hours")
        t.check(temp is not None and disk.get("temperature_c") == temp,
                f"{role}: health temperature {temp} C as smartctl", f"info {disk.get('temperature_c')!r}")
        t.check(hours is not None and disk.get("power_on_hours") == hours,
                f"{role}: health power-on hours {hours} as smartctl", f"info {disk.get('power_on_hours')!r}")
        realloc = ata_attr(smart, 5)
        t.check(disk.get("reallocated_sectors") == realloc,
                f"{role}: health reallocated sectors {realloc} as smartctl's attribute 5",
                f"info {disk.get('reallocated_sectors')!r}")


def summary(runs, roles):
    """What each kind showed, as TAP comments: the table for the CI log."""
    print("# kind       | dev     | transport | link                 | rotational/rpm | zoned        | health       | quick's verdict")
    for role in TRUTH:
        d = doc(runs, role + ".info")
        if not d:
            continue
        n = d["result"]["device"]
        link = n.get("link") or {}
        ltxt = " ".join(str(x) for x in (link.get("kind"), link.get("speed") or "",
                                         f"x{link['width']}" if link.get("width") else "") if x)
        h, disk = health_disk(d, roles.get(role))
        htxt = (f"{disk.get('source')} {disk.get('temperature_c')} C"
                + (f" cw={disk.get('critical_warning')}" if disk.get("critical_warning") else "")
                if disk.get("available") else "none")
        q = doc(runs, role + ".quick") or {}
        line = ((q.get("result") or {}).get("verdict") or q.get("verdict") or {}).get("line", "")
        print(f"# {role:<10} | {roles.get(role, ''):<7} | {str(n.get('transport')):<9} | {ltxt:<20} | "
              f"{str(n.get('rotational'))}/{n.get('rpm')} | {str(n.get('zoned')):<12} | {htxt:<12} | "
              f"{line.split(' (seq read')[0][:90]}")


def guarded(t, what, fn, *args):
    """A check whose input is not what it expects fails, and the rest go on."""
    try:
        fn(t, *args)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        t.check(False, f"{what}: the guest's output has what the check reads", repr(e))


def main():
    runs, roles, notes, done = parse(sys.argv[1])
    t = Tap()
    for n in notes:
        print(f"# guest: {n}")
    t.check(done, "the guest ran to its end")
    for role in TRUTH:
        t.check(role in roles, f"{role}: found in the guest" + (f" as /dev/{roles[role]}" if role in roles else ""))
    for role, dev in roles.items():
        if role in TRUTH:
            guarded(t, role, check_identity, runs, role, dev)
            guarded(t, role, check_link, runs, role)
    guarded(t, "nvme list", check_nvme_list, runs, roles)
    for role in ("nvme", "sata_hdd", "sata_ssd", "scsi_hdd", "usb", "capped"):
        if role in roles:
            guarded(t, role, check_quick, runs, role)
    guarded(t, "null", check_quick_ram, runs)
    guarded(t, "capped", check_cap, runs)
    guarded(t, "burst", check_burst, runs)
    guarded(t, "dm-delay", check_delay, runs)
    guarded(t, "dm-flakey", check_flakey, runs, roles)
    accel = next((n.split("accel=")[1].split()[0] for n in notes if "accel=" in n), "")
    guarded(t, "open loop", check_open_loop, runs, accel)
    guarded(t, "poll", check_poll, runs)
    for role in ("zns", "null_zoned"):
        guarded(t, role, check_zoned, runs, role, roles)
    guarded(t, "stack", check_stack, runs)
    for role in ("nvme", "zns"):
        guarded(t, role, check_health_nvme, runs, roles, role)
    guarded(t, "health warning", check_health_warning, runs, roles)
    guarded(t, "nvme write", check_health_nvme_write, runs, roles)
    guarded(t, "nvme matrix", check_health_matrix, runs, roles)
    guarded(t, "ata", check_health_ata, runs, roles)
    guarded(t, "capacity", check_capacity, runs, roles)
    guarded(t, "capacity verify", check_verify_wrap, runs, roles)  # issue 42
    guarded(t, "data verification", check_verify.check_all, runs, doc)  # issue 42
    summary(runs, roles)
    return t.close()


if __name__ == "__main__":
    sys.exit(main())
