/* SNIA PTS steady state (src/lib/steady.c) on series whose ranges and
 * least-squares slopes are worked out by hand below. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "steady.h"

static const struct steady_limits pts = { 5, 20, 10 };

static void near(double got, double want)
{
	if (fabs(got - want) > 1e-9)
		fail_msg("%.12f, not %.12f", got, want);
}

/* Five equal rounds: range 0, slope 0. */
static void test_equal_rounds(void **state)
{
	(void)state;
	const double v[] = { 40e3, 40e3, 40e3, 40e3, 40e3 };
	struct steady_window w;
	assert_true(steady_judge(v, 5, &pts, &w));
	assert_int_equal(w.first, 1);
	assert_int_equal(w.last, 5);
	near(w.mean, 40e3);
	near(w.range_pct, 0);
	near(w.slope_pct, 0);
}

/* 100, 105, 110, 115, 120: mean 110, range 20/110 = 18.2 % (within), but
 * the line rises 5 a round, 20 across the window: 18.2 % > 10 %. */
static void test_rising(void **state)
{
	(void)state;
	const double v[] = { 100, 105, 110, 115, 120 };
	struct steady_window w;
	assert_false(steady_judge(v, 5, &pts, &w));
	near(w.range_pct, 20.0 / 110 * 100);
	near(w.slope_pct, 20.0 / 110 * 100);
	assert_false(w.steady);
}

/* 90, 110, 90, 110, 100: mean 100, range 20 % (at the limit); slope: with
 * x - 2 = -2..2 and y - 100 = -10, 10, -10, 10, 0, sxy = 20, sxx = 10,
 * slope 2 a round, 8 across: 8 % <= 10 %.  Steady at the edge. */
static void test_at_the_edge(void **state)
{
	(void)state;
	const double v[] = { 90, 110, 90, 110, 100 };
	struct steady_window w;
	assert_true(steady_judge(v, 5, &pts, &w));
	near(w.range_pct, 20);
	near(w.slope_pct, 8);
	/* a tighter excursion limit fails it on the range alone */
	const struct steady_limits tight = { 5, 19.9, 10 };
	assert_false(steady_judge(v, 5, &tight, &w));
}

/* Only the last window counts: a fall (an SLC cache running out) then
 * five steady rounds; fewer rounds than the window: not yet judged. */
static void test_window_is_the_last(void **state)
{
	(void)state;
	const double v[] = { 900, 800, 300, 101, 99, 100, 102, 98 };
	struct steady_window w;
	assert_false(steady_judge(v, 4, &pts, &w));
	assert_int_equal(w.last, 0);
	assert_false(steady_judge(v, 6, &pts, &w)); /* 800 .. 100 */
	assert_true(steady_judge(v, 8, &pts, &w));
	assert_int_equal(w.first, 4);
	assert_int_equal(w.last, 8);
	near(w.mean, 100);
	/* a window of 3: rounds 6..8 */
	const struct steady_limits three = { 3, 20, 10 };
	assert_true(steady_judge(v, 8, &three, &w));
	assert_int_equal(w.first, 6);
	/* below the least window: never judged */
	const struct steady_limits two = { 2, 20, 10 };
	assert_false(steady_judge(v, 8, &two, &w));
	/* a window of zeros (a stalled disk) is no steady state */
	const double zero[] = { 0, 0, 0, 0, 0 };
	assert_false(steady_judge(zero, 5, &pts, &w));
}

/* The band: mean +/- 10 % for an excursion of 20 %. */
static void test_outside(void **state)
{
	(void)state;
	const double v[] = { 100, 100, 100, 100, 100 };
	struct steady_window w;
	double off;
	steady_judge(v, 5, &pts, &w);
	assert_false(steady_outside(&w, &pts, 110, &off));
	near(off, 10);
	assert_false(steady_outside(&w, &pts, 90, &off));
	assert_true(steady_outside(&w, &pts, 89, &off));
	near(off, -11);
	assert_true(steady_outside(&w, &pts, 150, &off));
	near(off, 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal_rounds),
		cmocka_unit_test(test_rising),
		cmocka_unit_test(test_at_the_edge),
		cmocka_unit_test(test_window_is_the_last),
		cmocka_unit_test(test_outside),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
