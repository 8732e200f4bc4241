/* The io_uring engine, through syscall(2) alone (no liburing): one ring per
 * worker thread, sized to its queue depth.  submit only fills SQEs and
 * publishes the tail; reap makes the one io_uring_enter that both submits
 * the batch and waits, then takes every CQE there is in one pass.
 *
 * Ordering: the kernel reads the SQ tail and writes the CQ tail, so the SQ
 * tail is stored with release (the SQEs before it are visible) and the CQ
 * tail loaded with acquire (the CQEs before it are visible); the CQ head is
 * stored with release so the kernel does not reuse a CQE being read.
 *
 * Registered buffers (READ_FIXED/WRITE_FIXED), a registered file and a
 * registered ring descriptor save per-I/O work in the kernel where allowed;
 * each falls back quietly (ENOMEM under RLIMIT_MEMLOCK, EINVAL on older
 * kernels).  Setup flags are tried newest first and dropped on EINVAL.
 *
 * Trims are queued too: IORING_OP_FALLOCATE (punch a hole, keep the size) on
 * a file (5.6), the block layer's discard command (IORING_OP_URING_CMD,
 * BLOCK_URING_CMD_DISCARD, 6.12) on a block device.  A kernel that refuses
 * one (EOPNOTSUPP, EINVAL) gets that trim and every later one synchronously
 * (plat_discard), reaped with the rest. */
#define _GNU_SOURCE
#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "platform.h"
#include "uring_abi.h"

/* Newest first: on EINVAL the first still set is dropped and setup retried.
 * DEFER_TASKRUN needs SINGLE_ISSUER, so it goes before it. */
static const unsigned setup_flags[] = {
	IORING_SETUP_NO_SQARRAY,    /* 6.6: no SQ index array to fill */
	IORING_SETUP_DEFER_TASKRUN, /* 6.1: completions run when we ask for them */
	IORING_SETUP_SINGLE_ISSUER, /* 6.0: one thread submits: less locking */
	IORING_SETUP_COOP_TASKRUN,  /* 5.19: no IPI to interrupt us for completions */
	IORING_SETUP_SUBMIT_ALL,    /* 5.18: a bad SQE does not stop the batch */
};
#define NSETUP_FLAGS (sizeof(setup_flags) / sizeof(setup_flags[0]))

struct engine {
	int ring_fd;
	int enter_fd;          /* ring_fd, or its registered index */
	unsigned enter_flags;  /* IORING_ENTER_REGISTERED_RING then */
	int file;              /* the file's descriptor, or 0 when registered */
	uint8_t sqe_flags;     /* IOSQE_FIXED_FILE then */
	bool fixed_bufs;
	bool ext_arg;          /* io_uring_enter takes a timeout (5.11) */
	bool reap_each;        /* --reap=syscall: a GETEVENTS enter per completion taken */
	bool nop;              /* --engine=nop: every request a NOP, no data moved */
	bool sqpoll;           /* --sqpoll: a kernel thread takes what is published */
	unsigned *sq_flags;    /* the SQ ring's flags: IORING_SQ_NEED_WAKEUP */
	uint64_t reap_calls;   /* io_uring_enter calls that waited for or took completions */
	char reg_why[128];     /* why a registration was refused, or "" */
	unsigned *sq_tail, sq_mask, sq_local_tail;
	unsigned *cq_head, *cq_tail, cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	void *sq_map, *cq_map, *sqe_map;
	size_t sq_len, cq_len, sqe_len;
	unsigned to_submit; /* SQEs published, not yet taken by the kernel */
	unsigned in_kernel; /* taken by the kernel, not yet reaped */
	unsigned qd;
	struct engine_io **scratch; /* for the final drain */
	int fd;                    /* the file's own descriptor, for trims done at once */
	bool blockdev;
	bool trim_sync;            /* the kernel refused a queued trim: do them at once */
	const char *trim_path;     /* the last trim's way; NULL before any */
	struct engine_io **outside; /* trims done at once, waiting for reap */
	unsigned noutside;
};

