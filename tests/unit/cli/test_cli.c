/* Unit tests of src/cli/cli.c: defaults from the command table, global options
 * before and after TEST, the option spellings, and every kind of usage
 * error (EXIT_USAGE with a message). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "diskbench.h"

#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define GiB (1ull << 30)

static char why[512];

/* cli_parse on "diskbench" followed by the given words (NULL-terminated). */
static int parse_v(struct cli *c, const char *first, va_list ap)
{
	static char *argv[64];
	int argc = 0;
	argv[argc++] = (char *)"diskbench";
	for (const char *a = first; a; a = va_arg(ap, const char *)) {
		assert_true(argc < 63);
		argv[argc++] = (char *)a;
	}
	argv[argc] = NULL;
	memset(why, 0, sizeof(why));
	return cli_parse(argc, argv, c, why, sizeof(why));
}

/* Expects success; returns the parsed cli. */
static struct cli ok(const char *first, ...)
{
	struct cli c;
	va_list ap;
	va_start(ap, first);
	int code = parse_v(&c, first, ap);
	va_end(ap);
	if (code != EXIT_OK)
		print_error("cli_parse failed: %s (first word '%s')\n", why, first ? first : "");
	assert_int_equal(code, EXIT_OK);
	return c;
}

/* Expects a usage error with a message; returns the message. */
static const char *bad(const char *first, ...)
{
	struct cli c;
	va_list ap;
	va_start(ap, first);
	int code = parse_v(&c, first, ap);
	va_end(ap);
	if (code != EXIT_USAGE)
		print_error("cli_parse returned %d, want EXIT_USAGE (first word '%s')\n", code,
			    first ? first : "");
	assert_int_equal(code, EXIT_USAGE);
	assert_true(strlen(why) > 0);
	return why;
}

static void test_seqwrite_defaults(void **state)
{
	(void)state;
	struct cli c = ok("seqwrite", NULL);
	assert_non_null(c.cmd);
	assert_string_equal(c.cmd->name, "seqwrite");
	assert_false(c.help);
	assert_false(c.version);
	assert_int_equal(c.opt.bs, MiB);
	assert_int_equal(c.opt.size, GiB);
	assert_true(c.opt.time_s == 10.0);
	assert_int_equal(c.opt.sync, SYNC_DSYNC);
	assert_true(c.opt.direct);
	assert_int_equal(c.opt.threads, 1);
	assert_string_equal(c.opt.target, ".");
	assert_int_equal(c.opt.format, OUT_TEXT);
	assert_false(c.opt.quiet);
	assert_false(c.opt.keep);
	assert_false(c.opt.force);
	assert_false(c.opt.zeros);
	assert_int_equal(c.opt.given, 0);
}

static void test_other_defaults(void **state)
{
	(void)state;
	struct cli c = ok("seqread", NULL);
	assert_int_equal(c.opt.bs, MiB);
	assert_int_equal(c.opt.size, GiB);
	assert_true(c.opt.time_s == 10.0);
	assert_true(c.opt.direct);
	assert_int_equal(c.opt.drop, DROP_FILE);

	c = ok("buffered", NULL);
	assert_int_equal(c.opt.bs, 2 * MiB);
	assert_true(c.opt.time_s == 3.0);
	assert_false(c.opt.direct);

	c = ok("cached", NULL);
	assert_int_equal(c.opt.bs, 2 * MiB);
	assert_true(c.opt.time_s == 2.0);
	assert_false(c.opt.direct);

	c = ok("randread", NULL);
	assert_int_equal(c.opt.bs, 4 * KiB);
	assert_int_equal(c.opt.size, GiB);
	assert_true(c.opt.time_s == 5.0);
	assert_int_equal(c.opt.threads, 1);
	assert_true(c.opt.direct);

	c = ok("randwrite", NULL);
	assert_int_equal(c.opt.bs, 4 * KiB);
	assert_true(c.opt.time_s == 5.0);
	assert_int_equal(c.opt.sync, SYNC_DSYNC);
	assert_true(c.opt.direct);
}

