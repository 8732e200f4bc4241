/* LDFLAGS: -Wl,--wrap=pwrite -Wl,--wrap=pread -Wl,--wrap=fsync */
/* What the clock of the timed loop sees (src/run/bench.c, sync engine): pread,
 * pwrite and fsync are wrapped by the linker to take a known time, so the
 * figures can be checked against it: seconds = the I/O time (n x delay,
 * within a few %), every latency >= the delay, the warm-up I/O outside the
 * timing and the statistics, the final fsync inside the timing. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "clock.h"

#define MS 1000000ull

/* ---- slow calls ------------------------------------------------------------ */

struct slow {
	int fd;                  /* only this fd is slowed; -1: none */
	uint64_t first_ns;       /* the first call's delay (a waking device) */
	uint64_t each_ns;        /* every later call's */
	uint64_t fsync_ns;
	unsigned warmups;        /* the first calls, left out of spent_ns */
	uint64_t spin_until_ns;  /* before this instant a call spins on the CPU */
	atomic_uint calls, fsyncs;
	atomic_uint_fast64_t spent_ns; /* time really spent in the other slowed calls */
};

static struct slow slow = { .fd = -1 };

ssize_t __real_pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t __real_pread(int fd, void *buf, size_t n, off_t off);
int __real_fsync(int fd);
ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off);
int __wrap_fsync(int fd);

static void nap(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Sleeps the delay of an I/O call; returns its index. */
static unsigned io_delay(void)
{
	unsigned call = atomic_fetch_add(&slow.calls, 1);
	uint64_t ns = call == 0 ? slow.first_ns : slow.each_ns, t0 = clock_ns();
	if (t0 < slow.spin_until_ns) {
		while (clock_ns() < t0 + ns)
			;
		return call;
	}
	nap(ns);
	return call;
}

/* Adds what call `call` really took, from t0 on, unless it is a warm-up. */
static void spent(unsigned call, uint64_t t0)
{
	if (call >= slow.warmups)
		atomic_fetch_add(&slow.spent_ns, clock_ns() - t0);
}

ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	if (fd != slow.fd)
		return __real_pwrite(fd, buf, n, off);
	uint64_t t0 = clock_ns();
	unsigned call = io_delay();
	ssize_t r = __real_pwrite(fd, buf, n, off);
	spent(call, t0);
	return r;
}

ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off)
{
	if (fd != slow.fd)
		return __real_pread(fd, buf, n, off);
	uint64_t t0 = clock_ns();
	unsigned call = io_delay();
	ssize_t r = __real_pread(fd, buf, n, off);
	spent(call, t0);
	return r;
}

int __wrap_fsync(int fd)
{
	if (fd != slow.fd)
		return __real_fsync(fd);
	uint64_t t0 = clock_ns();
	atomic_fetch_add(&slow.fsyncs, 1);
	nap(slow.fsync_ns);
	int r = __real_fsync(fd);
	spent(slow.warmups, t0);
	return r;
}

static void slow_calls(int fd, unsigned warmups, uint64_t first_ns, uint64_t each_ns,
		       uint64_t fsync_ns)
{
	slow.fd = fd;
	slow.warmups = warmups;
	slow.first_ns = first_ns;
	slow.each_ns = each_ns;
	slow.fsync_ns = fsync_ns;
	slow.spin_until_ns = 0;
	atomic_store(&slow.calls, 0);
	atomic_store(&slow.fsyncs, 0);
	atomic_store(&slow.spent_ns, 0);
}

/* ---- fixture ----------------------------------------------------------------- */

struct fx {
	char path[64];
	int fd;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	bench_stop_requested = 0;
	snprintf(f->path, sizeof(f->path), "/var/tmp/diskbench-test-timing-XXXXXX");
	f->fd = mkstemp(f->path);
	if (f->fd < 0 || ftruncate(f->fd, 1 << 20) != 0) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	slow.fd = -1;
	close(f->fd);
	int rc = unlink(f->path);
	free(f);
	return rc;
}

static struct bench_job make_job(int fd, enum io_dir dir, unsigned ios)
{
	struct bench_job job;
	memset(&job, 0, sizeof(job));
	job.fd = fd;
	job.dir = dir;
	job.pattern = PAT_RAND;
	job.bs = 4096;
	job.region = 1 << 20;
	job.bytes_limit = (uint64_t)ios * 4096;
	job.threads = 1;
	job.seed = 5;
	return job;
}

static struct bench_outcome *run(const struct bench_job *job)
{
	struct bench_outcome *out = malloc(sizeof(*out));
	assert_non_null(out);
	assert_int_equal(bench_run(job, out, NULL), 0);
	return out;
}

/* within pct % of want, or 4 ms, whichever is more: one preemption of the
 * worker on a busy machine must not fail a run of 40 I/Os, while a 40 ms
 * fsync or a 60 ms warm-up in the wrong place still does */
static void assert_near(double got, double want, double pct)
{
	double slack = want * pct / 100 > 4e-3 ? want * pct / 100 : 4e-3;
	if (got < want - slack || got > want + slack)
		fail_msg("%.6f is not within %.1f %% (or 4 ms) of %.6f", got, pct, want);
}

/* ---- tests -------------------------------------------------------------------- */

/* n I/Os of 2 ms each: the run takes the time they took (seconds = n x
 * delay, and what the calls really slept, since a sleep may overrun on a
 * busy machine), each latency is at least 2 ms, the loop adds next to
 * nothing. */
