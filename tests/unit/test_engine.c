/* Unit tests of the engine interface (src/engine*.c) and of the timed loop
 * through it (src/bench.c): the completion handler every engine shares,
 * the depth histogram, reads and writes kept apart, the sampler, and the
 * engines' equivalence: for one seed, every engine writes the same bytes
 * and reads the same data.  Files are temp files under /var/tmp, <= 64 MiB. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "engine.h"
#include "io.h"
#include "rng.h"

/* ---- the completion handler ------------------------------------------------ */

static struct engine_io new_io(uint32_t len, bool write)
{
	static char buf[65536];
	struct engine_io io;
	memset(&io, 0, sizeof(io));
	io.buf = buf;
	io.offset = 1 << 20;
	io.len = len;
	io.write = write;
	io.result = 12345; /* must be overwritten when done */
	return io;
}

static void test_complete_whole(void **state)
{
	(void)state;
	struct engine_io io = new_io(4096, false);
	assert_int_equal(engine_complete(&io, 4096), ENGINE_DONE);
	assert_int_equal(io.result, 4096);
	io = new_io(4096, true);
	assert_int_equal(engine_complete(&io, 4096), ENGINE_DONE);
	assert_int_equal(io.result, 4096);
}

/* A short completion is resumed where it stopped, as often as needed. */
static void test_complete_short(void **state)
{
	(void)state;
	for (int w = 0; w < 2; w++) {
		struct engine_io io = new_io(8192, w);
		assert_int_equal(engine_complete(&io, 1000), ENGINE_AGAIN);
		assert_int_equal(io.done, 1000);
		assert_ptr_equal(engine_io_buf(&io), (char *)io.buf + 1000);
		assert_int_equal(engine_io_offset(&io), (1 << 20) + 1000);
		assert_int_equal(engine_io_left(&io), 7192);
		assert_int_equal(engine_complete(&io, 7000), ENGINE_AGAIN);
		assert_int_equal(engine_io_left(&io), 192);
		assert_int_equal(engine_complete(&io, 192), ENGINE_DONE);
		assert_int_equal(io.result, 8192);
		assert_int_equal(io.done, 8192);
	}
}

/* Reads at end of file end with the bytes before it; a write that moves
 * nothing is an I/O error, not an endless loop. */
static void test_complete_eof(void **state)
{
	(void)state;
	struct engine_io io = new_io(4096, false);
	assert_int_equal(engine_complete(&io, 0), ENGINE_DONE);
	assert_int_equal(io.result, 0);
	io = new_io(4096, false);
	assert_int_equal(engine_complete(&io, 100), ENGINE_AGAIN);
	assert_int_equal(engine_complete(&io, 0), ENGINE_DONE);
	assert_int_equal(io.result, 100);
	io = new_io(4096, true);
	assert_int_equal(engine_complete(&io, 0), ENGINE_DONE);
	assert_int_equal(io.result, -EIO);
	io = new_io(4096, true);
	assert_int_equal(engine_complete(&io, 512), ENGINE_AGAIN);
	assert_int_equal(engine_complete(&io, 0), ENGINE_DONE);
	assert_int_equal(io.result, -EIO);
}

static void test_complete_errors(void **state)
{
	(void)state;
	static const int errs[] = { EIO, ENOSPC, EBADF, EINVAL, EFBIG };
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		struct engine_io io = new_io(4096, i % 2);
		assert_int_equal(engine_complete(&io, -errs[i]), ENGINE_DONE);
		assert_int_equal(io.result, -errs[i]);
		/* after part of the block moved: still the error */
		io = new_io(4096, i % 2);
		assert_int_equal(engine_complete(&io, 2048), ENGINE_AGAIN);
		assert_int_equal(engine_complete(&io, -errs[i]), ENGINE_DONE);
		assert_int_equal(io.result, -errs[i]);
	}
}

/* -EAGAIN and -EINTR are tried again, with no progress lost; a request
 * that never gets through fails with -EAGAIN instead of spinning. */
