/* What the shape of a run's throughput over time tells: a cliff (a write
 * cache or burst credits running out) and a run too unsteady to be one
 * figure.  Pure functions over a series (series.h); the runner turns what
 * they find into warnings and findings. */
#ifndef DETECT_H
#define DETECT_H

#include <stdbool.h>
#include <stdint.h>

#include "series.h"
#include "stats.h"

/* A drop counts when the rolling median falls below this share of the first
 * samples' median, for DETECT_CLIFF_RUN samples in a row, and stays there. */
#define DETECT_CLIFF_RATIO 0.7
#define DETECT_CLIFF_RUN 3
/* Fewest samples either detector looks at. */
#define DETECT_MIN_SAMPLES 8
#define DETECT_UNSTEADY_MIN 5
/* The coefficient of variation above which one run is not a figure to bet on. */
#define DETECT_UNSTEADY_CV 0.25

/* A rate cap (a cloud volume's or a container's I/O limit handing out a
 * budget per time slice), in two shapes.  A budget: throughput flat across
 * intervals (raw coefficient of variation below DETECT_CAP_CV: a slice's
 * burst lands on either side of an interval's end as the sampler's tick
 * wanders, so a budget is only about that flat) while most
 * I/Os are fast (p90 within DETECT_CAP_FAST times the median) and a small
 * share, between DETECT_CAP_SLOW_MIN and DETECT_CAP_SLOW_MAX, waits over
 * DETECT_CAP_SLOW times the median for the next slice, and those waits hold
 * at least DETECT_CAP_WAIT of the I/Os' time (a healthy disk's rare slow
 * I/O is a small part of it: removing it would barely move the figure).
 * A pace: every I/O held back alike, so throughput is flatter still
 * (DETECT_CAP_PACED_CV) at a round figure of IOPS or bytes/s (150, 2000,
 * 25 M; within DETECT_CAP_ROUND: a run cut by -t ends one I/O early or
 * late), as limits are set. */
#define DETECT_CAP_CV 0.10
#define DETECT_CAP_FAST 4.0
#define DETECT_CAP_SLOW 20.0
#define DETECT_CAP_SLOW_MIN 0.001
#define DETECT_CAP_SLOW_MAX 0.10
#define DETECT_CAP_WAIT 0.5
#define DETECT_CAP_PACED_CV 0.02
#define DETECT_CAP_ROUND 0.005
/* Blocks from this size on are judged by bytes/s, smaller ones by IOPS. */
#define DETECT_CAP_LARGE_BLOCK 65536u

/* How sure: a shape that fits a cap ("may be"), or slow I/Os recurring in
 * every interval, as a token bucket's refills make them. */
enum cap_evidence { CAP_NONE, CAP_MAYBE, CAP_REGULAR };

struct rate_cap {
	enum cap_evidence evidence;
	bool budget;        /* the budget shape (slow waits); else the pace */
	double rate;        /* bytes/s over the samples */
	double iops;        /* I/Os per second over the samples */
	double cv;
	uint64_t p50_ns;
	double slow_share;  /* of the I/Os, those slower than DETECT_CAP_SLOW x p50 */
	uint64_t slow_ns;   /* the threshold */
	double wait_share;  /* of the I/Os' time, that spent in the slow ones */
	double round;       /* the round figure the rate or IOPS sits at, 0: none */
	bool round_iops;    /* that figure is IOPS (else bytes/s) */
};

struct cliff {
	unsigned at;           /* the first sample at the lower level */
	double at_s;           /* when that sample began */
	uint64_t at_bytes;     /* bytes moved before it */
	double baseline;       /* median rate of the first samples */
	double burst_rate;     /* bytes/s before the drop */
	double sustained_rate; /* bytes/s from the drop to the end */
};

/* v within DETECT_CAP_ROUND of a round figure (1, 1.5, 2, 2.5, 3, 5 or
 * 7.5 times a power of ten): that figure, else 0. */
double detect_round(double v);

/* True, filling c, when the series steps down and stays down; a gradual
 * decline, noise or a short dip is not a cliff. */
bool detect_cliff(const struct series *s, struct cliff *c);
/* The coefficient of variation (stdev / mean) of the rates of samples
 * [from, n) in *cv; true when, over at least DETECT_UNSTEADY_MIN samples,
 * it is above DETECT_UNSTEADY_CV beyond what counting few I/Os per interval
 * explains (cv^2 - 1/(mean I/Os per interval) > bound^2). */
bool detect_unsteady(const struct series *s, unsigned from, double *cv);

/* Steady state (fio's steadystate=bw_slope): over the last
 * DETECT_STEADY_WINDOW samples, the least-squares slope of the rate, times
 * the window's span, is within DETECT_STEADY_BOUND of their mean rate. */
#define DETECT_STEADY_WINDOW 10
#define DETECT_STEADY_BOUND 0.05

struct steady {
	unsigned from;       /* the window's first sample */
	double from_s;       /* when it began */
	double rate;         /* its mean rate, bytes/s */
	double change;       /* slope x span / mean: the drift across the window */
	double burst_rate;   /* the highest rate over three samples in a row, bytes/s */
};

/* True when the series' last window is steady; c filled either way when
 * there are DETECT_STEADY_WINDOW samples. */
bool detect_steady(const struct series *s, struct steady *c);

/* A drive's temperature over a run, in constant memory: when full, every
 * other reading goes and later ones are kept at half the rate. */
#define TEMP_CAP 128
/* A rise this large during a run counts as heating, limits or not. */
#define DETECT_HEAT_RISE_C 15.0

struct temp_track {
	char name[64];          /* the disk */
	double max_c, crit_c;   /* its limits, 0 unknown */
	unsigned n, stride, skipped;
	double t_s[TEMP_CAP], celsius[TEMP_CAP];
};

struct heat {
	double first_c, peak_c, peak_t_s;
	double limit_c;         /* the limit it reached (max, else crit), 0: none, a rise only */
};

void temp_track_init(struct temp_track *t, const char *name, double max_c, double crit_c);
void temp_track_add(struct temp_track *t, double t_s, double celsius);
/* True, filling h, when throughput dropped (dropped: a cliff was found)
 * while the drive reached its max or crit temperature or rose by more than
 * DETECT_HEAT_RISE_C. */
bool detect_heat(const struct temp_track *t, bool dropped, struct heat *h);

/* True, filling c, when the series and the latencies look like a rate cap
 * (above; c->evidence says how sure); needs DETECT_MIN_SAMPLES samples.
 * bytes are the run's: with the I/Os, they say the block size, which says
 * whether IOPS or bytes/s are tested for a round figure. */
bool detect_rate_cap(const struct series *s, const struct stats *lat, uint64_t bytes,
		     struct rate_cap *c);

#endif
