/* LDFLAGS: -Wl,--wrap=plat_discard -Wl,--wrap=fstat -Wl,--wrap=syscall */
/* Trims an engine cannot queue (issue 39, items 2 and 3), with the kernel's
 * answers made known: plat_discard is wrapped to take a set time (and, on
 * a file the engines are told is a block device, to punch the hole a
 * BLKDISCARD would make), fstat to call the test's file a block device, and
 * syscall to see each request as io_submit hands it to the kernel.
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
#include <stdatomic.h>
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

static struct {
	int blockdev_fd;            /* fstat calls it a block device; -1: none */
	uint64_t discard_ns;        /* each discard takes this long */
	atomic_uint discards;       /* calls of plat_discard */
	atomic_uint submits;        /* io_submit calls that carried a read */
	atomic_uint_fast64_t read_late_ns; /* the most a read waited, from its stamp
					    * to io_submit */
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
	atomic_fetch_add(&fake.discards, 1);
	nap(fake.discard_ns);
	if (is_blockdev && fd == fake.blockdev_fd)
		is_blockdev = false; /* the file's hole is the device's discard */
	return __real_plat_discard(fd, is_blockdev, offset, len);
}

int __wrap_fstat(int fd, struct stat *st)
{
	int rc = __real_fstat(fd, st);
	if (rc == 0 && fd == fake.blockdev_fd)
		st->st_mode = (st->st_mode & ~(mode_t)S_IFMT) | S_IFBLK;
	return rc;
}

/* What io_submit is handed: how long after its stamp each read got there. */
static void see_submit(long n, struct iocb **cbs)
{
	uint64_t now = clock_ns(), late = 0;
	bool reads = false;
	for (long i = 0; i < n; i++) {
		const struct engine_io *io = (const struct engine_io *)(uintptr_t)cbs[i]->aio_data;
		if (cbs[i]->aio_lio_opcode != IOCB_CMD_PREAD)
			continue;
		reads = true;
		late = now - io->t_submit > late ? now - io->t_submit : late;
	}
	if (!reads)
		return;
	atomic_fetch_add(&fake.submits, 1);
	uint_fast64_t was = atomic_load(&fake.read_late_ns);
	while (late > was && !atomic_compare_exchange_weak(&fake.read_late_ns, &was, late))
		;
}

/* The engines pass at most six words, as the kernel takes them. */
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
	fake.blockdev_fd = blockdev_fd;
	fake.discard_ns = discard_ns;
	atomic_store(&fake.discards, 0);
	atomic_store(&fake.submits, 0);
	atomic_store(&fake.read_late_ns, 0);
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
	assert_int_equal(atomic_load(&fake.discards), 64);
	assert_string_equal(out->trim_path, "ioctl_blkdiscard");
	free(out);

	/* the file, where the ring's trims work: none is done synchronously */
	fake_reset(-1, 0);
	out = run(&job, 0);
	assert_int_equal(out->trims, 64);
	assert_int_equal(atomic_load(&fake.discards), 0);
	assert_string_equal(out->trim_path, "uring_fallocate");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_refused_queue_redone, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
