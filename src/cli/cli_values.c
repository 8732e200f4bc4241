/* The parsers of option values that are more than a SIZE, a duration or a
 * name (cli_int.h): counts, percentages, --noise-floor's list, --rate,
 * sla's --latency, files' --file-size.  Each returns 0, or -1 with the
 * reason in *reason. */
#define _POSIX_C_SOURCE 200809L
#include "cli_int.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"
#include "units.h"

/* A count option (threads, qd, warm-up I/Os) within [min, max]. */
int parse_count(const char *v, uint64_t min, uint64_t max, unsigned *out, const char **reason)
{
	uint64_t n;
	if (parse_uint(v, min, max, &n, reason) != 0)
		return -1;
	*out = (unsigned)n;
	return 0;
}

/* "10", "10%", "2.5%": a share from 0 to 1000 %. */
int parse_percent(const char *v, double *out, const char **reason)
{
	char *end;
	double pct = strtod(v, &end);
	if (end == v || (*end == '%' && end[1] != '\0') || (*end != '%' && *end != '\0') ||
	    !(pct >= 0 && pct <= 1000)) {
		*reason = "use a percentage from 0 to 1000, e.g. 10%";
		return -1;
	}
	*out = pct;
	return 0;
}

/* report --noise-floor: "15" (every figure), or "rate=10,p99=80" (those
 * named; the others keep their defaults). */
int parse_noise_floor(const char *v, struct options *o, const char **reason)
{
	if (!strchr(v, '=')) {
		double pct;
		if (parse_percent(v, &pct, reason) != 0)
			return -1;
		o->noise_floor_rate_pct = o->noise_floor_p50_pct = o->noise_floor_p99_pct = pct;
		return 0;
	}
	char buf[128];
	if (strlen(v) >= sizeof(buf)) {
		*reason = "too long; use rate=PCT,p50=PCT,p99=PCT";
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", v);
	for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		double *to = NULL;
		if (eq) {
			*eq = '\0';
			to = strcmp(item, "rate") == 0  ? &o->noise_floor_rate_pct
			     : strcmp(item, "p50") == 0 ? &o->noise_floor_p50_pct
			     : strcmp(item, "p99") == 0 ? &o->noise_floor_p99_pct : NULL;
		}
		if (!to) {
			*reason = "name each figure: rate=PCT,p50=PCT,p99=PCT (or one PCT for all)";
			return -1;
		}
		if (parse_percent(eq + 1, to, reason) != 0)
			return -1;
	}
	return 0;
}

/* --rate: I/Os a second, k or M for thousands or millions ("2.5k"); from
 * RATE_FLOOR (one I/O in 1000 s: below it the gaps outgrow the clock, and
 * 1e-300 ran flat out, issue 44) to 100M (ten nanoseconds apart). */
#define RATE_FLOOR 0.001
int parse_rate(const char *v, double *out, const char **reason)
{
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	if (end == v || errno || !(x == x)) {
		*reason = "not a number of I/Os a second (1000, 2.5k, 1M)";
		return -1;
	}
	if (*end == 'k' || *end == 'K')
		x *= 1e3, end++;
	else if (*end == 'M')
		x *= 1e6, end++;
	if (*end) {
		*reason = "not a number of I/Os a second (1000, 2.5k, 1M)";
		return -1;
	}
	if (!(x > 0) || x > 100e6) {
		*reason = x > 100e6 ? "at most 100M" : "must be greater than 0 (without --rate the "
						       "test is closed-loop)";
		return -1;
	}
	if (x < RATE_FLOOR) {
		*reason = "at least 0.001 (one I/O in 1000 s)";
		return -1;
	}
	*out = x;
	return 0;
}

/* sla --latency LAT[,pNN]: a duration and its percentile (default p99). */
int parse_latency_target(const char *v, struct sla_options *sla, const char **reason)
{
	return sweep_parse_max_latency(v, &sla->latency_ns, &sla->pct, reason);
}

/* files --file-size: a SIZE, or 0 (empty files, bonnie++'s default). */
int parse_file_size(const char *v, uint64_t *out, const char **reason)
{
	if (strcmp(v, "0") == 0) {
		*out = 0;
		return 0;
	}
	if (parse_size(v, out, reason) != 0)
		return -1;
	if (*out <= OPT_MAX_FILE_SIZE)
		return 0;
	*reason = "at most 1 GiB";
	return -1;
}
