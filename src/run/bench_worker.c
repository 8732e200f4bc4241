/* One worker's hot path: where each I/O goes and what it does, the
 * submit calls, the accounting of what completes, the warm-up, and the
 * closed loop that keeps qd requests in flight; with the pieces the open
 * loop (bench_open.c) shares.  A worker thread's set-up and clean-up are
 * bench_thread.c's. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <errno.h>
#include <stdatomic.h>

#include "bench_int.h"
#include "clock.h"
#include "io.h"
#include "verify.h"

volatile sig_atomic_t bench_stop_requested;

/* inline: once per I/O; bench.h's declaration makes this the external
 * definition too */
inline bool offset_gen_next(struct offset_gen *g, uint64_t *offset)
{
	if (g->pattern == PAT_RAND) {
		*offset = g->start + rng_below(&g->rng, g->blocks) * g->bs;
		return true;
	}
	if (g->next >= g->end) {
		if (!g->wrap || g->end == g->start)
			return false;
		g->next = g->start;
	}
	*offset = g->next;
	g->next += g->bs;
	return true;
}

void record_failure(struct worker *w, const char *op, uint64_t offset, int err)
{
	if (w->error)
		return; /* the first failure is the one to report */
	w->error = err ? err : EIO;
	w->failed_op = op;
	w->failed_offset = offset;
	atomic_store(&w->gate->abort, 1);
}

_Static_assert(ENGINE_READ == (int)MIX_READ && ENGINE_WRITE == (int)MIX_WRITE &&
	       ENGINE_TRIM == (int)MIX_TRIM, "one numbering of the operations");

/* The generator's next offset; on a zoned device mapped below the write
 * pointers (a read's).  False when a non-wrapping slice is done. */
static bool gen_offset(const struct bench_job *job, struct offset_gen *g, uint64_t *offset)
{
	if (!offset_gen_next(g, offset))
		return false;
	if (job->zones)
		*offset = zone_map_read_offset(job->zones, *offset);
	return true;
}

/* Where the next I/O goes: gen_offset's, or for a zoned device's writes the
 * next write pointer of a zone with none in flight (ZONE_WAIT: none now). */
static enum zone_next next_offset(struct worker *w, struct offset_gen *g, uint64_t *offset)
{
	if (w->zoned_writes) {
		enum zone_next got = zone_writer_next(&w->zw, g->pattern == PAT_RAND, &g->rng, offset);
		if (got == ZONE_FAIL)
			record_failure(w, "zone reset", w->zw.failed_offset, w->zw.error);
		return got;
	}
	return gen_offset(w->job, g, offset) ? ZONE_IO : ZONE_DONE;
}

/* This I/O's operation: the job's one, or for a mixed job (--mix, sweep
 * --write) a draw of the generator by the mix's shares. */
static inline uint8_t next_op(const struct worker *w, struct rng *mix)
{
	if (!w->mixed)
		return w->op;
	return (uint8_t)mix_pick(&w->job->mix, (unsigned)rng_below(mix, 100));
}

/* The warm-up's operation: the job's one, or a mix's first. */
static uint8_t warm_up_op(const struct worker *w)
{
	return w->mixed ? (uint8_t)mix_first(&w->job->mix) : w->op;
}

/* Makes io a fresh request for offset.  The data a write carries depend
 * only on (offset, seed): every slot holds the same base pattern, and the
 * stamps overwrite the same places in it. */
static void prepare_io(struct engine_io *io, const struct bench_job *job, uint64_t offset,
		       uint8_t op)
{
	bool is_write = op == ENGINE_WRITE;
	io->offset = offset;
	io->write = is_write;
	io->op = op;
	io->done = 0;
	io->retries = 0;
	io->t_done = 0;
	if (is_write && !job->zeros && !job->verify) /* --verify: bench_verify_claim stamps */
		io_stamp(io->buf, io->len, offset, job->seed ^ 0x5eedu);
}

