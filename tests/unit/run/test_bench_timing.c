/* LDFLAGS: -Wl,--wrap=pwrite -Wl,--wrap=pread -Wl,--wrap=fsync -Wl,--wrap=clock_ns -Wl,--wrap=clock_thread_cpu_ns */
/* What the clock of the timed loop sees (src/run/bench.c, sync engine), on a
 * clock the test keeps: clock_ns is wrapped by the linker to read a virtual
 * clock that only the slowed pread, pwrite and fsync move, each by its known
 * delay, so the figures are what the code makes of those delays, exactly,
 * whatever the scheduler does to the threads: seconds = the I/O time (n x
 * delay), every latency = the delay, the warm-up I/O outside the timing and
 * the statistics, the final fsync inside the timing, a time limit ending the
 * run with the first I/O past it.  The thread's CPU clock is wrapped too
 * where a test says what it reads, so a CPU share is the code's arithmetic. */
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
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "clock.h"

#define MS 1000000ull

/* ---- the clock ------------------------------------------------------------- */

/* The virtual monotonic clock, in ns: it moves only when a slowed call
 * takes its delay (far from 0, as a real reading is). */
static atomic_uint_fast64_t vclock_ns = 1000000000000ull;

uint64_t __real_clock_ns(void);
uint64_t __wrap_clock_ns(void);

uint64_t __wrap_clock_ns(void)
{
	return atomic_load(&vclock_ns);
}

/* The threads' CPU clock while on: it runs with the (virtual) monotonic
 * clock until stop_ns (a thread kept on the CPU), then stands still (a
 * thread asleep); off: the real clock. */
static struct {
	bool on;
	uint64_t stop_ns;
} cpu_clock;

uint64_t __real_clock_thread_cpu_ns(void);
uint64_t __wrap_clock_thread_cpu_ns(void);

uint64_t __wrap_clock_thread_cpu_ns(void)
{
	if (!cpu_clock.on)
		return __real_clock_thread_cpu_ns();
	uint64_t now = clock_ns();
	return now < cpu_clock.stop_ns ? now : cpu_clock.stop_ns;
}

/* ---- slow calls ------------------------------------------------------------ */

struct slow {
	int fd;                  /* only this fd is slowed; -1: none */
	uint64_t first_ns;       /* the first call's delay (a waking device) */
	uint64_t each_ns;        /* every later call's */
	uint64_t fsync_ns;
	unsigned warmups;        /* the first calls, left out of spent_ns */
	atomic_uint calls, fsyncs;
	atomic_uint_fast64_t spent_ns; /* the delays of the other slowed calls */
};

static struct slow slow = { .fd = -1 };

ssize_t __real_pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t __real_pread(int fd, void *buf, size_t n, off_t off);
int __real_fsync(int fd);
ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off);
int __wrap_fsync(int fd);

/* Takes ns on the clock; counted in spent_ns unless a warm-up call. */
static void take(unsigned call, uint64_t ns)
{
	atomic_fetch_add(&vclock_ns, ns);
	if (call >= slow.warmups)
		atomic_fetch_add(&slow.spent_ns, ns);
}

/* An I/O call's delay: the first one's, then each one's; its index. */
static unsigned io_delay(void)
{
	unsigned call = atomic_fetch_add(&slow.calls, 1);
	take(call, call == 0 ? slow.first_ns : slow.each_ns);
	return call;
}

ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	if (fd != slow.fd)
		return __real_pwrite(fd, buf, n, off);
	io_delay();
	return __real_pwrite(fd, buf, n, off);
}

ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off)
{
	if (fd != slow.fd)
		return __real_pread(fd, buf, n, off);
	io_delay();
	return __real_pread(fd, buf, n, off);
}

int __wrap_fsync(int fd)
{
	if (fd != slow.fd)
		return __real_fsync(fd);
	atomic_fetch_add(&slow.fsyncs, 1);
	take(slow.warmups, slow.fsync_ns);
	return __real_fsync(fd);
}

