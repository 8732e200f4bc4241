/* diskbench's own ceiling (issue 32): after a CPU-bound run, the same loop
 * with io_uring NOPs for a moment, so that a figure near it can be called
 * the tool's limit rather than the device's. */
#ifndef CEILING_H
#define CEILING_H

#include "bench.h"
#include "diskbench.h"

/* How long the NOP run takes: short, since NOPs need no warming. */
#define CEILING_RUN_S 0.25

/* When job asked for it (job->ceiling_check) and the run was CPU-bound on
 * io_uring, closed loop: r->tool_ceiling_iops from CEILING_RUN_S of NOPs at
 * the job's depth and threads (0 when not measured). */
void run_tool_ceiling(const struct bench_job *job, struct result *r);

#endif
