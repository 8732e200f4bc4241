/* Rendering a filled struct result as text (dd/hdparm style), one JSON
 * document, or CSV.  Measuring never happens here. */
#ifndef OUTPUT_H
#define OUTPUT_H

#include <stdio.h>

#include "diskbench.h"

/* Derived figures, shared by all formats. */
double result_rate(const struct result *r);
double result_iops(const struct result *r);

void out_text(FILE *f, const struct result *r, bool quiet, bool histogram);
void out_json(FILE *f, const struct result *r);
void out_csv_header(FILE *f);
void out_csv_row(FILE *f, const struct result *r);
/* The latency histogram as a terminal bar chart in log2 buckets. */
void out_histogram(FILE *f, const struct stats *lat);

#endif
