/* libFuzzer target: the command line.  The input is split into arguments at
 * NUL and newline bytes (at most MAX_ARGS, each in a buffer of exactly its
 * length), parsed with cli_parse as main does, and the help of the test it
 * names (or the general usage) is printed to /dev/null.  Beyond "no crash",
 * an accepted command line must hold only values the tests can run with. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diskbench.h"

#define MAX_ARGS 32

#define PROMISE(cond) ((cond) ? (void)0 : abort())

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

static void check_levels(const unsigned *levels, unsigned n)
{
	PROMISE(n <= OPT_MAX_LEVELS);
	for (unsigned i = 0; i < n; i++)
		PROMISE(levels[i] >= 1 && levels[i] <= OPT_MAX_THREADS &&
			(i == 0 || levels[i] > levels[i - 1]));
}

/* Bits an option records in given alone (issue 44), each accepted by its
 * siblings' bit: given only where that bit is accepted. */
#define GIVEN_ONLY (OPT_BATCH | OPT_POLL | OPT_SQPOLL | OPT_REAP | OPT_ARRIVALS)
static void check_given_only(const struct options *o)
{
	PROMISE((o->accepts & GIVEN_ONLY) == 0);
	if (o->given & (OPT_BATCH | OPT_POLL | OPT_SQPOLL | OPT_REAP))
		PROMISE(o->accepts & OPT_QD);
	if (o->given & OPT_ARRIVALS)
		PROMISE(o->accepts & OPT_RATE);
}

/* What a test may rely on once cli_parse said yes. */
static void check_accepted(const struct cli *c)
{
	const struct options *o = &c->opt;
	PROMISE(o->format == OUT_TEXT || o->format == OUT_JSON || o->format == OUT_CSV ||
		o->format == OUT_JSONL);
	if (c->help || c->version || c->completion) /* completion names no test */
		return;
	PROMISE(c->cmd != NULL);
	/* a TARGET (the current directory by default), except for a command
	 * that reads files, which has none */
	PROMISE(c->cmd->operands ? o->target == NULL : o->target != NULL);
	/* what it accepts: its own options, and for steady its test's */
	PROMISE((c->cmd->options & ~o->accepts) == 0 && (o->given & ~o->accepts & ~GIVEN_ONLY) == 0);
	check_given_only(o);
	PROMISE(c->cmd->takes_test ? c->test != NULL : c->test == NULL);
	if (c->cmd->options & OPT_STEADY)
		PROMISE(o->steady.window >= 3 && o->steady.max_rounds >= 1 && o->steady.round_s >= 0.1);
	/* sla has a target, steps of 0.1 s or more, and room in flight */
	if (c->cmd->options & OPT_SLA)
		PROMISE(isfinite(o->sla.latency_ns) && o->sla.latency_ns > 0 && o->sla.step_s >= 0.1 &&
			o->sla.pct >= 0 && o->sla.pct <= 100 && o->qd >= 1 && o->rate == 0);
	/* an open-loop rate is a finite positive number, never with --sustained */
	PROMISE(o->rate == 0 || (isfinite(o->rate) && o->rate > 0 && o->rate <= 100e6 &&
				 !o->sustained && o->qd >= 1));
	/* a command that reads files got at least one, and nothing else did */
	PROMISE(c->cmd->operands ? o->ninputs >= 1 && o->inputs : o->ninputs == 0);
	/* info has no block size, size or threads: they stay 0 */
	opt_bits takes = o->accepts;
	PROMISE(o->bs <= 256ull << 20 && (!(takes & OPT_BS) || o->bs > 0));
	PROMISE(o->size <= (uint64_t)INT64_MAX && (!(takes & OPT_SIZE) || o->size > 0));
	PROMISE(o->threads <= OPT_MAX_THREADS && (!(takes & OPT_THREADS) || o->threads >= 1));
	PROMISE(o->bs * o->threads <= 4ull << 30);
	PROMISE(isfinite(o->time_s) && o->time_s >= 0);
	const struct sweep_options *sw = &o->sweep;
	check_levels(sw->levels, sw->nlevels);
	check_levels(sw->large_levels, sw->nlarge_levels);
	PROMISE(sw->large_bs <= 256ull << 20);
	PROMISE(sw->write_pct <= 100);
	/* --mix: unset, or shares summing to 100 (issue 31) */
	PROMISE(!mix_set(&o->mix) ||
		o->mix.pct[MIX_READ] + o->mix.pct[MIX_WRITE] + o->mix.pct[MIX_TRIM] == 100);
	PROMISE(isfinite(sw->point_s) && sw->point_s >= 0);
	PROMISE(isfinite(sw->budget_s) && sw->budget_s >= 0);
	PROMISE(isfinite(sw->max_latency_ns) && sw->max_latency_ns >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_ARGS + 2] = { "diskbench" };
	int argc = 1;
	for (size_t start = 0; start <= size && argc <= MAX_ARGS; argc++) {
		size_t end = start;
		while (end < size && data[end] != '\0' && data[end] != '\n')
			end++;
		argv[argc] = malloc(end - start + 1);
		if (!argv[argc])
			break;
		memcpy(argv[argc], data + start, end - start);
		argv[argc][end - start] = '\0';
		start = end + 1;
	}
	argv[argc] = NULL;

	struct cli c;
	size_t whylen = 512;
	char *why = malloc(whylen);
	if (why) {
		why[0] = '\0';
		if (cli_parse(argc, argv, &c, why, whylen) == EXIT_OK) {
			check_accepted(&c);
		} else {
			PROMISE(why[0] != '\0' && strnlen(why, whylen) < whylen);
		}
		if (c.cmd)
			cli_print_test_help(devnull, c.cmd);
		else
			cli_print_usage(devnull);
		cli_free(&c);
		free(why);
	}
	for (int i = 1; i < argc; i++)
		free(argv[i]);
	return 0;
}
