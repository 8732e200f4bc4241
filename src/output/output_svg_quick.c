/* quick's picture, under its verdict: each figure the classifier weighs on
 * its own log axis against the ranges of the class it found (and of the
 * other class when the fit was ambiguous), then every step's rate as a bar,
 * as CrystalDiskMark shows them. */
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "output_svg.h"
#include "quick.h"
#include "svg_chart.h"

#define NFIGURES 5

enum figure_kind { SEQ, LAT, IOPS32, NONE };

struct quick_chart {
	struct chart_bullet rows[NFIGURES];
	struct chart_band bands[NFIGURES][2];
	char band_labels[2][96];
	struct chart_bar bars[QUICK_MAX_STEPS];
	struct chart_bars steps;
};

/* The range class c gives the figure of this kind. */
static struct chart_band class_band(const struct device_class *c, enum figure_kind kind,
				    const char *label, bool dashed)
{
	struct chart_band b = { 0, 0, label, dashed };
	if (kind == SEQ)
		b.lo = c->seq_lo, b.hi = c->seq_hi;
	else if (kind == LAT)
		b.lo = c->lat_lo, b.hi = c->lat_hi;
	else if (kind == IOPS32)
		b.lo = c->iops_lo, b.hi = c->iops_hi;
	return b;
}

static void add_row(struct quick_chart *c, const struct verdict *v, unsigned i, const char *label,
		    double value, enum svg_unit unit, enum figure_kind kind)
{
	unsigned nbands = 0;
	const struct device_class *classes[2] = { v->cls, v->second };
	for (unsigned k = 0; k < 2 && kind != NONE; k++)
		if (classes[k])
			c->bands[i][nbands++] = class_band(classes[k], kind, c->band_labels[k], k == 1);
	c->rows[i] = (struct chart_bullet){ label, value, unit, 0, 0, c->bands[i], nbands };
}

static void quick_figures_chart(struct quick_chart *c, const struct quick_report *q)
{
	const struct quick_figures *fig = &q->figures;
	const struct verdict *v = &q->verdict;
	for (unsigned k = 0; k < 2; k++) {
		const struct device_class *cls = k ? v->second : v->cls;
		snprintf(c->band_labels[k], sizeof(c->band_labels[k]), "%s%s range",
			 cls ? cls->label : "", k ? " (the other fit)" : "");
	}
	add_row(c, v, 0, "sequential read, 1 in flight", fig->seq_read_bps, SVG_RATE_SI, SEQ);
	add_row(c, v, 1, "4 KiB random read p50, QD1", fig->qd1_lat_p50_ns, SVG_NS, LAT);
	add_row(c, v, 2, "4 KiB random read IOPS, 32 in flight", fig->qd32_iops, SVG_COUNT, IOPS32);
	add_row(c, v, 3, "4 KiB random read IOPS, QD1", fig->qd1_iops, SVG_COUNT, NONE);
	add_row(c, v, 4, "sequential write (O_DSYNC)", fig->seq_write_bps, SVG_RATE_SI, NONE);
}

static void quick_steps_chart(struct quick_chart *c, const struct quick_report *q)
{
	for (unsigned i = 0; i < q->nsteps; i++)
		c->bars[i] = (struct chart_bar){ q->labels[i], result_rate(&q->steps[i]), false };
	c->steps = (struct chart_bars){
		.title = "Every step's rate",
		.value = { SVG_LOG, SVG_RATE_SI, "rate (log scale)", 0, 0, NULL, 0 },
		.bars = c->bars, .nbars = q->nsteps,
	};
}

void out_svg_quick(FILE *f, const struct result *r)
{
	static struct quick_chart c;
	const struct quick_report *q = r->detail;
	struct svg s;
	char desc[1200], result[160];
	memset(&c, 0, sizeof(c));
	quick_figures_chart(&c, q);
	quick_steps_chart(&c, q);
	int n = snprintf(desc, sizeof(desc), "%s. Steps:", q->line);
	for (unsigned i = 0; i < q->nsteps && n > 0 && (size_t)n < sizeof(desc); i++) {
		svg_format(result, sizeof(result), SVG_RATE_SI, result_rate(&q->steps[i]));
		n += snprintf(desc + n, sizeof(desc) - (size_t)n, "%s %s %s", i ? "," : "", q->labels[i],
			      result);
	}
	double figures_h = chart_bullets_height(NFIGURES);
	double y = svg_begin(&s, f, OUT_SVG_WIDTH, figures_h + CHART_BARS_HEIGHT, q->line, desc);
	chart_bullets(&s, &(struct chart_box){ 0, y, OUT_SVG_WIDTH, figures_h },
		      "The figures the verdict weighs, against the class ranges", c.rows, NFIGURES);
	chart_bars(&s, &(struct chart_box){ 0, y + figures_h, OUT_SVG_WIDTH, CHART_BARS_HEIGHT },
		   &c.steps);
	svg_end(&s);
}
