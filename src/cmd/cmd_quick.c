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
#include "finding.h"
#include "fleet.h"
#include "output.h"
#include "progress.h"
#include "quick.h"
#include "findings.h"
#include "series.h"
#include "runner.h"
#include "run_record.h"
#include "sampling.h"
#include "units.h"
#include "util.h"

#define LAYOUT_MAX_S 20.0

/* The four figures people compare (CrystalDiskMark's and KDiskMark's
 * presets, named as they name them), read and, on diskbench's own file,
 * written with O_DSYNC; then the figure admins compare with
 * `dd bs=8k oflag=dsync` (the dd-trap figure: one 8 KiB write at a time,
 * each waiting for the device).  in_flight is Q x T: one thread with a deep
 * queue where an asynchronous engine runs, else as many threads. */
struct quick_step {
	const char *test, *preset;
	enum io_dir dir;
	enum io_pattern pattern;
	uint64_t bs;
	unsigned in_flight;
	double share;     /* of the default 17 s */
	const char *peer; /* the peer's command it compares with, or NULL */
};

/* The dd step's 1.5 s came from the Q1T1 reads (3 s each before) and
 * RND4K Q32T1 read (2.5 s), so that the default stays 17 s. */
static const struct quick_step quick_steps[] = {
	{ "seqread", "SEQ1M", IO_READ, PAT_SEQ, 1u << 20, 8, 2.5, NULL },
	{ "seqread", "SEQ1M", IO_READ, PAT_SEQ, 1u << 20, 1, 2.5, NULL },
	{ "randread", "RND4K", IO_READ, PAT_RAND, 4096, 32, 2, NULL },
	{ "randread", "RND4K", IO_READ, PAT_RAND, 4096, 1, 2.5, NULL },
	{ "seqwrite", "SEQ1M", IO_WRITE, PAT_SEQ, 1u << 20, 8, 1.5, NULL },
	{ "seqwrite", "SEQ1M", IO_WRITE, PAT_SEQ, 1u << 20, 1, 1.5, NULL },
	{ "randwrite", "RND4K", IO_WRITE, PAT_RAND, 4096, 32, 1.5, NULL },
	{ "randwrite", "RND4K", IO_WRITE, PAT_RAND, 4096, 1, 1.5, NULL },
	{ "seqwrite", "SEQ8K", IO_WRITE, PAT_SEQ, QUICK_DD_BS, 1, 1.5, "dd oflag=dsync" },
};
#define NSTEPS (sizeof(quick_steps) / sizeof(quick_steps[0]))
#define TOTAL_SHARE 17.0
_Static_assert(NSTEPS <= QUICK_MAX_STEPS, "quick_report holds every step");

static void step_options(struct options *so, const struct options *opt, const struct quick_step *s,
			 const struct quick_report *q)
{
	*so = *opt;
	so->bs = s->bs;
	so->qd = s->in_flight <= q->max_qd ? s->in_flight : 1;
	so->threads = s->in_flight / so->qd;
	so->engine = q->engine; /* resolved once, so a fallback is said once */
	so->time_s = q->measure_s * s->share / TOTAL_SHARE;
	so->size = q->span;
	so->sync = SYNC_DSYNC;
	so->direct = true;
	so->quiet = true; /* progress is quick's, per step */
	/* each step keeps a series of about ten intervals, so that the checks
	 * over time (a rate cap, a cgroup limit, a cliff) run on it too */
	so->accepts |= OPT_INTERVAL;
	so->interval_s = so->time_s / 10;
	if (so->interval_s < SAMPLING_INTERVAL_MIN)
		so->interval_s = SAMPLING_INTERVAL_MIN;
	if (so->interval_s > SAMPLING_INTERVAL_DEFAULT)
		so->interval_s = SAMPLING_INTERVAL_DEFAULT;
}

