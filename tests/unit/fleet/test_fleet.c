/* Unit tests of src/fleet/fleet.c and the fleet parts of the output and the
 * timed loop: --start-at's three forms and their errors, the ISO-8601 UTC
 * parser against known instants (leap years, the calendar's ends), the UTC
 * formatter (a round trip), the run id's order of sources, the launcher
 * variables, the wait on CLOCK_REALTIME, the fleet keys of a record, the
 * sparse lat_buckets pairs (and that summing them over hosts gives the
 * merged percentiles), and bench.c's before_start hook. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "clock.h"
#include "fleet.h"
#include "json.h"
#include "output.h"
#include "stats.h"

#define S 1000000000LL /* a second in ns */

/* ---- --start-at ------------------------------------------------------- */

static int64_t start_at(const char *text, int64_t now_ns)
{
	int64_t at = -1;
	const char *why = NULL;
	assert_int_equal(fleet_parse_start_at(text, now_ns, &at, &why), 0);
	return at;
}

static const char *start_at_error(const char *text, int64_t now_ns)
{
	int64_t at = -1;
	const char *why = NULL;
	assert_int_equal(fleet_parse_start_at(text, now_ns, &at, &why), -1);
	assert_int_equal(at, -1); /* untouched on error */
	assert_non_null(why);
	return why;
}

static void test_start_at_epoch(void **state)
{
	(void)state;
	const int64_t now = 1796040000LL * S;
	assert_true(start_at("1796040000", now) == 1796040000LL * S);
	assert_true(start_at("1796040000.25", now) == 1796040000LL * S + 250000000);
	assert_true(start_at("1796040000.000000001", now) == 1796040000LL * S + 1);
	/* the past is accepted (the run warns and starts at once) */
	assert_true(start_at("0", now) == 0);
}

static void test_start_at_relative(void **state)
{
	(void)state;
	/* the first multiple of N seconds at least N seconds ahead */
	assert_true(start_at("+3", 1000 * S + 300000000) == 1005 * S);
	assert_true(start_at("+3", 1000 * S + 999999999) == 1005 * S);
	assert_true(start_at("+3", 1002 * S) == 1005 * S);
	assert_true(start_at("+3", 999 * S) == 1002 * S);
	assert_true(start_at("+2.5", 1000 * S) == 1002 * S + 500000000);
	assert_true(start_at("+43200", 1000 * S) == 86400 * S);
	/* two hosts reached 0.2 s apart across a second boundary: one instant
	 * (rounding now + 20 up to a second gave 1022 and 1023) */
	assert_true(start_at("+20", 1001 * S + 900000000) == 1040 * S);
	assert_true(start_at("+20", 1002 * S + 100000000) == 1040 * S);
	/* and the instant is never less than N seconds away */
	for (int64_t now = 1000 * S; now < 1041 * S; now += 333333333) {
		int64_t at = start_at("+20", now);
		assert_true(at - now >= 20 * S && at - now < 40 * S && at % (20 * S) == 0);
	}
}

static void test_start_at_utc(void **state)
{
	(void)state;
	const int64_t now = 1796040000LL * S;
	assert_true(start_at("2026-11-30T12:00:00Z", now) == 1796040000LL * S);
	assert_true(start_at("2026-11-30t12:00:00.5z", now) == 1796040000LL * S + 500000000);
	assert_true(start_at("2026-11-30T12:00:00.123456789Z", now) == 1796040000LL * S + 123456789);
}

static void test_start_at_errors(void **state)
{
	(void)state;
	const int64_t now = 1796040000LL * S;
	const char *forms = start_at_error("tomorrow", now);
	assert_non_null(strstr(forms, "+SECONDS"));
	assert_string_equal(start_at_error("", now), forms);
	assert_string_equal(start_at_error("+", now), forms);
	assert_string_equal(start_at_error("+x", now), forms);
	assert_string_equal(start_at_error("-5", now), forms);
	assert_string_equal(start_at_error("1.2.3", now), forms);
	assert_string_equal(start_at_error("1796040000.", now), forms);
	assert_string_equal(start_at_error("+3s", now), forms);
	assert_string_equal(start_at_error(" 1796040000", now), forms);
	assert_non_null(strstr(start_at_error("1.1234567891", now), "9 decimals"));
	assert_non_null(strstr(start_at_error("+86401", now), "24 hours"));
	assert_non_null(strstr(start_at_error("+43201", now), "24 hours"));
	assert_non_null(strstr(start_at_error("+0", now), "greater than 0"));
	assert_non_null(strstr(start_at_error("1796126401", now), "24 hours"));
	assert_non_null(strstr(start_at_error("2099-01-01T00:00:00Z", now), "24 hours"));
	assert_string_equal(start_at_error("253402300800", now), "too far in the future");
	assert_string_equal(start_at_error("9223372036", now), "too far in the future");
	assert_non_null(strstr(start_at_error("2026-11-30T12:00:00", now), "no time zone"));
	assert_non_null(strstr(start_at_error("2026-11-30T12:00:00+01:00", now), "UTC offset"));
	assert_non_null(strstr(start_at_error("2026-11-30T12:00:00-05:00", now), "UTC offset"));
}

