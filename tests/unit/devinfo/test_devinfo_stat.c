/* Device-side counters: the stat line parser (old 11-field and newer
 * 17-field lines, garbage), and before/after readings of the leaves of a
 * devinfo over a fake sysfs tree: deltas, bytes, utilisation, a leaf whose
 * file vanishes, counters that go back. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "devinfo_stat.h"
#include "fake_root.h"

/* A disk's stat file as sysfs has it: class/block/NAME/stat. */
static void write_stat(const char *name, const char *line)
{
	char rel[128];
	snprintf(rel, sizeof(rel), "class/block/%s/stat", name);
	put(rel, line);
}

static int setup(void **state)
{
	(void)state;
	return fake_root_make("devstat");
}

static int teardown(void **state)
{
	(void)state;
	return fake_root_remove();
}

static void test_parse(void **state)
{
	(void)state;
	struct devstat s;
	assert_int_equal(devstat_parse("    2514027       11 530283124   241766    13173    16719  "
				       "1427092    23276        0    55328   278117        0        0 "
				       "       0        0     8371    13074\n", &s), 0);
	assert_true(s.reads == 2514027 && s.read_merges == 11 && s.read_sectors == 530283124);
	assert_true(s.writes == 13173 && s.write_sectors == 1427092 && s.busy_ms == 55328);
	assert_true(s.queue_ms == 278117 && s.in_flight == 0);
	/* fields 16 and 17 (Linux 5.5): the flushes and their time */
	assert_true(s.has_flush && s.flushes == 8371 && s.flush_ms == 13074);
	assert_int_equal(devstat_parse("1 2 3 4 5 6 7 8 9 10 11", &s), 0); /* 2.6-era: 11 fields */
	assert_int_equal(s.queue_ms, 11);
	assert_false(s.has_flush);
	/* 4.18-5.4: the discards' four, no flush counter (field 16 is none of theirs) */
	assert_int_equal(devstat_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &s), 0);
	assert_true(!s.has_flush && s.flushes == 0 && s.flush_ms == 0);
	assert_int_equal(devstat_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", &s), 0);
	assert_true(!s.has_flush && s.flushes == 0);
	assert_int_equal(devstat_parse("1 2 3 4 5 6 7 8 9 10", &s), -1);
	assert_int_equal(devstat_parse("", &s), -1);
	assert_int_equal(devstat_parse("1 2 x 4 5 6 7 8 9 10 11", &s), -1);
}

static void leaf(struct devinfo *d, const char *name)
{
	snprintf(d->stack[d->nstack].name, sizeof(d->stack[0].name), "%s", name);
	d->leaves[d->nleaves++] = d->nstack++;
}

static void test_before_after(void **state)
{
	(void)state;
	static struct devinfo d;
	static struct devio io;
	memset(&d, 0, sizeof(d));
	leaf(&d, "sdx");
	leaf(&d, "sdy");
	leaf(&d, "gone");
	write_stat("sdx", "100 1 800 10 50 2 400 5 0 1000 2000\n");
	write_stat("sdy", "100 1 800 10 50 2 400 5 0 1000 2000\n");
	devio_begin(&io, &d, root);
	assert_int_equal(io.n, 3);
	assert_int_equal(devio_count(&io), 2); /* "gone" has no stat file */
	write_stat("sdx", "300 5 4896 30 50 2 400 5 1 2500 5000 0 0 0 0 0 0\n");
	write_stat("sdy", "50 1 800 10 60 2 416 5 0 1100 2100\n"); /* reads went back */
	devio_end(&io, root, 2.0);
	assert_int_equal(io.leaf[0].delta.reads, 200);
	assert_int_equal(io.leaf[0].delta.read_merges, 4);
	assert_int_equal(io.leaf[0].delta.read_sectors, 4096);
	assert_int_equal(io.leaf[1].delta.reads, 0);
	assert_int_equal(devio_read_bytes(&io), 4096 * 512);
	assert_int_equal(devio_write_bytes(&io), 16 * 512);
	assert_true(devio_util_pct(&io, 0) > 74.9 && devio_util_pct(&io, 0) < 75.1);
	assert_true(devio_avg_in_flight(&io, 0) > 1.49 && devio_avg_in_flight(&io, 0) < 1.51);
	assert_true(devio_util_pct(&io, 1) > 4.9 && devio_util_pct(&io, 1) < 5.1);
	/* busy longer than the wall clock (the two clocks differ): capped */
	write_stat("sdx", "300 5 4896 30 50 2 400 5 1 9000 5000\n");
	devio_end(&io, root, 2.0);
	assert_true(devio_util_pct(&io, 0) == 100.0);
	/* 32-bit counters wrap: io_ticks and time_in_queue from just below 2^32
	 * to just past it read as what the disk did, not as 0 (issue 33: a
	 * saturated disk read 0 % busy) */
	write_stat("sdx", "300 5 4896 4294967000 50 2 400 5 0 4294966296 4294965296\n");
	devio_begin(&io, &d, root);
	write_stat("sdx", "400 5 5696 704 50 2 400 5 1 704 704\n");
	devio_end(&io, root, 2.0);
	assert_int_equal(io.leaf[0].delta.read_ms, 1000);
	assert_int_equal(io.leaf[0].delta.busy_ms, 1704);
	assert_int_equal(io.leaf[0].delta.queue_ms, 2704);
	assert_true(devio_util_pct(&io, 0) > 84.9 && devio_util_pct(&io, 0) < 85.3);
	/* a 64-bit counter that went back is a device re-added: 0 */
	write_stat("sdx", "5000000000 5 4896 10 50 2 400 5 0 1000 2000\n");
	devio_begin(&io, &d, root);
	write_stat("sdx", "10 5 4896 10 50 2 400 5 0 1000 2000\n");
	devio_end(&io, root, 2.0);
	assert_int_equal(io.leaf[0].delta.reads, 0);
	/* a leaf whose file vanished between the readings drops out */
	char path[256];
	snprintf(path, sizeof(path), "%s/class/block/sdy/stat", root);
	unlink(path);
	devio_end(&io, root, 2.0);
	assert_int_equal(devio_count(&io), 1);
}

static void test_no_leaves_and_bad_names(void **state)
{
	(void)state;
	static struct devio io;
	struct devstat s;
	devio_begin(&io, NULL, root);
	assert_int_equal(io.n, 0);
	assert_int_equal(devio_count(&io), 0);
	assert_int_equal(devstat_read(root, "../etc", &s), -1);
	assert_int_equal(devstat_read(root, "..", &s), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test_setup_teardown(test_before_after, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_leaves_and_bad_names, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
