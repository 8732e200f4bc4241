/* utctime: the one UTC parser and formatter.  Expected epoch values are
 * computed by hand in the comments (days since 1970 × 86400 + time of day),
 * never by the code under test. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "utctime.h"

#define S UTC_NS_PER_S

static int64_t utc(const char *text)
{
	int64_t at = -1;
	const char *why = NULL;
	if (utc_parse(text, &at, &why) != 0)
		fail_msg("'%s' refused: %s", text, why);
	return at;
}

static const char *utc_error(const char *text)
{
	int64_t at = -1;
	const char *why = NULL;
	if (utc_parse(text, &at, &why) == 0)
		fail_msg("'%s' accepted as %lld", text, (long long)at);
	assert_non_null(why);
	return why;
}

static void test_days_from_civil(void **state)
{
	(void)state;
	assert_true(utc_days_from_civil(1970, 1, 1) == 0);
	assert_true(utc_days_from_civil(1969, 12, 31) == -1);
	/* 30 years of 365 days and the 7 leap days of 1972..1996 */
	assert_true(utc_days_from_civil(2000, 1, 1) == 10957);
	/* then 31 (January) and 28: 2000 is a leap year, the 29th exists */
	assert_true(utc_days_from_civil(2000, 2, 29) == 11016);
	assert_true(utc_days_from_civil(2000, 3, 1) == 11017);
	/* 130 × 365 + 32 leap days (1972..2096), + 31 + 28: 2100 is no leap year */
	assert_true(utc_days_from_civil(2100, 3, 1) == 47541);
}

static void test_known_instants(void **state)
{
	(void)state;
	assert_true(utc("1970-01-01T00:00:00Z") == 0);
	assert_true(utc("1970-01-01T00:00:00.000000001Z") == 1);
	/* 11016 days × 86400 + 12 h */
	assert_true(utc("2000-02-29T12:00:00Z") == 951825600LL * S);
	assert_true(utc("2000-02-29T23:59:59Z") == 951868799LL * S);
	/* 19782 days (54 × 365 + 13 leap days + 31 + 28) × 86400 + 86399 */
	assert_true(utc("2024-02-29T23:59:59Z") == 1709251199LL * S);
	/* 20787 days × 86400 + 12 h, with the decimals cut at none */
	assert_true(utc("2026-11-30T12:00:00Z") == 1796040000LL * S);
	assert_true(utc("2026-11-30T12:00:00.5Z") == 1796040000LL * S + 500000000);
	assert_true(utc("2026-11-30T12:00:00.123456789Z") == 1796040000LL * S + 123456789);
	/* lowercase t and z, as RFC 3339 allows */
	assert_true(utc("2026-11-30t12:00:00z") == 1796040000LL * S);
	assert_true(utc("2100-03-01T00:00:00Z") == 4107542400LL * S);
	/* INT64_MAX ns is 2262-04-11T23:47:16.854775807Z: the last whole
	 * second that keeps room for 9 decimals is 23:47:15 */
	assert_true(utc("2262-04-11T23:47:15.999999999Z") == 9223372035LL * S + 999999999);
}

static void test_errors(void **state)
{
	(void)state;
	assert_string_equal(utc_error("2026-02-29T00:00:00Z"), "no such date");
	assert_string_equal(utc_error("2100-02-29T00:00:00Z"), "no such date");
	assert_string_equal(utc_error("2026-04-31T00:00:00Z"), "no such date");
	assert_string_equal(utc_error("2026-13-01T00:00:00Z"), "no such date");
	assert_string_equal(utc_error("2026-00-01T00:00:00Z"), "no such date");
	assert_non_null(strstr(utc_error("2016-12-31T23:59:60Z"), "leap second"));
	assert_non_null(strstr(utc_error("2026-11-30T24:00:00Z"), "time of day"));
	assert_non_null(strstr(utc_error("2026-11-30T23:60:00Z"), "time of day"));
	assert_string_equal(utc_error("1969-12-31T23:59:59Z"), "before 1970");
	assert_string_equal(utc_error("2262-04-11T23:47:16Z"), "too far in the future");
	assert_string_equal(utc_error("9999-12-31T23:59:59Z"), "too far in the future");
	assert_non_null(strstr(utc_error("2026-11-30T12:00:00"), "no time zone"));
	assert_non_null(strstr(utc_error("2026-11-30T12:00:00+01:00"), "UTC offset"));
	assert_non_null(strstr(utc_error("2026-11-30T12:00:00.1234567890Z"), "9 decimals"));
	static const char *const shapeless[] = {
		"", "2026-11-30", "2026-11-30 12:00:00Z", "2026-1-30T12:00:00Z", "26-11-30T12:00:00Z",
		"2026-11-30T12:00:00.Z", "2026-11-30T12:00:00ZZ", "2026-11-30T12:0a:00Z",
	};
	for (size_t i = 0; i < sizeof(shapeless) / sizeof(shapeless[0]); i++)
		assert_ptr_equal(utc_error(shapeless[i]), utc_form_why);
}

static void test_format(void **state)
{
	(void)state;
	char buf[UTC_LEN];
	utc_format(buf, sizeof(buf), 0);
	assert_string_equal(buf, "1970-01-01T00:00:00.000000Z");
	utc_format(buf, sizeof(buf), 1796040000LL * S + 123456789);
	assert_string_equal(buf, "2026-11-30T12:00:00.123456Z"); /* truncated, not rounded */
	utc_format(buf, sizeof(buf), 951825600LL * S + 999999999);
	assert_string_equal(buf, "2000-02-29T12:00:00.999999Z");
	utc_format(buf, sizeof(buf), 4107542400LL * S - 1);
	assert_string_equal(buf, "2100-02-28T23:59:59.999999Z");
	utc_format(buf, sizeof(buf), 9223372035LL * S);
	assert_string_equal(buf, "2262-04-11T23:47:15.000000Z");
}

/* format then parse gives the instant back, to the µs, over three centuries */
static void test_round_trip(void **state)
{
	(void)state;
	char buf[UTC_LEN];
	for (int64_t t = 0; t < 9000000000LL * S; t += 86400LL * S * 397 + 1000 * 7919 + 3) {
		int64_t back;
		const char *why;
		utc_format(buf, sizeof(buf), t);
		assert_int_equal(utc_parse(buf, &back, &why), 0);
		assert_true(back == t - t % 1000);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_days_from_civil), cmocka_unit_test(test_known_instants),
		cmocka_unit_test(test_errors),          cmocka_unit_test(test_format),
		cmocka_unit_test(test_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
