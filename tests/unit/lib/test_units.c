/* Unit tests of src/lib/units.c: parsing sizes, seconds and whole numbers, and
 * printing bytes, rates, durations and exact sizes (SI and IEC never mixed). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define GiB (1ull << 30)
#define TiB (1ull << 40)

static uint64_t size_ok(const char *text)
{
	uint64_t v = 0xdeadbeef;
	const char *why = NULL;
	int rc = parse_size(text, &v, &why);
	if (rc != 0)
		print_error("parse_size(\"%s\") failed: %s\n", text, why ? why : "(null)");
	assert_int_equal(rc, 0);
	return v;
}

static void size_bad(const char *text)
{
	uint64_t v = 0x5a5a5a5a;
	const char *why = NULL;
	int rc = parse_size(text, &v, &why);
	if (rc == 0)
		print_error("parse_size(\"%s\") accepted: %llu\n", text, (unsigned long long)v);
	assert_int_equal(rc, -1);
	assert_non_null(why);
	assert_true(strlen(why) > 0);
	assert_int_equal(v, 0x5a5a5a5a); /* output untouched on failure */
}

static void test_size_plain(void **state)
{
	(void)state;
	assert_int_equal(size_ok("1"), 1);
	assert_int_equal(size_ok("512"), 512);
	assert_int_equal(size_ok("4096"), 4096);
	assert_int_equal(size_ok("1000000"), 1000000);
	assert_int_equal(size_ok("007"), 7);
	assert_int_equal(size_ok("9223372036854775807"), INT64_MAX);
}

static void test_size_iec(void **state)
{
	(void)state;
	assert_int_equal(size_ok("1k"), KiB);
	assert_int_equal(size_ok("1K"), KiB);
	assert_int_equal(size_ok("1KiB"), KiB);
	assert_int_equal(size_ok("8k"), 8 * KiB);
	assert_int_equal(size_ok("4K"), 4 * KiB);
	assert_int_equal(size_ok("1m"), MiB);
	assert_int_equal(size_ok("1M"), MiB);
	assert_int_equal(size_ok("800M"), 800 * MiB);
	assert_int_equal(size_ok("1MiB"), MiB);
	assert_int_equal(size_ok("1g"), GiB);
	assert_int_equal(size_ok("2G"), 2 * GiB);
	assert_int_equal(size_ok("1GiB"), GiB);
	assert_int_equal(size_ok("1t"), TiB);
	assert_int_equal(size_ok("3T"), 3 * TiB);
	assert_int_equal(size_ok("1TiB"), TiB);
	/* the largest T that fits in an int64: 2^23 - 1 TiB */
	assert_int_equal(size_ok("8388607T"), 8388607ull * TiB);
}

static void test_size_si(void **state)
{
	(void)state;
	assert_int_equal(size_ok("1KB"), 1000);
	assert_int_equal(size_ok("1kB"), 1000);
	assert_int_equal(size_ok("4kB"), 4000);
	assert_int_equal(size_ok("1MB"), 1000000);
	assert_int_equal(size_ok("500MB"), 500000000ull);
	assert_int_equal(size_ok("1GB"), 1000000000ull);
	assert_int_equal(size_ok("1TB"), 1000000000000ull);
	/* the two families really differ */
	assert_int_not_equal(size_ok("1MB"), size_ok("1M"));
	assert_int_not_equal(size_ok("1GB"), size_ok("1G"));
}

static void test_size_rejected(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"0", "-1", "12q", "99999999999999999999T", "", "1.5G",
		"18446744073709551615", /* > INT64_MAX */
		"18446744073709551616", /* > UINT64_MAX */
		"8388608T",             /* exactly 2^63 */
		"9223372036854775808",  /* 2^63 */
		"0k", "0M", "-8k", "k", "M", " 8k", "8k ", "8 k", "+8", "8kk", "8KIB",
		"0x10", "1e3", "8 ", "99999999999999999999", "17179869184G",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		size_bad(bad[i]);
}

