/* --svg FILE: a result drawn as one self-contained SVG document, its charts
 * stacked top to bottom (svg_chart.h).  The single-test picture (latency
 * histogram; throughput over time with the findings that have a time) is
 * the default; sweep and quick have their own (cmd.h, struct renderers).
 * Each writes to f and leaves checking it to the caller. */
#ifndef OUTPUT_SVG_H
#define OUTPUT_SVG_H

#include <stdio.h>

#include "diskbench.h"

#define OUT_SVG_WIDTH 900.0

/* The first line a text renderer prints (print(f, arg)), for a title or a
 * description: "" when it cannot be captured. */
void out_svg_capture(char *buf, size_t len, void (*print)(FILE *, const void *), const void *arg);

void out_svg(FILE *f, const struct result *r);
/* What a picture's title names: the file or device measured, or, for a test
 * file diskbench made and removed, "a test file in TARGET" (its name is of
 * no use once it is gone). */
const char *out_svg_subject(const struct result *r, char *buf, size_t len);
void out_svg_sweep(FILE *f, const struct result *r);
void out_svg_quick(FILE *f, const struct result *r);
void out_svg_report(FILE *f, const struct result *r);
void out_svg_matrix(FILE *f, const struct result *r);
void out_svg_steady(FILE *f, const struct result *r);

#endif
