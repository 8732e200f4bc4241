/* Unit tests of src/lib/stats.c: bucket geometry, exact moments, percentiles
 * against exact nearest-rank percentiles of known data, merging, log2 counts. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "stats.h"

/* ---- helpers ------------------------------------------------------------ */

static struct stats *new_stats(void)
{
	struct stats *s = malloc(sizeof(*s));
	assert_non_null(s);
	stats_init(s);
	return s;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Exact nearest-rank percentile, q given in tenths of a percent (999 =
 * 99.9 %), in integers so no rounding can move the rank:
 * rank = ceil(q/1000 * n), at least 1. */
static uint64_t exact_percentile(const uint64_t *sorted, size_t n, unsigned q_tenths)
{
	uint64_t rank = ((uint64_t)q_tenths * n + 999) / 1000;
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static double rel_err(double got, double want)
{
	if (want == 0)
		return got == 0 ? 0 : INFINITY;
	return fabs(got - want) / fabs(want);
}

/* Adds data to s, then checks min/max/mean/stdev exactly (vs a direct
 * two-pass computation) and p50/p90/p99/p99.9 within 1 %. */
static void check_against_exact(const char *name, uint64_t *data, size_t n)
{
	struct stats *s = new_stats();
	for (size_t i = 0; i < n; i++)
		stats_add(s, data[i]);

	uint64_t *sorted = malloc(n * sizeof(*sorted));
	assert_non_null(sorted);
	memcpy(sorted, data, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);

	long double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += (long double)data[i];
	long double mean = sum / (long double)n, ss = 0;
	for (size_t i = 0; i < n; i++) {
		long double d = (long double)data[i] - mean;
		ss += d * d;
	}
	double stdev = n > 1 ? (double)sqrtl(ss / (long double)(n - 1)) : 0.0;

	struct stats_summary sum_out;
	stats_summarize(s, &sum_out);
	assert_int_equal(sum_out.count, n);
	assert_int_equal(sum_out.min, sorted[0]);
	assert_int_equal(sum_out.max, sorted[n - 1]);
	assert_int_equal(s->min, sorted[0]);
	assert_int_equal(s->max, sorted[n - 1]);
	if (rel_err(sum_out.mean, (double)mean) > 1e-9) {
		print_error("%s: mean %.9g, exact %.9g\n", name, sum_out.mean, (double)mean);
		fail();
	}
	if (stdev == 0) {
		assert_true(fabs(sum_out.stdev) < 1e-6 * ((double)mean + 1));
	} else if (rel_err(sum_out.stdev, stdev) > 1e-7) {
		print_error("%s: stdev %.9g, exact %.9g\n", name, sum_out.stdev, stdev);
		fail();
	}

	static const unsigned qs[] = { 500, 900, 990, 999 };
	const uint64_t got[] = { sum_out.p50, sum_out.p90, sum_out.p99, sum_out.p99_9 };
	for (size_t k = 0; k < 4; k++) {
		uint64_t want = exact_percentile(sorted, n, qs[k]);
		uint64_t direct = stats_percentile(s, qs[k] / 10.0);
		assert_int_equal(direct, got[k]);
		if (rel_err((double)got[k], (double)want) > 0.01) {
			print_error("%s (n=%zu): p%g = %llu, exact nearest-rank %llu\n", name, n,
				    qs[k] / 10.0, (unsigned long long)got[k],
				    (unsigned long long)want);
			fail();
		}
		/* every reported percentile lies inside [min, max] */
		assert_true(got[k] >= sorted[0] && got[k] <= sorted[n - 1]);
	}
	/* other percentiles too, a sweep from 0.1 % to 100 % */
	for (unsigned q = 1; q <= 1000; q += 7) {
		uint64_t want = exact_percentile(sorted, n, q);
		uint64_t v = stats_percentile(s, q / 10.0);
		if (rel_err((double)v, (double)want) > 0.01) {
			print_error("%s (n=%zu): p%g = %llu, exact nearest-rank %llu\n", name, n,
				    q / 10.0, (unsigned long long)v, (unsigned long long)want);
			fail();
		}
	}
	uint64_t p100 = stats_percentile(s, 100);
	assert_true(p100 <= sorted[n - 1]);
	assert_true(rel_err((double)p100, (double)sorted[n - 1]) <= 0.01);
	free(sorted);
	free(s);
}

/* ---- bucket geometry ------------------------------------------------------ */

static void check_value_in_bucket(uint64_t v)
{
	unsigned i = stats_bucket_index(v);
	if (i >= STATS_NBUCKETS)
		print_error("value %llu -> index %u\n", (unsigned long long)v, i);
	assert_true(i < STATS_NBUCKETS);
	uint64_t low = stats_bucket_low(i), width = stats_bucket_width(i);
	assert_true(width >= 1);
	if (v < low || v - low >= width)
		print_error("value %llu: bucket %u is [%llu, +%llu)\n", (unsigned long long)v, i,
			    (unsigned long long)low, (unsigned long long)width);
	assert_true(v >= low);
	assert_true(v - low < width);
	/* relative width bounded: exact below 256, then 1/128 of the value */
	if (v < 2 * STATS_SUB)
		assert_int_equal(width, 1);
	else
		assert_true(width <= low / STATS_SUB);
}

static void test_bucket_special_values(void **state)
{
	(void)state;
	static const uint64_t values[] = { 0, 1, 2, 127, 128, 129, 254, 255, 256, 257, 258,
					   511, 512, 513, 1000, 1023, 1024, 4095, 4096,
					   1ull << 32, (1ull << 32) - 1, (1ull << 63) - 1,
					   1ull << 63, (1ull << 63) + 1, UINT64_MAX - 1,
					   UINT64_MAX };
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		check_value_in_bucket(values[i]);
	for (uint64_t v = 0; v < 256; v++)
		assert_int_equal(stats_bucket_index(v), v);
	assert_int_equal(stats_bucket_index(0), 0);
	assert_int_equal(stats_bucket_low(0), 0);
	assert_int_equal(stats_bucket_index(255), 255);
	assert_int_equal(stats_bucket_index(256), 256);
	assert_int_equal(stats_bucket_low(256), 256);
	assert_int_equal(stats_bucket_width(256), 2);
	assert_int_equal(stats_bucket_index(257), 256);
	assert_int_equal(stats_bucket_index(258), 257);
	assert_int_equal(stats_bucket_index(UINT64_MAX), STATS_NBUCKETS - 1);
	unsigned top = stats_bucket_index(1ull << 63);
	assert_int_equal(stats_bucket_low(top), 1ull << 63);
	assert_int_equal(stats_bucket_width(top), 1ull << 56);
}

static void test_bucket_all_indices(void **state)
{
	(void)state;
	/* every index: its low maps back to it, buckets tile the line */
	for (unsigned i = 0; i < STATS_NBUCKETS; i++) {
		uint64_t low = stats_bucket_low(i), width = stats_bucket_width(i);
		assert_int_equal(stats_bucket_index(low), i);
		uint64_t last = low + (width - 1);
		assert_true(last >= low); /* no overflow */
		assert_int_equal(stats_bucket_index(last), i);
		if (i + 1 < STATS_NBUCKETS) {
			assert_int_equal(stats_bucket_low(i + 1), low + width);
			assert_true(stats_bucket_width(i + 1) >= width);
		} else {
			assert_int_equal(last, UINT64_MAX);
		}
	}
}

static void test_bucket_monotonic(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 42, 0);
	/* a dense walk over small values ... */
	unsigned prev = 0;
	for (uint64_t v = 0; v < 200000; v++) {
		unsigned i = stats_bucket_index(v);
		assert_true(i >= prev);
		assert_true(i - prev <= 1);
		prev = i;
		check_value_in_bucket(v);
	}
	/* ... and random values at every magnitude, sorted */
	enum { N = 20000 };
	uint64_t *vals = malloc(N * sizeof(*vals));
	assert_non_null(vals);
	for (size_t k = 0; k < N; k++) {
		unsigned bits = (unsigned)rng_below(&r, 65);
		uint64_t x = rng_next(&r);
		vals[k] = bits == 64 ? x : x & ((1ull << bits) - 1);
	}
	qsort(vals, N, sizeof(*vals), cmp_u64);
	prev = 0;
	for (size_t k = 0; k < N; k++) {
		check_value_in_bucket(vals[k]);
		unsigned i = stats_bucket_index(vals[k]);
		assert_true(i >= prev);
		prev = i;
	}
	free(vals);
}

/* ---- moments and percentiles -------------------------------------------- */

static void test_empty(void **state)
{
	(void)state;
	struct stats *s = new_stats();
	struct stats_summary sum;
	memset(&sum, 0x55, sizeof(sum));
	stats_summarize(s, &sum);
	assert_int_equal(sum.count, 0);
	assert_int_equal(sum.min, 0);
	assert_int_equal(sum.max, 0);
	assert_true(sum.mean == 0.0);
	assert_true(sum.stdev == 0.0);
	assert_int_equal(sum.p50, 0);
	assert_int_equal(sum.p99_9, 0);
	assert_int_equal(stats_percentile(s, 50), 0);
	assert_int_equal(stats_percentile(s, 100), 0);
	uint64_t counts[STATS_LOG2_BUCKETS];
	stats_log2_counts(s, counts);
	for (unsigned k = 0; k < STATS_LOG2_BUCKETS; k++)
		assert_int_equal(counts[k], 0);
	/* merging empties changes nothing */
	struct stats *t = new_stats();
	stats_merge(t, s);
	assert_int_equal(t->count, 0);
	assert_int_equal(t->min, s->min);
	free(t);
	free(s);
}

static void test_single_sample(void **state)
{
	(void)state;
	uint64_t one[] = { 123456 };
	check_against_exact("single", one, 1);
	struct stats *s = new_stats();
	stats_add(s, 123456);
	struct stats_summary sum;
	stats_summarize(s, &sum);
	assert_int_equal(sum.p50, 123456);
	assert_int_equal(sum.p99_9, 123456);
	assert_int_equal(sum.min, 123456);
	assert_int_equal(sum.max, 123456);
	assert_true(sum.mean == 123456.0);
	assert_true(sum.stdev == 0.0);
	free(s);

	uint64_t zero[] = { 0 };
	check_against_exact("single zero", zero, 1);
}

static void test_constant(void **state)
{
	(void)state;
	enum { N = 5000 };
	static uint64_t data[N];
	for (size_t i = 0; i < N; i++)
		data[i] = 987654;
	check_against_exact("constant", data, N);
	for (size_t i = 0; i < N; i++)
		data[i] = 7;
	check_against_exact("constant small", data, N);
}

static void test_small_exact(void **state)
{
	(void)state;
	/* below 256 the histogram is exact: percentiles must equal exactly */
	uint64_t data[100];
	for (size_t i = 0; i < 100; i++)
		data[i] = (i * 37) % 100 + 1; /* a permutation of 1..100 */
	struct stats *s = new_stats();
	for (size_t i = 0; i < 100; i++)
		stats_add(s, data[i]);
	assert_int_equal(stats_percentile(s, 50), 50);
	assert_int_equal(stats_percentile(s, 90), 90);
	assert_int_equal(stats_percentile(s, 99), 99);
	assert_int_equal(stats_percentile(s, 99.9), 100);
	assert_int_equal(stats_percentile(s, 100), 100);
	assert_int_equal(stats_percentile(s, 0.5), 1);
	assert_int_equal(stats_percentile(s, 1), 1);
	assert_int_equal(stats_percentile(s, 1.5), 2);
	free(s);
	check_against_exact("1..100", data, 100);
}

static void test_uniform(void **state)
{
	(void)state;
	enum { N = 100000 };
	uint64_t *data = malloc(N * sizeof(*data));
	assert_non_null(data);
	struct rng r;
	rng_seed(&r, 1, 2);
	for (size_t i = 0; i < N; i++)
		data[i] = 1000 + rng_below(&r, 1000000);
	check_against_exact("uniform", data, N);
	/* odd sizes: rank rounding */
	check_against_exact("uniform 7", data, 7);
	check_against_exact("uniform 1001", data, 1001);
	check_against_exact("uniform 12345", data, 12345);
	free(data);
}

static void test_exponential(void **state)
{
	(void)state;
	enum { N = 100000 };
	uint64_t *data = malloc(N * sizeof(*data));
	assert_non_null(data);
	struct rng r;
	rng_seed(&r, 3, 4);
	for (size_t i = 0; i < N; i++) {
		double u = ((double)(rng_next(&r) >> 11) + 0.5) / 9007199254740992.0;
		data[i] = 20000 + (uint64_t)(-log(u) * 80000.0);
	}
	check_against_exact("exponential", data, N);
	free(data);
}

static void test_bimodal(void **state)
{
	(void)state;
	enum { N = 50000 };
	uint64_t *data = malloc(N * sizeof(*data));
	assert_non_null(data);
	struct rng r;
	rng_seed(&r, 5, 6);
	for (size_t i = 0; i < N; i++) {
		if (rng_below(&r, 100) < 93)
			data[i] = 50000 + rng_below(&r, 5000); /* ~50 us */
		else
			data[i] = 5000000 + rng_below(&r, 2000000); /* ~5-7 ms */
	}
	check_against_exact("bimodal", data, N);
	/* huge values near the top of the range */
	for (size_t i = 0; i < N; i++)
		data[i] = (i % 2) ? UINT64_MAX - rng_below(&r, 1000) : (1ull << 62) + rng_next(&r) % (1ull << 40);
	check_against_exact("huge", data, N);
	free(data);
}

/* Nearest-rank at 99.9 %: of 1000 samples, the 999th.  With 999 fast I/Os
 * and one slow outlier, p99.9 is the fast value, not the outlier. */
static void test_p999_rank(void **state)
{
	(void)state;
	static const size_t sizes[] = { 1000, 2000, 10000 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k], outliers = n / 1000; /* exactly the top 0.1 % */
		struct stats *s = new_stats();
		for (size_t i = 0; i < n - outliers; i++)
			stats_add(s, 100000);
		for (size_t i = 0; i < outliers; i++)
			stats_add(s, 90000000);
		uint64_t p = stats_percentile(s, 99.9);
		free(s);
		if (rel_err((double)p, 100000.0) > 0.01)
			print_error("n=%zu, %zu outliers: p99.9 = %llu, nearest-rank 100000\n", n,
				    outliers, (unsigned long long)p);
		assert_true(rel_err((double)p, 100000.0) <= 0.01);
	}
}