static void test_complete_again(void **state)
{
	(void)state;
	struct engine_io io = new_io(4096, false);
	assert_int_equal(engine_complete(&io, -EAGAIN), ENGINE_AGAIN);
	assert_int_equal(engine_complete(&io, -EINTR), ENGINE_AGAIN);
	assert_int_equal(engine_complete(&io, 1024), ENGINE_AGAIN);
	assert_int_equal(engine_complete(&io, -EAGAIN), ENGINE_AGAIN);
	assert_int_equal(io.done, 1024);
	assert_int_equal(engine_complete(&io, 3072), ENGINE_DONE);
	assert_int_equal(io.result, 4096);

	io = new_io(4096, true);
	int rounds = 0;
	while (engine_complete(&io, -EAGAIN) == ENGINE_AGAIN)
		assert_true(++rounds < 100000);
	assert_true(rounds >= 100);
	assert_int_equal(io.result, -EAGAIN);
	/* progress resets the count */
	io = new_io(4096, true);
	for (int i = 0; i < 3000; i++) {
		assert_int_equal(engine_complete(&io, -EAGAIN), ENGINE_AGAIN);
		if (i % 500 == 0)
			assert_int_equal(engine_complete(&io, 1), ENGINE_AGAIN);
	}
}

static void test_qd_buckets(void **state)
{
	(void)state;
	static const unsigned depth[] = { 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 65, 4096 };
	static const unsigned bucket[] = { 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6 };
	for (size_t i = 0; i < sizeof(depth) / sizeof(depth[0]); i++)
		assert_int_equal(bench_qd_bucket(depth[i]), bucket[i]);
}

/* ---- names and selection --------------------------------------------------- */

static void test_parse_name(void **state)
{
	(void)state;
	assert_ptr_equal(engine_parse_name("sync"), &engine_sync);
	assert_null(engine_parse_name("auto"));
	assert_null(engine_parse_name(""));
	assert_null(engine_parse_name("SYNC"));
	assert_null(engine_parse_name("posixaio"));
	const struct engine_ops *ops = &engine_sync;
	char note[256];
	errno = 0;
	assert_int_equal(engine_pick("nonsense", &ops, note, sizeof(note)), -1);
	assert_int_equal(errno, EINVAL);
	assert_null(ops);
	assert_non_null(strstr(note, "nonsense"));
	assert_int_equal(engine_pick("sync", &ops, note, sizeof(note)), 0);
	assert_ptr_equal(ops, &engine_sync);
	assert_string_equal(note, "");
}

/* ---- the timed loop through an engine -------------------------------------- */

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
	snprintf(f->path, sizeof(f->path), "/var/tmp/diskbench-test-engine-XXXXXX");
	f->fd = mkstemp(f->path);
	if (f->fd < 0) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	close(f->fd);
	int rc = unlink(f->path);
	free(f);
	return rc;
}

static struct bench_job make_job(int fd, enum io_dir dir, enum io_pattern pat, uint64_t region)
{
	struct bench_job job;
	memset(&job, 0, sizeof(job));
	job.fd = fd;
	job.dir = dir;
	job.pattern = pat;
	job.bs = 4096;
	job.region = region;
	job.bytes_limit = region;
	job.threads = 1;
	job.seed = 7;
	return job;
}

static struct bench_outcome *run(const struct bench_job *job, int want_rc)
{
	struct bench_outcome *out = malloc(sizeof(*out));
	assert_non_null(out);
	memset(out, 0x5a, sizeof(*out)); /* bench_run must set everything */
	int rc = bench_run(job, out, NULL);
	if (rc != want_rc)
		print_error("bench_run: %d (%s at %llu: %s)\n", rc,
			    out->failed_op ? out->failed_op : "-",
			    (unsigned long long)out->failed_offset, strerror(out->error));
	assert_int_equal(rc, want_rc);
	return out;
}

static void lay_out(int fd, uint64_t len)
{
	volatile int stop = 0;
	assert_int_equal(io_layout(fd, len, 1 << 20, false, 3, &stop), 0);
}

static uint64_t sum(const uint64_t *v, unsigned n)
{
	uint64_t s = 0;
	for (unsigned i = 0; i < n; i++)
		s += v[i];
	return s;
}

