/* LDFLAGS: -Wl,--wrap=pwrite -Wl,--wrap=pread */
/* Unit tests of the I/O error paths (src/io/io.c, src/run/bench.c): pwrite and
 * pread are wrapped by the linker so that faults can be injected: EINTR,
 * short transfers, EIO, ENOSPC, a write that makes no progress.  The timed
 * loop must stop at the first error, report it, and count only the I/Os
 * that completed. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "bench.h"
#include "io.h"
#include "rng.h"

/* ---- fault injection ------------------------------------------------------ */

enum fault {
	F_NONE,         /* pass through */
	F_EINTR_ONCE,   /* the first call fails with EINTR, then pass through */
	F_SHORT,        /* the first `short_calls` calls move half (at least 1 byte) */
	F_ERRNO_AFTER,  /* `after` calls succeed, then every call fails with err */
	F_ZERO,         /* every call returns 0 */
	F_SHORT_THEN_ERRNO, /* the first call moves half, then every call fails with err */
};

struct injector {
	int fd;                 /* only this fd is affected; -1: none */
	enum fault fault;
	int err;
	long after;
	long short_calls;
	atomic_long calls;      /* calls on fd */
	atomic_long completed;  /* calls on fd that moved data */
	atomic_long failed;
};

static struct injector wr, rd;

ssize_t __real_pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t __real_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off);

static void inject(struct injector *in, int fd, enum fault fault, int err, long after)
{
	in->fd = fd;
	in->fault = fault;
	in->err = err;
	in->after = after;
	in->short_calls = after;
	atomic_store(&in->calls, 0);
	atomic_store(&in->completed, 0);
	atomic_store(&in->failed, 0);
}

static void no_faults(void)
{
	inject(&wr, -1, F_NONE, 0, 0);
	inject(&rd, -1, F_NONE, 0, 0);
}

/* Decides what a call does: returns 1 to pass through with *n possibly
 * shortened, or 0 with *ret (and errno) set. */
static int decide(struct injector *in, int fd, size_t *n, ssize_t *ret)
{
	if (fd != in->fd || in->fault == F_NONE)
		return 1;
	long call = atomic_fetch_add(&in->calls, 1); /* 0-based */
	switch (in->fault) {
	case F_EINTR_ONCE:
		if (call == 0) {
			atomic_fetch_add(&in->failed, 1);
			errno = EINTR;
			*ret = -1;
			return 0;
		}
		return 1;
	case F_SHORT:
		if (call < in->short_calls && *n > 1)
			*n /= 2;
		return 1;
	case F_ERRNO_AFTER:
		if (call >= in->after) {
			atomic_fetch_add(&in->failed, 1);
			errno = in->err;
			*ret = -1;
			return 0;
		}
		return 1;
	case F_ZERO:
		*ret = 0;
		return 0;
	case F_SHORT_THEN_ERRNO:
		if (call == 0) {
			if (*n > 1)
				*n /= 2;
			return 1;
		}
		atomic_fetch_add(&in->failed, 1);
		errno = in->err;
		*ret = -1;
		return 0;
	case F_NONE:
		break;
	}
	return 1;
}

ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	ssize_t ret;
	if (!decide(&wr, fd, &n, &ret))
		return ret;
	ret = __real_pwrite(fd, buf, n, off);
	if (fd == wr.fd && ret > 0)
		atomic_fetch_add(&wr.completed, 1);
	return ret;
}

ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off)
{
	ssize_t ret;
	if (!decide(&rd, fd, &n, &ret))
		return ret;
	ret = __real_pread(fd, buf, n, off);
	if (fd == rd.fd && ret > 0)
		atomic_fetch_add(&rd.completed, 1);
	return ret;
}

/* ---- fixture: a temp dir with one file ------------------------------------ */

