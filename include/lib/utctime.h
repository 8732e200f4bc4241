/* UTC timestamps, the one parser and formatter of the program: the
 * "2026-11-30T12:00:00.123456Z" of --jsonl's started_at and ended_at, of
 * --start-at's ISO form and of messages.  Pure: no time zone, no locale, no
 * gmtime (a leaf that includes nothing of diskbench).
 *
 * Times are int64 nanoseconds since 1970-01-01T00:00:00Z in POSIX time:
 * every day has 86400 seconds, so a leap second (:60) has no value and is
 * refused; the proleptic Gregorian calendar, so 2000-02-29 exists and
 * 1900-02-29 and 2100-02-29 do not. */
#ifndef UTCTIME_H
#define UTCTIME_H

#include <stddef.h>
#include <stdint.h>

#define UTC_NS_PER_S 1000000000LL
#define UTC_LEN 32 /* "2026-11-30T12:00:00.123456Z" and its NUL, with room */

/* utc_parse's why for a text without the shape of a UTC time at all. */
extern const char utc_form_why[];
/* Days from 1970-01-01 to y-m-d (negative before), for any valid date. */
int64_t utc_days_from_civil(int64_t y, int m, int d);
/* "YYYY-MM-DDTHH:MM:SS[.fraction]Z": T and Z in either case, 1 to 9
 * decimals, 1970 to 2262 (what int64 nanoseconds hold).  0 with *ns, or -1
 * with *why (a phrase to follow the text; utc_form_why when the text does
 * not have the shape at all). */
int utc_parse(const char *text, int64_t *ns, const char **why);
/* "2026-11-30T12:00:00.123456Z": microseconds, truncated toward the past.
 * len >= UTC_LEN always suffices. */
void utc_format(char *buf, size_t len, int64_t ns);

#endif
