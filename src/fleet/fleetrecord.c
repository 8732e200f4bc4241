/* Reading one line of a fleet's JSON Lines into a fleet_record: past the
 * launcher's prefix, through the strict parser, every field checked; a line
 * that is not a record is counted with the first reason kept. */
#define _POSIX_C_SOURCE 200809L
#include "fleetreport.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonparse.h"
#include "stats.h"

void fleet_set_init(struct fleet_set *s)
{
	memset(s, 0, sizeof(*s));
}

static void record_free(struct fleet_record *r)
{
	free(r->where);
	free(r->host);
	free(r->rank);
	free(r->run_id);
	free(r->test);
	for (unsigned i = 0; i < r->nparams; i++) {
		free(r->params[i].key);
		free(r->params[i].text);
	}
	free(r->params);
	free(r->buckets);
	free(r->series_end_s);
	free(r->series_bytes);
	memset(r, 0, sizeof(*r));
}

void fleet_set_free(struct fleet_set *s)
{
	for (unsigned i = 0; i < s->n; i++)
		record_free(&s->rec[i]);
	free(s->rec);
	memset(s, 0, sizeof(*s));
}

/* A launcher's prefix names a host or a rank: a short word of these. */
static bool label_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '-' || c == '_';
}

const char *fleet_json_start(const char *line, size_t len, char *label, size_t label_len)
{
	const char *brace = memchr(line, '{', len);
	label[0] = '\0';
	if (!brace)
		return NULL;
	size_t from = 0, to = (size_t)(brace - line);
	while (from < to && (line[from] == ' ' || line[from] == '\t'))
		from++;
	while (to > from && (line[to - 1] == ' ' || line[to - 1] == '\t'))
		to--;
	if (to > from && line[to - 1] == ':')
		to--;
	bool word = to > from && to - from < label_len;
	for (size_t i = from; word && i < to; i++)
		word = label_char(line[i]);
	if (word) {
		memcpy(label, line + from, to - from);
		label[to - from] = '\0';
	}
	return brace;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar
 * (Howard Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

/* n digits at *p as a number, or -1. */
static long digits(const char **p, int n)
{
	long v = 0;
	for (int i = 0; i < n; i++, (*p)++) {
		if (**p < '0' || **p > '9')
			return -1;
		v = v * 10 + (**p - '0');
	}
	return v;
}

int fleet_parse_time(const char *text, int64_t *us)
{
	static const unsigned mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	const char *p = text;
	long y = digits(&p, 4), mo = *p == '-' ? (p++, digits(&p, 2)) : -1;
	long d = *p == '-' ? (p++, digits(&p, 2)) : -1;
	long h = *p == 'T' ? (p++, digits(&p, 2)) : -1;
	long mi = *p == ':' ? (p++, digits(&p, 2)) : -1;
	long s = *p == ':' ? (p++, digits(&p, 2)) : -1;
	if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > (long)mdays[mo - 1] || h < 0 || h > 23 ||
	    mi < 0 || mi > 59 || s < 0 || s > 60)
		return -1;
	long frac = 0;
	if (*p == '.') {
		int n = 0;
		for (p++; *p >= '0' && *p <= '9'; p++, n++)
			if (n < 6)
				frac = frac * 10 + (*p - '0');
		if (n == 0)
			return -1;
		for (; n < 6; n++)
			frac *= 10;
	}
	if (strcmp(p, "Z") != 0)
		return -1;
	int64_t days = days_from_civil(y, (unsigned)mo, (unsigned)d);
	*us = ((days * 24 + h) * 3600 + mi * 60 + s) * 1000000 + frac;
	return 0;
}

bool fleet_param_ignored(const char *key)
{
	/* seed: random per host unless --seed; file_state: a host may find its
	 * file there already; buffer: whether huge pages were to be had; engine:
	 * what auto found in that host's kernel */
	static const char *const per_host[] = { "seed", "file_state", "buffer", "engine" };
	for (size_t i = 0; i < sizeof(per_host) / sizeof(per_host[0]); i++)
		if (strcmp(key, per_host[i]) == 0)
			return true;
	return false;
}

/* ---- the fields of one record ---- */

struct reading {
	const char *text;  /* the JSON, for the text of params values */
	const char *why;   /* why the line is not a record */
};

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static int take_params(struct reading *rd, const struct jp_value *params, struct fleet_record *r)
{
	if (!params)
		return 0;
	if (params->type != JP_OBJECT) {
		rd->why = "\"params\" is not an object";
		return 1;
	}
	r->params = calloc(params->count ? params->count : 1, sizeof(*r->params));
	if (!r->params)
		return -1;
	for (const struct jp_value *m = params->first; m; m = m->next) {
		struct fleet_param *p = &r->params[r->nparams++];
		p->key = dup_n(m->key, m->key_len);
		p->text = dup_n(rd->text + m->pos, m->end - m->pos);
		if (!p->key || !p->text)
			return -1;
		p->is_number = jp_double(m, &p->number) == 0;
	}
	return 0;
}

/* Sparse [index, count] pairs, indices rising, of the named scheme. */
static int take_buckets(struct reading *rd, const struct jp_value *lb, struct fleet_record *r)
{
	if (!lb) {
		r->no_buckets = "has no lat_buckets";
		return 0;
	}
	const char *scheme = jp_str(jp_get(lb, "scheme"));
	const struct jp_value *pairs = jp_get(lb, "pairs");
	if (!scheme || !pairs || pairs->type != JP_ARRAY) {
		rd->why = "lat_buckets lacks its scheme or pairs";
		return 1;
	}
	if (strcmp(scheme, FLEET_SCHEME) != 0) {
		r->no_buckets = "has lat_buckets of another scheme than " FLEET_SCHEME;
		return 0;
	}
	r->buckets = calloc(pairs->count ? pairs->count : 1, sizeof(*r->buckets));
	if (!r->buckets)
		return -1;
	for (const struct jp_value *pr = pairs->first; pr; pr = pr->next) {
		uint64_t index, count;
		if (pr->type != JP_ARRAY || pr->count != 2 || jp_uint(pr->first, &index) != 0 ||
		    jp_uint(pr->first->next, &count) != 0 || index >= STATS_NBUCKETS) {
			rd->why = "lat_buckets holds a pair that is not [bucket index, count]";
			return 1;
		}
		if (r->nbuckets > 0 && index <= r->buckets[r->nbuckets - 1].index) {
			rd->why = "lat_buckets' indices do not rise";
			return 1;
		}
		r->buckets[r->nbuckets].index = (unsigned)index;
		r->buckets[r->nbuckets++].count = count;
	}
	return 0;
}

static int take_series(struct reading *rd, const struct jp_value *series, struct fleet_record *r)
{
	const struct jp_value *t = jp_get(series, "t_s"), *b = jp_get(series, "bytes");
	if (!series || series->type == JP_NULL)
		return 0;
	if (!t || !b || t->type != JP_ARRAY || b->type != JP_ARRAY || t->count != b->count) {
		rd->why = "result.series lacks t_s and bytes of the same length";
		return 1;
	}
	if (t->count == 0)
		return 0;
	r->series_end_s = calloc(t->count, sizeof(double));
	r->series_bytes = calloc(t->count, sizeof(uint64_t));
	if (!r->series_end_s || !r->series_bytes)
		return -1;
	const struct jp_value *tv = t->first, *bv = b->first;
	for (; tv; tv = tv->next, bv = bv->next, r->nseries++) {
		double prev = r->nseries ? r->series_end_s[r->nseries - 1] : 0;
		if (jp_double(tv, &r->series_end_s[r->nseries]) != 0 ||
		    jp_uint(bv, &r->series_bytes[r->nseries]) != 0 ||
		    !(r->series_end_s[r->nseries] > prev)) {
			rd->why = "result.series holds a sample out of order or not a number";
			return 1;
		}
	}
	return 0;
}

static int take_times(struct reading *rd, const struct jp_value *root, struct fleet_record *r)
{
	const struct jp_value *start = jp_get(root, "started_at"), *end = jp_get(root, "ended_at");
	if (!start)
		return 0;
	if (!jp_str(start) || fleet_parse_time(start->str, &r->start_us) != 0 ||
	    (end && (!jp_str(end) || fleet_parse_time(end->str, &r->end_us) != 0))) {
		rd->why = "started_at or ended_at is not a UTC time like 2026-11-30T12:00:00.123456Z";
		return 1;
	}
	int64_t measured = r->start_us + (int64_t)(r->seconds * 1e6);
	if (!end)
		r->end_us = measured;
	if (r->end_us < r->start_us) {
		rd->why = "ended_at is before started_at";
		return 1;
	}
	r->timed = true;
	return 0;
}

/* The launcher's rank or index, to tell two records of one host apart. */
static int take_rank(const struct jp_value *launcher, struct fleet_record *r)
{
	static const char *const keys[] = { "SLURM_PROCID", "JOB_COMPLETION_INDEX",
					     "OMPI_COMM_WORLD_RANK", "PMI_RANK" };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = jp_str(jp_get(launcher, keys[i]));
		if (v) {
			r->rank = strdup(v);
			return r->rank ? 0 : -1;
		}
	}
	return 0;
}

