/* Grouping a fleet's records and the figures of each group: per-host rows
 * (start offset, deviation from the median, flags) and fleet totals (sums,
 * the span, the common window, start skew, exact merged percentiles). */
#define _POSIX_C_SOURCE 200809L
#include "fleetreport.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "strmap.h"

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

/* The first compared key of a's or b's params whose values differ, or NULL:
 * "engine" only where one run sent NOPs and the other moved data. */
static const char *params_differ(const struct fleet_record *a, const struct fleet_record *b)
{
	const struct fleet_record *sides[2] = { a, b };
	if (fleet_record_nop(a) != fleet_record_nop(b))
		return "engine";
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
		snprintf(out, len, "params.%s is %.40s on %.60s (%.80s) and %.40s on %.60s (%.80s)%s", key,
			 param_text(a, key), a->host, a->where, param_text(b, key), b->host, b->where,
			 strcmp(key, "engine") == 0 ? " (NOPs are diskbench's own ceiling, no device's "
						      "figure: never merged with a disk's)" : "");
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

/* No run lasts longer than this (a year): a series said to end later is
 * a damaged or hostile record. */
#define FLEET_MAX_SERIES_S (365.0 * 86400)

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
		/* a record's numbers are untrusted: an end past any run's length
		 * (or past int64's microseconds) is no window */
		double end_s = r->series_end_s[r->nseries - 1];
		if (!(end_s >= 0 && end_s <= FLEET_MAX_SERIES_S)) {
			snprintf(t->window_why, sizeof(t->window_why),
				 "%.200s has a series that ends at an impossible time", g->rows[i].label);
			return;
		}
		int64_t end = r->start_us + (int64_t)(end_s * 1e6);
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

void fleet_stats_add(struct stats *s, const struct fleet_record *r)
{
	for (unsigned k = 0; k < r->nbuckets; k++) {
		s->bucket[r->buckets[k].index] += r->buckets[k].count;
		s->count += r->buckets[k].count;
	}
	if (r->nbuckets && r->lat_min < s->min)
		s->min = r->lat_min;
	if (r->nbuckets && r->lat_max > s->max)
		s->max = r->lat_max;
}

void fleet_merged_stats(const struct fleet_group *g, struct stats *s)
{
	stats_init(s);
	for (unsigned i = 0; i < g->n; i++)
		fleet_stats_add(s, g->rows[i].rec);
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
				 "%.200s has no started_at (not a --jsonl record, or a sweep's point)",
				 g->rows[i].label);
		}
	}
	if (median_of(g, &t->median) != 0)
		return -1;
	fill_rows(g);
	if (t->timed) {
		span_and_skew(g, t);
		common_window(g, t);
		g->timed = true;
		g->first_start_us = first_start(g);
		g->last_end_us = g->rows[0].rec->end_us;
		for (unsigned i = 1; i < g->n; i++)
			if (g->rows[i].rec->end_us > g->last_end_us)
				g->last_end_us = g->rows[i].rec->end_us;
	}
	return merged_percentiles(g, t);
}

/* ---- one launch split in two ---- */

static int by_test_then_start(const void *x, const void *y)
{
	const struct fleet_group *a = *(const struct fleet_group *const *)x;
	const struct fleet_group *b = *(const struct fleet_group *const *)y;
	int c = strcmp(a->test, b->test);
	if (c)
		return c;
	return a->first_start_us < b->first_start_us ? -1 : a->first_start_us > b->first_start_us;
}

/* Runs of one test under different run ids that overlap in time on
 * different hosts are most likely one launch whose hosts chose different
 * ids (--start-at +N across a slot, no --run-id): counted, the first named. */
static int find_overlaps(struct fleet_report *rep)
{
	const struct fleet_group **timed = calloc(rep->n + 1, sizeof(*timed));
	unsigned n = 0;
	if (!timed)
		return -1;
	for (unsigned i = 0; i < rep->n; i++)
		if (rep->groups[i].timed)
			timed[n++] = &rep->groups[i];
	qsort(timed, n, sizeof(*timed), by_test_then_start);
	const struct fleet_group *latest = NULL; /* of this test, the run that ends last */
	for (unsigned i = 0; i < n; i++) {
		const struct fleet_group *g = timed[i];
		if (latest && strcmp(latest->test, g->test) != 0)
			latest = NULL;
		if (latest && g->first_start_us < latest->last_end_us &&
		    strcmp(latest->rows[0].rec->host, g->rows[0].rec->host) != 0 &&
		    rep->overlaps++ == 0)
			snprintf(rep->first_overlap, sizeof(rep->first_overlap),
				 "runs '%.60s' (%.60s) and '%.60s' (%.60s) of %.20s", latest->run_id,
				 latest->rows[0].label, g->run_id, g->rows[0].label, g->test);
		if (!latest || g->last_end_us > latest->last_end_us)
			latest = g;
	}
	free(timed);
	return 0;
}

