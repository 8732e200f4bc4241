/* LDFLAGS: -Wl,--wrap=fdatasync -Wl,--wrap=devinfo_default_roots -Wl,--wrap=devstat_read */
/* Unit tests of src/run/checks.c's flush check, with fdatasync wrapped: it
 * is never timed on a descriptor that writes with O_DSYNC (where every write
 * is already durable and a flush has nothing to do, so a disk that takes
 * milliseconds looks instant), a fast flush is named with its figures, and
 * a slow one, a read test and a write-through cache stay silent.  The
 * wrapper is the disk: it takes flush_delay_ns to flush.  The file
 * is real, in a mkdtemp directory; the device is a struct whose truth the
 * test sets, and where a test gives it a name, a stat file in a fake sysfs
 * (devinfo_default_roots wrapped) whose flush counter (field 16) rises for
 * every bump_every-th flush: the flushes that reached the disk (the file
 * is written when it is next read, by a wrapped devstat_read, so that no
 * file I/O falls inside the timed fdatasync). */
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
#include "devinfo_stat.h"

static unsigned flushes, dsync_flushes;
static long flush_delay_ns; /* how long the "disk" takes to flush */
static unsigned bump_every; /* a flush reaches the disk's counter every Nth call; 0 never */
static unsigned bumps;      /* flushes that reached it, not yet in its stat file */
static char stat_path[320]; /* the fake disk's stat file, or "" */
static struct devinfo_roots fake_roots;

const struct devinfo_roots *__real_devinfo_default_roots(void);
const struct devinfo_roots *__wrap_devinfo_default_roots(void);
int __real_devstat_read(const char *sysfs, const char *name, struct devstat *out);
int __wrap_devstat_read(const char *sysfs, const char *name, struct devstat *out);
int __wrap_fdatasync(int fd);

const struct devinfo_roots *__wrap_devinfo_default_roots(void)
{
	return fake_roots.sysfs ? &fake_roots : __real_devinfo_default_roots();
}

/* The fake disk's stat line with its field 16 (flushes completed) one more. */
static void bump_flush_counter(void)
{
	bumps--;
	unsigned long long v[17] = { 0 };
	int n = 0;
	FILE *f = fopen(stat_path, "r");
	if (!f)
		return;
	while (n < 17 && fscanf(f, "%llu", &v[n]) == 1)
		n++;
	fclose(f);
	if (n < 16)
		return; /* an older kernel's line: no flush counter to raise */
	v[15]++;
	f = fopen(stat_path, "w");
	for (int i = 0; f && i < n; i++)
		fprintf(f, "%llu%c", v[i], i + 1 < n ? ' ' : '\n');
	if (f)
		fclose(f);
}

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
	if (stat_path[0] && bump_every && flushes % bump_every == 0)
		bumps++;
	return 0;
}

int __wrap_devstat_read(const char *sysfs, const char *name, struct devstat *out)
{
	while (bumps > 0)
		bump_flush_counter();
	return __real_devstat_read(sysfs, name, out);
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
	bump_every = bumps = 0;
	stat_path[0] = '\0';
	fake_roots.sysfs = NULL;
	*state = f;
	return 0;
}

/* The disk gets a name, "fakedisk", and a stat file of the line given under
 * a fake sysfs in the test's directory. */
static void fake_disk(struct fixture *f, const char *line)
{
	static char sysfs[128];
	char dir[192];
	snprintf(sysfs, sizeof(sysfs), "%s/sys", f->dir);
	snprintf(dir, sizeof(dir), "%s/class/block/fakedisk", sysfs);
	char cmd[224];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(stat_path, sizeof(stat_path), "%s/stat", dir);
	FILE *st = fopen(stat_path, "w");
	assert_non_null(st);
	fprintf(st, "%s\n", line);
	fclose(st);
	snprintf(f->dev.stack[0].name, sizeof(f->dev.stack[0].name), "fakedisk");
	fake_roots.sysfs = sysfs;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[160];
	close(f->t.fd);
	unlink(f->path);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys'", f->dir);
	if (system(cmd) != 0)
		return -1;
	rmdir(f->dir);
	free(f);
	fake_roots.sysfs = NULL;
	return 0;
}