static void test_global_options_anywhere(void **state)
{
	(void)state;
	struct cli c = ok("--json", "seqwrite", NULL);
	assert_int_equal(c.opt.format, OUT_JSON);
	assert_string_equal(c.cmd->name, "seqwrite");
	c = ok("seqwrite", "--json", NULL);
	assert_int_equal(c.opt.format, OUT_JSON);
	c = ok("seqwrite", "/data", "--json", NULL);
	assert_int_equal(c.opt.format, OUT_JSON);
	assert_string_equal(c.opt.target, "/data");
	c = ok("--csv", "seqread", NULL);
	assert_int_equal(c.opt.format, OUT_CSV);
	c = ok("seqread", "--csv", NULL);
	assert_int_equal(c.opt.format, OUT_CSV);
	c = ok("-q", "seqwrite", NULL);
	assert_true(c.opt.quiet);
	c = ok("seqwrite", "--quiet", NULL);
	assert_true(c.opt.quiet);
	c = ok("--quiet", "--json", "seqwrite", NULL);
	assert_true(c.opt.quiet);
	assert_int_equal(c.opt.format, OUT_JSON);
	/* options before TEST still get the test's defaults where not given */
	c = ok("--json", "randread", NULL);
	assert_int_equal(c.opt.bs, 4 * KiB);
}

static void test_option_spellings(void **state)
{
	(void)state;
	struct cli c = ok("seqwrite", "-b", "8k", NULL);
	assert_int_equal(c.opt.bs, 8 * KiB);
	assert_true(c.opt.given & OPT_BS);
	c = ok("seqwrite", "-b8k", NULL);
	assert_int_equal(c.opt.bs, 8 * KiB);
	c = ok("seqwrite", "--bs=8k", NULL);
	assert_int_equal(c.opt.bs, 8 * KiB);
	c = ok("seqwrite", "--bs", "8k", NULL);
	assert_int_equal(c.opt.bs, 8 * KiB);
	c = ok("seqwrite", "-b", "8KB", NULL);
	assert_int_equal(c.opt.bs, 8000);

	c = ok("seqwrite", "-s", "800M", NULL);
	assert_int_equal(c.opt.size, 800 * MiB);
	assert_true(c.opt.given & OPT_SIZE);
	c = ok("seqwrite", "--size=2G", NULL);
	assert_int_equal(c.opt.size, 2 * GiB);

	c = ok("seqwrite", "-t", "2.5", NULL);
	assert_true(c.opt.time_s == 2.5);
	c = ok("seqwrite", "--time=0", NULL);
	assert_true(c.opt.time_s == 0.0);

	c = ok("seqwrite", "--sync=none", NULL);
	assert_int_equal(c.opt.sync, SYNC_NONE);
	assert_true(c.opt.given & OPT_SYNC);
	c = ok("seqwrite", "--sync=fsync", NULL);
	assert_int_equal(c.opt.sync, SYNC_FSYNC);
	c = ok("seqwrite", "--sync", "dsync", NULL);
	assert_int_equal(c.opt.sync, SYNC_DSYNC);

	c = ok("seqwrite", "--no-direct", NULL);
	assert_false(c.opt.direct);
	assert_true(c.opt.given & OPT_NODIRECT);

	c = ok("seqwrite", "-j", "4", NULL);
	assert_int_equal(c.opt.threads, 4);
	c = ok("randread", "-j4", NULL);
	assert_int_equal(c.opt.threads, 4);
	c = ok("randread", "--threads=32", NULL);
	assert_int_equal(c.opt.threads, 32);
	c = ok("randread", "--threads", "1024", NULL);
	assert_int_equal(c.opt.threads, 1024);

	c = ok("seqread", "--drop-caches=all", NULL);
	assert_int_equal(c.opt.drop, DROP_ALL);
	c = ok("seqread", "--drop-caches=none", NULL);
	assert_int_equal(c.opt.drop, DROP_NONE);
	c = ok("seqread", "--drop-caches", "file", NULL);
	assert_int_equal(c.opt.drop, DROP_FILE);

	c = ok("randread", "--seed", "12345", NULL);
	assert_int_equal(c.opt.seed, 12345);
	c = ok("randwrite", "--seed=0", NULL);
	assert_int_equal(c.opt.seed, 0);

	c = ok("seqwrite", "--zeros", "--keep", "--force", NULL);
	assert_true(c.opt.zeros);
	assert_true(c.opt.keep);
	assert_true(c.opt.force);
	c = ok("randread", "--histogram", NULL);
	assert_true(c.opt.histogram);

	/* everything at once, target in the middle */
	c = ok("--json", "seqwrite", "-b", "4k", "/mnt/x", "-s", "64M", "--sync=fsync", "-j", "2",
	       "--no-direct", "-t", "1.5", NULL);
	assert_int_equal(c.opt.bs, 4 * KiB);
	assert_int_equal(c.opt.size, 64 * MiB);
	assert_int_equal(c.opt.sync, SYNC_FSYNC);
	assert_int_equal(c.opt.threads, 2);
	assert_false(c.opt.direct);
	assert_true(c.opt.time_s == 1.5);
	assert_string_equal(c.opt.target, "/mnt/x");
	assert_int_equal(c.opt.format, OUT_JSON);

	/* the last of a repeated value option wins */
	c = ok("seqwrite", "-b", "8k", "-b", "16k", NULL);
	assert_int_equal(c.opt.bs, 16 * KiB);

	/* "--" ends options: a target that starts with '-' */
	c = ok("seqwrite", "--", "-odd-dir", NULL);
	assert_string_equal(c.opt.target, "-odd-dir");
}

