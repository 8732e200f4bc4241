/* Open-loop arrival schedules (src/lib/arrivals.c): fixed ones worked out by
 * hand, Poisson ones against the exponential distribution's own moments. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "arrivals.h"

/* 3 per second from t0 = 1000: 1000, 1000 + 333333333, 1000 + 666666666,
 * 1000 + 1e9 (k x 1e9/3, truncated each time, never accumulated). */
static void test_fixed_by_hand(void **state)
{
	(void)state;
	struct arrivals a;
	arrivals_init(&a, ARRIVALS_FIXED, 3, 1000, 1, 0);
	assert_int_equal(arrivals_next(&a), 1000);
	assert_int_equal(arrivals_next(&a), 1000 + 333333333);
	assert_int_equal(arrivals_next(&a), 1000 + 666666666);
	assert_int_equal(arrivals_next(&a), 1000 + 1000000000);
}

/* 300k a second for 10 s: the 3,000,000th arrival is due at exactly 10 s
 * (no drift from adding a rounded gap 3 million times). */
static void test_fixed_no_drift(void **state)
{
	(void)state;
	struct arrivals a;
	arrivals_init(&a, ARRIVALS_FIXED, 300e3, 0, 1, 0);
	uint64_t t = 0;
	for (unsigned i = 0; i <= 3000000; i++)
		t = arrivals_next(&a);
	assert_true(t >= 10000000000ull - 1 && t <= 10000000000ull);
}

/* Poisson at 1000/s: over 200,000 gaps the mean is 1 ms within 1 % (its
 * standard error is 0.22 %), the gaps' standard deviation equals their
 * mean within 2 % (an exponential's does), and about e^-1 = 36.8 % of the
 * gaps exceed the mean. */
static void test_poisson_moments(void **state)
{
	(void)state;
	struct arrivals a;
	arrivals_init(&a, ARRIVALS_POISSON, 1000, 0, 42, 0);
	const unsigned n = 200000;
	double sum = 0, sum2 = 0;
	unsigned above = 0;
	uint64_t prev = 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t t = arrivals_next(&a);
		double gap = (double)(t - prev);
		assert_true(t >= prev);
		prev = t;
		sum += gap;
		sum2 += gap * gap;
		above += gap > 1e6;
	}
	double mean = sum / n, sd = sqrt(sum2 / n - mean * mean);
	assert_true(fabs(mean - 1e6) < 0.01 * 1e6);
	assert_true(fabs(sd - mean) < 0.02 * mean);
	assert_true(fabs((double)above / n - exp(-1)) < 0.01);
}

/* The same seed and stream give the same schedule; another stream does not. */
static void test_poisson_reproducible(void **state)
{
	(void)state;
	struct arrivals a, b, c;
	arrivals_init(&a, ARRIVALS_POISSON, 5000, 7, 9, 1);
	arrivals_init(&b, ARRIVALS_POISSON, 5000, 7, 9, 1);
	arrivals_init(&c, ARRIVALS_POISSON, 5000, 7, 9, 2);
	unsigned same = 0;
	for (unsigned i = 0; i < 100; i++) {
		uint64_t ta = arrivals_next(&a);
		assert_int_equal(ta, arrivals_next(&b));
		same += ta == arrivals_next(&c);
	}
	assert_true(same < 5);
}

/* A due time past what 64 bits of nanoseconds hold (a rate of 1e-300, before
 * --rate had a floor: the conversion was undefined and came out as "due at
 * once", so the run went flat out) is "never": UINT64_MAX, issue 44.  The
 * floor's own gap, 1000 s, is kept exactly. */
