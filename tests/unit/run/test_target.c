/* Unit tests of src/run/target.c: the safety table (target_check), classifying
 * paths, and diskbench's own test file: created by target_prepare, removed
 * by target_cleanup unless --keep.  Everything lives in a mkdtemp directory
 * that teardown removes, also when a test fails. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sys/sysmacros.h>

#include "devinfo.h"
#include "diskbench.h"
#include "fake_root.h"
#include "scratch.h"
#include "target.h"

struct fx {
	char dir[256];
	struct target t;
	struct result r;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/diskbench-test-target-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	f->t.fd = -1;
	target_keep_files(false);
	*state = f;
	return 0;
}

/* Removes every entry of the (flat) temp dir, then the dir. */
static int teardown(void **state)
{
	struct fx *f = *state;
	if (f->t.fd >= 0)
		close(f->t.fd);
	target_keep_files(false);
	target_cleanup();
	DIR *d = opendir(f->dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			char path[512];
			snprintf(path, sizeof(path), "%s/%s", f->dir, e->d_name);
			if (unlink(path) != 0)
				rmdir(path);
		}
		closedir(d);
	}
	int rc = rmdir(f->dir);
	free(f);
	return rc == 0 ? 0 : -1;
}

static void path_in(const struct fx *f, const char *name, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", f->dir, name);
}

static void write_file(const char *path, const char *content)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	size_t n = strlen(content);
	assert_int_equal(write(fd, content, n), (ssize_t)n);
	assert_int_equal(close(fd), 0);
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* Number of directory entries whose name starts with prefix. */
static int count_prefixed(const char *dir, const char *prefix)
{
	int n = 0;
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			n++;
	closedir(d);
	return n;
}

/* ---- the safety table ---------------------------------------------------- */

static void check_decision(enum target_kind kind, bool write_test, bool force, int want)
{
	const char *why = NULL;
	int got = target_check(kind, write_test, force, &why);
	if (got != want)
		print_error("target_check(kind %d, write %d, force %d) = %d, want %d\n", (int)kind,
			    write_test, force, got, want);
	assert_int_equal(got, want);
	if (want != EXIT_OK) {
		assert_non_null(why);
		assert_true(strlen(why) > 0);
	}
}

static void test_check_table(void **state)
{
	(void)state;
	for (int force = 0; force <= 1; force++) {
		/* a directory or a new path: always fine */
		check_decision(TARGET_DIR, false, force, EXIT_OK);
		check_decision(TARGET_DIR, true, force, EXIT_OK);
		check_decision(TARGET_NEW, false, force, EXIT_OK);
		check_decision(TARGET_NEW, true, force, EXIT_OK);
		/* an existing file or a device: read as is, write only with --force */
		check_decision(TARGET_FILE, false, force, EXIT_OK);
		check_decision(TARGET_BLOCKDEV, false, force, EXIT_OK);
		/* anything else: a usage error, whatever the flags */
		check_decision(TARGET_OTHER, false, force, EXIT_USAGE);
		check_decision(TARGET_OTHER, true, force, EXIT_USAGE);
	}
	check_decision(TARGET_FILE, true, false, EXIT_REFUSED);
	check_decision(TARGET_FILE, true, true, EXIT_OK);
	check_decision(TARGET_BLOCKDEV, true, false, EXIT_REFUSED);
	check_decision(TARGET_BLOCKDEV, true, true, EXIT_OK);
	/* the refusals name the remedy */
	const char *why = NULL;
	target_check(TARGET_FILE, true, false, &why);
	assert_non_null(strstr(why, "--force"));
	why = NULL;
	target_check(TARGET_BLOCKDEV, true, false, &why);
	assert_non_null(strstr(why, "--force"));
}

/* ---- filesystems in memory ------------------------------------------------ */

/* Half of what is available; --force lifts tmpfs (swappable) to three
 * quarters, never ramfs or hugetlbfs, whose pages cannot leave RAM. */
