/* The help texts, generated from the command table and the option table. */
#define _POSIX_C_SOURCE 200809L
#include "cli_int.h"

#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "names.h"
#include "units.h"

static void print_option_as(FILE *f, const struct optdef *d, const char *help);

static void print_option(FILE *f, const struct optdef *d)
{
	print_option_as(f, d, d->help);
}

static void print_option_as(FILE *f, const struct optdef *d, const char *help)
{
	char left[40];
	if (d->letter)
		snprintf(left, sizeof(left), "-%c, --%s%s%s", d->letter, d->name, d->arg ? " " : "",
			 d->arg ? d->arg : "");
	else
		snprintf(left, sizeof(left), "    --%s%s%s", d->name,
			 d->arg && d->arg[0] != '[' ? "=" : "", d->arg ? d->arg : "");
	fprintf(f, "  %-24s %s\n", left, help);
}

void cli_print_usage(FILE *f)
{
	fputs("usage: diskbench [--json | --csv] [--quiet] TEST [OPTIONS] [TARGET...]\n"
	      "       diskbench --help | --version | help TEST\n"
	      "       diskbench completion bash|zsh\n\n"
	      "Measures how fast a disk, partition, RAID set or directory really is.\n"
	      "TARGET: a directory (default: the current one), a new file path, an existing\n"
	      "file or a block device. Write tests refuse existing files and devices\n"
	      "unless --force. The measuring tests take several TARGETs and spread the\n"
	      "load over them: thread i works on target i mod N.\n\ntests:\n", f);
	for (unsigned i = 0; i < command_count; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\noptions for every test:\n", f);
	for (size_t i = 0; i < optdef_count; i++)
		if (optdefs[i].bit == 0)
			print_option(f, &optdefs[i]);
	fputs("\nSIZE: bytes, or k/M/G/T (powers of 1024), KB/MB/GB/TB (powers of 1000).\n"
	      "See 'diskbench help TEST' for a test's options, and diskbench(1).\n", f);
}

static void print_defaults(FILE *f, const struct command *cmd)
{
	char bs[32], size[32];
	fmt_size_exact(bs, sizeof(bs), cmd->bs);
	fmt_size_exact(size, sizeof(size), cmd->size);
	fprintf(f, "defaults: ");
	if (cmd->options & OPT_BS)
		fprintf(f, "-b %s, ", bs);
	fprintf(f, "-s %s", size);
	if (cmd->options & OPT_TIME)
		fprintf(f, ", -t %g", cmd->time_s);
	if (cmd->options & OPT_THREADS)
		fprintf(f, ", -j %u", cmd->threads);
	if (cmd->options & OPT_SWEEP)
		fputs(", --run=simple, --levels=1,2,4,8,16,32,64, --large-levels=1,2,4,8, "
		      "--large-bs=1M, --point-time=3, --budget=60", f);
	if (cmd->options & OPT_SYNC)
		fprintf(f, ", --sync=%s", sync_mode_name(cmd->sync));
	fputc('\n', f);
}

/* files: its defaults; what its options mean there is in the option rows
 * (option_meaning), said once. */
static void print_files_defaults(FILE *f, const struct command *cmd)
{
	char bs[32];
	fmt_size_exact(bs, sizeof(bs), cmd->bs);
	fprintf(f, "defaults: -n %u, --file-size 0, -b %s, -t %g, -j %u, --sync=%s\n",
		OPT_DEFAULT_FILES, bs, cmd->time_s, cmd->threads, sync_mode_name(cmd->sync));
}

/* Where a command gives a shared option its own meaning, the help row of
 * that command says that meaning instead of the shared one. */
static const struct {
	opt_bits cmd_bit; /* the command's own option bit (OPT_FILES: files) */
	const char *name, *help;
} option_meanings[] = {
	{ OPT_FILES, "time", "the least seconds measured per phase: short phases run again" },
	{ OPT_FILES, "sync", "fsync: each file, and its directory at the end of a phase; "
			     "none: neither (dsync does not apply)" },
	{ OPT_JOB, "time", "every job's runtime=: a time_based job runs this long, any other "
			   "ends after its size= or at it" },
	{ OPT_JOB, "seed", "the seed of every job's offsets and data (else randseed=, or fio's "
			   "fixed one while randrepeat=1)" },
};

static const char *option_meaning(const struct command *cmd, const struct optdef *d)
{
	for (size_t i = 0; i < sizeof(option_meanings) / sizeof(option_meanings[0]); i++)
		if ((cmd->options & option_meanings[i].cmd_bit) &&
		    strcmp(option_meanings[i].name, d->name) == 0)
			return option_meanings[i].help;
	return d->help;
}

/* steady's and sla's lines under the summary: the test they run, what of
 * its options they take over, and their own defaults, as cmd_defaults_with
 * sets them (the same for any of the four tests). */
static void print_test_runner(FILE *f, const struct command *cmd)
{
	struct options o;
	memset(&o, 0, sizeof(o));
	cmd_defaults_with(cmd, cmd_find("randread"), &o);
	fputs("TEST: randread, randwrite, seqread or seqwrite, with its options (diskbench help "
	      "TEST)\nbut -t, --once, --sustained, --series and --rate: ", f);
	if (cmd->options & OPT_SLA) {
		char bs[32];
		fmt_size_exact(bs, sizeof(bs), OPEN_LOOP_BUFFER_BYTES / OPEN_LOOP_QD);
		fprintf(f, "sla picks the rates, its steps are its time.\n"
			"defaults: --step-time %g (each step, the probe and the confirm run); "
			"--latency is required, at p%g unless pNN\n"
			"in flight: --qd x -j at most, %u a thread without --qd (fewer for blocks "
			"above %s: %llu MiB of buffers)\n",
			o.sla.step_s, o.sla.pct, OPEN_LOOP_QD, bs, OPEN_LOOP_BUFFER_BYTES >> 20);
		return;
	}
	fprintf(f, "the rounds are its time.\n"
		"defaults: --round %g, --max-rounds %u, --window %u, --excursion %g, --slope %g\n",
		o.steady.round_s, o.steady.max_rounds, o.steady.window, o.steady.excursion_pct,
		o.steady.slope_pct);
}

void cli_print_test_help(FILE *f, const struct command *cmd)
{
	fprintf(f, "usage: diskbench %s %s[OPTIONS] %s%s%s\n\n%s.\n", cmd->name,
		cmd->takes_test ? "TEST " : "", cmd->file_operand ? cmd->file_operand : "",
		cmd->file_operand ? " " : "",
		cmd->operands ? cmd->operands : cmd->several_targets ? "[TARGET...]" : "[TARGET]",
		cmd->summary);
	if (cmd->takes_test)
		print_test_runner(f, cmd);
	if (cmd->options & OPT_SIZE)
		print_defaults(f, cmd);
	if (cmd->options & OPT_MATRIX)
		fprintf(f, "defaults: --block-sizes=4k-16M, --file-sizes=64M-1G, "
			"--ops=write,rewrite,read,reread,randread,randwrite, --budget=60, --sync=%s "
			"(none with --no-direct)\n", sync_mode_name(cmd->sync));
	else if (cmd->options & OPT_FILES)
		print_files_defaults(f, cmd);
	fputs("\noptions:\n", f);
	/* the test's own options, then the global ones (rows appended later for
	 * a new command come after the global rows in optdefs[]) */
	for (size_t i = 0; i < optdef_count; i++)
		if (cmd->options & optdefs[i].bit)
			print_option_as(f, &optdefs[i], option_meaning(cmd, &optdefs[i]));
	for (size_t i = 0; i < optdef_count; i++)
		if (optdefs[i].bit == 0)
			print_option(f, &optdefs[i]);
}
