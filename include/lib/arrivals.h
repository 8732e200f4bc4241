/* Open-loop arrivals (issue 30): when each I/O of a rate-paced run is due,
 * on the benchmark clock, in nanoseconds.  The schedule depends only on the
 * rate, the start and the seed, never on how fast the device answers: an
 * I/O is late, not moved, when the device is slow (no coordinated
 * omission).  Fixed arrivals are evenly spaced; Poisson ones have
 * exponential gaps of the same mean (a memoryless stream of independent
 * users). */
#ifndef ARRIVALS_H
#define ARRIVALS_H

#include <stdint.h>

#include "rng.h"

enum arrivals_kind { ARRIVALS_POISSON, ARRIVALS_FIXED };

struct arrivals {
	enum arrivals_kind kind;
	double gap_ns;   /* the mean gap: 1e9 / rate */
	double schedule_gap_ns; /* the whole schedule's, of all its streams: gap_ns / streams */
	uint64_t t0;     /* the schedule's origin */
	uint64_t k;      /* arrivals handed out so far */
	double at_ns;    /* Poisson: the next arrival, from t0 */
	struct rng rng;
};

/* A schedule of rate_per_s arrivals a second from t0 (> 0), each stream
 * (a worker thread) its own draw of seed. */
void arrivals_init(struct arrivals *a, enum arrivals_kind kind, double rate_per_s, uint64_t t0,
		   uint64_t seed, uint64_t stream);
/* Stream `stream` (from 0) of the `streams` that make one schedule, each at
 * its share of the rate (--rate's threads): fixed arrivals start
 * stream / streams of a gap later, so that together they come one every
 * gap / streams, where in phase the streams' arrivals all came at once
 * (issue 39); Poisson streams need no offset (independent ones merge into
 * one Poisson stream of their summed rate).  Either way the schedule's gap
 * is gap / streams. */
void arrivals_phase(struct arrivals *a, unsigned stream, unsigned streams);
/* The whole schedule's mean gap (1e9 / its rate): an I/O that starts more
 * than this after it was due is late. */
double arrivals_schedule_gap(const struct arrivals *a);
/* The next arrival's time; the schedule steps past it.  Fixed arrivals are
 * t0 + k x gap, computed from k so that no rounding accumulates. */
uint64_t arrivals_next(struct arrivals *a);
/* Its name on the command line and in JSON: "poisson", "fixed". */
const char *arrivals_name(enum arrivals_kind kind);
/* 0 and the kind for "poisson" or "fixed"; -1 otherwise. */
int arrivals_parse(const char *name, enum arrivals_kind *kind);

#endif
