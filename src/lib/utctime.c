/* The program's one UTC parser and formatter (utctime.h): Howard Hinnant's
 * days_from_civil and civil_from_days, on integers only. */
#include "utctime.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* the last whole second int64 nanoseconds hold: 2262-04-11T23:47:16Z */
#define LAST_SECOND (INT64_MAX / UTC_NS_PER_S - 1)

const char utc_form_why[] = "not an ISO-8601 UTC time like 2026-11-30T12:00:00.123456Z";

int64_t utc_days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The inverse: the date of day z since 1970-01-01. */
static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static bool leap_year(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int64_t y, int m)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	return m == 2 && leap_year(y) ? 29 : days[m - 1];
}

/* n digits at s as a number, or -1. */
static int fixed_digits(const char *s, int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* After the seconds: [.1 to 9 digits] then Z, and nothing else. */
static int parse_tail(const char *s, int64_t *nsec, const char **why)
{
	int digits = 0;
	*nsec = 0;
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
			if (digits == 9) {
				*why = "more than 9 decimals (nanoseconds)";
				return -1;
			}
			*nsec = *nsec * 10 + (*s - '0');
		}
		if (digits == 0)
			return -1;
		for (; digits < 9; digits++)
			*nsec *= 10;
	}
	if ((*s == 'Z' || *s == 'z') && s[1] == '\0')
		return 0;
	if (*s == '+' || *s == '-')
		*why = "a UTC offset is not accepted: give the time in UTC, ending in Z (2026-11-30T12:00:00Z)";
	else if (*s == '\0')
		*why = "no time zone: give the time in UTC, ending in Z (2026-11-30T12:00:00Z)";
	return -1;
}

/* The date and time of day checked: the seconds since the epoch, or -1. */
static int64_t civil_seconds(int y, int mo, int d, int h, int mi, int sec, const char **why)
{
	if (y < 1970) {
		*why = "before 1970";
		return -1;
	}
	if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo)) {
		*why = "no such date";
		return -1;
	}
	if (sec == 60) {
		*why = "a leap second (:60): POSIX time has none";
		return -1;
	}
	if (h > 23 || mi > 59 || sec > 59) {
		*why = "no such time of day (00:00:00 to 23:59:59)";
		return -1;
	}
	int64_t secs = utc_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	if (secs > LAST_SECOND) {
		*why = "too far in the future";
		return -1;
	}
	return secs;
}

int utc_parse(const char *text, int64_t *ns, const char **why)
{
	const char *s = text;
	*why = utc_form_why;
	if (strlen(s) < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') ||
	    s[13] != ':' || s[16] != ':')
		return -1;
	int y = fixed_digits(s, 4), mo = fixed_digits(s + 5, 2), d = fixed_digits(s + 8, 2);
	int h = fixed_digits(s + 11, 2), mi = fixed_digits(s + 14, 2), sec = fixed_digits(s + 17, 2);
	if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0)
		return -1;
	int64_t nsec, secs = civil_seconds(y, mo, d, h, mi, sec, why);
	if (secs < 0 || parse_tail(s + 19, &nsec, why) != 0)
		return -1;
	*ns = secs * UTC_NS_PER_S + nsec;
	return 0;
}

void utc_format(char *buf, size_t len, int64_t ns)
{
	int64_t secs = ns / UTC_NS_PER_S - (ns % UTC_NS_PER_S < 0);
	int64_t usec = (ns - secs * UTC_NS_PER_S) / 1000;
	int64_t days = secs / 86400 - (secs % 86400 < 0), in_day = secs - days * 86400;
	int64_t y;
	int m, d;
	civil_from_days(days, &y, &m, &d);
	snprintf(buf, len, "%04lld-%02d-%02dT%02d:%02d:%02d.%06lldZ", (long long)y, m, d,
		 (int)(in_day / 3600), (int)(in_day / 60 % 60), (int)(in_day % 60), (long long)usec);
}
