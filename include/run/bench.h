/* The timed loop, shared by every test: N threads (each with its own
 * buffers, generator, engine and latency histograms, no lock on the hot
 * path) keep qd whole-block requests in flight through an I/O engine
 * (engine.h), timestamp each from submission to completion with
 * CLOCK_MONOTONIC, and stop at their byte quota, the deadline, an error or a
 * stop request, draining what is in flight.  Never prints. */
#ifndef BENCH_H
#define BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "arrivals.h"
#include "diskbench.h"
#include "engine.h"
#include "mix.h"
#include "rng.h"
#include "stats.h"

struct zone_map; /* zoned.h */
struct verify;   /* verify.h */

/* How a worker submits when the run chooses (job->submit_auto, issue 40):
 * its first BENCH_PROBE_WINDOWS windows, each of BENCH_PROBE_WINDOW_NS and
 * at least BENCH_PROBE_MIN_IOS completions (and twice its depth), go
 * batched (every freed request in the call that waits for the next
 * completion), one request per call, one per call, batched, and that again
 * (the order cancels a steady drift of the device or the machine; 200 ms in
 * all on a device that completes 32 requests in 25 ms); then it goes on
 * one request per call where those windows completed requests at least
 * BENCH_POLICY_GAIN_MIN times as fast as the batched ones, else batched (a
 * system call a request saved). */
#define BENCH_PROBE_WINDOWS 8u
#define BENCH_PROBE_WINDOW_NS 25000000ull
#define BENCH_PROBE_MIN_IOS 32u
#define BENCH_POLICY_GAIN_MIN 1.03

/* The choice's figures over the threads of a run. */
struct bench_policy {
	unsigned threads;    /* that chose (0: the run did not choose) */
	unsigned measured;   /* whose probe ended before the run did */
	unsigned one_by_one; /* that went on one request per call */
	double gain_min, gain_max; /* the measured threads' bench_probe_figures.gain */
};

/* What a probe measured: completions a second in its batched windows and in
 * its one-per-call ones, and gain, the second over the first (0: the
 * batched windows completed nothing). */
struct bench_probe_figures {
	double batched_rate, one_rate, gain;
};
/* Whether a thread that measured this submits one request per call: gain
 * BENCH_POLICY_GAIN_MIN or more. */
bool bench_policy_one_by_one(const struct bench_probe_figures *f);

#define BENCH_MAX_THREADS 1024
/* Warm-up I/Os per thread a run should do unless told otherwise. */
#define BENCH_WARMUP_IOS_DEFAULT 1
/* qd_hist buckets: 1, 2-3, 4-7, 8-15, 16-31, 32-63, 64 and more in flight. */
#define BENCH_QD_BUCKETS 7

/* What one of several targets did in a job (multi): its threads' counted
 * figures, added to what the part held (so that runs can add up). */
struct bench_part {
	uint64_t bytes, ios, writes;
	double seconds;       /* its threads' span, first start to last end, and its fsync */
	struct stats lat;     /* reads and writes together */
};