/* ---- merging -------------------------------------------------------------- */

static void test_merge_equals_union(void **state)
{
	(void)state;
	enum { N = 60000, PARTS = 7 };
	uint64_t *data = malloc(N * sizeof(*data));
	assert_non_null(data);
	struct rng r;
	rng_seed(&r, 7, 8);
	for (size_t i = 0; i < N; i++) {
		/* each part its own distribution, so means differ */
		size_t part = i * PARTS / N;
		data[i] = (part + 1) * 10000 + rng_below(&r, 5000 * (part + 1));
	}
	struct stats *all = new_stats();
	struct stats *parts[PARTS];
	for (size_t p = 0; p < PARTS; p++)
		parts[p] = new_stats();
	for (size_t i = 0; i < N; i++) {
		stats_add(all, data[i]);
		stats_add(parts[i * PARTS / N], data[i]);
	}
	struct stats *merged = new_stats();
	struct stats *empty = new_stats();
	stats_merge(merged, empty); /* empty first: no effect */
	for (size_t p = 0; p < PARTS; p++)
		stats_merge(merged, parts[p]);
	stats_merge(merged, empty);

	assert_int_equal(merged->count, all->count);
	assert_int_equal(merged->min, all->min);
	assert_int_equal(merged->max, all->max);
	assert_memory_equal(merged->bucket, all->bucket, sizeof(all->bucket));
	assert_true(rel_err(merged->mean, all->mean) <= 1e-9);
	struct stats_summary a, m;
	stats_summarize(all, &a);
	stats_summarize(merged, &m);
	assert_true(rel_err(m.stdev, a.stdev) <= 1e-9);
	assert_int_equal(m.p50, a.p50);
	assert_int_equal(m.p90, a.p90);
	assert_int_equal(m.p99, a.p99);
	assert_int_equal(m.p99_9, a.p99_9);

	/* merging in the other order, and into a non-empty one, is the same */
	struct stats *rev = new_stats();
	for (size_t p = PARTS; p-- > 0;)
		stats_merge(rev, parts[p]);
	assert_memory_equal(rev->bucket, all->bucket, sizeof(all->bucket));
	assert_int_equal(rev->min, all->min);
	assert_int_equal(rev->max, all->max);
	assert_true(rel_err(rev->mean, all->mean) <= 1e-9);
	assert_true(rel_err(sqrt(rev->m2 / (double)(rev->count - 1)), a.stdev) <= 1e-9);

	for (size_t p = 0; p < PARTS; p++)
		free(parts[p]);
	free(rev);
	free(empty);
	free(merged);
	free(all);
	free(data);
}

