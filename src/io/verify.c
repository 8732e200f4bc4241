/* --verify's state while a run writes: the generation map and its claims,
 * the witness's lines, the backlog lanes, and the tally they all add to
 * (verify.h).  The read-back after the writes is verify_region.c's. */
#define _POSIX_C_SOURCE 200809L
#include "verify.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockhdr.h"
#include "clock.h"
#include "crc32c.h"
#include "io.h"
#include "platform.h"
#include "verify_int.h"
#include "witness.h"

#define BUSY 0x80000000u

uint64_t verify_map_bytes(uint64_t region, uint64_t bs)
{
	return bs ? region / bs * sizeof(uint32_t) : 0;
}

struct verify *verify_open(const struct verify_plan *p)
{
	struct verify *v = NULL;
	uint64_t nblocks = p->region / p->bs;
	int err = verify_map_bytes(p->region, p->bs) > VERIFY_MAX_MAP_BYTES ? EFBIG : 0;
	if (!err && (!(v = calloc(1, sizeof(*v))) ||
		     !(v->map = calloc(nblocks ? nblocks : 1, sizeof(*v->map)))))
		err = ENOMEM;
	if (err) {
		free(v);
		if (p->witness_fd >= 0)
			close(p->witness_fd);
		if (p->read_fd >= 0)
			close(p->read_fd);
		errno = err;
		return NULL;
	}
	v->region = p->region, v->bs = p->bs, v->nblocks = nblocks, v->run_id = p->run_id;
	v->backlog = p->backlog;
	v->backlog_n = p->backlog_n;
	v->read_fd = p->read_fd;
	v->witness_fd = p->witness_fd;
	v->witness_each = p->witness_each;
	pthread_mutex_init(&v->lock, NULL);
	v->tally.mode = p->backlog ? "backlog" : "after";
	v->tally.crc = crc32c_impl();
	v->tally.run_id = p->run_id, v->tally.block_size = p->bs, v->tally.region = p->region;
	v->tally.map_bytes = verify_map_bytes(p->region, p->bs);
	if (v->witness_fd >= 0 &&
	    witness_put_header(v->witness_fd, p->run_id, p->bs, p->region, p->target) != 0) {
		int saved = errno;
		verify_close(v);
		errno = saved;
		return NULL;
	}
	return v;
}

void verify_close(struct verify *v)
{
	if (!v)
		return;
	if (v->witness_fd >= 0)
		close(v->witness_fd);
	if (v->read_fd >= 0)
		close(v->read_fd);
	pthread_mutex_destroy(&v->lock);
	free(v->map);
	free(v);
}

bool verify_write_begin(struct verify *v, void *buf, uint32_t len, uint64_t offset)
{
	_Atomic uint32_t *word = &v->map[offset / v->bs];
	uint32_t old = atomic_load_explicit(word, memory_order_relaxed), gen;
	do {
		if (old & BUSY)
			return false;
		gen = old + 1 <= BLK_MAX_GENERATION ? old + 1 : old; /* 2^31 writes of a block */
	} while (!atomic_compare_exchange_weak_explicit(word, &old, gen | BUSY, memory_order_acquire,
						       memory_order_relaxed));
	struct blk_hdr h = { .block_size = len, .offset = offset, .run_id = v->run_id,
			     .generation = gen, .region = v->region };
	blk_stamp(buf, &h);
	return true;
}

/* One witness line; the first failure stops the witness (a shorter one
 * claims fewer writes, never more) and is reported at the end. */
static void witness_line(struct verify *v, uint64_t offset, uint64_t gen)
{
	pthread_mutex_lock(&v->lock);
	if (v->witness_err == 0) {
		if (witness_put_write(v->witness_fd, offset, gen) == 0)
			v->witness_lines++;
		else
			v->witness_err = errno ? errno : EIO;
	}
	pthread_mutex_unlock(&v->lock);
}

static void release(struct verify *v, uint64_t offset)
{
	atomic_fetch_and_explicit(&v->map[offset / v->bs], ~BUSY, memory_order_release);
}

struct verify_lane {
	struct pending { uint64_t offset, gen; } *pending;
	unsigned n, cap, batch;
	void *buf;                 /* one block, aligned for O_DIRECT */
	struct result_verify tally;
};

static bool lane_push(struct verify_lane *l, uint64_t offset, uint64_t gen)
{
	if (l->n == l->cap) { /* more completed while draining than a batch: rare */
		struct pending *more = realloc(l->pending, 2 * l->cap * sizeof(*more));
		if (!more)
			return false;
		l->pending = more;
		l->cap *= 2;
	}
	l->pending[l->n++] = (struct pending){ offset, gen };
	return true;
}

void verify_write_end(struct verify *v, struct verify_lane *lane, const void *buf,
		      uint64_t offset, bool ok)
{
	uint64_t gen = blk_generation(buf);
	if (ok && v->witness_fd >= 0 && v->witness_each)
		witness_line(v, offset, gen);
	if (ok && lane && lane_push(lane, offset, gen))
		return; /* held until it is read back: nobody writes it meanwhile */
	release(v, offset);
}

bool verify_backlog(const struct verify *v)
{
	return v && v->backlog;
}

