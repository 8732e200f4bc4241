/* Building blocks for rendering a filled struct result: the result line, the
 * latency line, the histogram, the JSON test object and its pieces, the CSV
 * row; and the single-test renderers made of them, which every command uses
 * unless its row names its own (cmd.h, struct renderers).  Calls nothing
 * above it: no command, no measuring. */
#ifndef OUTPUT_H
#define OUTPUT_H

#include <stdio.h>

#include "diskbench.h"

struct json;

/* Derived figures, shared by all formats. */
double result_rate(const struct result *r);
double result_iops(const struct result *r);
/* The process's user + system CPU time over the window, per counted I/O, in
 * ns (issue 32); < 0 when the window's CPU time is unknown or nothing was
 * counted. */
double result_cpu_ns_per_io(const struct result *r);
/* Requests per submit call, measured (the mean); 0 when nothing was submitted. */
double result_requests_per_submit(const struct result *r);

/* ---- text ---- */
/* "seqread: 1073741824 bytes (…) in 0.934 s = …, … IOPS [bs=1 MiB, O_DIRECT]" */
void out_text_result_line(FILE *f, const struct result *r);
void out_text_latency_line(FILE *f, const struct stats *lat);
/* The same line under another name ("response time", "service time"). */
void out_text_latency_named(FILE *f, const char *label, const struct stats *lat);
/* output_open.c (issue 30): an open-loop run's lines, what was asked and
 * served and both latencies; JSON result.open_loop and service_lat_*
 * (nothing for a closed-loop run). */
void out_text_open_loop(FILE *f, const struct result *r);
void out_json_open_loop(struct json *j, const struct result *r);
/* "served 1,012 of the 2,000 IOPS asked; the rest waited (max lag 4.1 s)"
 * or "2,000 IOPS asked, 2,000 served": what an open-loop figure means. */
void out_open_loop_served(char *buf, size_t len, const struct result *r);
/* output_sync.c (issue 41): a run with a sync call after every N writes
 * (job files' fsync=N, fdatasync=N).  ", fdatasync after every write" and
 * the sync mode, into buf for the result line (what it wrote, at most
 * len - 1); the calls' latency line ("fdatasync latency: ..."); JSON
 * result.sync {call, every_writes, calls, per_sec}, sync_lat_ns and
 * sync_lat_hist.  The last two write nothing for any other run. */
int out_sync_words(char *buf, size_t len, const struct result *r);
void out_text_sync(FILE *f, const struct result *r);
void out_json_sync(struct json *j, const struct result *r);

/* OUT_CSV_OPEN_HEADER's columns of a row: an open loop's rate asked and
 * served (2 decimals) and I/Os never started, with lat_from "due" (its
 * lat_* are response times); a closed loop's three empty and "submit".  A
 * row without figures (measured false) leaves all four empty; one of
 * several targets (whole false) the three rates, which are the run's. */
void out_csv_open_loop(FILE *f, bool open, bool measured, bool whole, double asked,
		       double served, uint64_t unserved);
/* "cache: cold, 0.0 % resident before the run, 100.0 % after (evicted: file)",
 * if measured (output_cache.c) */
void out_text_cache_line(FILE *f, const struct result *r);
/* output_ops.c, a mix's operations (result.ops): a line per operation with
 * a share, and its trims' way ("  read:  7.0k I/Os (70.0 %), ...").  Nothing
 * when r is not a mix. */
void out_text_ops(FILE *f, const struct result *r);
/* The keys "ops" (each operation asked: ios, bytes, share, IOPS, bytes/s,
 * lat_ns, lat_hist) and "trim_engine" (when trims ran) of a mix's result. */
void out_json_ops(struct json *j, const struct result *r);
/* A zoned device's zones in the run (output_zoned.c): a text line, and
 * "zoned": {...} in the result; nothing for any other target. */
