/* capacity's undo journal: the bytes of every range before capacity writes
 * it, kept in memory for the restore and appended to a file on another
 * disk, synced before the writes it covers, so that a run that dies
 * (SIGKILL, a power cut, a crash) leaves what is needed to put the device
 * back.  Restoring goes newest first: on a device that wraps, two ranges
 * may be one place, and the oldest save of a place holds what was there
 * before capacity began.
 *
 * The file: a header (magic, version, byte order, run id, claimed size,
 * sector, device name, a check), then entries, each a head (magic, offset,
 * length, a check of all three and the bytes) and the bytes, and, once every
 * range was written back, a last head saying so.  An entry whose check
 * fails ends the journal: the run died while appending it, and the journal
 * is synced before any write, so its write never happened. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "capacity_int.h"
#include "io.h"
#include "platform.h"

#define JOURNAL_MAGIC "diskbench-undo\n"
#define JOURNAL_VERSION 1
#define ENDIAN_MARK 0x0102030405060708ull
#define ENTRY_MAGIC 0x4e45454f444e5544ull /* "DUNDOEEN" */
#define BACK_MAGIC 0x4b4341424f444e55ull  /* "UNDOBACK": every range was written back */

struct journal_head {
	char magic[16];
	uint64_t version, endian, run, claimed, sector;
	char device[200];
	uint64_t check;
};

struct entry_head {
	uint64_t magic, off, len, check;
};

struct saved {
	uint64_t off;
	size_t len;
	unsigned char *data;
};

struct cap_journal {
	int fd;
	uint64_t run, claimed, end; /* end: the file's length so far */
	unsigned sector;
	struct saved *s;
	size_t n, cap;
	uint64_t bytes;
	void *bounce; /* CAP_CHUNK bytes, aligned for O_DIRECT */
	struct fs_info fs;
	bool in_ram;
	char path[4096];
};

/* A check of words (every length here is a multiple of 8): each word mixed
 * in and multiplied, so a torn tail or a flipped bit changes it. */
static uint64_t sum_words(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;
	for (size_t i = 0; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	return h;
}

static uint64_t head_check(const struct journal_head *h)
{
	return sum_words(0xcbf29ce484222325ull, h, offsetof(struct journal_head, check));
}

static uint64_t entry_check(uint64_t off, uint64_t len, const void *data)
{
	uint64_t pre[3] = { ENTRY_MAGIC, off, len };
	return sum_words(sum_words(0xcbf29ce484222325ull, pre, sizeof(pre)), data, (size_t)len);
}

/* A new file's name must survive a crash too: its directory synced. */
static int sync_parent(const char *path)
{
	char copy[4096];
	snprintf(copy, sizeof(copy), "%s", path);
	int dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	int rc = fsync(dfd);
	close(dfd);
	return rc;
}

static int append(struct cap_journal *j, const void *buf, size_t len)
{
	if (io_pwrite_full(j->fd, buf, len, j->end) < 0)
		return -1;
	j->end += len;
	return 0;
}

/* The room the journal may need on its filesystem, there now. */
static int check_room(struct cap_journal *j, uint64_t room)
{
	struct statvfs vfs;
	if (fstatvfs(j->fd, &vfs) != 0)
		return -1;
	j->in_ram = plat_fs_info(j->fd, &j->fs) == 0 && j->fs.in_ram;
	if ((uint64_t)vfs.f_bavail * vfs.f_frsize < room) {
		errno = ENOSPC;
		return -1;
	}
	return 0;
}

bool cap_journal_in_ram(const struct cap_journal *j)
{
	return j->in_ram;
}

struct cap_journal *cap_journal_create(const char *path, uint64_t run, uint64_t claimed,
				       unsigned sector, const char *device, uint64_t room)
{
	struct cap_journal *j = calloc(1, sizeof(*j));
	struct journal_head h;
	if (!j)
		return NULL;
	j->fd = -1;
	j->run = run, j->claimed = claimed, j->sector = sector;
	snprintf(j->path, sizeof(j->path), "%s", path);
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, JOURNAL_MAGIC, sizeof(JOURNAL_MAGIC));
	h.version = JOURNAL_VERSION, h.endian = ENDIAN_MARK;
	h.run = run, h.claimed = claimed, h.sector = sector;
	snprintf(h.device, sizeof(h.device), "%s", device);
	h.check = head_check(&h);
	j->bounce = plat_buffer_alloc(CAP_CHUNK);
	if (!j->bounce)
		goto fail;
	j->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (j->fd < 0)
		goto fail;
	if (check_room(j, room) != 0 || append(j, &h, sizeof(h)) != 0 || fdatasync(j->fd) != 0 ||
	    sync_parent(path) != 0) {
		int saved = errno;
		unlink(path);
		errno = saved;
		goto fail;
	}
	return j;
fail:;
	int saved = errno;
	if (j->fd >= 0)
		close(j->fd);
	if (j->bounce)
		plat_buffer_free(j->bounce, CAP_CHUNK);
	free(j);
	errno = saved;
	return NULL;
}

