/* CRC32C (Castagnoli: polynomial 0x1EDC6F41, reflected 0x82F63B78), the
 * checksum of iSCSI (RFC 3720), ext4 and btrfs metadata, and of the SSE4.2
 * `crc32` instruction.  --verify stamps every block written with it, so it
 * must be cheap beside the write: the instruction where the CPU has it
 * (chosen at run time, three streams interleaved to hide its latency), a
 * slicing-by-8 table otherwise.  Both give the same value for any input. */
#ifndef CRC32C_H
#define CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The CRC of buf[0..len) continued from crc, the CRC of what came before
 * (0 to begin): crc32c(crc32c(0, a, n), b, m) is the CRC of a then b.  The
 * usual pre- and post-inversion are inside, as in zlib's crc32(). */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

/* The two ways, for tests and the microbenchmark (bench/crc32c_speed.c):
 * the table always; the instruction only where crc32c_hw_available(). */
uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len);
bool crc32c_hw_available(void);
uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len);
/* "sse4.2" or "table": what crc32c() uses on this CPU. */
const char *crc32c_impl(void);

#endif
