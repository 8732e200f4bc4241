/* What job's renderers and fit's share (the output room's own): each job
 * as text, the "tests" of the JSON document, a job's CSV row and the
 * --jsonl lines. */
#ifndef OUTPUT_JOB_H
#define OUTPUT_JOB_H

#include <stdbool.h>
#include <stdio.h>

#include "job_report.h"
#include "output.h"

/* The CSV of a job file's run: the single-test columns, then the sync
 * calls' and where the job is (columns only ever appended). */
#define OUT_JOB_CSV_HEADER OUT_CSV_HEADER ",sync_call,sync_calls,sync_lat_p50_ns,sync_lat_p99_ns,job_at"

/* Each job that ran: "NAME (FILE:LINE): rw=... bs=...", then its test's text. */
void out_job_text(FILE *f, const struct job_report *rep, bool quiet, bool histogram);
/* "job_file", "worst_s" and "tests": each job's test object, with "step"
 * (its name) and "job" {name, at, fio, time_based, ramp_s}. */
void out_job_json_tests(struct json *j, const struct job_report *rep);
/* A job's CSV row; verdict fills the verdict column (NULL: empty). */
void out_job_csv_row(FILE *f, const struct job_step *s, const char *verdict);
/* --jsonl: a line per job ("command", "step", "job", the test's keys),
 * then what whole_keys adds about the whole run (NULL: nothing); a failure
 * no job's line holds gets a line of its own. */
void out_job_lines(FILE *f, const struct result *r, out_json_body_fn whole_keys);

#endif
