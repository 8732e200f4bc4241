/* CRC32C two ways: a slicing-by-8 table (any CPU) and the SSE4.2 crc32
 * instruction in three interleaved streams (x86-64 CPUs that have it).
 *
 * Inside, a "raw" CRC is the register without the inversions: running it
 * over data D from register r gives raw(r, D) = shift(r, |D|) ^ raw(0, D),
 * where shift(r, n) is raw(r, n zero bytes), linear in r.  That is what
 * lets three streams over three consecutive stretches be joined: the first
 * is shifted past the second and xored with it, then past the third.  The
 * shifts by the two stretch lengths used are tables of 4 x 256 entries,
 * built once from the table CRC itself. */
#define _POSIX_C_SOURCE 200809L
#include "crc32c.h"

#include <pthread.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CRC32C_X86 1
#include <nmmintrin.h>
#endif

#define POLY 0x82F63B78u     /* reflected Castagnoli */
#define LONG_STRETCH 8192u   /* bytes per stream in the main loop */
#define SHORT_STRETCH 256u   /* per stream for what is left below 3 x 8 KiB */

static uint32_t table[8][256];            /* slicing-by-8 */
/* shift(r, n) for one n, a byte of r at a time */
struct shift_table {
	uint32_t t[4][256];
};
static struct shift_table shift_long, shift_short;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static bool have_hw;

static uint32_t load32_le(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The raw CRC by table, 8 bytes a step once p is 8-aligned. */
static uint32_t sw_raw(uint32_t crc, const unsigned char *p, size_t len)
{
	while (len > 0 && ((uintptr_t)p & 7) != 0) {
		crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
		len--;
	}
	for (; len >= 8; p += 8, len -= 8) {
		uint32_t lo = crc ^ load32_le(p), hi = load32_le(p + 4);
		crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^
		      table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
		      table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^
		      table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
	}
	while (len-- > 0)
		crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

/* shift(r, n) for every r, as four byte tables: shift is linear, so it is
 * the xor of its values on r's set bits, each found by running the table
 * CRC over n zero bytes. */
static void build_shift(struct shift_table *out, size_t n)
{
	static const unsigned char zeros[SHORT_STRETCH];
	uint32_t basis[32];
	for (unsigned bit = 0; bit < 32; bit++) {
		uint32_t crc = 1u << bit;
		for (size_t left = n; left > 0; left -= SHORT_STRETCH)
			crc = sw_raw(crc, zeros, SHORT_STRETCH);
		basis[bit] = crc;
	}
	for (unsigned k = 0; k < 4; k++)
		for (unsigned b = 0; b < 256; b++) {
			uint32_t v = 0;
			for (unsigned bit = 0; bit < 8; bit++)
				if (b & (1u << bit))
					v ^= basis[8 * k + bit];
			out->t[k][b] = v;
		}
}

static void build_tables(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t crc = n;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ POLY : crc >> 1;
		table[0][n] = crc;
	}
	for (uint32_t n = 0; n < 256; n++)
		for (int k = 1; k < 8; k++)
			table[k][n] = (table[k - 1][n] >> 8) ^ table[0][table[k - 1][n] & 0xff];
	_Static_assert(LONG_STRETCH % SHORT_STRETCH == 0, "whole zero stretches");
	build_shift(&shift_long, LONG_STRETCH);
	build_shift(&shift_short, SHORT_STRETCH);
#ifdef CRC32C_X86
	__builtin_cpu_init();
	have_hw = __builtin_cpu_supports("sse4.2");
#endif
}

static void init(void)
{
	pthread_once(&tables_once, build_tables);
}

uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	init();
	return ~sw_raw(~crc, buf, len);
}

#ifdef CRC32C_X86
static inline uint32_t shift(const struct shift_table *s, uint32_t crc)
{
	return s->t[0][crc & 0xff] ^ s->t[1][(crc >> 8) & 0xff] ^ s->t[2][(crc >> 16) & 0xff] ^
	       s->t[3][crc >> 24];
}

static inline uint64_t load64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* Three streams over three stretches of n bytes each, joined; returns the
 * raw CRC continued from crc over 3n bytes (p 8-aligned, n a multiple of 8). */
__attribute__((target("sse4.2")))
static uint32_t hw_three(uint32_t crc, const unsigned char *p, size_t n,
			 const struct shift_table *t)
{
	uint64_t c0 = crc, c1 = 0, c2 = 0;
	for (const unsigned char *end = p + n; p < end; p += 8) {
		c0 = _mm_crc32_u64(c0, load64(p));
		c1 = _mm_crc32_u64(c1, load64(p + n));
		c2 = _mm_crc32_u64(c2, load64(p + 2 * n));
	}
	uint32_t joined = shift(t, (uint32_t)c0) ^ (uint32_t)c1;
	return shift(t, joined) ^ (uint32_t)c2;
}

__attribute__((target("sse4.2")))
static uint32_t hw_raw(uint32_t crc, const unsigned char *p, size_t len)
{
	while (len > 0 && ((uintptr_t)p & 7) != 0) {
		crc = _mm_crc32_u8(crc, *p++);
		len--;
	}
	for (; len >= 3 * LONG_STRETCH; p += 3 * LONG_STRETCH, len -= 3 * LONG_STRETCH)
		crc = hw_three(crc, p, LONG_STRETCH, &shift_long);
	for (; len >= 3 * SHORT_STRETCH; p += 3 * SHORT_STRETCH, len -= 3 * SHORT_STRETCH)
		crc = hw_three(crc, p, SHORT_STRETCH, &shift_short);
	uint64_t c = crc;
	for (; len >= 8; p += 8, len -= 8)
		c = _mm_crc32_u64(c, load64(p));
	crc = (uint32_t)c;
	while (len-- > 0)
		crc = _mm_crc32_u8(crc, *p++);
	return crc;
}
#endif

bool crc32c_hw_available(void)
{
	init();
	return have_hw;
}

uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
#ifdef CRC32C_X86
	if (crc32c_hw_available())
		return ~hw_raw(~crc, buf, len);
#endif
	return crc32c_sw(crc, buf, len); /* never reached where callers ask first */
}

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
	init();
#ifdef CRC32C_X86
	if (have_hw)
		return ~hw_raw(~crc, buf, len);
#endif
	return ~sw_raw(~crc, buf, len);
}

const char *crc32c_impl(void)
{
	return crc32c_hw_available() ? "sse4.2" : "table";
}