int cap_journal_save(struct cap_journal *j, const struct cap_dev *dev, uint64_t off, size_t len,
		     int *dev_errno)
{
	if (len > CAP_CHUNK) {
		errno = EINVAL;
		return -1;
	}
	int rc = dev->read(dev->ctx, j->bounce, len, off);
	if (rc != 0) {
		*dev_errno = -rc;
		return 1;
	}
	if (j->n == j->cap) {
		size_t cap = j->cap ? 2 * j->cap : 64;
		struct saved *s = realloc(j->s, cap * sizeof(*s));
		if (!s)
			return -1;
		j->s = s, j->cap = cap;
	}
	unsigned char *data = malloc(len);
	if (!data)
		return -1;
	memcpy(data, j->bounce, len);
	struct entry_head e = { ENTRY_MAGIC, off, len, entry_check(off, len, data) };
	if (append(j, &e, sizeof(e)) != 0 || append(j, data, len) != 0) {
		free(data);
		return -1;
	}
	j->s[j->n++] = (struct saved){ off, len, data };
	j->bytes += len;
	return 0;
}

int cap_journal_sync(struct cap_journal *j)
{
	return fdatasync(j->fd);
}

void cap_journal_counts(const struct cap_journal *j, uint64_t *ranges, uint64_t *bytes)
{
	*ranges = j->n;
	*bytes = j->bytes;
}

uint64_t cap_journal_restore(struct cap_journal *j, const struct cap_dev *dev, uint64_t holds,
			     struct capacity_report *rep)
{
	uint64_t failed = 0;
	for (size_t i = j->n; i-- > 0;) {
		const struct saved *s = &j->s[i];
		memcpy(j->bounce, s->data, s->len);
		int rc = dev->write(dev->ctx, j->bounce, s->len, s->off);
		rep->writes++, rep->written += s->len;
		if (rc == 0)
			rep->restored++;
		else if (s->off >= holds)
			rep->restore_failed_past++;
		else
			rep->restore_failed++, failed++;
	}
	/* every write back taken: said in the journal, so that a replay that
	 * finds none of the run's stamps knows why (not a twin device's) */
	if (failed == 0 && j->n > 0) {
		struct entry_head e = { BACK_MAGIC, 0, 0, entry_check(0, 0, NULL) };
		if (append(j, &e, sizeof(e)) != 0 || fdatasync(j->fd) != 0)
			rep->restore_failed++, failed++;
	}
	/* the restores reach the medium before the journal may go */
	if (dev->flush(dev->ctx) != 0 && failed == 0)
		rep->restore_failed++, failed++;
	return failed;
}

void cap_journal_close(struct cap_journal *j, bool remove)
{
	if (!j)
		return;
	if (j->fd >= 0)
		close(j->fd);
	if (remove) {
		unlink(j->path);
		sync_parent(j->path);
	}
	for (size_t i = 0; i < j->n; i++)
		free(j->s[i].data);
	free(j->s);
	plat_buffer_free(j->bounce, CAP_CHUNK);
	free(j);
}

/* ---- a journal an earlier run left ---------------------------------------- */

struct leftover {
	int fd;
	struct journal_head h;
	struct saved *s;
	size_t n;
	bool written_back; /* the run wrote every range back (its flush may have failed) */
};

static int fail_why(char *why, size_t len, const char *fmt, const char *path)
{
	snprintf(why, len, fmt, path);
	return -1;
}

/* The file, checked: ours (a regular file this user owns: a journal
 * planted by another user in a shared directory is not trusted), whole
 * header, this device's size and sector. */
