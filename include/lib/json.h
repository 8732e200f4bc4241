/* A minimal streaming JSON writer that escapes every string it is given, so a
 * quote, backslash or control byte in a path cannot break the document. */
#ifndef JSON_H
#define JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	int depth;
	bool first[JSON_MAX_DEPTH];
	bool after_key;
};

void json_init(struct json *j, FILE *f);
void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s); /* NULL prints null */
void json_uint(struct json *j, uint64_t v);
void json_double(struct json *j, double v, int decimals); /* non-finite: null */
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 if it is not one. */
int json_utf8_length(const unsigned char *p);
/* Writes s as a JSON string literal (with quotes) to f. */
void json_write_escaped(FILE *f, const char *s);

#endif
