/* diskbench's own ceiling (src/run/ceiling.c): measured after a CPU-bound
 * closed-loop io_uring run that asked for it, in about CEILING_RUN_S of
 * NOPs that reach no file; left at 0 for every other run (the negative
 * cases: not asked, not CPU-bound, another engine, an open loop). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ceiling.h"
#include "clock.h"
#include "engine.h"

struct fx {
	char path[64];
	int fd;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	snprintf(f->path, sizeof(f->path), "/tmp/diskbench-ceiling-XXXXXX");
	f->fd = mkstemp(f->path);
	if (f->fd < 0 || ftruncate(f->fd, 1 << 20) != 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	close(f->fd);
	unlink(f->path);
	free(f);
	return 0;
}

static struct bench_job nop_job(int fd)
{
	struct bench_job job;
	memset(&job, 0, sizeof(job));
	job.fd = fd;
	job.dir = IO_READ;
	job.pattern = PAT_RAND;
	job.bs = 4096;
	job.region = 1 << 20;
	job.bytes_limit = 1 << 20;
	job.threads = 1;
	job.qd = 8;
	job.seed = 3;
	job.engine = &engine_uring;
	job.ceiling_check = true;
	return job;
}

/* The busy run that earns a ceiling: 1000 I/Os in 1 s, its thread on the
 * CPU 95 % of it. */
static struct result busy_result(void)
{
	struct result r;
	memset(&r, 0, sizeof(r));
	r.ios = 1000;
	r.seconds = 1;
	r.cpu_busiest = 0.95;
	return r;
}

static bool uring_runs(void)
{
	char why[256];
	return engine_uring.probe(why, sizeof(why)) == 0;
}

static void test_measured_when_cpu_bound(void **state)
{
	struct fx *f = *state;
	if (!uring_runs())
		skip();
	struct bench_job job = nop_job(f->fd);
	struct result r = busy_result();
	struct stat before, after;
	assert_int_equal(fstat(f->fd, &before), 0);
	uint64_t t0 = clock_ns();
	run_tool_ceiling(&job, &r);
	double took = (double)(clock_ns() - t0) / 1e9;
	assert_int_equal(fstat(f->fd, &after), 0);
	/* NOPs: the loop's own cost, far above any 1000 IOPS, in about the time said */
	assert_true(r.tool_ceiling_iops > 10000);
	assert_true(took >= CEILING_RUN_S * 0.9 && took < CEILING_RUN_S + 1.0);
	assert_int_equal(after.st_size, before.st_size);
	assert_int_equal(after.st_blocks, before.st_blocks); /* nothing reached the file */
}

static void test_left_at_zero_otherwise(void **state)
{
	struct fx *f = *state;
	struct result r;
	struct bench_job job = nop_job(f->fd);
	job.ceiling_check = false; /* a sweep's point, a steady round */
	r = busy_result();
	r.tool_ceiling_iops = 123;
	run_tool_ceiling(&job, &r);
	assert_true(r.tool_ceiling_iops == 0);

	job = nop_job(f->fd);
	r = busy_result();
	r.cpu_busiest = 0.5; /* the device set the pace */
	run_tool_ceiling(&job, &r);
	assert_true(r.tool_ceiling_iops == 0);

	job = nop_job(f->fd);
	job.engine = &engine_aio; /* NOPs are io_uring's: no ceiling for another engine */
	r = busy_result();
	run_tool_ceiling(&job, &r);
	assert_true(r.tool_ceiling_iops == 0);

	job = nop_job(f->fd);
	job.rate = 1000; /* an open loop is paced, not CPU-bound by the tool */
	r = busy_result();
	run_tool_ceiling(&job, &r);
	assert_true(r.tool_ceiling_iops == 0);

	job = nop_job(f->fd);
	r = busy_result();
	r.interrupted = true;
	run_tool_ceiling(&job, &r);
	assert_true(r.tool_ceiling_iops == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_measured_when_cpu_bound, setup, teardown),
		cmocka_unit_test_setup_teardown(test_left_at_zero_otherwise, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
