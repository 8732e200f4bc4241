#include "sampling.h"

#include <math.h>
#include <string.h>
#include <stddef.h>
#include <stdio.h>

#include "checks.h"
#include "clock.h"
#include "detect.h"
#include "devinfo_host.h"
#include "devinfo_stat.h"
#include "finding.h"
#include "progress.h"
#include "series.h"
#include "units.h"
#include "util.h"

/* one run per process keeps a series: it lives here, not in the result,
 * so the result stays small and the memory fixed however long the run */
static struct series sampling_series;
static struct devio sampling_devio;
static uint64_t devio_t0;
static struct temp_track sampling_temps[SAMPLING_TEMP_DISKS];
static struct hwmon_sensor sampling_sensors[SAMPLING_TEMP_DISKS];
static unsigned sampling_ntemps;

static void read_temps(double t_s)
{
	double c;
	for (unsigned i = 0; i < sampling_ntemps; i++)
		if (hwmon_read_c(&sampling_sensors[i], &c) == 0)
			temp_track_add(&sampling_temps[i], t_s, c);
}

/* Finds the sensors of the leaves of d and takes a first reading. */
static void begin_temps(const struct devinfo *d, struct result *r)
{
	sampling_ntemps = 0;
	for (int i = 0; d && i < d->nleaves && sampling_ntemps < SAMPLING_TEMP_DISKS; i++) {
		const struct dev_node *n = &d->stack[d->leaves[i]];
		struct hwmon_sensor *s = &sampling_sensors[sampling_ntemps];
		if (n->sysfs_path[0] && hwmon_find(n->sysfs_path, s) == 0)
			temp_track_init(&sampling_temps[sampling_ntemps++], n->name, s->max_c, s->crit_c);
	}
	read_temps(0.0);
	r->temps = sampling_temps;
	r->ntemps = sampling_ntemps;
}

static void on_sample(void *ctx, const struct bench_sample *b)
{
	struct sampling *sm = ctx;
	if (sm->series && ++sm->calls % sm->per_sample == 0) {
		series_add_cumulative_lat(sm->series, b->elapsed_s, b->bytes, b->ios, b->lat);
		read_temps(b->elapsed_s);
	}
	if (sm->show_progress && b->elapsed_s >= sm->next_progress_s) {
		sm->progress.fn(sm->progress.ctx, b);
		sm->next_progress_s = floor(b->elapsed_s) + 1.0;
	}
}

/* --sustained: the run may end once the last intervals are steady */
static bool steady_now(void *ctx)
{
	struct sampling *sm = ctx;
	struct steady c;
	if (sm->series->n == sm->checked)
		return false;
	sm->checked = sm->series->n;
	return detect_steady(sm->series, &c);
}

const struct bench_sampler *sampling_begin(struct sampling *sm, const struct options *opt,
					   struct result *r, bool show_progress)
{
	double interval = opt->interval_s > 0 ? opt->interval_s : SAMPLING_INTERVAL_DEFAULT;
	*sm = (struct sampling){ .show_progress = show_progress, .next_progress_s = 1.0,
				 .per_sample = 1 };
	progress_sampler(&sm->progress, r->test);
	if (opt->accepts & OPT_INTERVAL) {
		series_init(&sampling_series, interval);
		sm->series = &sampling_series;
		r->series = &sampling_series;
		devio_begin(&sampling_devio, r->device, devinfo_default_roots()->sysfs);
		devio_t0 = clock_ns();
		begin_temps(r->device, r);
	}
	if (!sm->series && !show_progress)
		return NULL;
	/* the sampler ticks at least once a second for the progress line; a
	 * longer interval is that many ticks */
	sm->per_sample = sm->series ? (unsigned)ceil(interval / 1.0 - 1e-9) : 1;
	sm->sampler.interval_s = sm->series ? interval / sm->per_sample : 1.0;
	sm->sampler.fn = on_sample;
	sm->sampler.ctx = sm;
	sm->sampler.done = sm->series && opt->sustained ? steady_now : NULL;
	return &sm->sampler;
}

