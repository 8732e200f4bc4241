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
	struct options opt;
	bool help, version;
	const char **words; /* holds opt.inputs; cli_free frees it */
};

/* Returns EXIT_OK or EXIT_USAGE with a message in why. */
int cli_parse(int argc, char **argv, struct cli *c, char *why, size_t whylen);
/* Frees what a successful cli_parse kept (a command's input files). */
void cli_free(struct cli *c);
void cli_print_usage(FILE *f);
void cli_print_test_help(FILE *f, const struct command *cmd);

#endif
