#include "rng.h"

#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Each (seed, stream) pair gets its own well-mixed, non-zero state, so
 * threads seeded with the same seed and different streams do not overlap. */
void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03u);
	r->state = splitmix64(&x);
	if (r->state == 0)
		r->state = 0x2545f4914f6cdd1du;
}

void rng_fill(struct rng *r, void *buf, size_t len)
{
	unsigned char *p = buf;
	while (len >= 8) {
		uint64_t v = rng_next(r);
		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len > 0) {
		uint64_t v = rng_next(r);
		memcpy(p, &v, len);
	}
}
