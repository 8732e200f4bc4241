/* LDFLAGS: -Wl,--wrap=pwrite -Wl,--wrap=write -Wl,--wrap=pread -Wl,--wrap=read -Wl,--wrap=fdatasync -Wl,--wrap=fsync -Wl,--wrap=lseek */
/* The timed loop's sync calls and file-position I/O (src/run/bench_sync.c,
 * the sync engine's at_position; issue 41), with the system calls wrapped
 * by the linker so that each call on the test's file is logged in order:
 * fio's fdatasync=1 is one fdatasync after each write and fdatasync=2 one
 * after each two, as fio's strace shows (the last write's own only when
 * bytes of size= remain short of a block: 46000 B of 2300 B with
 * fdatasync=2 is 20 writes and 9 fdatasyncs to fio 3.33, 46001 B 10); the syncs' time is their own
 * figure and never in the writes' (a sync made to take 20 ms leaves every
 * write under it); ioengine=sync's writes are write(2) with an lseek(2)
 * only where the offset jumps, and leave the same bytes as pwrite(2). */
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
#include "engine.h"

#define MS 1000000ull
#define BS 2300u /* etcd's check: not a multiple of 512 */

/* ---- the calls on the test's file, in order ------------------------------- */

static int watched = -1;
static char calls[4096]; /* W pwrite, w write, R pread, r read, S fdatasync, F fsync, L lseek SET */
static atomic_uint ncalls;
static uint64_t sync_delay_ns;

ssize_t __real_pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __real_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __real_read(int fd, void *buf, size_t n);
int __real_fdatasync(int fd);
int __real_fsync(int fd);
off_t __real_lseek(int fd, off_t off, int whence);
ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t __wrap_write(int fd, const void *buf, size_t n);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __wrap_read(int fd, void *buf, size_t n);
int __wrap_fdatasync(int fd);
int __wrap_fsync(int fd);
off_t __wrap_lseek(int fd, off_t off, int whence);

static void logged(int fd, char c)
{
	unsigned i;
	if (fd != watched || (i = atomic_fetch_add(&ncalls, 1)) >= sizeof(calls) - 1)
		return;
	calls[i] = c;
}

static void nap(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	while (ns && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	logged(fd, 'W');
	return __real_pwrite(fd, buf, n, off);
}

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	logged(fd, 'w');
	return __real_write(fd, buf, n);
}

ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off)
{
	logged(fd, 'R');
	return __real_pread(fd, buf, n, off);
}

ssize_t __wrap_read(int fd, void *buf, size_t n)
{
	logged(fd, 'r');
	return __real_read(fd, buf, n);
}

int __wrap_fdatasync(int fd)
{
	logged(fd, 'S');
	if (fd == watched)
		nap(sync_delay_ns);
	return __real_fdatasync(fd);
}

int __wrap_fsync(int fd)
{
	logged(fd, 'F');
	if (fd == watched)
		nap(sync_delay_ns);
	return __real_fsync(fd);
}

off_t __wrap_lseek(int fd, off_t off, int whence)
{
	if (whence == SEEK_SET)
		logged(fd, 'L');
	return __real_lseek(fd, off, whence);
}

static const char *log_of_calls(void)
{
	unsigned n = atomic_load(&ncalls);
	calls[n < sizeof(calls) ? n : sizeof(calls) - 1] = '\0';
	return calls;
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
	snprintf(f->path, sizeof(f->path), "/var/tmp/diskbench-test-sync-XXXXXX");
	f->fd = mkstemp(f->path);
	if (f->fd < 0) {
		free(f);
		return -1;
	}
	watched = f->fd;
	atomic_store(&ncalls, 0);
	sync_delay_ns = 0;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	watched = -1;
	close(f->fd);
	unlink(f->path);
	free(f);
	return 0;
}

/* fio's etcd job, in small: sequential writes of 2300 B through the page
 * cache over blocks blocks, once, a sync after every `every` */
static void describe(struct bench_job *job, int fd, unsigned blocks, unsigned every, bool data)
{
	memset(job, 0, sizeof(*job));
	job->fd = fd;
	job->dir = IO_WRITE;
	job->pattern = PAT_SEQ;
	job->bs = BS;
	job->region = (uint64_t)blocks * BS;
	job->bytes_limit = job->region;
	job->threads = 1;
	job->seed = 41;
	job->qd = 1;
	job->sync_every = every;
	job->sync_data = data;
}

static void run_ok(const struct bench_job *job, struct bench_outcome *out)
{
	int rc = bench_run(job, out, NULL);
	if (rc != 0)
		fail_msg("bench_run: %s: %s", out->failed_op ? out->failed_op : "?", strerror(out->error));
}

