/* The sweep's picture: per series, its figure against the level (IOPS, or
 * MB/s for large I/O) with p99 and mean latency on a log axis, a point per
 * level measured, max IOPS (or MB/s), min latency and the knee marked, and
 * Orion's summary as the caption; with --curve, a last chart of the served
 * IOPS and the response time's p50 and p99 against the IOPS asked. */
#include <string.h>

#include "output_svg.h"
#include "svg_chart.h"
#include "sweep.h"

#define NSERIES 3

struct sweep_chart {
	double level[SWEEP_MAX_LEVELS], figure[SWEEP_MAX_LEVELS];
	double p99[SWEEP_MAX_LEVELS], mean[SWEEP_MAX_LEVELS];
	struct chart_series series[NSERIES];
	struct chart_callout callouts[2];
	struct chart_mark knee;
	char title[160], caption[1024], callout_text[2][96], knee_text[48];
	struct chart_xy xy;
};

/* "max IOPS: 94.2k @ 32 outstanding", then min latency, the knee and the
 * --max-latency answer, as the text output's summary says them. */
static int small_caption(char *buf, size_t len, const struct sweep_result *sw,
			 const struct sweep_series *s)
{
	int best = sweep_max_iops(s), fast = sweep_min_latency(s), knee = sweep_knee(s);
	char iops[24], lat[24], knee_iops[24], knee_p99[24];
	svg_format(iops, sizeof(iops), SVG_COUNT, sweep_iops(&s->points[best]));
	svg_format(lat, sizeof(lat), SVG_NS, s->points[fast].lat.mean);
	svg_format(knee_iops, sizeof(knee_iops), SVG_COUNT, sweep_iops(&s->points[knee]));
	svg_format(knee_p99, sizeof(knee_p99), SVG_NS, (double)s->points[knee].lat.p99);
	int n = snprintf(buf, len, "max IOPS: %s @ %u outstanding\nmin latency: %s mean @ %u "
			 "outstanding\nknee: %u outstanding (%s IOPS, p99 %s): the most IOPS per unit "
			 "of latency", iops, s->points[best].level, lat, s->points[fast].level,
			 s->points[knee].level, knee_iops, knee_p99);
	if (sw->max_latency_ns > 0 && n > 0 && (size_t)n < len) {
		int ok = sweep_max_iops_within(s, sw->max_latency_ns, sw->max_latency_pct);
		char which[16] = "mean";
		if (sw->max_latency_pct > 0)
			snprintf(which, sizeof(which), "p%g", sw->max_latency_pct);
		svg_format(lat, sizeof(lat), SVG_NS, sw->max_latency_ns);
		if (ok >= 0)
			svg_format(iops, sizeof(iops), SVG_COUNT, sweep_iops(&s->points[ok]));
		n += snprintf(buf + n, len - (size_t)n, "\nmax IOPS with %s <= %s: %s", which, lat,
			      ok < 0 ? "none of the points" : iops);
	}
	return n;
}

static void fill_points(struct sweep_chart *c, const struct sweep_series *s)
{
	for (unsigned k = 0; k < s->npoints; k++) {
		const struct sweep_point *p = &s->points[k];
		c->level[k] = p->level;
		c->figure[k] = s->large ? sweep_rate(p) : sweep_iops(p);
		c->p99[k] = (double)p->lat.p99;
		c->mean[k] = p->lat.mean;
	}
	const char *figure = s->large ? "MB/s" : "IOPS";
	c->series[0] = (struct chart_series){ figure, c->level, c->figure, s->npoints, 0, false, 0, true };
	c->series[1] = (struct chart_series){ "p99 latency", c->level, c->p99, s->npoints, 1, false, 0, true };
	c->series[2] = (struct chart_series){ "mean latency", c->level, c->mean, s->npoints, 1, false, 0,
					      true };
}

