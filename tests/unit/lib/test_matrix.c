/* The matrix's pure logic: the parsers of --block-sizes, --file-sizes and
 * --ops, the grid's shape and order, and the budget's split. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cmd.h"
#include "matrix.h"

#define KiB (1ull << 10)
#define MiB (1ull << 20)
#define GiB (1ull << 30)

static int parse(const char *text, uint64_t *sizes, unsigned *n, const char **why)
{
	*why = NULL;
	return matrix_parse_sizes(text, MATRIX_MAX_BLOCK, sizes, n, why);
}

static void test_list_sorted(void **state)
{
	(void)state;
	uint64_t s[MATRIX_MAX_SIZES];
	unsigned n;
	const char *why;
	assert_int_equal(parse("1M,4k,64k", s, &n, &why), 0);
	assert_int_equal(n, 3);
	assert_int_equal(s[0], 4 * KiB);
	assert_int_equal(s[1], 64 * KiB);
	assert_int_equal(s[2], MiB);
	assert_int_equal(parse("512", s, &n, &why), 0);
	assert_int_equal(n, 1);
	assert_int_equal(s[0], 512);
	assert_int_equal(parse("4KB,8000", s, &n, &why), 0); /* powers of 1000 too, as -s */
	assert_int_equal(s[0], 4000);
}

static void test_range_powers_of_four(void **state)
{
	(void)state;
	uint64_t s[MATRIX_MAX_SIZES];
	unsigned n;
	const char *why;
	assert_int_equal(parse("4k-16M", s, &n, &why), 0);
	assert_int_equal(n, 7);
	const uint64_t want[] = { 4 * KiB, 16 * KiB, 64 * KiB, 256 * KiB, MiB, 4 * MiB, 16 * MiB };
	for (unsigned i = 0; i < 7; i++)
		assert_int_equal(s[i], want[i]);
	assert_int_equal(parse("4k-4k", s, &n, &why), 0);
	assert_int_equal(n, 1);
}

static void test_range_with_step(void **state)
{
	(void)state;
	uint64_t s[MATRIX_MAX_SIZES];
	unsigned n;
	const char *why;
	assert_int_equal(parse("4k-32k:2", s, &n, &why), 0);
	assert_int_equal(n, 4);
	assert_int_equal(s[3], 32 * KiB);
	assert_int_equal(parse("1k-1M:1024", s, &n, &why), 0);
	assert_int_equal(n, 2);
	/* 16 sizes is the most: 512 B .. 16 MiB by 2 */
	assert_int_equal(parse("512-16M:2", s, &n, &why), 0);
	assert_int_equal(n, 16);
}

static void expect_bad(const char *text, const char *fragment)
{
	uint64_t s[MATRIX_MAX_SIZES];
	unsigned n;
	const char *why = NULL;
	assert_int_equal(parse(text, s, &n, &why), -1);
	assert_non_null(why);
	if (!strstr(why, fragment))
		fail_msg("'%s': '%s' does not say '%s'", text, why, fragment);
}

static void test_bad_sizes(void **state)
{
	(void)state;
	expect_bad("", "empty");
	expect_bad("4k,,1M", "empty");
	expect_bad("4k,", "empty");
	expect_bad("4k,4k", "twice");
	expect_bad("0", "greater than zero");
	expect_bad("-4k", "negative");
	expect_bad("4q", "suffix");
	expect_bad("4k-10M", "power of 4");
	expect_bad("4k-24k:2", "power of the step");
	expect_bad("16M-4k", "smaller size to the larger");
	expect_bad("4k-16M:1", "from 2 to 1024");
	expect_bad("4k-16M:x", "from 2 to 1024");
	expect_bad("4k:2", "goes with a range");
	expect_bad("4k:2-16M", "follows the range");
	expect_bad("4k-1M,2M", "not both");
	expect_bad("512M", "256 MiB");
	expect_bad("256-16M:2", "at most 16");
	expect_bad("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", "at most 16");
}

static void test_file_sizes_have_no_block_limit(void **state)
{
	(void)state;
	uint64_t s[MATRIX_MAX_SIZES];
	unsigned n;
	const char *why;
	assert_int_equal(matrix_parse_sizes("64M-16G", UINT64_MAX, s, &n, &why), 0);
	assert_int_equal(n, 5);
	assert_int_equal(s[4], 16 * GiB);
}