/* ---- run id and launcher ----------------------------------------------- */

static const char *const *fake_env;

static const char *fake_getenv(const char *name)
{
	for (unsigned i = 0; fake_env && fake_env[i]; i += 2)
		if (strcmp(fake_env[i], name) == 0)
			return fake_env[i + 1];
	return NULL;
}

static const unsigned char rnd[8] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };

static const char *choose(char *buf, const char *given, bool start, int64_t at)
{
	return fleet_choose_run_id(buf, FLEET_RUN_ID_LEN, given, fake_getenv, start, at, rnd);
}

static void test_run_id_order(void **state)
{
	(void)state;
	char id[FLEET_RUN_ID_LEN];
	static const char *const all[] = { "DISKBENCH_RUN_ID", "k8s-uid", "SLURM_JOB_ID", "42",
					   "SLURM_STEP_ID", "0", NULL };
	static const char *const slurm_only[] = { "SLURM_JOB_ID", "42", "JOB_COMPLETION_INDEX", "3",
						  NULL };
	static const char *const empty[] = { "DISKBENCH_RUN_ID", "", "SLURM_JOB_ID", "", NULL };
	fake_env = all;
	assert_string_equal(choose(id, "mine", true, 5 * S), "option");
	assert_string_equal(id, "mine");
	assert_string_equal(choose(id, NULL, true, 5 * S), "env");
	assert_string_equal(id, "k8s-uid");
	fake_env = all + 2;
	assert_string_equal(choose(id, "", true, 5 * S), "slurm");
	assert_string_equal(id, "slurm-42.0");
	fake_env = slurm_only; /* JOB_COMPLETION_INDEX is per pod: it names no run */
	assert_string_equal(choose(id, NULL, false, 0), "slurm");
	assert_string_equal(id, "slurm-42");
	fake_env = empty; /* empty values count as absent */
	assert_string_equal(choose(id, NULL, true, 1796040000LL * S), "start-at");
	assert_string_equal(id, "at-1796040000");
	assert_string_equal(choose(id, NULL, true, 1796040000LL * S + 250000000), "start-at");
	assert_string_equal(id, "at-1796040000.25");
	assert_string_equal(choose(id, NULL, true, 7 * S + 1), "start-at");
	assert_string_equal(id, "at-7.000000001");
	assert_string_equal(choose(id, NULL, false, 0), "random");
	assert_string_equal(id, "0123456789abcdef");
	fake_env = NULL;
}

static void test_launcher_vars(void **state)
{
	(void)state;
	static const char *const env[] = { "PMI_RANK", "5", "SLURM_PROCID", "1", "SLURM_JOB_ID", "42",
					   "HOSTNAME", "pod-x", "JOB_COMPLETION_INDEX", "", NULL };
	struct fleet_record f;
	memset(&f, 0, sizeof(f));
	fake_env = env;
	fleet_read_launcher(&f, fake_getenv);
	fake_env = NULL;
	/* in the table's order; present means set, even when empty */
	assert_int_equal(f.nlauncher, 4);
	assert_string_equal(f.launcher[0].name, "SLURM_JOB_ID");
	assert_string_equal(f.launcher[0].value, "42");
	assert_string_equal(f.launcher[1].name, "SLURM_PROCID");
	assert_string_equal(f.launcher[2].name, "JOB_COMPLETION_INDEX");
	assert_string_equal(f.launcher[2].value, "");
	assert_string_equal(f.launcher[3].name, "PMI_RANK");
}

static void test_identify(void **state)
{
	(void)state;
	struct fleet_record f;
	struct fleet_ask ask = { .host_label = "node07", .start_wanted = true,
				 .start_at_ns = 1796040000LL * S };
	unsetenv("DISKBENCH_RUN_ID");
	unsetenv("SLURM_JOB_ID");
	fleet_identify(&f, &ask);
	assert_string_equal(f.host, "node07");
	assert_string_equal(f.run_id, "at-1796040000");
	assert_true(f.clock_synced >= -1 && f.clock_synced <= 1);
	ask = (struct fleet_ask){ 0 };
	fleet_identify(&f, &ask);
	assert_true(f.host[0] != '\0'); /* uname's nodename */
	assert_string_equal(f.run_id_source, "random");
	assert_int_equal(strspn(f.run_id, "0123456789abcdef"), 16);
	assert_int_equal(strlen(f.run_id), 16);
}

