/* A fit profile's directives (src/lib/fitspec.c, issue 41): requirements
 * with their source, limits in each unit (10ms is 1e7 ns, 1.5k is 1500,
 * 100MB/s is 1e8 B/s: the units the man page gives), job scoping, op sizes,
 * rank labels; every refusal with its line; and each profile shipped in
 * profiles/ read without error (so a typo in one fails here, not at a
 * user's). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fitspec.h"

static const char *const directives[] = { "about", "alias", "require", "report", "source",
					  "op", "rank", NULL };
static struct jobfile *jf;
static struct fit_spec *spec;
static char why[512];

static int setup(void **state)
{
	(void)state;
	jf = calloc(1, sizeof(*jf));
	spec = calloc(1, sizeof(*spec));
	return jf && spec ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(jf);
	free(spec);
	return 0;
}

static int read_profile(const char *text)
{
	struct jobfile_source src = { "p.fio", NULL, NULL, NULL, directives };
	why[0] = '\0';
	if (jobfile_parse(text, &src, jf, why, sizeof(why)) != 0)
		fail_msg("the job file itself: %s", why);
	return fit_spec_read(jf, spec, why, sizeof(why));
}

static void requirements(void **state)
{
	(void)state;
	assert_int_equal(read_profile("# diskbench-about: a test\n# diskbench-alias: other\n"
				      "# diskbench-source: the docs, section 2\n"
				      "# diskbench-require: sync.p99 < 10ms\n"
				      "# diskbench-require: write.iops >= 1.5k recommended\n"
				      "[a]\nrw=write\n# diskbench-source: the guide\n"
				      "# diskbench-require: write.bw >= 100MB/s\n"
				      "# diskbench-op: 2\n[b]\nrw=write\n"), 0);
	assert_string_equal(spec->about, "a test");
	assert_int_equal(spec->naliases, 1);
	assert_string_equal(spec->alias[0], "other");
	assert_int_equal(spec->nrequire, 3);
	const struct fit_line *l = &spec->require[0];
	assert_int_equal(l->metric, FM_SYNC_P99);
	assert_int_equal(l->op, FIT_LT);
	assert_true(l->limit == 10e6);
	assert_string_equal(l->limit_text, "10ms");
	assert_false(l->recommended);
	assert_int_equal(l->job, -1);
	assert_string_equal(l->source, "the docs, section 2");
	l = &spec->require[1];
	assert_true(l->metric == FM_WRITE_IOPS && l->op == FIT_GE && l->limit == 1500 &&
		    l->recommended);
	l = &spec->require[2];
	assert_true(l->metric == FM_WRITE_BW && l->limit == 100e6 && l->job == 0);
	assert_string_equal(l->source, "the guide");
	assert_int_equal(spec->writes_per_op[0], 2);
	assert_int_equal(spec->writes_per_op[1], 1);
}

static void reports_and_ranks(void **state)
{
	(void)state;
	assert_int_equal(read_profile("# diskbench-report: write.iops\n"
				      "# diskbench-rank: ops fastest wal_sync_method\n"
				      "# diskbench-rank: lat.p50\n[a]\n"), 0);
	assert_int_equal(spec->nreport, 1);
	assert_int_equal(spec->nrank, 2);
	assert_string_equal(spec->rank[0].label, "fastest wal_sync_method");
	assert_int_equal(spec->rank[0].metric, FM_OPS);
	assert_string_equal(spec->rank[1].label, "");
	assert_true(fit_metric_def(FM_OPS)->higher_better);
	assert_false(fit_metric_def(FM_LAT_P50)->higher_better);
}

static void limits(void **state)
{
	(void)state;
	double v;
	const char *reason;
	assert_int_equal(fit_parse_limit("500us", FIT_NS, &v, &reason), 0);
	assert_true(v == 500e3);
	assert_int_equal(fit_parse_limit("1.5s", FIT_NS, &v, &reason), 0);
	assert_true(v == 1.5e9);
	assert_int_equal(fit_parse_limit("10", FIT_NS, &v, &reason), -1); /* a time needs its unit */
	assert_int_equal(fit_parse_limit("2M", FIT_PER_SEC, &v, &reason), 0);
	assert_true(v == 2e6);
	assert_int_equal(fit_parse_limit("1GiB/s", FIT_BYTES_PER_SEC, &v, &reason), 0);
	assert_true(v == 1073741824.0);
	assert_int_equal(fit_parse_limit("100MB", FIT_BYTES_PER_SEC, &v, &reason), -1);
	assert_int_equal(fit_parse_limit("-5", FIT_PER_SEC, &v, &reason), -1);
	assert_int_equal(fit_parse_limit("5x", FIT_PER_SEC, &v, &reason), -1);
	assert_int_equal(fit_parse_limit("0x10", FIT_PER_SEC, &v, &reason), -1);
}

static void refused(const char *text, const char *words)
{
	if (read_profile(text) == 0)
		fail_msg("accepted: %s", text);
	if (!strstr(why, words))
		fail_msg("'%s': the message '%s' lacks '%s'", text, why, words);
}

static void refusals(void **state)
{
	(void)state;
	refused("# diskbench-require: sync.p99 < 10ms\n[a]\n", "p.fio:1: diskbench-require: a requirement needs its public source");
	refused("# diskbench-source: x\n# diskbench-require: sync.p98 < 10ms\n[a]\n", "p.fio:2:");
	refused("# diskbench-source: x\n# diskbench-require: sync.p99 =< 10ms\n[a]\n", "OP one of");
	refused("# diskbench-source: x\n# diskbench-require: sync.p99 < 10\n[a]\n", "its unit");
	refused("# diskbench-source: x\n# diskbench-require: iops > 5 maybe\n[a]\n", "recommended");
	refused("# diskbench-report: iops > 5\n[a]\n", "alone");
	refused("# diskbench-op: 2\n[a]\n", "in a job's section");
	refused("[a]\n# diskbench-op: 65\n", "1 to 64");
	refused("# diskbench-alias: two words\n[a]\n", "one name");
	refused("# diskbench-about: nothing to judge\n[a]\n", "not a profile");
}

/* Every profile shipped reads: the tests run from the top of the tree. */
static void shipped_profiles(void **state)
{
	(void)state;
	static const char *const names[] = { "etcd", "postgres", "ceph-journal", "oltp", "dss" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[64], text[8192];
		snprintf(path, sizeof(path), "profiles/%s.fio", names[i]);
		FILE *f = fopen(path, "r");
		if (!f)
			fail_msg("%s: cannot open", path);
		size_t n = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
		text[n] = '\0';
		if (read_profile(text) != 0)
			fail_msg("%s: %s", path, why);
		assert_true(spec->about[0] != '\0');
		for (unsigned k = 0; k < spec->nrequire; k++)
			assert_true(spec->require[k].source[0] != '\0');
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(requirements),
		cmocka_unit_test(reports_and_ranks),
		cmocka_unit_test(limits),
		cmocka_unit_test(refusals),
		cmocka_unit_test(shipped_profiles),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
