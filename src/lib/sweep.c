#define _POSIX_C_SOURCE 200809L
#include "sweep.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double sweep_iops(const struct sweep_point *p)
{
	return p->seconds > 0 ? (double)p->ios / p->seconds : 0.0;
}

double sweep_curve_served(const struct sweep_curve_point *c)
{
	return c->seconds > 0 ? (double)c->ios / c->seconds : 0.0;
}

double sweep_rate(const struct sweep_point *p)
{
	return p->seconds > 0 ? (double)p->bytes / p->seconds : 0.0;
}

double sweep_littles_outstanding(const struct sweep_point *p)
{
	return sweep_iops(p) * p->lat.mean / 1e9;
}

typedef double (*point_score)(const struct sweep_point *p);

static int argbest(const struct sweep_series *s, point_score score, bool want_max)
{
	int best = -1;
	for (unsigned i = 0; i < s->npoints; i++) {
		double v = score(&s->points[i]);
		if (best < 0 || (want_max ? v > score(&s->points[best]) : v < score(&s->points[best])))
			best = (int)i;
	}
	return best;
}

static double mean_latency(const struct sweep_point *p)
{
	return p->lat.mean;
}

static double power(const struct sweep_point *p)
{
	return p->lat.mean > 0 ? sweep_iops(p) / p->lat.mean : 0.0;
}

int sweep_max_iops(const struct sweep_series *s)
{
	return argbest(s, sweep_iops, true);
}

int sweep_max_rate(const struct sweep_series *s)
{
	return argbest(s, sweep_rate, true);
}

int sweep_min_latency(const struct sweep_series *s)
{
	return argbest(s, mean_latency, false);
}

int sweep_knee(const struct sweep_series *s)
{
	return argbest(s, power, true);
}

double sweep_latency_at(const struct sweep_point *p, double pct)
{
	if (pct <= 0)
		return p->lat.mean;
	if (pct <= 50)
		return (double)p->lat.p50;
	if (pct <= 90)
		return (double)p->lat.p90;
	if (pct <= 99)
		return (double)p->lat.p99;
	if (pct <= 99.9)
		return (double)p->lat.p99_9;
	return (double)p->lat.max;
}

int sweep_max_iops_within(const struct sweep_series *s, double limit_ns, double pct)
{
	int best = -1;
	for (unsigned i = 0; i < s->npoints; i++) {
		const struct sweep_point *p = &s->points[i];
		if (sweep_latency_at(p, pct) > limit_ns)
			continue;
		if (best < 0 || sweep_iops(p) > sweep_iops(&s->points[best]))
			best = (int)i;
	}
	return best;
}

bool sweep_saturated(const struct sweep_series *s)
{
	if (s->npoints < 3)
		return false;
	point_score score = s->large ? sweep_rate : sweep_iops;
	const struct sweep_point *p = &s->points[s->npoints - 3];
	double a = score(p), b = score(p + 1), c = score(p + 2);
	return b < a * 1.05 && c < b * 1.05;
}

static double plan_cost(unsigned points, double point_s, double ramp_s)
{
	return points * (point_s + ramp_s);
}

int sweep_plan_budget(double budget_s, double point_s, double ramp_s, unsigned nsmall,
		      unsigned nlarge, struct sweep_plan *out)
{
	const double min_point = point_s < 1.0 ? point_s : 1.0;
	memset(out, 0, sizeof(*out));
	out->point_s = point_s;
	out->ramp_s = ramp_s;
	out->nsmall = nsmall;
	out->nlarge = nlarge;
	if (plan_cost(nsmall + nlarge, point_s, ramp_s) <= budget_s)
		return 0;
	double fitted = budget_s / (nsmall + nlarge) - ramp_s;
	out->shortened = true;
	if (fitted >= min_point) {
		out->point_s = fitted;
		return 0;
	}
	out->point_s = min_point;
	while (plan_cost(out->nsmall + out->nlarge, out->point_s, ramp_s) > budget_s) {
		if (out->nsmall >= out->nlarge && out->nsmall > (nsmall ? 1u : 0u))
			out->nsmall--;
		else if (out->nlarge > (nlarge ? 1u : 0u))
			out->nlarge--;
		else
			return -1;
	}
	/* the dropped levels freed time: give it back to the points kept */
	fitted = budget_s / (out->nsmall + out->nlarge) - ramp_s;
	out->point_s = fitted < point_s ? fitted : point_s;
	out->shortened = out->point_s < point_s;
	return 0;
}

