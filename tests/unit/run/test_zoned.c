/* LDFLAGS: -Wl,--wrap=pread */
/* Zoned devices (src/run/zoned.c and the timed loop's use of it): a fake
 * zoned device whose write pointers are the truth, as the kernel's are,
 * fails every write that is not at its zone's pointer and counts the
 * writes in flight in each zone; the writer is driven against it with
 * completions in random order.  Then the timed loop on a sparse file laid
 * out as zones: every zone's capacity written once and nothing past it,
 * resets counted as the fake saw them, and reads only below the pointers
 * (pread is wrapped to see each offset).  Negative cases: a plain job
 * reads past them, a block that does not divide the capacity, fewer open
 * zones than threads. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "io.h"
#include "zoned.h"

#define KIB 1024ull
#define ZONE (1024 * KIB)
#define CAP (768 * KIB)
#define BS (256 * KIB)
#define NZ 8

/* ---- the fake device ------------------------------------------------------ */

static struct fake_dev {
	uint64_t wp[NZ];
	unsigned inflight[NZ], max_inflight;
	unsigned resets, bad_writes, bad_resets;
} dev;

static int fake_reset(int fd, uint64_t start, uint64_t len)
{
	unsigned i = (unsigned)(start / ZONE);
	if (len != ZONE || dev.inflight[i] > 0)
		dev.bad_resets++;
	dev.wp[i] = start;
	dev.resets++;
	if (fd >= 0) /* the file under the timed loop: the zone's data gone */
		return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)start, (off_t)len);
	return 0;
}

/* Zone 0 conventional, 3 full, 5 written to 256 KiB, 7 offline, the rest
 * empty; every zone 1 MiB with 768 KiB of capacity. */
static void report(struct plat_zone rep[NZ])
{
	for (unsigned i = 0; i < NZ; i++) {
		rep[i] = (struct plat_zone){ .start = i * ZONE, .len = ZONE, .cap = CAP,
					     .wp = i * ZONE, .cond = ZONE_COND_EMPTY };
		dev.wp[i] = i * ZONE;
	}
	rep[0].conventional = true;
	rep[0].cond = ZONE_COND_NOT_WP;
	rep[3].cond = ZONE_COND_FULL;
	rep[3].wp = 3 * ZONE + ZONE; /* a full zone's pointer means nothing */
	dev.wp[3] = 3 * ZONE + CAP;
	rep[5].cond = ZONE_COND_OPEN;
	rep[5].wp = dev.wp[5] = 5 * ZONE + 256 * KIB;
	rep[7].cond = ZONE_COND_OFFLINE;
}

static void map_of(struct zone_map *m, uint64_t region, unsigned open_limit, int fd)
{
	struct plat_zone rep[NZ];
	memset(&dev, 0, sizeof(dev));
	report(rep);
	assert_int_equal(zone_map_build(m, rep, NZ, region, BS), 0);
	m->open_limit = open_limit;
	m->fd = fd;
	m->reset = fake_reset;
}

/* Zone 5, written part way, emptied on the map and the device alike, as
 * run_zoned_prepare leaves it for a write test. */
static void empty_part_written(struct zone_map *m)
{
	m->z[5].wp = m->z[5].start;
	dev.wp[5] = 5 * ZONE;
}

/* ---- the map ------------------------------------------------------------------ */

static void test_map(void **state)
{
	(void)state;
	struct zone_map m;
	map_of(&m, NZ * ZONE, 2, -1);
	assert_int_equal(m.n, NZ);
	assert_int_equal(m.writable, 6); /* not the conventional, not the offline */
	assert_int_equal(m.conventional, 1);
	assert_int_equal(zone_map_min_cap(&m), CAP);
	assert_true(zone_map_fits_block(&m, BS));
	assert_false(zone_map_fits_block(&m, 512 * KIB)); /* 768 KiB is no multiple of it */
	/* readable: zone 0 whole (4 blocks), zone 3 to its capacity (3), zone 5
	 * below its pointer (1): 8 blocks, in order */
	assert_int_equal(m.read_blocks, 8);
	uint64_t want[8] = { 0, BS, 2 * BS, 3 * BS, 3 * ZONE, 3 * ZONE + BS, 3 * ZONE + 2 * BS,
			     5 * ZONE };
	for (unsigned b = 0; b < 8; b++)
		assert_int_equal(zone_map_read_offset(&m, b * BS), want[b]);
	zone_map_free(&m);
	/* a region of 2.5 zones holds two whole ones */
	map_of(&m, 2 * ZONE + ZONE / 2, 2, -1);
	assert_int_equal(m.n, 2);
	zone_map_free(&m);
}