static void step_result(struct result *sr, const struct result *r, const struct quick_step *s,
			const struct options *so, struct fleet_record *step_fleet)
{
	run_part_result(sr, r, s->test, so, s->dir);
	/* each step its own times; --start-at waits before the first step only */
	sr->fleet = step_fleet;
	if (step_fleet)
		fleet_step_begin(step_fleet, r->fleet);
}

/* A warning an earlier step gave word for word (a cgroup limit applies to
 * every step) is said once. */
static bool said_before(const struct quick_report *q, const char *warning)
{
	for (unsigned i = 0; i + 1 < q->nsteps; i++)
		for (unsigned k = 0; k < q->steps[i].nwarnings; k++)
			if (strcmp(q->steps[i].warnings[k], warning) == 0)
				return true;
	return false;
}

/* "SEQ1M Q8T1 read": CrystalDiskMark's name of a step as the engine runs
 * it (Q8T1 where it holds 8 in flight per thread, else Q1T8). */
static void step_label(char *out, size_t len, const struct quick_step *s,
		       const struct quick_report *q)
{
	unsigned qd = s->in_flight <= q->max_qd ? s->in_flight : 1;
	snprintf(out, len, "%s Q%uT%u %s%s%s%s", s->preset, qd, s->in_flight / qd,
		 s->dir == IO_READ ? "read" : "write", s->peer ? " (" : "", s->peer ? s->peer : "",
		 s->peer ? ")" : "");
}

static int run_step(struct target *t, const struct quick_step *s, struct quick_report *q,
		    struct result *r)
{
	unsigned n = q->nsteps;
	struct options *so = &q->opts[n];
	struct result *sr = &q->steps[n];
	struct bench_job job;
	step_options(so, r->opt, s, q);
	step_result(sr, r, s, so, q->fleets ? &q->fleets[n] : NULL);
	sr->record = &q->records[n]; /* each step observes its own run */
	char name[sizeof(q->names[n])];
	snprintf(name, sizeof(name), "%s Q%uT%u", s->preset, so->qd, so->threads);
	memcpy(q->names[n], name, sizeof(name));
	step_label(q->label_text[n], sizeof(q->label_text[n]), s, q);
	if (s->peer)
		q->dd_step = (int)n;
	q->labels[n] = q->label_text[n];
	const char *label = q->labels[n];
	progress_label(r->opt, "quick: %s", label);
	int flags = s->dir == IO_READ ? O_RDONLY : O_WRONLY | O_DSYNC;
	int code = target_open(t, flags, true, sr);
	if (code == EXIT_OK) {
		if (s->dir == IO_READ)
			run_evict(t, so, sr);
		run_describe_job(&job, s->dir, s->pattern, so, sr->region);
		run_job_by_time(&job); /* each step runs its time, however small the span */
		code = run_measure(t, &job, so, sr);
	}
	if (sr->fleet)
		fleet_step_end(r->fleet, sr->fleet);
	sr->device = NULL; /* weighed by the checks; the document names the device once */
	q->nsteps++;
	for (unsigned i = 0; i < sr->nwarnings; i++)
		if (!said_before(q, sr->warnings[i]))
			warn(r, "%s: %s", label, sr->warnings[i]);
	/* every finding also in the top-level list a script reads, with the
	 * index of its step in tests[] */
	for (unsigned i = 0; i < sr->nfindings; i++)
		finding_carry(r, &sr->findings[i], "step", n);
	if (code != EXIT_OK) {
		r->interrupted = sr->interrupted;
		return fail(r, code, "%s: %s", label, sr->error);
	}
	return EXIT_OK;
}

static double step_p50(const struct result *sr)
{
	struct stats_summary s;
	stats_summarize(&sr->lat, &s);
	return (double)s.p50;
}

/* The step of this test, block size and number in flight, or NULL. */
static const struct result *step_of(const struct quick_report *q, const char *test, uint64_t bs,
				    unsigned in_flight)
{
	for (unsigned i = 0; i < q->nsteps; i++)
		if (strcmp(q->steps[i].test, test) == 0 && q->opts[i].bs == bs &&
		    q->opts[i].qd * q->opts[i].threads == in_flight)
			return &q->steps[i];
	return NULL;
}

