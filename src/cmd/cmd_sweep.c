/* sweep: Orion's question — what can this storage do for a database — in a
 * minute.  Small random reads at rising numbers of outstanding I/Os (threads
 * in a closed loop), then large sequential streams; each point a warm-up that
 * is not counted, then --point-time seconds; a budget caps the whole.  Over
 * several targets (Orion's LUNs) the outstanding I/Os are spread over them
 * and the default levels grow with their number. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "multi.h"
#include "names.h"
#include "progress.h"
#include "run_health.h"
#include "runner.h"
#include "sweep.h"
#include "units.h"
#include "util.h"

static const unsigned default_small[] = { 1, 2, 4, 8, 16, 32, 64 };
static const unsigned default_large[] = { 1, 2, 4, 8 };

/* The levels given, or the defaults times the number of targets (Orion's
 * levels grow with its LUNs). */
static void set_levels(struct sweep_series *s, const unsigned *given, unsigned ngiven,
		       const unsigned *fallback, unsigned nfallback, unsigned ntargets)
{
	s->nlevels = ngiven;
	if (ngiven)
		memcpy(s->levels, given, ngiven * sizeof(*given));
	else
		s->nlevels = sweep_scale_levels(fallback, nfallback, ntargets, OPT_MAX_THREADS,
						s->levels);
}

static void define_series(struct sweep_result *sw, const struct options *opt)
{
	const struct sweep_options *o = &opt->sweep;
	bool mixed = o->write_pct > 0;
	unsigned n = opt->ntargets > 1 ? opt->ntargets : 1;
	sw->nseries = 0;
	if (o->run != RUN_DSS) {
		struct sweep_series *s = &sw->series[sw->nseries++];
		s->workload = mixed ? "small_random_mixed" : "small_random_read";
		s->bs = opt->bs;
		set_levels(s, o->levels, o->nlevels, default_small, 7, n);
	}
	if (o->run != RUN_OLTP) {
		struct sweep_series *s = &sw->series[sw->nseries++];
		s->workload = mixed ? "large_seq_mixed" : "large_seq_read";
		s->large = true;
		s->bs = o->large_bs;
		if (o->run == RUN_DSS && o->nlevels)
			set_levels(s, o->levels, o->nlevels, NULL, 0, n);
		else
			set_levels(s, o->large_levels, o->nlarge_levels, default_large, 4, n);
	}
}

/* Several targets: a level that is no multiple of their number loads them
 * unequally (below it, some not at all); say so once. */
static void warn_uneven_levels(const struct sweep_result *sw, unsigned n, struct result *r)
{
	for (unsigned i = 0; i < sw->nseries && n > 1; i++)
		for (unsigned k = 0; k < sw->series[i].nlevels; k++)
			if (sw->series[i].levels[k] % n != 0) {
				warn(r, "%s level %u is no multiple of the %u targets: at such levels "
				     "the targets get unequal shares of the load (below %u some get "
				     "none)", sw->series[i].workload, sw->series[i].levels[k], n, n);
				return;
			}
}

/* Fits the series into --budget, saying what it had to shorten or drop. */
static int plan_sweep(struct sweep_result *sw, const struct options *opt, struct result *r)
{
	const struct sweep_options *o = &opt->sweep;
	double ramp = o->point_s / 4 < 0.5 ? o->point_s / 4 : 0.5;
	unsigned n[2] = { 0, 0 };
	for (unsigned i = 0; i < sw->nseries; i++)
		n[sw->series[i].large] = sw->series[i].nlevels;
	sw->budget_s = o->budget_s;
	/* --curve's points are small points of the budget too, after the levels */
	unsigned curve = n[0] ? o->ncurve : 0;
	if (sweep_plan_budget(o->budget_s, o->point_s, ramp, n[0] + curve, n[1], &sw->plan) != 0 ||
	    (n[0] && sw->plan.nsmall <= curve))
		return fail(r, EXIT_USAGE, "--budget %g s cannot hold one point per series%s "
			    "(at least %g s each)", o->budget_s, curve ? " and the curve's points" : "",
			    (o->point_s < 1 ? o->point_s : 1) + ramp);
	sw->plan.nsmall -= curve;
	for (unsigned i = 0; i < sw->nseries; i++) {
		struct sweep_series *s = &sw->series[i];
		unsigned keep = s->large ? sw->plan.nlarge : sw->plan.nsmall;
		sw->dropped[i] = s->nlevels - keep;
		if (keep < s->nlevels)
			warn(r, "--budget %g s: dropped %s levels above %u", o->budget_s, s->workload,
			     s->levels[keep - 1]);
		s->nlevels = keep;
	}
	if (sw->plan.shortened)
		warn(r, "--budget %g s: points shortened from %g s to %.2f s", o->budget_s, o->point_s,
		     sw->plan.point_s);
	return EXIT_OK;
}