void out_text_zoned(FILE *f, const struct result *r);
void out_json_zoned(struct json *j, const struct result *r);
/* output_capacity.c (issue 42): a capacity step's line, printed as it ends. */
struct capacity_report;
struct cap_step;
void out_capacity_step(FILE *f, const struct capacity_report *rep, const struct cap_step *st);
/* A verification's tally (output_verify_tally.c, issue 42): "  verify: N blocks
 * of 1 MiB read back in 0.1 s after the writes (CRC32C by sse4.2): all
 * good", or the bad ones by kind with the first offset of each; and
 * "verify": {mode, crc, run_id, block_size, region, blocks, bytes,
 * seconds, good, bad, corrupt, misplaced, stale, unwritten, lost, first:
 * {KIND: [{offset, ...}]}, ...} in the result.  Nothing without one. */
void out_text_verify(FILE *f, const struct result *r);
/* The same line's words after "verify: ", without its end. */
void out_text_verify_body(FILE *f, const struct result_verify *v);
void out_json_verify(struct json *j, const struct result *r);
/* Several targets: a line for each, "  TARGET (DEVICE, STATE): bytes in s
 * = rate, IOPS, p50, p99"; nothing for one. */
void out_text_targets(FILE *f, const struct result *r);
/* The latency histogram as a terminal bar chart in log2 buckets. */
void out_histogram(FILE *f, const struct stats *lat);
/* The same chart from log2 counts (stats_log2_counts) of total values. */
void out_histogram_counts(FILE *f, const uint64_t counts[STATS_LOG2_BUCKETS], uint64_t total);

/* ---- JSON ---- */
/* A whole document: envelope, "test", "target", the keys body writes, then
 * "warnings", "interrupted" and "error". */
typedef void (*out_json_body_fn)(struct json *j, const struct result *r);
void out_json_document(FILE *f, const struct result *r, out_json_body_fn body);
/* The same on one line with the fleet keys after the envelope (host,
 * run_id, started_at, ended_at, launcher, clock, start_at), from r->fleet:
 * --jsonl, one record per host that `diskbench report` merges. */
void out_json_line(FILE *f, const struct result *r, out_json_body_fn body);
/* The fleet keys of one record (src/output/output_fleet.c). */
struct fleet_record;
void out_json_fleet(struct json *j, const struct fleet_record *f);
/* The schema/tool/version keys. */
void out_json_envelope(struct json *j);
/* The keys of one test, in an object the caller opened: "test", "target",
 * what body writes, "warnings", "findings", "interrupted", "error". */
void out_json_test_fields(struct json *j, const struct result *r, out_json_body_fn body);
/* One single test as an object (for documents holding several tests). */
void out_json_test(struct json *j, const struct result *r);
/* The same with "step" first: the name of a step of a command of several. */
void out_json_test_step(struct json *j, const struct result *r, const char *step);
/* "file" and, when known, "device". */
void out_json_file_device(struct json *j, const struct result *r);
/* Several targets: "targets": [{target, file, file_state, device, region,
 * threads, resident_before_pct, bytes, ios, seconds, bytes_per_sec, iops,
 * lat_ns, lat_hist}], each target's part of the result; nothing for one. */
void out_json_targets(struct json *j, const struct result *r);
/* "params"; keys flagged here are null because the command sets them per
 * part of its run rather than once. */
enum { PARAMS_NO_TIME_LIMIT = 1, PARAMS_NO_THREADS = 2, PARAMS_NO_QD = 4,
       PARAMS_NO_SIZES = 8 /* block_size, size, region: per part (matrix) */ };
void out_json_params(struct json *j, const struct result *r, unsigned flags);
/* "cache": {evicted, resident_before_pct, resident_after_pct, ...}. */
void out_json_cache(struct json *j, const struct result *r);
/* "lat_ns": {min, mean, max, stdev, p50, p90, p99, p99_9} and
 * "lat_hist": [{le_ns, count}], for every document that carries latency. */
