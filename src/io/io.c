#define _POSIX_C_SOURCE 200809L
#include "io.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "platform.h"

/* Moves len bytes whole: resumes after a short transfer and retries EINTR;
 * at the file's position (read/write) or at offset (pread/pwrite).  A
 * read stops at end of file; a write that makes no progress fails with EIO
 * (it would loop forever). */
static ssize_t transfer(int fd, void *buf, size_t len, uint64_t offset, bool writing,
			bool positional)
{
	size_t done = 0;
	while (done < len) {
		char *at = (char *)buf + done;
		off_t off = (off_t)(offset + done);
		ssize_t n = writing ? (positional ? pwrite(fd, at, len - done, off) : write(fd, at, len - done))
				    : (positional ? pread(fd, at, len - done, off) : read(fd, at, len - done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0 && writing) {
			errno = EIO;
			return -1;
		}
		if (n == 0)
			break; /* end of file */
		done += (size_t)n;
	}
	return (ssize_t)done;
}

ssize_t io_pread_full(int fd, void *buf, size_t len, uint64_t offset)
{
	return transfer(fd, buf, len, offset, false, true);
}

ssize_t io_pwrite_full(int fd, const void *buf, size_t len, uint64_t offset)
{
	return transfer(fd, (void *)buf, len, offset, true, true);
}

ssize_t io_read_full(int fd, void *buf, size_t len)
{
	return transfer(fd, buf, len, 0, false, false);
}

ssize_t io_write_full(int fd, const void *buf, size_t len)
{
	return transfer(fd, (void *)buf, len, 0, true, false);
}

void io_fill(void *buf, size_t len, bool zeros, struct rng *r)
{
	if (zeros)
		memset(buf, 0, len);
	else
		rng_fill(r, buf, len);
}

void io_stamp(void *buf, size_t len, uint64_t offset, uint64_t salt)
{
	for (size_t at = 0; at + sizeof(uint64_t) <= len; at += IO_STAMP_EVERY) {
		uint64_t tag = (offset + at) ^ salt;
		memcpy((char *)buf + at, &tag, sizeof(tag));
	}
}

int io_layout(int fd, uint64_t len, size_t chunk, bool zeros, uint64_t seed,
	      volatile const int *stop)
{
	uint64_t written;
	return io_layout_timed(fd, len, chunk, zeros, seed, stop, 0, &written);
}

int io_layout_timed(int fd, uint64_t len, size_t chunk, bool zeros, uint64_t seed,
		    volatile const int *stop, double max_s, uint64_t *written)
{
	uint64_t deadline = max_s > 0 ? clock_ns() + (uint64_t)(max_s * 1e9) : UINT64_MAX;
	struct rng r;
	void *buf = plat_buffer_alloc(chunk);
	if (!buf)
		return -1;
	rng_seed(&r, seed, 0x1a70u);
	io_fill(buf, chunk, zeros, &r);
	int rc = 0;
	*written = 0;
	for (uint64_t off = 0; off < len && rc == 0; off += chunk) {
		if (clock_ns() >= deadline)
			break;
		if (*stop) {
			errno = EINTR;
			rc = -1;
			break;
		}
		size_t n = len - off < chunk ? (size_t)(len - off) : chunk;
		if (!zeros)
			io_stamp(buf, n, off, seed);
		if (io_pwrite_full(fd, buf, n, off) < 0)
			rc = -1;
		else
			*written = off + n;
	}
	if (rc == 0 && fdatasync(fd) != 0)
		rc = -1;
	int saved = errno;
	plat_buffer_free(buf, chunk);
	errno = saved;
	return rc;
}
