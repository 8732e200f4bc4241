/* Rendering of `steady` (issue 29): its rounds were printed as they ended
 * (cmd_steady.c); the text result is the verdict.  JSON holds "steady"
 * with every round and the window that decided; CSV a row per round. */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "output.h"
#include "output_svg.h"
#include "render.h"
#include "steady_report.h"
#include "units.h"

const char *steady_metric_name(enum steady_metric m)
{
	return m == METRIC_BW ? "bw" : m == METRIC_LAT ? "lat" : "iops";
}

void steady_metric_text(char *buf, size_t len, enum steady_metric m, double v)
{
	char n[32];
	if (m == METRIC_BW)
		fmt_rate_si(buf, len, v);
	else if (m == METRIC_LAT)
		fmt_ns(n, sizeof(n), v), snprintf(buf, len, "%s mean latency", n);
	else
		fmt_count(n, sizeof(n), v), snprintf(buf, len, "%s IOPS", n);
}

static void window_text(FILE *f, const struct steady_report *rep, const struct steady_window *w)
{
	fprintf(f, "rounds %u-%u: range %.1f %% %s %g %%, slope %.1f %% %s %g %%", w->first, w->last,
		w->range_pct, w->range_pct <= rep->lim.excursion_pct + 1e-9 ? "<=" : ">",
		rep->lim.excursion_pct, w->slope_pct,
		w->slope_pct <= rep->lim.slope_pct + 1e-9 ? "<=" : ">", rep->lim.slope_pct);
}

static void steady_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	const struct steady_report *rep = r->detail;
	char fig[48];
	(void)quiet, (void)histogram; /* the rounds were printed as they ended */
	if (!rep || rep->nrounds == 0)
		return;
	const struct steady_round *last = &rep->rounds[rep->nrounds - 1];
	if (rep->attained) {
		steady_metric_text(fig, sizeof(fig), rep->metric, rep->steady.mean);
		fprintf(f, "steady %s on '%s': steady at round %u: %s (", rep->test, r->target,
			rep->steady.last, fig);
		window_text(f, rep, &rep->steady);
		fputc(')', f);
		if (rep->left) {
			steady_metric_text(fig, sizeof(fig), rep->metric, rep->left_value);
			fprintf(f, "; left it at round %u: %s, %+.1f %% from its mean (band +/-%g %%)",
				rep->left_round, fig, rep->left_off_pct, rep->lim.excursion_pct / 2);
		} else if (rep->hold) {
			fprintf(f, "; held for %u more rounds", rep->nrounds - rep->steady.last);
		}
		fputc('\n', f);
		return;
	}
	fprintf(f, "steady %s on '%s': not steady after %u rounds of %g s", rep->test, r->target,
		rep->nrounds, rep->round_s);
	if (last->window.first) {
		fputs(" (last ", f);
		window_text(f, rep, &last->window);
		fputc(')', f);
	} else {
		fprintf(f, " (fewer than the window's %u)", rep->lim.window);
	}
	fputc('\n', f);
}

static void json_window(struct json *j, const struct steady_window *w)
{
	json_object_begin(j);
	json_key(j, "first"), json_uint(j, w->first);
	json_key(j, "last"), json_uint(j, w->last);
	json_key(j, "mean"), json_double(j, w->mean, 3);
	json_key(j, "range_pct"), json_double(j, w->range_pct, 3);
	json_key(j, "slope_pct"), json_double(j, w->slope_pct, 3);
	json_key(j, "steady"), json_bool(j, w->steady);
	json_object_end(j);
}

static void json_round(struct json *j, const struct steady_round *rd)
{
	json_object_begin(j);
	json_key(j, "n"), json_uint(j, rd->n);
	json_key(j, "t_start_s"), json_double(j, rd->t_start_s, 3);
	json_key(j, "seconds"), json_double(j, rd->seconds, 6);
	json_key(j, "ios"), json_uint(j, rd->ios);
	json_key(j, "bytes"), json_uint(j, rd->bytes);
	json_key(j, "iops"), json_double(j, rd->iops, 2);
	json_key(j, "bytes_per_sec"), json_double(j, rd->bytes_per_sec, 1);
	json_key(j, "lat_ns");
	json_object_begin(j);
	json_key(j, "mean"), json_double(j, rd->lat_mean_ns, 1);
	json_key(j, "p50"), json_double(j, rd->lat_p50_ns, 0);
	json_key(j, "p99"), json_double(j, rd->lat_p99_ns, 0);
	json_object_end(j);
	json_key(j, "value"), json_double(j, rd->value, 3);
	json_key(j, "hold"), json_bool(j, rd->hold);
	json_key(j, "window");
	rd->window.first && !rd->hold ? json_window(j, &rd->window) : json_null(j);
	json_key(j, "off_pct");
	rd->hold ? json_double(j, rd->off_pct, 3) : json_null(j);
	json_object_end(j);
}

static void json_precondition(struct json *j, const struct result *r,
			      const struct steady_report *rep)
{
	json_key(j, "precondition");
	if (!rep->preconditioned) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_key(j, "passes"), json_uint(j, rep->pre.passes);
	json_key(j, "block_size"), json_uint(j, 128u << 10);
	json_key(j, "qd"), json_uint(j, rep->pre.qd);
	json_key(j, "bytes"), json_uint(j, rep->pre.bytes);
	json_key(j, "seconds"), json_double(j, rep->pre.seconds, 3);
	json_key(j, "bytes_per_sec"), json_double(j, rep->pre.bytes_per_sec, 1);
	json_key(j, "passes_done"), json_double(j, rep->pre.passes_done, 3);
	json_key(j, "tail_bytes"), json_uint(j, rep->pre.tail_bytes);
	out_json_verify(j, r); /* --verify: its writes read back */
	json_object_end(j);
}

