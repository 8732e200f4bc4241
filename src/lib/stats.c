#include "stats.h"

#include <math.h>
#include <string.h>

void stats_init(struct stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min = UINT64_MAX;
}

static unsigned msb64(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}

unsigned stats_bucket_index(uint64_t value)
{
	if (value < 2 * STATS_SUB)
		return (unsigned)value;
	unsigned shift = msb64(value) - STATS_SUB_BITS;
	return shift * STATS_SUB + (unsigned)(value >> shift);
}

uint64_t stats_bucket_low(unsigned index)
{
	if (index < 2 * STATS_SUB)
		return index;
	unsigned shift = index / STATS_SUB - 1;
	uint64_t mantissa = index - shift * STATS_SUB;
	return mantissa << shift;
}

uint64_t stats_bucket_width(unsigned index)
{
	if (index < 2 * STATS_SUB)
		return 1;
	return (uint64_t)1 << (index / STATS_SUB - 1);
}

void stats_add(struct stats *s, uint64_t value)
{
	stats_add_n(s, value, 1);
}

void stats_add_n(struct stats *s, uint64_t value, uint64_t n)
{
	if (n == 0)
		return;
	s->count += n;
	if (value < s->min)
		s->min = value;
	if (value > s->max)
		s->max = value;
	double delta = (double)value - s->mean;
	s->mean += delta * (double)n / (double)s->count;
	s->m2 += delta * ((double)value - s->mean) * (double)n;
	s->bucket[stats_bucket_index(value)] += n;
}

/* Chan et al.'s pairwise combination keeps mean and variance exact. */
void stats_merge(struct stats *dst, const struct stats *src)
{
	if (src->count == 0)
		return;
	if (dst->count == 0) {
		memcpy(dst, src, sizeof(*dst));
		return;
	}
	double n_a = (double)dst->count, n_b = (double)src->count, n = n_a + n_b;
	double delta = src->mean - dst->mean;
	dst->mean += delta * n_b / n;
	dst->m2 += src->m2 + delta * delta * n_a * n_b / n;
	dst->count += src->count;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (unsigned i = 0; i < STATS_NBUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

/* The midpoint of the bucket holding the rank, kept inside [min, max]. */
/* The nearest rank of percentile q among count values (1..count). */
static uint64_t rank_of(double q, uint64_t count)
{
	/* q * n / 100 in floating point can land a hair above a whole number
	 * (99.9 % of 1000 = 999.0000000000001): do not let that add a rank */
	double exact_rank = ceil(q * (double)count / 100.0 - 1e-9);
	return exact_rank < 1 ? 1 : (uint64_t)exact_rank;
}

uint64_t stats_percentile(const struct stats *s, double q)
{
	if (s->count == 0)
		return 0;
	uint64_t rank = rank_of(q, s->count);
	if (rank >= s->count)
		return s->max;
	uint64_t seen = 0;
	unsigned i = 0;
	for (; i < STATS_NBUCKETS; i++) {
		seen += s->bucket[i];
		if (seen >= rank)
			break;
	}
	uint64_t value = stats_bucket_low(i) + stats_bucket_width(i) / 2;
	if (value < s->min)
		value = s->min;
	if (value > s->max)
		value = s->max;
	return value;
}

void stats_summarize(const struct stats *s, struct stats_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->count = s->count;
	if (s->count == 0)
		return;
	out->min = s->min;
	out->max = s->max;
	out->mean = s->mean;
	out->stdev = s->count > 1 ? sqrt(s->m2 / (double)(s->count - 1)) : 0.0;
	out->p50 = stats_percentile(s, 50);
	out->p90 = stats_percentile(s, 90);
	out->p99 = stats_percentile(s, 99);
	out->p99_9 = stats_percentile(s, 99.9);
}

void stats_log2_counts(const struct stats *s, uint64_t out[STATS_LOG2_BUCKETS])
{
	memset(out, 0, sizeof(uint64_t) * STATS_LOG2_BUCKETS);
	for (unsigned i = 0; i < STATS_NBUCKETS; i++) {
		if (s->bucket[i] == 0)
			continue;
		uint64_t low = stats_bucket_low(i);
		out[low == 0 ? 0 : msb64(low)] += s->bucket[i];
	}
}

/* Values below 8 are exact; from 2^k (k >= 3) on, 8 buckets of 2^(k-3). */
unsigned stats_coarse_index(uint64_t value)
{
	if (value < STATS_COARSE_SUB)
		return (unsigned)value;
	unsigned k = msb64(value);
	if (k >= STATS_COARSE_OCTAVES)
		return STATS_COARSE_N - 1;
	unsigned sub = (unsigned)(value >> (k - 3)) & (STATS_COARSE_SUB - 1);
	return STATS_COARSE_SUB + (k - 3) * STATS_COARSE_SUB + sub;
}

uint64_t stats_coarse_mid(unsigned index)
{
	if (index < STATS_COARSE_SUB)
		return index;
	unsigned k = 3 + (index - STATS_COARSE_SUB) / STATS_COARSE_SUB;
	uint64_t sub = (index - STATS_COARSE_SUB) % STATS_COARSE_SUB;
	uint64_t width = 1ull << (k - 3);
	return (1ull << k) + sub * width + width / 2;
}

uint64_t stats_coarse_percentile(const uint64_t *counts, double q)
{
	uint64_t total = 0, seen = 0;
	for (unsigned i = 0; i < STATS_COARSE_N; i++)
		total += counts[i];
	if (total == 0)
		return 0;
	uint64_t rank = rank_of(q, total);
	for (unsigned i = 0; i < STATS_COARSE_N; i++) {
		seen += counts[i];
		if (seen >= rank)
			return stats_coarse_mid(i);
	}
	return stats_coarse_mid(STATS_COARSE_N - 1);
}
