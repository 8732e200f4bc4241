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
	atomic_int abort;    /* a failure anywhere stops everyone */
	atomic_uint running; /* workers not yet finished */
};

struct worker {
	pthread_t tid;
	const struct bench_job *job;
	struct start_gate *gate;
	unsigned index;
	struct stats lat;
	uint64_t bytes, ios, writes;
	atomic_uint_fast64_t progress, progress_ios;
	uint64_t t_start, t_end;
	int error;
	const char *failed_op;
	uint64_t failed_offset;
	bool stopped;
	bool huge_buffer;
};

static uint64_t share(uint64_t total, unsigned parts, unsigned index)
{
	return total / parts + (index < total % parts ? 1 : 0);
}

void offset_gen_init(struct offset_gen *g, const struct bench_job *job, unsigned thread,
		     uint64_t *quota)
{
	uint64_t nblocks = job->region / job->bs;
	uint64_t limit = job->bytes_limit == UINT64_MAX ? UINT64_MAX
			 : share(job->bytes_limit / job->bs, job->threads, thread) * job->bs;
	memset(g, 0, sizeof(*g));
	g->pattern = job->pattern;
	g->bs = job->bs;
	g->wrap = job->wrap;
	rng_seed(&g->rng, job->seed, thread);
	uint64_t slice = share(nblocks, job->threads, thread);
	if (job->pattern == PAT_RAND || slice == 0) {
		/* random: anywhere; more threads than blocks (only when wrapping):
		 * the whole region, each thread starting at a different block */
		g->start = 0;
		g->end = nblocks * job->bs;
		g->next = nblocks ? (thread % nblocks) * job->bs : 0;
		if (job->pattern == PAT_SEQ && !job->wrap)
			limit = 0; /* a sequential thread without a slice has nothing to do */
	} else {
		/* sequential: each thread its own contiguous slice of the region,
		 * as separate streams */
		uint64_t base = nblocks / job->threads, extra = nblocks % job->threads;
		uint64_t first = thread * base + (thread < extra ? thread : extra);
		g->start = first * job->bs;
		g->end = g->start + slice * job->bs;
		g->next = g->start;
		if (!job->wrap && g->end - g->start < limit)
			limit = g->end - g->start;
	}
	*quota = limit;
}

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

