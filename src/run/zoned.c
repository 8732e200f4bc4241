/* Where a run writes and reads on a zoned device (zoned.h). */
#define _POSIX_C_SOURCE 200809L
#include "zoned.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

unsigned zone_share(unsigned n, unsigned parts, unsigned k)
{
	return parts ? n / parts + (k < n % parts) : 0;
}

static bool zone_writable(const struct plat_zone *p)
{
	return !p->conventional && p->cond != ZONE_COND_READONLY && p->cond != ZONE_COND_OFFLINE &&
	       p->cap > 0;
}

/* What a read may see of a zone: below its write pointer, or all of a
 * conventional one; an offline zone nothing. */
static uint64_t readable_bytes(const struct plat_zone *p)
{
	if (p->cond == ZONE_COND_OFFLINE)
		return 0;
	if (p->conventional)
		return p->len;
	if (p->cond == ZONE_COND_FULL)
		return p->cap;
	return p->wp > p->start ? p->wp - p->start : 0;
}

int zone_map_build(struct zone_map *m, const struct plat_zone *rep, unsigned n, uint64_t region,
		   uint64_t bs)
{
	memset(m, 0, sizeof(*m));
	m->fd = -1;
	m->bs = bs;
	m->zone_bytes = n ? rep[0].len : 0;
	unsigned inside = 0;
	while (inside < n && rep[inside].start + rep[inside].len <= region)
		inside++;
	m->z = calloc(inside ? inside : 1, sizeof(*m->z));
	m->read_first = calloc((size_t)inside + 1, sizeof(*m->read_first));
	if (!m->z || !m->read_first) {
		zone_map_free(m);
		errno = ENOMEM;
		return -1;
	}
	m->n = inside;
	for (unsigned i = 0; i < inside; i++) {
		const struct plat_zone *p = &rep[i];
		struct zone *z = &m->z[i];
		*z = (struct zone){ .start = p->start, .len = p->len, .cap = p->cap,
				    .wp = p->cond == ZONE_COND_FULL ? p->start + p->cap : p->wp,
				    .writable = zone_writable(p), .conventional = p->conventional };
		m->writable += z->writable;
		m->writable_bytes += z->writable ? z->cap : 0;
		m->conventional += z->conventional;
		m->read_first[i + 1] = m->read_first[i] + readable_bytes(p) / bs;
	}
	m->read_blocks = m->read_first[inside];
	return 0;
}

void zone_map_free(struct zone_map *m)
{
	free(m->z);
	free(m->read_first);
	m->z = NULL;
	m->read_first = NULL;
	m->n = 0;
}

uint64_t zone_map_min_cap(const struct zone_map *m)
{
	uint64_t least = 0;
	for (unsigned i = 0; i < m->n; i++)
		if (m->z[i].writable && (least == 0 || m->z[i].cap < least))
			least = m->z[i].cap;
	return least;
}

bool zone_map_fits_block(const struct zone_map *m, uint64_t bs)
{
	for (unsigned i = 0; i < m->n; i++)
		if (m->z[i].start % bs != 0 || (m->z[i].writable && m->z[i].cap % bs != 0))
			return false;
	return true;
}

uint64_t zone_map_read_offset(const struct zone_map *m, uint64_t at)
{
	uint64_t block = at / m->bs;
	unsigned lo = 0, hi = m->n; /* the zone i with read_first[i] <= block < read_first[i+1] */
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;
		if (m->read_first[mid] <= block)
			lo = mid;
		else
			hi = mid;
	}
	return m->z[lo].start + (block - m->read_first[lo]) * m->bs;
}

