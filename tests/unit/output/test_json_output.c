/* Unit tests of src/output/output.c and src/lib/json.c: the JSON document is valid
 * (checked by a strict parser below: RFC 8259 grammar, UTF-8 per RFC 3629),
 * strings are escaped, the contract's keys are there; CSV is RFC 4180 with
 * as many columns in each row as in the header; the text line looks like
 * dd's. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskbench.h"
#include "json.h"
#include "output.h"
#include "stats.h"

/* ---- a small strict JSON parser (to a tree) ----------------------------- */

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype type;
	bool b;
	double num;
	char *str;          /* J_STR: decoded UTF-8 (\u0000 is rejected) */
	size_t len;         /* J_STR: bytes in str */
	struct jval **items; /* J_ARR, J_OBJ values */
	char **keys;        /* J_OBJ */
	size_t n;
};

struct jparser {
	const unsigned char *p, *end;
	const char *err;
	size_t err_at;
	const unsigned char *start;
	int depth;
};

static void jfree(struct jval *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		jfree(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

static bool jfail(struct jparser *ps, const char *msg)
{
	if (!ps->err) {
		ps->err = msg;
		ps->err_at = (size_t)(ps->p - ps->start);
	}
	return false;
}

static void skip_ws(struct jparser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

/* Validates one UTF-8 sequence at p (RFC 3629: no overlongs, no
 * surrogates, nothing above U+10FFFF); returns its length or 0. */
static size_t utf8_valid(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];
	size_t len;
	unsigned cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if ((size_t)(end - p) < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000))
		return 0; /* overlong */
	if (cp >= 0xd800 && cp <= 0xdfff)
		return 0; /* surrogate */
	if (cp > 0x10ffff)
		return 0;
	return len;
}

static void put_utf8(char *out, size_t *n, unsigned cp)
{
	if (cp < 0x80) {
		out[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		out[(*n)++] = (char)(0xc0 | (cp >> 6));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		out[(*n)++] = (char)(0xe0 | (cp >> 12));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		out[(*n)++] = (char)(0xf0 | (cp >> 18));
		out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*n)++] = (char)(0x80 | (cp & 0x3f));
	}
}

static int hex4(const unsigned char *p, const unsigned char *end, unsigned *out)
{
	if (end - p < 4)
		return -1;
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		unsigned char c = p[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static bool parse_string(struct jparser *ps, char **out, size_t *outlen)
{
	if (ps->p >= ps->end || *ps->p != '"')
		return jfail(ps, "expected '\"'");
	ps->p++;
	/* decoded is never longer than the source */
	char *buf = malloc((size_t)(ps->end - ps->p) + 1);
	size_t n = 0;
	assert_non_null(buf);
	for (;;) {
		if (ps->p >= ps->end) {
			free(buf);
			return jfail(ps, "unterminated string");
		}
		unsigned char c = *ps->p;
		if (c == '"') {
			ps->p++;
			break;
		}
		if (c < 0x20) {
			free(buf);
			return jfail(ps, "raw control character in string");
		}
		if (c == '\\') {
			ps->p++;
			if (ps->p >= ps->end) {
				free(buf);
				return jfail(ps, "bad escape");
			}
			unsigned char e = *ps->p++;
			switch (e) {
			case '"': buf[n++] = '"'; break;
			case '\\': buf[n++] = '\\'; break;
			case '/': buf[n++] = '/'; break;
			case 'b': buf[n++] = '\b'; break;
			case 'f': buf[n++] = '\f'; break;
			case 'n': buf[n++] = '\n'; break;
			case 'r': buf[n++] = '\r'; break;
			case 't': buf[n++] = '\t'; break;
			case 'u': {
				unsigned cp;
				if (hex4(ps->p, ps->end, &cp) != 0) {
					free(buf);
					return jfail(ps, "bad \\u escape");
				}
				ps->p += 4;
				if (cp >= 0xd800 && cp <= 0xdbff) {
					unsigned lo;
					if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u' ||
					    hex4(ps->p + 2, ps->end, &lo) != 0 || lo < 0xdc00 || lo > 0xdfff) {
						free(buf);
						return jfail(ps, "lone high surrogate");
					}
					ps->p += 6;
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				} else if (cp >= 0xdc00 && cp <= 0xdfff) {
					free(buf);
					return jfail(ps, "lone low surrogate");
				}
				if (cp == 0) {
					free(buf);
					return jfail(ps, "\\u0000 in a string (a NUL cannot come from a C string)");
				}
				put_utf8(buf, &n, cp);
				break;
			}
			default:
				free(buf);
				return jfail(ps, "unknown escape");
			}
			continue;
		}
		size_t len = utf8_valid(ps->p, ps->end);
		if (len == 0) {
			free(buf);
			return jfail(ps, "invalid UTF-8 in string");
		}
		memcpy(buf + n, ps->p, len);
		n += len;
		ps->p += len;
	}
	buf[n] = '\0';
	*out = buf;
	if (outlen)
		*outlen = n;
	return true;
}

static bool parse_number(struct jparser *ps, double *out)
{
	const unsigned char *s = ps->p;
	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p >= ps->end)
		return jfail(ps, "bad number");
	if (*ps->p == '0') {
		ps->p++;
	} else if (*ps->p >= '1' && *ps->p <= '9') {
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	} else {
		return jfail(ps, "bad number");
	}
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		if (ps->p >= ps->end || !(*ps->p >= '0' && *ps->p <= '9'))
			return jfail(ps, "bad fraction");
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (ps->p >= ps->end || !(*ps->p >= '0' && *ps->p <= '9'))
			return jfail(ps, "bad exponent");
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	char tmp[64];
	size_t len = (size_t)(ps->p - s);
	if (len >= sizeof(tmp))
		len = sizeof(tmp) - 1;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	*out = strtod(tmp, NULL);
	return true;
}

