/* The single-test CSV: the header, a test's row, or several targets' rows
 * and their total.  A field's quoting is output_csv.c's, a mix's
 * per-operation columns output_csv_ops.c's. */
#include "output.h"

#include <string.h>

#include "names.h"
#include "output_int.h"
#include "output_series.h"

void out_csv_header(FILE *f)
{
	fputs(OUT_CSV_HEADER "\n", f);
}

/* What one CSV row says: a whole test, one of several targets, or their
 * total; notes: the row is the run's, with the warnings, the error and a
 * mix's operations (which are not counted per target). */
struct csv_part {
	const char *target;
	uint64_t bytes, ios;
	double seconds;
	const struct stats *lat;
	unsigned threads;
	double resident_before_pct;
	bool measured, notes;
	const char *step, *verdict; /* a step of a command of several, and its verdict */
};

/* Figure columns: a run that did not finish leaves them empty, since the
 * contract never prints partial figures as a result. */
static void csv_figures(FILE *f, const struct csv_part *p, const struct stats_summary *s,
			bool first_part)
{
	if (!p->measured) {
		fputs(first_part ? ",,,,,," : ",,,,,", f);
		return;
	}
	if (first_part)
		fprintf(f, ",%llu,%.6f,%.1f,%.2f,%llu,%llu", (unsigned long long)p->bytes, p->seconds,
			out_per_second(p->bytes, p->seconds), out_per_second(p->ios, p->seconds),
			(unsigned long long)s->p50, (unsigned long long)s->p99);
	else
		fprintf(f, ",%llu,%.1f,%llu,%llu,%llu", (unsigned long long)s->min, s->mean,
			(unsigned long long)s->p90, (unsigned long long)s->p99_9,
			(unsigned long long)s->max);
}

static void csv_part_row(FILE *f, const struct result *r, const struct csv_part *p)
{
	struct stats_summary s;
	memset(&s, 0, sizeof(s));
	if (p->measured)
		stats_summarize(p->lat, &s);
	out_csv_field(f, r->test);
	fputc(',', f);
	out_csv_field(f, p->target);
	/* no options (a usage error): the parameters are unknown, not zero */
	if (r->opt)
		fprintf(f, ",%llu", (unsigned long long)r->opt->bs);
	else
		fputc(',', f);
	csv_figures(f, p, &s, true);
	if (p->measured)
		fprintf(f, ",%llu", (unsigned long long)p->ios);
	else
		fputc(',', f);
	if (r->opt)
		fprintf(f, ",%u,%s,%s", p->threads, r->opt->direct ? "true" : "false",
			result_is_write(r) ? sync_mode_name(r->opt->sync) : "");
	else
		fputs(",,,", f);
	csv_figures(f, p, &s, false);
	fputc(',', f);
	if (r->evicted && p->resident_before_pct >= 0)
		fprintf(f, "%.2f", p->resident_before_pct);
	fputc(',', f);
	char warnings[MAX_WARNINGS * (MSG_LEN + 2)] = "";
	for (unsigned i = 0; p->notes && i < r->nwarnings; i++) {
		if (i)
			strcat(warnings, "; ");
		strcat(warnings, r->warnings[i]);
	}
	out_csv_field(f, warnings);
	fputc(',', f);
	out_csv_field(f, p->notes ? r->error : NULL);
	/* appended columns: requests in flight per thread, the engine, the step */
	r->opt ? fprintf(f, ",%u,", r->opt->qd) : fputs(",,", f);
	out_csv_field(f, r->engine);
	fputc(',', f);
	out_csv_field(f, p->step);
	fputc(',', f);
	out_csv_field(f, p->verdict);
	out_csv_ops(f, r, p->notes, p->ios, p->bytes, p->seconds, p->measured ? &s : NULL);
	const struct result_open_loop *o = &r->open_loop;
	out_csv_open_loop(f, o->on, p->measured, p->notes, o->rate_asked,
			  out_per_second(p->ios, p->seconds), o->unserved);
	fputc('\n', f);
}

void out_csv_step_row(FILE *f, const struct result *r, const char *step, const char *verdict)
{
	struct csv_part whole = { .target = r->target, .bytes = r->bytes, .ios = r->ios,
				  .seconds = r->seconds, .lat = &r->lat,
				  .threads = r->opt ? r->opt->threads : 0,
				  .resident_before_pct = r->resident_before_pct,
				  .measured = r->measured, .notes = true,
				  .step = step, .verdict = verdict };
	csv_part_row(f, r, &whole);
}

void out_csv_row(FILE *f, const struct result *r)
{
	out_csv_step_row(f, r, NULL, NULL);
}

/* Several targets: a row for each, then their total (target "total"),
 * which carries the warnings and the error. */
static void csv_target_rows(FILE *f, const struct result *r)
{
	for (unsigned k = 0; k < r->ntargets; k++) {
		const struct result_target *t = &r->targets[k];
		struct csv_part part = { .target = t->target, .bytes = t->bytes, .ios = t->ios,
					 .seconds = t->seconds, .lat = t->lat, .threads = t->threads,
					 .resident_before_pct = t->resident_before_pct,
					 .measured = r->measured && t->lat };
		csv_part_row(f, r, &part);
	}
	struct csv_part total = { .target = "total", .bytes = r->bytes, .ios = r->ios,
				  .seconds = r->seconds, .lat = &r->lat,
				  .threads = r->opt ? r->opt->threads : 0,
				  .resident_before_pct = r->resident_before_pct,
				  .measured = r->measured, .notes = true };
	csv_part_row(f, r, &total);
}

void out_csv(FILE *f, const struct result *r)
{
	if (r->opt && r->opt->series_rows) {
		out_csv_series(f, r);
		return;
	}
	out_csv_header(f);
	if (r->ntargets > 1)
		csv_target_rows(f, r);
	else
		out_csv_row(f, r);
}