/* ---- the wait ---------------------------------------------------------- */

static void test_wait(void **state)
{
	(void)state;
	volatile sig_atomic_t stop = 0;
	struct fleet_record f;
	memset(&f, 0, sizeof(f));
	f.start_at_ns = fleet_now_ns() + 50000000; /* 50 ms ahead */
	assert_int_equal(fleet_wait(&f, &stop), 0);
	assert_true(fleet_now_ns() >= f.start_at_ns);
	assert_true(f.start_waited);
	assert_false(f.start_passed);
	assert_true(f.late_us >= 0 && f.late_us < 1000000);

	memset(&f, 0, sizeof(f));
	f.start_at_ns = fleet_now_ns() - 2 * S; /* passed: at once */
	assert_int_equal(fleet_wait(&f, &stop), 0);
	assert_true(f.start_passed);
	assert_true(f.late_us >= 2000000);

	memset(&f, 0, sizeof(f));
	f.start_at_ns = fleet_now_ns() + 3600 * S;
	stop = 1; /* a signal came: no wait, and no late_us to speak of */
	assert_int_equal(fleet_wait(&f, &stop), -1);
	assert_false(f.start_waited);
}

/* ---- rendering --------------------------------------------------------- */

/* (not inlined: gcc 12 takes the memstream's buffer for a dangling local) */
__attribute__((noinline)) static char *render(void (*fn)(struct json *, const void *),
					      const void *arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json j;
	assert_non_null(f);
	json_init(&j, f);
	json_object_begin(&j);
	fn(&j, arg);
	json_object_end(&j);
	fclose(f);
	return text;
}

static void fleet_keys(struct json *j, const void *arg)
{
	out_json_fleet(j, arg);
}

static void test_fleet_keys(void **state)
{
	(void)state;
	struct fleet_record f;
	memset(&f, 0, sizeof(f));
	snprintf(f.host, sizeof(f.host), "node\"1");
	snprintf(f.run_id, sizeof(f.run_id), "slurm-42.0");
	f.launcher[0] = (struct fleet_var){ "SLURM_JOB_ID", "42" };
	f.launcher[1] = (struct fleet_var){ "SLURM_PROCID", "1" };
	f.nlauncher = 2;
	f.clock_synced = -1;
	f.clock_maxerror_us = -1;
	char *text = render(fleet_keys, &f);
	assert_string_equal(text, "{\"host\": \"node\\\"1\", \"run_id\": \"slurm-42.0\", "
			    "\"started_at\": null, \"ended_at\": null, \"launcher\": "
			    "{\"SLURM_JOB_ID\": \"42\", \"SLURM_PROCID\": \"1\"}, \"clock\": "
			    "{\"synchronised\": null, \"maxerror_us\": null}, \"start_at\": null}");
	free(text);

	f.nlauncher = 0;
	f.clock_synced = 0;
	f.clock_maxerror_us = 16000000;
	f.start_wanted = true;
	f.start_at_ns = 1796040000LL * S + 500000000;
	f.timed = true;
	f.started_at_ns = 1796040000LL * S + 500155000;
	f.ended_at_ns = 1796040010LL * S + 500155999;
	text = render(fleet_keys, &f);
	assert_non_null(strstr(text, "\"started_at\": \"2026-11-30T12:00:00.500155Z\", "
				     "\"ended_at\": \"2026-11-30T12:00:10.500155Z\", "
				     "\"launcher\": {}, \"clock\": {\"synchronised\": false, "
				     "\"maxerror_us\": 16000000}"));
	/* the wait did not end at the instant (interrupted): no late_us */
	assert_non_null(strstr(text, "\"start_at\": {\"requested\": 1796040000.500000, "
				     "\"late_us\": null}"));
	free(text);
	f.start_waited = true;
	f.late_us = 155;
	text = render(fleet_keys, &f);
	assert_non_null(strstr(text, "\"late_us\": 155}"));
	free(text);
}

static void lat_buckets(struct json *j, const void *arg)
{
	out_json_lat_buckets(j, arg);
}

/* Reads "[i, c]" pairs of a rendered lat_buckets into s's buckets (adding). */
static void add_pairs(struct stats *s, const char *text)
{
	const char *p = strstr(text, "\"pairs\": [");
	unsigned last = 0;
	bool first = true;
	assert_non_null(p);
	p += strlen("\"pairs\": [");
	unsigned index;
	unsigned long long count;
	int used;
	while (sscanf(p, "[%u, %llu]%n", &index, &count, &used) == 2) {
		assert_true(index < STATS_NBUCKETS);
		assert_true(count > 0);            /* only non-empty buckets */
		assert_true(first || index > last); /* in increasing order */
		first = false;
		last = index;
		s->bucket[index] += count;
		s->count += count;
		p += used;
		if (strncmp(p, ", ", 2) == 0)
			p += 2;
	}
	assert_true(strncmp(p, "]}", 2) == 0);
}

