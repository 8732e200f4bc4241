/* What the timed loop's files share, and nothing else includes: the start
 * gate, a worker thread's state and its lane of requests.  bench.c starts the
 * workers, samples them and collects their figures; bench_thread.c is one
 * worker's life around its loop (set-up, the gate, clean-up);
 * bench_worker.c its hot path, warm-up and closed loop; bench_open.c its
 * open loop. */
#ifndef BENCH_INT_H
#define BENCH_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "bench.h"
#include "zoned.h"

/* Workers finish their set-up, then wait here so that all start together. */
struct start_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned ready;
	bool open;
	atomic_int abort;    /* a failure anywhere, or the sampler's done, stops everyone */
	atomic_uint running; /* workers not yet finished */
};

struct worker {
	pthread_t tid;
	const struct bench_job *job;
	struct start_gate *gate;
	unsigned index;
	unsigned target;      /* several targets: the one it works on */
	int fd;
	struct stats lat[MIX_OPS]; /* by operation: [0] reads, [1] writes, [2] trims */
	uint64_t qd_hist[BENCH_QD_BUCKETS];
	uint64_t bytes, ios, writes, trims;
	const char *trim_path;     /* its engine's, at the end (engine_ops.trim_path) */
	atomic_uint_fast64_t progress, progress_ios;
	/* the sampler's per-interval latencies: one writer, so a relaxed load
	 * and store (a plain add) on the hot path, summed by the main thread */
	atomic_uint_fast64_t lat_coarse[STATS_COARSE_N];
	uint64_t t_start, t_end;
	uint64_t cpu_from;               /* the thread's CPU time when the timing started */
	uint64_t cpu_ns;                 /* the thread's CPU time in its timed loop, from
					  * t_start (a time-based warm-up not in it) */
	uint64_t measure_from, deadline; /* counting starts, then stops issuing */
	bool recording;                  /* past the time-based warm-up */
	int error;
	const char *failed_op;
	uint64_t failed_offset;
	char failed_why[160];
	bool stopped;
	bool huge_buffer;
	double segments;                 /* plat_buffer_segments of its slab */
	uint64_t submit_calls, submitted; /* counted requests, the calls that started them */
	/* how it submits (issue 40): batch is job->batch, or 1 once the run
	 * chose one request per call; policy_on: the run chooses
	 * (bench_policy_start), measured and policy once its probe ended */
	unsigned batch;
	bool policy_on, policy_measured;
	struct bench_probe_figures policy;
	/* the engine's reap system calls in the timed loop and its drain
	 * (reap_from: before it), and the completions taken in them */
	uint64_t reap_from, reap_calls, reaped;
	struct engine_facts facts;       /* the engine's, at its close */
	bool eof;                        /* the failure is the file's end */
	/* open loop (job->rate > 0) */
	struct stats service;            /* submission to completion */
	struct stats unserved_lat;       /* those never started: their wait to the window's end */
	uint64_t late_ios, max_lag_ns, unserved;
	double gap_ns;                   /* the mean gap between its arrivals */
	double late_ns;                  /* the whole schedule's: started later than this is late */
	enum bench_end ended;
	/* what its I/Os do, resolved once from the job: a mix's draw each, or
	 * the one operation of its direction */
	bool mixed;
	uint8_t op;
	/* a zoned device's writes (job->zones): its zones, and the resets' times */
	bool zoned_writes;
	bool zone_wait;                  /* the last slot waited for a zone's write */
	struct zone_writer zw;
	struct stats zone_reset_lat;
	/* --verify=backlog (bench_verify.c): its writes waiting to be read back,
	 * and the time its clock was stopped for that */
	struct verify_lane *vlane;
	uint64_t paused_ns;
	/* job->sync_every (bench_sync.c): writes since the last sync, the
	 * syncs counted and their times */
	uint64_t unsynced, syncs;
	struct stats sync_lat;
};

/* One worker's requests: qd of them, each with its own buffer slot in one
 * allocation, and the engine that moves them. */
struct lane {
	const struct engine_ops *ops;
	struct engine *eng;
	unsigned qd, nfree, inflight;
	uint64_t inflight_bytes;
	void *slab;
	size_t slab_len;
	struct engine_io *ios;
	struct engine_io **free, **batch, **done;
	void **bufs;
};

