/* Unit tests of src/io/blockhdr.c: the header's bytes as the layout says
 * (written out by hand here, not read back through the parser), its CRC
 * recomputed here from the table CRC, and each kind of bad block built by
 * hand and judged: corrupt (a byte of data, of the header; a torn write),
 * misplaced (an intact block of another offset), stale (an older
 * generation), unwritten (zeros, random data), foreign (another run's,
 * also one of another block size), and the good ones. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "blockhdr.h"
#include "crc32c.h"
#include "rng.h"

#define BS 4096u
#define RUN 0x1122334455667788ull

static unsigned char *random_block(uint64_t bs, uint64_t seed)
{
	unsigned char *b = malloc(bs);
	struct rng r;
	assert_non_null(b);
	rng_seed(&r, seed, 9);
	rng_fill(&r, b, bs);
	return b;
}

/* A block as a verified write makes it: random data, then the stamp. */
static unsigned char *block(uint64_t offset, uint64_t gen, uint64_t run, uint32_t bs)
{
	unsigned char *b = random_block(bs, offset ^ gen);
	struct blk_hdr h = { .block_size = bs, .offset = offset, .run_id = run,
			     .generation = gen, .region = 1u << 20 };
	blk_stamp(b, &h);
	return b;
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
	       (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
	       (uint64_t)p[7] << 56;
}

static void test_layout_by_hand(void **state)
{
	(void)state;
	unsigned char *b = block(0x3000, 7, RUN, BS);
	assert_memory_equal(b, "DBVERIFY", 8);
	static const unsigned char version_bs[8] = { 1, 0, 0, 0, 0x00, 0x10, 0, 0 };
	assert_memory_equal(b + 8, version_bs, 8);
	static const unsigned char offset[8] = { 0x00, 0x30, 0, 0, 0, 0, 0, 0 };
	assert_memory_equal(b + 16, offset, 8);
	static const unsigned char run[8] = { 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11 };
	assert_memory_equal(b + 24, run, 8);
	assert_int_equal(b[32], 7);
	assert_int_equal(le64(b + 40), 1u << 20);
	for (int i = 48; i < 60; i++)
		assert_int_equal(b[i], 0);
	/* the CRC: bytes 0-59, then 64 to the end, by the table */
	uint32_t want = crc32c_sw(crc32c_sw(0, b, 60), b + 64, BS - 64);
	uint32_t got = (uint32_t)b[60] | (uint32_t)b[61] << 8 | (uint32_t)b[62] << 16 |
		       (uint32_t)b[63] << 24;
	assert_int_equal(got, want);
	/* each later sector begins with its tag */
	for (uint64_t at = 512; at < BS; at += 512)
		assert_int_equal(le64(b + at),
				 (((0x3000 + at) ^ RUN) * 0x9e3779b97f4a7c15ull) ^ 7);
	assert_int_equal(blk_generation(b), 7);
	free(b);
}

static void test_good(void **state)
{
	(void)state;
	struct blk_hdr h;
	unsigned char *b = block(8192, 3, RUN, BS);
	assert_int_equal(blk_judge(b, BS, 8192, RUN, 3, &h), BLK_GOOD);
	assert_int_equal(h.generation, 3);
	assert_int_equal(h.offset, 8192);
	/* a later generation than the least asked is good too (a write that
	 * landed but whose acknowledgement the witness never saw) */
	assert_int_equal(blk_judge(b, BS, 8192, RUN, 1, NULL), BLK_GOOD);
	assert_int_equal(blk_judge(b, BS, 8192, RUN, 0, NULL), BLK_GOOD);
	free(b);
}

static void test_corrupt(void **state)
{
	(void)state;
	unsigned char *b = block(0, 1, RUN, BS);
	/* one bit anywhere but the magic: data, a sector tag, a header field, the CRC */
	static const size_t places[] = { 100, BS - 1, 512, 1024 + 3, 13, 17, 33, 45, 50, 61 };
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		b[places[i]] ^= 0x10;
		assert_int_equal(blk_judge(b, BS, 0, RUN, 1, NULL), BLK_CORRUPT);
		b[places[i]] ^= 0x10;
	}
	assert_int_equal(blk_judge(b, BS, 0, RUN, 1, NULL), BLK_GOOD);
	free(b);
}

/* Half of generation 2's sectors on generation 1's: same data otherwise,
 * so only the sector tags tell, and the CRC fails. */
static void test_torn_write_is_corrupt(void **state)
{
	(void)state;
	unsigned char *g1 = random_block(BS, 5), *g2 = malloc(BS);
	assert_non_null(g2);
	memcpy(g2, g1, BS);
	struct blk_hdr h = { .block_size = BS, .offset = 4096, .run_id = RUN, .generation = 1 };
	blk_stamp(g1, &h);
	h.generation = 2;
	blk_stamp(g2, &h);
	memcpy(g2 + 2048, g1 + 2048, BS - 2048); /* the second half never arrived */
	assert_int_equal(blk_judge(g2, BS, 4096, RUN, 2, NULL), BLK_CORRUPT);
	/* and the first sector alone old: corrupt, not stale */
	memcpy(g2, g1, BS);
	h.generation = 2;
	blk_stamp(g2, &h);
	memcpy(g2, g1, 512);
	assert_int_equal(blk_judge(g2, BS, 4096, RUN, 2, NULL), BLK_CORRUPT);
	/* the tags tell that generation 2 was on its way */
	assert_int_equal(blk_newest_generation(g2, BS, 4096, RUN), 2);
	assert_int_equal(blk_newest_generation(g1, BS, 4096, RUN), 1);
	free(g1);
	free(g2);
}

