/* LDFLAGS: -Wl,--wrap=fdatasync */
/* Unit tests of src/run/checks.c's flush check, with fdatasync wrapped: it
 * is never timed on a descriptor that writes with O_DSYNC (where every write
 * is already durable and a flush has nothing to do, so a disk that takes
 * milliseconds looks instant), a fast flush is named with its figures, and
 * a slow one, a read test and a write-through cache stay silent.  The
 * wrapper is the disk: it takes flush_delay_ns to flush.  The file
 * is real, in a mkdtemp directory; the device is a struct whose truth the
 * test sets. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "checks.h"
#include "devinfo.h"

static unsigned flushes, dsync_flushes;
static long flush_delay_ns; /* how long the "disk" takes to flush */

int __wrap_fdatasync(int fd)
{
	int flags = fcntl(fd, F_GETFL);
	flushes++;
	if (flags >= 0 && (flags & O_DSYNC) == O_DSYNC)
		dsync_flushes++;
	/* the "disk": it takes flush_delay_ns, whatever the file system here */
	struct timespec d = { 0, flush_delay_ns };
	if (flush_delay_ns)
		nanosleep(&d, NULL);
	return 0;
}

struct fixture {
	char dir[64], path[128];
	struct target t;
	struct devinfo dev;
	struct options opt;
	struct result r;
};

/* A 64 KiB file of the run's, open as the run opens it (O_DSYNC), on a disk
 * whose cache is "write back", after a write test that wrote all of it. */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/var/tmp/diskbench-checks.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/f", f->dir);
	int fd = open(f->path, O_RDWR | O_CREAT | O_DSYNC, 0600);
	char block[4096] = { 1 };
	for (int i = 0; fd >= 0 && i < 16; i++)
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			return -1;
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0)
		return -1;
	f->t.fd = fd;
	f->t.kind = TARGET_FILE;
	f->t.created = true;
	snprintf(f->t.path, sizeof(f->t.path), "%s", f->path);
	f->t.id_dev = (uint64_t)st.st_dev;
	f->t.id_ino = (uint64_t)st.st_ino;
	f->t.id_known = true;
	f->dev.nleaves = 1;
	f->dev.leaves[0] = 0;
	snprintf(f->dev.stack[0].write_cache, sizeof(f->dev.stack[0].write_cache), "write back");
	f->opt.direct = false; /* a tmpfs or any fs: no O_DIRECT needed here */
	f->opt.seed = 1;
	f->r.dir = IO_WRITE;
	f->r.measured = true;
	f->r.bytes = 65536;
	f->r.device = &f->dev;
	f->r.opt = &f->opt;
	flushes = dsync_flushes = 0;
	flush_delay_ns = 0;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	close(f->t.fd);
	unlink(f->path);
	rmdir(f->dir);
	free(f);
	return 0;
}

static const struct finding *finding_of(const struct result *r, const char *key)
{
	for (unsigned i = 0; i < r->nfindings; i++)
		if (strcmp(r->findings[i].key, key) == 0)
			return &r->findings[i];
	return NULL;
}

static void test_never_times_a_flush_on_an_o_dsync_descriptor(void **state)
{
	struct fixture *f = *state;
	checks_flush(&f->t, 65536, 4096, &f->opt, &f->r);
	assert_int_equal(flushes, CHECKS_FLUSH_ROUNDS);
	assert_int_equal(dsync_flushes, 0);
}

static void test_fast_flush_is_named(void **state)
{
	struct fixture *f = *state;
	flush_delay_ns = 0; /* a flush acknowledged at once */
	checks_flush(&f->t, 65536, 4096, &f->opt, &f->r);
	const struct finding *fast = finding_of(&f->r, "flush_fast");
	assert_non_null(fast);
	assert_int_equal(fast->nfigures, 5);
	assert_string_equal(fast->figures[0].name, "median_ns");
	assert_true(fast->figures[0].value < CHECKS_FLUSH_FAST_NS);
	assert_int_equal(f->r.nwarnings, 1);
	assert_non_null(strstr(f->r.warnings[0], "flushes return in"));
}

static void test_slow_flush_is_silent(void **state)
{
	struct fixture *f = *state;
	flush_delay_ns = 2000000; /* 2 ms: a disk writing its cache back */
	checks_flush(&f->t, 65536, 4096, &f->opt, &f->r);
	assert_int_equal(flushes, CHECKS_FLUSH_ROUNDS);
	assert_null(finding_of(&f->r, "flush_fast"));
	assert_int_equal(f->r.nwarnings, 0);
}

static void test_read_test_and_write_through_are_silent(void **state)
{
	struct fixture *f = *state;
	f->r.dir = IO_READ;
	checks_flush(&f->t, 65536, 4096, &f->opt, &f->r);
	f->r.dir = IO_WRITE;
	snprintf(f->dev.stack[0].write_cache, sizeof(f->dev.stack[0].write_cache), "write through");
	checks_flush(&f->t, 65536, 4096, &f->opt, &f->r);
	assert_int_equal(flushes, 0);
	assert_int_equal(f->r.nfindings, 0);
}

static void test_another_file_under_the_name_is_not_flushed(void **state)
{
	struct fixture *f = *state;
	/* the name now leads to another file: nothing of it is written */
	unlink(f->path);
	int other = open(f->path, O_RDWR | O_CREAT, 0600);
	assert_true(other >= 0);
	close(other);
	checks_flush(&f->t, 65536, 4096, &f->opt, &f->r);
	assert_int_equal(flushes, 0);
	struct stat st;
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(st.st_size, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_never_times_a_flush_on_an_o_dsync_descriptor, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_fast_flush_is_named, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slow_flush_is_silent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_test_and_write_through_are_silent, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_another_file_under_the_name_is_not_flushed, setup,
						teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
