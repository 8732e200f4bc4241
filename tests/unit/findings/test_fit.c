/* fit's judgement (src/findings/fit.c, issue 41) on results whose figures
 * the test sets: 100 writes in 2 s with fdatasync times of 1..100 ms (p99
 * 99 ms, so "< 10ms" fails and "< 100ms" passes; 50 write IOPS), a job of
 * two writes per op (its ops/s half its write IOPS), the best of a ranking
 * by op size; a flush_fast finding undermines a PASS and never a FAIL, a
 * reached cgroup limit explains a FAIL and never a PASS; a recommended limit
 * missed is BELOW, not a failure; a limit the writes did not reach still
 * explains a FAIL of a job with sync calls (their flushes count too). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "finding.h"
#include "fit.h"

#define MS 1000000ull

static const char *const directives[] = { "about", "alias", "require", "report", "source",
					  "op", "rank", NULL };
static struct fit_report *rep;
static struct result *res[3];
static struct options opts[3];
static struct jobfile *jf;

static int setup(void **state)
{
	(void)state;
	rep = calloc(1, sizeof(*rep));
	jf = calloc(1, sizeof(*jf));
	for (int i = 0; i < 3; i++)
		res[i] = calloc(1, sizeof(*res[i]));
	return rep && jf && res[0] && res[1] && res[2] ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(rep);
	free(jf);
	for (int i = 0; i < 3; i++)
		free(res[i]);
	return 0;
}

/* job i: `writes` writes in 2 s, each followed by an fdatasync of 1..writes ms */
static void writes_job(int i, unsigned writes, bool syncs)
{
	struct result *r = res[i];
	memset(r, 0, sizeof(*r));
	memset(&opts[i], 0, sizeof(opts[i]));
	opts[i].sync_every = syncs ? 1 : 0;
	opts[i].sync_data = true;
	r->opt = &opts[i];
	r->dir = IO_WRITE;
	r->measured = true;
	r->seconds = 2;
	r->ios = writes;
	r->bytes = writes * 2300ull;
	stats_init(&r->lat);
	stats_init(&r->sync_lat);
	for (unsigned k = 1; k <= writes; k++) {
		stats_add(&r->lat, 20000);
		if (syncs)
			stats_add(&r->sync_lat, k * MS);
	}
	r->syncs = syncs ? writes : 0;
}

static void judge(const char *profile, unsigned n)
{
	const char *names[] = { "one", "two", "three" };
	const struct result *const results[] = { res[0], res[1], res[2] };
	char why[512];
	struct jobfile_source src = { "p.fio", NULL, NULL, NULL, directives };
	if (jobfile_parse(profile, &src, jf, why, sizeof(why)) != 0 ||
	    fit_spec_read(jf, &rep->spec, why, sizeof(why)) != 0)
		fail_msg("%s", why);
	snprintf(rep->profile, sizeof(rep->profile), "p");
	fit_judge(rep, results, names, n);
}

#define ETCD "# diskbench-source: FAQ, x\n# diskbench-require: sync.p99 < %s\n" \
	     "# diskbench-source: guide, y\n# diskbench-require: write.iops >= 50\n" \
	     "# diskbench-require: write.iops >= 500 recommended\n[one]\n"

static void values(void **state)
{
	(void)state;
	double v;
	writes_job(0, 100, true);
	assert_true(fit_value(res[0], 1, FM_SYNC_P99, &v));
	assert_true(v >= 99 * MS * 0.996 && v <= 99 * MS * 1.004);
	assert_true(fit_value(res[0], 1, FM_WRITE_IOPS, &v) && v == 50);
	assert_true(fit_value(res[0], 1, FM_SYNC_IOPS, &v) && v == 50);
	assert_true(fit_value(res[0], 2, FM_OPS, &v) && v == 25);
	assert_true(fit_value(res[0], 2, FM_USECS_PER_OP, &v) && v == 40e6);
	assert_true(fit_value(res[0], 1, FM_WRITE_BW, &v) && v == 115000);
	assert_false(fit_value(res[0], 1, FM_READ_IOPS, &v)); /* it did not read */
	writes_job(1, 100, false);
	assert_false(fit_value(res[1], 1, FM_SYNC_P99, &v)); /* no syncs */
	char label[48];
	fit_label(label, sizeof(label), res[0], FM_SYNC_P99);
	assert_string_equal(label, "fdatasync p99");
	opts[0].sync_data = false;
	fit_label(label, sizeof(label), res[0], FM_SYNC_P99);
	assert_string_equal(label, "fsync p99");
}

