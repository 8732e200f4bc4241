/* Unit tests of the fleet report (src/fleet/fleetrecord.c, fleetreport.c,
 * fleetbaseline.c): launcher prefixes, times, records refused or counted,
 * merged percentiles exactly those of all the values, grouping and the
 * refusal of mixed params, rows and their flags, span, skew and the common
 * window, and the baseline's regressions. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fleetreport.h"
#include "rng.h"
#include "stats.h"

#define LINE_MAX_LEN (1u << 20)

/* What a test record holds; unset members get plain defaults. */
struct spec {
	const char *host, *run_id, *test;
	double start_s;        /* seconds after 2026-11-30T12:00:00Z; < 0: no started_at */
	double seconds;
	uint64_t bytes, ios;
	double bps, iops;
	const char *params;    /* a JSON object, default {"block_size": 4096, "seed": 1} */
	const struct stats *lat; /* lat_ns and lat_buckets from it, else none */
	const char *series;    /* the result.series object, else none */
	const char *extra;     /* more top-level members, with a leading comma */
	const char *prefix;    /* before the JSON, as a launcher writes it */
};

static size_t put(char *buf, size_t used, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static size_t put(char *buf, size_t used, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + used, LINE_MAX_LEN - used, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && used + (size_t)n < LINE_MAX_LEN);
	return used + (size_t)n;
}

static size_t put_lat(char *buf, size_t n, const struct stats *s)
{
	struct stats_summary sum;
	stats_summarize(s, &sum);
	n = put(buf, n, ",\"lat_ns\":{\"min\":%llu,\"max\":%llu,\"p50\":%llu,\"p99\":%llu},"
		"\"lat_buckets\":{\"scheme\":\"log-linear-7\",\"pairs\":[",
		(unsigned long long)sum.min, (unsigned long long)sum.max,
		(unsigned long long)sum.p50, (unsigned long long)sum.p99);
	const char *sep = "";
	for (unsigned i = 0; i < STATS_NBUCKETS; i++)
		if (s->bucket[i]) {
			n = put(buf, n, "%s[%u,%llu]", sep, i, (unsigned long long)s->bucket[i]);
			sep = ",";
		}
	return put(buf, n, "]}");
}

/* The --jsonl line of sp, in a buffer of LINE_MAX_LEN (the caller frees). */
static char *line_of(const struct spec *sp)
{
	char *buf = malloc(LINE_MAX_LEN);
	assert_non_null(buf);
	double seconds = sp->seconds ? sp->seconds : 10;
	uint64_t bytes = sp->bytes ? sp->bytes : 4096000;
	size_t n = put(buf, 0, "%s{\"schema\":1,\"tool\":\"diskbench\",\"test\":\"%s\",\"host\":\"%s\","
		       "\"run_id\":\"%s\",\"params\":%s", sp->prefix ? sp->prefix : "",
		       sp->test ? sp->test : "randread", sp->host, sp->run_id ? sp->run_id : "r1",
		       sp->params ? sp->params : "{\"block_size\":4096,\"seed\":1}");
	if (sp->start_s >= 0) {
		double end = sp->start_s + seconds;
		n = put(buf, n, ",\"started_at\":\"2026-11-30T12:%02d:%09.6fZ\","
			"\"ended_at\":\"2026-11-30T12:%02d:%09.6fZ\"", (int)(sp->start_s / 60),
			fmod(sp->start_s, 60), (int)(end / 60), fmod(end, 60));
	}
	n = put(buf, n, ",\"result\":{\"bytes\":%llu,\"ios\":%llu,\"seconds\":%.6f,"
		"\"bytes_per_sec\":%.1f,\"iops\":%.2f", (unsigned long long)bytes,
		(unsigned long long)(sp->ios ? sp->ios : bytes / 4096), seconds,
		sp->bps ? sp->bps : (double)bytes / seconds,
		sp->iops ? sp->iops : (double)bytes / 4096 / seconds);
	if (sp->lat)
		n = put_lat(buf, n, sp->lat);
	if (sp->series)
		n = put(buf, n, ",\"series\":%s", sp->series);
	put(buf, n, "},\"warnings\":[]%s}\n", sp->extra ? sp->extra : "");
	return buf;
}

static void add_spec(struct fleet_set *s, const struct spec *sp, const char *where)
{
	char *line = line_of(sp);
	int rc = fleet_add_line(s, line, strlen(line), where);
	if (rc != 1)
		fail_msg("%s not a record: %s", where, s->first_skipped);
	free(line);
}

static void build_ok(const struct fleet_set *s, struct fleet_report *rep)
{
	char why[512];
	if (fleet_report_build(s, rep, why, sizeof(why)) != 0)
		fail_msg("fleet_report_build: %s", why);
}

/* ---- lines ---- */

