/* job and fit (issue 41): a fio job file run job by job, each job a run
 * of its own with its result, and for fit the profile's requirements
 * judged on them.  Filled by the commands (src/cmd/cmd_job.c,
 * cmd_fit.c), read by their renderers (src/output/output_job.c,
 * output_fit.c). */
#ifndef JOB_REPORT_H
#define JOB_REPORT_H

#include "diskbench.h"

struct fit_report;
struct run_record;
struct fleet_record;

#define JOB_NAME_LEN 64

/* One job of the file, as it ran. */
struct job_step {
	struct result r;          /* its run; r.opt points at o */
	struct options o;         /* what it ran with, from the file and the command line */
	char name[JOB_NAME_LEN];  /* the job's name ([section] or name=) */
	char at[128];             /* where its section is: "etcd.fio:12" */
	char spec[320];           /* its keys as fio spells them: "rw=write bs=2300 ..." */
	char target[4096];        /* the file, directory or device it ran on */
	bool time_based;          /* it ran for a time, not for its size */
	double ramp_s;            /* ramp_time: I/O before its figures count */
	unsigned writes_per_op;   /* fit's "# diskbench-op: N" (pg_test_fsync's two 8kB
				   * writes): an operation is N writes; 1 otherwise */
	enum io_pattern pattern;
	uint64_t size;            /* size= (per clone), 0: not given */
	unsigned notes;           /* JOB_NOTE_*: what the run says of how it differs */
};
/* job_step.notes */
enum {
	JOB_NOTE_QD_IGNORED = 1,   /* iodepth > 1 with a synchronous engine, as in fio */
	JOB_NOTE_CLONES = 2,       /* numjobs > 1 without group_reporting: reported together */
	JOB_NOTE_TARGET = 4,       /* TARGET replaced the job's filename= or directory= */
	JOB_NOTE_VERIFY_READS = 8, /* verification asked of a job that only reads: not checked */
};

/* fit --list: the profiles of the first directory that holds any. */
#define FIT_MAX_PROFILES 32
struct fit_listing {
	char dir[4096];
	unsigned n;
	struct fit_profile {
		char name[JOB_NAME_LEN];
		char aliases[160];    /* "slog", ", "-separated; "" none */
		char about[256];
	} p[FIT_MAX_PROFILES];
};

struct job_report {
	char file[4096];          /* the job file, as named */
	struct job_step *steps;   /* njobs of them */
	unsigned njobs;           /* in the file */
	unsigned nsteps;          /* that ran (or began to) */
	struct run_record *records; /* njobs: what each job's run observed */
	struct fleet_record *fleets; /* njobs, or NULL: each job's fleet record */
	double worst_s;           /* the longest the jobs can take, < 0 unknown (a job
				   * without a time ends after its size) */
	struct fit_report *fit;   /* fit: the profile, its requirements, the verdict;
				   * NULL for job */
	struct fit_listing *listing; /* fit --list; NULL otherwise */
};

#endif
