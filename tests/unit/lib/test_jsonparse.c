/* Unit tests of src/lib/jsonparse.c: every kind of value, exact whole numbers,
 * escapes to UTF-8, the spans of values, lookups, and garbage refused at the
 * right byte with a reason; nesting bounded without recursion. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonparse.h"

static const struct jp_value *parse_ok(struct jp_doc *doc, const char *text, size_t len)
{
	const char *why = NULL;
	size_t pos = 0;
	if (jp_parse(doc, text, len, &why, &pos) != 0)
		fail_msg("'%.60s' refused at %zu: %s", text, pos, why);
	assert_non_null(doc->root);
	return doc->root;
}

static void test_values(void **state)
{
	(void)state;
	struct jp_doc doc;
	const char *text = " {\"a\": [1, -2.5, true, false, null, \"x\"], \"b\": {}, \"c\": []}\r\n";
	const struct jp_value *root = parse_ok(&doc, text, strlen(text));
	assert_int_equal(root->type, JP_OBJECT);
	assert_int_equal(root->count, 3);
	assert_int_equal(root->pos, 1);
	assert_int_equal(root->end, strlen(text) - 2);
	const struct jp_value *a = jp_get(root, "a");
	assert_int_equal(a->type, JP_ARRAY);
	assert_int_equal(a->count, 6);
	const struct jp_value *v = a->first;
	assert_int_equal(v->type, JP_NUMBER);
	assert_true(v->is_uint && v->u == 1);
	v = v->next;
	assert_true(v->num == -2.5 && !v->is_uint);
	assert_memory_equal(text + v->pos, "-2.5", v->end - v->pos);
	assert_int_equal(v->next->type, JP_TRUE);
	assert_int_equal(v->next->next->type, JP_FALSE);
	assert_int_equal(v->next->next->next->type, JP_NULL);
	assert_string_equal(jp_str(v->next->next->next->next), "x");
	assert_null(v->next->next->next->next->next);
	assert_int_equal(jp_get(root, "b")->type, JP_OBJECT);
	assert_int_equal(jp_get(root, "b")->count, 0);
	assert_null(jp_get(root, "b")->first);
	assert_int_equal(jp_get(root, "c")->count, 0);
	assert_null(jp_get(root, "missing"));
	assert_null(jp_get(a, "a")); /* not an object */
	jp_free(&doc);

	root = parse_ok(&doc, "7", 1); /* a scalar alone is a JSON text too */
	assert_true(root->is_uint && root->u == 7);
	jp_free(&doc);
}

static void test_whole_numbers(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		bool is_uint;
		uint64_t u;
	} cases[] = {
		{ "0", true, 0 },
		{ "-0", true, 0 },
		{ "18446744073709551615", true, UINT64_MAX },
		{ "18446744073709551616", false, 0 },
		{ "9007199254740993", true, 9007199254740993ull }, /* not a double, yet exact */
		{ "1e3", true, 1000 },
		{ "2.0", true, 2 },
		{ "1.5", false, 0 },
		{ "-1", false, 0 },
		{ "1e300", false, 0 },
		{ "1e-400", false, 0 }, /* underflow to 0 is fine, not a whole number written */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct jp_doc doc;
		const struct jp_value *v = parse_ok(&doc, cases[i].text, strlen(cases[i].text));
		if (strcmp(cases[i].text, "1e-400") == 0) {
			assert_true(v->num == 0);
		} else {
			assert_int_equal(v->is_uint, cases[i].is_uint);
			if (cases[i].is_uint)
				assert_true(v->u == cases[i].u);
		}
		uint64_t u;
		assert_int_equal(jp_uint(v, &u) == 0, v->is_uint);
		jp_free(&doc);
	}
}

static void test_strings(void **state)
{
	(void)state;
	struct jp_doc doc;
	const char text[] = "[\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\", \"\\u00e9\\u20ac\", \"\\ud83d\\ude00\", "
			    "\"nul\\u0000in\", \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"]";
	const struct jp_value *v = parse_ok(&doc, text, strlen(text))->first;
	assert_string_equal(v->str, "a\"b\\c/d\b\f\n\r\t");
	v = v->next;
	assert_string_equal(v->str, "\xc3\xa9\xe2\x82\xac");
	v = v->next;
	assert_string_equal(v->str, "\xf0\x9f\x98\x80");
	v = v->next;
	assert_int_equal(v->str_len, 6);
	assert_memory_equal(v->str, "nul\0in", 7);
	v = v->next;
	assert_string_equal(v->str, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	jp_free(&doc);

	/* names are unescaped too, and a duplicate reads as the last */
	const char *obj = "{\"k\\u0065y\": 1, \"key\": 2, \"nest\": {\"x\": {\"y\": \"deep\"}}}";
	const struct jp_value *root = parse_ok(&doc, obj, strlen(obj));
	assert_true(jp_get(root, "key")->u == 2);
	assert_string_equal(jp_str(jp_path(root, "nest.x.y")), "deep");
	assert_null(jp_path(root, "nest.y"));
	assert_null(jp_path(root, "nest.x.y.z"));
	double d;
	assert_int_equal(jp_double(jp_get(root, "nest"), &d), -1);
	jp_free(&doc);
}

