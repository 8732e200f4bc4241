/* LDFLAGS: -Wl,--wrap=plat_discard -Wl,--wrap=fstat -Wl,--wrap=syscall */
/* Trims an engine cannot queue (issue 39, items 2 and 3), with the kernel's
 * answers made known: plat_discard is wrapped to take a set time (and, on
 * a file the engines are told is a block device, to punch the hole a
 * BLKDISCARD would make), fstat to call the test's file a block device, and
 * syscall to see each request as io_submit hands it to the kernel.  The
 * runs have one worker thread, the only caller of the wrapped functions.
 *
 * A file the io_uring engine takes for a block device gets its trims as the
 * block layer's discard command (IORING_OP_URING_CMD), which no regular
 * file takes on any kernel: the kernel refuses every queued trim as it
 * refuses them on a block device before Linux 6.12, so each must be done
 * synchronously, and the run must not fail. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <linux/aio_abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "clock.h"
#include "engine.h"
#include "io.h"

#define MS 1000000ull

/* ---- the fakes ------------------------------------------------------------- */

#define MAX_DISCARDS 256

/* One worker thread calls the engines here, so plain fields are enough
 * where it alone writes them. */
static struct {
	int blockdev_fd;            /* fstat calls it a block device; -1: none */
	uint64_t discard_ns;        /* each discard sleeps this long */
	unsigned discards;          /* calls of plat_discard */
	uint64_t started[MAX_DISCARDS]; /* when each began (clock_ns) */
	uint64_t spent_ns;          /* what they really took, together */
	unsigned submits;           /* io_submit calls that carried a read */
	unsigned reads_behind;      /* reads that reached io_submit after a discard
				     * that began after their stamp */
} fake = { .blockdev_fd = -1 };

int __real_plat_discard(int fd, bool is_blockdev, uint64_t offset, uint64_t len);
int __wrap_plat_discard(int fd, bool is_blockdev, uint64_t offset, uint64_t len);
int __real_fstat(int fd, struct stat *st);
int __wrap_fstat(int fd, struct stat *st);
long __real_syscall(long nr, ...);
long __wrap_syscall(long nr, ...);