/* A worker thread: set-up, warm-up, the gate, the timed loop, clean-up
 * (bench_thread.c). */
void *bench_worker_main(void *arg);

/* bench_worker.c: the hot path both loops share.  The per-I/O and per-batch
 * ones are inline with their external definitions there, so that the closed
 * loop beside them inlines them as before. */

/* The worker's first failure (op at offset, errno err), and everyone's stop. */
void record_failure(struct worker *w, const char *op, uint64_t offset, int err);
/* The untimed, uncounted warm-up I/Os (job->warmup_ios) before the gate. */
void warm_up(struct worker *w, struct lane *l, const struct offset_gen *g);
bool told_to_stop(struct worker *w);
struct engine_io *take_slot(struct worker *w, struct lane *l, struct offset_gen *g,
			    uint64_t quota, struct rng *mix, unsigned *n);
int lane_submit_batch(struct worker *w, struct lane *l, unsigned n);
void loop_start(struct worker *w, struct lane *l, struct rng *mix, uint64_t start,
		uint64_t warmup_ns);
int loop_reaped(struct worker *w, struct lane *l, int got, uint64_t t1);
void loop_end(struct worker *w, struct lane *l);
/* The closed loop: qd requests in flight, each started as one completes. */
void worker_loop(struct worker *w, struct lane *l, struct offset_gen *g, uint64_t quota);

/* bench_policy.c: the run's choice of how to submit (issue 40). */
struct bench_probe {
	unsigned window;   /* 0 .. BENCH_PROBE_WINDOWS - 1 */
	uint64_t from;     /* the clock at the window's start */
	uint64_t paused_from; /* the worker's paused_ns then (--verify=backlog's reading back) */
	uint64_t ios;      /* completions reaped in it */
	double ns[2], done[2]; /* time and completions so far: [0] batched, [1] one per call */
};
/* Whether the run chooses for this worker on lane l (job->submit_auto, a
 * closed loop, more than one in flight, an engine with a flush, no --poll
 * or --sqpoll); sets w->batch and w->policy_on. */
void bench_policy_start(struct worker *w, const struct lane *l, struct bench_probe *p,
			uint64_t now);
/* Counts got completions reaped at t1 while the probe runs; false once it
 * has ended and w->batch says how the worker goes on. */
bool bench_probe_step(struct worker *w, const struct lane *l, struct bench_probe *p,
		      unsigned got, uint64_t t1);

/* bench_open.c: the open loop (--rate), I/Os on a schedule of arrivals. */
void worker_open_loop(struct worker *w, struct lane *l, struct offset_gen *g, uint64_t quota);

/* bench_verify.c, --verify's part of a worker (job->verify set).  A
 * write's claim of its block and stamp: io's offset, or for random I/O
 * another drawn from g until a block is free; false when it must wait
 * (sequential: its own write of the block is in flight; g rewound so the
 * offset comes again).  g NULL (the warm-up): no second draw. */
bool bench_verify_claim(struct worker *w, struct offset_gen *g, struct engine_io *io);
/* A write completed (the witness's line; released, or kept for the backlog). */
void bench_verify_done(struct worker *w, const struct engine_io *io);
/* --verify=backlog: the lane's batch read back with nothing in flight, the
 * worker's clock, deadline and CPU time moved past it. */
void bench_verify_pause(struct worker *w);
/* The backlog lane at the lane's opening (-1: no memory) and closing, what
 * is left in it checked then, outside the timing. */
int bench_verify_lane_open(struct worker *w, unsigned qd);
void bench_verify_lane_close(struct worker *w);
/* bench_sync.c, fio's fsync=N and fdatasync=N.  Whether the next request
 * is a sync: sync_every writes went since the last one. */
static inline bool bench_sync_due(const struct worker *w)
{
	return w->job->sync_every && w->unsynced >= w->job->sync_every;
}
/* A free slot made the sync, added to the batch. */
struct engine_io *bench_sync_take(struct worker *w, struct lane *l, unsigned *n);
/* A sync reaped at t1: counted if it started inside the timing, the slot
 * made a block again; false when it failed (-io->result). */
bool bench_sync_done(struct worker *w, struct engine_io *io, uint64_t t1);
/* "fsync" or "fdatasync", as the job's syncs are. */
const char *bench_sync_name(const struct bench_job *job);

#endif
