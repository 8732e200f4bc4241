/* quick: one command for the whole check.  Lays out diskbench's own file
 * (at most 20 s of it, outside the timing), then runs the steps below on it
 * — writes only on its own file — and says what class of device the figures
 * look like, checked against sysfs's identity and link. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "devinfo.h"
#include "output.h"
#include "progress.h"
#include "quick.h"
#include "runner.h"
#include "units.h"
#include "util.h"

#define LAYOUT_MAX_S 20.0

struct quick_step {
	const char *test, *label;
	enum io_dir dir;
	enum io_pattern pattern;
	uint64_t bs;
	unsigned threads;
	double share; /* of the default 17 s */
};

static const struct quick_step quick_steps[] = {
	{ "seqread", "seq read 1 MiB, 1 in flight", IO_READ, PAT_SEQ, 1u << 20, 1, 5 },
	{ "randread", "random read 4 KiB, 1 in flight", IO_READ, PAT_RAND, 4096, 1, 3 },
	{ "randread", "random read 4 KiB, 32 in flight", IO_READ, PAT_RAND, 4096, 32, 3 },
	{ "seqwrite", "seq write 1 MiB, O_DSYNC", IO_WRITE, PAT_SEQ, 1u << 20, 1, 3 },
	{ "seqwrite", "seq write 8 KiB, O_DSYNC", IO_WRITE, PAT_SEQ, 8192, 1, 3 },
};
#define NSTEPS (sizeof(quick_steps) / sizeof(quick_steps[0]))
#define TOTAL_SHARE 17.0

static void step_options(struct options *so, const struct options *opt, const struct quick_step *s,
			 const struct quick_report *q)
{
	*so = *opt;
	so->bs = s->bs;
	so->threads = s->threads;
	so->time_s = q->measure_s * s->share / TOTAL_SHARE;
	so->size = q->span;
	so->sync = SYNC_DSYNC;
	so->direct = true;
	so->quiet = true; /* progress is quick's, per step */
}

static void step_result(struct result *sr, const struct result *r, const struct quick_step *s,
			const struct options *so)
{
	memset(sr, 0, sizeof(*sr));
	sr->test = s->test;
	sr->target = r->target;
	sr->opt = so;
	sr->dir = s->dir;
	sr->region = r->region;
	sr->resident_before_pct = -1;
	sr->file_state = r->file_state;
	snprintf(sr->file, sizeof(sr->file), "%s", r->file);
}

static int run_step(struct target *t, const struct quick_step *s, struct quick_report *q,
		    struct result *r)
{
	unsigned n = q->nsteps;
	struct options *so = &q->opts[n];
	struct result *sr = &q->steps[n];
	struct bench_job job;
	step_options(so, r->opt, s, q);
	step_result(sr, r, s, so);
	q->labels[n] = s->label;
	progress_label(r->opt, "quick: %s", s->label);
	int flags = s->dir == IO_READ ? O_RDONLY : O_WRONLY | O_DSYNC;
	int code = target_open(t, flags, true, sr);
	if (code == EXIT_OK) {
		if (s->dir == IO_READ)
			run_evict(t, so, sr);
		run_describe_job(&job, s->dir, s->pattern, so, sr->region);
		run_job_by_time(&job); /* each step runs its time, however small the span */
		code = run_measure(t, &job, so, sr);
	}
	q->nsteps++;
	for (unsigned i = 0; i < sr->nwarnings; i++)
		warn(r, "%s: %s", s->label, sr->warnings[i]);
	if (code != EXIT_OK) {
		r->interrupted = sr->interrupted;
		return fail(r, code, "%s: %s", s->label, sr->error);
	}
	return EXIT_OK;
}

static double step_p50(const struct result *sr)
{
	struct stats_summary s;
	stats_summarize(&sr->lat, &s);
	return (double)s.p50;
}

