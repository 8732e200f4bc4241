/* What the capacity room's files share: the stamps every written sector
 * carries (capacity_stamp.c) and the journal's saving side
 * (capacity_journal.c), which the search (capacity.c) calls before it
 * writes. */
#ifndef CAPACITY_INT_H
#define CAPACITY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capacity.h"

/* The largest sector a stamp is checked in (Linux's logical blocks are at
 * most a page; 64 KiB leaves room). */
#define CAP_MAX_SECTOR 65536u
/* Reads and writes of the base region go in chunks of this much. */
#define CAP_CHUNK (1024u * 1024u)

/* Stamps each sector of buf (len bytes, a multiple of sector) as written
 * for its own offset (off + i x sector) by run: a header (magic, run, the
 * offset, a check) and bytes drawn from (run, offset), so that any sector
 * read back tells which offset it was written for, whole. */
void cap_stamp(void *buf, size_t len, uint64_t off, uint64_t run, unsigned sector);

enum cap_seen {
	CAP_SEEN_OURS,  /* a whole stamp of run: *at is the offset it was written for */
	CAP_SEEN_ZEROS, /* every byte 0 */
	CAP_SEEN_OTHER, /* anything else: data not ours, a torn or an earlier run's stamp */
};
enum cap_seen cap_stamp_seen(const void *sector_buf, unsigned sector, uint64_t run,
			     uint64_t *at);

/* Saving before a write: reads [off, off + len) of dev into the journal
 * (in memory, and appended to its file, not yet synced).  0; 1 when the
 * device read failed (*dev_errno: that range cannot be kept, so it must not
 * be written); -1 with errno when the journal could not take it. */
int cap_journal_save(struct cap_journal *j, const struct cap_dev *dev, uint64_t off, size_t len,
		     int *dev_errno);
/* Everything saved so far on the journal's disk (fdatasync): before the
 * writes it covers.  0 or -1 with errno. */
int cap_journal_sync(struct cap_journal *j);
/* Ranges and bytes saved. */
void cap_journal_counts(const struct cap_journal *j, uint64_t *ranges, uint64_t *bytes);

#endif
