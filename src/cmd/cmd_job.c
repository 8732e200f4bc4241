/* job FILE.fio [TARGET] (issue 41): a fio job file run job by job, each
 * job a run of its own (job_run.h), the result of each printed as a single
 * test's, after a line that names the job and its keys. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "job_run.h"
#include "progress.h"
#include "target.h"
#include "util.h"

/* On a terminal, before the jobs run: how many, and how long at most. */
static void say_worst(const struct options *opt, const struct job_report *rep)
{
	if (!progress_wanted(opt))
		return;
	if (rep->worst_s >= 0)
		fprintf(stderr, "diskbench: %u job%s from %s, %.3g s of I/O at most\n", rep->njobs,
			rep->njobs == 1 ? "" : "s", rep->file, rep->worst_s);
	else
		fprintf(stderr, "diskbench: %u job%s from %s; a job without runtime= ends after its "
			"size= (-t caps each)\n", rep->njobs, rep->njobs == 1 ? "" : "s", rep->file);
}

/* The file read and planned, then run; fit's first steps too. */
int job_read_and_run(const char *path, const struct options *opt, struct job_report *rep,
		     job_check_fn check, struct result *r)
{
	struct jobfile *jf = malloc(sizeof(*jf));
	if (!jf)
		return fail(r, EXIT_RUN, "cannot allocate the job file's jobs:");
	snprintf(rep->file, sizeof(rep->file), "%s", path);
	int code = job_load(path, jf, r);
	if (code == EXIT_OK)
		code = job_plan(jf, opt, rep, r);
	if (code == EXIT_OK && check)
		code = check(jf, rep, r);
	free(jf);
	if (code == EXIT_OK) {
		say_worst(opt, rep);
		code = job_run_all(rep, r);
	}
	target_cleanup();
	if (code != EXIT_OK && r->interrupted && rep->nsteps > 0)
		job_print_finished(rep);
	return code;
}

int cmd_run_job(const struct command *cmd, const struct options *opt, struct result *r)
{
	(void)cmd;
	struct job_report *rep = result_keep(r, sizeof(*rep), job_report_release);
	if (!rep)
		return fail(r, EXIT_RUN, "cannot allocate the jobs' figures:");
	r->detail = rep;
	return job_read_and_run(opt->job_file, opt, rep, NULL, r);
}
