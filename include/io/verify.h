/* --verify (issue 42): what a verified write run keeps while it writes and
 * how it reads its writes back.
 *
 * Every block of the region has a word: the generation of its last write
 * (1 for the first) and a bit saying a write of it is in flight.  A block
 * is never written twice at once (the order in which two writes in flight
 * reach it is the device's choice, so which one should be there could not
 * be known): verify_write_begin claims it, stamps the buffer with the next
 * generation (blockhdr.h) and the write goes; verify_write_end releases it
 * (--verify=backlog: once it has been read back).  4 bytes a block, at most
 * VERIFY_MAX_MAP_BYTES: 256 GiB of 4 KiB blocks, 64 TiB of 1 MiB ones.
 *
 * The witness (--witness): one line per write once the disk acknowledged
 * it durable, written and flushed line by line to a descriptor (stdout, a
 * file), so that after a power cut `verify --witness` knows what the disk
 * promised; witness.h reads it back. */
#ifndef VERIFY_H
#define VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "diskbench.h"

#define VERIFY_MAX_MAP_BYTES (256ull << 20)

struct verify;
struct verify_lane;

struct verify_plan {
	uint64_t region, bs;    /* the run's, bs at least BLK_MIN_BS */
	uint64_t run_id;
	bool backlog;           /* --verify=backlog */
	unsigned backlog_n;     /* backlog: writes a thread makes before it reads them back
				 * (a job file's verify_backlog=N); 0: its queue depth */
	int read_fd;            /* backlog: the descriptor it reads back through, closed by
				 * verify_close (by verify_open when it fails); -1: none */
	int witness_fd;         /* --witness: where its lines go, closed by verify_close
				 * (by verify_open when it fails); -1: none */
	bool witness_each;      /* each write is durable when it completes (O_DSYNC) rather
				 * than at the run's end (verify_witness_all after the fsync) */
	const char *target;     /* named in the witness's first line */
};

/* The bytes of the map for a region of bs blocks (what VERIFY_MAX_MAP_BYTES bounds). */
uint64_t verify_map_bytes(uint64_t region, uint64_t bs);
/* A run's verification, its witness's first line written.  NULL with errno:
 * EFBIG (the map would pass its bound), ENOMEM, or the witness's write error. */
struct verify *verify_open(const struct verify_plan *p);
void verify_close(struct verify *v);

/* The hot path.  Claims the block at offset and stamps buf (len bytes) as
 * its next write; false, with nothing changed, while a write of the block
 * is in flight. */
bool verify_write_begin(struct verify *v, void *buf, uint32_t len, uint64_t offset);
/* The write of buf to offset completed (ok: whole, without error): the
 * witness's line, then the block released, or (backlog) kept in lane until
 * it is read back. */
void verify_write_end(struct verify *v, struct verify_lane *lane, const void *buf,
		      uint64_t offset, bool ok);

/* --verify=backlog: a worker's writes waiting to be read back, batch at a
 * time (the plan's backlog_n, else the batch given: its depth).  NULL lane
 * (or v) everywhere means none. */
bool verify_backlog(const struct verify *v);
struct verify_lane *verify_lane_open(struct verify *v, unsigned batch);
/* Its batch is complete: the worker drains and checks before writing more. */
bool verify_lane_due(const struct verify_lane *l);
/* It holds writes not yet read back (which the worker checks whenever it
 * has nothing in flight: its own next write may need one of their blocks). */
bool verify_lane_pending(const struct verify_lane *l);
/* Reads back and judges the lane's completed writes (through the plan's
 * read_fd), releasing their blocks; -1 with errno when a read fails. */
int verify_lane_check(struct verify *v, struct verify_lane *l);
void verify_lane_close(struct verify *v, struct verify_lane *l);

/* After the write phase: every chunk of the region holding a block the
 * run wrote, read back through fd and judged against the map (a block the
 * run never wrote is judged only for a misplaced block of this run);
 * checks *stop between chunks (EINTR).  0, or -1 with errno. */
int verify_region(struct verify *v, int fd, volatile const int *stop);
/* --sync=fsync: the writes became durable at the final fsync: a witness
 * line for every block written, from the map.  0, or -1 with errno. */
int verify_witness_all(struct verify *v);
/* The figures so far (every lane closed first), the witness's last line
 * written; the witness's own failure (errno) or 0. */
int verify_result(struct verify *v, struct result_verify *out);

/* A block judged after the writes or in a backlog into out: good, or the
 * kind its verdict is (another run's block where this run wrote is stale:
 * the run's write was lost), with its first offsets kept. */
struct blk_hdr;
void verify_tally(struct result_verify *out, int verdict, uint64_t offset,
		  const struct blk_hdr *found, uint64_t wanted);
/* One kind's bad block at offset, its first offsets kept. */
void verify_tally_bad(struct result_verify *out, enum verify_kind kind, uint64_t offset,
		      uint64_t found, uint64_t wanted);
/* b's counts added to a's (the first offsets in order of offset). */
void verify_tally_merge(struct result_verify *a, const struct result_verify *b);

/* ---- the verify command (verify_scan.c): a region judged long after the
 * run that wrote it, from the blocks' headers and, given, the witness ---- */
struct witness;

/* The block size, region and run of a region written with --verify, from
 * the first intact header (block 0's, else the first found at a 512-byte
 * boundary naming its own place) within the first `within` bytes of fd.
 * 1 found, 0 none, -1 with errno on a read error. */
int verify_find_run(int fd, uint64_t within, uint64_t *bs, uint64_t *region, uint64_t *run_id);
/* Every block of [0, region) of fd read and judged into out (mode
 * "headers" or, with w, "witness"; its block size and run are then w's,
 * and a block w lists past region, the target's end, is unwritten).  Without a witness the run is the one most intact blocks
 * name; a block of another run, or without a header, is counted, not bad;
 * corrupt and misplaced blocks are bad.  With a witness, a block it lists
 * must hold that generation or a later one: older is lost, no header
 * unwritten, a failed CRC corrupt, unless the block holds a newer
 * generation than the one acknowledged (a write in flight when the power
 * went, torn: nothing promised it); blocks it does not list are judged
 * only for being misplaced.  *stop checked between chunks (EINTR).
 * 0, or -1 with errno. */
int verify_scan(int fd, uint64_t bs, uint64_t region, uint64_t run_id, const struct witness *w,
		volatile const int *stop, struct result_verify *out);

#endif