static void nap(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

int __wrap_plat_discard(int fd, bool is_blockdev, uint64_t offset, uint64_t len)
{
	uint64_t t0 = clock_ns();
	if (fake.discards < MAX_DISCARDS)
		fake.started[fake.discards] = t0;
	fake.discards++;
	nap(fake.discard_ns);
	if (is_blockdev && fd == fake.blockdev_fd)
		is_blockdev = false; /* the file's hole is the device's discard */
	int rc = __real_plat_discard(fd, is_blockdev, offset, len);
	fake.spent_ns += clock_ns() - t0;
	return rc;
}

int __wrap_fstat(int fd, struct stat *st)
{
	int rc = __real_fstat(fd, st);
	if (rc == 0 && fd == fake.blockdev_fd)
		st->st_mode = (st->st_mode & ~(mode_t)S_IFMT) | S_IFBLK;
	return rc;
}

/* Whether a discard began after t (and so before now). */
static bool discard_since(uint64_t t)
{
	unsigned n = fake.discards < MAX_DISCARDS ? fake.discards : MAX_DISCARDS;
	for (unsigned i = 0; i < n; i++)
		if (fake.started[i] > t)
			return true;
	return false;
}

/* What io_submit is handed: each read that a discard begun after its
 * stamp held back (whatever the machine's load, a count, not a time). */
static void see_submit(long n, struct iocb **cbs)
{
	bool reads = false;
	for (long i = 0; i < n; i++) {
		const struct engine_io *io = (const struct engine_io *)(uintptr_t)cbs[i]->aio_data;
		if (cbs[i]->aio_lio_opcode != IOCB_CMD_PREAD)
			continue;
		reads = true;
		fake.reads_behind += discard_since(io->t_submit);
	}
	fake.submits += reads;
}

/* The engines pass at most six words, as the kernel takes them; the six
 * are forwarded whatever the call, as glibc's syscall(2) itself loads all
 * six registers. */
long __wrap_syscall(long nr, ...)
{
	va_list ap;
	long a[6];
	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == __NR_io_submit)
		see_submit(a[1], (struct iocb **)a[2]);
	return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void fake_reset(int blockdev_fd, uint64_t discard_ns)
{
	memset(&fake, 0, sizeof(fake));
	fake.blockdev_fd = blockdev_fd;
	fake.discard_ns = discard_ns;
}

/* ---- fixture --------------------------------------------------------------- */

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
	snprintf(f->path, sizeof(f->path), "/var/tmp/diskbench-test-trims-XXXXXX");
	f->fd = mkstemp(f->path);
	if (f->fd < 0) {
		free(f);
		return -1;
	}
	volatile int stop = 0;
	if (io_layout(f->fd, 1 << 20, 1 << 20, false, 3, &stop) != 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	fake_reset(-1, 0);
	close(f->fd);
	int rc = unlink(f->path);
	free(f);
	return rc;
}

static bool runs_here(const struct engine_ops *ops)
{
	char why[256];
	if (ops->probe(why, sizeof(why)) == 0)
		return true;
	print_message("skipping the %s engine: %s\n", ops->name, why);
	return false;
}

/* ios trims (trim_pct of them; the rest reads) at qd 8 over the 1 MiB file. */
static struct bench_job trim_job(int fd, const struct engine_ops *ops, unsigned trim_pct,
				 uint64_t ios)
{
	struct bench_job job;
	memset(&job, 0, sizeof(job));
	job.fd = fd;
	job.dir = IO_WRITE;
	job.pattern = PAT_SEQ;
	job.bs = 4096;
	job.region = 1 << 20;
	job.bytes_limit = ios * job.bs;
	job.threads = 1;
	job.qd = 8;
	job.seed = 7;
	job.engine = ops;
	job.mix = (struct mix){ { 100 - trim_pct, 0, trim_pct } };
	return job;
}

static struct bench_outcome *run(const struct bench_job *job, int want_rc)
{
	struct bench_outcome *out = malloc(sizeof(*out));
	assert_non_null(out);
	memset(out, 0x5a, sizeof(*out));
	int rc = bench_run(job, out, NULL);
	if (rc != want_rc)
		print_error("bench_run: %d (%s at %llu: %s)\n", rc,
			    out->failed_op ? out->failed_op : "-",
			    (unsigned long long)out->failed_offset, strerror(out->error));
	assert_int_equal(rc, want_rc);
	return out;
}

/* ---- item 2: every queued trim the kernel refuses, redone ------------------- */

/* Eight trims queued at once, the kernel refusing each (as before 6.12 on a
 * block device): every one is done synchronously and the run ends well,
 * where before the first refusal turned later trims synchronous and failed
 * the run on the second, already queued. */
static void test_refused_queue_redone(void **state)
{
	struct fx *f = *state;
	if (!runs_here(&engine_uring))
		return;
	fake_reset(f->fd, 0);
	struct bench_job job = trim_job(f->fd, &engine_uring, 100, 64);
	struct bench_outcome *out = run(&job, 0);
	assert_int_equal(out->trims, 64);
	assert_int_equal(out->ios, 64);
	assert_int_equal(out->lat_trim.count, 64);
	/* each trim reached plat_discard once: none went through the ring */
	assert_int_equal(fake.discards, 64);
	assert_string_equal(out->trim_path, "ioctl_blkdiscard");
	free(out);

	/* the file, where the ring's trims work: none is done synchronously */
	fake_reset(-1, 0);
	out = run(&job, 0);
	assert_int_equal(out->trims, 64);
	assert_int_equal(fake.discards, 0);
	assert_string_equal(out->trim_path, "uring_fallocate");
	free(out);
}

/* ---- item 3: a synchronous trim's time is its own ---------------------------- */

/* Trims alone at qd 8, each discard at least 10 ms: each trim's latency is
 * its own discard's, not also the discards before it in the same submit
 * call (eight in a row: 4.5 times theirs on average), on aio and on
 * io_uring's fallback.  Against what the discards really took, so that a
 * loaded machine's late wake-ups count on both sides. */
static void test_trim_time_own(void **state)
{
	struct fx *f = *state;
	const uint64_t d = 10 * MS;
	const struct engine_ops *ops[] = { &engine_aio, &engine_uring };
	for (size_t e = 0; e < 2; e++) {
		if (!runs_here(ops[e]))
			continue;
		fake_reset(ops[e] == &engine_uring ? f->fd : -1, d);
		struct bench_job job = trim_job(f->fd, ops[e], 100, 24);
		struct bench_outcome *out = run(&job, 0);
		assert_int_equal(out->trims, 24);
		assert_int_equal(fake.discards, 24);
		double lat_ms = out->lat_trim.mean * (double)out->lat_trim.count / MS;
		double spent_ms = (double)fake.spent_ns / MS;
		if (lat_ms >= 2 * spent_ms)
			print_error("%s: the trims' latencies add up to %.1f ms, their discards took "
				    "%.1f ms\n", ops[e]->name, lat_ms, spent_ms);
		assert_true(out->lat_trim.min >= d);
		assert_true(lat_ms < 2 * spent_ms);
		free(out);
	}
}

/* Reads and trims at qd 8 through aio: the reads of a batch reach io_submit
 * before its trims are done, so no read starts a trim later than its
 * stamp. */
static void test_reads_not_behind_trims(void **state)
{
	struct fx *f = *state;
	const uint64_t d = 10 * MS;
	if (!runs_here(&engine_aio))
		return;
	fake_reset(-1, d);
	struct bench_job job = trim_job(f->fd, &engine_aio, 50, 48);
	struct bench_outcome *out = run(&job, 0);
	assert_true(out->trims > 8 && out->trims < 40);
	assert_true(fake.submits > 0);
	if (fake.reads_behind)
		print_error("%u reads reached io_submit after a discard begun after their stamp\n",
			    fake.reads_behind);
	assert_int_equal(fake.reads_behind, 0);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_refused_queue_redone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trim_time_own, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reads_not_behind_trims, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
