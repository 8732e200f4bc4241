/* Steady state as SNIA's Solid State Storage Performance Test Specification
 * (PTS) defines it, kept pure for tests: over the last N rounds of a
 * figure, the range (max - min) within EXCURSION % of their mean and the
 * least-squares line through them moving no more than SLOPE % of the mean
 * across the window (|slope x (N - 1)|). */
#ifndef STEADY_H
#define STEADY_H

#include <stdbool.h>

#define STEADY_MIN_WINDOW 3
#define STEADY_MAX_ROUNDS 1000 /* --max-rounds plus --hold */

struct steady_limits {
	unsigned window;      /* rounds in the window, >= STEADY_MIN_WINDOW */
	double excursion_pct; /* range over mean, in % */
	double slope_pct;     /* |slope x (window - 1)| over mean, in % */
};

/* The window ending at a round, and what it says. */
struct steady_window {
	unsigned first, last; /* rounds, from 1 */
	double mean, range_pct, slope_pct;
	bool steady;          /* both within their limits */
};

/* Judges the window of lim->window values ending at v[n - 1] (rounds
 * n - window + 1 .. n); false, with w->steady false, while there are
 * fewer values than the window holds or its mean is not above 0. */
bool steady_judge(const double *v, unsigned n, const struct steady_limits *lim,
		  struct steady_window *w);
/* Whether a value lies outside a steady window's band: its mean +/- half
 * the excursion limit (PTS draws 90 % and 110 % of the mean for 20 %);
 * *off_pct is how far from the mean, in % of it. */
bool steady_outside(const struct steady_window *w, const struct steady_limits *lim, double value,
		    double *off_pct);

#endif
