/* --verify's block header (issue 42): what each block a verified write test
 * writes begins with, and how a block read back is judged from it alone.
 *
 * On disk, little-endian, the first 64 bytes of the block:
 *    0  magic "DBVERIFY"            8  version (1), block size (u32 each)
 *   16  the block's own offset     24  the run's id
 *   32  generation: 1 for the block's first write in the run, +1 for each later one
 *   40  the run's region (bytes)  48  reserved (0)
 *   60  CRC32C of bytes [0, 60) then [64, block size)
 * The rest is the write's data (random unless --zeros), and the first 8
 * bytes of every later 512-byte sector are overwritten with a tag,
 * (((offset + its place) ^ run) * 0x9e3779b97f4a7c15) ^ generation, so
 * that a block of which only some sectors reached the disk (a torn write)
 * fails its CRC even where the data of two generations were otherwise
 * alike, and the generations it holds can be told.  Tests: tests/unit/io/test_blockhdr.c. */
#ifndef BLOCKHDR_H
#define BLOCKHDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BLK_HDR_LEN 64
#define BLK_VERSION 1
#define BLK_SECTOR 512
/* The smallest block --verify stamps: one sector, room for the header. */
#define BLK_MIN_BS BLK_SECTOR
/* The largest a header may claim before it is believed (bench's 4 GiB). */
#define BLK_MAX_BS (1ull << 32)

struct blk_hdr {
	uint32_t block_size;
	uint64_t offset, run_id, generation, region;
	uint32_t crc;  /* as read (blk_parse); blk_stamp computes it */
};

/* Makes buf (h->block_size bytes, its data already there) the block h
 * describes: the sector tags, the header, the CRC last. */
void blk_stamp(void *buf, const struct blk_hdr *h);
/* The header at the start of buf (len >= BLK_HDR_LEN), when it has the
 * magic and this version; its CRC is not checked (blk_judge does that). */
bool blk_parse(const void *buf, size_t len, struct blk_hdr *h);
/* The generation in a block blk_stamp made (the write's, at completion). */
uint64_t blk_generation(const void *buf);
/* Generations a run numbers its writes of a block with, at most. */
#define BLK_MAX_GENERATION 0x7fffffffu
/* The newest generation of this run's writes of this block that any part
 * of buf holds: its header's or a sector tag's (0: none).  A block that
 * fails its CRC yet holds a generation newer than the one acknowledged was
 * being overwritten when the power went: a torn write nobody was promised. */
uint64_t blk_newest_generation(const void *buf, uint64_t bs, uint64_t offset, uint64_t run_id);

/* What a block read back is. */
enum blk_verdict {
	BLK_GOOD,       /* this run's block for this offset, at the generation asked or later */
	BLK_CORRUPT,    /* a header, but the CRC fails: the data changed after it was written
			 * (or only part of the write reached the disk) */
	BLK_MISPLACED,  /* intact, but the header names another offset: the write went to the
			 * wrong place (a fake-capacity drive's wrap, a misdirected write) */
	BLK_STALE,      /* intact and this offset's, but an older generation: a later write of
			 * this block was lost */
	BLK_UNWRITTEN,  /* no header: never written (or its header is gone) */
	BLK_FOREIGN,    /* intact, this offset's, another run's: this run's writes there were lost
			 * (or it never wrote there) */
};
#define BLK_VERDICTS 6

/* Judges bs bytes read back from offset against the run and the least
 * generation that must be there (0: any).  *found gets the header when
 * there is one.  A block whose header gives another block size is judged
 * over that size (when buf holds it): an earlier run's intact block is
 * then foreign (or misplaced), not corrupt. */
enum blk_verdict blk_judge(const void *buf, uint64_t bs, uint64_t offset, uint64_t run_id,
			   uint64_t min_generation, struct blk_hdr *found);
/* "good", "corrupt", "misplaced", "stale", "unwritten", "foreign". */
const char *blk_verdict_name(enum blk_verdict v);

#endif
