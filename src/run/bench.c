#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_int.h"
#include "clock.h"

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

/* A thread's reap calls, registrations and choice of how to submit into out
 * (first: the first thread, whose facts start the merge). */
static void collect_facts(const struct worker *w, bool first, struct bench_outcome *out)
{
	const struct engine_facts *f = &w->facts;
	out->reap_calls += w->reap_calls;
	out->reaped += w->reaped;
	if (first) {
		out->fixed_buffers = f->fixed_buffers;
		out->fixed_file = f->fixed_file;
	}
	out->fixed_buffers = f->fixed_buffers < out->fixed_buffers ? f->fixed_buffers
								    : out->fixed_buffers;
	out->fixed_file = f->fixed_file < out->fixed_file ? f->fixed_file : out->fixed_file;
	if (!out->reg_why[0] && f->why[0])
		snprintf(out->reg_why, sizeof(out->reg_why), "%s", f->why);
	struct bench_policy *p = &out->policy;
	if (!w->policy_on)
		return;
	p->threads++;
	if (!w->policy_measured)
		return;
	double gain = w->policy.gain;
	p->gain_min = p->measured == 0 || gain < p->gain_min ? gain : p->gain_min;
	p->gain_max = p->measured == 0 || gain > p->gain_max ? gain : p->gain_max;
	p->measured++;
	p->one_by_one += w->batch == 1;
}

static void collect(struct worker *workers, unsigned n, uint64_t sampled_from,
		    struct bench_outcome *out)
{
	uint64_t start = UINT64_MAX, end = 0;
	out->huge_buffers = n > 0;
	out->fixed_buffers = out->fixed_file = -1; /* no thread: nothing registered */
	out->buffer_segments = n > 0 ? 0 : -1; /* the threads' mean; -1 if any is unknown */
	for (unsigned i = 0; i < n; i++) {
		struct worker *w = &workers[i];
		out->huge_buffers &= w->huge_buffer;
		out->buffer_segments = w->segments < 0 || out->buffer_segments < 0
					       ? -1 : out->buffer_segments + w->segments / n;
		out->submit_calls += w->submit_calls;
		out->submitted += w->submitted;
		collect_facts(w, i == 0, out);
		stats_merge(&out->lat_service, &w->service);
		stats_merge(&out->lat_unserved, &w->unserved_lat);
		out->late_ios += w->late_ios;
		out->unserved += w->unserved;
		out->max_lag_ns = w->max_lag_ns > out->max_lag_ns ? w->max_lag_ns : out->max_lag_ns;
		stats_merge(&out->lat_read, &w->lat[0]);
		stats_merge(&out->lat_write, &w->lat[1]);
		stats_merge(&out->lat_trim, &w->lat[2]);
		out->trims += w->trims;
		out->zone_resets += w->zw.resets;
		stats_merge(&out->lat_zone_reset, &w->zone_reset_lat);
		stats_merge(&out->lat_sync, &w->sync_lat);
		out->syncs += w->syncs;
		if (w->trim_path)
			out->trim_path = w->trim_path;
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
	stats_merge(&out->lat, &out->lat_trim);
	stats_merge(&out->lat, &out->lat_unserved); /* open loop: response times, all due */
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
			stats_merge(&p->lat, &w->lat[2]);
			stats_merge(&p->lat, &w->unserved_lat);
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
	stats_init(&out->lat_service);
	stats_init(&out->lat_unserved);
	stats_init(&out->lat_trim);
	stats_init(&out->lat_zone_reset);
	stats_init(&out->lat_sync);
	out->engine_name = ops->name;
	bool no_targets = job->ntargets > 1 && (!job->fds || !job->regions);
	bool async_sync = job->sync_every && ops != &engine_sync; /* the sync engine runs syncs */
	if (qd > ops->max_qd || qd > ENGINE_MAX_QD || job->bs > UINT32_MAX || no_targets ||
	    async_sync) {
		out->error = EINVAL;
		out->failed_op = no_targets ? "targets" : async_sync ? bench_sync_name(job)
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
		bool mixed = mix_set(&job->mix);
		if (mixed ? mix_has(&job->mix, MIX_READ) : job->dir == IO_READ)
			stats_init(&w->lat[0]);
		if (mixed ? mix_has(&job->mix, MIX_WRITE) : job->dir == IO_WRITE)
			stats_init(&w->lat[1]);
		if (job->rate > 0) {
			stats_init(&w->service);
			stats_init(&w->unserved_lat);
		}
		if (mixed && mix_has(&job->mix, MIX_TRIM))
			stats_init(&w->lat[2]);
		if (job->zones && job->dir == IO_WRITE)
			stats_init(&w->zone_reset_lat);
		if (job->sync_every)
			stats_init(&w->sync_lat);
		atomic_init(&w->progress, 0);
		atomic_init(&w->progress_ios, 0);
		for (unsigned b = 0; b < STATS_COARSE_N; b++)
			atomic_init(&w->lat_coarse[b], 0);
		atomic_fetch_add(&gate.running, 1);
		int rc = pthread_create(&w->tid, NULL, bench_worker_main, w);
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