/* A mixed job keeps reads and writes apart; the merge is their sum; at
 * queue depth 1 every I/O had one in flight. */
static void test_mixed_split(void **state)
{
	struct fx *f = *state;
	lay_out(f->fd, 4 << 20);
	struct bench_job job = make_job(f->fd, IO_READ, PAT_RAND, 4 << 20);
	job.write_pct = 30;
	struct bench_outcome *out = run(&job, 0);
	assert_int_equal(out->ios, 1024);
	assert_true(out->writes > 200 && out->writes < 420);
	assert_int_equal(out->lat_write.count, out->writes);
	assert_int_equal(out->lat_read.count, out->ios - out->writes);
	assert_int_equal(out->lat.count, out->ios);
	assert_int_equal(out->lat.min, out->lat_read.min < out->lat_write.min ? out->lat_read.min
										 : out->lat_write.min);
	assert_int_equal(out->lat.max, out->lat_read.max > out->lat_write.max ? out->lat_read.max
										 : out->lat_write.max);
	assert_int_equal(out->qd_hist[0], out->ios);
	assert_int_equal(sum(out->qd_hist, BENCH_QD_BUCKETS), out->ios);
	assert_string_equal(out->engine_name, "sync");
	free(out);

	/* a pure read job: no write histogram at all */
	job.write_pct = 0;
	out = run(&job, 0);
	assert_int_equal(out->writes, 0);
	assert_int_equal(out->lat_write.count, 0);
	assert_int_equal(out->lat_read.count, out->ios);
	free(out);
}

/* A depth the engine cannot keep is refused before any I/O. */
static void test_qd_refused(void **state)
{
	struct fx *f = *state;
	struct bench_job job = make_job(f->fd, IO_WRITE, PAT_SEQ, 1 << 20);
	job.qd = 2;
	struct bench_outcome *out = run(&job, -1);
	assert_int_equal(out->error, EINVAL);
	assert_string_equal(out->failed_op, "queue depth");
	assert_int_equal(out->ios, 0);
	free(out);
	struct stat st;
	assert_int_equal(fstat(f->fd, &st), 0);
	assert_int_equal(st.st_size, 0);
}

struct samples {
	unsigned calls;
	uint64_t last_bytes, last_ios;
	bool monotonic;
};

static void on_sample(void *ctx, const struct bench_sample *s)
{
	struct samples *c = ctx;
	if (s->bytes < c->last_bytes || s->ios < c->last_ios)
		c->monotonic = false;
	c->last_bytes = s->bytes;
	c->last_ios = s->ios;
	c->calls++;
}

static void check_sampler(const struct bench_job *job)
{
	struct samples c = { .monotonic = true };
	struct bench_sampler sampler = { 0.05, on_sample, &c };
	struct bench_outcome *out = malloc(sizeof(*out));
	assert_non_null(out);
	assert_int_equal(bench_run(job, out, &sampler), 0);
	assert_true(c.calls >= 3);
	assert_true(c.monotonic);
	assert_true(c.last_ios > 0);
	assert_true(c.last_bytes <= out->bytes);
	assert_true(c.last_ios <= out->ios);
	assert_int_equal(c.last_bytes % job->bs, 0);
	free(out);
}

static void test_sampler(void **state)
{
	struct fx *f = *state;
	lay_out(f->fd, 4 << 20);
	struct bench_job job = make_job(f->fd, IO_READ, PAT_RAND, 4 << 20);
	job.bytes_limit = UINT64_MAX;
	job.time_limit_s = 0.3;
	check_sampler(&job);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_complete_whole),
		cmocka_unit_test(test_complete_short),
		cmocka_unit_test(test_complete_eof),
		cmocka_unit_test(test_complete_errors),
		cmocka_unit_test(test_complete_again),
		cmocka_unit_test(test_qd_buckets),
		cmocka_unit_test(test_parse_name),
		cmocka_unit_test_setup_teardown(test_mixed_split, setup, teardown),
		cmocka_unit_test_setup_teardown(test_qd_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sampler, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
