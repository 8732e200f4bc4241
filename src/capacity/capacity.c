/* capacity's search (capacity.h says how it goes): the steps, what each
 * sector read back says, and the bounds they move.  Everything it knows is
 * two numbers and a list: the lowest offset known bad (`bad`), the wrap
 * period once two offsets were seen to be one place, and the ranges read
 * back good; the device holds [0, bad) once those ranges reach bad. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capacity_int.h"
#include "clock.h"
#include "platform.h"

#define MIB (1024ull * 1024)
#define SPREAD 32              /* blocks a step writes: each narrows 31-fold */
#define MAX_BASE (64 * MIB)    /* the base region, at most (64 GiB claimed and up) */
#define MAX_FLOOD (16 * MIB)   /* rewritten between a step's writes and its reads */

const char *cap_past_name(enum cap_past p)
{
	static const char *const names[] = { "none", "wrap", "zeros", "lost", "error" };
	return p <= CAP_PAST_ERROR ? names[p] : "none";
}

const char *cap_step_name(enum cap_step_kind k)
{
	return k == CAP_STEP_SPREAD ? "spread" : k == CAP_STEP_SCAN ? "scan" : "narrow";
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t align_down(uint64_t x, uint64_t a)
{
	return x - x % a;
}

/* Narrowing steps to bring `blocks` candidates down to one. */
static unsigned narrow_depth(uint64_t blocks)
{
	unsigned d = 0;
	while (blocks > 1) {
		blocks = (blocks + SPREAD - 2) / (SPREAD - 1);
		d++;
	}
	return d;
}

void capacity_plan(uint64_t claimed, unsigned sector, struct cap_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->bs = sector > 4096 ? sector : 4096;
	p->spread = SPREAD;
	p->guard = align_down(min64(MIB, claimed / 16), p->bs);
	/* the scan reads claimed / base blocks: base grows with the device
	 * (1024 reads up to 64 GiB), but is at least the flood (16 MiB, or a
	 * quarter of a small device) and at most 64 MiB to save and keep */
	uint64_t base = max64(claimed / 1024, min64(MAX_FLOOD, claimed / 4));
	base = min64(base, MAX_BASE);
	p->base = max64(align_down(base, base >= MIB ? MIB : p->bs), p->bs);
	p->flood = min64(p->base, MAX_FLOOD);
	/* narrowing twice over (once more after a wrap is found) and a spare */
	unsigned steps = 2 + 2 * narrow_depth(claimed / p->bs) + 2;
	p->max_steps = steps < CAP_MAX_STEPS ? steps : CAP_MAX_STEPS;
	uint64_t step_blocks = (uint64_t)SPREAD * p->bs;
	uint64_t narrowing = p->max_steps - 2;
	p->max_saved = step_blocks + p->base + narrowing * 2 * step_blocks;
	/* saved, then written, then put back */
	p->max_written = 2 * p->max_saved + narrowing * p->flood;
	uint64_t scan = claimed > p->guard + p->base ? (claimed - p->guard - p->base) / p->base + 1 : 0;
	p->max_read = p->max_saved + step_blocks + p->base + scan * p->bs + narrowing * step_blocks;
}

/* ---- what the search knows ------------------------------------------------ */

struct good {
	uint64_t start, end; /* read back as written */
	uint64_t period;     /* the wrap period its step checked against (0: none) */
};

struct range {
	uint64_t off;
	size_t len;
	bool save, read_back, skip;
};

struct search {
	const struct cap_dev *dev;
	struct cap_journal *j;
	const struct cap_hooks *h;
	struct capacity_report *rep;
	uint64_t run;
	unsigned bs, sector;
	uint64_t bad, period, step_period;
	struct good *good;
	size_t ngood, capgood;
	struct range *w;
	size_t nw, capw;
	unsigned char *buf; /* CAP_CHUNK bytes, aligned */
	bool base_saved, stopped;
	char *why;
	size_t whylen;
};

static bool stop_now(struct search *s)
{
	if (!s->stopped && s->h && s->h->stop && s->h->stop(s->h->ctx))
		s->stopped = true;
	return s->stopped;
}

static void mark_bad(struct search *s, uint64_t at, enum cap_past kind, int err, uint64_t seen_at,
		     uint64_t seen_of)
{
	if (at >= s->bad)
		return;
	s->bad = at;
	s->rep->past = kind;
	s->rep->error = err;
	s->rep->seen_at = seen_at;
	s->rep->seen_of = seen_of;
}

/* Two offsets read back as one place: the higher one is the one past the
 * end (a real block keeps its own place), and their distance a multiple
 * of the period. */
static void alias(struct search *s, uint64_t at, uint64_t of)
{
	uint64_t hi = max64(at, of), lo = min64(at, of);
	if (s->period == 0 || hi - lo < s->period)
		s->period = hi - lo;
	mark_bad(s, hi, CAP_PAST_WRAP, 0, at, of);
}

static int add_good(struct search *s, uint64_t start, uint64_t end)
{
	if (s->ngood == s->capgood) {
		size_t cap = s->capgood ? 2 * s->capgood : 64;
		struct good *g = realloc(s->good, cap * sizeof(*g));
		if (!g)
			return -1;
		s->good = g, s->capgood = cap;
	}
	s->good[s->ngood++] = (struct good){ start, end, s->step_period };
	return 0;
}

/* Once a wrap is known, a block above the period read back good proves
 * nothing unless its step wrote its partner a period below it: dropped. */
static void prune(struct search *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->ngood; i++)
		if (s->period == 0 || s->good[i].end <= s->period || s->good[i].period == s->period)
			s->good[k++] = s->good[i];
	s->ngood = k;
}