static void test_garbage(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		size_t pos;
		const char *why; /* a part of the reason */
	} cases[] = {
		{ "", 0, "unexpected end" },
		{ "   ", 3, "unexpected end" },
		{ "{", 1, "member name" },
		{ "[1,]", 3, "not a JSON value" },
		{ "[1 2]", 3, "','" },
		{ "{\"a\" 1}", 5, "':'" },
		{ "{\"a\":1,}", 7, "member name" },
		{ "{\"a\":1 \"b\":2}", 7, "'}'" },
		{ "{1:2}", 1, "member name" },
		{ "01", 0, "leading zero" },
		{ "1.", 2, "decimal point" },
		{ "1e", 2, "exponent" },
		{ "-", 1, "not a JSON value" },
		{ "+1", 0, "not a JSON value" },
		{ ".5", 0, "not a JSON value" },
		{ "1e400", 0, "out of range" },
		{ "tru", 0, "not a JSON value" },
		{ "nul", 0, "not a JSON value" },
		{ "[1] x", 4, "after the JSON value" },
		{ "{}{}", 2, "after the JSON value" },
		{ "\"abc", 0, "unterminated" },
		{ "\"a\\", 2, "unterminated" },
		{ "\"\x01\"", 1, "control character" },
		{ "\"\\x\"", 1, "unknown escape" },
		{ "\"\\u12\"", 1, "four hex" },
		{ "\"\\ud800\"", 1, "high surrogate" },
		{ "\"\\ud800\\u0041\"", 1, "high surrogate" },
		{ "\"\\udc00\"", 1, "low surrogate" },
		{ "\"\xff\"", 1, "UTF-8" },
		{ "\"\xc0\xaf\"", 1, "UTF-8" },         /* overlong '/' */
		{ "\"\xed\xa0\x80\"", 1, "UTF-8" },     /* a surrogate in UTF-8 */
		{ "\"\xf4\x90\x80\x80\"", 1, "UTF-8" }, /* beyond U+10FFFF */
		{ "\"\xe2\x82\"", 1, "UTF-8" },         /* cut short */
		{ "[\"a\", \xef\xbb\xbf]", 6, "not a JSON value" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct jp_doc doc;
		const char *why = NULL;
		size_t pos = 999;
		int rc = jp_parse(&doc, cases[i].text, strlen(cases[i].text), &why, &pos);
		if (rc != -1 || !why || !strstr(why, cases[i].why) || pos != cases[i].pos)
			fail_msg("'%s': rc %d, pos %zu (want %zu), why '%s' (want '%s')", cases[i].text, rc,
				 pos, cases[i].pos, why ? why : "", cases[i].why);
		assert_int_equal(errno, EINVAL);
		assert_null(doc.root);
		jp_free(&doc);
	}
	/* a NUL byte inside the text is garbage, not an end */
	struct jp_doc doc;
	const char *why;
	size_t pos;
	assert_int_equal(jp_parse(&doc, "[1]\0", 4, &why, &pos), -1);
	assert_int_equal(pos, 3);
	jp_free(&doc);
	/* a number literal too long to convert */
	char *big = malloc(JP_MAX_NUMBER + 2);
	assert_non_null(big);
	memset(big, '1', JP_MAX_NUMBER + 1);
	big[JP_MAX_NUMBER + 1] = '\0';
	assert_int_equal(jp_parse(&doc, big, strlen(big), &why, &pos), -1);
	assert_non_null(strstr(why, "longer"));
	jp_free(&doc);
	free(big);
}

/* JP_MAX_DEPTH levels are read; one more is refused where it opens, and
 * a million open brackets cost no stack. */
static void test_depth(void **state)
{
	(void)state;
	size_t n = 1000000;
	char *text = malloc(2 * n + 1);
	assert_non_null(text);
	memset(text, '[', JP_MAX_DEPTH);
	memset(text + JP_MAX_DEPTH, ']', JP_MAX_DEPTH);
	struct jp_doc doc;
	const char *why;
	size_t pos;
	assert_int_equal(jp_parse(&doc, text, 2 * JP_MAX_DEPTH, &why, &pos), 0);
	jp_free(&doc);
	memset(text, '[', JP_MAX_DEPTH + 1);
	memset(text + JP_MAX_DEPTH + 1, ']', JP_MAX_DEPTH + 1);
	assert_int_equal(jp_parse(&doc, text, 2 * JP_MAX_DEPTH + 2, &why, &pos), -1);
	assert_int_equal(pos, JP_MAX_DEPTH);
	assert_non_null(strstr(why, "nested deeper"));
	jp_free(&doc);
	memset(text, '[', n);
	assert_int_equal(jp_parse(&doc, text, n, &why, &pos), -1);
	jp_free(&doc);
	free(text);
}

/* Many values: the blocks chain, every element is reachable in order. */
static void test_many_values(void **state)
{
	(void)state;
	size_t n = 10000, len = 0;
	char *text = malloc(n * 12 + 3);
	assert_non_null(text);
	text[len++] = '[';
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "%s%zu", i ? "," : "", i * 3);
	text[len++] = ']';
	struct jp_doc doc;
	const struct jp_value *root = parse_ok(&doc, text, len);
	assert_int_equal(root->count, n);
	size_t i = 0;
	for (const struct jp_value *v = root->first; v; v = v->next, i++)
		assert_true(v->is_uint && v->u == i * 3);
	assert_int_equal(i, n);
	jp_free(&doc);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_whole_numbers),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_many_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
