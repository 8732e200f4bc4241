/* seqwrite, seqread, buffered, randread, randwrite: one sequence of steps,
 * told apart by their rows in the command table. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>

#include "cmd.h"
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
			 struct result *r)
{
	if (cmd->pattern == PAT_SEQ && r->region / opt->bs < opt->threads)
		return fail(r, EXIT_USAGE, "%u threads need at least %u blocks; the region has "
			    "%llu", opt->threads, opt->threads,
			    (unsigned long long)(r->region / opt->bs));
	return EXIT_OK;
}

int cmd_run_io(const struct command *cmd, const struct options *opt, struct result *r)
{
	struct target t;
	struct bench_job job;
	bool write_test = cmd->dir == IO_WRITE;
	/* reads need data to read; random writes overwrite in place, as fio's do,
	 * rather than measure block allocation in a sparse file */
	bool needs_data = !write_test || cmd->pattern == PAT_RAND;
	int code = run_prepare(&t, opt, r);
	if (code == EXIT_OK)
		code = run_plan_region(&t, opt, write_test, r);
	if (code == EXIT_OK)
		code = check_threads(cmd, opt, r);
	if (code == EXIT_OK)
		code = run_check_direct(&t, opt, r);
	if (code == EXIT_OK && !write_test)
		code = run_check_data(&t, opt, r);
	if (code == EXIT_OK && t.created)
		code = needs_data ? run_layout(&t, opt, 0, r, NULL) : target_check_space(&t, r->region, r);
	if (code == EXIT_OK)
		code = target_open(&t, open_flags(cmd, opt), opt->direct, r);
	if (code == EXIT_OK) {
		run_warn_target(&t, opt, write_test, r);
		if (!write_test)
			run_evict(&t, opt, r);
		run_describe_job(&job, cmd->dir, cmd->pattern, opt, r->region);
		code = run_measure(&t, &job, opt, r);
	}
	target_close(&t);
	target_cleanup();
	return code;
}
