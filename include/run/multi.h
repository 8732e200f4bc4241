/* Several targets at once (Orion's LUNs and -simulate raid0, iozone's -F
 * f1 f2 …): the runner steps (runner.h) applied to each target in turn, one
 * timed run whose threads are spread over them (thread i on target i mod N,
 * bench.h), and each target's figures beside the total.  A runner room.
 *
 * A command walks its targets with multi_enter / multi_leave around the
 * steps of one target: while it is entered, r's region, device and file are
 * that target's, as the steps expect.  With one target (the usual run)
 * these functions leave the result exactly as the single-target steps make
 * it, and the job names no targets. */
#ifndef MULTI_H
#define MULTI_H

#include "bench.h"
#include "devinfo.h"
#include "target.h"

struct multi {
	unsigned n;                   /* targets: 1 for a usual run */
	struct options opt;           /* the run's options: -j raised to n at least */
	struct options each;          /* opt naming the target entered */
	struct target t[OPT_MAX_TARGETS];
	struct devinfo device[OPT_MAX_TARGETS]; /* each one's (several targets) */
	struct devinfo all;           /* every target's disks, deduplicated */
	int fd[OPT_MAX_TARGETS];
	uint64_t region[OPT_MAX_TARGETS];     /* in whole blocks of opt.bs */
	uint64_t job_region[OPT_MAX_TARGETS]; /* in whole blocks of the job's bs */
	double resident[OPT_MAX_TARGETS];     /* < 0: not measured */
	struct bench_part part[OPT_MAX_TARGETS]; /* what the runs did on each */
	struct result_target out[OPT_MAX_TARGETS];
};

/* Starts a run over opt's targets and sets *m to its state.  With several:
 * checks them all before anything is created or opened
 * (target_check_several), raises -j to their number for commands that take
 * -j (saying so when -j was given, and when the threads do not divide
 * evenly), points r->opt at m->opt and r->targets at the figures to come.
 * Returns an exit code. */
int multi_begin(struct multi **m, const struct options *opt, struct result *r);
/* The threads target k gets. */
unsigned multi_threads(const struct multi *m, unsigned k);
/* Enters target k: returns the options naming it alone; r's region,
 * device and file become k's. */
const struct options *multi_enter(struct multi *m, unsigned k, struct result *r);
/* Keeps what the steps found of target k: its region, device, file, state
 * and cache residency. */
void multi_leave(struct multi *m, unsigned k, struct result *r);
/* Bytes the targets before k will write on k's filesystem (their own new
 * files, not laid out), for k's free-space check. */
uint64_t multi_space_before(const struct multi *m, unsigned k);
/* Just before the run: each target's warnings (run_warn_target) and, when
 * evict, its eviction (run_evict); then r describes the whole run, as
 * multi_measure_view makes it. */
void multi_ready(struct multi *m, bool write_test, bool evict, struct result *r);
/* Before the timed run: r describes the whole of it (region: the sum;
 * residency: the share of all regions; device: every target's disks, for
 * the counters, temperatures and cgroup limits read around the run). */
void multi_measure_view(struct multi *m, struct result *r);
/* Points job at every target: descriptors, regions in whole blocks of
 * job->bs, and the parts the run adds its figures to. */
void multi_job(struct multi *m, struct bench_job *job);
/* After the run(s): each target's figures in r->targets; r's file and
 * device are the first target's again (the total's region stays). */
void multi_finish(struct multi *m, struct result *r);
void multi_close(struct multi *m);

#endif
