/* Rendering of `report`: per group a host table and the fleet's totals; with
 * --baseline, the comparison (text and CSV show it alone, JSON holds both).
 * The keys and columns are listed in diskbench(1), REPORT OUTPUT. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "json.h"
#include "output.h"
#include "output_svg.h"
#include "report.h"
#include "units.h"

static const char *const flag_names[] = { "late", "outlier", "clock", "warn" };
#define NFLAGS (sizeof(flag_names) / sizeof(flag_names[0]))

/* "late,outlier" (sep ","), or "" */
static void flags_text(char *buf, size_t len, unsigned flags, const char *sep)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < NFLAGS; i++)
		if (flags & (1u << i))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? sep : "",
						 flag_names[i]);
}

/* "randread, run r1" ("..., --engine=nop" for a run of NOPs) */
static void run_name(char *buf, size_t len, const struct fleet_group *g)
{
	const char *nop = g->nop ? ", --engine=nop" : "";
	if (g->run_id[0])
		snprintf(buf, len, "%s, run %s%s", g->test, g->run_id, nop);
	else
		snprintf(buf, len, "%s, no run_id%s", g->test, nop);
}

/* ---- text ---- */

static void text_row(FILE *f, const struct fleet_row *row)
{
	const struct fleet_record *r = row->rec;
	char start[24] = "-", p50[24] = "-", p99[24] = "-", dev[24] = "-", flags[48];
	if (!isnan(row->start_offset_ms))
		snprintf(start, sizeof(start), "%.3f", row->start_offset_ms);
	if (r->has_lat) {
		fmt_ns(p50, sizeof(p50), (double)r->p50);
		fmt_ns(p99, sizeof(p99), (double)r->p99);
	}
	if (!isnan(row->deviation_pct))
		snprintf(dev, sizeof(dev), "%+.1f %%", row->deviation_pct);
	flags_text(flags, sizeof(flags), row->flags, ",");
	fprintf(f, "  %-16s %10s %8.3f %10.2f %10.0f %10s %10s %9s%s%s%s\n", row->label, start,
		r->seconds, r->bytes_per_sec / 1e6, r->iops, p50, p99, dev, flags[0] ? "  " : "", flags,
		r->fit == FLEET_NOT_FIT ? "  NOT FIT" : "");
}

static void text_latency(FILE *f, const struct fleet_totals *t)
{
	char p[4][24];
	if (!t->has_lat) {
		fprintf(f, "  latency: no fleet percentiles: %s\n", t->lat_why);
		return;
	}
	fmt_ns(p[0], sizeof(p[0]), (double)t->p50);
	fmt_ns(p[1], sizeof(p[1]), (double)t->p90);
	fmt_ns(p[2], sizeof(p[2]), (double)t->p99);
	fmt_ns(p[3], sizeof(p[3]), (double)t->p99_9);
	fprintf(f, "  latency (merged histograms of %llu I/Os): p50 %s, p90 %s, p99 %s, p99.9 %s\n",
		(unsigned long long)t->lat_count, p[0], p[1], p[2], p[3]);
}

static void text_totals(FILE *f, const struct fleet_group *g)
{
	const struct fleet_totals *t = &g->t;
	char rate[32], iops[16], bytes[32];
	fmt_rate_si(rate, sizeof(rate), t->sum_bytes_per_sec);
	fmt_count(iops, sizeof(iops), t->sum_iops);
	fprintf(f, "  fleet: %s, %s IOPS (sum of the hosts' rates)\n", rate, iops);
	if (!t->timed) {
		fprintf(f, "  span, common window and start skew: unknown: %s\n", t->window_why);
	} else {
		fmt_rate_si(rate, sizeof(rate), t->span_bytes_per_sec);
		fmt_bytes_si(bytes, sizeof(bytes), t->bytes);
		fprintf(f, "  span: %s (%s from the first start to the last end, %.3f s)\n", rate,
			bytes, t->span_s);
		if (t->has_window) {
			fmt_rate_si(rate, sizeof(rate), t->window_bytes_per_sec);
			fprintf(f, "  common window: %s over %.3f s, while all %u hosts ran\n", rate,
				t->window_s, g->n);
		} else {
			fprintf(f, "  common window: unknown: %s\n", t->window_why);
		}
		fprintf(f, "  start skew: %.3f ms (%.2f %% of the run)\n", t->start_skew_ms,
			t->start_skew_pct);
	}
	text_latency(f, t);
}

