/* findings_judge_verify (src/findings/verify_findings.c) over tallies the
 * test sets: silent when every block is good; each bad kind said with its
 * first offsets (misplaced ones with the offset they were written for) and
 * counted in finding data_bad; writes_lost only where the run's writes were
 * acknowledged durable and some of them are gone (stale, unwritten, lost),
 * never for corrupt or misplaced blocks alone nor for --sync=none. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "findings.h"

static struct result r;
static struct result_verify v;

static int reset(void **state)
{
	(void)state;
	memset(&r, 0, sizeof(r));
	memset(&v, 0, sizeof(v));
	v.mode = "after";
	v.crc = "table";
	v.blocks = 100;
	v.good = 100;
	v.durable = true;
	return 0;
}

static void bad(enum verify_kind k, uint64_t offset, uint64_t found)
{
	v.good--;
	v.first[k][v.bad[k] < VERIFY_FIRST ? v.bad[k] : 0] =
		(struct verify_bad){ .offset = offset, .found = found, .wanted = 2 };
	v.bad[k]++;
}

static bool said(const char *words)
{
	for (unsigned i = 0; i < r.nwarnings; i++)
		if (strstr(r.warnings[i], words))
			return true;
	return false;
}

static void test_all_good_is_silent(void **state)
{
	(void)state;
	assert_false(findings_judge_verify(&v, &r));
	assert_int_equal(r.nwarnings, 0);
	assert_int_equal(r.nfindings, 0);
}

static void test_corrupt_and_misplaced(void **state)
{
	(void)state;
	bad(VERIFY_CORRUPT, 4096, 0);
	bad(VERIFY_CORRUPT, 8192, 0);
	bad(VERIFY_MISPLACED, 0, 1048576);
	assert_true(findings_judge_verify(&v, &r));
	assert_true(said("data did not verify: 3 of 100 blocks bad: 2 corrupt (at 4096, 8192), "
			 "1 misplaced (at 0 the block of 1048576)"));
	assert_true(said("corrupt: the CRC fails"));
	assert_true(said("misplaced: an intact block written for another offset"));
	const struct finding *f = finding_find(&r, "data_bad");
	assert_non_null(f);
	assert_int_equal((int)finding_value(f, "corrupt", -1), 2);
	assert_int_equal((int)finding_value(f, "misplaced", -1), 1);
	assert_int_equal((int)finding_value(f, "stale", -1), 0);
	assert_int_equal((int)finding_value(f, "blocks", -1), 100);
	/* the data changed, but nothing acknowledged was lost */
	assert_null(finding_find(&r, "writes_lost"));
}

static void test_lost_durable_writes(void **state)
{
	(void)state;
	bad(VERIFY_STALE, 12288, 1);
	bad(VERIFY_UNWRITTEN, 8192, 0);
	assert_true(findings_judge_verify(&v, &r));
	const struct finding *f = finding_find(&r, "writes_lost");
	assert_non_null(f);
	assert_int_equal((int)finding_value(f, "writes", -1), 2);
	assert_int_equal((int)finding_value(f, "first_offset", -1), 8192);
	assert_true(said("the disk lost 2 writes it had acknowledged durable (the first at offset "
			 "8192): every durable-write figure from it"));
}

static void test_witness_lost(void **state)
{
	(void)state;
	v.mode = "witness";
	bad(VERIFY_LOST, 65536, 3);
	assert_true(findings_judge_verify(&v, &r));
	assert_true(said("1 lost (at 65536)"));
	assert_non_null(finding_find(&r, "writes_lost"));
}

/* --sync=none promised nothing: stale blocks are bad, but no durable-write
 * figure was claimed, so no writes_lost. */
static void test_not_durable_no_lost_finding(void **state)
{
	(void)state;
	v.durable = false;
	bad(VERIFY_STALE, 0, 1);
	assert_true(findings_judge_verify(&v, &r));
	assert_non_null(finding_find(&r, "data_bad"));
	assert_null(finding_find(&r, "writes_lost"));
}

/* Many of one kind: three offsets in words, then "...". */
static void test_many_offsets_cut(void **state)
{
	(void)state;
	for (uint64_t i = 0; i < 6; i++)
		bad(VERIFY_CORRUPT, i * 512, 0);
	assert_true(findings_judge_verify(&v, &r));
	assert_true(said("6 corrupt (at 0, 512, 1024, ...)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_all_good_is_silent, reset),
		cmocka_unit_test_setup(test_corrupt_and_misplaced, reset),
		cmocka_unit_test_setup(test_lost_durable_writes, reset),
		cmocka_unit_test_setup(test_witness_lost, reset),
		cmocka_unit_test_setup(test_not_durable_no_lost_finding, reset),
		cmocka_unit_test_setup(test_many_offsets_cut, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
