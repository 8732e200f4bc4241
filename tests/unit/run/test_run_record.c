/* The run record (run_record.c): the disks' counters read at its two
 * instants, from a fake sysfs whose counters the test moves, and divided by
 * the window between them; a second run in the same record starts afresh. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "fake_root.h"
#include "run_record.h"

static struct run_record rec;

/* The record: the disks' counters divided by the window between its two
 * instants, read from a fake sysfs whose counters the test moves. */
static void test_record_window(void **state)
{
	(void)state;
	static struct devinfo d;
	struct timespec pause = { 0, 50000000 };
	assert_int_equal(fake_root_make("record"), 0);
	memset(&d, 0, sizeof(d));
	d.nstack = 1, d.nleaves = 1, d.leaves[0] = 0;
	snprintf(d.stack[0].name, sizeof(d.stack[0].name), "vdz");
	put("class/block/vdz/stat", "100 0 800 10 0 0 0 0 0 1000 1000\n");
	run_record_prepare(&rec, &d, true, 1.0);
	rec.sysfs = root;
	run_record_close(&rec); /* never opened: nothing taken */
	assert_int_equal(rec.close_ns, 0);
	run_record_open(&rec);
	put("class/block/vdz/stat", "200 0 1600 20 0 0 0 0 0 1040 1040\n");
	nanosleep(&pause, NULL);
	run_record_close(&rec);
	double window = run_record_window_s(&rec);
	assert_true(window >= 0.05 && window < 5);
	assert_true(rec.devio.seconds == window);
	assert_int_equal(rec.devio.leaf[0].delta.reads, 100);
	assert_int_equal(rec.devio.leaf[0].delta.busy_ms, 40);
	/* 40 ms busy over the window, not over any longer span */
	assert_true(devio_util_pct(&rec.devio, 0) > 40.0 / (window * 1000) * 100 - 0.01);
	assert_true(devio_util_pct(&rec.devio, 0) < 40.0 / (window * 1000) * 100 + 0.01);
	/* a second run in the same record starts afresh */
	run_record_prepare(&rec, &d, true, 1.0);
	assert_int_equal(rec.open_ns, 0);
	assert_int_equal(rec.devio.n, 0);
	fake_root_remove();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_window),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