static void test_merge_uneven(void **state)
{
	(void)state;
	/* one sample into many, many into one, one into one */
	struct stats *a = new_stats(), *b = new_stats(), *u = new_stats();
	for (uint64_t v = 1000; v < 3000; v++) {
		stats_add(a, v);
		stats_add(u, v);
	}
	stats_add(b, 5000000);
	stats_add(u, 5000000);
	stats_merge(a, b);
	assert_int_equal(a->count, u->count);
	assert_int_equal(a->max, 5000000);
	assert_int_equal(a->min, 1000);
	assert_memory_equal(a->bucket, u->bucket, sizeof(u->bucket));
	assert_true(rel_err(a->mean, u->mean) <= 1e-9);
	assert_true(rel_err(a->m2, u->m2) <= 1e-9);
	free(a);
	free(b);
	free(u);
}

/* n equal values at once (the timed loop's completions that share their
 * submit and reap timestamps) against one by one; n = 1 is stats_add. */
static void test_add_n(void **state)
{
	(void)state;
	struct stats *one = new_stats(), *many = new_stats(), *single = new_stats();
	struct rng r;
	rng_seed(&r, 3, 4);
	for (unsigned i = 0; i < 5000; i++) {
		uint64_t v = 20000 + rng_below(&r, 900000), n = rng_below(&r, 40);
		for (uint64_t k = 0; k < n; k++)
			stats_add(one, v);
		stats_add_n(many, v, n);
		stats_add(single, v);
		stats_add_n(single, v, 0);
	}
	assert_int_equal(many->count, one->count);
	assert_int_equal(many->min, one->min);
	assert_int_equal(many->max, one->max);
	assert_memory_equal(many->bucket, one->bucket, sizeof(one->bucket));
	assert_true(rel_err(many->mean, one->mean) <= 1e-9);
	assert_true(rel_err(many->m2, one->m2) <= 1e-9);
	struct stats *ref = new_stats();
	rng_seed(&r, 3, 4);
	for (unsigned i = 0; i < 5000; i++) {
		uint64_t v = 20000 + rng_below(&r, 900000);
		rng_below(&r, 40);
		stats_add_n(ref, v, 1);
	}
	assert_memory_equal(ref, single, sizeof(*ref)); /* bit for bit */
	free(one);
	free(many);
	free(single);
	free(ref);
}

