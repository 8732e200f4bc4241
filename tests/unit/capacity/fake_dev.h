/* A fake block device for capacity's tests, whose truth the test sets: it
 * claims `claimed` bytes and keeps `real` of them; past that a write wraps
 * (onto wraps_to + (offset - real) mod (real - wraps_to)), is lost (reads
 * return zeros) or fails.  Its medium keeps only the sectors ever written
 * (a hash table); any other sector reads as a pattern of its place, which
 * is also what fake_changed compares each kept sector with.  Optionally a
 * direct-mapped cache of the last writes, by offset, answers reads first,
 * as a fake drive's RAM does for writes it dropped. */
#ifndef FAKE_DEV_H
#define FAKE_DEV_H

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "rng.h"

enum fake_kind { FAKE_HONEST, FAKE_WRAP, FAKE_ZEROS, FAKE_FAILS };

struct fake_slot {
	uint64_t key; /* the sector's index on the medium + 1; 0: empty */
	unsigned char *data;
};

struct fake {
	uint64_t claimed, real, wraps_to;
	enum fake_kind kind;
	unsigned sector;
	struct fake_slot *slot; /* the medium's written sectors */
	size_t cap, n;
	struct fake_slot *cache; /* key: the offset's sector index + 1 */
	size_t ncache;
	unsigned writes;       /* write requests taken */
	unsigned signal_after; /* SIGTERM raised at this write (UINT32_MAX: never) */
	unsigned stop_at;      /* for a stop hook: the writes after which a run is cut */
	bool flush_fails;      /* every flush fails (EIO) */
	unsigned char *pattern; /* scratch: one sector of pattern */
};

static void fake_init(struct fake *f, uint64_t claimed, uint64_t real, enum fake_kind kind,
		      unsigned sector)
{
	memset(f, 0, sizeof(*f));
	f->claimed = claimed, f->real = real, f->kind = kind, f->sector = sector;
	f->signal_after = f->stop_at = UINT32_MAX;
	f->cap = 1 << 16;
	f->slot = calloc(f->cap, sizeof(*f->slot));
	f->pattern = malloc(sector);
}

static void fake_cache(struct fake *f, uint64_t bytes)
{
	f->ncache = bytes / f->sector;
	f->cache = calloc(f->ncache, sizeof(*f->cache));
	for (size_t i = 0; i < f->ncache; i++)
		f->cache[i].data = malloc(f->sector);
}

static void fake_free(struct fake *f)
{
	for (size_t i = 0; i < f->cap; i++)
		free(f->slot[i].data);
	for (size_t i = 0; i < f->ncache; i++)
		free(f->cache[i].data);
	free(f->slot);
	free(f->cache);
	free(f->pattern);
}

/* Where offset x lies on the medium; UINT64_MAX: nowhere. */
static uint64_t fake_place(const struct fake *f, uint64_t x)
{
	if (x < f->real)
		return x;
	if (f->kind == FAKE_WRAP)
		return f->wraps_to + (x - f->real) % (f->real - f->wraps_to);
	return UINT64_MAX;
}

static const unsigned char *fake_pattern(struct fake *f, uint64_t place)
{
	struct rng r;
	rng_seed(&r, 0xfeedull, place);
	rng_fill(&r, f->pattern, f->sector);
	return f->pattern;
}

static struct fake_slot *fake_find(struct fake *f, uint64_t place, int make);

static void fake_grow(struct fake *f)
{
	struct fake_slot *old = f->slot;
	size_t oldcap = f->cap;
	f->cap *= 2;
	f->slot = calloc(f->cap, sizeof(*f->slot));
	f->n = 0;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].key) {
			struct fake_slot *s = fake_find(f, (old[i].key - 1) * f->sector, 1);
			free(s->data);
			s->data = old[i].data;
		}
	free(old);
}

static struct fake_slot *fake_find(struct fake *f, uint64_t place, int make)
{
	uint64_t key = place / f->sector + 1;
	if (make && 2 * (f->n + 1) > f->cap)
		fake_grow(f);
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (f->cap - 1);
	while (f->slot[i].key && f->slot[i].key != key)
		i = (i + 1) & (f->cap - 1);
	if (!f->slot[i].key) {
		if (!make)
			return NULL;
		f->slot[i].key = key;
		f->slot[i].data = malloc(f->sector);
		memcpy(f->slot[i].data, fake_pattern(f, place), f->sector);
		f->n++;
	}
	return &f->slot[i];
}

/* What the medium holds at place (one sector). */
static const unsigned char *fake_peek(struct fake *f, uint64_t place)
{
	struct fake_slot *s = fake_find(f, place, 0);
	return s ? s->data : fake_pattern(f, place);
}

static void fake_poke(struct fake *f, uint64_t place, const void *data)
{
	memcpy(fake_find(f, place, 1)->data, data, f->sector);
}

/* Sectors of the medium that differ from how they were. */
static size_t fake_changed(struct fake *f)
{
	size_t n = 0;
	for (size_t i = 0; i < f->cap; i++)
		if (f->slot[i].key &&
		    memcmp(f->slot[i].data, fake_pattern(f, (f->slot[i].key - 1) * f->sector), f->sector))
			n++;
	return n;
}

/* The place of one changed sector (UINT64_MAX: none). */
static uint64_t fake_some_changed(struct fake *f)
{
	for (size_t i = 0; i < f->cap; i++) {
		uint64_t place = (f->slot[i].key - 1) * f->sector;
		if (f->slot[i].key && memcmp(f->slot[i].data, fake_pattern(f, place), f->sector))
			return place;
	}
	return UINT64_MAX;
}

static int fake_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	struct fake *f = ctx;
	unsigned char *b = buf;
	if (f->kind == FAKE_FAILS && off + len > f->real)
		return -EIO;
	for (size_t i = 0; i < len; i += f->sector) {
		uint64_t x = off + i, place = fake_place(f, x);
		struct fake_slot *c = f->ncache ? &f->cache[(x / f->sector) % f->ncache] : NULL;
		if (c && c->key == x / f->sector + 1)
			memcpy(b + i, c->data, f->sector);
		else if (place == UINT64_MAX)
			memset(b + i, 0, f->sector);
		else
			memcpy(b + i, fake_peek(f, place), f->sector);
	}
	return 0;
}

static int fake_write(void *ctx, const void *buf, size_t len, uint64_t off)
{
	struct fake *f = ctx;
	const unsigned char *b = buf;
	if (++f->writes == f->signal_after)
		raise(SIGTERM);
	if (f->kind == FAKE_FAILS && off + len > f->real)
		return -EIO;
	for (size_t i = 0; i < len; i += f->sector) {
		uint64_t x = off + i, place = fake_place(f, x);
		if (f->ncache) {
			struct fake_slot *c = &f->cache[(x / f->sector) % f->ncache];
			c->key = x / f->sector + 1;
			memcpy(c->data, b + i, f->sector);
		}
		if (place != UINT64_MAX)
			fake_poke(f, place, b + i);
	}
	return 0;
}

static int fake_flush(void *ctx)
{
	const struct fake *f = ctx;
	return f->flush_fails ? -EIO : 0;
}

static void fake_dev(struct fake *f, struct cap_dev *dev)
{
	*dev = (struct cap_dev){ .ctx = f, .read = fake_read, .write = fake_write,
				 .flush = fake_flush, .size = f->claimed, .sector = f->sector };
}

#endif
