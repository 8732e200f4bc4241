#define _POSIX_C_SOURCE 200809L
#include "fleet.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "platform.h"

#define NS_PER_S 1000000000LL
/* the last whole second int64 nanoseconds hold (in 2262) */
#define LAST_SECOND (INT64_MAX / NS_PER_S - 1)
/* the wait sleeps in steps, so a signal delivered to a worker thread (which
 * does not interrupt this thread's sleep) still ends it within a step */
#define WAIT_STEP_NS 100000000LL

const char *const fleet_launcher_names[FLEET_LAUNCHER_VARS] = {
	"SLURM_JOB_ID", "SLURM_PROCID", "SLURMD_NODENAME",
	"JOB_COMPLETION_INDEX", "OMPI_COMM_WORLD_RANK", "PMI_RANK",
};

static const char too_far[] = "too far in the future";
static const char forms[] = "use epoch seconds (1764504000), an ISO-8601 UTC time "
			    "(2026-11-30T12:00:00Z) or +SECONDS from now";

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The digits after a decimal point as nanoseconds; *end just after. */
static int parse_fraction(const char *s, int64_t *nsec, const char **end, const char **why)
{
	int64_t frac = 0;
	int digits = 0;
	if (!is_digit(*s))
		return -1;
	for (; is_digit(*s); s++, digits++) {
		if (digits == 9) {
			*why = "more than 9 decimals (nanoseconds)";
			return -1;
		}
		frac = frac * 10 + (*s - '0');
	}
	for (; digits < 9; digits++)
		frac *= 10;
	*nsec = frac;
	*end = s;
	return 0;
}

/* digits[.digits] into whole seconds and nanoseconds; *end just after. */
static int parse_decimal(const char *s, int64_t *sec, int64_t *nsec, const char **end,
			 const char **why)
{
	int64_t whole = 0;
	if (!is_digit(*s))
		return -1;
	for (; is_digit(*s); s++) {
		whole = whole * 10 + (*s - '0');
		if (whole > LAST_SECOND) {
			*why = too_far;
			return -1;
		}
	}
	*sec = whole;
	*nsec = 0;
	*end = s;
	return *s == '.' ? parse_fraction(s + 1, nsec, end, why) : 0;
}

/* n digits at s as a number, or -1. */
static int fixed_digits(const char *s, int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static bool leap_year(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int days_in_month(int y, int m)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	return m == 2 && leap_year(y) ? 29 : days[m - 1];
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (the
 * civil-from-days inverse of H. Hinnant's date algorithms); timegm(3) is
 * not in POSIX. */
static int64_t days_from_civil(int y, int m, int d)
{
	y -= m <= 2;
	int era = (y >= 0 ? y : y - 399) / 400;
	int yoe = y - era * 400;
	int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (int64_t)era * 146097 + doe - 719468;
}

/* The part after the seconds: an optional fraction, then Z. */
static int parse_utc_tail(const char *s, int64_t *nsec, const char **why)
{
	*nsec = 0;
	if (*s == '.' && parse_fraction(s + 1, nsec, &s, why) != 0)
		return -1;
	if ((*s == 'Z' || *s == 'z') && s[1] == '\0')
		return 0;
	if (*s == '+' || *s == '-')
		*why = "a UTC offset is not accepted: give the time in UTC, ending in Z "
		       "(2026-11-30T12:00:00Z)";
	else if (*s == '\0')
		*why = "no time zone: give the time in UTC, ending in Z (2026-11-30T12:00:00Z)";
	return -1;
}

int fleet_parse_utc(const char *text, int64_t *at_ns, const char **why)
{
	const char *s = text;
	*why = forms;
	if (strlen(s) < 19 || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') ||
	    s[13] != ':' || s[16] != ':')
		return -1;
	int y = fixed_digits(s, 4), mo = fixed_digits(s + 5, 2), d = fixed_digits(s + 8, 2);
	int h = fixed_digits(s + 11, 2), mi = fixed_digits(s + 14, 2), sec = fixed_digits(s + 17, 2);
	if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0)
		return -1;
	if (y < 1970) {
		*why = "before 1970";
		return -1;
	}
	if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo)) {
		*why = "no such date";
		return -1;
	}
	if (h > 23 || mi > 59 || sec > 59) {
		*why = "no such time of day (00:00:00 to 23:59:59)";
		return -1;
	}
	int64_t nsec;
	if (parse_utc_tail(s + 19, &nsec, why) != 0)
		return -1;
	int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	if (secs > LAST_SECOND) {
		*why = too_far;
		return -1;
	}
	*at_ns = secs * NS_PER_S + nsec;
	return 0;
}

/* "+N": N seconds after now, rounded up to a whole second. */
static int parse_relative(const char *s, int64_t now_ns, int64_t *at_ns, const char **why)
{
	int64_t sec, nsec;
	const char *end;
	if (parse_decimal(s, &sec, &nsec, &end, why) != 0 || *end != '\0')
		return -1;
	if (sec > FLEET_MAX_AHEAD_S) {
		*why = "more than 24 hours from now (diskbench waits at most a day)";
		return -1;
	}
	int64_t at = now_ns + sec * NS_PER_S + nsec;
	*at_ns = (at + NS_PER_S - 1) / NS_PER_S * NS_PER_S;
	return 0;
}