static bool literal(struct jparser *ps, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
		return jfail(ps, "unexpected character");
	ps->p += n;
	return true;
}

static struct jval *parse_value(struct jparser *ps);

static void push(struct jval *v, struct jval *item, char *key)
{
	v->items = realloc(v->items, (v->n + 1) * sizeof(*v->items));
	assert_non_null(v->items);
	if (v->type == J_OBJ) {
		v->keys = realloc(v->keys, (v->n + 1) * sizeof(*v->keys));
		assert_non_null(v->keys);
		v->keys[v->n] = key;
	}
	v->items[v->n++] = item;
}

static struct jval *parse_value(struct jparser *ps)
{
	struct jval *v = calloc(1, sizeof(*v));
	assert_non_null(v);
	skip_ws(ps);
	if (ps->p >= ps->end) {
		jfail(ps, "unexpected end");
		goto bad;
	}
	if (++ps->depth > 64) {
		jfail(ps, "too deep");
		goto bad;
	}
	switch (*ps->p) {
	case 'n':
		v->type = J_NULL;
		if (!literal(ps, "null"))
			goto bad;
		break;
	case 't':
		v->type = J_BOOL, v->b = true;
		if (!literal(ps, "true"))
			goto bad;
		break;
	case 'f':
		v->type = J_BOOL, v->b = false;
		if (!literal(ps, "false"))
			goto bad;
		break;
	case '"':
		v->type = J_STR;
		if (!parse_string(ps, &v->str, &v->len))
			goto bad;
		break;
	case '[':
		v->type = J_ARR;
		ps->p++;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ']') {
			ps->p++;
			break;
		}
		for (;;) {
			struct jval *item = parse_value(ps);
			if (!item)
				goto bad;
			push(v, item, NULL);
			skip_ws(ps);
			if (ps->p < ps->end && *ps->p == ',') {
				ps->p++;
				continue;
			}
			if (ps->p < ps->end && *ps->p == ']') {
				ps->p++;
				break;
			}
			jfail(ps, "expected ',' or ']'");
			goto bad;
		}
		break;
	case '{':
		v->type = J_OBJ;
		ps->p++;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == '}') {
			ps->p++;
			break;
		}
		for (;;) {
			char *key = NULL;
			skip_ws(ps);
			if (!parse_string(ps, &key, NULL))
				goto bad;
			for (size_t i = 0; i < v->n; i++) {
				if (strcmp(v->keys[i], key) == 0) {
					free(key);
					jfail(ps, "duplicate key");
					goto bad;
				}
			}
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(key);
				jfail(ps, "expected ':'");
				goto bad;
			}
			ps->p++;
			struct jval *item = parse_value(ps);
			if (!item) {
				free(key);
				goto bad;
			}
			push(v, item, key);
			skip_ws(ps);
			if (ps->p < ps->end && *ps->p == ',') {
				ps->p++;
				continue;
			}
			if (ps->p < ps->end && *ps->p == '}') {
				ps->p++;
				break;
			}
			jfail(ps, "expected ',' or '}'");
			goto bad;
		}
		break;
	default:
		v->type = J_NUM;
		if (!parse_number(ps, &v->num))
			goto bad;
	}
	ps->depth--;
	return v;
bad:
	jfree(v);
	return NULL;
}

/* Parses a whole document: one value, then only white space. */
static struct jval *json_parse(const char *text, size_t len, const char **err, size_t *at)
{
	struct jparser ps = { (const unsigned char *)text, (const unsigned char *)text + len,
			      NULL, 0, (const unsigned char *)text, 0 };
	struct jval *v = parse_value(&ps);
	if (v) {
		skip_ws(&ps);
		if (ps.p != ps.end) {
			jfail(&ps, "trailing characters after the document");
			jfree(v);
			v = NULL;
		}
	}
	*err = ps.err;
	*at = ps.err_at;
	return v;
}