static void json_left(struct json *j, const struct steady_report *rep)
{
	json_key(j, "left");
	if (!rep->left) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_key(j, "round"), json_uint(j, rep->left_round);
	json_key(j, "value"), json_double(j, rep->left_value, 3);
	json_key(j, "off_pct"), json_double(j, rep->left_off_pct, 3);
	json_object_end(j);
}

static void steady_json(struct json *j, const struct result *r)
{
	const struct steady_report *rep = r->detail;
	out_json_file_device(j, r);
	if (r->opt)
		out_json_params(j, r, PARAMS_NO_TIME_LIMIT);
	json_key(j, "steady");
	if (!rep) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_key(j, "test"), json_string(j, rep->test);
	json_key(j, "attained"), json_bool(j, rep->attained && !rep->left);
	json_key(j, "round_s"), json_double(j, rep->round_s, 3);
	json_key(j, "metric"), json_string(j, steady_metric_name(rep->metric));
	json_key(j, "window_rounds"), json_uint(j, rep->lim.window);
	json_key(j, "excursion_pct_limit"), json_double(j, rep->lim.excursion_pct, 3);
	json_key(j, "slope_pct_limit"), json_double(j, rep->lim.slope_pct, 3);
	json_key(j, "max_rounds"), json_uint(j, rep->max_rounds);
	json_key(j, "hold_rounds"), json_uint(j, rep->hold);
	json_key(j, "rounds");
	json_array_begin(j);
	for (unsigned i = 0; i < rep->nrounds; i++)
		json_round(j, &rep->rounds[i]);
	json_array_end(j);
	json_key(j, "window");
	rep->attained ? json_window(j, &rep->steady)
		      : rep->nrounds && rep->rounds[rep->nrounds - 1].window.first
			? json_window(j, &rep->rounds[rep->nrounds - 1].window) : json_null(j);
	json_precondition(j, r, rep);
	json_left(j, rep);
	json_object_end(j);
}

static void steady_csv(FILE *f, const struct result *r)
{
	const struct steady_report *rep = r->detail;
	fputs("test,target,round,t_start_s,seconds,bytes,ios,bytes_per_sec,iops,lat_mean_ns,"
	      "lat_p50_ns,lat_p99_ns,metric,value,hold,window_first,window_last,range_pct,"
	      "slope_pct,steady,error\n", f);
	for (unsigned i = 0; rep && i < rep->nrounds; i++) {
		const struct steady_round *rd = &rep->rounds[i];
		const struct steady_window *w = &rd->window;
		out_csv_field(f, rep->test);
		fputc(',', f);
		out_csv_field(f, r->target);
		fprintf(f, ",%u,%.3f,%.6f,%llu,%llu,%.1f,%.2f,%.1f,%.0f,%.0f,%s,%.3f,%s", rd->n,
			rd->t_start_s, rd->seconds, (unsigned long long)rd->bytes,
			(unsigned long long)rd->ios, rd->bytes_per_sec, rd->iops, rd->lat_mean_ns,
			rd->lat_p50_ns, rd->lat_p99_ns, steady_metric_name(rep->metric), rd->value,
			rd->hold ? "true" : "false");
		if (w->first && !rd->hold)
			fprintf(f, ",%u,%u,%.3f,%.3f,%s,\n", w->first, w->last, w->range_pct,
				w->slope_pct, w->steady ? "true" : "false");
		else
			fputs(",,,,,,\n", f);
	}
	if (r->error[0]) { /* not steady, left it, or failed: a last row says so */
		out_csv_field(f, rep ? rep->test : NULL);
		fputc(',', f);
		out_csv_field(f, r->target);
		fputs(",,,,,,,,,,,,,,,,,,,", f);
		out_csv_field(f, r->error);
		fputc('\n', f);
	}
}

void steady_round_line(FILE *f, const struct result *round, unsigned n)
{
	struct json j;
	char step[32];
	snprintf(step, sizeof(step), "round %u", n);
	json_init(&j, f);
	json_object_begin(&j);
	out_json_envelope(&j);
	if (round->fleet)
		out_json_fleet(&j, round->fleet);
	json_key(&j, "command"), json_string(&j, "steady");
	json_key(&j, "step"), json_string(&j, step);
	out_json_test_fields(&j, round, out_json_single_body);
	json_object_end(&j);
	fputc('\n', f);
	fflush(f);
}

/* steady's own keys, for a line that says it failed outside a round */
static void failed_keys(struct json *j, const struct result *r)
{
	out_json_file_device(j, r);
}

/* --jsonl: the rounds were printed as they ended; a line of its own for an
 * end no round's line says (not steady, left it, a failure before round 1). */
static void steady_jsonl(FILE *f, const struct result *r)
{
	if (r->error[0])
		out_json_line(f, r, failed_keys);
}

const struct renderers render_steady = { steady_text, steady_json, steady_csv, out_svg_steady,
					 steady_jsonl };
