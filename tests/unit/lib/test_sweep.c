/* The sweep's summary logic on synthetic tables: Orion's published grid,
 * saturation, the budget arithmetic and the option parsers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sweep.h"

/* Orion's grid (11.1): IOPS at 1..5 outstanding, mean latency in ms. */
static const double orion_iops[] = { 2302, 4398, 5450, 6006, 6210 };
static const double orion_lat_ms[] = { 0.43, 0.45, 0.55, 0.67, 0.80 };

static void add_point(struct sweep_series *s, unsigned level, double iops, double mean_ns,
		      uint64_t p99_ns)
{
	struct sweep_point *p = &s->points[s->npoints++];
	memset(p, 0, sizeof(*p));
	p->level = level;
	p->seconds = 10.0;
	p->ios = (uint64_t)(iops * p->seconds);
	p->bytes = p->ios * 8192;
	p->lat.count = p->ios;
	p->lat.mean = mean_ns;
	p->lat.p50 = (uint64_t)mean_ns;
	p->lat.p99 = p99_ns;
	p->lat.max = p99_ns * 2;
}

static void orion_series(struct sweep_series *s)
{
	memset(s, 0, sizeof(*s));
	s->bs = 8192;
	for (unsigned i = 0; i < 5; i++)
		add_point(s, i + 1, orion_iops[i], orion_lat_ms[i] * 1e6,
			  (uint64_t)(orion_lat_ms[i] * 3e6));
}

static void test_orion_grid_summary(void **state)
{
	(void)state;
	struct sweep_series s;
	orion_series(&s);
	assert_int_equal(s.points[sweep_max_iops(&s)].level, 5);
	assert_int_equal(s.points[sweep_min_latency(&s)].level, 1);
	assert_int_equal(s.points[sweep_knee(&s)].level, 3);
	/* Little's law on Orion's own grid: 5 / 0.80 ms = 6250 vs 6210 */
	assert_true(sweep_littles_outstanding(&s.points[4]) > 4.9);
	assert_true(sweep_littles_outstanding(&s.points[4]) < 5.0);
}

static void test_min_latency_not_assumed_at_one(void **state)
{
	(void)state;
	struct sweep_series s = { 0 };
	add_point(&s, 1, 1000, 300e3, 900e3);
	add_point(&s, 2, 2600, 260e3, 800e3);
	add_point(&s, 4, 4000, 400e3, 1200e3);
	assert_int_equal(s.points[sweep_min_latency(&s)].level, 2);
}

static void test_max_iops_within_latency(void **state)
{
	(void)state;
	struct sweep_series s;
	orion_series(&s); /* p99 = 3 x mean: 1.29, 1.35, 1.65, 2.01, 2.4 ms */
	int i = sweep_max_iops_within(&s, 1.7e6, 99);
	assert_int_equal(s.points[i].level, 3);
	assert_int_equal(sweep_max_iops_within(&s, 1.0e6, 99), -1);
	i = sweep_max_iops_within(&s, 0.6e6, 0); /* by mean */
	assert_int_equal(s.points[i].level, 3);
}

static void test_empty_series(void **state)
{
	(void)state;
	struct sweep_series s = { 0 };
	assert_int_equal(sweep_max_iops(&s), -1);
	assert_int_equal(sweep_knee(&s), -1);
	assert_false(sweep_saturated(&s));
}

static void test_saturation(void **state)
{
	(void)state;
	struct sweep_series s = { 0 };
	add_point(&s, 1, 10000, 100e3, 200e3);
	add_point(&s, 2, 19000, 105e3, 200e3);
	assert_false(sweep_saturated(&s));
	add_point(&s, 4, 19500, 205e3, 400e3); /* +2.6 %: one flat step only */
	assert_false(sweep_saturated(&s));
	add_point(&s, 8, 20000, 400e3, 800e3); /* +2.6 % again: saturated */
	assert_true(sweep_saturated(&s));

	struct sweep_series t = { 0 };
	add_point(&t, 1, 10000, 100e3, 200e3);
	add_point(&t, 2, 10400, 190e3, 400e3); /* +4 % */
	add_point(&t, 4, 11000, 360e3, 800e3); /* +5.8 % */
	assert_false(sweep_saturated(&t));
}

static void test_budget_fits(void **state)
{
	(void)state;
	struct sweep_plan p;
	assert_int_equal(sweep_plan_budget(60, 3, 0.5, 7, 4, &p), 0);
	assert_false(p.shortened);
	assert_int_equal(p.nsmall, 7);
	assert_int_equal(p.nlarge, 4);
	assert_true(p.point_s == 3);
}