static void test_prefixes(void **state)
{
	(void)state;
	static const struct {
		const char *line, *label;
		size_t at; /* where the JSON starts; 0 with label NULL: no JSON */
	} cases[] = {
		{ "{\"a\":1}", "", 0 },
		{ "node1: {\"a\":1}", "node1", 7 },
		{ "0: {\"a\":1}", "0", 3 },
		{ "  node-3.example.com:\t{}", "node-3.example.com", 22 },
		{ "host | CHANGED | rc=0 >> {}", "", 25 },
		{ "a:b: {}", "", 5 },
		{ "node1 | CHANGED | rc=0 >>", NULL, 0 },
		{ "", NULL, 0 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char label[64] = "junk";
		const char *line = cases[i].line;
		const char *json = fleet_json_start(line, strlen(line), label, sizeof(label));
		if (!cases[i].label) {
			assert_null(json);
			continue;
		}
		assert_ptr_equal(json, line + cases[i].at);
		assert_string_equal(label, cases[i].label);
	}
	/* a prefix longer than the label buffer names nothing */
	char label[4];
	assert_non_null(fleet_json_start("node1: {}", 9, label, sizeof(label)));
	assert_string_equal(label, "");
}

static void test_times(void **state)
{
	(void)state;
	int64_t us;
	assert_int_equal(fleet_parse_time("1970-01-01T00:00:00Z", &us), 0);
	assert_true(us == 0);
	assert_int_equal(fleet_parse_time("2026-11-30T12:00:00.123456Z", &us), 0);
	assert_true(us == 1796040000123456ll);
	assert_int_equal(fleet_parse_time("2026-11-30T12:00:00.5Z", &us), 0);
	assert_true(us == 1796040000500000ll);
	assert_int_equal(fleet_parse_time("2026-11-30T12:00:00.1234567Z", &us), 0);
	assert_true(us == 1796040000123456ll); /* beyond µs: cut */
	assert_int_equal(fleet_parse_time("2000-02-29T23:59:59Z", &us), 0);
	assert_true(us == 951868799000000ll);
	static const char *const bad[] = {
		"2026-11-30T12:00:00", "2026-11-30 12:00:00Z", "2026-13-01T00:00:00Z",
		"2026-02-30T00:00:00Z", "2026-11-30T24:00:00Z", "2026-11-30T12:00:00.Z",
		"2026-11-30T12:00:00+01:00", "26-11-30T12:00:00Z", "", "2026-11-30T12:00:00ZZ",
		"2016-12-31T23:59:60Z", "2026-02-29T00:00:00Z",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (fleet_parse_time(bad[i], &us) == 0)
			fail_msg("'%s' accepted", bad[i]);
	/* the same parser as --start-at's (utctime.h): lowercase z is UTC too */
	assert_int_equal(fleet_parse_time("2026-11-30t12:00:00z", &us), 0);
	assert_true(us == 1796040000000000ll);
}

/* Strings from a file are data: each unsafe character escaped, by hand. */
static void test_escape(void **state)
{
	(void)state;
	static const struct {
		const char *in;
		size_t len;
		const char *out;
	} cases[] = {
		{ "node1", 5, "node1" },
		{ "caf\xc3\xa9 \xe2\x82\xac", 9, "caf\xc3\xa9 \xe2\x82\xac" }, /* é €: kept */
		{ "\x1b]0;x\x07", 6, "\\x1B]0;x\\x07" },
		{ "a\r\nb\x7f", 5, "a\\x0D\\x0Ab\\x7F" },
		{ "a\0b", 3, "a\\x00b" },
		{ "\xc2\x85\xc2\x9f\xc2\xa0", 6, "\\u0085\\u009F\xc2\xa0" }, /* C1; NBSP kept */
		{ "\xe2\x80\xae" "abc\xe2\x81\xa6\xe2\x80\x8f\xd8\x9c", 14, "\\u202Eabc\\u2066\\u200F\\u061C" },
		{ "\xff\xc3(\xe2\x80", 5, "\\xFF\\xC3(\\xE2\\x80" }, /* not UTF-8 */
		{ "\xc0\xaf", 2, "\\xC0\\xAF" },                    /* overlong '/' */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = fleet_escape(cases[i].in, cases[i].len);
		assert_non_null(out);
		if (strcmp(out, cases[i].out) != 0)
			fail_msg("case %zu: '%s', wanted '%s'", i, out, cases[i].out);
		free(out);
	}
}

/* ended_at - started_at must be result.seconds, to the µs and a margin */
static void test_times_agree(void **state)
{
	(void)state;
	static const char *const lines[] = {
		/* 20 s apart, 10 s measured: refused */
		"{\"test\":\"randread\",\"started_at\":\"2026-11-30T12:00:00Z\",\"ended_at\":"
		"\"2026-11-30T12:00:20Z\",\"result\":{\"bytes\":1,\"ios\":1,\"seconds\":10,"
		"\"bytes_per_sec\":0.1,\"iops\":0.1}}",
		/* 10.0005 s apart: within 1 ms + 0.1 % of 10 s, taken */
		"{\"test\":\"randread\",\"started_at\":\"2026-11-30T12:00:00Z\",\"ended_at\":"
		"\"2026-11-30T12:00:10.0005Z\",\"result\":{\"bytes\":1,\"ios\":1,\"seconds\":10,"
		"\"bytes_per_sec\":0.1,\"iops\":0.1}}",
	};
	struct fleet_set s;
	fleet_set_init(&s);
	assert_int_equal(fleet_add_line(&s, lines[0], strlen(lines[0]), "a:1"), 0);
	assert_int_equal(s.skipped, 1);
	assert_non_null(strstr(s.first_skipped, "disagrees with result.seconds"));
	assert_int_equal(fleet_add_line(&s, lines[1], strlen(lines[1]), "a:2"), 1);
	assert_true(s.rec[0].end_us - s.rec[0].start_us == 10000500);
	fleet_set_free(&s);

	/* an interval without a completed I/O has null percentiles: kept as
	 * FLEET_NO_SAMPLE; a string there leaves the percentiles unknown */
	static const char series[] = "{\"t_s\":[1,2,3],\"bytes\":[5,0,5],\"p50_ns\":[7,null,9],"
				     "\"p99_ns\":[7,\"x\",9]}";
	struct spec sp = { .host = "h", .start_s = 0, .series = series };
	fleet_set_init(&s);
	add_spec(&s, &sp, "b:1");
	assert_non_null(s.rec[0].series_p50);
	assert_true(s.rec[0].series_p50[0] == 7 && s.rec[0].series_p50[1] == FLEET_NO_SAMPLE &&
		    s.rec[0].series_p50[2] == 9);
	assert_null(s.rec[0].series_p99);
	fleet_set_free(&s);
}

/* Lines counted: blank ones not at all, garbage and non-records skipped with
 * the first reason, failed runs apart; a prefix names a host without one. */
static void test_lines_counted(void **state)
{
	(void)state;
	struct fleet_set s;
	fleet_set_init(&s);
	static const char *const lines[] = {
		"\n",
		"node1 | CHANGED | rc=0 >>\n",
		"node7: {\"test\":\"randread\",\"result\":{\"bytes\":4096,\"ios\":1,\"seconds\":1,"
		"\"bytes_per_sec\":4096,\"iops\":1}}\n",
		"node2: {\"test\":\"randread\",\"result\":{\"bytes\":4096,\"ios\":1,\"seconds\":1,"
		"\"bytes_per_sec\":4096,\"iops\":1},}\n",
		"{\"schema\":1,\"tests\":[],\"test\":\"quick\"}\n",
		"{\"test\":\"randread\",\"host\":\"node3\",\"error\":\"open '/x': No such file\"}\n",
		"{\"event\":\"ansible\"}\n",
	};
	int want[] = { 0, 0, 1, 0, 0, 0, 0 };
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char where[32];
		snprintf(where, sizeof(where), "f:%zu", i + 1);
		assert_int_equal(fleet_add_line(&s, lines[i], strlen(lines[i]), where), want[i]);
	}
	assert_int_equal(s.lines, 7);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.skipped, 4);
	assert_int_equal(s.failed, 1);
	assert_string_equal(s.first_skipped, "f:2: no JSON on the line");
	assert_string_equal(s.first_failed, "node3 (f:6): open '/x': No such file");
	assert_string_equal(s.rec[0].host, "node7");
	assert_string_equal(s.rec[0].run_id, "");
	assert_false(s.rec[0].timed);
	assert_non_null(s.rec[0].no_buckets);

	/* the position of a fault counts from the line's start, prefix included */
	fleet_set_free(&s);
	fleet_set_init(&s);
	assert_int_equal(fleet_add_line(&s, "n1: {\"a\" 1}", 11, "g:1"), 0);
	assert_string_equal(s.first_skipped, "g:1: column 10: ':' was expected after the member name");
	/* fields of the wrong shape refuse the record */
	static const char *const shapes[] = {
		",\"started_at\":\"yesterday\"",
		",\"started_at\":\"2026-11-30T12:00:05Z\",\"ended_at\":\"2026-11-30T12:00:01Z\"",
	};
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct spec sp = { .host = "h", .start_s = -1, .extra = shapes[i] };
		char *line = line_of(&sp);
		assert_int_equal(fleet_add_line(&s, line, strlen(line), "g:2"), 0);
		free(line);
	}
	assert_int_equal(s.skipped, 3);
	fleet_set_free(&s);
}

/* quick's per-step lines, its older one-line documents (with step names
 * and without) and a sweep's points: each a record of its own, named so that
 * it groups with the same step or point of the other hosts. */
