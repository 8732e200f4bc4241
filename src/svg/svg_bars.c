/* svg_chart.h's bars (per host or step, a median, outliers, shaded ranges),
 * bullets (a figure per row against ranges on its own log axis) and the
 * heat map (rows x columns of values, darker for more). */
#include <math.h>
#include <string.h>

#include "svg_chart.h"

#define MAX_TICKS 24
#define CHAR_PX 6.2 /* what a character of 11 px text takes, to place labels */

static const struct svg_stroke edge = { SVG_BAR_EDGE, 1, "" };
static const struct svg_stroke dashed_edge = { SVG_INK, 1.2, "5 3" };
#define OUTLIER_FILL "#173a66"

static bool drawable(double v, enum svg_scale scale)
{
	return isfinite(v) && (scale != SVG_LOG || v > 0);
}

static void band_rect(struct svg *s, double x, double y, double w, double h,
		      const struct chart_band *band)
{
	char attrs[96];
	snprintf(attrs, sizeof(attrs), "class=\"band\" data-lo=\"%.15g\" data-hi=\"%.15g\"", band->lo,
		 band->hi);
	svg_rect(s, x, y, w, h, band->dashed ? NULL : SVG_BAND, band->dashed ? &dashed_edge : NULL,
		 attrs, band->label);
}

/* ---- bars ---- */

static void bars_range(const struct chart_bars *c, double *lo, double *hi)
{
	*lo = INFINITY, *hi = -INFINITY;
	for (unsigned i = 0; i < c->nbars; i++)
		if (drawable(c->bars[i].value, c->value.scale))
			*lo = fmin(*lo, c->bars[i].value), *hi = fmax(*hi, c->bars[i].value);
	for (unsigned i = 0; i < c->nbands; i++)
		*lo = fmin(*lo, c->bands[i].lo), *hi = fmax(*hi, c->bands[i].hi);
	if (c->has_median && drawable(c->median, c->value.scale))
		*lo = fmin(*lo, c->median), *hi = fmax(*hi, c->median);
}

static bool rotate_labels(const struct chart_bars *c, double slot)
{
	for (unsigned i = 0; i < c->nbars; i++)
		if (CHAR_PX * (double)strlen(c->bars[i].label) > slot - 4)
			return true;
	return false;
}

static void one_bar(struct svg *s, const struct chart_bars *c, unsigned i, double cx, double w,
		    const struct svg_axis *y, bool value_labels)
{
	const struct chart_bar *bar = &c->bars[i];
	char attrs[128], value[32], tip[160];
	if (!drawable(bar->value, c->value.scale))
		return;
	svg_format(value, sizeof(value), c->value.unit, bar->value);
	snprintf(tip, sizeof(tip), "%s: %s%s", bar->label, value, bar->outlier ? " (outlier)" : "");
	snprintf(attrs, sizeof(attrs), "class=\"bar%s\" data-value=\"%.15g\"",
		 bar->outlier ? " outlier" : "", bar->value);
	double top = svg_axis_pos(y, bar->value);
	svg_rect(s, cx - w / 2, top, w, y->from - top, bar->outlier ? OUTLIER_FILL : SVG_BAR, &edge,
		 attrs, tip);
	if (value_labels) {
		struct svg_font font = { .size = 10, .anchor = SVG_MIDDLE, .bold = bar->outlier };
		svg_text(s, cx, top - 4, &font, value);
	}
}

static const struct svg_stroke median_stroke = { "#e69500", 2.2, "8 4" };

/* The median across the bars; its value is said in the legend. */
static void median_line(struct svg *s, const struct chart_bars *c, const struct svg_axis *y,
			double left, double right)
{
	const struct svg_stroke *st = &median_stroke;
	if (!c->has_median || !drawable(c->median, c->value.scale))
		return;
	double py = svg_axis_pos(y, c->median);
	fprintf(s->f, "<line class=\"median\" data-value=\"%.15g\" x1=\"%.1f\" y1=\"%.1f\" "
		"x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%g\" stroke-dasharray=\"%s\"/>\n",
		c->median, left, py, right, py, st->colour, st->width, st->dash);
}

