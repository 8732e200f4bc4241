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
#include "devinfo_stat.h"
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

/* The flushes the disks at the bottom of d completed so far, by their stat
 * counters (field 16, Linux 5.5): 0 with *n, -1 when one cannot be read or
 * its kernel keeps no flush counter. */
static int disks_flushes(const struct devinfo *d, uint64_t *n)
{
	const char *sysfs = devinfo_default_roots()->sysfs;
	*n = 0;
	for (int i = 0; i < d->nleaves; i++) {
		struct devstat st;
		if (devstat_read(sysfs, d->stack[d->leaves[i]].name, &st) != 0 || !st.has_flush)
			return -1;
		*n += st.flushes;
	}
	return d->nleaves > 0 ? 0 : -1;
}

/* What the rounds measured: each fdatasync's time, and, where the disks'
 * flush counters can be read (counted), whether it rose while it waited
 * (a flush reached a disk: the check's own, or another process's). */
struct flush_rounds {
	uint64_t ns[CHECKS_FLUSH_ROUNDS];
	bool counted;
	bool seen[CHECKS_FLUSH_ROUNDS];
};

/* Writes len bytes at offset and times the fdatasync that follows, rounds
 * times; -1 when one fails (the check then says nothing).  The write is
 * left out of the time: it only reaches the device's cache, and its trip
 * there (a loop device's worker, a hypervisor's queue) says nothing of
 * whether the flush reached stable media; the counters are read outside
 * it too. */
static int time_flushes(int fd, uint64_t offset, size_t len, const struct options *opt,
			const struct devinfo *d, struct flush_rounds *fr)
{
	void *buf = plat_buffer_alloc(len);
	int rc = buf ? 0 : -1;
	uint64_t before = 0, after = 0;
	if (buf)
		flush_data(fd, buf, len, offset, opt);
	fr->counted = true;
	for (unsigned i = 0; rc == 0 && i < CHECKS_FLUSH_ROUNDS; i++) {
		if (pwrite(fd, buf, len, (off_t)offset) != (ssize_t)len) {
			rc = -1;
			break;
		}
		fr->counted = fr->counted && disks_flushes(d, &before) == 0;
		uint64_t t0 = clock_ns();
		if (fdatasync(fd) != 0)
			rc = -1;
		fr->ns[i] = clock_ns() - t0;
		fr->counted = fr->counted && disks_flushes(d, &after) == 0;
		fr->seen[i] = fr->counted && after > before;
	}
	if (buf)
		plat_buffer_free(buf, len);
	return rc;
}

/* The rounds to judge into ns[], how many: where the counters tell, only
 * those in which a flush reached a disk (the check speaks only of flushes
 * it sent, and needs them in half the rounds at least: fewer, and what rose
 * was other processes' flushes while its own fdatasyncs sent none, as
 * an fdatasync with nothing to flush may); else every round. */
static unsigned judged_rounds(const struct flush_rounds *fr, uint64_t ns[CHECKS_FLUSH_ROUNDS])
{
	unsigned n = 0;
	for (unsigned i = 0; i < CHECKS_FLUSH_ROUNDS; i++)
		if (!fr->counted || fr->seen[i])
			ns[n++] = fr->ns[i];
	return n >= CHECKS_FLUSH_ROUNDS / 2 ? n : 0;
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

/* The disks' names, "vda and vdb", for the warning. */
static void leaf_names(const struct devinfo *d, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; i < d->nleaves && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i == 0 ? "" :
				      i + 1 == d->nleaves ? " and " : ", ",
				      d->stack[d->leaves[i]].name);
}

void checks_flush(const struct target *t, uint64_t region, uint64_t bs,
		  const struct options *opt, struct result *r)
{
	uint64_t ns[CHECKS_FLUSH_ROUNDS];
	struct flush_rounds fr;
	char disks[128];
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
	int rc = fd >= 0 ? time_flushes(fd, written - bs, len, opt, r->device, &fr) : -1;
	if (fd >= 0)
		close(fd);
	unsigned n = rc == 0 ? judged_rounds(&fr, ns) : 0;
	if (n == 0)
		return;
	qsort(ns, n, sizeof(ns[0]), cmp_u64);
	double mid = n % 2 ? (double)ns[n / 2] : (double)(ns[n / 2 - 1] + ns[n / 2]) / 2;
	if (mid >= CHECKS_FLUSH_FAST_NS)
		return;
	fmt_ns(median, sizeof(median), mid);
	leaf_names(r->device, disks, sizeof(disks));
	if (fr.counted)
		warn(r, "flushes return in %s (the %u this check sent, each seen reaching %s by its "
		     "flush counter): the device or hypervisor acknowledges them without reaching "
		     "stable media, or it has power-loss protection; durability is not verified by "
		     "this run", median, n, disks);
	else
		warn(r, "flushes return in %s (not shown to reach %s: its flush counter cannot be read "
		     "here, before Linux 5.5 or without /sys): the device or hypervisor acknowledges "
		     "them without reaching stable media, or it has power-loss protection; durability "
		     "is not verified by this run", median, disks);
	struct finding *f = finding_add(r, "flush_fast");
	finding_figure(f, "median_ns", mid, 0);
	finding_figure(f, "min_ns", (double)ns[0], 0);
	finding_figure(f, "max_ns", (double)ns[n - 1], 0);
	finding_figure(f, "rounds", CHECKS_FLUSH_ROUNDS, 0);
	finding_figure(f, "bytes", (double)len, 0);
	finding_figure(f, "flushes_seen", fr.counted ? (double)n : -1, 0);
}
