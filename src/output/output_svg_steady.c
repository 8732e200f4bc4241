/* steady --svg (issue 29): SNIA PTS's picture, the figure of every round,
 * and over the steady window (else the last one judged) its mean and its
 * band, mean +/- half the excursion limit; hold rounds after it. */
#include <math.h>
#include <stdio.h>

#include "output_svg.h"
#include "render.h"
#include "steady_report.h"
#include "svg_chart.h"
#include "units.h"

static enum svg_unit metric_unit(enum steady_metric m)
{
	return m == METRIC_BW ? SVG_RATE_SI : m == METRIC_LAT ? SVG_NS : SVG_COUNT;
}

static const char *metric_title(enum steady_metric m)
{
	return m == METRIC_BW ? "throughput" : m == METRIC_LAT ? "mean latency" : "IOPS";
}

/* The window drawn: the steady one, else the last judged; NULL: none. */
static const struct steady_window *drawn_window(const struct steady_report *rep)
{
	if (rep->attained)
		return &rep->steady;
	for (unsigned i = rep->nrounds; i > 0; i--)
		if (rep->rounds[i - 1].window.first)
			return &rep->rounds[i - 1].window;
	return NULL;
}

void out_svg_steady(FILE *f, const struct result *r)
{
	const struct steady_report *rep = r->detail;
	static double x[STEADY_MAX_ROUNDS], y[STEADY_MAX_ROUNDS];
	double wx[2], mean[2], bx[5], band[5];
	unsigned n = rep ? rep->nrounds : 0;
	for (unsigned i = 0; i < n; i++)
		x[i] = rep->rounds[i].n, y[i] = rep->rounds[i].value;
	const struct steady_window *w = rep ? drawn_window(rep) : NULL;
	double half = rep ? rep->lim.excursion_pct / 200 : 0;
	struct chart_series series[SVG_SERIES_STYLES] = { { "each round", x, y, n, 0, false, 0, true } };
	unsigned ns = 1;
	if (w) {
		wx[0] = w->first, wx[1] = w->last;
		mean[0] = mean[1] = w->mean;
		/* the band's two edges as one series, a gap (NAN) between them */
		double edges[5][2] = { { w->first, w->mean * (1 + half) }, { w->last, w->mean * (1 + half) },
				       { w->last, NAN }, { w->first, w->mean * (1 - half) },
				       { w->last, w->mean * (1 - half) } };
		for (unsigned i = 0; i < 5; i++)
			bx[i] = edges[i][0], band[i] = edges[i][1];
		series[ns++] = (struct chart_series){ "window mean", wx, mean, 2, 0, false, 0, false };
		series[ns++] = (struct chart_series){ "band", bx, band, 5, 0, false, 0, false };
	}
	char title[160], caption[400], desc[5200], subject[4200], head[4400], fig[32];
	enum steady_metric m = rep ? rep->metric : METRIC_IOPS;
	snprintf(title, sizeof(title), "%s of each %g s round of %s", metric_title(m),
		 rep ? rep->round_s : 0, rep ? rep->test : "?");
	if (w) {
		svg_format(fig, sizeof(fig), metric_unit(m), w->mean);
		snprintf(caption, sizeof(caption), "%s at round %u: %s; rounds %u-%u: range %.1f %%, "
			 "slope %.1f %% (limits %g %%, %g %%); band: the mean +/- %g %%",
			 rep->attained ? "steady" : "not steady", w->last, fig, w->first, w->last,
			 w->range_pct, w->slope_pct, rep->lim.excursion_pct, rep->lim.slope_pct,
			 rep->lim.excursion_pct / 2);
	} else {
		snprintf(caption, sizeof(caption), "fewer rounds than the window's %u",
			 rep ? rep->lim.window : 0);
	}
	struct chart_xy c = {
		.title = title,
		.x = { SVG_LINEAR, SVG_PLAIN, "round", 0.5, n + 0.5, NULL, 0 },
		.y = { { SVG_LINEAR, metric_unit(m), metric_title(m), 0, 0, NULL, 0 },
		       { SVG_LINEAR, metric_unit(m), NULL, 0, 0, NULL, 0 } },
		.series = series, .nseries = ns, .caption = caption,
	};
	snprintf(head, sizeof(head), "steady %s on %s", rep ? rep->test : "?",
		 out_svg_subject(r, subject, sizeof(subject)));
	snprintf(desc, sizeof(desc), "%s: %s. %s.", head, title, caption);
	struct svg s;
	double h = chart_xy_height(&c, OUT_SVG_WIDTH);
	double top = svg_begin(&s, f, OUT_SVG_WIDTH, h, head, desc);
	chart_xy(&s, &(struct chart_box){ 0, top, OUT_SVG_WIDTH, h }, &c);
	svg_end(&s);
}