static void pass_fail_below(void **state)
{
	(void)state;
	char profile[512];
	writes_job(0, 100, true);
	snprintf(profile, sizeof(profile), ETCD, "10ms");
	judge(profile, 1);
	assert_int_equal(rep->nrows, 3);
	assert_int_equal(rep->rows[0].status, FIT_FAIL);
	assert_int_equal(rep->rows[1].status, FIT_PASS);
	assert_int_equal(rep->rows[2].status, FIT_BELOW);
	assert_false(rep->pass);
	assert_non_null(strstr(rep->verdict, "p: not fit: fdatasync p99 "));
	assert_non_null(strstr(rep->verdict, "not < 10ms (FAQ)"));
	assert_non_null(strstr(rep->verdict, "write IOPS 50.0 >= 50 (guide)"));
	assert_non_null(strstr(rep->verdict, "below the recommended >= 500"));
	snprintf(profile, sizeof(profile), ETCD, "100ms");
	judge(profile, 1);
	assert_true(rep->pass); /* a recommended limit missed is no failure */
	assert_non_null(strstr(rep->verdict, "p: fit: "));
	assert_non_null(strstr(rep->advice, "recommended"));
	/* a figure the job does not have fails, said as such */
	writes_job(0, 100, false);
	judge(profile, 1);
	assert_int_equal(rep->rows[0].status, FIT_UNKNOWN);
	assert_false(rep->pass);
	assert_non_null(strstr(rep->verdict, "not measured"));
}

static void findings_beside(void **state)
{
	(void)state;
	char profile[512];
	snprintf(profile, sizeof(profile), ETCD, "100ms");
	writes_job(0, 100, true);
	struct finding *f = finding_add(res[0], "flush_fast");
	finding_figure(f, "median_ns", 40000, 0);
	judge(profile, 1);
	assert_true(rep->pass && rep->undermined);
	assert_non_null(strstr(rep->rows[0].note, "undermined: flushes returned in 40.0 us"));
	assert_non_null(strstr(rep->verdict, "fit, undermined"));
	assert_non_null(strstr(rep->advice, "power-loss protection"));
	/* a FAIL is not undermined by it; the PASS beside it is */
	snprintf(profile, sizeof(profile), ETCD, "10ms");
	judge(profile, 1);
	assert_int_equal(rep->rows[0].status, FIT_FAIL);
	assert_string_equal(rep->rows[0].note, "");
	assert_non_null(strstr(rep->rows[1].note, "undermined"));
	assert_non_null(strstr(rep->verdict, "p: not fit: "));
	/* a cgroup limit reached explains the FAIL, and says nothing of a PASS */
	writes_job(0, 100, true);
	f = finding_add(res[0], "cgroup_limit");
	finding_figure(f, "iops", 20, 0);
	finding_figure(f, "major", 7, 0);
	finding_figure(f, "minor", 3, 0);
	finding_figure(f, "reached", 0.99, 3);
	judge(profile, 1);
	assert_non_null(strstr(rep->rows[0].note, "explained: a cgroup limit of 20 IOPS on 7:3"));
	assert_string_equal(rep->rows[1].note, "");
	assert_non_null(strstr(rep->advice, "measure outside"));
	/* one the writes' own count did not reach: it still applies to a job
	 * whose sync calls' flushes count against it too, and says so ... */
	writes_job(0, 100, true);
	f = finding_add(res[0], "cgroup_limit");
	finding_figure(f, "iops", 2000, 0);
	finding_figure(f, "reached", 0.1, 3);
	judge(profile, 1);
	assert_non_null(strstr(rep->rows[0].note, "2000 IOPS on 0:0 applies, and each sync call's"));
	/* ... and says nothing of a job without sync calls */
	writes_job(0, 100, false);
	f = finding_add(res[0], "cgroup_limit");
	finding_figure(f, "iops", 2000, 0);
	finding_figure(f, "reached", 0.1, 3);
	judge("# diskbench-source: guide, y\n# diskbench-require: write.iops >= 500\n[one]\n", 1);
	assert_int_equal(rep->rows[0].status, FIT_FAIL);
	assert_string_equal(rep->rows[0].note, "");
}

static void ranks_by_op_size(void **state)
{
	(void)state;
	writes_job(0, 100, true); /* 50 ops/s */
	writes_job(1, 160, true); /* 80 writes/s, 2 per op: 40 ops/s */
	writes_job(2, 120, true); /* 60 writes/s, 2 per op: 30 ops/s */
	judge("# diskbench-rank: ops fastest method\n# diskbench-report: write.iops\n[one]\n"
	      "[two]\n# diskbench-op: 2\n[three]\n# diskbench-op: 2\n", 3);
	assert_int_equal(rep->nrows, 0);
	assert_true(rep->pass); /* nothing required: nothing failed */
	assert_int_equal(rep->nbest, 2);
	assert_true(rep->best[0].writes_per_op == 1 && rep->best[0].job == 0);
	assert_true(rep->best[1].writes_per_op == 2 && rep->best[1].job == 1 &&
		    rep->best[1].value == 40);
	assert_non_null(strstr(rep->verdict, "fastest method: one write: one (50.0 ops/s, 20.0 ms/op)"));
	assert_non_null(strstr(rep->verdict, "2 writes: two (40.0 ops/s, 25.0 ms/op)"));
	assert_non_null(strstr(rep->verdict, "one: write IOPS 50.0"));
	/* a lower-is-better metric ranks the lowest */
	judge("# diskbench-rank: sync.p50\n[one]\n[two]\n[three]\n", 3);
	assert_int_equal(rep->best[0].job, 0); /* 1..100 ms: p50 50 ms, the least */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(values),
		cmocka_unit_test(pass_fail_below),
		cmocka_unit_test(findings_beside),
		cmocka_unit_test(ranks_by_op_size),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
