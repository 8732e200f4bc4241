/* Grouping a fleet's records and the figures of each group: per-host rows
 * (start offset, deviation from the median, flags) and fleet totals (sums,
 * the span, the common window, start skew, exact merged percentiles). */
#define _POSIX_C_SOURCE 200809L
#include "fleetreport.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* ---- grouping ---- */

static const struct fleet_param *find_param(const struct fleet_record *r, const char *key)
{
	for (unsigned i = 0; i < r->nparams; i++)
		if (strcmp(r->params[i].key, key) == 0)
			return &r->params[i];
	return NULL;
}

static bool same_value(const struct fleet_param *a, const struct fleet_param *b)
{
	if (!a || !b)
		return a == b;
	if (a->is_number && b->is_number)
		return a->number == b->number;
	return strcmp(a->text, b->text) == 0;
}

/* The first compared key of a's or b's params whose values differ, or NULL. */
static const char *params_differ(const struct fleet_record *a, const struct fleet_record *b)
{
	const struct fleet_record *sides[2] = { a, b };
	for (int s = 0; s < 2; s++)
		for (unsigned i = 0; i < sides[s]->nparams; i++) {
			const char *key = sides[s]->params[i].key;
			if (!fleet_param_ignored(key) && !same_value(find_param(a, key), find_param(b, key)))
				return key;
		}
	return NULL;
}

static const char *param_text(const struct fleet_record *r, const char *key)
{
	const struct fleet_param *p = find_param(r, key);
	return p ? p->text : "absent";
}

/* "params.block_size is 4096 on node1 (a.jsonl:1) and 8192 on node2 (b.jsonl:1)" */
void fleet_params_note(const struct fleet_record *a, const struct fleet_record *b,
		       char *out, size_t len)
{
	const char *key = params_differ(a, b);
	out[0] = '\0';
	if (key)
		snprintf(out, len, "params.%s is %.40s on %.60s (%.80s) and %.40s on %.60s (%.80s)", key,
			 param_text(a, key), a->host, a->where, param_text(b, key), b->host, b->where);
}

static bool same_group(const struct fleet_record *a, const struct fleet_record *b)
{
	return strcmp(a->run_id, b->run_id) == 0 && strcmp(a->test, b->test) == 0;
}

/* Natural order: digit runs compare as numbers, so node2 < node10. */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			size_t na = strspn(a, "0123456789"), nb = strspn(b, "0123456789");
			if (na != nb)
				return na < nb ? -1 : 1;
			int c = strncmp(a, b, na);
			if (c)
				return c;
			a += na, b += nb;
		} else if (*a != *b) {
			return (unsigned char)*a - (unsigned char)*b;
		} else {
			a++, b++;
		}
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static int row_cmp(const void *x, const void *y)
{
	const struct fleet_row *a = x, *b = y;
	int c = natural_cmp(a->label, b->label);
	return c ? c : strcmp(a->label, b->label);
}

static unsigned count_host(const struct fleet_group *g, unsigned upto, const char *host,
			   const char *rank)
{
	unsigned n = 0;
	for (unsigned i = 0; i < upto; i++) {
		const struct fleet_record *r = g->rows[i].rec;
		if (strcmp(r->host, host) == 0 &&
		    (!rank || (r->rank && strcmp(r->rank, rank) == 0)))
			n++;
	}
	return n;
}

/* The host; host[rank] when the host ran several tasks (srun -n 2 on one
 * node); host#k when even that repeats: the same record given twice. */
static int label_rows(struct fleet_group *g, struct fleet_report *rep)
{
	for (unsigned i = 0; i < g->n; i++) {
		const struct fleet_record *r = g->rows[i].rec;
		char label[FLEET_MSG];
		bool shared = count_host(g, g->n, r->host, NULL) > 1;
		unsigned before = count_host(g, i, r->host, shared ? r->rank : NULL);
		if (shared && r->rank)
			snprintf(label, sizeof(label), "%.200s[%.64s]", r->host, r->rank);
		else
			snprintf(label, sizeof(label), "%.200s", r->host);
		if (before > 0) {
			size_t used = strlen(label);
			snprintf(label + used, sizeof(label) - used, "#%u", before + 1);
			if (rep->duplicates++ == 0)
				snprintf(rep->first_duplicate, sizeof(rep->first_duplicate),
					 "%.80s has two records of run '%.60s' %.20s (%.60s, %.60s)", r->host,
					 g->run_id, g->test, g->rows[0].rec->where, r->where);
		}
		g->rows[i].label = strdup(label);
		if (!g->rows[i].label)
			return -1;
	}
	qsort(g->rows, g->n, sizeof(*g->rows), row_cmp);
	return 0;
}

/* ---- the figures of a group ---- */

static double metric(const struct fleet_group *g, const struct fleet_record *r)
{
	return g->by_iops ? r->iops : r->bytes_per_sec;
}

static int double_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