/* A kernel of 5.5 or later: 17 fields, 5 flushes so far. */
#define STAT17 "1000 0 8000 100 10 0 80 10 0 500 600 0 0 0 0 5 10"
#define STAT11 "1000 0 8000 100 10 0 80 10 0 500 600"

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
	assert_int_equal(fast->nfigures, 6); /* flushes_seen since issue 39: -1, no counter here */
	assert_string_equal(fast->figures[0].name, "median_ns");
	assert_true(fast->figures[0].value < CHECKS_FLUSH_FAST_NS);
	assert_int_equal(f->r.nwarnings, 1);
	assert_non_null(strstr(f->r.warnings[0], "flushes return in"));
}

/* Issue 39: a flush check on a run with --sync=none, whose fdatasyncs
 * returned at once but sent no flush to the disk (its flush counter did
 * not move): the check speaks only of flushes that reached it, so says
 * nothing. */
static void test_unsent_flushes_are_silent(void **state)
{
	struct fixture *f = *state;
	f->opt.sync = SYNC_NONE;
	fake_disk(f, STAT17);
	bump_every = 0;
	checks_flush(&f->t, 65536, 4096, &f->opt, &f->r);
	assert_int_equal(flushes, CHECKS_FLUSH_ROUNDS);
	assert_null(finding_of(&f->r, "flush_fast"));
	assert_int_equal(f->r.nwarnings, 0);
}

/* The counter moved in 2 of the 8 rounds (every 4th: another process's
 * flushes): fewer than half the rounds show a flush of the check's own,
 * too few to speak of; silent. */
static void test_others_flushes_are_not_the_checks(void **state)
{
	struct fixture *f = *state;
	fake_disk(f, STAT17);
	bump_every = 4;
	checks_flush(&f->t, 65536, 4096, &f->opt, &f->r);
	assert_null(finding_of(&f->r, "flush_fast"));
	assert_int_equal(f->r.nwarnings, 0);
}

/* Each fdatasync raised the counter: flushes that reached the disk, and
 * returned at once: named, with the rounds that showed one. */
static void test_sent_fast_flushes_are_named(void **state)
{
	struct fixture *f = *state;
	fake_disk(f, STAT17);
	bump_every = 1;
	checks_flush(&f->t, 65536, 4096, &f->opt, &f->r);
	const struct finding *fast = finding_of(&f->r, "flush_fast");
	assert_non_null(fast);
	assert_int_equal(f->r.nwarnings, 1);
	assert_non_null(strstr(f->r.warnings[0], "flushes return in "));
	assert_non_null(strstr(f->r.warnings[0], " (the 8 this check sent, each seen reaching "
					     "fakedisk by its flush counter): the device"));
	double seen = -1;
	for (unsigned i = 0; i < fast->nfigures; i++)
		if (strcmp(fast->figures[i].name, "flushes_seen") == 0)
			seen = fast->figures[i].value;
	assert_true(seen == CHECKS_FLUSH_ROUNDS);
}

/* A kernel without the flush counter (before 5.5): judged as before, and
 * said so. */
static void test_no_flush_counter(void **state)
{
	struct fixture *f = *state;
	fake_disk(f, STAT11);
	checks_flush(&f->t, 65536, 4096, &f->opt, &f->r);
	assert_non_null(finding_of(&f->r, "flush_fast"));
	assert_int_equal(f->r.nwarnings, 1);
	assert_non_null(strstr(f->r.warnings[0], "flushes return in "));
	assert_non_null(strstr(f->r.warnings[0], " (not shown to reach fakedisk: its flush counter "
					     "cannot be read here, before Linux 5.5 or without /sys): "
					     "the device"));
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
		cmocka_unit_test_setup_teardown(test_unsent_flushes_are_silent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_others_flushes_are_not_the_checks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sent_fast_flushes_are_named, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_flush_counter, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
