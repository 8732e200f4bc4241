/* Unit tests of what the command line says was given (issue 44): an option
 * that a test accepts together with its siblings (--batch, --reap, --sqpoll
 * and --poll go with --qd) records its own bit, so that "was --qd given"
 * asks about --qd alone and an open loop keeps its depth; and the option
 * table holds that for every row, so that a new sibling cannot undo it. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_int.h"
#include "cmd.h"
#include "diskbench.h"

static char why[512];

/* cli_parse on "diskbench" followed by the given words (NULL-terminated). */
static int parse(struct cli *c, const char *first, ...)
{
	static char *argv[64];
	int argc = 0;
	va_list ap;
	va_start(ap, first);
	argv[argc++] = (char *)"diskbench";
	for (const char *a = first; a; a = va_arg(ap, const char *)) {
		assert_true(argc < 63);
		argv[argc++] = (char *)a;
	}
	va_end(ap);
	argv[argc] = NULL;
	memset(why, 0, sizeof(why));
	return cli_parse(argc, argv, c, why, sizeof(why));
}

/* --rate without --qd: 128 in flight a thread at 4 KiB blocks (64 MiB of
 * buffers would allow 16384), whatever performance flag comes with it. */
static void test_flags_keep_open_loop_depth(void **state)
{
	(void)state;
	struct cli c;
	const char *flags[][2] = { { "--batch", "1" }, { "--reap", "syscall" },
				   { "--sqpoll", NULL }, { "--batch", "8" } };
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		int code = parse(&c, "randread", "--rate", "1000", flags[i][0], flags[i][1], NULL);
		if (code != EXIT_OK)
			print_error("%s: %s\n", flags[i][0], why);
		assert_int_equal(code, EXIT_OK);
		if (c.opt.qd != OPEN_LOOP_QD)
			print_error("--rate with %s: qd %u, want %u\n", flags[i][0], c.opt.qd,
				    OPEN_LOOP_QD);
		assert_int_equal(c.opt.qd, OPEN_LOOP_QD);
		assert_false(c.opt.given & OPT_QD);
	}
	/* sla is an open loop without --rate */
	assert_int_equal(parse(&c, "sla", "randread", "--latency", "1ms", "--batch", "1", NULL),
			 EXIT_OK);
	assert_int_equal(c.opt.qd, OPEN_LOOP_QD);
	/* 1 MiB blocks: 64 MiB of buffers hold 64 */
	assert_int_equal(parse(&c, "randread", "--rate", "100", "-b", "1M", "--reap", "ring", NULL),
			 EXIT_OK);
	assert_int_equal(c.opt.qd, 64);
}

/* Negative cases: --qd given is --qd's value, with or without the flags. */
static void test_qd_given_is_kept(void **state)
{
	(void)state;
	struct cli c;
	assert_int_equal(parse(&c, "randread", "--rate", "1000", "--qd", "4", "--batch", "2", NULL),
			 EXIT_OK);
	assert_int_equal(c.opt.qd, 4);
	assert_true(c.opt.given & OPT_QD);
	assert_int_equal(parse(&c, "randread", "--batch", "2", NULL), EXIT_OK);
	assert_int_equal(c.opt.qd, 1); /* closed loop: the default, 1 */
	assert_false(c.opt.given & OPT_QD);
	/* the sync engine: --rate's depth is fitted at run time, so -j 100 at
	 * 1 MiB is 100 MiB of buffers, not 100 x 64 (6.4 GiB, over the 4 GiB
	 * limit: refused on an asynchronous engine); a --qd above 1 is refused */
	assert_int_equal(parse(&c, "randread", "--engine=sync", "--rate", "9", "-j", "100", "-b",
			       "1M", NULL), EXIT_OK);
	assert_int_equal(parse(&c, "randread", "--engine=uring", "--rate", "9", "-j", "100", "-b",
			       "1M", NULL), EXIT_USAGE);
	assert_int_equal(parse(&c, "randread", "--engine=sync", "--qd", "2", NULL), EXIT_USAGE);
}

/* Every row of the option table records itself by one bit that no other
 * option shares, but for the group bits (OPT_GROUPS, where the question is
 * "one of them") and the rows of one name (--budget of sweep and of matrix);
 * a given bit apart from the accepts bit is one no command accepts. */
static void test_table_given_bits(void **state)
{
	(void)state;
	for (size_t i = 0; i < optdef_count; i++) {
		const struct optdef *a = &optdefs[i];
		opt_bits g = optdef_given(a);
		assert_true((g & (g - 1)) == 0); /* one bit, or 0 for a global option */
		for (unsigned k = 0; g != a->bit && k < command_count; k++)
			assert_false(commands[k].options & g);
		for (size_t j = i + 1; g && j < optdef_count; j++) {
			const struct optdef *b = &optdefs[j];
			if (optdef_given(b) != g || strcmp(a->name, b->name) == 0 || (g & OPT_GROUPS))
				continue;
			print_error("--%s and --%s are both recorded by bit %d: give one of them a "
				    "given bit of its own (diskbench.h)\n", a->name, b->name,
				    __builtin_ctzll(g));
			fail();
		}
	}
}