static double seconds_ok(const char *text)
{
	double v = -1;
	const char *why = NULL;
	int rc = parse_seconds(text, &v, &why);
	if (rc != 0)
		print_error("parse_seconds(\"%s\") failed: %s\n", text, why ? why : "(null)");
	assert_int_equal(rc, 0);
	return v;
}

static void seconds_bad(const char *text)
{
	double v = 1234.5;
	const char *why = NULL;
	int rc = parse_seconds(text, &v, &why);
	if (rc == 0)
		print_error("parse_seconds(\"%s\") accepted: %g\n", text, v);
	assert_int_equal(rc, -1);
	assert_non_null(why);
	assert_true(strlen(why) > 0);
}

static void test_seconds(void **state)
{
	(void)state;
	assert_true(seconds_ok("0") == 0.0);
	assert_true(seconds_ok("10") == 10.0);
	assert_true(seconds_ok("2.5") == 2.5);
	assert_true(seconds_ok("2.5s") == 2.5);
	assert_true(seconds_ok("0.25") == 0.25);
	assert_true(seconds_ok(".5") == 0.5);
	assert_true(seconds_ok("3s") == 3.0);
	assert_true(seconds_ok("0s") == 0.0);

	seconds_bad("-1");
	seconds_bad("-0.5");
	seconds_bad("");
	seconds_bad("abc");
	seconds_bad("1x");
	seconds_bad("2.5ss");
	seconds_bad("s");
	seconds_bad("nan");
	seconds_bad("inf");
	seconds_bad("1e999");
	seconds_bad(" 1");
	seconds_bad("1 ");
	seconds_bad("1ms");
	/* minutes and hours (issue 22: "-t 1m" was refused); no other unit */
	assert_true(seconds_ok("1m") == 60.0);
	assert_true(seconds_ok("1.5m") == 90.0);
	assert_true(seconds_ok("2h") == 7200.0);
	assert_true(seconds_ok("0.5h") == 1800.0);
	seconds_bad("1d");
	seconds_bad("1M");
	seconds_bad("1H");
	seconds_bad("1mh");
	seconds_bad("m");
	seconds_bad("h");
	seconds_bad("9999h"); /* 36 million s: above the 1e7 s cap */
}

/* Found by tests/fuzz/fuzz_units: strtod also reads hexadecimal, so "-t 0x10"
 * ran for 16 s; seconds are decimal only. */
static void test_seconds_decimal_only(void **state)
{
	(void)state;
	seconds_bad("0x10");
	seconds_bad("0x1p4");
	seconds_bad("0X1P-2s");
	seconds_bad("0x.8");
	assert_true(seconds_ok("1e2") == 100.0);
	assert_true(seconds_ok("0.5E1s") == 5.0);
}

static uint64_t uint_ok(const char *text, uint64_t min, uint64_t max)
{
	uint64_t v = 0;
	const char *why = NULL;
	int rc = parse_uint(text, min, max, &v, &why);
	if (rc != 0)
		print_error("parse_uint(\"%s\") failed: %s\n", text, why ? why : "(null)");
	assert_int_equal(rc, 0);
	return v;
}

static void uint_bad(const char *text, uint64_t min, uint64_t max)
{
	uint64_t v = 77;
	const char *why = NULL;
	int rc = parse_uint(text, min, max, &v, &why);
	if (rc == 0)
		print_error("parse_uint(\"%s\", %llu, %llu) accepted\n", text,
			    (unsigned long long)min, (unsigned long long)max);
	assert_int_equal(rc, -1);
	assert_non_null(why);
	assert_true(strlen(why) > 0);
}

