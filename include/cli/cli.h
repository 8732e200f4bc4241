/* The command line: global options anywhere, TEST, options, TARGET.
 * Parsing never prints; help texts are generated from the same tables, so
 * `--help` cannot drift from what is accepted. */
#ifndef CLI_H
#define CLI_H

#include <stddef.h>
#include <stdio.h>

#include "cmd.h"

struct cli {
	const struct command *cmd; /* NULL: no test named */
	const struct command *test; /* steady's test (randwrite, ...); else NULL */
	struct options opt;
	bool help, version;
	const char **words; /* holds opt.inputs; cli_free frees it */
	const char *completion; /* `completion SHELL`: that word ("" if none); else NULL */
};

/* One row of the option table, as shell completion reads it. */
struct cli_option {
	const char *name;   /* the long form, without "--" */
	char letter;        /* the short form; 0: none */
	const char *arg;    /* what its value is ("SIZE", "MODE", "FILE"); NULL: a flag */
	opt_bits bit;       /* OPT_* a command must accept; 0: every command's */
	opt_bits given;     /* the bit options.given records it by (issue 44) */
	const char *help;
};

/* Returns EXIT_OK or EXIT_USAGE with a message in why. */
int cli_parse(int argc, char **argv, struct cli *c, char *why, size_t whylen);
/* Frees what a successful cli_parse kept (a command's input files). */
void cli_free(struct cli *c);
void cli_print_usage(FILE *f);
void cli_print_test_help(FILE *f, const struct command *cmd);
/* Copies the i-th row of the option table into out; false past its end. */
bool cli_option_at(size_t i, struct cli_option *out);
/* The k-th value of the closed set the option named (long form) takes
 * ("dsync", "fsync", ...); NULL past its end, and at once for an option
 * whose values are open (sizes, counts, paths). */
const char *cli_option_value(const char *name, size_t k);

#endif