static int median_of(const struct fleet_group *g, double *out)
{
	double *v = malloc(g->n * sizeof(*v));
	if (!v)
		return -1;
	for (unsigned i = 0; i < g->n; i++)
		v[i] = metric(g, g->rows[i].rec);
	qsort(v, g->n, sizeof(*v), double_cmp);
	*out = g->n % 2 ? v[g->n / 2] : (v[g->n / 2 - 1] + v[g->n / 2]) / 2;
	free(v);
	return 0;
}

static int64_t first_start(const struct fleet_group *g)
{
	int64_t t = g->rows[0].rec->start_us;
	for (unsigned i = 1; i < g->n; i++)
		if (g->rows[i].rec->start_us < t)
			t = g->rows[i].rec->start_us;
	return t;
}

static void fill_rows(struct fleet_group *g)
{
	int64_t first = g->t.timed ? first_start(g) : 0;
	for (unsigned i = 0; i < g->n; i++) {
		struct fleet_row *row = &g->rows[i];
		const struct fleet_record *r = row->rec;
		row->start_offset_ms = g->t.timed ? (double)(r->start_us - first) / 1000.0 : NAN;
		row->deviation_pct = g->t.median > 0 ? (metric(g, r) / g->t.median - 1) * 100 : NAN;
		row->flags = 0;
		if ((r->has_late && r->late_us > FLEET_LATE_US) ||
		    row->start_offset_ms > r->seconds * 1000 * FLEET_LATE_SHARE_PCT / 100)
			row->flags |= FLAG_LATE;
		if (fabs(row->deviation_pct) > FLEET_OUTLIER_PCT)
			row->flags |= FLAG_OUTLIER;
		if (r->clock_synced == 0)
			row->flags |= FLAG_CLOCK;
		if (r->nwarnings > 0)
			row->flags |= FLAG_WARN;
	}
}

/* Bytes host r moved inside [from, to] (µs since the epoch), each sample
 * taken as moving its bytes evenly over the time it spans. */
static double bytes_within(const struct fleet_record *r, int64_t from, int64_t to)
{
	double sum = 0, begin = 0;
	for (unsigned i = 0; i < r->nseries; i++) {
		double end = r->series_end_s[i];
		double a = (double)r->start_us + begin * 1e6, b = (double)r->start_us + end * 1e6;
		double lo = a > (double)from ? a : (double)from, hi = b < (double)to ? b : (double)to;
		if (hi > lo)
			sum += (double)r->series_bytes[i] * (hi - lo) / (b - a);
		begin = end;
	}
	return sum;
}

/* The window where every host ran and has samples: from the last start to
 * the first end of a host's last sample. */
static void common_window(const struct fleet_group *g, struct fleet_totals *t)
{
	int64_t from = INT64_MIN, to = INT64_MAX;
	for (unsigned i = 0; i < g->n; i++) {
		const struct fleet_record *r = g->rows[i].rec;
		if (!r->nseries) {
			snprintf(t->window_why, sizeof(t->window_why),
				 "%.200s has no per-interval series (a run shorter than --interval?)",
				 g->rows[i].label);
			return;
		}
		int64_t end = r->start_us + (int64_t)(r->series_end_s[r->nseries - 1] * 1e6);
		if (r->start_us > from)
			from = r->start_us;
		if (end < to)
			to = end;
	}
	if (to <= from) {
		snprintf(t->window_why, sizeof(t->window_why), "the hosts' runs do not overlap");
		return;
	}
	for (unsigned i = 0; i < g->n; i++)
		t->window_bytes += bytes_within(g->rows[i].rec, from, to);
	t->window_s = (double)(to - from) / 1e6;
	t->window_bytes_per_sec = t->window_bytes / t->window_s;
	t->has_window = true;
}

static void span_and_skew(const struct fleet_group *g, struct fleet_totals *t)
{
	int64_t first = first_start(g), last = first, end = INT64_MIN;
	double *secs = malloc(g->n * sizeof(*secs));
	for (unsigned i = 0; i < g->n; i++) {
		const struct fleet_record *r = g->rows[i].rec;
		if (r->start_us > last)
			last = r->start_us;
		if (r->end_us > end)
			end = r->end_us;
		if (secs)
			secs[i] = r->seconds;
	}
	t->span_s = (double)(end - first) / 1e6;
	t->span_bytes_per_sec = t->span_s > 0 ? (double)t->bytes / t->span_s : NAN;
	t->start_skew_ms = (double)(last - first) / 1000.0;
	t->start_skew_pct = NAN;
	if (secs) {
		qsort(secs, g->n, sizeof(*secs), double_cmp);
		double run = g->n % 2 ? secs[g->n / 2] : (secs[g->n / 2 - 1] + secs[g->n / 2]) / 2;
		if (run > 0)
			t->start_skew_pct = t->start_skew_ms / 10.0 / run;
		free(secs);
	}
}

