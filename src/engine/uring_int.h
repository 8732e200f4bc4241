/* What the io_uring engine's two files share: the engine's state, and the
 * set-up's functions its ops tables name.  engine_uring_setup.c makes a
 * ring (setup flags, mapping, registrations, the probe) and frees it;
 * engine_uring.c is the hot path (prep, submit, harvest, reap, wait,
 * flush) and the drain at close.  Nothing outside them includes it. */
#ifndef URING_INT_H
#define URING_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "uring_abi.h"

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

/* The probe auto uses: 0, or -1 with errno and why. */
int uring_probe(char *why, size_t why_len);
/* A ring for s: with read and write requests, or NOPs alone (--engine=nop). */
struct engine *uring_open(const struct engine_setup *s, char *why, size_t why_len);
struct engine *nop_open(const struct engine_setup *s, char *why, size_t why_len);
/* Unregisters, unmaps and closes the ring, keeping errno. */
void uring_free(struct engine *e);
/* What the ring registered, and its reap calls. */
void uring_facts(struct engine *e, struct engine_facts *f);

#endif