/* Each point from the disk, not from the last one's cache: every target
 * evicted again; the share of all their regions still resident, or -1. */
static double evict_targets(struct multi *m, struct result *r)
{
	double resident = 0;
	uint64_t total = 0;
	bool known = true;
	if (m->n == 1)
		return run_evict_again(&m->t[0], &m->opt, r);
	for (unsigned k = 0; k < m->n; k++) {
		const struct options *each = multi_enter(m, k, r);
		double pct = run_evict_again(&m->t[k], each, r);
		known &= pct >= 0;
		resident += pct * (double)m->region[k];
		total += m->region[k];
		multi_leave(m, k, r);
	}
	multi_measure_view(m, r);
	return known && total ? resident / (double)total : -1;
}

/* A point's run (rc: run_bench's); on a zoned device its reads go below the
 * write pointers, and what it cannot run is refused before any I/O (the
 * exit status).  The sweep's region stays the region asked. */
static int run_point(struct bench_job *job, struct bench_outcome *out, struct multi *m,
		     const struct options *opt, struct result *r, int *rc)
{
	uint64_t region = r->region;
	int code = run_zoned_prepare(m->t, job, opt, r);
	if (code == EXIT_OK)
		*rc = run_bench(job, out, NULL, r);
	run_zoned_finish(job, code == EXIT_OK ? out : NULL, r);
	r->region = region;
	return code;
}

static int measure_point_into(struct bench_outcome *out, struct multi *m,
			      struct sweep_result *sw, struct sweep_series *s, unsigned level,
			      const struct options *opt, struct result *r)
{
	struct bench_job job;
	struct options point = *opt;
	unsigned threads, qd;
	sweep_split_level_targets(level, sw->max_qd, m->n, &threads, &qd);
	point.bs = s->bs;
	point.threads = threads;
	point.qd = qd;
	point.time_s = sw->plan.point_s;
	point.seed = opt->seed + level;
	run_describe_job(&job, IO_READ, s->large ? PAT_SEQ : PAT_RAND, &point,
			 r->region - r->region % s->bs);
	run_job_by_time(&job);
	job.fd = m->t[0].fd;
	multi_job(m, &job);
	job.warmup_s = sw->plan.ramp_s;
	if (sw->write_pct > 0)
		job.mix = mix_read_write(sw->write_pct); /* the mix randrw draws from */
	job.engine = sw->engine;
	r->warmup_ios = job.warmup_ios;
	progress_label(opt, "sweep: %s, %u outstanding", s->workload, level);
	double resident = -1;
	if (!opt->direct) /* each point from the disk, not from the last one's cache */
		resident = evict_targets(m, r);
	int rc = 0, code = run_point(&job, out, m, opt, r, &rc); /* --start-at waits before the first */
	if (code != EXIT_OK)
		return code;
	struct sweep_point *p = &s->points[s->npoints];
	memset(p, 0, sizeof(*p));
	p->level = level;
	p->threads = threads;
	p->qd = qd;
	p->resident_before_pct = resident;
	p->ios = out->ios;
	p->bytes = out->bytes;
	p->writes = out->writes;
	p->seconds = out->seconds;
	stats_summarize(&out->lat, &p->lat);
	stats_log2_counts(&out->lat, p->hist);
	if (s->npoints < s->nlevels) { /* hosts' points merge on it (lat_buckets) */
		s->lat_all[s->npoints] = out->lat;
		p->lat_all = &s->lat_all[s->npoints];
	}
	stats_summarize(&out->lat_read, &p->lat_read);
	stats_log2_counts(&out->lat_read, p->hist_read);
	stats_summarize(&out->lat_write, &p->lat_write);
	stats_log2_counts(&out->lat_write, p->hist_write);
	r->bytes += out->bytes;
	r->ios += out->ios;
	r->seconds += out->seconds;
	if (rc != 0 && out->failed_why[0]) /* the engine could not start: its own reason */
		return fail(r, EXIT_RUN, "%s", out->failed_why);
	const struct target *t = &m->t[m->n > 1 ? out->failed_target : 0];
	if (rc != 0)
		return fail(r, EXIT_RUN, "%s '%s' at offset %llu: %s", out->failed_op, t->path,
			    (unsigned long long)out->failed_offset, strerror(out->error));
	if (out->stopped) {
		s->stopped = "interrupted";
		r->interrupted = true;
		return fail(r, EXIT_SIGINT, "during the sweep");
	}
	s->npoints++;
	if (p->ios < 1000)
		warn(r, "%s at %u outstanding: only %llu I/Os, so p99 and above rest on few samples",
		     s->workload, level, (unsigned long long)p->ios);
	return EXIT_OK;
}