/* The end of the part read back good below the lowest bad offset. */
static uint64_t good_end(const struct search *s)
{
	uint64_t end = 0;
	for (size_t i = 0; i < s->ngood; i++)
		if (s->good[i].start < s->bad)
			end = max64(end, min64(s->good[i].end, s->bad));
	return end;
}

/* ---- reading back --------------------------------------------------------- */

/* The first sector of [off, off + len) that a read (or, with buf, a write
 * of buf's bytes) of it alone fails on: a multi-sector request that fails
 * says only that one of its sectors did.  len when none fails now. */
static size_t first_failing(struct search *s, uint64_t off, size_t len, const void *buf, int *err)
{
	for (size_t i = 0; i < len; i += s->sector) {
		int rc = buf ? s->dev->write(s->dev->ctx, (const unsigned char *)buf + i, s->sector, off + i)
			     : s->dev->read(s->dev->ctx, s->buf + i, s->sector, off + i);
		if (buf)
			s->rep->writes++, s->rep->written += s->sector;
		else
			s->rep->reads++, s->rep->read += s->sector;
		if (rc != 0) {
			*err = -rc;
			return i;
		}
	}
	return len;
}

/* Reads [off, off + len) and judges each sector: its own stamp (good, while
 * every sector before it in the range was), another offset's (a wrap), or
 * else, for a range just written, a lost write.  Never-written ranges (the
 * scan's) tell only of wraps and unreadable blocks. */
static int judge(struct search *s, uint64_t off, size_t len, bool written)
{
	size_t valid = len;
	int err = 0;
	s->rep->reads++, s->rep->read += len;
	if (s->dev->read(s->dev->ctx, s->buf, len, off) != 0) {
		valid = first_failing(s, off, len, NULL, &err);
		if (valid < len)
			mark_bad(s, off + valid, CAP_PAST_ERROR, err, 0, 0);
	}
	uint64_t lead = off;
	bool clean = true;
	for (size_t i = 0; i < valid; i += s->sector) {
		uint64_t at = off + i, of;
		enum cap_seen seen = cap_stamp_seen(s->buf + i, s->sector, s->run, &of);
		if (seen == CAP_SEEN_OURS && of == at) {
			if (clean)
				lead = at + s->sector;
			continue;
		}
		clean = false;
		if (seen == CAP_SEEN_OURS)
			alias(s, at, of);
		else if (written)
			mark_bad(s, at, seen == CAP_SEEN_ZEROS ? CAP_PAST_ZEROS : CAP_PAST_LOST, 0, 0, 0);
	}
	return written && lead > off ? add_good(s, off, lead) : 0;
}

