/* diskbench: argv → command table → run → print → check stdout → exit code.
 * The only place, with the command files, that prints or exits. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "clock.h"
#include "fleet.h"
#include "completion.h"
#include "output.h"
#include "run_record.h"
#include "target.h"
#include "units.h"
#include "util.h"

/* `make static` builds with -DDISKBENCH_STATIC: --version says so, since
 * that is the binary people copy to hosts without a compiler */
#ifdef DISKBENCH_STATIC
#define BUILD_KIND " (static)"
#else
#define BUILD_KIND ""
#endif

static volatile sig_atomic_t signal_count, last_signal;

/* First signal: ask the loops to stop so clean-up and reporting run.  A
 * second one: remove the test file and leave at once. */
static void on_signal(int signo)
{
	bench_stop_requested = 1;
	last_signal = signo;
	if (++signal_count > 1) {
		target_cleanup_from_signal();
		_exit(128 + signo);
	}
}

/* Every signal whose default action ends the process without a core dump:
 * each must stop the run and let the clean-up remove the test file. */
static const struct { int signo; const char *name; } stop_signals[] = {
	{ SIGINT, "SIGINT" }, { SIGTERM, "SIGTERM" }, { SIGHUP, "SIGHUP" },
	{ SIGQUIT, "SIGQUIT" }, { SIGALRM, "SIGALRM" }, { SIGUSR1, "SIGUSR1" },
	{ SIGUSR2, "SIGUSR2" }, { SIGVTALRM, "SIGVTALRM" }, { SIGPROF, "SIGPROF" },
};

static const char *signal_name(int signo)
{
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		if (stop_signals[i].signo == signo)
			return stop_signals[i].name;
	return "a signal";
}

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART; /* a signal while printing must not fail the write */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i].signo, &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a closed stdout is reported, not fatal */
	/* past ulimit -f a write fails with EFBIG and the run ends as on any
	 * write error, cleaning up, instead of dying with the file left behind */
	signal(SIGXFSZ, SIG_IGN);
}

static void print_warnings(const struct result *r)
{
	for (unsigned i = 0; i < r->nwarnings; i++)
		fprintf(stderr, "diskbench: warning: %s\n", r->warnings[i]);
}

/* Partial figures of an interrupted run go to stderr, never as a result. */
static void print_partial(const struct result *r)
{
	char rate[32];
	fmt_rate_si(rate, sizeof(rate), result_rate(r));
	fprintf(stderr, "diskbench: %s interrupted: partial: %llu bytes in %.3f s = %s, "
		"%llu I/Os (not a result)\n", r->test, (unsigned long long)r->bytes,
		r->seconds, rate, (unsigned long long)r->ios);
}

/* A result that could not be written is a failure (sbase's habit). */
static int finish_stdout(int code)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "diskbench: write error: stdout: %s\n", strerror(errno));
		return code == EXIT_OK ? EXIT_RUN : code;
	}
	return code;
}

static int run_help(const struct cli *c)
{
	if (c->version)
		printf("diskbench %s%s\n", DISKBENCH_VERSION, BUILD_KIND);
	else if (c->cmd)
		cli_print_test_help(stdout, c->cmd);
	else
		cli_print_usage(stdout);
	return finish_stdout(EXIT_OK);
}

/* `completion SHELL` names a shell a script is written for, or it is a
 * usage error like the parser's. */
static int check_shell(const char *shell, char *why, size_t len)
{
	if (completion_shell_known(shell))
		return EXIT_OK;
	if (shell[0])
		snprintf(why, len, "completion: unknown shell '%s' (%s)", shell, completion_shells);
	else
		snprintf(why, len, "completion: name a shell (%s)", completion_shells);
	return EXIT_USAGE;
}

/* The run's error, with the signal that stopped it said where it belongs:
 * "interrupted by SIGINT during the run", "SEQ1M Q8T1 write: interrupted by
 * SIGINT during the run" (a step's prefix stays in front); any other error
 * after "interrupted by SIGINT". */
