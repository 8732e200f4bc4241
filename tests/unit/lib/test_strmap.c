/* strmap: the hash that keeps report's grouping linear.  Values set here,
 * read back; keys of several strings never collide by concatenation. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

static void test_put_get(void **state)
{
	(void)state;
	struct strmap m;
	strmap_init(&m);
	unsigned v = 0;
	assert_int_equal(strmap_get(&m, "a", 1, &v), 0); /* empty: nothing */
	char key[32];
	/* 10,000 keys: the table grows many times, every value stays */
	for (unsigned i = 0; i < 10000; i++) {
		int found = -1;
		int n = snprintf(key, sizeof(key), "host%u", i);
		unsigned *slot = strmap_at(&m, key, (size_t)n, i * 7, &found);
		assert_non_null(slot);
		assert_int_equal(found, 0);
		assert_int_equal(*slot, i * 7);
	}
	assert_int_equal(m.n, 10000);
	for (unsigned i = 0; i < 10000; i++) {
		int n = snprintf(key, sizeof(key), "host%u", i);
		assert_int_equal(strmap_get(&m, key, (size_t)n, &v), 1);
		assert_int_equal(v, i * 7);
	}
	/* a key there: found, its value kept, and changed through the slot */
	int found = 0;
	unsigned *slot = strmap_at(&m, "host5", 5, 99, &found);
	assert_int_equal(found, 1);
	assert_int_equal(*slot, 35);
	(*slot)++;
	assert_int_equal(strmap_get(&m, "host5", 5, &v), 1);
	assert_int_equal(v, 36);
	/* bytes, not C strings: a NUL inside, and the empty key */
	assert_int_equal(strmap_get(&m, "host5\0x", 7, &v), 0);
	assert_non_null(strmap_at(&m, "", 0, 1, &found));
	assert_int_equal(found, 0);
	assert_int_equal(strmap_get(&m, "", 0, &v), 1);
	strmap_free(&m);
}

static void test_keys(void **state)
{
	(void)state;
	size_t la, lb, lc;
	const char *a[] = { "ab", "c" }, *b[] = { "a", "bc" }, *c[] = { "a", NULL };
	char *ka = strmap_key(a, 2, &la), *kb = strmap_key(b, 2, &lb), *kc = strmap_key(c, 2, &lc);
	assert_non_null(ka);
	assert_non_null(kb);
	assert_non_null(kc);
	/* "ab"+"c" and "a"+"bc" join to the same text, never to the same key */
	assert_memory_equal(ka, "2:ab1:c", 7);
	assert_memory_equal(kb, "1:a2:bc", 7);
	assert_true(la == 7 && lb == 7 && memcmp(ka, kb, 7) != 0);
	assert_true(lc == 5 && memcmp(kc, "1:a0:", 5) == 0); /* NULL is "" */
	free(ka), free(kb), free(kc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get),
		cmocka_unit_test(test_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
