/* The io_uring engine's set-up: a ring per worker thread, sized to its
 * queue depth, mapped, with what can be registered; the probe auto uses;
 * the ring's end.  The hot path is engine_uring.c's.
 *
 * Registered buffers (READ_FIXED/WRITE_FIXED), a registered file and a
 * registered ring descriptor save per-I/O work in the kernel where allowed;
 * each falls back quietly (ENOMEM under RLIMIT_MEMLOCK, EINVAL on older
 * kernels).  Setup flags are tried newest first and dropped on EINVAL. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "platform.h"
#include "uring_int.h"

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
int uring_probe(char *why, size_t why_len)
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

void uring_free(struct engine *e)
{
	int saved = errno;
	if (e->enter_flags & IORING_ENTER_REGISTERED_RING) {
		/* the index belongs to the thread, not to the ring: give it back */
		struct ring_fd_update up = { .offset = (uint32_t)e->enter_fd };
		ring_register(e->ring_fd, RING_UNREGISTER_RING_FDS, &up, 1);
	}
	unmap_rings(e);
	if (e->ring_fd >= 0) {
		ring_register(e->ring_fd, RING_UNREGISTER_FILES, NULL, 0); /* none: ENXIO, harmless */
		close(e->ring_fd); /* the file's registration dropped first: uring_abi.h */
	}
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

struct engine *uring_open(const struct engine_setup *s, char *why, size_t why_len)
{
	return ring_open(s, false, why, why_len);
}

struct engine *nop_open(const struct engine_setup *s, char *why, size_t why_len)
{
	return ring_open(s, true, why, why_len);
}

void uring_facts(struct engine *e, struct engine_facts *f)
{
	*f = (struct engine_facts){ .reap_calls = e->reap_calls,
				    .fixed_buffers = e->nop ? -1 : e->fixed_bufs,
				    .fixed_file = e->nop ? -1 : e->sqe_flags == IOSQE_FIXED_FILE };
	snprintf(f->why, sizeof(f->why), "%s", e->reg_why);
}
