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

/* Arrivals taken one by one at the window's end; past them, by the mean
 * gap (a stall at a million a second), in UNSERVED_GROUPS groups. */
#define UNSERVED_ONE_BY_ONE 1000000u
#define UNSERVED_GROUPS 1000u

/* The arrivals due inside the window that never started (the device or
 * the in-flight cap held them back), once issuing ended at the window's
 * end: counted, and each into the response distribution, since leaving it
 * out hides the stall that held it (issue 39).  Its response is its wait
 * and its service: it waited at least until the window's end, and its
 * service, still ahead of it, is taken as the shortest this thread saw, so
 * that the figure is one it had at least, never below a served I/O's.
 * The warm-up's arrivals are not the window's; the first of the window's
 * waited longest. */
static void count_unserved(struct worker *w, struct arrivals *arr, uint64_t due)
{
	if (w->ended != BENCH_END_TIME || !w->recording)
		return;
	uint64_t k = 0;
	for (; due < w->t_start && k < UNSERVED_ONE_BY_ONE; k++)
		due = arrivals_next(arr);
	if (due < w->t_start)
		due = w->t_start; /* a warm-up longer than a million arrivals: from its end */
	if (due >= w->deadline)
		return;
	uint64_t lag = w->deadline - due, service = w->service.count ? w->service.min : 0;
	w->max_lag_ns = lag > w->max_lag_ns ? lag : w->max_lag_ns;
	for (k = 0; due < w->deadline && k < UNSERVED_ONE_BY_ONE; k++) {
		stats_add(&w->unserved_lat, w->deadline - due + service);
		due = arrivals_next(arr);
	}
	if (due < w->deadline) {
		/* the rest, spread evenly up to the window's end: each group at
		 * the shortest wait of its arrivals, so never more than they had */
		uint64_t span = w->deadline - due, rest = (uint64_t)((double)span / w->gap_ns);
		for (uint64_t g = 0; g < UNSERVED_GROUPS; g++) {
			uint64_t n = rest / UNSERVED_GROUPS + (g < rest % UNSERVED_GROUPS);
			uint64_t wait = span - span * (g + 1) / UNSERVED_GROUPS;
			if (n > 0)
				stats_add_n(&w->unserved_lat, wait + service, n);
		}
		k += rest;
	}
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
	arrivals_phase(&arr, w->index, job->threads); /* fixed: the threads' interleaved */
	w->gap_ns = arr.gap_ns;
	w->late_ns = arrivals_schedule_gap(&arr);
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
		/* a due arrival held back for a completion (its block's write in
		 * flight under --verify, a zone's) waits for one in the engine: a
		 * wait of 0, its due time being past, takes no completion (aio asks
		 * for none, io_uring's run only when asked: DEFER_TASKRUN), so the
		 * loop spun until the window's end */
		uint64_t now = clock_ns(), wake = due < w->deadline ? due : w->deadline;
		int got = issuing && l->nfree > 0 && l->ops->reap_wait && !w->zone_wait
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
