/* The drop-caches helper and the residency measurement that proves it:
 * a file read in full is resident, eviction brings it to (near) zero, and
 * the helper's warnings follow its decisions. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>

#include "platform.h"
#include "runner.h"
#include "target.h"

#define FILE_BYTES (8u << 20)

struct fixture {
	char dir[64];
	char path[96];
	struct target t;
	struct options opt;
	struct result r;
	bool in_ram; /* tmpfs cannot evict: those cases skip */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/var/tmp/diskbench-cache.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/data", f->dir);
	int fd = open(f->path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0)
		return -1;
	char *buf = malloc(1 << 20);
	memset(buf, 0x5a, 1 << 20);
	for (unsigned i = 0; i < FILE_BYTES >> 20; i++)
		if (write(fd, buf, 1 << 20) != 1 << 20)
			return -1;
	free(buf);
	fsync(fd);
	f->t.fd = fd;
	f->t.kind = TARGET_FILE;
	f->t.size = FILE_BYTES;
	snprintf(f->t.path, sizeof(f->t.path), "%s", f->path);
	f->r.region = FILE_BYTES;
	f->r.resident_before_pct = -1;
	f->opt.drop = DROP_FILE;
	struct fs_info fs;
	f->in_ram = plat_fs_info(fd, &fs) == 0 && fs.in_ram;
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

static void read_all(int fd)
{
	char buf[65536];
	lseek(fd, 0, SEEK_SET);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

static bool warned(const struct result *r, const char *needle)
{
	for (unsigned i = 0; i < r->nwarnings; i++)
		if (strstr(r->warnings[i], needle))
			return true;
	return false;
}

static void test_resident_after_full_read(void **state)
{
	struct fixture *f = *state;
	double pct = -1;
	read_all(f->t.fd);
	assert_int_equal(plat_resident_pct(f->t.fd, FILE_BYTES, &pct), 0);
	assert_true(pct > 99.0);
}

static void test_evict_brings_residency_down(void **state)
{
	struct fixture *f = *state;
	if (f->in_ram)
		skip(); /* /var/tmp on tmpfs: nothing can be evicted */
	double pct = -1;
	read_all(f->t.fd);
	assert_int_equal(plat_evict(f->t.fd, false, FILE_BYTES), 0);
	assert_int_equal(plat_resident_pct(f->t.fd, FILE_BYTES, &pct), 0);
	assert_true(pct < 5.0);
}

static void test_resident_of_empty_region(void **state)
{
	struct fixture *f = *state;
	double pct = -1;
	assert_int_equal(plat_resident_pct(f->t.fd, 0, &pct), 0);
	assert_true(pct == 0.0);
}

static void test_helper_file_mode(void **state)
{
	struct fixture *f = *state;
	if (f->in_ram)
		skip(); /* /var/tmp on tmpfs: nothing can be evicted */
	read_all(f->t.fd);
	run_evict(&f->t, &f->opt, &f->r);
	assert_string_equal(f->r.evicted, "file");
	assert_true(f->r.resident_before_pct >= 0 && f->r.resident_before_pct < 5.0);
	assert_int_equal(f->r.nwarnings, 0);
}

static void test_helper_none_warns_for_buffered_reads(void **state)
{
	struct fixture *f = *state;
	read_all(f->t.fd);
	f->opt.drop = DROP_NONE;
	f->opt.direct = false;
	run_evict(&f->t, &f->opt, &f->r);
	assert_string_equal(f->r.evicted, "none");
	assert_true(f->r.resident_before_pct > 99.0);
	assert_true(warned(&f->r, "still in the page cache"));
	assert_true(warned(&f->r, "--drop-caches=none"));
}

static void test_helper_none_is_quiet_for_direct_reads(void **state)
{
	/* O_DIRECT reads go to the device whatever the cache holds */
	struct fixture *f = *state;
	read_all(f->t.fd);
	f->opt.drop = DROP_NONE;
	f->opt.direct = true;
	run_evict(&f->t, &f->opt, &f->r);
	assert_true(f->r.resident_before_pct > 99.0);
	assert_int_equal(f->r.nwarnings, 0);
}

static void test_helper_all_mode(void **state)
{
	struct fixture *f = *state;
	if (f->in_ram)
		skip(); /* /var/tmp on tmpfs: nothing can be evicted */
	read_all(f->t.fd);
	f->opt.drop = DROP_ALL;
	run_evict(&f->t, &f->opt, &f->r);
	/* the label says what succeeded: everything only where the global drop
	 * could be written (root, with /proc), else the file alone */
	bool can_drop_all = geteuid() == 0 && access("/proc/sys/vm/drop_caches", W_OK) == 0;
	assert_string_equal(f->r.evicted, can_drop_all ? "all" : "file");
	assert_true(f->r.resident_before_pct < 5.0);
	/* without root (or without /proc: a chroot), dropping everything is a
	 * warning, never a silent no-op */
	if (!can_drop_all)
		assert_true(warned(&f->r, "drop_caches"));
	else
		assert_false(warned(&f->r, "drop_caches"));
}

/* --buffers=pages: 4 KiB pages even where huge ones are allowed; the
 * segments of a request are the physical runs of its buffer: exactly one
 * per single-page piece, one per 1 MiB inside a huge page, and between 1
 * and 256 for 1 MiB of 4 KiB pages.  -1 where the kernel hides frames. */
static void test_buffer_backing_and_segments(void **state)
{
	(void)state;
	const size_t mib = 1u << 20;
	void *pages = plat_buffer_alloc_pages(4 * mib);
	assert_non_null(pages);
	assert_false(plat_buffer_is_huge(pages, 4 * mib));
	double one = plat_buffer_segments(pages, 4096, 1024);
	if (one < 0) {
		print_message("skipped: /proc/self/pagemap hides physical frames here\n");
		plat_buffer_free(pages, 4 * mib);
		return;
	}
	assert_true(one == 1.0);
	double segs = plat_buffer_segments(pages, mib, 4);
	assert_true(segs >= 1.0 && segs <= 256.0);
	plat_buffer_free(pages, 4 * mib);
	void *huge = plat_buffer_alloc(4 * mib);
	assert_non_null(huge);
	if (plat_buffer_is_huge(huge, 4 * mib))
		assert_true(plat_buffer_segments(huge, mib, 4) == 1.0);
	else
		print_message("skipped: no transparent huge pages here\n");
	plat_buffer_free(huge, 4 * mib);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_resident_after_full_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_evict_brings_residency_down, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resident_of_empty_region, setup, teardown),
		cmocka_unit_test_setup_teardown(test_helper_file_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_helper_none_warns_for_buffered_reads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_helper_none_is_quiet_for_direct_reads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_helper_all_mode, setup, teardown),
		cmocka_unit_test(test_buffer_backing_and_segments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
