/* svg_chart.h's histogram and XY chart, and the pieces every chart shares:
 * the heading, fitted axes, the legend and the vertical marks. */
#include "svg_chart.h"

#include <math.h>
#include <string.h>

#define MAX_TICKS 24
#define MARGIN_SIDE 86.0  /* room for an axis' labels and title */
#define MARGIN_NONE 28.0
#define PLOT_TOP 58.0     /* heading and legend above the plot */
#define PLOT_BELOW 54.0   /* tick labels and the x axis title */
#define CAPTION_LINE 16.0

static const struct svg_font label_font = { .size = 11 };

void chart_heading(struct svg *s, const struct chart_box *b, const char *title)
{
	struct svg_font font = { .size = 13, .bold = true };
	svg_text_wrapped(s, b->x + 12, b->y + 24, b->w - 24, &font, title ? title : "");
}

/* The data range, padded around given ticks or widened to nice ends. */
static void fit_range(const struct chart_axis_spec *spec, double *lo, double *hi)
{
	bool log = spec->scale == SVG_LOG;
	if (spec->ticks && spec->nticks) {
		for (unsigned i = 0; i < spec->nticks; i++) {
			*lo = spec->ticks[i] < *lo ? spec->ticks[i] : *lo;
			*hi = spec->ticks[i] > *hi ? spec->ticks[i] : *hi;
		}
		double pad = log ? pow(*hi / *lo, 0.04) : (*hi - *lo) * 0.04;
		if (log && pad < 1.25)
			pad = 1.25; /* one tick, or ticks close together */
		*lo = log ? *lo / pad : *lo - pad;
		*hi = log ? *hi * pad : *hi + pad;
		if (!(*hi > *lo))
			*hi = *lo + 1;
	} else if (log) {
		svg_log_range(lo, hi);
	} else {
		*lo = *lo < 0 ? *lo : 0;
		svg_nice_range(lo, hi, 5);
	}
}

unsigned chart_fit_axis(const struct chart_axis_spec *spec, double dlo, double dhi, double from,
			double to, struct svg_axis *a, double *ticks, unsigned cap)
{
	bool log = spec->scale == SVG_LOG;
	double lo = spec->lo, hi = spec->hi;
	if (lo == hi) {
		lo = isfinite(dlo) ? dlo : (log ? 1 : 0);
		hi = isfinite(dhi) ? dhi : lo;
		if (log && !(lo > 0))
			lo = hi > 0 ? hi / 10 : 1;
		fit_range(spec, &lo, &hi);
	}
	*a = (struct svg_axis){ spec->scale, lo, hi, from, to };
	if (spec->ticks && spec->nticks) {
		unsigned n = spec->nticks < cap ? spec->nticks : cap;
		memcpy(ticks, spec->ticks, n * sizeof(*ticks));
		return n;
	}
	return log ? svg_log_ticks(lo, hi, ticks, cap) : svg_linear_ticks(lo, hi, 6, ticks, cap);
}

void chart_legend(struct svg *s, double x, double y, const struct chart_legend_item *items,
		  unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (items[i].fill)
			svg_rect(s, x, y - 9, 14, 10, items[i].fill, items[i].stroke, NULL, NULL);
		else
			svg_line(s, x, y - 4, x + 24, y - 4, items[i].stroke);
		double w = items[i].fill ? 14 : 24;
		svg_text(s, x + w + 5, y, &label_font, items[i].name);
		x += w + 18 + 6.2 * (double)strlen(items[i].name);
	}
}

static const char *const mark_dashes[] = { "6 3", "2 2", "9 3 2 3", "1 3" };

/* Vertical lines at each mark's value, labelled at the top of the plot in
 * rows so that close values do not write over each other. */