static void name_the_signal(char *error, size_t len, int sig)
{
	static const char during[] = "interrupted during the run";
	char detail[MSG_LEN];
	snprintf(detail, sizeof(detail), "%s", error);
	size_t n = strlen(detail), k = sizeof(during) - 1;
	if (n >= k && strcmp(detail + n - k, during) == 0)
		snprintf(error, len, "%.*sinterrupted by %s during the run", (int)(n - k), detail,
			 signal_name(sig));
	else
		snprintf(error, len, "interrupted by %s%s%.400s", signal_name(sig),
			 detail[0] ? " " : "", detail);
}

int main(int argc, char **argv)
{
	static struct cli c;
	static struct result r;
	static struct fleet_record fleet;
	static struct run_record record; /* what the command's measured run observes */
	char why[MSG_LEN];
	int code = cli_parse(argc, argv, &c, why, sizeof(why));
	struct fleet_ask ask = { c.opt.host_label, c.opt.run_id,
				 code == EXIT_OK && (c.opt.given & OPT_START_AT), c.opt.start_at_ns };
	if (code == EXIT_OK && c.completion)
		code = check_shell(c.completion, why, sizeof(why));

	fleet_identify(&fleet, &ask); /* a failed run's record still names its host */
	r.fleet = &fleet;
	r.record = &record;
	r.resident_before_pct = -1;
	r.resident_after_pct = -1;
	r.target = c.opt.target;
	if (code != EXIT_OK) {
		r.test = c.cmd ? c.cmd->name : NULL;
		snprintf(r.error, sizeof(r.error), "%s", why);
		fprintf(stderr, "diskbench: %s\n", why);
		if (c.opt.format != OUT_TEXT)
			cmd_render(NULL, &c.opt, &r, code); /* the test never ran: no figures of its own */
		else
			fputs("Try 'diskbench --help'.\n", stderr);
		return finish_stdout(code);
	}
	if (c.help || c.version) {
		code = run_help(&c);
		cli_free(&c);
		return code;
	}
	if (c.completion) {
		completion_write(stdout, c.completion);
		cli_free(&c);
		return finish_stdout(EXIT_OK);
	}

	if (!(c.opt.given & OPT_SEED))
		c.opt.seed = clock_ns() ^ ((uint64_t)getpid() << 32);
	r.test = c.cmd->name;
	r.opt = &c.opt;
	r.dir = c.cmd->dir;
	install_signals();
	atexit(target_cleanup);
	code = c.cmd->run(c.cmd, &c.opt, &r);
	target_cleanup();

	print_warnings(&r);
	if (r.interrupted || bench_stop_requested) {
		r.interrupted = true;
		if (r.ios > 0)
			print_partial(&r);
		code = 128 + (last_signal ? last_signal : SIGINT);
		name_the_signal(r.error, sizeof(r.error), last_signal ? last_signal : SIGINT);
	}
	/* report's regression and missing hosts are said as warnings, beside figures */
	bool figures = code == EXIT_OK || code == EXIT_REGRESSED || code == EXIT_INCOMPLETE ||
		       code == EXIT_UNMET || code == EXIT_BAD_DATA;
	if (!figures)
		fprintf(stderr, "diskbench: %s\n", r.error[0] ? r.error : "failed");
	cmd_render(c.cmd, &c.opt, &r, code);
	code = finish_stdout(code);
	/* the picture after the result, which stands even when the picture fails */
	if (figures && code != EXIT_RUN && c.opt.svg_path && cmd_write_svg(c.cmd, &c.opt, &r) != 0) {
		fprintf(stderr, "diskbench: %s: %s\n", c.opt.svg_path, strerror(errno));
		code = EXIT_RUN;
	}
	result_release(&r);
	cli_free(&c);
	return code;
}
