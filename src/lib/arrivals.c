/* Open-loop arrival schedules (arrivals.h). */
#include "arrivals.h"

#include <math.h>
#include <string.h>

void arrivals_init(struct arrivals *a, enum arrivals_kind kind, double rate_per_s, uint64_t t0,
		   uint64_t seed, uint64_t stream)
{
	memset(a, 0, sizeof(*a));
	a->kind = kind;
	a->gap_ns = 1e9 / rate_per_s;
	a->schedule_gap_ns = a->gap_ns;
	a->t0 = t0;
	rng_seed(&a->rng, seed, 0xa7700000u + stream);
}

void arrivals_phase(struct arrivals *a, unsigned stream, unsigned streams)
{
	if (streams < 2)
		return;
	a->schedule_gap_ns = a->gap_ns / streams;
	double offset = (double)(stream % streams) * a->schedule_gap_ns;
	if (a->kind == ARRIVALS_FIXED && offset < 9e18 - (double)a->t0)
		a->t0 += (uint64_t)offset;
}

double arrivals_schedule_gap(const struct arrivals *a)
{
	return a->schedule_gap_ns;
}

/* Uniform in (0, 1]: 53 random bits, never 0, so its logarithm is finite. */
static double unit_open(struct rng *r)
{
	return (double)((rng_next(r) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

/* t0 + off_ns, or UINT64_MAX (never) where that is past what 64 bits of
 * nanoseconds hold: converting a double beyond them is undefined (issue 44:
 * a rate of 1e-300 came out as due at once). */
static uint64_t due_at(uint64_t t0, double off_ns)
{
	const double clock_end = 18446744073709551616.0; /* 2^64 */
	if (!(off_ns < clock_end))
		return UINT64_MAX;
	uint64_t off = (uint64_t)off_ns;
	return off > UINT64_MAX - t0 ? UINT64_MAX : t0 + off;
}

uint64_t arrivals_next(struct arrivals *a)
{
	if (a->kind == ARRIVALS_FIXED) {
		uint64_t k = a->k++;
		return due_at(a->t0, k ? (double)k * a->gap_ns : 0.0); /* 0 x an infinite gap */
	}
	/* an exponential gap of mean gap_ns: -ln(U) x mean */
	a->at_ns += -log(unit_open(&a->rng)) * a->gap_ns;
	a->k++;
	return due_at(a->t0, a->at_ns);
}

const char *arrivals_name(enum arrivals_kind kind)
{
	return kind == ARRIVALS_FIXED ? "fixed" : "poisson";
}

int arrivals_parse(const char *name, enum arrivals_kind *kind)
{
	if (strcmp(name, "poisson") == 0)
		*kind = ARRIVALS_POISSON;
	else if (strcmp(name, "fixed") == 0)
		*kind = ARRIVALS_FIXED;
	else
		return -1;
	return 0;
}