/* The I/Os a step counted after its first interval (0 unknown). */
static double settled_ios(const struct result *s)
{
	double n = 0;
	for (unsigned i = 1; s && s->series && i < s->series->n; i++)
		n += (double)s->series->s[i].ios;
	return n;
}

/* The step of a figure the verdict weighs, unless the step's own finding
 * says a cache between diskbench and the disk served it (device_saw_less):
 * then NULL, and the figure's name added to f->cached. */
static const struct result *weighed_step(const struct quick_report *q, const char *test,
					 uint64_t bs, unsigned in_flight, const char *figure,
					 struct quick_figures *f)
{
	const struct result *s = step_of(q, test, bs, in_flight);
	for (unsigned k = 0; s && k < s->nfindings; k++)
		if (strcmp(s->findings[k].key, "device_saw_less") == 0) {
			size_t n = strlen(f->cached);
			snprintf(f->cached + n, sizeof(f->cached) - n, "%s%s", n ? ", " : "", figure);
			return NULL;
		}
	return s;
}

/* What showed that a limit, not the device, set a step's figures: a cgroup
 * limit the step reached, or a confirmed rate cap in its series (cap stays
 * "" when neither did). */
static void gather_cap(const struct quick_report *q, char *cap, size_t len)
{
	char rate[32];
	for (unsigned i = 0; i < q->nsteps; i++)
		for (unsigned k = 0; k < q->steps[i].nfindings; k++) {
			const struct finding *fd = &q->steps[i].findings[k];
			double bps = finding_value(fd, "bytes_per_sec", 0);
			double iops = finding_value(fd, "iops", 0);
			if (strcmp(fd->key, "cgroup_limit") == 0 &&
			    finding_value(fd, "reached", 0) >= FINDINGS_LIMIT_REACHED) {
				char what[64] = "";
				if (bps > 0)
					fmt_rate_si(what, sizeof(what), bps);
				if (iops > 0)
					snprintf(what + strlen(what), sizeof(what) - strlen(what),
						 "%s%.0f IOPS", bps > 0 ? " and " : "", iops);
				snprintf(cap, len, "a cgroup limit of %s on %.0f:%.0f (reached in %s)", what,
					 finding_value(fd, "major", 0), finding_value(fd, "minor", 0),
					 q->labels[i]);
				return;
			}
			/* a cap only "may be" does not make the verdict "capped" */
			if (strcmp(fd->key, "rate_cap") == 0 && finding_value(fd, "confirmed", 0) > 0) {
				fmt_rate_si(rate, sizeof(rate), bps);
				snprintf(cap, len, "a rate cap at %s (in %s: flat throughput, %.1f %% "
					 "of I/Os waiting for the next time slice)", rate, q->labels[i],
					 100 * finding_value(fd, "slow_share", 0));
				return;
			}
		}
}

/* The first virtual disk of the stack names what presents the figures. */
static void gather_virtual(struct quick_figures *f, const struct dev_node *n)
{
	if (!n->is_virtual || f->virt_kind)
		return;
	f->virt_kind = n->virt_kind;
	f->cloud_volume = n->cloud_volume;
}

/* The figures and the identity that the classifier weighs: its ranges are
 * those of one request at a time for sequential figures, and of 32 in
 * flight for small random reads. */
