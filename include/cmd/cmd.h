/* The command table.  Adding a test means:
 *   1. a row in commands[] (src/cmd/cmd.c): name, summary, run function, the
 *      options it accepts, its defaults and, if its output is not one
 *      single-test result, its renderers (and .targets, if its TARGET is
 *      not a directory, file or block device: shell completion reads it);
 *   2. the run function, in src/cmd/cmd_*.c, filling a struct result (its own
 *      figures, if any, in result.detail);
 *   3. its renderers, in src/output/output_*.c, built from output.h's blocks;
 *   4. a section in man/diskbench.1 (tests/cli checks that every option in
 *      `diskbench TEST --help` is documented there);
 *   5. unit tests for its logic, a CLI test running it, and its cases in
 *      tests/cli/golden.sh. */
#ifndef CMD_H
#define CMD_H

#include <stdio.h>

#include "diskbench.h"
#include "render.h"

struct command;
struct json;
typedef int (*cmd_run_fn)(const struct command *cmd, const struct options *opt,
			  struct result *r);


/* What a command's TARGET may name, for shell completion.  0 in a row
 * means what target_classify and target_check let every measuring test
 * take: a directory, an existing file or a block device (or a new path,
 * which nothing can complete). */
enum target_takes {
	TAKES_DIR = 1u << 0,
	TAKES_FILE = 1u << 1,
	TAKES_DEVICE = 1u << 2,
	TAKES_ANY_PATH = 1u << 3, /* FIFOs, character devices, sockets too */
};
#define TAKES_DEFAULT (TAKES_DIR | TAKES_FILE | TAKES_DEVICE)

struct command {
	const char *name;
	const char *summary;
	cmd_run_fn run;
	opt_bits options;     /* OPT_* bits it accepts */
	enum io_dir dir;
	enum io_pattern pattern;
	bool direct;          /* O_DIRECT unless --no-direct */
	uint64_t bs, size;    /* defaults */
	double time_s;
	unsigned threads;
	enum sync_mode sync;
	const char *engine;   /* fixed engine (page-cache tests: "sync"); NULL: auto */
	const struct renderers *render; /* NULL: a single-test result */
	const char *operands; /* non-NULL: it reads these files (usage text), no TARGET */
	bool several_targets; /* takes TARGET...: the load spread over them (multi) */
	bool takes_test;      /* steady: the first word is the test it runs in rounds */
	const char *file_operand; /* job, fit: the first word names the file it runs
				   * (its name in the usage: "FILE.fio"), TARGET after */
	struct mix mix;       /* rw, randrw, trim, randtrim: the default --mix */
	/* shell completion */
	unsigned targets;     /* TAKES_* of its TARGET words; 0: TAKES_DEFAULT */
};

extern const struct command commands[];
extern const unsigned command_count;

const struct command *cmd_find(const char *name);
/* Sets opt's defaults from the command's row. */
void cmd_defaults(const struct command *cmd, struct options *opt);
/* A command that runs a test (steady): whether it can run `test`, and its
 * defaults: the test's, then its own; it accepts both's options but -t,
 * --once and --sustained (its rounds are its time). */
bool cmd_runs_test(const struct command *cmd, const struct command *test);
void cmd_defaults_with(const struct command *cmd, const struct command *test, struct options *opt);
int cmd_run_steady(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_sla(const struct command *cmd, const struct options *opt, struct result *r);
/* Prints r in opt's format with cmd's renderers (NULL cmd: the single-test
 * ones); text only when code is EXIT_OK. */
void cmd_render(const struct command *cmd, const struct options *opt, const struct result *r,
		int code);
/* --svg FILE: draws r into opt->svg_path with cmd's renderer (NULL cmd or
 * member: the single-test one).  -1 with errno when the file cannot be
 * written; a partly written file is removed. */
int cmd_write_svg(const struct command *cmd, const struct options *opt, const struct result *r);

int cmd_run_io(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_cached(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_info(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_quick(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_sweep(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_report(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_matrix(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_files(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_capacity(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_verify(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_job(const struct command *cmd, const struct options *opt, struct result *r);
int cmd_run_fit(const struct command *cmd, const struct options *opt, struct result *r);

#endif
