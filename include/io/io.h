/* Whole transfers: pread/pwrite that retry on EINTR and continue after short
 * transfers, and the data written by write tests.  Return the bytes moved
 * (fewer only at end of file for reads) or -1 with errno. */
#ifndef IO_H
#define IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "rng.h"

ssize_t io_pread_full(int fd, void *buf, size_t len, uint64_t offset);
ssize_t io_pwrite_full(int fd, const void *buf, size_t len, uint64_t offset);
/* The same at the file's position, with read(2) and write(2), as fio's sync
 * engine moves its blocks (its position moves on by what was moved). */
ssize_t io_read_full(int fd, void *buf, size_t len);
ssize_t io_write_full(int fd, const void *buf, size_t len);

/* Incompressible pseudo-random data, or zeros as from /dev/zero. */
void io_fill(void *buf, size_t len, bool zeros, struct rng *r);
/* Makes every 512-byte sector of buf unique to (offset, salt), so storage
 * that deduplicates or compresses at 512 B cannot fold repeated writes of
 * one buffer: its first 8 bytes become (offset of the sector) ^ salt.
 * Cheap: one 8-byte store per 512 B.  Written data then depend only on
 * (offset, salt) and the buffer's base pattern. */
#define IO_STAMP_EVERY 512
void io_stamp(void *buf, size_t len, uint64_t offset, uint64_t salt);

/* Writes len bytes of fresh data to fd from offset 0 in chunks of chunk bytes
 * (used to lay out a read test's file), checking *stop between chunks. */
int io_layout(int fd, uint64_t len, size_t chunk, bool zeros, uint64_t seed,
	      volatile const int *stop);
/* The same, stopping after max_s seconds (0: no limit); *written says how
 * far it got (whole chunks), flushed either way. */
int io_layout_timed(int fd, uint64_t len, size_t chunk, bool zeros, uint64_t seed,
		    volatile const int *stop, double max_s, uint64_t *written);

#endif
