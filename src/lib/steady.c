/* SNIA PTS steady state (steady.h): a window's range and least-squares
 * slope against its mean. */
#include "steady.h"

#include <math.h>

bool steady_judge(const double *v, unsigned n, const struct steady_limits *lim,
		  struct steady_window *w)
{
	unsigned k = lim->window;
	*w = (struct steady_window){ 0 };
	if (k < STEADY_MIN_WINDOW || n < k)
		return false;
	const double *y = v + (n - k);
	double sum = 0, lo = y[0], hi = y[0];
	for (unsigned i = 0; i < k; i++) {
		sum += y[i];
		lo = y[i] < lo ? y[i] : lo;
		hi = y[i] > hi ? y[i] : hi;
	}
	double mean = sum / k, xm = (k - 1) / 2.0, sxy = 0, sxx = 0;
	for (unsigned i = 0; i < k; i++) {
		sxy += (i - xm) * (y[i] - mean);
		sxx += (i - xm) * (i - xm);
	}
	w->first = n - k + 1;
	w->last = n;
	w->mean = mean;
	if (!(mean > 0))
		return false;
	w->range_pct = (hi - lo) / mean * 100;
	w->slope_pct = fabs(sxy / sxx * (k - 1)) / mean * 100;
	/* a hair of slack: 20 % computed as 20.000000000000004 is 20 % */
	w->steady = w->range_pct <= lim->excursion_pct + 1e-9 &&
		    w->slope_pct <= lim->slope_pct + 1e-9;
	return w->steady;
}

bool steady_outside(const struct steady_window *w, const struct steady_limits *lim, double value,
		    double *off_pct)
{
	*off_pct = w->mean > 0 ? (value / w->mean - 1) * 100 : 0;
	return fabs(*off_pct) > lim->excursion_pct / 2 + 1e-9;
}
