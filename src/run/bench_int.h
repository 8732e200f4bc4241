/* What the timed loop's files share, and nothing else includes: the start
 * gate, a worker thread's state and its lane of requests.  bench.c starts the
 * workers, samples them and collects their figures; bench_worker.c is one
 * worker's life: set-up, warm-up, the hot loop. */
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
	/* the engine's reap system calls in the timed loop and its drain
	 * (reap_from: before it), and the completions taken in them */
	uint64_t reap_from, reap_calls, reaped;
	struct engine_facts facts;       /* the engine's, at its close */
	bool eof;                        /* the failure is the file's end */
	/* open loop (job->rate > 0) */
	struct stats service;            /* submission to completion */
	uint64_t late_ios, max_lag_ns, unserved;
	double gap_ns;                   /* the mean gap between its arrivals */
	enum bench_end ended;
	/* a zoned device's writes (job->zones): its zones, and the resets' times */
	bool zoned_writes;
	bool zone_wait;                  /* the last slot waited for a zone's write */
	struct zone_writer zw;
	struct stats zone_reset_lat;
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

/* A worker thread: set-up, warm-up, the gate, the timed loop, clean-up. */
void *bench_worker_main(void *arg);

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