/* The engine's reap system calls so far (0 for one that has none). */
static uint64_t lane_reap_calls(const struct lane *l)
{
	struct engine_facts f = { 0 };
	if (l->ops->facts)
		l->ops->facts(l->eng, &f);
	return f.reap_calls;
}

/* Stamps n requests from ios with the submission time and the depth they
 * make, and starts them in one submit call. */
static int lane_submit(struct worker *w, struct lane *l, struct engine_io **ios, unsigned n)
{
	uint64_t t0 = clock_ns();
	uint16_t depth = (uint16_t)(l->inflight + n);
	for (unsigned i = 0; i < n; i++) {
		ios[i]->t_submit = t0;
		ios[i]->depth = depth;
	}
	int rc = l->ops->submit(l->eng, ios, n);
	if (rc < 0) {
		record_failure(w, ios[0]->write ? "write" : "read", ios[0]->offset, -rc);
		for (unsigned i = 0; i < n; i++)
			l->free[l->nfree++] = ios[i];
		l->inflight_bytes -= (uint64_t)n * w->job->bs;
		return -1;
	}
	l->inflight += n;
	/* --batch, or one per call chosen: these n in a system call of their
	 * own, as fio commits them */
	if (w->batch && l->ops->flush && (rc = l->ops->flush(l->eng)) < 0) {
		record_failure(w, ios[0]->write ? "write" : "read", ios[0]->offset, -rc);
		return -1;
	}
	if (w->recording) {
		w->submit_calls++;
		w->submitted += n;
	}
	return 0;
}

/* The batch in submit calls of at most w->batch requests each (--batch, or
 * one chosen by the run; 0: all in one).  On a failure the requests not yet
 * started go back. */
inline int lane_submit_batch(struct worker *w, struct lane *l, unsigned n)
{
	if (!w->batch) /* batched: one call */
		return lane_submit(w, l, l->batch, n);
	unsigned most = w->batch;
	for (unsigned at = 0; at < n; at += most) {
		unsigned k = n - at < most ? n - at : most;
		if (lane_submit(w, l, l->batch + at, k) == 0)
			continue;
		for (unsigned i = at + k; i < n; i++)
			l->free[l->nfree++] = l->batch[i];
		l->inflight_bytes -= (uint64_t)(n - at - k) * w->job->bs;
		return -1;
	}
	return 0;
}

/* Warm-up I/O (ioping's habit): the first request of a run may wake a
 * device from a power-saving state or spin a disk up.  It runs before the
 * gate opens, so it is neither timed nor counted.  Its offsets come from a
 * copy of the generator, so the counted offsets are the same with or
 * without it; random ones from a stream of their own, so that the first
 * counted read does not find what the warm-up just cached. */
void warm_up(struct worker *w, struct lane *l, const struct offset_gen *g)
{
	const struct bench_job *job = w->job;
	struct offset_gen wg = *g;
	uint64_t offset;
	if (wg.pattern == PAT_RAND)
		rng_seed(&wg.rng, job->seed, 0x3a3a0000u + w->index);
	if (w->zoned_writes)
		return; /* a zone's writes go in order: each is one of the run's */
	for (unsigned i = 0; i < job->warmup_ios && gen_offset(job, &wg, &offset); i++) {
		struct engine_io *io = l->free[--l->nfree];
		prepare_io(io, job, offset, warm_up_op(w));
		if (job->verify && io->write && !bench_verify_claim(w, NULL, io)) {
			l->free[l->nfree++] = io; /* another thread's warm-up writes it */
			return;
		}
		l->batch[0] = io;
		l->inflight_bytes += job->bs;
		if (lane_submit(w, l, l->batch, 1) != 0)
			return;
		int got = l->ops->reap(l->eng, l->done, 1, 1);
		l->free[l->nfree++] = io;
		if (job->verify && io->write)
			bench_verify_done(w, io);
		l->inflight = 0;
		l->inflight_bytes = 0;
		if (got != 1) {
			record_failure(w, l->ops->label, 0, got < 0 ? -got : EIO);
			return;
		}
		if (io->result < 0) {
			record_failure(w, mix_op_name(io->op), io->offset, (int)-io->result);
			return;
		}
		if (io->result < io->len)
			return; /* end of file: the run finds it too, and fails */
	}
}

