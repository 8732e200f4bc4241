#!/usr/bin/env bash
# End-to-end tests of the commands built on the core: sweep, info, quick.
#
#   bash tests/cli/commands.sh ./diskbench      (part of `make cli`)
#
# Writes only inside a scratch directory under /var/tmp (mktemp -d), a tmpfs it
# mounts there and a read-only loop device over a file there; a trap removes
# all of it, also when a case fails or the run is interrupted.
# Output: `ok N - name` / `not ok N - name`, then `N passed, M failed, K skipped`.
set -u

DB=$(realpath -- "${1:?usage: commands.sh PATH/TO/diskbench}") || exit 2
S=$(mktemp -d -p /var/tmp diskbench-cmds.XXXXXX) || exit 2
LOOP=""; MNT=""
cleanup() {
	[ -n "$MNT" ] && { umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null; }
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -rf -- "$S"
}
trap cleanup EXIT
trap 'cleanup; trap - EXIT; exit 130' INT TERM

. "$(dirname "$0")/tap.sh"
TAP_ERR_BYTES=400


D="$S/dir"; mkdir -p "$D"

# ---- sweep ---------------------------------------------------------------------
check "sweep: small file, short points, a few levels" 0 sweep -s 16M --point-time 0.3 --levels 1,2 --large-levels 1,2 "$D"
if grep -q '^max IOPS: .* @ [0-9]* outstanding' "$S/out" && grep -q '^knee: ' "$S/out" &&
	grep -q '^min latency: ' "$S/out" && grep -q '^max MB/s: ' "$S/out"; then
	ok "sweep text: max IOPS, min latency, knee and max MB/s lines"
else
	not_ok "sweep text: max IOPS, min latency, knee and max MB/s lines" "$(cat "$S/out")"
fi
no_leftovers "$D" "sweep removes its file"
check "sweep --json, one point a series" 0 sweep -s 16M --point-time 0.3 --levels 1 --large-levels 1 --json "$D"
health_case "sweep: health read around the points, as info reads the disks" "$D"
py "sweep: no bytes to compare the disks with, and why" '
h = d["health"]
assert not h["available"] or (h["run_bytes"] is None and "ramp-up is not counted" in h["run_bytes_why"]), h'

check "sweep --json" 0 sweep -s 16M --point-time 0.3 --levels 1,2,4 --large-levels 1 --max-latency 10ms --json "$D"
py "sweep JSON: series, points consistent with the summary" '
d = json.loads(out)
assert d["schema"] == 1 and d["test"] == "sweep", d.get("test")
series = d["result"]["series"]
assert [s["workload"] for s in series] == ["small_random_read", "large_seq_read"], series
small = series[0]
pts = small["points"]
assert [p["outstanding"] for p in pts] == [1, 2, 4][:len(pts)] and len(pts) >= 2, pts
for p in pts:
    assert p["ios"] == p["samples"] > 0
    assert abs(p["iops"] * p["seconds"] - p["ios"]) <= 1, p
    assert p["bytes"] == p["ios"] * 4096
    assert p["lat_ns"]["min"] <= p["lat_ns"]["p50"] <= p["lat_ns"]["p99"] <= p["lat_ns"]["max"]
    assert sum(b["count"] for b in p["lat_hist"]) == p["ios"]
best = max(pts, key=lambda p: p["iops"])
assert small["max_iops"]["outstanding"] == best["outstanding"]
fast = min(pts, key=lambda p: p["lat_ns"]["mean"])
assert small["min_latency"]["outstanding"] == fast["outstanding"]
knee = max(pts, key=lambda p: p["iops"] / p["lat_ns"]["mean"])
assert small["knee"]["outstanding"] == knee["outstanding"]
assert "max_iops_within_latency" in small
assert series[1]["max_bytes_per_sec"]["outstanding"] == 1
'
check "sweep --csv" 0 sweep -s 16M --point-time 0.3 --levels 1,2 --run oltp --csv "$D"
py "sweep CSV: one row per point, contract columns" '
rows = list(csv.DictReader(out.splitlines()))
assert len(rows) == 2, rows
for k in "test,target,block_size,bytes,seconds,bytes_per_sec,iops,lat_p50_ns,lat_p99_ns,workload,outstanding".split(","):
    assert k in rows[0], k