void out_json_lat(struct json *j, const struct stats_summary *s);
void out_json_lat_named(struct json *j, const char *key, const struct stats_summary *s);
void out_json_lat_hist_named(struct json *j, const char *key,
			     const uint64_t counts[STATS_LOG2_BUCKETS]);
void out_json_lat_hist(struct json *j, const uint64_t counts[STATS_LOG2_BUCKETS]);
/* "lat_buckets": {"scheme": "log-linear-7", "pairs": [[index, count], ...]}:
 * every non-empty bucket of lat by stats_bucket_index(), in increasing
 * order, so that histograms from many hosts add up exactly. */
void out_json_lat_buckets(struct json *j, const struct stats *lat);
/* "qd_hist": {"1": n, "2-3": n, …, "64+": n}: counted requests by how many
 * were in flight when each was submitted (fio's "IO depths"). */
void out_json_qd_hist(struct json *j, const uint64_t hist[RESULT_QD_BUCKETS]);
/* result's buffer, requests_per_submit, engine, in_flight, ended, passes, wrapped */
void out_json_factors(struct json *j, const struct result *r);

/* ---- CSV ---- (several targets: out_csv writes a row per target, then
 * one for the total, whose target is "total") */
/* One field, quoted where it must be; NULL writes nothing. */
void out_csv_field(FILE *f, const char *s);
/* The header of every single-test, multi-target and quick CSV; columns are
 * only ever appended (qd and what follows came with issue 22, the
 * per-operation ones with issue 31, the open loop's with issue 39). */
#define OUT_CSV_HEADER "test,target,block_size,bytes,seconds,bytes_per_sec,iops,lat_p50_ns," \
	"lat_p99_ns,ios,threads,direct,sync,lat_min_ns,lat_mean_ns,lat_p90_ns,lat_p99_9_ns," \
	"lat_max_ns,resident_before_pct,warnings,error,qd,engine,step,verdict," \
	OUT_CSV_OPS_HEADER "," OUT_CSV_OPEN_HEADER
/* The open loop's columns, at the end of the single-test and sweep CSVs:
 * what its lat_* columns are (issue 39). */
#define OUT_CSV_OPEN_HEADER "rate_asked,rate_served,unserved_ios,lat_from"
#define OUT_CSV_OPS_HEADER \
	"read_ios,read_bytes,read_iops,read_lat_p50_ns,read_lat_p99_ns," \
	"write_ios,write_bytes,write_iops,write_lat_p50_ns,write_lat_p99_ns," \
	"trim_ios,trim_bytes,trim_iops,trim_lat_p50_ns,trim_lat_p99_ns"
/* output_csv_ops.c: OUT_CSV_OPS_HEADER's columns of a row whose figures
 * are ios, bytes, seconds and s (NULL: the row has none): a mix's
 * operations in its whole row (whole: the run's, or its targets' total) are
 * JSON's result.ops, an operation without a share empty; a test of one
 * direction fills that direction's with the row's own figures and leaves
 * the others empty.  Empty: the operation did not run (or, in one target's
 * row of a mix, is not counted apart); 0 is a figure. */
void out_csv_ops(FILE *f, const struct result *r, bool whole, uint64_t ios, uint64_t bytes,
		 double seconds, const struct stats_summary *s);
void out_csv_header(FILE *f);
void out_csv_row(FILE *f, const struct result *r);
/* The row of one step of a command of several (quick): its name and the
 * command's verdict fill the step and verdict columns (NULL: empty). */
void out_csv_step_row(FILE *f, const struct result *r, const char *step, const char *verdict);

/* ---- the single-test renderers ---- */
void out_text(FILE *f, const struct result *r, bool quiet, bool histogram);
void out_json_single_body(struct json *j, const struct result *r);
void out_json(FILE *f, const struct result *r);
/* A CSV header and the row of r. */
void out_csv(FILE *f, const struct result *r);

#endif