static const struct jval *jget(const struct jval *obj, const char *key)
{
	if (!obj || obj->type != J_OBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (strcmp(obj->keys[i], key) == 0)
			return obj->items[i];
	return NULL;
}

/* Parses text or fails the test, showing where. */
static struct jval *must_parse(const char *text, size_t len)
{
	const char *err = NULL;
	size_t at = 0;
	struct jval *v = json_parse(text, len, &err, &at);
	if (!v) {
		print_error("invalid JSON (%s) at byte %zu:\n%s\n", err ? err : "?", at, text);
		fail();
	}
	return v;
}

static void must_not_parse(const char *text)
{
	const char *err = NULL;
	size_t at = 0;
	struct jval *v = json_parse(text, strlen(text), &err, &at);
	if (v)
		print_error("the validator accepted: %s\n", text);
	assert_null(v);
}

/* The validator itself must be strict, or passing tests mean nothing. */
static void test_validator_self_check(void **state)
{
	(void)state;
	struct jval *v = must_parse("{\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\ud83d\\ude00\"]}",
				    strlen("{\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\ud83d\\ude00\"]}"));
	const struct jval *a = jget(v, "a");
	assert_non_null(a);
	assert_int_equal(a->type, J_ARR);
	assert_int_equal(a->n, 6);
	assert_string_equal(a->items[5]->str, "x\xc3\xa9\xf0\x9f\x98\x80");
	jfree(v);
	must_not_parse("");
	must_not_parse("{");
	must_not_parse("{\"a\": 1,}");
	must_not_parse("[1 2]");
	must_not_parse("{\"a\" 1}");
	must_not_parse("{\"a\": 01}");
	must_not_parse("{\"a\": 1.}");
	must_not_parse("{\"a\": nan}");
	must_not_parse("{\"a\": \"x\ty\"}");
	must_not_parse("{\"a\": \"\\x\"}");
	must_not_parse("{\"a\": \"\xff\"}");
	must_not_parse("{\"a\": \"\xe0\x80\x80\"}");
	must_not_parse("{\"a\": \"\xed\xa0\x80\"}");
	must_not_parse("{\"a\": \"\xc3\"}");
	must_not_parse("{\"a\": 1} {}");
	must_not_parse("{\"a\": 1, \"a\": 2}");
	must_not_parse("{\"a\": \"\\ud800\"}");
}

/* ---- rendering helpers --------------------------------------------------- */

struct membuf {
	char *data;
	size_t len;
	FILE *f;
};

static void mem_open(struct membuf *m)
{
	m->data = NULL;
	m->len = 0;
	m->f = open_memstream(&m->data, &m->len);
	assert_non_null(m->f);
}

static void mem_close(struct membuf *m)
{
	assert_int_equal(fclose(m->f), 0);
	m->f = NULL;
}

struct fixture {
	struct options opt;
	struct result r;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	if (!fx)
		return -1;
	struct options *o = &fx->opt;
	o->bs = 1 << 20;
	o->size = 1ull << 30;
	o->time_s = 10;
	o->sync = SYNC_DSYNC;
	o->direct = true;
	o->drop = DROP_FILE;
	o->threads = 1;
	o->seed = 42;
	o->target = "/data";
	struct result *r = &fx->r;
	r->test = "seqwrite";
	r->target = "/data";
	snprintf(r->file, sizeof(r->file), "/data/.diskbench-abc123");
	r->file_state = "new";
	r->opt = o;
	r->dir = IO_WRITE;
	r->region = 1ull << 30;
	r->bytes = 1073741824ull;
	r->ios = 1024;
	r->seconds = 0.934;
	stats_init(&r->lat);
	for (uint64_t i = 0; i < r->ios; i++)
		stats_add(&r->lat, 500000 + (i * 7919) % 900000 + (i % 97 == 0 ? 30000000 : 0));
	r->measured = true;
	r->evicted = NULL;
	r->resident_before_pct = -1;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* Renders r with out_json, checks it parses and ends in one newline. */
static struct jval *render_json(const struct result *r, char **text)
{
	struct membuf m;
	mem_open(&m);
	out_json(m.f, r);
	mem_close(&m);
	assert_true(m.len > 2);
	assert_int_equal(m.data[m.len - 1], '\n');
	/* exactly one document: no other newline-terminated line after it */
	assert_int_equal(strlen(m.data), m.len); /* no NUL bytes */
	struct jval *v = must_parse(m.data, m.len);
	if (text)
		*text = m.data;
	else
		free(m.data);
	return v;
}

static void assert_num(const struct jval *obj, const char *key, double want)
{
	const struct jval *v = jget(obj, key);
	if (!v || v->type != J_NUM)
		print_error("key \"%s\" missing or not a number\n", key);
	assert_non_null(v);
	assert_int_equal(v->type, J_NUM);
	if (fabs(v->num - want) > 1e-6 * fabs(want) + 1e-9)
		print_error("\"%s\": %.17g, want %.17g\n", key, v->num, want);
	assert_true(fabs(v->num - want) <= 1e-6 * fabs(want) + 1e-9);
}

/* ---- JSON ---------------------------------------------------------------- */

static void test_json_schema(void **state)
{
	struct fixture *fx = *state;
	struct jval *doc = render_json(&fx->r, NULL);
	assert_int_equal(doc->type, J_OBJ);
	static const char *const keys[] = { "schema", "tool", "version", "test", "target",
					    "file", "params", "result", "cache", "warnings" };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!jget(doc, keys[i]))
			print_error("key \"%s\" missing\n", keys[i]);
		assert_non_null(jget(doc, keys[i]));
	}
	assert_null(jget(doc, "error"));
	assert_num(doc, "schema", JSON_SCHEMA);
	assert_string_equal(jget(doc, "tool")->str, "diskbench");
	assert_string_equal(jget(doc, "version")->str, DISKBENCH_VERSION);
	assert_string_equal(jget(doc, "test")->str, "seqwrite");
	assert_string_equal(jget(doc, "target")->str, "/data");
	assert_string_equal(jget(doc, "file")->str, "/data/.diskbench-abc123");

	const struct jval *params = jget(doc, "params");
	assert_int_equal(params->type, J_OBJ);
	assert_num(params, "block_size", 1048576);
	assert_num(params, "size", 1073741824.0);
	assert_num(params, "time_limit_s", 10);
	assert_num(params, "threads", 1);
	assert_int_equal(jget(params, "direct")->type, J_BOOL);
	assert_true(jget(params, "direct")->b);
	assert_string_equal(jget(params, "sync")->str, "dsync");
	assert_non_null(jget(params, "drop_caches"));
	assert_string_equal(jget(params, "data")->str, "random");

	const struct jval *res = jget(doc, "result");
	assert_int_equal(res->type, J_OBJ);
	assert_num(res, "bytes", 1073741824.0);
	assert_num(res, "ios", 1024);
	assert_num(res, "seconds", 0.934);
	assert_true(fabs(jget(res, "bytes_per_sec")->num - 1073741824.0 / 0.934) < 1.0);
	assert_true(fabs(jget(res, "iops")->num - 1024 / 0.934) < 0.01);
	const struct jval *lat = jget(res, "lat_ns");
	assert_non_null(lat);
	assert_int_equal(lat->type, J_OBJ);
	struct stats_summary s;
	stats_summarize(&fx->r.lat, &s);
	assert_num(lat, "min", (double)s.min);
	assert_num(lat, "max", (double)s.max);
	assert_true(fabs(jget(lat, "mean")->num - s.mean) <= 0.05);
	assert_true(fabs(jget(lat, "stdev")->num - s.stdev) <= 0.05);
	assert_num(lat, "p50", (double)s.p50);
	assert_num(lat, "p90", (double)s.p90);
	assert_num(lat, "p99", (double)s.p99);
	assert_num(lat, "p99_9", (double)s.p99_9);

	const struct jval *cache = jget(doc, "cache");
	assert_int_equal(cache->type, J_OBJ);
	assert_non_null(jget(cache, "evicted"));
	assert_non_null(jget(cache, "resident_before_pct"));
	const struct jval *warnings = jget(doc, "warnings");
	assert_int_equal(warnings->type, J_ARR);
	assert_int_equal(warnings->n, 0);
	jfree(doc);
}

