/* --verify and --witness around a write test's run (issue 42): set up
 * before the run, the read-back and its verdict after it, outside the
 * timing.  A command that writes calls run_verify_prepare before its
 * timed loop and run_verify_finish after it. */
#ifndef RUN_VERIFY_H
#define RUN_VERIFY_H

#include "bench.h"
#include "target.h"

/* job->verify for opt (NULL when --verify is off), over t (open for the
 * run) and job's region and block size; the witness opened and its first
 * line written (--witness -: the witness takes stdout, and what would
 * have gone there goes to stderr).  A usage error (exit 2) for what
 * --verify cannot run with, said with the remedy. */
int run_verify_prepare(const struct target *t, struct bench_job *job, const struct options *opt,
		       struct result *r);
/* After the run (code its outcome so far): the writes read back through a
 * descriptor of their own (O_DIRECT, or the page cache evicted first),
 * their tally in r->verify, the witness's last lines, and the warnings
 * and findings; EXIT_BAD_DATA when a block is bad, else code.  The job's
 * verify is freed either way. */
int run_verify_finish(const struct target *t, struct bench_job *job, const struct options *opt,
		      struct result *r, int code);

#endif