static void test_steps_and_points(void **state)
{
	(void)state;
	struct fleet_set s;
	fleet_set_init(&s);
#define FIG(b, n) "{\"bytes\":" #b ",\"ios\":" #n ",\"seconds\":1,\"bytes_per_sec\":" #b ",\"iops\":" #n \
		  ",\"lat_buckets\":{\"scheme\":\"log-linear-7\",\"pairs\":[[3," #n "]]}}"
	static const char *const lines[] = {
		"{\"host\":\"a\",\"run_id\":\"r\",\"command\":\"quick\",\"step\":\"RND4K Q32T1 read\","
		"\"test\":\"randread\",\"result\":" FIG(4096, 1) "}",
		"{\"host\":\"a\",\"run_id\":\"r\",\"test\":\"quick\",\"tests\":["
		"{\"test\":\"seqread\",\"step\":\"SEQ1M Q8T1 read\",\"result\":" FIG(8192, 2) "},"
		"{\"test\":\"randread\",\"result\":" FIG(4096, 3) "}]}",
		"{\"host\":\"a\",\"run_id\":\"r\",\"test\":\"sweep\",\"result\":{\"series\":["
		"{\"workload\":\"small_random_read\",\"block_size\":4096,\"points\":["
		"{\"outstanding\":1,\"bytes\":4096,\"ios\":1,\"seconds\":1,\"bytes_per_sec\":4096,"
		"\"iops\":1,\"lat_ns\":{\"min\":3,\"max\":3,\"p50\":3,\"p99\":3},"
		"\"lat_buckets\":{\"scheme\":\"log-linear-7\",\"pairs\":[[3,1]]}},"
		"{\"outstanding\":8,\"bytes\":40960,\"ios\":10,\"seconds\":1,\"bytes_per_sec\":40960,"
		"\"iops\":10}]}]}}",
		/* no steps, no points: not records */
		"{\"host\":\"a\",\"test\":\"sweep\",\"result\":{\"series\":[{\"workload\":\"x\",\"points\":[]}]}}",
		/* a sweep that failed is one failed record */
		"{\"host\":\"a\",\"test\":\"sweep\",\"result\":null,\"error\":\"no space\"}",
	};
	int want[] = { 1, 1, 1, 0, 0 };
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_int_equal(fleet_add_line(&s, lines[i], strlen(lines[i]), "f:1"), want[i]);
	assert_int_equal(s.n, 5);
	assert_string_equal(s.rec[0].test, "quick: randread RND4K Q32T1 read");
	assert_int_equal(s.rec[0].nbuckets, 1);
	assert_string_equal(s.rec[1].test, "quick: seqread SEQ1M Q8T1 read");
	assert_int_equal(s.rec[1].bytes, 8192);
	assert_string_equal(s.rec[2].test, "quick: randread, step 2"); /* before steps had names */
	assert_int_equal(s.rec[2].ios, 3);
	assert_string_equal(s.rec[3].test, "sweep: small_random_read bs=4096, 1 outstanding");
	assert_true(s.rec[3].has_lat);
	assert_int_equal(s.rec[3].nbuckets, 1);
	assert_int_equal(s.rec[3].buckets[0].count, 1);
	assert_string_equal(s.rec[4].test, "sweep: small_random_read bs=4096, 8 outstanding");
	assert_int_equal(s.rec[4].bytes, 40960);
	assert_non_null(s.rec[4].no_buckets); /* a sweep of an older version */
	assert_int_equal(s.skipped, 1);
	assert_int_equal(s.failed, 1);
	assert_string_equal(s.frec[0].test, "sweep");
	fleet_set_free(&s);
#undef FIG
}

static void test_bucket_shapes(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"{\"scheme\":\"log-linear-7\",\"pairs\":[[3,1],[2,1]]}",
		"{\"scheme\":\"log-linear-7\",\"pairs\":[[3,1],[3,1]]}",
		"{\"scheme\":\"log-linear-7\",\"pairs\":[[99999,1]]}",
		"{\"scheme\":\"log-linear-7\",\"pairs\":[[1]]}",
		"{\"scheme\":\"log-linear-7\",\"pairs\":[[1,-1]]}",
		"{\"pairs\":[]}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fleet_set s;
		char line[512];
		fleet_set_init(&s);
		snprintf(line, sizeof(line), "{\"test\":\"randread\",\"result\":{\"bytes\":1,\"ios\":1,"
			 "\"seconds\":1,\"bytes_per_sec\":1,\"iops\":1,\"lat_buckets\":%s}}", bad[i]);
		if (fleet_add_line(&s, line, strlen(line), "b:1") != 0)
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(strstr(s.first_skipped, "lat_buckets"));
		fleet_set_free(&s);
	}
}

/* ---- merging ---- */

/* Three hosts of different speeds: the fleet's percentiles from the merged
 * pairs are exactly those of one stats object fed every value. */
static void test_merge_exact(void **state)
{
	(void)state;
	struct stats *host[3], *all = malloc(sizeof(*all));
	assert_non_null(all);
	stats_init(all);
	struct rng rng;
	rng_seed(&rng, 12345, 0);
	const uint64_t base[3] = { 80000, 150000, 2000000 };
	for (int h = 0; h < 3; h++) {
		host[h] = malloc(sizeof(*host[h]));
		assert_non_null(host[h]);
		stats_init(host[h]);
		for (int i = 0; i < 20000 * (h + 1); i++) {
			uint64_t v = base[h] + rng_next(&rng) % (base[h] * (i % 100 == 0 ? 50 : 2));
			stats_add(host[h], v);
			stats_add(all, v);
		}
	}
	struct fleet_set s;
	fleet_set_init(&s);
	const char *names[3] = { "a", "b", "c" };
	for (int h = 0; h < 3; h++) {
		struct spec sp = { .host = names[h], .start_s = h, .lat = host[h] };
		add_spec(&s, &sp, names[h]);
	}
	struct fleet_report rep;
	build_ok(&s, &rep);
	const struct fleet_totals *t = &rep.groups[0].t;
	assert_true(t->has_lat);
	assert_true(t->lat_count == all->count);
	assert_true(t->lat_min == all->min && t->lat_max == all->max);
	assert_true(t->p50 == stats_percentile(all, 50));
	assert_true(t->p90 == stats_percentile(all, 90));
	assert_true(t->p99 == stats_percentile(all, 99));
	assert_true(t->p99_9 == stats_percentile(all, 99.9));
	/* and not the average of the hosts' p99, which is far off here */
	uint64_t mean_p99 = 0;
	for (int h = 0; h < 3; h++)
		mean_p99 += stats_percentile(host[h], 99) / 3;
	assert_true(t->p99 != mean_p99);
	fleet_report_free(&rep);

	/* one host without lat_buckets: no fleet percentiles, and why */
	struct spec sp = { .host = "d", .start_s = 3 };
	add_spec(&s, &sp, "d");
	build_ok(&s, &rep);
	assert_false(rep.groups[0].t.has_lat);
	assert_string_equal(rep.groups[0].t.lat_why, "d has no lat_buckets");
	fleet_report_free(&rep);
	fleet_set_free(&s);
	for (int h = 0; h < 3; h++)
		free(host[h]);
	free(all);
}

/* ---- grouping ---- */

static void test_grouping_and_refusal(void **state)
{
	(void)state;
	struct fleet_set s;
	fleet_set_init(&s);
	struct spec a = { .host = "node10", .run_id = "r1", .start_s = 0,
			  .params = "{\"block_size\":4096,\"seed\":1,\"file_state\":\"new\"}" };
	struct spec b = { .host = "node2", .run_id = "r1", .start_s = 0,
			  .params = "{\"block_size\":4096.0,\"seed\":2,\"file_state\":\"existing\"}" };
	struct spec c = { .host = "node2", .run_id = "r2", .start_s = 0,
			  .params = "{\"block_size\":65536}" };
	struct spec d = { .host = "node2", .run_id = "r1", .test = "seqread", .start_s = 0 };
	add_spec(&s, &a, "a:1");
	add_spec(&s, &b, "b:1");
	add_spec(&s, &c, "c:1");
	add_spec(&s, &d, "d:1");
	struct fleet_report rep;
	build_ok(&s, &rep); /* seed and file_state differ per host: not compared */
	assert_int_equal(rep.n, 3);
	assert_string_equal(rep.groups[0].run_id, "r1");
	assert_string_equal(rep.groups[0].test, "randread");
	assert_int_equal(rep.groups[0].n, 2);
	assert_string_equal(rep.groups[0].rows[0].label, "node2"); /* natural order */
	assert_string_equal(rep.groups[0].rows[1].label, "node10");
	assert_string_equal(rep.groups[1].run_id, "r2");
	assert_string_equal(rep.groups[2].test, "seqread");
	assert_true(rep.groups[0].by_iops && !rep.groups[2].by_iops);
	fleet_report_free(&rep);

	/* a param that differs within one run: refused, naming it and two hosts */
	struct spec e = { .host = "node3", .run_id = "r1", .start_s = 0,
			  .params = "{\"block_size\":4096,\"sync\":\"none\"}" };
	add_spec(&s, &e, "e:1");
	char why[512];
	assert_int_equal(fleet_report_build(&s, &rep, why, sizeof(why)), -1);
	assert_string_equal(why, "run 'r1' of randread mixes different params: params.sync is absent "
			    "on node10 (a:1) and \"none\" on node3 (e:1)");
	fleet_report_free(&rep);
	fleet_set_free(&s);
}

