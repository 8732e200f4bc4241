/* What around the device bounds a run's figure, checked after the run and
 * said as warnings and findings: I/O limits a cgroup puts on this process,
 * and a rate cap the series and latencies show.  A runner room, next to
 * sampling.c, which calls it. */
#ifndef CHECKS_H
#define CHECKS_H

#include "diskbench.h"

/* A limit counts as the figure when the run reached this share of it. */
#define CHECKS_LIMIT_REACHED 0.8

/* Warns about each limit the process's cgroups put on the devices under the
 * target (every node of r->device's stack) in the run's direction. */
void checks_cgroup(struct result *r);
/* Warns when r->series and r->lat look like a rate cap (detect.h); on
 * O_DIRECT runs only, as page-cache hits and misses look alike. */
void checks_rate_cap(const struct options *opt, struct result *r);

#endif