assert [r["outstanding"] for r in rows] == ["1", "2"]
'
check "sweep --run dss --levels 1,2: large series only" 0 sweep -s 16M --point-time 0.3 --run dss --levels 1,2 --json "$D"
py "sweep dss JSON: one large series with levels 1,2" '
s = json.loads(out)["result"]["series"]
assert len(s) == 1 and s[0]["workload"] == "large_seq_read" and s[0]["levels"] == [1, 2], s
'
check "sweep --budget 4 shortens points and drops levels" 0 sweep -s 16M --budget 4 --json "$D"
py "sweep --budget 4: warnings say what was dropped, time kept" '
d = json.loads(out)
w = " ".join(d["warnings"])
assert "budget" in w and "dropped" in w, w
total = sum(p["seconds"] for s in d["result"]["series"] for p in s["points"])
assert total <= 4.0, total
'
check "sweep --budget 2 cannot hold one point per series: usage error" 2 sweep -s 16M --budget 2 "$D"
for bad in "--levels 0" "--levels 1,,2" "--levels 4,2" "--budget 0" "--write 150" "--point-time -1" "--max-latency 1parsec" "--run bogus"; do
	# shellcheck disable=SC2086
	if run 2 sweep $bad "$D" && grep -q '^diskbench: ' "$S/err"; then ok "sweep $bad: usage error"; else not_ok "sweep $bad: usage error" "exit $rc" "$(cat "$S/err")"; fi
done
printf 'keep me' >"$S/existing"
if run 3 sweep --write 30 --point-time 0.2 --levels 1 --run oltp "$S/existing" && [ "$(cat "$S/existing")" = "keep me" ]; then
	ok "sweep --write on an existing file without --force: refused (3), file unchanged"
else
	not_ok "sweep --write on an existing file without --force: refused (3), file unchanged" "exit $rc"
fi
check "sweep --write 30 on its own file" 0 sweep -s 16M --write 30 --point-time 0.3 --levels 1,2 --run oltp --json "$D"
py "sweep --write 30: about 30 % writes" '
p = json.loads(out)["result"]["series"][0]["points"]
w = sum(x["writes"] for x in p); n = sum(x["ios"] for x in p)
assert 0.15 < w / n < 0.45, (w, n)
'
"$DB" sweep -s 32M --point-time 5 --levels 1,2,4 "$D" >/dev/null 2>"$S/err" &
pid=$!
sleep 1.5
kill -INT "$pid"
wait "$pid"; rc=$?
if [ "$rc" = 130 ]; then ok "sweep: SIGINT gives exit 130"; else not_ok "sweep: SIGINT gives exit 130" "exit $rc"; fi
no_leftovers "$D" "sweep: SIGINT leaves no file behind"

# ---- info ----------------------------------------------------------------------
check "info on a directory" 0 info "$D"
if grep -q "dir on " "$S/out" && grep -q '^device: ' "$S/out"; then ok "info text: filesystem and device lines"; else not_ok "info text: filesystem and device lines" "$(cat "$S/out")"; fi
check "info --json on a directory" 0 info --json "$D"
py "info JSON: fs, device, stack, leaves" '
d = json.loads(out)
r = d["result"]
for k in ("fs", "device", "stack", "leaves"):
    assert k in r, k
assert r["fs"]["type"], r["fs"]
assert r["device"] is None or r["device"]["name"]
'
# A chroot or container without sysfs: info finds the filesystem, no device.
have_sysfs=0
[ -d /sys/dev/block ] && have_sysfs=1
check "info --csv" 0 info --csv "$D"
if [ $have_sysfs = 1 ]; then
	py "info CSV: header and a row per device" '
rows = list(csv.DictReader(out.splitlines()))
assert rows and "name" in rows[0] and "transport" in rows[0], out
# virtio and xen disks are virtual whatever else sysfs says: their column names them
for r in rows:
    if r["kind"] == "disk" and r["transport"] in ("virtio", "xen"):
        assert r["virtual_kind"] in ("virtio-blk", "virtio-scsi", "Xen blkfront"), r
    if r["kind"] in ("dm", "md", "loop"):  # no hypervisor presents these; a partition is its disk
        assert r["virtual_kind"] == "", r
'
else
	py "info CSV without sysfs: the header, no device row" '
lines = out.splitlines()
assert len(lines) == 1 and "transport" in lines[0].split(","), out
'
fi
check "info on a file" 0 info --json "$0"
check "info on a missing path: usage error" 2 info /nonexistent/diskbench/path
check "every test's JSON carries a device key" 0 seqwrite -s 4M --json "$D"
py "seqwrite JSON: device key" '
d = json.loads(out)
assert "device" in d, d.keys()
'