static void test_json_read_test_cache(void **state)
{
	struct fixture *fx = *state;
	fx->r.test = "seqread";
	fx->r.dir = IO_READ;
	fx->r.evicted = "file";
	fx->r.resident_before_pct = 0.25;
	struct jval *doc = render_json(&fx->r, NULL);
	const struct jval *cache = jget(doc, "cache");
	assert_string_equal(jget(cache, "evicted")->str, "file");
	assert_num(cache, "resident_before_pct", 0.25);
	assert_string_equal(jget(jget(doc, "params"), "drop_caches")->str, "file");
	jfree(doc);
}

static void test_json_lat_hist(void **state)
{
	struct fixture *fx = *state;
	/* a spread of latencies, including 0 and huge ones */
	stats_init(&fx->r.lat);
	static const uint64_t vals[] = { 0, 1, 2, 3, 255, 256, 1000, 4096, 65535, 65536,
					 1000000, 123456789, 1ull << 40, UINT64_MAX };
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		for (size_t k = 0; k <= i; k++)
			stats_add(&fx->r.lat, vals[i]);
	fx->r.ios = fx->r.lat.count;
	struct jval *doc = render_json(&fx->r, NULL);
	const struct jval *hist = jget(jget(doc, "result"), "lat_hist");
	assert_non_null(hist);
	assert_int_equal(hist->type, J_ARR);
	assert_true(hist->n > 0);
	double sum = 0, prev_le = -1;
	for (size_t i = 0; i < hist->n; i++) {
		const struct jval *e = hist->items[i];
		assert_int_equal(e->type, J_OBJ);
		const struct jval *le = jget(e, "le_ns"), *count = jget(e, "count");
		assert_non_null(le);
		assert_non_null(count);
		assert_int_equal(le->type, J_NUM);
		assert_int_equal(count->type, J_NUM);
		assert_true(le->num > prev_le); /* ascending */
		assert_true(count->num > 0);
		prev_le = le->num;
		sum += count->num;
	}
	assert_true(sum == (double)fx->r.ios);
	/* the first bucket bounds 0 and 1; the last one reaches UINT64_MAX */
	assert_true(jget(hist->items[0], "le_ns")->num <= 2.0);
	assert_true(jget(hist->items[hist->n - 1], "le_ns")->num >= 1.8e19);
	jfree(doc);
}