static void test_errors_unknown(void **state)
{
	(void)state;
	assert_non_null(strstr(bad("bogus", NULL), "bogus"));
	assert_non_null(strstr(bad("seqwrite", "--bogus", NULL), "--bogus"));
	assert_non_null(strstr(bad("seqwrite", "-x", NULL), "-x"));
	bad("--bogus", "seqwrite", NULL);
	bad("help", "bogus", NULL);
	bad(NULL);                  /* no test at all */
	bad("--json", NULL);        /* options, but no test */
	bad("seqwrite", "--json=yes", NULL); /* a flag given a value */
	bad("seqwrite", "--keep=1", NULL);
	bad("seqwrite", "-qx", NULL);
}

static void test_errors_values(void **state)
{
	(void)state;
	/* missing values */
	bad("seqwrite", "-b", NULL);
	bad("seqwrite", "--bs", NULL);
	bad("seqwrite", "-s", NULL);
	bad("seqwrite", "-t", NULL);
	bad("seqwrite", "-j", NULL);
	bad("seqwrite", "--sync", NULL);
	bad("seqwrite", "--bs=", NULL);
	/* invalid values */
	assert_non_null(strstr(bad("seqwrite", "--sync=bogus", NULL), "bogus"));
	assert_non_null(strstr(bad("seqread", "--drop-caches=bogus", NULL), "bogus"));
	bad("seqwrite", "-j", "0", NULL);
	bad("seqwrite", "-j", "100000", NULL);
	bad("randread", "-j", "-1", NULL);
	bad("randread", "-j", "two", NULL);
	bad("seqwrite", "-b", "0", NULL);
	bad("seqwrite", "-b", "-1", NULL);
	bad("seqwrite", "-b", "12q", NULL);
	bad("seqwrite", "-s", "12q", NULL);
	bad("seqwrite", "-s", "0", NULL);
	bad("seqwrite", "-s", "-1", NULL);
	bad("seqwrite", "-s", "99999999999999999999T", NULL);
	bad("seqwrite", "-s", "1.5G", NULL);
	bad("seqwrite", "-t", "-1", NULL);
	bad("seqwrite", "-t", "soon", NULL);
	bad("randread", "--seed", "-3", NULL);
	bad("randread", "--seed", "x", NULL);
	/* the message names the option */
	assert_non_null(strstr(bad("seqwrite", "-s", "12q", NULL), "size"));
}