static int ring_setup(unsigned entries, unsigned flags, struct io_uring_params *p)
{
	memset(p, 0, sizeof(*p));
	p->flags = flags;
	return (int)syscall(__NR_io_uring_setup, entries, p);
}

static int ring_register(int ring_fd, unsigned op, void *arg, unsigned n)
{
	return (int)syscall(__NR_io_uring_register, ring_fd, op, arg, n);
}

static int ring_enter(struct engine *e, unsigned submit, unsigned wait, unsigned flags)
{
	if (flags & IORING_ENTER_GETEVENTS)
		e->reap_calls++;
	return (int)syscall(__NR_io_uring_enter, e->enter_fd, submit, wait,
			    flags | e->enter_flags, NULL, 0);
}

/* Why io_uring_setup may fail with err, as far as this system says. */
static const char *setup_hint(int err)
{
	if (err == ENOSYS)
		return " (a kernel built without io_uring, or a sandbox that hides it)";
	if (err == ENOMEM)
		return " (locked memory: RLIMIT_MEMLOCK, see ulimit -l)";
	if (err != EPERM)
		return "";
	int disabled = plat_io_uring_disabled();
	if (disabled == 2)
		return " (kernel.io_uring_disabled=2)";
	if (disabled == 1)
		return " (kernel.io_uring_disabled=1 and not in kernel.io_uring_group)";
	return " (kernel.io_uring_disabled or a seccomp profile, as in Docker's default)";
}

static int unavailable(char *why, size_t why_len, int err, const char *hint)
{
	snprintf(why, why_len, "io_uring unavailable: %s%s", strerror(err), hint);
	errno = err;
	return -1;
}

/* A real setup, and the non-vectored read and write this engine needs
 * (Linux 5.6). */
static int uring_probe(char *why, size_t why_len)
{
	struct io_uring_params p;
	int fd = ring_setup(1, 0, &p);
	if (fd < 0) {
		int err = errno;
		return unavailable(why, why_len, err, setup_hint(err));
	}
	struct ring_probe probe;
	memset(&probe, 0, sizeof(probe));
	int rc = ring_register(fd, RING_REGISTER_PROBE, &probe, 64);
	close(fd);
	if (rc < 0 || probe.ops_len <= RING_OP_WRITE ||
	    !(probe.ops[RING_OP_READ].flags & RING_OP_SUPPORTED) ||
	    !(probe.ops[RING_OP_WRITE].flags & RING_OP_SUPPORTED))
		return unavailable(why, why_len, EOPNOTSUPP, " (a kernel older than 5.6)");
	return 0;
}

static int map_rings(struct engine *e, int fd, const struct io_uring_params *p)
{
	e->sq_len = p->sq_off.array + p->sq_entries * sizeof(unsigned);
	e->cq_len = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
	bool single = p->features & IORING_FEAT_SINGLE_MMAP;
	if (single && e->cq_len > e->sq_len)
		e->sq_len = e->cq_len;
	e->sq_map = mmap(NULL, e->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
			 IORING_OFF_SQ_RING);
	if (e->sq_map == MAP_FAILED)
		return -1;
	e->cq_map = single ? e->sq_map
			   : mmap(NULL, e->cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
				  fd, IORING_OFF_CQ_RING);
	if (e->cq_map == MAP_FAILED)
		return -1;
	e->sqe_len = p->sq_entries * sizeof(struct io_uring_sqe);
	e->sqe_map = mmap(NULL, e->sqe_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
			  IORING_OFF_SQES);
	if (e->sqe_map == MAP_FAILED)
		return -1;
	char *sq = e->sq_map, *cq = e->cq_map;
	e->sq_tail = (unsigned *)(sq + p->sq_off.tail);
	e->sq_flags = (unsigned *)(sq + p->sq_off.flags);
	e->sq_mask = *(unsigned *)(sq + p->sq_off.ring_mask);
	e->sq_local_tail = *e->sq_tail;
	if (!(p->flags & IORING_SETUP_NO_SQARRAY)) {
		/* SQE i always sits in ring slot i */
		unsigned *array = (unsigned *)(sq + p->sq_off.array);
		for (unsigned i = 0; i < p->sq_entries; i++)
			array[i] = i;
	}
	e->cq_head = (unsigned *)(cq + p->cq_off.head);
	e->cq_tail = (unsigned *)(cq + p->cq_off.tail);
	e->cq_mask = *(unsigned *)(cq + p->cq_off.ring_mask);
	e->cqes = (struct io_uring_cqe *)(cq + p->cq_off.cqes);
	e->sqes = e->sqe_map;
	return 0;
}

