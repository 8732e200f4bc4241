/* Rendering of the per-interval series and the findings: the
 * single-test renderers (output.c, output_text.c, output_csv_row.c) call
 * these blocks. */
#ifndef OUTPUT_SERIES_H
#define OUTPUT_SERIES_H

#include <stdio.h>

#include "diskbench.h"

struct json;

/* "device: vda 99 % busy, 8.2k reads, 1.0 GiB" when the disks' counters
 * were read; "bw (MB/s): min 412, max 3050, avg 1820, stdev 940 (per 1 s,
 * 60 samples)" when there are two intervals or more, and on a terminal a
 * sparkline. */
void out_text_series(FILE *f, const struct result *r);
/* "series": {interval_s, t_s, bytes, ios, merged} and "device_io": [{name,
 * reads, read_bytes, ...}] (null when unread), inside "result". */
void out_json_series(struct json *j, const struct result *r);
/* "findings": [{key, figures...}], next to "warnings". */
void out_json_findings(struct json *j, const struct result *r);
/* --csv --series: a header and one row per interval. */
/* --series: one row per interval; the last, shorter one (the tail) says
 * partial=true.  Columns are only ever appended. */
#define OUT_CSV_SERIES_HEADER "test,target,t_s,bytes,ios,bytes_per_sec,iops,lat_p50_ns,lat_p99_ns,partial"
void out_csv_series(FILE *f, const struct result *r);

#endif