static void test_ram_limit(void **state)
{
	(void)state;
	const uint64_t avail = 8ull << 30;
	assert_int_equal(target_ram_limit("ramfs", avail, false), 4ull << 30);
	assert_int_equal(target_ram_limit("ramfs", avail, true), 4ull << 30);
	assert_int_equal(target_ram_limit("hugetlbfs", avail, true), 4ull << 30);
	assert_int_equal(target_ram_limit("tmpfs", avail, false), 4ull << 30);
	assert_int_equal(target_ram_limit("tmpfs", avail, true), 6ull << 30);
	assert_int_equal(target_ram_limit("tmpfs", 0, true), 0);
}

/* The check reads this machine's memory: a request no machine can hold is
 * refused on ramfs and tmpfs, with or without a size reported, and nothing
 * is said on a disk's filesystem or for an empty request. */
static void test_check_memory(void **state)
{
	struct fx *f = *state;
	struct target t;
	memset(&t, 0, sizeof(t));
	snprintf(t.path, sizeof(t.path), "%s/x", f->dir);
	t.fs_known = true;
	snprintf(t.fs.type, sizeof(t.fs.type), "ext4");
	assert_int_equal(target_check_memory(&t, UINT64_MAX, &f->r), EXIT_OK);
	assert_int_equal(target_check_space(&t, 1, &f->r), EXIT_OK); /* no size: unknown */
	snprintf(t.fs.type, sizeof(t.fs.type), "ramfs");
	t.fs.in_ram = true;
	assert_int_equal(target_check_memory(&t, 0, &f->r), EXIT_OK);
	assert_int_equal(target_check_space(&t, UINT64_MAX, &f->r), EXIT_REFUSED);
	assert_non_null(strstr(f->r.error, "ramfs"));
	assert_non_null(strstr(f->r.error, "MemAvailable"));
	assert_null(strstr(f->r.error, "--force")); /* no way round it */
	snprintf(t.fs.type, sizeof(t.fs.type), "tmpfs");
	t.fs.total_bytes = t.fs.avail_bytes = UINT64_MAX / 2; /* size= beyond RAM */
	t.force = true;
	assert_int_equal(target_check_space(&t, UINT64_MAX / 4, &f->r), EXIT_REFUSED);
	t.fs.in_ram = false; /* the same sizes on a disk: only the free space counts */
	assert_int_equal(target_check_space(&t, UINT64_MAX / 4, &f->r), EXIT_OK);
}

/* ---- overlapping devices (a fake sysfs) ---------------------------------- */

/* sysfs's relative symlink root/from -> root/to. */
static void sys_link(const char *from, const char *to)
{
	char path[512], target[512] = "";
	snprintf(path, sizeof(path), "%s/%s", root, from);
	for (const char *p = from; (p = strchr(p, '/')) != NULL; p++)
		strcat(target, "../");
	strcat(target, to);
	assert_int_equal(symlink(target, path), 0);
}

/* A block device's directory with its dev file, and /sys/dev/block/M:m. */
static void sys_dev(const char *dir, const char *majmin)
{
	char rel[512];
	snprintf(rel, sizeof(rel), "%s/dev", dir);
	put(rel, majmin);
	snprintf(rel, sizeof(rel), "dev/block/%s", majmin);
	sys_link(rel, dir);
}

#define SDA "devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda"
#define SDB "devices/pci0000:00/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0/block/sdb"
#define MD0 "devices/virtual/block/md0"

/* sda with partitions sda1 and sda2, sdb with sdb1, and md0 over sda1 and
 * sdb1: what overlaps names the way down, what does not stays silent. */