static void test_uint(void **state)
{
	(void)state;
	assert_int_equal(uint_ok("1", 1, 1024), 1);
	assert_int_equal(uint_ok("1024", 1, 1024), 1024);
	assert_int_equal(uint_ok("4", 1, 1024), 4);
	assert_int_equal(uint_ok("0", 0, 10), 0);
	assert_int_equal(uint_ok("18446744073709551615", 0, UINT64_MAX), UINT64_MAX);
	assert_int_equal(uint_ok("42", 42, 42), 42);

	uint_bad("0", 1, 1024);
	uint_bad("1025", 1, 1024);
	uint_bad("100000", 1, 1024);
	uint_bad("-1", 0, UINT64_MAX);
	uint_bad("", 0, 10);
	uint_bad("abc", 0, 10);
	uint_bad("4x", 0, 10);
	uint_bad("4 ", 0, 10);
	uint_bad(" 4", 0, 10);
	uint_bad("1.5", 0, 10);
	uint_bad("18446744073709551616", 0, UINT64_MAX);
	uint_bad("99999999999999999999999", 0, UINT64_MAX);
	uint_bad("41", 42, 42);
	uint_bad("43", 42, 42);

	/* the range message names the bounds */
	uint64_t v;
	const char *why = NULL;
	assert_int_equal(parse_uint("0", 1, 1024, &v, &why), -1);
	assert_non_null(strstr(why, "1024"));
}

#define CHECK_FMT(fn, value, expect) \
	do { \
		char buf_[64]; \
		memset(buf_, 'X', sizeof(buf_)); \
		fn(buf_, sizeof(buf_), value); \
		assert_string_equal(buf_, expect); \
	} while (0)

static void test_bytes_si(void **state)
{
	(void)state;
	CHECK_FMT(fmt_bytes_si, 0, "0 B");
	CHECK_FMT(fmt_bytes_si, 1, "1 B");
	CHECK_FMT(fmt_bytes_si, 512, "512 B");
	CHECK_FMT(fmt_bytes_si, 999, "999 B");
	CHECK_FMT(fmt_bytes_si, 1000, "1.0 kB");
	CHECK_FMT(fmt_bytes_si, 1500, "1.5 kB");
	CHECK_FMT(fmt_bytes_si, 4096, "4.1 kB");
	CHECK_FMT(fmt_bytes_si, 1048576, "1.0 MB");
	CHECK_FMT(fmt_bytes_si, 104857600, "105 MB");
	CHECK_FMT(fmt_bytes_si, 1000000000ull, "1.0 GB");
	CHECK_FMT(fmt_bytes_si, 1073741824ull, "1.1 GB");
	CHECK_FMT(fmt_bytes_si, 10737418240ull, "11 GB");
	CHECK_FMT(fmt_bytes_si, 999999999ull, "1.0 GB");
	CHECK_FMT(fmt_bytes_si, 1000000000000ull, "1.0 TB");
}

static void test_bytes_iec(void **state)
{
	(void)state;
	CHECK_FMT(fmt_bytes_iec, 0, "0 B");
	CHECK_FMT(fmt_bytes_iec, 512, "512 B");
	CHECK_FMT(fmt_bytes_iec, 1024, "1.0 KiB");
	CHECK_FMT(fmt_bytes_iec, 1536, "1.5 KiB");
	CHECK_FMT(fmt_bytes_iec, 1048576, "1.0 MiB");
	CHECK_FMT(fmt_bytes_iec, 104857600, "100 MiB");
	CHECK_FMT(fmt_bytes_iec, 1073741824ull, "1.0 GiB");
	CHECK_FMT(fmt_bytes_iec, 10737418240ull, "10 GiB");
	CHECK_FMT(fmt_bytes_iec, 1000000000ull, "954 MiB");
	CHECK_FMT(fmt_bytes_iec, 1ull << 40, "1.0 TiB");
}

