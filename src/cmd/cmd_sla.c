/* sla (issue 30): the most IOPS the named test serves with its response
 * time (from when each I/O was due, open loop) at or under --latency.
 * A closed-loop probe at the cap's depth finds the ceiling; open-loop steps
 * of --step-time then try the ceiling and bisect below it to within 5 %
 * (halving from the ceiling while nothing passes, down to 1/64 of it);
 * a confirm run repeats the rate found.  Nothing passes: exit 6. */
#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "names.h"
#include "plain_test.h"
#include "progress.h"
#include "runner.h"
#include "sla_report.h"
#include "stats.h"
#include "target.h"
#include "units.h"
#include "util.h"

#define SLA_RESOLUTION 0.05  /* bisection ends when the bracket is this narrow */
#define SLA_LOWEST 64        /* the lowest rate tried: the ceiling / this */
#define SLA_BISECT_STEPS 10
#define SLA_WARMUP_MAX_S 0.5 /* each step's warm-up: a quarter of it, at most this */
#define SLA_ANY_RATE 1.0     /* a step's job as the zoned refusals see it: some rate */

struct sla_run {
	struct sla_report *rep;
	const struct plain_test *test;
	struct options step_opt;
	struct result *step; /* each step measured into it, in turn */
	struct result *r;
	struct target t;
	bool text;
};

/* The worst case, said before anything is written: the probe, the
 * bisection's steps and the confirm run. */
static void say_worst_case(const struct sla_run *s, const struct options *opt)
{
	const struct sla_report *rep = s->rep;
	unsigned steps = SLA_BISECT_STEPS + 2;
	char each[96];
	snprintf(each, sizeof(each), "%u steps x (%g s + a %g s warm-up)", steps, rep->step_s,
		 rep->warmup_s);
	plain_test_say_worst_case("sla", s->test, opt, each, steps * (rep->step_s + rep->warmup_s),
				  NULL);
}

/* Whether the target's percentile of a step's response times is known:
 * those that never started (unserved) are in the distribution at the wait
 * they had by the window's end, a figure they had at least, so when more of
 * them than the percentile leaves above it never started, the percentile
 * may be any of theirs, however long (issue 39).  The mean (pct 0) counts
 * each at that least. */
static bool pct_known(double pct, uint64_t served, uint64_t unserved)
{
	if (pct <= 0 || unserved == 0)
		return true;
	uint64_t all = served + unserved;
	double rank = ceil(pct * (double)all / 100.0 - 1e-9); /* stats_percentile's */
	return rank <= (double)served;
}

/* A step's figures from its result; pass when the judged response time is
 * within the target and known. */
static void keep_step(struct sla_run *s, enum sla_step_kind kind, double asked)
{
	struct sla_report *rep = s->rep;
	const struct result *sr = s->step;
	struct sla_step *st = &rep->steps[rep->nsteps];
	struct stats_summary sum;
	stats_summarize(&sr->lat, &sum);
	*st = (struct sla_step){ .n = rep->nsteps, .kind = kind, .asked = asked,
				 .seconds = sr->seconds, .ios = sr->ios,
				 .late_ios = sr->open_loop.late_ios,
				 .unserved = sr->open_loop.unserved,
				 .max_lag_ns = sr->open_loop.max_lag_ns, .mean_ns = sum.mean,
				 .p50_ns = (double)sum.p50, .p99_ns = (double)sum.p99,
				 .p99_9_ns = (double)sum.p99_9 };
	st->served = sr->seconds > 0 ? (double)sr->ios / sr->seconds : 0;
	st->judged_ns = rep->pct > 0 ? (double)stats_percentile(&sr->lat, rep->pct) : sum.mean;
	st->service_p99_ns = kind == SLA_PROBE ? st->p99_ns
					       : (double)stats_percentile(&sr->service_lat, 99);
	st->known = pct_known(rep->pct, sr->ios, sr->open_loop.unserved);
	st->pass = sr->ios > 0 && st->judged_ns <= rep->latency_ns && st->known;
	rep->nsteps++;
}

/* One step: closed loop (the probe) when asked is 0, else open loop at
 * asked IOPS; each with a seed of its own, so that steps do not repeat one
 * another's offsets. */