static void fdatasync_after_each_write(void **state)
{
	struct fx *f = *state;
	struct bench_job job;
	static struct bench_outcome out;
	describe(&job, f->fd, 10, 1, true);
	run_ok(&job, &out);
	assert_string_equal(log_of_calls(), "WSWSWSWSWSWSWSWSWSW");
	assert_int_equal(out.ios, 10);
	assert_int_equal(out.bytes, 10 * BS);
	assert_int_equal(out.syncs, 9);
	assert_int_equal(out.lat_sync.count, 9);
	assert_int_equal(out.lat_write.count, 10);
	/* the last write's too, where fio makes it */
	atomic_store(&ncalls, 0);
	job.sync_after_last = true;
	run_ok(&job, &out);
	assert_string_equal(log_of_calls(), "WSWSWSWSWSWSWSWSWSWS");
	assert_int_equal(out.syncs, 10);
}

static void fsync_after_every_second_write(void **state)
{
	struct fx *f = *state;
	struct bench_job job;
	static struct bench_outcome out;
	describe(&job, f->fd, 10, 2, false);
	run_ok(&job, &out);
	assert_string_equal(log_of_calls(), "WWFWWFWWFWWFWW");
	assert_int_equal(out.syncs, 4);
	assert_int_equal(out.ios, 10);
	/* three writes, then the last one's sync: a fourth sync would need two */
	atomic_store(&ncalls, 0);
	describe(&job, f->fd, 3, 2, false);
	run_ok(&job, &out);
	assert_string_equal(log_of_calls(), "WWFW");
	assert_int_equal(out.syncs, 1);
}

static void sync_time_is_its_own(void **state)
{
	struct fx *f = *state;
	struct bench_job job;
	static struct bench_outcome out;
	sync_delay_ns = 20 * MS;
	describe(&job, f->fd, 8, 1, true);
	job.sync_after_last = true;
	run_ok(&job, &out);
	assert_int_equal(out.lat_sync.count, 8);
	assert_true(out.lat_sync.min >= 20 * MS);
	/* a write through the page cache takes microseconds, never the sync's 20 ms */
	assert_true(out.lat_write.max < 20 * MS);
	assert_true(out.lat.count == 8 && out.lat.max < 20 * MS);
	/* the run's time holds both: 8 syncs of 20 ms at least */
	assert_true(out.seconds >= 0.16);
}

static void async_engines_refuse_syncs(void **state)
{
	struct fx *f = *state;
	struct bench_job job;
	static struct bench_outcome out;
	describe(&job, f->fd, 4, 1, true);
	job.engine = &engine_aio;
	assert_int_equal(bench_run(&job, &out, NULL), -1);
	assert_int_equal(out.error, EINVAL);
	assert_string_equal(out.failed_op, "fdatasync");
	assert_int_equal(atomic_load(&ncalls), 0);
}

static void at_position_writes_as_fios_sync_engine(void **state)
{
	struct fx *f = *state;
	struct bench_job job;
	static struct bench_outcome out;
	unsigned char *a = malloc(8 * BS), *b = malloc(8 * BS);
	assert_non_null(a);
	assert_non_null(b);
	/* pwrite: 8 blocks, the region's 4 twice */
	describe(&job, f->fd, 4, 0, false);
	job.bytes_limit = 8 * BS;
	job.wrap = true;
	run_ok(&job, &out);
	assert_string_equal(log_of_calls(), "WWWWWWWW");
	assert_int_equal(pread(f->fd, a, 4 * BS, 0), 4 * BS);
	assert_int_equal(ftruncate(f->fd, 0), 0);
	/* write(2) at the position: a seek only where it wraps to 0 */
	atomic_store(&ncalls, 0);
	job.at_position = true;
	run_ok(&job, &out);
	assert_string_equal(log_of_calls(), "wwwwLwwww");
	assert_int_equal(out.ios, 8);
	assert_int_equal(pread(f->fd, b, 4 * BS, 0), 4 * BS);
	assert_memory_equal(a, b, 4 * BS); /* the same bytes at the same offsets */
	/* and reads with read(2), over what was written */
	atomic_store(&ncalls, 0);
	assert_int_equal(lseek(f->fd, 0, SEEK_END), 4 * BS); /* the position is not 0 */
	describe(&job, f->fd, 4, 0, false);
	job.dir = IO_READ;
	job.at_position = true;
	run_ok(&job, &out);
	assert_string_equal(log_of_calls(), "Lrrrr"); /* to 0 from the end our lseek left */
	assert_int_equal(out.bytes, 4 * BS);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(fdatasync_after_each_write, setup, teardown),
		cmocka_unit_test_setup_teardown(fsync_after_every_second_write, setup, teardown),
		cmocka_unit_test_setup_teardown(sync_time_is_its_own, setup, teardown),
		cmocka_unit_test_setup_teardown(async_engines_refuse_syncs, setup, teardown),
		cmocka_unit_test_setup_teardown(at_position_writes_as_fios_sync_engine, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