static void test_rates(void **state)
{
	(void)state;
	CHECK_FMT(fmt_rate_si, 1.15e9, "1.15 GB/s");
	CHECK_FMT(fmt_rate_si, 12.8e6, "12.8 MB/s");
	CHECK_FMT(fmt_rate_si, 123.4e6, "123 MB/s");
	CHECK_FMT(fmt_rate_si, 1.0e9, "1.00 GB/s");
	CHECK_FMT(fmt_rate_si, 999.9e6, "1.00 GB/s");
	CHECK_FMT(fmt_rate_si, 512.0, "512 B/s");
	CHECK_FMT(fmt_rate_si, 2.5e3, "2.50 kB/s");
	CHECK_FMT(fmt_rate_iec, 1073741824.0, "1.00 GiB/s");
	CHECK_FMT(fmt_rate_iec, 1.15e9, "1.07 GiB/s");
	CHECK_FMT(fmt_rate_iec, 104857600.0, "100 MiB/s");
	CHECK_FMT(fmt_rate_iec, 12.5 * 1048576.0, "12.5 MiB/s");
}

/* Counts significant digits in the number at the start of s. */
static int sigfigs(const char *s)
{
	int n = 0;
	bool leading = true;
	for (; *s && *s != ' '; s++) {
		if (*s == '.')
			continue;
		if (leading && *s == '0')
			continue;
		leading = false;
		n++;
	}
	return n;
}

static void test_rate_three_sigfigs(void **state)
{
	(void)state;
	char buf[64];
	/* across many magnitudes, away from the unit boundary */
	for (double v = 1.234; v < 1e15; v *= 7.3) {
		fmt_rate_si(buf, sizeof(buf), v);
		if (sigfigs(buf) != 3)
			print_error("fmt_rate_si(%g) = \"%s\"\n", v, buf);
		assert_int_equal(sigfigs(buf), 3);
		const char *unit = strchr(buf, ' ');
		assert_non_null(unit);
		assert_null(strstr(unit, "i")); /* no IEC unit in SI output */
		fmt_rate_iec(buf, sizeof(buf), v);
		unit = strchr(buf, ' ');
		assert_non_null(unit);
		if (strcmp(unit, " B/s") != 0)
			assert_non_null(strstr(unit, "iB/s"));
	}
}

static void test_ns(void **state)
{
	(void)state;
	CHECK_FMT(fmt_ns, 0.0, "0 ns");
	CHECK_FMT(fmt_ns, 812.0, "812 ns");
	CHECK_FMT(fmt_ns, 999.0, "999 ns");
	CHECK_FMT(fmt_ns, 1000.0, "1.00 us");
	CHECK_FMT(fmt_ns, 53200.0, "53.2 us");
	CHECK_FMT(fmt_ns, 1.52e6, "1.52 ms");
	CHECK_FMT(fmt_ns, 125e6, "125 ms");
	CHECK_FMT(fmt_ns, 2.1e9, "2.10 s");
	CHECK_FMT(fmt_ns, 42e9, "42.0 s");
}

static void test_size_exact(void **state)
{
	(void)state;
	CHECK_FMT(fmt_size_exact, 1048576, "1 MiB");
	CHECK_FMT(fmt_size_exact, 8192, "8 KiB");
	CHECK_FMT(fmt_size_exact, 1000, "1000 B");
	CHECK_FMT(fmt_size_exact, 4096, "4 KiB");
	CHECK_FMT(fmt_size_exact, 512, "512 B");
	CHECK_FMT(fmt_size_exact, 1, "1 B");
	CHECK_FMT(fmt_size_exact, 1536, "1536 B");
	CHECK_FMT(fmt_size_exact, 2097152, "2 MiB");
	CHECK_FMT(fmt_size_exact, 1073741824ull, "1 GiB");
	CHECK_FMT(fmt_size_exact, 3ull << 40, "3 TiB");
	CHECK_FMT(fmt_size_exact, 1049600, "1025 KiB");
	CHECK_FMT(fmt_size_exact, 1000000, "1000000 B");
	CHECK_FMT(fmt_size_exact, 0, "0 B");
}

static void test_count(void **state)
{
	(void)state;
	CHECK_FMT(fmt_count, 950.0, "950");
	CHECK_FMT(fmt_count, 17300.0, "17.3k");
	CHECK_FMT(fmt_count, 1.2e6, "1.20M");
	CHECK_FMT(fmt_count, 999.0, "999");
	CHECK_FMT(fmt_count, 5.5, "5.50");
}

