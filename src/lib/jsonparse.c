#include "jsonparse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_VALUES 128

struct jp_block {
	struct jp_block *next;
	unsigned used;
	struct jp_value v[BLOCK_VALUES];
};

struct parser {
	const unsigned char *s;
	size_t len, i;
	struct jp_doc *doc;
	const char *why;
	size_t at;
	struct jp_value *open[JP_MAX_DEPTH]; /* the containers not yet closed */
	struct jp_value *last[JP_MAX_DEPTH]; /* the last child of each */
	int depth;
	size_t values, max_values;
};

static int fault_at(struct parser *p, size_t at, const char *why)
{
	if (!p->why) {
		p->why = why;
		p->at = at;
	}
	errno = EINVAL;
	return -1;
}

static int fault(struct parser *p, const char *why)
{
	return fault_at(p, p->i, why);
}

static struct jp_value *new_value(struct parser *p)
{
	struct jp_block *b = p->doc->blocks;
	if (p->values++ == p->max_values) {
		fault(p, "more JSON values than the limit");
		return NULL;
	}
	if (!b || b->used == BLOCK_VALUES) {
		b = calloc(1, sizeof(*b));
		if (!b) {
			p->why = "out of memory";
			p->at = p->i;
			errno = ENOMEM;
			return NULL;
		}
		b->next = p->doc->blocks;
		p->doc->blocks = b;
	}
	return &b->v[b->used++];
}

static void skip_space(struct parser *p)
{
	while (p->i < p->len && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' ||
				 p->s[p->i] == '\r'))
		p->i++;
}

static bool is_digit(const struct parser *p, size_t i)
{
	return i < p->len && p->s[i] >= '0' && p->s[i] <= '9';
}

/* The code point of the UTF-8 sequence at s (avail bytes there), its length
 * in *n; -1 when it is not well-formed: truncated, overlong, a surrogate or
 * beyond U+10FFFF. */
static long utf8_decode(const unsigned char *s, size_t avail, int *n)
{
	static const long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	int len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 :
		  (s[0] & 0xf8) == 0xf0 ? 4 : 0;
	if (len == 0 || (size_t)len > avail)
		return -1;
	long cp = len == 1 ? s[0] : s[0] & (0x7f >> len);
	for (int k = 1; k < len; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[k] & 0x3f);
	}
	if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*n = len;
	return cp;
}

static char *utf8_encode(long cp, char *o)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* The four hex digits of a \u escape starting at i, or -1. */
static long hex4(const struct parser *p, size_t i)
{
	if (i > p->len || p->len - i < 4)
		return -1;
	long v = 0;
	for (size_t k = i; k < i + 4; k++) {
		unsigned char c = p->s[k];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v << 4 | d;
	}
	return v;
}

/* A \u escape at p->i (a surrogate pair takes two), written to *o. */
static int read_unicode_escape(struct parser *p, char **o)
{
	size_t at = p->i;
	long cp = hex4(p, p->i + 2);
	if (cp < 0)
		return fault_at(p, at, "\\u needs four hex digits");
	p->i += 6;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fault_at(p, at, "\\u escape of a lone low surrogate");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		long low = p->i + 1 < p->len && p->s[p->i] == '\\' && p->s[p->i + 1] == 'u' ?
				   hex4(p, p->i + 2) : -1;
		if (low < 0xdc00 || low > 0xdfff)
			return fault_at(p, at, "\\u escape of a high surrogate without its low half");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
		p->i += 6;
	}
	*o = utf8_encode(cp, *o);
	return 0;
}

static int read_escape(struct parser *p, char **o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	if (p->i + 1 >= p->len)
		return fault(p, "unterminated string");
	char e = (char)p->s[p->i + 1];
	const char *k = e ? strchr(from, e) : NULL;
	if (k) {
		*(*o)++ = to[k - from];
		p->i += 2;
		return 0;
	}
	if (e != 'u')
		return fault(p, "unknown escape in a string");
	return read_unicode_escape(p, o);
}

/* A string at p->i (its opening quote), unescaped into doc->strings, which
 * holds them all: no string is longer than its literal, quotes included, so
 * len + 1 bytes are always enough. */
static int read_string(struct parser *p, const char **out, size_t *out_len)
{
	size_t open = p->i++;
	char *start = p->doc->strings + p->doc->strings_used, *o = start;
	for (;;) {
		if (p->i >= p->len)
			return fault_at(p, open, "unterminated string");
		unsigned char c = p->s[p->i];
		if (c == '"')
			break;
		if (c < 0x20)
			return fault(p, "control character in a string (it must be escaped)");
		if (c == '\\') {
			if (read_escape(p, &o) != 0)
				return -1;
			continue;
		}
		int n = 1;
		if (c >= 0x80 && utf8_decode(p->s + p->i, p->len - p->i, &n) < 0)
			return fault(p, "invalid UTF-8 in a string");
		memcpy(o, p->s + p->i, (size_t)n);
		o += n;
		p->i += (size_t)n;
	}
	p->i++;
	*o++ = '\0';
	*out = start;
	*out_len = (size_t)(o - start) - 1;
	p->doc->strings_used += (size_t)(o - start);
	return 0;
}

