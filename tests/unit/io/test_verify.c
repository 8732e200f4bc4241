/* Unit tests of src/io/verify.c, verify_region.c and verify_scan.c: the map's bound, a
 * block's claim (one write of it in flight at a time, its generation one
 * more each write), the witness's lines as writes complete, and the
 * read-back judging a temp file whose blocks the test wrote by hand: good
 * ones, a block whose write never reached the file (unwritten), one left
 * at an older generation (stale), one overwritten with another offset's
 * block (misplaced), one with a flipped byte (corrupt); the backlog lane;
 * the tally's first offsets and merge; the verify command's scan from the
 * headers alone and against a witness, over blocks stamped by hand. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockhdr.h"
#include "verify.h"
#include "witness.h"

#define BS 4096u
#define NBLOCKS 64u

static char path[64];

static int setup(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "/tmp/diskbench-test-verify.XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static struct verify *open_plan(bool backlog, int witness_fd, int read_fd)
{
	struct verify_plan p = { .region = NBLOCKS * BS, .bs = BS, .run_id = 0xabcdef,
				 .backlog = backlog, .witness_fd = witness_fd,
				 .witness_each = true, .read_fd = read_fd, .target = "t" };
	struct verify *v = verify_open(&p);
	assert_non_null(v);
	return v;
}

/* One write as the worker does it: claim and stamp, the write, its end. */
static void write_block(struct verify *v, int fd, uint64_t offset, bool reach_the_file)
{
	static unsigned char buf[BS];
	memset(buf, (int)(offset / BS), sizeof(buf));
	assert_true(verify_write_begin(v, buf, BS, offset));
	if (reach_the_file)
		assert_int_equal(pwrite(fd, buf, BS, (off_t)offset), BS);
	verify_write_end(v, NULL, buf, offset, true);
}

static void test_map_bound(void **state)
{
	(void)state;
	assert_int_equal(verify_map_bytes(1ull << 30, 4096), (1ull << 18) * 4);
	/* 256 GiB of 4 KiB blocks is the most; one block more is refused */
	assert_int_equal(verify_map_bytes(256ull << 30, 4096), VERIFY_MAX_MAP_BYTES);
	struct verify_plan p = { .region = (256ull << 30) + 4096, .bs = 4096, .witness_fd = -1,
				 .read_fd = -1 };
	errno = 0;
	assert_null(verify_open(&p));
	assert_int_equal(errno, EFBIG);
}

static void test_claim_and_generations(void **state)
{
	(void)state;
	unsigned char a[BS], b[BS];
	struct verify *v = open_plan(false, -1, -1);
	assert_true(verify_write_begin(v, a, BS, 8 * BS));
	assert_int_equal(blk_generation(a), 1);
	/* a second write of the block while the first is in flight: refused,
	 * the buffer untouched */
	memset(b, 0x5a, sizeof(b));
	assert_false(verify_write_begin(v, b, BS, 8 * BS));
	assert_int_equal(b[0], 0x5a);
	/* another block is free */
	assert_true(verify_write_begin(v, b, BS, 9 * BS));
	verify_write_end(v, NULL, a, 8 * BS, true);
	assert_true(verify_write_begin(v, a, BS, 8 * BS));
	assert_int_equal(blk_generation(a), 2);
	/* a failed write releases its block too */
	verify_write_end(v, NULL, a, 8 * BS, false);
	assert_true(verify_write_begin(v, a, BS, 8 * BS));
	assert_int_equal(blk_generation(a), 3);
	verify_close(v);
}

