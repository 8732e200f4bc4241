/* Rendering of `fit` (issue 41): the profile's jobs as `job` prints them,
 * then a line per requirement (the job, the figure, the limit, PASS, FAIL
 * or BELOW, the source) with the finding that undermines or explains it,
 * the rankings as a table (pg_test_fsync's ops/s and time per op), the
 * verdict line and the advice.  JSON: the jobs' "tests" and "fit" {profile,
 * file, requirements, reports, ranks, verdict, advice, pass, undermined};
 * CSV: a row per requirement, figure and ranked job; --jsonl: a line per
 * job, each with "fit".  fit --list: a line per profile. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "fit.h"
#include "job_report.h"
#include "json.h"
#include "output.h"
#include "output_job.h"
#include "render.h"

static const char *status_name(enum fit_status s)
{
	static const char *const names[] = { [FIT_PASS] = "PASS", [FIT_FAIL] = "FAIL",
					     [FIT_BELOW] = "BELOW", [FIT_UNKNOWN] = "FAIL" };
	return names[s];
}

static const struct result *job_result(const struct job_report *rep, unsigned j)
{
	return &rep->steps[j].r;
}

static void text_rows(FILE *f, const struct job_report *rep)
{
	const struct fit_report *fit = rep->fit;
	for (unsigned i = 0; i < fit->nrows; i++) {
		const struct fit_row *row = &fit->rows[i];
		const struct fit_line *line = &fit->spec.require[row->line];
		char label[48], value[32], limit[48];
		fit_label(label, sizeof(label), job_result(rep, row->job), line->metric);
		fit_format(value, sizeof(value), line->metric, row->value);
		snprintf(limit, sizeof(limit), "%s %s%s", fit_op_name(line->op), line->limit_text,
			 line->recommended ? " (recommended)" : "");
		fprintf(f, "  %-16s %-20s %10s %-22s %-5s  %s\n", rep->steps[row->job].name, label,
			row->status == FIT_UNKNOWN ? "-" : value, limit, status_name(row->status),
			line->source);
		if (row->note[0])
			fprintf(f, "  %-16s %s\n", "", row->note);
		if (row->status == FIT_UNKNOWN)
			fprintf(f, "  %-16s not measured: the job has no such figure\n", "");
	}
}

/* Each rank line's jobs by op size, pg_test_fsync's way: value and time per op. */
static void text_ranks(FILE *f, const struct job_report *rep)
{
	const struct fit_report *fit = rep->fit;
	for (unsigned g = 0; g < fit->nbest; g++) {
		const struct fit_best *b = &fit->best[g];
		const struct fit_line *line = &fit->spec.rank[b->line];
		char label[48];
		fit_label(label, sizeof(label), NULL, line->metric);
		fprintf(f, "ranked by %s, %u write%s per op:\n", label, b->writes_per_op,
			b->writes_per_op == 1 ? "" : "s");
		for (unsigned j = 0; j < rep->nsteps; j++) {
			char value[32], per_op[32] = "";
			double v;
			if (fit->spec.writes_per_op[j] != b->writes_per_op ||
			    (line->job >= 0 && (unsigned)line->job != j))
				continue;
			if (!fit_value(job_result(rep, j), b->writes_per_op, line->metric, &v)) {
				fprintf(f, "  %-32s %14s\n", rep->steps[j].name, "n/a");
				continue;
			}
			fit_format(value, sizeof(value), line->metric, v);
			if (line->metric == FM_OPS) {
				fit_format(per_op, sizeof(per_op), FM_USECS_PER_OP, 1e9 / v);
				fprintf(f, "  %-32s %10.3f ops/s %10s/op%s\n", rep->steps[j].name, v, per_op,
					(int)j == b->job ? "  best" : "");
			} else {
				fprintf(f, "  %-32s %14s%s\n", rep->steps[j].name, value,
					(int)j == b->job ? "  best" : "");
			}
		}
	}
}

static void list_text(FILE *f, const struct fit_listing *l)
{
	for (unsigned i = 0; i < l->n; i++) {
		char name[JOB_NAME_LEN + 170];
		snprintf(name, sizeof(name), "%s%s%s%s", l->p[i].name, l->p[i].aliases[0] ? " (" : "",
			 l->p[i].aliases, l->p[i].aliases[0] ? ")" : "");
		fprintf(f, "%-22s %s\n", name, l->p[i].about);
	}
}

static void fit_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	const struct job_report *rep = r->detail;
	if (!rep)
		return;
	if (rep->listing) {
		list_text(f, rep->listing);
		return;
	}
	if (!rep->fit || !rep->fit->judged)
		return;
	if (!quiet) {
		out_job_text(f, rep, quiet, histogram);
		fprintf(f, "fit %s (%s):\n", rep->fit->profile, rep->fit->file);
		text_rows(f, rep);
		text_ranks(f, rep);
	}
	fprintf(f, "%s\n", rep->fit->verdict);
	for (unsigned i = 0; i < rep->fit->nfindings; i++)
		fprintf(f, "finding: %s\n", rep->fit->findings[i]);
	if (rep->fit->advice[0])
		fprintf(f, "advice: %s\n", rep->fit->advice);
}

