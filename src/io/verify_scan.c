/* The verify command's read of a region (verify.h): its run found from a
 * header, then every block judged from its header alone or against the
 * witness of the writes the disk acknowledged. */
#define _POSIX_C_SOURCE 200809L
#include "verify.h"

#include <errno.h>
#include <string.h>

#include "blockhdr.h"
#include "clock.h"
#include "crc32c.h"
#include "io.h"
#include "platform.h"
#include "witness.h"

#define CHUNK (1u << 20)
#define RUNS 8 /* runs told apart when choosing the region's own */

/* An intact header at buf's start naming offset `at`: its block read (the
 * rest of it from fd when it reaches past what buf holds) and checked. */
static bool intact_at(int fd, const unsigned char *buf, size_t have, uint64_t at,
		      struct blk_hdr *h)
{
	if (!blk_parse(buf, have, h) || h->offset != at || h->block_size < BLK_MIN_BS ||
	    h->block_size > (256u << 20) || h->region < h->block_size)
		return false;
	unsigned char *block = plat_buffer_alloc(h->block_size);
	if (!block)
		return false;
	ssize_t got = io_pread_full(fd, block, h->block_size, at);
	struct blk_hdr same;
	bool ok = got == (ssize_t)h->block_size &&
		  blk_judge(block, h->block_size, at, h->run_id, 0, &same) == BLK_GOOD;
	plat_buffer_free(block, h->block_size);
	return ok;
}

int verify_find_run(int fd, uint64_t within, uint64_t *bs, uint64_t *region, uint64_t *run_id)
{
	unsigned char *buf = plat_buffer_alloc(CHUNK);
	if (!buf)
		return -1;
	int found = 0;
	for (uint64_t base = 0; base < within && !found; base += CHUNK) {
		ssize_t got = io_pread_full(fd, buf, CHUNK, base);
		if (got < 0) {
			found = -1;
			break;
		}
		for (size_t at = 0; at + BLK_HDR_LEN <= (size_t)got && !found; at += BLK_SECTOR) {
			struct blk_hdr h;
			if (memcmp(buf + at, "DBVERIFY", 8) != 0 ||
			    !intact_at(fd, buf + at, (size_t)got - at, base + at, &h))
				continue;
			*bs = h.block_size, *region = h.region, *run_id = h.run_id;
			found = 1;
		}
		if ((size_t)got < CHUNK)
			break; /* the end of the target */
	}
	int saved = errno;
	plat_buffer_free(buf, CHUNK);
	errno = saved;
	return found;
}

/* The runs whose intact blocks were found in their own places, counted. */
struct runs {
	uint64_t id[RUNS], good[RUNS];
	unsigned n;
	uint64_t beyond; /* blocks of runs past the first RUNS */
};

static void count_run(struct runs *rs, uint64_t id)
{
	for (unsigned i = 0; i < rs->n; i++)
		if (rs->id[i] == id) {
			rs->good[i]++;
			return;
		}
	if (rs->n == RUNS) {
		rs->beyond++;
		return;
	}
	rs->id[rs->n] = id;
	rs->good[rs->n++] = 1;
}

/* Without a witness: what the header alone tells. */
static void judge_headers(struct result_verify *out, struct runs *rs, const unsigned char *b,
			  uint64_t bs, uint64_t offset)
{
	struct blk_hdr h;
	/* any run: a generation of 0 asks nothing more than an intact block */
	switch (blk_judge(b, bs, offset, 0, 0, &h)) {
	case BLK_UNWRITTEN: out->no_header++; break;
	case BLK_CORRUPT: verify_tally_bad(out, VERIFY_CORRUPT, offset, 0, 0); break;
	case BLK_MISPLACED: verify_tally_bad(out, VERIFY_MISPLACED, offset, h.offset, 0); break;
	default: count_run(rs, h.run_id); break; /* intact here: good if the run is the region's */
	}
}

