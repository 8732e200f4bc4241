/* The runbook question "is this disk (or fleet) slower than last month?":
 * each group of the new report against the old runs of the same test and
 * params, per host and per figure, flagged where worse beyond a threshold
 * and beyond the figure's own noise. */
#define _POSIX_C_SOURCE 200809L
#include "fleetreport.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static const struct {
	const char *label, *key;
	bool lower_is_better;
} figures[FIG_COUNT] = {
	[FIG_MBPS] = { "MB/s", "bytes_per_sec", false },
	[FIG_IOPS] = { "IOPS", "iops", false },
	[FIG_P50] = { "p50", "lat_p50_ns", true },
	[FIG_P99] = { "p99", "lat_p99_ns", true },
};

const char *fleet_figure_label(enum fleet_figure f)
{
	return figures[f].label;
}

const char *fleet_figure_key(enum fleet_figure f)
{
	return figures[f].key;
}

/* A host's figure: 0 with *v, or -1 when its latencies are not known. */
static int host_figure(const struct fleet_record *r, enum fleet_figure f, double *v)
{
	double all[FIG_COUNT] = { [FIG_MBPS] = r->bytes_per_sec, [FIG_IOPS] = r->iops,
				  [FIG_P50] = (double)r->p50, [FIG_P99] = (double)r->p99 };
	*v = all[f];
	return f == FIG_P50 || f == FIG_P99 ? (r->has_lat ? 0 : -1) : 0;
}

/* ---- noise ---- */

static double percentile_sample(const uint64_t *v, unsigned i)
{
	return !v || v[i] == FLEET_NO_SAMPLE ? -1 : (double)v[i];
}

/* Sample i's value of figure f: a rate over the sample's time, or its
 * latency percentile; -1 when the series does not hold it. */
static double sample_value(const struct fleet_record *r, enum fleet_figure f, unsigned i)
{
	double dt = r->series_end_s[i] - (i ? r->series_end_s[i - 1] : 0);
	switch (f) {
	case FIG_MBPS: return (double)r->series_bytes[i] / dt;
	/* without per-sample I/O counts, IOPS moves as bytes do (one block size) */
	case FIG_IOPS: return (double)(r->series_ios ? r->series_ios[i] : r->series_bytes[i]) / dt;
	case FIG_P50: return percentile_sample(r->series_p50, i);
	case FIG_P99: return percentile_sample(r->series_p99, i);
	default: return -1;
	}
}

/* Whether the series holds figure f at all. */
static bool has_samples(const struct fleet_record *r, enum fleet_figure f)
{
	return f == FIG_MBPS || f == FIG_IOPS || (f == FIG_P50 ? r->series_p50 : r->series_p99);
}

static int double_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

