/* steady (issue 29): the named test in rounds of --round seconds on one
 * laid-out target until SNIA PTS's criterion holds over the last --window
 * rounds (src/lib/steady.c), or --max-rounds pass (exit 6); optionally
 * preconditioned first (the region written PASSES times, 128 KiB
 * sequential, 32 in flight, a tail past the last whole block in a request
 * of its own) and held for --hold more rounds, any of which
 * outside the steady window's band means the disk left steady state. */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "clock.h"
#include "detect.h"
#include "finding.h"
#include "fleet.h"
#include "names.h"
#include "io.h"
#include "plain_test.h"
#include "platform.h"
#include "output.h"
#include "progress.h"
#include "run_verify.h"
#include "runner.h"
#include "sampling.h"
#include "stats.h"
#include "steady_report.h"
#include "target.h"
#include "units.h"
#include "util.h"

#define PRECONDITION_BS (128u << 10)
#define PRECONDITION_QD 32
#define METRIC_BW_FROM (64u << 10) /* auto: bytes/s from 64 KiB blocks, IOPS below */

/* What a steady run keeps: its report, and the two results a phase is
 * measured into (a round's, reused; the preconditioning's). */
struct steady_run {
	struct steady_report *rep;
	const struct plain_test *test;
	struct options round_opt, pre_opt;
	struct result *round, *pre;
	struct result *r;
	struct fleet_record *round_fleet; /* --jsonl: each round's own times */
	struct target t;
	bool text;                  /* round lines on stdout as they end */
	bool bad_data;              /* --verify found the preconditioning's writes bad */
};

static enum steady_metric resolve_metric(const struct options *opt)
{
	if (opt->steady.metric != METRIC_AUTO)
		return opt->steady.metric;
	return opt->bs >= METRIC_BW_FROM ? METRIC_BW : METRIC_IOPS;
}

/* A phase's result, empty, as a part of the run's; its run record the
 * run's (each phase observes its own run in it, one after the other). */
static void phase_result(struct result *pr, const struct result *r, const char *test,
			 const struct options *po, enum io_dir dir)
{
	run_part_result(pr, r, test, po, dir);
	pr->record = r->record;
}

/* Whether two warnings say the same but for their figures ("flushes
 * return in 48.0 us" each round): the text with its digits left out. */
static bool same_words(const char *a, const char *b)
{
	for (;;) {
		while (*a && (isdigit((unsigned char)*a) || *a == '.'))
			a++;
		while (*b && (isdigit((unsigned char)*b) || *b == '.'))
			b++;
		if (*a != *b)
			return false;
		if (!*a)
			return true;
		a++, b++;
	}
}

/* A phase's warnings and findings in the run's, said once (the first
 * time), with where; findings each time, with their round. */
static void carry(struct result *r, const struct result *pr, const char *where, unsigned n)
{
	for (unsigned i = 0; i < pr->nwarnings; i++) {
		bool said = false;
		for (unsigned k = 0; k < r->nwarnings && !said; k++) {
			const char *colon = strstr(r->warnings[k], ": ");
			said = colon && same_words(colon + 2, pr->warnings[i]);
		}
		if (!said)
			warn(r, "%s: %s", where, pr->warnings[i]);
	}
	for (unsigned i = 0; i < pr->nfindings; i++) /* round 0: the preconditioning */
		finding_carry(r, &pr->findings[i], "round", n);
}

/* The worst case, said before anything is written. */
static void say_worst_case(const struct steady_run *s, const struct options *opt)
{
	const struct steady_options *st = &opt->steady;
	char each[64], region[32], then[96] = "";
	snprintf(each, sizeof(each), "%u rounds x %g s", st->max_rounds + st->hold, st->round_s);
	fmt_bytes_iec(region, sizeof(region), s->r->region);
	if (st->precondition)
		snprintf(then, sizeof(then), ", after writing its %s region %u times (preconditioning)",
			 region, st->precondition);
	plain_test_say_worst_case("steady", s->test, opt, each,
				  (st->max_rounds + st->hold) * st->round_s, then);
}

/* The region's tail past its whole blocks of PRECONDITION_BS (1000 KiB: 7
 * blocks and 104 KiB), which the timed loop's whole blocks never reach:
 * written `passes` times in one request each, from a buffer of fresh data,
 * its bytes and time added to the preconditioning's (issue 39: it was left
 * unwritten, and a file made by the preconditioning was short of the
 * region the rounds read). */
