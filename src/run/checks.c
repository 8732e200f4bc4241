#define _POSIX_C_SOURCE 200809L
#include "checks.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "devinfo.h"
#include "finding.h"
#include "io.h"
#include "platform.h"
#include "rng.h"
#include "units.h"
#include "util.h"

static bool write_back_leaf(const struct devinfo *d)
{
	for (int i = 0; d && i < d->nleaves; i++)
		if (strcmp(d->stack[d->leaves[i]].write_cache, "write back") == 0)
			return true;
	return false;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The block to write: what it holds where the descriptor can read (a kept
 * file keeps the run's data), else test data of the same kind as the run's
 * (the same for the same seed). */
static void flush_data(int fd, void *buf, size_t len, uint64_t offset, const struct options *opt)
{
	struct rng g;
	if (pread(fd, buf, len, (off_t)offset) == (ssize_t)len)
		return;
	rng_seed(&g, opt->seed, 0xf1u);
	io_fill(buf, len, opt->zeros, &g);
	if (!opt->zeros)
		io_stamp(buf, len, offset, opt->seed);
}

/* Writes len bytes at offset and times the fdatasync that follows, rounds
 * times; -1 when one fails (the check then says nothing).  The write is
 * left out of the time: it only reaches the device's cache, and its trip
 * there (a loop device's worker, a hypervisor's queue) says nothing of
 * whether the flush reached stable media. */
static int time_flushes(int fd, uint64_t offset, size_t len, const struct options *opt,
			uint64_t ns[CHECKS_FLUSH_ROUNDS])
{
	void *buf = plat_buffer_alloc(len);
	int rc = buf ? 0 : -1;
	if (buf)
		flush_data(fd, buf, len, offset, opt);
	for (unsigned i = 0; rc == 0 && i < CHECKS_FLUSH_ROUNDS; i++) {
		if (pwrite(fd, buf, len, (off_t)offset) != (ssize_t)len) {
			rc = -1;
			break;
		}
		uint64_t t0 = clock_ns();
		if (fdatasync(fd) != 0)
			rc = -1;
		ns[i] = clock_ns() - t0;
	}
	if (buf)
		plat_buffer_free(buf, len);
	return rc;
}

/* A descriptor of the run's file of its own, without O_DSYNC (O_DIRECT as
 * the run had it): through the run's, whose writes carry O_DSYNC, each
 * write is already durable when it returns and the fdatasync after it
 * flushes nothing, so a disk that takes milliseconds to flush would look
 * instant.  The same file as the run's, by identity; -1 otherwise. */
static int open_for_flush(const struct target *t, bool direct)
{
	struct stat st;
	int fd = open(t->path, O_RDWR | O_CLOEXEC | (direct ? plat_o_direct : 0));
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !t->id_known || (uint64_t)st.st_dev != t->id_dev ||
	    (uint64_t)st.st_ino != t->id_ino) {
		close(fd);
		return -1;
	}
	return fd;
}

void checks_flush(const struct target *t, uint64_t region, uint64_t bs,
		  const struct options *opt, struct result *r)
{
	uint64_t ns[CHECKS_FLUSH_ROUNDS];
	uint64_t written = (r->bytes < region ? r->bytes : region) / bs * bs;
	size_t len = bs < CHECKS_FLUSH_LEN ? (size_t)bs : CHECKS_FLUSH_LEN;
	char median[32];
	bool trims_only = r->ops && !mix_has(&r->ops->mix, MIX_WRITE); /* writes nothing */
	/* on a zoned device the rewrite in place would be a write off a zone's
	 * write pointer, which it fails */
	if (r->dir != IO_WRITE || trims_only || !r->measured || written == 0 || r->zoned || t->no_data ||
	    !(t->created || opt->force) || !write_back_leaf(r->device))
		return;
	int fd = open_for_flush(t, opt->direct && !t->no_direct);
	int rc = fd >= 0 ? time_flushes(fd, written - bs, len, opt, ns) : -1;
	if (fd >= 0)
		close(fd);
	if (rc != 0)
		return;
	qsort(ns, CHECKS_FLUSH_ROUNDS, sizeof(ns[0]), cmp_u64);
	double mid = (double)(ns[CHECKS_FLUSH_ROUNDS / 2 - 1] + ns[CHECKS_FLUSH_ROUNDS / 2]) / 2;
	if (mid >= CHECKS_FLUSH_FAST_NS)
		return;
	fmt_ns(median, sizeof(median), mid);
	warn(r, "flushes return in %s: the device or hypervisor acknowledges them without "
	     "reaching stable media, or it has power-loss protection; durability is not "
	     "verified by this run", median);
	struct finding *f = finding_add(r, "flush_fast");
	finding_figure(f, "median_ns", mid, 0);
	finding_figure(f, "min_ns", (double)ns[0], 0);
	finding_figure(f, "max_ns", (double)ns[CHECKS_FLUSH_ROUNDS - 1], 0);
	finding_figure(f, "rounds", CHECKS_FLUSH_ROUNDS, 0);
	finding_figure(f, "bytes", (double)len, 0);
}