static void draw_marks(struct svg *s, const struct svg_axis *x, double top, double bottom,
		       enum svg_unit unit, const struct chart_mark *marks, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		const struct chart_mark *m = &marks[i];
		double px = svg_axis_pos(x, m->value);
		char value[32], text[96];
		if (!isfinite(px))
			continue;
		svg_format(value, sizeof(value), unit, m->value);
		snprintf(text, sizeof(text), "%s %s", m->label, value);
		fputs("<g class=\"marker\" data-key=\"", s->f);
		svg_write_escaped(s->f, m->key ? m->key : m->label);
		fprintf(s->f, "\" data-value=\"%.15g\">\n", m->value);
		struct svg_stroke st = { SVG_INK, 1.4, mark_dashes[i % 4] };
		svg_line(s, px, top, px, bottom, &st);
		const char *shown = m->text ? m->text : text;
		double w = 6.2 * (double)strlen(shown) + 6, y = top + 14 + 15 * (i % 4);
		bool left = px + w > x->to && px - w > x->from;
		struct svg_font font = { .size = 11, .anchor = left ? SVG_END : SVG_START };
		svg_rect(s, left ? px - w - 1 : px + 1, y - 11, w, 14, SVG_PAPER, NULL,
			 "fill-opacity=\"0.85\"", NULL);
		svg_text(s, left ? px - 4 : px + 4, y, &font, shown);
		fputs("</g>\n", s->f);
	}
}

/* ---- histogram ---- */

unsigned chart_bins_log2(const uint64_t counts[STATS_LOG2_BUCKETS], struct chart_bin *out)
{
	unsigned n = 0;
	for (unsigned k = 0; k < STATS_LOG2_BUCKETS; k++)
		if (counts[k])
			out[n++] = (struct chart_bin){ k ? ldexp(1, (int)k) : 0, ldexp(1, (int)k + 1),
						       counts[k] };
	return n;
}

static void hist_desc(char *buf, size_t len, const struct chart_hist *h)
{
	char lo[32], hi[32];
	svg_format(lo, sizeof(lo), h->unit, h->bins[0].lo);
	svg_format(hi, sizeof(hi), h->unit, h->bins[h->nbins - 1].hi);
	int n = snprintf(buf, len, "Histogram of %llu values in %u buckets from %s to %s",
			 (unsigned long long)h->total, h->nbins, lo, hi);
	for (unsigned i = 0; i < h->nmarks && n > 0 && (size_t)n < len; i++) {
		svg_format(lo, sizeof(lo), h->unit, h->marks[i].value);
		n += snprintf(buf + n, len - (size_t)n, "%s %s %s", i ? "," : ";", h->marks[i].label, lo);
	}
}

static void hist_bars(struct svg *s, const struct chart_hist *h, const struct svg_axis *x,
		      const struct svg_axis *y)
{
	static const struct svg_stroke edge = { SVG_BAR_EDGE, 1, "" };
	for (unsigned i = 0; i < h->nbins; i++) {
		const struct chart_bin *bin = &h->bins[i];
		double pct = 100.0 * (double)bin->count / (double)h->total;
		double x0 = svg_axis_pos(x, bin->lo), x1 = svg_axis_pos(x, bin->hi);
		char attrs[96], tip[128], lo[32], hi[32];
		svg_format(lo, sizeof(lo), h->unit, bin->lo);
		svg_format(hi, sizeof(hi), h->unit, bin->hi);
		snprintf(tip, sizeof(tip), "%s to %s: %llu (%.2f %%)", lo, hi,
			 (unsigned long long)bin->count, pct);
		snprintf(attrs, sizeof(attrs), "class=\"bar\" data-lo=\"%.15g\" data-count=\"%llu\"",
			 bin->lo, (unsigned long long)bin->count);
		double top = svg_axis_pos(y, pct);
		svg_rect(s, x0 + 0.5, top, x1 - x0 - 1, y->from - top, SVG_BAR, &edge, attrs, tip);
	}
}

static void hist_cumulative(struct svg *s, const struct chart_hist *h, const struct svg_axis *x,
			    const struct svg_axis *y)
{
	uint64_t cum = 0;
	svg_path_begin(s, &svg_series_style[0], "class=\"cumulative\"");
	for (unsigned i = 0; i < h->nbins; i++) {
		svg_path_point(s, svg_axis_pos(x, h->bins[i].lo),
			       svg_axis_pos(y, 100.0 * (double)cum / (double)h->total));
		cum += h->bins[i].count;
		svg_path_point(s, svg_axis_pos(x, h->bins[i].hi),
			       svg_axis_pos(y, 100.0 * (double)cum / (double)h->total));
	}
	svg_path_end(s);
}