static int precondition_tail(struct steady_run *s, uint64_t from, uint64_t tail)
{
	struct steady_precondition *p = &s->rep->pre;
	const struct options *opt = s->r->opt;
	if (s->t.no_data)
		return EXIT_OK; /* --engine=nop: the target is open read-only, and nothing is written */
	void *buf = plat_buffer_alloc(tail);
	if (!buf)
		return fail(s->r, EXIT_RUN, "preconditioning: cannot allocate %llu bytes:",
			    (unsigned long long)tail);
	struct rng rng;
	rng_seed(&rng, opt->seed, 0x7a110000u);
	io_fill(buf, tail, opt->zeros, &rng);
	uint64_t t0 = clock_ns();
	ssize_t moved = (ssize_t)tail;
	for (unsigned i = 0; i < p->passes && moved == (ssize_t)tail && !bench_stop_requested; i++)
		moved = io_pwrite_full(s->t.fd, buf, tail, from);
	int err = moved < 0 ? errno : ENOSPC; /* a short write: the device is full */
	p->seconds += (double)(clock_ns() - t0) / 1e9;
	plat_buffer_free(buf, tail);
	if (moved != (ssize_t)tail) {
		errno = err;
		return fail(s->r, EXIT_RUN, "preconditioning: write '%s' at offset %llu:", s->t.path,
			    (unsigned long long)from);
	}
	if (bench_stop_requested) {
		s->r->interrupted = true;
		return fail(s->r, EXIT_SIGINT, "preconditioning: interrupted");
	}
	p->bytes += tail * p->passes;
	return EXIT_OK;
}

static int precondition(struct steady_run *s)
{
	struct steady_precondition *p = &s->rep->pre;
	struct options *po = &s->pre_opt;
	struct bench_job job;
	*po = *s->r->opt;
	po->bs = PRECONDITION_BS;
	po->given &= ~OPT_QD; /* its depth is steady's, never the rounds' --qd */
	po->threads = 1;
	po->accepts &= ~OPT_THREADS; /* one thread, whatever -j: no message suggests it */
	po->sync = SYNC_NONE; /* what reaches the device is what counts, not each write's flush */
	po->time_s = 0;
	po->quiet = true;
	phase_result(s->pre, s->r, "seqwrite", po, IO_WRITE);
	po->qd = run_fit_depth(po, PRECONDITION_QD, "the preconditioning", s->pre);
	p->qd = po->qd;
	int code = target_open(&s->t, O_WRONLY, po->direct, s->pre); /* --no-direct too */
	if (code != EXIT_OK)
		return fail(s->r, code, "preconditioning: %s", s->pre->error);
	progress_label(s->r->opt, "steady: preconditioning, %u passes", s->rep->pre.passes);
	uint64_t region = s->r->region, whole = region - region % PRECONDITION_BS;
	p->tail_bytes = region - whole;
	if (whole > 0) { /* the whole blocks in the timed loop, then the tail */
		run_describe_job(&job, IO_WRITE, PAT_SEQ, po, whole);
		job.wrap = true;
		job.bytes_limit = whole * s->rep->pre.passes;
		job.time_limit_s = 0;
		code = run_verify_prepare(&s->t, &job, po, s->pre); /* --verify: its writes read back */
		if (code == EXIT_OK)
			code = run_verify_finish(&s->t, &job, po, s->pre,
						 run_measure(&s->t, &job, po, s->pre));
		carry(s->r, s->pre, "preconditioning", 0);
		s->r->verify = s->pre->verify;
		s->bad_data = code == EXIT_BAD_DATA; /* said; the rounds run, and exit 7 wins over 6 */
		if (code != EXIT_OK && !s->bad_data) {
			s->r->interrupted = s->pre->interrupted;
			return fail(s->r, code, "preconditioning: %s", s->pre->error);
		}
	}
	p->bytes = s->pre->bytes;
	p->seconds = s->pre->seconds;
	if (p->tail_bytes > 0 && (code = precondition_tail(s, whole, p->tail_bytes)) != EXIT_OK)
		return code;
	s->rep->preconditioned = true;
	p->bytes_per_sec = p->seconds > 0 ? (double)p->bytes / p->seconds : 0;
	p->passes_done = (double)p->bytes / (double)region; /* what was written, not asked */
	if (s->text) {
		char moved[32], rate[32], passes[48];
		fmt_bytes_iec(moved, sizeof(moved), p->bytes);
		fmt_rate_si(rate, sizeof(rate), p->bytes_per_sec);
		if (p->passes_done == p->passes)
			snprintf(passes, sizeof(passes), "%u passes", p->passes);
		else
			snprintf(passes, sizeof(passes), "%.2f of the %u passes asked", p->passes_done,
				 p->passes);
		printf("preconditioning: %s, %s in %.1f s = %s\n", passes, moved, p->seconds, rate);
		out_text_verify(stdout, s->pre);
		fflush(stdout);
	}
	return EXIT_OK;
}

