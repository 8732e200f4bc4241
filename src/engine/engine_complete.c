/* The completion handler every engine shares: short transfers and -EAGAIN
 * go round again, so the timed loop sees whole blocks, end of file or -errno.
 * Apart from engine.c (the selection table, which names every engine) so
 * that the engines use it without using the table that uses them. */
#define _POSIX_C_SOURCE 200809L
#include "engine.h"

#include <errno.h>

/* A request that gets -EAGAIN this many times in a row has failed. */
#define ENGINE_MAX_RETRIES 1000u

enum engine_verdict engine_complete(struct engine_io *io, int64_t res)
{
	if (io->op == ENGINE_TRIM && res == 0) {
		io->result = io->len; /* a trim moves no bytes: 0 is the whole range done */
		return ENGINE_DONE;
	}
	if (res == -EAGAIN || res == -EINTR) {
		if (++io->retries < ENGINE_MAX_RETRIES)
			return ENGINE_AGAIN;
		io->result = res;
		return ENGINE_DONE;
	}
	if (res < 0) {
		io->result = res;
		return ENGINE_DONE;
	}
	if (res == 0) {
		/* a read at end of file; a write that moves nothing would loop
		 * forever, so it is an I/O error, as in io_pwrite_full */
		io->result = io->write ? -EIO : (int64_t)io->done;
		return ENGINE_DONE;
	}
	io->retries = 0;
	io->done += res > (int64_t)engine_io_left(io) ? engine_io_left(io) : (uint32_t)res;
	if (io->done < io->len)
		return ENGINE_AGAIN;
	io->result = io->len;
	return ENGINE_DONE;
}
