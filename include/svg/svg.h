/* A small SVG writer: a document with its viewBox, <title> and <desc>, and
 * the few elements charts need (lines, rects, polylines, circles, text),
 * every text escaped for XML (a path holding <&"' or bytes that are not
 * UTF-8 cannot break the file); axes with ticks a person can read (1, 2, 5
 * x 10^k steps, decades on log scales) in the units the text output uses
 * (units.h).  Self-contained output: presentation attributes only, the
 * generic font family, no script, no reference to anything outside the
 * file.  Pure: writes to the FILE it is given, never opens one; the caller
 * checks ferror. */
#ifndef SVG_H
#define SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct svg {
	FILE *f;
	double width, height;
	/* the polyline being written point by point (svg_path_*) */
	const struct svg_stroke *path_stroke;
	const char *path_attrs;
	unsigned path_points;
	double path_x, path_y;
};

/* Colours chosen to stay apart in greyscale (CIE lightness in the comment)
 * and paired with dash patterns, so a printout still tells them apart. */
#define SVG_INK "#1a1a1a"   /* text, axes: L* 9 */
#define SVG_GRID "#dddddd"  /* grid lines: L* 89 */
#define SVG_PAPER "#ffffff"
#define SVG_BAR "#9cbde3"   /* bar fill: L* 75 */
#define SVG_BAR_EDGE "#1f4e89"
#define SVG_BAND "#d6d6d6"  /* a shaded range: L* 86 */
#define SVG_SERIES_STYLES 3

/* How one line is drawn: stroke colour, width and dash pattern ("" solid). */
struct svg_stroke {
	const char *colour;
	double width;
	const char *dash;
};

/* The styles of series 0, 1, 2: dark solid, light dashed, mid dotted. */
extern const struct svg_stroke svg_series_style[SVG_SERIES_STYLES];

/* CIE L* (0 black .. 100 white) of "#rrggbb"; -1 when it is not one. */
double svg_lightness(const char *hex);

/* ---- the document ---- */
/* Writes the XML declaration and <svg> with viewBox 0 0 width height, the
 * <title> and <desc> screen readers announce, a white background and the
 * title as a heading wrapped to the width.  body_height is what the caller
 * will draw below it; returns the y where that begins (the document's
 * height is that plus body_height). */
double svg_begin(struct svg *s, FILE *f, double width, double body_height, const char *title,
		 const char *desc);
void svg_end(struct svg *s);
/* The height svg_begin's heading takes for title at this width. */
double svg_heading_height(double width, const char *title);

/* Writes text escaped for XML, character data or attribute value alike:
 * &<>"' as entities, bytes that are not well-formed UTF-8 and control
 * characters XML forbids as U+FFFD. */
void svg_write_escaped(FILE *f, const char *text);

/* A group (translated by dx, dy) with its own <title> and <desc>, and an
 * optional class (NULL: none). */
void svg_group_begin(struct svg *s, double dx, double dy, const char *cls, const char *title,
		     const char *desc);
void svg_group_end(struct svg *s);

/* ---- elements ---- */
void svg_line(struct svg *s, double x1, double y1, double x2, double y2,
	      const struct svg_stroke *st);
/* fill NULL: none; edge NULL: no stroke; tip NULL: no <title> tooltip
 * (escaped); attrs NULL or extra attributes (class, data-*) written as
 * they are: the caller's own words and numbers, never the user's text. */
void svg_rect(struct svg *s, double x, double y, double w, double h, const char *fill,
	      const struct svg_stroke *edge, const char *attrs, const char *tip);
/* n points; a non-finite coordinate breaks the line into pieces. */
void svg_polyline(struct svg *s, const double *x, const double *y, unsigned n,
		  const struct svg_stroke *st, const char *attrs);
/* The same, point by point, for lines computed on the way (no array):
 * begin, a point at a time (a non-finite one breaks the line), end. */
void svg_path_begin(struct svg *s, const struct svg_stroke *st, const char *attrs);
void svg_path_point(struct svg *s, double x, double y);
void svg_path_end(struct svg *s);
void svg_circle(struct svg *s, double cx, double cy, double r, const char *fill,
		const struct svg_stroke *edge, const char *attrs, const char *tip);

enum svg_anchor { SVG_START, SVG_MIDDLE, SVG_END };
struct svg_font {
	double size;
	enum svg_anchor anchor;
	bool bold;
	double rotate; /* degrees around (x, y), 0: none */
	const char *colour; /* NULL: SVG_INK */
};
void svg_text(struct svg *s, double x, double y, const struct svg_font *font, const char *text);
/* Text wrapped to at most width pixels per line (at the font's size), as
 * <tspan>s; returns the number of lines. */
unsigned svg_text_wrapped(struct svg *s, double x, double y, double width,
			  const struct svg_font *font, const char *text);
/* How many lines svg_text_wrapped makes. */
unsigned svg_wrap_lines(double width, double font_size, const char *text);

/* ---- scales, ticks and units ---- */
enum svg_scale { SVG_LINEAR, SVG_LOG };

/* Maps data values lo..hi to pixels from..to (to < from for a y axis). */
struct svg_axis {
	enum svg_scale scale;
	double lo, hi;  /* log: lo > 0 */
	double from, to;
};
/* The pixel of v; on a log axis, v <= 0 maps to from. */
double svg_axis_pos(const struct svg_axis *a, double v);

/* The step 1, 2 or 5 x 10^k that cuts span into at most max_ticks steps. */
double svg_nice_step(double span, unsigned max_ticks);
/* Multiples of that step covering [lo, hi]: lo rounded down, hi up. */
void svg_nice_range(double *lo, double *hi, unsigned max_ticks);
/* The multiples of the nice step within [lo, hi]; returns how many (<= cap). */
unsigned svg_linear_ticks(double lo, double hi, unsigned max_ticks, double *out, unsigned cap);
/* Powers of ten within [lo, hi], with 2 and 5 times them when the range
 * spans fewer than three decades; returns how many (<= cap). */
unsigned svg_log_ticks(double lo, double hi, double *out, unsigned cap);
/* [lo, hi] widened to whole decades. */
void svg_log_range(double *lo, double *hi);

/* What an axis counts, and so how its values read. */
enum svg_unit {
	SVG_PLAIN,     /* "12", "0.5" */
	SVG_NS,        /* latency in ns: "500 ns", "2 us", "1.5 ms" */
	SVG_SECONDS,   /* "0 s", "2.5 s" */
	SVG_RATE_SI,   /* bytes/s: "200 MB/s", "1.2 GB/s" (what the text output says) */
	SVG_RATE_IEC,  /* bytes/s: "512 MiB/s" */
	SVG_COUNT,     /* "950", "17.3k" (IOPS) */
	SVG_PERCENT,   /* "25 %" */
	SVG_BYTES_IEC, /* sizes: "4 KiB", "1 MiB" */
};
/* v in unit, in as few characters as it needs ("1 ms", not "1.00 ms"). */
void svg_format(char *buf, size_t len, enum svg_unit unit, double v);

/* One axis drawn: its line at `cross` (y of a bottom axis, x of a left or
 * right one), a tick and label per value in ticks, grid lines across to
 * grid_to (NaN: none) and its title. */
enum svg_side { SVG_BOTTOM, SVG_LEFT, SVG_RIGHT };
struct svg_axis_draw {
	enum svg_side side;
	double cross, grid_to;
	enum svg_unit unit;
	const char *title; /* "latency", "throughput (MB/s)" */
	const double *ticks;
	unsigned nticks;
};
void svg_axis(struct svg *s, const struct svg_axis *a, const struct svg_axis_draw *d);

#endif
