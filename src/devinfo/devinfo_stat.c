#define _POSIX_C_SOURCE 200809L
#include "devinfo_stat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int devstat_parse(const char *line, struct devstat *out)
{
	uint64_t discards[4];
	uint64_t *f[17] = { &out->reads, &out->read_merges, &out->read_sectors, &out->read_ms,
			    &out->writes, &out->write_merges, &out->write_sectors, &out->write_ms,
			    &out->in_flight, &out->busy_ms, &out->queue_ms, &discards[0],
			    &discards[1], &discards[2], &discards[3], &out->flushes, &out->flush_ms };
	int used = 0;
	unsigned got = 0;
	memset(out, 0, sizeof(*out));
	for (; got < 17; got++) {
		int n = 0;
		if (sscanf(line + used, " %" SCNu64 "%n", f[got], &n) != 1)
			break;
		used += n;
	}
	if (got < 11)
		return -1;
	out->has_flush = got == 17;
	if (!out->has_flush)
		out->flushes = out->flush_ms = 0; /* a discard's field, not a flush's */
	return 0;
}

int devstat_read(const char *sysfs, const char *name, struct devstat *out)
{
	char path[4096], line[512];
	if (strchr(name, '/') || name[0] == '.') {
		errno = EINVAL;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/class/block/%s/stat", sysfs ? sysfs : "/sys", name);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char *got = fgets(line, sizeof(line), f);
	fclose(f);
	if (!got || devstat_parse(line, out) != 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

void devio_begin(struct devio *io, const struct devinfo *d, const char *sysfs)
{
	memset(io, 0, sizeof(*io));
	for (int i = 0; d && i < d->nleaves && io->n < DEVINFO_MAX_NODES; i++) {
		struct devio_leaf *l = &io->leaf[io->n];
		snprintf(l->name, sizeof(l->name), "%s", d->stack[d->leaves[i]].name);
		l->ok = devstat_read(sysfs, l->name, &io->before[io->n]) == 0;
		io->n++;
	}
}

/* a - b for a counter the kernel may keep in 32 bits: the milliseconds
 * (read_ms, write_ms, io_ticks, time_in_queue) are printed as unsigned int,
 * and on a 32-bit kernel the unsigned long counts are 32 bits too, so a
 * counter that went back while both readings fit in 32 bits wrapped at 2^32
 * (a busy disk's io_ticks every 49.7 days).  What would take more than half
 * of that range to explain is a device removed and re-added: 0. */
static uint64_t since(uint64_t a, uint64_t b)
{
	if (a >= b)
		return a - b;
	if (b > UINT32_MAX)
		return 0;
	uint64_t wrapped = a + (UINT64_C(1) << 32) - b;
	return wrapped < (UINT64_C(1) << 31) ? wrapped : 0;
}

void devio_end(struct devio *io, const char *sysfs, double seconds)
{
	io->seconds = seconds;
	for (unsigned i = 0; i < io->n; i++) {
		struct devio_leaf *l = &io->leaf[i];
		struct devstat now, *b = &io->before[i], *d = &l->delta;
		if (!l->ok || devstat_read(sysfs, l->name, &now) != 0) {
			l->ok = false;
			continue;
		}
		d->reads = since(now.reads, b->reads);
		d->read_merges = since(now.read_merges, b->read_merges);
		d->read_sectors = since(now.read_sectors, b->read_sectors);
		d->read_ms = since(now.read_ms, b->read_ms);
		d->writes = since(now.writes, b->writes);
		d->write_merges = since(now.write_merges, b->write_merges);
		d->write_sectors = since(now.write_sectors, b->write_sectors);
		d->write_ms = since(now.write_ms, b->write_ms);
		d->in_flight = now.in_flight; /* a gauge, not a counter */
		d->busy_ms = since(now.busy_ms, b->busy_ms);
		d->queue_ms = since(now.queue_ms, b->queue_ms);
	}
}

static uint64_t sum_sectors(const struct devio *io, bool write)
{
	uint64_t sum = 0;
	for (unsigned i = 0; i < io->n; i++)
		if (io->leaf[i].ok)
			sum += write ? io->leaf[i].delta.write_sectors : io->leaf[i].delta.read_sectors;
	return sum * 512;
}

uint64_t devio_read_bytes(const struct devio *io)
{
	return sum_sectors(io, false);
}

uint64_t devio_write_bytes(const struct devio *io)
{
	return sum_sectors(io, true);
}

double devio_util_pct(const struct devio *io, unsigned i)
{
	if (io->seconds <= 0)
		return 0.0;
	double pct = (double)io->leaf[i].delta.busy_ms / (io->seconds * 1000) * 100;
	return pct > 100 ? 100 : pct; /* the two clocks tick apart by a few ms */
}

double devio_avg_in_flight(const struct devio *io, unsigned i)
{
	return io->seconds > 0 ? (double)io->leaf[i].delta.queue_ms / (io->seconds * 1000) : 0.0;
}

unsigned devio_count(const struct devio *io)
{
	unsigned n = 0;
	for (unsigned i = 0; i < io->n; i++)
		n += io->leaf[i].ok;
	return n;
}