/* The figures and the identity that the classifier weighs. */
static void gather_figures(struct quick_report *q, const struct devinfo *d)
{
	struct quick_figures *f = &q->figures;
	memset(f, 0, sizeof(*f));
	f->rotational = -1;
	if (q->nsteps > 0)
		f->seq_read_bps = result_rate(&q->steps[0]);
	if (q->nsteps > 1) {
		f->qd1_lat_p50_ns = step_p50(&q->steps[1]);
		f->qd1_iops = result_iops(&q->steps[1]);
	}
	if (q->nsteps > 2) {
		f->qd32_iops = result_iops(&q->steps[2]);
		f->qd32_lat_p50_ns = step_p50(&q->steps[2]);
	}
	if (q->nsteps > 3)
		f->seq_write_bps = result_rate(&q->steps[3]);
	if (!d)
		return;
	f->fs_class = d->fs_class;
	if (d->has_top) {
		f->transport = d->top.transport;
		f->is_virtual = d->top.is_virtual || d->top.rotational_unreliable;
		f->rotational = d->top.rotational;
	}
	for (int i = 0; i < d->nleaves; i++) {
		const struct dev_node *leaf = &d->stack[d->leaves[i]];
		f->is_virtual |= leaf->is_virtual;
		if (i == 0) {
			f->transport = leaf->transport ? leaf->transport : f->transport;
			f->link_kind = leaf->link.kind;
			f->link_speed = leaf->link.speed[0] ? leaf->link.speed : NULL;
		}
		f->link_below_max |= leaf->link.below_max;
	}
	f->link_ceiling_bps = devinfo_ceiling(d);
}

/* quick's figures are O_DIRECT figures: where the filesystem has no
 * O_DIRECT (ramfs, some FUSE filesystems), say which tests still work. */
static int no_direct_advice(struct result *r, int code)
{
	char why[MSG_LEN];
	snprintf(why, sizeof(why), "%s", r->error);
	target_cleanup();
	return fail(r, code, "%.300s; quick measures with O_DIRECT: on this filesystem use "
		    "'diskbench buffered' and 'diskbench cached' instead", why);
}

int cmd_run_quick(const struct command *cmd, const struct options *opt, struct result *r)
{
	static struct quick_report q;
	struct target t;
	struct options probe = *opt;
	(void)cmd;
	memset(&q, 0, sizeof(q));
	r->detail = &q;
	if (opt->time_s <= 0)
		return fail(r, EXIT_USAGE, "quick needs a time to share among its steps: -t SECONDS "
			    "greater than 0");
	q.measure_s = opt->time_s;
	int code = run_prepare(&t, opt, r);
	if (code == EXIT_OK)
		code = run_plan_region(&t, opt, false, r);
	probe.bs = 4096; /* the smallest block of the steps */
	if (code == EXIT_OK)
		code = run_check_direct(&t, &probe, r);
	if (code != EXIT_OK && t.no_direct)
		return no_direct_advice(r, code);
	if (code == EXIT_OK)
		code = run_check_data(&t, opt, r);
	if (code == EXIT_OK && t.created)
		code = run_layout(&t, opt, LAYOUT_MAX_S, r, &q.layout_s);
	q.span = r->region;
	if (code == EXIT_OK)
		code = target_open(&t, O_RDONLY, false, r);
	if (code == EXIT_OK)
		run_warn_target(&t, opt, false, r);
	for (unsigned i = 0; i < NSTEPS && code == EXIT_OK; i++)
		if (quick_steps[i].dir == IO_READ || t.created)
			code = run_step(&t, &quick_steps[i], &q, r);
	progress_clear();
	target_close(&t);
	target_cleanup();
	if (code != EXIT_OK)
		return code;
	gather_figures(&q, r->device);
	classify(&q.figures, &q.verdict);
	verdict_line(q.line, sizeof(q.line), &q.figures, &q.verdict);
	for (unsigned i = 0; i < q.verdict.nwarnings; i++)
		warn(r, "%s", q.verdict.warnings[i]);
	r->measured = true;
	return EXIT_OK;
}