void chart_histogram(struct svg *s, const struct chart_box *b, const struct chart_hist *h)
{
	static const double cum_ticks[] = { 0, 25, 50, 75, 100 };
	static const struct svg_stroke bar_edge = { SVG_BAR_EDGE, 1, "" };
	char desc[512] = "An empty histogram";
	double ticks[MAX_TICKS], peak = 0;
	if (h->nbins && h->total)
		hist_desc(desc, sizeof(desc), h);
	svg_group_begin(s, 0, 0, "chart histogram", h->title, desc);
	chart_heading(s, b, h->title);
	if (!h->nbins || !h->total) {
		svg_group_end(s);
		return;
	}
	double left = b->x + MARGIN_SIDE, right = b->x + b->w - MARGIN_SIDE;
	double top = b->y + PLOT_TOP, bottom = b->y + b->h - PLOT_BELOW;
	for (unsigned i = 0; i < h->nbins; i++)
		peak = fmax(peak, 100.0 * (double)h->bins[i].count / (double)h->total);
	struct chart_axis_spec xs = { SVG_LOG, h->unit, h->x_title, 0, 0, NULL, 0 };
	struct chart_axis_spec ys = { SVG_LINEAR, SVG_PERCENT, "share of the values per bucket", 0, 0,
				      NULL, 0 };
	struct chart_axis_spec cs = { SVG_LINEAR, SVG_PERCENT, "cumulative share", 0, 100, cum_ticks, 5 };
	struct svg_axis x, y, cy;
	unsigned n = chart_fit_axis(&xs, fmax(h->bins[0].lo, 1), h->bins[h->nbins - 1].hi, left,
				    right, &x, ticks, MAX_TICKS);
	svg_axis(s, &x, &(struct svg_axis_draw){ SVG_BOTTOM, bottom, top, h->unit, h->x_title, ticks, n });
	n = chart_fit_axis(&ys, 0, peak, bottom, top, &y, ticks, MAX_TICKS);
	svg_axis(s, &y, &(struct svg_axis_draw){ SVG_LEFT, left, right, SVG_PERCENT, ys.title, ticks, n });
	n = chart_fit_axis(&cs, 0, 100, bottom, top, &cy, ticks, MAX_TICKS);
	svg_axis(s, &cy, &(struct svg_axis_draw){ SVG_RIGHT, right, NAN, SVG_PERCENT, cs.title, ticks, n });
	hist_bars(s, h, &x, &y);
	hist_cumulative(s, h, &x, &cy);
	draw_marks(s, &x, top, bottom, h->unit, h->marks, h->nmarks);
	struct chart_legend_item items[] = { { "share per bucket", SVG_BAR, &bar_edge },
				       { "cumulative share", NULL, &svg_series_style[0] } };
	chart_legend(s, left, top - 12, items, 2);
	svg_group_end(s);
}

/* ---- XY ---- */

static unsigned caption_lines(const char *caption, double width)
{
	unsigned n = 0;
	char line[512];
	while (caption && *caption) {
		size_t len = strcspn(caption, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) - 1 ? len : sizeof(line) - 1),
			 caption);
		n += svg_wrap_lines(width, 12, line);
		caption += len + (caption[len] == '\n');
	}
	return n;
}

double chart_xy_height(const struct chart_xy *c, double width)
{
	return 330 + CAPTION_LINE * caption_lines(c->caption, width - 2 * MARGIN_SIDE) + 8;
}

static void caption(struct svg *s, double x, double y, double width, const char *text)
{
	static const struct svg_font font = { .size = 12 };
	char line[512];
	while (text && *text) {
		size_t len = strcspn(text, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) - 1 ? len : sizeof(line) - 1),
			 text);
		y += CAPTION_LINE * svg_text_wrapped(s, x, y, width, &font, line);
		text += len + (text[len] == '\n');
	}
}

/* The range of the series' x values, and of y on axis `axis` (all of them
 * when axis is 2). */
