/* The main thread's side of a measured run: one sampler that feeds both the
 * progress line (about once a second) and the per-interval series (every
 * --interval), and, after the run, what the series shows (detect.h) turned
 * into warnings and findings.  A runner room: runner.c's run_measure calls it. */
#ifndef SAMPLING_H
#define SAMPLING_H

#include <stdbool.h>

#include "bench.h"
#include "diskbench.h"

#define SAMPLING_INTERVAL_DEFAULT 1.0
#define SAMPLING_INTERVAL_MIN 0.1
#define SAMPLING_INTERVAL_MAX 60.0

/* Disks whose temperature is followed (the first leaves with a sensor). */
#define SAMPLING_TEMP_DISKS 4

struct sampling {
	struct bench_sampler sampler;  /* what bench_run gets */
	struct bench_sampler progress; /* progress.c's printer, when shown */
	bool show_progress;
	double next_progress_s;
	struct series *series;         /* NULL: the command keeps no series */
	unsigned per_sample, calls;    /* sampler calls per series interval */
	unsigned checked;              /* samples the steady check has seen */
};

/* Runs that moved fewer bytes are not compared with the disks' counters
 * (metadata and other processes' I/O would swamp them). */
#define SAMPLING_DEVICE_MIN_BYTES (8u << 20)
/* A read test warns below this share reaching the disks; a write test
 * above this many times the bytes per disk. */
#define SAMPLING_DEVICE_READ_SHARE 0.5
#define SAMPLING_DEVICE_WRITE_TIMES 3.0

/* Sets sm up for the run of r->test and, for commands that take --interval,
 * points r->series at the series and reads the counters of the disks under
 * the target (r->device's leaves); returns the sampler to give bench_run, or
 * NULL when neither progress nor a series is wanted. */
const struct bench_sampler *sampling_begin(struct sampling *sm, const struct options *opt,
					   struct result *r, bool show_progress);
/* After a run that measured: drops an interval the run ended in (the
 * sampler may tick once more while the threads finish; its clock began
 * sampler_lead_s before the run's, bench_outcome says), then the cliff and
 * unsteady checks over the series, and the disks' counters read again into
 * r->device_io and compared with what diskbench moved; each check that
 * fires is a warning in r and a finding. */
void sampling_finish(const struct options *opt, struct result *r, double sampler_lead_s);

#endif
