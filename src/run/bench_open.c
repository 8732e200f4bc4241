/* One worker's open loop (--rate): I/Os start on a schedule of arrivals,
 * whatever the device does, each counted from when it was due; the pieces
 * it shares with the closed loop are bench_worker.c's. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <errno.h>
#include <time.h>

#include "arrivals.h"
#include "bench_int.h"
#include "clock.h"
#include "platform.h"

/* Open loop: every arrival due by now that has a free slot, into the
 * batch, each stamped with when it was due; false once issuing ends (the
 * window's end, the quota, a stop). */
static bool fill_due(struct worker *w, struct lane *l, struct offset_gen *g, uint64_t quota,
		     struct rng *mix, struct arrivals *arr, uint64_t *due, unsigned *n)
{
	uint64_t now = clock_ns();
	*n = 0;
	if (told_to_stop(w))
		return false;
	if (now >= w->deadline || *due >= w->deadline) {
		if (w->ended == BENCH_END_NONE)
			w->ended = BENCH_END_TIME;
		return false;
	}
	while (l->nfree > 0 && *due <= now) {
		struct engine_io *io = take_slot(w, l, g, quota, mix, n);
		if (!io)
			return w->zone_wait;
		io->t_due = *due;
		*due = arrivals_next(arr);
	}
	return true;
}

/* Sleeps until the clock reads `until`: an absolute sleep to 60 us before
 * it (the timer may wake late by its slack), then a spin. */
static void sleep_until(uint64_t until)
{
	uint64_t now = clock_ns();
	if (until > now + 60000u) {
		uint64_t at = until - 60000u;
		struct timespec ts = { (time_t)(at / 1000000000u), (long)(at % 1000000000u) };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	while (clock_ns() < until)
		;
}

/* The arrivals due inside the window that never started (the device or
 * the in-flight cap held them back), counted once issuing ended at the
 * window's end; the first of them waited longest. */
static void count_unserved(struct worker *w, struct arrivals *arr, uint64_t due)
{
	if (w->ended != BENCH_END_TIME || due >= w->deadline || !w->recording)
		return;
	if (due < w->t_start)
		due = w->t_start; /* the warm-up's arrivals are not the window's */
	uint64_t lag = w->deadline - due;
	w->max_lag_ns = lag > w->max_lag_ns ? lag : w->max_lag_ns;
	/* one by one up to a million, then by the mean gap */
	uint64_t k = 0;
	for (; due < w->deadline && k < 1000000u; k++)
		due = arrivals_next(arr);
	if (due < w->deadline)
		k += (uint64_t)((double)(w->deadline - due) / w->gap_ns);
	w->unserved = k;
}

/* The open loop (--rate): arrivals on their schedule, whatever the device
 * does; between them it waits for a completion or the next arrival,
 * whichever comes first, and with every slot taken for a completion alone
 * (the due I/Os wait, and their wait counts). */
void worker_open_loop(struct worker *w, struct lane *l, struct offset_gen *g, uint64_t quota)
{
	const struct bench_job *job = w->job;
	const uint64_t warmup_ns = (uint64_t)(job->warmup_s * 1e9);
	struct rng mix;
	struct arrivals arr;
	bool issuing = true;

	plat_precise_timers();
	uint64_t t0 = clock_ns();
	arrivals_init(&arr, job->arrivals, job->rate / job->threads, t0, job->seed, w->index);
	w->gap_ns = arr.gap_ns;
	uint64_t due = arrivals_next(&arr);
	loop_start(w, l, &mix, t0, warmup_ns);
	w->t_start = w->measure_from; /* counted by when I/Os were due, from the window's start */
	for (;;) {
		unsigned n = 0;
		if (issuing)
			issuing = fill_due(w, l, g, quota, &mix, &arr, &due, &n);
		if (n > 0 && lane_submit_batch(w, l, n) != 0)
			issuing = false;
		if (!issuing && l->inflight == 0)
			break;
		if (l->inflight == 0) {
			sleep_until(due < w->deadline ? due : w->deadline);
			continue;
		}
		uint64_t now = clock_ns(), wake = due < w->deadline ? due : w->deadline;
		int got = issuing && l->nfree > 0 && l->ops->reap_wait
				  ? l->ops->reap_wait(l->eng, l->done, l->qd, wake > now ? wake - now : 0)
				  : l->ops->reap(l->eng, l->done, 1, l->qd);
		if (loop_reaped(w, l, got, clock_ns()) < 0)
			break;
	}
	count_unserved(w, &arr, due);
	loop_end(w, l);
	/* the window, or longer when what was in flight at its end drained
	 * after it (a device behind its schedule): the rate served is what
	 * completed over the time it took, not the drain counted in the window */
	if (w->ended == BENCH_END_TIME && w->t_end < w->deadline)
		w->t_end = w->deadline;
}