/* A whole number written with digits alone is kept exactly when it fits in
 * 64 bits; any other integral value only where a double holds it exactly. */
static bool exact_uint(const char *text, bool digits_only, double num, uint64_t *u)
{
	if (digits_only && text[0] != '-') {
		uint64_t v = 0;
		for (const char *c = text; *c; c++) {
			unsigned d = (unsigned)(*c - '0');
			if (v > (UINT64_MAX - d) / 10)
				return false;
			v = v * 10 + d;
		}
		*u = v;
		return true;
	}
	if (num >= 0 && num <= 9007199254740992.0 && floor(num) == num) {
		*u = (uint64_t)num;
		return true;
	}
	return false;
}

/* RFC 8259's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int read_number(struct parser *p, struct jp_value *v)
{
	size_t start = p->i, i = p->i;
	bool digits_only = true;
	if (i < p->len && p->s[i] == '-')
		i++;
	if (!is_digit(p, i))
		return fault_at(p, i, "unexpected character: not a JSON value");
	if (p->s[i] == '0' && is_digit(p, i + 1))
		return fault_at(p, i, "leading zero in a number");
	while (is_digit(p, i))
		i++;
	if (i < p->len && p->s[i] == '.') {
		digits_only = false;
		if (!is_digit(p, ++i))
			return fault_at(p, i, "a digit must follow the decimal point");
		while (is_digit(p, i))
			i++;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		digits_only = false;
		if (i + 1 < p->len && (p->s[i + 1] == '+' || p->s[i + 1] == '-'))
			i++;
		if (!is_digit(p, ++i))
			return fault_at(p, i, "a digit must follow the exponent");
		while (is_digit(p, i))
			i++;
	}
	char text[JP_MAX_NUMBER];
	size_t n = i - start;
	if (n >= sizeof(text))
		return fault_at(p, start, "number longer than 511 characters");
	memcpy(text, p->s + start, n);
	text[n] = '\0';
	v->num = strtod(text, NULL);
	if (!isfinite(v->num))
		return fault_at(p, start, "number out of range");
	v->is_uint = exact_uint(text, digits_only, v->num, &v->u);
	v->type = JP_NUMBER;
	p->i = i;
	return 0;
}

static int read_literal(struct parser *p, struct jp_value *v)
{
	static const struct { const char *word; enum jp_type type; } words[] = {
		{ "true", JP_TRUE }, { "false", JP_FALSE }, { "null", JP_NULL },
	};
	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		size_t n = strlen(words[k].word);
		if (p->len - p->i >= n && memcmp(p->s + p->i, words[k].word, n) == 0) {
			v->type = words[k].type;
			p->i += n;
			return 0;
		}
	}
	return fault(p, "unexpected character: not a JSON value");
}

static void attach(struct parser *p, struct jp_value *v)
{
	struct jp_value *parent = p->open[p->depth - 1];
	if (parent->first)
		p->last[p->depth - 1]->next = v;
	else
		parent->first = v;
	p->last[p->depth - 1] = v;
	parent->count++;
}

/* One value at p->i: a scalar read whole, or a container opened (pushed).
 * key: its name when its parent is an object. */
static struct jp_value *begin_value(struct parser *p, const char *key, size_t key_len)
{
	skip_space(p);
	if (p->i >= p->len) {
		fault(p, "unexpected end: a value was expected");
		return NULL;
	}
	struct jp_value *v = new_value(p);
	if (!v)
		return NULL;
	v->key = key;
	v->key_len = key_len;
	v->pos = p->i;
	if (p->depth > 0)
		attach(p, v);
	int rc = 0;
	unsigned char c = p->s[p->i];
	if (c == '{' || c == '[') {
		if (p->depth == JP_MAX_DEPTH) {
			fault(p, "nested deeper than 64 levels");
			return NULL;
		}
		v->type = c == '{' ? JP_OBJECT : JP_ARRAY;
		p->open[p->depth++] = v;
		p->i++;
		return v;
	}
	if (c == '"') {
		v->type = JP_STRING;
		rc = read_string(p, &v->str, &v->str_len);
	} else if (c == '-' || (c >= '0' && c <= '9')) {
		rc = read_number(p, v);
	} else {
		rc = read_literal(p, v);
	}
	v->end = p->i;
	return rc == 0 ? v : NULL;
}

