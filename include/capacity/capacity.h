/* capacity (issue 42): the real capacity of a block device that may claim
 * more than it holds (the USB sticks and SD cards that report 1 TB and keep
 * 8 GB), found with few writes, as f3probe does.
 *
 * Every block written carries a stamp per logical sector (capacity_stamp.c):
 * the run's id and the offset it was written for.  Reading a sector back
 * then says one of three things: it holds its own stamp (good so far), the
 * stamp of another offset (the two offsets are one place on the medium: the
 * higher one wraps onto the lower), or something else (zeros, old data, an
 * error: the write was lost).  The search:
 *   1. spread: a block at each of `spread` offsets over the whole claimed
 *      range, then the base region (from `guard`, `base` bytes, written after
 *      them, so that a block wrapping onto it is overwritten), a flush, and
 *      everything read back;
 *   2. scan: one block read every `base` bytes above the base region: the
 *      first read that returns a block of the base region is where the device
 *      starts over (baby steps written, giant steps read: a wrap of any
 *      period is found with base + size/base blocks of I/O, not a write of
 *      the whole device);
 *   3. narrow: between the highest block read back good and the lowest bad
 *      one, `spread` blocks at a time (each, once a wrap is known, with a
 *      partner one period below it, written after it), the flood (the first
 *      `flood` bytes of the base region rewritten, so that a small device
 *      cache cannot answer the reads), a flush, the reads; until the two
 *      meet, to the sector.
 * The page cache never answers: the device is read with O_DIRECT.
 *
 * Nothing is lost: before any write the bytes it covers are read and kept,
 * in memory and in an undo journal on another disk (capacity_journal.c),
 * synced before the device is written; afterwards they are written back in
 * the reverse order (on a device that wraps, a later write may land on an
 * earlier one's place).  A journal left by a run that could not put its
 * blocks back (killed, the power cut) is replayed by the next run. */
#ifndef CAPACITY_H
#define CAPACITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The device the probe writes and reads: a block device (cap_dev_fd) or, in
 * tests, a fake whose truth the test sets.  Each call moves the whole
 * buffer (aligned to, and a multiple of, sector) or fails: 0 or -errno. */
struct cap_dev {
	void *ctx;
	int (*read)(void *ctx, void *buf, size_t len, uint64_t off);
	int (*write)(void *ctx, const void *buf, size_t len, uint64_t off);
	int (*flush)(void *ctx); /* what was written reaches the medium */
	uint64_t size;           /* the bytes it claims */
	unsigned sector;         /* its logical block size: stamps are read per sector */
};

/* The ops on an open descriptor (O_DIRECT: whole-transfer pread/pwrite,
 * flush = fdatasync, which sends the device a cache flush).  fd must stay
 * valid while dev is used. */
void cap_dev_fd(struct cap_dev *dev, int *fd, uint64_t size, unsigned sector);

/* What happens to a write past the real end. */
enum cap_past {
	CAP_PAST_NONE,  /* nothing: it holds all it claims */
	CAP_PAST_WRAP,  /* it lands on a lower offset (wraps_to) */
	CAP_PAST_ZEROS, /* it is lost: reads return zeros */
	CAP_PAST_LOST,  /* it is lost: reads return something else */
	CAP_PAST_ERROR, /* reads or writes there fail */
};
/* "none", "wrap", "zeros", "lost", "error" */
const char *cap_past_name(enum cap_past p);

/* The probe's geometry, from the claimed size alone (capacity_plan). */
struct cap_plan {
	unsigned bs;          /* a probe block: 4 KiB, or the sector if larger */
	unsigned spread;      /* blocks written per step */
	uint64_t guard;       /* below the base region: written only to narrow a tiny device */
	uint64_t base;        /* the base region's bytes; also the scan's stride */
	uint64_t flood;       /* rewritten between a step's writes and its reads */
	unsigned max_steps;
	/* worst cases, said before the run */
	uint64_t max_written, max_read, max_saved;
};

#define CAP_MAX_STEPS 64
enum cap_step_kind { CAP_STEP_SPREAD, CAP_STEP_SCAN, CAP_STEP_NARROW };
/* "spread", "scan", "narrow" */
const char *cap_step_name(enum cap_step_kind k);

struct cap_step {
	enum cap_step_kind kind;
	uint64_t from, to;    /* the offsets it covered: [from, to) */
	unsigned blocks;      /* probe blocks written and read back (scan: read) */
	/* after it: the lowest offset known bad (claimed: none), the end of
	 * the part read back good below it, the wrap period (0: none) */
	uint64_t bad, good, period;
	double seconds;
};

