/* build/tests/diskbench-optable: the option table and the command table, as
 * the parser reads them, printed as one JSON document for the option matrix
 * (tests/cli/optmatrix.py), so that its rows are generated from the code
 * itself and never from a hand copy:
 *
 *   {"options": [{"name": "bs", "letter": "b", "arg": "SIZE", "bit": 1,
 *                 "values": [...]}, ...],
 *    "commands": [{"name": "seqwrite", "accepts": N, "dir": "write", ...}, ...],
 *    "runs": [{"command": "steady", "test": "randwrite", "accepts": N}, ...]}
 *
 * "bit" is the OPT_* bit a command must accept (0: every command's);
 * "values" the closed set of values completion offers (empty: open);
 * "accepts" what cmd_defaults (cmd_defaults_with for a command that runs a
 * test) sets in options.accepts, which is what cli_parse checks.  Linked with
 * the core objects like the unit tests; never installed. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"

/* A JSON string: the table's names and help texts are plain ASCII, but a
 * quote or a backslash would still come out right. */
static void put_str(const char *s)
{
	if (!s) {
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			putchar('\\');
		putchar(*s);
	}
	putchar('"');
}

static void put_options(void)
{
	struct cli_option o;
	fputs("\"options\": [", stdout);
	for (size_t i = 0; cli_option_at(i, &o); i++) {
		char letter[2] = { o.letter, 0 };
		printf("%s\n {\"name\": ", i ? "," : "");
		put_str(o.name);
		fputs(", \"letter\": ", stdout);
		put_str(o.letter ? letter : NULL);
		fputs(", \"arg\": ", stdout);
		put_str(o.arg);
		printf(", \"bit\": %" PRIu64 ", \"values\": [", (uint64_t)o.bit);
		const char *v;
		for (size_t k = 0; o.arg && (v = cli_option_value(o.name, k)); k++) {
			if (k)
				fputs(", ", stdout);
			put_str(v);
		}
		fputs("]}", stdout);
	}
	fputs("]", stdout);
}

static void put_command(const struct command *c, const struct options *opt)
{
	fputs("\n {\"name\": ", stdout);
	put_str(c->name);
	printf(", \"accepts\": %" PRIu64 ", \"dir\": \"%s\", \"pattern\": \"%s\", "
	       "\"direct\": %s, \"engine\": ",
	       (uint64_t)opt->accepts, c->dir == IO_WRITE ? "write" : "read",
	       c->pattern == PAT_RAND ? "rand" : "seq", c->direct ? "true" : "false");
	put_str(c->engine);
	fputs(", \"operands\": ", stdout);
	put_str(c->operands);
	fputs(", \"file_operand\": ", stdout);
	put_str(c->file_operand);
	printf(", \"several_targets\": %s, \"takes_test\": %s, \"targets\": %u, "
	       "\"mix\": [%u, %u, %u], \"bs\": %" PRIu64 "}",
	       c->several_targets ? "true" : "false", c->takes_test ? "true" : "false",
	       c->targets, c->mix.pct[0], c->mix.pct[1], c->mix.pct[2], c->bs);
}

static void put_commands(void)
{
	fputs(",\n\"commands\": [", stdout);
	for (unsigned i = 0; i < command_count; i++) {
		struct options opt;
		memset(&opt, 0, sizeof(opt));
		cmd_defaults(&commands[i], &opt);
		if (i)
			putchar(',');
		put_command(&commands[i], &opt);
	}
	fputs("],\n\"runs\": [", stdout);
	int n = 0;
	for (unsigned i = 0; i < command_count; i++)
		for (unsigned j = 0; j < command_count; j++) {
			if (!cmd_runs_test(&commands[i], &commands[j]))
				continue;
			struct options opt;
			memset(&opt, 0, sizeof(opt));
			cmd_defaults_with(&commands[i], &commands[j], &opt);
			printf("%s\n {\"command\": \"%s\", \"test\": \"%s\", \"accepts\": %" PRIu64 "}",
			       n++ ? "," : "", commands[i].name, commands[j].name,
			       (uint64_t)opt.accepts);
		}
	fputs("]", stdout);
}

int main(void)
{
	putchar('{');
	put_options();
	put_commands();
	puts("}");
	return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