/* ---- building the report ---- */

/* What building keeps while it walks the records once: the run of each
 * record and where each host's record of a run is, by hash. */
struct builder {
	const struct fleet_set *s;
	struct fleet_report *rep;
	struct strmap groups;   /* run_id + test → group index */
	struct strmap hosts;    /* run_id + test + host + rank → record number */
	struct strmap names;    /* run_id + test + host → how many records (ranks) */
	unsigned *group_of;     /* per record number: its group */
	unsigned *first_ok;     /* per group: its first record that ran, or UINT_MAX */
	unsigned *nrows, *nothers;
	const struct fleet_record **same_as; /* per record number: the record it repeats */
	char *why;
	size_t len;
};

/* Records are numbered: those that ran first (s->rec), then failed runs. */
static const struct fleet_record *record_no(const struct fleet_set *s, unsigned k)
{
	return k < s->n ? &s->rec[k] : &s->frec[k - s->n];
}

/* The value under the key of parts (stored as init when new), or NULL. */
static unsigned *keyed_at(struct strmap *m, const char *const *parts, unsigned n, unsigned init,
			  int *found)
{
	size_t len;
	char *key = strmap_key(parts, n, &len);
	if (!key)
		return NULL;
	unsigned *v = strmap_at(m, key, len, init, found);
	free(key);
	return v;
}

/* The same record given twice (a merged file beside the per-node ones). */
static bool identical(const struct fleet_record *a, const struct fleet_record *b)
{
	if (a->error || b->error)
		return a->error && b->error && strcmp(a->error, b->error) == 0;
	return a->timed == b->timed && a->start_us == b->start_us && a->end_us == b->end_us &&
	       a->bytes == b->bytes && a->ios == b->ios && a->seconds == b->seconds &&
	       a->bytes_per_sec == b->bytes_per_sec && a->iops == b->iops && a->p50 == b->p50 &&
	       a->p99 == b->p99 && a->nbuckets == b->nbuckets;
}

static int conflict(struct builder *b, const struct fleet_record *a, const struct fleet_record *r)
{
	snprintf(b->why, b->len, "%.100s%s%.40s%s has two different records of run '%.60s' %.20s: "
		 "%.100s and %.100s (give each launch its own --run-id, or leave one file out)",
		 r->host, r->rank ? "[" : "", r->rank ? r->rank : "", r->rank ? "]" : "", r->run_id,
		 r->test, a->where, r->where);
	errno = EINVAL;
	return -1;
}

static int mixed_params(struct builder *b, const struct fleet_record *first,
			const struct fleet_record *r)
{
	char note[FLEET_MSG];
	fleet_params_note(first, r, note, sizeof(note));
	snprintf(b->why, b->len, "run '%.60s' of %.20s mixes different params: %s", r->run_id, r->test,
		 note);
	errno = EINVAL;
	return -1;
}

/* Record k into its group, once: its group made when new, a repeat found. */
static int place_record(struct builder *b, unsigned k)
{
	const struct fleet_record *r = record_no(b->s, k);
	const char *parts[4] = { r->run_id, r->test, r->host, r->rank };
	int found;
	unsigned *v = keyed_at(&b->groups, parts, 2, b->rep->n, &found);
	if (!v)
		return -1;
	unsigned g = *v;
	if (!found)
		b->first_ok[b->rep->n++] = UINT_MAX;
	b->group_of[k] = g;
	if (!(v = keyed_at(&b->hosts, parts, 4, k, &found)))
		return -1;
	if (found) {
		const struct fleet_record *was = record_no(b->s, *v);
		if (!identical(was, r))
			return conflict(b, was, r);
		b->same_as[k] = was;
		b->nothers[g]++;
		if (b->rep->duplicates++ == 0)
			snprintf(b->rep->first_duplicate, sizeof(b->rep->first_duplicate),
				 "%.100s in %.100s repeats %.100s", r->host, r->where, was->where);
		return 0;
	}
	if (!(v = keyed_at(&b->names, parts, 3, 0, &found)))
		return -1;
	(*v)++;
	if (r->error) {
		b->nothers[g]++;
		b->rep->failed++;
		return 0;
	}
	b->nrows[g]++;
	if (b->first_ok[g] == UINT_MAX)
		b->first_ok[g] = k;
	else if (params_differ(&b->s->rec[b->first_ok[g]], r))
		return mixed_params(b, &b->s->rec[b->first_ok[g]], r);
	return 0;
}
/* host, or host[rank] when the host has records of several ranks in the run */
static int label_row(struct builder *b, struct fleet_row *row)
{
	const struct fleet_record *r = row->rec;
	const char *parts[3] = { r->run_id, r->test, r->host };
	size_t len;
	unsigned ranks = 1;
	char label[FLEET_MSG], *key = strmap_key(parts, 3, &len);
	if (!key)
		return -1;
	strmap_get(&b->names, key, len, &ranks);
	free(key);
	if (ranks > 1)
		snprintf(label, sizeof(label), "%.200s[%.64s]", r->host, r->rank ? r->rank : "?");
	else
		snprintf(label, sizeof(label), "%.200s", r->host);
	row->label = strdup(label);
	return row->label ? 0 : -1;
}

