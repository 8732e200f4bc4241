/* The single-test picture: the latency histogram with p50, p99 and p99.9
 * marked, and throughput over time (from result.series, two samples or
 * more) with the findings that happened at a time marked where they did. */
#define _POSIX_C_SOURCE 200809L
#include "output_svg.h"

#include <math.h>
#include <string.h>

#include "output.h"
#include "series.h"
#include "svg_chart.h"

void out_svg_capture(char *buf, size_t len, void (*print)(FILE *, const void *), const void *arg)
{
	FILE *m = fmemopen(buf, len, "w");
	buf[0] = '\0';
	if (!m)
		return;
	print(m, arg);
	fclose(m);
	buf[strcspn(buf, "\n")] = '\0';
}

static void print_result_line(FILE *f, const void *r)
{
	out_text_result_line(f, r);
}

static void print_latency_line(FILE *f, const void *lat)
{
	out_text_latency_line(f, lat);
}

const char *out_svg_subject(const struct result *r, char *buf, size_t len)
{
	const char *target = r->target ? r->target : "the target";
	bool removed = r->file_state && strcmp(r->file_state, "new") == 0 && !(r->opt && r->opt->keep);
	if (!r->file[0])
		return target;
	if (!removed)
		return r->file;
	snprintf(buf, len, "a test file in %s", target);
	return buf;
}

/* ---- latency histogram ---- */

static void draw_histogram(struct svg *s, double y, const struct result *r)
{
	struct chart_bin bins[STATS_LOG2_BUCKETS];
	uint64_t counts[STATS_LOG2_BUCKETS];
	struct stats_summary sum;
	char title[4200], subject[4200];
	stats_summarize(&r->lat, &sum);
	stats_log2_counts(&r->lat, counts);
	snprintf(title, sizeof(title), "Latency of %llu %s of %s (buckets of powers of two)",
		 (unsigned long long)sum.count, r->dir == IO_WRITE ? "writes" : "reads",
		 out_svg_subject(r, subject, sizeof(subject)));
	struct chart_mark marks[] = {
		{ (double)sum.p50, "p50", "p50", NULL },
		{ (double)sum.p99, "p99", "p99", NULL },
		{ (double)sum.p99_9, "p99.9", "p99.9", NULL },
	};
	struct chart_hist h = { title, SVG_NS, "latency of one I/O (log scale)", bins,
				chart_bins_log2(counts, bins), r->lat.count, marks, 3 };
	chart_histogram(s, &(struct chart_box){ 0, y, s->width, CHART_HIST_HEIGHT }, &h);
}

/* ---- throughput over time ---- */

/* A finding that happened at one time: its key, the figure holding when,
 * and how the mark is labelled. */
static const struct { const char *key, *figure, *label; } timed_findings[] = {
	{ "cliff", "at_s", "cliff at" },
	{ "sustained", "steady_from_s", "steady from" },
	{ "heat", "peak_t_s", "hottest at" },
};
#define NTIMED (sizeof(timed_findings) / sizeof(timed_findings[0]))

static bool finding_time(const struct finding *fd, double *t, const char **label)
{
	for (unsigned i = 0; i < NTIMED; i++) {
		if (strcmp(fd->key, timed_findings[i].key) != 0)
			continue;
		for (unsigned k = 0; k < fd->nfigures; k++)
			if (strcmp(fd->figures[k].name, timed_findings[i].figure) == 0) {
				*t = fd->figures[k].value;
				*label = timed_findings[i].label;
				return true;
			}
	}
	return false;
}

/* "per 1 s, 12 samples" and the findings with no time of their own, each
 * with its first figure ("unsteady: cv 0.312"). */
