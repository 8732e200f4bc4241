/* A run with a sync call after every N writes (src/output/output_sync.c,
 * issue 41): the result line's words for each sync mode, the calls' own
 * latency line, and JSON result.sync and sync_lat_ns whose percentiles are
 * those of the values the test put in (1 to 100 ms: p50 50 ms, p99 99 ms
 * within the histogram's 0.4 %); nothing of it for a run without. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diskbench.h"
#include "json.h"
#include "jsonparse.h"
#include "output.h"

#define MS 1000000ull

static struct result r;
static struct options o;

static void reset(enum sync_mode mode, unsigned every, bool data)
{
	memset(&r, 0, sizeof(r));
	memset(&o, 0, sizeof(o));
	o.sync = mode;
	o.sync_every = every;
	o.sync_data = data;
	r.opt = &o;
	r.seconds = 2;
	stats_init(&r.sync_lat);
}

static const char *words(void)
{
	static char buf[160];
	int n = out_sync_words(buf, sizeof(buf), &r);
	assert_int_equal((size_t)n, strlen(buf));
	return buf;
}

static void result_line_words(void **state)
{
	(void)state;
	reset(SYNC_NONE, 1, true);
	assert_string_equal(words(), ", fdatasync after every write");
	reset(SYNC_DSYNC, 2, false);
	assert_string_equal(words(), ", fsync after every 2 writes, O_DSYNC");
	reset(SYNC_FSYNC, 1, true);
	assert_string_equal(words(), ", fdatasync after every write, fsync at end");
	reset(SYNC_OSYNC, 0, false);
	assert_string_equal(words(), ", O_SYNC");
	reset(SYNC_DSYNC, 0, false);
	assert_string_equal(words(), ", O_DSYNC");
	reset(SYNC_NONE, 0, false);
	assert_string_equal(words(), ", no sync");
	/* a short buffer holds what fits, and says so */
	char tiny[8];
	reset(SYNC_NONE, 1, true);
	assert_int_equal(out_sync_words(tiny, sizeof(tiny), &r), 7);
	assert_string_equal(tiny, ", fdata");
}

static char *render(void (*fn)(struct json *, const struct result *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;
	assert_non_null(f);
	json_init(&j, f);
	json_object_begin(&j);
	fn(&j, &r);
	json_object_end(&j);
	fclose(f);
	return buf;
}

static void json_figures(void **state)
{
	(void)state;
	reset(SYNC_NONE, 1, true);
	for (uint64_t ms = 1; ms <= 100; ms++)
		stats_add(&r.sync_lat, ms * MS);
	r.syncs = 100;
	char *text = render(out_json_sync);
	struct jp_doc doc;
	const char *why;
	size_t pos;
	assert_int_equal(jp_parse(&doc, text, strlen(text), &why, &pos), 0);
	uint64_t v;
	double d;
	assert_string_equal(jp_str(jp_path(doc.root, "sync.call")), "fdatasync");
	assert_int_equal(jp_uint(jp_path(doc.root, "sync.every_writes"), &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(jp_uint(jp_path(doc.root, "sync.calls"), &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(jp_double(jp_path(doc.root, "sync.per_sec"), &d), 0);
	assert_true(d == 50.0); /* 100 calls in the 2 s */
	assert_int_equal(jp_uint(jp_path(doc.root, "sync_lat_ns.p99"), &v), 0);
	assert_true(v >= 99 * MS * 996 / 1000 && v <= 99 * MS * 1004 / 1000);
	assert_int_equal(jp_uint(jp_path(doc.root, "sync_lat_ns.p50"), &v), 0);
	assert_true(v >= 50 * MS * 996 / 1000 && v <= 50 * MS * 1004 / 1000);
	assert_int_equal(jp_uint(jp_path(doc.root, "sync_lat_ns.max"), &v), 0);
	assert_int_equal(v, 100 * MS);
	const struct jp_value *hist = jp_get(doc.root, "sync_lat_hist");
	assert_non_null(hist);
	assert_int_equal(hist->type, JP_ARRAY);
	jp_free(&doc);
	free(text);
	/* a run without syncs: no key at all */
	reset(SYNC_DSYNC, 0, false);
	text = render(out_json_sync);
	assert_string_equal(text, "{}");
	free(text);
}

static void latency_line(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	reset(SYNC_NONE, 1, false);
	stats_add(&r.sync_lat, 3 * MS);
	FILE *f = open_memstream(&buf, &len);
	out_text_sync(f, &r);
	fclose(f);
	assert_non_null(strstr(buf, "fsync latency: min 3.00 ms"));
	free(buf);
	reset(SYNC_DSYNC, 0, false); /* no syncs: no line */
	buf = NULL;
	f = open_memstream(&buf, &len);
	out_text_sync(f, &r);
	fclose(f);
	assert_string_equal(buf, "");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(result_line_words),
		cmocka_unit_test(json_figures),
		cmocka_unit_test(latency_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