static void test_errors_combinations(void **state)
{
	(void)state;
	bad("--json", "--csv", "seqwrite", NULL);
	bad("seqwrite", "--json", "--csv", NULL);
	bad("--csv", "seqwrite", "--json", NULL);
	/* options that do not apply to the test */
	assert_non_null(strstr(bad("seqread", "--sync=none", NULL), "sync"));
	assert_non_null(strstr(bad("seqread", "--grow", NULL), "grow")); /* --force: holes */
	bad("randread", "--sync=dsync", NULL);
	bad("seqwrite", "--drop-caches=file", NULL);
	bad("seqwrite", "--seed", "1", NULL);
	bad("cached", "--force", NULL);
	/* two targets: only for the tests that spread their load over several */
	assert_non_null(strstr(bad("cached", "/a", "/b", NULL), "/b"));
	assert_non_null(strstr(bad("info", "/a", "/b", NULL), "takes one TARGET"));
	bad("help", "quick", "/a", "/b", NULL);
	struct cli c = ok("randread", "/a", "-j", "2", "/b", "/c", NULL);
	assert_int_equal(c.opt.ntargets, 3);
	assert_string_equal(c.opt.target, "/a");
	assert_string_equal(c.opt.targets[2], "/c");
	c = ok("sweep", "--json", "/a", "/b", NULL);
	assert_int_equal(c.opt.ntargets, 2);
	c = ok("seqread", NULL); /* none: the current directory, the one target */
	assert_int_equal(c.opt.ntargets, 1);
	assert_string_equal(c.opt.targets[0], ".");
}

static void test_help_and_version(void **state)
{
	(void)state;
	struct cli c = ok("help", "seqwrite", NULL);
	assert_true(c.help);
	assert_non_null(c.cmd);
	assert_string_equal(c.cmd->name, "seqwrite");

	c = ok("seqwrite", "--help", NULL);
	assert_true(c.help);
	assert_non_null(c.cmd);
	assert_string_equal(c.cmd->name, "seqwrite");

	c = ok("randread", "-h", NULL);
	assert_true(c.help);
	assert_string_equal(c.cmd->name, "randread");

	c = ok("--help", NULL);
	assert_true(c.help);
	assert_null(c.cmd);

	c = ok("help", NULL);
	assert_true(c.help);
	assert_null(c.cmd);

	c = ok("--version", NULL);
	assert_true(c.version);
	assert_null(c.cmd);
	c = ok("-V", NULL);
	assert_true(c.version);
}

/* Every command in the table parses with its defaults, and its help text
 * names every option it accepts. */
/* steady TEST: the test's defaults and options, its own, and the limits
 * the man page gives; -t, --once refused; the word after it must be a test
 * it runs. */
/* job FILE.fio [TARGET]: the first word is the file, TARGET after it;
 * none named leaves the jobs' own (ntargets 0) */
static void test_job_command(void **state)
{
	(void)state;
	struct cli c = ok("job", "-t", "0.5", "seed.fio", "/var/tmp", NULL);
	assert_string_equal(c.opt.job_file, "seed.fio");
	assert_int_equal(c.opt.ntargets, 1);
	assert_string_equal(c.opt.target, "/var/tmp");
	assert_true(c.opt.time_s == 0.5 && (c.opt.given & OPT_TIME));
	cli_free(&c);
	c = ok("job", "seed.fio", NULL);
	assert_int_equal(c.opt.ntargets, 0);
	assert_string_equal(c.opt.target, ".");
	assert_false(c.opt.given & OPT_TIME);
	cli_free(&c);
	assert_string_equal(bad("job", NULL), "job needs FILE.fio: diskbench job FILE.fio [TARGET]");
	assert_string_equal(bad("job", "a.fio", "d1", "d2", NULL),
			    "unexpected argument 'd2' (this test takes one TARGET)");
	assert_string_equal(bad("job", "a.fio", "-b", "4k", NULL),
			    "option '--bs' does not apply to job");
}

