/* What around the device bounds a run's figure, checked after the run and
 * said as warnings and findings: I/O limits a cgroup puts on this process,
 * a rate cap the series and latencies show, and flushes acknowledged
 * faster than a disk can write its cache back.  A runner room, next to
 * sampling.c, which calls it. */
#ifndef CHECKS_H
#define CHECKS_H

#include "diskbench.h"
#include "target.h"

/* A limit counts as the figure when the run reached this share of it. */
#define CHECKS_LIMIT_REACHED 0.8

/* Warns about each limit the process's cgroups put on the devices under the
 * target (every node of r->device's stack) in the run's direction. */
void checks_cgroup(struct result *r);
/* Warns when r->series and r->lat look like a rate cap (detect.h); on
 * O_DIRECT runs only, as page-cache hits and misses look alike. */
void checks_rate_cap(const struct options *opt, struct result *r);

/* A worker thread busy on the CPU for this share of its run set the pace. */
#define CHECKS_CPU_BOUND 0.90

/* Records cpu0's governor in r and warns when r->cpu_busiest reached
 * CHECKS_CPU_BOUND. */
void checks_cpu(const struct options *opt, struct result *r);

/* Flush honesty: write + fdatasync pairs timed after a write test, outside
 * the figure, when a leaf's cache is "write back". */
#define CHECKS_FLUSH_ROUNDS 8
/* A median pair faster than this: no spinning disk or consumer SSD writes
 * its cache back so fast. */
#define CHECKS_FLUSH_FAST_NS 100000.0
#define CHECKS_FLUSH_LEN 4096u

/* On diskbench's own file, or with --force, rewrites one block with what it
 * holds, or test data where the descriptor is write-only (at most
 * CHECKS_FLUSH_LEN bytes, at the end of what the run wrote of region in
 * blocks of bs) through t->fd and fdatasyncs, CHECKS_FLUSH_ROUNDS times;
 * warns when the median pair is under CHECKS_FLUSH_FAST_NS. */
void checks_flush(const struct target *t, uint64_t region, uint64_t bs,
		  const struct options *opt, struct result *r);

#endif