struct fx {
	char dir[128];
	char path[256];
	int fd;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	no_faults();
	bench_stop_requested = 0;
	snprintf(f->dir, sizeof(f->dir), "/tmp/diskbench-test-io-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	snprintf(f->path, sizeof(f->path), "%s/data", f->dir);
	f->fd = open(f->path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (f->fd < 0) {
		rmdir(f->dir);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	no_faults();
	if (f->fd >= 0)
		close(f->fd);
	unlink(f->path);
	int rc = rmdir(f->dir);
	free(f);
	return rc;
}

static void fill_pattern(unsigned char *buf, size_t len, unsigned seed)
{
	struct rng r;
	rng_seed(&r, seed, 1);
	rng_fill(&r, buf, len);
}

static void assert_file_holds(int fd, const unsigned char *want, size_t len, uint64_t off)
{
	unsigned char *got = malloc(len);
	assert_non_null(got);
	no_faults();
	assert_int_equal(__real_pread(fd, got, len, (off_t)off), (ssize_t)len);
	assert_memory_equal(got, want, len);
	free(got);
}

/* Writes len bytes of real data with plain pwrite (no injection). */
static void lay_out(int fd, size_t len)
{
	unsigned char *buf = malloc(len);
	assert_non_null(buf);
	fill_pattern(buf, len, 99);
	assert_int_equal(__real_pwrite(fd, buf, len, 0), (ssize_t)len);
	free(buf);
}

/* ---- io_pwrite_full / io_pread_full ---------------------------------------- */

static void test_write_clean(void **state)
{
	struct fx *f = *state;
	unsigned char buf[8192];
	fill_pattern(buf, sizeof(buf), 1);
	inject(&wr, f->fd, F_NONE, 0, 0);
	assert_int_equal(io_pwrite_full(f->fd, buf, sizeof(buf), 4096), sizeof(buf));
	assert_file_holds(f->fd, buf, sizeof(buf), 4096);
}

static void test_write_eintr(void **state)
{
	struct fx *f = *state;
	unsigned char buf[8192];
	fill_pattern(buf, sizeof(buf), 2);
	inject(&wr, f->fd, F_EINTR_ONCE, 0, 0);
	assert_int_equal(io_pwrite_full(f->fd, buf, sizeof(buf), 0), sizeof(buf));
	assert_int_equal(atomic_load(&wr.failed), 1);
	assert_int_equal(atomic_load(&wr.calls), 2); /* retried once */
	assert_file_holds(f->fd, buf, sizeof(buf), 0);
}

static void test_write_short(void **state)
{
	struct fx *f = *state;
	unsigned char buf[8192];
	fill_pattern(buf, sizeof(buf), 3);
	/* one short write (half), then the rest */
	inject(&wr, f->fd, F_SHORT, 0, 1);
	assert_int_equal(io_pwrite_full(f->fd, buf, sizeof(buf), 0), sizeof(buf));
	assert_int_equal(atomic_load(&wr.calls), 2);
	assert_file_holds(f->fd, buf, sizeof(buf), 0);

	/* many short writes in a row: 8192 -> 4096 -> 2048 -> ... -> then the rest */
	fill_pattern(buf, sizeof(buf), 4);
	inject(&wr, f->fd, F_SHORT, 0, 10);
	assert_int_equal(io_pwrite_full(f->fd, buf, sizeof(buf), 12288), sizeof(buf));
	assert_true(atomic_load(&wr.calls) >= 10);
	assert_file_holds(f->fd, buf, sizeof(buf), 12288);

	/* short writes mixed with an odd length */
	fill_pattern(buf, 777, 5);
	inject(&wr, f->fd, F_SHORT, 0, 1000);
	assert_int_equal(io_pwrite_full(f->fd, buf, 777, 3), 777);
	assert_file_holds(f->fd, buf, 777, 3);
}

static void test_write_errors(void **state)
{
	struct fx *f = *state;
	unsigned char buf[4096];
	fill_pattern(buf, sizeof(buf), 6);

	inject(&wr, f->fd, F_ERRNO_AFTER, EIO, 0);
	errno = 0;
	assert_int_equal(io_pwrite_full(f->fd, buf, sizeof(buf), 0), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(atomic_load(&wr.calls), 1); /* no retry of a real error */

	inject(&wr, f->fd, F_ERRNO_AFTER, ENOSPC, 0);
	errno = 0;
	assert_int_equal(io_pwrite_full(f->fd, buf, sizeof(buf), 0), -1);
	assert_int_equal(errno, ENOSPC);

	/* an error after a short write: still an error, not a short count */
	inject(&wr, f->fd, F_SHORT_THEN_ERRNO, ENOSPC, 0);
	errno = 0;
	assert_int_equal(io_pwrite_full(f->fd, buf, sizeof(buf), 0), -1);
	assert_int_equal(errno, ENOSPC);
	assert_int_equal(atomic_load(&wr.calls), 2);

	/* a write that makes no progress: EIO, not an endless loop */
	inject(&wr, f->fd, F_ZERO, 0, 0);
	errno = 0;
	assert_int_equal(io_pwrite_full(f->fd, buf, sizeof(buf), 0), -1);
	assert_int_equal(errno, EIO);
	assert_int_equal(atomic_load(&wr.calls), 1);
}

static void test_read_paths(void **state)
{
	struct fx *f = *state;
	unsigned char want[16384], buf[16384];
	fill_pattern(want, sizeof(want), 7);
	assert_int_equal(__real_pwrite(f->fd, want, sizeof(want), 0), (ssize_t)sizeof(want));

	/* clean */
	inject(&rd, f->fd, F_NONE, 0, 0);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(io_pread_full(f->fd, buf, 8192, 4096), 8192);
	assert_memory_equal(buf, want + 4096, 8192);

	/* EINTR once */
	inject(&rd, f->fd, F_EINTR_ONCE, 0, 0);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(io_pread_full(f->fd, buf, 8192, 0), 8192);
	assert_int_equal(atomic_load(&rd.calls), 2);
	assert_memory_equal(buf, want, 8192);

	/* short reads, then the rest */
	inject(&rd, f->fd, F_SHORT, 0, 5);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(io_pread_full(f->fd, buf, 8192, 8192), 8192);
	assert_true(atomic_load(&rd.calls) >= 5);
	assert_memory_equal(buf, want + 8192, 8192);

	/* EIO */
	inject(&rd, f->fd, F_ERRNO_AFTER, EIO, 0);
	errno = 0;
	assert_int_equal(io_pread_full(f->fd, buf, 4096, 0), -1);
	assert_int_equal(errno, EIO);

	/* at end of file: fewer bytes, not an error */
	inject(&rd, f->fd, F_NONE, 0, 0);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(io_pread_full(f->fd, buf, 8192, 12288), 4096);
	assert_memory_equal(buf, want + 12288, 4096);
	/* short reads up to end of file */
	inject(&rd, f->fd, F_SHORT, 0, 100);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(io_pread_full(f->fd, buf, 8192, 14000), 16384 - 14000);
	assert_memory_equal(buf, want + 14000, 16384 - 14000);
	/* past the end: 0 */
	inject(&rd, f->fd, F_NONE, 0, 0);
	assert_int_equal(io_pread_full(f->fd, buf, 4096, 16384), 0);
	assert_int_equal(io_pread_full(f->fd, buf, 4096, 1 << 20), 0);
}

static void test_layout_errors(void **state)
{
	struct fx *f = *state;
	volatile int stop = 0;
	/* clean: the file gets len bytes of data, not zeros */
	assert_int_equal(io_layout(f->fd, 256 * 1024, 64 * 1024, false, 5, &stop), 0);
	struct stat st;
	assert_int_equal(fstat(f->fd, &st), 0);
	assert_int_equal(st.st_size, 256 * 1024);
	unsigned char buf[4096], zeros[4096] = { 0 };
	assert_int_equal(__real_pread(f->fd, buf, sizeof(buf), 128 * 1024), (ssize_t)sizeof(buf));
	assert_memory_not_equal(buf, zeros, sizeof(buf));

	/* ENOSPC part way: -1 with ENOSPC */
	inject(&wr, f->fd, F_ERRNO_AFTER, ENOSPC, 2);
	errno = 0;
	assert_int_equal(io_layout(f->fd, 256 * 1024, 64 * 1024, false, 5, &stop), -1);
	assert_int_equal(errno, ENOSPC);
	assert_int_equal(atomic_load(&wr.completed), 2);

	/* a stop request: EINTR */
	no_faults();
	stop = 1;
	errno = 0;
	assert_int_equal(io_layout(f->fd, 256 * 1024, 64 * 1024, false, 5, &stop), -1);
	assert_int_equal(errno, EINTR);
}

/* ---- bench_run ------------------------------------------------------------- */

static struct bench_job make_job(int fd, enum io_dir dir, enum io_pattern pat, unsigned threads)
{
	struct bench_job job;
	memset(&job, 0, sizeof(job));
	job.fd = fd;
	job.dir = dir;
	job.pattern = pat;
	job.bs = 4096;
	job.region = 1 << 20;
	job.bytes_limit = 1 << 20;
	job.wrap = false;
	job.time_limit_s = 0;
	job.threads = threads;
	job.seed = 1;
	return job;
}

static struct bench_outcome *new_outcome(void)
{
	struct bench_outcome *out = malloc(sizeof(*out));
	assert_non_null(out);
	memset(out, 0x5a, sizeof(*out)); /* bench_run must set everything */
	return out;
}

static void test_bench_clean(void **state)
{
	struct fx *f = *state;
	static const unsigned thread_counts[] = { 1, 4 };
	for (int dir = 0; dir < 2; dir++) {
		for (int pat = 0; pat < 2; pat++) {
			for (size_t k = 0; k < 2; k++) {
				if (dir == IO_READ)
					lay_out(f->fd, 1 << 20);
				struct bench_job job = make_job(f->fd, (enum io_dir)dir,
								(enum io_pattern)pat, thread_counts[k]);
				inject(&wr, f->fd, F_NONE, 0, 0);
				inject(&rd, f->fd, F_NONE, 0, 0);
				struct bench_outcome *out = new_outcome();
				int rc = bench_run(&job, out, NULL);
				if (rc != 0)
					print_error("bench_run: %s\n", strerror(out->error));
				assert_int_equal(rc, 0);
				assert_int_equal(out->error, 0);
				assert_false(out->stopped);
				assert_int_equal(out->bytes, job.region);
				assert_int_equal(out->ios, job.region / job.bs);
				assert_int_equal(out->lat.count, out->ios);
				assert_true(out->seconds > 0);
				assert_true(out->lat.min <= out->lat.max);
				free(out);
				if (dir == IO_WRITE) {
					struct stat st;
					assert_int_equal(fstat(f->fd, &st), 0);
					assert_true((uint64_t)st.st_size <= job.region); /* never past the size */
					if (pat == PAT_SEQ)
						assert_int_equal(st.st_size, job.region);
				}
				assert_int_equal(ftruncate(f->fd, 0), 0);
			}
		}
	}
}

/* Sequential writes hit every block once: the file holds stamped data, no
 * hole, no block written twice with the same content. */
static void test_bench_seq_write_content(void **state)
{
	struct fx *f = *state;
	struct bench_job job = make_job(f->fd, IO_WRITE, PAT_SEQ, 4);
	struct bench_outcome *out = new_outcome();
	assert_int_equal(bench_run(&job, out, NULL), 0);
	assert_int_equal(out->bytes, 1 << 20);
	free(out);
	unsigned char *data = malloc(1 << 20);
	assert_non_null(data);
	assert_int_equal(__real_pread(f->fd, data, 1 << 20, 0), 1 << 20);
	static const unsigned char zeros[4096];
	for (size_t b = 0; b < 256; b++) {
		assert_memory_not_equal(data + b * 4096, zeros, 4096);
		if (b > 0)
			assert_memory_not_equal(data + b * 4096, data + (b - 1) * 4096, 4096);
	}
	free(data);
}

static void run_failing(struct fx *f, enum io_dir dir, enum io_pattern pat, unsigned threads,
			int err, long after)
{
	if (dir == IO_READ)
		lay_out(f->fd, 1 << 20);
	else
		assert_int_equal(ftruncate(f->fd, 0), 0);
	struct bench_job job = make_job(f->fd, dir, pat, threads);
	struct injector *in = dir == IO_WRITE ? &wr : &rd;
	inject(in, f->fd, F_ERRNO_AFTER, err, after);
	struct bench_outcome *out = new_outcome();
	int rc = bench_run(&job, out, NULL);
	long completed = atomic_load(&in->completed);
	no_faults();

	assert_int_equal(rc, -1);
	assert_int_equal(out->error, err);
	assert_non_null(out->failed_op);
	assert_string_equal(out->failed_op, dir == IO_WRITE ? "write" : "read");
	assert_true(out->failed_offset % job.bs == 0);
	assert_true(out->failed_offset < job.region);
	/* only the I/Os that completed are counted */
	assert_int_equal(completed, after);
	assert_int_equal(out->ios, (uint64_t)after);
	assert_int_equal(out->bytes, (uint64_t)after * job.bs);
	assert_int_equal(out->lat.count, out->ios);
	assert_false(out->stopped);
	/* the failure stopped every thread: far fewer calls than a full run */
	assert_true(atomic_load(&in->calls) < after + 64);
	if (dir == IO_WRITE) {
		struct stat st;
		assert_int_equal(fstat(f->fd, &st), 0);
		assert_true((uint64_t)st.st_size <= job.region);
	}
	free(out);
}

static void test_bench_enospc(void **state)
{
	struct fx *f = *state;
	run_failing(f, IO_WRITE, PAT_SEQ, 1, ENOSPC, 10);
	run_failing(f, IO_WRITE, PAT_SEQ, 4, ENOSPC, 10);
	run_failing(f, IO_WRITE, PAT_RAND, 1, ENOSPC, 37);
	run_failing(f, IO_WRITE, PAT_RAND, 4, ENOSPC, 37);
	run_failing(f, IO_WRITE, PAT_SEQ, 1, ENOSPC, 0); /* the very first write */
	run_failing(f, IO_WRITE, PAT_SEQ, 4, ENOSPC, 0);
	run_failing(f, IO_WRITE, PAT_SEQ, 1, ENOSPC, 255); /* the last one */
}

static void test_bench_eio(void **state)
{
	struct fx *f = *state;
	run_failing(f, IO_READ, PAT_SEQ, 1, EIO, 20);
	run_failing(f, IO_READ, PAT_SEQ, 4, EIO, 20);
	run_failing(f, IO_READ, PAT_RAND, 1, EIO, 5);
	run_failing(f, IO_READ, PAT_RAND, 4, EIO, 5);
	run_failing(f, IO_WRITE, PAT_SEQ, 4, EIO, 3);
}

/* Transient faults are absorbed: EINTR and short transfers in the loop do
 * not end the run or change what it counts. */
static void test_bench_transient(void **state)
{
	struct fx *f = *state;
	for (unsigned threads = 1; threads <= 4; threads += 3) {
		struct bench_job job = make_job(f->fd, IO_WRITE, PAT_SEQ, threads);
		inject(&wr, f->fd, F_SHORT, 0, 50);
		struct bench_outcome *out = new_outcome();
		assert_int_equal(bench_run(&job, out, NULL), 0);
		assert_int_equal(out->bytes, job.region);
		assert_int_equal(out->ios, job.region / job.bs);
		free(out);

		lay_out(f->fd, 1 << 20);
		job.dir = IO_READ;
		inject(&rd, f->fd, F_EINTR_ONCE, 0, 0);
		out = new_outcome();
		assert_int_equal(bench_run(&job, out, NULL), 0);
		assert_int_equal(out->bytes, job.region);
		assert_int_equal(out->ios, job.region / job.bs);
		assert_int_equal(atomic_load(&rd.failed), 1);
		free(out);
		no_faults();
	}
}

/* A read of a file that became shorter than the region fails at its end,
 * with the offset where it ends: never a short success.  Its negative
 * case, a file as long as the region, is test_bench_clean. */
static void test_bench_short_file(void **state)
{
	struct fx *f = *state;
	lay_out(f->fd, 100 * 4096 + 100);
	struct bench_job job = make_job(f->fd, IO_READ, PAT_SEQ, 1);
	struct bench_outcome *out = new_outcome();
	assert_int_equal(bench_run(&job, out, NULL), -1);
	assert_int_equal(out->error, ENODATA);
	assert_true(out->eof);
	assert_int_equal(out->failed_offset, 100 * 4096 + 100);
	assert_int_equal(out->ended, BENCH_END_ERROR);
	assert_true(out->bytes <= 100 * 4096);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_eintr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_short, setup, teardown),
		cmocka_unit_test_setup_teardown(test_write_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_layout_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bench_clean, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bench_seq_write_content, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bench_enospc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bench_eio, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bench_transient, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bench_short_file, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