int fleet_parse_start_at(const char *text, int64_t now_ns, int64_t *at_ns, const char **why)
{
	int64_t at = 0, sec, nsec;
	const char *end;
	int rc;
	*why = forms;
	if (text[0] == '+') {
		rc = parse_relative(text + 1, now_ns, &at, why);
	} else if (strlen(text) > 4 && text[4] == '-') {
		rc = fleet_parse_utc(text, &at, why);
	} else {
		rc = parse_decimal(text, &sec, &nsec, &end, why) == 0 && *end == '\0' ? 0 : -1;
		at = rc == 0 ? sec * NS_PER_S + nsec : 0;
	}
	if (rc != 0)
		return -1;
	if (at - now_ns > (int64_t)FLEET_MAX_AHEAD_S * NS_PER_S) {
		*why = "more than 24 hours from now (diskbench waits at most a day)";
		return -1;
	}
	*at_ns = at;
	return 0;
}

void fleet_format_utc(char *buf, size_t len, int64_t ns)
{
	time_t sec = (time_t)(ns / NS_PER_S - (ns % NS_PER_S < 0));
	long usec = (long)((ns - (int64_t)sec * NS_PER_S) / 1000);
	struct tm tm;
	if (!gmtime_r(&sec, &tm)) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, usec);
}

static const char *env_value(fleet_getenv_fn get, const char *name)
{
	const char *v = get(name);
	return v && v[0] ? v : NULL;
}

/* "at-1764504000", or "at-1764504000.25": the instant, without trailing zeros. */
static void start_run_id(char *buf, size_t len, int64_t at_ns)
{
	int64_t sec = at_ns / NS_PER_S, frac = at_ns % NS_PER_S;
	if (frac == 0) {
		snprintf(buf, len, "at-%lld", (long long)sec);
		return;
	}
	int digits = 9;
	for (; frac % 10 == 0; frac /= 10)
		digits--;
	snprintf(buf, len, "at-%lld.%0*lld", (long long)sec, digits, (long long)frac);
}

const char *fleet_choose_run_id(char *buf, size_t len, const char *given, fleet_getenv_fn get,
				bool start_wanted, int64_t start_at_ns, const unsigned char rnd[8])
{
	const char *v, *step;
	if (given && given[0]) {
		snprintf(buf, len, "%s", given);
		return "option";
	}
	if ((v = env_value(get, FLEET_RUN_ID_ENV))) {
		snprintf(buf, len, "%s", v);
		return "env";
	}
	if ((v = env_value(get, "SLURM_JOB_ID"))) {
		step = env_value(get, "SLURM_STEP_ID");
		snprintf(buf, len, "slurm-%s%s%s", v, step ? "." : "", step ? step : "");
		return "slurm";
	}
	if (start_wanted) {
		start_run_id(buf, len, start_at_ns);
		return "start-at";
	}
	for (unsigned i = 0; i < 8 && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", rnd[i]);
	return "random";
}

void fleet_read_launcher(struct fleet_record *f, fleet_getenv_fn get)
{
	f->nlauncher = 0;
	for (unsigned i = 0; i < FLEET_LAUNCHER_VARS; i++) {
		const char *v = get(fleet_launcher_names[i]);
		if (v)
			f->launcher[f->nlauncher++] = (struct fleet_var){ fleet_launcher_names[i], v };
	}
}

int64_t fleet_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

static const char *real_getenv(const char *name)
{
	return getenv(name);
}

void fleet_identify(struct fleet_record *f, const struct fleet_ask *ask)
{
	struct utsname u;
	unsigned char rnd[8];
	bool synced;
	int64_t maxerror;
	memset(f, 0, sizeof(*f));
	if (ask->host_label)
		snprintf(f->host, sizeof(f->host), "%s", ask->host_label);
	else
		snprintf(f->host, sizeof(f->host), "%s", uname(&u) == 0 ? u.nodename : "unknown");
	f->start_wanted = ask->start_wanted;
	f->start_at_ns = ask->start_at_ns;
	if (plat_random(rnd, sizeof(rnd)) != 0) {
		/* no kernel randomness at all: the time and pid still tell runs apart */
		uint64_t mix = (uint64_t)fleet_now_ns() ^ ((uint64_t)getpid() << 40);
		memcpy(rnd, &mix, sizeof(rnd));
	}
	f->run_id_source = fleet_choose_run_id(f->run_id, sizeof(f->run_id), ask->run_id,
					       real_getenv, f->start_wanted, f->start_at_ns, rnd);
	fleet_read_launcher(f, real_getenv);
	f->clock_synced = -1;
	f->clock_maxerror_us = -1;
	if (plat_clock_state(&synced, &maxerror) == 0) {
		f->clock_synced = synced;
		f->clock_maxerror_us = maxerror;
	}
}

int fleet_wait(struct fleet_record *f, volatile sig_atomic_t *stop)
{
	const int64_t at = f->start_at_ns;
	int64_t now = fleet_now_ns();
	f->start_passed = now >= at;
	while (now < at && !*stop) {
		int64_t until = at - now > WAIT_STEP_NS ? now + WAIT_STEP_NS : at;
		struct timespec ts = { (time_t)(until / NS_PER_S), (long)(until % NS_PER_S) };
		/* EINTR (a signal) and early returns are seen by the loop */
		clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL);
		now = fleet_now_ns();
	}
	if (*stop)
		return -1;
	f->late_us = (now - at) / 1000;
	f->start_waited = true;
	return 0;
}
