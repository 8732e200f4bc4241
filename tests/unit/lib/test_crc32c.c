/* Unit tests of src/lib/crc32c.c: RFC 3720's vectors (appendix B.4) and the
 * usual check value, by the table and by the instruction where the CPU has
 * it; the two agreeing on every length and alignment around the stretch
 * boundaries; chaining (the CRC of a then b from the CRC of a); and a
 * changed bit always changing the CRC. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "crc32c.h"
#include "rng.h"

typedef uint32_t (*crc_fn)(uint32_t, const void *, size_t);

/* Every way this CPU can compute it: the table, the dispatcher, and the
 * instruction when present. */
static unsigned ways(crc_fn out[3])
{
	unsigned n = 0;
	out[n++] = crc32c_sw;
	out[n++] = crc32c;
	if (crc32c_hw_available())
		out[n++] = crc32c_hw;
	return n;
}

/* RFC 3720 B.4: 32 bytes of zeros, of ones, increasing, decreasing, and an
 * iSCSI Read (10) command PDU; the CRC as the RFC prints its bytes, in
 * wire order, taken little-endian here. */
static void test_rfc3720_vectors(void **state)
{
	(void)state;
	unsigned char zeros[32], ones[32], up[32], down[32];
	static const unsigned char read_pdu[48] = {
		0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
		0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	memset(zeros, 0, sizeof(zeros));
	memset(ones, 0xff, sizeof(ones));
	for (unsigned i = 0; i < 32; i++) {
		up[i] = (unsigned char)i;
		down[i] = (unsigned char)(31 - i);
	}
	crc_fn f[3];
	unsigned n = ways(f);
	for (unsigned k = 0; k < n; k++) {
		assert_int_equal(f[k](0, zeros, 32), 0x8A9136AAu);
		assert_int_equal(f[k](0, ones, 32), 0x62A8AB43u);
		assert_int_equal(f[k](0, up, 32), 0x46DD794Eu);
		assert_int_equal(f[k](0, down, 32), 0x113FDB5Cu);
		assert_int_equal(f[k](0, read_pdu, 48), 0xD9963A56u);
		/* the check value of every CRC catalogue, and nothing at all */
		assert_int_equal(f[k](0, "123456789", 9), 0xE3069283u);
		assert_int_equal(f[k](0, "", 0), 0u);
	}
}

/* A long zero run goes through the three-stream path; its CRC is the one
 * of the bytes fed one at a time. */
static uint32_t bytewise(const unsigned char *p, size_t len)
{
	uint32_t crc = 0;
	for (size_t i = 0; i < len; i++)
		crc = crc32c_sw(crc, p + i, 1);
	return crc;
}

/* Lengths around every stretch boundary (8, 3 x 256, 3 x 8192) and every
 * misalignment: the instruction's three streams, joined, equal the table,
 * and both equal the bytewise CRC. */
static void test_paths_agree(void **state)
{
	(void)state;
	enum { MAX = 3 * 8192 * 2 + 3 * 256 + 64 };
	unsigned char *buf = malloc(MAX + 8);
	assert_non_null(buf);
	struct rng r;
	rng_seed(&r, 42, 7);
	rng_fill(&r, buf, MAX + 8);
	static const size_t lens[] = { 0, 1, 7, 8, 9, 63, 64, 255, 767, 768, 769, 1000,
				       4096, 24575, 24576, 24577, 24576 + 768, 49152,
				       49152 + 767, MAX };
	crc_fn f[3];
	unsigned n = ways(f);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		for (unsigned align = 0; align < 8; align++) {
			const unsigned char *p = buf + align;
			uint32_t want = bytewise(p, lens[i]);
			for (unsigned k = 0; k < n; k++)
				assert_int_equal(f[k](0, p, lens[i]), want);
		}
	free(buf);
}

/* crc32c(crc32c(0, a), b) is the CRC of a followed by b, wherever the cut. */
static void test_chaining(void **state)
{
	(void)state;
	enum { LEN = 3 * 8192 + 1000 };
	static unsigned char buf[LEN];
	struct rng r;
	rng_seed(&r, 1, 2);
	rng_fill(&r, buf, LEN);
	crc_fn f[3];
	unsigned n = ways(f);
	for (unsigned k = 0; k < n; k++) {
		uint32_t whole = f[k](0, buf, LEN);
		for (size_t cut = 0; cut <= LEN; cut += 997)
			assert_int_equal(f[k](f[k](0, buf, cut), buf + cut, LEN - cut), whole);
	}
}

/* One flipped bit anywhere in a 64 KiB block changes its CRC (a CRC
 * detects every error of one bit, and the block is far below its period). */
static void test_every_bit_flip_seen(void **state)
{
	(void)state;
	enum { LEN = 65536 };
	unsigned char *buf = malloc(LEN);
	assert_non_null(buf);
	struct rng r;
	rng_seed(&r, 3, 4);
	rng_fill(&r, buf, LEN);
	uint32_t good = crc32c(0, buf, LEN);
	for (size_t at = 0; at < LEN; at += 61) {
		buf[at] ^= (unsigned char)(1u << (at % 8));
		assert_int_not_equal(crc32c(0, buf, LEN), good);
		buf[at] ^= (unsigned char)(1u << (at % 8));
	}
	assert_int_equal(crc32c(0, buf, LEN), good);
	free(buf);
}

static void test_impl_named(void **state)
{
	(void)state;
	const char *impl = crc32c_impl();
	assert_true(strcmp(impl, crc32c_hw_available() ? "sse4.2" : "table") == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc3720_vectors),
		cmocka_unit_test(test_paths_agree),
		cmocka_unit_test(test_chaining),
		cmocka_unit_test(test_every_bit_flip_seen),
		cmocka_unit_test(test_impl_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