/* ---- the writer against the fake ------------------------------------------------ */

struct flight {
	uint64_t offset[64];
	unsigned n;
};

static void issue(struct zone_writer *zw, uint64_t offset, struct flight *f)
{
	(void)zw;
	unsigned i = (unsigned)(offset / ZONE);
	if (offset != dev.wp[i] || offset + BS > i * ZONE + CAP)
		dev.bad_writes++;
	dev.wp[i] = offset + BS;
	if (++dev.inflight[i] > dev.max_inflight)
		dev.max_inflight = dev.inflight[i];
	f->offset[f->n++] = offset;
}

static void complete_one(struct zone_writer *zw, struct flight *f, struct rng *order)
{
	unsigned k = (unsigned)rng_below(order, f->n);
	uint64_t offset = f->offset[k];
	f->offset[k] = f->offset[--f->n];
	dev.inflight[offset / ZONE]--;
	zone_writer_done(zw, offset);
}

/* Up to qd writes in flight, completed in random order, until the writer
 * is done or `most` writes went out; the writes issued. */
static unsigned drive(struct zone_writer *zw, bool random, unsigned qd, unsigned most)
{
	struct flight f = { .n = 0 };
	struct rng pick, order;
	unsigned issued = 0;
	bool done = false;
	rng_seed(&pick, 7, 1);
	rng_seed(&order, 7, 2);
	while (!done || f.n > 0) {
		while (!done && f.n < qd && issued < most) {
			uint64_t offset;
			enum zone_next got = zone_writer_next(zw, random, &pick, &offset);
			assert_int_not_equal(got, ZONE_FAIL);
			if (got == ZONE_WAIT) {
				assert_true(f.n > 0); /* it waits only for a write in flight */
				break;
			}
			if (got == ZONE_DONE)
				done = true;
			else
				issue(zw, offset, &f), issued++;
		}
		if (issued >= most)
			done = true;
		if (f.n > 0)
			complete_one(zw, &f, &order);
	}
	return issued;
}

static void one_pass(bool random)
{
	struct zone_map m;
	struct zone_writer zw;
	struct stats lat;
	stats_init(&lat);
	map_of(&m, NZ * ZONE, 3, -1);
	empty_part_written(&m);
	assert_int_equal(zone_writer_init(&zw, &m, 0, 1, false, &lat), 0);
	unsigned issued = drive(&zw, random, 16, 1000);
	/* six writable zones, three blocks each; zone 3 was full: reset first */
	assert_int_equal(issued, 6 * 3);
	assert_int_equal(dev.bad_writes, 0);
	assert_int_equal(dev.bad_resets, 0);
	assert_int_equal(dev.max_inflight, 1);
	assert_int_equal(dev.resets, 1);
	assert_int_equal(zw.resets, 1);
	assert_int_equal(lat.count, 1);
	for (unsigned i = 1; i < NZ - 1; i++)
		assert_int_equal(dev.wp[i], i * ZONE + CAP);
	assert_int_equal(dev.wp[0], 0); /* the conventional zone untouched */
	assert_int_equal(dev.wp[7], 7 * ZONE); /* the offline one too */
	zone_writer_free(&zw);
	zone_map_free(&m);
}

static void test_writer_sequential(void **state)
{
	(void)state;
	one_pass(false);
}

static void test_writer_random(void **state)
{
	(void)state;
	one_pass(true);
}

/* Going round: every written zone is reset before it is written again,
 * never with a write of it in flight. */