static int open_leftover(const char *path, const struct cap_dev *dev, struct leftover *lo,
			 char *why, size_t len)
{
	struct stat st;
	lo->fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (lo->fd < 0 && errno == ENOENT)
		return 0;
	if (lo->fd < 0)
		return fail_why(why, len, "undo journal '%s': cannot open it", path);
	if (fstat(lo->fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())
		return fail_why(why, len, "undo journal '%s': not a regular file of this user", path);
	if (io_pread_full(lo->fd, &lo->h, sizeof(lo->h), 0) != (ssize_t)sizeof(lo->h) ||
	    memcmp(lo->h.magic, JOURNAL_MAGIC, sizeof(JOURNAL_MAGIC)) != 0 ||
	    lo->h.endian != ENDIAN_MARK || lo->h.version != JOURNAL_VERSION ||
	    lo->h.check != head_check(&lo->h))
		return fail_why(why, len, "'%s' is not a capacity undo journal; move it away or "
			       "name another with --journal", path);
	if (lo->h.claimed != dev->size || lo->h.sector != dev->sector)
		return fail_why(why, len, "undo journal '%s' is of another device (its size or "
			       "sector differs); put it back on that one, or move it away", path);
	return 1;
}

/* Every whole entry, in order, into lo->s; a torn or corrupt one ends it. */
static int read_entries(struct leftover *lo, unsigned sector)
{
	uint64_t at = sizeof(lo->h);
	size_t cap = 0;
	for (;;) {
		struct entry_head e;
		if (io_pread_full(lo->fd, &e, sizeof(e), at) != (ssize_t)sizeof(e))
			return 0;
		if (e.magic == BACK_MAGIC && e.len == 0 && e.check == entry_check(0, 0, NULL)) {
			lo->written_back = true;
			return 0;
		}
		if (e.magic != ENTRY_MAGIC || e.len == 0 || e.len > CAP_CHUNK || e.len % sector ||
		    e.off % sector || e.off > lo->h.claimed || e.len > lo->h.claimed - e.off)
			return 0;
		unsigned char *data = malloc((size_t)e.len);
		if (!data)
			return -1;
		if (io_pread_full(lo->fd, data, (size_t)e.len, at + sizeof(e)) != (ssize_t)e.len ||
		    entry_check(e.off, e.len, data) != e.check) {
			free(data);
			return 0;
		}
		if (lo->n == cap) {
			cap = cap ? 2 * cap : 64;
			struct saved *s = realloc(lo->s, cap * sizeof(*s));
			if (!s) {
				free(data);
				return -1;
			}
			lo->s = s;
		}
		lo->s[lo->n++] = (struct saved){ e.off, (size_t)e.len, data };
		at += sizeof(e) + e.len;
	}
}

/* One range: each sector still holding the run's stamp gets its saved bytes. */
static void replay_range(const struct saved *s, const struct cap_dev *dev, uint64_t run,
			 void *bounce, struct cap_replay *out)
{
	unsigned char *cur = bounce;
	uint64_t at, back = 0;
	out->ranges++;
	if (dev->read(dev->ctx, cur, s->len, s->off) != 0) {
		out->failed++;
		return;
	}
	for (size_t i = 0; i < s->len; i += dev->sector) {
		if (cap_stamp_seen(cur + i, dev->sector, run, &at) != CAP_SEEN_OURS) {
			out->skipped++;
			continue;
		}
		memcpy(cur + i, s->data + i, dev->sector);
		back++;
	}
	if (back == 0)
		return;
	if (dev->write(dev->ctx, cur, s->len, s->off) != 0)
		out->failed++;
	else
		out->sectors += back;
}

int cap_journal_replay(const char *path, const struct cap_dev *dev, struct cap_replay *out,
		       char *why, size_t len)
{
	struct leftover lo = { .fd = -1 };
	void *bounce = NULL;
	memset(out, 0, sizeof(*out));
	snprintf(out->path, sizeof(out->path), "%s", path);
	int rc = open_leftover(path, dev, &lo, why, len);
	if (rc == 1 && read_entries(&lo, dev->sector) != 0)
		rc = fail_why(why, len, "undo journal '%s': out of memory reading it", path);
	if (rc == 1 && !(bounce = plat_buffer_alloc(CAP_CHUNK)))
		rc = fail_why(why, len, "undo journal '%s': out of memory", path);
	for (size_t i = lo.n; rc == 1 && i-- > 0;)
		replay_range(&lo.s[i], dev, lo.h.run, bounce, out);
	if (rc == 1 && dev->flush(dev->ctx) != 0)
		out->failed++;
	/* ranges saved, and not one sector of that run here: most likely the
	 * journal of another device of the same size (a twin stick in the same
	 * slot), whose only copy of those bytes it is: kept, never removed */
	if (rc == 1 && out->ranges > 0 && out->sectors == 0 && out->failed == 0 && !lo.written_back)
		rc = fail_why(why, len, "undo journal '%s' holds what an earlier run overwrote, but "
			      "no sector of this device holds that run's blocks: it is most likely "
			      "another device's (put that one back and run again), else move it away", path);
	if (rc == 1) {
		out->done = true;
		if (out->failed == 0 && unlink(path) == 0)
			sync_parent(path);
	}
	for (size_t i = 0; i < lo.n; i++)
		free(lo.s[i].data);
	free(lo.s);
	if (bounce)
		plat_buffer_free(bounce, CAP_CHUNK);
	if (lo.fd >= 0)
		close(lo.fd);
	return rc;
}
