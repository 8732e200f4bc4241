/* steady (issue 29): rounds of one test until SNIA PTS's steady-state
 * criterion holds over the last rounds, optionally after preconditioning
 * and held for more rounds; what cmd_steady.c measures and output_steady.c
 * prints. */
#ifndef STEADY_REPORT_H
#define STEADY_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "diskbench.h"
#include "steady.h"

/* One round: its figures, and the window that ends at it. */
struct steady_round {
	unsigned n;                 /* from 1 */
	double t_start_s, seconds;  /* since round 1 began; its measured time */
	uint64_t ios, bytes;
	double iops, bytes_per_sec;
	double lat_mean_ns, lat_p50_ns, lat_p99_ns;
	double value;               /* the metric's figure */
	struct steady_window window; /* judged at its end (first 0: too few rounds yet) */
	bool hold;                  /* a --hold round, judged against the steady window */
	double off_pct;             /* hold: its distance from the steady window's mean, % */
};

struct steady_precondition {
	unsigned passes;
	unsigned qd;          /* requests in flight: 32, or the engine's fewer (sync: 1) */
	uint64_t bytes;
	double seconds, bytes_per_sec;
	double pass_bytes_per_sec[8]; /* the first passes' rates, from the series */
	unsigned npass_rates;
	uint64_t tail_bytes;  /* the region past its whole 128 KiB blocks, a request each pass */
	double passes_done;   /* bytes written over the region's: the passes asked, once done */
};

struct steady_report {
	const char *test;           /* the test run in rounds */
	enum steady_metric metric;  /* resolved: never METRIC_AUTO */
	struct steady_limits lim;
	double round_s;
	unsigned max_rounds, hold;
	struct steady_round *rounds; /* STEADY_MAX_ROUNDS */
	unsigned nrounds;
	bool attained;
	struct steady_window steady; /* the window that attained it */
	bool left;                  /* a hold round fell outside its band */
	unsigned left_round;
	double left_value, left_off_pct;
	bool preconditioned;
	struct steady_precondition pre;
};

const char *steady_metric_name(enum steady_metric m); /* "iops", "bw", "lat" */
/* A figure of the metric as the text says it: "41.2k IOPS", "1.23 GB/s",
 * "310 us mean latency". */
void steady_metric_text(char *buf, size_t len, enum steady_metric m, double v);
/* --jsonl: round n (its result, with its own fleet record and times) as a
 * line of its own, a record like a single test's with "command": "steady"
 * and "step": "round N", so that `diskbench report` merges each round
 * across hosts; printed as the round ends. */
void steady_round_line(FILE *f, const struct result *round, unsigned n);

#endif