static void bars_legend(struct svg *s, const struct chart_bars *c, unsigned outliers, double x,
			double y)
{
	struct chart_legend_item items[3];
	char median[48], value[32];
	unsigned n = 0;
	items[n++] = (struct chart_legend_item){ c->value.title ? c->value.title : "value", SVG_BAR, &edge };
	if (outliers)
		items[n++] = (struct chart_legend_item){ "outlier", OUTLIER_FILL, &edge };
	if (c->has_median && drawable(c->median, c->value.scale)) {
		svg_format(value, sizeof(value), c->value.unit, c->median);
		snprintf(median, sizeof(median), "median %s", value);
		items[n++] = (struct chart_legend_item){ median, NULL, &median_stroke };
	}
	chart_legend(s, x, y, items, n);
}

void chart_bars(struct svg *s, const struct chart_box *b, const struct chart_bars *c)
{
	double ticks[MAX_TICKS], lo, hi;
	struct svg_axis y;
	char desc[256];
	unsigned outliers = 0;
	for (unsigned i = 0; i < c->nbars; i++)
		outliers += c->bars[i].outlier;
	snprintf(desc, sizeof(desc), "Bar chart of %s for %u entries%s, %u marked as outliers",
		 c->value.title ? c->value.title : "values", c->nbars,
		 c->has_median ? " with their median" : "", outliers);
	svg_group_begin(s, 0, 0, "chart bars", c->title, desc);
	chart_heading(s, b, c->title);
	double left = b->x + 86, right = b->x + b->w - 28, top = b->y + 58;
	double slot = c->nbars ? (right - left) / c->nbars : right - left;
	bool rotate = rotate_labels(c, slot);
	double bottom = b->y + b->h - (rotate ? 96 : 40);
	bars_range(c, &lo, &hi);
	unsigned n = chart_fit_axis(&c->value, lo, hi, bottom, top, &y, ticks, MAX_TICKS);
	svg_axis(s, &y, &(struct svg_axis_draw){ SVG_LEFT, left, right, c->value.unit, c->value.title,
						 ticks, n });
	for (unsigned i = 0; i < c->nbands; i++) {
		double y0 = svg_axis_pos(&y, c->bands[i].hi), y1 = svg_axis_pos(&y, c->bands[i].lo);
		band_rect(s, left, fmax(y0, top), right - left, fmin(y1, bottom) - fmax(y0, top), &c->bands[i]);
	}
	svg_line(s, left, bottom, right, bottom, &(struct svg_stroke){ SVG_INK, 1, "" });
	for (unsigned i = 0; i < c->nbars; i++) {
		double cx = left + slot * (i + 0.5);
		one_bar(s, c, i, cx, fmin(slot * 0.7, 64), &y, c->nbars <= 16);
		struct svg_font font = { .size = 11, .anchor = rotate ? SVG_END : SVG_MIDDLE,
					 .rotate = rotate ? -40 : 0 };
		svg_text(s, cx, bottom + 16, &font, c->bars[i].label);
	}
	median_line(s, c, &y, left, right);
	bars_legend(s, c, outliers, left, top - 22);
	svg_group_end(s);
}

/* ---- bullets ---- */

#define BULLET_ROW 70.0
#define BULLET_TOP 48.0
#define BULLET_LABELS 250.0

double chart_bullets_height(unsigned nrows)
{
	return BULLET_TOP + BULLET_ROW * nrows + 12;
}

static void bullet_axis(const struct chart_bullet *r, double from, double to, struct svg_axis *a,
			double *ticks, unsigned *nticks)
{
	double lo = INFINITY, hi = -INFINITY;
	if (drawable(r->value, SVG_LOG))
		lo = hi = r->value;
	for (unsigned i = 0; i < r->nbands; i++) {
		if (r->bands[i].lo > 0)
			lo = fmin(lo, r->bands[i].lo);
		hi = fmax(hi, r->bands[i].hi);
	}
	struct chart_axis_spec spec = { SVG_LOG, r->unit, NULL, r->lo, r->hi, NULL, 0 };
	*nticks = chart_fit_axis(&spec, lo, hi, from, to, a, ticks, MAX_TICKS);
}

