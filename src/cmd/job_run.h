/* What job and fit share (issue 41): a fio job file read, each job turned
 * into the options of one run (job_plan.c), and the jobs run one after
 * another, each on its own target (job_run.c).  The cmd room's own: the
 * commands cmd_job.c and cmd_fit.c use it. */
#ifndef JOB_RUN_H
#define JOB_RUN_H

#include "cmd.h"
#include "job_report.h"
#include "jobfile.h"

/* The most bytes of a job file, its includes each. */
#define JOB_FILE_MAX (1u << 20)

/* The diskbench- directives a job file may hold: fit's (job runs the
 * jobs and leaves them). */
extern const char *const job_directives[];

/* Reads path and parses it into jf; an include names a file beside path
 * (or an absolute one), ${NAME} is the environment's.  EXIT_OK; a usage
 * error (exit 2) saying the file, the line and what to write; EXIT_RUN
 * when a file cannot be read. */
int job_load(const char *path, struct jobfile *jf, struct result *r);

/* What a job report holds (its steps' results, their records): the
 * release function of the result_keep that holds the report. */
void job_report_release(void *report);

/* Each job of jf into a step of rep (allocated; job_report_release frees
 * them): its options
 * from its keys and from opt (-t replaces each job's runtime, --seed its
 * seed; --keep, --force, the format), and where it runs: TARGET when one
 * was named, else its filename= or directory=, else ".".  What diskbench
 * would run differently from fio is refused (exit 2, with the file and
 * line): a job that would run beside the one before it (no stonewall),
 * sync calls with an asynchronous engine, a new file without size=, ...
 * Also rep->worst_s. */
int job_plan(const struct jobfile *jf, const struct options *opt, struct job_report *rep,
	     struct result *r);

/* Runs the planned jobs one after another, each its own run on its own
 * target (a new file removed after it, unless --keep); each one's warnings
 * and findings are carried into r with its name.  A failure ends the run:
 * "NAME: why". */
int job_run_all(struct job_report *rep, struct result *r);

/* cmd_job.c: path read, planned and run into rep (the whole of job, fit's
 * first part); check (NULL: none), when given, reads what else it needs of
 * the file once the jobs are planned, before any runs (fit's directives).
 * An interrupted run lists its jobs on stderr. */
typedef int (*job_check_fn)(const struct jobfile *jf, struct job_report *rep, struct result *r);
int job_read_and_run(const char *path, const struct options *opt, struct job_report *rep,
		     job_check_fn check, struct result *r);

/* On stderr, after an interrupted run: each job that ended with its
 * figures, the one cut short, those never run (not a result). */
void job_print_finished(const struct job_report *rep);

#endif