/* The next element of the innermost open container: for an object, its
 * name and colon first. */
static struct jp_value *begin_member(struct parser *p)
{
	const char *key = NULL;
	size_t key_len = 0;
	if (p->open[p->depth - 1]->type == JP_OBJECT) {
		skip_space(p);
		if (p->i >= p->len || p->s[p->i] != '"') {
			fault(p, "a member name (a string) was expected");
			return NULL;
		}
		if (read_string(p, &key, &key_len) != 0)
			return NULL;
		skip_space(p);
		if (p->i >= p->len || p->s[p->i] != ':') {
			fault(p, "':' was expected after the member name");
			return NULL;
		}
		p->i++;
	}
	return begin_value(p, key, key_len);
}

static void close_container(struct parser *p)
{
	struct jp_value *v = p->open[--p->depth];
	p->i++;
	v->end = p->i;
}

static bool is_open_container(const struct parser *p, const struct jp_value *v)
{
	return p->depth > 0 && p->open[p->depth - 1] == v;
}

/* The values, without recursion: after each one, a comma opens the next
 * member of the innermost container and its bracket closes it. */
static int parse_values(struct parser *p)
{
	struct jp_value *v = begin_value(p, NULL, 0);
	if (!v)
		return -1;
	p->doc->root = v;
	bool just_opened = is_open_container(p, v);
	while (p->depth > 0) {
		struct jp_value *top = p->open[p->depth - 1];
		char closer = top->type == JP_OBJECT ? '}' : ']';
		skip_space(p);
		if (p->i < p->len && p->s[p->i] == closer) {
			close_container(p);
			just_opened = false;
			continue;
		}
		if (!just_opened) {
			if (p->i >= p->len || p->s[p->i] != ',')
				return fault(p, top->type == JP_OBJECT ? "',' or '}' was expected" :
									 "',' or ']' was expected");
			p->i++;
		}
		v = begin_member(p);
		if (!v)
			return -1;
		just_opened = is_open_container(p, v);
	}
	skip_space(p);
	if (p->i < p->len)
		return fault(p, "unexpected text after the JSON value");
	return 0;
}

int jp_parse(struct jp_doc *doc, const char *text, size_t len, const char **why, size_t *pos)
{
	return jp_parse_capped(doc, text, len, SIZE_MAX, why, pos);
}

int jp_parse_capped(struct jp_doc *doc, const char *text, size_t len, size_t max_values,
		    const char **why, size_t *pos)
{
	struct parser p = { .s = (const unsigned char *)text, .len = len, .doc = doc,
			    .max_values = max_values };
	memset(doc, 0, sizeof(*doc));
	doc->strings = malloc(len + 1);
	int rc = -1;
	if (!doc->strings) {
		p.why = "out of memory";
		errno = ENOMEM;
	} else {
		rc = parse_values(&p);
	}
	if (rc != 0) {
		doc->root = NULL;
		*why = p.why;
		*pos = p.at;
	}
	return rc;
}

void jp_free(struct jp_doc *doc)
{
	while (doc->blocks) {
		struct jp_block *next = doc->blocks->next;
		free(doc->blocks);
		doc->blocks = next;
	}
	free(doc->strings);
	memset(doc, 0, sizeof(*doc));
}

static const struct jp_value *get_n(const struct jp_value *v, const char *key, size_t n)
{
	const struct jp_value *found = NULL;
	if (!v || v->type != JP_OBJECT)
		return NULL;
	for (const struct jp_value *m = v->first; m; m = m->next)
		if (m->key_len == n && memcmp(m->key, key, n) == 0)
			found = m;
	return found;
}

const struct jp_value *jp_get(const struct jp_value *v, const char *key)
{
	return get_n(v, key, strlen(key));
}

const struct jp_value *jp_path(const struct jp_value *v, const char *dotted)
{
	const char *seg = dotted;
	for (;;) {
		const char *dot = strchr(seg, '.');
		size_t n = dot ? (size_t)(dot - seg) : strlen(seg);
		v = get_n(v, seg, n);
		if (!v || !dot)
			return v;
		seg = dot + 1;
	}
}

const char *jp_str(const struct jp_value *v)
{
	return v && v->type == JP_STRING ? v->str : NULL;
}

int jp_double(const struct jp_value *v, double *out)
{
	if (!v || v->type != JP_NUMBER)
		return -1;
	*out = v->num;
	return 0;
}

int jp_uint(const struct jp_value *v, uint64_t *out)
{
	if (!v || v->type != JP_NUMBER || !v->is_uint)
		return -1;
	*out = v->u;
	return 0;
}