static double median_sorted(const double *v, unsigned n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* What a run's per-interval values say of its figure's uncertainty, both
 * relative to the figure: se, a standard error, and shift, how far the mean
 * is pulled from the typical interval by a few odd ones. */
struct spread {
	double se, shift;
};

/* Neighbouring intervals are not independent (a throttle or a device cache
 * that releases work in slices makes them alternate high and low), so the
 * values are first averaged in batches of floor(sqrt(k)) (the batch-means
 * method).  se: a robust spread of the batch means, 1.4826 × their median
 * absolute deviation (the stdev of normal samples, not moved by one odd
 * batch such as a start-up burst or a stall), over their median and the
 * square root of their number.  shift: their mean's distance from their
 * median, over the median, which is what such an odd batch does to the
 * figure.  -1 when there are fewer than FLEET_NOISE_MIN_SAMPLES batches or
 * no such series. */
static int series_spread(const struct fleet_record *r, enum fleet_figure f, struct spread *out)
{
	unsigned batch = (unsigned)sqrt((double)r->nseries), nb = batch ? r->nseries / batch : 0;
	if (nb < FLEET_NOISE_MIN_SAMPLES || !has_samples(r, f))
		return -1;
	double *v = calloc(nb, sizeof(*v)), sum = 0;
	unsigned k = 0;
	if (!v)
		return -1; /* unknown, as without a series */
	for (unsigned b = 0; b < nb; b++) { /* a batch's mean over the intervals that have one */
		unsigned n = 0;
		for (unsigned i = b * batch; i < (b + 1) * batch; i++)
			if (sample_value(r, f, i) >= 0)
				v[k] += sample_value(r, f, i), n++;
		if (n)
			v[k++] /= n;
	}
	if (k < FLEET_NOISE_MIN_SAMPLES) {
		free(v);
		return -1;
	}
	for (unsigned i = 0; i < k; i++)
		sum += v[i];
	qsort(v, k, sizeof(*v), double_cmp);
	double median = median_sorted(v, k);
	for (unsigned i = 0; i < k; i++)
		v[i] = fabs(v[i] - median);
	qsort(v, k, sizeof(*v), double_cmp);
	int rc = -1;
	if (median > 0) {
		out->se = 1.4826 * median_sorted(v, k) / median / sqrt((double)k);
		out->shift = fabs(sum / k - median) / median;
		rc = 0;
	}
	free(v);
	return rc;
}

/* The noise of the difference between two runs, in %: FLEET_NOISE_SE
 * standard errors, plus how far odd intervals pulled each run's mean. */
static double series_noise_pct(const struct fleet_record *a, const struct fleet_record *b,
			       enum fleet_figure f)
{
	struct spread x, y;
	if (series_spread(a, f, &x) != 0 || series_spread(b, f, &y) != 0)
		return NAN;
	return (FLEET_NOISE_SE * sqrt(x.se * x.se + y.se * y.se) + x.shift + y.shift) * 100;
}

const char *fleet_noise_from_name(enum fleet_noise_from n)
{
	return n == NOISE_REPEATS ? "repeats" : n == NOISE_MEASURED ? "measured" : "floor";
}

/* The noise a difference is judged against (see FLEET_REPEATS_TO_JUDGE):
 * never nothing, so never the bare difference. */
static void judge_noise(struct fleet_change *c, double measured, const struct fleet_judge *judge)
{
	double floor = judge->floor_pct[c->figure];
	if (c->runs >= FLEET_REPEATS_TO_JUDGE && !isnan(measured)) {
		c->noise_pct = measured;
		c->noise_from = NOISE_REPEATS;
	} else if (!isnan(measured) && measured > floor) {
		c->noise_pct = measured;
		c->noise_from = NOISE_MEASURED;
	} else {
		c->noise_pct = floor;
		c->noise_from = NOISE_FLOOR;
	}
}

/* A figure's change: old_value over `runs` baseline runs, noise_pct what
 * they and the series showed (NAN: nothing). */
static void add_change(struct fleet_pairing *p, const char *host, enum fleet_figure f,
		       double old_value, double new_value, double noise_pct, unsigned runs,
		       const struct fleet_judge *judge)
{
	struct fleet_change *c = &p->changes[p->n++];
	c->host = host;
	c->figure = f;
	c->old_value = old_value;
	c->new_value = new_value;
	c->runs = runs;
	judge_noise(c, noise_pct, judge);
	c->change_pct = old_value > 0 ? (new_value / old_value - 1) * 100 : NAN;
	double allowed = judge->threshold_pct + c->noise_pct;
	c->regressed = figures[f].lower_is_better ? c->change_pct > allowed : c->change_pct < -allowed;
}

static const struct fleet_row *find_row(const struct fleet_group *g, const char *label)
{
	for (unsigned i = 0; g && i < g->n; i++)
		if (strcmp(g->rows[i].label, label) == 0)
			return &g->rows[i];
	return NULL;
}

/* Whether the host's run failed in g: it is listed as such, not missing. */
static bool failed_in(const struct fleet_group *g, const char *label)
{
	for (unsigned i = 0; g && i < g->nothers; i++)
		if (g->others[i].status == ROW_FAILED && strcmp(g->others[i].label, label) == 0)
			return true;
	return false;
}

/* ---- per host ---- */

/* One figure of one host over the baseline's repeats: their mean, and the
 * noise: the series' or the repeats' range, whichever is wider. */
static int old_figure(const struct fleet_pairing *p, const char *label, const struct fleet_record *now,
		      enum fleet_figure f, double *mean, double *noise_pct, unsigned *runs)
{
	double sum = 0, lo = INFINITY, hi = -INFINITY, v;
	unsigned n = 0;
	*noise_pct = NAN;
	for (unsigned i = 0; i < p->nrepeats; i++) {
		const struct fleet_row *was = find_row(p->repeats[i], label);
		if (!was || host_figure(was->rec, f, &v) != 0)
			continue;
		sum += v, n++;
		lo = v < lo ? v : lo, hi = v > hi ? v : hi;
		double s = series_noise_pct(was->rec, now, f);
		if (!isnan(s) && (isnan(*noise_pct) || s > *noise_pct))
			*noise_pct = s;
	}
	*runs = n;
	if (n == 0)
		return -1;
	*mean = sum / n;
	if (n > 1 && *mean > 0) {
		double range = (hi - lo) / *mean * 100;
		if (isnan(*noise_pct) || range > *noise_pct)
			*noise_pct = range;
	}
	return 0;
}

/* The fleet's figures over the hosts on both sides, summed as each host's
 * were judged; the noise of a sum from the hosts' (independent) noises. */
struct fleet_sums {
	double old_value[FIG_COUNT], new_value[FIG_COUNT], noise_abs2[FIG_COUNT], noise_max[FIG_COUNT];
	bool noise_known[FIG_COUNT];
};

static void host_changes(struct fleet_pairing *p, const struct fleet_row *row,
			 const struct fleet_judge *judge, struct fleet_sums *sums)
{
	for (unsigned f = 0; f < FIG_COUNT; f++) {
		double a, b, noise;
		unsigned runs;
		if (old_figure(p, row->label, row->rec, f, &a, &noise, &runs) != 0 ||
		    host_figure(row->rec, f, &b) != 0)
			continue;
		add_change(p, row->label, f, a, b, noise, runs, judge);
		sums->old_value[f] += a;
		sums->new_value[f] += b;
		if (!isnan(noise)) {
			sums->noise_abs2[f] += (noise * a) * (noise * a);
			sums->noise_max[f] = noise > sums->noise_max[f] ? noise : sums->noise_max[f];
			sums->noise_known[f] = true;
		}
	}
}

/* ---- the fleet row ---- */

/* Whether a host is on both sides: the fleet row is over these hosts only. */
static bool in_common(const struct fleet_pairing *p, const char *label)
{
	return find_row(p->new, label) && find_row(p->old, label);
}

/* The merged histogram of g's rows of the common hosts; false when one of
 * them has no buckets to merge (or no latencies), so no fleet percentile. */
static bool common_stats(const struct fleet_group *g, const struct fleet_pairing *p, struct stats *s)
{
	stats_init(s);
	for (unsigned i = 0; i < g->n; i++) {
		const struct fleet_record *r = g->rows[i].rec;
		if (!in_common(p, g->rows[i].label))
			continue;
		if (r->no_buckets || !r->has_lat)
			return false;
		fleet_stats_add(s, r);
	}
	return s->count > 0;
}

/* A value over the baseline's repeats: their mean, and their range in % of
 * it (the repeats' own noise, as old_figure takes it per host). */
struct over_repeats {
	double sum, lo, hi;
	unsigned n;
};

static void repeats_add(struct over_repeats *o, double v)
{
	o->sum += v, o->n++;
	o->lo = o->n == 1 || v < o->lo ? v : o->lo;
	o->hi = o->n == 1 || v > o->hi ? v : o->hi;
}

static double repeats_range_pct(const struct over_repeats *o)
{
	double mean = o->n ? o->sum / o->n : 0;
	return o->n > 1 && mean > 0 ? (o->hi - o->lo) / mean * 100 : NAN;
}

/* The fleet's sum of figure f in each repeat over the common hosts (a host
 * a repeat lacks counts at its mean over the others, so the sums' mean is
 * the sum of the hosts' means): a slow repeat of the whole fleet is one
 * event, which the hosts' independent noises would understate.  *pct is
 * their range in %; -1 when out of memory. */
static int repeat_sums_range_pct(const struct fleet_pairing *p, enum fleet_figure f, double *pct)
{
	double *mean = malloc(((size_t)p->new->n + 1) * sizeof(*mean)), noise, v;
	unsigned runs;
	if (!mean)
		return -1;
	for (unsigned k = 0; k < p->new->n; k++) { /* each host's mean once, not per repeat */
		const struct fleet_row *row = &p->new->rows[k];
		if (!in_common(p, row->label) ||
		    old_figure(p, row->label, row->rec, f, &mean[k], &noise, &runs) != 0)
			mean[k] = NAN;
	}
	struct over_repeats o = { 0 };
	for (unsigned i = 0; i < p->nrepeats; i++) {
		double sum = 0;
		for (unsigned k = 0; k < p->new->n; k++) {
			if (isnan(mean[k]))
				continue;
			const struct fleet_row *was = find_row(p->repeats[i], p->new->rows[k].label);
			sum += was && host_figure(was->rec, f, &v) == 0 ? v : mean[k];
		}
		repeats_add(&o, sum);
	}
	free(mean);
	*pct = repeats_range_pct(&o);
	return 0;
}

static double max_known(double a, double b)
{
	return isnan(a) || b > a ? b : a;
}

/* The fleet's latency percentile over the common hosts' merged buckets: the
 * new run's, and the mean and range over the repeats that have them all. */
static void fleet_percentile(struct fleet_pairing *p, enum fleet_figure f, double q,
			     const struct fleet_sums *sums, const struct fleet_judge *judge,
			     struct stats *s)
{
	if (!common_stats(p->new, p, s))
		return;
	double now = (double)stats_percentile(s, q);
	struct over_repeats o = { 0 };
	for (unsigned i = 0; i < p->nrepeats; i++)
		if (common_stats(p->repeats[i], p, s))
			repeats_add(&o, (double)stats_percentile(s, q));
	if (o.n == 0)
		return;
	double noise = max_known(sums->noise_known[f] ? sums->noise_max[f] : NAN, repeats_range_pct(&o));
	add_change(p, FLEET_FLEET_ROW, f, o.sum / o.n, now, noise, o.n, judge);
}

static int fleet_changes(struct fleet_pairing *p, const struct fleet_sums *sums,
			 const struct fleet_judge *judge)
{
	for (unsigned f = FIG_MBPS; f <= FIG_IOPS; f++) {
		double noise = sums->noise_known[f] && sums->old_value[f] > 0 ?
				       sqrt(sums->noise_abs2[f]) / sums->old_value[f] : NAN, range;
		if (repeat_sums_range_pct(p, f, &range) != 0)
			return -1;
		noise = max_known(noise, range);
		add_change(p, FLEET_FLEET_ROW, f, sums->old_value[f], sums->new_value[f], noise,
			   p->nrepeats, judge);
	}
	struct stats *s = malloc(sizeof(*s));
	if (!s)
		return -1;
	fleet_percentile(p, FIG_P50, 50, sums, judge, s);
	fleet_percentile(p, FIG_P99, 99, sums, judge, s);
	free(s);
	return 0;
}

static int compare_pair(struct fleet_pairing *p, const struct fleet_judge *judge)
{
	unsigned n_old = p->old ? p->old->n : 0, n_new = p->new ? p->new->n : 0;
	struct fleet_sums sums;
	memset(&sums, 0, sizeof(sums));
	p->changes = calloc((size_t)(n_new + 1) * FIG_COUNT, sizeof(*p->changes));
	p->only_old = calloc(n_old + 1, sizeof(*p->only_old));
	p->only_new = calloc(n_new + 1, sizeof(*p->only_new));
	if (!p->changes || !p->only_old || !p->only_new)
		return -1;
	for (unsigned i = 0; i < n_new; i++) {
		const struct fleet_row *row = &p->new->rows[i];
		if (!find_row(p->old, row->label)) {
			p->only_new[p->n_only_new++] = row->label;
			continue;
		}
		p->n_common++;
		host_changes(p, row, judge, &sums);
	}
	for (unsigned i = 0; i < n_old; i++)
		if (!find_row(p->new, p->old->rows[i].label) && !failed_in(p->new, p->old->rows[i].label))
			p->only_old[p->n_only_old++] = p->old->rows[i].label;
	return p->n_common ? fleet_changes(p, &sums, judge) : 0;
}

/* ---- pairing runs ---- */

/* The old runs of cur's test with its params, into p->repeats; -1 with why
 * when there are runs of the test but none with the same params. */
static int match_old(const struct fleet_report *old, const struct fleet_group *cur,
		     struct fleet_pairing *p, char *why, size_t len)
{
	const struct fleet_group *differs = NULL;
	char note[FLEET_MSG] = "";
	p->repeats = calloc(old->n + 1, sizeof(*p->repeats));
	if (!p->repeats)
		return -1;
	for (unsigned i = 0; i < old->n; i++) {
		const struct fleet_group *g = &old->groups[i];
		if (strcmp(g->test, cur->test) != 0 || g->n == 0)
			continue;
		if (cur->n == 0) { /* no host ran: no params to tell; its failures are listed */
			p->repeats[p->nrepeats++] = g;
			break;
		}
		fleet_params_note(g->rows[0].rec, cur->rows[0].rec, note, sizeof(note));
		if (!note[0])
			p->repeats[p->nrepeats++] = g;
		else if (!differs)
			differs = g;
	}
	p->old = p->nrepeats ? p->repeats[0] : NULL;
	if (p->old || !differs)
		return 0;
	fleet_params_note(differs->rows[0].rec, cur->rows[0].rec, note, sizeof(note));
	snprintf(why, len, "run '%.60s' of %.20s has no run of the same params in the baseline "
		 "(old first): %s; compare like with like", cur->run_id, cur->test, note);
	errno = EINVAL;
	return -1;
}

static bool is_paired(const struct fleet_baseline *b, const struct fleet_group *old)
{
	for (unsigned i = 0; i < b->n; i++)
		for (unsigned k = 0; k < b->pairs[i].nrepeats; k++)
			if (b->pairs[i].repeats[k] == old)
				return true;
	return false;
}

/* Why no figure could be compared, for the refusal. */
static void nothing_compared(const struct fleet_report *old, const struct fleet_report *cur,
			     const struct fleet_baseline *b, char *why, size_t len)
{
	bool paired = false;
	for (unsigned i = 0; i < b->n; i++)
		paired |= b->pairs[i].old && b->pairs[i].new;
	if (paired)
		snprintf(why, len, "no figure to compare: no host is in both the baseline and the new "
			 "records (labels differ? --host-label)");
	else
		snprintf(why, len, "no figure to compare: the baseline holds no run of the new records' "
			 "test (new: %.20s%s; baseline: %.20s%s)", cur->n ? cur->groups[0].test : "-",
			 cur->n > 1 ? ", ..." : "", old->n ? old->groups[0].test : "-",
			 old->n > 1 ? ", ..." : "");
	errno = EINVAL;
}

int fleet_compare(const struct fleet_report *old, const struct fleet_report *cur,
		  const struct fleet_judge *judge, struct fleet_baseline *out, char *why, size_t len)
{
	memset(out, 0, sizeof(*out));
	out->threshold_pct = judge->threshold_pct;
	out->judge = *judge;
	out->pairs = calloc((size_t)old->n + cur->n + 1, sizeof(*out->pairs));
	if (!out->pairs)
		goto nomem;
	for (unsigned i = 0; i < cur->n; i++) {
		struct fleet_pairing *p = &out->pairs[out->n++];
		p->new = &cur->groups[i];
		if (match_old(old, p->new, p, why, len) != 0)
			return errno == ENOMEM ? (snprintf(why, len, "out of memory"), -1) : -1;
	}
	for (unsigned i = 0; i < old->n; i++)
		if (!is_paired(out, &old->groups[i]))
			out->pairs[out->n++].old = &old->groups[i];
	for (unsigned i = 0; i < out->n; i++) {
		if (compare_pair(&out->pairs[i], &out->judge) != 0)
			goto nomem;
		out->nchanges += out->pairs[i].n;
		for (unsigned k = 0; k < out->pairs[i].n; k++)
			out->nregressed += out->pairs[i].changes[k].regressed;
	}
	if (out->nchanges == 0 && fleet_report_ran(cur)) {
		nothing_compared(old, cur, out, why, len);
		return -1;
	}
	return 0; /* no host ran: nothing to compare, and the failures say why */
nomem:
	snprintf(why, len, "out of memory");
	errno = ENOMEM;
	return -1;
}

bool fleet_report_ran(const struct fleet_report *rep)
{
	for (unsigned i = 0; i < rep->n; i++)
		if (rep->groups[i].n > 0)
			return true;
	return false;
}

void fleet_baseline_free(struct fleet_baseline *b)
{
	for (unsigned i = 0; b->pairs && i < b->n; i++) {
		free(b->pairs[i].changes);
		free(b->pairs[i].only_old);
		free(b->pairs[i].only_new);
		free(b->pairs[i].repeats);
	}
	free(b->pairs);
	memset(b, 0, sizeof(*b));
}
