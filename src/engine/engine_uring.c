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
 * The ring's set-up (flags, mapping, registrations, the probe) and its
 * freeing are engine_uring_setup.c's; this file is the hot path.
 *
 * Trims are queued too: IORING_OP_FALLOCATE (punch a hole, keep the size) on
 * a file (5.6), the block layer's discard command (IORING_OP_URING_CMD,
 * BLOCK_URING_CMD_DISCARD, 6.12) on a block device.  A kernel that refuses
 * one (EOPNOTSUPP, EINVAL: before 6.12, or before 5.19 which has no
 * IORING_OP_URING_CMD) gets that trim, each other one already queued, and
 * every later one synchronously (plat_discard), reaped with the rest: a
 * batch's later ones after its reads and writes entered the ring. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "platform.h"
#include "uring_int.h"

static int ring_enter(struct engine *e, unsigned submit, unsigned wait, unsigned flags)
{
	if (flags & IORING_ENTER_GETEVENTS)
		e->reap_calls++;
	return (int)syscall(__NR_io_uring_enter, e->enter_fd, submit, wait,
			    flags | e->enter_flags, NULL, 0);
}

/* A trim done at once (plat_discard), for the next reap, timed from its
 * own start to its own end. */
static void trim_now(struct engine *e, struct engine_io *io)
{
	e->trim_path = plat_discard_name(e->blockdev);
	io->t_submit = clock_ns();
	bool ok = plat_discard(e->fd, e->blockdev, io->offset, io->len) == 0;
	io->result = ok ? (int64_t)io->len : -(int64_t)errno;
	io->t_done = clock_ns();
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

static int uring_flush(struct engine *e);

/* Once the kernel refused a queued trim, trims are done at once: after the
 * batch's reads and writes entered the ring, so that none starts a trim
 * later than its stamp. */
static int submit_trims_last(struct engine *e, struct engine_io *const ios[], unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (ios[i]->op != ENGINE_TRIM)
			ring_prep(e, ios[i]);
	ring_publish(e);
	if (e->to_submit)
		uring_flush(e); /* a ring that fails here fails the next reap too, which says so */
	for (unsigned i = 0; i < n; i++)
		if (ios[i]->op == ENGINE_TRIM)
			ring_prep(e, ios[i]);
	return 0;
}

static int uring_submit(struct engine *e, struct engine_io *const ios[], unsigned n)
{
	if (e->trim_sync)
		return submit_trims_last(e, ios, n);
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
		if (io->op == ENGINE_TRIM && (res == -EOPNOTSUPP || res == -EINVAL)) {
			/* this kernel cannot queue it: at once, from now on, and so
			 * every other trim queued before the first refusal came back */
			e->trim_sync = true;
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