static void series_caption(char *buf, size_t len, const struct result *r)
{
	const struct series *se = r->series;
	int n = snprintf(buf, len, "throughput per %g s, %u samples%s", se->interval_s, se->n,
			 se->merged ? " (neighbours merged to fit the run)" : "");
	bool first = true;
	for (unsigned i = 0; i < r->nfindings && n > 0 && (size_t)n < len; i++) {
		const struct finding *fd = &r->findings[i];
		double t;
		const char *label;
		if (finding_time(fd, &t, &label))
			continue;
		n += snprintf(buf + n, len - (size_t)n, "%s%s", first ? "\nfindings over the whole run: " : "; ",
			      fd->key);
		if (fd->nfigures && n > 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, " (%s %.*f)", fd->figures[0].name,
				      fd->figures[0].decimals, fd->figures[0].value);
		first = false;
	}
}

struct time_chart {
	double t[SERIES_CAP], rate[SERIES_CAP], p99[SERIES_CAP];
	struct chart_series series[2];
	struct chart_mark marks[MAX_FINDINGS];
	char caption[1024];
	struct chart_xy xy;
};

/* Throughput steps over the run, and each interval's p99 latency as a
 * second series on the right axis (log ns) where the series has them; an
 * interval in which nothing completed leaves a gap. */
static void time_chart(struct time_chart *c, const struct result *r)
{
	const struct series *se = r->series;
	unsigned nmarks = 0;
	for (unsigned i = 0; i < se->n; i++) {
		c->t[i] = se->s[i].t_s, c->rate[i] = series_rate(se, i);
		c->p99[i] = se->s[i].ios > 0 && se->s[i].p99_ns > 0 ? (double)se->s[i].p99_ns : NAN;
	}
	double x0 = se->s[0].t_s - series_span(se, 0);
	c->series[0] = (struct chart_series){ .name = "throughput", .x = c->t, .y = c->rate,
					      .n = se->n, .steps = true, .x0 = x0 };
	c->series[1] = (struct chart_series){ .name = "p99 latency", .x = c->t, .y = c->p99,
					      .n = se->n, .axis = 1, .steps = true, .x0 = x0 };
	for (unsigned i = 0; i < r->nfindings; i++) {
		double t;
		const char *label;
		if (finding_time(&r->findings[i], &t, &label))
			c->marks[nmarks++] = (struct chart_mark){ t, label, r->findings[i].key, NULL };
	}
	series_caption(c->caption, sizeof(c->caption), r);
	c->xy = (struct chart_xy){
		.title = se->has_lat ? "Throughput and p99 latency over time" : "Throughput over time",
		.x = { SVG_LINEAR, SVG_SECONDS, "time since the start of the run", 0, se->s[se->n - 1].t_s,
		       NULL, 0 },
		.y = { { SVG_LINEAR, SVG_RATE_SI, "throughput", 0, 0, NULL, 0 },
		       { SVG_LOG, SVG_NS, "p99 latency", 0, 0, NULL, 0 } },
		.series = c->series, .nseries = se->has_lat ? 2 : 1, .marks = c->marks, .nmarks = nmarks,
		.caption = c->caption,
	};
}

void out_svg(FILE *f, const struct result *r)
{
	static struct time_chart tc;
	struct svg s;
	char title[1024], desc[1600], latency[512] = "";
	bool timed = r->series && r->series->n >= 2;
	out_svg_capture(title, sizeof(title), print_result_line, r);
	if (r->lat.count)
		out_svg_capture(latency, sizeof(latency), print_latency_line, &r->lat);
	snprintf(desc, sizeof(desc), "%s. %s%sCharts: the latency histogram%s.", title, latency,
		 latency[0] ? ". " : "",
		 !timed ? "" : r->series->has_lat ? "; throughput and p99 latency over time"
						  : "; throughput over time");
	double body = CHART_HIST_HEIGHT;
	if (timed) {
		time_chart(&tc, r);
		body += chart_xy_height(&tc.xy, OUT_SVG_WIDTH);
	}
	double y = svg_begin(&s, f, OUT_SVG_WIDTH, body, title, desc);
	draw_histogram(&s, y, r);
	if (timed)
		chart_xy(&s, &(struct chart_box){ 0, y + CHART_HIST_HEIGHT, OUT_SVG_WIDTH,
						   chart_xy_height(&tc.xy, OUT_SVG_WIDTH) }, &tc.xy);
	svg_end(&s);
}
