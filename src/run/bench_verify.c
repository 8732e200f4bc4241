/* --verify's part of a worker (issue 42): the claim and stamp of each
 * write's block, its completion, and --verify=backlog's pauses.  Nothing
 * here runs when the job does not verify. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <errno.h>
#include <stdatomic.h>

#include "bench_int.h"
#include "clock.h"
#include "verify.h"

/* Random draws for a free block before giving up: the region holds at
 * least twice the writes in flight (run_verify.c), so each draw finds one
 * at least half the time. */
#define CLAIM_DRAWS 64

bool bench_verify_claim(struct worker *w, struct offset_gen *g, struct engine_io *io)
{
	struct verify *v = w->job->verify;
	uint64_t offset = io->offset;
	for (unsigned draw = 0; draw < CLAIM_DRAWS; draw++) {
		if (verify_write_begin(v, io->buf, io->len, offset)) {
			io->offset = offset;
			return true;
		}
		if (!g || g->pattern != PAT_RAND)
			break;
		offset = offset_gen_draw(g);
	}
	if (g && g->pattern == PAT_SEQ)
		g->next = io->offset; /* the same block next time, once its write completed */
	return false;
}

void bench_verify_done(struct worker *w, const struct engine_io *io)
{
	verify_write_end(w->job->verify, w->vlane, io->buf, io->offset, io->result == io->len);
}

void bench_verify_pause(struct worker *w)
{
	uint64_t t0 = clock_ns(), cpu0 = clock_thread_cpu_ns();
	if (verify_lane_check(w->job->verify, w->vlane) != 0 && !w->error) {
		w->error = errno ? errno : EIO;
		w->failed_op = "verify read";
		atomic_store(&w->gate->abort, 1);
	}
	uint64_t took = clock_ns() - t0;
	w->paused_ns += took;
	w->cpu_from += clock_thread_cpu_ns() - cpu0;
	if (w->deadline != UINT64_MAX)
		w->deadline += took;
	if (!w->recording)
		w->measure_from += took;
}

int bench_verify_lane_open(struct worker *w, unsigned qd)
{
	w->vlane = verify_lane_open(w->job->verify, qd);
	return verify_backlog(w->job->verify) && !w->vlane ? -1 : 0;
}

void bench_verify_lane_close(struct worker *w)
{
	if (!w->vlane)
		return;
	if (!w->error && verify_lane_check(w->job->verify, w->vlane) != 0) {
		w->error = errno ? errno : EIO;
		w->failed_op = "verify read";
	}
	verify_lane_close(w->job->verify, w->vlane);
	w->vlane = NULL;
}