static void test_steady_command(void **state)
{
	(void)state;
	struct cli c = ok("steady", "randwrite", "-b", "8k", "--qd", "4", "--sync=fsync", "--round",
			  "1.5m", "--window=4", "--hold", "2", "--precondition", "--metric", "lat", "d",
			  NULL);
	assert_string_equal(c.test->name, "randwrite");
	assert_string_equal(c.opt.steady.test, "randwrite");
	assert_int_equal(c.opt.bs, 8192);
	assert_int_equal(c.opt.qd, 4);
	assert_int_equal(c.opt.sync, SYNC_FSYNC);
	assert_true(c.opt.steady.round_s == 90 && c.opt.steady.window == 4 && c.opt.steady.hold == 2);
	assert_int_equal(c.opt.steady.precondition, 2); /* bare: PTS's two passes */
	assert_int_equal(c.opt.steady.metric, METRIC_LAT);
	assert_string_equal(c.opt.target, "d");
	cli_free(&c);
	c = ok("steady", "seqread", "--precondition=3", NULL);
	assert_int_equal(c.opt.steady.precondition, 3);
	assert_true(c.opt.steady.round_s == 60 && c.opt.steady.max_rounds == 25 &&
		    c.opt.steady.window == 5 && c.opt.steady.excursion_pct == 20 &&
		    c.opt.steady.slope_pct == 10);
	assert_int_equal(c.opt.bs, 1 << 20); /* seqread's */
	assert_int_equal(c.opt.steady.metric, METRIC_AUTO);
	cli_free(&c);
	assert_string_equal(bad("steady", "randread", "-t", "5", NULL),
			    "option '--time' does not apply to steady");
	assert_string_equal(bad("steady", "randread", "--once", NULL),
			    "option '--once' does not apply to steady");
	assert_string_equal(bad("steady", "randread", "--sync=dsync", NULL),
			    "option '--sync' does not apply to steady"); /* randread takes none */
	assert_string_equal(bad("steady", "buffered", NULL),
			    "steady runs randread, randwrite, seqread or seqwrite, not 'buffered'");
	assert_string_equal(bad("steady", "dir", NULL),
			    "steady needs a test: steady randwrite [OPTIONS] TARGET (or randread, "
			    "seqread, seqwrite)");
	assert_string_equal(bad("steady", "randread", "--window", "2", NULL),
			    "--window '2': the window holds 3 rounds at least (SNIA PTS: 5)");
	assert_string_equal(bad("steady", "randread", "--round", "0", NULL),
			    "--round '0': a round must last at least 0.1 s");
	assert_string_equal(bad("steady", "randread", "--precondition=0", NULL),
			    "--precondition '0': must be from 1 to 100");
	assert_string_equal(bad("randread", "--round", "5", NULL),
			    "option '--round' does not apply to randread");
}

/* The help text of a command, as `diskbench help NAME` prints it. */
static char *help_of(const char *name)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	cli_print_test_help(f, cmd_find(name));
	fclose(f);
	return text;
}

/* steady's and sla's help each say their own defaults, the ones the parser
 * gives (sla's said steady's rounds: issue 43), and not the other's. */
