/* Device-side proof: what the disks under the target did during a run, from
 * their own counters (<sysfs>/class/block/<name>/stat, the kernel's
 * Documentation/block/stat.rst), read before and after.  A devinfo room: the
 * sysfs root is a parameter, so fake trees drive it in tests. */
#ifndef DEVINFO_STAT_H
#define DEVINFO_STAT_H

#include <stdbool.h>
#include <stdint.h>

#include "devinfo.h"

/* The first eleven fields of a stat file, and where the kernel has them
 * (Linux 5.5) the flush counters of fields 16 and 17 (4.18 added the
 * discards' four before them). */
struct devstat {
	uint64_t reads, read_merges, read_sectors, read_ms;
	uint64_t writes, write_merges, write_sectors, write_ms;
	uint64_t in_flight, busy_ms, queue_ms;
	bool has_flush;           /* the line holds fields 16 and 17 */
	uint64_t flushes, flush_ms;
};

/* Parses one stat line; -1 if it does not hold eleven numbers. */
int devstat_parse(const char *line, struct devstat *out);
/* Reads the stat file of block device name under sysfs ("/sys" if NULL);
 * -1 with errno when it cannot be read, EINVAL when it does not parse. */
int devstat_read(const char *sysfs, const char *name, struct devstat *out);

/* One leaf's counters over a run: after minus before. */
struct devio_leaf {
	char name[64];
	bool ok;              /* both readings succeeded */
	struct devstat delta;
};

struct devio {
	struct devio_leaf leaf[DEVINFO_MAX_NODES];
	unsigned n;
	double seconds;       /* wall time between the readings */
	struct devstat before[DEVINFO_MAX_NODES];
};

/* Takes the first reading of every leaf of d; n is 0 when d has none. */
void devio_begin(struct devio *io, const struct devinfo *d, const char *sysfs);
/* Takes the second reading, seconds after the first. */
void devio_end(struct devio *io, const char *sysfs, double seconds);
/* Sums over the leaves that were read: bytes read and written (sectors are
 * 512 bytes in these files whatever the device's block size). */
uint64_t devio_read_bytes(const struct devio *io);
uint64_t devio_write_bytes(const struct devio *io);
/* Per leaf: the share of the time it was busy (io_ticks), in percent, and
 * the average number of requests in flight (time_in_queue / time). */
double devio_util_pct(const struct devio *io, unsigned i);
double devio_avg_in_flight(const struct devio *io, unsigned i);
/* How many leaves were read. */
unsigned devio_count(const struct devio *io);

#endif