/* ---- writing -------------------------------------------------------------- */

static int add_range(struct search *s, uint64_t off, size_t len, bool save, bool read_back)
{
	if (s->nw == s->capw) {
		size_t cap = s->capw ? 2 * s->capw : 128;
		struct range *w = realloc(s->w, cap * sizeof(*w));
		if (!w)
			return -1;
		s->w = w, s->capw = cap;
	}
	s->w[s->nw++] = (struct range){ off, len, save, read_back, false };
	return 0;
}

/* [off, off + len) as ranges of at most a chunk. */
static int add_region(struct search *s, uint64_t off, uint64_t len, bool save, bool read_back)
{
	for (uint64_t at = off; at < off + len; at += CAP_CHUNK)
		if (add_range(s, at, (size_t)min64(CAP_CHUNK, off + len - at), save, read_back) != 0)
			return -1;
	return 0;
}

static int failed(struct search *s, const char *what)
{
	snprintf(s->why, s->whylen, "%s: %s", what, strerror(errno));
	return -1;
}

/* A range that could not be saved or written: the sector it failed on is
 * bad (unreadable, or refusing writes), the range is not read back. */
static void range_failed(struct search *s, struct range *r, const void *buf)
{
	int err = EIO;
	size_t at = first_failing(s, r->off, r->len, buf, &err);
	mark_bad(s, r->off + (at < r->len ? at : 0), CAP_PAST_ERROR, err, 0, 0);
	r->skip = true;
}

/* Every range saved (one journal sync for all), then written in order, then
 * a flush.  A range whose bytes cannot be read cannot be kept, so it is not
 * written: it is bad from its first unreadable sector, as it is from the
 * first sector a write fails on. */
static int save_and_write(struct search *s)
{
	bool saved = false;
	for (size_t i = 0; s->j && i < s->nw && !stop_now(s); i++) {
		struct range *r = &s->w[i];
		int dev_errno = 0;
		if (!r->save)
			continue;
		int rc = cap_journal_save(s->j, s->dev, r->off, r->len, &dev_errno);
		s->rep->reads++, s->rep->read += r->len;
		if (rc < 0)
			return failed(s, "cannot write the undo journal");
		if (rc == 1)
			range_failed(s, r, NULL);
		saved = true;
	}
	if (saved && cap_journal_sync(s->j) != 0)
		return failed(s, "cannot sync the undo journal");
	for (size_t i = 0; i < s->nw && !stop_now(s); i++) {
		struct range *r = &s->w[i];
		if (r->skip)
			continue;
		cap_stamp(s->buf, r->len, r->off, s->run, s->sector);
		int rc = s->dev->write(s->dev->ctx, s->buf, r->len, r->off);
		s->rep->writes++, s->rep->written += r->len;
		if (rc != 0)
			range_failed(s, r, s->buf);
	}
	if (s->stopped)
		return 0;
	int rc = s->dev->flush(s->dev->ctx);
	if (rc != 0) {
		errno = -rc;
		return failed(s, "the device's cache flush failed");
	}
	return 0;
}

static int read_ranges_back(struct search *s)
{
	for (size_t i = 0; i < s->nw && !stop_now(s); i++)
		if (s->w[i].read_back && !s->w[i].skip && judge(s, s->w[i].off, s->w[i].len, true) != 0)
			return failed(s, "out of memory");
	return 0;
}

/* Up to SPREAD block starts from lo to hi (both included): every block when
 * they are few, else evenly spaced, the inner ones on the block grid. */
