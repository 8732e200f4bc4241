/* The load sweep's arithmetic, kept pure for tests: points measured at
 * rising numbers of outstanding I/Os, and what Orion reports from them —
 * maximum IOPS, minimum latency, the knee, saturation — plus the budget
 * plan and the parsers of --levels and --max-latency. */
#ifndef SWEEP_H
#define SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"

#define SWEEP_MAX_LEVELS 32

struct sweep_point {
	unsigned level;         /* outstanding I/Os: threads x qd, in a closed loop */
	unsigned threads, qd;   /* how the level was made */
	uint64_t ios, bytes, writes;
	double seconds;
	struct stats_summary lat;
	uint64_t hist[STATS_LOG2_BUCKETS];
	const struct stats *lat_all; /* every latency, for lat_buckets (NULL: not kept) */
	double resident_before_pct; /* through the page cache only; < 0: not measured */
	/* a mixed point (write_pct > 0): reads and writes apart, as fio keeps them */
	struct stats_summary lat_read, lat_write;
	uint64_t hist_read[STATS_LOG2_BUCKETS], hist_write[STATS_LOG2_BUCKETS];
};

struct sweep_series {
	const char *workload;   /* "small_random_read", "large_seq_read", ... */
	bool large;             /* judged by MB/s rather than IOPS */
	uint64_t bs;
	unsigned levels[SWEEP_MAX_LEVELS];
	unsigned nlevels;       /* planned (after the budget) */
	struct sweep_point points[SWEEP_MAX_LEVELS];
	unsigned npoints;       /* measured */
	struct stats *lat_all;  /* nlevels: each point's whole histogram (its lat_all) */
	const char *stopped;    /* NULL, "saturated", "interrupted" */
};

struct sweep_plan {
	double point_s, ramp_s;
	unsigned nsmall, nlarge;   /* levels kept in each series */
	bool shortened;            /* point time cut to fit the budget */
};

struct engine_ops;

/* --curve (vdbench's curve, issue 30): an open-loop point at pct % of the
 * small series' max IOPS, at that point's in-flight cap. */
struct sweep_curve_point {
	unsigned pct;
	double asked;              /* IOPS */
	uint64_t ios, late_ios, unserved;
	double seconds;
	struct stats_summary response, service;
};

/* A whole sweep: one or two series and the plan that shaped them. */
struct sweep_result {
	struct sweep_series series[2];
	unsigned nseries;
	struct sweep_plan plan;
	double budget_s;
	double max_latency_ns, max_latency_pct; /* ns 0: not asked */
	unsigned write_pct;
	unsigned dropped[2];                    /* levels dropped per series by the budget */
	unsigned max_qd;                        /* per thread, of the engine that runs it */
	const struct engine_ops *engine;        /* that engine (engine.h) */
	struct sweep_curve_point curve[SWEEP_MAX_LEVELS];
	unsigned ncurve;                        /* measured */
	double curve_max_iops;                  /* the max the percentages are of */
	unsigned curve_outstanding;             /* the in-flight cap: the max's level */
};

double sweep_iops(const struct sweep_point *p);
double sweep_rate(const struct sweep_point *p);
/* A --curve point's IOPS served: what completed over its seconds. */
double sweep_curve_served(const struct sweep_curve_point *c);
/* Little's law: IOPS x mean latency = the outstanding I/Os the device saw. */
double sweep_littles_outstanding(const struct sweep_point *p);

/* Each returns an index into s->points, or -1 when there are none. */
int sweep_max_iops(const struct sweep_series *s);
int sweep_max_rate(const struct sweep_series *s);
int sweep_min_latency(const struct sweep_series *s); /* by mean latency */
/* The knee: the point with the most IOPS per unit of mean latency
 * (Kleinrock's power), where latency starts to grow faster than IOPS. */
int sweep_knee(const struct sweep_series *s);
/* Most IOPS among points whose percentile pct of latency is <= limit_ns. */
int sweep_max_iops_within(const struct sweep_series *s, double limit_ns, double pct);
/* How a level of outstanding I/Os is made: one thread per 32 in flight at
 * most (threads dividing the level), each with the rest as its queue; with
 * an engine that holds one request per thread (max_qd 1), level threads. */
void sweep_split_level(unsigned level, unsigned max_qd, unsigned *threads, unsigned *qd);
/* Several targets (multi): a level whose outstanding I/Os divide evenly
 * over ntargets is split as sweep_split_level splits its share of one
 * target, times ntargets threads (thread i works on target i mod n); any
 * other level gets one thread per outstanding I/O, the fairest spread
 * there is (below ntargets some targets stay idle). */
void sweep_split_level_targets(unsigned level, unsigned max_qd, unsigned ntargets,
			       unsigned *threads, unsigned *qd);
/* Orion's default levels grow with the number of LUNs: each of base's n
 * levels times ntargets, those above max left out.  Returns how many went
 * to out. */
unsigned sweep_scale_levels(const unsigned *base, unsigned n, unsigned ntargets, unsigned max,
			    unsigned *out);
/* True when each of the last two steps added less than 5 % (IOPS, or MB/s
 * for a large series). */
bool sweep_saturated(const struct sweep_series *s);

/* Fits nsmall + nlarge points of (ramp + point_s) into budget_s: shortens
 * points (not below min(1 s, point_s)), then drops the highest levels of the
 * longer series, keeping at least one each.  -1 if even that cannot fit. */
int sweep_plan_budget(double budget_s, double point_s, double ramp_s, unsigned nsmall,
		      unsigned nlarge, struct sweep_plan *out);

/* "1,2,4,8": strictly increasing whole numbers from 1 to max. */
int sweep_parse_levels(const char *text, unsigned max, unsigned *levels, unsigned *n,
		       const char **why);
/* "1ms", "500us,p99.9", "2ms,mean": a latency and which figure it bounds
 * (pct 0 means the mean; default p99). */
int sweep_parse_max_latency(const char *text, double *limit_ns, double *pct, const char **why);
/* The figure of p's latency named by pct (0: mean). */
double sweep_latency_at(const struct sweep_point *p, double pct);

#endif