void fleet_merged_stats(const struct fleet_group *g, struct stats *s)
{
	stats_init(s);
	for (unsigned i = 0; i < g->n; i++) {
		const struct fleet_record *r = g->rows[i].rec;
		for (unsigned k = 0; k < r->nbuckets; k++) {
			s->bucket[r->buckets[k].index] += r->buckets[k].count;
			s->count += r->buckets[k].count;
		}
		if (r->nbuckets && r->lat_min < s->min)
			s->min = r->lat_min;
		if (r->nbuckets && r->lat_max > s->max)
			s->max = r->lat_max;
	}
}

/* Exact fleet percentiles: the hosts' bucket counts added, then read as one
 * histogram, with the fleet's true min and max as bounds. */
static int merged_percentiles(const struct fleet_group *g, struct fleet_totals *t)
{
	for (unsigned i = 0; i < g->n; i++) {
		const struct fleet_record *r = g->rows[i].rec;
		if (r->no_buckets || !r->has_lat) {
			snprintf(t->lat_why, sizeof(t->lat_why), "%.200s %s", g->rows[i].label,
				 r->no_buckets ? r->no_buckets : "has no lat_ns");
			return 0;
		}
	}
	struct stats *s = malloc(sizeof(*s));
	if (!s)
		return -1;
	fleet_merged_stats(g, s);
	if (s->count == 0) {
		snprintf(t->lat_why, sizeof(t->lat_why), "no host timed an I/O");
	} else {
		t->has_lat = true;
		t->lat_count = s->count;
		t->lat_min = s->min;
		t->lat_max = s->max;
		t->p50 = stats_percentile(s, 50);
		t->p90 = stats_percentile(s, 90);
		t->p99 = stats_percentile(s, 99);
		t->p99_9 = stats_percentile(s, 99.9);
	}
	free(s);
	return 0;
}

static int compute_group(struct fleet_group *g)
{
	struct fleet_totals *t = &g->t;
	g->by_iops = strncmp(g->test, "rand", 4) == 0;
	t->timed = true;
	for (unsigned i = 0; i < g->n; i++) {
		const struct fleet_record *r = g->rows[i].rec;
		t->bytes += r->bytes;
		t->ios += r->ios;
		t->sum_bytes_per_sec += r->bytes_per_sec;
		t->sum_iops += r->iops;
		if (!r->timed) {
			t->timed = false;
			snprintf(t->window_why, sizeof(t->window_why),
				 "%.200s has no started_at (not a --jsonl record)", g->rows[i].label);
		}
	}
	if (median_of(g, &t->median) != 0)
		return -1;
	fill_rows(g);
	if (t->timed) {
		span_and_skew(g, t);
		common_window(g, t);
	}
	return merged_percentiles(g, t);
}

/* ---- building the report ---- */

static int add_groups(const struct fleet_set *s, struct fleet_report *rep, unsigned *of,
		      char *why, size_t len)
{
	for (unsigned i = 0; i < s->n; i++) {
		unsigned g = 0;
		while (g < i && !(of[g] == g && same_group(&s->rec[g], &s->rec[i])))
			g++;
		of[i] = g; /* the index of the group's first record */
		if (g < i && params_differ(&s->rec[g], &s->rec[i])) {
			char note[FLEET_MSG];
			fleet_params_note(&s->rec[g], &s->rec[i], note, sizeof(note));
			snprintf(why, len, "run '%.60s' of %.20s mixes different params: %s", s->rec[i].run_id,
				 s->rec[i].test, note);
			errno = EINVAL;
			return -1;
		}
		if (g == i)
			rep->n++;
	}
	return 0;
}

int fleet_report_build(const struct fleet_set *s, struct fleet_report *rep, char *why, size_t len)
{
	memset(rep, 0, sizeof(*rep));
	unsigned *of = calloc(s->n ? s->n : 1, sizeof(*of));
	int rc = -1;
	snprintf(why, len, "out of memory");
	if (!of || add_groups(s, rep, of, why, len) != 0)
		goto out;
	rep->groups = calloc(rep->n ? rep->n : 1, sizeof(*rep->groups));
	if (!rep->groups)
		goto out;
	unsigned ng = 0;
	for (unsigned i = 0; i < s->n; i++) {
		if (of[i] != i)
			continue;
		struct fleet_group *g = &rep->groups[ng++];
		g->run_id = s->rec[i].run_id;
		g->test = s->rec[i].test;
		g->rows = calloc(s->n - i, sizeof(*g->rows));
		if (!g->rows)
			goto out;
		for (unsigned k = i; k < s->n; k++)
			if (of[k] == i)
				g->rows[g->n++].rec = &s->rec[k];
		if (label_rows(g, rep) != 0 || compute_group(g) != 0)
			goto out;
	}
	rc = 0;
out:
	free(of);
	if (rc != 0 && errno == ENOMEM)
		snprintf(why, len, "out of memory");
	return rc;
}

void fleet_report_free(struct fleet_report *rep)
{
	for (unsigned i = 0; i < rep->n && rep->groups; i++) {
		for (unsigned k = 0; k < rep->groups[i].n; k++)
			free(rep->groups[i].rows[k].label);
		free(rep->groups[i].rows);
	}
	free(rep->groups);
	memset(rep, 0, sizeof(*rep));
}
