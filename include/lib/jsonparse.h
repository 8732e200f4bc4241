/* A small, strict JSON reader (RFC 8259): one text in, a tree of values out.
 * Made for reading diskbench's own JSON Lines back (`diskbench report`), and
 * for lines of unknown origin: no recursion (nesting is bounded by
 * JP_MAX_DEPTH and walked with an explicit stack), memory bounded by the
 * input's length, raw bytes checked as UTF-8, escapes (\uXXXX and surrogate
 * pairs included) decoded to UTF-8, and garbage refused with the byte offset
 * where it starts.  Pure: no I/O; allocates, and jp_free gives it all back. */
#ifndef JSONPARSE_H
#define JSONPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JP_MAX_DEPTH 64
#define JP_MAX_NUMBER 512 /* characters of one number literal */

enum jp_type { JP_NULL, JP_FALSE, JP_TRUE, JP_NUMBER, JP_STRING, JP_ARRAY, JP_OBJECT };

struct jp_value {
	enum jp_type type;
	const char *key;        /* the member's name inside an object, else NULL */
	size_t key_len;         /* (names and strings may hold NULs from \u0000) */
	const char *str;        /* JP_STRING: UTF-8, NUL-terminated */
	size_t str_len;
	double num;             /* JP_NUMBER */
	bool is_uint;           /* JP_NUMBER: a whole number in [0, 2^64) held exactly in u */
	uint64_t u;
	struct jp_value *first; /* JP_ARRAY, JP_OBJECT: the elements or members, in order */
	struct jp_value *next;  /* the next sibling */
	size_t count;           /* how many elements or members */
	size_t pos, end;        /* the value's bytes in the text: [pos, end) */
};

struct jp_block;

struct jp_doc {
	struct jp_value *root;
	struct jp_block *blocks; /* the values */
	char *strings;           /* every name and string, unescaped */
	size_t strings_used;
};

/* Parses text[0..len): exactly one value, with only whitespace around it.
 * Returns 0 with doc->root set, or -1: *why says what is wrong and *pos the
 * byte offset where (errno ENOMEM when memory ran out, else EINVAL).  doc
 * needs jp_free either way. */
int jp_parse(struct jp_doc *doc, const char *text, size_t len, const char **why, size_t *pos);
/* The same, refusing (EINVAL, "more JSON values than the limit") a text of
 * more than max_values values: each costs a struct jp_value, ~20 times the
 * one or two bytes a value can take in the text. */
int jp_parse_capped(struct jp_doc *doc, const char *text, size_t len, size_t max_values,
		    const char **why, size_t *pos);
void jp_free(struct jp_doc *doc);

/* The member named key of an object (the last one, as JavaScript and
 * Python read duplicates), or NULL when v is not an object or lacks it. */
const struct jp_value *jp_get(const struct jp_value *v, const char *key);
/* The same along a dotted path: "result.lat_ns.p99". */
const struct jp_value *jp_path(const struct jp_value *v, const char *dotted);
/* The string of a JP_STRING value, else NULL. */
const char *jp_str(const struct jp_value *v);
/* *out = the number of a JP_NUMBER value: 0, else -1. */
int jp_double(const struct jp_value *v, double *out);
int jp_uint(const struct jp_value *v, uint64_t *out);

#endif
