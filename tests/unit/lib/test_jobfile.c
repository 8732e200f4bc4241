/* fio job files (src/lib/jobfile.c, jobfile_keys.c): seed 004's file and
 * fio's syntax (sections, [global] above a job, comments, includes,
 * ${NAME}), values read as fio reads them, every refusal naming its line
 * and what to write, and the diskbench- directives kept with their job.
 * The expected values are fio's documentation's and what `fio --parse-only`
 * and a run of fio 3.33 showed (8ki = 8192, 8KiB = 8000, bare direct
 * refused), never the parser's own output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "jobfile.h"

static const char *const fit_directives[] = { "require", "source", "op", "rank", NULL };

static struct jobfile *jf;
static char why[512];

static int setup(void **state)
{
	(void)state;
	jf = calloc(1, sizeof(*jf));
	return jf ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(jf);
	return 0;
}

/* Included files: "glob.fio" and "nested.fio" (which includes glob.fio),
 * "section.fio" holds a section, "loop.fio" includes itself. */
static char *include_text(void *ctx, const char *from, const char *name, char *err, size_t len)
{
	(void)ctx;
	(void)from;
	const char *text = strcmp(name, "glob.fio") == 0	 ? "iodepth=8\n; a comment\nbs=8k\n"
			   : strcmp(name, "nested.fio") == 0 ? "include glob.fio\nnumjobs=2\n"
			   : strcmp(name, "section.fio") == 0 ? "[sneaky]\nrw=write\n"
			   : strcmp(name, "loop.fio") == 0  ? "include loop.fio\n" : NULL;
	if (!text) {
		snprintf(err, len, "No such file or directory");
		return NULL;
	}
	char *copy = malloc(strlen(text) + 1);
	return copy ? strcpy(copy, text) : NULL;
}

static const char *lookup_env(void *ctx, const char *name)
{
	(void)ctx;
	return strcmp(name, "DIR") == 0 ? "/srv/data" : strcmp(name, "SIZE") == 0 ? "64m" : NULL;
}

static const struct jobfile_source source = { "t.fio", include_text, lookup_env, NULL,
					       fit_directives };

static int parse(const char *text)
{
	why[0] = '\0';
	return jobfile_parse(text, &source, jf, why, sizeof(why));
}

/* text is refused, and the message holds each of the words given */
static void refused(const char *text, ...)
{
	va_list ap;
	if (parse(text) == 0)
		fail_msg("accepted: %s", text);
	va_start(ap, text);
	for (const char *w = va_arg(ap, const char *); w; w = va_arg(ap, const char *))
		if (!strstr(why, w))
			fail_msg("'%s': the message '%s' lacks '%s'", text, why, w);
	va_end(ap);
}

static void seed_004_parses(void **state)
{
	(void)state;
	char text[4096] = "";
	FILE *f = fopen("tests/cli/jobs/seed-004.fio", "r");
	assert_non_null(f);
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	assert_int_equal(parse(text), 0);
	assert_int_equal(jf->njobs, 1);
	const struct jobfile_job *j = &jf->jobs[0];
	assert_string_equal(j->name, "randwrite-2m");
	assert_int_equal(j->at.line, 15);
	assert_int_equal(j->p.ioengine, JF_LIBAIO);
	assert_int_equal(j->p.iodepth, 32);
	assert_int_equal(j->p.numjobs, 4);
	assert_true(j->p.time_based);
	assert_int_equal(j->p.runtime_us, 120000000);
	assert_int_equal(j->p.rw, JF_RANDWRITE);
	assert_int_equal(j->p.bs, 2 << 20);
	assert_int_equal(j->p.size, 16 << 20);
	assert_true(j->p.group_reporting);
	assert_false(j->p.direct); /* fio's default */
	assert_int_equal(j->p.where[JK_IODEPTH].line, 6);
	assert_true(j->p.given & JOBFILE_GIVEN(JK_NUMJOBS));
	assert_false(j->p.given & JOBFILE_GIVEN(JK_DIRECT));
}

static void defaults_are_fios(void **state)
{
	(void)state;
	assert_int_equal(parse("[j]\n"), 0);
	const struct jobfile_params *p = &jf->jobs[0].p;
	assert_int_equal(p->rw, JF_READ);
	assert_int_equal(p->bs, 4096);
	assert_int_equal(p->iodepth, 1);
	assert_int_equal(p->numjobs, 1);
	assert_int_equal(p->ioengine, JF_PSYNC);
	assert_int_equal(p->rwmixread, 50);
	assert_true(p->randrepeat);
	assert_int_equal(p->size, 0);
	assert_int_equal(p->given, 0);
	assert_false(p->verify);
	assert_true(p->do_verify); /* fio's default: a verify phase when verify= is set */
	assert_int_equal(p->verify_backlog, 0);
}