static int one_step(struct sla_run *s, enum sla_step_kind kind, double asked)
{
	struct bench_job job;
	struct options *so = &s->step_opt;
	unsigned n = s->rep->nsteps;
	run_part_result(s->step, s->r, s->test->name, so, s->test->dir);
	s->step->record = s->r->record;
	so->rate = asked;
	so->seed = s->r->opt->seed + n;
	if (kind == SLA_PROBE)
		progress_label(s->r->opt, "sla: probe");
	else
		progress_label(s->r->opt, "sla: step %u, %.0f IOPS", n, asked);
	run_describe_job(&job, s->test->dir, s->test->pattern, so, s->r->region);
	run_job_by_time(&job);
	job.warmup_s = s->rep->warmup_s; /* the queue fills before the window opens */
	job.warmup_ios = 0;
	int code = run_measure(&s->t, &job, so, s->step);
	/* a short step's "too short" says -s; a step's length is --step-time, and
	 * its I/O count is in its line */
	char where[24];
	if (kind == SLA_PROBE)
		snprintf(where, sizeof(where), "probe");
	else
		snprintf(where, sizeof(where), "%s %u", kind == SLA_CONFIRM ? "confirm" : "step", n);
	for (unsigned i = 0; i < s->step->nwarnings; i++)
		if (strncmp(s->step->warnings[i], "the run took only", 17) != 0)
			warn(s->r, "%s: %s", where, s->step->warnings[i]);
	if (code != EXIT_OK) {
		s->r->interrupted = s->step->interrupted;
		return fail(s->r, code, "%s: %s", where, s->step->error);
	}
	keep_step(s, kind, asked);
	s->r->engine = s->step->engine; /* the same for every step */
	s->r->engine_label = s->step->engine_label;
	progress_clear();
	if (s->text)
		sla_step_text(stdout, s->rep, &s->rep->steps[s->rep->nsteps - 1]);
	return EXIT_OK;
}

/* The bisection: the ceiling first; while nothing has passed, halve down
 * to the ceiling / SLA_LOWEST; then the middle of the bracket, a pass
 * counting for what it served (never more than asked), until the bracket
 * is within SLA_RESOLUTION of its top. */
static int search(struct sla_run *s)
{
	struct sla_report *rep = s->rep;
	double ceiling = rep->ceiling_iops, lowest = ceiling / SLA_LOWEST;
	double passed = 0, failed = ceiling, rate = ceiling;
	for (unsigned i = 0; i < SLA_BISECT_STEPS; i++) {
		int code = one_step(s, SLA_STEP, rate);
		if (code != EXIT_OK)
			return code;
		const struct sla_step *st = &rep->steps[rep->nsteps - 1];
		if (st->pass) {
			double counts = st->served < rate ? st->served : rate;
			rep->found_step = counts > passed ? st->n : rep->found_step;
			passed = counts > passed ? counts : passed;
		} else {
			failed = rate < failed ? rate : failed;
		}
		if (st->pass && rate >= ceiling)
			break; /* the ceiling itself is inside the target */
		if (passed > 0 && failed - passed <= SLA_RESOLUTION * failed)
			break;
		if (passed == 0 && rate <= lowest)
			break;
		rate = passed > 0 ? (passed + failed) / 2 : rate / 2 > lowest ? rate / 2 : lowest;
	}
	rep->found = passed > 0;
	rep->found_iops = passed;
	return EXIT_OK;
}

static int confirm(struct sla_run *s)
{
	struct sla_report *rep = s->rep;
	int code = one_step(s, SLA_CONFIRM, rep->found_iops);
	if (code != EXIT_OK)
		return code;
	rep->confirmed = rep->steps[rep->nsteps - 1].pass; /* if not: verdict's exit 6 */
	return EXIT_OK;
}

static int measure(struct sla_run *s)
{
	int flags = s->test->dir == IO_READ ? O_RDONLY : O_WRONLY;
	if (s->test->dir == IO_WRITE)
		flags |= sync_open_flag(s->step_opt.sync);
	int code = target_open(&s->t, flags, s->step_opt.direct, s->r);
	if (code != EXIT_OK)
		return code;
	if (s->test->dir == IO_READ)
		run_evict(&s->t, &s->step_opt, s->r);
	/* its steps' open loop, refused on a zoned device before the probe
	 * writes or resets a zone (issue 44) */
	struct bench_job steps;
	run_describe_job(&steps, s->test->dir, s->test->pattern, &s->step_opt, s->r->region);
	steps.rate = SLA_ANY_RATE;
	code = run_zoned_refuse(&s->t, &steps, &s->step_opt, s->r);
	if (code == EXIT_OK)
		code = one_step(s, SLA_PROBE, 0);
	if (code != EXIT_OK)
		return code;
	s->rep->ceiling_iops = s->rep->steps[0].served;
	if (s->rep->ceiling_iops <= 0)
		return fail(s->r, EXIT_RUN, "the probe completed no I/O in %g s", s->rep->step_s);
	code = search(s);
	if (code == EXIT_OK && s->rep->found)
		code = confirm(s);
	return code;
}

