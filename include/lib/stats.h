/* Latency statistics in constant memory: a log-linear histogram (exact below
 * 256 ns, then 128 buckets per power of two, so any reported percentile is
 * within 0.4 % of a value that was really seen) plus exact min, max, mean and
 * standard deviation.  Pure: no I/O, no allocation; one per thread, merged. */
#ifndef STATS_H
#define STATS_H

#include <stdint.h>

#define STATS_SUB_BITS 7
#define STATS_SUB (1u << STATS_SUB_BITS)
/* values < 2*SUB get one bucket each; then 57 groups of SUB buckets */
#define STATS_NBUCKETS ((64 - STATS_SUB_BITS) * STATS_SUB + STATS_SUB)
#define STATS_LOG2_BUCKETS 64

struct stats {
	uint64_t count;
	uint64_t min, max;
	double mean, m2; /* Welford's running mean and sum of squared deviations */
	uint64_t bucket[STATS_NBUCKETS];
};

struct stats_summary {
	uint64_t count, min, max;
	double mean, stdev;
	uint64_t p50, p90, p99, p99_9;
};

void stats_init(struct stats *s);
void stats_add(struct stats *s, uint64_t value);
/* n values equal to value at once: the same counts, min, max and buckets as
 * n stats_add calls, and the same mean and variance up to rounding (Chan's
 * combination with a group of zero variance).  n = 0 adds nothing. */
void stats_add_n(struct stats *s, uint64_t value, uint64_t n);
void stats_merge(struct stats *dst, const struct stats *src);
/* Value at percentile q (0 < q <= 100), nearest-rank; 0 when empty. */
uint64_t stats_percentile(const struct stats *s, double q);
void stats_summarize(const struct stats *s, struct stats_summary *out);
/* out[k] = number of values in [2^k, 2^(k+1)) (out[0] also counts 0). */
void stats_log2_counts(const struct stats *s, uint64_t out[STATS_LOG2_BUCKETS]);

/* A coarse histogram, for percentiles per interval of a run: 8 buckets per
 * power of two up to 2^40 ns (18 minutes; longer values share the last
 * bucket), so a value read back as its bucket's middle is within 6.25 % of
 * what was seen.  Small enough (2.4 KiB) to keep one per thread, counted on
 * the hot path and summed by the sampler. */
#define STATS_COARSE_SUB 8u
#define STATS_COARSE_OCTAVES 40u
#define STATS_COARSE_N (STATS_COARSE_SUB + (STATS_COARSE_OCTAVES - 3u) * STATS_COARSE_SUB)

unsigned stats_coarse_index(uint64_t value);
/* The middle of bucket index (its value for the small exact ones). */
uint64_t stats_coarse_mid(unsigned index);
/* Percentile q (0 < q <= 100, nearest rank) of counts[STATS_COARSE_N]; 0 when
 * empty. */
uint64_t stats_coarse_percentile(const uint64_t *counts, double q);

/* Bucket geometry, exposed for tests. */
unsigned stats_bucket_index(uint64_t value);
uint64_t stats_bucket_low(unsigned index);
uint64_t stats_bucket_width(unsigned index);

#endif