static void record_failure(struct worker *w, const char *op, uint64_t offset)
{
	w->error = errno ? errno : EIO;
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

/* The hot path: nothing here but choosing an offset, the I/O and two
 * timestamps.  I/Os that end before the warm-up is over are not counted. */
static void worker_loop(struct worker *w, void *buf, struct offset_gen *g, uint64_t quota)
{
	const struct bench_job *job = w->job;
	const uint64_t salt = job->seed ^ 0x5eedu;
	const uint64_t warmup_ns = (uint64_t)(job->warmup_s * 1e9);
	uint64_t deadline = UINT64_MAX, offset;
	bool recording = warmup_ns == 0;
	struct rng mix;

	rng_seed(&mix, job->seed, 0x31c0000u + w->index);
	w->t_start = clock_ns();
	uint64_t measure_from = w->t_start + warmup_ns;
	if (job->time_limit_s > 0)
		deadline = measure_from + (uint64_t)(job->time_limit_s * 1e9);
	while (w->bytes < quota) {
		if (bench_stop_requested || atomic_load_explicit(&w->gate->abort, memory_order_relaxed)) {
			w->stopped = bench_stop_requested != 0;
			break;
		}
		if (!offset_gen_next(g, &offset))
			break;
		bool is_write = next_is_write(job, &mix);
		if (is_write && !job->zeros)
			io_stamp(buf, job->bs, offset, salt);
		uint64_t t0 = clock_ns();
		ssize_t n = is_write ? io_pwrite_full(job->fd, buf, job->bs, offset)
				     : io_pread_full(job->fd, buf, job->bs, offset);
		uint64_t t1 = clock_ns();
		if (n < 0) {
			record_failure(w, is_write ? "write" : "read", offset);
			break;
		}
		if (n == 0)
			break; /* end of file: the file is shorter than it was */
		if (!recording) {
			if (t1 >= measure_from) {
				recording = true;
				w->t_start = t1;
				deadline = job->time_limit_s > 0 ? t1 + (uint64_t)(job->time_limit_s * 1e9)
								 : UINT64_MAX;
			}
			continue;
		}
		stats_add(&w->lat, t1 - t0);
		w->bytes += (uint64_t)n;
		w->ios++;
		w->writes += is_write;
		atomic_store_explicit(&w->progress, w->bytes, memory_order_relaxed);
		atomic_store_explicit(&w->progress_ios, w->ios, memory_order_relaxed);
		if ((uint64_t)n < job->bs || t1 >= deadline)
			break;
	}
	w->t_end = clock_ns();
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct bench_job *job = w->job;
	struct offset_gen g;
	uint64_t quota;
	struct rng data_rng;

	void *buf = plat_buffer_alloc(job->bs);
	if (buf) {
		rng_seed(&data_rng, job->seed, 0xda7a0000u + w->index);
		io_fill(buf, job->bs, job->zeros, &data_rng);
		w->huge_buffer = plat_buffer_is_huge(buf, job->bs);
	} else {
		record_failure(w, "allocate", 0);
	}
	offset_gen_init(&g, job, w->index, &quota);
	if (gate_wait(w->gate) && buf)
		worker_loop(w, buf, &g, quota);
	if (buf)
		plat_buffer_free(buf, job->bs);
	atomic_fetch_sub(&w->gate->running, 1);
	return NULL;
}

static void sample_counters(struct worker *workers, unsigned n, struct bench_sample *s)
{
	s->bytes = s->ios = 0;
	for (unsigned i = 0; i < n; i++) {
		s->bytes += atomic_load_explicit(&workers[i].progress, memory_order_relaxed);
		s->ios += atomic_load_explicit(&workers[i].progress_ios, memory_order_relaxed);
	}
}

static void open_gate(struct start_gate *gate, unsigned started)
{
	pthread_mutex_lock(&gate->lock);
	while (gate->ready < started)
		pthread_cond_wait(&gate->cond, &gate->lock);
	gate->open = true;
	pthread_cond_broadcast(&gate->cond);
	pthread_mutex_unlock(&gate->lock);
}

static void wait_sampling(struct start_gate *gate, struct worker *workers, unsigned n,
			  const struct bench_sampler *sampler)
{
	uint64_t begin = clock_ns(), every = (uint64_t)(sampler->interval_s * 1e9);
	uint64_t next = begin + every, nap = every < 100000000u ? every : 100000000u;
	struct bench_sample s;
	while (atomic_load(&gate->running) > 0) {
		struct timespec step = { (time_t)(nap / 1000000000u), (long)(nap % 1000000000u) };
		nanosleep(&step, NULL);
		uint64_t now = clock_ns();
		if (now < next)
			continue;
		sample_counters(workers, n, &s);
		s.elapsed_s = (double)(now - begin) / 1e9;
		sampler->fn(sampler->ctx, &s);
		next += every * ((now - next) / every + 1);
	}
}

static int fsync_timed(int fd, double *seconds)
{
	uint64_t t0 = clock_ns();
	int rc;
	do
		rc = fsync(fd);
	while (rc != 0 && errno == EINTR);
	*seconds = (double)(clock_ns() - t0) / 1e9;
	return rc;
}

static void collect(struct worker *workers, unsigned n, struct bench_outcome *out)
{
	uint64_t start = UINT64_MAX, end = 0;
	out->huge_buffers = n > 0;
	for (unsigned i = 0; i < n; i++) {
		struct worker *w = &workers[i];
		out->huge_buffers &= w->huge_buffer;
		stats_merge(&out->lat, &w->lat);
		out->bytes += w->bytes;
		out->ios += w->ios;
		out->writes += w->writes;
		out->stopped |= w->stopped;
		if (w->t_start && w->t_start < start)
			start = w->t_start;
		if (w->t_end > end)
			end = w->t_end;
		if (w->error && !out->error) {
			out->error = w->error;
			out->failed_op = w->failed_op;
			out->failed_offset = w->failed_offset;
		}
	}
	out->seconds = end > start ? (double)(end - start) / 1e9 : 0.0;
}

int bench_run(const struct bench_job *job, struct bench_outcome *out,
	      const struct bench_sampler *sampler)
{
	struct start_gate gate = { .lock = PTHREAD_MUTEX_INITIALIZER,
				   .cond = PTHREAD_COND_INITIALIZER };
	struct worker *workers = calloc(job->threads, sizeof(*workers));
	if (!workers)
		return -1;
	memset(out, 0, sizeof(*out));
	stats_init(&out->lat);
	atomic_init(&gate.abort, 0);
	atomic_init(&gate.running, 0);

	unsigned started = 0;
	for (; started < job->threads; started++) {
		struct worker *w = &workers[started];
		w->job = job;
		w->gate = &gate;
		w->index = started;
		stats_init(&w->lat);
		atomic_init(&w->progress, 0);
		atomic_init(&w->progress_ios, 0);
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
	open_gate(&gate, started);
	if (sampler && sampler->fn && sampler->interval_s > 0)
		wait_sampling(&gate, workers, started, sampler);
	for (unsigned i = 0; i < started; i++)
		pthread_join(workers[i].tid, NULL);
	int create_error = out->error;
	const char *create_op = out->failed_op;
	collect(workers, started, out);
	if (create_error) {
		out->error = create_error;
		out->failed_op = create_op;
	}
	free(workers);

	if (job->fsync_at_end && !out->error && !out->stopped) {
		double fsync_s;
		if (fsync_timed(job->fd, &fsync_s) != 0) {
			out->error = errno;
			out->failed_op = "fsync";
		}
		out->seconds += fsync_s;
	}
	return out->error ? -1 : 0;
}