/* The chart of one series; false when it has no point. */
static bool sweep_chart(struct sweep_chart *c, const struct sweep_result *sw,
			const struct sweep_series *s)
{
	int best = s->large ? sweep_max_rate(s) : sweep_max_iops(s), fast = sweep_min_latency(s);
	char bs[32], figure[32];
	unsigned ncallouts = 0, nmarks = 0;
	if (best < 0)
		return false;
	memset(c, 0, sizeof(*c));
	fill_points(c, s);
	svg_format(bs, sizeof(bs), SVG_BYTES_IEC, (double)s->bs);
	snprintf(c->title, sizeof(c->title), "%s, %s blocks: %s and latency against %s", s->workload, bs,
		 s->large ? "MB/s" : "IOPS", s->large ? "streams" : "outstanding I/Os");
	svg_format(figure, sizeof(figure), s->large ? SVG_RATE_SI : SVG_COUNT, c->figure[best]);
	snprintf(c->callout_text[0], sizeof(c->callout_text[0]), "max %s %s @ %u",
		 s->large ? "MB/s" : "IOPS", figure, s->points[best].level);
	c->callouts[ncallouts++] = (struct chart_callout){ 0, (unsigned)best, c->callout_text[0] };
	int n = 0;
	if (s->large) {
		n = snprintf(c->caption, sizeof(c->caption), "max MB/s: %s @ %u stream%s", figure,
			     s->points[best].level, s->points[best].level == 1 ? "" : "s");
	} else {
		svg_format(figure, sizeof(figure), SVG_NS, s->points[fast].lat.mean);
		snprintf(c->callout_text[1], sizeof(c->callout_text[1]), "min latency %s mean @ %u",
			 figure, s->points[fast].level);
		c->callouts[ncallouts++] = (struct chart_callout){ 2, (unsigned)fast, c->callout_text[1] };
		unsigned knee = s->points[sweep_knee(s)].level;
		snprintf(c->knee_text, sizeof(c->knee_text), "knee: %u outstanding", knee);
		c->knee = (struct chart_mark){ knee, "knee", "knee", c->knee_text };
		nmarks = 1;
		n = small_caption(c->caption, sizeof(c->caption), sw, s);
	}
	if (s->stopped && n > 0 && (size_t)n < sizeof(c->caption))
		snprintf(c->caption + n, sizeof(c->caption) - (size_t)n, "\nstopped early: %s", s->stopped);
	c->xy = (struct chart_xy){
		.title = c->title,
		.x = { SVG_LOG, SVG_PLAIN, s->large ? "streams (threads, one request each)" :
			"outstanding I/Os (threads x queue depth, log scale)", 0, 0, c->level, s->npoints },
		.y = { { SVG_LINEAR, s->large ? SVG_RATE_SI : SVG_COUNT, s->large ? "throughput" : "IOPS",
			 0, 0, NULL, 0 },
		       { SVG_LOG, SVG_NS, "latency (log scale)", 0, 0, NULL, 0 } },
		.series = c->series, .nseries = NSERIES, .marks = &c->knee, .nmarks = nmarks,
		.callouts = c->callouts, .ncallouts = ncallouts, .caption = c->caption,
	};
	return true;
}

/* --curve's chart: served IOPS and response p50 and p99 (from when each I/O
 * was due) against the IOPS asked, open loop. */
static bool curve_chart(struct sweep_chart *c, const struct sweep_result *sw)
{
	if (sw->ncurve == 0)
		return false;
	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; i < sw->ncurve; i++) {
		const struct sweep_curve_point *p = &sw->curve[i];
		c->level[i] = p->asked;
		c->figure[i] = sweep_curve_served(p);
		c->p99[i] = (double)p->response.p99;
		c->mean[i] = (double)p->response.p50;
	}
	unsigned n = sw->ncurve;
	c->series[0] = (struct chart_series){ "served IOPS", c->level, c->figure, n, 0, false, 0, true };
	c->series[1] = (struct chart_series){ "p99 response", c->level, c->p99, n, 1, false, 0, true };
	c->series[2] = (struct chart_series){ "p50 response", c->level, c->mean, n, 1, false, 0, true };
	char max[24];
	svg_format(max, sizeof(max), SVG_COUNT, sw->curve_max_iops);
	snprintf(c->title, sizeof(c->title), "curve: open loop at %% of the max IOPS (%s), at most %u "
		 "in flight", max, sw->curve_outstanding);
	snprintf(c->caption, sizeof(c->caption), "response times count from when each I/O was "
		 "due, so a device behind its schedule shows every I/O that waited");
	c->xy = (struct chart_xy){
		.title = c->title,
		.x = { SVG_LINEAR, SVG_COUNT, "IOPS asked (open loop)", 0, 0, c->level, n },
		.y = { { SVG_LINEAR, SVG_COUNT, "IOPS served", 0, 0, NULL, 0 },
		       { SVG_LOG, SVG_NS, "response time (log scale)", 0, 0, NULL, 0 } },
		.series = c->series, .nseries = NSERIES, .caption = c->caption,
	};
	return true;
}

void out_svg_sweep(FILE *f, const struct result *r)
{
	/* the charts' arrays are large for the stack; one picture at a time */
	static struct sweep_chart charts[3];
	const struct sweep_result *sw = r->detail;
	struct svg s;
	char title[4300], desc[2400];
	unsigned n = 0;
	double body = 0;
	for (unsigned i = 0; i < sw->nseries && i < 2; i++)
		if (sweep_chart(&charts[n], sw, &sw->series[i]))
			body += chart_xy_height(&charts[n++].xy, OUT_SVG_WIDTH);
	if (curve_chart(&charts[n], sw))
		body += chart_xy_height(&charts[n++].xy, OUT_SVG_WIDTH);
	char subject[4200];
	snprintf(title, sizeof(title), "sweep of %s: %s%s%s",
		 out_svg_subject(r, subject, sizeof(subject)),
		 sw->nseries ? sw->series[0].workload : "", sw->nseries > 1 ? ", then " : "",
		 sw->nseries > 1 ? sw->series[1].workload : "");
	int len = snprintf(desc, sizeof(desc), "%s.", title);
	for (unsigned i = 0; i < n && len > 0 && (size_t)len < sizeof(desc); i++)
		len += snprintf(desc + len, sizeof(desc) - (size_t)len, " %s: %s.", charts[i].title,
				charts[i].caption);
	double y = svg_begin(&s, f, OUT_SVG_WIDTH, body, title, desc);
	for (unsigned i = 0; i < n; i++) {
		double h = chart_xy_height(&charts[i].xy, OUT_SVG_WIDTH);
		chart_xy(&s, &(struct chart_box){ 0, y, OUT_SVG_WIDTH, h }, &charts[i].xy);
		y += h;
	}
	svg_end(&s);
}