static void take_small_things(const struct jp_value *root, struct fleet_record *r)
{
	const struct jp_value *lat = jp_path(root, "result.lat_ns");
	r->has_lat = jp_uint(jp_get(lat, "min"), &r->lat_min) == 0 &&
		     jp_uint(jp_get(lat, "max"), &r->lat_max) == 0 &&
		     jp_uint(jp_get(lat, "p50"), &r->p50) == 0 && jp_uint(jp_get(lat, "p99"), &r->p99) == 0;
	r->has_late = jp_double(jp_path(root, "start_at.late_us"), &r->late_us) == 0;
	const struct jp_value *sync = jp_path(root, "clock.synchronised");
	r->clock_synced = !sync ? -1 : sync->type == JP_TRUE ? 1 : sync->type == JP_FALSE ? 0 : -1;
	const struct jp_value *w = jp_get(root, "warnings");
	r->nwarnings = w && w->type == JP_ARRAY ? (unsigned)w->count : 0;
}

/* The figures every record has; 1 with rd->why when they are missing. */
static int take_result(struct reading *rd, const struct jp_value *root, struct fleet_record *r)
{
	const struct jp_value *res = jp_get(root, "result");
	if (jp_uint(jp_get(res, "bytes"), &r->bytes) != 0 || jp_uint(jp_get(res, "ios"), &r->ios) != 0 ||
	    jp_double(jp_get(res, "seconds"), &r->seconds) != 0 ||
	    jp_double(jp_get(res, "bytes_per_sec"), &r->bytes_per_sec) != 0 ||
	    jp_double(jp_get(res, "iops"), &r->iops) != 0 || r->seconds < 0) {
		rd->why = "not a test record: result.bytes, ios, seconds, bytes_per_sec or iops missing";
		return 1;
	}
	take_small_things(root, r);
	int rc = take_buckets(rd, jp_get(res, "lat_buckets"), r);
	if (rc == 0)
		rc = take_series(rd, jp_get(res, "series"), r);
	return rc;
}

