/* Unit tests of the engine interface (src/engine*.c) and of the timed loop
 * through it (src/run/bench.c): the completion handler every engine shares,
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
#include <signal.h>
#include <sys/resource.h>
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
	assert_ptr_equal(engine_parse_name("aio"), &engine_aio);
	assert_ptr_equal(engine_parse_name("libaio"), &engine_aio);
	assert_ptr_equal(engine_parse_name("uring"), &engine_uring);
	assert_ptr_equal(engine_parse_name("io_uring"), &engine_uring);
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
	job.mix = mix_read_write(30);
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
	job.mix = mix_read_write(0);
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
	struct bench_sampler sampler = { 0.05, on_sample, &c, NULL };
	struct bench_outcome *out = malloc(sizeof(*out));
	assert_non_null(out);
	assert_int_equal(bench_run(job, out, &sampler), 0);
	/* 0.05 s apart over at least 0.5 s: 10 due; a loaded machine (or
	 * valgrind, which runs one thread at a time) may starve a few */
	assert_true(c.calls >= 2);
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
	job.time_limit_s = 0.5;
	check_sampler(&job);
}

/* ---- every engine ------------------------------------------------------------ */

static const struct engine_ops *const all_engines[] = { &engine_sync, &engine_aio, &engine_uring };
#define NALL (sizeof(all_engines) / sizeof(all_engines[0]))

/* The engines this kernel runs here (io_uring or AIO may be refused, as in
 * a container); a skipped one is said on stderr. */
static bool runs_here(const struct engine_ops *ops)
{
	char why[256];
	if (ops->probe(why, sizeof(why)) == 0)
		return true;
	print_message("skipping the %s engine: %s\n", ops->name, why);
	return false;
}

static unsigned depth_for(const struct engine_ops *ops, unsigned want)
{
	return ops->max_qd < want ? ops->max_qd : want;
}

/* A trim the kernel refuses, queued or not: io_uring's EOPNOTSUPP turns it
 * to the synchronous call (which the run then names), whose error fails the
 * run as a "trim" at its offset.  /proc/self/comm is a regular file without
 * fallocate, open for writing by its owner. */
static void test_trim_refused(void **state)
{
	(void)state;
	int fd = open("/proc/self/comm", O_RDWR);
	if (fd < 0) {
		print_message("skipping: /proc/self/comm: %s\n", strerror(errno));
		return;
	}
	for (size_t e = 0; e < NALL; e++) {
		if (!runs_here(all_engines[e]))
			continue;
		struct bench_job job = make_job(fd, IO_WRITE, PAT_SEQ, 4096);
		job.engine = all_engines[e];
		job.mix = (struct mix){ { 0, 0, 100 } };
		struct bench_outcome *out = run(&job, -1);
		assert_int_equal(out->error, EOPNOTSUPP);
		assert_string_equal(out->failed_op, "trim");
		assert_non_null(out->trim_path);
		assert_string_equal(out->trim_path, "fallocate_punch_hole");
		free(out);
	}
	close(fd);
}

/* A mix with trims on every engine: each trim is counted with its own
 * latency, the engine says how it ran them (queued through io_uring, else
 * fallocate at once), and a trim-only pass punches holes that read as
 * zeros while the file keeps its size. */
static void test_trims(void **state)
{
	struct fx *f = *state;
	struct stat st;
	for (size_t e = 0; e < NALL; e++) {
		if (!runs_here(all_engines[e]))
			continue;
		lay_out(f->fd, 4 << 20);
		struct bench_job job = make_job(f->fd, IO_WRITE, PAT_RAND, 4 << 20);
		job.engine = all_engines[e];
		job.qd = depth_for(all_engines[e], 4);
		assert_int_equal(mix_parse("r60,w30,t10", &job.mix, (char[64]){ 0 }, 64), 0);
		struct bench_outcome *out = run(&job, 0);
		assert_int_equal(out->ios, 1024);
		assert_true(out->trims > 50 && out->trims < 160);
		assert_int_equal(out->lat_trim.count, out->trims);
		assert_int_equal(out->lat_read.count + out->lat_write.count + out->trims, out->ios);
		assert_string_equal(out->trim_path, all_engines[e] == &engine_uring
							    ? "uring_fallocate" : "fallocate_punch_hole");
		free(out);

		job.mix = (struct mix){ { 0, 0, 100 } };
		job.pattern = PAT_SEQ;
		assert_int_equal(fstat(f->fd, &st), 0);
		blkcnt_t before = st.st_blocks;
		out = run(&job, 0);
		assert_int_equal(out->trims, 1024);
		assert_int_equal(fstat(f->fd, &st), 0);
		assert_int_equal(st.st_size, 4 << 20);
		assert_true(st.st_blocks < before / 8);
		char block[4096], zero[4096] = { 0 };
		assert_int_equal(pread(f->fd, block, sizeof(block), 1 << 20), (ssize_t)sizeof(block));
		assert_memory_equal(block, zero, sizeof(block));
		free(out);
	}
}