static void test_ops(void **state)
{
	(void)state;
	unsigned ops;
	const char *why = NULL;
	assert_int_equal(matrix_parse_ops("randwrite,write", &ops, &why), 0);
	assert_int_equal(ops, (1u << MATRIX_WRITE) | (1u << MATRIX_RANDWRITE));
	assert_int_equal(matrix_parse_ops("write,rewrite,read,reread,randread,randwrite", &ops, &why),
			 0);
	assert_int_equal(ops, MATRIX_ALL_OPS);
	assert_int_equal(matrix_parse_ops("reread", &ops, &why), -1);
	assert_non_null(strstr(why, "add read"));
	assert_int_equal(matrix_parse_ops("read,read", &ops, &why), -1);
	assert_int_equal(matrix_parse_ops("read,", &ops, &why), -1);
	assert_int_equal(matrix_parse_ops("Read", &ops, &why), -1);
	assert_int_equal(matrix_parse_ops("", &ops, &why), -1);
	assert_string_equal(matrix_op_name(MATRIX_RANDREAD), "randread");
}

static void small_axes(struct matrix_axes *ax)
{
	memset(ax, 0, sizeof(*ax));
	ax->block_sizes[0] = 4 * KiB;
	ax->block_sizes[1] = 64 * KiB;
	ax->block_sizes[2] = 8 * MiB;
	ax->nblock = 3;
	ax->file_sizes[0] = 4 * MiB;
	ax->file_sizes[1] = 16 * MiB;
	ax->nfile = 2;
	ax->ops = MATRIX_ALL_OPS;
}

static void test_defaults(void **state)
{
	(void)state;
	struct matrix_axes ax;
	memset(&ax, 0, sizeof(ax));
	matrix_default_axes(&ax);
	assert_int_equal(ax.nblock, 7);
	assert_int_equal(ax.block_sizes[0], 4 * KiB);
	assert_int_equal(ax.block_sizes[6], 16 * MiB);
	assert_int_equal(ax.nfile, 3);
	assert_int_equal(ax.file_sizes[0], 64 * MiB);
	assert_int_equal(ax.file_sizes[2], GiB);
	assert_int_equal(ax.ops, MATRIX_ALL_OPS);
	assert_int_equal(matrix_total_cells(&ax), 6 * 7 * 3);
	/* what the user gave stays */
	small_axes(&ax);
	matrix_default_axes(&ax);
	assert_int_equal(ax.nblock, 3);
	assert_int_equal(ax.nfile, 2);
}

static void test_shape_skips_blocks_larger_than_the_file(void **state)
{
	(void)state;
	struct matrix_axes ax;
	small_axes(&ax);
	assert_false(matrix_pair_valid(&ax, 0, 2)); /* 8 MiB block, 4 MiB file */
	assert_true(matrix_pair_valid(&ax, 1, 2));
	assert_int_equal(matrix_row_cells(&ax, 0), 6 * 2);
	assert_int_equal(matrix_row_cells(&ax, 1), 6 * 3);
	assert_int_equal(matrix_total_cells(&ax), 30);
	ax.ops = (1u << MATRIX_READ) | (1u << MATRIX_REREAD);
	assert_int_equal(matrix_nops(&ax), 2);
	assert_int_equal(matrix_total_cells(&ax), 10);
	ax.block_sizes[0] = 32 * MiB, ax.block_sizes[1] = 64 * MiB, ax.block_sizes[2] = 128 * MiB;
	assert_int_equal(matrix_total_cells(&ax), 0);
}

static void test_order_writes_last(void **state)
{
	(void)state;
	struct matrix_axes ax;
	struct matrix_step st[MATRIX_MAX_STEPS];
	small_axes(&ax);
	unsigned n = matrix_row_order(&ax, 1, st);
	assert_int_equal(n, matrix_row_cells(&ax, 1));
	/* block by block the ops that need the data, reread right after read */
	assert_int_equal(st[0].op, MATRIX_REWRITE);
	assert_int_equal(st[1].op, MATRIX_READ);
	assert_int_equal(st[2].op, MATRIX_REREAD);
	assert_int_equal(st[2].block, st[1].block);
	assert_int_equal(st[4].op, MATRIX_RANDWRITE);
	assert_int_equal(st[5].block, 1);
	/* then write, which truncates the file, at every block size */
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(st[n - 3 + i].op, MATRIX_WRITE);
		assert_int_equal(st[n - 3 + i].block, i);
	}
	for (unsigned i = 0; i < n - 3; i++)
		assert_int_not_equal(st[i].op, MATRIX_WRITE);
	/* the 4 MiB file has no 8 MiB step */
	n = matrix_row_order(&ax, 0, st);
	assert_int_equal(n, 12);
	for (unsigned i = 0; i < n; i++)
		assert_true(st[i].block < 2);
	assert_true(matrix_needs_layout(ax.ops));
	assert_false(matrix_needs_layout(1u << MATRIX_WRITE));
	ax.ops = 1u << MATRIX_WRITE;
	assert_int_equal(matrix_row_order(&ax, 1, st), 3);
}