static int take_names(const struct jp_value *root, const char *label, const char *where,
		      struct fleet_record *r)
{
	const char *host = jp_str(jp_get(root, "host"));
	const char *run_id = jp_str(jp_get(root, "run_id"));
	r->where = strdup(where);
	r->host = strdup(host ? host : label[0] ? label : where);
	r->run_id = strdup(run_id ? run_id : "");
	r->test = strdup(jp_str(jp_get(root, "test")));
	return r->where && r->host && r->run_id && r->test ? 0 : -1;
}

/* 0: a record in r; 1: not one (rd->why); 2: a failed run; -1: ENOMEM. */
static int take_record(struct reading *rd, const struct jp_value *root, const char *label,
		       const char *where, struct fleet_record *r)
{
	if (root->type != JP_OBJECT || !jp_str(jp_get(root, "test"))) {
		rd->why = "not a diskbench record: no \"test\"";
		return 1;
	}
	if (jp_get(root, "tests")) {
		rd->why = "a document of several tests (quick, sweep): report reads single tests";
		return 1;
	}
	if (take_names(root, label, where, r) != 0)
		return -1;
	const char *error = jp_str(jp_get(root, "error"));
	if (error) {
		rd->why = error;
		return 2;
	}
	int rc = take_result(rd, root, r);
	if (rc == 0)
		rc = take_times(rd, root, r);
	if (rc == 0)
		rc = take_params(rd, jp_get(root, "params"), r);
	if (rc == 0)
		rc = take_rank(jp_get(root, "launcher"), r);
	return rc;
}

static int grow(struct fleet_set *s)
{
	if (s->n < s->cap)
		return 0;
	unsigned cap = s->cap ? 2 * s->cap : 16;
	struct fleet_record *rec = realloc(s->rec, cap * sizeof(*rec));
	if (!rec)
		return -1;
	s->rec = rec;
	s->cap = cap;
	return 0;
}

static bool blank(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r' && line[i] != '\n')
			return false;
	return true;
}

static void skipped(struct fleet_set *s, const char *where, const char *why, size_t col)
{
	s->skipped++;
	if (s->first_skipped[0])
		return;
	if (col)
		snprintf(s->first_skipped, sizeof(s->first_skipped), "%s: column %zu: %s", where, col, why);
	else
		snprintf(s->first_skipped, sizeof(s->first_skipped), "%s: %s", where, why);
}

int fleet_add_line(struct fleet_set *s, const char *line, size_t len, const char *where)
{
	char label[64];
	s->lines++;
	if (blank(line, len))
		return 0;
	const char *json = fleet_json_start(line, len, label, sizeof(label));
	if (!json || len > FLEET_MAX_LINE) {
		skipped(s, where, json ? "line longer than 64 MiB" : "no JSON on the line", 0);
		return 0;
	}
	struct jp_doc doc;
	const char *why = NULL;
	size_t pos = 0, offset = (size_t)(json - line);
	if (jp_parse(&doc, json, len - offset, &why, &pos) != 0) {
		jp_free(&doc);
		if (errno == ENOMEM)
			return -1;
		skipped(s, where, why, offset + pos + 1);
		return 0;
	}
	if (grow(s) != 0) {
		jp_free(&doc);
		return -1;
	}
	struct fleet_record *r = &s->rec[s->n];
	struct reading rd = { .text = json };
	memset(r, 0, sizeof(*r));
	int rc = take_record(&rd, doc.root, label, where, r);
	if (rc == 2 && s->failed++ == 0)
		snprintf(s->first_failed, sizeof(s->first_failed), "%s (%s): %s", r->host, where, rd.why);
	else if (rc == 1)
		skipped(s, where, rd.why, 0);
	jp_free(&doc);
	if (rc == 0)
		s->n++;
	else
		record_free(r);
	return rc < 0 ? -1 : rc == 0;
}
