/* The block header of --verify: stamping a block before it is written and
 * judging one read back (blockhdr.h has the layout). */
#include "blockhdr.h"

#include <string.h>

#include "crc32c.h"

#define MAGIC "DBVERIFY"
#define CRC_AT 60

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v = 0;
	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The CRC a block of bs bytes must carry: everything but the CRC's place. */
static uint32_t block_crc(const unsigned char *p, uint64_t bs)
{
	return crc32c(crc32c(0, p, CRC_AT), p + BLK_HDR_LEN, (size_t)(bs - BLK_HDR_LEN));
}

/* The tag of the sector at byte `at` of the block: unique to the block's
 * offset and its run (the multiplier is odd, so a bijection, and it
 * scatters a neighbouring run's tags far above any generation) and to this
 * write of it, whose generation the tag gives back (blk_newest_generation). */
#define TAG_MUL 0x9e3779b97f4a7c15u
static uint64_t sector_tag(uint64_t offset, uint64_t at, uint64_t run_id, uint64_t generation)
{
	return (((offset + at) ^ run_id) * TAG_MUL) ^ generation;
}

void blk_stamp(void *buf, const struct blk_hdr *h)
{
	unsigned char *p = buf;
	uint64_t bs = h->block_size;
	for (uint64_t at = BLK_SECTOR; at + 8 <= bs; at += BLK_SECTOR)
		put64(p + at, sector_tag(h->offset, at, h->run_id, h->generation));
	memcpy(p, MAGIC, 8);
	put32(p + 8, BLK_VERSION);
	put32(p + 12, h->block_size);
	put64(p + 16, h->offset);
	put64(p + 24, h->run_id);
	put64(p + 32, h->generation);
	put64(p + 40, h->region);
	memset(p + 48, 0, CRC_AT - 48);
	put32(p + CRC_AT, block_crc(p, bs));
}

bool blk_parse(const void *buf, size_t len, struct blk_hdr *h)
{
	const unsigned char *p = buf;
	if (len < BLK_HDR_LEN || memcmp(p, MAGIC, 8) != 0 || get32(p + 8) != BLK_VERSION)
		return false;
	h->block_size = get32(p + 12);
	h->offset = get64(p + 16);
	h->run_id = get64(p + 24);
	h->generation = get64(p + 32);
	h->region = get64(p + 40);
	h->crc = get32(p + CRC_AT);
	return true;
}

uint64_t blk_generation(const void *buf)
{
	return get64((const unsigned char *)buf + 32);
}

uint64_t blk_newest_generation(const void *buf, uint64_t bs, uint64_t offset, uint64_t run_id)
{
	const unsigned char *p = buf;
	struct blk_hdr h;
	uint64_t newest = 0;
	if (blk_parse(buf, bs, &h) && h.run_id == run_id && h.offset == offset &&
	    h.generation <= BLK_MAX_GENERATION)
		newest = h.generation;
	for (uint64_t at = BLK_SECTOR; at + 8 <= bs; at += BLK_SECTOR) {
		uint64_t gen = get64(p + at) ^ sector_tag(offset, at, run_id, 0);
		if (gen <= BLK_MAX_GENERATION && gen > newest)
			newest = gen;
	}
	return newest;
}

enum blk_verdict blk_judge(const void *buf, uint64_t bs, uint64_t offset, uint64_t run_id,
			   uint64_t min_generation, struct blk_hdr *found)
{
	struct blk_hdr h;
	if (!blk_parse(buf, bs, &h))
		return BLK_UNWRITTEN;
	if (found)
		*found = h;
	/* judged over its own size, when that is a size a block can have and
	 * the buffer holds it: another run's blocks may be smaller */
	uint64_t own = h.block_size;
	if (own > bs && h.run_id != run_id)
		return BLK_FOREIGN; /* the start of another run's larger block: not checkable */
	if (own < BLK_MIN_BS || own > bs || block_crc(buf, own) != h.crc)
		return BLK_CORRUPT;
	if (h.offset != offset)
		return BLK_MISPLACED;
	if (h.run_id != run_id || own != bs)
		return BLK_FOREIGN;
	return h.generation >= min_generation ? BLK_GOOD : BLK_STALE;
}

const char *blk_verdict_name(enum blk_verdict v)
{
	static const char *const names[BLK_VERDICTS] = { "good", "corrupt", "misplaced", "stale",
							 "unwritten", "foreign" };
	return (unsigned)v < BLK_VERDICTS ? names[v] : "?";
}
