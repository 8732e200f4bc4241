/* LDFLAGS: -Wl,--wrap=pread */
/* Unit tests of src/run/runner.c's judgements that need no real device: the
 * warnings about the target (a filesystem that ignores O_DIRECT), and how a
 * failed run is named (O_DIRECT's EINVAL becomes the alignment message, not
 * "Invalid argument at offset 0").  pread is wrapped so a run can fail on
 * demand; everything else is real, in a mkdtemp directory. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>

#include "util.h" /* before cmocka.h, whose fail() is a macro */

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "runner.h"

static int pread_errno; /* 0: the real pread */

ssize_t __real_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off)
{
	if (pread_errno) {
		errno = pread_errno;
		return -1;
	}
	return __real_pread(fd, buf, n, off);
}

static bool has_warning(const struct result *r, const char *needle)
{
	for (unsigned i = 0; i < r->nwarnings; i++)
		if (strstr(r->warnings[i], needle))
			return true;
	return false;
}

static void test_zfs_warning(void **state)
{
	(void)state;
	static struct target t;
	static struct result r;
	struct options opt = { .direct = true, .bs = 4096 };
	memset(&t, 0, sizeof(t));
	t.fd = -1;
	t.kind = TARGET_FILE;
	t.fs_known = true;
	snprintf(t.fs.type, sizeof(t.fs.type), "zfs");
	snprintf(t.path, sizeof(t.path), "/tank/f");
	run_warn_target(&t, &opt, false, &r);
	assert_true(has_warning(&r, "zfs"));
	assert_true(has_warning(&r, "ARC"));

	memset(&r, 0, sizeof(r));
	opt.direct = false; /* through the page cache anyway: nothing to add */
	run_warn_target(&t, &opt, false, &r);
	assert_false(has_warning(&r, "zfs"));
	snprintf(t.fs.type, sizeof(t.fs.type), "ext4");
	opt.direct = true;
	run_warn_target(&t, &opt, false, &r);
	assert_int_equal(r.nwarnings, 0);
}

static void run_failing_read(int err, bool direct, opt_bits accepts, struct result *r)
{
	char dir[] = "/tmp/diskbench-test-runner-XXXXXX", path[64];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/f", dir);
	int fd = open(path, O_RDWR | O_CREAT, 0600);
	assert_true(fd >= 0);
	char block[4096] = { 1 };
	for (int i = 0; i < 4; i++)
		assert_int_equal(write(fd, block, sizeof(block)), (ssize_t)sizeof(block));
	static struct target t;
	memset(&t, 0, sizeof(t));
	t.fd = fd;
	t.kind = TARGET_FILE;
	snprintf(t.path, sizeof(t.path), "%s", path);
	/* the sync engine: the wrapped pread is the one it calls */
	struct options opt = { .bs = 4096, .size = 16384, .threads = 1, .direct = direct,
			       .accepts = accepts, .engine = "sync", .qd = 1 };
	struct bench_job job;
	memset(r, 0, sizeof(*r));
	r->opt = &opt;
	run_describe_job(&job, IO_READ, PAT_SEQ, &opt, 16384);
	pread_errno = err;
	int code = run_measure(&t, &job, &opt, r);
	pread_errno = 0;
	assert_int_equal(code, EXIT_RUN);
	assert_false(r->measured);
	close(fd);
	unlink(path);
	rmdir(dir);
}

static void test_einval_is_alignment(void **state)
{
	(void)state;
	static struct result r;
	run_failing_read(EINVAL, true, OPT_NODIRECT, &r);
	assert_non_null(strstr(r.error, "O_DIRECT"));
	assert_non_null(strstr(r.error, "alignment"));
	assert_non_null(strstr(r.error, "--no-direct"));
	/* a command without --no-direct is not told to use it */
	run_failing_read(EINVAL, true, 0, &r);
	assert_non_null(strstr(r.error, "alignment"));
	assert_null(strstr(r.error, "--no-direct"));
	/* without O_DIRECT, EINVAL is what it is */
	run_failing_read(EINVAL, false, OPT_NODIRECT, &r);
	assert_null(strstr(r.error, "O_DIRECT"));
	assert_non_null(strstr(r.error, "Invalid argument"));
	/* other errors name the op and offset */
	run_failing_read(EIO, true, OPT_NODIRECT, &r);
	assert_non_null(strstr(r.error, "read '"));
	assert_non_null(strstr(r.error, "at offset 0"));
	assert_non_null(strstr(r.error, "Input/output error"));
}

/* A part's result (steady's round, sla's step) is measured into again and
 * again: what its last run kept is freed when it is made anew, and with the
 * whole's result at the end, never left behind (a zoned device's map each
 * round, found by reading, not by a leak checker). */
static unsigned released;
static void count_release(void *p)
{
	(void)p;
	released++;
}

static void test_part_reuse_releases(void **state)
{
	(void)state;
	struct result whole = { .target = "t" };
	struct options opt = { 0 };
	struct result *part = result_keep(&whole, sizeof(*part), result_release_part);
	assert_non_null(part);
	released = 0;
	run_part_result(part, &whole, "randwrite", &opt, IO_WRITE);
	assert_int_equal(released, 0); /* new: nothing to free */
	assert_non_null(result_keep(part, 64, count_release));
	assert_non_null(result_keep(part, 64, count_release));
	run_part_result(part, &whole, "randwrite", &opt, IO_WRITE);
	assert_int_equal(released, 2);
	assert_int_equal(part->nkept, 0);
	assert_string_equal(part->test, "randwrite");
	assert_non_null(result_keep(part, 64, count_release));
	result_release(&whole);
	assert_int_equal(released, 3);
	assert_int_equal(whole.nkept, 0);
}

/* run_fit_depth (issue 44): a depth nobody asked for gets the engine's
 * (sync: 1), with one warning naming what; one asked with --qd, or one the
 * engine holds, is kept, silently. */
static void test_fit_depth(void **state)
{
	(void)state;
	struct options opt = { .engine = "sync", .threads = 1 };
	struct result r = { .opt = &opt };
	assert_int_equal(run_fit_depth(&opt, 128, "the open loop", &r), 1);
	assert_int_equal(r.nwarnings, 1);
	assert_non_null(strstr(r.warnings[0], "the sync engine keeps 1 request in flight per "
				"thread, so the open loop has 1, not 128"));
	assert_int_equal(run_fit_depth(&opt, 1, "the open loop", &r), 1);
	opt.given = OPT_QD; /* asked: kept, the run then fails with the reason */
	assert_int_equal(run_fit_depth(&opt, 4, "the open loop", &r), 4);
	opt.given = 0;
	opt.engine = "nop"; /* io_uring's depth (where it cannot run: kept, the run fails) */
	assert_int_equal(run_fit_depth(&opt, 32, "the preconditioning", &r), 32);
	assert_int_equal(r.nwarnings, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zfs_warning),
		cmocka_unit_test(test_einval_is_alignment),
		cmocka_unit_test(test_part_reuse_releases),
		cmocka_unit_test(test_fit_depth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