int sweep_parse_levels(const char *text, unsigned max, unsigned *levels, unsigned *n,
		       const char **why)
{
	const char *p = text;
	*n = 0;
	for (;;) {
		if (!isdigit((unsigned char)*p)) {
			*why = *p == '-' ? "levels must be positive" : "expected a list like 1,2,4,8";
			return -1;
		}
		errno = 0;
		char *end;
		unsigned long v = strtoul(p, &end, 10);
		if (errno || v == 0 || v > max) {
			*why = v == 0 && !errno ? "levels must be at least 1" : "a level is too large";
			return -1;
		}
		if (*n > 0 && v <= levels[*n - 1]) {
			*why = "levels must increase";
			return -1;
		}
		if (*n >= SWEEP_MAX_LEVELS) {
			*why = "too many levels";
			return -1;
		}
		levels[(*n)++] = (unsigned)v;
		if (*end == '\0')
			return 0;
		if (*end != ',') {
			*why = "expected a list like 1,2,4,8";
			return -1;
		}
		p = end + 1;
	}
}

static const struct {
	const char *name;
	double ns;
} latency_units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };

int sweep_parse_max_latency(const char *text, double *limit_ns, double *pct, const char **why)
{
	char *end;
	*why = "expected a latency like 1ms, 500us or 2ms,p99.9";
	if (!isdigit((unsigned char)text[0]))
		return -1;
	double v = strtod(text, &end);
	if (strspn(text, "0123456789.eE+-") < (size_t)(end - text))
		return -1; /* strtod also reads hexadecimal ("0x1ms") */
	size_t unit_len = strcspn(end, ",");
	double scale = 0;
	for (size_t i = 0; i < sizeof(latency_units) / sizeof(latency_units[0]); i++)
		if (strlen(latency_units[i].name) == unit_len &&
		    strncmp(end, latency_units[i].name, unit_len) == 0)
			scale = latency_units[i].ns;
	if (scale == 0 || !(v > 0)) {
		*why = "needs a unit (ns, us, ms, s) and a value above 0, e.g. 1ms";
		return -1;
	}
	*limit_ns = v * scale;
	if (!isfinite(*limit_ns)) {
		*why = "too large";
		return -1;
	}
	*pct = 99;
	const char *which = end + unit_len;
	if (*which == '\0')
		return 0;
	which++;
	if (strcmp(which, "mean") == 0) {
		*pct = 0;
		return 0;
	}
	static const char *const names[] = { "p50", "p90", "p99", "p99.9", "max" };
	static const double values[] = { 50, 90, 99, 99.9, 100 };
	for (int i = 0; i < 5; i++)
		if (strcmp(which, names[i]) == 0) {
			*pct = values[i];
			return 0;
		}
	*why = "the figure after the comma must be mean, p50, p90, p99, p99.9 or max";
	return -1;
}

void sweep_split_level(unsigned level, unsigned max_qd, unsigned *threads, unsigned *qd)
{
	unsigned t = max_qd > 1 ? (level + 31) / 32 : level;
	if (t == 0)
		t = 1;
	while (level % t != 0 || level / t > max_qd)
		t++;
	*threads = t;
	*qd = level / t;
}

void sweep_split_level_targets(unsigned level, unsigned max_qd, unsigned ntargets,
			       unsigned *threads, unsigned *qd)
{
	if (ntargets <= 1) {
		sweep_split_level(level, max_qd, threads, qd);
		return;
	}
	if (level % ntargets != 0) {
		*threads = level;
		*qd = 1;
		return;
	}
	sweep_split_level(level / ntargets, max_qd, threads, qd);
	*threads *= ntargets;
}

unsigned sweep_scale_levels(const unsigned *base, unsigned n, unsigned ntargets, unsigned max,
			    unsigned *out)
{
	unsigned kept = 0;
	uint64_t times = ntargets ? ntargets : 1;
	for (unsigned i = 0; i < n; i++)
		if ((uint64_t)base[i] * times <= max)
			out[kept++] = (unsigned)(base[i] * times);
	return kept;
}
