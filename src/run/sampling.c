#include "sampling.h"

#include <math.h>
#include <string.h>
#include <stddef.h>
#include <stdio.h>

#include "detect.h"
#include "findings.h"
#include "progress.h"
#include "run_record.h"
#include "series.h"

static void on_sample(void *ctx, const struct bench_sample *b)
{
	struct sampling *sm = ctx;
	if (sm->series && ++sm->calls % sm->per_sample == 0) {
		series_add_cumulative_lat(sm->series, b->elapsed_s, b->bytes, b->ios, b->lat);
		run_record_temps(sm->record, b->elapsed_s);
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
	bool sampled = (opt->accepts & OPT_INTERVAL) && r->record;
	if (r->record)
		run_record_prepare(r->record, r->device, sampled, interval);
	if (sampled) {
		sm->record = r->record;
		sm->series = &r->record->series;
		r->series = sm->series;
		r->temps = r->record->temps;
		r->ntemps = r->record->ntemps;
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

/* The name of the stack node with device number majmin, or "". */
static const char *node_name(const struct devinfo *d, const char *majmin)
{
	for (int i = 0; d && i < d->nstack; i++)
		if (strcmp(d->stack[i].majmin, majmin) == 0)
			return d->stack[i].name;
	return "";
}

/* The record as the judgements see it: the disks read, the limits in the
 * run's direction; disks and limits are the caller's arrays. */
static void view_of(const struct run_record *rec, bool write, struct findings_view *v,
		    struct findings_disk disks[DEVINFO_MAX_NODES],
		    struct findings_limit limits[CGROUP_MAX_DEVICES])
{
	*v = (struct findings_view){ .series = &rec->series, .temps = rec->temps,
				     .ntemps = rec->ntemps, .disks = disks, .limits = limits };
	for (unsigned i = 0; i < rec->devio.n; i++) {
		const struct devio_leaf *l = &rec->devio.leaf[i];
		if (l->ok)
			disks[v->ndisks++] = (struct findings_disk){
				l->name, l->delta.read_sectors * 512, l->delta.write_sectors * 512 };
	}
	for (unsigned i = 0; i < rec->limits.n && i < CGROUP_MAX_DEVICES; i++) {
		const struct cgroup_limit *l = &rec->limits.dev[i];
		limits[v->nlimits++] = (struct findings_limit){
			l->majmin, node_name(rec->device, l->majmin), l->value[write ? CG_WBPS : CG_RBPS],
			l->value[write ? CG_WIOPS : CG_RIOPS], l->version };
	}
}

void sampling_finish(const struct options *opt, struct result *r, double sampler_lead_s)
{
	/* the run's clock starts at the first counted I/O, sampler_lead_s after the
	 * sampler's; the slack covers the threads' own start-up */
	static const double slack_s = 0.005;
	struct findings_disk disks[DEVINFO_MAX_NODES];
	struct findings_limit limits[CGROUP_MAX_DEVICES];
	struct findings_view view;
	struct run_record *rec = r->record;
	if (!rec || !rec->sampled || !rec->close_ns)
		return;
	series_trim(&rec->series, sampler_lead_s + r->seconds + slack_s);
	/* the last, shorter interval: kept, flagged, weighed by no check */
	series_close(&rec->series, sampler_lead_s + r->seconds, r->bytes, r->ios);
	if (devio_count(&rec->devio) > 0)
		r->device_io = &rec->devio;
	snprintf(r->cpu_governor, sizeof(r->cpu_governor), "%s", rec->cpu_governor);
	view_of(rec, r->dir == IO_WRITE, &view, disks, limits);
	view.counted_from_s = sampler_lead_s;
	findings_judge(opt, &view, r);
}
