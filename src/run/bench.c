#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "io.h"
#include "platform.h"

volatile sig_atomic_t bench_stop_requested;

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
	struct stats lat[2];  /* by direction: [0] reads, [1] writes */
	uint64_t qd_hist[BENCH_QD_BUCKETS];
	uint64_t bytes, ios, writes;
	atomic_uint_fast64_t progress, progress_ios;
	/* the sampler's per-interval latencies: one writer, so a relaxed load
	 * and store (a plain add) on the hot path, summed by the main thread */
	atomic_uint_fast64_t lat_coarse[STATS_COARSE_N];
	uint64_t t_start, t_end;
	uint64_t cpu_ns;                 /* the thread's CPU time in its timed loop */
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
	bool eof;                        /* the failure is the file's end */
	enum bench_end ended;
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

bool offset_gen_next(struct offset_gen *g, uint64_t *offset)
{
	if (g->pattern == PAT_RAND) {
		*offset = g->start + rng_below(&g->rng, (g->end - g->start) / g->bs) * g->bs;
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

unsigned bench_qd_bucket(unsigned depth)
{
	if (depth <= 1)
		return 0;
	unsigned log2 = 31u - (unsigned)__builtin_clz(depth);
	return log2 < BENCH_QD_BUCKETS - 1 ? log2 : BENCH_QD_BUCKETS - 1;
}

static bool gate_wait(struct start_gate *gate)
{
	pthread_mutex_lock(&gate->lock);
	gate->ready++;
	pthread_cond_broadcast(&gate->cond);
	while (!gate->open)
		pthread_cond_wait(&gate->cond, &gate->lock);
	pthread_mutex_unlock(&gate->lock);
	return atomic_load(&gate->abort) == 0;
}

static void record_failure(struct worker *w, const char *op, uint64_t offset, int err)
{
	if (w->error)
		return; /* the first failure is the one to report */
	w->error = err ? err : EIO;
	w->failed_op = op;
	w->failed_offset = offset;
	atomic_store(&w->gate->abort, 1);
}

/* Whether this I/O is a write: the job's direction, or for a mixed job
 * (write_pct of reads turned into writes) a draw of the generator. */
static bool next_is_write(const struct bench_job *job, struct rng *mix)
{
	if (job->write_pct == 0)
		return job->dir == IO_WRITE;
	return rng_below(mix, 100) < job->write_pct;
}

/* Makes io a fresh request for offset.  The data a write carries depend
 * only on (offset, seed): every slot holds the same base pattern, and the
 * stamps overwrite the same places in it. */
static void prepare_io(struct engine_io *io, const struct bench_job *job, uint64_t offset,
		       bool is_write)
{
	io->offset = offset;
	io->write = is_write;
	io->done = 0;
	io->retries = 0;
	if (is_write && !job->zeros)
		io_stamp(io->buf, io->len, offset, job->seed ^ 0x5eedu);
}

static int lane_open(struct lane *l, struct worker *w)
{
	const struct bench_job *job = w->job;
	struct rng data_rng;
	memset(l, 0, sizeof(*l));
	l->ops = job->engine ? job->engine : &engine_sync;
	l->qd = job->qd ? job->qd : 1;
	l->slab_len = (size_t)job->bs * l->qd;
	l->slab = job->page_buffers ? plat_buffer_alloc_pages(l->slab_len)
				    : plat_buffer_alloc(l->slab_len);
	size_t each = sizeof(struct engine_io) + 3 * sizeof(struct engine_io *) + sizeof(void *);
	l->ios = calloc(l->qd, each);
	if (!l->slab || !l->ios) {
		record_failure(w, "allocate", 0, errno ? errno : ENOMEM);
		return -1;
	}
	l->free = (struct engine_io **)(l->ios + l->qd);
	l->batch = l->free + l->qd;
	l->done = l->batch + l->qd;
	l->bufs = (void **)(l->done + l->qd);
	rng_seed(&data_rng, job->seed, 0xda7a0000u);
	io_fill(l->slab, job->bs, job->zeros, &data_rng);
	for (unsigned i = 0; i < l->qd; i++) {
		struct engine_io *io = &l->ios[i];
		io->buf = l->bufs[i] = (char *)l->slab + (size_t)i * job->bs;
		if (i > 0)
			memcpy(io->buf, l->slab, job->bs);
		io->len = (uint32_t)job->bs;
		io->slot = i;
		l->free[l->nfree++] = &l->ios[l->qd - 1 - i]; /* slot 0 on top */
	}
	w->huge_buffer = plat_buffer_is_huge(l->slab, l->slab_len);
	w->segments = plat_buffer_segments(l->slab, job->bs, l->qd);
	l->eng = l->ops->open(w->fd, l->qd, l->bufs, job->bs, w->failed_why,
			      sizeof(w->failed_why));
	if (!l->eng) {
		record_failure(w, l->ops->label, 0, errno);
		return -1;
	}
	return 0;
}

static void lane_close(struct lane *l)
{
	if (l->eng)
		l->ops->close(l->eng); /* waits for what is in flight */
	if (l->slab)
		plat_buffer_free(l->slab, l->slab_len);
	free(l->ios);
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
	/* --batch: these n in a system call of their own, as fio commits them */
	if (w->job->batch && l->ops->flush && (rc = l->ops->flush(l->eng)) < 0) {
		record_failure(w, ios[0]->write ? "write" : "read", ios[0]->offset, -rc);
		return -1;
	}
	if (w->recording) {
		w->submit_calls++;
		w->submitted += n;
	}
	return 0;
}

/* The batch in submit calls of at most job->batch requests each (--batch;
 * 0: all in one).  On a failure the requests not yet started go back. */
static int lane_submit_batch(struct worker *w, struct lane *l, unsigned n)
{
	unsigned most = w->job->batch ? w->job->batch : n;
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
static void warm_up(struct worker *w, struct lane *l, const struct offset_gen *g)
{
	const struct bench_job *job = w->job;
	struct offset_gen wg = *g;
	uint64_t offset;
	if (wg.pattern == PAT_RAND)
		rng_seed(&wg.rng, job->seed, 0x3a3a0000u + w->index);
	for (unsigned i = 0; i < job->warmup_ios && offset_gen_next(&wg, &offset); i++) {
		struct engine_io *io = l->free[--l->nfree];
		prepare_io(io, job, offset, job->dir == IO_WRITE);
		l->batch[0] = io;
		l->inflight_bytes += job->bs;
		if (lane_submit(w, l, l->batch, 1) != 0)
			return;
		int got = l->ops->reap(l->eng, l->done, 1, 1);
		l->free[l->nfree++] = io;
		l->inflight = 0;
		l->inflight_bytes = 0;
		if (got != 1) {
			record_failure(w, l->ops->label, 0, got < 0 ? -got : EIO);
			return;
		}
		if (io->result < 0) {
			record_failure(w, io->write ? "write" : "read", io->offset, (int)-io->result);
			return;
		}
		if (io->result < io->len)
			return; /* end of file: the run finds it too, and fails */
	}
}

static void count_coarse(struct worker *w, uint64_t ns)
{
	atomic_uint_fast64_t *c = &w->lat_coarse[stats_coarse_index(ns)];
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

/* Counts what was reaped at t1; false once no more should be issued (an
 * error, end of file, the deadline). */
static bool account(struct worker *w, struct lane *l, unsigned got, uint64_t t1)
{
	const struct bench_job *job = w->job;
	bool go_on = true;
	if (!w->recording && t1 >= w->measure_from) {
		w->recording = true;
		w->t_start = t1; /* what was in flight before does not count */
		if (job->time_limit_s > 0)
			w->deadline = t1 + (uint64_t)(job->time_limit_s * 1e9);
	}
	for (unsigned i = 0; i < got; i++) {
		struct engine_io *io = l->done[i];
		l->free[l->nfree++] = io;
		l->inflight--;
		l->inflight_bytes -= io->len;
		if (io->result < 0) {
			record_failure(w, io->write ? "write" : "read", io->offset, (int)-io->result);
			go_on = false;
			continue;
		}
		if (io->result < io->len) {
			/* the file ends inside the region it was planned to cover: it
			 * shrank, and a short figure must not pass for a whole one */
			w->eof = !w->error;
			record_failure(w, io->write ? "write" : "read",
				       io->offset + (uint64_t)io->result, ENODATA);
			go_on = false;
			continue;
		}
		if (io->result == 0 || !w->recording || io->t_submit < w->t_start)
			continue;
		stats_add(&w->lat[io->write], t1 - io->t_submit);
		count_coarse(w, t1 - io->t_submit);
		w->bytes += (uint64_t)io->result;
		w->ios++;
		w->writes += io->write;
		w->qd_hist[bench_qd_bucket(io->depth)]++;
	}
	atomic_store_explicit(&w->progress, w->bytes, memory_order_relaxed);
	atomic_store_explicit(&w->progress_ios, w->ios, memory_order_relaxed);
	if (go_on && t1 >= w->deadline && w->ended == BENCH_END_NONE)
		w->ended = BENCH_END_TIME;
	return go_on && t1 < w->deadline;
}

/* Takes up to every free slot for new requests; false when the quota, the
 * region or a stop request says no more. */
static bool fill_batch(struct worker *w, struct lane *l, struct offset_gen *g, uint64_t quota,
		       struct rng *mix, unsigned *n)
{
	const struct bench_job *job = w->job;
	uint64_t offset;
	*n = 0;
	if (bench_stop_requested || atomic_load_explicit(&w->gate->abort, memory_order_relaxed)) {
		w->stopped = bench_stop_requested != 0;
		if (w->ended == BENCH_END_NONE)
			w->ended = w->stopped ? BENCH_END_STOP : BENCH_END_STEADY;
		return false;
	}
	while (l->nfree > 0) {
		if (w->bytes + l->inflight_bytes >= quota || !offset_gen_next(g, &offset)) {
			if (w->ended == BENCH_END_NONE)
				w->ended = BENCH_END_PASS;
			return false;
		}
		struct engine_io *io = l->free[--l->nfree];
		prepare_io(io, job, offset, next_is_write(job, mix));
		l->batch[(*n)++] = io;
		l->inflight_bytes += job->bs;
	}
	return true;
}

/* This thread's CPU time: read twice per worker, outside the hot loop. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The hot path: choose offsets, timestamp, submit, reap, timestamp, count;
 * at queue depth 1 with the sync engine that is offset, clock, pread or
 * pwrite, clock.  Once issuing stops, what is in flight is drained. */
static void worker_loop(struct worker *w, struct lane *l, struct offset_gen *g, uint64_t quota)
{
	const struct bench_job *job = w->job;
	const uint64_t warmup_ns = (uint64_t)(job->warmup_s * 1e9);
	bool issuing = true;
	struct rng mix;

	rng_seed(&mix, job->seed, 0x31c0000u + w->index);
	uint64_t cpu0 = thread_cpu_ns();
	w->t_start = clock_ns();
	w->measure_from = w->t_start + warmup_ns;
	w->recording = warmup_ns == 0;
	w->deadline = job->time_limit_s > 0 ? w->measure_from + (uint64_t)(job->time_limit_s * 1e9)
					    : UINT64_MAX;
	for (;;) {
		unsigned n = 0;
		if (issuing)
			issuing = fill_batch(w, l, g, quota, &mix, &n);
		if (n > 0 && lane_submit_batch(w, l, n) != 0)
			issuing = false;
		if (l->inflight == 0)
			break;
		int got = l->ops->reap(l->eng, l->done, 1, l->qd);
		uint64_t t1 = clock_ns();
		if (got < 0) {
			record_failure(w, l->ops->label, 0, -got);
			break; /* the engine is broken: its close waits for the rest */
		}
		if (!account(w, l, (unsigned)got, t1))
			issuing = false;
	}
	w->t_end = clock_ns();
	w->cpu_ns = thread_cpu_ns() - cpu0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct bench_job *job = w->job;
	struct offset_gen g;
	struct lane lane;
	uint64_t quota;

	int ready = lane_open(&lane, w);
	offset_gen_init(&g, job, w->index, &quota);
	if (ready == 0)
		warm_up(w, &lane, &g);
	if (gate_wait(w->gate) && ready == 0)
		worker_loop(w, &lane, &g, quota);
	lane_close(&lane);
	atomic_fetch_sub(&w->gate->running, 1);
	return NULL;
}

static void sample_counters(struct worker *workers, unsigned n, struct bench_sample *s)
{
	s->bytes = s->ios = 0;
	memset(s->lat, 0, sizeof(s->lat));
	for (unsigned i = 0; i < n; i++) {
		s->bytes += atomic_load_explicit(&workers[i].progress, memory_order_relaxed);
		s->ios += atomic_load_explicit(&workers[i].progress_ios, memory_order_relaxed);
		for (unsigned b = 0; b < STATS_COARSE_N; b++)
			s->lat[b] += atomic_load_explicit(&workers[i].lat_coarse[b],
							  memory_order_relaxed);
	}
}

/* Opens the gate once every worker waits at it; job->before_start runs
 * in between.  True when that hook cancelled the run. */
static bool open_gate(struct start_gate *gate, unsigned started, const struct bench_job *job)
{
	bool cancelled = false;
	pthread_mutex_lock(&gate->lock);
	while (gate->ready < started)
		pthread_cond_wait(&gate->cond, &gate->lock);
	pthread_mutex_unlock(&gate->lock);
	if (job->before_start && atomic_load(&gate->abort) == 0 &&
	    job->before_start(job->before_start_ctx) != 0) {
		cancelled = true;
		atomic_store(&gate->abort, 1);
	}
	pthread_mutex_lock(&gate->lock);
	gate->open = true;
	pthread_cond_broadcast(&gate->cond);
	pthread_mutex_unlock(&gate->lock);
	return cancelled;
}

static void wait_sampling(struct start_gate *gate, struct worker *workers, unsigned n,
			  const struct bench_sampler *sampler, uint64_t *began)
{
	uint64_t begin = clock_ns(), every = (uint64_t)(sampler->interval_s * 1e9);
	*began = begin;
	uint64_t next = begin + every, now = begin;
	struct bench_sample s;
	while (atomic_load(&gate->running) > 0) {
		/* wake at the next sample, or every 5 ms to see the end of the run: the
		 * record's second instant (the disks' counters) waits for this wake */
		uint64_t nap = next > now && next - now < 5000000u ? next - now : 5000000u;
		struct timespec step = { (time_t)(nap / 1000000000u), (long)(nap % 1000000000u) };
		nanosleep(&step, NULL);
		now = clock_ns();
		if (now < next)
			continue;
		sample_counters(workers, n, &s);
		s.elapsed_s = (double)(now - begin) / 1e9;
		sampler->fn(sampler->ctx, &s);
		/* the run has shown what it was for: stop issuing, as at the deadline */
		if (sampler->done && sampler->done(sampler->ctx))
			atomic_store(&gate->abort, 1);
		next += every * ((now - next) / every + 1);
	}
}

/* What ended the run as a whole (bench_end_merge over the threads). */
static enum bench_end run_ended(const struct worker *workers, unsigned n,
				const struct bench_outcome *out)
{
	enum bench_end e = out->error ? BENCH_END_ERROR : out->stopped ? BENCH_END_STOP
								    : BENCH_END_NONE;
	for (unsigned i = 0; i < n; i++)
		e = bench_end_merge(e, workers[i].ended);
	return e;
}

static void collect(struct worker *workers, unsigned n, uint64_t sampled_from,
		    struct bench_outcome *out)
{
	uint64_t start = UINT64_MAX, end = 0;
	out->huge_buffers = n > 0;
	out->buffer_segments = n > 0 ? 0 : -1; /* the threads' mean; -1 if any is unknown */
	for (unsigned i = 0; i < n; i++) {
		struct worker *w = &workers[i];
		out->huge_buffers &= w->huge_buffer;
		out->buffer_segments = w->segments < 0 || out->buffer_segments < 0
					       ? -1 : out->buffer_segments + w->segments / n;
		out->submit_calls += w->submit_calls;
		out->submitted += w->submitted;
		stats_merge(&out->lat_read, &w->lat[0]);
		stats_merge(&out->lat_write, &w->lat[1]);
		for (unsigned b = 0; b < BENCH_QD_BUCKETS; b++)
			out->qd_hist[b] += w->qd_hist[b];
		out->bytes += w->bytes;
		out->ios += w->ios;
		out->writes += w->writes;
		out->stopped |= w->stopped;
		if (w->t_start && w->t_start < start)
			start = w->t_start;
		if (w->t_end > end)
			end = w->t_end;
		if (w->t_end > w->t_start) {
			double busy = (double)w->cpu_ns / (double)(w->t_end - w->t_start);
			out->cpu_busiest = busy > out->cpu_busiest ? busy : out->cpu_busiest;
		}
		if (w->error && !out->error) {
			out->error = w->error;
			out->failed_op = w->failed_op;
			out->failed_offset = w->failed_offset;
			out->failed_target = w->target;
			out->eof = w->eof;
			memcpy(out->failed_why, w->failed_why, sizeof(out->failed_why));
		}
	}
	stats_merge(&out->lat, &out->lat_read);
	stats_merge(&out->lat, &out->lat_write);
	out->seconds = end > start ? (double)(end - start) / 1e9 : 0.0;
	if (sampled_from && start != UINT64_MAX && start > sampled_from)
		out->sampler_lead_s = (double)(start - sampled_from) / 1e9;
	out->t_start_ns = start == UINT64_MAX ? 0 : start;
	out->ended = run_ended(workers, n, out);
}

/* Several targets: each one's figures from the threads on it (thread i
 * works on target i % ntargets), added to job->parts.  Every part is timed
 * over the run's common window (its fsyncs included), so that the
 * per-target rates add up to the total: a target that finished early did
 * not make the others faster. */
static void collect_parts(const struct bench_job *job, const struct worker *workers, unsigned n,
			  double window_s)
{
	for (unsigned k = 0; k < job->ntargets; k++) {
		struct bench_part *p = &job->parts[k];
		for (unsigned i = k; i < n; i += job->ntargets) {
			const struct worker *w = &workers[i];
			p->bytes += w->bytes;
			p->ios += w->ios;
			p->writes += w->writes;
			stats_merge(&p->lat, &w->lat[0]);
			stats_merge(&p->lat, &w->lat[1]);
		}
		p->seconds += window_s;
	}
}

int bench_run(const struct bench_job *job, struct bench_outcome *out,
	      const struct bench_sampler *sampler)
{
	struct start_gate gate = { .lock = PTHREAD_MUTEX_INITIALIZER,
				   .cond = PTHREAD_COND_INITIALIZER };
	const struct engine_ops *ops = job->engine ? job->engine : &engine_sync;
	unsigned qd = job->qd ? job->qd : 1;
	memset(out, 0, sizeof(*out));
	stats_init(&out->lat);
	stats_init(&out->lat_read);
	stats_init(&out->lat_write);
	out->engine_name = ops->name;
	bool no_targets = job->ntargets > 1 && (!job->fds || !job->regions);
	if (qd > ops->max_qd || qd > ENGINE_MAX_QD || job->bs > UINT32_MAX || no_targets) {
		out->error = EINVAL;
		out->failed_op = no_targets ? "targets"
				 : job->bs > UINT32_MAX ? "block size" : "queue depth";
		return -1;
	}
	struct worker *workers = calloc(job->threads, sizeof(*workers));
	if (!workers) {
		out->error = errno;
		out->failed_op = "allocate";
		return -1;
	}
	atomic_init(&gate.abort, 0);
	atomic_init(&gate.running, 0);

	unsigned started = 0;
	for (; started < job->threads; started++) {
		struct worker *w = &workers[started];
		w->job = job;
		w->gate = &gate;
		w->index = started;
		w->target = job->ntargets > 1 ? started % job->ntargets : 0;
		w->fd = job->ntargets > 1 ? job->fds[w->target] : job->fd;
		/* only the directions the job uses: the other histogram's pages
		 * stay untouched (zero from calloc, which merges as empty) */
		if (job->dir == IO_READ || job->write_pct > 0)
			stats_init(&w->lat[0]);
		if (job->dir == IO_WRITE || job->write_pct > 0)
			stats_init(&w->lat[1]);
		atomic_init(&w->progress, 0);
		atomic_init(&w->progress_ios, 0);
		for (unsigned b = 0; b < STATS_COARSE_N; b++)
			atomic_init(&w->lat_coarse[b], 0);
		atomic_fetch_add(&gate.running, 1);
		int rc = pthread_create(&w->tid, NULL, worker_main, w);
		if (rc != 0) {
			atomic_fetch_sub(&gate.running, 1);
			atomic_store(&gate.abort, 1);
			out->error = rc;
			out->failed_op = "start thread";
			break;
		}
	}
	bool cancelled = open_gate(&gate, started, job);
	uint64_t sampled_from = 0;
	if (sampler && sampler->fn && sampler->interval_s > 0)
		wait_sampling(&gate, workers, started, sampler, &sampled_from);
	for (unsigned i = 0; i < started; i++)
		pthread_join(workers[i].tid, NULL);
	int create_error = out->error;
	const char *create_op = out->failed_op;
	collect(workers, started, sampled_from, out);
	out->stopped |= cancelled;
	if (create_error) {
		out->error = create_error;
		out->failed_op = create_op;
		out->ended = BENCH_END_ERROR;
	}
	if (cancelled && !out->error)
		out->ended = BENCH_END_STOP;
	if (job->fsync_at_end && !out->error && !out->stopped)
		bench_fsync_targets(job, out);
	if (out->error)
		out->ended = BENCH_END_ERROR;
	if (job->ntargets > 1 && job->parts)
		collect_parts(job, workers, started, out->seconds);
	free(workers);
	return out->error ? -1 : 0;
}
