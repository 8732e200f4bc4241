#include "json.h"

#include <math.h>

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->after_key = false;
}

/* Separates values: a comma unless first in its container or after a key. */
static void json_separate(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		fputs(", ", j->f);
	j->first[j->depth] = false;
}

static void json_open(struct json *j, char c)
{
	json_separate(j);
	fputc(c, j->f);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = true;
}

static void json_close(struct json *j, char c)
{
	if (j->depth > 0)
		j->depth--;
	fputc(c, j->f);
}

void json_object_begin(struct json *j) { json_open(j, '{'); }
void json_object_end(struct json *j) { json_close(j, '}'); }
void json_array_begin(struct json *j) { json_open(j, '['); }
void json_array_end(struct json *j) { json_close(j, ']'); }

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 if it is not one. */
int json_utf8_length(const unsigned char *p)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int len;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (int i = 2; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

void json_write_escaped(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= 0x80) {
			/* file names need not be UTF-8; JSON must be */
			int len = json_utf8_length(p);
			if (len == 0) {
				fputs("\\ufffd", f);
				continue;
			}
			fwrite(p, 1, (size_t)len, f);
			p += len - 1;
			continue;
		}
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
	json_separate(j);
	json_write_escaped(j->f, key);
	fputs(": ", j->f);
	j->after_key = true;
}

void json_string(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	json_separate(j);
	json_write_escaped(j->f, s);
}

void json_uint(struct json *j, uint64_t v)
{
	json_separate(j);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_double(struct json *j, double v, int decimals)
{
	if (!isfinite(v)) {
		json_null(j);
		return;
	}
	json_separate(j);
	fprintf(j->f, "%.*f", decimals, v);
}

void json_bool(struct json *j, bool v)
{
	json_separate(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	json_separate(j);
	fputs("null", j->f);
}