static void series_range(const struct chart_xy *c, unsigned axis, bool want_x, double *lo, double *hi)
{
	*lo = INFINITY, *hi = -INFINITY;
	for (unsigned i = 0; i < c->nseries; i++) {
		const struct chart_series *sr = &c->series[i];
		if (!want_x && sr->axis != axis)
			continue;
		for (unsigned k = 0; k < sr->n; k++) {
			double v = want_x ? sr->x[k] : sr->y[k];
			if (!isfinite(v) || (!want_x && c->y[axis].scale == SVG_LOG && v <= 0))
				continue;
			*lo = fmin(*lo, v), *hi = fmax(*hi, v);
		}
		if (want_x && sr->steps && sr->n)
			*lo = fmin(*lo, sr->x0);
	}
}

static void draw_series(struct svg *s, const struct chart_series *sr, unsigned index,
			const struct svg_axis *x, const struct svg_axis *y)
{
	const struct svg_stroke *st = &svg_series_style[index % SVG_SERIES_STYLES];
	char attrs[160];
	fputs("<g class=\"series\" data-series=\"", s->f);
	svg_write_escaped(s->f, sr->name);
	fputs("\">\n", s->f);
	svg_path_begin(s, st, "class=\"line\"");
	for (unsigned k = 0; k < sr->n; k++) {
		double py = y->scale == SVG_LOG && !(sr->y[k] > 0) ? NAN : svg_axis_pos(y, sr->y[k]);
		if (!isfinite(sr->y[k]))
			py = NAN;
		if (sr->steps)
			svg_path_point(s, svg_axis_pos(x, k ? sr->x[k - 1] : sr->x0), py);
		svg_path_point(s, svg_axis_pos(x, sr->x[k]), py);
	}
	svg_path_end(s);
	for (unsigned k = 0; sr->points && k < sr->n; k++) {
		if (!isfinite(sr->y[k]) || (y->scale == SVG_LOG && sr->y[k] <= 0))
			continue;
		snprintf(attrs, sizeof(attrs), "class=\"point\" data-x=\"%.15g\" data-y=\"%.15g\"",
			 sr->x[k], sr->y[k]);
		svg_circle(s, svg_axis_pos(x, sr->x[k]), svg_axis_pos(y, sr->y[k]), 3.5, st->colour,
			   NULL, attrs, NULL);
	}
	fputs("</g>\n", s->f);
}

/* Whether a point's label goes below it: where the line climbs from the
 * point towards the label's side (a latency rising with the load from its
 * minimum), above it would lie on the line; and where there is no room
 * above.  Below only if there is room below. */
static bool callout_below(const struct chart_series *sr, unsigned i, bool left,
			  const struct svg_axis *x, const struct svg_axis *ya, double py)
{
	bool room_above = py - 12 >= ya->to + 12, room_below = py + 22 <= ya->from;
	unsigned next = left ? i - 1 : i + 1;
	bool climbs = false;
	if ((left ? i > 0 : i + 1 < sr->n) && isfinite(sr->y[next]) &&
	    (ya->scale != SVG_LOG || sr->y[next] > 0)) {
		double ny = svg_axis_pos(ya, sr->y[next]), nx = svg_axis_pos(x, sr->x[next]);
		double px = svg_axis_pos(x, sr->x[i]);
		/* the line within the label's first 60 px: above the label's baseline? */
		double reach = fabs(nx - px) > 60 ? 60 / fabs(nx - px) : 1;
		climbs = py + (ny - py) * reach < py - 2;
	}
	if (!room_above)
		return true;
	return climbs && room_below;
}

static void draw_callout(struct svg *s, const struct chart_xy *c, const struct chart_callout *co,
			 const struct svg_axis *x, const struct svg_axis *y)
{
	static const struct svg_stroke ring = { SVG_INK, 1.5, "" };
	if (co->series >= c->nseries || co->index >= c->series[co->series].n)
		return;
	const struct chart_series *sr = &c->series[co->series];
	const struct svg_axis *ya = &y[sr->axis];
	double px = svg_axis_pos(x, sr->x[co->index]), py = svg_axis_pos(ya, sr->y[co->index]);
	double w = 6.2 * (double)strlen(co->text) + 6;
	bool left = px + 12 + w > x->to;
	struct svg_font font = { .size = 11, .bold = true, .anchor = left ? SVG_END : SVG_START };
	double ty = callout_below(sr, co->index, left, x, ya, py) ? py + 22 : py - 12;
	fputs("<g class=\"callout\">\n", s->f);
	svg_circle(s, px, py, 8, NULL, &ring, NULL, NULL);
	svg_rect(s, left ? px - 10 - w : px + 10, ty - 11, w, 14, SVG_PAPER, NULL,
		 "fill-opacity=\"0.85\"", NULL);
	svg_text(s, left ? px - 12 : px + 12, ty, &font, co->text);
	fputs("</g>\n", s->f);
}

