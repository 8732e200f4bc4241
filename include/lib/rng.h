/* A small, fast, seedable generator (xorshift64*, seeded through splitmix64)
 * for random offsets and incompressible data.  Not for cryptography. */
#ifndef RNG_H
#define RNG_H

#include <stddef.h>
#include <stdint.h>

struct rng {
	uint64_t state;
};

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n), n > 0; bias below n / 2^64. */
uint64_t rng_below(struct rng *r, uint64_t n);
void rng_fill(struct rng *r, void *buf, size_t len);

#endif