/* Found and confirmed: exit 0.  A rate whose confirm run missed is not
 * one the device holds: unconfirmed, exit 6 (issue 39: it was printed as
 * found, exit 0, with a warning), the rate and both runs in the figures. */
static int verdict(struct sla_run *s)
{
	const struct sla_report *rep = s->rep;
	if (rep->found && rep->confirmed)
		return EXIT_OK;
	const struct sla_step *last = &rep->steps[rep->nsteps - 1];
	char why[96];
	sla_step_missed(why, sizeof(why), rep, last);
	if (rep->found)
		return fail(s->r, EXIT_UNMET, "unconfirmed: %.0f IOPS met the target in step %u, but "
			    "the confirm run at that rate missed it (%s): the rate is at the edge of what "
			    "the device holds; a longer --step-time measures it more surely",
			    rep->found_iops, rep->found_step, why);
	if (!last->known || last->ios == 0)
		return fail(s->r, EXIT_UNMET, "target not met: even %.1f IOPS (1/%u of the %.0f IOPS "
			    "ceiling) missed it: %s", last->asked, SLA_LOWEST, rep->ceiling_iops, why);
	char judged[24], target[24], pct[16];
	fmt_ns(judged, sizeof(judged), last->judged_ns);
	fmt_ns(target, sizeof(target), rep->latency_ns);
	sla_pct_name(pct, sizeof(pct), rep->pct);
	return fail(s->r, EXIT_UNMET, "target not met: even %.1f IOPS (1/%u of the %.0f IOPS "
		    "ceiling) had a %s response time of %s > %s", last->asked, SLA_LOWEST,
		    rep->ceiling_iops, pct, judged, target);
}

int cmd_run_sla(const struct command *cmd, const struct options *opt, struct result *r)
{
	struct sla_run *s = result_keep(r, sizeof(*s), NULL);
	if (!s)
		return fail(r, EXIT_RUN, "cannot allocate sla's steps:");
	memset(s, 0, sizeof(*s));
	s->r = r;
	(void)cmd; /* its test is opt->steady.test */
	s->test = plain_test_of(opt->steady.test);
	s->rep = result_keep(r, sizeof(*s->rep), NULL);
	s->step = result_keep(r, sizeof(*s->step), result_release_part);
	if (!s->rep || !s->step || !s->test)
		return fail(r, EXIT_RUN, "cannot allocate sla's steps:");
	memset(s->rep, 0, sizeof(*s->rep));
	r->detail = s->rep;
	r->dir = s->test->dir;
	struct sla_report *rep = s->rep;
	rep->test = s->test->name;
	rep->latency_ns = opt->sla.latency_ns;
	rep->pct = opt->sla.pct;
	rep->step_s = opt->sla.step_s;
	rep->warmup_s = opt->sla.step_s / 4 < SLA_WARMUP_MAX_S ? opt->sla.step_s / 4
							       : SLA_WARMUP_MAX_S;
	s->text = opt->format == OUT_TEXT && !opt->quiet;
	s->step_opt = *opt;
	s->step_opt.time_s = opt->sla.step_s;
	s->step_opt.quiet = true; /* the step lines are sla's */
	s->step_opt.qd = run_fit_depth(opt, opt->qd, "sla's steps", r); /* said once */
	rep->in_flight = s->step_opt.qd * opt->threads;
	/* params.qd: the depth the steps have, as cmd_io.c shows an open loop's */
	struct options *shown = result_keep(r, sizeof(*shown), NULL);
	if (!shown)
		return fail(r, EXIT_RUN, "cannot allocate sla's steps:");
	*shown = *opt;
	shown->qd = s->step_opt.qd;
	r->opt = shown;
	int code = plain_test_refuse_cached("sla", "steps", s->test, opt, r);
	if (code == EXIT_OK)
		code = plain_test_prepare(s->test, &s->t, opt, false, r);
	if (code == EXIT_OK)
		say_worst_case(s, opt);
	if (code == EXIT_OK)
		code = measure(s);
	progress_clear();
	target_close(&s->t);
	target_cleanup();
	return code == EXIT_OK ? verdict(s) : code;
}
