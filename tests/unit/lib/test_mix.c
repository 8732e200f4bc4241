/* --mix: the parser's accepted and refused forms, the formatter's round
 * trip, and the draw's shares over the whole range of draws. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mix.h"

static void parses_shares(void **state)
{
	(void)state;
	struct mix m;
	char why[160] = "";
	assert_int_equal(mix_parse("r70,w30", &m, why, sizeof(why)), 0);
	assert_int_equal(m.pct[MIX_READ], 70);
	assert_int_equal(m.pct[MIX_WRITE], 30);
	assert_int_equal(m.pct[MIX_TRIM], 0);
	assert_int_equal(mix_parse("t10,r60,w30", &m, why, sizeof(why)), 0);
	assert_int_equal(m.pct[MIX_READ], 60);
	assert_int_equal(m.pct[MIX_WRITE], 30);
	assert_int_equal(m.pct[MIX_TRIM], 10);
	assert_int_equal(mix_parse("w100", &m, why, sizeof(why)), 0);
	assert_int_equal(m.pct[MIX_WRITE], 100);
	assert_int_equal(mix_parse("r100,w0", &m, why, sizeof(why)), 0);
	assert_true(mix_has(&m, MIX_READ));
	assert_false(mix_has(&m, MIX_WRITE));
	assert_int_equal(mix_first(&m), MIX_READ);
}

static void refuse(const char *s, const char *words)
{
	struct mix m = { { 1, 2, 3 } };
	char why[160] = "";
	assert_int_equal(mix_parse(s, &m, why, sizeof(why)), -1);
	if (!strstr(why, words))
		fail_msg("'%s': '%s' does not say '%s'", s, why, words);
	assert_int_equal(m.pct[0], 1); /* untouched on failure */
}

static void refuses_bad_input(void **state)
{
	(void)state;
	refuse("r70,w20", "sums to 90 %, not 100");
	refuse("r70,w40", "sums to 110 %, not 100");
	refuse("r70,x30", "'x' is not an operation");
	refuse("r50,r50", "'r' is given twice");
	refuse("", "an operation is missing");
	refuse("r70,", "an operation is missing");
	refuse("r,w100", "'r' needs a whole percent");
	refuse("r-5,w105", "'r' needs a whole percent");
	refuse("r1000", "at most 100");
	refuse("r70;w30", "separate the shares with commas");
	refuse("R70,W30", "'R' is not an operation");
}

static void formats_round_trip(void **state)
{
	(void)state;
	const char *forms[] = { "r70,w30", "r60,w30,t10", "t100", "w100", "r1,w1,t98" };
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct mix m;
		char why[160], back[32];
		assert_int_equal(mix_parse(forms[i], &m, why, sizeof(why)), 0);
		assert_int_equal(mix_format(&m, back, sizeof(back)), (int)strlen(forms[i]));
		assert_string_equal(back, forms[i]);
	}
	struct mix m = mix_read_write(25);
	char out[8];
	assert_int_equal(mix_format(&m, out, sizeof(out)), 7);
	assert_string_equal(out, "r75,w25");
	assert_int_equal(mix_format(&m, out, 4), 7); /* truncated, still terminated */
	assert_string_equal(out, "r75");
}

static void draws_give_the_shares(void **state)
{
	(void)state;
	struct mix m;
	char why[160];
	unsigned count[MIX_OPS] = { 0, 0, 0 };
	assert_int_equal(mix_parse("r60,w30,t10", &m, why, sizeof(why)), 0);
	for (unsigned d = 0; d < 100; d++)
		count[mix_pick(&m, d)]++;
	assert_int_equal(count[MIX_READ], 60);
	assert_int_equal(count[MIX_WRITE], 30);
	assert_int_equal(count[MIX_TRIM], 10);
	m = mix_read_write(0);
	for (unsigned d = 0; d < 100; d++)
		assert_int_equal(mix_pick(&m, d), MIX_READ);
	assert_string_equal(mix_op_name(MIX_TRIM), "trim");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_shares),
		cmocka_unit_test(refuses_bad_input),
		cmocka_unit_test(formats_round_trip),
		cmocka_unit_test(draws_give_the_shares),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