/* ---- log2 counts ------------------------------------------------------- */

/* The coarse histogram: exact below 8, every value within 6.25 % of its
 * bucket's middle, indices increasing with the value, the last bucket
 * taking everything from 2^40 ns on. */
static void test_coarse(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 8; v++)
		assert_int_equal(stats_coarse_mid(stats_coarse_index(v)), v);
	unsigned last = 0;
	for (uint64_t v = 8; v < (1ull << 41); v = v + v / 7 + 1) {
		unsigned i = stats_coarse_index(v);
		assert_true(i < STATS_COARSE_N);
		assert_true(i >= last);
		last = i;
		if (v < (1ull << 40)) {
			double mid = (double)stats_coarse_mid(i);
			assert_true(fabs(mid - (double)v) <= 0.0625 * (double)v + 0.5);
		}
	}
	assert_int_equal(stats_coarse_index(UINT64_MAX), STATS_COARSE_N - 1);
	uint64_t counts[STATS_COARSE_N] = { 0 };
	assert_int_equal(stats_coarse_percentile(counts, 50), 0);
	counts[stats_coarse_index(1000)] = 90;
	counts[stats_coarse_index(64000)] = 10;
	assert_int_equal(stats_coarse_percentile(counts, 90), stats_coarse_mid(stats_coarse_index(1000)));
	assert_int_equal(stats_coarse_percentile(counts, 91), stats_coarse_mid(stats_coarse_index(64000)));
}