static void test_json_error_and_unmeasured(void **state)
{
	struct fixture *fx = *state;
	fx->r.measured = false;
	snprintf(fx->r.error, sizeof(fx->r.error), "write '/data/x' at offset 4096: No space left on device");
	struct jval *doc = render_json(&fx->r, NULL);
	const struct jval *err = jget(doc, "error");
	assert_non_null(err);
	assert_int_equal(err->type, J_STR);
	assert_string_equal(err->str, fx->r.error);
	const struct jval *res = jget(doc, "result");
	assert_non_null(res); /* the key stays, its value is null */
	assert_int_equal(res->type, J_NULL);
	jfree(doc);

	/* an error with a measured result: still one document with both */
	fx->r.measured = true;
	doc = render_json(&fx->r, NULL);
	assert_non_null(jget(doc, "error"));
	assert_int_equal(jget(doc, "result")->type, J_OBJ);
	jfree(doc);

	/* no error, not measured (e.g. interrupted before the loop) */
	fx->r.error[0] = '\0';
	fx->r.measured = false;
	doc = render_json(&fx->r, NULL);
	assert_null(jget(doc, "error"));
	assert_int_equal(jget(doc, "result")->type, J_NULL);
	jfree(doc);
}

static void test_json_empty_latency(void **state)
{
	struct fixture *fx = *state;
	stats_init(&fx->r.lat);
	fx->r.bytes = 0;
	fx->r.ios = 0;
	fx->r.seconds = 0;
	struct jval *doc = render_json(&fx->r, NULL);
	const struct jval *res = jget(doc, "result");
	assert_int_equal(res->type, J_OBJ);
	assert_num(res, "bytes_per_sec", 0);
	assert_num(res, "iops", 0);
	assert_int_equal(jget(res, "lat_hist")->n, 0);
	jfree(doc);
}

static void test_json_escaping(void **state)
{
	struct fixture *fx = *state;
	/* quotes, backslashes, newline, tab, CR, other control bytes, DEL,
	 * valid UTF-8 (2, 3, 4 bytes) and invalid bytes */
	static const char nasty[] = "/tmp/a\"b\\c\nd\te\rf\x01g\x1fh\x7fi/\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
				    "/\xff\xfe/\xc3(/\x80/end\xc3";
	fx->r.target = nasty;
	snprintf(fx->r.file, sizeof(fx->r.file), "%s/.diskbench-\"x\"", nasty);
	fx->r.test = "seq\"write";
	fx->r.nwarnings = 2;
	snprintf(fx->r.warnings[0], MSG_LEN, "warn \"quoted\" \\ and\nnewline");
	snprintf(fx->r.warnings[1], MSG_LEN, "bad byte \xff here");
	snprintf(fx->r.error, sizeof(fx->r.error), "error in '%s'", nasty);
	char *text = NULL;
	struct jval *doc = render_json(&fx->r, &text);
	/* no raw control byte anywhere but the final newline */
	for (size_t i = 0; text[i + 1]; i++)
		assert_true((unsigned char)text[i] >= 0x20);
	free(text);

	const struct jval *target = jget(doc, "target");
	assert_non_null(target);
	/* the valid parts come back as they were; invalid bytes are replaced */
	const char *t = target->str;
	assert_non_null(strstr(t, "/tmp/a\"b\\c\nd\te\rf\x01g\x1fh\x7fi/"));
	assert_non_null(strstr(t, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));
	assert_null(strchr(t, '\xff'));
	assert_non_null(strstr(t, "/end"));
	assert_string_equal(jget(doc, "test")->str, "seq\"write");
	const struct jval *w = jget(doc, "warnings");
	assert_int_equal(w->n, 2);
	assert_string_equal(w->items[0]->str, "warn \"quoted\" \\ and\nnewline");
	assert_non_null(strstr(jget(doc, "error")->str, "/tmp/a\"b\\c\nd"));
	jfree(doc);
}

/* Byte sequences that look like UTF-8 lead bytes but are not valid UTF-8
 * (overlong forms, UTF-16 surrogates, code points above U+10FFFF) must be
 * escaped like any other invalid byte: JSON text is UTF-8 (RFC 8259). */