static void test_region_judged(void **state)
{
	(void)state;
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, NBLOCKS * BS), 0);
	struct verify *v = open_plan(false, -1, -1);
	for (uint64_t b = 0; b < 16; b++)
		write_block(v, fd, b * BS, true);
	write_block(v, fd, 20 * BS, true);
	write_block(v, fd, 3 * BS, false);  /* block 3: its second write lost: stale */
	write_block(v, fd, 5 * BS, false);  /* block 5 too */
	write_block(v, fd, 30 * BS, false); /* never reached the file: unwritten */
	/* block 7 holds block 20's data: a misdirected write */
	unsigned char buf[BS];
	assert_int_equal(pread(fd, buf, BS, 20 * BS), BS);
	assert_int_equal(pwrite(fd, buf, BS, 7 * BS), BS);
	/* block 40 was never written by the run and holds block 20's too: misplaced */
	assert_int_equal(pwrite(fd, buf, BS, 40 * BS), BS);
	/* a byte of block 11 changed after it was written */
	assert_int_equal(pread(fd, buf, BS, 11 * BS), BS);
	buf[2000] ^= 0x40;
	assert_int_equal(pwrite(fd, buf, BS, 11 * BS), BS);

	volatile int stop = 0;
	assert_int_equal(verify_region(v, fd, &stop), 0);
	struct result_verify t;
	assert_int_equal(verify_result(v, &t), 0);
	assert_string_equal(t.mode, "after");
	/* 16 + 20 + 30 written, 40 judged for being misplaced */
	assert_int_equal(t.blocks, 19);
	assert_int_equal(t.bad[VERIFY_STALE], 2);
	assert_int_equal(t.first[VERIFY_STALE][0].offset, 3 * BS);
	assert_int_equal(t.first[VERIFY_STALE][0].found, 1);
	assert_int_equal(t.first[VERIFY_STALE][0].wanted, 2);
	assert_int_equal(t.first[VERIFY_STALE][1].offset, 5 * BS);
	assert_int_equal(t.bad[VERIFY_UNWRITTEN], 1);
	assert_int_equal(t.first[VERIFY_UNWRITTEN][0].offset, 30 * BS);
	assert_int_equal(t.bad[VERIFY_MISPLACED], 2);
	assert_int_equal(t.first[VERIFY_MISPLACED][0].offset, 7 * BS);
	assert_int_equal(t.first[VERIFY_MISPLACED][0].found, 20 * BS);
	assert_int_equal(t.first[VERIFY_MISPLACED][1].offset, 40 * BS);
	assert_int_equal(t.bad[VERIFY_CORRUPT], 1);
	assert_int_equal(t.first[VERIFY_CORRUPT][0].offset, 11 * BS);
	assert_int_equal(t.good, 19 - 6);
	assert_int_equal(t.bad[VERIFY_LOST], 0);
	verify_close(v);
	close(fd);
}

/* An interrupted read-back says so (EINTR), not a verdict. */
static void test_region_stops(void **state)
{
	(void)state;
	int fd = open(path, O_RDWR);
	struct verify *v = open_plan(false, -1, -1);
	write_block(v, fd, 0, true);
	volatile int stop = 1;
	errno = 0;
	assert_int_equal(verify_region(v, fd, &stop), -1);
	assert_int_equal(errno, EINTR);
	verify_close(v);
	close(fd);
}

static void test_backlog_lane(void **state)
{
	(void)state;
	int fd = open(path, O_RDWR);
	int rfd = open(path, O_RDONLY);
	assert_true(fd >= 0 && rfd >= 0);
	struct verify *v = open_plan(true, -1, rfd);
	assert_true(verify_backlog(v));
	struct verify_lane *l = verify_lane_open(v, 2);
	assert_non_null(l);
	unsigned char buf[BS];
	assert_true(verify_write_begin(v, buf, BS, 0));
	assert_int_equal(pwrite(fd, buf, BS, 0), BS);
	verify_write_end(v, l, buf, 0, true);
	assert_true(verify_lane_pending(l));
	assert_false(verify_lane_due(l));
	/* held until read back: nobody may write it meanwhile */
	assert_false(verify_write_begin(v, buf, BS, 0));
	assert_true(verify_write_begin(v, buf, BS, BS));
	buf[100] ^= 1; /* what reaches the file is not what was stamped */
	assert_int_equal(pwrite(fd, buf, BS, BS), BS);
	verify_write_end(v, l, buf, BS, true);
	assert_true(verify_lane_due(l));
	assert_int_equal(verify_lane_check(v, l), 0);
	assert_false(verify_lane_pending(l));
	assert_true(verify_write_begin(v, buf, BS, 0)); /* released */
	verify_write_end(v, NULL, buf, 0, false);
	verify_lane_close(v, l);
	struct result_verify t;
	verify_result(v, &t);
	assert_string_equal(t.mode, "backlog");
	assert_int_equal(t.blocks, 2);
	assert_int_equal(t.good, 1);
	assert_int_equal(t.bad[VERIFY_CORRUPT], 1);
	assert_int_equal(t.first[VERIFY_CORRUPT][0].offset, BS);
	verify_close(v); /* closes rfd */
	close(fd);
}

/* A job file's verify_backlog=N: the lane is due after N writes, whatever
 * batch (the worker's depth) it was opened with. */
static void test_backlog_n(void **state)
{
	(void)state;
	struct verify_plan p = { .region = NBLOCKS * BS, .bs = BS, .run_id = 1, .backlog = true,
				 .backlog_n = 3, .witness_fd = -1, .read_fd = -1, .target = "t" };
	struct verify *v = verify_open(&p);
	assert_non_null(v);
	struct verify_lane *l = verify_lane_open(v, 8);
	assert_non_null(l);
	unsigned char buf[BS];
	for (uint64_t b = 0; b < 3; b++) {
		assert_false(verify_lane_due(l));
		assert_true(verify_write_begin(v, buf, BS, b * BS));
		verify_write_end(v, l, buf, b * BS, true);
	}
	assert_true(verify_lane_due(l)); /* 3, not 8 */
	verify_lane_close(v, l); /* never read back: released */
	verify_close(v);
}