/* ---- JSON ---------------------------------------------------------------------- */

static void json_figure(struct json *j, enum fit_metric m, double v)
{
	int decimals = fit_metric_def(m)->unit == FIT_NS ? 0 : 2;
	json_double(j, v, decimals);
}

static void json_requirements(struct json *j, const struct job_report *rep)
{
	const struct fit_report *fit = rep->fit;
	json_key(j, "requirements");
	json_array_begin(j);
	for (unsigned i = 0; i < fit->nrows; i++) {
		const struct fit_row *row = &fit->rows[i];
		const struct fit_line *line = &fit->spec.require[row->line];
		json_object_begin(j);
		json_key(j, "job"), json_string(j, rep->steps[row->job].name);
		json_key(j, "metric"), json_string(j, fit_metric_def(line->metric)->name);
		json_key(j, "op"), json_string(j, fit_op_name(line->op));
		json_key(j, "limit"), json_figure(j, line->metric, line->limit);
		json_key(j, "limit_text"), json_string(j, line->limit_text);
		json_key(j, "value");
		row->status == FIT_UNKNOWN ? json_null(j) : json_figure(j, line->metric, row->value);
		json_key(j, "pass"), json_bool(j, row->status == FIT_PASS);
		json_key(j, "status"), json_string(j, status_name(row->status));
		json_key(j, "recommended"), json_bool(j, line->recommended);
		json_key(j, "source"), json_string(j, line->source);
		json_key(j, "note"), json_string(j, row->note[0] ? row->note : NULL);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_reports(struct json *j, const struct job_report *rep)
{
	const struct fit_spec *spec = &rep->fit->spec;
	json_key(j, "reports");
	json_array_begin(j);
	for (unsigned l = 0; l < spec->nreport; l++)
		for (unsigned k = 0; k < rep->nsteps; k++) {
			const struct fit_line *line = &spec->report[l];
			double v;
			if (line->job >= 0 && (unsigned)line->job != k)
				continue;
			json_object_begin(j);
			json_key(j, "job"), json_string(j, rep->steps[k].name);
			json_key(j, "metric"), json_string(j, fit_metric_def(line->metric)->name);
			json_key(j, "value");
			fit_value(job_result(rep, k), spec->writes_per_op[k], line->metric, &v)
				? json_figure(j, line->metric, v) : json_null(j);
			json_key(j, "source"), json_string(j, line->source[0] ? line->source : NULL);
			json_object_end(j);
		}
	json_array_end(j);
}

static void json_ranks(struct json *j, const struct job_report *rep)
{
	const struct fit_report *fit = rep->fit;
	json_key(j, "ranks");
	json_array_begin(j);
	for (unsigned g = 0; g < fit->nbest; g++) {
		const struct fit_best *b = &fit->best[g];
		const struct fit_line *line = &fit->spec.rank[b->line];
		json_object_begin(j);
		json_key(j, "metric"), json_string(j, fit_metric_def(line->metric)->name);
		json_key(j, "writes_per_op"), json_uint(j, b->writes_per_op);
		json_key(j, "best"), json_string(j, b->job >= 0 ? rep->steps[b->job].name : NULL);
		json_key(j, "source"), json_string(j, line->source[0] ? line->source : NULL);
		json_key(j, "jobs");
		json_array_begin(j);
		for (unsigned k = 0; k < rep->nsteps; k++) {
			double v;
			if (fit->spec.writes_per_op[k] != b->writes_per_op ||
			    (line->job >= 0 && (unsigned)line->job != k))
				continue;
			json_object_begin(j);
			json_key(j, "job"), json_string(j, rep->steps[k].name);
			json_key(j, "value");
			fit_value(job_result(rep, k), b->writes_per_op, line->metric, &v)
				? json_figure(j, line->metric, v) : json_null(j);
			json_object_end(j);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_fit(struct json *j, const struct job_report *rep)
{
	const struct fit_report *fit = rep->fit;
	json_key(j, "fit");
	if (!fit || !fit->judged) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_key(j, "profile"), json_string(j, fit->profile);
	json_key(j, "file"), json_string(j, fit->file);
	json_requirements(j, rep);
	json_reports(j, rep);
	json_ranks(j, rep);
	json_key(j, "findings");
	json_array_begin(j);
	for (unsigned i = 0; i < fit->nfindings; i++)
		json_string(j, fit->findings[i]);
	json_array_end(j);
	json_key(j, "verdict"), json_string(j, fit->verdict);
	json_key(j, "advice"), json_string(j, fit->advice[0] ? fit->advice : NULL);
	json_key(j, "pass"), json_bool(j, fit->pass);
	json_key(j, "undermined"), json_bool(j, fit->undermined);
	json_object_end(j);
}

static void json_list(struct json *j, const struct fit_listing *l)
{
	json_key(j, "profiles_dir"), json_string(j, l->dir);
	json_key(j, "profiles");
	json_array_begin(j);
	for (unsigned i = 0; i < l->n; i++) {
		json_object_begin(j);
		json_key(j, "name"), json_string(j, l->p[i].name);
		json_key(j, "aliases"), json_string(j, l->p[i].aliases[0] ? l->p[i].aliases : NULL);
		json_key(j, "about"), json_string(j, l->p[i].about);
		json_object_end(j);
	}
	json_array_end(j);
}

static void fit_json(struct json *j, const struct result *r)
{
	const struct job_report *rep = r->detail;
	if (!rep)
		return;
	if (rep->listing) {
		json_list(j, rep->listing);
		return;
	}
	out_job_json_tests(j, rep);
	json_fit(j, rep);
}

/* ---- CSV and JSON Lines ---------------------------------------------------------- */

#define FIT_CSV_HEADER "profile,job,metric,op,limit,value,status,source,note"

static void csv_line(FILE *f, const char *profile, const char *job, enum fit_metric m,
		     const char *op, const char *limit, const double *v, const char *status,
		     const char *source, const char *note)
{
	out_csv_field(f, profile);
	fputc(',', f);
	out_csv_field(f, job);
	fprintf(f, ",%s,%s,", fit_metric_def(m)->name, op);
	out_csv_field(f, limit);
	fputc(',', f);
	if (v)
		fprintf(f, fit_metric_def(m)->unit == FIT_NS ? "%.0f" : "%.2f", *v);
	fprintf(f, ",%s,", status);
	out_csv_field(f, source);
	fputc(',', f);
	out_csv_field(f, note);
	fputc('\n', f);
}

static void fit_csv(FILE *f, const struct result *r)
{
	const struct job_report *rep = r->detail;
	if (rep && rep->listing) {
		fputs("profile,aliases,about\n", f);
		for (unsigned i = 0; i < rep->listing->n; i++) {
			const struct fit_profile *p = &rep->listing->p[i];
			out_csv_field(f, p->name);
			fputc(',', f);
			out_csv_field(f, p->aliases);
			fputc(',', f);
			out_csv_field(f, p->about);
			fputc('\n', f);
		}
		return;
	}
	fputs(FIT_CSV_HEADER "\n", f);
	const struct fit_report *fit = rep ? rep->fit : NULL;
	if (!fit || !fit->judged)
		return;
	for (unsigned i = 0; i < fit->nrows; i++) {
		const struct fit_row *row = &fit->rows[i];
		const struct fit_line *line = &fit->spec.require[row->line];
		csv_line(f, fit->profile, rep->steps[row->job].name, line->metric, fit_op_name(line->op),
			 line->limit_text, row->status == FIT_UNKNOWN ? NULL : &row->value,
			 status_name(row->status), line->source, row->note);
	}
	for (unsigned l = 0; l < fit->spec.nreport; l++)
		for (unsigned k = 0; k < rep->nsteps; k++) {
			const struct fit_line *line = &fit->spec.report[l];
			double v;
			if (line->job >= 0 && (unsigned)line->job != k)
				continue;
			bool known = fit_value(job_result(rep, k), fit->spec.writes_per_op[k], line->metric, &v);
			csv_line(f, fit->profile, rep->steps[k].name, line->metric, "", "", known ? &v : NULL,
				 "report", line->source, NULL);
		}
	for (unsigned g = 0; g < fit->nbest; g++) {
		const struct fit_best *b = &fit->best[g];
		const struct fit_line *line = &fit->spec.rank[b->line];
		for (unsigned k = 0; k < rep->nsteps; k++) {
			double v;
			if (fit->spec.writes_per_op[k] != b->writes_per_op ||
			    (line->job >= 0 && (unsigned)line->job != k))
				continue;
			bool known = fit_value(job_result(rep, k), b->writes_per_op, line->metric, &v);
			csv_line(f, fit->profile, rep->steps[k].name, line->metric, "", "", known ? &v : NULL,
				 (int)k == b->job ? "best" : "ranked", line->source, NULL);
		}
	}
}

static void fit_keys(struct json *j, const struct result *r)
{
	json_fit(j, r->detail);
}

static void fit_jsonl(FILE *f, const struct result *r)
{
	const struct job_report *rep = r->detail;
	if (rep && rep->listing) {
		out_json_line(f, r, fit_json);
		return;
	}
	out_job_lines(f, r, rep && rep->fit && rep->fit->judged ? fit_keys : NULL);
}

const struct renderers render_fit = { fit_text, fit_json, fit_csv, NULL, fit_jsonl };