/* verify= as fio reads it: crc32c and its synonym crc32c-intel are
 * diskbench's check; 0 is none; the keys beside it. */
static void verify_keys(void **state)
{
	(void)state;
	assert_int_equal(parse("[global]\nverify=crc32c\n[a]\n[b]\nverify=0\n[c]\nverify=crc32c-intel\n"
			       "do_verify=0\nverify_fatal=1\nverify_backlog=16\n"), 0);
	assert_true(jf->jobs[0].p.verify);
	assert_true(jf->jobs[0].p.given & JOBFILE_GIVEN(JK_VERIFY));
	assert_false(jf->jobs[1].p.verify);
	const struct jobfile_params *c = &jf->jobs[2].p;
	assert_true(c->verify);
	assert_false(c->do_verify);
	assert_true(c->verify_fatal);
	assert_int_equal(c->verify_backlog, 16);
	assert_int_equal(c->where[JK_VERIFY_BACKLOG].line, 10);
}

static void syntax(void **state)
{
	(void)state;
	/* comments from ';' or '#' to the end of a line, blanks around '=',
	 * CRLF, a job named by name= */
	assert_int_equal(parse("# head\r\n  [global]  \r\nioengine = libaio ; trailing\r\n"
			       "bs=4k#no space\r\n[a]\r\nname=renamed\r\nrw=randwrite\r\n"), 0);
	assert_int_equal(jf->njobs, 1);
	assert_string_equal(jf->jobs[0].name, "renamed");
	assert_int_equal(jf->jobs[0].p.ioengine, JF_LIBAIO);
	assert_int_equal(jf->jobs[0].p.bs, 4096);
	/* a [global] affects only the jobs below it; a job's own key wins */
	assert_int_equal(parse("[global]\nbs=8k\n[one]\nbs=16k\n[two]\n[global]\nbs=64k\n"
			       "iodepth=4\n[three]\n"), 0);
	assert_int_equal(jf->njobs, 3);
	assert_int_equal(jf->jobs[0].p.bs, 16384);
	assert_int_equal(jf->jobs[1].p.bs, 8192);
	assert_int_equal(jf->jobs[1].p.iodepth, 1);
	assert_int_equal(jf->jobs[2].p.bs, 65536);
	assert_int_equal(jf->jobs[2].p.iodepth, 4);
	/* [Global] is a job (fio compares exactly), and names may repeat */
	assert_int_equal(parse("[Global]\n[x]\n[x]\n"), 0);
	assert_int_equal(jf->njobs, 3);
	/* bare flags, and flags set to 0 */
	assert_int_equal(parse("[j]\ntime_based\ngroup_reporting=0\nstonewall\nnorandommap\n"
			       "wait_for_previous=0\nthread\n"), 0);
	assert_true(jf->jobs[0].p.time_based);
	assert_false(jf->jobs[0].p.group_reporting);
	assert_false(jf->jobs[0].p.stonewall); /* wait_for_previous is stonewall */
	assert_true(jf->jobs[0].p.norandommap);
}

