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

/* Inline: the timed loop draws one per I/O. */
static inline uint64_t rng_next(struct rng *r)
{
	uint64_t x = r->state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->state = x;
	return x * 0x2545f4914f6cdd1du;
}

/* Uniform in [0, n), n > 0; bias below n / 2^64.  A power of two takes a
 * mask instead of a division: the same number, without the divide's tens
 * of cycles. */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	uint64_t x = rng_next(r);
	return (n & (n - 1)) == 0 ? x & (n - 1) : x % n;
}
void rng_fill(struct rng *r, void *buf, size_t len);

#endif
