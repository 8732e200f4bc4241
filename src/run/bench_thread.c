/* A worker thread's life around its loop: its lane of requests (buffers,
 * engine) opened and closed, a zoned device's zones for its writes, the
 * warm-up, the start gate, and which loop runs: the closed loop
 * (bench_worker.c) or the open loop (bench_open.c). */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bench_int.h"
#include "io.h"
#include "platform.h"

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

static int lane_open(struct lane *l, struct worker *w)
{
	const struct bench_job *job = w->job;
	struct rng data_rng;
	memset(l, 0, sizeof(*l));
	w->facts = (struct engine_facts){ .fixed_buffers = -1, .fixed_file = -1 };
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
	struct engine_setup setup = { .fd = w->fd, .qd = l->qd, .bufs = l->bufs,
				      .buf_len = job->bs, .reap_each = job->reap_each,
				      .poll = job->poll, .sqpoll = job->sqpoll,
				      .at_position = job->at_position };
	if (job->verify && bench_verify_lane_open(w, l->qd) != 0) {
		record_failure(w, "allocate", 0, ENOMEM);
		return -1;
	}
	l->eng = l->ops->open(&setup, w->failed_why, sizeof(w->failed_why));
	if (!l->eng) {
		record_failure(w, l->ops->label, 0, errno);
		return -1;
	}
	return 0;
}

static void lane_close(struct worker *w, struct lane *l)
{
	if (l->eng && l->ops->trim_path)
		w->trim_path = l->ops->trim_path(l->eng);
	if (l->eng && l->ops->facts)
		l->ops->facts(l->eng, &w->facts);
	if (l->eng)
		l->ops->close(l->eng); /* waits for what is in flight */
	bench_verify_lane_close(w);
	if (l->slab)
		plat_buffer_free(l->slab, l->slab_len);
	free(l->ios);
}

/* A zoned device's writes: this worker's zones and share of the open limit. */
static int zoned_writer_open(struct worker *w)
{
	const struct bench_job *job = w->job;
	if (zone_writer_init(&w->zw, job->zones, w->index, job->threads, job->wrap,
			     &w->zone_reset_lat) != 0) {
		record_failure(w, "zones", 0, errno);
		return -1;
	}
	w->zoned_writes = true;
	return 0;
}

void *bench_worker_main(void *arg)
{
	struct worker *w = arg;
	const struct bench_job *job = w->job;
	struct offset_gen g;
	struct lane lane;
	uint64_t quota;

	w->mixed = mix_set(&job->mix);
	w->op = job->dir == IO_WRITE ? ENGINE_WRITE : ENGINE_READ;
	w->batch = job->batch; /* the closed loop may choose one per call (bench_policy.c) */
	int ready = lane_open(&lane, w);
	offset_gen_init(&g, job, w->index, &quota);
	if (ready == 0 && job->zones && job->dir == IO_WRITE) {
		ready = zoned_writer_open(w);
		if (!job->wrap) /* one pass: every zone of its own once, however many */
			quota = UINT64_MAX;
	}
	if (ready == 0)
		warm_up(w, &lane, &g);
	if (gate_wait(w->gate) && ready == 0) {
		if (job->rate > 0)
			worker_open_loop(w, &lane, &g, quota);
		else
			worker_loop(w, &lane, &g, quota);
	}
	lane_close(w, &lane);
	if (w->zoned_writes)
		zone_writer_free(&w->zw);
	atomic_fetch_sub(&w->gate->running, 1);
	return NULL;
}
