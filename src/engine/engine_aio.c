/* The Linux native AIO engine (io_setup/io_submit/io_getevents through
 * syscall(2), no libaio): the fallback where io_uring is refused.  One
 * context per worker thread, sized to its queue depth; one iocb per buffer
 * slot, since a slot carries at most one request at a time.  AIO is only
 * asynchronous with O_DIRECT; on buffered files io_submit does the I/O
 * itself, which is still correct, only not deep.  AIO has no discard: a
 * trim is done synchronously in submit (plat_discard), after the batch's
 * other requests went to the kernel, and reaped with the requests the
 * kernel refused, as fio's libaio engine does. */
#define _GNU_SOURCE
#include "engine.h"

#include <errno.h>
#include <time.h>
#include <linux/aio_abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "platform.h"

struct engine {
	aio_context_t ctx;
	int fd;
	unsigned qd;
	struct iocb *cbs;       /* cbs[slot] */
	struct iocb **pending;  /* prepared, not yet taken by io_submit */
	unsigned npending;
	struct engine_io **refused; /* io_submit said no: reaped with the error; and
				     * trims, done in submit */
	bool blockdev;
	const char *trim_path;      /* set by the first trim */
	unsigned nrefused;
	struct io_event *events;
	unsigned in_kernel;
	bool reap_each;             /* --reap=syscall: one event per io_getevents */
	uint64_t reap_calls;        /* io_getevents calls */
};

static long aio_getevents_for(aio_context_t ctx, long min, long max, struct io_event *ev,
			      struct timespec *timeout)
{
#ifdef __NR_io_getevents
	return syscall(__NR_io_getevents, ctx, min, max, ev, timeout);
#else
	return syscall(__NR_io_pgetevents, ctx, min, max, ev, timeout, NULL);
#endif
}

/* Every wait for completions goes through here and is counted; with
 * reap_each it takes one event a call, as fio's libaio job does. */
static long aio_wait_events(struct engine *e, long min, long max, struct timespec *timeout)
{
	if (e->reap_each)
		max = min = max > 0 ? 1 : 0;
	e->reap_calls++;
	return aio_getevents_for(e->ctx, min, max, e->events, timeout);
}

static const char *aio_hint(int err)
{
	if (err == EPERM)
		return " (a seccomp profile)";
	if (err == ENOSYS)
		return " (a kernel built without CONFIG_AIO, or a sandbox that hides it)";
	if (err == EAGAIN)
		return " (fs.aio-max-nr reached: too many AIO requests system-wide)";
	return "";
}

static int aio_unavailable(char *why, size_t why_len, int err)
{
	snprintf(why, why_len, "aio unavailable: %s%s", strerror(err), aio_hint(err));
	errno = err;
	return -1;
}

static int aio_probe(char *why, size_t why_len)
{
	aio_context_t ctx = 0;
	if (syscall(__NR_io_setup, 1, &ctx) != 0)
		return aio_unavailable(why, why_len, errno);
	syscall(__NR_io_destroy, ctx);
	return 0;
}

static void aio_free(struct engine *e)
{
	int saved = errno;
	if (e->ctx)
		syscall(__NR_io_destroy, e->ctx); /* waits for anything left */
	free(e->cbs);
	free(e->pending);
	free(e->refused);
	free(e->events);
	free(e);
	errno = saved;
}

static struct engine *aio_open(const struct engine_setup *s, char *why, size_t why_len)
{
	int fd = s->fd;
	unsigned qd = s->qd;
	struct engine *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	struct stat st;
	e->fd = fd;
	e->blockdev = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
	e->qd = qd;
	e->reap_each = s->reap_each;
	e->cbs = calloc(qd, sizeof(*e->cbs));
	e->pending = calloc(qd, sizeof(*e->pending));
	e->refused = calloc(qd, sizeof(*e->refused));
	e->events = calloc(qd, sizeof(*e->events));
	if (!e->cbs || !e->pending || !e->refused || !e->events) {
		aio_free(e);
		snprintf(why, why_len, "aio: %s", strerror(ENOMEM));
		errno = ENOMEM;
		return NULL;
	}
	if (syscall(__NR_io_setup, qd, &e->ctx) != 0) {
		int err = errno;
		e->ctx = 0;
		aio_unavailable(why, why_len, err);
		aio_free(e);
		errno = err;
		return NULL;
	}
	return e;
}

/* Prepares slot's iocb for what is left of io. */
static void aio_prep(struct engine *e, struct engine_io *io)
{
	struct iocb *cb = &e->cbs[io->slot];
	memset(cb, 0, sizeof(*cb));
	cb->aio_data = (uint64_t)(uintptr_t)io;
	cb->aio_lio_opcode = io->write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
	cb->aio_fildes = (uint32_t)e->fd;
	cb->aio_buf = (uint64_t)(uintptr_t)engine_io_buf(io);
	cb->aio_nbytes = engine_io_left(io);
	cb->aio_offset = (int64_t)engine_io_offset(io);
	e->pending[e->npending++] = cb;
}