/* A host that is in the run but not in its figures, and why. */
static void text_other(FILE *f, const struct fleet_row *row)
{
	if (row->status == ROW_FAILED)
		fprintf(f, "  %-16s FAILED: %s (%s)\n", row->label, row->rec->error, row->rec->where);
	else
		fprintf(f, "  %-16s duplicate: %s repeats %s, counted once\n", row->label,
			row->rec->where, row->same_as->where);
}

/* "3 hosts", "3 hosts, 1 failed" */
static void hosts_text(char *buf, size_t len, const struct fleet_group *g)
{
	int used = snprintf(buf, len, "%u hosts", g->n);
	if (g->nfailed && used > 0 && (size_t)used < len)
		snprintf(buf + used, len - (size_t)used, ", %u failed", g->nfailed);
}

/* fit --jsonl (issue 41): how many hosts the profile found fit, and which not */
static void text_fit(FILE *f, const struct fleet_group *g)
{
	unsigned judged = 0, fit = 0;
	for (unsigned i = 0; i < g->n; i++) {
		judged += g->rows[i].rec->fit != 0;
		fit += g->rows[i].rec->fit == FLEET_FIT;
	}
	if (judged == 0)
		return;
	fprintf(f, "  fit: %u of %u hosts fit", fit, judged);
	for (unsigned i = 0, k = 0; i < g->n; i++)
		if (g->rows[i].rec->fit == FLEET_NOT_FIT)
			fprintf(f, "%s%s", k++ ? ", " : "; not fit: ", g->rows[i].label);
	fputc('\n', f);
}

static void text_group(FILE *f, const struct fleet_group *g, bool quiet)
{
	char name[160], rate[32], iops[16], p99[24] = "-", hosts[48];
	run_name(name, sizeof(name), g);
	hosts_text(hosts, sizeof(hosts), g);
	if (quiet) {
		fmt_rate_si(rate, sizeof(rate), g->t.sum_bytes_per_sec);
		fmt_count(iops, sizeof(iops), g->t.sum_iops);
		if (g->t.has_lat)
			fmt_ns(p99, sizeof(p99), (double)g->t.p99);
		fprintf(f, "%s: %s, %s, %s IOPS, fleet p99 %s\n", name, hosts, rate, iops, p99);
		return;
	}
	fprintf(f, "%s: %s (deviation of %s from their median)\n", name, hosts,
		g->by_iops ? "IOPS" : "MB/s");
	if (g->nop)
		fprintf(f, "  NOPs reach no device: each host's figures are diskbench's own ceiling "
			"on its CPU, and their sum no device's figure\n");
	fprintf(f, "  %-16s %10s %8s %10s %10s %10s %10s %9s  %s\n", "host", "start ms", "seconds",
		"MB/s", "IOPS", "p50", "p99", "vs median", "flags");
	for (unsigned i = 0; i < g->n; i++)
		text_row(f, &g->rows[i]);
	for (unsigned i = 0; i < g->nothers; i++)
		text_other(f, &g->others[i]);
	text_fit(f, g);
	if (g->n)
		text_totals(f, g);
	else
		fprintf(f, "  fleet: no figures: no host's run succeeded\n");
}

static void figure_text(char *buf, size_t len, enum fleet_figure fig, double v)
{
	if (fig == FIG_P50 || fig == FIG_P99)
		fmt_ns(buf, len, v);
	else if (fig == FIG_MBPS)
		snprintf(buf, len, "%.2f", v / 1e6);
	else
		snprintf(buf, len, "%.0f", v);
}

static void text_hosts(FILE *f, const char *what, const char **hosts, unsigned n)
{
	if (n == 0)
		return;
	fprintf(f, "  %s:", what);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s %s", i ? "," : "", hosts[i]);
	fputc('\n', f);
}

