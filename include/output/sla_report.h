/* sla (issue 30): the most IOPS a test serves with its response time inside
 * a target, found by a closed-loop probe for the ceiling, then open-loop
 * steps bisecting below it, then a confirm run; what cmd_sla.c measures and
 * output_sla.c prints. */
#ifndef SLA_REPORT_H
#define SLA_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diskbench.h"

#define SLA_MAX_STEPS 12 /* the probe, ten steps, the confirm run */

enum sla_step_kind { SLA_PROBE, SLA_STEP, SLA_CONFIRM };

struct sla_step {
	unsigned n;                /* from 1; the probe is step 0 */
	enum sla_step_kind kind;
	double asked, served;      /* IOPS; asked 0: the probe (closed loop) */
	double seconds;
	uint64_t ios, late_ios, unserved, max_lag_ns;
	/* response time, from when each I/O was due (the probe: from submission) */
	double p50_ns, p99_ns, p99_9_ns, mean_ns;
	double judged_ns;          /* the target's percentile (or the mean) of it */
	double service_p99_ns;
	bool known;                /* the judged percentile is not among the unserved's */
	bool pass;
};

struct sla_report {
	const char *test;
	double latency_ns, pct;    /* the target: pct 0 means the mean */
	double step_s, warmup_s;
	unsigned in_flight;        /* qd x threads: the probe's depth, the steps' cap */
	double ceiling_iops;       /* the probe's */
	double found_iops;         /* 0: not found */
	unsigned found_step;       /* the step that served it */
	bool found, confirmed;     /* found, not confirmed: exit 6 */
	struct sla_step steps[SLA_MAX_STEPS];
	unsigned nsteps;
};

/* "p99", "p99.9", "mean" */
void sla_pct_name(char *buf, size_t len, double pct);
/* Why a step failed, as its line and the error say it: "p99 24.8 ms >
 * 20.0 ms", "p99 unknown: 148 of the 196 I/Os due never started" (more
 * than the percentile leaves above it), "no I/O completed in it". */
void sla_step_missed(char *buf, size_t len, const struct sla_report *rep,
		     const struct sla_step *st);
/* A step as the text prints it when it ends. */
void sla_step_text(FILE *f, const struct sla_report *rep, const struct sla_step *st);

#endif
