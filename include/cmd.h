/* The command table.  Adding a test means:
 *   1. a row in commands[] (src/cmd.c): name, summary, run function, the
 *      options it accepts and its defaults;
 *   2. the run function, in src/cmd_*.c, filling a struct result;
 *   3. a section in man/diskbench.1 (tests/cli checks that every option in
 *      `diskbench TEST --help` is documented there);
 *   4. unit tests for its logic and a CLI test running it. */
#ifndef CMD_H
#define CMD_H

#include "diskbench.h"

struct command;
typedef int (*cmd_run_fn)(const struct command *cmd, const struct options *opt,
			  struct result *r);

struct command {
	const char *name;
	const char *summary;
	cmd_run_fn run;
	unsigned options;     /* OPT_* bits it accepts */
	enum io_dir dir;
	enum io_pattern pattern;
	bool direct;          /* O_DIRECT unless --no-direct */
	uint64_t bs, size;    /* defaults */
	double time_s;
	unsigned threads;
	enum sync_mode sync;
};

extern const struct command commands[];
extern const unsigned command_count;

const struct command *cmd_find(const char *name);
/* Sets opt's defaults from the command's row. */
void cmd_defaults(const struct command *cmd, struct options *opt);

int cmd_run_io(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_cached(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_info(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_quick(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_sweep(const struct command *cmd, const struct options *opt, struct result *r);

#endif
