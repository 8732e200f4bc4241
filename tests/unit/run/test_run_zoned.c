/* LDFLAGS: -Wl,--wrap=plat_zone_geometry -Wl,--wrap=plat_zone_report -Wl,--wrap=plat_zone_reset */
/* How a run treats a zoned device before any I/O (src/run/run_zoned.c,
 * issue 44), against a fake device (the platform's zone calls wrapped) that
 * counts its reports and resets: --engine=nop prepares and resets no zone;
 * an open loop of writes (sla's steps) is refused by run_zoned_refuse
 * without a report or a reset, so sla can ask it before its closed-loop
 * probe writes; and the controls: a closed-loop write test empties the
 * part-written zone, an open loop of reads is not refused. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>

#include "util.h" /* before cmocka.h, whose fail() is a macro */

#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

#define MIB (1024ull * 1024)
#define NZ 4

static unsigned reports, resets;

int __wrap_plat_zone_geometry(int fd, uint32_t *nr_zones, uint64_t *zone_bytes);
int __wrap_plat_zone_report(int fd, uint64_t from, struct plat_zone *out, unsigned max);
int __wrap_plat_zone_reset(int fd, uint64_t start, uint64_t len);

int __wrap_plat_zone_geometry(int fd, uint32_t *nr_zones, uint64_t *zone_bytes)
{
	(void)fd;
	*nr_zones = NZ;
	*zone_bytes = MIB;
	return 0;
}

/* Four empty 1 MiB zones, the second written 256 KiB into. */
int __wrap_plat_zone_report(int fd, uint64_t from, struct plat_zone *out, unsigned max)
{
	(void)fd, (void)from;
	reports++;
	unsigned n = max < NZ ? max : NZ;
	for (unsigned i = 0; i < n; i++)
		out[i] = (struct plat_zone){ .start = i * MIB, .len = MIB, .cap = MIB, .wp = i * MIB,
					     .cond = ZONE_COND_EMPTY };
	if (n > 1) {
		out[1].wp = MIB + 256 * 1024;
		out[1].cond = ZONE_COND_OPEN;
	}
	return (int)n;
}

int __wrap_plat_zone_reset(int fd, uint64_t start, uint64_t len)
{
	(void)fd, (void)start, (void)len;
	resets++;
	return 0;
}

static char path[64];
static struct target t;
static struct options opt;
static struct result r;

/* A "block device" (a temporary file the wrapped calls take for one), and a
 * 4 MiB job of 64 KiB writes. */
static int setup(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "/tmp/diskbench-run-zoned.XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	memset(&t, 0, sizeof(t));
	t.kind = TARGET_BLOCKDEV;
	t.fd = fd;
	snprintf(t.path, sizeof(t.path), "%s", path);
	opt = (struct options){ .bs = 64 * 1024, .size = NZ * MIB, .threads = 1, .qd = 1,
				.engine = "uring", .direct = true };
	memset(&r, 0, sizeof(r));
	r.opt = &opt;
	r.region = NZ * MIB;
	reports = resets = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	close(t.fd);
	unlink(path);
	result_release(&r);
	return 0;
}

static void job_of(struct bench_job *job, enum io_dir dir, double rate)
{
	run_describe_job(job, dir, PAT_RAND, &opt, r.region);
	job->rate = rate;
	job->fd = t.fd;
}

/* The control: a closed-loop write test reads the zones and empties the
 * part-written one before the run. */
static void test_write_empties_part_written(void **state)
{
	(void)state;
	struct bench_job job;
	job_of(&job, IO_WRITE, 0);
	assert_int_equal(run_zoned_prepare(&t, &job, &opt, &r), EXIT_OK);
	assert_non_null(job.zones);
	assert_int_equal(reports, 1);
	assert_int_equal(resets, 1);
	run_zoned_finish(&job, NULL, &r);
}

/* --engine=nop: no zone read, prepared or reset, nothing into the job. */
static void test_nop_prepares_no_zone(void **state)
{
	(void)state;
	struct bench_job job;
	opt.engine = "nop";
	t.no_data = opt_moves_no_data(&opt);
	job_of(&job, IO_WRITE, 0);
	assert_int_equal(run_zoned_prepare(&t, &job, &opt, &r), EXIT_OK);
	assert_null(job.zones);
	assert_null(r.zoned);
	assert_int_equal(reports + resets, 0);
	assert_int_equal(run_zoned_refuse(&t, &job, &opt, &r), EXIT_OK);
}

/* sla's steps (an open loop of writes): refused with the reason before any
 * zone is read or reset, as sla asks before its probe. */
static void test_open_loop_writes_refused_first(void **state)
{
	(void)state;
	struct bench_job job;
	job_of(&job, IO_WRITE, 1.0);
	assert_int_equal(run_zoned_refuse(&t, &job, &opt, &r), EXIT_USAGE);
	assert_non_null(strstr(r.error, "an open loop (--rate, sla) of writes is not run on it"));
	assert_int_equal(reports + resets, 0);
	/* negative cases: an open loop of reads, a closed loop of writes */
	r.error[0] = '\0';
	job_of(&job, IO_READ, 1.0);
	assert_int_equal(run_zoned_refuse(&t, &job, &opt, &r), EXIT_OK);
	job_of(&job, IO_WRITE, 0);
	assert_int_equal(run_zoned_refuse(&t, &job, &opt, &r), EXIT_OK);
	assert_int_equal(reports + resets, 0);
	assert_string_equal(r.error, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_empties_part_written, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nop_prepares_no_zone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_loop_writes_refused_first, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