/* Two tasks on one host (srun -n 2 on one node) by their rank; the same
 * record twice (a merged file beside the per-node ones) counted once and
 * listed as a duplicate; a failed run listed, not counted. */
static void test_labels(void **state)
{
	(void)state;
	struct fleet_set s;
	fleet_set_init(&s);
	struct spec r1 = { .host = "n1", .start_s = 0, .extra = ",\"launcher\":{\"SLURM_PROCID\":\"1\"}" };
	struct spec r0 = { .host = "n1", .start_s = 0, .extra = ",\"launcher\":{\"SLURM_PROCID\":\"0\"}" };
	struct spec x = { .host = "n2", .start_s = 0, .bytes = 8192000 };
	add_spec(&s, &r1, "a:1");
	add_spec(&s, &r0, "a:2");
	add_spec(&s, &x, "a:3");
	add_spec(&s, &x, "b:1");
	static const char failed[] = "{\"test\":\"randread\",\"host\":\"n3\",\"run_id\":\"r1\","
				     "\"error\":\"open '/x': No such file\"}";
	assert_int_equal(fleet_add_line(&s, failed, strlen(failed), "c:1"), 0);
	struct fleet_report rep;
	build_ok(&s, &rep);
	assert_int_equal(rep.n, 1);
	const struct fleet_group *g = &rep.groups[0];
	assert_int_equal(g->n, 3);
	assert_string_equal(g->rows[0].label, "n1[0]");
	assert_string_equal(g->rows[1].label, "n1[1]");
	assert_string_equal(g->rows[2].label, "n2");
	/* 4096000 + 4096000 + 8192000, n2 once */
	assert_true(g->t.bytes == 16384000);
	assert_int_equal(rep.duplicates, 1);
	assert_string_equal(rep.first_duplicate, "n2 in b:1 repeats a:3");
	assert_int_equal(g->nothers, 2);
	assert_int_equal(g->nfailed, 1);
	assert_int_equal(rep.failed, 1);
	assert_int_equal(g->others[0].status, ROW_DUPLICATE);
	assert_string_equal(g->others[0].same_as->where, "a:3");
	assert_int_equal(g->others[1].status, ROW_FAILED);
	assert_string_equal(g->others[1].label, "n3");
	assert_string_equal(g->others[1].rec->error, "open '/x': No such file");
	fleet_report_free(&rep);

	/* the same host with other figures in the same run: refused, both named */
	struct spec y = { .host = "n2", .start_s = 0, .bytes = 4096 };
	add_spec(&s, &y, "d:7");
	char why[512];
	assert_int_equal(fleet_report_build(&s, &rep, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "n2 has two different records of run 'r1' randread: a:3 and d:7"));
	fleet_report_free(&rep);
	fleet_set_free(&s);
}

/* ---- figures ---- */

static const struct fleet_row *row_named(const struct fleet_group *g, const char *label)
{
	for (unsigned i = 0; i < g->n; i++)
		if (strcmp(g->rows[i].label, label) == 0)
			return &g->rows[i];
	fail_msg("no row %s", label);
	return NULL;
}

static void test_rows_and_flags(void **state)
{
	(void)state;
	struct fleet_set s;
	fleet_set_init(&s);
	struct spec sp[] = {
		{ .host = "a", .start_s = 0, .iops = 100 },
		{ .host = "b", .start_s = 0.005, .iops = 105, .extra = ",\"start_at\":{\"late_us\":20000}" },
		{ .host = "c", .start_s = 0.001, .iops = 120, .extra = ",\"clock\":{\"synchronised\":false}" },
		{ .host = "d", .start_s = 0.2, .iops = 95 },
		{ .host = "e", .start_s = 0.002, .iops = 100,
		  .extra = ",\"clock\":{\"synchronised\":null},\"warnings\":[\"w\"]" },
	};
	for (size_t i = 0; i < sizeof(sp) / sizeof(sp[0]); i++)
		add_spec(&s, &sp[i], sp[i].host);
	/* the record's own "warnings" key came first: the extra one is the last, read */
	struct fleet_report rep;
	build_ok(&s, &rep);
	const struct fleet_group *g = &rep.groups[0];
	assert_true(g->t.median == 100);
	assert_int_equal(row_named(g, "a")->flags, 0);
	assert_true(row_named(g, "a")->start_offset_ms == 0);
	assert_int_equal(row_named(g, "b")->flags, FLAG_LATE); /* woke 20 ms late */
	assert_true(fabs(row_named(g, "b")->start_offset_ms - 5) < 1e-9);
	assert_true(fabs(row_named(g, "b")->deviation_pct - 5) < 1e-9);
	assert_int_equal(row_named(g, "c")->flags, FLAG_OUTLIER | FLAG_CLOCK);
	assert_int_equal(row_named(g, "d")->flags, FLAG_LATE); /* 200 ms = 2 % of 10 s */
	assert_int_equal(row_named(g, "e")->flags, FLAG_WARN);
	assert_true(fabs(g->t.sum_iops - 520) < 1e-9);
	assert_true(fabs(g->t.start_skew_ms - 200) < 1e-6);
	assert_true(fabs(g->t.start_skew_pct - 2) < 1e-6);
	/* span: 5 x 4096000 bytes from 0 to 10.2 s */
	assert_true(fabs(g->t.span_s - 10.2) < 1e-9);
	assert_true(fabs(g->t.span_bytes_per_sec - 5 * 4096000 / 10.2) < 1e-6);
	assert_false(g->t.has_window);
	assert_string_equal(g->t.window_why,
			    "a has no per-interval series (a run shorter than --interval?)");
	fleet_report_free(&rep);

	/* one plain --json record (no started_at): offsets and span unknown */
	struct spec plain = { .host = "f", .start_s = -1, .iops = 100 };
	add_spec(&s, &plain, "f");
	build_ok(&s, &rep);
	g = &rep.groups[0];
	assert_false(g->t.timed);
	assert_true(isnan(row_named(g, "a")->start_offset_ms));
	assert_string_equal(g->t.window_why, "f has no started_at (not a --jsonl record, or a sweep's point)");
	fleet_report_free(&rep);
	fleet_set_free(&s);
}

/* Window [0.5 s, 4 s]: a moves 100 B per 1 s sample from 0, b 200 B per
 * sample from 0.5 s; the samples cut by the window count in proportion. */
static void test_common_window(void **state)
{
	(void)state;
	struct fleet_set s;
	fleet_set_init(&s);
	struct spec a = { .host = "a", .start_s = 0, .seconds = 4, .bytes = 400,
			  .series = "{\"interval_s\":1,\"t_s\":[1,2,3,4],\"bytes\":[100,100,100,100]}" };
	struct spec b = { .host = "b", .start_s = 0.5, .seconds = 4, .bytes = 800,
			  .series = "{\"interval_s\":1,\"t_s\":[1,2,3,4],\"bytes\":[200,200,200,200]}" };
	add_spec(&s, &a, "a");
	add_spec(&s, &b, "b");
	struct fleet_report rep;
	build_ok(&s, &rep);
	const struct fleet_totals *t = &rep.groups[0].t;
	assert_true(t->has_window);
	assert_true(fabs(t->window_s - 3.5) < 1e-9);
	assert_true(fabs(t->window_bytes - 1050) < 1e-6);
	assert_true(fabs(t->window_bytes_per_sec - 300) < 1e-6);
	assert_true(fabs(t->span_bytes_per_sec - 1200 / 4.5) < 1e-6);
	fleet_report_free(&rep);

	/* runs that do not overlap have no common window */
	struct fleet_set s2;
	fleet_set_init(&s2);
	b.start_s = 5;
	add_spec(&s2, &a, "a");
	add_spec(&s2, &b, "b");
	build_ok(&s2, &rep);
	assert_false(rep.groups[0].t.has_window);
	assert_string_equal(rep.groups[0].t.window_why, "the hosts' runs do not overlap");
	fleet_report_free(&rep);
	fleet_set_free(&s2);
	fleet_set_free(&s);
}