static void values(void **state)
{
	(void)state;
	assert_int_equal(parse("[j]\nbs=2300\nsize=22m\nruntime=500ms\nramp_time=2m\n"
			       "rwmixwrite=30\nrw=readwrite\nfdatasync=1\nsync=dsync\n"
			       "rate_iops=500\nrate_process=poisson\nrandseed=0x10\nblocksize=2300\n"), 0);
	const struct jobfile_params *p = &jf->jobs[0].p;
	assert_int_equal(p->bs, 2300);
	assert_int_equal(p->size, 22u << 20);
	assert_int_equal(p->runtime_us, 500000);
	assert_int_equal(p->ramp_time_us, 120000000);
	assert_int_equal(p->rwmixread, 70);
	assert_int_equal(p->rw, JF_RW);
	assert_int_equal(p->fdatasync, 1);
	assert_int_equal(p->sync, JF_OSYNC_DSYNC);
	assert_int_equal(p->rate_iops, 500);
	assert_int_equal(p->rate_process, JF_RATE_POISSON);
	assert_int_equal(p->randseed, 16);
	uint64_t v = 0;
	const char *reason;
	/* fio 3.33 with its default kb_base=1024: k, kb and ki are 1024 */
	assert_int_equal(jobfile_parse_size("8ki", &v, &reason), -1); /* refused: see below */
	assert_int_equal(jobfile_parse_size("3kb", &v, &reason), 0);
	assert_int_equal(v, 3072);
	assert_int_equal(jobfile_parse_size("1G", &v, &reason), 0);
	assert_int_equal(v, 1u << 30);
	assert_int_equal(jobfile_parse_size("0x1000", &v, &reason), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(jobfile_parse_time_us("1h", &v, &reason), 0);
	assert_int_equal(v, 3600000000ull);
	assert_int_equal(jobfile_parse_time_us("90S", &v, &reason), 0);
	assert_int_equal(v, 90000000);
	assert_int_equal(jobfile_parse_time_us("250usec", &v, &reason), 0);
	assert_int_equal(v, 250);
	assert_int_equal(jobfile_parse_time_us("5x", &v, &reason), -1);
	assert_int_equal(jobfile_parse_size("99999999999999999999", &v, &reason), -1);
	assert_int_equal(jobfile_parse_size("17179869184p", &v, &reason), -1);
}

static void refuses_with_line_and_remedy(void **state)
{
	(void)state;
	refused("[j]\nrw=write\niodepht=4\n", "t.fio:3:", "'iodepht'", "did you mean 'iodepth'", NULL);
	refused("[j]\nfilesize=1g\n", "t.fio:2:", "'filesize'", "size=", NULL);
	refused("[j]\nuserspace_reap=1\n", "'userspace_reap'", "--reap=ring", NULL);
	refused("[j]\nverify=md5\n", "t.fio:2:", "verify=md5", "verify=crc32c", NULL);
	refused("[j]\nverify=meta\n", "verify=crc32c", NULL);
	refused("[j]\nverify_pattern=0xff\n", "'verify_pattern'", "verify=crc32c", NULL);
	refused("[j]\nverify_only\n", "'verify_only'", "diskbench verify", NULL);
	refused("[j]\nverify_fatal=yes\n", "0 or 1", NULL);
	refused("[j]\nverify_backlog=-1\n", "negative", NULL);
	refused("[j]\nwibble=1\n", "'wibble'", "JOB FILES", NULL);
	refused("rw=write\n[j]\n", "t.fio:1:", "outside any section", NULL);
	refused("; nothing\n[global]\nbs=4k\n", "no job", NULL);
	refused("[j]\ndirect=true\n", "t.fio:2:", "direct=true", "0 or 1", NULL);
	refused("[j]\ndirect\n", "direct", "needs a value", NULL);
	refused("[j]\nbs=8KiB\n", "8000 bytes", "8k", NULL);
	refused("[j]\nsize=1.5g\n", "whole number", NULL);
	refused("[j]\nsize=50%\n", "give bytes", NULL);
	refused("[j]\nbs=4k,8k\n", "one bs=", NULL);
	refused("[j]\nbs=4k-8k\n", "range", NULL);
	refused("[j]\nbs=0\n", "greater than 0", NULL);
	refused("[j]\nbs=2g\n", "at most 1g", NULL);
	refused("[j]\nrw=randwrite:8\n", "offset modifiers", NULL);
	refused("[j]\nrw=randtrim\n", "diskbench trim", NULL);
	refused("[j]\nrw=sideways\n", "randrw", NULL);
	refused("[j]\nioengine=posixaio\n", "sync, psync, libaio and io_uring", NULL);
	refused("[j]\nsync=maybe\n", "dsync", NULL);
	refused("[j]\nrwmixread=101\n", "too large", NULL);
	refused("[j]\niodepth=0\n", "at least 1", NULL);
	refused("[j]\nnumjobs=2000\n", "too large", NULL);
	refused("[j]\nrate_iops=100,200\n", "one rate", NULL);
	refused("[j]\nrate_process=bursty\n", "linear or poisson", NULL);
	refused("[j]\nfilename=a:b\n", "several files", NULL);
	refused("[j]\nsize=8*$mb_memory\n", "$mb_memory", NULL);
	refused("[j]\nsize=(1+2)\n", "arithmetic", NULL);
	refused("[j\n", "[NAME]", NULL);
	refused("[]\n", "needs a name", NULL);
	refused("[global]\nname=x\n[j]\n", "t.fio:2:", "job's section", NULL);
	refused("[j]\n=5\n", "key is missing", NULL);
	refused("[j]\nsize=\n", "size=", NULL);
	refused("[j]\ntime_based=2\n", "0 or 1", NULL);
}

static void limits(void **state)
{
	(void)state;
	size_t n = JOBFILE_MAX_LINE + 10;
	char *text = malloc(n + 8);
	assert_non_null(text);
	memcpy(text, "[j]\n", 4);
	memset(text + 4, 'a', n);
	text[n + 4] = '\0';
	refused(text, "t.fio:2:", "longer than", NULL);
	/* one job more than the most */
	char *many = malloc(8 * (JOBFILE_MAX_JOBS + 2));
	assert_non_null(many);
	many[0] = '\0';
	for (int i = 0; i <= JOBFILE_MAX_JOBS; i++)
		strcat(many, "[j]\n");
	refused(many, "more than 64 jobs", NULL);
	free(many);
	free(text);
}

static void includes_and_environment(void **state)
{
	(void)state;
	assert_int_equal(parse("[global]\ninclude glob.fio\n[j]\ninclude nested.fio\n"
			       "directory=${DIR}/sub\nsize=${SIZE}\n"), 0);
	const struct jobfile_params *p = &jf->jobs[0].p;
	assert_int_equal(p->iodepth, 8);
	assert_int_equal(p->bs, 8192);
	assert_int_equal(p->numjobs, 2);
	assert_string_equal(p->directory, "/srv/data/sub");
	assert_int_equal(p->size, 64u << 20);
	/* where a key from an included file was set: that file and its line */
	char at[128];
	jobfile_where(jf, p->where[JK_NUMJOBS], at, sizeof(at));
	assert_string_equal(at, "nested.fio:2");
	jobfile_where(jf, p->where[JK_IODEPTH], at, sizeof(at));
	assert_string_equal(at, "glob.fio:1");
	refused("[j]\ninclude section.fio\n", "section.fio:1:", "may not hold", NULL);
	refused("[j]\ninclude missing.fio\n", "t.fio:2:", "missing.fio", "No such file", NULL);
	refused("[j]\ninclude loop.fio\n", "nest more than", NULL);
	refused("[j]\nfilename=${HOME_OF_NOBODY}/x\n", "${HOME_OF_NOBODY} is not set", NULL);
	refused("[j]\nfilename=${DIR\n", "'${'", NULL);
	/* a caller without the callbacks refuses both */
	struct jobfile_source bare = { "b.fio", NULL, NULL, NULL, NULL };
	assert_int_equal(jobfile_parse("[j]\ninclude glob.fio\n", &bare, jf, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "b.fio:2: include is not supported"));
	assert_int_equal(jobfile_parse("[j]\nfilename=${DIR}\n", &bare, jf, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not expanded"));
}

static void directives(void **state)
{
	(void)state;
	assert_int_equal(parse("# diskbench-source: etcd docs\n[global]\n"
			       "#   diskbench-require:   sync.p99 <= 10ms  \n# plain comment\n"
			       "[a]\n; diskbench-op: 2\n[b]\n"), 0);
	assert_int_equal(jf->ndirs, 3);
	assert_string_equal(jf->dirs[0].key, "source");
	assert_string_equal(jf->dirs[0].value, "etcd docs");
	assert_int_equal(jf->dirs[0].job, -1);
	assert_string_equal(jf->dirs[1].key, "require");
	assert_string_equal(jf->dirs[1].value, "sync.p99 <= 10ms");
	assert_int_equal(jf->dirs[1].at.line, 3);
	assert_int_equal(jf->dirs[1].job, -1);
	assert_string_equal(jf->dirs[2].key, "op");
	assert_int_equal(jf->dirs[2].job, 0);
	refused("# diskbench-requires: x\n[j]\n", "t.fio:1:", "diskbench-requires", NULL);
	refused("# diskbench-require\n[j]\n", "colon", NULL);
	refused("# diskbench-require:\n[j]\n", "needs a value", NULL);
	/* a caller that reads none refuses every one */
	struct jobfile_source none = source;
	none.directives = NULL;
	assert_int_equal(jobfile_parse("# diskbench-source: x\n[j]\n", &none, jf, why, sizeof(why)), -1);
}

static void predicates(void **state)
{
	(void)state;
	struct jobfile_params p;
	jobfile_defaults(&p);
	assert_true(jobfile_reads(&p) && !jobfile_writes(&p) && !jobfile_random(&p));
	p.rw = JF_RANDRW;
	p.rwmixread = 100;
	assert_true(jobfile_reads(&p) && !jobfile_writes(&p) && jobfile_random(&p));
	p.rwmixread = 0;
	assert_true(!jobfile_reads(&p) && jobfile_writes(&p));
	assert_string_equal(jobfile_rw_name(JF_RANDRW), "randrw");
	assert_string_equal(jobfile_engine_name(JF_IO_URING), "io_uring");
	assert_string_equal(jobfile_key_name(JK_FDATASYNC), "fdatasync");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(seed_004_parses),
		cmocka_unit_test(defaults_are_fios),
		cmocka_unit_test(syntax),
		cmocka_unit_test(values),
		cmocka_unit_test(verify_keys),
		cmocka_unit_test(refuses_with_line_and_remedy),
		cmocka_unit_test(limits),
		cmocka_unit_test(includes_and_environment),
		cmocka_unit_test(directives),
		cmocka_unit_test(predicates),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