static void test_json_escaping_invalid_utf8_forms(void **state)
{
	struct fixture *fx = *state;
	static const struct { const char *path, *what; } forms[] = {
		{ "/tmp/overlong3-\xe0\x80\x80-x", "E0 80 80 (overlong U+0000)" },
		{ "/tmp/overlong3b-\xe0\x9f\xbf-x", "E0 9F BF (overlong U+07FF)" },
		{ "/tmp/overlong4-\xf0\x80\x80\xaf-x", "F0 80 80 AF (overlong '/')" },
		{ "/tmp/surrogate-\xed\xa0\x80-x", "ED A0 80 (surrogate U+D800)" },
		{ "/tmp/above-max-\xf4\x90\x80\x80-x", "F4 90 80 80 (U+110000)" },
		{ "/tmp/overlong2-\xc0\xaf-x", "C0 AF (overlong '/')" },
		{ "/tmp/f5-\xf5\x80\x80\x80-x", "F5 80 80 80" },
		{ "/tmp/truncated-\xe2\x82-x", "E2 82 (truncated)" },
	};
	int broken = 0;
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		fx->r.target = forms[i].path;
		struct membuf m;
		mem_open(&m);
		out_json(m.f, &fx->r);
		mem_close(&m);
		const char *err = NULL;
		size_t at = 0;
		struct jval *doc = json_parse(m.data, m.len, &err, &at);
		if (!doc) {
			print_error("target with bytes %s: out_json wrote invalid JSON (%s) at byte %zu\n",
				    forms[i].what, err ? err : "?", at);
			broken++;
		} else {
			assert_non_null(strstr(jget(doc, "target")->str, "-x"));
			jfree(doc);
		}
		free(m.data);
	}
	assert_int_equal(broken, 0);
}

static void test_json_escaped_writer(void **state)
{
	(void)state;
	/* json_write_escaped on every single byte value */
	for (unsigned c = 1; c < 256; c++) {
		char s[4] = { 'a', (char)c, 'z', '\0' };
		struct membuf m;
		mem_open(&m);
		fputs("[", m.f);
		json_write_escaped(m.f, s);
		fputs("]", m.f);
		mem_close(&m);
		struct jval *v = must_parse(m.data, m.len);
		assert_int_equal(v->n, 1);
		const char *got = v->items[0]->str;
		assert_int_equal(got[0], 'a');
		assert_int_equal(got[strlen(got) - 1], 'z');
		if (c < 0x80)
			assert_memory_equal(got, s, 4);
		jfree(v);
		free(m.data);
	}
	/* the streaming writer: nested containers, commas, null strings */
	struct membuf m;
	mem_open(&m);
	struct json j;
	json_init(&j, m.f);
	json_object_begin(&j);
	json_key(&j, "a"), json_array_begin(&j);
	json_uint(&j, 1), json_uint(&j, UINT64_MAX), json_double(&j, 1.5, 2);
	json_double(&j, NAN, 2), json_double(&j, INFINITY, 2), json_double(&j, -0.0, 1);
	json_string(&j, NULL), json_bool(&j, false), json_null(&j);
	json_object_begin(&j), json_object_end(&j);
	json_array_begin(&j), json_array_end(&j);
	json_array_end(&j);
	json_key(&j, "b\"\n"), json_object_begin(&j);
	json_key(&j, "c"), json_string(&j, "");
	json_object_end(&j);
	json_object_end(&j);
	mem_close(&m);
	struct jval *v = must_parse(m.data, m.len);
	const struct jval *a = jget(v, "a");
	assert_int_equal(a->n, 11);
	assert_int_equal(a->items[3]->type, J_NULL); /* NaN */
	assert_int_equal(a->items[4]->type, J_NULL); /* inf */
	assert_int_equal(a->items[6]->type, J_NULL);
	assert_non_null(jget(jget(v, "b\"\n"), "c"));
	jfree(v);
	free(m.data);
}

/* ---- CSV ------------------------------------------------------------------ */

/* Splits one RFC 4180 record starting at *p; returns the number of fields
 * and stores them (unquoted) in fields[]; *p moves past the line end. */
static size_t csv_record(const char **p, char fields[][1024], size_t max, bool *ok)
{
	const char *s = *p;
	size_t n = 0;
	*ok = true;
	for (;;) {
		char *out = n < max ? fields[n] : NULL;
		size_t len = 0;
		if (*s == '"') {
			s++;
			for (;;) {
				if (*s == '\0') {
					*ok = false;
					return n;
				}
				if (*s == '"') {
					if (s[1] == '"') {
						if (out && len < 1023)
							out[len++] = '"';
						s += 2;
						continue;
					}
					s++;
					break;
				}
				if (out && len < 1023)
					out[len++] = *s;
				s++;
			}
			if (*s != ',' && *s != '\n' && *s != '\r' && *s != '\0')
				*ok = false; /* junk after a closing quote */
		} else {
			while (*s && *s != ',' && *s != '\n' && *s != '\r') {
				if (*s == '"')
					*ok = false; /* a quote in an unquoted field */
				if (out && len < 1023)
					out[len++] = *s;
				s++;
			}
		}
		if (out)
			out[len] = '\0';
		n++;
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '\r')
			s++;
		if (*s == '\n')
			s++;
		else
			*ok = false; /* every record ends with a newline */
		break;
	}
	*p = s;
	return n;
}