struct capacity_report {
	uint64_t claimed;     /* bytes the device says it has */
	uint64_t holds;       /* bytes from offset 0 that keep what is written */
	enum cap_past past;
	uint64_t period;      /* wrap: bytes between two offsets that are one place */
	uint64_t wraps_to;    /* wrap: where a write at `holds` lands */
	uint64_t seen_at, seen_of; /* wrap: the read at seen_at returned the block written at seen_of */
	int error;            /* CAP_PAST_ERROR: the errno */
	uint64_t good;        /* the part read back good: [0, good), good <= holds */
	bool done;            /* good reached holds: the search ended (not cut short) */
	unsigned sector;
	struct cap_plan plan;
	uint64_t writes, written, reads, read; /* I/Os and bytes, saves and restores included */
	double seconds;
	struct cap_step steps[CAP_MAX_STEPS];
	unsigned nsteps;
	/* the undo journal (not with --destructive) */
	bool destructive;
	char journal[4096];       /* its path; "" with --destructive */
	uint64_t saved, saved_bytes; /* ranges saved before being written */
	uint64_t restored;        /* ranges put back */
	uint64_t restore_failed;  /* ranges that could not be put back below holds */
	uint64_t restore_failed_past; /* ... past holds, where nothing is kept anyway */
	bool journal_kept;        /* the journal stays: some block could not be put back */
	/* a journal left by an earlier run that did not finish, put back first */
	struct cap_replay {
		bool done;
		char path[4096];
		uint64_t ranges, sectors, skipped, failed;
	} replay;
};

/* The plan for a device of claimed bytes and sector-byte sectors. */
void capacity_plan(uint64_t claimed, unsigned sector, struct cap_plan *p);

struct cap_journal;

/* Asked between I/Os (stop: a signal came, end the probe now) and after
 * each step (step: rep->steps[rep->nsteps - 1] just ended). */
struct cap_hooks {
	void *ctx;
	bool (*stop)(void *ctx);
	void (*step)(void *ctx, const struct capacity_report *rep);
};

/* Runs the search on dev with run id run (every stamp carries it: a stamp
 * of an earlier run is never taken for this one's).  Each write is first
 * saved to j (NULL: --destructive, nothing saved).  rep (zeroed by the
 * caller, its plan from capacity_plan) gets the outcome; rep->done is false
 * when hooks->stop ended it.  0, or -1 with the reason in why when the
 * journal could not be written or memory ran out (what was written so far
 * is in j: put it back with cap_journal_restore either way). */
int capacity_probe(const struct cap_dev *dev, struct cap_journal *j, uint64_t run,
		   const struct cap_hooks *hooks, struct capacity_report *rep, char *why, size_t len);

/* ---- the undo journal (capacity_journal.c) ---- */

/* Creates the journal file at path (O_EXCL, O_NOFOLLOW, mode 0600: it
 * holds the device's data; its directory synced) for a run with id run on
 * a device of claimed bytes and sector bytes named device, on a filesystem
 * with room bytes free (else ENOSPC).  NULL with errno on failure. */
struct cap_journal *cap_journal_create(const char *path, uint64_t run, uint64_t claimed,
				       unsigned sector, const char *device, uint64_t room);
/* Whether the journal's filesystem keeps its files in memory (tmpfs): a
 * power cut would take it. */
bool cap_journal_in_ram(const struct cap_journal *j);
/* Puts back every saved range, newest first: the writes dev takes.  The
 * ranges at or past holds whose writes fail are counted apart (nothing is
 * kept there); rep's restored, restore_failed and restore_failed_past are
 * set.  Returns the count of failures below holds. */
uint64_t cap_journal_restore(struct cap_journal *j, const struct cap_dev *dev, uint64_t holds,
			     struct capacity_report *rep);
/* Closes the journal; removes its file when remove (nothing is left to put back). */
void cap_journal_close(struct cap_journal *j, bool remove);
/* A journal left at path by a run that did not finish, put back on dev:
 * each sector that still holds that run's stamp gets its saved bytes,
 * newest range first; any other sector (never written, put back already,
 * or written since by someone else) is left alone.  A torn last entry
 * (the run died writing it, before its write reached the device) is
 * ignored.  1 (out filled; the file is removed when nothing failed), 0 if
 * no file is at path, -1 with the reason in why (not a journal, another
 * device's: another size or sector, or none of its run's stamps here,
 * unreadable); the file is kept on -1. */
int cap_journal_replay(const char *path, const struct cap_dev *dev, struct cap_replay *out,
		       char *why, size_t len);

/* ---- signals (capacity_dev.c) ---- */

/* The signals that end a process held (blocked) while blocks are out of
 * place, so that none can end it between a write and its restore: a
 * signal that comes waits, cap_signals_pending says so, and it is
 * delivered by cap_signals_release once every block is back (the
 * process's mask as it was).  SIGKILL cannot be held: the journal is for
 * that.  One hold at a time per process. */
void cap_signals_hold(void);
bool cap_signals_pending(void);
void cap_signals_release(void);

#endif
