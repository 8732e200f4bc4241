#!/usr/bin/env bash
# perf-lab.sh - perf.sh's question on null_blk, in the lab's qemu guest (issue 32)
#
# Usage:  sudo T_IO_URING=/path/to/static/t/io_uring bench/perf-lab.sh [DISKBENCH_STATIC]
#         (default ./diskbench-static: make static)
# Env:    REPS=3  RUNTIME=3 (seconds per run)  DEPTHS="1 8 32 128"
#         LAB_ACCEL=kvm where /dev/kvm works (tests/lab/lab.sh; default tcg)
#
# The rows of perf.sh that need no fio: diskbench's default against t/io_uring
# (and --engine=nop, diskbench's own ceiling; t/io_uring -N1 is left out, the
# lab's kernel refuses its NOPs), 4 KiB random reads at each depth, on a 1 GiB
# null_blk device without memory behind it (bench/perf-lab-guest.sh),
# interleaved, one CPU.  The guest is the lab's (tests/lab/lab.sh: Debian's
# kernel, a busybox initramfs), booted with this job as its /init.
#
# Under TCG (no KVM) every instruction is emulated, the kernel's and each
# tool's alike: the ratios say how much work each tool does per I/O beside the
# other on the same emulated CPU, not what either drives on real hardware.
#
# t/io_uring is in fio's source tree; built static for the guest:
#   git clone https://github.com/axboe/fio /tmp/fio-src
#   cd /tmp/fio-src && ./configure --disable-native && make t/io_uring LDFLAGS=-static
#
# Safety: everything it writes is in the lab's mktemp -d directory (sparse
# 64 MiB images for the lab's other disks, never read here), removed on exit;
# the guest reads null_blk only.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$(realpath -- "${1:-./diskbench-static}")
REPS=${REPS:-3}
RUNTIME=${RUNTIME:-3}
DEPTHS=${DEPTHS:-1 8 32 128}
die() { echo "perf-lab.sh: $*" >&2; exit 1; }
[[ -n ${T_IO_URING:-} && -x $T_IO_URING ]] ||
	die "T_IO_URING= a static t/io_uring (see the comment at the top for how to build it)"
[[ $REPS =~ ^[1-9][0-9]*$ && $RUNTIME =~ ^[1-9][0-9]*$ && $DEPTHS =~ ^[0-9\ ]+$ ]] ||
	die "REPS and RUNTIME are positive integers, DEPTHS numbers"
ndepths=$(wc -w <<<"$DEPTHS")
export LAB_GUEST=$here/perf-lab-guest.sh LAB_CHECK=$here/perf-lab.py
LAB_ADD=$(realpath -- "$T_IO_URING")
LAB_GUEST_ENV="PERF_REPS=$REPS PERF_RUNTIME=$RUNTIME PERF_DEPTHS=${DEPTHS// /,}"
# three runs of about RUNTIME + 2 s per depth and repetition, and the boot; twice that
LAB_TIMEOUT=$(((REPS * ndepths * 3 * (RUNTIME + 2) + 120) * 2))
export LAB_ADD LAB_GUEST_ENV LAB_TIMEOUT
echo "# perf-lab.sh $(date -u +%Y-%m-%dT%H:%M:%SZ), host $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# diskbench $("$bin" --version 2>/dev/null | head -1) ($bin); t/io_uring $LAB_ADD"
echo "# REPS=$REPS RUNTIME=$RUNTIME DEPTHS=\"$DEPTHS\"; guest timeout $LAB_TIMEOUT s"
exec bash "$here/../tests/lab/lab.sh" "$bin"