static void bullet_row(struct svg *s, const struct chart_bullet *r, double left, double right,
		       double y)
{
	double ticks[MAX_TICKS], lane = 30;
	unsigned nticks;
	struct svg_axis a;
	char value[32];
	bullet_axis(r, left + BULLET_LABELS, right, &a, ticks, &nticks);
	svg_text(s, left, y + 12, &(struct svg_font){ .size = 12, .bold = true }, r->label);
	bool measured = drawable(r->value, SVG_LOG);
	if (measured)
		svg_format(value, sizeof(value), r->unit, r->value);
	svg_text(s, left, y + 28, &(struct svg_font){ .size = 12 }, measured ? value : "not measured");
	for (unsigned i = 0; i < r->nbands; i++) {
		const struct chart_band *band = &r->bands[i];
		double x0 = svg_axis_pos(&a, band->lo > 0 ? band->lo : a.lo), x1 = svg_axis_pos(&a, band->hi);
		x0 = fmax(x0, a.from), x1 = fmin(x1, a.to);
		band_rect(s, x0, y, x1 - x0, lane, band);
		if (band->label && CHAR_PX * 0.9 * (double)strlen(band->label) < x1 - x0 - 4)
			svg_text(s, i % 2 ? x1 - 3 : x0 + 3, y + 10, &(struct svg_font){ .size = 10,
				 .anchor = i % 2 ? SVG_END : SVG_START }, band->label);
	}
	svg_axis(s, &a, &(struct svg_axis_draw){ SVG_BOTTOM, y + lane, NAN, r->unit, NULL, ticks, nticks });
	if (!measured)
		return;
	char attrs[96];
	snprintf(attrs, sizeof(attrs), "class=\"bar\" data-value=\"%.15g\"", r->value);
	double end = fmin(svg_axis_pos(&a, r->value), a.to);
	svg_rect(s, a.from, y + 14, end - a.from, 10, OUTLIER_FILL, NULL, attrs, value);
	svg_line(s, end, y - 2, end, y + lane + 2, &(struct svg_stroke){ SVG_INK, 2.5, "" });
}

void chart_bullets(struct svg *s, const struct chart_box *b, const char *title,
		   const struct chart_bullet *rows, unsigned nrows)
{
	char desc[512];
	int n = snprintf(desc, sizeof(desc), "%u figures, each on its own scale against ranges:", nrows);
	for (unsigned i = 0; i < nrows && n > 0 && (size_t)n < sizeof(desc); i++) {
		char value[32] = "not measured";
		if (drawable(rows[i].value, SVG_LOG))
			svg_format(value, sizeof(value), rows[i].unit, rows[i].value);
		n += snprintf(desc + n, sizeof(desc) - (size_t)n, "%s %s %s", i ? "," : "", rows[i].label,
			      value);
	}
	svg_group_begin(s, 0, 0, "chart bullets", title, desc);
	chart_heading(s, b, title);
	for (unsigned i = 0; i < nrows; i++)
		bullet_row(s, &rows[i], b->x + 16, b->x + b->w - 28, b->y + BULLET_TOP + BULLET_ROW * i);
	svg_group_end(s);
}

/* ---- heat map ---- */

#define HEAT_TOP 58.0
#define HEAT_ROW 34.0
#define HEAT_LEFT 96.0
#define HEAT_SCALE 110.0

#define HEAT_SCALE_H (14.0 * 10 + 24) /* ten steps, the low label under them */

/* The rows and the labels under them, or the scale beside when it is taller
 * (two rows of matrix are shorter than the scale). */
double chart_heatmap_height(unsigned nrows)
{
	double rows = HEAT_ROW * nrows + 64;
	return HEAT_TOP + (rows > HEAT_SCALE_H ? rows : HEAT_SCALE_H);
}

void chart_ramp(double share, char out[8])
{
	static const unsigned char stops[3][3] = { { 0xee, 0xf3, 0xfa }, { 0x6a, 0x9f, 0xd0 },
						   { 0x08, 0x30, 0x6b } };
	share = isfinite(share) ? fmin(fmax(share, 0), 1) : 0;
	unsigned seg = share < 0.5 ? 0 : 1;
	double t = share < 0.5 ? share * 2 : share * 2 - 1;
	unsigned rgb[3];
	for (unsigned i = 0; i < 3; i++)
		rgb[i] = (unsigned)lround(stops[seg][i] + t * (stops[seg + 1][i] - stops[seg][i]));
	snprintf(out, 8, "#%02x%02x%02x", rgb[0] & 0xff, rgb[1] & 0xff, rgb[2] & 0xff);
}

/* Where v falls between lo and hi: on a log scale when the values span more
 * than 20 times (MB/s from 4 KiB to 1 MiB blocks do), else linearly. */
static double heat_share(double v, double lo, double hi)
{
	if (!(hi > lo))
		return 1;
	if (lo > 0 && hi / lo > 20)
		return log(v / lo) / log(hi / lo);
	return (v - lo) / (hi - lo);
}