/* When io ended: the reap's t1, or the engine's own stamp for a request it
 * did synchronously (a trim it cannot queue), which the other work of its
 * submit call and the reap after it must not lengthen. */
static inline uint64_t io_end(const struct engine_io *io, uint64_t t1)
{
	return io->t_done ? io->t_done : t1;
}

/* Whether a completion at t1 counts.  Closed loop: an I/O started inside
 * the timing; after a time-based warm-up (sweep's points, sla's probe),
 * one completing inside the window, whenever it started, since the
 * requests in flight when the window opens would otherwise leave its first
 * service times empty (a 0.2 s window at 32 in flight on a 400-IOPS disk
 * counted 250 a second).  Open loop: an I/O due inside the window. */
static bool counted(const struct worker *w, const struct engine_io *io, uint64_t t1)
{
	if (!w->recording)
		return false;
	if (w->job->rate > 0)
		return io->t_due >= w->t_start;
	if (w->job->warmup_s > 0)
		return t1 <= w->deadline;
	return io->t_submit >= w->t_start;
}

/* Open loop: the service time, and how late the I/O started (late: by
 * more than the whole schedule's mean gap, not its thread's). */
static void count_open(struct worker *w, const struct engine_io *io, uint64_t t1)
{
	stats_add(&w->service, t1 - io->t_submit);
	uint64_t lag = io->t_submit > io->t_due ? io->t_submit - io->t_due : 0;
	w->late_ios += (double)lag > w->late_ns;
	w->max_lag_ns = lag > w->max_lag_ns ? lag : w->max_lag_ns;
}

/* Completions reaped together share t1, and those submitted together share
 * t0 and depth: a run of them has one latency, counted once for the run. */
struct lat_run {
	uint64_t from, n;
	uint16_t depth;
	uint8_t op;
};

static inline void count_run(struct worker *w, const struct lat_run *run, uint64_t t1)
{
	if (run->n == 0)
		return;
	stats_add_n(&w->lat[run->op], t1 - run->from, run->n);
	atomic_uint_fast64_t *c = &w->lat_coarse[stats_coarse_index(t1 - run->from)];
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + run->n,
			      memory_order_relaxed);
	w->qd_hist[bench_qd_bucket(run->depth)] += run->n;
	w->ios += run->n;
	w->writes += run->op == ENGINE_WRITE ? run->n : 0;
	w->trims += run->op == ENGINE_TRIM ? run->n : 0;
}

/* The first completion at or after the time-based warm-up's end, at t1:
 * counting starts.  Closed loop: the window from t1, since what was in
 * flight before does not count; open loop: it stays the schedule's, from
 * measure_from.  The thread's CPU time from here, not the warm-up's. */
static void start_recording(struct worker *w, uint64_t t1)
{
	const struct bench_job *job = w->job;
	w->recording = true;
	w->cpu_from = clock_thread_cpu_ns();
	if (job->rate > 0)
		return;
	w->t_start = t1;
	if (job->time_limit_s > 0)
		w->deadline = t1 + (uint64_t)(job->time_limit_s * 1e9);
}

/* Counts what was reaped at t1; false once no more should be issued (an
 * error, end of file, the deadline). */
