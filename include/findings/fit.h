/* fit (issue 41): a profile's requirements, reports and rankings judged on
 * the results of its jobs, with the findings that undermine a figure said
 * beside it (a PASS whose flushes were too fast to reach stable media, a
 * FAIL whose figure is a cgroup limit's).  Pure: a function of the jobs'
 * results and the profile. */
#ifndef FIT_H
#define FIT_H

#include <stdbool.h>

#include "diskbench.h"
#include "fitspec.h"

#define FIT_MAX_ROWS 64
#define FIT_NOTE_LEN 240

enum fit_status { FIT_PASS, FIT_FAIL, FIT_BELOW /* a recommended limit missed */, FIT_UNKNOWN };

/* A require line judged on one job. */
struct fit_row {
	unsigned line;          /* index into spec.require */
	unsigned job;
	double value;           /* in the metric's unit */
	enum fit_status status;
	char note[FIT_NOTE_LEN]; /* a finding that undermines a PASS or explains a FAIL; "" none */
};

/* A rank line's best job among those of one op size (pg_test_fsync's one
 * 8kB write, two 8kB writes). */
struct fit_best {
	unsigned line;          /* index into spec.rank */
	unsigned writes_per_op;
	int job;                /* -1: no job of this size measured it */
	double value;
};

struct fit_report {
	char profile[JOBFILE_NAME_LEN]; /* as asked ("etcd"), or the file's name */
	char file[4096];        /* the profile's path */
	struct fit_spec spec;
	struct fit_row rows[FIT_MAX_ROWS];
	unsigned nrows;
	struct fit_best best[FIT_MAX_ROWS];
	unsigned nbest;
	bool judged;            /* every job ran: the rows hold */
	bool pass;              /* no required line failed */
	bool undermined;        /* a PASS that a finding undermines */
	/* what the findings of the jobs no requirement judged say of their
	 * figures (the rows carry their own): "open_sync: undermined: ..." */
	char findings[8][FIT_NOTE_LEN + JOBFILE_NAME_LEN];
	unsigned nfindings;
	char verdict[1024];     /* "etcd: fit: fdatasync p99 3.10 ms < 10ms (...); ..." */
	char advice[1024];      /* what to do about it; "" none */
};

/* The value of metric m in job result r whose operations are writes_per_op
 * writes; false when the run has none (no syncs, no reads). */
bool fit_value(const struct result *r, unsigned writes_per_op, enum fit_metric m, double *out);
/* "fdatasync p99", "write IOPS": the metric as the job ran it. */
void fit_label(char *buf, size_t len, const struct result *r, enum fit_metric m);
/* "3.10 ms", "1.90k", "105 MB/s": a value in its metric's unit. */
void fit_format(char *buf, size_t len, enum fit_metric m, double v);

/* Judges rep->spec on the jobs' results (names[i], results[i], n of them),
 * filling rows, best, pass, undermined, verdict and advice. */
void fit_judge(struct fit_report *rep, const struct result *const *results,
	       const char *const *names, unsigned n);

#endif