static void slow_calls(int fd, unsigned warmups, uint64_t first_ns, uint64_t each_ns,
		       uint64_t fsync_ns)
{
	slow.fd = fd;
	slow.warmups = warmups;
	slow.first_ns = first_ns;
	slow.each_ns = each_ns;
	slow.fsync_ns = fsync_ns;
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

/* got is want to the nanosecond (the clock's grain; seconds are doubles) */
static void assert_ns(double got_s, uint64_t want_ns)
{
	if (got_s * 1e9 < (double)want_ns - 1 || got_s * 1e9 > (double)want_ns + 1)
		fail_msg("%.9f s, not %.9f s", got_s, want_ns / 1e9);
}

/* ---- tests -------------------------------------------------------------------- */

/* n I/Os of 2 ms each: the run takes the time they took (seconds = n x
 * delay), each latency is the delay, the loop adds nothing of its own. */
static void test_seconds_are_io_time(void **state)
{
	struct fx *f = *state;
	for (int dir = IO_READ; dir <= IO_WRITE; dir++) {
		struct bench_job job = make_job(f->fd, (enum io_dir)dir, 40);
		slow_calls(f->fd, 0, 2 * MS, 2 * MS, 0);
		struct bench_outcome *out = run(&job);
		assert_int_equal(out->ios, 40);
		assert_int_equal(atomic_load(&slow.calls), 40);
		assert_int_equal(atomic_load(&slow.spent_ns), 40 * 2 * MS);
		assert_ns(out->seconds, 40 * 2 * MS);
		assert_int_equal(out->lat.min, 2 * MS);
		assert_int_equal(out->lat.max, 2 * MS);
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
		assert_int_equal(out->lat.max, 2 * MS);         /* the 60 ms one is not in */
		assert_ns(out->seconds, 30 * 2 * MS);           /* nor in the time */
		free(out);
	}

	/* without warm-up, the slow first I/O is the run's max, and in its time */
	struct bench_job job = make_job(f->fd, IO_READ, 30);
	slow_calls(f->fd, 0, 60 * MS, 2 * MS, 0);
	struct bench_outcome *out = run(&job);
	assert_int_equal(atomic_load(&slow.calls), 30);
	assert_int_equal(out->lat.max, 60 * MS);
	assert_ns(out->seconds, 60 * MS + 29 * 2 * MS);
	free(out);
}

/* The final fsync of a write run is inside the timing, once, and in no
 * latency. */
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
	assert_ns(out->seconds, 20 * 2 * MS + 40 * MS);
	assert_int_equal(out->lat.max, 2 * MS); /* in the time, not in a latency */
	free(out);

	job.fsync_at_end = false;
	slow_calls(f->fd, 1, 2 * MS, 2 * MS, 40 * MS);
	out = run(&job);
	assert_int_equal(atomic_load(&slow.fsyncs), 0);
	assert_ns(out->seconds, 20 * 2 * MS);
	free(out);
}

/* A time limit ends the run with the first I/O to finish after it: 0.1 s
 * of 2 ms reads is 50 of them, the 50 ms warm-up read outside. */
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
	assert_int_equal(out->ios, 50);
	assert_ns(out->seconds, 100 * MS);
	assert_int_equal(out->lat.max, 2 * MS);
	assert_int_equal(atomic_load(&slow.spent_ns), 100 * MS);
	free(out);
}

/* A time-based warm-up (sweep's ramp) that kept the thread on the CPU, then
 * a window of I/Os asleep: the busy share is the window's CPU (none), not
 * the warm-up's CPU time over the window's length (0.8: the figure of a
 * CPU-bound run).  The CPU clock runs with the clock for the first 0.2 s,
 * all inside the 0.25 s warm-up, then stops. */
static void test_cpu_share_is_the_windows(void **state)
{
	struct fx *f = *state;
	struct bench_job job = make_job(f->fd, IO_READ, 0);
	job.bytes_limit = UINT64_MAX;
	job.wrap = true;
	job.warmup_s = 0.25;
	job.time_limit_s = 0.25;
	slow_calls(f->fd, 0, 1 * MS, 1 * MS, 0);
	cpu_clock.stop_ns = clock_ns() + 200 * MS; /* before the warm-up starts */
	cpu_clock.on = true;
	struct bench_outcome *out = run(&job);
	cpu_clock.on = false;
	assert_ns(out->seconds, 250 * MS);
	if (out->cpu_busiest != 0)
		fail_msg("busy %.2f of a window of sleeps after a busy warm-up", out->cpu_busiest);
	free(out);

	/* the CPU clock running through the window: busy all of it (the
	 * negative case) */
	job.warmup_s = 0;
	slow_calls(f->fd, 0, 1 * MS, 1 * MS, 0);
	cpu_clock.stop_ns = UINT64_MAX;
	cpu_clock.on = true;
	out = run(&job);
	cpu_clock.on = false;
	if (out->cpu_busiest < 1 - 1e-9 || out->cpu_busiest > 1 + 1e-9)
		fail_msg("busy %.9f of a window the CPU clock ran through", out->cpu_busiest);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_seconds_are_io_time, setup, teardown),
		cmocka_unit_test_setup_teardown(test_warmup_outside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fsync_inside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_time_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_share_is_the_windows, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