static double metric_value(enum steady_metric m, const struct steady_round *rd)
{
	return m == METRIC_BW ? rd->bytes_per_sec : m == METRIC_LAT ? rd->lat_mean_ns : rd->iops;
}

static void print_round(const struct steady_run *s, const struct steady_round *rd)
{
	const struct steady_report *rep = s->rep;
	char fig[48], p50[24], p99[24];
	steady_metric_text(fig, sizeof(fig), rep->metric, rd->value);
	fmt_ns(p50, sizeof(p50), rd->lat_p50_ns);
	fmt_ns(p99, sizeof(p99), rd->lat_p99_ns);
	printf("round %u%s: %s, p50 %s, p99 %s", rd->n, rd->hold ? " (hold)" : "", fig, p50, p99);
	if (rd->hold)
		printf("; %+.1f %% from the steady mean (band +/-%g %%)\n", rd->off_pct,
		       rep->lim.excursion_pct / 2);
	else if (rd->window.first == 0)
		printf("; window: %u more round%s\n", rep->lim.window - rd->n,
		       rep->lim.window - rd->n == 1 ? "" : "s");
	else
		printf("; rounds %u-%u: range %.1f %% (%s %g %%), slope %.1f %% (%s %g %%)\n",
		       rd->window.first, rd->window.last, rd->window.range_pct,
		       rd->window.range_pct <= rep->lim.excursion_pct + 1e-9 ? "<=" : ">",
		       rep->lim.excursion_pct, rd->window.slope_pct,
		       rd->window.slope_pct <= rep->lim.slope_pct + 1e-9 ? "<=" : ">", rep->lim.slope_pct);
	fflush(stdout);
}

/* The round just measured into s->round, kept and judged. */
static void keep_round(struct steady_run *s, double t_start_s, bool hold)
{
	struct steady_report *rep = s->rep;
	struct steady_round *rd = &rep->rounds[rep->nrounds];
	const struct result *rr = s->round;
	struct stats_summary sum;
	stats_summarize(&rr->lat, &sum);
	*rd = (struct steady_round){ .n = rep->nrounds + 1, .t_start_s = t_start_s,
				     .seconds = rr->seconds, .ios = rr->ios, .bytes = rr->bytes,
				     .lat_mean_ns = sum.mean, .lat_p50_ns = (double)sum.p50,
				     .lat_p99_ns = (double)sum.p99, .hold = hold };
	rd->iops = rr->seconds > 0 ? (double)rr->ios / rr->seconds : 0;
	rd->bytes_per_sec = rr->seconds > 0 ? (double)rr->bytes / rr->seconds : 0;
	rd->value = metric_value(rep->metric, rd);
	rep->nrounds++;
	if (hold) {
		if (steady_outside(&rep->steady, &rep->lim, rd->value, &rd->off_pct) && !rep->left) {
			rep->left = true;
			rep->left_round = rd->n;
			rep->left_value = rd->value;
			rep->left_off_pct = rd->off_pct;
		}
		return;
	}
	double values[STEADY_MAX_ROUNDS];
	for (unsigned i = 0; i < rep->nrounds; i++)
		values[i] = rep->rounds[i].value;
	if (steady_judge(values, rep->nrounds, &rep->lim, &rd->window) && !rep->attained) {
		rep->attained = true;
		rep->steady = rd->window;
	}
}

