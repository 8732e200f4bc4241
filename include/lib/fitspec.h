/* What a fit profile asks (issue 41): the diskbench- directives of a job
 * file read into requirements, figures to report and rankings.  A profile
 * is a fio job file; its directives are comment lines fio ignores:
 *   # diskbench-about: one line for `fit --list`
 *   # diskbench-alias: another name it answers to
 *   # diskbench-source: the document and section the lines below cite
 *   # diskbench-require: METRIC OP LIMIT [recommended]
 *   # diskbench-report: METRIC        (a figure shown, judged against nothing)
 *   # diskbench-rank: METRIC [LABEL]  (the verdict names the best job by it, as LABEL)
 *   # diskbench-op: N                 (in a job: N writes make one operation)
 * A require, report or rank line in a job's section is that job's; one above
 * every job or in [global] is every job's.  Every require line needs a
 * source above it: a limit without a public source is not a requirement.
 * Pure: no I/O. */
#ifndef FITSPEC_H
#define FITSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "jobfile.h"

#define FIT_MAX_LINES 32   /* requirements, reports and ranks, each */
#define FIT_MAX_ALIASES 4

/* The figures a requirement, report or rank names. */
enum fit_metric {
	FM_IOPS, FM_READ_IOPS, FM_WRITE_IOPS, FM_BW, FM_READ_BW, FM_WRITE_BW,
	FM_LAT_MIN, FM_LAT_MEAN, FM_LAT_P50, FM_LAT_P90, FM_LAT_P99, FM_LAT_P999, FM_LAT_MAX,
	FM_READ_LAT_P50, FM_READ_LAT_P99, FM_WRITE_LAT_P50, FM_WRITE_LAT_P99,
	FM_SYNC_MIN, FM_SYNC_MEAN, FM_SYNC_P50, FM_SYNC_P90, FM_SYNC_P99, FM_SYNC_P999, FM_SYNC_MAX,
	FM_SYNC_IOPS, FM_OPS, FM_USECS_PER_OP, FM_NMETRICS
};
/* What a metric's values are: nanoseconds (limits with a time unit: 10ms),
 * a count per second (limits as numbers: 500, 1.5k), bytes per second
 * (limits as sizes per second: 100MB/s). */
enum fit_unit { FIT_NS, FIT_PER_SEC, FIT_BYTES_PER_SEC };
enum fit_op { FIT_LT, FIT_LE, FIT_GT, FIT_GE };

struct fit_metric_def {
	const char *name;      /* "sync.p99" */
	const char *label;     /* "sync p99": fit.c names the sync call instead of "sync" */
	enum fit_unit unit;
	bool higher_better;    /* rank: the best is the highest */
};
const struct fit_metric_def *fit_metric_def(enum fit_metric m);
/* The metric called name; -1 if none. */
int fit_metric_parse(const char *name);
const char *fit_op_name(enum fit_op op);   /* "<", "<=", ">", ">=" */

/* One require, report or rank line. */
struct fit_line {
	enum fit_metric metric;
	enum fit_op op;          /* require */
	double limit;            /* require: in the metric's unit */
	char limit_text[32];     /* as written: "10ms" */
	char label[64];          /* rank: what the best is called ("fastest wal_sync_method");
				  * "" the metric's */
	bool recommended;        /* require: missing it is said, but is not a failure */
	int job;                 /* its job; -1 every job */
	char source[JOBFILE_TEXT_LEN]; /* the source above it; "" none */
	struct jobfile_at at;
};

struct fit_spec {
	char about[JOBFILE_TEXT_LEN];
	char alias[FIT_MAX_ALIASES][JOBFILE_NAME_LEN];
	unsigned naliases;
	struct fit_line require[FIT_MAX_LINES], report[FIT_MAX_LINES], rank[FIT_MAX_LINES];
	unsigned nrequire, nreport, nrank;
	unsigned writes_per_op[JOBFILE_MAX_JOBS]; /* each job's op: 1 unless it says */
};

/* The directives of jf into spec.  0; or -1 with "FILE:LINE: what is wrong"
 * in why.  A profile with no require, report or rank line is an error: it
 * would judge nothing. */
int fit_spec_read(const struct jobfile *jf, struct fit_spec *spec, char *why, size_t why_len);

/* A limit in unit u ("10ms", "1.5k", "100MB/s") into *out.  0, or -1 with
 * the reason in *why. */
int fit_parse_limit(const char *text, enum fit_unit u, double *out, const char **why);

#endif
