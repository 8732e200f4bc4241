#!/usr/bin/env python3
"""What a disk image holds against a witness of diskbench's --witness,
read here from the bytes themselves (not by diskbench), for the lab's
power-cut and lying-disk checks (tests/lab/check_verify.py).

The layout is blockhdr.h's, read from its comment: the magic DBVERIFY,
version 1 (u32 at 8), the block's offset at 16, the run at 24, the
generation at 32 (u64, little-endian); at each later 512-byte sector a tag,
(((offset + place) ^ run) * 0x9e3779b97f4a7c15) ^ generation.  For each
block the witness lists, acknowledged at generation A:
  good       the header names this block and run at A or later, and every
             sector's tag that generation (the whole write is there);
  in_flight  else some part of it holds a generation newer than A: a later
             write nobody was promised, cut in the middle;
  bad        else: the acknowledged write is missing, or only part of it.
The CRC is left to diskbench: a change inside a sector only it can see.
Prints one JSON object: run, bs, region, lines, acked_blocks, good,
in_flight, bad (offsets, in order).
usage: witness_truth.py IMAGE WITNESS
"""
import json
import struct
import sys

MUL = 0x9E3779B97F4A7C15
MAX_GEN = 0x7FFFFFFF


def read_witness(path):
    run = bs = region = None
    acked, lines = {}, 0
    with open(path, "rb") as f:
        data = f.read()
    for raw in data.split(b"\n")[:-1]:  # the last piece has no newline: cut
        line = raw.rstrip(b"\r").decode("ascii", "replace")
        if line.startswith("# diskbench witness 1 "):
            fields = dict(w.split("=", 1) for w in line.split()[4:] if "=" in w)
            run, bs, region = int(fields["run"], 16), int(fields["bs"]), int(fields["region"])
            acked, lines = {}, 0
        elif line.startswith("w ") and run is not None:
            _, off, gen = line.split()
            acked[int(off)] = max(acked.get(int(off), 0), int(gen))
            lines += 1
    return run, bs, region, acked, lines


def judge(block, off, run, bs, want):
    header = None
    if block[:8] == b"DBVERIFY" and struct.unpack_from("<I", block, 8)[0] == 1:
        hoff, hrun, hgen = struct.unpack_from("<QQQ", block, 16)
        if hoff == off and hrun == run:
            header = hgen
    tags = []
    for at in range(512, bs - 7, 512):
        tag = struct.unpack_from("<Q", block, at)[0]
        tags.append(tag ^ ((((off + at) ^ run) * MUL) & 0xFFFFFFFFFFFFFFFF))
    if header is not None and header >= want and all(g == header for g in tags):
        return "good"
    newest = max([g for g in tags if g <= MAX_GEN] + [header if header is not None else 0])
    return "in_flight" if newest > want else "bad"


def main():
    run, bs, region, acked, lines = read_witness(sys.argv[2])
    out = {"run": "%016x" % run if run is not None else None, "bs": bs, "region": region,
           "lines": lines, "acked_blocks": len(acked), "good": 0, "in_flight": 0, "bad": []}
    with open(sys.argv[1], "rb") as img:
        for off in sorted(acked):
            img.seek(off)
            what = judge(img.read(bs).ljust(bs, b"\0"), off, run, bs, acked[off])
            if what == "bad":
                out["bad"].append(off)
            else:
                out[what] += 1
    print(json.dumps(out))


if __name__ == "__main__":
    main()
