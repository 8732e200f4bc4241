/* Rendering a filled struct result as text (dd/hdparm style), one JSON
 * document, or CSV.  Measuring never happens here. */
#ifndef OUTPUT_H
#define OUTPUT_H

#include <stdio.h>

#include "diskbench.h"

struct json;

/* Derived figures, shared by all formats. */
double result_rate(const struct result *r);
double result_iops(const struct result *r);

void out_text(FILE *f, const struct result *r, bool quiet, bool histogram);
void out_json(FILE *f, const struct result *r);
/* A CSV header and the row(s) of r. */
void out_csv(FILE *f, const struct result *r);
/* The latency histogram as a terminal bar chart in log2 buckets. */
void out_histogram(FILE *f, const struct stats *lat);
/* The same chart from log2 counts (stats_log2_counts) of total values. */
void out_histogram_counts(FILE *f, const uint64_t counts[STATS_LOG2_BUCKETS], uint64_t total);

/* Pieces for documents holding several tests: the schema/tool/version keys,
 * and one test as an object. */
void out_json_envelope(struct json *j);
void out_json_test(struct json *j, const struct result *r);
/* "lat_ns": {min, mean, max, stdev, p50, p90, p99, p99_9} and
 * "lat_hist": [{le_ns, count}], for every document that carries latency. */
void out_json_lat(struct json *j, const struct stats_summary *s);
void out_json_lat_hist(struct json *j, const uint64_t counts[STATS_LOG2_BUCKETS]);

/* The sweep's renderers (output_sweep.c), called from the above. */
void out_sweep_text(FILE *f, const struct result *r, bool quiet, bool histogram);
void out_sweep_json(struct json *j, const struct result *r);
void out_sweep_csv(FILE *f, const struct result *r, void (*field)(FILE *, const char *));

/* info's and quick's renderers (output_quick.c). */
void out_quick_text(FILE *f, const struct result *r, bool quiet);
void out_quick_json(struct json *j, const struct result *r);
void out_info_csv(FILE *f, const struct result *r, void (*field)(FILE *, const char *));

#endif