/* ---- baseline ---- */

/* --threshold 10 % (0 %) with no noise floor: the measured noise alone */
static const struct fleet_judge judge10 = { .threshold_pct = 10 }, judge0 = { .threshold_pct = 0 };

static void fill_set(struct fleet_set *s, const char *run_id, const double *iops,
		     const char *const *hosts, unsigned n, const struct stats *lat)
{
	fleet_set_init(s);
	for (unsigned i = 0; i < n; i++) {
		struct spec sp = { .host = hosts[i], .run_id = run_id, .start_s = 0, .iops = iops[i],
				   .bps = iops[i] * 4096, .lat = lat };
		add_spec(s, &sp, hosts[i]);
	}
}

static const struct fleet_change *change_of(const struct fleet_pairing *p, const char *host,
					    enum fleet_figure f)
{
	for (unsigned i = 0; i < p->n; i++)
		if (strcmp(p->changes[i].host, host) == 0 && p->changes[i].figure == f)
			return &p->changes[i];
	fail_msg("no change of %s %s", host, fleet_figure_label(f));
	return NULL;
}

/* Two runs' latencies, 1000 each: fast 100 us + 1..1000 ns, slow 100 us +
 * 30..30000 ns (p50 +15 %, p99 +30 % or so); the caller frees both. */
static void two_latencies(struct stats **fast, struct stats **slow)
{
	*fast = malloc(sizeof(**fast));
	*slow = malloc(sizeof(**slow));
	assert_non_null(*fast);
	assert_non_null(*slow);
	stats_init(*fast);
	stats_init(*slow);
	for (uint64_t v = 1; v <= 1000; v++) {
		stats_add(*fast, 100000 + v);
		stats_add(*slow, 100000 + v * 30);
	}
}

static void test_baseline(void **state)
{
	(void)state;
	struct stats *fast, *slow;
	two_latencies(&fast, &slow);
	const char *old_hosts[] = { "h1", "h2", "h3" }, *new_hosts[] = { "h1", "h2", "h4" };
	const double old_iops[] = { 1000, 1000, 1000 }, new_iops[] = { 950, 800, 1000 };
	struct fleet_set so, sn;
	fill_set(&so, "old", old_iops, old_hosts, 3, fast);
	fill_set(&sn, "new", new_iops, new_hosts, 3, slow);
	struct fleet_report ro, rn;
	build_ok(&so, &ro);
	build_ok(&sn, &rn);
	struct fleet_baseline b;
	char why[512];
	assert_int_equal(fleet_compare(&ro, &rn, &judge10, &b, why, sizeof(why)), 0);
	assert_int_equal(b.n, 1);
	const struct fleet_pairing *p = &b.pairs[0];
	assert_true(p->old == &ro.groups[0] && p->new == &rn.groups[0]);
	assert_int_equal(p->nrepeats, 1);
	assert_int_equal(p->n_common, 2);
	const struct fleet_change *c = change_of(p, "h1", FIG_IOPS);
	assert_true(fabs(c->change_pct + 5) < 1e-6 && !c->regressed); /* -5 %: within 10 % */
	c = change_of(p, "h2", FIG_IOPS);
	assert_true(fabs(c->change_pct + 20) < 1e-6 && c->regressed);
	assert_true(change_of(p, "h2", FIG_MBPS)->regressed);
	assert_true(change_of(p, "h1", FIG_P99)->regressed); /* latency up beyond 10 % */
	assert_true(change_of(p, FLEET_FLEET_ROW, FIG_P99)->regressed);
	/* the fleet row over h1 and h2 only, the hosts on both sides: 2000 →
	 * 1750, -12.5 % (h3 missing and h4 new would have made it 3000 → 2750) */
	c = change_of(p, FLEET_FLEET_ROW, FIG_IOPS);
	assert_true(fabs(c->old_value - 2000) < 1e-6 && fabs(c->new_value - 1750) < 1e-6);
	assert_true(fabs(c->change_pct + 12.5) < 1e-6 && c->regressed);
	/* no series, one run, a floor of 0: the threshold alone */
	assert_true(c->noise_pct == 0 && c->noise_from == NOISE_FLOOR && c->runs == 1);
	assert_int_equal(p->n_only_old, 1);
	assert_string_equal(p->only_old[0], "h3");
	assert_int_equal(p->n_only_new, 1);
	assert_string_equal(p->only_new[0], "h4");
	assert_int_equal(b.nchanges, 2 * 4 + 4);
	assert_true(b.nregressed >= 4);
	fleet_baseline_free(&b);

	/* the same records on both sides: nothing regressed */
	assert_int_equal(fleet_compare(&rn, &rn, &judge10, &b, why, sizeof(why)), 0);
	assert_int_equal(b.nregressed, 0);
	assert_int_equal(b.nchanges, 3 * 4 + 4);
	fleet_baseline_free(&b);
	/* a threshold of 0: any worsening counts, equality does not */
	assert_int_equal(fleet_compare(&rn, &rn, &judge0, &b, why, sizeof(why)), 0);
	assert_int_equal(b.nregressed, 0);
	fleet_baseline_free(&b);

	/* an old run of another test: listed on its own, all its hosts only old */
	struct spec other = { .host = "h1", .run_id = "old", .test = "seqread", .start_s = 0 };
	add_spec(&so, &other, "o");
	fleet_report_free(&ro);
	build_ok(&so, &ro);
	assert_int_equal(fleet_compare(&ro, &rn, &judge10, &b, why, sizeof(why)), 0);
	assert_int_equal(b.n, 2);
	assert_null(b.pairs[1].new);
	assert_int_equal(b.pairs[1].n, 0);
	assert_int_equal(b.pairs[1].n_only_old, 1);
	fleet_baseline_free(&b);

	/* two old runs of the test, neither with the same params: refused */
	struct spec twice = { .host = "h1", .run_id = "older", .start_s = 0,
			      .params = "{\"block_size\":8192}" };
	struct spec thrice = { .host = "h1", .run_id = "oldest", .start_s = 0,
			       .params = "{\"block_size\":16384}" };
	struct fleet_set s3;
	fleet_set_init(&s3);
	add_spec(&s3, &twice, "t");
	add_spec(&s3, &thrice, "u");
	struct fleet_report r3;
	build_ok(&s3, &r3);
	assert_int_equal(fleet_compare(&r3, &rn, &judge10, &b, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no run of the same params in the baseline (old first): "
				    "params.block_size is 8192 on h1 (t) and 4096 on h1 (h1); "
				    "compare like with like"));
	fleet_baseline_free(&b);
	/* one of them with the same params: that one is taken */
	fleet_set_free(&s3);
	fleet_report_free(&r3);
	fleet_set_init(&s3);
	twice.params = NULL;
	add_spec(&s3, &twice, "t");
	add_spec(&s3, &thrice, "u");
	build_ok(&s3, &r3);
	assert_int_equal(fleet_compare(&r3, &rn, &judge10, &b, why, sizeof(why)), 0);
	assert_string_equal(b.pairs[0].old->run_id, "older");
	fleet_baseline_free(&b);

	fleet_report_free(&r3);
	fleet_set_free(&s3);
	fleet_report_free(&ro);
	fleet_report_free(&rn);
	fleet_set_free(&so);
	fleet_set_free(&sn);
	free(fast);
	free(slow);
}

/* ---- the command line ---- */

static int parse(struct cli *c, char *why, const char *const *words)
{
	char *argv[16] = { "diskbench" };
	int argc = 1;
	for (; words[argc - 1]; argc++)
		argv[argc] = (char *)words[argc - 1];
	return cli_parse(argc, argv, c, why, 256);
}

/* Nothing comparable is not "no regression": a randread baseline against a
 * seqread run, or no host on both sides, is refused saying why. */
