/* --verify's read-back after the write phase: the region in chunks of
 * about 1 MiB, those holding a block the run wrote, each block judged
 * against the generation the map says its last write had. */
#define _POSIX_C_SOURCE 200809L
#include "verify.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include "blockhdr.h"
#include "clock.h"
#include "io.h"
#include "platform.h"
#include "verify_int.h"

#define CHUNK (1u << 20)

static uint32_t gen_of(struct verify *v, uint64_t block)
{
	return atomic_load_explicit(&v->map[block], memory_order_relaxed) & 0x7fffffffu;
}

/* Whether the run wrote any block of [first, first + n). */
static bool chunk_written(struct verify *v, uint64_t first, uint64_t n)
{
	for (uint64_t b = first; b < first + n; b++)
		if (gen_of(v, b))
			return true;
	return false;
}

/* Each block of the chunk read at block `first`: judged against its
 * generation; one the run never wrote only for a misplaced block of this
 * run (a write that landed here instead of its own place). */
static void judge_chunk(struct verify *v, const unsigned char *buf, uint64_t first, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t offset = (first + i) * v->bs;
		uint32_t gen = gen_of(v, first + i);
		struct blk_hdr found;
		int verdict = blk_judge(buf + i * v->bs, v->bs, offset, v->run_id, gen, &found);
		if (gen) {
			verify_tally(&v->tally, verdict, offset, &found, gen);
		} else if (verdict == BLK_MISPLACED && found.run_id == v->run_id) {
			v->tally.blocks++;
			verify_tally_bad(&v->tally, VERIFY_MISPLACED, offset, found.offset, 0);
		}
	}
}

int verify_region(struct verify *v, int fd, volatile const int *stop)
{
	uint64_t per = v->bs >= CHUNK ? 1 : CHUNK / v->bs;
	size_t len = (size_t)(per * v->bs);
	unsigned char *buf = plat_buffer_alloc(len);
	if (!buf)
		return -1;
	uint64_t t0 = clock_ns();
	int rc = 0;
	for (uint64_t first = 0; first < v->nblocks && rc == 0; first += per) {
		uint64_t n = v->nblocks - first < per ? v->nblocks - first : per;
		if (*stop) {
			errno = EINTR;
			rc = -1;
			break;
		}
		if (!chunk_written(v, first, n))
			continue;
		ssize_t got = io_pread_full(fd, buf, (size_t)(n * v->bs), first * v->bs);
		if (got < 0) {
			rc = -1;
			break;
		}
		/* past the end of the file: nothing there, every block unwritten */
		memset(buf + got, 0, (size_t)(n * v->bs) - (size_t)got);
		judge_chunk(v, buf, first, n);
		v->tally.bytes += n * v->bs;
	}
	v->tally.seconds += (double)(clock_ns() - t0) / 1e9;
	int saved = errno;
	plat_buffer_free(buf, len);
	errno = saved;
	return rc;
}
