#!/usr/bin/env python3
"""Runs a command where io_uring_setup and io_setup fail with EPERM, as under
Docker's default seccomp profile: auto's engine is then sync.

    python3 tests/cli/noasync.py COMMAND [ARGS...]

The filter (seccomp, after PR_SET_NO_NEW_PRIVS, so no privilege is needed)
is installed in this process and kept across the exec.  Exit status 77: this
machine's architecture is not one whose system call numbers are known here,
or the kernel refused the filter (the caller skips)."""
import ctypes
import os
import platform
import struct
import sys

# io_uring_setup is 425 on every architecture (the unified table); io_setup
# has the old numbers
NRS = {"x86_64": (425, 206), "aarch64": (425, 0)}
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO, EPERM = 0x7FFF0000, 0x00050000, 1
BPF_LD_W_ABS, BPF_JEQ_K, BPF_RET_K = 0x20, 0x15, 0x06


def insn(code, jt, jf, k):
    return struct.pack("HBBI", code, jt, jf, k)


def main():
    if len(sys.argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    nrs = NRS.get(platform.machine())
    if not nrs:
        sys.stderr.write("noasync: no system call numbers for %s\n" % platform.machine())
        return 77
    prog = insn(BPF_LD_W_ABS, 0, 0, 0)  # seccomp_data.nr
    for i, nr in enumerate(nrs):
        prog += insn(BPF_JEQ_K, len(nrs) - i, 0, nr)
    prog += insn(BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW)
    prog += insn(BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM)
    buf = ctypes.create_string_buffer(prog, len(prog))

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Fprog(len(prog) // 8, ctypes.addressof(buf))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong,
                           ctypes.c_ulong]
    if (libc.prctl(PR_SET_NO_NEW_PRIVS, 1, None, 0, 0) != 0 or
            libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0):
        sys.stderr.write("noasync: seccomp refused: %s\n" % os.strerror(ctypes.get_errno()))
        return 77
    os.execvp(sys.argv[1], sys.argv[1:])
    return 127


if __name__ == "__main__":
    sys.exit(main())
