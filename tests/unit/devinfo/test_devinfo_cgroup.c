/* The cgroup I/O limits reader over fake trees: io.max lines (max, numbers,
 * junk), a v2 group whose parent sets a lower limit, v1 blkio.throttle files
 * in a group under a mount whose root is not "/", devices not asked about,
 * no limits at all, and unreadable /proc files. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "devinfo_cgroup.h"
#include "fake_root.h"

static char cg_file[128], mi_file[128];

/* mountinfo lines for the fake tree: v2 at ROOT/unified, v1 blkio at ROOT/blkio */
static void put_mounts(const char *blkio_root)
{
	char text[1024];
	snprintf(text, sizeof(text),
		 "30 22 0:27 / %s rw,relatime - tmpfs tmpfs rw\n"
		 "37 30 0:34 %s %s/blkio rw,relatime - cgroup cgroup rw,blkio\n"
		 "34 30 0:31 / %s/memory rw,relatime - cgroup cgroup rw,memory\n"
		 "40 30 0:37 / %s/unified rw,relatime - cgroup2 cgroup2 rw\n",
		 root, blkio_root, root, root, root);
	put("mountinfo", text);
}

static int setup(void **state)
{
	(void)state;
	if (fake_root_make("cgroup") != 0)
		return -1;
	snprintf(cg_file, sizeof(cg_file), "%s/cgroup", root);
	snprintf(mi_file, sizeof(mi_file), "%s/mountinfo", root);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fake_root_remove();
}

static void test_parse_iomax(void **state)
{
	(void)state;
	char mm[16];
	uint64_t v[CG_NKINDS];
	assert_int_equal(cgroup_parse_iomax("7:0 rbps=max wbps=1048576 riops=130 wiops=max\n", mm,
					    sizeof(mm), v), 0);
	assert_string_equal(mm, "7:0");
	assert_int_equal(v[CG_RBPS], 0);
	assert_int_equal(v[CG_WBPS], 1048576);
	assert_int_equal(v[CG_RIOPS], 130);
	assert_int_equal(v[CG_WIOPS], 0);
	assert_int_equal(cgroup_parse_iomax("259:3 riops=7", mm, sizeof(mm), v), 0);
	assert_string_equal(mm, "259:3");
	assert_int_equal(v[CG_RIOPS], 7);
	assert_int_equal(v[CG_RBPS], 0);
	assert_int_equal(cgroup_parse_iomax("", mm, sizeof(mm), v), -1);
	assert_int_equal(cgroup_parse_iomax("rbps=5", mm, sizeof(mm), v), -1);
}

static void test_v2_parent_lower(void **state)
{
	(void)state;
	static const char *const devs[] = { "7:0", "8:0" };
	struct cgroup_limits l;
	put_mounts("/");
	put("cgroup", "1:blkio:/\n0::/a/b\n");
	put("unified/a/b/io.max", "7:0 rbps=max wbps=max riops=500 wiops=max\n"
				  "9:9 rbps=1 wbps=1 riops=1 wiops=1\n");
	put("unified/a/io.max", "7:0 rbps=max wbps=max riops=130 wiops=max\n"
				"8:0 rbps=40000000 wbps=max riops=max wiops=max\n");
	/* the mount point is read too (the kernel gives the root group no
	 * io.max, but a limit higher up in a container view is one) */
	put("unified/io.max", "7:0 riops=1\n");
	assert_int_equal(cgroup_io_limits(&(struct cgroup_roots){ cg_file, mi_file }, devs, 2, &l), 2);
	assert_string_equal(l.dev[0].majmin, "7:0");
	assert_int_equal(l.dev[0].value[CG_RIOPS], 1);
	assert_int_equal(l.dev[0].version, 2);
	assert_string_equal(l.dev[1].majmin, "8:0");
	assert_int_equal(l.dev[1].value[CG_RBPS], 40000000);
	assert_int_equal(l.dev[1].value[CG_RIOPS], 0);
}

static void test_v1_mount_root(void **state)
{
	(void)state;
	static const char *const devs[] = { "7:0" };
	struct cgroup_limits l;
	/* a container's view: the hierarchy's /outer is mounted, the process is in /outer/job */
	put_mounts("/outer");
	put("cgroup", "3:cpu,blkio:/outer/job\n0::/\n");
	put("blkio/job/blkio.throttle.read_iops_device", "7:0 130\n8:0 5\n");
	put("blkio/job/blkio.throttle.write_bps_device", "7:0 2097152\n");
	put("blkio/job/blkio.throttle.read_bps_device", "");
	assert_int_equal(cgroup_io_limits(&(struct cgroup_roots){ cg_file, mi_file }, devs, 1, &l), 1);
	assert_string_equal(l.dev[0].majmin, "7:0");
	assert_int_equal(l.dev[0].value[CG_RIOPS], 130);
	assert_int_equal(l.dev[0].value[CG_WBPS], 2097152);
	assert_int_equal(l.dev[0].value[CG_RBPS], 0);
	assert_int_equal(l.dev[0].version, 1);
}

static void test_none(void **state)
{
	(void)state;
	static const char *const devs[] = { "7:0" };
	struct cgroup_limits l;
	put_mounts("/");
	put("cgroup", "1:blkio:/free\n0::/free\n");
	put("unified/free/io.max", "8:0 riops=5\n");
	put("blkio/free/blkio.throttle.read_iops_device", "8:0 5\n");
	assert_int_equal(cgroup_io_limits(&(struct cgroup_roots){ cg_file, mi_file }, devs, 1, &l), 0);
	assert_int_equal(l.n, 0);
	assert_int_equal(cgroup_io_limits(&(struct cgroup_roots){ "/nonexistent/cgroup", mi_file },
					  devs, 1, &l), 0);
	assert_int_equal(cgroup_io_limits(&(struct cgroup_roots){ cg_file, "/nonexistent/mi" },
					  devs, 1, &l), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_iomax),
		cmocka_unit_test_setup_teardown(test_v2_parent_lower, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v1_mount_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_none, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