static void test_budget_keeps_small_files(void **state)
{
	(void)state;
	struct matrix_axes ax;
	struct matrix_costs k = { .min_cell_s = 0.2 };
	small_axes(&ax); /* 12 + 18 cells */
	assert_int_equal(matrix_rows_within(&ax, 0, 2, 6.01, &k), 2);
	assert_int_equal(matrix_rows_within(&ax, 0, 2, 5.9, &k), 1);
	assert_int_equal(matrix_rows_within(&ax, 0, 2, 2.41, &k), 1);
	assert_int_equal(matrix_rows_within(&ax, 0, 2, 2.39, &k), 0);
	assert_int_equal(matrix_rows_within(&ax, 1, 2, 3.61, &k), 1);
	/* overhead per cell and the layouts, once known, count too */
	k.overhead_s = 0.05;
	assert_int_equal(matrix_rows_within(&ax, 0, 2, 6.01, &k), 1);
	k.overhead_s = 0;
	k.layout_s_per_byte = 1.0 / (100 * MiB); /* 100 MiB/s: 0.2 s for 20 MiB */
	assert_int_equal(matrix_rows_within(&ax, 0, 2, 6.1, &k), 1);
	assert_int_equal(matrix_rows_within(&ax, 0, 2, 6.21, &k), 2);
	ax.ops = 1u << MATRIX_WRITE; /* no layout needed */
	assert_int_equal(matrix_rows_within(&ax, 0, 2, 1.01, &k), 2);
}

static void test_row_share(void **state)
{
	(void)state;
	struct matrix_axes ax;
	struct matrix_costs k = { .min_cell_s = 0.2 };
	small_axes(&ax);
	/* in proportion to the cells: 12 of 30 */
	assert_float_equal(matrix_row_share(&ax, 0, 2, 30.0, &k), 12.0, 1e-9);
	assert_float_equal(matrix_row_share(&ax, 1, 2, 9.0, &k), 9.0, 1e-9);
	assert_float_equal(matrix_row_share(&ax, 0, 1, 9.0, &k), 9.0, 1e-9);
	/* layouts first: 4 + 16 MiB at 1 s per MiB leave 10 s for the cells */
	k.layout_s_per_byte = 1.0 / MiB;
	assert_float_equal(matrix_row_share(&ax, 0, 2, 30.0, &k), 4.0 + 4.0, 1e-9);
	assert_float_equal(matrix_row_share(&ax, 1, 2, 22.0, &k), 22.0, 1e-9);
	assert_float_equal(matrix_row_share(&ax, 0, 2, 10.0, &k), 4.0, 1e-9);
	assert_float_equal(matrix_row_share(&ax, 0, 2, -1.0, &k), 4.0, 1e-9);
}

static void test_cell_time(void **state)
{
	(void)state;
	struct matrix_costs k = { .min_cell_s = 0.2 };
	assert_float_equal(matrix_cell_time(10.0, 10, &k), 1.0, 1e-9);
	assert_float_equal(matrix_cell_time(2.0, 10, &k), 0.2, 1e-9);
	assert_float_equal(matrix_cell_time(1.9, 10, &k), 0.0, 1e-9);
	assert_float_equal(matrix_cell_time(0.0, 3, &k), 0.0, 1e-9);
	assert_float_equal(matrix_cell_time(5.0, 0, &k), 0.0, 1e-9);
	k.overhead_s = 0.1; /* each cell's time outside its loop comes off its share */
	assert_float_equal(matrix_cell_time(10.0, 10, &k), 0.9, 1e-9);
	assert_float_equal(matrix_cell_time(2.5, 10, &k), 0.0, 1e-9);
}