/* What a difference is judged against: with one baseline run, the floor
 * (identical runs' p50 +15 % and p99 +28 % are not regressions; with no
 * floor, the bare difference, they are); with three, their range, not the
 * floor (-15 % IOPS against runs 2 % apart regresses; against one run and a
 * 10 % floor it does not). */
static void test_baseline_floor(void **state)
{
	(void)state;
	struct stats *fast, *slow;
	two_latencies(&fast, &slow);
	const char *h1[] = { "h1" };
	const double same[] = { 1000 }, lower[] = { 850 };
	struct fleet_set so, sn;
	struct fleet_report ro, rn;
	struct fleet_baseline b;
	char why[512];
	struct fleet_judge floors = { .threshold_pct = 10, .floor_pct = { 10, 10, 20, 50 } };
	struct fleet_judge bare = { .threshold_pct = 10 };

	fill_set(&so, "old", same, h1, 1, fast);
	fill_set(&sn, "new", same, h1, 1, slow);
	build_ok(&so, &ro);
	build_ok(&sn, &rn);
	assert_int_equal(fleet_compare(&ro, &rn, &floors, &b, why, sizeof(why)), 0);
	const struct fleet_change *c = change_of(&b.pairs[0], "h1", FIG_P50);
	assert_true(c->change_pct > 12 && c->change_pct < 18 && !c->regressed);
	assert_true(c->noise_from == NOISE_FLOOR && c->noise_pct == 20 && c->runs == 1);
	c = change_of(&b.pairs[0], "h1", FIG_P99);
	assert_true(c->change_pct > 20 && c->change_pct < 35 && !c->regressed);
	assert_true(c->noise_from == NOISE_FLOOR && c->noise_pct == 50);
	assert_int_equal(b.nregressed, 0);
	fleet_baseline_free(&b);
	assert_int_equal(fleet_compare(&ro, &rn, &bare, &b, why, sizeof(why)), 0);
	assert_true(change_of(&b.pairs[0], "h1", FIG_P50)->regressed);
	assert_true(change_of(&b.pairs[0], "h1", FIG_P99)->regressed);
	fleet_baseline_free(&b);
	fleet_report_free(&rn);
	fleet_set_free(&sn);

	/* -15 % IOPS against one run: within 10 % + the 10 % floor */
	fill_set(&sn, "new", lower, h1, 1, fast);
	build_ok(&sn, &rn);
	assert_int_equal(fleet_compare(&ro, &rn, &floors, &b, why, sizeof(why)), 0);
	c = change_of(&b.pairs[0], "h1", FIG_IOPS);
	assert_true(!c->regressed && c->noise_from == NOISE_FLOOR);
	fleet_baseline_free(&b);
	fleet_report_free(&ro);
	fleet_set_free(&so);

	/* against three runs of 1000, 1010 and 990 IOPS (a 2 % range): regressed */
	fleet_set_init(&so);
	const char *ids[] = { "r1", "r2", "r3" };
	const double runs[] = { 1000, 1010, 990 };
	for (unsigned i = 0; i < 3; i++) {
		struct spec sp = { .host = "h1", .run_id = ids[i], .start_s = 0, .iops = runs[i],
				   .bps = runs[i] * 4096, .lat = fast };
		add_spec(&so, &sp, ids[i]);
	}
	build_ok(&so, &ro);
	assert_int_equal(fleet_compare(&ro, &rn, &floors, &b, why, sizeof(why)), 0);
	assert_int_equal(b.pairs[0].nrepeats, 3);
	c = change_of(&b.pairs[0], "h1", FIG_IOPS);
	assert_true(c->noise_from == NOISE_REPEATS && c->runs == 3);
	assert_true(fabs(c->noise_pct - 2) < 1e-6);
	assert_true(fabs(c->change_pct + 15) < 1e-6 && c->regressed);
	/* and the same latencies on both sides stay silent: range 0, not regressed */
	c = change_of(&b.pairs[0], "h1", FIG_P99);
	assert_true(c->noise_from == NOISE_REPEATS && !c->regressed);
	fleet_baseline_free(&b);

	fleet_report_free(&ro);
	fleet_report_free(&rn);
	fleet_set_free(&so);
	fleet_set_free(&sn);
	free(fast);
	free(slow);
}

