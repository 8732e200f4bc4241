/* diskbench's own ceiling: see ceiling.h. */
#define _POSIX_C_SOURCE 200809L
#include "ceiling.h"

#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "findings.h"

/* Worth measuring: a closed-loop io_uring run whose busiest thread was on
 * the CPU for most of it (judge_cpu's threshold), not stopped. */
static bool wanted(const struct bench_job *job, const struct result *r)
{
	return job->ceiling_check && job->engine == &engine_uring && job->rate <= 0 &&
	       r->cpu_busiest >= FINDINGS_CPU_BOUND && r->ios > 0 && !r->interrupted &&
	       !bench_stop_requested;
}

void run_tool_ceiling(const struct bench_job *job, struct result *r)
{
	r->tool_ceiling_iops = 0;
	if (!wanted(job, r))
		return;
	struct bench_outcome *out = calloc(1, sizeof(*out));
	if (!out)
		return; /* a figure the run does without */
	struct bench_job nop = *job;
	nop.engine = &engine_nop;
	nop.time_limit_s = CEILING_RUN_S;
	nop.bytes_limit = UINT64_MAX;
	nop.wrap = true;
	nop.one_pass = false;
	nop.warmup_ios = 0;
	nop.warmup_s = 0;
	nop.fsync_at_end = false;
	nop.before_start = NULL;
	nop.parts = NULL; /* several targets: their figures are the run's, not these */
	nop.poll = false; /* a NOP cannot be polled */
	if (bench_run(&nop, out, NULL) == 0 && !out->stopped && out->seconds > 0)
		r->tool_ceiling_iops = (double)out->ios / out->seconds;
	free(out);
}
