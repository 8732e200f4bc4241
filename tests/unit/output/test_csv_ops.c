/* Unit tests of src/output/output_csv_ops.c (issue 31): the CSV's
 * per-operation columns, and after them the open loop's (issue 39).  A mix's are its result.ops figures (the ones JSON
 * prints), an operation without a share is empty, 0 stays a figure; a test
 * of one direction fills that direction's with the row's own figures; a
 * row without figures, and one target's row of a mix, leaves them empty.
 * The expected values come from the fixture, not from the output. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskbench.h"
#include "output.h"
#include "stats.h"

#define MAXF 64
#define MAXR 4

/* A rendered CSV without quoted fields: the header and up to MAXR rows. */
struct table {
	char *text;
	char *head[MAXF], *rows[MAXR][MAXF];
	unsigned nhead, nrows;
};

static unsigned split(char *line, char *out[MAXF])
{
	unsigned n = 0;
	for (char *p = line;; p++) {
		out[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p = '\0';
		assert_true(n < MAXF);
	}
	return n;
}

static void render(const struct result *r, struct table *t)
{
	size_t len = 0;
	FILE *f = open_memstream(&t->text, &len);
	assert_non_null(f);
	out_csv(f, r);
	assert_int_equal(fclose(f), 0);
	assert_null(strchr(t->text, '"')); /* the fixtures need no quoting */
	char *save = NULL, *line = strtok_r(t->text, "\n", &save);
	assert_non_null(line);
	t->nhead = split(line, t->head);
	t->nrows = 0;
	while ((line = strtok_r(NULL, "\n", &save))) {
		assert_true(t->nrows < MAXR);
		assert_int_equal(split(line, t->rows[t->nrows]), t->nhead);
		t->nrows++;
	}
}

static const char *cell(const struct table *t, unsigned row, const char *col)
{
	for (unsigned i = 0; i < t->nhead; i++)
		if (strcmp(t->head[i], col) == 0)
			return t->rows[row][i];
	print_error("no column \"%s\"\n", col);
	fail();
	return NULL;
}

static void assert_op_empty(const struct table *t, unsigned row, const char *op)
{
	static const char *const cols[] = { "ios", "bytes", "iops", "lat_p50_ns", "lat_p99_ns" };
	char name[32];
	for (unsigned k = 0; k < 5; k++) {
		snprintf(name, sizeof(name), "%s_%s", op, cols[k]);
		assert_string_equal(cell(t, row, name), "");
	}
}

static void assert_col_u(const struct table *t, unsigned row, const char *col, uint64_t want)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)want);
	assert_string_equal(cell(t, row, col), buf);
}

struct fixture {
	struct options opt;
	struct result r;
	struct result_ops ops;
};

/* randrw r70,w30 at 4 KiB: 700 reads near 100 us, 300 writes near 1 ms,
 * in 2 s */
static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	if (!fx)
		return -1;
	fx->opt.bs = 4096;
	fx->opt.threads = 1;
	fx->opt.qd = 1;
	fx->opt.direct = true;
	struct result *r = &fx->r;
	r->test = "randrw";
	r->target = "/data";
	r->opt = &fx->opt;
	r->dir = IO_WRITE;
	r->seconds = 2.0;
	r->measured = true;
	r->resident_before_pct = -1;
	stats_init(&r->lat);
	for (unsigned op = 0; op < MIX_OPS; op++)
		stats_init(&fx->ops.op[op].lat);
	fx->ops.mix.pct[MIX_READ] = 70;
	fx->ops.mix.pct[MIX_WRITE] = 30;
	for (unsigned i = 0; i < 1000; i++) {
		unsigned op = i < 700 ? MIX_READ : MIX_WRITE;
		uint64_t ns = (op == MIX_READ ? 100000 : 1000000) + (i % 10) * 100;
		stats_add(&fx->ops.op[op].lat, ns);
		stats_add(&r->lat, ns);
		fx->ops.op[op].ios++;
		fx->ops.op[op].bytes += 4096;
	}
	r->ios = 1000;
	r->bytes = 1000 * 4096;
	r->ops = &fx->ops;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