/* "20.0 % floor", "6.1 % 3 runs", "232.4 % measured" */
static void noise_text(char *buf, size_t len, const struct fleet_change *c)
{
	if (c->noise_from == NOISE_REPEATS)
		snprintf(buf, len, "%.1f %% %u runs", c->noise_pct, c->runs);
	else
		snprintf(buf, len, "%.1f %% %s", c->noise_pct, fleet_noise_from_name(c->noise_from));
}

static void text_pairing(FILE *f, const struct fleet_pairing *p)
{
	char old_name[160] = "", new_name[160] = "";
	if (p->old)
		run_name(old_name, sizeof(old_name), p->old);
	if (p->new)
		run_name(new_name, sizeof(new_name), p->new);
	if (!p->old || !p->new) {
		fprintf(f, "baseline: %s: %s\n", p->old ? old_name : new_name,
			p->old ? "only in the baseline" : "no run of this test in the baseline");
	} else {
		fprintf(f, "baseline: %s (old%s) against %s (new)\n", old_name,
			p->nrepeats > 1 ? ", with its repeats: means" : "", new_name);
		fprintf(f, "  %-16s %-7s %12s %12s %9s %17s\n", "host", "figure", "old", "new", "change",
			"noise");
	}
	for (unsigned i = 0; i < p->n; i++) {
		const struct fleet_change *c = &p->changes[i];
		char a[24], b[24], change[24] = "-", noise[48];
		figure_text(a, sizeof(a), c->figure, c->old_value);
		figure_text(b, sizeof(b), c->figure, c->new_value);
		if (!isnan(c->change_pct))
			snprintf(change, sizeof(change), "%+.1f %%", c->change_pct);
		noise_text(noise, sizeof(noise), c);
		fprintf(f, "  %-16s %-7s %12s %12s %9s %17s%s\n", c->host, fleet_figure_label(c->figure), a,
			b, change, noise, c->regressed ? "  REGRESSED" : "");
	}
	if (p->old && p->new)
		fprintf(f, "  (fleet) is the %u hosts in both\n", p->n_common);
	text_hosts(f, "only in the baseline", p->only_old, p->n_only_old);
	text_hosts(f, "only in the new records", p->only_new, p->n_only_new);
	for (unsigned i = 0; p->new && i < p->new->nothers; i++)
		text_other(f, &p->new->others[i]);
}

/* How the regressions were judged, under the table (the noise column says
 * which way each row was). */
static void text_judged(FILE *f, const struct fleet_baseline *b)
{
	const struct fleet_judge *j = &b->judge;
	fprintf(f, "noise: the range of %d or more baseline runs of a host (\"runs\"); with fewer, "
		"the floor (rate %g %%, p50 %g %%, p99 %g %%, --noise-floor) or what the runs showed "
		"when wider (\"measured\")\n", FLEET_REPEATS_TO_JUDGE, j->floor_pct[FIG_MBPS],
		j->floor_pct[FIG_P50], j->floor_pct[FIG_P99]);
}

void report_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	const struct report_detail *d = r->detail;
	(void)histogram; /* not an option of report */
	if (d->compared) {
		for (unsigned i = 0; i < d->base.n; i++)
			if (!quiet || d->base.pairs[i].n)
				text_pairing(f, &d->base.pairs[i]);
		if (d->base.nchanges && !quiet)
			text_judged(f, &d->base);
		if (d->base.nchanges == 0)
			fprintf(f, "nothing compared: no host's run in the new records succeeded\n");
		else if (d->base.nregressed)
			fprintf(f, "regressed: %u of %u figures worse by more than %g %% and their "
				"noise\n", d->base.nregressed, d->base.nchanges, d->base.threshold_pct);
		else
			fprintf(f, "no regression: none of %u figures worse by more than %g %% and "
				"their noise\n", d->base.nchanges, d->base.threshold_pct);
		return;
	}
	for (unsigned i = 0; i < d->rep.n; i++) {
		if (i && !quiet)
			fputc('\n', f);
		text_group(f, &d->rep.groups[i], quiet);
	}
}

