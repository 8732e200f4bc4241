/* A check that does I/O of its own after the run, said as a warning and a
 * finding (findings.h): flushes acknowledged faster than a disk can write
 * its cache back.  A runner room: run_measure calls it.  What the run's
 * figures and record show is judged in findings.c, without I/O. */
#ifndef CHECKS_H
#define CHECKS_H

#include "diskbench.h"
#include "target.h"

/* Flush honesty: the fdatasync after a one-block write timed after a write
 * test, outside the figure, when a leaf's cache is "write back". */
#define CHECKS_FLUSH_ROUNDS 8
/* A median flush faster than this: no spinning disk or consumer SSD writes
 * its cache back so fast. */
#define CHECKS_FLUSH_FAST_NS 100000.0
#define CHECKS_FLUSH_LEN 4096u

/* On diskbench's own file, or with --force, rewrites one block with what it
 * holds, or test data where the descriptor is write-only (at most
 * CHECKS_FLUSH_LEN bytes, at the end of what the run wrote of region in
 * blocks of bs) through a descriptor of its own without O_DSYNC (the run's
 * writes with O_DSYNC, which would leave the fdatasync nothing to flush) and
 * times the fdatasync after it,
 * CHECKS_FLUSH_ROUNDS times; warns when the median flush is under
 * CHECKS_FLUSH_FAST_NS. */
void checks_flush(const struct target *t, uint64_t region, uint64_t bs,
		  const struct options *opt, struct result *r);

#endif