static void test_header(void **state)
{
	struct fixture *fx = *state;
	struct table t;
	render(&fx->r, &t);
	/* appended after verdict, in read, write, trim order */
	assert_string_equal(t.head[24], "verdict");
	assert_string_equal(t.head[25], "read_ios");
	assert_string_equal(t.head[30], "write_ios");
	assert_string_equal(t.head[35], "trim_ios");
	assert_string_equal(t.head[39], "trim_lat_p99_ns");
	/* then the open loop's (issue 39) */
	assert_string_equal(t.head[40], "rate_asked");
	assert_string_equal(t.head[t.nhead - 1], "lat_from");
	assert_int_equal(t.nhead, 44);
	free(t.text);
}

/* The open loop's columns: asked 2000/s, 1000 served in the fixture's 2 s
 * (500.00), 7 never started; lat_from due.  A closed loop: submit, the
 * rates empty; no figures: all four empty; several targets: the rates in
 * the total's row alone, each row's latencies from when due. */
static void test_open_loop(void **state)
{
	struct fixture *fx = *state;
	struct table t;
	fx->r.ops = NULL;
	fx->r.dir = IO_READ;
	fx->r.ios = 1000;
	fx->r.open_loop = (struct result_open_loop){ .on = true, .rate_asked = 2000, .unserved = 7 };
	render(&fx->r, &t);
	assert_string_equal(cell(&t, 0, "rate_asked"), "2000.00");
	assert_string_equal(cell(&t, 0, "rate_served"), "500.00");
	assert_string_equal(cell(&t, 0, "unserved_ios"), "7");
	assert_string_equal(cell(&t, 0, "lat_from"), "due");
	free(t.text);

	struct result_target tg[2] = {
		{ .target = "/a", .threads = 1, .bytes = 500 * 4096, .ios = 500, .seconds = 2.0,
		  .lat = &fx->r.lat, .resident_before_pct = -1 },
		{ .target = "/b", .threads = 1, .bytes = 500 * 4096, .ios = 500, .seconds = 2.0,
		  .lat = &fx->r.lat, .resident_before_pct = -1 },
	};
	fx->r.targets = tg;
	fx->r.ntargets = 2;
	render(&fx->r, &t);
	for (unsigned row = 0; row < 2; row++) {
		assert_string_equal(cell(&t, row, "rate_asked"), "");
		assert_string_equal(cell(&t, row, "unserved_ios"), "");
		assert_string_equal(cell(&t, row, "lat_from"), "due");
	}
	assert_string_equal(cell(&t, 2, "rate_served"), "500.00");
	assert_string_equal(cell(&t, 2, "unserved_ios"), "7");
	free(t.text);
	fx->r.ntargets = 0;
	fx->r.targets = NULL;

	fx->r.open_loop.on = false;
	render(&fx->r, &t);
	assert_string_equal(cell(&t, 0, "rate_asked"), "");
	assert_string_equal(cell(&t, 0, "rate_served"), "");
	assert_string_equal(cell(&t, 0, "unserved_ios"), "");
	assert_string_equal(cell(&t, 0, "lat_from"), "submit");
	free(t.text);

	fx->r.measured = false;
	render(&fx->r, &t);
	assert_string_equal(cell(&t, 0, "lat_from"), "");
	free(t.text);
}