struct bench_job {
	int fd;
	enum io_dir dir;
	enum io_pattern pattern;
	uint64_t bs;
	uint64_t region;      /* I/O stays in [0, region), a multiple of bs */
	uint64_t bytes_limit; /* total bytes to move; UINT64_MAX: none */
	bool wrap;            /* sequential: start over at the region's end */
	bool one_pass;        /* --once: no target moves more than its region's bytes
			       * (several targets: each its own, random I/O included) */
	double time_limit_s;  /* 0: none */
	unsigned threads;
	uint64_t seed;        /* offsets, and the data written at each offset, follow from it
			       * alone: the same bytes whatever the engine or depth */
	bool zeros;
	bool fsync_at_end;    /* one fsync after the last write, inside the timing */
	double warmup_s;      /* I/O before this is done but not counted */
	struct mix mix;       /* set: each I/O's operation drawn from the seed by these
			       * shares (mix.h); all 0: every I/O goes in dir */
	const struct engine_ops *engine; /* NULL: the sync engine */
	unsigned qd;          /* requests in flight per thread; 0 means 1 */
	unsigned warmup_ios;  /* per thread, done before the timing starts, not counted
			       * (0: none; BENCH_WARMUP_IOS_DEFAULT is ioping's habit) */
	/* NULL, or called on the calling thread once every worker is ready
	 * (buffers, engine, warm-up done), just before the gate opens: the
	 * last moment before the timed loop (--start-at waits here).  Non-zero:
	 * the run ends before it starts, as if stopped. */
	int (*before_start)(void *ctx);
	void *before_start_ctx;
	/* several targets (multi), when ntargets > 1: thread i works on target
	 * i % ntargets (bench_thread_place) through fds[], over [0, regions[])
	 * of it, bytes_limit counting per target, and adds its figures to
	 * parts[] (NULL: not kept; the caller initialises them).  Otherwise fd
	 * and region alone. */
	unsigned ntargets;
	const int *fds;
	const uint64_t *regions;
	struct bench_part *parts;
	/* peer mode (issue 19): at most batch requests per submit call (0: every
	 * free slot at once; 1: one call per request, as fio by default), and
	 * buffers in ordinary 4 KiB pages as dd and fio allocate them, rather
	 * than huge pages (one scatter-gather segment per request) */
	unsigned batch;
	bool page_buffers;
	/* issue 40: batch 0 and this set leave how requests are submitted to
	 * the run (bench_policy.c): a closed loop with more than one request
	 * in flight on an engine whose submit only queues (engine_ops.flush)
	 * tries both ways in its first windows and goes on the faster.
	 * false: batch alone decides (--batch, --reap, peer mode, the sync and
	 * aio engines). */
	bool submit_auto;
	/* open loop (issue 30): rate > 0 issues I/Os on a schedule of that many
	 * a second in all (each thread rate / threads, from its own stream of
	 * arrivals), qd in flight per thread at most; a due I/O with no free
	 * slot waits, and its wait counts in its response time.  0: closed loop,
	 * a new I/O as each one completes. */
	double rate;
	enum arrivals_kind arrivals;
	bool reap_each;         /* --reap=syscall (engine_setup.reap_each) */
	bool poll, sqpoll;      /* --poll, --sqpoll (engine_setup's) */
	bool ceiling_check;     /* after a CPU-bound run, measure the tool's own ceiling
				 * (ceiling.h): the plain tests ask, sweeps and steps not */
	/* a zoned device (issue 31; zoned.h): writes go to the zones' write
	 * pointers, reads below them (the read region is the readable blocks,
	 * mapped); NULL: any other target.  Not with a mix or several targets. */
	struct zone_map *zones;
	/* --verify (issue 42; verify.h): each write claims its block and is
	 * stamped with a header and CRC, and (--witness) listed once durable;
	 * with a backlog each thread drains, pauses its clock and reads its
	 * last writes back.  NULL: off, and nothing of it on the hot path. */
	struct verify *verify;
	/* fio's fsync=N and fdatasync=N (job files, issue 41): a sync call
	 * after every sync_every writes, a request of its own whose time is
	 * counted apart (bench_outcome.lat_sync), never in the writes'; the
	 * sync engine alone runs them.  0: none. */
	unsigned sync_every;
	bool sync_data;         /* fdatasync(2); false: fsync(2) */
	bool sync_after_last;   /* the sync due after a thread's last write too: fio makes it
				 * when bytes of its size= remain short of a block */
	bool at_position;       /* the sync engine reads and writes at the file's position
				 * (engine_setup.at_position): fio's ioengine=sync */
};

/* What ended a run, so that a short one is never taken for a full one. */
enum bench_end {
	BENCH_END_NONE,   /* it did not run */
	BENCH_END_TIME,   /* the time limit */
	BENCH_END_PASS,   /* the bytes asked, or the end of a region it does not wrap */
	BENCH_END_STEADY, /* the sampler saw what the run was for (--sustained) */
	BENCH_END_STOP,   /* a stop request (SIGINT) */
	BENCH_END_ERROR,  /* an error, end of file included */
};