/* Each flag that goes with --qd or --rate says itself that it was given. */
static void test_own_bits_recorded(void **state)
{
	(void)state;
	struct cli c;
	assert_int_equal(parse(&c, "randread", "--batch", "2", "--reap", "syscall", NULL), EXIT_OK);
	assert_int_equal(c.opt.given & (OPT_BATCH | OPT_REAP | OPT_QD), OPT_BATCH | OPT_REAP);
	assert_int_equal(parse(&c, "randread", "--rate", "9", "--arrivals", "fixed", NULL), EXIT_OK);
	assert_int_equal(c.opt.given & (OPT_RATE | OPT_ARRIVALS), OPT_RATE | OPT_ARRIVALS);
	assert_int_equal(parse(&c, "randread", "--arrivals", "fixed", NULL), EXIT_USAGE);
	assert_non_null(strstr(why, "--arrivals goes with --rate"));
	assert_int_equal(parse(&c, "seqwrite", "--max-open-zones", "4", NULL), EXIT_OK);
	assert_int_equal(c.opt.given & (OPT_FORCE | OPT_MAX_OPEN_ZONES), OPT_MAX_OPEN_ZONES);
	assert_false(c.opt.force);
	/* capacity takes --force and writes no zones: --max-open-zones is not its own (its
	 * accept bit was OPT_FORCE, so capacity took it and its --help listed it) */
	assert_int_equal(parse(&c, "capacity", "--max-open-zones", "4", NULL), EXIT_USAGE);
	assert_non_null(strstr(why, "does not apply to"));
	assert_int_equal(parse(&c, "capacity", "--force", NULL), EXIT_OK);
	assert_int_equal(parse(&c, "sweep", "--max-open-zones", "4", NULL), EXIT_OK);
	assert_int_equal(parse(&c, "job", "f.fio", "--max-open-zones", "4", NULL), EXIT_OK);
}

/* --precondition[=PASSES]: a number after it is a usage error naming the
 * = form, never the TARGET (issue 44); a path after it is the TARGET. */
static void test_optional_value_never_takes_word(void **state)
{
	(void)state;
	struct cli c;
	assert_int_equal(parse(&c, "steady", "randwrite", "--precondition", "2", NULL), EXIT_USAGE);
	assert_non_null(strstr(why, "use --precondition=2"));
	assert_int_equal(parse(&c, "steady", "randwrite", "--precondition", "3", "/tmp", NULL),
			 EXIT_USAGE);
	assert_non_null(strstr(why, "use --precondition=3"));
	assert_int_equal(parse(&c, "steady", "randwrite", "--precondition=2", "/tmp", NULL), EXIT_OK);
	assert_int_equal(c.opt.steady.precondition, 2);
	assert_string_equal(c.opt.target, "/tmp");
	assert_int_equal(parse(&c, "steady", "randwrite", "--precondition", "/tmp", NULL), EXIT_OK);
	assert_int_equal(c.opt.steady.precondition, 2); /* the default passes */
	assert_string_equal(c.opt.target, "/tmp");
	assert_int_equal(parse(&c, "steady", "randwrite", "/tmp", "--precondition", NULL), EXIT_OK);
	assert_int_equal(parse(&c, "steady", "randwrite", "--precondition", "--", "2", NULL), EXIT_OK);
	assert_string_equal(c.opt.target, "2"); /* after --, a word is a word */
}

/* --rate's floor: 0.001 IOPS, one I/O in 1000 s (issue 44: 1e-300 was
 * accepted, and its gap overflowed the clock). */
static void test_rate_floor(void **state)
{
	(void)state;
	struct cli c;
	assert_int_equal(parse(&c, "randread", "--rate", "1e-300", NULL), EXIT_USAGE);
	assert_non_null(strstr(why, "at least 0.001"));
	assert_int_equal(parse(&c, "randread", "--rate", "0.0009", NULL), EXIT_USAGE);
	assert_int_equal(parse(&c, "randread", "--rate", "0.001", NULL), EXIT_OK);
	assert_true(c.opt.rate == 0.001);
	assert_int_equal(parse(&c, "randread", "--rate", "100M", NULL), EXIT_OK);
	assert_int_equal(parse(&c, "randread", "--rate", "101M", NULL), EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_given_bits),
		cmocka_unit_test(test_own_bits_recorded),
		cmocka_unit_test(test_optional_value_never_takes_word),
		cmocka_unit_test(test_rate_floor),
		cmocka_unit_test(test_flags_keep_open_loop_depth),
		cmocka_unit_test(test_qd_given_is_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