static void test_seconds_are_io_time(void **state)
{
	struct fx *f = *state;
	for (int dir = IO_READ; dir <= IO_WRITE; dir++) {
		struct bench_job job = make_job(f->fd, (enum io_dir)dir, 40);
		slow_calls(f->fd, 0, 2 * MS, 2 * MS, 0);
		struct bench_outcome *out = run(&job);
		double io_s = atomic_load(&slow.spent_ns) / 1e9;
		assert_int_equal(out->ios, 40);
		assert_int_equal(atomic_load(&slow.calls), 40);
		assert_true(out->seconds >= 40 * 2e-3);
		assert_near(out->seconds, io_s, 3);
		assert_true(out->lat.min >= 2 * MS);
		assert_near(out->lat.mean * 40 / 1e9, io_s, 3);
		free(out);
	}
}

/* The warm-up I/Os (the first one slow, as a device waking up) are done
 * but neither timed nor counted. */
static void test_warmup_outside(void **state)
{
	struct fx *f = *state;
	for (int dir = IO_READ; dir <= IO_WRITE; dir++) {
		struct bench_job job = make_job(f->fd, (enum io_dir)dir, 30);
		job.warmup_ios = 3;
		slow_calls(f->fd, 3, 60 * MS, 2 * MS, 0);
		struct bench_outcome *out = run(&job);
		assert_int_equal(atomic_load(&slow.calls), 33); /* done: 3 + 30 */
		assert_int_equal(out->ios, 30);                 /* counted: 30 */
		assert_int_equal(out->lat.count, 30);
		assert_true(out->lat.max < 60 * MS);            /* the 60 ms one is not in */
		assert_true(out->seconds >= 30 * 2e-3);
		assert_near(out->seconds, atomic_load(&slow.spent_ns) / 1e9, 3); /* nor in the time */
		free(out);
	}

	/* without warm-up, the slow first I/O is the run's max, and in its time */
	struct bench_job job = make_job(f->fd, IO_READ, 30);
	slow_calls(f->fd, 0, 60 * MS, 2 * MS, 0);
	struct bench_outcome *out = run(&job);
	assert_int_equal(atomic_load(&slow.calls), 30);
	assert_true(out->lat.max >= 60 * MS);
	assert_true(out->seconds >= 60e-3 + 29 * 2e-3);
	assert_near(out->seconds, atomic_load(&slow.spent_ns) / 1e9, 3);
	free(out);
}

/* The final fsync of a write run is inside the timing, once. */
static void test_fsync_inside(void **state)
{
	struct fx *f = *state;
	struct bench_job job = make_job(f->fd, IO_WRITE, 20);
	job.fsync_at_end = true;
	job.warmup_ios = 1;
	slow_calls(f->fd, 1, 2 * MS, 2 * MS, 40 * MS);
	struct bench_outcome *out = run(&job);
	assert_int_equal(atomic_load(&slow.fsyncs), 1);
	assert_int_equal(out->ios, 20);
	assert_true(out->seconds >= 20 * 2e-3 + 40e-3);
	assert_near(out->seconds, atomic_load(&slow.spent_ns) / 1e9, 3);
	assert_true(out->lat.max < 40 * MS); /* in the time, not in a latency */
	free(out);

	job.fsync_at_end = false;
	slow_calls(f->fd, 1, 2 * MS, 2 * MS, 40 * MS);
	out = run(&job);
	assert_int_equal(atomic_load(&slow.fsyncs), 0);
	assert_near(out->seconds, atomic_load(&slow.spent_ns) / 1e9, 3);
	free(out);
}

/* A time limit ends the run with the first I/O to finish after it. */
static void test_time_limit(void **state)
{
	struct fx *f = *state;
	struct bench_job job = make_job(f->fd, IO_READ, 0);
	job.bytes_limit = UINT64_MAX;
	job.wrap = true;
	job.time_limit_s = 0.1;
	job.warmup_ios = 1;
	slow_calls(f->fd, 1, 50 * MS, 2 * MS, 0);
	struct bench_outcome *out = run(&job);
	assert_true(out->seconds >= 0.1);
	assert_true(out->seconds < 0.1 + out->lat.max / 1e9 + 1e-3);
	assert_near(out->seconds, atomic_load(&slow.spent_ns) / 1e9, 3);
	assert_true(out->lat.max < 50 * MS);
	free(out);
}

/* A time-based warm-up (sweep's ramp) that kept the thread on the CPU, then
 * a window of sleeping I/Os: the busy share is the window's (the thread
 * sleeps ~all of it), not the warm-up's CPU time over the window's length
 * (about 1: the figure a CPU-bound run shows). */
static void test_cpu_share_is_the_windows(void **state)
{
	struct fx *f = *state;
	struct bench_job job = make_job(f->fd, IO_READ, 0);
	job.bytes_limit = UINT64_MAX;
	job.wrap = true;
	job.warmup_s = 0.25;
	job.time_limit_s = 0.25;
	slow_calls(f->fd, 0, 1 * MS, 1 * MS, 0);
	slow.spin_until_ns = clock_ns() + (uint64_t)(0.2 * 1e9);
	struct bench_outcome *out = run(&job);
	assert_true(out->seconds >= 0.25);
	if (out->cpu_busiest > 0.3)
		fail_msg("busy %.2f of a window of sleeps after a spinning warm-up", out->cpu_busiest);
	free(out);

	/* the same spin inside the window: busy (the negative case) */
	job.warmup_s = 0;
	slow_calls(f->fd, 0, 1 * MS, 1 * MS, 0);
	slow.spin_until_ns = clock_ns() + (uint64_t)(1.0 * 1e9);
	out = run(&job);
	if (out->cpu_busiest < 0.4)
		fail_msg("busy %.2f of a window of spins", out->cpu_busiest);
	free(out);
}

int main(void)
{
	/* 1 ns timer slack (the default is 50 us): sleeps end on time; the
	 * worker threads inherit it */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_seconds_are_io_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_warmup_outside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fsync_inside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_time_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_share_is_the_windows, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
