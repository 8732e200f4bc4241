/* Where each thread of a run works, decided once per thread before the
 * timed loop: its target (thread i on target i mod N), its share of the
 * bytes to move and, for sequential I/O, its own slice of the region.
 * The per-I/O step, offset_gen_next, stays in bench_worker.c beside the hot loop
 * that calls it. */
#include "bench.h"

#include <string.h>

static uint64_t share(uint64_t total, unsigned parts, unsigned index)
{
	return total / parts + (index < total % parts ? 1 : 0);
}

unsigned bench_thread_place(unsigned thread, unsigned threads, unsigned ntargets,
			    unsigned *local, unsigned *peers)
{
	unsigned n = ntargets > 1 ? ntargets : 1;
	*local = thread / n;
	*peers = (unsigned)share(threads, n, thread % n);
	return thread % n;
}

void offset_gen_init(struct offset_gen *g, const struct bench_job *job, unsigned thread,
		     uint64_t *quota)
{
	/* the thread is one of the peers its target gets, over that target's
	 * region (one target: all threads over the job's region) */
	unsigned local, peers;
	unsigned target = bench_thread_place(thread, job->threads, job->ntargets, &local, &peers);
	uint64_t region = job->ntargets > 1 ? job->regions[target] : job->region;
	uint64_t nblocks = region / job->bs;
	uint64_t total = job->bytes_limit;
	if (job->one_pass && total > nblocks * job->bs)
		total = nblocks * job->bs; /* one pass over this target's own region */
	uint64_t limit = total == UINT64_MAX ? UINT64_MAX : share(total / job->bs, peers, local) * job->bs;
	memset(g, 0, sizeof(*g));
	g->pattern = job->pattern;
	g->bs = job->bs;
	g->wrap = job->wrap;
	rng_seed(&g->rng, job->seed, thread);
	uint64_t slice = share(nblocks, peers, local);
	if (job->pattern == PAT_RAND || slice == 0) {
		/* random: anywhere; more threads than blocks (only when wrapping):
		 * the whole region, each thread starting at a different block */
		g->start = 0;
		g->end = nblocks * job->bs;
		g->next = nblocks ? (local % nblocks) * job->bs : 0;
		if (job->pattern == PAT_SEQ && !job->wrap)
			limit = 0; /* a sequential thread without a slice has nothing to do */
	} else {
		/* sequential: each thread its own contiguous slice of the region,
		 * as separate streams */
		uint64_t base = nblocks / peers, extra = nblocks % peers;
		uint64_t first = local * base + (local < extra ? local : extra);
		g->start = first * job->bs;
		g->end = g->start + slice * job->bs;
		g->next = g->start;
		if (!job->wrap && g->end - g->start < limit)
			limit = g->end - g->start;
	}
	g->blocks = (g->end - g->start) / job->bs;
	*quota = limit;
}

/* qd_hist's buckets: where a request stood among those in flight, as a
 * thread's request is placed in its lane */
unsigned bench_qd_bucket(unsigned depth)
{
	if (depth <= 1)
		return 0;
	unsigned log2 = 31u - (unsigned)__builtin_clz(depth);
	return log2 < BENCH_QD_BUCKETS - 1 ? log2 : BENCH_QD_BUCKETS - 1;
}