static int alloc_groups(struct builder *b)
{
	struct fleet_report *rep = b->rep;
	rep->groups = calloc(rep->n ? rep->n : 1, sizeof(*rep->groups));
	if (!rep->groups)
		return -1;
	for (unsigned g = 0; g < rep->n; g++) {
		rep->groups[g].rows = calloc(b->nrows[g] ? b->nrows[g] : 1, sizeof(struct fleet_row));
		rep->groups[g].others = calloc(b->nothers[g] ? b->nothers[g] : 1, sizeof(struct fleet_row));
		if (!rep->groups[g].rows || !rep->groups[g].others)
			return -1;
	}
	return 0;
}

/* Every record into its group's rows or others, labelled, in input order. */
static int fill_groups(struct builder *b, unsigned total)
{
	for (unsigned k = 0; k < total; k++) {
		const struct fleet_record *r = record_no(b->s, k);
		struct fleet_group *g = &b->rep->groups[b->group_of[k]];
		struct fleet_row *row;
		if (!g->test) {
			g->run_id = r->run_id, g->test = r->test;
			/* random tests, random steps of quick ("quick: randread, step 3")
			 * and the small random points of a sweep */
			g->by_iops = strncmp(g->test, "rand", 4) == 0 || strstr(g->test, ": rand") ||
				     strncmp(g->test, "sweep: small_", 13) == 0;
			g->nop = fleet_record_nop(r); /* one kind in a group: params_differ */
		}
		if (b->same_as[k] || r->error) {
			row = &g->others[g->nothers++];
			row->status = b->same_as[k] ? ROW_DUPLICATE : ROW_FAILED;
			row->same_as = b->same_as[k];
			g->nfailed += row->status == ROW_FAILED;
		} else {
			row = &g->rows[g->n++];
		}
		row->rec = r;
		row->start_offset_ms = row->deviation_pct = NAN;
		if (label_row(b, row) != 0)
			return -1;
	}
	return 0;
}

static int builder_init(struct builder *b, const struct fleet_set *s, struct fleet_report *rep,
			char *why, size_t len)
{
	unsigned total = s->n + s->failed;
	memset(b, 0, sizeof(*b));
	b->s = s, b->rep = rep, b->why = why, b->len = len;
	strmap_init(&b->groups);
	strmap_init(&b->hosts);
	strmap_init(&b->names);
	b->group_of = calloc(total + 1, sizeof(*b->group_of));
	b->first_ok = calloc(total + 1, sizeof(*b->first_ok));
	b->nrows = calloc(total + 1, sizeof(*b->nrows));
	b->nothers = calloc(total + 1, sizeof(*b->nothers));
	b->same_as = calloc(total + 1, sizeof(*b->same_as));
	return b->group_of && b->first_ok && b->nrows && b->nothers && b->same_as ? 0 : -1;
}

static void builder_free(struct builder *b)
{
	strmap_free(&b->groups);
	strmap_free(&b->hosts);
	strmap_free(&b->names);
	free(b->group_of);
	free(b->first_ok);
	free(b->nrows);
	free(b->nothers);
	free(b->same_as);
}

int fleet_report_build(const struct fleet_set *s, struct fleet_report *rep, char *why, size_t len)
{
	struct builder b;
	unsigned total = s->n + s->failed;
	int rc = -1;
	memset(rep, 0, sizeof(*rep));
	errno = ENOMEM;
	if (builder_init(&b, s, rep, why, len) != 0)
		goto out;
	for (unsigned k = 0; k < total; k++)
		if (place_record(&b, k) != 0)
			goto out;
	if (alloc_groups(&b) != 0 || fill_groups(&b, total) != 0)
		goto out;
	for (unsigned g = 0; g < rep->n; g++) {
		struct fleet_group *grp = &rep->groups[g];
		qsort(grp->rows, grp->n, sizeof(*grp->rows), row_cmp);
		if (grp->n && compute_group(grp) != 0)
			goto out;
	}
	rc = find_overlaps(rep);
out:
	builder_free(&b);
	if (rc != 0 && errno == ENOMEM)
		snprintf(why, len, "out of memory");
	return rc;
}

void fleet_report_free(struct fleet_report *rep)
{
	for (unsigned i = 0; i < rep->n && rep->groups; i++) {
		for (unsigned k = 0; k < rep->groups[i].n; k++)
			free(rep->groups[i].rows[k].label);
		for (unsigned k = 0; k < rep->groups[i].nothers; k++)
			free(rep->groups[i].others[k].label);
		free(rep->groups[i].rows);
		free(rep->groups[i].others);
	}
	free(rep->groups);
	memset(rep, 0, sizeof(*rep));
}