static void test_misplaced(void **state)
{
	(void)state;
	struct blk_hdr h;
	/* a fake drive's wrap: what was written for 512 MiB is read at 0 */
	unsigned char *b = block(512ull << 20, 1, RUN, BS);
	assert_int_equal(blk_judge(b, BS, 0, RUN, 1, &h), BLK_MISPLACED);
	assert_int_equal(h.offset, 512ull << 20);
	/* another run's block of another offset is misplaced too */
	unsigned char *o = block(4096, 1, RUN + 1, BS);
	assert_int_equal(blk_judge(o, BS, 0, RUN, 1, NULL), BLK_MISPLACED);
	free(b);
	free(o);
}

static void test_stale(void **state)
{
	(void)state;
	struct blk_hdr h;
	unsigned char *b = block(4096, 4, RUN, BS);
	assert_int_equal(blk_judge(b, BS, 4096, RUN, 5, &h), BLK_STALE);
	assert_int_equal(h.generation, 4);
	free(b);
}

static void test_unwritten(void **state)
{
	(void)state;
	unsigned char *z = calloc(1, BS), *r = random_block(BS, 77);
	assert_non_null(z);
	assert_int_equal(blk_judge(z, BS, 0, RUN, 1, NULL), BLK_UNWRITTEN);
	assert_int_equal(blk_judge(r, BS, 0, RUN, 1, NULL), BLK_UNWRITTEN);
	/* the magic with another version is no header of ours */
	unsigned char *b = block(0, 1, RUN, BS);
	b[8] = 2;
	assert_int_equal(blk_judge(b, BS, 0, RUN, 1, NULL), BLK_UNWRITTEN);
	free(z);
	free(r);
	free(b);
}

static void test_foreign(void **state)
{
	(void)state;
	struct blk_hdr h;
	unsigned char *b = block(0, 9, RUN + 1, BS);
	assert_int_equal(blk_judge(b, BS, 0, RUN, 1, &h), BLK_FOREIGN);
	assert_int_equal(h.run_id, RUN + 1);
	/* an earlier run of 1 KiB blocks: judged over its own 1 KiB, intact */
	unsigned char *small = random_block(BS, 3);
	struct blk_hdr s = { .block_size = 1024, .offset = 0, .run_id = RUN - 1, .generation = 1 };
	blk_stamp(small, &s);
	assert_int_equal(blk_judge(small, BS, 0, RUN, 1, NULL), BLK_FOREIGN);
	small[100] ^= 1; /* inside its 1 KiB: corrupt */
	assert_int_equal(blk_judge(small, BS, 0, RUN, 1, NULL), BLK_CORRUPT);
	free(b);
	free(small);
}

/* A header claiming a size no block has is corrupt, never believed. */
static void test_absurd_size(void **state)
{
	(void)state;
	unsigned char *b = block(0, 1, RUN, BS);
	b[12] = 0x10, b[13] = 0; /* 16 bytes */
	assert_int_equal(blk_judge(b, BS, 0, RUN, 1, NULL), BLK_CORRUPT);
	free(b);
}

/* Nothing of this run's writes of this block: zeros, random data,
 * another run's block, this run's block of another offset. */
static void test_newest_generation_none(void **state)
{
	(void)state;
	unsigned char *z = calloc(1, BS), *r = random_block(BS, 8);
	unsigned char *other = block(4096, 5, RUN + 1, BS), *elsewhere = block(8192, 5, RUN, BS);
	assert_non_null(z);
	assert_int_equal(blk_newest_generation(z, BS, 4096, RUN), 0);
	assert_int_equal(blk_newest_generation(r, BS, 4096, RUN), 0);
	assert_int_equal(blk_newest_generation(other, BS, 4096, RUN), 0);
	assert_int_equal(blk_newest_generation(elsewhere, BS, 4096, RUN), 0);
	assert_int_equal(blk_newest_generation(elsewhere, BS, 8192, RUN), 5);
	free(z);
	free(r);
	free(other);
	free(elsewhere);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(blk_verdict_name(BLK_GOOD), "good");
	assert_string_equal(blk_verdict_name(BLK_CORRUPT), "corrupt");
	assert_string_equal(blk_verdict_name(BLK_MISPLACED), "misplaced");
	assert_string_equal(blk_verdict_name(BLK_STALE), "stale");
	assert_string_equal(blk_verdict_name(BLK_UNWRITTEN), "unwritten");
	assert_string_equal(blk_verdict_name(BLK_FOREIGN), "foreign");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_by_hand),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_torn_write_is_corrupt),
		cmocka_unit_test(test_misplaced),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_unwritten),
		cmocka_unit_test(test_foreign),
		cmocka_unit_test(test_absurd_size),
		cmocka_unit_test(test_newest_generation_none),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