static void test_mix(void **state)
{
	struct fixture *fx = *state;
	struct table t;
	render(&fx->r, &t);
	assert_int_equal(t.nrows, 1);
	assert_col_u(&t, 0, "read_ios", 700);
	assert_col_u(&t, 0, "read_bytes", 700 * 4096);
	assert_string_equal(cell(&t, 0, "read_iops"), "350.00");
	assert_col_u(&t, 0, "write_ios", 300);
	assert_col_u(&t, 0, "write_bytes", 300 * 4096);
	assert_string_equal(cell(&t, 0, "write_iops"), "150.00");
	assert_col_u(&t, 0, "ios", 1000);
	/* each operation's own latency, near what was added (the histogram's
	 * resolution is under 1 %), never the total's */
	uint64_t rp50 = strtoull(cell(&t, 0, "read_lat_p50_ns"), NULL, 10);
	uint64_t wp99 = strtoull(cell(&t, 0, "write_lat_p99_ns"), NULL, 10);
	assert_true(rp50 > 99000 && rp50 < 102000);
	assert_true(wp99 > 990000 && wp99 < 1020000);
	assert_col_u(&t, 0, "read_lat_p50_ns", stats_percentile(&fx->ops.op[MIX_READ].lat, 50));
	assert_col_u(&t, 0, "write_lat_p99_ns", stats_percentile(&fx->ops.op[MIX_WRITE].lat, 99));
	assert_op_empty(&t, 0, "trim"); /* no share: it did not run */
	free(t.text);

	/* a share that drew no I/O: 0 is a figure, not empty */
	fx->ops.mix.pct[MIX_WRITE] = 20;
	fx->ops.mix.pct[MIX_TRIM] = 10;
	render(&fx->r, &t);
	assert_col_u(&t, 0, "trim_ios", 0);
	assert_col_u(&t, 0, "trim_bytes", 0);
	assert_string_equal(cell(&t, 0, "trim_iops"), "0.00");
	free(t.text);
}

static void test_one_direction(void **state)
{
	struct fixture *fx = *state;
	struct table t;
	fx->r.test = "randwrite";
	fx->r.ops = NULL;
	render(&fx->r, &t);
	static const char *const same[][2] = {
		{ "write_ios", "ios" }, { "write_bytes", "bytes" }, { "write_iops", "iops" },
		{ "write_lat_p50_ns", "lat_p50_ns" }, { "write_lat_p99_ns", "lat_p99_ns" } };
	for (unsigned k = 0; k < 5; k++)
		assert_string_equal(cell(&t, 0, same[k][0]), cell(&t, 0, same[k][1]));
	assert_col_u(&t, 0, "write_ios", 1000);
	assert_op_empty(&t, 0, "read");
	assert_op_empty(&t, 0, "trim");
	free(t.text);

	fx->r.test = "randread";
	fx->r.dir = IO_READ;
	render(&fx->r, &t);
	assert_col_u(&t, 0, "read_ios", 1000);
	assert_op_empty(&t, 0, "write");
	assert_op_empty(&t, 0, "trim");
	free(t.text);
}

static void test_no_figures(void **state)
{
	struct fixture *fx = *state;
	struct table t;
	fx->r.measured = false;
	render(&fx->r, &t);
	assert_op_empty(&t, 0, "read");
	assert_op_empty(&t, 0, "write");
	assert_op_empty(&t, 0, "trim");
	free(t.text);
}

/* two targets: their rows do not count operations apart, the total does */
static void test_targets(void **state)
{
	struct fixture *fx = *state;
	struct result_target tg[2] = {
		{ .target = "/a", .threads = 1, .bytes = 500 * 4096, .ios = 500, .seconds = 2.0,
		  .lat = &fx->r.lat, .resident_before_pct = -1 },
		{ .target = "/b", .threads = 1, .bytes = 500 * 4096, .ios = 500, .seconds = 2.0,
		  .lat = &fx->r.lat, .resident_before_pct = -1 },
	};
	fx->r.targets = tg;
	fx->r.ntargets = 2;
	struct table t;
	render(&fx->r, &t);
	assert_int_equal(t.nrows, 3);
	for (unsigned row = 0; row < 2; row++) {
		assert_op_empty(&t, row, "read");
		assert_op_empty(&t, row, "write");
	}
	assert_string_equal(cell(&t, 2, "target"), "total");
	assert_col_u(&t, 2, "read_ios", 700);
	assert_col_u(&t, 2, "write_ios", 300);
	free(t.text);

	/* one direction: each target's row has its own figures */
	fx->r.ops = NULL;
	fx->r.dir = IO_READ;
	render(&fx->r, &t);
	assert_col_u(&t, 0, "read_ios", 500);
	assert_col_u(&t, 1, "read_ios", 500);
	assert_col_u(&t, 2, "read_ios", 1000);
	free(t.text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mix, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_direction, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_figures, setup, teardown),
		cmocka_unit_test_setup_teardown(test_targets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_loop, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
