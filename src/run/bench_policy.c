/* How a worker submits its requests when nobody said (issue 40).
 *
 * Batched, every request freed by a reap goes to the kernel in the one
 * io_uring_enter that also waits for the next completion: the fewest
 * system calls, which is what a fast device needs, where the thread is the
 * limit.  One request per call, as fio submits by default, costs a system
 * call per request, but a device then sees each request as soon as its
 * slot is free rather than in bursts of the ten or so a reap brings back:
 * on this project's virtio disk that halved the median latency at 32 in
 * flight.  So the run measures which it is: batched for its first
 * BENCH_PROBE_NS, it goes on one request per call where the thread was busy
 * for less than half of the time it could run (the probe's, less what it
 * spent waiting for a CPU) and the machine had half a CPU idle or more: the
 * system call per request is CPU to spare then.  Otherwise it stays
 * batched; so does a run that ends before its probe does. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <string.h>

#include "bench_int.h"
#include "clock.h"
#include "platform.h"

bool bench_policy_one_by_one(const struct bench_probe_figures *f)
{
	return f->busy >= 0 && f->busy < BENCH_POLICY_BUSY_MAX &&
	       (f->idle_cpus < 0 || f->idle_cpus >= BENCH_POLICY_IDLE_MIN);
}

static int idle_ns(const struct bench_job *job, uint64_t *ns)
{
	return job->cpu_idle_ns ? job->cpu_idle_ns(ns) : plat_cpu_idle_ns(ns);
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
	p->cpu_from = clock_thread_cpu_ns();
	p->idle_known = idle_ns(job, &p->idle_from) == 0;
	p->wait_known = plat_thread_wait_ns(&p->wait_from) == 0;
}

bool bench_probe_step(struct worker *w, const struct lane *l, struct bench_probe *p,
		      unsigned got, uint64_t t1)
{
	p->ios += got;
	uint64_t enough = 2u * l->qd > BENCH_PROBE_MIN_IOS ? 2u * l->qd : BENCH_PROBE_MIN_IOS;
	if (t1 < p->from + BENCH_PROBE_NS || p->ios < enough)
		return true;
	double wall = (double)(t1 - p->from), cpu = (double)(clock_thread_cpu_ns() - p->cpu_from);
	uint64_t idle = 0, wait = 0;
	/* busy over the time it could have run: a thread that other processes
	 * kept from its CPU is not taken for one that sleeps on its device */
	double could = wall;
	if (p->wait_known && plat_thread_wait_ns(&wait) == 0 && wait >= p->wait_from &&
	    (double)(wait - p->wait_from) < wall)
		could -= (double)(wait - p->wait_from);
	w->policy.busy = cpu < could ? cpu / could : 1.0;
	w->policy.idle_cpus = p->idle_known && idle_ns(w->job, &idle) == 0 && idle >= p->idle_from
				      ? (double)(idle - p->idle_from) / wall
				      : -1.0;
	w->policy_measured = true;
	if (bench_policy_one_by_one(&w->policy))
		w->batch = 1;
	return false;
}
