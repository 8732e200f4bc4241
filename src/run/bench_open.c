/* The open loop's timing (--rate, issue 30), beside bench_worker.c's
 * worker_open_loop: waiting for the next arrival, and the arrivals that
 * never started by the window's end. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <errno.h>
#include <time.h>

#include "bench_int.h"
#include "clock.h"

/* Sleeps until the clock reads `until`: an absolute sleep to 60 us before
 * it (the timer may wake late by its slack), then a spin. */
void bench_sleep_until(uint64_t until)
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
void bench_count_unserved(struct worker *w, struct arrivals *arr, uint64_t due)
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