static void test_far_arrivals_saturate(void **state)
{
	(void)state;
	struct arrivals a;
	arrivals_init(&a, ARRIVALS_FIXED, 1e-300, 1000, 1, 0);
	assert_int_equal(arrivals_next(&a), 1000); /* the first is due at t0 */
	assert_true(arrivals_next(&a) == UINT64_MAX);
	assert_true(arrivals_next(&a) == UINT64_MAX);
	arrivals_init(&a, ARRIVALS_POISSON, 1e-300, 1000, 1, 0);
	assert_true(arrivals_next(&a) == UINT64_MAX);
	arrivals_init(&a, ARRIVALS_FIXED, 0.001, 1000, 1, 0);
	arrivals_next(&a);
	assert_true(arrivals_next(&a) == 1000 + 1000000000000ull);
	/* near the end of the clock: t0 + gap would wrap */
	arrivals_init(&a, ARRIVALS_FIXED, 1, UINT64_MAX - 10, 1, 0);
	assert_true(arrivals_next(&a) == UINT64_MAX - 10);
	assert_true(arrivals_next(&a) == UINT64_MAX);
}

/* Four fixed streams of one schedule at 1000 a second (250 each, every 4
 * ms) from t0 = 1000: stream i starts i ms later, so that together they
 * come every 1 ms: 1000, 1000 + 1e6, ... 1000 + 11e6 for the first three
 * of each, never two at once (in phase all four came at 1000, 1000 + 4e6,
 * ...).  The schedule's gap is 1 ms, a stream's 4 ms. */
static void test_fixed_streams_interleave(void **state)
{
	(void)state;
	struct arrivals a[4];
	uint64_t seen[12];
	for (unsigned i = 0; i < 4; i++) {
		arrivals_init(&a[i], ARRIVALS_FIXED, 250, 1000, 1, i);
		arrivals_phase(&a[i], i, 4);
		assert_true(arrivals_schedule_gap(&a[i]) == 1e6);
		assert_true(a[i].gap_ns == 4e6);
		for (unsigned k = 0; k < 3; k++)
			seen[i + 4 * k] = arrivals_next(&a[i]);
	}
	for (unsigned j = 0; j < 12; j++)
		assert_int_equal(seen[j], 1000 + (uint64_t)j * 1000000u);
}

/* Poisson streams are not moved (independent streams already merge into
 * one Poisson stream); their schedule's gap is still the rate's.  One
 * stream alone: nothing changes, its own gap is the schedule's. */
static void test_phase_poisson_and_one(void **state)
{
	(void)state;
	struct arrivals a, b;
	arrivals_init(&a, ARRIVALS_POISSON, 500, 7, 9, 3);
	arrivals_init(&b, ARRIVALS_POISSON, 500, 7, 9, 3);
	arrivals_phase(&b, 3, 4);
	assert_true(arrivals_schedule_gap(&b) == 0.5e6);
	for (unsigned i = 0; i < 50; i++)
		assert_int_equal(arrivals_next(&a), arrivals_next(&b));
	arrivals_init(&a, ARRIVALS_FIXED, 500, 7, 9, 0);
	arrivals_phase(&a, 0, 1);
	assert_true(arrivals_schedule_gap(&a) == 2e6);
	assert_int_equal(arrivals_next(&a), 7);
	assert_int_equal(arrivals_next(&a), 7 + 2000000);
}

static void test_names(void **state)
{
	(void)state;
	enum arrivals_kind k;
	assert_int_equal(arrivals_parse("fixed", &k), 0);
	assert_int_equal(k, ARRIVALS_FIXED);
	assert_int_equal(arrivals_parse("poisson", &k), 0);
	assert_int_equal(k, ARRIVALS_POISSON);
	assert_int_equal(arrivals_parse("bogus", &k), -1);
	assert_int_equal(arrivals_parse("", &k), -1);
	assert_string_equal(arrivals_name(ARRIVALS_FIXED), "fixed");
	assert_string_equal(arrivals_name(ARRIVALS_POISSON), "poisson");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed_by_hand),
		cmocka_unit_test(test_fixed_no_drift),
		cmocka_unit_test(test_poisson_moments),
		cmocka_unit_test(test_poisson_reproducible),
		cmocka_unit_test(test_far_arrivals_saturate),
		cmocka_unit_test(test_fixed_streams_interleave),
		cmocka_unit_test(test_phase_poisson_and_one),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
