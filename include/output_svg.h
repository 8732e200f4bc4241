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

void out_svg(FILE *f, const struct result *r);
void out_svg_sweep(FILE *f, const struct result *r);
void out_svg_quick(FILE *f, const struct result *r);

#endif