static unsigned pick(const struct search *s, uint64_t lo, uint64_t hi, uint64_t out[SPREAD])
{
	unsigned n = 0;
	uint64_t span = hi - lo;
	if (span / s->bs + 1 < SPREAD) {
		for (uint64_t c = lo; c < hi; c += s->bs)
			out[n++] = c;
		out[n++] = hi;
		return n;
	}
	for (unsigned i = 0; i < SPREAD; i++) {
		uint64_t c = lo + span / (SPREAD - 1) * i + span % (SPREAD - 1) * i / (SPREAD - 1);
		if (i > 0 && i < SPREAD - 1)
			c = max64(align_down(c, s->bs), out[n - 1] + s->bs);
		if (c <= hi && (n == 0 || c > out[n - 1]))
			out[n++] = c;
	}
	return n;
}

/* ---- the steps ------------------------------------------------------------ */

static void end_step(struct search *s, enum cap_step_kind kind, uint64_t from, uint64_t to,
		     unsigned blocks, int64_t t0)
{
	prune(s);
	if (s->rep->nsteps >= CAP_MAX_STEPS)
		return;
	struct cap_step *st = &s->rep->steps[s->rep->nsteps++];
	*st = (struct cap_step){ kind, from, to, blocks, s->bad, good_end(s), s->period,
				 (double)(clock_ns() - t0) / 1e9 };
	if (s->h && s->h->step && !s->stopped)
		s->h->step(s->h->ctx, s->rep);
}

/* Step 1: blocks over the whole claimed range, then the base region after
 * them (a block that wraps onto it is overwritten), everything read back. */
static int step_spread(struct search *s)
{
	const struct cap_plan *p = &s->rep->plan;
	uint64_t at[SPREAD], from = p->guard + p->base, last = s->rep->claimed - s->bs;
	int64_t t0 = clock_ns();
	unsigned n = pick(s, from, last, at);
	s->nw = 0;
	s->step_period = 0;
	for (unsigned i = 0; i < n; i++)
		if (add_range(s, at[i], s->bs, true, true) != 0)
			return failed(s, "out of memory");
	if (add_region(s, p->guard, p->base, true, true) != 0)
		return failed(s, "out of memory");
	if (save_and_write(s) != 0 || read_ranges_back(s) != 0)
		return -1;
	/* the flood rewrites the base region unsaved only where it was saved */
	s->base_saved = true;
	for (size_t i = n; i < s->nw; i++)
		s->base_saved = s->base_saved && !s->w[i].skip;
	end_step(s, CAP_STEP_SPREAD, p->guard, s->rep->claimed, n, t0);
	return 0;
}

/* Step 2: a block read every `base` bytes above the base region, below the
 * lowest bad offset: where the device starts over, one of them returns a
 * block of the base region (or of step 1). */
static int step_scan(struct search *s)
{
	const struct cap_plan *p = &s->rep->plan;
	uint64_t from = p->guard + p->base, x = from;
	unsigned reads = 0;
	int64_t t0 = clock_ns();
	for (; x + s->bs <= s->rep->claimed && x < s->bad && !stop_now(s); x += p->base, reads++)
		if (judge(s, x, s->bs, false) != 0)
			return failed(s, "out of memory");
	end_step(s, CAP_STEP_SCAN, from, min64(x, s->rep->claimed), reads, t0);
	return 0;
}

/* A probe block's partner, once a wrap of period P is known: the sectors a
 * period below it, written after it, so that a block past the end reads
 * back the partner's stamp. */
static int add_partner(struct search *s, uint64_t c, size_t len)
{
	if (s->period == 0 || c + len <= s->period)
		return 0;
	uint64_t start = c >= s->period ? c - s->period : 0;
	return add_range(s, start, (size_t)(c + len - s->period - start), true, false);
}

/* Step 3 and on: blocks between the part read back good and the lowest bad
 * offset, their partners, the flood, the reads. */
