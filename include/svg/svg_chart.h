/* Charts drawn with svg.h, each into a box of a document, so one SVG can
 * stack several: a latency histogram (log-scale buckets, % per bucket, the
 * cumulative line, percentiles marked), an XY chart (lines or steps over
 * time or load, one or two value axes, vertical marks, points called out, a
 * caption), bars per category (a median line, outliers, shaded ranges),
 * "bullets" (one figure per row on its own log axis against ranges) and a
 * heat map (rows x columns of values).  Each chart is a <g class="chart
 * KIND"> with its own <title> and a <desc> saying what it shows in words;
 * what tests count carries a class: rect.bar, circle.point, g.marker,
 * rect.cell, rect.band, line.median.  Pure: data in, elements out. */
#ifndef SVG_CHART_H
#define SVG_CHART_H

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"
#include "svg.h"

/* Where a chart draws, in document coordinates. */
struct chart_box {
	double x, y, w, h;
};

/* An axis as a chart asks for it.  lo == hi (as when zeroed): fitted to
 * the data (a linear one from 0, widened to nice steps; a log one to whole
 * decades).  ticks NULL: nice ticks; else these, and the range is padded
 * around them rather than widened. */
struct chart_axis_spec {
	enum svg_scale scale;
	enum svg_unit unit;
	const char *title;
	double lo, hi;
	const double *ticks;
	unsigned nticks;
};

/* A value marked across the plot by a vertical line: a percentile, a
 * finding's time, the knee.  key goes to data-key for machines; text NULL:
 * the label and the value in the axis' unit. */
struct chart_mark {
	double value;
	const char *label;
	const char *key;
	const char *text;
};

/* ---- histogram ---- */
struct chart_bin {
	double lo, hi; /* the bucket [lo, hi), in the x unit */
	uint64_t count;
};

struct chart_hist {
	const char *title;
	enum svg_unit unit;            /* of the buckets: SVG_NS for latency */
	const char *x_title;           /* "latency" */
	const struct chart_bin *bins;  /* increasing; empty ones may be left out */
	unsigned nbins;
	uint64_t total;
	const struct chart_mark *marks; /* percentiles */
	unsigned nmarks;
};

#define CHART_HIST_HEIGHT 360.0
/* The non-empty buckets of stats_log2_counts() as bins [2^k, 2^(k+1)); out
 * holds STATS_LOG2_BUCKETS.  Returns how many. */
unsigned chart_bins_log2(const uint64_t counts[STATS_LOG2_BUCKETS], struct chart_bin *out);
/* A bar per bin (rect.bar), the share of the total per bin on the left
 * axis, the cumulative share as a line on the right one, marks labelled
 * with their values. */
void chart_histogram(struct svg *s, const struct chart_box *b, const struct chart_hist *h);

/* ---- XY ---- */
struct chart_series {
	const char *name;        /* in the legend, and data-series */
	const double *x, *y;     /* a non-finite y leaves a gap */
	unsigned n;
	unsigned axis;           /* 0: the left value axis, 1: the right one */
	bool steps;              /* y[i] held from x[i-1] (x0 for i = 0) to x[i] */
	double x0;
	bool points;             /* a circle.point per point */
};

/* A point of a series ringed and labelled ("max IOPS 94.2k @ 32"). */
struct chart_callout {
	unsigned series, index;
	const char *text;
};

struct chart_xy {
	const char *title;
	struct chart_axis_spec x, y[2]; /* y[1] drawn when a series uses it */
	const struct chart_series *series;
	unsigned nseries;               /* at most SVG_SERIES_STYLES */
	const struct chart_mark *marks;
	unsigned nmarks;
	const struct chart_callout *callouts;
	unsigned ncallouts;
	const char *caption;            /* below the plot, '\n' between lines; NULL: none */
};

/* The box height chart_xy needs at this width (its caption grows it). */
double chart_xy_height(const struct chart_xy *c, double width);
void chart_xy(struct svg *s, const struct chart_box *b, const struct chart_xy *c);

/* ---- bars, bullets, heat map (svg_bars.c) ---- */
/* A shaded range of values: a device class's, a tolerance.  dashed: an
 * outline only, for a second range beside the first. */
struct chart_band {
	double lo, hi;
	const char *label;
	bool dashed;
};

struct chart_bar {
	const char *label;  /* under the bar: a host, a step */
	double value;       /* non-finite or, on a log axis, <= 0: no bar */
	bool outlier;       /* drawn dark, and said so */
};

struct chart_bars {
	const char *title;
	struct chart_axis_spec value;   /* the vertical axis */
	const struct chart_bar *bars;
	unsigned nbars;
	bool has_median;                /* a line.median across at median */
	double median;
	const struct chart_band *bands; /* shaded behind the bars */
	unsigned nbands;
};

#define CHART_BARS_HEIGHT 340.0
void chart_bars(struct svg *s, const struct chart_box *b, const struct chart_bars *c);

/* One figure on a log axis of its own, against ranges. */
struct chart_bullet {
	const char *label;   /* "sequential read" */
	double value;        /* non-finite or <= 0: "not measured" */
	enum svg_unit unit;
	double lo, hi;       /* the axis; lo == hi: fitted to value and bands */
	const struct chart_band *bands;
	unsigned nbands;
};

double chart_bullets_height(unsigned nrows);
void chart_bullets(struct svg *s, const struct chart_box *b, const char *title,
		   const struct chart_bullet *rows, unsigned nrows);

struct chart_heat {
	const char *title;
	const char *x_title, *y_title;  /* "block size", "file size" */
	const char *const *cols;        /* labels of the columns, left to right */
	unsigned ncols;
	const char *const *rows;        /* labels of the rows, top to bottom */
	unsigned nrows;
	const double *values;           /* nrows x ncols, row after row; non-finite: none */
	enum svg_unit unit;
};

double chart_heatmap_height(unsigned nrows);
/* A rect.cell per value, darker for more (a lightness ramp: greyscale
 * keeps the order), the value written in it, and a scale beside. */
void chart_heatmap(struct svg *s, const struct chart_box *b, const struct chart_heat *c);
/* The ramp's colour for share 0..1 (light to dark), as "#rrggbb". */
void chart_ramp(double share, char out[8]);

/* ---- pieces the charts share ---- */
/* A swatch and a name per item, in a row from (x, y); a NULL fill is a
 * line swatch in the item's stroke. */
struct chart_legend_item {
	const char *name;
	const char *fill;
	const struct svg_stroke *stroke;
};
void chart_legend(struct svg *s, double x, double y, const struct chart_legend_item *items,
		  unsigned n);
/* The chart's heading at the top left of b. */
void chart_heading(struct svg *s, const struct chart_box *b, const char *title);
/* Fits a to spec over the data range [dlo, dhi] and pixels from..to, and
 * the ticks to draw; returns how many (<= cap). */
unsigned chart_fit_axis(const struct chart_axis_spec *spec, double dlo, double dhi, double from,
			double to, struct svg_axis *a, double *ticks, unsigned cap);

#endif
