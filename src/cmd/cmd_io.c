/* seqwrite, seqread, buffered, randread, randwrite: one sequence of steps,
 * told apart by their rows in the command table; over one target or
 * several (multi.h), each prepared in turn, all opened, then one run. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>

#include "cmd.h"
#include "multi.h"
#include "progress.h"
#include "runner.h"
#include "util.h"

static int open_flags(const struct command *cmd, const struct options *opt)
{
	if (cmd->dir == IO_READ)
		return O_RDONLY;
	int flags = O_WRONLY;
	if (opt->sync == SYNC_DSYNC)
		flags |= O_DSYNC;
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
static int prepare_target(const struct command *cmd, struct multi *m, unsigned k,
			  struct result *r)
{
	struct target *t = &m->t[k];
	const struct options *opt = multi_enter(m, k, r);
	bool write_test = cmd->dir == IO_WRITE;
	/* reads need data to read; random writes overwrite in place, as fio's do,
	 * rather than measure block allocation in a sparse file */
	bool needs_data = !write_test || cmd->pattern == PAT_RAND;
	int code = run_prepare(t, opt, r);
	if (code == EXIT_OK)
		code = run_plan_region(t, opt, write_test, r);
	if (code == EXIT_OK)
		code = check_threads(cmd, opt, m, r);
	if (code == EXIT_OK)
		code = run_check_direct(t, opt, r);
	if (code == EXIT_OK && !write_test)
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
	int code = multi_begin(&m, opt, r);
	for (unsigned k = 0; code == EXIT_OK && k < m->n; k++)
		code = prepare_target(cmd, m, k, r);
	/* all open before any is written: a device in use refuses the run untouched */
	for (unsigned k = 0; code == EXIT_OK && k < m->n; k++)
		code = target_open(&m->t[k], open_flags(cmd, &m->opt), m->opt.direct, r);
	if (code == EXIT_OK) {
		multi_ready(m, cmd->dir == IO_WRITE, cmd->dir == IO_READ, r);
		if (cmd->dir == IO_WRITE)
			progress_writes(&m->opt, cmd->name, m->opt.time_s, r->region, true);
		run_describe_job(&job, cmd->dir, cmd->pattern, &m->opt, r->region);
		multi_job(m, &job);
		run_job_for(&job, &m->opt);
		code = run_measure(m->t, &job, &m->opt, r);
		multi_finish(m, r);
	}
	multi_close(m);
	target_cleanup();
	return code;
}
