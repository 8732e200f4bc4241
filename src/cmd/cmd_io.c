/* seqwrite, seqread, buffered, randread, randwrite, and the mixes rw,
 * randrw, trim, randtrim: one sequence of steps, told apart by their rows in
 * the command table; over one target or several (multi.h), each prepared
 * in turn, all opened, then one run. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>

#include "cmd.h"
#include "multi.h"
#include "names.h"
#include "progress.h"
#include "run_verify.h"
#include "runner.h"
#include "util.h"

/* What the test does, resolved once from its row and --mix: every later
 * step reads this rather than asking the mix again. */
struct io_does {
	bool reads, writes, trims; /* writes: data written */
	bool changes;              /* writes or trims: the same safety */
	bool mixed;                /* --mix: several operations on one descriptor */
};

static struct io_does io_does(const struct command *cmd, const struct options *opt)
{
	struct io_does d = { .reads = cmd->dir == IO_READ, .writes = cmd->dir == IO_WRITE };
	if (mix_set(&opt->mix))
		d = (struct io_does){ .reads = mix_has(&opt->mix, MIX_READ),
				      .writes = mix_has(&opt->mix, MIX_WRITE),
				      .trims = mix_has(&opt->mix, MIX_TRIM), .mixed = true };
	d.changes = d.writes || d.trims;
	return d;
}

static int open_flags(const struct io_does *does, const struct options *opt)
{
	if (!does->changes)
		return O_RDONLY;
	/* a mix reads too; a trim needs a descriptor open for writing */
	int flags = does->mixed ? O_RDWR : O_WRONLY;
	if (does->writes)
		flags |= sync_open_flag(opt->sync);
	return flags;
}

static int check_threads(const struct command *cmd, const struct options *opt,
			 const struct multi *m, struct result *r)
{
	if (cmd->pattern == PAT_SEQ && r->region / opt->bs < opt->threads)
		return fail(r, EXIT_USAGE, "%u threads need at least %u blocks; the region has "
			    "%llu%s%s%s", opt->threads, opt->threads,
			    (unsigned long long)(r->region / opt->bs), m->n > 1 ? " on '" : "",
			    m->n > 1 ? opt->target : "", m->n > 1 ? "'" : "");
	return EXIT_OK;
}

/* Target k's steps before anything is opened for the run: plan, checks,
 * and the data to read or the space to write. */
static int prepare_target(const struct command *cmd, const struct io_does *does,
			  struct multi *m, unsigned k, struct result *r)
{
	struct target *t = &m->t[k];
	const struct options *opt = multi_enter(m, k, r);
	/* reads need data to read, trims data to discard; random writes overwrite
	 * in place, as fio's do, rather than measure block allocation in a sparse file */
	bool needs_data = !does->writes || does->reads || cmd->pattern == PAT_RAND;
	int code = run_prepare(t, opt, r);
	if (code == EXIT_OK)
		code = run_plan_region(t, opt, does->changes, r);
	if (code == EXIT_OK)
		code = check_threads(cmd, opt, m, r);
	if (code == EXIT_OK)
		code = run_check_direct(t, opt, r);
	if (code == EXIT_OK && does->reads)
		code = run_check_data(t, opt, r);
	if (code == EXIT_OK && t->created)
		code = needs_data ? run_layout(t, opt, 0, r, NULL)
				  : target_check_space(t, r->region + multi_space_before(m, k), r);
	multi_leave(m, k, r);
	return code;
}

int cmd_run_io(const struct command *cmd, const struct options *opt, struct result *r)
{
	struct multi *m;
	struct bench_job job;
	const struct io_does does = io_does(cmd, opt);
	r->dir = does.changes ? IO_WRITE : IO_READ; /* a mix without writes or trims only reads */
	int code = multi_begin(&m, opt, r);
	if (code == EXIT_OK && m->opt.rate > 0) { /* --rate's default depth, within the engine's */
		m->opt.qd = run_fit_depth(&m->opt, m->opt.qd, "the open loop (--rate)", r);
		r->opt = &m->opt; /* params.qd: the depth the run has */
	}
	for (unsigned k = 0; code == EXIT_OK && k < m->n; k++)
		code = prepare_target(cmd, &does, m, k, r);
	/* all open before any is written: a device in use refuses the run untouched */
	for (unsigned k = 0; code == EXIT_OK && k < m->n; k++)
		code = target_open(&m->t[k], open_flags(&does, &m->opt), m->opt.direct, r);
	/* a target that cannot discard is refused before anything runs */
	for (unsigned k = 0; code == EXIT_OK && does.trims && k < m->n; k++)
		code = run_check_trim(&m->t[k], r);
	if (code == EXIT_OK) {
		multi_ready(m, does.writes, does.reads, r);
		run_describe_job(&job, r->dir, cmd->pattern, &m->opt, r->region);
		run_job_mix(&job, &m->opt);
		multi_job(m, &job);
		run_job_for(&job, &m->opt);
		if (does.changes) /* trims alone make one pass (run_job_for) */
			progress_writes(&m->opt, cmd->name, job.wrap ? m->opt.time_s : 0, r->region,
					true);
		job.ceiling_check = true;
		code = run_verify_prepare(m->t, &job, &m->opt, r);
		if (code == EXIT_OK)
			code = run_verify_finish(m->t, &job, &m->opt, r,
						 run_measure(m->t, &job, &m->opt, r));
		multi_finish(m, r);
	}
	multi_close(m);
	target_cleanup();
	return code;
}