static void test_overlap(void **state)
{
	(void)state;
	const struct devinfo_roots roots = { root, "/nonexistent/mountinfo" };
	char how[512] = "";
	assert_int_equal(fake_root_make("overlap"), 0);
	put("dev/block/.keep", "");
	sys_dev(SDA, "8:0");
	sys_dev(SDA "/sda1", "8:1");
	put(SDA "/sda1/partition", "1");
	sys_dev(SDA "/sda2", "8:2");
	put(SDA "/sda2/partition", "2");
	sys_dev(SDB, "8:16");
	sys_dev(SDB "/sdb1", "8:17");
	put(SDB "/sdb1/partition", "1");
	sys_dev(MD0, "9:0");
	put(MD0 "/md/level", "raid1");
	put(MD0 "/slaves/.keep", "");
	sys_link(MD0 "/slaves/sda1", SDA "/sda1");
	sys_link(MD0 "/slaves/sdb1", SDB "/sdb1");
	const uint64_t sda = makedev(8, 0), sda1 = makedev(8, 1), sda2 = makedev(8, 2);
	const uint64_t sdb = makedev(8, 16), md0 = makedev(9, 0);

	assert_true(target_overlap(sda, sda1, &roots, how, sizeof(how)));
	assert_string_equal(how, "sda1 is a partition of sda");
	assert_true(target_overlap(sda1, sda, &roots, how, sizeof(how))); /* either order */
	assert_true(target_overlap(md0, sdb, &roots, how, sizeof(how)));
	assert_string_equal(how, "md0 is built on sdb1, a partition of sdb");
	assert_true(target_overlap(sda1, md0, &roots, how, sizeof(how)));
	assert_string_equal(how, "md0 is built on sda1");
	/* silent: two partitions of one disk, two disks, a partition beside md0's */
	assert_false(target_overlap(sda1, sda2, &roots, how, sizeof(how)));
	assert_false(target_overlap(sda, sdb, &roots, how, sizeof(how)));
	assert_false(target_overlap(sda2, md0, &roots, how, sizeof(how)));
	assert_false(target_overlap(makedev(8, 32), sda, &roots, how, sizeof(how))); /* unknown */
	assert_int_equal(fake_root_remove(), 0);
}

/* ---- classifying --------------------------------------------------------- */

static void expect_kind(const char *path, enum target_kind want)
{
	enum target_kind kind = (enum target_kind)-1;
	errno = 0;
	int rc = target_classify(path, &kind);
	if (rc != 0 || kind != want)
		print_error("target_classify(\"%s\") = %d, kind %d (errno %d), want kind %d\n", path,
			    rc, (int)kind, errno, (int)want);
	assert_int_equal(rc, 0);
	assert_int_equal(kind, want);
}

static void test_classify(void **state)
{
	struct fx *f = *state;
	char path[512];

	expect_kind(f->dir, TARGET_DIR);
	path_in(f, "", path, sizeof(path)); /* "dir/" */
	expect_kind(path, TARGET_DIR);

	path_in(f, "file", path, sizeof(path));
	write_file(path, "hello");
	expect_kind(path, TARGET_FILE);

	path_in(f, "missing", path, sizeof(path));
	expect_kind(path, TARGET_NEW);
	assert_false(exists(path)); /* classifying creates nothing */

	path_in(f, "fifo", path, sizeof(path));
	assert_int_equal(mkfifo(path, 0600), 0);
	expect_kind(path, TARGET_OTHER);

	expect_kind("/dev/null", TARGET_OTHER);

	/* a relative new path in the current directory */
	expect_kind("diskbench-surely-not-here-4d1f2a", TARGET_NEW);
	expect_kind(".", TARGET_DIR);
}

static void test_classify_errors(void **state)
{
	struct fx *f = *state;
	char path[1024];
	enum target_kind kind;

	/* the parent does not exist */
	path_in(f, "no-such-dir/file", path, sizeof(path));
	errno = 0;
	assert_int_equal(target_classify(path, &kind), -1);
	assert_int_equal(errno, ENOENT);

	path_in(f, "a/b/c", path, sizeof(path));
	errno = 0;
	assert_int_equal(target_classify(path, &kind), -1);
	assert_int_equal(errno, ENOENT);

	/* the parent is a file: not a place to create anything */
	char file[512];
	path_in(f, "plain", file, sizeof(file));
	write_file(file, "x");
	snprintf(path, sizeof(path), "%s/child", file);
	errno = 0;
	assert_int_equal(target_classify(path, &kind), -1);
	assert_int_equal(errno, ENOTDIR);
}

/* ---- prepare and clean up -------------------------------------------------- */