static void test_budget_shortens_points(void **state)
{
	(void)state;
	struct sweep_plan p;
	assert_int_equal(sweep_plan_budget(20, 3, 0.5, 7, 4, &p), 0);
	assert_true(p.shortened);
	assert_int_equal(p.nsmall + p.nlarge, 11);
	assert_true(11 * (p.point_s + p.ramp_s) <= 20 + 1e-9);
	assert_true(p.point_s >= 1.0);
}

static void test_budget_drops_top_levels(void **state)
{
	(void)state;
	struct sweep_plan p;
	assert_int_equal(sweep_plan_budget(5, 3, 0.5, 7, 4, &p), 0);
	assert_true(p.nsmall >= 1 && p.nlarge >= 1);
	assert_true(p.nsmall + p.nlarge < 11);
	assert_true((p.nsmall + p.nlarge) * (p.point_s + p.ramp_s) <= 5 + 1e-9);
	assert_true(p.point_s >= 1.0);
	/* one series only: never drops below one level */
	assert_int_equal(sweep_plan_budget(2, 3, 0.5, 7, 0, &p), 0);
	assert_int_equal(p.nsmall, 1);
	assert_int_equal(p.nlarge, 0);
	/* too small for one point per series */
	assert_int_equal(sweep_plan_budget(1, 3, 0.5, 7, 4, &p), -1);
}

static void test_parse_levels(void **state)
{
	(void)state;
	unsigned levels[SWEEP_MAX_LEVELS], n;
	const char *why = NULL;
	assert_int_equal(sweep_parse_levels("1,2,4,8", 1024, levels, &n, &why), 0);
	assert_int_equal(n, 4);
	assert_int_equal(levels[3], 8);
	assert_int_equal(sweep_parse_levels("3", 1024, levels, &n, &why), 0);
	assert_int_equal(n, 1);
	const char *bad[] = { "0", "1,,2", "", "1,2,", "2,1", "1,1", "-1", "1,x", "1,2000", "1;2" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(sweep_parse_levels(bad[i], 1024, levels, &n, &why), -1);
		assert_non_null(why);
	}
}

static void test_parse_max_latency(void **state)
{
	(void)state;
	double ns, pct;
	const char *why;
	assert_int_equal(sweep_parse_max_latency("1ms", &ns, &pct, &why), 0);
	assert_true(ns == 1e6 && pct == 99);
	assert_int_equal(sweep_parse_max_latency("500us,p99.9", &ns, &pct, &why), 0);
	assert_true(ns == 500e3 && pct == 99.9);
	assert_int_equal(sweep_parse_max_latency("2ms,mean", &ns, &pct, &why), 0);
	assert_true(ns == 2e6 && pct == 0);
	const char *bad[] = { "1", "ms", "0ms", "1ms,p42", "1parsec", "-1ms", "1ms," };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(sweep_parse_max_latency(bad[i], &ns, &pct, &why), -1);
}

/* Found by tests/fuzz/fuzz_units: a value past DBL_MAX ("5E459s") or one
 * that overflows once scaled to ns ("1e308s") became an infinite limit, and
 * strtod read hexadecimal ("0x1ms"). */
static void test_parse_max_latency_finite_decimal(void **state)
{
	(void)state;
	double ns = 7, pct = 7;
	const char *why = NULL;
	const char *bad[] = { "5E459s", "1e308s", "1e400ns,p99", "0x1ms", "0X1P-2s", "0x10us,max" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(sweep_parse_max_latency(bad[i], &ns, &pct, &why), -1);
		assert_non_null(why);
	}
	assert_int_equal(sweep_parse_max_latency("1e3us", &ns, &pct, &why), 0);
	assert_true(ns == 1e6 && pct == 99);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_orion_grid_summary),
		cmocka_unit_test(test_min_latency_not_assumed_at_one),
		cmocka_unit_test(test_max_iops_within_latency),
		cmocka_unit_test(test_empty_series),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_budget_fits),
		cmocka_unit_test(test_budget_shortens_points),
		cmocka_unit_test(test_budget_drops_top_levels),
		cmocka_unit_test(test_parse_levels),
		cmocka_unit_test(test_parse_max_latency),
		cmocka_unit_test(test_parse_max_latency_finite_decimal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