static int step_narrow(struct search *s)
{
	const struct cap_plan *p = &s->rep->plan;
	uint64_t at[SPREAD], lo = good_end(s), last = s->rep->claimed - s->bs;
	uint64_t hi = min64(s->bad - s->sector, last);
	int64_t t0 = clock_ns();
	lo = min64(lo, last);
	hi = max64(hi, lo);
	unsigned n = pick(s, lo, hi, at);
	s->nw = 0;
	s->step_period = s->period;
	/* a block never reaches past the lowest bad sector: an unreadable one
	 * would make it unsavable whole */
	for (unsigned i = 0; i < n; i++)
		if (add_range(s, at[i], (size_t)min64(s->bs, s->bad - at[i]), true, true) != 0)
			return failed(s, "out of memory");
	for (unsigned i = 0; i < n; i++)
		if (add_partner(s, at[i], (size_t)min64(s->bs, s->bad - at[i])) != 0)
			return failed(s, "out of memory");
	if (add_region(s, p->guard, p->flood, !s->base_saved, false) != 0)
		return failed(s, "out of memory");
	if (save_and_write(s) != 0 || read_ranges_back(s) != 0)
		return -1;
	end_step(s, CAP_STEP_NARROW, lo, min64(hi + s->bs, s->rep->claimed), n, t0);
	return 0;
}

static void conclude(struct search *s)
{
	struct capacity_report *rep = s->rep;
	rep->holds = s->bad;
	rep->good = good_end(s);
	rep->done = !s->stopped && rep->good >= rep->holds;
	if (rep->holds >= rep->claimed)
		rep->past = CAP_PAST_NONE;
	if (rep->past == CAP_PAST_WRAP) {
		rep->period = s->period;
		rep->wraps_to = rep->holds >= s->period ? rep->holds - s->period : 0;
	}
	if (s->j)
		cap_journal_counts(s->j, &rep->saved, &rep->saved_bytes);
}

int capacity_probe(const struct cap_dev *dev, struct cap_journal *j, uint64_t run,
		   const struct cap_hooks *hooks, struct capacity_report *rep, char *why, size_t len)
{
	struct search s = { .dev = dev, .j = j, .h = hooks, .rep = rep, .run = run,
			    .bs = rep->plan.bs, .sector = dev->sector, .bad = dev->size,
			    .why = why, .whylen = len };
	int64_t t0 = clock_ns();
	int rc = 0;
	rep->claimed = dev->size;
	rep->sector = dev->sector;
	rep->destructive = j == NULL;
	if (dev->sector == 0 || dev->sector > CAP_MAX_SECTOR || s.bs % dev->sector ||
	    dev->size % dev->sector || dev->size < 16 * (uint64_t)s.bs ||
	    rep->plan.guard + rep->plan.base > dev->size - s.bs) {
		snprintf(why, len, "a device of %llu bytes in sectors of %u cannot be probed (at "
			 "least 16 blocks of %u)", (unsigned long long)dev->size, dev->sector, s.bs);
		return -1;
	}
	s.buf = plat_buffer_alloc(CAP_CHUNK);
	if (!s.buf)
		return failed(&s, "cannot allocate the I/O buffer");
	rc = step_spread(&s);
	if (rc == 0 && !s.stopped)
		rc = step_scan(&s);
	while (rc == 0 && !s.stopped && good_end(&s) < s.bad && rep->nsteps < rep->plan.max_steps)
		rc = step_narrow(&s);
	conclude(&s);
	if (rc == 0 && !s.stopped && !rep->done) {
		snprintf(why, len, "the search did not settle in %u steps: blocks read back good "
			 "above ones read back bad (a failing device?)", rep->nsteps);
		rc = -1;
	}
	rep->seconds = (double)(clock_ns() - t0) / 1e9;
	plat_buffer_free(s.buf, CAP_CHUNK);
	free(s.good);
	free(s.w);
	return rc;
}