/* Hands the kernel what is pending.  A request it refuses comes back from
 * reap with the error; EAGAIN (no room) leaves the rest for later. */
static void aio_flush(struct engine *e)
{
	unsigned taken = 0;
	while (taken < e->npending) {
		long n = syscall(__NR_io_submit, e->ctx, (long)(e->npending - taken), e->pending + taken);
		if (n > 0) {
			taken += (unsigned)n;
			e->in_kernel += (unsigned)n;
			continue;
		}
		int err = n == 0 ? EAGAIN : errno;
		if (err == EINTR)
			continue;
		if (err == EAGAIN && e->in_kernel > 0)
			break; /* retried once something completes */
		struct engine_io *io = (struct engine_io *)(uintptr_t)e->pending[taken]->aio_data;
		io->result = -err;
		e->refused[e->nrefused++] = io;
		taken++;
	}
	memmove(e->pending, e->pending + taken, (e->npending - taken) * sizeof(*e->pending));
	e->npending -= taken;
}

/* A trim, at once, timed from its own start to its own end: its result
 * waits with the refused requests for reap. */
static void aio_trim(struct engine *e, struct engine_io *io)
{
	e->trim_path = plat_discard_name(e->blockdev);
	io->t_submit = clock_ns();
	bool ok = plat_discard(e->fd, e->blockdev, io->offset, io->len) == 0;
	io->result = ok ? (int64_t)io->len : -(int64_t)errno;
	io->t_done = clock_ns();
	e->refused[e->nrefused++] = io;
}

/* The batch's reads and writes go to the kernel first, so that none starts
 * a trim later than its stamp; then its trims, one after another. */
static int aio_submit(struct engine *e, struct engine_io *const ios[], unsigned n)
{
	bool trims = false;
	for (unsigned i = 0; i < n; i++)
		if (ios[i]->op == ENGINE_TRIM)
			trims = true;
		else
			aio_prep(e, ios[i]);
	aio_flush(e);
	for (unsigned i = 0; trims && i < n; i++)
		if (ios[i]->op == ENGINE_TRIM)
			aio_trim(e, ios[i]);
	return 0;
}

/* The events in e->events[0..n): finished ones into done, the rest back
 * into pending. */
static unsigned aio_sort(struct engine *e, unsigned n, struct engine_io *done[])
{
	unsigned got = 0;
	for (unsigned i = 0; i < n; i++) {
		struct engine_io *io = (struct engine_io *)(uintptr_t)e->events[i].data;
		e->in_kernel--;
		if (engine_complete(io, e->events[i].res) == ENGINE_DONE)
			done[got++] = io;
		else
			aio_prep(e, io);
	}
	return got;
}

static int aio_reap(struct engine *e, struct engine_io *done[], unsigned min, unsigned max)
{
	unsigned got = 0;
	for (;;) {
		if (e->npending > 0)
			aio_flush(e); /* after it, either nothing pending or something in flight */
		while (e->nrefused > 0 && got < max)
			done[got++] = e->refused[--e->nrefused];
		unsigned room = max - got < e->in_kernel ? max - got : e->in_kernel;
		unsigned want = got < min ? min - got : 0;
		if (e->npending > 0 && want == 0)
			want = 1; /* the kernel is full: wait for room */
		if (want > room)
			want = room;
		if (want == 0)
			return (int)got;
		long n = aio_wait_events(e, want, room, NULL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		got += aio_sort(e, (unsigned)n, done + got);
	}
}

static int aio_reap_wait(struct engine *e, struct engine_io *done[], unsigned max,
			 uint64_t timeout_ns)
{
	int got = aio_reap(e, done, 0, max); /* submits what is pending, takes what was refused */
	unsigned room = max - (unsigned)(got > 0 ? got : 0);
	if (got != 0 || e->in_kernel == 0 || timeout_ns == 0)
		return got;
	struct timespec ts = { (time_t)(timeout_ns / 1000000000u), (long)(timeout_ns % 1000000000u) };
	long n = aio_wait_events(e, 1, room < e->in_kernel ? room : e->in_kernel, &ts);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	return (int)aio_sort(e, (unsigned)n, done);
}

static void aio_close(struct engine *e)
{
	aio_free(e); /* io_destroy waits for what is in flight */
}

static const char *aio_trim_path(struct engine *e)
{
	return e->trim_path;
}

static void aio_facts(struct engine *e, struct engine_facts *f)
{
	*f = (struct engine_facts){ .reap_calls = e->reap_calls, .fixed_buffers = -1,
				    .fixed_file = -1 };
}

const struct engine_ops engine_aio = {
	.name = "aio", .label = "libaio", .max_qd = ENGINE_MAX_QD,
	.probe = aio_probe, .open = aio_open, .submit = aio_submit,
	.reap = aio_reap, .close = aio_close, .reap_wait = aio_reap_wait,
	.trim_path = aio_trim_path, .facts = aio_facts,
};