static void heat_cell(struct svg *s, const struct chart_heat *c, unsigned r, unsigned k,
		      double x, double y, double w, double lo, double hi)
{
	double v = c->values[r * c->ncols + k];
	char fill[8], attrs[128], value[32], tip[192];
	struct svg_font font = { .size = 11, .anchor = SVG_MIDDLE };
	if (!isfinite(v)) {
		svg_rect(s, x, y, w, HEAT_ROW, NULL, &(struct svg_stroke){ SVG_GRID, 1, "3 3" },
			 "class=\"cell missing\"", "not measured");
		svg_text(s, x + w / 2, y + HEAT_ROW / 2 + 4, &font, "-");
		return;
	}
	chart_ramp(heat_share(v, lo, hi), fill);
	svg_format(value, sizeof(value), c->unit, v);
	snprintf(tip, sizeof(tip), "%s %s, %s %s: %s", c->y_title ? c->y_title : "", c->rows[r],
		 c->x_title ? c->x_title : "", c->cols[k], value);
	snprintf(attrs, sizeof(attrs), "class=\"cell\" data-row=\"%u\" data-col=\"%u\" data-value=\"%.15g\"",
		 r, k, v);
	svg_rect(s, x, y, w, HEAT_ROW, fill, &(struct svg_stroke){ SVG_PAPER, 1, "" }, attrs, tip);
	font.colour = svg_lightness(fill) < 55 ? SVG_PAPER : SVG_INK;
	if (CHAR_PX * (double)strlen(value) < w - 4)
		svg_text(s, x + w / 2, y + HEAT_ROW / 2 + 4, &font, value);
}

static void heat_scale(struct svg *s, const struct chart_heat *c, double x, double y, double lo,
		       double hi)
{
	char fill[8], label[32];
	struct svg_font font = { .size = 11 };
	for (unsigned i = 0; i < 10; i++) {
		chart_ramp((9 - i) / 9.0, fill);
		svg_rect(s, x, y + 14 * i, 16, 14, fill, NULL, NULL, NULL);
	}
	svg_format(label, sizeof(label), c->unit, hi);
	svg_text(s, x + 22, y + 11, &font, label);
	svg_format(label, sizeof(label), c->unit, lo);
	svg_text(s, x + 22, y + 14 * 10, &font, label);
}

void chart_heatmap(struct svg *s, const struct chart_box *b, const struct chart_heat *c)
{
	double lo = INFINITY, hi = -INFINITY;
	char desc[256];
	unsigned measured = 0;
	for (unsigned i = 0; i < c->nrows * c->ncols; i++)
		if (isfinite(c->values[i]))
			lo = fmin(lo, c->values[i]), hi = fmax(hi, c->values[i]), measured++;
	snprintf(desc, sizeof(desc), "Heat map of %u rows (%s) by %u columns (%s), %u cells measured; "
		 "darker is more", c->nrows, c->y_title ? c->y_title : "", c->ncols,
		 c->x_title ? c->x_title : "", measured);
	svg_group_begin(s, 0, 0, "chart heatmap", c->title, desc);
	chart_heading(s, b, c->title);
	double left = b->x + HEAT_LEFT, top = b->y + HEAT_TOP;
	double w = c->ncols ? (b->w - HEAT_LEFT - HEAT_SCALE) / c->ncols : 0;
	struct svg_font end = { .size = 11, .anchor = SVG_END }, mid = { .size = 11, .anchor = SVG_MIDDLE };
	for (unsigned r = 0; r < c->nrows; r++) {
		svg_text(s, left - 6, top + HEAT_ROW * r + HEAT_ROW / 2 + 4, &end, c->rows[r]);
		for (unsigned k = 0; k < c->ncols; k++)
			heat_cell(s, c, r, k, left + w * k, top + HEAT_ROW * r, w, lo, hi);
	}
	double below = top + HEAT_ROW * c->nrows;
	for (unsigned k = 0; k < c->ncols; k++)
		svg_text(s, left + w * (k + 0.5), below + 16, &mid, c->cols[k]);
	if (c->x_title)
		svg_text(s, left + w * c->ncols / 2, below + 36, &(struct svg_font){ .size = 12,
			 .anchor = SVG_MIDDLE }, c->x_title);
	if (c->y_title)
		svg_text(s, b->x + 14, top + HEAT_ROW * c->nrows / 2,
			 &(struct svg_font){ .size = 12, .anchor = SVG_MIDDLE, .rotate = -90 }, c->y_title);
	if (measured)
		heat_scale(s, c, left + w * c->ncols + 20, top, lo, hi);
	svg_group_end(s);
}
