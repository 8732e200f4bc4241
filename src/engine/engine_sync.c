/* The synchronous engine: one pread/pwrite at a time, done inside submit,
 * so at queue depth 1 the timed loop is still: offset, clock, pread or
 * pwrite, clock.  io_pread_full/io_pwrite_full already resume short
 * transfers and retry EINTR; a trim is plat_discard. */
#define _POSIX_C_SOURCE 200809L
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "io.h"
#include "platform.h"

struct engine {
	int fd;
	bool blockdev;
	const char *trim_path;      /* set by the first trim */
	struct engine_io *finished; /* the one request done, not yet reaped */
};

static int sync_probe(char *why, size_t why_len)
{
	(void)why;
	(void)why_len;
	return 0;
}

static struct engine *sync_open(const struct engine_setup *s, char *why, size_t why_len)
{
	(void)why;
	(void)why_len;
	if (s->qd != 1) {
		errno = EINVAL;
		return NULL;
	}
	struct engine *e = calloc(1, sizeof(*e));
	struct stat st;
	if (!e)
		return NULL;
	e->fd = s->fd;
	e->blockdev = fstat(s->fd, &st) == 0 && S_ISBLK(st.st_mode);
	return e;
}

static int sync_submit(struct engine *e, struct engine_io *const ios[], unsigned n)
{
	if (n != 1 || e->finished)
		return -EINVAL; /* one at a time: qd is 1 */
	struct engine_io *io = ios[0];
	e->finished = io;
	if (io->op == ENGINE_TRIM) {
		e->trim_path = plat_discard_name(e->blockdev);
		bool ok = plat_discard(e->fd, e->blockdev, io->offset, io->len) == 0;
		io->result = ok ? (int64_t)io->len : -(int64_t)errno;
		return 0;
	}
	ssize_t moved = io->write ? io_pwrite_full(e->fd, io->buf, io->len, io->offset)
				  : io_pread_full(e->fd, io->buf, io->len, io->offset);
	io->done = moved > 0 ? (uint32_t)moved : 0;
	io->result = moved < 0 ? -(int64_t)errno : (int64_t)moved;
	return 0;
}

static int sync_reap(struct engine *e, struct engine_io *done[], unsigned min, unsigned max)
{
	(void)min;
	if (!e->finished || max == 0)
		return 0;
	done[0] = e->finished;
	e->finished = NULL;
	return 1;
}

static void sync_close(struct engine *e)
{
	free(e);
}

static const char *sync_trim_path(struct engine *e)
{
	return e->trim_path;
}

/* Each request completes inside its own system call: nothing to reap,
 * nothing to register. */
static void sync_facts(struct engine *e, struct engine_facts *f)
{
	(void)e;
	*f = (struct engine_facts){ .fixed_buffers = -1, .fixed_file = -1 };
}

const struct engine_ops engine_sync = ENGINE_OPS(sync, "sync", "sync", 1);