static void test_cell_figures(void **state)
{
	(void)state;
	struct matrix_cell c = { .state = CELL_MEASURED, .bytes = 8 * MiB, .ios = 2048,
				 .seconds = 0.5 };
	assert_float_equal(matrix_cell_rate(&c), 16.0 * MiB, 1e-6);
	assert_float_equal(matrix_cell_iops(&c), 4096.0, 1e-9);
	assert_false(matrix_cell_short(&c));
	c.seconds = 0.1;
	assert_true(matrix_cell_short(&c));
	c.seconds = 1, c.ios = 19;
	assert_true(matrix_cell_short(&c));
	c.state = CELL_SKIPPED;
	assert_false(matrix_cell_short(&c));
	c.seconds = 0;
	assert_float_equal(matrix_cell_rate(&c), 0.0, 1e-9);
}

static int parse_words(struct cli *c, const char *const *words)
{
	static char why[512];
	char *argv[16];
	int argc = 0;
	argv[argc++] = (char *)"diskbench";
	for (; *words; words++)
		argv[argc++] = (char *)*words;
	argv[argc] = NULL;
	return cli_parse(argc, argv, c, why, sizeof(why));
}

static char *help_of(const char *name)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	cli_print_test_help(f, cmd_find(name));
	fclose(f);
	return text;
}

/* The options reach struct options; --budget is matrix's or sweep's by the
 * command, with each one's help line. */
static void test_command_line(void **state)
{
	(void)state;
	static struct cli c;
	const char *const full[] = { "matrix", "--block-sizes", "4k-1M", "--file-sizes=8M,4M",
				     "--ops", "read,write", "--budget", "12s", "/tmp", NULL };
	assert_int_equal(parse_words(&c, full), EXIT_OK);
	assert_int_equal(c.opt.matrix.nblock, 5);
	assert_int_equal(c.opt.matrix.block_sizes[4], MiB);
	assert_int_equal(c.opt.matrix.nfile, 2);
	assert_int_equal(c.opt.matrix.file_sizes[0], 4 * MiB);
	assert_int_equal(c.opt.matrix.ops, (1u << MATRIX_WRITE) | (1u << MATRIX_READ));
	assert_float_equal(c.opt.sweep.budget_s, 12.0, 1e-9);
	assert_true(c.opt.direct);
	const char *const plain[] = { "matrix", NULL };
	assert_int_equal(parse_words(&c, plain), EXIT_OK);
	assert_int_equal(c.opt.matrix.nblock, 0); /* the command fills in its defaults */
	assert_float_equal(c.opt.sweep.budget_s, 60.0, 1e-9);
	const char *const sweep[] = { "sweep", "--budget", "7", NULL };
	assert_int_equal(parse_words(&c, sweep), EXIT_OK);
	assert_float_equal(c.opt.sweep.budget_s, 7.0, 1e-9);
	const char *const levels[] = { "matrix", "--levels", "1,2", NULL };
	assert_int_equal(parse_words(&c, levels), EXIT_USAGE);
	const char *const seq[] = { "seqread", "--budget", "5", NULL };
	assert_int_equal(parse_words(&c, seq), EXIT_USAGE);
	const char *const rows[] = { "sweep", "--file-sizes", "4M", NULL };
	assert_int_equal(parse_words(&c, rows), EXIT_USAGE);
	char *text = help_of("matrix");
	assert_non_null(strstr(text, "layout included"));
	assert_null(strstr(text, "top levels go"));
	assert_non_null(strstr(text, "--block-sizes"));
	assert_true(strstr(text, "--block-sizes") < strstr(text, "--json")); /* own ones first */
	free(text);
	text = help_of("sweep");
	assert_non_null(strstr(text, "top levels go"));
	assert_null(strstr(text, "layout included"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_sorted),
		cmocka_unit_test(test_range_powers_of_four),
		cmocka_unit_test(test_range_with_step),
		cmocka_unit_test(test_bad_sizes),
		cmocka_unit_test(test_file_sizes_have_no_block_limit),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_shape_skips_blocks_larger_than_the_file),
		cmocka_unit_test(test_order_writes_last),
		cmocka_unit_test(test_budget_keeps_small_files),
		cmocka_unit_test(test_row_share),
		cmocka_unit_test(test_cell_time),
		cmocka_unit_test(test_cell_figures),
		cmocka_unit_test(test_command_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
