"""Runs a command where io_uring_setup(2) and io_setup(2) fail with EPERM, as under a
container's seccomp profile (Docker's default refuses io_uring): diskbench's `auto`
engine then falls back to the sync engine, for this process alone, without touching
kernel.io_uring_disabled or fs.aio-max-nr, which every process on the machine shares.

    python3 tests/cli/nouring.py COMMAND [ARG...]

Exit status 125 when no filter can be installed here (an architecture it does not
know, or no seccomp); the caller skips.
"""
import ctypes
import os
import platform
import struct
import sys

# (AUDIT_ARCH_*, io_setup, io_uring_setup) by machine
ARCHES = {"x86_64": (0xC000003E, 206, 425), "aarch64": (0xC00000B7, 0, 425)}
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
RET_ALLOW, RET_ERRNO, EPERM = 0x7FFF0000, 0x00050000, 1
LD_W_ABS, JEQ_K, RET_K = 0x20, 0x15, 0x06


def insn(code, jt, jf, k):
    return struct.pack("HBBI", code, jt, jf, k)


def install():
    arch = ARCHES.get(platform.machine())
    if not arch:
        return False
    audit, io_setup, io_uring_setup = arch
    prog = b"".join([
        insn(LD_W_ABS, 0, 0, 4),               # seccomp_data.arch
        insn(JEQ_K, 1, 0, audit),
        insn(RET_K, 0, 0, RET_ALLOW),          # another ABI: let it be
        insn(LD_W_ABS, 0, 0, 0),               # seccomp_data.nr
        insn(JEQ_K, 2, 0, io_setup),
        insn(JEQ_K, 1, 0, io_uring_setup),
        insn(RET_K, 0, 0, RET_ALLOW),
        insn(RET_K, 0, 0, RET_ERRNO | EPERM),
    ])
    buf = ctypes.create_string_buffer(prog)
    fprog = struct.pack("HxxxxxxQ", len(prog) // 8, ctypes.addressof(buf))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong,
                           ctypes.c_ulong]
    fbuf = ctypes.create_string_buffer(fprog)
    return (libc.prctl(PR_SET_NO_NEW_PRIVS, 1, None, 0, 0) == 0 and
            libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fbuf), 0, 0) == 0)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: nouring.py COMMAND [ARG...]")
    if not install():
        sys.exit(125)
    os.execvp(sys.argv[1], sys.argv[1:])
