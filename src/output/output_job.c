/* Rendering of `job` (issue 41): each job of the file as a single test
 * (its header line names it, where it is and its keys as fio spells them);
 * a JSON document whose "tests" hold each job's test object with "step"
 * (its name) and "job" {at, fio}; CSV with a row per job; --jsonl a line
 * per job, which `report` merges with the same job of other hosts.  The
 * parts fit shares are declared in output_job.h. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "job_report.h"
#include "json.h"
#include "output.h"
#include "output_job.h"
#include "render.h"

void out_job_text(FILE *f, const struct job_report *rep, bool quiet, bool histogram)
{
	for (unsigned i = 0; i < rep->nsteps; i++) {
		const struct job_step *s = &rep->steps[i];
		fprintf(f, "%s (%s): %s\n", s->name, s->at, s->spec);
		out_text(f, &s->r, quiet, histogram);
	}
}

static void job_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	if (r->detail)
		out_job_text(f, r->detail, quiet, histogram);
}

/* "job": where the job is and its keys as fio spells them. */
static void json_job_keys(struct json *j, const struct job_step *s)
{
	json_key(j, "job");
	json_object_begin(j);
	json_key(j, "name"), json_string(j, s->name);
	json_key(j, "at"), json_string(j, s->at);
	json_key(j, "fio"), json_string(j, s->spec);
	json_key(j, "time_based"), json_bool(j, s->time_based);
	json_key(j, "ramp_s"), json_double(j, s->ramp_s, 3);
	json_object_end(j);
}

void out_job_json_tests(struct json *j, const struct job_report *rep)
{
	json_key(j, "job_file"), json_string(j, rep->file);
	json_key(j, "worst_s");
	rep->worst_s >= 0 ? json_double(j, rep->worst_s, 3) : json_null(j);
	json_key(j, "tests");
	json_array_begin(j);
	for (unsigned i = 0; i < rep->nsteps; i++) {
		const struct job_step *s = &rep->steps[i];
		json_object_begin(j);
		json_key(j, "step"), json_string(j, s->name);
		json_job_keys(j, s);
		out_json_test_fields(j, &s->r, out_json_single_body);
		json_object_end(j);
	}
	json_array_end(j);
}

static void job_json(struct json *j, const struct result *r)
{
	if (r->detail)
		out_job_json_tests(j, r->detail);
}

/* The sync calls' columns of a job's row (empty without them). */
static void csv_sync(FILE *f, const struct result *r)
{
	if (!r->opt || !r->opt->sync_every || !r->measured) {
		fputs(",,,,", f);
		return;
	}
	struct stats_summary s;
	stats_summarize(&r->sync_lat, &s);
	fprintf(f, ",%s,%llu,%llu,%llu", r->opt->sync_data ? "fdatasync" : "fsync",
		(unsigned long long)r->syncs, (unsigned long long)s.p50, (unsigned long long)s.p99);
}

/* The row of step s: the single-test row (its name in the step column,
 * verdict in the verdict column), then the job's own columns. */
void out_job_csv_row(FILE *f, const struct job_step *s, const char *verdict)
{
	char *row = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&row, &len);
	if (!m)
		return;
	out_csv_step_row(m, &s->r, s->name, verdict);
	if (fclose(m) != 0 || !row)
		return;
	if (len > 0 && row[len - 1] == '\n')
		row[--len] = '\0';
	fputs(row, f);
	free(row);
	csv_sync(f, &s->r);
	fputc(',', f);
	out_csv_field(f, s->at);
	fputc('\n', f);
}

static void job_csv(FILE *f, const struct result *r)
{
	const struct job_report *rep = r->detail;
	fputs(OUT_JOB_CSV_HEADER "\n", f);
	for (unsigned i = 0; rep && i < rep->nsteps; i++)
		out_job_csv_row(f, &rep->steps[i], NULL);
	if (r->error[0] && (!rep || rep->nsteps == 0 || !rep->steps[rep->nsteps - 1].r.error[0])) {
		out_csv_row(f, r); /* where the command itself failed (the file, a key) */
	}
}

void out_job_lines(FILE *f, const struct result *r, out_json_body_fn whole_keys)
{
	const struct job_report *rep = r->detail;
	unsigned n = rep ? rep->nsteps : 0;
	for (unsigned i = 0; i < n; i++) {
		const struct job_step *s = &rep->steps[i];
		struct json j;
		json_init(&j, f);
		json_object_begin(&j);
		out_json_envelope(&j);
		if (s->r.fleet)
			out_json_fleet(&j, s->r.fleet);
		json_key(&j, "command"), json_string(&j, r->test);
		json_key(&j, "step"), json_string(&j, s->name);
		json_job_keys(&j, s);
		out_json_test_fields(&j, &s->r, out_json_single_body);
		if (whole_keys)
			whole_keys(&j, r);
		json_object_end(&j);
		fputc('\n', f);
	}
	/* a failure no job's line holds (the file, a key): a line of its own; a
	 * profile's requirement missed is no failure of the run, but its verdict */
	bool unmet = rep && rep->fit && rep->fit->judged;
	if (r->error[0] && !unmet && (n == 0 || !rep->steps[n - 1].r.error[0]))
		out_json_line(f, r, out_json_file_device);
}

static void job_jsonl(FILE *f, const struct result *r)
{
	out_job_lines(f, r, NULL);
}

const struct renderers render_job = { job_text, job_json, job_csv, NULL, job_jsonl };