static void test_writer_cycles(void **state)
{
	(void)state;
	struct zone_map m;
	struct zone_writer zw;
	struct stats lat;
	stats_init(&lat);
	map_of(&m, NZ * ZONE, 2, -1);
	empty_part_written(&m);
	assert_int_equal(zone_writer_init(&zw, &m, 0, 1, true, &lat), 0);
	unsigned issued = drive(&zw, true, 8, 3 * 18 + 1);
	assert_int_equal(issued, 3 * 18 + 1);
	assert_int_equal(dev.bad_writes, 0);
	assert_int_equal(dev.bad_resets, 0);
	assert_int_equal(dev.max_inflight, 1);
	/* zone 3 once to start, then every zone again on rounds two and three
	 * (and the first zone of round four for the last write) */
	assert_int_equal(dev.resets, 1 + 6 + 6 + 1);
	assert_int_equal(zw.resets, dev.resets);
	assert_int_equal(lat.count, dev.resets);
	zone_writer_free(&zw);
	zone_map_free(&m);
}

/* Two threads: zones of their own, the open limit shared. */
static void test_writer_threads(void **state)
{
	(void)state;
	struct zone_map m;
	struct zone_writer a, b;
	struct stats lat;
	stats_init(&lat);
	map_of(&m, NZ * ZONE, 3, -1);
	assert_int_equal(zone_writer_init(&a, &m, 0, 2, false, &lat), 0);
	assert_int_equal(zone_writer_init(&b, &m, 1, 2, false, &lat), 0);
	assert_int_equal(a.limit + b.limit, 3);
	assert_int_equal(a.nmine + b.nmine, 6);
	for (unsigned i = 0; i < a.nmine; i++)
		for (unsigned k = 0; k < b.nmine; k++)
			assert_int_not_equal(a.mine[i], b.mine[k]);
	zone_writer_free(&a);
	zone_writer_free(&b);
	/* fewer open zones than threads: the second gets none */
	m.open_limit = 1;
	assert_int_equal(zone_writer_init(&a, &m, 0, 2, false, &lat), 0);
	assert_int_equal(zone_writer_init(&b, &m, 1, 2, false, &lat), -1);
	assert_int_equal(errno, ENOSPC);
	zone_writer_free(&a);
	zone_map_free(&m);
}

/* ---- the timed loop on a file laid out as zones -------------------------------- */

static atomic_uint nreads;
static uint64_t read_at[4096];
static int watched_fd = -1; /* the file's reads; not the pagemap's, say */
ssize_t __real_pread(int fd, void *buf, size_t n, off_t offset);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t offset)
{
	if (fd != watched_fd)
		return __real_pread(fd, buf, n, offset);
	unsigned k = atomic_fetch_add(&nreads, 1);
	if (k < 4096)
		read_at[k] = (uint64_t)offset;
	return __real_pread(fd, buf, n, offset);
}