struct bench_outcome {
	uint64_t bytes, ios, writes, trims;
	double seconds;
	struct stats lat;       /* latency of every I/O: lat_read, lat_write, lat_trim merged
				 * (open loop: and lat_unserved) */
	struct stats lat_read, lat_write, lat_trim;
	const char *trim_path;  /* how the trims reached the kernel (engine_ops.trim_path);
				 * NULL: none ran */
	uint64_t qd_hist[BENCH_QD_BUCKETS]; /* counted I/Os by how many were in flight
					     * when each was submitted (itself included) */
	const char *engine_name; /* the engine's name ("sync", "aio", "uring") */
	double sampler_lead_s;  /* how long the sampler's clock ran before the run's (the
				 * warm-up): a sample's elapsed_s minus this is run time */
	bool stopped;           /* a stop request ended the run early */
	bool huge_buffers;      /* every thread's buffers are in huge pages */
	double cpu_busiest;     /* the busiest worker's CPU time over its timed loop's
				 * wall time (0..1): 1 means the thread, not the
				 * device, set the pace */
	int error;              /* errno of the first failure, 0 if none */
	const char *failed_op;  /* "read", "write", "fsync", "allocate", an engine's label */
	uint64_t failed_offset;
	char failed_why[160];   /* when the engine could not start: its reason
				 * ("aio unavailable: … (fs.aio-max-nr reached …)") */
	uint64_t t_start_ns;    /* clock_ns() when the first thread started counting;
				 * 0: none did */
	unsigned failed_target; /* several targets: the one the failure was on */
	/* the factors that move a figure (issue 19) */
	uint64_t submit_calls, submitted; /* counted requests and the calls that started them */
	double buffer_segments; /* mean physically contiguous runs per request buffer;
				 * < 0: the kernel does not tell */
	enum bench_end ended;
	bool eof;               /* the failure is the end of the file, at failed_offset,
				 * inside the region */
	/* open loop (job->rate > 0): lat, lat_read and lat_write are response
	 * times, from when each I/O was due; lat_service from its submission.
	 * lat also holds the unserved (lat_unserved): each waited at least
	 * from when it was due to the window's end, and is in no other figure */
	struct stats lat_service;
	struct stats lat_unserved;
	uint64_t late_ios;      /* counted I/Os submitted more than one mean gap after due */
	uint64_t max_lag_ns;    /* the longest an I/O waited past its due time to start
				 * (one never started by the end: until the end) */
	uint64_t unserved;      /* I/Os due inside the window that never started */
	/* issue 32: the engines' reap system calls in the timed loops and the
	 * completions taken in them (every thread's), and what registered
	 * (each thread's engine_facts: 0 when any thread's was refused) */
	uint64_t reap_calls, reaped;
	int fixed_buffers, fixed_file;
	char reg_why[128];      /* the first thread's refusal, or "" */
	/* issue 40: the threads that chose how to submit (job->submit_auto),
	 * those whose probe ended (measured) and chose one request per call,
	 * what they measured */
	struct bench_policy policy;
	/* a zoned device's writes (job->zones): the zones reset to be written
	 * again, each reset's time */
	uint64_t zone_resets;
	struct stats lat_zone_reset;
	/* job->sync_every: the sync calls counted, each one's time */
	uint64_t syncs;
	struct stats lat_sync;
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
	uint64_t lat[STATS_COARSE_N]; /* the counted I/Os by latency (stats_coarse_index) */
};
typedef void (*bench_sample_fn)(void *ctx, const struct bench_sample *s);
struct bench_sampler {
	double interval_s;  /* how often fn is called from the calling thread */
	bench_sample_fn fn;
	void *ctx;
	bool (*done)(void *ctx); /* NULL, or true after fn when the run may end now
				  * (a steady rate): the workers stop issuing */
};

/* Runs the job; sampler may be NULL.  -1 with out->error set when the
 * run failed (out->failed_op says what: "read", "write", "fsync", or the
 * engine's label when the engine itself failed, with failed_why when it
 * could not start) or the job is invalid (qd above what its engine
 * allows: EINVAL, failed_op "queue depth"; a block over 4 GiB: "block
 * size"). */
int bench_run(const struct bench_job *job, struct bench_outcome *out,
	      const struct bench_sampler *sampler);

/* Where each thread's next I/O goes: sequential through its slice (or the
 * whole region when wrapping), or uniform random, block-aligned, over the
 * whole region. */
struct offset_gen {
	enum io_pattern pattern;
	uint64_t bs, start, end, next;
	uint64_t blocks; /* (end - start) / bs, worked out once, not per I/O */
	bool wrap;
	struct rng rng;
};

void offset_gen_init(struct offset_gen *g, const struct bench_job *job, unsigned thread,
		     uint64_t *quota);
/* A random I/O's next offset: uniform over g's blocks, as offset_gen_next
 * draws it (which spells it out: an external inline may not call this). */
static inline uint64_t offset_gen_draw(struct offset_gen *g)
{
	return g->start + rng_below(&g->rng, g->blocks) * g->bs;
}
/* Next offset; returns false when a non-wrapping sequential slice is done. */
bool offset_gen_next(struct offset_gen *g, uint64_t *offset);

/* Several targets: thread works on target thread % ntargets, as the
 * *local-th of the *peers threads that target gets (threads of the job in
 * all); one target (ntargets 0 or 1): target 0, local = thread, peers =
 * threads.  Returns the target. */
unsigned bench_thread_place(unsigned thread, unsigned threads, unsigned ntargets,
			    unsigned *local, unsigned *peers);

/* The qd_hist bucket a depth falls in. */
unsigned bench_qd_bucket(unsigned depth);

/* bench_end.c: the end of a run.  What ended it, from a and b (two
 * threads', or the run's so far): an error, then a stop, then the
 * sampler's verdict, then the clock, then one pass. */
enum bench_end bench_end_merge(enum bench_end a, enum bench_end b);
/* The one fsync after the last write, on each target, inside the timing
 * (added to out->seconds); a failure sets out->error and failed_op. */
void bench_fsync_targets(const struct bench_job *job, struct bench_outcome *out);

#endif
