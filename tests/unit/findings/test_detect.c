/* The detectors over synthetic series: a step down (a cliff, found at its
 * interval, with burst and sustained rates), a ramp, noise, one outlier,
 * a short dip and a step up (no false alarm), and the unsteady bound; the
 * rate cap: flat rate with fast I/Os and a small slow tail, and not when
 * the rate varies, the tail is absent, or half the I/Os are slow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "detect.h"
#include "rng.h"

static struct series s;
static uint64_t total;

static void begin(void)
{
	series_init(&s, 1.0);
	total = 0;
}

/* One 1-second interval moving `rate` bytes in 4 KiB I/Os. */
static void add(double rate)
{
	total += (uint64_t)rate;
	series_add_cumulative(&s, s.last_t + 1.0, total, total / 4096);
}

/* A uniform factor in [1 - spread, 1 + spread], reproducibly. */
static double jitter(struct rng *g, double spread)
{
	double u = (double)(rng_next(g) >> 11) / 9007199254740992.0;
	return 1.0 - spread + 2 * spread * u;
}

static void test_step_is_a_cliff(void **state)
{
	(void)state;
	struct cliff c;
	struct rng g;
	rng_seed(&g, 1, 0);
	begin();
	for (unsigned i = 0; i < 60; i++)
		add((i < 14 ? 3.05e9 : 512e6) * jitter(&g, 0.05));
	assert_true(detect_cliff(&s, &c));
	assert_int_equal(c.at, 14);
	assert_true(c.at_s > 13.99 && c.at_s < 14.01);
	assert_true(c.burst_rate > 2.9e9 && c.burst_rate < 3.2e9);
	assert_true(c.sustained_rate > 480e6 && c.sustained_rate < 540e6);
	assert_true(c.at_bytes > 14 * 2.9e9 && c.at_bytes < 14 * 3.2e9);
	/* the drop explains the variation: what follows it is steady */
	double cv;
	assert_false(detect_unsteady(&s, c.at, &cv));
	assert_true(detect_unsteady(&s, 0, &cv));
}

static void test_ramp_is_not_a_cliff(void **state)
{
	(void)state;
	struct cliff c;
	begin();
	for (unsigned i = 0; i < 60; i++)
		add(1e9 - i * 1e9 / 120); /* 1 GB/s sliding to half */
	assert_false(detect_cliff(&s, &c));
}

static void test_noise_is_nothing(void **state)
{
	(void)state;
	struct cliff c;
	struct rng g;
	double cv;
	rng_seed(&g, 2, 0);
	begin();
	for (unsigned i = 0; i < 120; i++)
		add(500e6 * jitter(&g, 0.2));
	assert_false(detect_cliff(&s, &c));
	assert_false(detect_unsteady(&s, 0, &cv));
	assert_true(cv > 0.05 && cv < 0.2);
}

static void test_one_outlier_is_nothing(void **state)
{
	(void)state;
	struct cliff c;
	double cv;
	begin();
	for (unsigned i = 0; i < 30; i++)
		add(i == 20 ? 0 : 800e6);
	assert_false(detect_cliff(&s, &c));
	assert_false(detect_unsteady(&s, 0, &cv));
	/* two bad intervals in a row are still a dip, not a cliff */
	begin();
	for (unsigned i = 0; i < 30; i++)
		add(i == 20 || i == 21 ? 1e6 : 800e6);
	assert_false(detect_cliff(&s, &c));
}

static void test_recovery_is_not_a_cliff(void **state)
{
	(void)state;
	struct cliff c;
	begin();
	for (unsigned i = 0; i < 40; i++)
		add(i >= 10 && i < 16 ? 100e6 : 800e6); /* a 6 s stall, then back */
	assert_false(detect_cliff(&s, &c));
	begin();
	for (unsigned i = 0; i < 40; i++)
		add(i < 10 ? 100e6 : 800e6); /* a step up */
	assert_false(detect_cliff(&s, &c));
}

static void test_too_short_says_nothing(void **state)
{
	(void)state;
	struct cliff c;
	double cv;
	begin();
	for (unsigned i = 0; i < DETECT_MIN_SAMPLES - 1; i++)
		add(i < 3 ? 1e9 : 1e8);
	assert_false(detect_cliff(&s, &c));
	begin();
	for (unsigned i = 0; i < DETECT_UNSTEADY_MIN - 1; i++)
		add(i % 2 ? 1e9 : 1e6);
	assert_false(detect_unsteady(&s, 0, &cv));
	add(1e6);
	assert_true(detect_unsteady(&s, 0, &cv));
}