/* The file again, with O_DIRECT where the filesystem has it, so that aio
 * and io_uring are really asynchronous. */
static int reopen_direct(const char *path)
{
	int fd = open(path, O_RDWR | O_DIRECT);
	return fd >= 0 ? fd : open(path, O_RDWR);
}

static unsigned char *slurp(int fd, size_t len)
{
	unsigned char *data = malloc(len);
	assert_non_null(data);
	memset(data, 0xee, len);
	assert_int_equal(pread(fd, data, len, 0), (ssize_t)len);
	return data;
}

/* For one seed, random writes write the same bytes whatever the engine and
 * the depth: the same offsets (the generator), the same data at each (it
 * depends only on offset and seed), the same counts; the warm-up writes
 * are the same too. */
static void test_equivalent_writes(void **state)
{
	struct fx *f = *state;
	const size_t len = 4 << 20;
	unsigned char *want = NULL;
	uint64_t want_ios = 0;
	for (size_t i = 0; i < NALL; i++) {
		if (!runs_here(all_engines[i]))
			continue;
		assert_int_equal(ftruncate(f->fd, 0), 0);
		assert_int_equal(ftruncate(f->fd, (off_t)len), 0);
		int fd = reopen_direct(f->path);
		assert_true(fd >= 0);
		struct bench_job job = make_job(fd, IO_WRITE, PAT_RAND, len);
		job.bytes_limit = len / 2;
		job.engine = all_engines[i];
		job.qd = depth_for(all_engines[i], 8);
		job.warmup_ios = 3;
		job.reap_each = i % 2 == 1; /* the engines alternate --reap modes: the same bytes */
		struct bench_outcome *out = run(&job, 0);
		assert_string_equal(out->engine_name, all_engines[i]->name);
		assert_int_equal(out->bytes, len / 2);
		assert_int_equal(out->ios, len / 2 / 4096);
		assert_int_equal(out->writes, out->ios);
		assert_int_equal(out->lat_write.count, out->ios);
		if (job.reap_each) /* one wait call per completion, by the engine's count */
			assert_int_equal(out->reap_calls, out->reaped);
		assert_true(out->reaped >= out->ios && out->reap_calls <= out->reaped);
		assert_int_equal(sum(out->qd_hist, BENCH_QD_BUCKETS), out->ios);
		if (job.qd > 1)
			assert_true(out->qd_hist[bench_qd_bucket(job.qd)] > out->ios / 2);
		free(out);
		close(fd);
		unsigned char *got = slurp(f->fd, len);
		if (!want) {
			want = got;
			want_ios = len / 2 / 4096;
			continue;
		}
		assert_int_equal(len / 2 / 4096, want_ios);
		if (memcmp(got, want, len) != 0)
			fail_msg("the %s engine wrote other bytes than the sync engine", all_engines[i]->name);
		free(got);
	}
	free(want);
}

static uint64_t fnv1a(const unsigned char *p, size_t n, uint64_t h)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3u;
	return h;
}

/* Reads every block of a file through an engine directly, qd at a time,
 * and returns a checksum of (offset, data) over all of them.  reap_each
 * (--reap=syscall): the engine's own count of reap calls is one per
 * completion; otherwise never more.  io_uring registers its buffers and
 * the file, or says why not. */
