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

void sampling_finish(const struct options *opt, struct result *r, double sampler_lead_s)
{
	/* the run's clock starts at the first counted I/O, sampler_lead_s after the
	 * sampler's; the slack covers the threads' own start-up */
	static const double slack_s = 0.005;
	struct run_record *rec = r->record;
	if (!rec || !rec->sampled)
		return;
	series_trim(&rec->series, sampler_lead_s + r->seconds + slack_s);
	if (devio_count(&rec->devio) > 0)
		r->device_io = &rec->devio;
	findings_judge(opt, r);
}