/* ---- JSON ---- */

static void json_num(struct json *j, const char *key, double v, int decimals)
{
	json_key(j, key);
	json_double(j, v, decimals);
}

static void json_opt_uint(struct json *j, const char *key, bool known, uint64_t v)
{
	json_key(j, key);
	if (known)
		json_uint(j, v);
	else
		json_null(j);
}

static void json_row(struct json *j, const struct fleet_row *row)
{
	const struct fleet_record *r = row->rec;
	json_object_begin(j);
	json_key(j, "host"), json_string(j, row->label);
	json_key(j, "where"), json_string(j, r->where);
	json_key(j, "status"), json_string(j, "ok");
	json_num(j, "start_offset_ms", row->start_offset_ms, 3);
	json_num(j, "seconds", r->seconds, 6);
	json_key(j, "bytes"), json_uint(j, r->bytes);
	json_key(j, "ios"), json_uint(j, r->ios);
	json_num(j, "bytes_per_sec", r->bytes_per_sec, 1);
	json_num(j, "iops", r->iops, 2);
	json_opt_uint(j, "lat_p50_ns", r->has_lat, r->p50);
	json_opt_uint(j, "lat_p99_ns", r->has_lat, r->p99);
	json_num(j, "deviation_pct", row->deviation_pct, 2);
	json_num(j, "late_us", r->has_late ? r->late_us : NAN, 0);
	json_key(j, "clock_synchronised");
	if (r->clock_synced < 0)
		json_null(j);
	else
		json_bool(j, r->clock_synced == 1);
	json_key(j, "warnings"), json_uint(j, r->nwarnings);
	if (r->fit) /* fit --jsonl's verdict */
		json_key(j, "fit"), json_bool(j, r->fit == FLEET_FIT), json_key(j, "fit_verdict"),
			json_string(j, r->fit_verdict);
	json_key(j, "flags");
	json_array_begin(j);
	for (unsigned i = 0; i < NFLAGS; i++)
		if (row->flags & (1u << i))
			json_string(j, flag_names[i]);
	json_array_end(j);
	json_object_end(j);
}

static void json_fleet_lat(struct json *j, const struct fleet_totals *t)
{
	json_key(j, "lat_ns");
	if (!t->has_lat) {
		json_null(j);
	} else {
		json_object_begin(j);
		json_key(j, "count"), json_uint(j, t->lat_count);
		json_key(j, "min"), json_uint(j, t->lat_min);
		json_key(j, "max"), json_uint(j, t->lat_max);
		json_key(j, "p50"), json_uint(j, t->p50);
		json_key(j, "p90"), json_uint(j, t->p90);
		json_key(j, "p99"), json_uint(j, t->p99);
		json_key(j, "p99_9"), json_uint(j, t->p99_9);
		json_object_end(j);
	}
	json_key(j, "lat_unavailable"), json_string(j, t->has_lat ? NULL : t->lat_why);
}

static void json_fleet(struct json *j, const struct fleet_group *g)
{
	const struct fleet_totals *t = &g->t;
	json_key(j, "fleet");
	json_object_begin(j);
	json_key(j, "hosts"), json_uint(j, g->n);
	json_key(j, "bytes"), json_uint(j, t->bytes);
	json_key(j, "ios"), json_uint(j, t->ios);
	json_num(j, "sum_bytes_per_sec", t->sum_bytes_per_sec, 1);
	json_num(j, "sum_iops", t->sum_iops, 2);
	json_num(j, "span_s", t->timed ? t->span_s : NAN, 6);
	json_num(j, "span_bytes_per_sec", t->timed ? t->span_bytes_per_sec : NAN, 1);
	json_num(j, "start_skew_ms", t->timed ? t->start_skew_ms : NAN, 3);
	json_num(j, "start_skew_pct", t->timed ? t->start_skew_pct : NAN, 3);
	json_key(j, "common_window");
	if (t->has_window) {
		json_object_begin(j);
		json_num(j, "seconds", t->window_s, 6);
		json_num(j, "bytes", t->window_bytes, 0);
		json_num(j, "bytes_per_sec", t->window_bytes_per_sec, 1);
		json_object_end(j);
	} else {
		json_null(j);
	}
	json_key(j, "common_window_unavailable");
	json_string(j, t->has_window ? NULL : t->window_why);
	json_fleet_lat(j, t);
	json_object_end(j);
}