struct fx {
	char path[64];
	int fd;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	snprintf(f->path, sizeof(f->path), "/tmp/diskbench-zoned-XXXXXX");
	f->fd = mkstemp(f->path);
	if (f->fd < 0 || ftruncate(f->fd, NZ * ZONE) != 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	close(f->fd);
	unlink(f->path);
	free(f);
	return 0;
}

static const struct engine_ops *async_engine(void)
{
	const struct engine_ops *ops;
	char note[256];
	return engine_pick("auto", &ops, note, sizeof(note)) == 0 ? ops : &engine_sync;
}

static void job_on(struct bench_job *job, int fd, enum io_dir dir, struct zone_map *m)
{
	memset(job, 0, sizeof(*job));
	job->fd = fd;
	job->dir = dir;
	job->pattern = PAT_RAND;
	job->bs = BS;
	job->region = NZ * ZONE;
	job->bytes_limit = UINT64_MAX;
	job->threads = 2;
	job->seed = 11;
	job->engine = async_engine();
	job->qd = job->engine->max_qd >= 8 ? 8 : 1;
	job->zones = m;
}

/* Each zone holds what the run wrote at its offsets up to its capacity,
 * and nothing past it. */
static void check_zone_data(int fd, unsigned zone, bool written)
{
	char *got = malloc(BS), *want = malloc(BS);
	struct rng data;
	assert_non_null(got);
	assert_non_null(want);
	for (uint64_t at = zone * ZONE; at < (zone + 1) * ZONE; at += BS) {
		assert_int_equal(__real_pread(fd, got, BS, (off_t)at), (ssize_t)BS);
		if (written && at < zone * ZONE + CAP) {
			rng_seed(&data, 11, 0xda7a0000u);
			io_fill(want, BS, false, &data);
			io_stamp(want, BS, at, 11 ^ 0x5eedu);
		} else {
			memset(want, 0, BS);
		}
		assert_memory_equal(got, want, BS);
	}
	free(got);
	free(want);
}

static void test_loop_writes_one_pass(void **state)
{
	struct fx *f = *state;
	struct zone_map m;
	struct bench_job job;
	struct bench_outcome *out = calloc(1, sizeof(*out));
	assert_non_null(out);
	map_of(&m, NZ * ZONE, 4, f->fd);
	empty_part_written(&m);
	job_on(&job, f->fd, IO_WRITE, &m);
	assert_int_equal(bench_run(&job, out, NULL), 0);
	assert_int_equal(out->bytes, 6 * CAP);
	assert_int_equal(out->zone_resets, 1); /* zone 3, full at the start */
	assert_int_equal(dev.resets, 1);
	assert_int_equal(out->lat_zone_reset.count, 1);
	assert_int_equal(out->ended, BENCH_END_PASS);
	for (unsigned z = 0; z < NZ; z++)
		check_zone_data(f->fd, z, z != 0 && z != 7);
	zone_map_free(&m);
	free(out);
}

static void test_loop_writes_by_time(void **state)
{
	struct fx *f = *state;
	struct zone_map m;
	struct bench_job job;
	struct bench_outcome *out = calloc(1, sizeof(*out));
	assert_non_null(out);
	map_of(&m, NZ * ZONE, 2, f->fd);
	empty_part_written(&m);
	job_on(&job, f->fd, IO_WRITE, &m);
	job.wrap = true;
	job.time_limit_s = 0.2;
	assert_int_equal(bench_run(&job, out, NULL), 0);
	/* round after round: the resets the fake device saw, each timed */
	assert_true(out->bytes > 6 * CAP);
	assert_int_equal(out->zone_resets, dev.resets);
	assert_int_equal(out->lat_zone_reset.count, dev.resets);
	assert_int_equal(dev.bad_resets, 0);
	zone_map_free(&m);
	free(out);
}

static bool below_pointers(uint64_t at)
{
	unsigned z = (unsigned)(at / ZONE);
	uint64_t in = at % ZONE;
	return z == 0 || (z == 3 && in < CAP) || (z == 5 && in < 256 * KIB);
}

static unsigned reads_beyond(struct fx *f, struct zone_map *m)
{
	struct bench_job job;
	struct bench_outcome *out = calloc(1, sizeof(*out));
	assert_non_null(out);
	job_on(&job, f->fd, IO_READ, m);
	job.engine = &engine_sync; /* through pread, which the test sees */
	job.qd = 1;
	job.bytes_limit = 200 * BS;
	job.region = m ? m->read_blocks * BS : NZ * ZONE;
	atomic_store(&nreads, 0);
	watched_fd = f->fd;
	assert_int_equal(bench_run(&job, out, NULL), 0);
	watched_fd = -1;
	unsigned n = atomic_load(&nreads), beyond = 0;
	assert_true(n >= 200);
	for (unsigned k = 0; k < n && k < 4096; k++)
		beyond += !below_pointers(read_at[k]);
	free(out);
	return beyond;
}

static void test_loop_reads(void **state)
{
	struct fx *f = *state;
	struct zone_map m;
	map_of(&m, NZ * ZONE, 2, f->fd);
	assert_int_equal(reads_beyond(f, &m), 0);
	zone_map_free(&m);
	/* negative: the same reads on no map land beyond the pointers */
	assert_true(reads_beyond(f, NULL) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_writer_sequential),
		cmocka_unit_test(test_writer_random),
		cmocka_unit_test(test_writer_cycles),
		cmocka_unit_test(test_writer_threads),
		cmocka_unit_test_setup_teardown(test_loop_writes_one_pass, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop_writes_by_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop_reads, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