have_tmpfs=0
MNT="$S/tmpfs"; mkdir -p "$MNT"
if mount -t tmpfs -o size=96m tmpfs "$MNT" 2>/dev/null; then have_tmpfs=1; else MNT=""; fi
if [ $have_tmpfs = 1 ]; then
	check "info on tmpfs" 0 info --json "$MNT"
	py "info on tmpfs: class ram" 'assert json.loads(out)["result"]["fs"]["class"] == "ram"'
	check "sweep --json on tmpfs" 0 sweep -s 16M --point-time 0.3 --levels 1 --large-levels 1 --no-direct --json "$MNT"
	health_case "sweep on tmpfs: health says there is no disk" "$MNT" "no disk under the target"
else
	skip "info on tmpfs" "cannot mount tmpfs here"
	skip "info on tmpfs: class ram" "cannot mount tmpfs here"
	skip "sweep --json on tmpfs" "cannot mount tmpfs here"
	skip "sweep on tmpfs: health says there is no disk" "cannot mount tmpfs here"
fi

truncate -s 32M "$S/loop.img"
if command -v losetup >/dev/null && LOOP=$(losetup -r -f --show "$S/loop.img" 2>/dev/null); then
	check "info on a loop device" 0 info --json "$LOOP"
	if [ $have_sysfs = 1 ]; then
		py "info on a loop device: kind loop, backing file" '
dev = json.loads(out)["result"]["device"]
assert dev["kind"] == "loop" and dev["backing_file"].endswith("loop.img"), dev
'
	else
		py "info on a loop device without sysfs: no device, the reason" '
r = json.loads(out)["result"]
assert r["device"] is None and "no sysfs entry for block device 7:" in r["fs"]["note"], r
'
	fi
else
	LOOP=""
	skip "info on a loop device" "no loop device"
	skip "info on a loop device: kind loop, backing file" "no loop device"
fi

# ---- quick ---------------------------------------------------------------------
check "quick on a directory, shortened with -t" 0 quick -t 3 -s 32M "$D"
if grep -q '^looks like: ' "$S/out" && grep -Eq 'RND4K Q(32T1|1T32) write' "$S/out"; then
	ok "quick text: steps incl. writes on its own file, and a verdict"
else
	not_ok "quick text: steps incl. writes on its own file, and a verdict" "$(cat "$S/out")"
fi
no_leftovers "$D" "quick removes its file"
check "quick --json" 0 quick -t 3 -s 32M --json "$D"
py "quick JSON: tests, device, verdict" '
d = json.loads(out)
assert d["test"] == "quick"
tests = d["tests"]
assert [t["test"] for t in tests] == ["seqread", "seqread", "randread", "randread", "seqwrite", "seqwrite", "randwrite", "randwrite", "seqwrite"], [t["test"] for t in tests]
assert tests[2]["params"]["threads"] * tests[2]["params"]["qd"] == 32 and tests[4]["params"]["block_size"] == 1048576
for t in tests:
    r = t["result"]
    assert r["ios"] > 0 and r["bytes"] == r["ios"] * t["params"]["block_size"]
v = d["verdict"]
classes = {"usb2": "USB 2.0 flash", "usb3_flash": "USB 3 flash", "hdd": "HDD", "hdd_15k": "15k rpm HDD",
           "sata_ssd": "SATA SSD", "nvme_gen3": "NVMe PCIe 3.0", "nvme_gen4": "NVMe PCIe 4.0",
           "nvme_gen5": "NVMe PCIe 5.0", "ssd": "SSD", "cloud_block": "cloud block volume", "ram": "RAM"}
assert v["line"].startswith("looks like: "), v
if v["fit"] in ("host_cache", "cache"):  # memory-speed figures a cache served: no class
    assert v["class"] is None and v["label"] is None, v
else:
    assert v["class"] in classes and v["label"] == classes[v["class"]], v
    assert classes[v["class"]] in v["line"], v
    assert v["class"] != "ram", v  # a disk-backed directory is not memory
if d["device"].get("virtual"):  # this VM: the hypervisor named, no PCIe generation
    assert v["prefix"] == "virtual disk: " and v["virtual_kind"] == d["device"]["virtual_kind"], v
    assert "through a hypervisor" in v["line"] and "PCIe" not in v["line"], v
    assert v["class"] in (None, "hdd", "ssd", "cloud_block"), v
