/* LDFLAGS: -Wl,--wrap=pread */
/* The open loop (src/run/bench_open.c, sync engine) against reads whose
 * time the test sets: pread is wrapped by the linker, each read returns at
 * once but the one of the test's choosing, which stalls.  With fixed
 * arrivals at 1000 a second, arrival k is due at exactly k ms after the
 * loop's start (arrivals.h: t0 + k x 1e6), one read in flight at a time, so
 * read number k is arrival k and every figure below is worked out by hand
 * from that schedule, never read back from the output. */
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
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "clock.h"

#define MS 1000000ull

/* ---- reads that stall ------------------------------------------------------- */

#define SEEN_MAX 1024

struct stall {
	int fd;                /* only this fd's reads; -1: none */
	unsigned at;           /* the read (from 0) that stalls */
	uint64_t stall_ns;
	uint64_t odd_ns;       /* each thread's odd reads (its 2nd, 4th, ...) take this */
	atomic_uint calls;
	/* when each read started, and on which thread */
	uint64_t seen_ns[SEEN_MAX];
	long seen_tid[SEEN_MAX];
};

static struct stall stall = { .fd = -1 };
static _Thread_local unsigned thread_reads;

ssize_t __real_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off);

static void nap(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off)
{
	if (fd != stall.fd)
		return __real_pread(fd, buf, n, off);
	unsigned call = atomic_fetch_add(&stall.calls, 1);
	if (call < SEEN_MAX) {
		stall.seen_ns[call] = clock_ns();
		stall.seen_tid[call] = (long)syscall(SYS_gettid);
	}
	if (call == stall.at)
		nap(stall.stall_ns);
	if (thread_reads++ % 2 == 1 && stall.odd_ns)
		nap(stall.odd_ns);
	return __real_pread(fd, buf, n, off);
}

static void stall_read(int fd, unsigned at, uint64_t stall_ns)
{
	stall.fd = fd;
	stall.at = at;
	stall.stall_ns = stall_ns;
	stall.odd_ns = 0;
	atomic_store(&stall.calls, 0);
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
	snprintf(f->path, sizeof(f->path), "/var/tmp/diskbench-test-open-XXXXXX");
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
	stall.fd = -1;
	close(f->fd);
	int rc = unlink(f->path);
	free(f);
	return rc;
}

/* Random 4 KiB reads of a 1 MiB file at 1000 fixed arrivals a second, one
 * thread, one in flight (the sync engine), for `seconds` after a time-based
 * warm-up of warmup_s. */
static struct bench_job open_job(int fd, double seconds, double warmup_s)
{
	struct bench_job job;
	memset(&job, 0, sizeof(job));
	job.fd = fd;
	job.dir = IO_READ;
	job.pattern = PAT_RAND;
	job.bs = 4096;
	job.region = 1 << 20;
	job.bytes_limit = UINT64_MAX;
	job.wrap = true;
	job.time_limit_s = seconds;
	job.warmup_s = warmup_s;
	job.threads = 1;
	job.qd = 1;
	job.seed = 5;
	job.rate = 1000;
	job.arrivals = ARRIVALS_FIXED;
	return job;
}

static struct bench_outcome *run(const struct bench_job *job)
{
	struct bench_outcome *out = malloc(sizeof(*out));
	assert_non_null(out);
	assert_int_equal(bench_run(job, out, NULL), 0);
	return out;
}

/* ---- tests -------------------------------------------------------------------- */

/* A stall that runs past the window's end.  Read 100 (due at 100 ms)
 * stalls 400 ms, past the 300 ms window: arrivals 0-100 are served (101
 * I/Os), arrivals 101-299 were due inside the window and never started
 * (199), each waiting at least until the window's end, 300 - k ms: 199 ms
 * down to 1 ms (and its service still ahead, the shortest the run saw: a
 * quick read's microseconds).  In the response distribution they are 199
 * of 300 values:
 * sorted, 100 quick reads, then 1, 2, ... 199 ms, then the stalled read's
 * 400 ms, so p50 (rank 150) is the 50th wait, 50 ms, and p99 (rank 297) the
 * 197th, 197 ms.  Left out, the 101 served reads alone have a p99 of a
 * quick read. */
static void test_unserved_in_response(void **state)
{
	struct fx *f = *state;
	struct bench_job job = open_job(f->fd, 0.3, 0);
	stall_read(f->fd, 100, 400 * MS);
	struct bench_outcome *out = run(&job);
	assert_int_equal(out->ios, 101);
	assert_int_equal(out->unserved, 199);
	assert_int_equal(out->lat.count, 101 + 199);
	assert_int_equal(out->lat_service.count, 101); /* the service time is the served's */
	assert_int_equal(out->lat_read.count, 101);    /* and so are the figures by operation */
	assert_true(out->max_lag_ns >= 199 * MS);
	uint64_t p50 = stats_percentile(&out->lat, 50), p99 = stats_percentile(&out->lat, 99);
	if (p50 < 40 * MS || p50 > 60 * MS)
		fail_msg("p50 %.1f ms: the 50th of the waits of 1-199 ms is 50 ms", p50 / 1e6);
	if (p99 < 180 * MS || p99 > 210 * MS)
		fail_msg("p99 %.1f ms: the 197th of the waits of 1-199 ms is 197 ms", p99 / 1e6);
	assert_true(out->lat.max >= 400 * MS); /* the stalled read itself */
	/* never below a served I/O's: each response is a wait and a service */
	assert_true(out->lat.min >= out->lat_service.min);
	free(out);

	/* the negative case: no stall, every arrival served (on a busy machine
	 * a late wake-up at the end may leave the last few unstarted, each in
	 * the distribution, never in both counts) */
	stall_read(f->fd, UINT32_MAX, 0);
	out = run(&job);
	assert_int_equal(out->ios + out->unserved, 300);
	assert_true(out->unserved < 30);
	assert_int_equal(out->lat.count, out->ios + out->unserved);
	free(out);
}

