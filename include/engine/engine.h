/* I/O engines: how one worker thread moves blocks.  The timed loop
 * (bench.c) hands an engine whole-block requests and reaps them once they
 * are complete; it owns the clock, the offsets and the statistics, and an
 * engine knows nothing of them nor of the command line.
 *
 * Engines: sync (pread/pwrite, one block at a time), aio (Linux native AIO)
 * and uring (io_uring), the last two through syscall(2), libc only; nop
 * (io_uring NOPs: diskbench's own ceiling, never picked by auto).
 * Adding one: a file src/engine_NAME.c ending in a `struct engine_ops`, a
 * line in engine.c's table, a row in the equivalence test. */
#ifndef ENGINE_H
#define ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most requests one engine may hold in flight (per thread). */
#define ENGINE_MAX_QD 4096u

/* One request, owned by the loop; an engine only moves its bytes. */
struct engine_io {
	void *buf;          /* inside buffer `slot` of the ones given at open */
	uint64_t offset;
	uint32_t len;       /* bytes asked */
	uint32_t done;      /* bytes moved so far: a short completion is resumed */
	uint32_t slot;
	uint16_t depth;     /* requests in flight when it was submitted (the loop's) */
	uint16_t retries;   /* -EAGAIN in a row, so a stuck request cannot spin forever */
	bool write;
	uint8_t op;         /* ENGINE_READ, ENGINE_WRITE (write is set too) or ENGINE_TRIM:
			     * discard [offset, offset + len), buf unused */
	uint64_t t_submit;  /* the loop's clock at submission; an engine that does a request
			     * synchronously (a trim it cannot queue) stamps it again at its
			     * own start */
	uint64_t t_done;    /* 0, or when such an engine finished it (the loop's clock,
			     * clock_ns): its latency ends there, not at the reap that
			     * hands it back after the batch's other work */
	uint64_t t_due;     /* open loop (--rate): when it was due to start, which its
			     * response time counts from (the loop's clock) */
	int64_t result;     /* once reaped: len; fewer bytes at end of file; or -errno */
};

/* What a request does (engine_io.op); the same numbers as mix.h's
 * operations, which index the loop's per-operation figures.  The syncs
 * come after them (fio's fsync=N, fdatasync=N: the sync engine alone runs
 * them; offset, len and buf unused). */
enum engine_op { ENGINE_READ, ENGINE_WRITE, ENGINE_TRIM, ENGINE_FSYNC, ENGINE_FDATASYNC };

struct engine;

/* How an engine is opened: requests on fd, at most qd at a time, whose data
 * lie in bufs[0..qd), each buf_len bytes (an engine may register them with
 * the kernel; it falls back if the kernel refuses, and says why in its
 * facts). */
struct engine_setup {
	int fd;
	unsigned qd;
	void *const *bufs;
	size_t buf_len;
	/* --reap=syscall: one system call that waits for completions
	 * (io_getevents, io_uring_enter with GETEVENTS) for each completion
	 * taken, as fio's libaio job makes; false: each such call takes every
	 * completion that is ready (io_uring's from its ring, in user space) */
	bool reap_each;
	/* --poll: IORING_SETUP_IOPOLL (completions polled from the device's poll
	 * queues); --sqpoll: IORING_SETUP_SQPOLL (a kernel thread takes the
	 * submissions).  io_uring's alone; a ring that refuses them fails open. */
	bool poll, sqpoll;
	/* the sync engine: read(2)/write(2) at the file's position, lseek(2)
	 * only where the next offset is not it, as fio's sync engine (job
	 * files' ioengine=sync); false: pread(2)/pwrite(2), as fio's psync */
	bool at_position;
};

/* What an engine did that moves a figure (issue 32), for the result. */
struct engine_facts {
	uint64_t reap_calls;  /* system calls that waited for or took completions */
	int fixed_buffers;    /* registered with the kernel: 1, refused: 0 (why says
			       * why), no such thing for this engine: -1 */
	int fixed_file;       /* the same for the file */
	char why[128];        /* why a registration was refused, or "" */
};

