/* The timed loop, shared by every test: N threads (each with its own buffer,
 * generator and latency histogram, no lock on the hot path) issue whole
 * blocks with pread/pwrite, timestamp each with CLOCK_MONOTONIC, and stop at
 * their byte quota, the deadline, an error or a stop request.  Never prints. */
#ifndef BENCH_H
#define BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "diskbench.h"
#include "rng.h"
#include "stats.h"

#define BENCH_MAX_THREADS 1024

struct bench_job {
	int fd;
	enum io_dir dir;
	enum io_pattern pattern;
	uint64_t bs;
	uint64_t region;      /* I/O stays in [0, region), a multiple of bs */
	uint64_t bytes_limit; /* total bytes to move; UINT64_MAX: none */
	bool wrap;            /* sequential: start over at the region's end */
	double time_limit_s;  /* 0: none */
	unsigned threads;
	uint64_t seed;
	bool zeros;
	bool fsync_at_end;    /* one fsync after the last write, inside the timing */
	double warmup_s;      /* I/O before this is done but not counted */
	unsigned write_pct;   /* >0: this share of I/Os are writes, the rest reads */
};

struct bench_outcome {
	uint64_t bytes, ios, writes;
	double seconds;
	struct stats lat;       /* merged latency of every I/O */
	bool stopped;           /* a stop request ended the run early */
	bool huge_buffers;      /* every thread's buffer is in huge pages */
	int error;              /* errno of the first failure, 0 if none */
	const char *failed_op;  /* "read", "write", "fsync" */
	uint64_t failed_offset;
};

/* Set (e.g. by a signal handler) to end every running loop. */
extern volatile sig_atomic_t bench_stop_requested;

/* What the main thread reads of the workers' counters while they run:
 * cumulative figures since the gate opened (warm-up I/O included only
 * once it is counted).  One mechanism for progress, per-interval series
 * and fleet records. */
struct bench_sample {
	double elapsed_s;
	uint64_t bytes, ios;
};
typedef void (*bench_sample_fn)(void *ctx, const struct bench_sample *s);
struct bench_sampler {
	double interval_s;  /* how often fn is called from the calling thread */
	bench_sample_fn fn;
	void *ctx;
};

/* Runs the job; sampler may be NULL. */
int bench_run(const struct bench_job *job, struct bench_outcome *out,
	      const struct bench_sampler *sampler);

/* Where each thread's next I/O goes: sequential through its slice (or the
 * whole region when wrapping), or uniform random, block-aligned, over the
 * whole region. */
struct offset_gen {
	enum io_pattern pattern;
	uint64_t bs, start, end, next;
	bool wrap;
	struct rng rng;
};

void offset_gen_init(struct offset_gen *g, const struct bench_job *job, unsigned thread,
		     uint64_t *quota);
/* Next offset; returns false when a non-wrapping sequential slice is done. */
bool offset_gen_next(struct offset_gen *g, uint64_t *offset);

#endif
