#define _GNU_SOURCE
/* devinfo_file_use over a fake /sys and a fake /proc/swaps: a file behind a
 * loop device is in use when the loop, or a partition of it, is swap (by
 * name: the fake tree has no device nodes to stat), mounted or built on;
 * an active swap file is in use itself; and a loop over another file, or a
 * loop nothing uses, leaves the file free. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sys/stat.h>
#include <unistd.h>

#include "devinfo.h"
#include "fake_root.h"

static char file[128], other[128], swaps[160], mountinfo[160], sys[160];
static uint64_t fdev, fino;

static int setup(void **state)
{
	(void)state;
	if (fake_root_make("inuse") != 0)
		return -1;
	snprintf(file, sizeof(file), "%s/disk.img", root);
	snprintf(other, sizeof(other), "%s/other.img", root);
	snprintf(swaps, sizeof(swaps), "%s/swaps", root);
	snprintf(mountinfo, sizeof(mountinfo), "%s/mountinfo", root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	put("disk.img", "data");
	put("other.img", "data");
	put("swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	put("mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n");
	struct stat st;
	if (stat(file, &st) != 0)
		return -1;
	fdev = (uint64_t)st.st_dev;
	fino = (uint64_t)st.st_ino;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fake_root_remove();
}

/* loop0 over path, with its dev number; no holder, no partition. */
static void loop0_over(const char *path)
{
	char text[256];
	snprintf(text, sizeof(text), "%s\n", path);
	put("sys/block/loop0/loop/backing_file", text);
	put("sys/block/loop0/dev", "7:0\n");
	char holders[256];
	snprintf(holders, sizeof(holders), "mkdir -p '%s/sys/block/loop0/holders'", root);
	assert_int_equal(system(holders), 0);
}

static int use_of_file(struct devinfo_file_use *use)
{
	struct devinfo_roots roots = { sys, mountinfo };
	return devinfo_file_use(fdev, fino, &roots, swaps, use);
}

static void test_loop_nothing_uses(void **state)
{
	(void)state;
	struct devinfo_file_use use;
	loop0_over(file);
	assert_int_equal(use_of_file(&use), 1); /* backed, but free */
	assert_string_equal(use.loop, "loop0");
	assert_false(use.mounted || use.swap || use.held);
	assert_string_equal(use.holder, "");
	assert_string_equal(use.loop_swap, "");
}

static void test_loop_is_swap(void **state)
{
	(void)state;
	struct devinfo_file_use use;
	loop0_over(file);
	put("swaps", "Filename\tType\tSize\tUsed\tPriority\n"
		     "/dev/loop0                              partition\t16380\t\t0\t\t-2\n");
	assert_int_equal(use_of_file(&use), 1);
	assert_string_equal(use.loop, "loop0");
	assert_string_equal(use.loop_swap, "loop0");
	assert_false(use.swap); /* the file itself is not the swap file */
}

static void test_loop_partition_is_swap(void **state)
{
	(void)state;
	struct devinfo_file_use use;
	loop0_over(file);
	put("sys/block/loop0/loop0p1/partition", "1\n");
	put("sys/block/loop0/loop0p1/dev", "259:3\n");
	put("swaps", "Filename\tType\tSize\tUsed\tPriority\n"
		     "/dev/loop0p1                            partition\t16380\t\t0\t\t-2\n");
	assert_int_equal(use_of_file(&use), 1);
	assert_string_equal(use.loop_swap, "loop0p1");
}

static void test_other_loop_is_swap(void **state)
{
	(void)state;
	struct devinfo_file_use use;
	loop0_over(other); /* a loop over another file, which is swap: not ours */
	put("swaps", "Filename\tType\tSize\tUsed\tPriority\n"
		     "/dev/loop0                              partition\t16380\t\t0\t\t-2\n");
	assert_int_equal(use_of_file(&use), 0);
	assert_string_equal(use.loop_swap, "");
}

static void test_swap_of_a_similar_name(void **state)
{
	(void)state;
	struct devinfo_file_use use;
	loop0_over(file); /* loop01 is not loop0 */
	put("swaps", "Filename\tType\tSize\tUsed\tPriority\n"
		     "/dev/loop01                             partition\t16380\t\t0\t\t-2\n");
	assert_int_equal(use_of_file(&use), 1);
	assert_string_equal(use.loop_swap, "");
}

static void test_swap_file_itself(void **state)
{
	(void)state;
	struct devinfo_file_use use;
	char text[512];
	snprintf(text, sizeof(text), "Filename\tType\tSize\tUsed\tPriority\n%s file 4 0 -2\n", file);
	put("swaps", text);
	char rm[256];
	snprintf(rm, sizeof(rm), "rm -rf '%s/sys'", root);
	assert_int_equal(system(rm), 0);
	assert_int_equal(use_of_file(&use), 1);
	assert_true(use.swap);
}

/* devinfo_blockdev_claimed (issue 44): what shows a device held, so that
 * an O_EXCL claim nothing shows is retried (target.c) and one that shows is
 * refused at once: nothing (0), a holder, swap, a mount (1), no sysfs (-1). */
static void test_blockdev_claimed(void **state)
{
	(void)state;
	struct devinfo_roots roots = { sys, mountinfo };
	char who[64], cmd[512];
	loop0_over(other);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/sys/dev/block' && ln -s ../../block/loop0 "
		 "'%s/sys/dev/block/7:0'", root, root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(devinfo_blockdev_claimed(7, 0, &roots, swaps, who, sizeof(who)), 0);
	assert_string_equal(who, "");
	assert_int_equal(devinfo_blockdev_claimed(7, 9, &roots, swaps, who, sizeof(who)), -1);
	put("sys/block/loop0/holders/dm-3", "");
	assert_int_equal(devinfo_blockdev_claimed(7, 0, &roots, swaps, who, sizeof(who)), 1);
	assert_string_equal(who, "dm-3");
	snprintf(cmd, sizeof(cmd), "rm -f '%s/sys/block/loop0/holders/dm-3'", root);
	assert_int_equal(system(cmd), 0);
	put("swaps", "Filename\tType\tSize\tUsed\tPriority\n"
		     "/dev/loop0                              partition\t16380\t\t0\t\t-2\n");
	assert_int_equal(devinfo_blockdev_claimed(7, 0, &roots, swaps, who, sizeof(who)), 1);
	assert_string_equal(who, "loop0");
	put("swaps", "Filename\tType\tSize\tUsed\tPriority\n");
	put("mountinfo", "22 1 254:0 / / rw - ext4 /dev/vda rw\n"
			 "40 22 7:0 / /mnt rw - ext4 /dev/loop0 rw\n");
	assert_int_equal(devinfo_blockdev_claimed(7, 0, &roots, swaps, who, sizeof(who)), 1);
	assert_string_equal(who, "a mount");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_loop_nothing_uses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop_is_swap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop_partition_is_swap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_loop_is_swap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swap_of_a_similar_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_swap_file_itself, setup, teardown),
		cmocka_unit_test_setup_teardown(test_blockdev_claimed, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