struct engine_ops {
	const char *name;   /* as on the command line and in JSON: "sync", "aio", "uring" */
	const char *label;  /* as people write it: "sync", "libaio", "io_uring" */
	unsigned max_qd;    /* 1 for an engine that waits for each request */
	/* 0 if this kernel lets the engine run here; else -1 with errno and a
	 * one-line reason in why ("io_uring unavailable: …"). */
	int (*probe)(char *why, size_t why_len);
	/* An engine as s describes.  NULL with errno and a reason in why. */
	struct engine *(*open)(const struct engine_setup *s, char *why, size_t why_len);
	/* Starts n requests.  The system call may wait for the next reap, which
	 * the loop always makes after a submit.  A request the kernel refuses
	 * comes back from reap with its -errno.  Returns 0 or -errno. */
	int (*submit)(struct engine *e, struct engine_io *const ios[], unsigned n);
	/* Waits until at least min requests are complete and returns how many
	 * (at most max) it put in done[], each with its result; or -errno if the
	 * engine itself failed. */
	int (*reap)(struct engine *e, struct engine_io *done[], unsigned min, unsigned max);
	/* Waits for what is still in flight, then frees the engine. */
	void (*close)(struct engine *e);
	/* NULL, or hands what submit queued to the kernel at once, in its own
	 * system call, without waiting (an engine whose submit only queues:
	 * io_uring passes them with the next reap's wait otherwise).  The loop
	 * calls it after each submit when a batch limit is asked (--batch), so
	 * that N requests cost one system call, as in fio.  0 or -errno. */
	int (*flush)(struct engine *e);
	/* NULL, or reap with min 1 that gives up after timeout_ns with nothing
	 * complete (returning 0): the open loop (--rate) waits so for a
	 * completion or its next arrival, whichever comes first.  NULL: an
	 * engine whose requests complete inside submit (sync). */
	int (*reap_wait)(struct engine *e, struct engine_io *done[], unsigned max,
			 uint64_t timeout_ns);
	/* NULL, or the way this engine's last trim reached the kernel
	 * ("uring_fallocate", "uring_cmd_discard", "ioctl_blkdiscard",
	 * "fallocate_punch_hole"); NULL before any trim.  An engine that cannot
	 * queue a trim does it synchronously inside submit, as the sync engine
	 * does every request: after it handed the kernel the batch's other
	 * requests (so they do not start a trim later than their stamp), each
	 * trim stamped with its own start and end (t_submit, t_done). */
	const char *(*trim_path)(struct engine *e);
	/* What it did so far (engine_facts). */
	void (*facts)(struct engine *e, struct engine_facts *f);
};

extern const struct engine_ops engine_sync, engine_aio, engine_uring, engine_nop;

/* An engine file ends with its descriptor, built from functions named
 * PREFIX_probe, PREFIX_open, PREFIX_submit, PREFIX_reap and PREFIX_close. */
#define ENGINE_OPS(prefix, name_, label_, max_qd_)                                 \
	{                                                                          \
		.name = name_, .label = label_, .max_qd = max_qd_,                 \
		.probe = prefix##_probe, .open = prefix##_open,                    \
		.submit = prefix##_submit, .reap = prefix##_reap,                  \
		.close = prefix##_close, .trim_path = prefix##_trim_path,          \
		.facts = prefix##_facts,                                           \
	}

/* What a completion means for its request, decided in one place for every
 * engine: ENGINE_DONE (io->result is final: the whole block, the bytes
 * before end of file, or -errno) or ENGINE_AGAIN (a short transfer or
 * -EAGAIN/-EINTR: submit the rest again, from engine_io_buf/offset/len). */
enum engine_verdict { ENGINE_DONE, ENGINE_AGAIN };
enum engine_verdict engine_complete(struct engine_io *io, int64_t res);

/* Where the remainder of a partly done request goes. */
static inline void *engine_io_buf(const struct engine_io *io)
{
	return (char *)io->buf + io->done;
}
static inline uint64_t engine_io_offset(const struct engine_io *io)
{
	return io->offset + io->done;
}
static inline uint32_t engine_io_left(const struct engine_io *io)
{
	return io->len - io->done;
}

/* engine_complete with its common case inline, for an engine's hot path:
 * the whole rest moved (what engine_complete decides for it too). */
static inline enum engine_verdict engine_complete_hot(struct engine_io *io, int64_t res)
{
	if (res <= 0 || res != (int64_t)engine_io_left(io))
		return engine_complete(io, res);
	io->retries = 0;
	io->done = io->len;
	io->result = io->len;
	return ENGINE_DONE;
}

/* "sync", "aio", "uring", "nop" (also "io_uring", "libaio") -> its engine; NULL
 * otherwise ("auto" included: that is engine_pick's to resolve). */
const struct engine_ops *engine_parse_name(const char *name);
/* The i-th engine's name, best first ("uring", "aio", "sync"); NULL past
 * the last. */
const char *engine_name_at(size_t i);

/* Resolves want ("auto", or an engine name) to an engine that works here.
 * auto: io_uring, else aio, else sync; note then says why each better one
 * was passed over ("io_uring unavailable: …; using aio"), and is empty when
 * the first choice works.  An explicit engine that cannot run: -1 with
 * errno and the reason in note.  An unknown name: -1, EINVAL. */
int engine_pick(const char *want, const struct engine_ops **ops, char *note, size_t note_len);

#endif