static void json_others(struct json *j, const struct fleet_group *g)
{
	json_key(j, "not_counted");
	json_array_begin(j);
	for (unsigned i = 0; i < g->nothers; i++) {
		const struct fleet_row *row = &g->others[i];
		json_object_begin(j);
		json_key(j, "host"), json_string(j, row->label);
		json_key(j, "where"), json_string(j, row->rec->where);
		json_key(j, "status"), json_string(j, row->status == ROW_FAILED ? "failed" : "duplicate");
		json_key(j, "error"), json_string(j, row->rec->error);
		json_key(j, "repeats"), json_string(j, row->same_as ? row->same_as->where : NULL);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_group(struct json *j, const struct fleet_group *g)
{
	json_object_begin(j);
	json_key(j, "run_id"), json_string(j, g->run_id);
	json_key(j, "test"), json_string(j, g->test);
	json_key(j, "metric"), json_string(j, g->by_iops ? "iops" : "bytes_per_sec");
	json_key(j, "nop"), json_bool(j, g->nop);
	json_num(j, "median", g->t.median, 2);
	json_key(j, "hosts");
	json_array_begin(j);
	for (unsigned i = 0; i < g->n; i++)
		json_row(j, &g->rows[i]);
	json_array_end(j);
	json_others(j, g);
	if (g->n) {
		json_fleet(j, g);
	} else {
		json_key(j, "fleet");
		json_null(j);
	}
	json_object_end(j);
}

static void json_inputs(struct json *j, const char *key, const struct fleet_set *s)
{
	json_key(j, key);
	json_object_begin(j);
	json_key(j, "lines"), json_uint(j, s->lines);
	json_key(j, "records"), json_uint(j, s->n);
	json_key(j, "skipped"), json_uint(j, s->skipped);
	json_key(j, "failed"), json_uint(j, s->failed);
	json_object_end(j);
}

static void json_strings(struct json *j, const char *key, const char **v, unsigned n)
{
	json_key(j, key);
	json_array_begin(j);
	for (unsigned i = 0; i < n; i++)
		json_string(j, v[i]);
	json_array_end(j);
}

static void json_pairing(struct json *j, const struct fleet_pairing *p)
{
	const struct fleet_group *g = p->new ? p->new : p->old;
	json_object_begin(j);
	json_key(j, "test"), json_string(j, g->test);
	json_key(j, "old_run_id"), json_string(j, p->old ? p->old->run_id : NULL);
	json_key(j, "new_run_id"), json_string(j, p->new ? p->new->run_id : NULL);
	json_key(j, "params_differ"), json_null(j); /* refused since issue 21: like with like */
	json_key(j, "repeats"), json_uint(j, p->nrepeats);
	json_key(j, "common_hosts"), json_uint(j, p->n_common);
	json_key(j, "changes");
	json_array_begin(j);
	for (unsigned i = 0; i < p->n; i++) {
		const struct fleet_change *c = &p->changes[i];
		json_object_begin(j);
		json_key(j, "host"), json_string(j, c->host);
		json_key(j, "figure"), json_string(j, fleet_figure_key(c->figure));
		int decimals = c->figure == FIG_MBPS ? 1 : c->figure == FIG_IOPS ? 2 : 0;
		json_num(j, "old", c->old_value, decimals);
		json_num(j, "new", c->new_value, decimals);
		json_num(j, "change_pct", c->change_pct, 2);
		json_num(j, "noise_pct", c->noise_pct, 2);
		json_key(j, "noise_from"), json_string(j, fleet_noise_from_name(c->noise_from));
		json_key(j, "baseline_runs"), json_uint(j, c->runs);
		json_key(j, "regressed"), json_bool(j, c->regressed);
		json_object_end(j);
	}
	json_array_end(j);
	json_strings(j, "only_in_old", p->only_old, p->n_only_old);
	json_strings(j, "only_in_new", p->only_new, p->n_only_new);
	json_object_end(j);
}

static void json_baseline(struct json *j, const struct report_detail *d)
{
	json_key(j, "baseline");
	if (!d->compared) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_key(j, "file"), json_string(j, d->baseline);
	json_inputs(j, "inputs", &d->old_set);
	json_num(j, "threshold_pct", d->base.threshold_pct, 2);
	json_key(j, "noise_floor_pct");
	json_object_begin(j);
	json_num(j, "rate", d->base.judge.floor_pct[FIG_MBPS], 2);
	json_num(j, "p50", d->base.judge.floor_pct[FIG_P50], 2);
	json_num(j, "p99", d->base.judge.floor_pct[FIG_P99], 2);
	json_object_end(j);
	json_key(j, "repeats_to_judge"), json_uint(j, FLEET_REPEATS_TO_JUDGE);
	json_key(j, "figures"), json_uint(j, d->base.nchanges);
	json_key(j, "regressed"), json_uint(j, d->base.nregressed);
	json_key(j, "runs");
	json_array_begin(j);
	for (unsigned i = 0; i < d->base.n; i++)
		json_pairing(j, &d->base.pairs[i]);
	json_array_end(j);
	json_object_end(j);
}

void report_json(struct json *j, const struct result *r)
{
	const struct report_detail *d = r->detail;
	if (!d)
		return; /* the command line was refused: the envelope and error say it all */
	json_inputs(j, "inputs", &d->set);
	json_key(j, "groups");
	json_array_begin(j);
	for (unsigned i = 0; d->built && i < d->rep.n; i++)
		json_group(j, &d->rep.groups[i]);
	json_array_end(j);
	json_baseline(j, d);
}

/* ---- CSV ---- */

static void csv_num(FILE *f, double v, int decimals)
{
	fputc(',', f);
	if (!isnan(v) && !isinf(v))
		fprintf(f, "%.*f", decimals, v);
}

static void csv_row(FILE *f, const struct fleet_group *g, const struct fleet_row *row)
{
	const struct fleet_record *r = row->rec;
	char flags[48];
	out_csv_field(f, g->run_id);
	fputc(',', f);
	out_csv_field(f, g->test);
	fputc(',', f);
	out_csv_field(f, row->label);
	csv_num(f, row->start_offset_ms, 3);
	fprintf(f, ",%.6f,%llu,%llu,%.1f,%.2f", r->seconds, (unsigned long long)r->bytes,
		(unsigned long long)r->ios, r->bytes_per_sec, r->iops);
	csv_num(f, r->has_lat ? (double)r->p50 : NAN, 0);
	csv_num(f, r->has_lat ? (double)r->p99 : NAN, 0);
	csv_num(f, row->deviation_pct, 2);
	flags_text(flags, sizeof(flags), row->flags, " ");
	fprintf(f, ",%s,,,,,,ok,\n", flags);
}

/* A failed run or a repeated record: its names, no figures, why. */
static void csv_other(FILE *f, const struct fleet_group *g, const struct fleet_row *row)
{
	out_csv_field(f, g->run_id);
	fputc(',', f);
	out_csv_field(f, g->test);
	fputc(',', f);
	out_csv_field(f, row->label);
	fputs(",,,,,,,,,,,,,,,,", f);
	fputs(row->status == ROW_FAILED ? "failed," : "duplicate,", f);
	out_csv_field(f, row->status == ROW_FAILED ? row->rec->error : row->same_as->where);
	fputc('\n', f);
}

static void csv_fleet(FILE *f, const struct fleet_group *g)
{
	const struct fleet_totals *t = &g->t;
	out_csv_field(f, g->run_id);
	fputc(',', f);
	out_csv_field(f, g->test);
	fputs("," FLEET_FLEET_ROW ",", f);
	csv_num(f, t->timed ? t->span_s : NAN, 6);
	fprintf(f, ",%llu,%llu,%.1f,%.2f", (unsigned long long)t->bytes, (unsigned long long)t->ios,
		t->sum_bytes_per_sec, t->sum_iops);
	csv_num(f, t->has_lat ? (double)t->p50 : NAN, 0);
	csv_num(f, t->has_lat ? (double)t->p99 : NAN, 0);
	fputs(",,", f);
	csv_num(f, t->timed ? t->span_bytes_per_sec : NAN, 1);
	csv_num(f, t->has_window ? t->window_bytes_per_sec : NAN, 1);
	csv_num(f, t->timed ? t->start_skew_ms : NAN, 3);
	csv_num(f, t->has_lat ? (double)t->p90 : NAN, 0);
	csv_num(f, t->has_lat ? (double)t->p99_9 : NAN, 0);
	fputs(",,\n", f);
}

static void csv_baseline_head(FILE *f, const struct fleet_pairing *p, const char *host)
{
	const struct fleet_group *g = p->new ? p->new : p->old;
	out_csv_field(f, g->test);
	fputc(',', f);
	out_csv_field(f, p->old ? p->old->run_id : NULL);
	fputc(',', f);
	out_csv_field(f, p->new ? p->new->run_id : NULL);
	fputc(',', f);
	out_csv_field(f, host);
}

static void csv_baseline(FILE *f, const struct fleet_baseline *b)
{
	fputs("test,old_run_id,new_run_id,host,figure,old,new,change_pct,status,noise_pct,noise_from,"
	      "baseline_runs\n", f);
	for (unsigned i = 0; i < b->n; i++) {
		const struct fleet_pairing *p = &b->pairs[i];
		for (unsigned k = 0; k < p->n; k++) {
			const struct fleet_change *c = &p->changes[k];
			csv_baseline_head(f, p, c->host);
			int decimals = c->figure == FIG_MBPS ? 1 : c->figure == FIG_IOPS ? 2 : 0;
			fprintf(f, ",%s", fleet_figure_key(c->figure));
			csv_num(f, c->old_value, decimals);
			csv_num(f, c->new_value, decimals);
			csv_num(f, c->change_pct, 2);
			fprintf(f, ",%s", c->regressed ? "regressed" : "ok");
			csv_num(f, c->noise_pct, 2);
			fprintf(f, ",%s,%u\n", fleet_noise_from_name(c->noise_from), c->runs);
		}
		for (unsigned k = 0; k < p->n_only_old; k++) {
			csv_baseline_head(f, p, p->only_old[k]);
			fputs(",,,,,only_in_old,,,\n", f);
		}
		for (unsigned k = 0; k < p->n_only_new; k++) {
			csv_baseline_head(f, p, p->only_new[k]);
			fputs(",,,,,only_in_new,,,\n", f);
		}
		for (unsigned k = 0; p->new && k < p->new->nothers; k++) {
			const struct fleet_row *row = &p->new->others[k];
			csv_baseline_head(f, p, row->label);
			fputs(row->status == ROW_FAILED ? ",,,,,failed,,,\n" : ",,,,,duplicate,,,\n", f);
		}
	}
}

void report_csv(FILE *f, const struct result *r)
{
	const struct report_detail *d = r->detail;
	if (d && d->compared) {
		csv_baseline(f, &d->base);
		return;
	}
	fputs("run_id,test,host,start_offset_ms,seconds,bytes,ios,bytes_per_sec,iops,lat_p50_ns,"
	      "lat_p99_ns,deviation_pct,flags,span_bytes_per_sec,window_bytes_per_sec,"
	      "start_skew_ms,lat_p90_ns,lat_p99_9_ns,status,error\n", f);
	for (unsigned i = 0; d && d->built && i < d->rep.n; i++) {
		const struct fleet_group *g = &d->rep.groups[i];
		for (unsigned k = 0; k < g->n; k++)
			csv_row(f, g, &g->rows[k]);
		for (unsigned k = 0; k < g->nothers; k++)
			csv_other(f, g, &g->others[k]);
		if (g->n)
			csv_fleet(f, g);
	}
}