int zone_writer_init(struct zone_writer *zw, struct zone_map *m, unsigned thread,
		     unsigned threads, bool cycle, struct stats *reset_lat)
{
	memset(zw, 0, sizeof(*zw));
	zw->map = m;
	zw->cycle = cycle;
	zw->reset_lat = reset_lat;
	unsigned nmine = zone_share(m->writable, threads, thread);
	zw->limit = zone_share(m->open_limit, threads, thread);
	if (zw->limit > nmine)
		zw->limit = nmine;
	if (zw->limit == 0) {
		errno = ENOSPC;
		return -1;
	}
	zw->mine = calloc(nmine, sizeof(*zw->mine));
	zw->open = calloc(zw->limit, sizeof(*zw->open));
	if (!zw->mine || !zw->open) {
		zone_writer_free(zw);
		errno = ENOMEM;
		return -1;
	}
	for (unsigned i = 0, k = 0; i < m->n; i++) {
		if (!m->z[i].writable)
			continue;
		if (k % threads == thread)
			zw->mine[zw->nmine++] = i;
		k++;
	}
	return 0;
}

void zone_writer_free(struct zone_writer *zw)
{
	free(zw->mine);
	free(zw->open);
	zw->mine = zw->open = NULL;
}

/* Empties a written zone for its next round, timed: a reset is part of
 * what writing a zoned disk costs. */
static int reset_zone(struct zone_writer *zw, struct zone *z)
{
	uint64_t t0 = clock_ns();
	if (zw->map->reset(zw->map->fd, z->start, z->len) != 0) {
		zw->error = errno ? errno : EIO;
		zw->failed_offset = z->start;
		return -1;
	}
	stats_add(zw->reset_lat, clock_ns() - t0);
	zw->resets++;
	z->wp = z->start;
	return 0;
}

/* Opens zones, in order, up to the limit: an empty one as it is, a written
 * one reset first; none whose last write is still in flight. */
static int open_more(struct zone_writer *zw)
{
	for (unsigned skipped = 0; zw->nopen < zw->limit && skipped < zw->nmine;) {
		if (!zw->cycle && zw->opened == zw->nmine)
			break;
		struct zone *z = &zw->map->z[zw->mine[zw->cursor]];
		if (z->open) { /* still being filled from the last round */
			zw->cursor = (zw->cursor + 1) % zw->nmine;
			skipped++;
			continue;
		}
		if (z->busy)
			break; /* its last write has not completed */
		if (z->wp > z->start && reset_zone(zw, z) != 0)
			return -1;
		z->open = true;
		zw->open[zw->nopen++] = zw->mine[zw->cursor];
		zw->cursor = (zw->cursor + 1) % zw->nmine;
		zw->opened++;
	}
	return 0;
}

/* The k-th open zone with no write in flight, counting from `from`; -1 if
 * there is none. */
static int idle_open(const struct zone_writer *zw, unsigned from, unsigned k)
{
	for (unsigned i = 0; i < zw->nopen; i++) {
		unsigned slot = (from + i) % zw->nopen;
		if (!zw->map->z[zw->open[slot]].busy && k-- == 0)
			return (int)slot;
	}
	return -1;
}

static unsigned idle_count(const struct zone_writer *zw)
{
	unsigned idle = 0;
	for (unsigned i = 0; i < zw->nopen; i++)
		idle += !zw->map->z[zw->open[i]].busy;
	return idle;
}

enum zone_next zone_writer_next(struct zone_writer *zw, bool random, struct rng *rng,
				uint64_t *offset)
{
	if (open_more(zw) != 0)
		return ZONE_FAIL;
	unsigned idle = idle_count(zw);
	if (idle == 0)
		return zw->busy > 0 ? ZONE_WAIT : ZONE_DONE;
	int slot = random ? idle_open(zw, 0, (unsigned)rng_below(rng, idle))
			  : idle_open(zw, zw->rr % zw->nopen, 0);
	struct zone *z = &zw->map->z[zw->open[slot]];
	*offset = z->wp;
	z->wp += zw->map->bs;
	z->busy = true;
	zw->busy++;
	zw->rr = (unsigned)slot + 1;
	if (zone_full(z)) { /* no more writes for it: out of the open set */
		z->open = false;
		zw->open[slot] = zw->open[--zw->nopen];
	}
	return ZONE_IO;
}

void zone_writer_done(struct zone_writer *zw, uint64_t offset)
{
	unsigned i = (unsigned)(offset / zw->map->zone_bytes);
	if (i < zw->map->n && zw->map->z[i].busy) {
		zw->map->z[i].busy = false;
		zw->busy--;
	}
}
