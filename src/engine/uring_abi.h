/* The io_uring kernel ABI the io_uring engine uses, from <linux/io_uring.h>
 * where the system has it, else declared here; the opcodes, register
 * operations and structures it names itself (stable ABI numbers).  Only
 * the engine's files include it, through uring_int.h. */
#ifndef URING_ABI_H
#define URING_ABI_H

#include <stdint.h>

#if defined(__has_include)
#if __has_include(<linux/io_uring.h>)
#include <linux/io_uring.h>
#define HAVE_LINUX_IO_URING_H 1
#endif
#endif

#ifndef HAVE_LINUX_IO_URING_H
/* The kernel ABI (uapi <linux/io_uring.h>, "GPL-2.0 WITH Linux-syscall-note
 * OR MIT"), only what this file uses, for systems without the header. */
struct io_uring_sqe {
	uint8_t opcode, flags;
	uint16_t ioprio;
	int32_t fd;
	uint64_t off, addr;
	uint32_t len, rw_flags;
	uint64_t user_data;
	uint16_t buf_index, personality;
	int32_t splice_fd_in;
	uint64_t addr3, pad2;
};
struct io_uring_cqe {
	uint64_t user_data;
	int32_t res;
	uint32_t flags;
};
struct io_sqring_offsets {
	uint32_t head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
	uint64_t resv2;
};
struct io_cqring_offsets {
	uint32_t head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
	uint64_t resv2;
};
struct io_uring_params {
	uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle, features, wq_fd;
	uint32_t resv[3];
	struct io_sqring_offsets sq_off;
	struct io_cqring_offsets cq_off;
};
#endif

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
#ifndef __NR_io_uring_enter
#define __NR_io_uring_enter 426
#endif
#ifndef __NR_io_uring_register
#define __NR_io_uring_register 427
#endif
#ifndef IORING_OFF_SQ_RING
#define IORING_OFF_SQ_RING 0ULL
#define IORING_OFF_CQ_RING 0x8000000ULL
#define IORING_OFF_SQES 0x10000000ULL
#endif
#ifndef IORING_ENTER_GETEVENTS
#define IORING_ENTER_GETEVENTS (1U << 0)
#endif
#ifndef IORING_ENTER_REGISTERED_RING
#define IORING_ENTER_REGISTERED_RING (1U << 4)
#endif
#ifndef IORING_FEAT_SINGLE_MMAP
#define IORING_FEAT_SINGLE_MMAP (1U << 0)
#endif
#ifndef IOSQE_FIXED_FILE
#define IOSQE_FIXED_FILE (1U << 0)
#endif
#ifndef IORING_SETUP_SUBMIT_ALL
#define IORING_SETUP_SUBMIT_ALL (1U << 7)
#endif
#ifndef IORING_ENTER_EXT_ARG
#define IORING_ENTER_EXT_ARG (1U << 3)
#endif
#ifndef IORING_FEAT_EXT_ARG
#define IORING_FEAT_EXT_ARG (1U << 8)
#endif
#ifndef IORING_SETUP_COOP_TASKRUN
#define IORING_SETUP_COOP_TASKRUN (1U << 8)
#endif
#ifndef IORING_SETUP_SINGLE_ISSUER
#define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
#define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif
#ifndef IORING_SETUP_IOPOLL
#define IORING_SETUP_IOPOLL (1U << 0)
#endif
#ifndef IORING_SETUP_SQPOLL
#define IORING_SETUP_SQPOLL (1U << 1)
#endif
#ifndef IORING_SQ_NEED_WAKEUP
#define IORING_SQ_NEED_WAKEUP (1U << 0)
#endif
#ifndef IORING_ENTER_SQ_WAKEUP
#define IORING_ENTER_SQ_WAKEUP (1U << 1)
#endif
#ifndef IORING_SETUP_NO_SQARRAY
#define IORING_SETUP_NO_SQARRAY (1U << 16)
#endif

/* Opcodes and register operations are enums in the header, which #ifndef
 * cannot see, so they get names of their own (stable ABI numbers). */
enum {
	RING_OP_NOP = 0,
	RING_OP_READ_FIXED = 4,
	RING_OP_WRITE_FIXED = 5,
	RING_OP_FALLOCATE = 17, /* 5.6 */
	RING_OP_READ = 22,  /* 5.6 */
	RING_OP_WRITE = 23,
	RING_OP_URING_CMD = 46, /* 5.19; block devices' discard: 6.12 */
	RING_REGISTER_BUFFERS = 0,
	RING_REGISTER_FILES = 2,
	/* before closing a ring: closing drops its registered files only in the
	 * kernel's teardown of the ring (a workqueue, after the process may have
	 * exited), and until then a device stays claimed: the next run's O_EXCL
	 * open failed "in use" (issue 44) */
	RING_UNREGISTER_FILES = 3,
	RING_REGISTER_PROBE = 8,     /* 5.6 */
	RING_REGISTER_RING_FDS = 20, /* 5.18 */
	RING_UNREGISTER_RING_FDS = 21,
	RING_OP_SUPPORTED = 1,
};

/* uapi <linux/blkdev.h> (6.12): the block layer's discard command, its
 * range in addr (start) and addr3 (length) */
#define RING_BLOCK_CMD_DISCARD 0x1200u /* _IO(0x12, 0) */
#define RING_PUNCH_HOLE 3u /* FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE */

struct ring_probe {
	uint8_t last_op, ops_len;
	uint16_t resv;
	uint32_t resv2[3];
	struct {
		uint8_t op, resv;
		uint16_t flags;
		uint32_t resv2;
	} ops[64];
};

/* io_uring_enter's argument with IORING_ENTER_EXT_ARG (5.11): a timeout. */
struct ring_getevents_arg {
	uint64_t sigmask;
	uint32_t sigmask_sz, min_wait_usec;
	uint64_t ts;
};

struct ring_timespec {
	int64_t tv_sec;
	long long tv_nsec;
};

struct ring_fd_update {
	uint32_t offset, resv;
	uint64_t data;
};

#endif
