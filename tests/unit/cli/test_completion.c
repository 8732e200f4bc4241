/* Unit tests of shell completion's pure parts (src/cli/completion.c) and of
 * what it reads from the tables: the option table's view and closed sets
 * (src/cli/cli.c), `completion SHELL` on the command line, and the scripts
 * holding every test and option.  The scripts' behaviour in the shells is
 * tests/cli/completion.sh's. */
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
#include "completion.h"
#include "diskbench.h"

/* cli_parse of "diskbench" and the words; returns its exit code. */
static int parse(struct cli *c, const char *const *words, int n)
{
	static char why[512];
	char *argv[16] = { (char *)"diskbench" };
	for (int i = 0; i < n; i++)
		argv[i + 1] = (char *)words[i];
	return cli_parse(n + 1, argv, c, why, sizeof(why));
}

/* The script completion_write gives for shell (the caller frees it). */
static char *script(const char *shell, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	*rc = completion_write(f, shell);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void test_value_kind(void **state)
{
	(void)state;
	assert_int_equal(completion_value_kind(NULL), VALUE_OTHER);
	assert_int_equal(completion_value_kind("SIZE"), VALUE_OTHER);
	assert_int_equal(completion_value_kind("MODE"), VALUE_OTHER);
	assert_int_equal(completion_value_kind("FILE"), VALUE_FILE);
	assert_int_equal(completion_value_kind("FILE..."), VALUE_FILE);
	assert_int_equal(completion_value_kind("[FILE]"), VALUE_FILE);
	assert_int_equal(completion_value_kind("DIR"), VALUE_DIR);
	assert_int_equal(completion_value_kind("PATH"), VALUE_PATH);
	/* a whole word only: PROFILE is no file, FILES is something else */
	assert_int_equal(completion_value_kind("PROFILE"), VALUE_OTHER);
	assert_int_equal(completion_value_kind("FILES"), VALUE_OTHER);
	assert_int_equal(completion_value_kind("DIRECTION"), VALUE_OTHER);
	assert_int_equal(completion_value_kind("N,FILE"), VALUE_FILE);
}

/* The rule `diskbench help TEST` lists options by, row by row. */
static void test_applies(void **state)
{
	(void)state;
	struct cli_option o;
	size_t n = 0;
	for (size_t i = 0; cli_option_at(i, &o); i++, n++) {
		assert_non_null(o.name);
		assert_non_null(o.help);
		assert_false(completion_applies(&o, NULL) && o.bit != 0);
		for (unsigned k = 0; k < command_count; k++)
			assert_int_equal(completion_applies(&o, &commands[k]),
					 o.bit == 0 || (commands[k].options & o.bit) != 0);
	}
	assert_true(n > 20);
	assert_false(cli_option_at(n, &o));
	assert_false(cli_option_at(n + 1000, &o));
}

static void test_targets(void **state)
{
	(void)state;
	assert_int_equal(completion_targets(cmd_find("info")), TAKES_ANY_PATH);
	const char *measuring[] = { "seqwrite", "seqread", "buffered", "cached", "randread",
				    "randwrite", "quick", "sweep" };
	for (size_t i = 0; i < sizeof(measuring) / sizeof(measuring[0]); i++)
		assert_int_equal(completion_targets(cmd_find(measuring[i])),
				 TAKES_DIR | TAKES_FILE | TAKES_DEVICE);
}

/* The closed sets are the parsers' own: each value offered parses. */
static void test_closed_sets(void **state)
{
	(void)state;
	const char *want[][7] = { { "sync", "dsync", "fsync", "none", "osync", NULL },
				  { "drop-caches", "file", "all", "none", NULL },
				  { "engine", "auto", "uring", "aio", "sync", "nop", NULL },
				  { "run", "simple", "oltp", "dss", NULL },
				  { "reap", "ring", "syscall", NULL } };
	const char *test_of[] = { "seqwrite", "seqread", "randread", "sweep", "randread" };
	for (size_t i = 0; i < 5; i++) {
		size_t k = 0;
		for (; k < 6 && want[i][k + 1]; k++) {
			assert_non_null(cli_option_value(want[i][0], k));
			assert_string_equal(cli_option_value(want[i][0], k), want[i][k + 1]);
			char arg[64];
			snprintf(arg, sizeof(arg), "--%s=%s", want[i][0], want[i][k + 1]);
			const char *words[] = { test_of[i], arg };
			struct cli c;
			assert_int_equal(parse(&c, words, 2), EXIT_OK);
		}
		assert_null(cli_option_value(want[i][0], k));
	}
	assert_null(cli_option_value("bs", 0));
	assert_null(cli_option_value("keep", 0));
	assert_null(cli_option_value("no-such-option", 0));
}

static void test_command_line(void **state)
{
	(void)state;
	struct cli c;
	const char *bash[] = { "completion", "bash" };
	assert_int_equal(parse(&c, bash, 2), EXIT_OK);
	assert_string_equal(c.completion, "bash");
	assert_null(c.cmd);
	const char *none[] = { "completion" };
	assert_int_equal(parse(&c, none, 1), EXIT_OK);
	assert_string_equal(c.completion, ""); /* main says: name a shell */
	const char *two[] = { "completion", "bash", "zsh" };
	assert_int_equal(parse(&c, two, 3), EXIT_USAGE);
	const char *opt[] = { "completion", "zsh", "-b", "4k" };
	assert_int_equal(parse(&c, opt, 4), EXIT_USAGE);
	const char *test[] = { "seqwrite" };
	assert_int_equal(parse(&c, test, 1), EXIT_OK);
	assert_null(c.completion);
}

static void test_shells(void **state)
{
	(void)state;
	assert_true(completion_shell_known("bash"));
	assert_true(completion_shell_known("zsh"));
	assert_false(completion_shell_known("fish"));
	assert_false(completion_shell_known(""));
	assert_false(completion_shell_known("Bash"));
	assert_string_equal(completion_shells, "bash, zsh");
	int rc;
	char *text = script("fish", &rc);
	assert_int_equal(rc, -1);
	assert_string_equal(text, "");
	free(text);
}

/* Every test and every option's long form is in both scripts. */
static void test_scripts_hold_the_tables(void **state)
{
	(void)state;
	const char *shells[] = { "bash", "zsh" };
	for (size_t s = 0; s < 2; s++) {
		int rc;
		char *text = script(shells[s], &rc);
		assert_int_equal(rc, 0);
		for (unsigned i = 0; i < command_count; i++) {
			char quoted[64];
			snprintf(quoted, sizeof(quoted), "'%s')", commands[i].name);
			assert_non_null(strstr(text, quoted));
		}
		struct cli_option o;
		for (size_t i = 0; cli_option_at(i, &o); i++) {
			char form[64];
			snprintf(form, sizeof(form), "'--%s'", o.name);
			if (o.arg) /* in the case arm of options taking a value */
				assert_non_null(strstr(text, form));
			snprintf(form, sizeof(form), "--%s", o.name);
			assert_non_null(strstr(text, form));
		}
		free(text);
	}
}

static void test_script_shapes(void **state)
{
	(void)state;
	int rc;
	char *bash = script("bash", &rc);
	assert_non_null(strstr(bash, "\ncomplete -F _diskbench diskbench\n"));
	assert_non_null(strstr(bash, "'--engine') REPLY='auto uring aio sync nop' ;;"));
	assert_non_null(strstr(bash, "'info') REPLY=a ;;"));
	assert_non_null(strstr(bash, "'seqwrite') REPLY=dfb ;;"));
	free(bash);
	char *zsh = script("zsh", &rc);
	assert_memory_equal(zsh, "#compdef diskbench\n", 19);
	/* a quote in a help text is closed, escaped and reopened */
	assert_non_null(strstr(zsh, "show help (with a TEST: that test'\\''s options)"));
	assert_non_null(strstr(zsh, "'-b' | '--bs') REPLY='SIZE: block size of each I/O' ;;"));
	free(zsh);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_kind),
		cmocka_unit_test(test_applies),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_closed_sets),
		cmocka_unit_test(test_command_line),
		cmocka_unit_test(test_shells),
		cmocka_unit_test(test_scripts_hold_the_tables),
		cmocka_unit_test(test_script_shapes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