/* A slow disk sampled often: 20 I/Os per interval vary by ~22 % from
 * counting alone, which is no unsteadiness; twice that is. */
static void test_counting_noise_is_not_unsteady(void **state)
{
	(void)state;
	struct rng g;
	double cv;
	rng_seed(&g, 3, 0);
	series_init(&s, 0.1);
	uint64_t ios = 0;
	for (unsigned i = 1; i <= 200; i++) {
		/* a Poisson-like count: 40 chances of 1/2 each */
		for (unsigned k = 0; k < 40; k++)
			ios += rng_next(&g) >> 63;
		series_add_cumulative(&s, i * 0.1, ios * 4096, ios);
	}
	assert_false(detect_unsteady(&s, 0, &cv));
	assert_true(cv > 0.1);
	series_init(&s, 0.1);
	ios = 0;
	for (unsigned i = 1; i <= 200; i++) {
		ios += i % 2 ? 8 : 32;
		series_add_cumulative(&s, i * 0.1, ios * 4096, ios);
	}
	assert_true(detect_unsteady(&s, 0, &cv));
}

/* Found the same way once the series merged (0.1 s intervals, 100 s). */
static void test_cliff_after_merging(void **state)
{
	(void)state;
	struct cliff c;
	series_init(&s, 0.1);
	total = 0;
	for (unsigned i = 1; i <= 1000; i++) {
		total += i <= 700 ? 300000000 : 60000000;
		series_add_cumulative(&s, i * 0.1, total, i);
	}
	assert_true(s.merged);
	assert_true(detect_cliff(&s, &c));
	assert_true(c.at_s > 69.7 && c.at_s < 70.3);
	assert_true(c.sustained_rate > 599e6 && c.sustained_rate < 601e6);
}

/* n latencies: fast_ns but `slow` of every 1000 at slow_ns, a little spread */
static void fill_lat(struct stats *lat, unsigned n, uint64_t fast_ns, unsigned slow,
		     uint64_t slow_ns)
{
	stats_init(lat);
	for (unsigned i = 0; i < n; i++)
		stats_add(lat, (i % 1000 < slow ? slow_ns : fast_ns) + i % 7 * (fast_ns / 50));
}

static void test_rate_cap(void **state)
{
	(void)state;
	static struct stats lat;
	struct rate_cap c;
	struct rng g;
	rng_seed(&g, 3, 0);
	begin();
	for (unsigned i = 0; i < 20; i++)
		add(4096 * 1000 * jitter(&g, 0.01));
	/* 1000 IOPS from a 100 us device: 1 % wait ~90 ms for the next slice */
	fill_lat(&lat, 20000, 100000, 10, 90000000);
	assert_true(detect_rate_cap(&s, &lat, 0, &c));
	assert_true(c.cv < 0.02);
	assert_true(c.p50_ns >= 100000 && c.p50_ns <= 112000);
	assert_true(c.slow_share > 0.009 && c.slow_share < 0.011);
	assert_true(c.rate > 4096 * 990.0 && c.rate < 4096 * 1010.0);
	assert_int_equal(c.evidence, CAP_MAYBE); /* no per-interval latencies: not regular */
	assert_true(c.wait_share > 0.85);
	/* no tail: a steady device (at a rate no limit is set at) */
	begin();
	for (unsigned i = 0; i < 20; i++)
		add(4096 * 1037 * jitter(&g, 0.01));
	fill_lat(&lat, 20000, 100000, 0, 0);
	assert_false(detect_rate_cap(&s, &lat, 0, &c));
	/* half slow: a slow device, not a budget (nor a pace at a round rate) */
	fill_lat(&lat, 20000, 100000, 500, 90000000);
	assert_false(detect_rate_cap(&s, &lat, 0, &c));
	/* the same latencies with a rate that varies by 20 % */
	fill_lat(&lat, 20000, 100000, 10, 90000000);
	begin();
	for (unsigned i = 0; i < 20; i++)
		add(4096 * 1000 * jitter(&g, 0.35));
	assert_false(detect_rate_cap(&s, &lat, 0, &c));
	/* too few intervals */
	begin();
	for (unsigned i = 0; i < DETECT_MIN_SAMPLES - 1; i++)
		add(4096 * 1000);
	assert_false(detect_rate_cap(&s, &lat, 0, &c));
}