/* With a witness: the generation it acknowledged at this block, or none. */
static void judge_witness(struct result_verify *out, const struct witness *w,
			  const unsigned char *b, uint64_t offset)
{
	struct blk_hdr h;
	uint64_t acked = w->acked[offset / w->bs];
	enum blk_verdict v = blk_judge(b, w->bs, offset, w->run_id, acked, &h);
	if (acked == 0) {
		out->unacknowledged++;
		if (v == BLK_MISPLACED)
			verify_tally_bad(out, VERIFY_MISPLACED, offset, h.offset, 0);
		return;
	}
	out->acknowledged++;
	bool newer = blk_newest_generation(b, w->bs, offset, w->run_id) > acked;
	switch (v) {
	case BLK_GOOD: out->good++; break;
	case BLK_MISPLACED: verify_tally_bad(out, VERIFY_MISPLACED, offset, h.offset, acked); break;
	case BLK_STALE: verify_tally_bad(out, VERIFY_LOST, offset, h.generation, acked); break;
	case BLK_FOREIGN: verify_tally_bad(out, VERIFY_LOST, offset, 0, acked); break;
	case BLK_CORRUPT:
	case BLK_UNWRITTEN:
		if (newer)
			out->in_flight++; /* torn by a later write nobody was promised */
		else
			verify_tally_bad(out, v == BLK_CORRUPT ? VERIFY_CORRUPT : VERIFY_UNWRITTEN,
					 offset, 0, acked);
		break;
	}
}

/* The region's run: the one most intact blocks name (ties: the first
 * found); its blocks are good, the others' counted as another run's. */
static void choose_run(struct result_verify *out, const struct runs *rs, uint64_t run_id)
{
	unsigned best = 0;
	for (unsigned i = 1; i < rs->n; i++)
		if (rs->good[i] > rs->good[best])
			best = i;
	out->run_id = rs->n ? rs->id[best] : run_id;
	out->other_run = rs->beyond;
	for (unsigned i = 0; i < rs->n; i++)
		*(i == best ? &out->good : &out->other_run) += rs->good[i];
}

int verify_scan(int fd, uint64_t bs, uint64_t region, uint64_t run_id, const struct witness *w,
		volatile const int *stop, struct result_verify *out)
{
	if (w) /* the witness's geometry, its region cut to what the target holds */
		bs = w->bs, run_id = w->run_id, region = region < w->region ? region : w->region;
	uint64_t per = bs >= CHUNK ? 1 : CHUNK / bs, nblocks = region / bs;
	size_t len = (size_t)(per * bs);
	unsigned char *buf = plat_buffer_alloc(len);
	if (!buf)
		return -1;
	memset(out, 0, sizeof(*out));
	out->mode = w ? "witness" : "headers";
	out->crc = crc32c_impl();
	out->block_size = bs, out->region = region, out->run_id = run_id;
	struct runs rs = { .n = 0 };
	uint64_t t0 = clock_ns();
	int rc = 0;
	for (uint64_t first = 0; first < nblocks && rc == 0; first += per) {
		uint64_t n = nblocks - first < per ? nblocks - first : per;
		if (*stop) {
			errno = EINTR;
			rc = -1;
			break;
		}
		ssize_t got = io_pread_full(fd, buf, (size_t)(n * bs), first * bs);
		if (got < 0) {
			rc = -1;
			break;
		}
		memset(buf + got, 0, (size_t)(n * bs) - (size_t)got); /* past the end: nothing */
		for (uint64_t i = 0; i < n; i++) {
			if (w)
				judge_witness(out, w, buf + i * bs, (first + i) * bs);
			else
				judge_headers(out, &rs, buf + i * bs, bs, (first + i) * bs);
		}
		out->bytes += n * bs;
	}
	out->blocks = nblocks;
	if (!w)
		choose_run(out, &rs, run_id);
	for (uint64_t b = nblocks; w && rc == 0 && b < w->nblocks; b++) {
		if (!w->acked[b])
			continue; /* past the target's end: an acknowledged write it cannot hold */
		out->acknowledged++;
		out->blocks++;
		verify_tally_bad(out, VERIFY_UNWRITTEN, b * bs, 0, w->acked[b]);
	}
	out->seconds = (double)(clock_ns() - t0) / 1e9;
	int saved = errno;
	plat_buffer_free(buf, len);
	errno = saved;
	return rc;
}