/* A stall that starts in a time-based warm-up (sla's steps, sweep's
 * curve): the schedule starts at 0, the window is 200-500 ms.  Read 100
 * (due at 100 ms, a warm-up arrival) stalls 600 ms, to 700 ms: of the
 * arrivals never started, those due at 200-499 ms are the window's (300),
 * each waiting at least 500 - k ms (300 ms down to 1 ms); the 99 due at
 * 101-199 ms are the warm-up's and not counted; the stalled read itself is
 * a warm-up arrival, not counted either. */
static void test_unserved_not_the_warmups(void **state)
{
	struct fx *f = *state;
	struct bench_job job = open_job(f->fd, 0.3, 0.2);
	stall_read(f->fd, 100, 600 * MS);
	struct bench_outcome *out = run(&job);
	assert_int_equal(out->ios, 0);
	assert_int_equal(out->unserved, 300);
	assert_int_equal(out->lat.count, 300);
	if (out->max_lag_ns < 299 * MS || out->max_lag_ns > 300 * MS)
		fail_msg("max lag %.1f ms: the window's first arrival waited its 300 ms",
			 out->max_lag_ns / 1e6);
	uint64_t p50 = stats_percentile(&out->lat, 50);
	if (p50 < 140 * MS || p50 > 160 * MS)
		fail_msg("p50 %.1f ms: the 150th of the waits of 1-300 ms is 150 ms", p50 / 1e6);
	free(out);
}

/* A read's distance to the nearest read of another thread. */
static uint64_t nearest_other(unsigned i, unsigned n)
{
	uint64_t best = UINT64_MAX;
	for (unsigned k = 0; k < n; k++) {
		if (stall.seen_tid[k] == stall.seen_tid[i])
			continue;
		uint64_t d = stall.seen_ns[k] > stall.seen_ns[i] ? stall.seen_ns[k] - stall.seen_ns[i]
								 : stall.seen_ns[i] - stall.seen_ns[k];
		best = d < best ? d : best;
	}
	return best;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Fixed arrivals on two threads, 20 a second in all: each thread's are
 * 100 ms apart, and the second's start half a gap after the first's (50
 * ms), so that together they come every 50 ms, not two at once every 100
 * (issue 39).  Each read is due 50 ms from the other thread's nearest:
 * their median distance is 50 ms (25 ms at least, for a busy machine's
 * late wake-ups; in phase it was about 0). */
static void test_fixed_threads_out_of_phase(void **state)
{
	struct fx *f = *state;
	struct bench_job job = open_job(f->fd, 0.3, 0);
	job.threads = 2;
	job.rate = 20;
	stall_read(f->fd, UINT32_MAX, 0);
	struct bench_outcome *out = run(&job);
	unsigned n = atomic_load(&stall.calls);
	assert_true(n >= 4 && n <= SEEN_MAX);
	uint64_t d[SEEN_MAX];
	for (unsigned i = 0; i < n; i++)
		d[i] = nearest_other(i, n);
	qsort(d, n, sizeof(d[0]), by_value);
	if (d[n / 2] < 25 * MS || d[n / 2] > 75 * MS)
		fail_msg("the reads' median distance to the other thread's is %.2f ms, not 50 ms",
			 d[n / 2] / 1e6);
	free(out);
}

/* Late is judged on the whole schedule's mean gap, 1 / --rate, not one
 * thread's.  Two threads at 20 a second in all: 100 ms between one
 * thread's arrivals, 50 ms between the schedule's.  Each thread's odd
 * reads take 170 ms, so its reads due at 200 and 400 ms start at 270 and
 * 470 ms, 70 ms late: late against 50 ms, not against 100; in a 0.6 s
 * window, at least these 4 of the 12 (a late wake-up only adds to a lag).
 * arrivals_schedule_gap is worked out by hand in test_arrivals.c. */
static void test_late_on_the_schedules_gap(void **state)
{
	struct fx *f = *state;
	struct bench_job job = open_job(f->fd, 0.6, 0);
	job.threads = 2;
	job.rate = 20;
	stall_read(f->fd, UINT32_MAX, 0);
	stall.odd_ns = 170 * MS;
	struct bench_outcome *out = run(&job);
	if (out->late_ios < 4)
		fail_msg("%llu of %llu I/Os late: those after a 170 ms read start 70 ms late, more "
			 "than the schedule's 50 ms gap", (unsigned long long)out->late_ios,
			 (unsigned long long)out->ios);
	free(out);
}

int main(void)
{
	/* 1 ns timer slack (the default is 50 us): sleeps end on time; the
	 * worker threads inherit it */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unserved_in_response, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unserved_not_the_warmups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixed_threads_out_of_phase, setup, teardown),
		cmocka_unit_test_setup_teardown(test_late_on_the_schedules_gap, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