static void xy_desc(char *buf, size_t len, const struct chart_xy *c)
{
	int n = snprintf(buf, len, "Line chart against %s:", c->x.title ? c->x.title : "x");
	for (unsigned i = 0; i < c->nseries && n > 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - (size_t)n, "%s %s (%u points)", i ? "," : "",
			      c->series[i].name, c->series[i].n);
	for (unsigned i = 0; i < c->ncallouts && n > 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - (size_t)n, "; %s", c->callouts[i].text);
	if (c->caption && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ". %s", c->caption);
}

static void xy_axes(struct svg *s, const struct chart_xy *c, double left, double right, double top,
		    double bottom, struct svg_axis *x, struct svg_axis y[2], bool right_axis)
{
	double ticks[MAX_TICKS], lo, hi;
	series_range(c, 0, true, &lo, &hi);
	for (unsigned i = 0; i < c->nmarks; i++)
		lo = fmin(lo, c->marks[i].value), hi = fmax(hi, c->marks[i].value);
	unsigned n = chart_fit_axis(&c->x, lo, hi, left, right, x, ticks, MAX_TICKS);
	svg_axis(s, x, &(struct svg_axis_draw){ SVG_BOTTOM, bottom, top, c->x.unit, c->x.title, ticks, n });
	for (unsigned a = 0; a < (right_axis ? 2u : 1u); a++) {
		series_range(c, a, false, &lo, &hi);
		n = chart_fit_axis(&c->y[a], lo, hi, bottom, top, &y[a], ticks, MAX_TICKS);
		svg_axis(s, &y[a], &(struct svg_axis_draw){ a ? SVG_RIGHT : SVG_LEFT, a ? right : left,
							    a ? NAN : right, c->y[a].unit, c->y[a].title,
							    ticks, n });
	}
}

void chart_xy(struct svg *s, const struct chart_box *b, const struct chart_xy *c)
{
	char desc[1024];
	struct svg_axis x, y[2];
	struct chart_legend_item items[SVG_SERIES_STYLES];
	bool right_axis = false;
	unsigned nseries = c->nseries < SVG_SERIES_STYLES ? c->nseries : SVG_SERIES_STYLES;
	for (unsigned i = 0; i < nseries; i++)
		right_axis |= c->series[i].axis == 1;
	xy_desc(desc, sizeof(desc), c);
	svg_group_begin(s, 0, 0, "chart xy", c->title, desc);
	chart_heading(s, b, c->title);
	double left = b->x + MARGIN_SIDE, right = b->x + b->w - (right_axis ? MARGIN_SIDE : MARGIN_NONE);
	double below = CAPTION_LINE * caption_lines(c->caption, b->w - 2 * MARGIN_SIDE) + 8;
	double top = b->y + PLOT_TOP, bottom = b->y + b->h - PLOT_BELOW - below;
	xy_axes(s, c, left, right, top, bottom, &x, y, right_axis);
	draw_marks(s, &x, top, bottom, c->x.unit, c->marks, c->nmarks);
	for (unsigned i = 0; i < nseries; i++) {
		draw_series(s, &c->series[i], i, &x, &y[c->series[i].axis]);
		items[i] = (struct chart_legend_item){ c->series[i].name, NULL, &svg_series_style[i] };
	}
	for (unsigned i = 0; i < c->ncallouts; i++)
		draw_callout(s, c, &c->callouts[i], &x, y);
	chart_legend(s, left, top - 12, items, nseries);
	caption(s, left, bottom + PLOT_BELOW, b->w - 2 * MARGIN_SIDE, c->caption);
	svg_group_end(s);
}