static int one_round(struct steady_run *s, double t_start_s, bool hold)
{
	struct bench_job job;
	unsigned n = s->rep->nrounds + 1;
	phase_result(s->round, s->r, s->test->name, &s->round_opt, s->test->dir);
	if (s->r->fleet) {
		s->round->fleet = s->round_fleet;
		fleet_step_begin(s->round_fleet, s->r->fleet);
	}
	progress_label(s->r->opt, "steady: round %u", n);
	run_describe_job(&job, s->test->dir, s->test->pattern, &s->round_opt, s->r->region);
	run_job_by_time(&job); /* each round runs its time, however small the region */
	int code = run_measure(&s->t, &job, &s->round_opt, s->round);
	if (s->r->fleet)
		fleet_step_end(s->r->fleet, s->round_fleet);
	if (s->r->opt->format == OUT_JSONL && (code == EXIT_OK || s->round->ios > 0))
		steady_round_line(stdout, s->round, n);
	char where[32];
	snprintf(where, sizeof(where), "round %u", n);
	carry(s->r, s->round, where, n);
	if (code != EXIT_OK) {
		s->r->interrupted = s->round->interrupted;
		return fail(s->r, code, "round %u: %s", n, s->round->error);
	}
	keep_round(s, t_start_s, hold);
	progress_clear();
	if (s->text)
		print_round(s, &s->rep->rounds[s->rep->nrounds - 1]);
	return EXIT_OK;
}

static int rounds(struct steady_run *s)
{
	const struct steady_options *st = &s->r->opt->steady;
	int flags = s->test->dir == IO_READ ? O_RDONLY : O_WRONLY;
	if (s->test->dir == IO_WRITE)
		flags |= sync_open_flag(s->round_opt.sync);
	int code = target_open(&s->t, flags, s->round_opt.direct, s->r);
	if (code != EXIT_OK)
		return code;
	if (s->test->dir == IO_READ)
		run_evict(&s->t, &s->round_opt, s->r);
	/* each round's start on the clock, from the first's: a round takes its
	 * --round plus its set-up and drain */
	uint64_t t0 = clock_ns();
	for (unsigned i = 0; i < st->max_rounds && !s->rep->attained && code == EXIT_OK; i++)
		code = one_round(s, (double)(clock_ns() - t0) / 1e9, false);
	for (unsigned i = 0; i < st->hold && s->rep->attained && !s->rep->left && code == EXIT_OK; i++)
		code = one_round(s, (double)(clock_ns() - t0) / 1e9, true);
	return code;
}

/* A cliff across rounds: the steady figure below DETECT_CLIFF_RATIO of the
 * best round before its window (an SLC cache or burst credits spent in the
 * first rounds; a round's own series sees the drop only when it falls
 * inside it, enough intervals from its ends).  Rates only: a latency that
 * fell is no cliff. */
static void judge_round_cliff(struct steady_run *s)
{
	const struct steady_report *rep = s->rep;
	if (!rep->attained || rep->metric == METRIC_LAT || rep->steady.first < 2)
		return;
	unsigned best = 0;
	for (unsigned i = 1; i + 1 < rep->steady.first; i++)
		best = rep->rounds[i].value > rep->rounds[best].value ? i : best;
	double burst = rep->rounds[best].value, sustained = rep->steady.mean;
	if (!(sustained < DETECT_CLIFF_RATIO * burst))
		return;
	unsigned at = best + 1; /* the first round below the line after the best */
	while (at + 1 < rep->steady.first && rep->rounds[at].value >= DETECT_CLIFF_RATIO * burst)
		at++;
	uint64_t before = 0;
	for (unsigned i = 0; i < at; i++)
		before += rep->rounds[i].bytes;
	char from[48], to[48], moved[32];
	steady_metric_text(from, sizeof(from), rep->metric, burst);
	steady_metric_text(to, sizeof(to), rep->metric, sustained);
	fmt_bytes_si(moved, sizeof(moved), before);
	bool write = s->test->dir == IO_WRITE;
	warn(s->r, "throughput fell from %s (round %u) to %s after %s %s (round %u, t = %.1f s): %s; "
	     "the sustained figure is %s", from, best + 1, to, moved, write ? "written" : "read",
	     at + 1, rep->rounds[at].t_start_s,
	     write ? "a write cache (SLC) or burst credits ran out"
		   : "burst credits ran out, or a cache or throttle in front of the disk took over",
	     to);
	struct finding *f = finding_add(s->r, "cliff");
	finding_figure(f, "round", at + 1, 0);
	finding_figure(f, "at_s", rep->rounds[at].t_start_s, 3);
	finding_figure(f, "at_bytes", (double)before, 0);
	finding_figure(f, "burst_value", burst, 3);
	finding_figure(f, "sustained_value", sustained, 3);
}