struct verify_lane *verify_lane_open(struct verify *v, unsigned batch)
{
	if (!v || !v->backlog)
		return NULL;
	struct verify_lane *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->batch = v->backlog_n ? v->backlog_n : batch ? batch : 1;
	l->cap = 2 * l->batch + 1;
	l->pending = malloc(l->cap * sizeof(*l->pending));
	l->buf = plat_buffer_alloc(v->bs);
	if (!l->pending || !l->buf) {
		verify_lane_close(v, l);
		return NULL;
	}
	return l;
}

bool verify_lane_due(const struct verify_lane *l)
{
	return l && l->n >= l->batch;
}

bool verify_lane_pending(const struct verify_lane *l)
{
	return l && l->n > 0;
}

int verify_lane_check(struct verify *v, struct verify_lane *l)
{
	if (!l)
		return 0;
	uint64_t t0 = clock_ns();
	int rc = 0;
	for (unsigned i = 0; i < l->n; i++) {
		struct pending *p = &l->pending[i];
		struct blk_hdr found;
		ssize_t got = rc == 0 ? io_pread_full(v->read_fd, l->buf, v->bs, p->offset) : 0;
		if (got < 0) {
			rc = -1;
		} else if (rc == 0) {
			if ((uint64_t)got < v->bs)
				memset((char *)l->buf + got, 0, v->bs - (uint64_t)got);
			int verdict = blk_judge(l->buf, v->bs, p->offset, v->run_id, p->gen, &found);
			verify_tally(&l->tally, verdict, p->offset, &found, p->gen);
			l->tally.bytes += v->bs;
		}
		release(v, p->offset);
	}
	l->n = 0;
	l->tally.seconds += (double)(clock_ns() - t0) / 1e9;
	return rc;
}

void verify_lane_close(struct verify *v, struct verify_lane *l)
{
	if (!l)
		return;
	for (unsigned i = 0; i < l->n; i++)
		release(v, l->pending[i].offset); /* a run that failed: never checked */
	pthread_mutex_lock(&v->lock);
	verify_tally_merge(&v->tally, &l->tally);
	pthread_mutex_unlock(&v->lock);
	if (l->buf)
		plat_buffer_free(l->buf, v->bs);
	free(l->pending);
	free(l);
}

int verify_witness_all(struct verify *v)
{
	for (uint64_t i = 0; i < v->nblocks && v->witness_fd >= 0; i++) {
		uint32_t gen = atomic_load(&v->map[i]) & ~BUSY;
		if (gen)
			witness_line(v, i * v->bs, gen);
	}
	return v->witness_err ? (errno = v->witness_err, -1) : 0;
}

int verify_result(struct verify *v, struct result_verify *out)
{
	if (v->witness_fd >= 0 && v->witness_err == 0 &&
	    witness_put_end(v->witness_fd, v->witness_lines) != 0)
		v->witness_err = errno ? errno : EIO;
	*out = v->tally;
	out->witness_lines = v->witness_lines;
	return v->witness_err;
}

/* ---- the tally ---- */

void verify_tally_bad(struct result_verify *out, enum verify_kind kind, uint64_t offset,
		      uint64_t found, uint64_t wanted)
{
	uint64_t kept = out->bad[kind] < VERIFY_FIRST ? out->bad[kind] : VERIFY_FIRST;
	struct verify_bad *first = out->first[kind];
	out->bad[kind]++;
	/* the lowest offsets, in order: where a scan finds them first */
	uint64_t at = kept;
	while (at > 0 && first[at - 1].offset > offset)
		at--;
	if (at >= VERIFY_FIRST)
		return;
	uint64_t last = kept < VERIFY_FIRST ? kept : VERIFY_FIRST - 1;
	memmove(&first[at + 1], &first[at], (last - at) * sizeof(*first));
	first[at] = (struct verify_bad){ offset, found, wanted };
}

void verify_tally(struct result_verify *out, int verdict, uint64_t offset,
		  const struct blk_hdr *found, uint64_t wanted)
{
	out->blocks++;
	switch ((enum blk_verdict)verdict) {
	case BLK_GOOD: out->good++; break;
	case BLK_CORRUPT: verify_tally_bad(out, VERIFY_CORRUPT, offset, 0, wanted); break;
	case BLK_MISPLACED:
		verify_tally_bad(out, VERIFY_MISPLACED, offset, found->offset, wanted);
		break;
	case BLK_STALE:
		verify_tally_bad(out, VERIFY_STALE, offset, found->generation, wanted);
		break;
	case BLK_FOREIGN: verify_tally_bad(out, VERIFY_STALE, offset, 0, wanted); break;
	case BLK_UNWRITTEN: verify_tally_bad(out, VERIFY_UNWRITTEN, offset, 0, wanted); break;
	}
}

void verify_tally_merge(struct result_verify *a, const struct result_verify *b)
{
	a->blocks += b->blocks;
	a->bytes += b->bytes;
	a->good += b->good;
	a->seconds += b->seconds;
	for (unsigned k = 0; k < VERIFY_KINDS; k++) {
		uint64_t n = b->bad[k] < VERIFY_FIRST ? b->bad[k] : VERIFY_FIRST;
		uint64_t before = a->bad[k];
		for (uint64_t i = 0; i < n; i++)
			verify_tally_bad(a, (enum verify_kind)k, b->first[k][i].offset,
					 b->first[k][i].found, b->first[k][i].wanted);
		a->bad[k] = before + b->bad[k]; /* every one counted, not only those kept */
	}
}
