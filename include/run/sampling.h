/* The main thread's side of a measured run: one sampler that feeds both the
 * progress line (about once a second) and the per-interval series (every
 * --interval), and, after the run, what the series shows (detect.h) turned
 * into warnings and findings by findings.h.  A runner room: runner.c's
 * run_measure calls it. */
#ifndef SAMPLING_H
#define SAMPLING_H

#include <stdbool.h>

#include "bench.h"
#include "diskbench.h"

#define SAMPLING_INTERVAL_DEFAULT 1.0
#define SAMPLING_INTERVAL_MIN 0.1
#define SAMPLING_INTERVAL_MAX 60.0

struct sampling {
	struct bench_sampler sampler;  /* what bench_run gets */
	struct bench_sampler progress; /* progress.c's printer, when shown */
	bool show_progress;
	double next_progress_s;
	struct run_record *record;     /* the result's, when it keeps a series */
	struct series *series;         /* NULL: the command keeps no series */
	unsigned per_sample, calls;    /* sampler calls per series interval */
	unsigned checked;              /* samples the steady check has seen */
};

/* Sets sm up for the run of r->test and prepares r->record (when the
 * command gave one); for commands that take --interval, points r->series at
 * the record's series; returns the sampler to give bench_run, or NULL when
 * neither progress nor a series is wanted. */
const struct bench_sampler *sampling_begin(struct sampling *sm, const struct options *opt,
					   struct result *r, bool show_progress);
/* After a run that measured, its record closed: drops an interval the run
 * ended in (the sampler may tick once more while the threads finish; its
 * clock began sampler_lead_s before the run's, bench_outcome says), points
 * r->device_io at the disks' counters, and has the findings judged
 * (findings.h). */
void sampling_finish(const struct options *opt, struct result *r, double sampler_lead_s);

#endif
