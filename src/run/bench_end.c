/* The end of a run, after its threads are joined: what ended it, and the
 * one fsync at the end of a --sync=fsync write run, inside the timing. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <errno.h>
#include <unistd.h>

#include "clock.h"

/* Higher wins: a failure or a stop says more than any clean end, and one
 * thread that ran into the deadline makes the run a timed one. */
static int end_rank(enum bench_end e)
{
	switch (e) {
	case BENCH_END_ERROR: return 5;
	case BENCH_END_STOP: return 4;
	case BENCH_END_STEADY: return 3;
	case BENCH_END_TIME: return 2;
	case BENCH_END_PASS: return 1;
	default: return 0;
	}
}

enum bench_end bench_end_merge(enum bench_end a, enum bench_end b)
{
	return end_rank(b) > end_rank(a) ? b : a;
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

void bench_fsync_targets(const struct bench_job *job, struct bench_outcome *out)
{
	unsigned n = job->ntargets > 1 ? job->ntargets : 1;
	for (unsigned k = 0; k < n && !out->error; k++) {
		double fsync_s;
		if (fsync_timed(n > 1 ? job->fds[k] : job->fd, &fsync_s) != 0) {
			out->error = errno;
			out->failed_op = "fsync";
			out->failed_target = k;
		}
		out->seconds += fsync_s;
	}
}