/* One point, its outcome on the heap (large), gone once its figures are in s. */
static int measure_point(struct multi *m, struct sweep_result *sw, struct sweep_series *s,
			 unsigned level, const struct options *opt, struct result *r)
{
	struct bench_outcome *out = calloc(1, sizeof(*out));
	if (!out)
		return fail(r, EXIT_RUN, "cannot allocate the result of a point:");
	int code = measure_point_into(out, m, sw, s, level, opt, r);
	free(out);
	return code;
}

static int run_series(struct multi *m, struct sweep_result *sw, struct sweep_series *s,
		      const struct options *opt, struct result *r)
{
	for (unsigned i = 0; i < s->nlevels; i++) {
		int code = measure_point(m, sw, s, s->levels[i], opt, r);
		if (code != EXIT_OK)
			return code;
		if (sweep_saturated(s) && i + 1 < s->nlevels) {
			s->stopped = "saturated";
			break;
		}
	}
	return EXIT_OK;
}

/* One point of --curve: open loop at pct % of the small series' max IOPS,
 * with that point's threads and queue as the cap, warmed up as a point is. */
static int measure_curve_into(struct bench_outcome *out, struct multi *m, struct sweep_result *sw,
			      const struct sweep_point *max, unsigned pct,
			      const struct options *opt, struct result *r)
{
	struct bench_job job;
	struct options point = *opt;
	const struct sweep_series *s = &sw->series[0];
	point.bs = s->bs;
	point.threads = max->threads;
	point.qd = max->qd;
	point.time_s = sw->plan.point_s;
	point.seed = opt->seed + 1000 + pct;
	point.rate = sw->curve_max_iops * pct / 100;
	run_describe_job(&job, IO_READ, PAT_RAND, &point, r->region - r->region % s->bs);
	run_job_by_time(&job);
	job.fd = m->t[0].fd;
	multi_job(m, &job);
	job.warmup_s = sw->plan.ramp_s;
	if (sw->write_pct > 0)
		job.mix = mix_read_write(sw->write_pct); /* the points' mix */
	job.engine = sw->engine;
	progress_label(opt, "sweep: curve, %u %% of the max IOPS", pct);
	if (!opt->direct)
		evict_targets(m, r);
	int rc = 0, code = run_point(&job, out, m, opt, r, &rc);
	if (code != EXIT_OK)
		return code;
	if (rc != 0)
		return fail(r, EXIT_RUN, "curve at %u %%: %s: %s", pct, out->failed_op,
			    out->failed_why[0] ? out->failed_why : strerror(out->error));
	if (out->stopped) {
		r->interrupted = true;
		return fail(r, EXIT_SIGINT, "during the sweep's curve");
	}
	struct sweep_curve_point *c = &sw->curve[sw->ncurve++];
	*c = (struct sweep_curve_point){ .pct = pct, .asked = point.rate, .ios = out->ios,
					 .late_ios = out->late_ios, .unserved = out->unserved,
					 .seconds = out->seconds };
	stats_summarize(&out->lat, &c->response);
	stats_summarize(&out->lat_service, &c->service);
	r->bytes += out->bytes;
	r->ios += out->ios;
	r->seconds += out->seconds;
	return EXIT_OK;
}

/* --curve: vdbench's curve, open loop, once the small series found its max. */
static int run_curve(struct multi *m, struct sweep_result *sw, const struct options *opt,
		     struct result *r)
{
	const struct sweep_series *s = &sw->series[0];
	int best = s->large ? -1 : sweep_max_iops(s);
	if (opt->sweep.ncurve == 0 || best < 0)
		return EXIT_OK;
	const struct sweep_point *max = &s->points[best];
	sw->curve_max_iops = sweep_iops(max);
	sw->curve_outstanding = max->level;
	struct bench_outcome *out = calloc(1, sizeof(*out));
	if (!out)
		return fail(r, EXIT_RUN, "cannot allocate the result of a point:");
	int code = EXIT_OK;
	for (unsigned i = 0; i < opt->sweep.ncurve && code == EXIT_OK; i++)
		code = measure_curve_into(out, m, sw, max, opt->sweep.curve[i], opt, r);
	free(out);
	return code;
}