static void report_cliff(const struct cliff *c, struct result *r)
{
	char from[32], to[32], moved[32];
	bool write = r->dir == IO_WRITE;
	fmt_rate_si(from, sizeof(from), c->burst_rate);
	fmt_rate_si(to, sizeof(to), c->sustained_rate);
	fmt_bytes_si(moved, sizeof(moved), c->at_bytes);
	warn(r, "throughput fell from %s to %s after %s %s (t = %.*f s): %s; the sustained "
	     "figure is %s", from, to, moved, write ? "written" : "read",
	     r->series->interval_s < 1 ? 1 : 0, c->at_s,
	     write ? "a write cache (SLC) or burst credits ran out"
		   : "burst credits ran out, or a cache or throttle in front of the disk took over",
	     to);
	struct finding *f = finding_add(r, "cliff");
	finding_figure(f, "at_s", c->at_s, 3);
	finding_figure(f, "at_bytes", (double)c->at_bytes, 0);
	finding_figure(f, "burst_bytes_per_sec", c->burst_rate, 1);
	finding_figure(f, "sustained_bytes_per_sec", c->sustained_rate, 1);
	finding_figure(f, "baseline_bytes_per_sec", c->baseline, 1);
}

static void report_unsteady(const struct series *s, unsigned from, double cv,
			    const struct options *opt, struct result *r)
{
	struct series_summary sum;
	char lo[32], hi[32];
	series_summarize(s, from, s->n, &sum);
	fmt_rate_si(lo, sizeof(lo), sum.min);
	fmt_rate_si(hi, sizeof(hi), sum.max);
	warn(r, "throughput was unsteady: from %s to %s per %g s (coefficient of variation "
	     "%.0f %% over %u intervals%s): one run is not a figure to bet on; measure for "
	     "longer%s or repeat the run", lo, hi, s->interval_s, cv * 100, sum.n,
	     from > 0 ? ", after the drop" : "", opt_hint(opt, OPT_TIME, " (-t)"));
	struct finding *f = finding_add(r, "unsteady");
	finding_figure(f, "cv", cv, 3);
	finding_figure(f, "intervals", sum.n, 0);
	finding_figure(f, "interval_s", s->interval_s, 3);
	finding_figure(f, "min_bytes_per_sec", sum.min, 1);
	finding_figure(f, "max_bytes_per_sec", sum.max, 1);
}

static void join_leaves(const struct devio *io, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < io->n && used < len; i++)
		if (io->leaf[i].ok)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
						 io->leaf[i].name);
}

/* What the disks below saw against what diskbench moved: far less on a read
 * means a cache served it; far more on a write means amplification. */
static void check_device(const struct devio *io, struct result *r)
{
	char names[256], moved[32], seen[32];
	bool write = r->dir == IO_WRITE;
	uint64_t dev = write ? devio_write_bytes(io) : devio_read_bytes(io);
	double ratio = r->bytes > 0 ? (double)dev / (double)r->bytes : 0;
	unsigned leaves = devio_count(io);
	if (leaves == 0 || r->bytes < SAMPLING_DEVICE_MIN_BYTES)
		return;
	join_leaves(io, names, sizeof(names));
	fmt_bytes_si(moved, sizeof(moved), r->bytes);
	fmt_bytes_si(seen, sizeof(seen), dev);
	if (!write && ratio < SAMPLING_DEVICE_READ_SHARE) {
		warn(r, "only %.*f %% of the bytes read reached %s (%s of %s): a cache between "
		     "diskbench and the disk served the rest", ratio < 0.1 ? 1 : 0, ratio * 100, names,
		     seen, moved);
		struct finding *f = finding_add(r, "device_saw_less");
		finding_figure(f, "device_bytes", (double)dev, 0);
		finding_figure(f, "bytes", (double)r->bytes, 0);
		finding_figure(f, "share", ratio, 3);
	} else if (write && ratio > SAMPLING_DEVICE_WRITE_TIMES * leaves) {
		warn(r, "%s wrote %.1f times the bytes diskbench wrote (%s for %s): journaling, "
		     "copy-on-write, RAID parity or other writers on the disk", names, ratio, seen,
		     moved);
		struct finding *f = finding_add(r, "device_wrote_more");
		finding_figure(f, "device_bytes", (double)dev, 0);
		finding_figure(f, "bytes", (double)r->bytes, 0);
		finding_figure(f, "ratio", ratio, 3);
	}
}