/* Round trip: what fmt_size_exact prints, parse_size reads back exactly. */
static void test_exact_round_trip(void **state)
{
	(void)state;
	static const uint64_t values[] = { 1, 512, 1000, 4096, 8192, 65536, 1048576,
					   3 * 1048576, 1073741824ull, 5ull << 40 };
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char buf[64], compact[64];
		fmt_size_exact(buf, sizeof(buf), values[i]);
		/* "8 KiB" -> "8KiB" */
		size_t n = 0;
		for (const char *p = buf; *p; p++)
			if (*p != ' ')
				compact[n++] = *p;
		compact[n] = '\0';
		if (n > 0 && compact[n - 1] == 'B' && (n < 2 || compact[n - 2] != 'i'))
			compact[n - 1] = '\0'; /* plain bytes: drop " B" */
		assert_int_equal(size_ok(compact), values[i]);
	}
}

/* MB vs MiB are never mixed: SI output has only SI units (kB, MB, GB, TB),
 * IEC output only IEC units; and the SI figure really is bytes / 10^k. */
static void test_units_never_mixed(void **state)
{
	(void)state;
	static const char *const si_units[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
	static const char *const iec_units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	char buf[64], unit[16];
	double number;
	uint64_t v = 1;
	for (int step = 0; step < 200; step++) {
		v = v * 5 / 3 + 7;
		fmt_bytes_si(buf, sizeof(buf), v);
		assert_int_equal(sscanf(buf, "%lf %15s", &number, unit), 2);
		int k = -1;
		for (int i = 0; i < 7; i++)
			if (strcmp(unit, si_units[i]) == 0)
				k = i;
		if (k < 0)
			print_error("fmt_bytes_si(%llu) = \"%s\"\n", (unsigned long long)v, buf);
		assert_true(k >= 0);
		double expect = (double)v;
		for (int i = 0; i < k; i++)
			expect /= 1000.0;
		/* two significant figures: within 5 % */
		assert_true(number > expect * 0.95 - 0.5 && number < expect * 1.05 + 0.5);

		fmt_bytes_iec(buf, sizeof(buf), v);
		assert_int_equal(sscanf(buf, "%lf %15s", &number, unit), 2);
		k = -1;
		for (int i = 0; i < 7; i++)
			if (strcmp(unit, iec_units[i]) == 0)
				k = i;
		if (k < 0)
			print_error("fmt_bytes_iec(%llu) = \"%s\"\n", (unsigned long long)v, buf);
		assert_true(k >= 0);
		expect = (double)v;
		for (int i = 0; i < k; i++)
			expect /= 1024.0;
		assert_true(number > expect * 0.95 - 0.5 && number < expect * 1.05 + 0.5);
		if (v > UINT64_MAX / 2)
			break;
	}
}

/* A small output buffer truncates but stays a terminated string. */
static void test_small_buffers(void **state)
{
	(void)state;
	char buf[4];
	fmt_bytes_si(buf, sizeof(buf), 1073741824ull);
	assert_true(strlen(buf) < sizeof(buf));
	fmt_rate_iec(buf, sizeof(buf), 1e9);
	assert_true(strlen(buf) < sizeof(buf));
	fmt_size_exact(buf, sizeof(buf), 1000000);
	assert_true(strlen(buf) < sizeof(buf));
	fmt_ns(buf, sizeof(buf), 123456789.0);
	assert_true(strlen(buf) < sizeof(buf));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_plain),
		cmocka_unit_test(test_size_iec),
		cmocka_unit_test(test_size_si),
		cmocka_unit_test(test_size_rejected),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_seconds_decimal_only),
		cmocka_unit_test(test_uint),
		cmocka_unit_test(test_bytes_si),
		cmocka_unit_test(test_bytes_iec),
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_rate_three_sigfigs),
		cmocka_unit_test(test_ns),
		cmocka_unit_test(test_size_exact),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_exact_round_trip),
		cmocka_unit_test(test_units_never_mixed),
		cmocka_unit_test(test_small_buffers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