static void gather_figures(struct quick_report *q, const struct devinfo *d)
{
	struct quick_figures *f = &q->figures;
	const struct result *s;
	memset(f, 0, sizeof(*f));
	f->rotational = -1;
	f->nop = strcmp(q->engine, "nop") == 0;
	gather_cap(q, f->cap, sizeof(f->cap));
	if ((s = weighed_step(q, "seqread", 1u << 20, 1, "seq read", f)))
		f->seq_read_bps = result_rate(s);
	f->qd1_cpu = f->qd32_cpu = -1;
	if ((s = weighed_step(q, "randread", 4096, 1, "QD1 read", f))) {
		f->qd1_lat_p50_ns = step_p50(s);
		f->qd1_iops = result_iops(s);
		f->qd1_settled_iops = s->series ? series_ios_rate(s->series, 1) : 0;
		f->qd1_cpu = s->cpu_busiest;
	}
	if ((s = weighed_step(q, "randread", 4096, 32, "QD32 IOPS", f))) {
		f->qd32_iops = result_iops(s);
		f->qd32_settled_iops = s->series ? series_ios_rate(s->series, 1) : 0;
		f->qd32_lat_p50_ns = step_p50(s);
		f->qd32_cpu = s->cpu_busiest;
	}
	f->settled_ios = settled_ios(step_of(q, "randread", 4096, 1));
	double other = settled_ios(step_of(q, "randread", 4096, 32));
	f->settled_ios = f->settled_ios < other ? f->settled_ios : other;
	double round;
	if (!f->cap[0] && classify_flat_cap(f, &round))
		snprintf(f->cap, sizeof(f->cap), "a provisioned cap near %.0f IOPS (%.0f IOPS at 1 "
			 "and at 32 outstanding while latency grew %.0fx)", round,
			 f->qd32_settled_iops > 0 ? f->qd32_settled_iops : f->qd32_iops,
			 f->qd32_lat_p50_ns / f->qd1_lat_p50_ns);
	if ((s = step_of(q, "seqwrite", 1u << 20, 1)))
		f->seq_write_bps = result_rate(s);
	if (!d)
		return;
	f->fs_class = d->fs_class;
	/* a block device whose data live in memory (zram, brd, pmem, null_blk)
	 * runs at memory speed as tmpfs does */
	if (!f->fs_class && d->has_top && d->top.in_ram)
		f->fs_class = "ram";
	if (d->has_top) {
		f->transport = d->top.transport;
		f->is_virtual = d->top.is_virtual || d->top.rotational_unreliable;
		f->rotational = d->top.rotational;
		gather_virtual(f, &d->top);
	}
	for (int i = 0; i < d->nleaves; i++) {
		const struct dev_node *leaf = &d->stack[d->leaves[i]];
		f->is_virtual |= leaf->is_virtual;
		if (i == 0) {
			f->transport = leaf->transport ? leaf->transport : f->transport;
			f->link_kind = leaf->link.kind;
			f->link_speed = leaf->link.speed[0] ? leaf->link.speed : NULL;
			f->link_emulated = leaf->link.emulated;
		}
		gather_virtual(f, leaf);
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

static int pick_engine(const struct options *opt, struct quick_report *q, struct result *r)
{
	const struct engine_ops *ops;
	int code = run_pick_engine(opt, 1, r, &ops);
	if (code != EXIT_OK)
		return code;
	q->engine = ops->name;
	q->max_qd = ops->max_qd;
	return EXIT_OK;
}

/* An interrupted quick prints no result, but says on stderr which steps
 * finished (each one's figures are sound), which was cut short and which
 * never ran. */
static void print_finished_steps(const struct quick_report *q, bool writes)
{
	fputs("diskbench: quick interrupted; its steps (not a result):\n", stderr);
	for (unsigned i = 0, k = 0; i < NSTEPS; i++) {
		char label[sizeof(q->label_text[0])], rate[32], iops[16], p50[24];
		if (quick_steps[i].dir == IO_WRITE && !writes)
			continue;
		step_label(label, sizeof(label), &quick_steps[i], q);
		if (k >= q->nsteps || !q->steps[k].measured) {
			fprintf(stderr, "  %-33s %s\n", label, k < q->nsteps ? "interrupted" : "not run");
			k++;
			continue;
		}
		const struct result *sr = &q->steps[k++];
		fmt_rate_si(rate, sizeof(rate), result_rate(sr));
		fmt_count(iops, sizeof(iops), result_iops(sr));
		fmt_ns(p50, sizeof(p50), step_p50(sr));
		fprintf(stderr, "  %-33s %s, %s IOPS, p50 %s\n", label, rate, iops, p50);
	}
}

/* The share of -t that the write steps take (of TOTAL_SHARE). */
static double write_share(void)
{
	double share = 0;
	for (unsigned i = 0; i < NSTEPS; i++)
		share += quick_steps[i].dir == IO_WRITE ? quick_steps[i].share : 0;
	return share;
}

/* What the run wrote: the layout and each write step, its warm-up I/Os
 * included (NOPs write nothing). */
static uint64_t written(const struct quick_report *q)
{
	uint64_t n = q->laid_out ? q->span : 0;
	for (unsigned i = 0; i < q->nsteps && strcmp(q->engine, "nop") != 0; i++) {
		const struct result *sr = &q->steps[i];
		const struct options *so = &q->opts[i];
		if (sr->dir == IO_WRITE)
			n += sr->bytes + (uint64_t)sr->warmup_ios * so->threads * so->bs;
	}
	return n;
}

/* What each step's run kept (a zoned device's map, say), with quick's. */
static void release_steps(void *report)
{
	struct quick_report *q = report;
	for (unsigned i = 0; i < QUICK_MAX_STEPS; i++)
		result_release(&q->steps[i]);
}

int cmd_run_quick(const struct command *cmd, const struct options *opt, struct result *r)
{
	struct quick_report *q = result_keep(r, sizeof(*q), release_steps);
	struct target t;
	struct options probe = *opt;
	(void)cmd;
	if (!q)
		return fail(r, EXIT_RUN, "cannot allocate quick's figures:");
	q->dd_step = -1;
	r->detail = q;
	q->records = result_keep(r, QUICK_MAX_STEPS * sizeof(*q->records), NULL);
	if (!q->records)
		return fail(r, EXIT_RUN, "cannot allocate quick's records:");
	if (r->fleet && !(q->fleets = result_keep(r, QUICK_MAX_STEPS * sizeof(*q->fleets), NULL)))
		return fail(r, EXIT_RUN, "cannot allocate quick's fleet records:");
	if (opt->time_s <= 0)
		return fail(r, EXIT_USAGE, "quick needs a time to share among its steps: -t SECONDS "
			    "greater than 0");
	q->measure_s = opt->time_s;
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
		code = run_layout(&t, opt, LAYOUT_MAX_S, r, &q->layout_s);
	q->laid_out = code == EXIT_OK && t.created;
	q->span = r->region;
	if (code == EXIT_OK)
		code = pick_engine(opt, q, r);
	if (code == EXIT_OK)
		code = target_open(&t, O_RDONLY, false, r);
	if (code == EXIT_OK)
		run_warn_target(&t, opt, false, r);
	if (code == EXIT_OK && t.created)
		progress_writes(opt, "quick's write steps", q->measure_s * write_share() / TOTAL_SHARE,
				q->span, false);
	for (unsigned i = 0; i < NSTEPS && code == EXIT_OK; i++)
		if (quick_steps[i].dir == IO_READ || t.created)
			code = run_step(&t, &quick_steps[i], q, r);
	progress_clear();
	target_close(&t);
	target_cleanup();
	if (code != EXIT_OK && r->interrupted && q->engine)
		print_finished_steps(q, t.created);
	if (code != EXIT_OK)
		return code;
	q->bytes_written = written(q);
	gather_figures(q, r->device);
	classify(&q->figures, &q->verdict);
	verdict_line(q->line, sizeof(q->line), &q->figures, &q->verdict);
	for (unsigned i = 0; i < q->verdict.nwarnings; i++)
		warn(r, "%s", q->verdict.warnings[i]);
	r->measured = true;
	return EXIT_OK;
}