static bool account(struct worker *w, struct lane *l, unsigned got, uint64_t t1)
{
	const struct bench_job *job = w->job;
	bool go_on = true;
	struct lat_run run = { 0 };
	if (!w->recording && t1 >= w->measure_from)
		start_recording(w, t1);
	for (unsigned i = 0; i < got; i++) {
		struct engine_io *io = l->done[i];
		l->free[l->nfree++] = io;
		if (w->zoned_writes)
			zone_writer_done(&w->zw, io->offset);
		l->inflight--;
		l->inflight_bytes -= io->len;
		if (io->op >= ENGINE_FSYNC) { /* fio's fsync=N: bench_sync.c */
			if (!bench_sync_done(w, io, t1))
				record_failure(w, bench_sync_name(job), 0, (int)-io->result), go_on = false;
			continue;
		}
		if (job->verify && io->op == ENGINE_WRITE)
			bench_verify_done(w, io);
		if (io->result < 0) {
			record_failure(w, mix_op_name(io->op), io->offset, (int)-io->result);
			go_on = false;
			continue;
		}
		if (io->result < io->len) {
			/* the file ends inside the region it was planned to cover: it
			 * shrank, and a short figure must not pass for a whole one */
			w->eof = !w->error;
			record_failure(w, mix_op_name(io->op),
				       io->offset + (uint64_t)io->result, ENODATA);
			go_on = false;
			continue;
		}
		uint64_t end = io_end(io, t1);
		if (io->result == 0 || !counted(w, io, end))
			continue;
		uint64_t from = job->rate > 0 ? io->t_due : io->t_submit;
		if (job->rate > 0)
			count_open(w, io, end);
		w->bytes += (uint64_t)io->result;
		if (end != t1) { /* its own end: a run of one */
			count_run(w, &(struct lat_run){ from, 1, io->depth, io->op }, end);
			continue;
		}
		if (run.n > 0 && from == run.from && io->op == run.op && io->depth == run.depth) {
			run.n++;
			continue;
		}
		count_run(w, &run, t1);
		run = (struct lat_run){ .from = from, .n = 1, .depth = io->depth, .op = io->op };
	}
	count_run(w, &run, t1);
	atomic_store_explicit(&w->progress, w->bytes, memory_order_relaxed);
	atomic_store_explicit(&w->progress_ios, w->ios, memory_order_relaxed);
	if (go_on && t1 >= w->deadline && w->ended == BENCH_END_NONE)
		w->ended = BENCH_END_TIME;
	return go_on && t1 < w->deadline;
}

/* Whether a stop was asked (Ctrl-C) or another worker failed or the sampler
 * is done: then what ended the run is set, once. */
inline bool told_to_stop(struct worker *w)
{
	if (!bench_stop_requested && !atomic_load_explicit(&w->gate->abort, memory_order_relaxed))
		return false;
	w->stopped = bench_stop_requested != 0;
	if (w->ended == BENCH_END_NONE)
		w->ended = w->stopped ? BENCH_END_STOP : BENCH_END_STEADY;
	return true;
}

/* A free slot made the next request, added to the batch; NULL when the
 * quota or the region says no more. */
inline struct engine_io *take_slot(struct worker *w, struct lane *l, struct offset_gen *g,
				   uint64_t quota, struct rng *mix, unsigned *n)
{
	const struct bench_job *job = w->job;
	uint64_t offset;
	if (bench_sync_due(w) && (w->bytes + l->inflight_bytes < quota || job->sync_after_last))
		return bench_sync_take(w, l, n);
	enum zone_next got = w->bytes + l->inflight_bytes >= quota ? ZONE_DONE
								   : next_offset(w, g, &offset);
	w->zone_wait = got == ZONE_WAIT;
	if (got != ZONE_IO) {
		if (got == ZONE_DONE && w->ended == BENCH_END_NONE)
			w->ended = BENCH_END_PASS;
		return NULL;
	}
	struct engine_io *io = l->free[--l->nfree];
	prepare_io(io, job, offset, next_op(w, mix));
	if (job->verify && io->op == ENGINE_WRITE && !bench_verify_claim(w, g, io)) {
		l->free[l->nfree++] = io;
		w->zone_wait = true; /* more once a write of its block completes */
		return NULL;
	}
	w->unsynced += io->op == ENGINE_WRITE;
	l->batch[(*n)++] = io;
	l->inflight_bytes += job->bs;
	return io;
}

/* Takes up to every free slot for new requests; false when the quota, the
 * region or a stop request says no more. */
