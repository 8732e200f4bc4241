/* Unit tests of src/io/witness.c's reader: a witness as written (header,
 * writes, end), the newest generation of each block kept; what a serial
 * console and a power cut do to the stream (noise lines counted and
 * skipped, a last line cut in the middle skipped, no end line); an earlier
 * run's lines dropped at the next run's header; and what is no witness (no
 * header, a write outside the region or not on a block, a write before the
 * header): usage errors saying why. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "diskbench.h"
#include "witness.h"

#define HDR "# diskbench witness 1 run=00000000000000ff bs=4096 region=65536 target=/dev/x\n"

static int read_text(const char *text, struct witness *w, char *why, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(f);
	int code = witness_read(f, w, why, len);
	fclose(f);
	return code;
}

static void test_whole_witness(void **state)
{
	(void)state;
	struct witness w;
	char why[256];
	int code = read_text(HDR "w 0 1\nw 8192 1\nw 0 2\nw 0 3\nw 61440 7\n# end lines=5\n", &w,
			     why, sizeof(why));
	assert_int_equal(code, EXIT_OK);
	assert_int_equal(w.run_id, 0xff);
	assert_int_equal(w.bs, 4096);
	assert_int_equal(w.region, 65536);
	assert_int_equal(w.nblocks, 16);
	assert_int_equal(w.acked[0], 3);
	assert_int_equal(w.acked[1], 0);
	assert_int_equal(w.acked[2], 1);
	assert_int_equal(w.acked[15], 7);
	assert_int_equal(w.listed, 3);
	assert_int_equal(w.lines, 5);
	assert_int_equal(w.noise, 0);
	assert_true(w.ended);
	witness_free(&w);
}

static void test_console_and_power_cut(void **state)
{
	(void)state;
	struct witness w;
	char why[256];
	/* kernel messages between the lines, and the last line cut mid-way */
	int code = read_text("[   12.3] random: crng init done\n" HDR "w 4096 1\n"
			     "[   13.0] EXT4-fs (vda): mounted\nw 4096 2\r\nw 12288 1\nw 122",
			     &w, why, sizeof(why));
	assert_int_equal(code, EXIT_OK);
	assert_int_equal(w.acked[1], 2);
	assert_int_equal(w.acked[3], 1);
	assert_int_equal(w.lines, 3);
	assert_int_equal(w.noise, 1); /* the one before the header went with the reset */
	assert_false(w.ended);
	witness_free(&w);
}

static void test_later_run_replaces_earlier(void **state)
{
	(void)state;
	struct witness w;
	char why[256];
	int code = read_text(HDR "w 0 5\n# end lines=1\n"
			     "# diskbench witness 1 run=0000000000000100 bs=8192 region=16384 "
			     "target=x\nw 8192 1\n", &w, why, sizeof(why));
	assert_int_equal(code, EXIT_OK);
	assert_int_equal(w.run_id, 0x100);
	assert_int_equal(w.nblocks, 2);
	assert_int_equal(w.acked[0], 0);
	assert_int_equal(w.acked[1], 1);
	assert_false(w.ended);
	witness_free(&w);
}

static void bad(const char *text, const char *words)
{
	struct witness w;
	char why[256] = "";
	int code = read_text(text, &w, why, sizeof(why));
	assert_int_equal(code, EXIT_USAGE);
	if (!strstr(why, words))
		fail_msg("\"%s\" does not say \"%s\"", why, words);
	assert_null(w.acked);
}

static void test_not_a_witness(void **state)
{
	(void)state;
	bad("", "no witness of diskbench");
	bad("hello\nw 0 1\n", "a write before the witness's first line");
	bad(HDR "w 65536 1\n", "line 2: not a write of a block of its region");
	bad(HDR "w 100 1\n", "line 2: not a write");
	bad(HDR "w 0 0\n", "line 2: not a write");
	bad(HDR "w -4096 1\n", "line 2: not a write");
	bad(HDR "w 0 1 junk\n", "line 2: not a write");
	bad("# diskbench witness 1 run=zz bs=4096 region=65536\n", "names no run");
	bad("# diskbench witness 1 run=1 bs=0 region=65536\n", "no block --verify writes");
	bad("# diskbench witness 1 run=1 bs=1000 region=65536\n", "no block --verify writes");
	bad("# diskbench witness 1 run=1 bs=1073741824 region=2147483648\n", "no block --verify writes");
	bad("# diskbench witness 1 run=1 bs=4096 region=512\n", "names no run");
	/* a region of one whole block and a part: the part is no block of it */
	bad("# diskbench witness 1 run=1 bs=4096 region=6556\nw 4096 1\n", "line 2: not a write");
}

static void test_written_then_read(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(witness_put_header(p[1], 0x1234, 512, 4096, "a\nb"), 0);
	assert_int_equal(witness_put_write(p[1], 1024, 9), 0);
	assert_int_equal(witness_put_end(p[1], 1), 0);
	close(p[1]);
	FILE *r = fdopen(p[0], "r");
	struct witness w;
	char why[256];
	assert_int_equal(witness_read(r, &w, why, sizeof(why)), EXIT_OK);
	fclose(r);
	assert_int_equal(w.run_id, 0x1234);
	assert_int_equal(w.acked[2], 9);
	assert_true(w.ended);
	assert_int_equal(w.noise, 0); /* the newline in the name stayed on its line */
	witness_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_witness),
		cmocka_unit_test(test_console_and_power_cut),
		cmocka_unit_test(test_later_run_replaces_earlier),
		cmocka_unit_test(test_not_a_witness),
		cmocka_unit_test(test_written_then_read),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