static void test_lat_buckets(void **state)
{
	(void)state;
	struct stats *a = calloc(3, sizeof(*a)), *b = a + 1, *sum = a + 2;
	assert_non_null(a);
	stats_init(a);
	char *text = render(lat_buckets, a);
	assert_string_equal(text, "{\"lat_buckets\": {\"scheme\": \"log-linear-7\", \"pairs\": []}}");
	free(text);

	stats_add(a, 100);
	stats_add(a, 100);
	stats_add(a, 5000);
	text = render(lat_buckets, a);
	char want[160];
	snprintf(want, sizeof(want), "{\"lat_buckets\": {\"scheme\": \"log-linear-7\", \"pairs\": "
		 "[[%u, 2], [%u, 1]]}}", stats_bucket_index(100), stats_bucket_index(5000));
	assert_string_equal(text, want);
	free(text);

	/* two hosts: summing their pairs (with the fleet's min and max) gives
	 * the percentiles of the merged histogram, which are exact to the bucket */
	stats_init(a);
	stats_init(b);
	stats_init(sum);
	for (uint64_t v = 1; v < 200000; v += 37)
		stats_add(a, 20000 + v * 3);
	for (uint64_t v = 1; v < 90000; v += 11)
		stats_add(b, 90000 + v * v % 7000000);
	const struct stats *hosts[2] = { a, b };
	sum->min = UINT64_MAX;
	for (unsigned h = 0; h < 2; h++) {
		text = render(lat_buckets, hosts[h]);
		add_pairs(sum, text);
		free(text);
		sum->min = hosts[h]->min < sum->min ? hosts[h]->min : sum->min;
		sum->max = hosts[h]->max > sum->max ? hosts[h]->max : sum->max;
	}
	stats_merge(a, b);
	assert_true(sum->count == a->count);
	static const double qs[] = { 1, 50, 90, 99, 99.9, 99.99, 100 };
	for (unsigned i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		assert_true(stats_percentile(sum, qs[i]) == stats_percentile(a, qs[i]));
	free(a);
}

/* ---- bench.c's before_start hook --------------------------------------- */

struct hook_seen {
	unsigned calls;
	int rc;
	uint64_t at_ns;
};

static int hook(void *ctx)
{
	struct hook_seen *h = ctx;
	h->calls++;
	h->at_ns = clock_ns();
	return h->rc;
}

static void run_with_hook(struct hook_seen *h, struct bench_outcome *out)
{
	char path[] = "/tmp/diskbench-fleet-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	static char block[4096];
	for (int i = 0; i < 64; i++)
		assert_int_equal(write(fd, block, sizeof(block)), (ssize_t)sizeof(block));
	struct bench_job job = { .fd = fd, .dir = IO_READ, .pattern = PAT_RAND, .bs = 4096,
				 .region = 64 * 4096, .bytes_limit = 64 * 4096, .threads = 2,
				 .seed = 1, .qd = 1, .warmup_ios = 1, .before_start = hook,
				 .before_start_ctx = h };
	bench_run(&job, out, NULL);
	close(fd);
}

static void test_before_start_hook(void **state)
{
	(void)state;
	struct bench_outcome *out = malloc(sizeof(*out));
	struct hook_seen h = { 0 };
	assert_non_null(out);
	run_with_hook(&h, out);
	assert_int_equal(h.calls, 1);
	assert_false(out->stopped);
	assert_true(out->ios == 64);
	assert_true(out->t_start_ns >= h.at_ns); /* counting began after the hook */

	h = (struct hook_seen){ .rc = -1 };
	run_with_hook(&h, out);
	assert_int_equal(h.calls, 1);
	assert_true(out->stopped); /* as if a signal stopped it: nothing counted */
	assert_true(out->ios == 0);
	assert_true(out->t_start_ns == 0);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_start_at_epoch),
		cmocka_unit_test(test_start_at_relative),
		cmocka_unit_test(test_start_at_utc),
		cmocka_unit_test(test_start_at_errors),
		cmocka_unit_test(test_run_id_order),
		cmocka_unit_test(test_launcher_vars),
		cmocka_unit_test(test_identify),
		cmocka_unit_test(test_wait),
		cmocka_unit_test(test_fleet_keys),
		cmocka_unit_test(test_lat_buckets),
		cmocka_unit_test(test_before_start_hook),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
