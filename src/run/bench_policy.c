/* How a worker submits its requests when nobody said (issue 40).
 *
 * Batched, every request freed by a reap goes to the kernel in the one
 * io_uring_enter that also waits for the next completion: the fewest
 * system calls, which is what a device that costs the machine's own CPU
 * needs (a loop device, a RAM disk, a fast NVMe drive with a busy thread).
 * One request per call, as fio submits by default, costs a system call per
 * request, but a device then sees each request as soon as its slot is free
 * rather than in bursts of the ten or so a reap brings back: on this
 * project's virtio disk, 32 in flight, the bursts waited in the device's
 * queue twice as long.  Which one a device wants is not written on it, and
 * what the thread and the machine look like (how busy, how idle) did not
 * tell on a loaded machine: so the run tries both.  Its first eight windows
 * go batched, one per call, one per call, batched, twice (a steady drift of
 * the device or of the load then weighs on both alike); it goes on one request per call
 * where those windows completed requests BENCH_POLICY_GAIN_MIN times as fast
 * or more, else batched.  A run that ends before its probe stays as it was
 * (batched, unless its last window was one per call). */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <string.h>

#include "bench_int.h"

/* batched, one per call, one per call, batched; twice */
static const unsigned window_one[BENCH_PROBE_WINDOWS] = { 0, 1, 1, 0, 0, 1, 1, 0 };

bool bench_policy_one_by_one(const struct bench_probe_figures *f)
{
	return f->gain >= BENCH_POLICY_GAIN_MIN;
}

void bench_policy_start(struct worker *w, const struct lane *l, struct bench_probe *p,
			uint64_t now)
{
	const struct bench_job *job = w->job;
	w->policy_on = job->submit_auto && job->batch == 0 && job->rate <= 0 && l->qd > 1 &&
		       l->ops->flush && !job->poll && !job->sqpoll;
	if (!w->policy_on)
		return;
	memset(p, 0, sizeof(*p));
	p->from = now;
	p->paused_from = w->paused_ns;
	w->batch = window_one[0];
}

/* The probe's verdict from its windows' figures. */
static void probe_end(struct worker *w, const struct bench_probe *p)
{
	struct bench_probe_figures *f = &w->policy;
	f->batched_rate = p->ns[0] > 0 ? p->done[0] * 1e9 / p->ns[0] : 0;
	f->one_rate = p->ns[1] > 0 ? p->done[1] * 1e9 / p->ns[1] : 0;
	f->gain = f->batched_rate > 0 ? f->one_rate / f->batched_rate : 0;
	w->policy_measured = true;
	w->batch = bench_policy_one_by_one(f) ? 1 : 0;
}

bool bench_probe_step(struct worker *w, const struct lane *l, struct bench_probe *p,
		      unsigned got, uint64_t t1)
{
	p->ios += got;
	uint64_t enough = 2u * l->qd > BENCH_PROBE_MIN_IOS ? 2u * l->qd : BENCH_PROBE_MIN_IOS;
	if (t1 < p->from + BENCH_PROBE_WINDOW_NS || p->ios < enough)
		return true;
	unsigned one = window_one[p->window];
	/* a window's time less --verify=backlog's reading back within it */
	p->ns[one] += (double)(t1 - p->from) - (double)(w->paused_ns - p->paused_from);
	p->done[one] += (double)p->ios;
	if (++p->window == BENCH_PROBE_WINDOWS) {
		probe_end(w, p);
		return false;
	}
	p->from = t1;
	p->paused_from = w->paused_ns;
	p->ios = 0;
	w->batch = window_one[p->window];
	return true;
}
