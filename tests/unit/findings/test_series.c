/* The per-interval series: deltas from cumulative counters, rates, the
 * bounded array merging pairwise at its cap, summaries and the sparkline. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "series.h"

static struct series s;

static void test_deltas_and_rates(void **state)
{
	(void)state;
	series_init(&s, 1.0);
	series_add_cumulative(&s, 1.0, 100, 10);
	series_add_cumulative(&s, 2.0, 300, 30);
	series_add_cumulative(&s, 4.0, 400, 40); /* a late sample spans 2 s */
	assert_int_equal(s.n, 3);
	assert_int_equal(s.s[1].bytes, 200);
	assert_int_equal(s.s[2].ios, 10);
	assert_true(series_rate(&s, 1) == 200.0);
	assert_true(series_span(&s, 2) == 2.0);
	assert_true(series_rate(&s, 2) == 50.0);
	assert_int_equal(series_bytes_before(&s, 2), 300);
	assert_false(s.merged);
	series_trim(&s, 3.5);
	assert_int_equal(s.n, 2);
	series_trim(&s, 2.0);
	assert_int_equal(s.n, 2);
}

static void test_summary(void **state)
{
	(void)state;
	struct series_summary sum;
	series_init(&s, 1.0);
	const uint64_t per_s[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	uint64_t total = 0;
	for (unsigned i = 0; i < 8; i++)
		series_add_cumulative(&s, i + 1, total += per_s[i], i + 1);
	series_summarize(&s, 0, s.n, &sum);
	assert_int_equal(sum.n, 8);
	assert_true(sum.min == 2 && sum.max == 9 && sum.avg == 5);
	assert_true(sum.stdev > 2.138 && sum.stdev < 2.139); /* sample stdev: sqrt(32/7) */
	series_summarize(&s, 6, 100, &sum);
	assert_int_equal(sum.n, 2);
	assert_true(sum.avg == 8);
}

/* 0.1 s for 100 s (1000 raw intervals) stays within the cap, every sample
 * spanning the same time, and nothing is lost but the unfinished pair. */
static void test_merge_keeps_bytes_and_spacing(void **state)
{
	(void)state;
	series_init(&s, 0.1);
	for (unsigned i = 1; i <= 1000; i++)
		series_add_cumulative(&s, i * 0.1, i * 1000ull, i);
	assert_true(s.merged);
	assert_true(s.n <= SERIES_CAP);
	assert_int_equal(s.n, 500);
	assert_true(s.interval_s > 0.199 && s.interval_s < 0.201);
	for (unsigned i = 0; i < s.n; i++) {
		assert_int_equal(s.s[i].bytes, 2000);
		assert_int_equal(s.s[i].ios, 2);
		assert_true(series_span(&s, i) > 0.199 && series_span(&s, i) < 0.201);
	}
	/* an hour at 0.1 s: still bounded, merged again */
	for (unsigned i = 1001; i <= 36000; i++)
		series_add_cumulative(&s, i * 0.1, i * 1000ull, i);
	assert_true(s.n <= SERIES_CAP && s.n > SERIES_CAP / 2);
	assert_true(series_bytes_before(&s, s.n) + s.pending.bytes == 36000 * 1000ull);
	for (unsigned i = 0; i < s.n; i++)
		assert_true(series_span(&s, i) > s.interval_s - 0.001 &&
			    series_span(&s, i) < s.interval_s + 0.001);
}

static void test_counters_never_go_back(void **state)
{
	(void)state;
	series_init(&s, 1.0);
	series_add_cumulative(&s, 1.0, 100, 1);
	series_add_cumulative(&s, 2.0, 50, 1);
	series_add_cumulative(&s, 3.0, 150, 2);
	assert_int_equal(s.s[1].bytes, 0);
	assert_int_equal(s.s[2].bytes, 50);
}

/* Cumulative coarse counts in; each sample's p50 and p99 are those of the
 * I/Os of its own interval, whatever came before. */
static void test_interval_latency(void **state)
{
	(void)state;
	static uint64_t lat[STATS_COARSE_N];
	memset(lat, 0, sizeof(lat));
	series_init(&s, 1.0);
	lat[stats_coarse_index(100000)] += 98; /* 98 I/Os at 100 us, 2 at 5 ms */
	lat[stats_coarse_index(5000000)] += 2;
	series_add_cumulative_lat(&s, 1.0, 409600, 100, lat);
	lat[stats_coarse_index(2000000)] += 100; /* then 100 at 2 ms */
	series_add_cumulative_lat(&s, 2.0, 819200, 200, lat);
	series_add_cumulative_lat(&s, 3.0, 819200, 200, lat); /* nothing completed */
	assert_true(s.has_lat);
	assert_int_equal(s.n, 3);
	/* within 6.25 % of the true values */
	assert_in_range(s.s[0].p50_ns, 93750, 106250);
	assert_in_range(s.s[0].p99_ns, 4687500, 5312500);
	assert_in_range(s.s[1].p50_ns, 1875000, 2125000);
	assert_in_range(s.s[1].p99_ns, 1875000, 2125000);
	assert_int_equal(s.s[2].p99_ns, 0);
	/* without latencies, the samples carry none */
	series_init(&s, 1.0);
	series_add_cumulative(&s, 1.0, 100, 10);
	assert_false(s.has_lat);
	assert_int_equal(s.s[0].p50_ns, 0);
}

/* At the cap, neighbours merge: p50 by I/O-weighted mean, p99 the higher. */
static void test_interval_latency_merge(void **state)
{
	(void)state;
	static uint64_t lat[STATS_COARSE_N];
	memset(lat, 0, sizeof(lat));
	series_init(&s, 0.1);
	for (unsigned i = 1; i <= SERIES_CAP; i++) {
		lat[stats_coarse_index(i % 2 ? 1000 : 3000)] += i % 2 ? 1 : 3;
		series_add_cumulative_lat(&s, i * 0.1, i * 4096ull, 2 * i, lat);
	}
	lat[stats_coarse_index(1000)]++;
	series_add_cumulative_lat(&s, (SERIES_CAP + 1) * 0.1, 0, 0, lat);
	assert_true(s.merged);
	assert_int_equal(s.n, SERIES_CAP / 2);
	/* each merged pair: 1 I/O at ~1000 ns and 3 at ~3000 ns (ios counts are
	 * the counter's, 2 per interval: weights equal) */
	assert_in_range(s.s[0].p50_ns, 1875, 2125);
	assert_in_range(s.s[0].p99_ns, 2812, 3188);
}

static void test_sparkline(void **state)
{
	(void)state;
	char line[256];
	series_init(&s, 1.0);
	assert_int_equal(series_sparkline(&s, 10, line, sizeof(line)), 0);
	assert_string_equal(line, "");
	uint64_t total = 0;
	for (unsigned i = 0; i < 4; i++)
		series_add_cumulative(&s, i + 1, total += i < 2 ? 800 : 100, i + 1);
	assert_int_equal(series_sparkline(&s, 10, line, sizeof(line)), 4);
	assert_string_equal(line, "\u2588\u2588\u2581\u2581");
	series_add_cumulative(&s, 5, total, 5); /* a stall */
	series_add_cumulative(&s, 6, total += 500, 6);
	assert_int_equal(series_sparkline(&s, 10, line, sizeof(line)), 6);
	assert_string_equal(line, "\u2588\u2588\u2581\u2581 \u2585");
	/* more samples than characters: averaged into width characters */
	for (unsigned i = 6; i < 100; i++)
		series_add_cumulative(&s, i + 1, total += 800, i + 1);
	assert_int_equal(series_sparkline(&s, 20, line, sizeof(line)), 20);
	assert_int_equal(strlen(line), 60);
	/* a buffer too small for all: what fits, terminated */
	assert_int_equal(series_sparkline(&s, 20, line, 10), 3);
	assert_int_equal(strlen(line), 9);
}

/* Issue 22: the run's last, shorter interval is kept apart and adds up:
 * 59.2 MB in the samples against 67.1 MB in all lost the rest. */
static void test_tail_keeps_the_last_interval(void **state)
{
	(void)state;
	series_init(&s, 1.0);
	series_add_cumulative(&s, 1.0, 100, 10);
	series_add_cumulative(&s, 2.0, 300, 30);
	series_close(&s, 2.5, 360, 37); /* the run ended half an interval later */
	assert_true(s.has_tail);
	assert_int_equal(s.n, 2); /* the checks see whole intervals only */
	assert_int_equal(s.tail.bytes, 60);
	assert_int_equal(s.tail.ios, 7);
	assert_true(s.tail.t_s == 2.5);
	assert_true(series_tail_span(&s) == 0.5);
	assert_true(series_tail_rate(&s) == 120.0);
	assert_int_equal(series_bytes_before(&s, s.n) + s.tail.bytes, 360);

	/* nothing after the last sample, or no time after it: no tail */
	series_close(&s, 2.5, 300, 30);
	assert_false(s.has_tail);
	assert_true(series_tail_rate(&s) == 0.0);
	series_close(&s, 2.0, 360, 37);
	assert_false(s.has_tail);
	/* a run shorter than one interval: the tail is all of it */
	series_init(&s, 1.0);
	series_close(&s, 0.4, 40, 4);
	assert_true(s.has_tail);
	assert_int_equal(s.tail.bytes, 40);
	assert_true(series_tail_span(&s) == 0.4);
	/* a merged interval still pending (counted, not yet a sample) is in the tail */
	series_init(&s, 1.0);
	for (unsigned i = 1; i <= SERIES_CAP + 1; i++)
		series_add_cumulative(&s, (double)i, 10ull * i, i);
	assert_true(s.merged);
	uint64_t held = series_bytes_before(&s, s.n);
	series_close(&s, SERIES_CAP + 1.5, 10ull * (SERIES_CAP + 1) + 5, SERIES_CAP + 2);
	assert_true(s.has_tail);
	assert_int_equal(held + s.tail.bytes, 10ull * (SERIES_CAP + 1) + 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deltas_and_rates),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_merge_keeps_bytes_and_spacing),
		cmocka_unit_test(test_counters_never_go_back),
		cmocka_unit_test(test_sparkline),
		cmocka_unit_test(test_interval_latency),
		cmocka_unit_test(test_interval_latency_merge),
		cmocka_unit_test(test_tail_keeps_the_last_interval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
