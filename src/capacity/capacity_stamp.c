/* The stamp in every sector capacity writes: which run wrote it and for
 * which offset, and the rest of the sector drawn from both, so a sector
 * read back is either a whole stamp (of this offset, or of another: a wrap)
 * or not one at all.  The stamp of an earlier run (another run id) is
 * never taken for this one's. */
#include <string.h>

#include "capacity_int.h"
#include "rng.h"

/* "DBCAPSTP" read as a little-endian word */
#define STAMP_MAGIC 0x5054535041434244ull
#define HEAD_BYTES 32u

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static uint64_t check_of(uint64_t run, uint64_t off)
{
	return mix(run ^ mix(off ^ STAMP_MAGIC));
}

static void stamp_one(unsigned char *s, uint64_t off, uint64_t run, unsigned sector)
{
	uint64_t head[4] = { STAMP_MAGIC, run, off, check_of(run, off) };
	struct rng r;
	memcpy(s, head, sizeof(head));
	rng_seed(&r, run, off);
	rng_fill(&r, s + HEAD_BYTES, sector - HEAD_BYTES);
}

void cap_stamp(void *buf, size_t len, uint64_t off, uint64_t run, unsigned sector)
{
	unsigned char *p = buf;
	for (size_t i = 0; i + sector <= len; i += sector)
		stamp_one(p + i, off + i, run, sector);
}

static bool all_zero(const unsigned char *s, unsigned sector)
{
	for (unsigned i = 0; i < sector; i++)
		if (s[i])
			return false;
	return true;
}

/* The body as stamp_one draws it, compared word by word (rng_fill's
 * layout: whole words, then the tail of one). */
static bool body_matches(const unsigned char *s, uint64_t off, uint64_t run, unsigned sector)
{
	struct rng r;
	rng_seed(&r, run, off);
	for (unsigned i = HEAD_BYTES; i < sector; i += 8) {
		uint64_t want = rng_next(&r);
		size_t n = sector - i < 8 ? sector - i : 8;
		if (memcmp(s + i, &want, n) != 0)
			return false;
	}
	return true;
}

enum cap_seen cap_stamp_seen(const void *sector_buf, unsigned sector, uint64_t run,
			     uint64_t *at)
{
	const unsigned char *s = sector_buf;
	uint64_t head[4];
	memcpy(head, s, sizeof(head));
	if (head[0] == STAMP_MAGIC && head[1] == run && head[3] == check_of(run, head[2]) &&
	    body_matches(s, head[2], run, sector)) {
		*at = head[2];
		return CAP_SEEN_OURS;
	}
	return all_zero(s, sector) ? CAP_SEEN_ZEROS : CAP_SEEN_OTHER;
}
