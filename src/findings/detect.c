#include "detect.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of the rates of samples [from, to); at most SERIES_CAP. */
static double median_rate(const struct series *s, unsigned from, unsigned to)
{
	double v[SERIES_CAP];
	unsigned n = 0;
	for (unsigned i = from; i < to && n < SERIES_CAP; i++)
		v[n++] = series_rate(s, i);
	if (n == 0)
		return 0.0;
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The rolling median of three centred on sample i (1 <= i <= n - 2): one
 * odd interval never moves it. */
static double median3(const struct series *s, unsigned i)
{
	return median_rate(s, i - 1, i + 2);
}

static unsigned clamp_u(unsigned v, unsigned lo, unsigned hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The first sample of DETECT_CLIFF_RUN in a row whose rolling medians are
 * all below limit, searching from `from`; 0 when there is none. */
static unsigned first_low_run(const struct series *s, unsigned from, double limit)
{
	for (unsigned k = from; k + DETECT_CLIFF_RUN <= s->n - 1; k++) {
		unsigned run = 0;
		while (run < DETECT_CLIFF_RUN && median3(s, k + run) < limit)
			run++;
		if (run == DETECT_CLIFF_RUN)
			return k;
	}
	return 0;
}

/* A step, not a slide: the rolling median was near the baseline shortly
 * before the drop. */
static bool sudden(const struct series *s, unsigned k, double baseline)
{
	unsigned window = clamp_u(s->n / 20, 3, s->n);
	for (unsigned j = k - 1; j >= 1 && k - j <= window; j--)
		if (median3(s, j) >= 0.9 * baseline)
			return true;
	return false;
}

static double mean_rate(const struct series *s, unsigned from, unsigned to)
{
	double start = from > 0 ? s->s[from - 1].t_s : 0.0, span = s->s[to - 1].t_s - start;
	uint64_t bytes = series_bytes_before(s, to) - series_bytes_before(s, from);
	return span > 0 ? (double)bytes / span : 0.0;
}

bool detect_cliff(const struct series *s, struct cliff *c)
{
	memset(c, 0, sizeof(*c));
	if (s->n < DETECT_MIN_SAMPLES)
		return false;
	unsigned first = clamp_u(s->n / 10, 3, 10);
	double baseline = median_rate(s, 0, first), limit = DETECT_CLIFF_RATIO * baseline;
	if (baseline <= 0)
		return false;
	unsigned k = first_low_run(s, first, limit);
	if (k == 0 || !sudden(s, k, baseline) || median_rate(s, k, s->n) >= limit)
		return false;
	c->at = k;
	c->at_s = s->s[k - 1].t_s;
	c->at_bytes = series_bytes_before(s, k);
	c->baseline = baseline;
	c->burst_rate = mean_rate(s, 0, k);
	c->sustained_rate = mean_rate(s, k, s->n);
	return true;
}

bool detect_unsteady(const struct series *s, unsigned from, double *cv)
{
	struct series_summary sum;
	uint64_t ios = 0;
	series_summarize(s, from, s->n, &sum);
	*cv = sum.avg > 0 ? sum.stdev / sum.avg : 0.0;
	if (sum.n < DETECT_UNSTEADY_MIN)
		return false;
	for (unsigned i = from; i < s->n; i++)
		ios += s->s[i].ios;
	/* I/Os completing at random moments vary from interval to interval by
	 * about 1/sqrt(I/Os per interval) on their own (a Poisson count): only
	 * the variation beyond that says the device was unsteady */
	double counting = ios > 0 ? (double)sum.n / (double)ios : 1.0;
	return *cv * *cv - counting > DETECT_UNSTEADY_CV * DETECT_UNSTEADY_CV;
}

/* The share of the values at or above min (by bucket: within 0.4 %). */
static double share_from(const struct stats *lat, uint64_t min)
{
	uint64_t above = 0;
	for (unsigned i = stats_bucket_index(min); i < STATS_NBUCKETS; i++)
		above += lat->bucket[i];
	return lat->count > 0 ? (double)above / (double)lat->count : 0.0;
}

/* The share of the I/Os' time spent in those at or above min (each counted
 * at its bucket's lower bound: never more than it was). */
static double time_share_from(const struct stats *lat, uint64_t min)
{
	double slow = 0, total = lat->mean * (double)lat->count;
	for (unsigned i = stats_bucket_index(min); i < STATS_NBUCKETS; i++)
		slow += (double)lat->bucket[i] * (double)stats_bucket_low(i);
	return total > 0 ? (slow < total ? slow / total : 1.0) : 0.0;
}

/* The mantissas limits are usually set at (100, 150, 3000, 7500 IOPS): a
 * figure at random lands within DETECT_CAP_ROUND of one about once in
 * thirty, so a pace alone is only ever "may be". */
static const double round_mantissas[] = { 1, 1.5, 2, 2.5, 3, 5, 7.5, 10 };

double detect_round(double v)
{
	if (!(v >= 10))
		return 0;
	double scale = pow(10, floor(log10(v)));
	for (size_t i = 0; i < sizeof(round_mantissas) / sizeof(round_mantissas[0]); i++) {
		double near = round_mantissas[i] * scale;
		if (fabs(v - near) <= DETECT_CAP_ROUND * v)
			return near;
	}
	return 0;
}

/* Slow I/Os in every sample after the first (each one's p99 over the
 * threshold): the refills of a token bucket, not a disk's odd stall.  Only
 * when the slow share reaches 1 %, where a sample's p99 can show it. */
static bool slow_every_interval(const struct series *s, const struct rate_cap *c)
{
	if (!s->has_lat || c->slow_share < 0.01)
		return false;
	for (unsigned i = 1; i < s->n; i++)
		if (s->s[i].ios > 0 && s->s[i].p99_ns < c->slow_ns)
			return false;
	return true;
}

bool detect_rate_cap(const struct series *s, const struct stats *lat, uint64_t bytes,
		     struct rate_cap *c)
{
	struct series_summary sum;
	memset(c, 0, sizeof(*c));
	if (s->n < DETECT_MIN_SAMPLES || lat->count == 0)
		return false;
	/* the first interval is left out: a limiter's budget starts full, so
	 * the run's first slice moves more than the cap allows after it */
	series_summarize(s, 1, s->n, &sum);
	c->rate = mean_rate(s, 1, s->n);
	c->iops = series_ios_rate(s, 1);
	c->cv = sum.avg > 0 ? sum.stdev / sum.avg : 1.0;
	c->p50_ns = stats_percentile(lat, 50);
	uint64_t p90 = stats_percentile(lat, 90);
	c->slow_ns = (uint64_t)(DETECT_CAP_SLOW * (double)c->p50_ns);
	c->slow_share = share_from(lat, c->slow_ns);
	c->wait_share = time_share_from(lat, c->slow_ns);
	/* one figure is tested, so that a steady run lands near a round one only
	 * about once in thirty: IOPS for small blocks (volumes and io.max limit
	 * I/Os), bytes/s for 64 KiB and over; both over the intervals after the
	 * first, since a bucket that starts full lets the first slice through
	 * faster (qemu's 150 IOPS throttle: 150.8 for the run, 150.0 after its
	 * first interval) */
	bool small = bytes / lat->count < DETECT_CAP_LARGE_BLOCK;
	c->round = detect_round(small ? c->iops : c->rate);
	c->round_iops = small && c->round > 0;
	if (c->p50_ns == 0 || c->cv >= DETECT_CAP_CV)
		return false;
	c->budget = p90 <= DETECT_CAP_FAST * c->p50_ns && c->slow_share >= DETECT_CAP_SLOW_MIN &&
		    c->slow_share <= DETECT_CAP_SLOW_MAX && c->wait_share >= DETECT_CAP_WAIT;
	if (c->budget)
		c->evidence = slow_every_interval(s, c) ? CAP_REGULAR : CAP_MAYBE;
	else if (c->cv < DETECT_CAP_PACED_CV && c->round > 0)
		c->evidence = CAP_MAYBE;
	return c->evidence != CAP_NONE;
}

void temp_track_init(struct temp_track *t, const char *name, double max_c, double crit_c)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->max_c = max_c;
	t->crit_c = crit_c;
	t->stride = 1;
}

void temp_track_add(struct temp_track *t, double t_s, double celsius)
{
	if (t->skipped++ % t->stride != 0)
		return;
	if (t->n == TEMP_CAP) {
		for (unsigned i = 0; i < TEMP_CAP / 2; i++) {
			t->t_s[i] = t->t_s[2 * i];
			t->celsius[i] = t->celsius[2 * i];
		}
		t->n = TEMP_CAP / 2;
		t->stride *= 2;
		t->skipped = 1;
	}
	t->t_s[t->n] = t_s;
	t->celsius[t->n++] = celsius;
}

bool detect_heat(const struct temp_track *t, bool dropped, struct heat *h)
{
	memset(h, 0, sizeof(*h));
	if (t->n < 2)
		return false;
	h->first_c = t->celsius[0];
	h->peak_c = t->celsius[0];
	h->peak_t_s = t->t_s[0]; /* a drive hot from the first reading peaked then */
	for (unsigned i = 1; i < t->n; i++)
		if (t->celsius[i] > h->peak_c) {
			h->peak_c = t->celsius[i];
			h->peak_t_s = t->t_s[i];
		}
	if (t->max_c > 0 && h->peak_c >= t->max_c)
		h->limit_c = t->max_c;
	else if (t->crit_c > 0 && h->peak_c >= t->crit_c)
		h->limit_c = t->crit_c;
	return dropped && (h->limit_c > 0 || h->peak_c - h->first_c > DETECT_HEAT_RISE_C);
}

/* The highest mean of three samples in a row: the burst, not one lucky interval. */
static double best_run3(const struct series *s)
{
	double best = 0;
	for (unsigned i = 0; i + 3 <= s->n; i++) {
		double r = mean_rate(s, i, i + 3);
		best = r > best ? r : best;
	}
	return best;
}

bool detect_steady(const struct series *s, struct steady *c)
{
	memset(c, 0, sizeof(*c));
	if (s->n < DETECT_STEADY_WINDOW)
		return false;
	unsigned from = s->n - DETECT_STEADY_WINDOW;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, k = DETECT_STEADY_WINDOW;
	for (unsigned i = from; i < s->n; i++) {
		double x = s->s[i].t_s, y = series_rate(s, i);
		sx += x, sy += y, sxx += x * x, sxy += x * y;
	}
	double den = k * sxx - sx * sx, slope = den > 0 ? (k * sxy - sx * sy) / den : 0;
	double span = s->s[s->n - 1].t_s - (from > 0 ? s->s[from - 1].t_s : 0);
	c->from = from;
	c->from_s = from > 0 ? s->s[from - 1].t_s : 0;
	c->rate = sy / k;
	c->change = c->rate > 0 ? slope * span / c->rate : 1.0;
	c->burst_rate = best_run3(s);
	return c->rate > 0 && fabs(c->change) <= DETECT_STEADY_BOUND;
}
