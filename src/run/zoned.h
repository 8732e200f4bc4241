/* Zoned block devices (NVMe ZNS, SMR disks; host-managed or host-aware) as
 * a run uses them.  A write goes to a zone's write pointer and nowhere
 * else, so a write test writes each zone it opens from its write pointer
 * to its capacity, with at most open_limit zones open at once and one
 * write in flight in each (a second could reach the device first and fail
 * off the pointer), and resets a full zone, timed, when it needs it again.
 * A read beyond a write pointer returns zeros without touching the medium,
 * so a read test reads only below them: its offsets run over the readable
 * blocks as one region, mapped to where they lie.  Pure but for the reset,
 * which goes through the map's function (plat_zone_reset; a fake in tests). */
#ifndef ZONED_H
#define ZONED_H

#include <stdbool.h>
#include <stdint.h>

#include "platform.h"
#include "rng.h"
#include "stats.h"

/* One zone of the region.  wp, open and busy belong to the one worker
 * whose zone it is (zone_writer), so they need no lock. */
struct zone {
	uint64_t start, len, cap, wp;
	bool writable;       /* a sequential zone a write test may use */
	bool conventional;   /* written anywhere, read whole */
	bool open, busy;     /* a worker is filling it; a write of it is in flight */
};

/* Written to its capacity: no write may go to it until it is reset. */
static inline bool zone_full(const struct zone *z)
{
	return z->wp >= z->start + z->cap;
}

struct zone_map {
	struct zone *z;
	unsigned n;              /* the zones wholly inside the region, from offset 0 */
	uint64_t zone_bytes;
	uint64_t bs;
	unsigned writable;       /* zones a write may use */
	uint64_t writable_bytes; /* their capacity, all together: one pass of writes */
	unsigned conventional;
	unsigned open_limit;     /* zones open at once, every worker's together */
	/* reads: zone i's readable blocks are read_first[i] .. read_first[i+1]-1
	 * of the read region, read_blocks in all */
	uint64_t *read_first;
	uint64_t read_blocks;
	int fd;
	int (*reset)(int fd, uint64_t start, uint64_t len);
};

/* The map of [0, region) from a report of the device's zones (in order,
 * from offset 0); 0, or -1 with errno (ENOMEM).  zone_map_free undoes it. */
int zone_map_build(struct zone_map *m, const struct plat_zone *rep, unsigned n, uint64_t region,
		   uint64_t bs);
void zone_map_free(struct zone_map *m);

/* The smallest capacity among the writable zones (0: none). */
uint64_t zone_map_min_cap(const struct zone_map *m);
/* Whether every writable zone's capacity and every zone's start is a
 * multiple of bs, so that writes of bs fill zones exactly. */
bool zone_map_fits_block(const struct zone_map *m, uint64_t bs);

/* Where block-aligned offset `at` of the read region lies on the device. */
uint64_t zone_map_read_offset(const struct zone_map *m, uint64_t at);

enum zone_next {
	ZONE_IO,    /* *offset is the next write */
	ZONE_WAIT,  /* every open zone has a write in flight: reap one first */
	ZONE_DONE,  /* every zone written (a run that does not go round) */
	ZONE_FAIL,  /* a reset failed: error holds its errno */
};

/* One worker's writes: the writable zones k with k % threads == thread
 * (counted among the writable ones), its share of the open limit. */
struct zone_writer {
	struct zone_map *map;
	unsigned *mine, nmine;
	unsigned *open, nopen, limit;
	unsigned cursor;         /* the next of mine to open */
	unsigned opened;         /* zones opened so far */
	unsigned rr;             /* sequential: where the next round starts */
	unsigned busy;           /* writes in flight */
	bool cycle;              /* go round: reset written zones to use them again */
	struct stats *reset_lat; /* each reset's time, in ns */
	uint64_t resets;
	int error;
	uint64_t failed_offset;
};

/* 0, or -1 with errno: ENOMEM, or ENOSPC when this worker gets no zone or
 * no share of the open limit. */
int zone_writer_init(struct zone_writer *zw, struct zone_map *m, unsigned thread,
		     unsigned threads, bool cycle, struct stats *reset_lat);
void zone_writer_free(struct zone_writer *zw);
/* The next write's offset: random picks among the open zones with no
 * write in flight by rng, sequential takes them in turn. */
enum zone_next zone_writer_next(struct zone_writer *zw, bool random, struct rng *rng,
				uint64_t *offset);
/* The write at offset completed (or failed): its zone takes the next. */
void zone_writer_done(struct zone_writer *zw, uint64_t offset);

/* A share of n among parts, for part k (the first n % parts get one more). */
unsigned zone_share(unsigned n, unsigned parts, unsigned k);

#endif