/* Both block sizes must suit O_DIRECT, and the file must hold a large block. */
static int check_sizes(struct target *t, const struct sweep_result *sw, const struct options *opt,
		       struct result *r)
{
	struct options large = *opt;
	for (unsigned i = 0; i < sw->nseries; i++) {
		if (r->region < sw->series[i].bs)
			return fail(r, EXIT_USAGE, "'%s' is smaller than one %s block",
				    t->path, sw->series[i].workload);
		large.bs = sw->series[i].bs;
		int code = run_check_direct(t, &large, r);
		if (code != EXIT_OK)
			return code;
	}
	return EXIT_OK;
}

static int open_for_sweep(struct target *t, const struct options *opt, struct result *r)
{
	if (opt->sweep.write_pct == 0)
		return target_open(t, O_RDONLY, opt->direct, r);
	if (opt->sync == SYNC_FSYNC)
		return fail(r, EXIT_USAGE, "--sync=fsync does not apply to sweep: use dsync or none");
	int flags = O_RDWR | sync_open_flag(opt->sync);
	return target_open(t, flags, opt->direct, r);
}

/* Target k's steps before anything is opened for the sweep. */
static int prepare_target(const struct sweep_result *sw, struct multi *m, unsigned k,
			  struct result *r)
{
	struct target *t = &m->t[k];
	const struct options *opt = multi_enter(m, k, r);
	int code = run_prepare(t, opt, r);
	if (code == EXIT_OK)
		code = run_plan_region(t, opt, false, r); /* never past an existing file's end */
	if (code == EXIT_OK)
		code = check_sizes(t, sw, opt, r);
	if (code == EXIT_OK && sw->write_pct == 0)
		code = run_check_data(t, opt, r);
	if (code == EXIT_OK && t->created)
		code = run_layout(t, opt, 0, r, NULL);
	multi_leave(m, k, r);
	return code;
}

/* Every planned point's whole histogram, in one block (a result keeps few):
 * its lat_buckets, which `diskbench report` adds up across hosts. */
static int keep_latencies(struct sweep_result *sw, struct result *r)
{
	unsigned n = 0;
	for (unsigned i = 0; i < sw->nseries; i++)
		n += sw->series[i].nlevels;
	struct stats *all = result_keep(r, (n ? n : 1) * sizeof(*all), NULL);
	if (!all)
		return -1;
	for (unsigned i = 0; i < sw->nseries; i++) {
		sw->series[i].lat_all = all;
		all += sw->series[i].nlevels;
	}
	return 0;
}

int cmd_run_sweep(const struct command *cmd, const struct options *opt, struct result *r)
{
	struct sweep_result *sw = result_keep(r, sizeof(*sw), NULL);
	struct multi *m;
	bool writes = opt->sweep.write_pct > 0;
	(void)cmd; /* one row, no variants */
	if (!sw)
		return fail(r, EXIT_RUN, "cannot allocate the sweep's figures:");
	r->detail = sw;
	sw->write_pct = opt->sweep.write_pct;
	sw->max_latency_ns = opt->sweep.max_latency_ns;
	sw->max_latency_pct = opt->sweep.max_latency_pct;
	define_series(sw, opt);
	int code = plan_sweep(sw, opt, r);
	if (code != EXIT_OK)
		return code;
	if (keep_latencies(sw, r) != 0)
		return fail(r, EXIT_RUN, "cannot allocate the points' latencies:");
	if (writes)
		r->dir = IO_WRITE; /* safety rules and reporting of writes apply */
	code = multi_begin(&m, opt, r);
	if (code == EXIT_OK)
		code = run_pick_engine(opt, 1, r, &sw->engine);
	sw->max_qd = code == EXIT_OK ? sw->engine->max_qd : 1;
	for (unsigned k = 0; code == EXIT_OK && k < m->n; k++)
		code = prepare_target(sw, m, k, r);
	/* all open before any is written: a device in use refuses the run untouched */
	for (unsigned k = 0; code == EXIT_OK && k < m->n; k++)
		code = open_for_sweep(&m->t[k], &m->opt, r);
	if (code == EXIT_OK) {
		multi_ready(m, writes, true, r);
		warn_uneven_levels(sw, m->n, r);
		run_health_before(r);
		for (unsigned i = 0; i < sw->nseries && code == EXIT_OK; i++)
			code = run_series(m, sw, &sw->series[i], &m->opt, r);
		if (code == EXIT_OK)
			code = run_curve(m, sw, &m->opt, r);
		progress_clear();
		run_health_after_moved(r, NULL, writes, "each point's ramp-up is not counted, so "
				       "the bytes the sweep moved are not known");
		run_health_check(r);
		r->measured = code == EXIT_OK;
		multi_finish(m, r);
	}
	multi_close(m);
	target_cleanup();
	return code;
}