static bool fill_batch(struct worker *w, struct lane *l, struct offset_gen *g, uint64_t quota,
		       struct rng *mix, unsigned *n)
{
	*n = 0;
	if (told_to_stop(w))
		return false;
	while (l->nfree > 0)
		if (!take_slot(w, l, g, quota, mix, n))
			return w->zone_wait; /* a zoned device's writes: more once one completes */
	return true;
}

/* Both loops' start: the mix's stream of draws, the timing's window from
 * start (counting once warmup_ns have passed, for the time limit after
 * that), the thread's CPU time and the engine's reap calls from here. */
void loop_start(struct worker *w, struct lane *l, struct rng *mix, uint64_t start,
		uint64_t warmup_ns)
{
	const struct bench_job *job = w->job;
	rng_seed(mix, job->seed, 0x31c0000u + w->index);
	w->cpu_from = clock_thread_cpu_ns();
	w->t_start = start;
	w->measure_from = start + warmup_ns;
	w->recording = warmup_ns == 0;
	w->deadline = job->time_limit_s > 0 ? w->measure_from + (uint64_t)(job->time_limit_s * 1e9)
					    : UINT64_MAX;
	w->reap_from = lane_reap_calls(l);
}

/* Both loops' step after a reap at t1 that returned got (or -errno): the
 * completions counted.  -1 when the engine failed (its close waits for
 * the rest), 0 once no more should be issued (an error, end of file, the
 * deadline), 1 to go on. */
inline int loop_reaped(struct worker *w, struct lane *l, int got, uint64_t t1)
{
	if (got < 0) {
		record_failure(w, l->ops->label, 0, -got);
		return -1;
	}
	w->reaped += (unsigned)got;
	return account(w, l, (unsigned)got, t1) ? 1 : 0;
}

/* Both loops' end: the engine's reap calls in the loop, the time now as
 * the window's end (each loop then bounds it to its window) and the
 * thread's CPU time in it. */
void loop_end(struct worker *w, struct lane *l)
{
	w->reap_calls = lane_reap_calls(l) - w->reap_from;
	w->t_end = clock_ns();
	w->cpu_ns = clock_thread_cpu_ns() - w->cpu_from;
}

/* The hot path: choose offsets, timestamp, submit, reap, timestamp, count;
 * at queue depth 1 with the sync engine that is offset, clock, pread or
 * pwrite, clock.  Once issuing stops, what is in flight is drained. */
void worker_loop(struct worker *w, struct lane *l, struct offset_gen *g, uint64_t quota)
{
	const struct bench_job *job = w->job;
	const uint64_t warmup_ns = (uint64_t)(job->warmup_s * 1e9);
	bool issuing = true;
	struct rng mix;
	struct bench_probe probe;
	uint64_t now = clock_ns();

	loop_start(w, l, &mix, now, warmup_ns);
	bench_policy_start(w, l, &probe, now);
	bool probing = w->policy_on;
	for (;;) {
		unsigned n = 0;
		if (issuing && !(w->vlane && verify_lane_due(w->vlane))) /* a backlog: drain first */
			issuing = fill_batch(w, l, g, quota, &mix, &n);
		if (n > 0 && lane_submit_batch(w, l, n) != 0)
			issuing = false;
		if (l->inflight == 0 && w->vlane && verify_lane_pending(w->vlane)) {
			bench_verify_pause(w);
			continue;
		}
		if (l->inflight == 0)
			break;
		int got = l->ops->reap(l->eng, l->done, 1, l->qd);
		uint64_t t1 = clock_ns();
		if (probing && got > 0) /* how to submit: both ways tried first */
			probing = bench_probe_step(w, l, &probe, (unsigned)got, t1);
		int rc = loop_reaped(w, l, got, t1);
		if (rc < 0)
			break; /* the engine is broken: its close waits for the rest */
		if (rc == 0)
			issuing = false;
	}
	loop_end(w, l);
	if (warmup_ns > 0 && w->t_end > w->deadline)
		w->t_end = w->deadline; /* what completed after the window is not counted */
	w->t_end -= w->paused_ns; /* --verify=backlog's reading back is not the run's time */
}
