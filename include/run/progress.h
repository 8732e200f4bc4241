/* The one progress line: on stderr, rewritten in place, only when stderr is
 * a terminal and --quiet was not given; cleared before anything else is
 * printed.  Runs and steps of every command go through it. */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdbool.h>

#include "bench.h"

/* Whether progress may be shown for these options. */
bool progress_wanted(const struct options *opt);
/* Replaces the line with a label, e.g. "sweep: small_random_read, 8 outstanding ...". */
void progress_label(const struct options *opt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A sampler that rewrites the line once a second with "LABEL: bytes in N s, rate". */
void progress_sampler(struct bench_sampler *s, const char *label);
/* Erases the line, if one was shown. */
void progress_clear(void);
/* On a terminal, before a write test: how much it may write, said up front
 * (-t is a duration, so a fast disk is written many times its region). */
void progress_writes(const struct options *opt, const char *what, double seconds,
		     uint64_t region, bool can_once);

#endif
