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
#include "utctime.h"

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

/* "+N": the first multiple of N seconds since the epoch that is at least N
 * seconds after now.  Every host launched within the same N-second slot
 * computes the same instant (and run id), whatever its second; "now + N
 * rounded up to a second" split a launch that crossed a second boundary. */
static int parse_relative(const char *s, int64_t now_ns, int64_t *at_ns, const char **why)
{
	int64_t sec, nsec;
	const char *end;
	if (parse_decimal(s, &sec, &nsec, &end, why) != 0 || *end != '\0')
		return -1;
	if (sec > FLEET_MAX_AHEAD_S / 2) {
		*why = "more than 12 hours from now (+N may wait up to 2N, and diskbench waits at most 24 hours)";
		return -1;
	}
	int64_t step = sec * NS_PER_S + nsec;
	if (step <= 0) {
		*why = "+0 names no instant: give +SECONDS greater than 0";
		return -1;
	}
	int64_t earliest = now_ns + step;
	*at_ns = (earliest / step + (earliest % step != 0)) * step;
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
		rc = utc_parse(text, &at, why);
		if (rc != 0 && *why == utc_form_why)
			*why = forms;
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