#define READ_REAP_EACH 1u /* --reap=syscall */
#define READ_SQPOLL 2u    /* --sqpoll */
static uint64_t read_all(const struct engine_ops *ops, int fd, size_t len, unsigned qd,
			 unsigned how)
{
	bool reap_each = how & READ_REAP_EACH;
	const uint32_t bs = 4096;
	unsigned char *slab;
	assert_int_equal(posix_memalign((void **)&slab, 4096, (size_t)qd * bs), 0);
	memset(slab, 0, (size_t)qd * bs); /* valgrind cannot see the kernel write it */
	void *bufs[16];
	struct engine_io ios[16], *done[16], *batch[16];
	for (unsigned i = 0; i < qd; i++)
		bufs[i] = slab + (size_t)i * bs;
	char why[256];
	struct engine_setup setup = { .fd = fd, .qd = qd, .bufs = bufs, .buf_len = bs,
				      .reap_each = reap_each, .sqpoll = how & READ_SQPOLL };
	struct engine *e = ops->open(&setup, why, sizeof(why));
	if (!e && setup.sqpoll) {
		free(slab);
		return 0; /* a sandbox that refuses SQPOLL: the caller skips */
	}
	if (!e)
		fail_msg("%s: %s", ops->name, why);
	uint64_t sum = 0, next = 0, completions = 0;
	unsigned inflight = 0, free_slots[16], nfree = qd;
	for (unsigned i = 0; i < qd; i++)
		free_slots[i] = i;
	while (next < len || inflight > 0) {
		unsigned n = 0;
		for (; nfree > 0 && next < len; next += bs) {
			struct engine_io *io = &ios[free_slots[--nfree]];
			memset(io, 0, sizeof(*io));
			io->slot = (uint32_t)(io - ios);
			io->buf = bufs[io->slot];
			io->len = bs;
			io->offset = next;
			batch[n++] = io;
		}
		assert_int_equal(ops->submit(e, batch, n), 0);
		inflight += n;
		int got = ops->reap(e, done, 1, qd);
		assert_true(got >= 1);
		for (int i = 0; i < got; i++) {
			assert_int_equal(done[i]->result, bs);
			uint64_t h = fnv1a(done[i]->buf, bs, 0xcbf29ce484222325u ^ done[i]->offset);
			sum += h; /* order-free: completions come in any order */
			free_slots[nfree++] = done[i]->slot;
		}
		inflight -= (unsigned)got;
		completions += (unsigned)got;
	}
	struct engine_facts facts;
	ops->facts(e, &facts);
	if (ops == &engine_sync) {
		assert_int_equal(facts.reap_calls, 0); /* done inside submit */
		assert_int_equal(facts.fixed_buffers, -1);
	} else if (reap_each) {
		assert_int_equal(facts.reap_calls, completions);
	} else {
		assert_true(facts.reap_calls <= completions);
	}
	if (ops == &engine_uring) {
		assert_true(facts.fixed_buffers == 1 || strstr(facts.why, "buffers refused"));
		assert_true(facts.fixed_file == 1 || strstr(facts.why, "file refused"));
		assert_true((facts.fixed_buffers == 1 && facts.fixed_file == 1) == !facts.why[0]);
	}
	ops->close(e);
	free(slab);
	return sum;
}

static void test_equivalent_reads(void **state)
{
	struct fx *f = *state;
	const size_t len = 2 << 20;
	lay_out(f->fd, len);
	unsigned char *data = slurp(f->fd, len);
	uint64_t want = 0;
	for (size_t off = 0; off < len; off += 4096)
		want += fnv1a(data + off, 4096, 0xcbf29ce484222325u ^ off);
	free(data);
	int fd = reopen_direct(f->path);
	assert_true(fd >= 0);
	for (size_t i = 0; i < NALL; i++) {
		if (!runs_here(all_engines[i]))
			continue;
		for (int each = 0; each < 2; each++) {
			assert_int_equal(read_all(all_engines[i], fd, len, depth_for(all_engines[i], 1),
						  each ? READ_REAP_EACH : 0),
					 want);
			assert_int_equal(read_all(all_engines[i], fd, len,
						  depth_for(all_engines[i], 16), each ? READ_REAP_EACH : 0),
					 want);
		}
	}
	/* a kernel thread that takes the submissions reads the same bytes */
	if (runs_here(&engine_uring)) {
		for (unsigned how = READ_SQPOLL; how <= (READ_SQPOLL | READ_REAP_EACH); how++) {
			uint64_t got = read_all(&engine_uring, fd, len, 16, how);
			assert_true(got == want || got == 0); /* 0: SQPOLL refused here */
		}
	}
	close(fd);
}