static void test_log2_counts(void **state)
{
	(void)state;
	struct stats *s = new_stats();
	/* 0 and 1 go to bucket 0; then 2^k - 1, 2^k and 2^k + 1 for every k */
	stats_add(s, 0);
	stats_add(s, 1);
	uint64_t expect[STATS_LOG2_BUCKETS] = { 0 };
	expect[0] = 2;
	for (unsigned k = 1; k < 64; k++) {
		uint64_t p = 1ull << k;
		stats_add(s, p - 1); /* in [2^(k-1), 2^k) */
		expect[k - 1]++;
		stats_add(s, p);
		expect[k]++;
		stats_add(s, p + 1);
		expect[k]++;
	}
	stats_add(s, UINT64_MAX);
	expect[63]++;
	uint64_t counts[STATS_LOG2_BUCKETS], total = 0;
	stats_log2_counts(s, counts);
	for (unsigned k = 0; k < STATS_LOG2_BUCKETS; k++) {
		if (counts[k] != expect[k])
			print_error("log2 bucket %u: %llu, expected %llu\n", k,
				    (unsigned long long)counts[k], (unsigned long long)expect[k]);
		assert_int_equal(counts[k], expect[k]);
		total += counts[k];
	}
	assert_int_equal(total, s->count);
	free(s);

	/* random data: sum equals count, and each value's bucket matches */
	s = new_stats();
	struct rng r;
	rng_seed(&r, 9, 10);
	uint64_t direct[STATS_LOG2_BUCKETS] = { 0 };
	for (int i = 0; i < 50000; i++) {
		unsigned bits = 1 + (unsigned)rng_below(&r, 40);
		uint64_t v = rng_next(&r) & ((1ull << bits) - 1);
		stats_add(s, v);
		direct[v < 2 ? 0 : 63 - __builtin_clzll(v)]++;
	}
	stats_log2_counts(s, counts);
	total = 0;
	for (unsigned k = 0; k < STATS_LOG2_BUCKETS; k++) {
		assert_int_equal(counts[k], direct[k]);
		total += counts[k];
	}
	assert_int_equal(total, s->count);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_special_values),
		cmocka_unit_test(test_bucket_all_indices),
		cmocka_unit_test(test_bucket_monotonic),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_single_sample),
		cmocka_unit_test(test_constant),
		cmocka_unit_test(test_small_exact),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_exponential),
		cmocka_unit_test(test_bimodal),
		cmocka_unit_test(test_p999_rank),
		cmocka_unit_test(test_merge_equals_union),
		cmocka_unit_test(test_merge_uneven),
		cmocka_unit_test(test_add_n),
		cmocka_unit_test(test_log2_counts),
		cmocka_unit_test(test_coarse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