assert "device" in d
assert sum(t["params"]["time_limit_s"] for t in tests) <= 3.01
'
py "quick JSON: the dd step (8 KiB, O_DSYNC, one at a time) and its figure from its bytes and seconds" '
d = json.loads(out)
t = d["tests"][8]
p, r = t["params"], t["result"]
assert p["block_size"] == 8192 and p["sync"] == "dsync" and p["qd"] * p["threads"] == 1, p
assert r["ios"] > 0 and r["bytes"] == r["ios"] * 8192, r
want = r["bytes"] / r["seconds"]
dd = d["dd"]
assert dd["block_size"] == 8192 and dd["oflag"] == "dsync", dd
# JSON gives seconds to the microsecond: the ratio is known to 1 us over the seconds
tol = 1e-6 / r["seconds"]
assert abs(dd["write_bytes_per_sec"] - want) <= tol * want + 0.1, (dd, want)
assert abs(dd["write_iops"] - r["ios"] / r["seconds"]) <= tol * dd["write_iops"] + 0.01, dd
# the device took at least what the step wrote: O_DSYNC writes reach it
for dev in r.get("device_io") or []:
    assert dev["write_bytes"] >= r["bytes"], (dev, r["bytes"])
'
# on an existing file: its read steps alone (the write steps' flush check is issue 44's
# defect 3, which the option matrix holds)
dd if=/dev/urandom of="$S/nop.data" bs=1M count=8 status=none
check "quick --engine=nop" 0 quick --engine=nop -t 0.5 --json "$S/nop.data"
py "quick --engine=nop: no device class from NOPs, the line says why" '
v = d["verdict"]
assert v["class"] is None and v["label"] is None and v["or"] is None and v["fit"] == "nop", v
assert v["line"].startswith("looks like: no device: --engine=nop sent io_uring NOPs"), v
assert all(t["params"]["engine"] == "nop" for t in d["tests"]), [t["params"]["engine"] for t in d["tests"]]
'
check "quick --csv" 0 quick -t 2 -s 16M --csv "$D"
py "quick CSV: a row per step, the dd step last" '
rows = list(csv.DictReader(out.splitlines()))
assert len(rows) == 9, rows
dd = rows[8]
assert dd["test"] == "seqwrite" and dd["block_size"] == "8192", dd
assert abs(float(dd["bytes_per_sec"]) - float(dd["bytes"]) / float(dd["seconds"])) <= 0.001 * float(dd["bytes_per_sec"]) + 1, dd
'
dd if=/dev/urandom of="$S/data" bs=1M count=16 status=none
check "quick on an existing file: reads only, the file unchanged" 0 quick -t 2 --json "$S/data"
py "quick on a file: no write steps" '
t = [x["test"] for x in json.loads(out)["tests"]]
assert t == ["seqread", "seqread", "randread", "randread"], t
'
if [ -n "$LOOP" ]; then
	check "quick on a read-only loop device: reads only" 0 quick -t 2 --json "$LOOP"
	py "quick on a device: no write steps" '
t = [x["test"] for x in json.loads(out)["tests"]]
assert t == ["seqread", "seqread", "randread", "randread"], t
'
fi
if [ $have_tmpfs = 1 ]; then
	check "quick on tmpfs" 0 quick -t 2 -s 16M --json "$MNT"
	py "quick on tmpfs: RAM verdict and warning" '
d = json.loads(out)
assert d["verdict"]["class"] == "ram", d["verdict"]
assert any("RAM" in w for w in d["warnings"]), d["warnings"]
'
fi
"$DB" quick -t 20 -s 64M "$D" >/dev/null 2>"$S/err" &
pid=$!
sleep 2
kill -INT "$pid"
wait "$pid"; rc=$?
if [ "$rc" = 130 ]; then ok "quick: SIGINT gives exit 130"; else not_ok "quick: SIGINT gives exit 130" "exit $rc"; fi
no_leftovers "$D" "quick: SIGINT leaves no file behind"

for t in seqwrite seqread buffered cached randread randwrite sweep info quick verify; do
	missing=""
	for o in $("$DB" help "$t" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		# the option as the man page writes it (--name or \-\-name), not a bare word
		grep -Eq -- "(--|\\\\-\\\\-)${o#--}([^a-z-]|\$)" "$(dirname "$0")/../../man/diskbench.1" ||
			missing="$missing $o"
	done
	if [ -z "$missing" ]; then ok "man page documents every option of $t"; else not_ok "man page documents every option of $t" "missing:$missing"; fi
done

tap_done