/* A file that ends inside the region it was to cover (it shrank): the short
 * read is resumed, then the run fails with the offset where the file ends,
 * never a short success, whatever the engine. */
static void test_short_file(void **state)
{
	struct fx *f = *state;
	const uint64_t size = 100 * 4096 + 100;
	lay_out(f->fd, size);
	for (size_t i = 0; i < NALL; i++) {
		if (!runs_here(all_engines[i]))
			continue;
		struct bench_job job = make_job(f->fd, IO_READ, PAT_SEQ, 101 * 4096);
		job.engine = all_engines[i];
		job.qd = depth_for(all_engines[i], 8);
		struct bench_outcome *out = run(&job, -1);
		assert_true(out->eof);
		assert_int_equal(out->error, ENODATA);
		assert_string_equal(out->failed_op, "read");
		assert_int_equal(out->failed_offset, size);
		assert_int_equal(out->ended, BENCH_END_ERROR);
		assert_true(out->bytes <= 100 * 4096);
		free(out);
	}
}

/* The negative case: a run that goes round a region inside the file for
 * its time never meets the end of the file, and says it wrapped; one pass
 * (no wrap, bytes_limit = region) moves exactly the region and says so. */
static void test_time_and_pass(void **state)
{
	struct fx *f = *state;
	const uint64_t region = 16 * 4096;
	lay_out(f->fd, region);
	for (size_t i = 0; i < NALL; i++) {
		if (!runs_here(all_engines[i]))
			continue;
		for (int pat = 0; pat < 2; pat++) {
			struct bench_job job = make_job(f->fd, IO_READ, pat ? PAT_RAND : PAT_SEQ, region);
			job.engine = all_engines[i];
			job.qd = depth_for(all_engines[i], 4);
			job.wrap = true;
			job.bytes_limit = UINT64_MAX;
			job.time_limit_s = 0.1;
			struct bench_outcome *out = run(&job, 0);
			assert_false(out->eof);
			assert_int_equal(out->ended, BENCH_END_TIME);
			assert_true(out->bytes > region); /* 16 blocks take far less than 0.1 s */
			assert_true(out->seconds >= 0.1);
			free(out);
			job.wrap = false;
			job.bytes_limit = region;
			job.time_limit_s = 10;
			out = run(&job, 0);
			assert_int_equal(out->ended, BENCH_END_PASS);
			assert_int_equal(out->bytes, region);
			free(out);
		}
	}
}

/* What ended a run, merged over its threads: a failure or stop beats any
 * clean end; one thread at the deadline makes it a timed run; one pass only
 * when every thread finished its share (the negative case: none ran). */
static void test_end_merge(void **state)
{
	(void)state;
	assert_int_equal(bench_end_merge(BENCH_END_NONE, BENCH_END_NONE), BENCH_END_NONE);
	assert_int_equal(bench_end_merge(BENCH_END_PASS, BENCH_END_NONE), BENCH_END_PASS);
	assert_int_equal(bench_end_merge(BENCH_END_PASS, BENCH_END_TIME), BENCH_END_TIME);
	assert_int_equal(bench_end_merge(BENCH_END_TIME, BENCH_END_PASS), BENCH_END_TIME);
	assert_int_equal(bench_end_merge(BENCH_END_TIME, BENCH_END_STEADY), BENCH_END_STEADY);
	assert_int_equal(bench_end_merge(BENCH_END_STEADY, BENCH_END_STOP), BENCH_END_STOP);
	assert_int_equal(bench_end_merge(BENCH_END_ERROR, BENCH_END_STOP), BENCH_END_ERROR);
}

/* --batch: at most N requests per submit call, counted; without it a full
 * queue goes in one call, so the first call alone has qd requests. */