static void test_csv(void **state)
{
	struct fixture *fx = *state;
	static char header[64][1024], row[64][1024];
	fx->r.target = "/mnt/a,b \"quoted\"\nnext";
	fx->r.nwarnings = 1;
	snprintf(fx->r.warnings[0], MSG_LEN, "--sync=none: may measure a cache, not the disk");
	snprintf(fx->r.error, sizeof(fx->r.error), "x, \"y\"");
	struct membuf m;
	mem_open(&m);
	out_csv(m.f, &fx->r);
	mem_close(&m);

	const char *p = m.data;
	bool ok;
	size_t nh = csv_record(&p, header, 64, &ok);
	assert_true(ok);
	size_t nr = csv_record(&p, row, 64, &ok);
	if (!ok)
		print_error("bad CSV row:\n%s\n", m.data);
	assert_true(ok);
	assert_int_equal(*p, '\0'); /* exactly two records */
	assert_int_equal(nh, nr);
	static const char *const required[] = { "test", "target", "block_size", "bytes", "seconds",
						"bytes_per_sec", "iops", "lat_p50_ns", "lat_p99_ns" };
	for (size_t k = 0; k < sizeof(required) / sizeof(required[0]); k++) {
		size_t at = nh;
		for (size_t i = 0; i < nh; i++)
			if (strcmp(header[i], required[k]) == 0)
				at = i;
		if (at == nh)
			print_error("CSV header lacks \"%s\"\n", required[k]);
		assert_true(at < nh);
	}
	assert_string_equal(row[0], "seqwrite");
	assert_string_equal(row[1], "/mnt/a,b \"quoted\"\nnext");
	assert_string_equal(row[2], "1048576");
	assert_string_equal(row[3], "1073741824");
	assert_true(fabs(strtod(row[4], NULL) - 0.934) < 1e-9);
	assert_true(fabs(strtod(row[5], NULL) - 1073741824.0 / 0.934) < 1);
	assert_true(fabs(strtod(row[6], NULL) - 1024 / 0.934) < 0.01);
	struct stats_summary s;
	stats_summarize(&fx->r.lat, &s);
	assert_int_equal(strtoull(row[7], NULL, 10), s.p50);
	assert_int_equal(strtoull(row[8], NULL, 10), s.p99);
	for (size_t i = 0; i < nh; i++)
		if (strcmp(header[i], "error") == 0)
			assert_string_equal(row[i], "x, \"y\"");
	free(m.data);

	/* plain fields stay unquoted; an unmeasured or failed result has the
	 * same columns */
	fx->r.target = "/data";
	fx->r.nwarnings = 0;
	fx->r.error[0] = '\0';
	for (int k = 0; k < 3; k++) {
		if (k == 1)
			fx->r.measured = false;
		if (k == 2) {
			fx->r.opt = NULL;
			snprintf(fx->r.error, sizeof(fx->r.error), "open '/data': Permission denied");
		}
		mem_open(&m);
		out_csv(m.f, &fx->r);
		mem_close(&m);
		p = m.data;
		nh = csv_record(&p, header, 64, &ok);
		assert_true(ok);
		nr = csv_record(&p, row, 64, &ok);
		assert_true(ok);
		assert_int_equal(nr, nh);
		assert_int_equal(*p, '\0');
		assert_null(strchr(m.data, '"'));
		free(m.data);
	}
}

/* ---- text ------------------------------------------------------------------ */

static void test_text(void **state)
{
	struct fixture *fx = *state;
	struct membuf m;
	mem_open(&m);
	out_text(m.f, &fx->r, false, false);
	mem_close(&m);
	const char *prefix = "seqwrite: 1073741824 bytes (";
	if (strncmp(m.data, prefix, strlen(prefix)) != 0)
		print_error("text output:\n%s\n", m.data);
	assert_memory_equal(m.data, prefix, strlen(prefix));
	char *nl = strchr(m.data, '\n');
	assert_non_null(nl);
	*nl = '\0';
	assert_true(strstr(m.data, "MB/s") || strstr(m.data, "GB/s"));
	assert_non_null(strstr(m.data, "IOPS"));
	/* dd's figures: 1.1 GB and 1.0 GiB, never mixed up */
	assert_non_null(strstr(m.data, "(1.1 GB, 1.0 GiB)"));
	assert_non_null(strstr(m.data, "1.15 GB/s"));
	assert_non_null(strstr(m.data, "1.07 GiB/s"));
	assert_non_null(strstr(m.data, "1096 IOPS")); /* 1024 / 0.934 s */
	/* a latency line follows */
	assert_non_null(strstr(nl + 1, "latency"));
	assert_non_null(strstr(nl + 1, "p99"));
	free(m.data);

	/* quiet: the result line only */
	mem_open(&m);
	out_text(m.f, &fx->r, true, false);
	mem_close(&m);
	nl = strchr(m.data, '\n');
	assert_non_null(nl);
	assert_int_equal(nl[1], '\0');
	free(m.data);

	/* a small, slow result uses MB/s (or kB/s), and a histogram prints */
	fx->r.test = "randread";
	fx->r.dir = IO_READ;
	fx->r.bytes = 104857600;
	fx->r.seconds = 2.0;
	fx->r.ios = fx->r.lat.count;
	mem_open(&m);
	out_text(m.f, &fx->r, false, true);
	mem_close(&m);
	assert_memory_equal(m.data, "randread: 104857600 bytes (105 MB, 100 MiB)",
			    strlen("randread: 104857600 bytes (105 MB, 100 MiB)"));
	assert_non_null(strstr(m.data, "52.4 MB/s"));
	assert_non_null(strstr(m.data, "50.0 MiB/s"));
	assert_non_null(strstr(m.data, "IOPS"));
	assert_non_null(strstr(m.data, "#"));
	free(m.data);
}