static void test_prepare_directory(void **state)
{
	struct fx *f = *state;
	int code = target_prepare(&f->t, f->dir, true, false, &f->r);
	if (code != EXIT_OK)
		print_error("target_prepare: %s\n", f->r.error);
	assert_int_equal(code, EXIT_OK);
	assert_int_equal(f->t.kind, TARGET_DIR);
	assert_true(f->t.created);
	assert_true(f->t.fd >= 0);
	char prefix[512];
	snprintf(prefix, sizeof(prefix), "%s/.diskbench-", f->dir);
	assert_memory_equal(f->t.path, prefix, strlen(prefix));
	/* BOOT-PID-XXXXXX: whose file it is (scratch.c), then mkstemp's part */
	struct scratch_name n;
	assert_true(scratch_parse(f->t.path + strlen(prefix) - strlen(".diskbench-"), &n));
	assert_int_equal(n.pid, (long)getpid());
	assert_true(exists(f->t.path));
	struct stat st;
	assert_int_equal(stat(f->t.path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 0);
	assert_int_equal(count_prefixed(f->dir, ".diskbench-"), 1);

	target_close(&f->t);
	assert_int_equal(f->t.fd, -1);
	target_cleanup();
	assert_false(exists(f->t.path));
	assert_int_equal(count_prefixed(f->dir, ".diskbench-"), 0);
	target_cleanup(); /* twice is harmless */

	/* a trailing slash gives no double slash, and a read test works too */
	char dir_slash[300];
	snprintf(dir_slash, sizeof(dir_slash), "%s/", f->dir);
	memset(&f->r, 0, sizeof(f->r));
	assert_int_equal(target_prepare(&f->t, dir_slash, false, false, &f->r), EXIT_OK);
	assert_null(strstr(f->t.path, "//"));
	assert_true(exists(f->t.path));
	target_close(&f->t);
	target_cleanup();
	assert_false(exists(f->t.path));
}

static void test_prepare_keep(void **state)
{
	struct fx *f = *state;
	target_keep_files(true);
	assert_int_equal(target_prepare(&f->t, f->dir, true, false, &f->r), EXIT_OK);
	char kept[4096];
	snprintf(kept, sizeof(kept), "%s", f->t.path);
	target_close(&f->t);
	target_cleanup();
	assert_true(exists(kept)); /* --keep: it stays */
	target_cleanup_from_signal();
	assert_true(exists(kept));
	assert_int_equal(unlink(kept), 0);
	target_keep_files(false);
}

static void test_prepare_new_path(void **state)
{
	struct fx *f = *state;
	char path[512];
	path_in(f, "new-file", path, sizeof(path));
	assert_int_equal(target_prepare(&f->t, path, true, false, &f->r), EXIT_OK);
	assert_int_equal(f->t.kind, TARGET_NEW);
	assert_true(f->t.created);
	assert_string_equal(f->t.path, path);
	assert_true(exists(path));
	target_close(&f->t);
	target_cleanup();
	assert_false(exists(path));

	/* the signal-safe variant removes it too */
	memset(&f->r, 0, sizeof(f->r));
	assert_int_equal(target_prepare(&f->t, path, false, false, &f->r), EXIT_OK);
	assert_true(exists(path));
	target_close(&f->t);
	target_cleanup_from_signal();
	assert_false(exists(path));
}

static void test_prepare_existing_file(void **state)
{
	struct fx *f = *state;
	char path[512];
	path_in(f, "precious", path, sizeof(path));
	write_file(path, "precious data");

	/* write without --force: refused, the file untouched and kept */
	int code = target_prepare(&f->t, path, true, false, &f->r);
	assert_int_equal(code, EXIT_REFUSED);
	assert_true(strlen(f->r.error) > 0);
	assert_non_null(strstr(f->r.error, path));
	assert_false(f->t.created);
	target_close(&f->t);
	target_cleanup();
	char buf[64] = { 0 };
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 13);
	close(fd);
	assert_string_equal(buf, "precious data");

	/* read: fine, as it is */
	memset(&f->r, 0, sizeof(f->r));
	assert_int_equal(target_prepare(&f->t, path, false, false, &f->r), EXIT_OK);
	assert_int_equal(f->t.kind, TARGET_FILE);
	assert_false(f->t.created);
	assert_int_equal(f->t.size, 13);
	target_close(&f->t);
	target_cleanup();
	assert_true(exists(path)); /* not ours: never removed */

	/* write with --force: allowed, still never removed */
	memset(&f->r, 0, sizeof(f->r));
	assert_int_equal(target_prepare(&f->t, path, true, true, &f->r), EXIT_OK);
	assert_false(f->t.created);
	target_close(&f->t);
	target_cleanup();
	target_cleanup_from_signal();
	assert_true(exists(path));
}