/* Each completed write is a witness line; a failed one is not. */
static void test_witness_lines(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	struct verify *v = open_plan(false, p[1], -1);
	unsigned char buf[BS];
	assert_true(verify_write_begin(v, buf, BS, 2 * BS));
	verify_write_end(v, NULL, buf, 2 * BS, true);
	assert_true(verify_write_begin(v, buf, BS, 2 * BS));
	verify_write_end(v, NULL, buf, 2 * BS, false);
	assert_true(verify_write_begin(v, buf, BS, 2 * BS));
	verify_write_end(v, NULL, buf, 2 * BS, true);
	struct result_verify t;
	assert_int_equal(verify_result(v, &t), 0);
	assert_int_equal(t.witness_lines, 2);
	verify_close(v); /* closes p[1] */
	char got[512] = "";
	ssize_t n = read(p[0], got, sizeof(got) - 1);
	assert_true(n > 0);
	got[n] = '\0';
	const char *want = "# diskbench witness 1 run=0000000000abcdef bs=4096 region=262144 "
			   "target=t\nw 8192 1\nw 8192 3\n# end lines=2\n";
	assert_string_equal(got, want);
	close(p[0]);
}

static void test_first_offsets_lowest_in_order(void **state)
{
	(void)state;
	struct result_verify t, u;
	memset(&t, 0, sizeof(t));
	memset(&u, 0, sizeof(u));
	static const uint64_t at[] = { 90, 10, 50, 70, 20, 80, 30, 60, 40, 100, 5 };
	for (unsigned i = 0; i < 11; i++)
		verify_tally_bad(&t, VERIFY_CORRUPT, at[i], 0, 0);
	assert_int_equal(t.bad[VERIFY_CORRUPT], 11);
	static const uint64_t want[VERIFY_FIRST] = { 5, 10, 20, 30, 40, 50, 60, 70 };
	for (unsigned i = 0; i < VERIFY_FIRST; i++)
		assert_int_equal(t.first[VERIFY_CORRUPT][i].offset, want[i]);
	verify_tally_bad(&u, VERIFY_CORRUPT, 1, 0, 0);
	verify_tally_bad(&u, VERIFY_STALE, 7, 1, 2);
	u.blocks = 4, u.good = 2;
	verify_tally_merge(&t, &u);
	assert_int_equal(t.bad[VERIFY_CORRUPT], 12);
	assert_int_equal(t.first[VERIFY_CORRUPT][0].offset, 1);
	assert_int_equal(t.first[VERIFY_CORRUPT][7].offset, 60);
	assert_int_equal(t.bad[VERIFY_STALE], 1);
	assert_int_equal(t.first[VERIFY_STALE][0].wanted, 2);
	assert_int_equal(t.blocks, 4);
	assert_int_equal(t.good, 2);
}

/* A block of run `run`, generation gen, written at `at` as written for `for_offset`. */
static void put_block(int fd, uint64_t at, uint64_t for_offset, uint64_t run, uint64_t gen)
{
	static unsigned char buf[BS];
	memset(buf, 0x33, sizeof(buf));
	struct blk_hdr h = { .block_size = BS, .offset = for_offset, .run_id = run,
			     .generation = gen, .region = 8 * BS };
	blk_stamp(buf, &h);
	assert_int_equal(pwrite(fd, buf, BS, (off_t)at), BS);
}

/* The verify command's view: the run found past a lost block 0, the
 * region's run chosen by its intact blocks, the others counted. */
static void test_scan_headers(void **state)
{
	(void)state;
	int fd = open(path, O_RDWR);
	assert_int_equal(ftruncate(fd, 8 * BS), 0);
	for (uint64_t b = 1; b < 6; b++)
		put_block(fd, b * BS, b * BS, 0xA, 1);
	put_block(fd, 6 * BS, 6 * BS, 0xB, 1); /* an earlier run's, never overwritten */
	put_block(fd, 7 * BS, 3 * BS, 0xA, 1); /* written for block 3, landed here */
	uint64_t bs = 0, region = 0, run = 0;
	assert_int_equal(verify_find_run(fd, 1 << 20, &bs, &region, &run), 1);
	assert_int_equal(bs, BS);
	assert_int_equal(region, 8 * BS);
	assert_int_equal(run, 0xA);
	struct result_verify t;
	volatile int stop = 0;
	assert_int_equal(verify_scan(fd, bs, region, run, NULL, &stop, &t), 0);
	assert_string_equal(t.mode, "headers");
	assert_int_equal(t.blocks, 8);
	assert_int_equal(t.run_id, 0xA);
	assert_int_equal(t.good, 5);
	assert_int_equal(t.no_header, 1);
	assert_int_equal(t.other_run, 1);
	assert_int_equal(t.bad[VERIFY_MISPLACED], 1);
	assert_int_equal(t.first[VERIFY_MISPLACED][0].offset, 7 * BS);
	assert_int_equal(t.first[VERIFY_MISPLACED][0].found, 3 * BS);
	/* nothing of ours at all */
	unsigned char zero[BS] = { 0 };
	for (uint64_t b = 0; b < 8; b++)
		assert_int_equal(pwrite(fd, zero, BS, (off_t)(b * BS)), BS);
	assert_int_equal(verify_find_run(fd, 1 << 20, &bs, &region, &run), 0);
	close(fd);
}