/* Why registering `what` failed with err, once: the first refusal is the
 * one a user can act on. */
static void refused(struct engine *e, const char *what, int err)
{
	if (e->reg_why[0])
		return;
	const char *hint = err == ENOMEM ? " (locked memory: RLIMIT_MEMLOCK, see ulimit -l)"
			   : err == EINVAL || err == EOPNOTSUPP ? " (this kernel does not allow it)"
			   : "";
	snprintf(e->reg_why, sizeof(e->reg_why), "%s refused: %s%s", what, strerror(err), hint);
}

/* Each registration is an optimisation; a refusal leaves the plain way,
 * and reg_why says why (the run's result names it). */
static void register_extras(struct engine *e, int fd, void *const bufs[], size_t buf_len)
{
	struct iovec *iov = calloc(e->qd, sizeof(*iov));
	if (iov) {
		for (unsigned i = 0; i < e->qd; i++) {
			iov[i].iov_base = bufs[i];
			iov[i].iov_len = buf_len;
		}
		e->fixed_bufs = ring_register(e->ring_fd, RING_REGISTER_BUFFERS, iov, e->qd) == 0;
		if (!e->fixed_bufs)
			refused(e, "registered buffers", errno);
		free(iov);
	} else {
		refused(e, "registered buffers", ENOMEM);
	}
	if (ring_register(e->ring_fd, RING_REGISTER_FILES, &fd, 1) == 0) {
		e->file = 0;
		e->sqe_flags = IOSQE_FIXED_FILE;
	} else {
		refused(e, "a registered file", errno);
	}
}

static void unmap_rings(struct engine *e)
{
	if (e->sqe_map && e->sqe_map != MAP_FAILED)
		munmap(e->sqe_map, e->sqe_len);
	if (e->cq_map && e->cq_map != MAP_FAILED && e->cq_map != e->sq_map)
		munmap(e->cq_map, e->cq_len);
	if (e->sq_map && e->sq_map != MAP_FAILED)
		munmap(e->sq_map, e->sq_len);
}

static void uring_free(struct engine *e)
{
	int saved = errno;
	if (e->enter_flags & IORING_ENTER_REGISTERED_RING) {
		/* the index belongs to the thread, not to the ring: give it back */
		struct ring_fd_update up = { .offset = (uint32_t)e->enter_fd };
		ring_register(e->ring_fd, RING_UNREGISTER_RING_FDS, &up, 1);
	}
	unmap_rings(e);
	ring_register(e->ring_fd, RING_UNREGISTER_FILES, NULL, 0); /* none: ENXIO, harmless */
	if (e->ring_fd >= 0)
		close(e->ring_fd); /* the file's registration dropped first: uring_abi.h */
	free(e->scratch);
	free(e->outside);
	free(e);
	errno = saved;
}