/* --sustained: the burst and the steady rate the run ended on, or that it
 * ended before the rate settled. */
static void report_sustained(const struct options *opt, struct result *r)
{
	struct steady c;
	char burst[32], rate[32];
	bool steady = detect_steady(r->series, &c);
	fmt_rate_si(burst, sizeof(burst), c.burst_rate);
	fmt_rate_si(rate, sizeof(rate), c.rate);
	if (steady)
		warn(r, "sustained: %s, steady from t = %.0f s (the last %u intervals drift %.1f %%); "
		     "the burst was %s", rate, c.from_s, DETECT_STEADY_WINDOW, c.change * 100, burst);
	else
		warn(r, "the rate was not steady by the end of the run%s: the sustained figure may "
		     "be lower than this one; run longer%s", r->series->n < DETECT_STEADY_WINDOW
		     ? " (too few intervals to tell)" : "", opt_hint(opt, OPT_TIME, " (-t)"));
	struct finding *f = finding_add(r, "sustained");
	finding_figure(f, "steady", steady, 0);
	finding_figure(f, "steady_from_s", c.from_s, 3);
	finding_figure(f, "sustained_bytes_per_sec", c.rate, 1);
	finding_figure(f, "burst_bytes_per_sec", c.burst_rate, 1);
	finding_figure(f, "drift", c.change, 4);
}

/* A drop in throughput while a disk got hot: thermal throttling. */
static void check_heat(bool dropped, struct result *r)
{
	struct heat h;
	for (unsigned i = 0; i < sampling_ntemps; i++) {
		const struct temp_track *t = &sampling_temps[i];
		if (!detect_heat(t, dropped, &h))
			continue;
		char limit[64] = "";
		if (h.limit_c > 0)
			snprintf(limit, sizeof(limit), ", reaching its limit of %.0f C", h.limit_c);
		warn(r, "throughput fell while %s heated from %.0f C to %.0f C%s (t = %.0f s): the "
		     "drive slows itself down when hot (thermal throttling); cool it, or quote the "
		     "sustained figure", t->name, h.first_c, h.peak_c, limit, h.peak_t_s);
		struct finding *f = finding_add(r, "heat");
		finding_figure(f, "first_c", h.first_c, 1);
		finding_figure(f, "peak_c", h.peak_c, 1);
		finding_figure(f, "peak_t_s", h.peak_t_s, 3);
		finding_figure(f, "limit_c", h.limit_c, 1);
	}
}

void sampling_finish(const struct options *opt, struct result *r, double sampler_lead_s)
{
	/* the run's clock starts at the first counted I/O, sampler_lead_s after the
	 * sampler's; the slack covers the threads' own start-up */
	static const double slack_s = 0.005;
	struct cliff c;
	double cv;
	if (!r->series)
		return;
	series_trim(&sampling_series, sampler_lead_s + r->seconds + slack_s);
	bool cliff = detect_cliff(r->series, &c);
	if (cliff)
		report_cliff(&c, r);
	/* after a cliff, the variation the drop explains is not unsteadiness */
	unsigned from = cliff ? c.at : 0;
	if (detect_unsteady(r->series, from, &cv))
		report_unsteady(r->series, from, cv, opt, r);
	check_heat(cliff, r);
	if (opt->sustained)
		report_sustained(opt, r);
	checks_rate_cap(opt, r);
	checks_cgroup(r);
	checks_cpu(opt, r);
	/* the last, shorter interval: kept, flagged, weighed by no check */
	series_close(&sampling_series, sampler_lead_s + r->seconds, r->bytes, r->ios);
	devio_end(&sampling_devio, devinfo_default_roots()->sysfs,
		  (double)(clock_ns() - devio_t0) / 1e9);
	if (devio_count(&sampling_devio) > 0) {
		r->device_io = &sampling_devio;
		check_device(&sampling_devio, r);
	}
}
