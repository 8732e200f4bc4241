/* Reading one line of a fleet's JSON Lines into a fleet_record: past the
 * launcher's prefix, through the strict parser, every field checked; a line
 * that is not a record is counted with the first reason kept. */
#define _POSIX_C_SOURCE 200809L
#include "fleetreport.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonparse.h"
#include "stats.h"
#include "utctime.h"

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
	free(r->series_ios);
	free(r->series_p50);
	free(r->series_p99);
	free(r->error);
	free(r->fit_verdict);
	memset(r, 0, sizeof(*r));
}

void fleet_set_free(struct fleet_set *s)
{
	for (unsigned i = 0; i < s->n; i++)
		record_free(&s->rec[i]);
	for (unsigned i = 0; i < s->failed; i++)
		record_free(&s->frec[i]);
	free(s->rec);
	free(s->frec);
	memset(s, 0, sizeof(*s));
}

/* ---- strings from a file are data ---- */

/* The length of the UTF-8 sequence at s (at most n bytes) and its code
 * point, or 0 when s does not start a well-formed one. */
static size_t utf8_char(const unsigned char *s, size_t n, unsigned long *cp)
{
	size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : s[0] >= 0xe0 && s[0] < 0xf0 ? 3 :
		     s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : 0;
	if (len == 0 || len > n)
		return 0;
	*cp = len == 1 ? s[0] : s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	static const unsigned long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (*cp < least[len] || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

/* Characters that rewrite a terminal or reorder the text around them. */
static bool unsafe_char(unsigned long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x61c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

char *fleet_escape(const char *s, size_t n)
{
	char *out = malloc(6 * n + 1), *o = out; /* "\u202E" is the longest: 6 per byte at most */
	if (!out)
		return NULL;
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		unsigned long cp;
		size_t len = utf8_char(p + i, n - i, &cp);
		if (len == 0)
			o += sprintf(o, "\\x%02X", p[i]), len = 1;
		else if (unsafe_char(cp) && cp < 0x80)
			o += sprintf(o, "\\x%02lX", cp);
		else if (unsafe_char(cp))
			o += sprintf(o, "\\u%04lX", cp);
		else
			memcpy(o, p + i, len), o += len;
		i += len;
	}
	*o = '\0';
	return out;
}

static char *escape_str(const char *s)
{
	return fleet_escape(s, strlen(s));
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

int fleet_parse_time(const char *text, int64_t *us)
{
	int64_t ns;
	const char *why;
	if (utc_parse(text, &ns, &why) != 0)
		return -1;
	*us = ns / 1000;
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

bool fleet_record_nop(const struct fleet_record *r)
{
	for (unsigned i = 0; i < r->nparams; i++)
		if (strcmp(r->params[i].key, "engine") == 0)
			return strcmp(r->params[i].text, "\"nop\"") == 0;
	return false;
}

/* ---- the fields of one record ---- */

struct reading {
	const char *text;  /* the JSON, for the text of params values */
	const char *why;   /* why the line is not a record */
};

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
		p->key = fleet_escape(m->key, m->key_len);
		p->text = fleet_escape(rd->text + m->pos, m->end - m->pos);
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

/* series[key], when it is an array of n whole numbers or nulls (an interval
 * in which no I/O completed has no percentile: FLEET_NO_SAMPLE), into *out;
 * else *out stays NULL (the figure's per-interval spread is then unknown). */
static int take_samples(const struct jp_value *series, const char *key, unsigned n, uint64_t **out)
{
	const struct jp_value *a = jp_get(series, key);
	if (!a || a->type != JP_ARRAY || a->count != n)
		return 0;
	uint64_t *v = calloc(n, sizeof(*v));
	if (!v)
		return -1;
	unsigned i = 0;
	for (const struct jp_value *e = a->first; e; e = e->next, i++)
		if (e->type == JP_NULL)
			v[i] = FLEET_NO_SAMPLE;
		else if (jp_uint(e, &v[i]) != 0 || v[i] == FLEET_NO_SAMPLE) {
			free(v);
			return 0;
		}
	*out = v;
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
	if (take_samples(series, "ios", r->nseries, &r->series_ios) != 0 ||
	    take_samples(series, "p50_ns", r->nseries, &r->series_p50) != 0 ||
	    take_samples(series, "p99_ns", r->nseries, &r->series_p99) != 0)
		return -1;
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
	/* untrusted: a length past any run's (a year) would overflow below */
	if (!(r->seconds <= 365.0 * 86400)) {
		rd->why = "result.seconds is longer than any run (over a year)";
		return 1;
	}
	int64_t measured = r->start_us + (int64_t)(r->seconds * 1e6);
	if (!end)
		r->end_us = measured;
	if (r->end_us < r->start_us) {
		rd->why = "ended_at is before started_at";
		return 1;
	}
	/* both times are cut to the µs: beyond that (and a generous 1 ms + 0.1 %)
	 * the record contradicts itself, and which of the two to trust is unknown */
	double gap_us = fabs((double)(r->end_us - measured));
	if (gap_us > 1000 + r->seconds * 1000) {
		rd->why = "ended_at - started_at disagrees with result.seconds (by more than 1 ms + 0.1 %)";
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
			r->rank = escape_str(v);
			return r->rank ? 0 : -1;
		}
	}
	return 0;
}

/* lat_ns's min, max, p50 and p99, when all four are there */
static void take_lat(const struct jp_value *lat, struct fleet_record *r)
{
	r->has_lat = jp_uint(jp_get(lat, "min"), &r->lat_min) == 0 &&
		     jp_uint(jp_get(lat, "max"), &r->lat_max) == 0 &&
		     jp_uint(jp_get(lat, "p50"), &r->p50) == 0 && jp_uint(jp_get(lat, "p99"), &r->p99) == 0;
}

static void take_small_things(const struct jp_value *root, struct fleet_record *r)
{
	take_lat(jp_path(root, "result.lat_ns"), r);
	r->has_late = jp_double(jp_path(root, "start_at.late_us"), &r->late_us) == 0;
	const struct jp_value *sync = jp_path(root, "clock.synchronised");
	r->clock_synced = !sync ? -1 : sync->type == JP_TRUE ? 1 : sync->type == JP_FALSE ? 0 : -1;
	const struct jp_value *w = jp_get(root, "warnings");
	r->nwarnings = w && w->type == JP_ARRAY ? (unsigned)w->count : 0;
}

/* bytes, ios, seconds, bytes_per_sec and iops of res (a result, a sweep's
 * point): false when one is missing. */
static bool take_figures(const struct jp_value *res, struct fleet_record *r)
{
	return jp_uint(jp_get(res, "bytes"), &r->bytes) == 0 && jp_uint(jp_get(res, "ios"), &r->ios) == 0 &&
	       jp_double(jp_get(res, "seconds"), &r->seconds) == 0 &&
	       jp_double(jp_get(res, "bytes_per_sec"), &r->bytes_per_sec) == 0 &&
	       jp_double(jp_get(res, "iops"), &r->iops) == 0 && r->seconds >= 0;
}

/* The figures every record has; 1 with rd->why when they are missing. */
static int take_result(struct reading *rd, const struct jp_value *root, struct fleet_record *r)
{
	const struct jp_value *res = jp_get(root, "result");
	if (!take_figures(res, r)) {
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
	r->where = strdup(where); /* escaped by the caller */
	r->host = host ? escape_str(host) : strdup(label[0] ? label : where);
	r->run_id = escape_str(run_id ? run_id : "");
	r->test = escape_str(jp_str(jp_get(root, "test")));
	return r->where && r->host && r->run_id && r->test ? 0 : -1;
}

/* A step's test as report groups it: "quick: randread RND4K Q32T1 read"
 * when the step has its name (quick's lines and documents since they carry
 * "step"), else "quick: randread, step 3" (older documents: the order of
 * the steps is all that tells them apart). */
static int name_step(struct fleet_record *r, const char *command, const char *test,
		     const char *step, unsigned i)
{
	char full[FLEET_MSG];
	if (step)
		snprintf(full, sizeof(full), "%.40s: %.40s %.60s", command, test, step);
	else
		snprintf(full, sizeof(full), "%.40s: %.40s, step %u", command, test, i);
	free(r->test);
	return (r->test = escape_str(full)) ? 0 : -1;
}

/* 0: a record in r; 1: not one (rd->why); 2: a failed run; -1: ENOMEM. */
static int take_record(struct reading *rd, const struct jp_value *root, const char *label,
		       const char *where, struct fleet_record *r)
{
	if (root->type != JP_OBJECT || !jp_str(jp_get(root, "test"))) {
		rd->why = "not a diskbench record: no \"test\"";
		return 1;
	}
	if (take_names(root, label, where, r) != 0 || take_rank(jp_get(root, "launcher"), r) != 0)
		return -1;
	/* a step's own line (quick --jsonl): grouped with that step of other hosts */
	const char *command = jp_str(jp_get(root, "command")), *step = jp_str(jp_get(root, "step"));
	if (command && step && name_step(r, command, jp_str(jp_get(root, "test")), step, 0) != 0)
		return -1;
	const char *error = jp_str(jp_get(root, "error")), *verdict = jp_str(jp_path(root, "fit.verdict"));
	if (error) {
		r->error = escape_str(error);
		return r->error ? 2 : -1;
	}
	const struct jp_value *pass = jp_path(root, "fit.pass"); /* fit --jsonl */
	r->fit = !verdict ? 0 : pass && pass->type == JP_TRUE ? FLEET_FIT : FLEET_NOT_FIT;
	if (verdict && !(r->fit_verdict = escape_str(verdict)))
		return -1;
	int rc = take_result(rd, root, r);
	if (rc == 0)
		rc = take_times(rd, root, r);
	if (rc == 0)
		rc = take_params(rd, jp_get(root, "params"), r);
	return rc;
}

/* Step i (from 1) of a document of several tests: quick's one line, as
 * quick --jsonl wrote it before it wrote a line per step (kept so that
 * those files still merge): its names from the document (host, run id,
 * rank), its figures and params its own, and its test named by name_step,
 * so that it groups with the same step of the other hosts.  No times: the
 * document's started_at and ended_at span all its steps. */
static int take_step(struct reading *rd, const struct jp_value *root, const struct jp_value *step,
		     unsigned i, const char *label, const char *where, struct fleet_record *r)
{
	const char *name = jp_str(jp_get(step, "step")), *test = jp_str(jp_get(step, "test"));
	if (step->type != JP_OBJECT || !test) {
		rd->why = "a step of a document of several tests without its \"test\"";
		return 1;
	}
	if (take_names(root, label, where, r) != 0 || take_rank(jp_get(root, "launcher"), r) != 0 ||
	    name_step(r, jp_str(jp_get(root, "test")), test, name, i) != 0)
		return -1;
	const char *error = jp_str(jp_get(step, "error"));
	if (error) {
		r->error = escape_str(error);
		return r->error ? 2 : -1;
	}
	int rc = take_result(rd, step, r);
	return rc == 0 ? take_params(rd, jp_get(step, "params"), r) : rc;
}

/* A point of a sweep's series (a load level): its names from the document,
 * its test "sweep: small_random_read bs=4096, 8 outstanding", so that it
 * groups with the same point of the other hosts, its figures and
 * lat_buckets its own, the document's params.  No times, as take_step. */
static int take_point(struct reading *rd, const struct jp_value *root, const struct jp_value *series,
		      const struct jp_value *point, const char *label, const char *where,
		      struct fleet_record *r)
{
	const char *workload = jp_str(jp_get(series, "workload"));
	uint64_t bs, level;
	char full[FLEET_MSG];
	if (take_names(root, label, where, r) != 0 || take_rank(jp_get(root, "launcher"), r) != 0)
		return -1;
	if (!workload || jp_uint(jp_get(series, "block_size"), &bs) != 0 ||
	    jp_uint(jp_get(point, "outstanding"), &level) != 0 || !take_figures(point, r)) {
		rd->why = "a sweep point without its workload, block_size, outstanding or figures";
		return 1;
	}
	snprintf(full, sizeof(full), "sweep: %.60s bs=%llu, %llu outstanding", workload,
		 (unsigned long long)bs, (unsigned long long)level);
	free(r->test);
	if (!(r->test = escape_str(full)))
		return -1;
	take_lat(jp_get(point, "lat_ns"), r);
	r->clock_synced = -1;
	int rc = take_buckets(rd, jp_get(point, "lat_buckets"), r);
	return rc == 0 ? take_params(rd, jp_get(root, "params"), r) : rc;
}

/* Room for one more in *rec (n used of *cap). */
static int grow(struct fleet_record **rec, unsigned n, unsigned *cap)
{
	if (n < *cap)
		return 0;
	unsigned more = *cap ? 2 * *cap : 16;
	struct fleet_record *bigger = realloc(*rec, more * sizeof(*bigger));
	if (!bigger)
		return -1;
	*rec = bigger;
	*cap = more;
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

/* r, as take_record or take_step left it (rc), into s: 1 a record, 2 a
 * failed run (in s->frec), 0 not one (skipped), -1 ENOMEM. */
static int keep(struct fleet_set *s, int rc, struct fleet_record *r, const struct reading *rd,
		const char *where)
{
	if (rc == 1)
		skipped(s, where, rd->why, 0);
	if (rc == 0 && grow(&s->rec, s->n, &s->cap) == 0) {
		s->rec[s->n++] = *r;
		return 1;
	}
	if (rc == 2 && grow(&s->frec, s->failed, &s->fcap) == 0) {
		if (s->failed++ == 0)
			snprintf(s->first_failed, sizeof(s->first_failed), "%.100s (%.100s): %.100s",
				 r->host, where, r->error);
		s->frec[s->failed - 1] = *r;
		return 2;
	}
	record_free(r);
	return rc == 1 ? 0 : -1;
}

/* Each point of each of a sweep's series a record: as take_line. */
static int take_sweep(struct fleet_set *s, const struct jp_value *root, const struct jp_value *series,
		      const char *json, const char *label, const char *where)
{
	int rc = 0;
	unsigned n = 0;
	for (const struct jp_value *se = series->first; se && rc >= 0; se = se->next) {
		const struct jp_value *points = jp_get(se, "points");
		if (!points || points->type != JP_ARRAY)
			continue;
		for (const struct jp_value *pt = points->first; pt && rc >= 0; pt = pt->next, n++) {
			struct fleet_record r;
			struct reading rd = { .text = json };
			memset(&r, 0, sizeof(r));
			int got = keep(s, take_point(&rd, root, se, pt, label, where, &r), &r, &rd, where);
			rc = got < 0 ? -1 : got == 1 ? 1 : rc;
		}
	}
	if (n == 0)
		skipped(s, where, "a sweep that measured no point", 0);
	return rc;
}

/* The line's JSON parsed and taken, each step of a document of several
 * tests a record of its own: 1 when it held a record, 2 a failed run only,
 * 0 none, -1 ENOMEM. */
static int take_line(struct fleet_set *s, const char *json, size_t len, size_t offset,
		     const char *label, const char *where)
{
	struct jp_doc doc;
	const char *why = NULL;
	size_t pos = 0;
	if (jp_parse_capped(&doc, json, len, FLEET_MAX_VALUES, &why, &pos) != 0) {
		jp_free(&doc);
		if (errno == ENOMEM)
			return -1;
		skipped(s, where, why, offset + pos + 1);
		return 0;
	}
	const struct jp_value *steps = jp_get(doc.root, "tests");
	const struct jp_value *series = jp_path(doc.root, "result.series");
	int rc;
	if (series && series->type == JP_ARRAY && !jp_get(doc.root, "error")) {
		rc = take_sweep(s, doc.root, series, json, label, where);
	} else if (steps && steps->type == JP_ARRAY && jp_str(jp_get(doc.root, "test"))) {
		rc = 0;
		unsigned i = 0;
		for (const struct jp_value *st = steps->first; st && rc >= 0; st = st->next) {
			struct fleet_record r;
			struct reading rd = { .text = json };
			memset(&r, 0, sizeof(r));
			int got = keep(s, take_step(&rd, doc.root, st, ++i, label, where, &r), &r, &rd, where);
			rc = got < 0 ? -1 : got == 1 ? 1 : rc;
		}
		if (i == 0)
			skipped(s, where, "a document of several tests that holds none", 0);
	} else {
		struct fleet_record r;
		struct reading rd = { .text = json };
		memset(&r, 0, sizeof(r));
		rc = keep(s, take_record(&rd, doc.root, label, where, &r), &r, &rd, where);
	}
	jp_free(&doc);
	return rc;
}

void fleet_skip_line(struct fleet_set *s, const char *where, const char *why)
{
	char *place = escape_str(where);
	s->lines++;
	skipped(s, place ? place : "?", why, 0);
	free(place);
}

int fleet_add_line(struct fleet_set *s, const char *line, size_t len, const char *where)
{
	char label[64];
	s->lines++;
	if (blank(line, len))
		return 0;
	char *place = escape_str(where);
	if (!place)
		return -1;
	const char *json = fleet_json_start(line, len, label, sizeof(label));
	int rc = 0;
	if (len > FLEET_MAX_LINE)
		skipped(s, place, "longer than " FLEET_MAX_LINE_TEXT " (no diskbench record is)", 0);
	else if (!json)
		skipped(s, place, "no JSON on the line", 0);
	else
		rc = take_line(s, json, len - (size_t)(json - line), (size_t)(json - line), label, place);
	free(place);
	return rc < 0 ? -1 : rc == 1;
}
