/* Zoned block devices (NVMe ZNS, SMR; host-managed or host-aware): their
 * zone count and size, the report of each zone's type, condition, capacity
 * and write pointer (BLKREPORTZONE), and a zone reset (BLKRESETZONE).  The
 * kernel speaks in 512-byte sectors; everything here is in bytes. */
#define _GNU_SOURCE
#include "platform.h"

#include <errno.h>
#include <linux/blkzoned.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#define SECTOR 512u
#define REPORT_CHUNK 1024u /* zones asked for per BLKREPORTZONE */
#define ZONE_CMD_TRIES 3   /* EINTR: the command was cancelled (an NVMe timeout and
			    * reset, seen in the lab) or a signal came; both are
			    * queries or idempotent, so asked again a few times */

/* A zone ioctl, asked again where it was cancelled (EINTR). */
static int zone_ioctl(int fd, unsigned long cmd, void *arg)
{
	int rc = -1;
	for (unsigned i = 0; i < ZONE_CMD_TRIES; i++)
		if ((rc = ioctl(fd, cmd, arg)) == 0 || errno != EINTR)
			break;
	return rc;
}

int plat_zone_geometry(int fd, uint32_t *nr_zones, uint64_t *zone_bytes)
{
	uint32_t nr = 0, sectors = 0;
	*nr_zones = 0;
	*zone_bytes = 0;
#ifdef BLKGETNRZONES
	if (ioctl(fd, BLKGETNRZONES, &nr) != 0)
		return errno == ENOTTY || errno == EINVAL ? 0 : -1; /* before 4.20: not zoned */
	if (nr > 0 && ioctl(fd, BLKGETZONESZ, &sectors) != 0)
		return -1;
#endif
	*nr_zones = nr;
	*zone_bytes = (uint64_t)sectors * SECTOR;
	return 0;
}

static enum plat_zone_cond zone_cond(uint8_t cond)
{
	switch (cond) {
	case BLK_ZONE_COND_NOT_WP: return ZONE_COND_NOT_WP;
	case BLK_ZONE_COND_EMPTY: return ZONE_COND_EMPTY;
	case BLK_ZONE_COND_FULL: return ZONE_COND_FULL;
	case BLK_ZONE_COND_READONLY: return ZONE_COND_READONLY;
	case BLK_ZONE_COND_OFFLINE: return ZONE_COND_OFFLINE;
	default: return ZONE_COND_OPEN; /* implicitly or explicitly open, or closed */
	}
}

static void zone_from_kernel(const struct blk_zone *k, bool has_capacity, struct plat_zone *z)
{
	z->start = k->start * SECTOR;
	z->len = k->len * SECTOR;
	/* before 5.9 there is no capacity field: the whole zone is writable */
	z->cap = has_capacity && k->capacity ? k->capacity * SECTOR : z->len;
	z->wp = k->wp * SECTOR;
	z->conventional = k->type == BLK_ZONE_TYPE_CONVENTIONAL;
	z->cond = zone_cond(k->cond);
}

int plat_zone_report(int fd, uint64_t from, struct plat_zone *out, unsigned max)
{
	size_t size = sizeof(struct blk_zone_report) + REPORT_CHUNK * sizeof(struct blk_zone);
	struct blk_zone_report *rep = calloc(1, size);
	unsigned n = 0;
	if (!rep)
		return -1;
	while (n < max) {
		rep->sector = from / SECTOR;
		rep->nr_zones = max - n < REPORT_CHUNK ? max - n : REPORT_CHUNK;
		rep->flags = 0;
		if (zone_ioctl(fd, BLKREPORTZONE, rep) != 0) {
			int err = errno;
			free(rep);
			errno = err;
			return -1;
		}
		if (rep->nr_zones == 0)
			break; /* the device's end */
		bool cap = (rep->flags & BLK_ZONE_REP_CAPACITY) != 0;
		for (unsigned i = 0; i < rep->nr_zones && n < max; i++)
			zone_from_kernel(&rep->zones[i], cap, &out[n++]);
		from = out[n - 1].start + out[n - 1].len;
	}
	free(rep);
	return (int)n;
}

int plat_zone_reset(int fd, uint64_t start, uint64_t len)
{
	struct blk_zone_range range = { .sector = start / SECTOR, .nr_sectors = len / SECTOR };
	return zone_ioctl(fd, BLKRESETZONE, &range); /* resetting an empty zone is harmless */
}