/* Against a witness: acknowledged and there (or newer), older (lost), gone
 * (unwritten), torn by a newer write nobody acknowledged (in flight, not
 * bad), torn at the acknowledged write (corrupt), unacknowledged blocks not
 * judged. */
static void test_scan_witness(void **state)
{
	(void)state;
	int fd = open(path, O_RDWR);
	assert_int_equal(ftruncate(fd, 8 * BS), 0);
	uint32_t acked[8] = { 3, 3, 4, 2, 2, 5, 0, 0 };
	struct witness w = { .run_id = 0xC, .bs = BS, .region = 8 * BS, .nblocks = 8,
			     .acked = acked };
	put_block(fd, 0, 0, 0xC, 3);          /* good */
	put_block(fd, 1 * BS, 1 * BS, 0xC, 4); /* good: newer than acknowledged */
	put_block(fd, 2 * BS, 2 * BS, 0xC, 3); /* lost: 3 where 4 was acknowledged */
	/* block 3: nothing (unwritten) */
	put_block(fd, 4 * BS, 4 * BS, 0xC, 3); /* torn by write 3, only 2 acknowledged */
	unsigned char b = 0x77;
	assert_int_equal(pwrite(fd, &b, 1, 4 * BS + 2000), 1);
	put_block(fd, 5 * BS, 5 * BS, 0xC, 5); /* torn at the acknowledged write: corrupt */
	assert_int_equal(pwrite(fd, &b, 1, 5 * BS + 2000), 1);
	put_block(fd, 6 * BS, 6 * BS, 0xC, 1); /* never acknowledged: not judged */
	struct result_verify t;
	volatile int stop = 0;
	assert_int_equal(verify_scan(fd, 0, 8 * BS, 0, &w, &stop, &t), 0);
	assert_string_equal(t.mode, "witness");
	assert_int_equal(t.acknowledged, 6);
	assert_int_equal(t.unacknowledged, 2);
	assert_int_equal(t.good, 2);
	assert_int_equal(t.bad[VERIFY_LOST], 1);
	assert_int_equal(t.first[VERIFY_LOST][0].offset, 2 * BS);
	assert_int_equal(t.first[VERIFY_LOST][0].found, 3);
	assert_int_equal(t.first[VERIFY_LOST][0].wanted, 4);
	assert_int_equal(t.bad[VERIFY_UNWRITTEN], 1);
	assert_int_equal(t.first[VERIFY_UNWRITTEN][0].offset, 3 * BS);
	assert_int_equal(t.in_flight, 1);
	assert_int_equal(t.bad[VERIFY_CORRUPT], 1);
	assert_int_equal(t.first[VERIFY_CORRUPT][0].offset, 5 * BS);
	assert_int_equal(t.bad[VERIFY_STALE] + t.bad[VERIFY_MISPLACED], 0);
	/* a target that ends after 2 blocks: what the witness lists past it is unwritten */
	assert_int_equal(verify_scan(fd, 0, 2 * BS, 0, &w, &stop, &t), 0);
	assert_int_equal(t.good, 2);
	assert_int_equal(t.acknowledged, 6);
	assert_int_equal(t.blocks, 2 + 4);
	assert_int_equal(t.bad[VERIFY_UNWRITTEN], 4);
	assert_int_equal(t.first[VERIFY_UNWRITTEN][0].offset, 2 * BS);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_bound),
		cmocka_unit_test(test_claim_and_generations),
		cmocka_unit_test_setup_teardown(test_region_judged, setup, teardown),
		cmocka_unit_test_setup_teardown(test_region_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_backlog_lane, setup, teardown),
		cmocka_unit_test(test_backlog_n),
		cmocka_unit_test(test_witness_lines),
		cmocka_unit_test(test_first_offsets_lowest_in_order),
		cmocka_unit_test_setup_teardown(test_scan_headers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scan_witness, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