static void test_steady_and_sla_help(void **state)
{
	(void)state;
	char want[160];
	struct cli c = ok("sla", "randread", "--latency=2ms", NULL);
	char *sla = help_of("sla");
	snprintf(want, sizeof(want), "--step-time %g ", c.opt.sla.step_s);
	assert_non_null(strstr(sla, want));
	snprintf(want, sizeof(want), "at p%g unless pNN", c.opt.sla.pct);
	assert_non_null(strstr(sla, want));
	snprintf(want, sizeof(want), "--qd x -j at most, %u a thread without --qd", c.opt.qd);
	assert_non_null(strstr(sla, want)); /* the open loop's cap, 128 at 4 KiB */
	assert_int_equal(c.opt.qd, 128);
	cli_free(&c);
	c = ok("sla", "seqread", "--latency=2ms", NULL); /* 1 MiB blocks: 64 MiB of buffers */
	assert_int_equal(c.opt.qd, 64);
	assert_non_null(strstr(sla, "fewer for blocks above 512 KiB: 64 MiB of buffers"));
	assert_non_null(strstr(sla, "--sustained, --series and --rate: sla picks the rates"));
	assert_null(strstr(sla, "--round"));
	assert_null(strstr(sla, "--window"));
	cli_free(&c);
	free(sla);

	c = ok("steady", "randread", NULL);
	char *steady = help_of("steady");
	snprintf(want, sizeof(want), "defaults: --round %g, --max-rounds %u, --window %u, "
		 "--excursion %g, --slope %g\n", c.opt.steady.round_s, c.opt.steady.max_rounds,
		 c.opt.steady.window, c.opt.steady.excursion_pct, c.opt.steady.slope_pct);
	assert_non_null(strstr(steady, want));
	assert_null(strstr(steady, "--step-time"));
	assert_null(strstr(steady, "--latency"));
	cli_free(&c);
	free(steady);
	/* --rate, which the help says they take over, is refused by both */
	assert_string_equal(bad("steady", "randread", "--rate", "100", NULL),
			    "option '--rate' does not apply to steady");
	assert_string_equal(bad("sla", "randread", "--latency=2ms", "--rate", "100", NULL),
			    "option '--rate' does not apply to sla");
}

static void test_every_command(void **state)
{
	(void)state;
	assert_true(command_count >= 6);
	for (unsigned i = 0; i < command_count; i++) {
		/* a command that reads files needs one: stdin */
		/* a command that runs a test needs one (randwrite's defaults then) */
		const char *word = commands[i].operands ? "-" : commands[i].takes_test ? "randwrite"
				   : commands[i].file_operand ? "x.fio" : NULL;
		/* and sla its target, --latency */
		const char *target = commands[i].options & OPT_SLA ? "--latency=2ms" : NULL;
		struct cli c = ok(commands[i].name, word, target, NULL);
		assert_ptr_equal(c.cmd, &commands[i]);
		assert_ptr_equal(cmd_find(commands[i].name), &commands[i]);
		assert_int_equal(c.opt.bs, commands[i].takes_test ? c.test->bs : commands[i].bs);
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		assert_non_null(f);
		cli_print_test_help(f, &commands[i]);
		fclose(f);
		assert_non_null(strstr(text, commands[i].name));
		if (commands[i].options & OPT_BS)
			assert_non_null(strstr(text, "--bs"));
		if (commands[i].options & OPT_SYNC)
			assert_non_null(strstr(text, "--sync"));
		if (commands[i].options & OPT_THREADS)
			assert_non_null(strstr(text, "--threads"));
		assert_non_null(strstr(text, "--json"));
		free(text);
		cli_free(&c);
	}
	assert_null(cmd_find("nope"));
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	cli_print_usage(f);
	fclose(f);
	for (unsigned i = 0; i < command_count; i++)
		assert_non_null(strstr(text, commands[i].name));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seqwrite_defaults),
		cmocka_unit_test(test_other_defaults),
		cmocka_unit_test(test_global_options_anywhere),
		cmocka_unit_test(test_option_spellings),
		cmocka_unit_test(test_errors_unknown),
		cmocka_unit_test(test_errors_values),
		cmocka_unit_test(test_errors_combinations),
		cmocka_unit_test(test_help_and_version),
		cmocka_unit_test(test_every_command),
		cmocka_unit_test(test_steady_command),
		cmocka_unit_test(test_steady_and_sla_help),
		cmocka_unit_test(test_job_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