static void test_baseline_nothing_comparable(void **state)
{
	(void)state;
	struct fleet_set so, sn;
	fleet_set_init(&so);
	fleet_set_init(&sn);
	struct spec a = { .host = "h1", .run_id = "old", .start_s = 0 };
	struct spec b = { .host = "h1", .run_id = "new", .test = "seqread", .start_s = 0 };
	add_spec(&so, &a, "a");
	add_spec(&sn, &b, "b");
	struct fleet_report ro, rn;
	build_ok(&so, &ro);
	build_ok(&sn, &rn);
	struct fleet_baseline base;
	char why[512];
	assert_int_equal(fleet_compare(&ro, &rn, &judge10, &base, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no figure to compare: the baseline holds no run of the new "
				    "records' test (new: seqread; baseline: randread)"));
	fleet_baseline_free(&base);
	fleet_report_free(&rn);
	fleet_set_free(&sn);
	/* the same test on other hosts */
	fleet_set_init(&sn);
	struct spec c = { .host = "h9", .run_id = "new", .start_s = 0 };
	add_spec(&sn, &c, "c");
	build_ok(&sn, &rn);
	assert_int_equal(fleet_compare(&ro, &rn, &judge10, &base, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no host is in both"));
	fleet_baseline_free(&base);
	fleet_report_free(&rn);
	fleet_set_free(&sn);
	fleet_report_free(&ro);
	fleet_set_free(&so);
}

/* One host's run of 9 s with a series of these bytes per second. */
static void one_run(struct fleet_report *rep, struct fleet_set *s, const char *run_id,
		    const char *series, double bps)
{
	fleet_set_init(s);
	struct spec sp = { .host = "h1", .run_id = run_id, .start_s = 0, .seconds = 9,
			   .bps = bps, .iops = bps / 4096, .series = series };
	add_spec(s, &sp, run_id);
	build_ok(s, rep);
}

/* Each figure judged against its own spread: a 30 % drop of a steady rate
 * regresses; of a rate whose intervals swing ±50 %, it is within the noise.
 * The noise by hand: 9 samples are averaged in batches of sqrt(9) = 3;
 * samples 50,50,50,100,100,100,150,150,150 give batch means 50, 100 and 150,
 * whose median is 100 and median absolute deviation 50: a robust stdev of
 * 1.4826 × 50 = 74.13 % of the median, a standard error of 74.13 / sqrt(3) =
 * 42.799 %; the difference of two such runs, 3 standard errors: 3 × sqrt(2)
 * × 42.799 % = 181.5807 % (their means are their medians: no shift).  A
 * start-up burst, 140 then 70 eight times, gives batch means 93.33, 70, 70:
 * no spread, but a mean of 77.78 pulled 11.11 % from the median of 70. */
static void test_baseline_noise(void **state)
{
	(void)state;
	static const char steady_old[] = "{\"t_s\":[1,2,3,4,5,6,7,8,9],"
					 "\"bytes\":[100,100,100,100,100,100,100,100,100]}";
	static const char steady_new[] = "{\"t_s\":[1,2,3,4,5,6,7,8,9],"
					 "\"bytes\":[140,70,70,70,70,70,70,70,70]}";
	static const char swing_old[] = "{\"t_s\":[1,2,3,4,5,6,7,8,9],"
					"\"bytes\":[50,50,50,100,100,100,150,150,150]}";
	static const char swing_new[] = "{\"t_s\":[1,2,3,4,5,6,7,8,9],"
					"\"bytes\":[35,35,35,70,70,70,105,105,105]}";
	struct fleet_set so, sn;
	struct fleet_report ro, rn;
	struct fleet_baseline b;
	char why[512];

	one_run(&ro, &so, "old", steady_old, 100);
	one_run(&rn, &sn, "new", steady_new, 70);
	assert_int_equal(fleet_compare(&ro, &rn, &judge10, &b, why, sizeof(why)), 0);
	const struct fleet_change *c = change_of(&b.pairs[0], "h1", FIG_MBPS);
	assert_true(fabs(c->change_pct + 30) < 1e-9 && fabs(c->noise_pct - 100.0 / 9) < 1e-9);
	assert_true(c->regressed); /* -30 % beyond 10 + 11.11 % */
	fleet_baseline_free(&b);
	/* the same run again: equal, never regressed */
	assert_int_equal(fleet_compare(&ro, &ro, &judge10, &b, why, sizeof(why)), 0);
	assert_int_equal(b.nregressed, 0);
	fleet_baseline_free(&b);
	fleet_report_free(&ro), fleet_set_free(&so), fleet_report_free(&rn), fleet_set_free(&sn);

	one_run(&ro, &so, "old", swing_old, 100);
	one_run(&rn, &sn, "new", swing_new, 70);
	assert_int_equal(fleet_compare(&ro, &rn, &judge10, &b, why, sizeof(why)), 0);
	c = change_of(&b.pairs[0], "h1", FIG_MBPS);
	if (fabs(c->noise_pct - 181.5807) > 0.001)
		fail_msg("noise %f", c->noise_pct);
	assert_false(c->regressed);
	assert_false(change_of(&b.pairs[0], FLEET_FLEET_ROW, FIG_MBPS)->regressed);
	fleet_baseline_free(&b);
	fleet_report_free(&ro), fleet_set_free(&so), fleet_report_free(&rn), fleet_set_free(&sn);
}

/* Several baseline runs of the same test and params: the host's old value
 * is their mean, their range (in % of it) a noise when wider than the
 * series'.  100 and 140: mean 120, range 33.3 %: 90 is -25 %, within 10 +
 * 33.3 = 43.3; 60 is -50 %, beyond. */
static void test_baseline_repeats(void **state)
{
	(void)state;
	struct fleet_set so, sn;
	fleet_set_init(&so);
	struct spec a = { .host = "h1", .run_id = "jan", .start_s = 0, .bps = 100, .iops = 1 };
	struct spec b = { .host = "h1", .run_id = "feb", .start_s = 100, .bps = 140, .iops = 1.4 };
	add_spec(&so, &a, "a");
	add_spec(&so, &b, "b");
	struct fleet_report ro, rn;
	build_ok(&so, &ro);
	static const double new_bps[] = { 90, 60 };
	static const bool regressed[] = { false, true };
	for (unsigned i = 0; i < 2; i++) {
		fleet_set_init(&sn);
		struct spec c = { .host = "h1", .run_id = "mar", .start_s = 200, .bps = new_bps[i],
				  .iops = new_bps[i] / 100 };
		add_spec(&sn, &c, "c");
		build_ok(&sn, &rn);
		struct fleet_baseline base;
		char why[512];
		assert_int_equal(fleet_compare(&ro, &rn, &judge10, &base, why, sizeof(why)), 0);
		assert_int_equal(base.pairs[0].nrepeats, 2);
		const struct fleet_change *ch = change_of(&base.pairs[0], "h1", FIG_MBPS);
		assert_true(fabs(ch->old_value - 120) < 1e-9);
		assert_true(fabs(ch->noise_pct - 100.0 / 3) < 1e-9);
		assert_int_equal(ch->regressed, regressed[i]);
		fleet_baseline_free(&base);
		fleet_report_free(&rn);
		fleet_set_free(&sn);
	}
	fleet_report_free(&ro);
	fleet_set_free(&so);
}

/* The fleet row over repeated baselines: 4 hosts, 5 runs, the first at 60
 * on every host, the others at 100, h4 missing from the last.  By hand:
 * host means 92 (h4: 90), ranges 40/92 and 40/90 (4000/92 and 4000/90 %);
 * the per-run sums 240, 400, 400, 400 and 300 + 90 (h4 at its mean) have
 * the mean 1830/5 = 366 (= 3 × 92 + 90) and the range 160/366 = 43.716 %.
 * The first run again is -34.426 %: within 10 + 43.716, though beyond 10 +
 * the hosts' independent noises, sqrt(4 × 4000²)/366 = 21.858 %.  30 on
 * every host is -67.2 %: regressed.  Latencies: the last run slow, the
 * others fast; the fleet's old p50 is the mean of each run's merged p50. */
static void test_baseline_fleet_repeats(void **state)
{
	(void)state;
	struct stats *fast, *slow;
	two_latencies(&fast, &slow);
	static const char *const hosts[] = { "h1", "h2", "h3", "h4" };
	static const char *const runs[] = { "r1", "r2", "r3", "r4", "r5" };
	struct fleet_set so;
	fleet_set_init(&so);
	for (unsigned r = 0; r < 5; r++)
		for (unsigned h = 0; h < (r == 4 ? 3u : 4u); h++) {
			double bps = r == 0 ? 60 : 100;
			struct spec sp = { .host = hosts[h], .run_id = runs[r], .start_s = 20.0 * r,
					   .bps = bps, .iops = bps / 10, .lat = r == 4 ? slow : fast };
			add_spec(&so, &sp, runs[r]);
		}
	struct fleet_report ro;
	build_ok(&so, &ro);
	static const double new_bps[] = { 60, 30 };
	for (unsigned i = 0; i < 2; i++) {
		struct fleet_set sn;
		struct fleet_report rn;
		fleet_set_init(&sn);
		for (unsigned h = 0; h < 4; h++) {
			struct spec sp = { .host = hosts[h], .run_id = "new", .start_s = 200,
					   .bps = new_bps[i], .iops = new_bps[i] / 10, .lat = slow };
			add_spec(&sn, &sp, "new");
		}
		build_ok(&sn, &rn);
		struct fleet_baseline b;
		char why[512];
		assert_int_equal(fleet_compare(&ro, &rn, &judge10, &b, why, sizeof(why)), 0);
		assert_int_equal(b.pairs[0].nrepeats, 5);
		const struct fleet_change *c = change_of(&b.pairs[0], FLEET_FLEET_ROW, FIG_MBPS);
		if (fabs(c->old_value - 366) > 1e-9 || fabs(c->noise_pct - 16000.0 / 366) > 1e-9)
			fail_msg("fleet MB/s: old %f noise %f", c->old_value, c->noise_pct);
		assert_true(fabs(c->change_pct - (new_bps[i] * 4 / 366 - 1) * 100) < 1e-9);
		assert_int_equal(c->regressed, i == 1);
		c = change_of(&b.pairs[0], FLEET_FLEET_ROW, FIG_P50);
		double p_fast = (double)stats_percentile(fast, 50), p_slow = (double)stats_percentile(slow, 50);
		assert_true(p_slow > p_fast * 1.1);
		if (fabs(c->old_value - (4 * p_fast + p_slow) / 5) > 1e-6 || c->new_value != p_slow)
			fail_msg("fleet p50: old %f new %f", c->old_value, c->new_value);
		assert_true(fabs(c->noise_pct - (p_slow - p_fast) / c->old_value * 100) < 1e-9);
		assert_false(c->regressed);
		fleet_baseline_free(&b);
		fleet_report_free(&rn);
		fleet_set_free(&sn);
	}
	/* the baseline against itself: each run within the runs' range */
	struct fleet_baseline b;
	char why[512];
	assert_int_equal(fleet_compare(&ro, &ro, &judge10, &b, why, sizeof(why)), 0);
	assert_int_equal(b.nregressed, 0);
	fleet_baseline_free(&b);
	fleet_report_free(&ro);
	fleet_set_free(&so);
	free(fast);
	free(slow);
}

static void test_command_line(void **state)
{
	(void)state;
	struct cli c;
	char why[256];
	const char *const files[] = { "report", "a.jsonl", "--json", "-", "--baseline", "old.jsonl",
				      "--threshold=2.5%", "b.jsonl", NULL };
	assert_int_equal(parse(&c, why, files), EXIT_OK);
	assert_string_equal(c.cmd->name, "report");
	assert_int_equal(c.opt.ninputs, 3);
	assert_string_equal(c.opt.inputs[0], "a.jsonl");
	assert_string_equal(c.opt.inputs[1], "-");
	assert_string_equal(c.opt.inputs[2], "b.jsonl");
	assert_string_equal(c.opt.baseline, "old.jsonl");
	assert_true(c.opt.threshold_pct == 2.5);
	assert_int_equal(c.opt.format, OUT_JSON);
	cli_free(&c);
	assert_null(c.opt.inputs);

	const char *const plain[] = { "report", "x", NULL };
	assert_int_equal(parse(&c, why, plain), EXIT_OK);
	assert_null(c.opt.baseline);
	assert_true(c.opt.threshold_pct == 10);
	assert_true(c.opt.noise_floor_rate_pct == 10 && c.opt.noise_floor_p50_pct == 20 &&
		    c.opt.noise_floor_p99_pct == 50); /* the man page's defaults */
	cli_free(&c);
	const char *const floors[] = { "report", "--baseline", "o", "--noise-floor", "rate=5,p99=80",
				       "x", NULL };
	assert_int_equal(parse(&c, why, floors), EXIT_OK);
	assert_true(c.opt.noise_floor_rate_pct == 5 && c.opt.noise_floor_p50_pct == 20 &&
		    c.opt.noise_floor_p99_pct == 80);
	cli_free(&c);
	const char *const one[] = { "report", "--baseline", "o", "--noise-floor=15%", "x", NULL };
	assert_int_equal(parse(&c, why, one), EXIT_OK);
	assert_true(c.opt.noise_floor_rate_pct == 15 && c.opt.noise_floor_p50_pct == 15 &&
		    c.opt.noise_floor_p99_pct == 15);
	cli_free(&c);
	const char *const help[] = { "report", "--help", NULL };
	assert_int_equal(parse(&c, why, help), EXIT_OK);
	assert_true(c.help);
	cli_free(&c);

	static const struct {
		const char *words[6];
		const char *why;
	} bad[] = {
		{ { "report", NULL }, "report needs FILE...|- (\"-\" reads stdin)" },
		{ { "report", "--threshold", "5", "x", NULL },
		  "--threshold and --noise-floor go with --baseline" },
		{ { "report", "--noise-floor", "5", "x", NULL },
		  "--threshold and --noise-floor go with --baseline" },
		{ { "report", "--baseline", "o", "--noise-floor", "p95=3", "x" },
		  "--noise-floor 'p95=3': name each figure: rate=PCT,p50=PCT,p99=PCT (or one PCT "
		  "for all)" },
		{ { "report", "--baseline", "o", "--noise-floor", "p99=x", "x" },
		  "--noise-floor 'p99=x': use a percentage from 0 to 1000, e.g. 10%" },
		{ { "report", "--baseline", "o", "--threshold", "-1", NULL },
		  "--threshold '-1': use a percentage from 0 to 1000, e.g. 10%" },
		{ { "report", "--baseline", "o", "--threshold", "5%%", "x" },
		  "--threshold '5%%': use a percentage from 0 to 1000, e.g. 10%" },
		{ { "report", "-s", "1G", "x", NULL }, "option '--size' does not apply to report" },
		{ { "cached", "a", "b", NULL }, "unexpected argument 'b' (this test takes one TARGET)" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *words[7] = { 0 };
		memcpy(words, bad[i].words, sizeof(bad[i].words));
		assert_int_equal(parse(&c, why, words), EXIT_USAGE);
		assert_string_equal(why, bad[i].why);
		assert_null(c.opt.inputs);
	}
}

/* NOP records (issue 39) are never merged with a disk's: a run that mixes
 * them is refused naming params.engine, a run of NOPs alone is a group of
 * its own marked nop, and a baseline of a disk's run refuses NOP records.
 * The engine auto picked per host (uring, aio, sync) still is not compared. */
static void test_nop_apart(void **state)
{
	(void)state;
	struct fleet_set s, n;
	struct fleet_report rep, nrep;
	char why[512];
	fleet_set_init(&s);
	struct spec a = { .host = "h1", .run_id = "r1", .start_s = 0,
			  .params = "{\"block_size\":4096,\"engine\":\"uring\"}" };
	struct spec b = { .host = "h2", .run_id = "r1", .start_s = 0,
			  .params = "{\"block_size\":4096,\"engine\":\"aio\"}" };
	add_spec(&s, &a, "a:1");
	add_spec(&s, &b, "b:1");
	build_ok(&s, &rep); /* negative: two real engines, one group */
	assert_int_equal(rep.n, 1);
	assert_int_equal(rep.groups[0].n, 2);
	assert_false(rep.groups[0].nop);
	fleet_report_free(&rep);

	struct spec c = { .host = "h3", .run_id = "r1", .start_s = 0,
			  .params = "{\"block_size\":4096,\"engine\":\"nop\"}" };
	add_spec(&s, &c, "c:1");
	assert_int_equal(fleet_report_build(&s, &rep, why, sizeof(why)), -1);
	assert_string_equal(why, "run 'r1' of randread mixes different params: params.engine is "
			    "\"uring\" on h1 (a:1) and \"nop\" on h3 (c:1) (NOPs are diskbench's own "
			    "ceiling, no device's figure: never merged with a disk's)");
	fleet_report_free(&rep);
	fleet_set_free(&s);

	fleet_set_init(&s);
	add_spec(&s, &a, "a:1");
	build_ok(&s, &rep);
	fleet_set_init(&n);
	struct spec d = { .host = "h1", .run_id = "r2", .start_s = 0,
			  .params = "{\"block_size\":4096,\"engine\":\"nop\"}" };
	add_spec(&n, &d, "d:1");
	build_ok(&n, &nrep);
	assert_int_equal(nrep.n, 1);
	assert_true(nrep.groups[0].nop);
	struct fleet_baseline base;
	assert_int_equal(fleet_compare(&rep, &nrep, &judge10, &base, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "has no run of the same params in the baseline (old first): "
				    "params.engine is \"uring\" on h1 (a:1) and \"nop\" on h1 (d:1)"));
	fleet_baseline_free(&base);
	/* NOPs against NOPs: compared */
	assert_int_equal(fleet_compare(&nrep, &nrep, &judge10, &base, why, sizeof(why)), 0);
	assert_true(base.nchanges > 0);
	fleet_baseline_free(&base);
	fleet_report_free(&nrep);
	fleet_set_free(&n);
	fleet_report_free(&rep);
	fleet_set_free(&s);
}

static void test_ignored_params(void **state)
{
	(void)state;
	assert_true(fleet_param_ignored("seed"));
	assert_true(fleet_param_ignored("file_state"));
	assert_true(fleet_param_ignored("buffer"));
	assert_true(fleet_param_ignored("engine"));
	assert_false(fleet_param_ignored("block_size"));
	assert_false(fleet_param_ignored("region"));
	assert_false(fleet_param_ignored("seeds"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefixes),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_times_agree),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_lines_counted),
		cmocka_unit_test(test_steps_and_points),
		cmocka_unit_test(test_bucket_shapes),
		cmocka_unit_test(test_merge_exact),
		cmocka_unit_test(test_grouping_and_refusal),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_rows_and_flags),
		cmocka_unit_test(test_common_window),
		cmocka_unit_test(test_baseline),
		cmocka_unit_test(test_baseline_floor),
		cmocka_unit_test(test_baseline_nothing_comparable),
		cmocka_unit_test(test_baseline_noise),
		cmocka_unit_test(test_baseline_repeats),
		cmocka_unit_test(test_baseline_fleet_repeats),
		cmocka_unit_test(test_ignored_params),
		cmocka_unit_test(test_nop_apart),
		cmocka_unit_test(test_command_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