static void test_heat(void **state)
{
	(void)state;
	static struct temp_track t;
	struct heat h;
	temp_track_init(&t, "nvme0n1", 75.0, 85.0);
	for (unsigned i = 0; i < 1000; i++)  /* 40 C rising to 77 C over 1000 s */
		temp_track_add(&t, i + 1.0, 40.0 + 37.0 * i / 999.0);
	assert_true(t.n <= TEMP_CAP && t.n >= TEMP_CAP / 2);
	assert_true(t.t_s[0] == 1.0);
	for (unsigned i = 1; i < t.n; i++)  /* evenly spaced after decimation */
		assert_true(t.t_s[i] - t.t_s[i - 1] == t.stride);
	assert_true(detect_heat(&t, true, &h));
	assert_true(h.first_c == 40.0);
	assert_true(h.peak_c > 76.0 && h.peak_c <= 77.0);
	assert_true(h.limit_c == 75.0);
	/* no drop in throughput: heat alone is no warning */
	assert_false(detect_heat(&t, false, &h));
	/* a rise of 10 C below the limits: not heating */
	temp_track_init(&t, "sda", 0, 0);
	for (unsigned i = 0; i < 20; i++)
		temp_track_add(&t, i + 1.0, 35.0 + i / 2.0);
	assert_false(detect_heat(&t, true, &h));
	/* a rise of 16 C with unknown limits: heating */
	temp_track_add(&t, 21.0, 51.5);
	assert_true(detect_heat(&t, true, &h));
	assert_true(h.limit_c == 0);
	assert_true(h.peak_t_s == 21.0);
	/* hot from the first reading (at 2.5 s), cooling after: the peak is then */
	temp_track_init(&t, "nvme0n1", 75.0, 85.0);
	temp_track_add(&t, 2.5, 80.0);
	temp_track_add(&t, 3.5, 79.0);
	temp_track_add(&t, 4.5, 78.0);
	assert_true(detect_heat(&t, true, &h));
	assert_true(h.peak_c == 80.0 && h.first_c == 80.0);
	assert_true(h.peak_t_s == 2.5);
	assert_true(h.limit_c == 75.0);
}

static void test_steady(void **state)
{
	(void)state;
	struct steady c;
	struct rng g;
	rng_seed(&g, 5, 0);
	begin();
	for (unsigned i = 0; i < DETECT_STEADY_WINDOW - 1; i++)
		add(1e9);
	assert_false(detect_steady(&s, &c));  /* not enough samples */
	/* 3 GB/s falling to 500 MB/s: not steady while it falls, steady after */
	begin();
	for (unsigned i = 0; i < 12; i++)
		add(3e9 - 2.5e9 * i / 11);
	assert_false(detect_steady(&s, &c));
	assert_true(c.change < -0.5);
	for (unsigned i = 0; i < 10; i++)
		add(500e6 * jitter(&g, 0.03));
	assert_true(detect_steady(&s, &c));
	assert_true(c.rate > 480e6 && c.rate < 520e6);
	assert_true(c.burst_rate > 2.7e9);
	assert_int_equal(c.from, 12);
	assert_true(c.from_s == 12.0);
	/* a slow 20 % drift across the window is not steady */
	begin();
	for (unsigned i = 0; i < 10; i++)
		add(1e9 * (1.0 - 0.02 * i));
	assert_false(detect_steady(&s, &c));
}

/* The round figures a pace is held against: a figure at random lands near
 * one about once in thirty (counted over a decade, step 0.01 %), and one
 * figure is tested per run (IOPS under 64 KiB blocks, else bytes/s). */
static void test_round_is_rare(void **state)
{
	(void)state;
	unsigned hits = 0, n = 0;
	for (double v = 1000; v < 10000; v *= 1.0001, n++)
		hits += detect_round(v) > 0;
	double share = (double)hits / n;
	assert_true(share > 0.02 && share < 0.04);
	assert_true(detect_round(150.0) == 150);
	assert_true(detect_round(150.6) == 150);
	assert_true(detect_round(151.0) == 0);
	assert_true(detect_round(7480) == 7500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_is_rare),
		cmocka_unit_test(test_rate_cap),
		cmocka_unit_test(test_heat),
		cmocka_unit_test(test_steady),
		cmocka_unit_test(test_step_is_a_cliff),
		cmocka_unit_test(test_ramp_is_not_a_cliff),
		cmocka_unit_test(test_noise_is_nothing),
		cmocka_unit_test(test_one_outlier_is_nothing),
		cmocka_unit_test(test_recovery_is_not_a_cliff),
		cmocka_unit_test(test_too_short_says_nothing),
		cmocka_unit_test(test_cliff_after_merging),
		cmocka_unit_test(test_counting_noise_is_not_unsteady),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
