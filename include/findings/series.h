/* Throughput over time in constant memory: a bounded array of per-interval
 * samples (bytes and I/Os moved in each interval).  When the array is full,
 * neighbours merge pairwise and later intervals are taken in pairs too, so
 * every sample spans the same time however long the run; `merged` says it
 * happened.  Pure: no I/O, no allocation. */
#ifndef SERIES_H
#define SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

#define SERIES_CAP 512

struct series_sample {
	double t_s;      /* when the interval ended, seconds since the run began */
	uint64_t bytes;  /* moved during the interval */
	uint64_t ios;
	/* latency percentiles of the I/Os completed in the interval, from a
	 * coarse histogram (stats.h: within 6.25 %); 0 when none completed or
	 * no latencies were given.  After a merge, a sample's p50 is the
	 * I/O-weighted mean of its halves' and its p99 the higher of theirs. */
	uint64_t p50_ns, p99_ns;
};

struct series {
	double interval_s;  /* what one sample spans (doubles at each merge) */
	struct series_sample s[SERIES_CAP];
	unsigned n;
	bool merged;
	/* the running state behind the samples */
	unsigned factor;            /* raw intervals per sample: 1, 2, 4, ... */
	unsigned pending_count;     /* raw intervals gathered towards the next sample */
	struct series_sample pending;
	double last_t;              /* cumulative figures at the last raw interval */
	uint64_t last_bytes, last_ios;
	bool has_lat;               /* latencies were given with the counters */
	/* what the run moved after the last whole sample, up to its end: kept
	 * apart from s[] so the checks and summaries weigh whole intervals only */
	struct series_sample tail;
	bool has_tail;
	uint64_t lat_last[STATS_COARSE_N]; /* cumulative counts when the last sample ended */
};

/* Rate figures over the samples (bytes per second). */
struct series_summary {
	unsigned n;
	double min, max, avg, stdev;
};

void series_init(struct series *s, double interval_s);
/* One raw interval ending at elapsed_s, given the cumulative bytes and I/Os
 * since the run began (what the bench sampler reports). */
void series_add_cumulative(struct series *s, double elapsed_s, uint64_t bytes, uint64_t ios);
/* The same, with the cumulative coarse latency counts (stats_coarse_index
 * buckets) of the I/Os counted so far, so each sample also gets its
 * interval's p50 and p99. */
void series_add_cumulative_lat(struct series *s, double elapsed_s, uint64_t bytes, uint64_t ios,
			       const uint64_t lat[STATS_COARSE_N]);
/* Drops the samples that ended after end_s: the run stopped during them, so
 * they are partial. */
void series_trim(struct series *s, double end_s);
/* The run ended at end_s having moved bytes and ios in all: what the
 * samples do not hold becomes the tail (none when they hold it all). */
void series_close(struct series *s, double end_s, uint64_t bytes, uint64_t ios);
/* Seconds the tail spans, and its rate in bytes per second. */
double series_tail_span(const struct series *s);
double series_tail_rate(const struct series *s);
/* Seconds sample i spans: from the end of the one before (or the start). */
double series_span(const struct series *s, unsigned i);
/* Bytes per second of sample i. */
double series_rate(const struct series *s, unsigned i);
/* I/Os per second over samples from.. to the last (0 when there are none):
 * from 1 leaves out the first interval, whose rate a limiter's budget,
 * full at the start, lets run ahead. */
double series_ios_rate(const struct series *s, unsigned from);
/* Bytes moved before sample i began. */
uint64_t series_bytes_before(const struct series *s, unsigned i);
/* min, max, mean and standard deviation of the rates of samples [from, to). */
void series_summarize(const struct series *s, unsigned from, unsigned to,
		      struct series_summary *out);
/* The rates as a line of at most width block characters (UTF-8, 3 bytes
 * each; an interval that moved nothing is a space), scaled from 0 to the
 * highest rate, each bar an eighth of it; several samples averaged per
 * character when there are more than width.  Stops at what fits in len.
 * Returns the characters written. */
unsigned series_sparkline(const struct series *s, unsigned width, char *buf, size_t len);

#endif