static int verdict(struct steady_run *s)
{
	const struct steady_report *rep = s->rep;
	if (rep->attained && !rep->left)
		return EXIT_OK;
	if (rep->left)
		return fail(s->r, EXIT_UNMET, "left steady state at round %u: %+.1f %% from the mean "
			    "of rounds %u-%u", rep->left_round, rep->left_off_pct, rep->steady.first,
			    rep->steady.last);
	return fail(s->r, EXIT_UNMET, "not steady after %u rounds", rep->nrounds);
}

static int check_limits(const struct options *opt, struct result *r)
{
	const struct steady_options *st = &opt->steady;
	if (st->window > st->max_rounds)
		return fail(r, EXIT_USAGE, "--window %u needs --max-rounds %u at least", st->window,
			    st->window);
	return EXIT_OK;
}

int cmd_run_steady(const struct command *cmd, const struct options *opt, struct result *r)
{
	/* the run's state in storage the result owns, not in a static */
	struct steady_run *s = result_keep(r, sizeof(*s), NULL);
	if (!s)
		return fail(r, EXIT_RUN, "cannot allocate steady's rounds:");
	memset(s, 0, sizeof(*s));
	s->r = r;
	(void)cmd; /* its test is opt->steady.test */
	s->test = plain_test_of(opt->steady.test);
	s->rep = result_keep(r, sizeof(*s->rep), NULL);
	s->round = result_keep(r, sizeof(*s->round), result_release_part);
	s->pre = result_keep(r, sizeof(*s->pre), result_release_part);
	if (r->fleet)
		s->round_fleet = result_keep(r, sizeof(*s->round_fleet), NULL);
	if (!s->rep || !s->round || !s->pre || !s->test || (r->fleet && !s->round_fleet))
		return fail(r, EXIT_RUN, "cannot allocate steady's rounds:");
	s->rep->rounds = result_keep(r, STEADY_MAX_ROUNDS * sizeof(*s->rep->rounds), NULL);
	if (!s->rep->rounds)
		return fail(r, EXIT_RUN, "cannot allocate steady's rounds:");
	r->detail = s->rep;
	r->dir = opt->steady.precondition ? IO_WRITE : s->test->dir;
	s->rep->test = s->test->name;
	s->rep->metric = resolve_metric(opt);
	s->rep->lim = (struct steady_limits){ opt->steady.window, opt->steady.excursion_pct,
					     opt->steady.slope_pct };
	s->rep->round_s = opt->steady.round_s;
	s->rep->max_rounds = opt->steady.max_rounds;
	s->rep->hold = opt->steady.hold;
	s->rep->pre.passes = opt->steady.precondition;
	s->text = opt->format == OUT_TEXT && !opt->quiet;
	s->round_opt = *opt;
	s->round_opt.time_s = opt->steady.round_s;
	s->round_opt.quiet = true; /* the round lines are steady's */
	/* about ten intervals a round, as quick's steps: each round's series
	 * (for --jsonl's common window, and the checks over time) */
	if (!(opt->given & OPT_INTERVAL)) {
		s->round_opt.accepts |= OPT_INTERVAL;
		s->round_opt.interval_s = opt->steady.round_s / 10;
		if (s->round_opt.interval_s < SAMPLING_INTERVAL_MIN)
			s->round_opt.interval_s = SAMPLING_INTERVAL_MIN;
		if (s->round_opt.interval_s > SAMPLING_INTERVAL_DEFAULT)
			s->round_opt.interval_s = SAMPLING_INTERVAL_DEFAULT;
	}
	int code = check_limits(opt, r);
	if (code == EXIT_OK && opt->verify != VERIFY_OFF && !opt->steady.precondition)
		code = fail(r, EXIT_USAGE, "steady --verify checks the preconditioning's writes: "
			    "give --precondition");
	if (code == EXIT_OK)
		code = plain_test_refuse_cached("steady", "rounds", s->test, opt, r);
	if (code == EXIT_OK)
		code = plain_test_prepare(s->test, &s->t, opt, opt->steady.precondition > 0, r);
	if (code == EXIT_OK)
		say_worst_case(s, opt);
	if (code == EXIT_OK && opt->steady.precondition)
		code = precondition(s);
	if (code == EXIT_OK)
		code = rounds(s);
	progress_clear();
	target_close(&s->t);
	target_cleanup();
	if (code == EXIT_OK)
		judge_round_cliff(s);
	code = code == EXIT_OK ? verdict(s) : code;
	return s->bad_data && (code == EXIT_OK || code == EXIT_UNMET) ? EXIT_BAD_DATA : code;
}
