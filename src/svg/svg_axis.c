/* svg.h's scales: the mapping of values to pixels, tick values a person can
 * read, their labels in the units of the text output, and the axes drawn. */
#include <math.h>
#include <string.h>

#include "svg.h"
#include "units.h"

double svg_axis_pos(const struct svg_axis *a, double v)
{
	double share;
	if (a->scale == SVG_LOG) {
		if (v <= 0 || a->lo <= 0 || a->hi <= a->lo)
			return a->from;
		share = log10(v / a->lo) / log10(a->hi / a->lo);
	} else {
		share = a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0;
	}
	return a->from + share * (a->to - a->from);
}

double svg_nice_step(double span, unsigned max_ticks)
{
	static const double steps[] = { 1, 2, 5, 10 };
	if (!(span > 0) || !isfinite(span))
		return 1;
	double raw = span / (max_ticks ? max_ticks : 1);
	double magnitude = pow(10, floor(log10(raw)));
	for (unsigned i = 0; i < 4; i++)
		if (steps[i] * magnitude >= raw * (1 - 1e-9))
			return steps[i] * magnitude;
	return 10 * magnitude;
}

void svg_nice_range(double *lo, double *hi, unsigned max_ticks)
{
	if (!(*hi > *lo))
		*hi = *lo + (*lo != 0 ? fabs(*lo) : 1);
	double step = svg_nice_step(*hi - *lo, max_ticks);
	*lo = floor(*lo / step + 1e-9) * step;
	*hi = ceil(*hi / step - 1e-9) * step;
}

unsigned svg_linear_ticks(double lo, double hi, unsigned max_ticks, double *out, unsigned cap)
{
	double step = svg_nice_step(hi - lo, max_ticks);
	double first = ceil(lo / step - 1e-9);
	unsigned n = 0;
	for (double k = first; n < cap && k * step <= hi + step * 1e-9; k++) {
		double v = k * step;
		out[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return n;
}

unsigned svg_log_ticks(double lo, double hi, double *out, unsigned cap)
{
	static const double fine[] = { 1, 2, 5 };
	if (!(lo > 0) || !(hi > lo))
		return 0;
	unsigned per_decade = log10(hi / lo) < 3 ? 3 : 1, n = 0;
	for (double d = floor(log10(lo)); d <= ceil(log10(hi)) && n < cap; d++)
		for (unsigned m = 0; m < per_decade && n < cap; m++) {
			double v = fine[m] * pow(10, d);
			if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
				out[n++] = v;
		}
	return n;
}

void svg_log_range(double *lo, double *hi)
{
	*lo = *lo > 0 ? pow(10, floor(log10(*lo) + 1e-9)) : 1;
	*hi = *hi > *lo ? pow(10, ceil(log10(*hi) - 1e-9)) : *lo * 10;
}

/* "1.50 ms" -> "1.5 ms", "2.00k" -> "2k": ticks read better bare. */
static void strip_zeros(char *buf)
{
	char *dot = strchr(buf, '.');
	if (!dot)
		return;
	char *end = dot + 1;
	while (*end >= '0' && *end <= '9')
		end++;
	char *cut = end;
	while (cut > dot + 1 && cut[-1] == '0')
		cut--;
	if (cut == dot + 1)
		cut = dot;
	memmove(cut, end, strlen(end) + 1);
}

void svg_format(char *buf, size_t len, enum svg_unit unit, double v)
{
	if (v == 0 && unit != SVG_PERCENT && unit != SVG_SECONDS) {
		snprintf(buf, len, "0");
		return;
	}
	switch (unit) {
	case SVG_NS: fmt_ns(buf, len, v); break;
	case SVG_RATE_SI: fmt_rate_si(buf, len, v); break;
	case SVG_RATE_IEC: fmt_rate_iec(buf, len, v); break;
	case SVG_COUNT: fmt_count(buf, len, v); break;
	case SVG_SECONDS: snprintf(buf, len, "%.4g s", v); return;
	case SVG_PERCENT: snprintf(buf, len, "%.4g %%", v); return;
	case SVG_BYTES_IEC:
		if (v >= 1 && v == floor(v) && v < 1.8e19)
			fmt_size_exact(buf, len, (uint64_t)v);
		else
			fmt_bytes_iec(buf, len, (uint64_t)(v > 0 ? v : 0));
		return;
	default: snprintf(buf, len, "%.4g", v); return;
	}
	strip_zeros(buf);
}

/* ---- drawing ---- */

static const struct svg_stroke axis_line = { SVG_INK, 1, "" };
static const struct svg_stroke grid_line = { SVG_GRID, 1, "" };

static void axis_title(struct svg *s, const struct svg_axis *a, const struct svg_axis_draw *d)
{
	double mid = (a->from + a->to) / 2;
	struct svg_font font = { .size = 12, .anchor = SVG_MIDDLE };
	if (!d->title)
		return;
	if (d->side == SVG_BOTTOM) {
		svg_text(s, mid, d->cross + 36, &font, d->title);
		return;
	}
	font.rotate = d->side == SVG_LEFT ? -90 : 90;
	svg_text(s, d->cross + (d->side == SVG_LEFT ? -64 : 64), mid, &font, d->title);
}

/* A tick label under its tick, unless centred it would run past the
 * picture's edge (the last one of an axis that ends near it): then it ends
 * (or starts) at its tick.  6.2 px: a character of 11 px text. */
static enum svg_anchor bottom_anchor(const struct svg *s, double p, const char *label)
{
	double half = 6.2 * (double)strlen(label) / 2;
	if (s->width > 0 && p + half > s->width - 2)
		return SVG_END;
	if (p - half < 2)
		return SVG_START;
	return SVG_MIDDLE;
}

void svg_axis(struct svg *s, const struct svg_axis *a, const struct svg_axis_draw *d)
{
	bool bottom = d->side == SVG_BOTTOM;
	double out = d->side == SVG_LEFT ? -1 : 1; /* the side the ticks stick out to */
	struct svg_font font = { .size = 11,
				 .anchor = bottom ? SVG_MIDDLE : d->side == SVG_LEFT ? SVG_END : SVG_START };
	for (unsigned i = 0; i < d->nticks; i++) {
		double p = svg_axis_pos(a, d->ticks[i]);
		char label[32];
		svg_format(label, sizeof(label), d->unit, d->ticks[i]);
		if (bottom) {
			if (isfinite(d->grid_to))
				svg_line(s, p, d->cross, p, d->grid_to, &grid_line);
			svg_line(s, p, d->cross, p, d->cross + 5, &axis_line);
			svg_text(s, p, d->cross + 18, &(struct svg_font){ .size = 11,
				 .anchor = bottom_anchor(s, p, label) }, label);
		} else {
			if (isfinite(d->grid_to))
				svg_line(s, d->cross, p, d->grid_to, p, &grid_line);
			svg_line(s, d->cross, p, d->cross + 5 * out, p, &axis_line);
			svg_text(s, d->cross + 8 * out, p + 4, &font, label);
		}
	}
	if (bottom)
		svg_line(s, a->from, d->cross, a->to, d->cross, &axis_line);
	else
		svg_line(s, d->cross, a->from, d->cross, a->to, &axis_line);
	axis_title(s, a, d);
}