static void test_prepare_bad_targets(void **state)
{
	struct fx *f = *state;
	char path[512];

	path_in(f, "fifo", path, sizeof(path));
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(target_prepare(&f->t, path, false, false, &f->r), EXIT_USAGE);
	assert_true(strlen(f->r.error) > 0);
	assert_int_equal(target_prepare(&f->t, path, true, true, &f->r), EXIT_USAGE);

	memset(&f->r, 0, sizeof(f->r));
	assert_int_equal(target_prepare(&f->t, "/dev/null", true, true, &f->r), EXIT_USAGE);
	assert_true(strlen(f->r.error) > 0);

	memset(&f->r, 0, sizeof(f->r));
	path_in(f, "no-such-dir/file", path, sizeof(path));
	assert_int_equal(target_prepare(&f->t, path, true, false, &f->r), EXIT_USAGE);
	assert_true(strlen(f->r.error) > 0);
	assert_false(exists(path));
	target_cleanup();
	/* nothing was created anywhere */
	assert_int_equal(count_prefixed(f->dir, ".diskbench-"), 0);
}

/* An empty TARGET names nothing: a usage error (exit 2, "anything else"
 * in the contract's target table), not a failed run (exit 1). */
static void test_prepare_empty_path(void **state)
{
	struct fx *f = *state;
	int code = target_prepare(&f->t, "", true, false, &f->r);
	target_close(&f->t);
	target_cleanup();
	if (code != EXIT_USAGE)
		print_error("target_prepare(\"\") = %d (%s), want EXIT_USAGE\n", code, f->r.error);
	assert_int_equal(code, EXIT_USAGE);
	assert_true(strlen(f->r.error) > 0);
}

/* A name swapped between the checks and a later open (here: for a symlink
 * to another file) is refused, not used: the open compares what it found
 * with what target_prepare checked. */
/* A new path that looks like an option's value, on another target's
 * device, is refused as a stray word (issue 44); './2', an existing 2, a
 * name that is no value, or a value alone are not. */
static void test_stray_value_target(void **state)
{
	struct fx *f = *state;
	char cwd[4096], sub[300];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(f->dir), 0);
	snprintf(sub, sizeof(sub), "%s/sub", f->dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	const char *bad[][2] = { { sub, "2" }, { "64M", sub }, { sub, "0.5" }, { sub, "10s" } };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f->r.error[0] = '\0';
		assert_int_equal(target_check_several(bad[i], 2, false, false, &f->r), EXIT_USAGE);
		assert_non_null(strstr(f->r.error, "looks like a value"));
	}
	assert_int_equal(mkdir("3", 0700), 0);
	const char *good[][2] = { { sub, "./2" }, { sub, "3" }, { sub, "newfile" }, { sub, "2x" } };
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(target_check_several(good[i], 2, false, false, &f->r), EXIT_OK);
	assert_int_equal(chdir(cwd), 0);
}

static void test_open_refuses_swapped_name(void **state)
{
	struct fx *f = *state;
	char path[512], other[512];
	path_in(f, "checked", path, sizeof(path));
	path_in(f, "other", other, sizeof(other));
	write_file(path, "checked data");
	write_file(other, "someone else's data");
	assert_int_equal(target_prepare(&f->t, path, true, true, &f->r), EXIT_OK);
	assert_int_equal(target_open(&f->t, O_RDONLY, false, &f->r), EXIT_OK);
	target_close(&f->t);

	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink(other, path), 0);
	memset(f->r.error, 0, sizeof(f->r.error));
	assert_int_equal(target_open(&f->t, O_WRONLY, false, &f->r), EXIT_REFUSED);
	assert_int_equal(f->t.fd, -1);
	assert_non_null(strstr(f->r.error, "no longer the file"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_table),
		cmocka_unit_test(test_ram_limit),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test_setup_teardown(test_check_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_classify, setup, teardown),
		cmocka_unit_test_setup_teardown(test_classify_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prepare_directory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prepare_keep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prepare_new_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prepare_existing_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prepare_bad_targets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prepare_empty_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_refuses_swapped_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stray_value_target, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