/* The text of fx's result: its result line in line (a prefix of it) and
 * whether a "buffers:" line follows, its text in buffers. */
static bool buffers_said(struct fixture *fx, char *line, size_t line_len, char *buffers,
			 size_t buffers_len)
{
	struct membuf m;
	mem_open(&m);
	out_text(m.f, &fx->r, false, false);
	mem_close(&m);
	snprintf(line, line_len, "%.*s", (int)strcspn(m.data, "\n"), m.data);
	const char *b = strstr(m.data, "\nbuffers: ");
	if (b)
		snprintf(buffers, buffers_len, "%.*s", (int)strcspn(b + 1, "\n"), b + 1);
	free(m.data);
	return b != NULL;
}

/* Buffers that set the figure apart (issue 39): 1 MiB O_DIRECT requests
 * from huge pages at 1 segment each, where 4 KiB pages make up to 256 (by
 * hand): the factor and the line; silent where they do not differ, or
 * move no data. */
static void test_text_buffers(void **state)
{
	struct fixture *fx = *state;
	struct result *r = &fx->r;
	char line[512], buffers[512];
	r->huge_buffers = true;
	r->buffer_segments = 1.0;
	r->page_size = 4096;
	assert_true(buffers_said(fx, line, sizeof(line), buffers, sizeof(buffers)));
	assert_string_equal(buffers, "buffers: huge pages, 1.0 segment per 1 MiB request; fio and "
			    "dd, from 4 KiB pages, send up to 256 per request, which a virtual "
			    "disk's host may take much slower: --buffers=pages writes as they do");
	assert_non_null(strstr(line, ", huge-page buffers (1.0 segments/request)"));
	r->dir = IO_READ;
	assert_true(buffers_said(fx, line, sizeof(line), buffers, sizeof(buffers)));
	assert_non_null(strstr(buffers, "--buffers=pages reads as they do"));
	r->buffer_segments = 128; /* half of 256: still said */
	assert_true(buffers_said(fx, line, sizeof(line), buffers, sizeof(buffers)));
	assert_non_null(strstr(buffers, "huge pages, 128.0 segments per 1 MiB request"));

	/* silent: more than half the pages' segments, small blocks, no O_DIRECT,
	 * pages, NOPs, trims alone, no page size known */
	r->buffer_segments = 129;
	assert_false(buffers_said(fx, line, sizeof(line), buffers, sizeof(buffers)));
	assert_null(strstr(line, "huge-page"));
	r->buffer_segments = 1.0;
	fx->opt.bs = 4096;
	assert_false(buffers_said(fx, line, sizeof(line), buffers, sizeof(buffers)));
	assert_null(strstr(line, "huge-page"));
	fx->opt.bs = 1 << 20;
	fx->opt.direct = false;
	assert_false(buffers_said(fx, line, sizeof(line), buffers, sizeof(buffers)));
	fx->opt.direct = true;
	r->huge_buffers = false;
	assert_false(buffers_said(fx, line, sizeof(line), buffers, sizeof(buffers)));
	r->huge_buffers = true;
	r->engine = "nop";
	assert_false(buffers_said(fx, line, sizeof(line), buffers, sizeof(buffers)));
	r->engine = NULL;
	struct result_ops ops;
	memset(&ops, 0, sizeof(ops));
	ops.mix = (struct mix){ { 0, 0, 100 } };
	r->ops = &ops;
	r->dir = IO_WRITE;
	assert_false(buffers_said(fx, line, sizeof(line), buffers, sizeof(buffers)));
	ops.mix = (struct mix){ { 70, 30, 0 } }; /* a mix that moves data: said */
	assert_true(buffers_said(fx, line, sizeof(line), buffers, sizeof(buffers)));
	assert_non_null(strstr(buffers, "--buffers=pages reads and writes as they do"));
	r->ops = NULL;
	r->page_size = 0;
	assert_false(buffers_said(fx, line, sizeof(line), buffers, sizeof(buffers)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validator_self_check),
		cmocka_unit_test_setup_teardown(test_json_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_read_test_cache, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_lat_hist, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_error_and_unmeasured, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_empty_latency, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_escaping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_escaping_invalid_utf8_forms, setup, teardown),
		cmocka_unit_test(test_json_escaped_writer),
		cmocka_unit_test_setup_teardown(test_csv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_text_buffers, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