static void test_batch(void **state)
{
	struct fx *f = *state;
	const uint64_t region = 64 * 4096;
	lay_out(f->fd, region);
	for (size_t i = 0; i < NALL; i++) {
		if (!runs_here(all_engines[i]))
			continue;
		unsigned batches[] = { 1, 3, 0 };
		for (unsigned b = 0; b < 3; b++) {
			struct bench_job job = make_job(f->fd, IO_READ, PAT_RAND, region);
			job.engine = all_engines[i];
			job.qd = depth_for(all_engines[i], 8);
			job.batch = batches[b];
			job.bytes_limit = 256 * 4096;
			struct bench_outcome *out = run(&job, 0);
			assert_int_equal(out->submitted, 256); /* every counted request, once */
			assert_true(out->submit_calls > 0);
			if (job.qd == 1 || batches[b] == 1)
				assert_int_equal(out->submit_calls, out->submitted);
			else if (batches[b] == 3)
				assert_true(out->submit_calls * 3 >= out->submitted &&
					    out->submit_calls < out->submitted);
			else
				assert_true(out->submit_calls <= out->submitted - (job.qd - 1));
			free(out);
		}
	}
}

/* A write the kernel refuses (past RLIMIT_FSIZE: EFBIG) fails the run with
 * the op and a block offset past the limit; what is in flight is drained
 * and only the writes that completed are counted. */
static void test_write_error(void **state)
{
	struct fx *f = *state;
	struct rlimit old;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_IGN);
	for (size_t i = 0; i < NALL; i++) {
		if (!runs_here(all_engines[i]))
			continue;
		assert_int_equal(ftruncate(f->fd, 0), 0);
		struct bench_job job = make_job(f->fd, IO_WRITE, PAT_SEQ, 1 << 20);
		job.engine = all_engines[i];
		job.qd = depth_for(all_engines[i], 8);
		struct rlimit small = { 256 << 10, old.rlim_max };
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
		struct bench_outcome *out = run(&job, -1);
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
		assert_int_equal(out->error, EFBIG);
		assert_string_equal(out->failed_op, "write");
		assert_true(out->failed_offset >= 256 << 10);
		assert_int_equal(out->failed_offset % 4096, 0);
		assert_true(out->bytes <= 256 << 10);
		assert_int_equal(out->lat.count, out->ios);
		assert_false(out->stopped);
		free(out);
	}
	signal(SIGXFSZ, SIG_DFL);
}

/* A misaligned O_DIRECT read is refused: by io_submit for aio (the
 * refusal path), in the CQE for io_uring, by pread for sync. */
static void test_refused_request(void **state)
{
	struct fx *f = *state;
	lay_out(f->fd, 1 << 20);
	int fd = open(f->path, O_RDONLY | O_DIRECT);
	if (fd < 0) {
		print_message("skipping: no O_DIRECT on /var/tmp\n");
		return;
	}
	for (size_t i = 0; i < NALL; i++) {
		if (!runs_here(all_engines[i]))
			continue;
		struct bench_job job = make_job(fd, IO_READ, PAT_SEQ, 1 << 20);
		job.bs = 4095;
		job.region = 4095 * 200;
		job.bytes_limit = job.region;
		job.engine = all_engines[i];
		job.qd = depth_for(all_engines[i], 4);
		struct bench_outcome *out = run(&job, -1);
		assert_int_equal(out->error, EINVAL);
		assert_string_equal(out->failed_op, "read");
		assert_int_equal(out->failed_offset % 4095, 0);
		free(out);
	}
	close(fd);
}

/* Quota, deadline and a stop request hold with every engine. */
struct stopper {
	unsigned calls;
};

static void stop_on_second(void *ctx, const struct bench_sample *s)
{
	(void)s;
	struct stopper *st = ctx;
	if (++st->calls == 2)
		bench_stop_requested = 1;
}

static void count_calls(void *ctx, const struct bench_sample *s)
{
	(void)s;
	((struct stopper *)ctx)->calls++;
}

/* the sampler's done: the run may end after the second sample */
static bool done_on_second(void *ctx)
{
	return ((struct stopper *)ctx)->calls >= 2;
}