static struct engine *ring_open(const struct engine_setup *s, bool nop, char *why,
				size_t why_len)
{
	int fd = s->fd;
	unsigned qd = s->qd;
	struct io_uring_params p;
	struct engine *e = calloc(1, sizeof(*e));
	struct stat st;
	if (!e || !(e->scratch = calloc(qd, sizeof(*e->scratch))) ||
	    !(e->outside = calloc(qd, sizeof(*e->outside)))) {
		if (e)
			free(e->scratch);
		free(e);
		snprintf(why, why_len, "io_uring: %s", strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	e->qd = qd;
	e->reap_each = s->reap_each;
	e->nop = nop;
	e->sqpoll = s->sqpoll;
	e->file = e->fd = fd;
	e->blockdev = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
	/* asked for: never dropped; the kernel's IPI flags make no sense with
	 * a submitting kernel thread (EINVAL), so SQPOLL goes without them */
	unsigned must = (s->poll ? IORING_SETUP_IOPOLL : 0) | (s->sqpoll ? IORING_SETUP_SQPOLL : 0);
	unsigned not_with_sqpoll = IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_COOP_TASKRUN;
	unsigned flags = 0;
	for (size_t i = 0; i < NSETUP_FLAGS; i++)
		flags |= setup_flags[i];
	if (s->sqpoll)
		flags &= ~not_with_sqpoll;
	e->ring_fd = ring_setup(qd, flags | must, &p);
	for (size_t i = 0; e->ring_fd < 0 && errno == EINVAL && i < NSETUP_FLAGS; i++) {
		flags &= ~setup_flags[i];
		e->ring_fd = ring_setup(qd, flags | must, &p);
	}
	if (e->ring_fd < 0 && must) {
		int err = errno;
		snprintf(why, why_len, "io_uring refused %s: %s%s", s->poll ? "IOPOLL (--poll)"
			 : "SQPOLL (--sqpoll)", strerror(err), setup_hint(err));
		uring_free(e);
		errno = err;
		return NULL;
	}
	if (e->ring_fd < 0) {
		int err = errno;
		unavailable(why, why_len, err, setup_hint(err));
		uring_free(e);
		errno = err;
		return NULL;
	}
	if (map_rings(e, e->ring_fd, &p) != 0) {
		snprintf(why, why_len, "io_uring: cannot map the rings: %s", strerror(errno));
		uring_free(e);
		return NULL;
	}
	e->enter_fd = e->ring_fd;
	e->ext_arg = (p.features & IORING_FEAT_EXT_ARG) != 0;
	if (!nop) /* a NOP touches neither buffer nor file */
		register_extras(e, fd, s->bufs, s->buf_len);
	/* the ring's descriptor, NOP or not: no lookup of it on every enter */
	struct ring_fd_update up = { .offset = -1U, .data = (uint64_t)e->ring_fd };
	if (ring_register(e->ring_fd, RING_REGISTER_RING_FDS, &up, 1) == 1) {
		e->enter_fd = (int)up.offset;
		e->enter_flags = IORING_ENTER_REGISTERED_RING;
	}
	return e;
}

static struct engine *uring_open(const struct engine_setup *s, char *why, size_t why_len)
{
	return ring_open(s, false, why, why_len);
}

static struct engine *nop_open(const struct engine_setup *s, char *why, size_t why_len)
{
	return ring_open(s, true, why, why_len);
}

/* A trim done at once (plat_discard), for the next reap. */
static void trim_now(struct engine *e, struct engine_io *io)
{
	e->trim_path = plat_discard_name(e->blockdev);
	bool ok = plat_discard(e->fd, e->blockdev, io->offset, io->len) == 0;
	io->result = ok ? (int64_t)io->len : -(int64_t)errno;
}

/* A trim's SQE (its flags, file and user_data already set): a hole
 * punched in a file, or the block layer's discard. */
static void ring_prep_trim(struct engine *e, struct io_uring_sqe *sqe, struct engine_io *io)
{
	sqe->buf_index = 0;
	if (e->blockdev) {
		uint32_t cmd_op = RING_BLOCK_CMD_DISCARD; /* the first half of the off union */
		sqe->opcode = RING_OP_URING_CMD;
		sqe->off = 0;
		memcpy(&sqe->off, &cmd_op, sizeof(cmd_op));
		sqe->addr = io->offset;
		sqe->addr3 = io->len;
		sqe->len = 0;
		e->trim_path = "uring_cmd_discard";
	} else {
		sqe->opcode = RING_OP_FALLOCATE;
		sqe->off = io->offset;
		sqe->addr = io->len;
		sqe->len = RING_PUNCH_HOLE;
		e->trim_path = "uring_fallocate";
	}
}

/* Fills the next SQE for what is left of io (the whole block, or the rest
 * of a short transfer). */
static void ring_prep(struct engine *e, struct engine_io *io)
{
	if (io->op == ENGINE_TRIM && e->trim_sync) {
		trim_now(e, io);
		e->outside[e->noutside++] = io;
		return;
	}
	struct io_uring_sqe *sqe = &e->sqes[e->sq_local_tail++ & e->sq_mask];
	memset(sqe, 0, sizeof(*sqe)); /* a reused slot must not keep old flags */
	if (e->nop) { /* the same trip through the ring, with nothing to move */
		sqe->opcode = RING_OP_NOP;
		sqe->fd = -1;
		sqe->user_data = (uint64_t)(uintptr_t)io;
		e->to_submit++;
		return;
	}
	if (e->fixed_bufs) {
		sqe->opcode = io->write ? RING_OP_WRITE_FIXED : RING_OP_READ_FIXED;
		sqe->buf_index = (uint16_t)io->slot;
	} else {
		sqe->opcode = io->write ? RING_OP_WRITE : RING_OP_READ;
	}
	sqe->flags = e->sqe_flags;
	sqe->fd = e->file;
	sqe->off = engine_io_offset(io);
	sqe->addr = (uint64_t)(uintptr_t)engine_io_buf(io);
	sqe->len = engine_io_left(io);
	sqe->user_data = (uint64_t)(uintptr_t)io;
	if (io->op == ENGINE_TRIM)
		ring_prep_trim(e, sqe, io);
	e->to_submit++;
}

static void ring_publish(struct engine *e)
{
	__atomic_store_n(e->sq_tail, e->sq_local_tail, __ATOMIC_RELEASE);
}

static int uring_submit(struct engine *e, struct engine_io *const ios[], unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		ring_prep(e, ios[i]);
	ring_publish(e);
	return 0;
}

/* Takes every CQE there is (up to max finished requests); short and
 * -EAGAIN completions go straight back into the SQ. */
static unsigned ring_harvest(struct engine *e, struct engine_io *done[], unsigned max)
{
	unsigned head = __atomic_load_n(e->cq_head, __ATOMIC_RELAXED);
	unsigned tail = __atomic_load_n(e->cq_tail, __ATOMIC_ACQUIRE);
	unsigned got = 0, again = 0;
	if (head == tail)
		return 0; /* the look before a wait, mostly: nothing to give back */
	while (head != tail && got < max) {
		const struct io_uring_cqe *cqe = &e->cqes[head & e->cq_mask];
		struct engine_io *io = (struct engine_io *)(uintptr_t)cqe->user_data;
		int res = cqe->res;
		if (e->nop && res == 0)
			res = (int)engine_io_left(io); /* a NOP "moved" what was asked */
		head++;
		e->in_kernel--;
		if (io->op == ENGINE_TRIM && (res == -EOPNOTSUPP || res == -EINVAL) && !e->trim_sync) {
			e->trim_sync = true; /* this kernel cannot queue it: at once, from now on */
			trim_now(e, io);
			done[got++] = io;
		} else if (engine_complete_hot(io, res) == ENGINE_DONE) {
			done[got++] = io;
		} else {
			ring_prep(e, io);
			again++;
		}
	}
	__atomic_store_n(e->cq_head, head, __ATOMIC_RELEASE);
	if (again)
		ring_publish(e);
	return got;
}

static bool cq_ready(const struct engine *e)
{
	return __atomic_load_n(e->cq_head, __ATOMIC_RELAXED) !=
	       __atomic_load_n(e->cq_tail, __ATOMIC_ACQUIRE);
}

/* An enter that failed with err: 1 to try again (interrupted, or no room
 * to submit until something finished, which it waited for), or -errno. */
static int enter_failed(struct engine *e, int err)
{
	if (err == EINTR)
		return 1;
	if ((err == EAGAIN || err == EBUSY) && e->in_kernel > 0) {
		if (ring_enter(e, 0, 1, IORING_ENTER_GETEVENTS) < 0 && errno != EINTR)
			return -errno;
		return 1;
	}
	return -err;
}

/* An io_uring_enter that submits what is queued and waits for wait
 * completions (with GETEVENTS in flags), then counts what the kernel took:
 * 0, 1 to try again (enter_failed), or -errno. */
static int enter_counted(struct engine *e, unsigned wait, unsigned flags)
{
	int ret = ring_enter(e, e->to_submit, wait, flags);
	if (ret < 0)
		return enter_failed(e, errno);
	e->to_submit -= (unsigned)ret;
	e->in_kernel += (unsigned)ret;
	return 0;
}

/* SQPOLL: the kernel thread takes what was published; a system call only
 * to wake it (it sleeps after sq_thread_idle) or to wait for wait
 * completions.  0 or -errno. */
static int sqpoll_enter(struct engine *e, unsigned wait)
{
	e->in_kernel += e->to_submit;
	e->to_submit = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* the tail's store before the flags' load */
	bool asleep = __atomic_load_n(e->sq_flags, __ATOMIC_RELAXED) & IORING_SQ_NEED_WAKEUP;
	unsigned flags = (asleep ? IORING_ENTER_SQ_WAKEUP : 0) | (wait ? IORING_ENTER_GETEVENTS : 0);
	if (!flags)
		return 0;
	int ret = ring_enter(e, 0, wait, flags);
	return ret < 0 && errno != EINTR && errno != EAGAIN && errno != EBUSY ? -errno : 0;
}

/* --reap=syscall: one io_uring_enter with GETEVENTS for each completion
 * taken, as a job that asks the kernel for every completion makes (fio's
 * libaio); min 0 takes one only if one is ready. */
static int uring_reap_each(struct engine *e, struct engine_io *done[], unsigned min, unsigned max)
{
	if (max == 0)
		return 0;
	if (e->noutside > 0) {
		done[0] = e->outside[--e->noutside];
		return 1;
	}
	for (;;) {
		bool ready = cq_ready(e);
		if (e->sqpoll) {
			int rc = sqpoll_enter(e, 0);
			if (rc < 0)
				return rc;
		}
		if (!ready && (min == 0 || e->in_kernel + e->to_submit == 0)) {
			int rc = e->to_submit ? enter_counted(e, 0, 0) : 0;
			return rc < 0 ? rc : 0;
		}
		int rc = enter_counted(e, ready ? 0 : 1, IORING_ENTER_GETEVENTS);
		if (rc < 0)
			return rc;
		if (rc > 0)
			continue;
		if (ring_harvest(e, done, 1) == 1)
			return 1;
		if (e->noutside > 0) { /* a refused trim, done at once */
			done[0] = e->outside[--e->noutside];
			return 1;
		}
	}
}

static int uring_reap(struct engine *e, struct engine_io *done[], unsigned min, unsigned max)
{
	if (e->reap_each)
		return uring_reap_each(e, done, min, max);
	unsigned got = 0;
	for (;;) {
		while (e->noutside > 0 && got < max)
			done[got++] = e->outside[--e->noutside];
		got += ring_harvest(e, done + got, max - got);
		unsigned outstanding = e->in_kernel + e->to_submit;
		unsigned wait = got < min ? min - got : 0;
		if (wait > outstanding)
			wait = outstanding;
		if (wait == 0 && e->to_submit == 0)
			return (int)got;
		if (e->sqpoll) {
			int rc = sqpoll_enter(e, wait);
			if (rc < 0)
				return rc;
			if (wait == 0)
				return (int)got;
			continue;
		}
		int rc = enter_counted(e, wait, wait ? IORING_ENTER_GETEVENTS : 0);
		if (rc < 0)
			return rc;
	}
}

static void uring_close(struct engine *e)
{
	while (e->in_kernel + e->to_submit > 0)
		if (uring_reap(e, e->scratch, 1, e->qd) < 0)
			break; /* closing the ring cancels the rest */
	uring_free(e);
}

static const char *uring_trim_path(struct engine *e)
{
	return e->trim_path;
}

/* Enters the ring for what is queued alone (fio's commit): --batch. */
static int uring_flush(struct engine *e)
{
	if (e->sqpoll)
		return sqpoll_enter(e, 0);
	while (e->to_submit > 0) {
		int ret = ring_enter(e, e->to_submit, 0, 0);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			/* no room now: the next reap submits them while it waits */
			return errno == EAGAIN || errno == EBUSY ? 0 : -errno;
		e->to_submit -= (unsigned)ret;
		e->in_kernel += (unsigned)ret;
	}
	return 0;
}

/* Sleeps for the timeout or the first completion, in the kernel where it
 * takes a timeout with the wait (5.11); before that in steps of 20 us.
 * -errno if the ring failed. */
static int ring_wait(struct engine *e, uint64_t timeout_ns)
{
	if (!e->ext_arg) {
		uint64_t step = timeout_ns < 20000u ? timeout_ns : 20000u;
		struct timespec ts = { 0, (long)step };
		nanosleep(&ts, NULL);
		return 0;
	}
	struct ring_timespec ts = { (int64_t)(timeout_ns / 1000000000u),
				    (long long)(timeout_ns % 1000000000u) };
	struct ring_getevents_arg arg = { .ts = (uint64_t)(uintptr_t)&ts };
	e->reap_calls++;
	int ret = (int)syscall(__NR_io_uring_enter, e->enter_fd, 0, 1,
			       IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG | e->enter_flags, &arg,
			       sizeof(arg));
	return ret < 0 && errno != ETIME && errno != EINTR ? -errno : 0;
}

static int uring_reap_wait(struct engine *e, struct engine_io *done[], unsigned max,
			   uint64_t timeout_ns)
{
	int got = uring_reap(e, done, 0, max); /* submits what is queued, takes what is done */
	if (got != 0 || e->in_kernel == 0 || timeout_ns == 0)
		return got;
	int rc = ring_wait(e, timeout_ns);
	if (rc < 0)
		return rc;
	if (e->reap_each) /* the wait was this completion's call */
		return (int)ring_harvest(e, done, 1);
	return uring_reap(e, done, 0, max);
}

static void uring_facts(struct engine *e, struct engine_facts *f)
{
	*f = (struct engine_facts){ .reap_calls = e->reap_calls,
				    .fixed_buffers = e->nop ? -1 : e->fixed_bufs,
				    .fixed_file = e->nop ? -1 : e->sqe_flags == IOSQE_FIXED_FILE };
	snprintf(f->why, sizeof(f->why), "%s", e->reg_why);
}

const struct engine_ops engine_uring = {
	.name = "uring", .label = "io_uring", .max_qd = ENGINE_MAX_QD,
	.probe = uring_probe, .open = uring_open, .submit = uring_submit,
	.reap = uring_reap, .close = uring_close, .flush = uring_flush,
	.reap_wait = uring_reap_wait,
	.trim_path = uring_trim_path, .facts = uring_facts,
};

/* --engine=nop: the io_uring engine's own loop with IORING_OP_NOP requests
 * (t/io_uring -N1's), so the figure is what diskbench alone can issue and
 * reap on this CPU: its ceiling, never a disk's.  auto never picks it. */
const struct engine_ops engine_nop = {
	.name = "nop", .label = "io_uring NOP", .max_qd = ENGINE_MAX_QD,
	.probe = uring_probe, .open = nop_open, .submit = uring_submit,
	.reap = uring_reap, .close = uring_close, .flush = uring_flush,
	.reap_wait = uring_reap_wait,
	.trim_path = uring_trim_path, .facts = uring_facts,
};
