/* The synchronous engine: one pread/pwrite at a time, done inside submit,
 * so at queue depth 1 the timed loop is still: offset, clock, pread or
 * pwrite, clock.  io_pread_full/io_pwrite_full already resume short
 * transfers and retry EINTR; a trim is plat_discard, a sync fsync(2) or
 * fdatasync(2).  At the file's position (engine_setup.at_position) it
 * reads and writes as fio's sync engine does: read(2)/write(2), with an
 * lseek(2) only where the next offset is not where the last one ended. */
#define _POSIX_C_SOURCE 200809L
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"
#include "platform.h"

struct engine {
	int fd;
	bool blockdev;
	bool at_position;           /* read/write at the file's position */
	uint64_t position;          /* where it is; UINT64_MAX: not known */
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
	e->at_position = s->at_position;
	off_t at = s->at_position ? lseek(s->fd, 0, SEEK_CUR) : -1; /* before the timing */
	e->position = at >= 0 ? (uint64_t)at : UINT64_MAX;
	return e;
}

/* fio's sync engine: to the offset only where the position is not there */
static ssize_t move_at_position(struct engine *e, struct engine_io *io)
{
	if (e->position != io->offset && lseek(e->fd, (off_t)io->offset, SEEK_SET) < 0)
		return -1;
	e->position = io->offset;
	ssize_t moved = io->write ? io_write_full(e->fd, io->buf, io->len)
				  : io_read_full(e->fd, io->buf, io->len);
	e->position = moved >= 0 ? e->position + (uint64_t)moved : UINT64_MAX;
	return moved;
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
	if (io->op == ENGINE_FSYNC || io->op == ENGINE_FDATASYNC) {
		int rc = io->op == ENGINE_FDATASYNC ? fdatasync(e->fd) : fsync(e->fd);
		io->result = rc == 0 ? 0 : -(int64_t)errno;
		return 0;
	}
	ssize_t moved = e->at_position ? move_at_position(e, io)
			: io->write ? io_pwrite_full(e->fd, io->buf, io->len, io->offset)
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