static void test_limits(void **state)
{
	struct fx *f = *state;
	lay_out(f->fd, 8 << 20);
	int fd = reopen_direct(f->path);
	for (size_t i = 0; i < NALL; i++) {
		if (!runs_here(all_engines[i]))
			continue;
		struct bench_job job = make_job(fd, IO_READ, PAT_RAND, 8 << 20);
		job.engine = all_engines[i];
		job.qd = depth_for(all_engines[i], 16);
		job.bytes_limit = 3000 * 4096;
		struct bench_outcome *out = run(&job, 0);
		assert_int_equal(out->bytes, 3000 * 4096); /* not one block more */
		free(out);

		job.bytes_limit = UINT64_MAX;
		job.time_limit_s = 0.25;
		out = run(&job, 0);
		assert_true(out->seconds >= 0.25 && out->seconds < 0.6);
		assert_true(out->ios > 0);
		free(out);

		struct stopper st = { 0 };
		struct bench_sampler sampler = { 0.02, stop_on_second, &st, NULL };
		job.time_limit_s = 30;
		out = malloc(sizeof(*out));
		assert_non_null(out);
		bench_stop_requested = 0;
		assert_int_equal(bench_run(&job, out, &sampler), 0);
		bench_stop_requested = 0;
		assert_true(out->stopped);
		assert_true(out->seconds < 5);
		assert_int_equal(out->error, 0);
		free(out);

		/* done ends the run early, as a deadline does: not a stop */
		st.calls = 0;
		sampler = (struct bench_sampler){ 0.02, count_calls, &st, done_on_second };
		out = malloc(sizeof(*out));
		assert_non_null(out);
		assert_int_equal(bench_run(&job, out, &sampler), 0);
		assert_false(out->stopped);
		assert_true(out->seconds < 5);
		assert_true(out->ios > 0);
		assert_int_equal(out->error, 0);
		free(out);

		/* the sampler sees the counters move with every engine */
		job.time_limit_s = 0.5;
		check_sampler(&job);
	}
	close(fd);
}

/* ---- data that does not dedupe ------------------------------------------ */

static const unsigned char *sectors_base;

static int by_sector(const void *a, const void *b)
{
	return memcmp(sectors_base + *(const uint32_t *)a * 512,
		      sectors_base + *(const uint32_t *)b * 512, 512);
}

/* The number of 512-byte sectors of data[0..len) that equal another one. */
static size_t repeated_sectors(const unsigned char *data, size_t len)
{
	size_t n = len / 512, repeats = 0;
	uint32_t *order = malloc(n * sizeof(*order));
	assert_non_null(order);
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	sectors_base = data;
	qsort(order, n, sizeof(*order), by_sector); /* equal sectors end up side by side */
	for (size_t i = 1; i < n; i++)
		repeats += memcmp(data + order[i] * 512, data + order[i - 1] * 512, 512) == 0;
	free(order);
	return repeats;
}

/* No two 512-byte sectors of a written region are equal: arrays that
 * dedupe or compress at 512 B cannot fold what a write test writes, nor
 * the file a read test lays out; with any engine, depth, threads, block
 * size. */
static void test_sectors_unique(void **state)
{
	struct fx *f = *state;
	const size_t len = 4 << 20;
	static const uint64_t sizes[] = { 4096, 65536, 1 << 20 };
	for (size_t i = 0; i < NALL; i++) {
		if (!runs_here(all_engines[i]))
			continue;
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			assert_int_equal(ftruncate(f->fd, 0), 0);
			struct bench_job job = make_job(f->fd, IO_WRITE, PAT_SEQ, len);
			job.bs = sizes[k];
			job.threads = 2;
			job.engine = all_engines[i];
			job.qd = depth_for(all_engines[i], 4);
			free(run(&job, 0));
			unsigned char *data = slurp(f->fd, len);
			assert_int_equal(repeated_sectors(data, len), 0);
			free(data);
		}
	}
	assert_int_equal(ftruncate(f->fd, 0), 0);
	lay_out(f->fd, len);
	unsigned char *data = slurp(f->fd, len);
	assert_int_equal(repeated_sectors(data, len), 0);
	/* the check itself finds repeats: zeros are all alike */
	memset(data + 512, 0, 1024);
	assert_int_equal(repeated_sectors(data, len), 1);
	free(data);
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
		cmocka_unit_test_setup_teardown(test_trims, setup, teardown),
		cmocka_unit_test(test_trim_refused),
		cmocka_unit_test_setup_teardown(test_qd_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sampler, setup, teardown),
		cmocka_unit_test_setup_teardown(test_equivalent_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_equivalent_reads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_time_and_pass, setup, teardown),
		cmocka_unit_test_setup_teardown(test_batch, setup, teardown),
		cmocka_unit_test(test_end_merge),
		cmocka_unit_test_setup_teardown(test_write_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_request, setup, teardown),
		cmocka_unit_test_setup_teardown(test_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sectors_unique, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
