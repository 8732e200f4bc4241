/* The pure mountinfo parser: one line at a time, no file, no sysfs. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "devinfo.h"

/* Parses a copy of text; the entry points into buf. */
static int parse(const char *text, char *buf, size_t len, struct mountinfo_entry *e)
{
	snprintf(buf, len, "%s", text);
	return mountinfo_parse_line(buf, e);
}

static void test_proc_example(void **state)
{
	(void)state;
	char buf[256];
	struct mountinfo_entry e;
	/* the example of proc(5), with its newline */
	assert_int_equal(parse("36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root "
			       "rw,errors=continue\n", buf, sizeof(buf), &e), 0);
	assert_string_equal(e.majmin, "98:0");
	assert_string_equal(e.root, "/mnt1");
	assert_string_equal(e.mount_point, "/mnt/parent");
	assert_string_equal(e.mount_opts, "rw,noatime");
	assert_string_equal(e.fs_type, "ext3");
	assert_string_equal(e.source, "/dev/root");
	assert_string_equal(e.super_opts, "rw,errors=continue");
}

static void test_optional_fields(void **state)
{
	(void)state;
	char buf[256];
	struct mountinfo_entry e;
	/* none */
	assert_int_equal(parse("26 1 254:0 / / rw,relatime - ext4 /dev/vda rw", buf, sizeof(buf), &e), 0);
	assert_string_equal(e.fs_type, "ext4");
	assert_string_equal(e.source, "/dev/vda");
	/* several */
	assert_int_equal(parse("26 1 254:0 / / rw shared:1 master:2 propagate_from:3 unbindable - xfs "
			       "/dev/sda1 rw", buf, sizeof(buf), &e), 0);
	assert_string_equal(e.fs_type, "xfs");
	assert_string_equal(e.source, "/dev/sda1");
	/* no super options */
	assert_int_equal(parse("26 1 0:5 / /x rw - tmpfs tmpfs", buf, sizeof(buf), &e), 0);
	assert_string_equal(e.source, "tmpfs");
	assert_string_equal(e.super_opts, "");
}

static void test_escapes(void **state)
{
	(void)state;
	char buf[256];
	struct mountinfo_entry e;
	assert_int_equal(parse("21 20 254:0 /a\\040b /mnt/x\\040y\\011z\\134 rw - ext4 /dev/disk\\040one "
			       "rw,upperdir=/u\\040v", buf, sizeof(buf), &e), 0);
	assert_string_equal(e.root, "/a b");
	assert_string_equal(e.mount_point, "/mnt/x y\tz\\");
	assert_string_equal(e.source, "/dev/disk one");
	/* super options stay escaped: they are decoded option by option (overlay's upperdir) */
	assert_string_equal(e.super_opts, "rw,upperdir=/u\\040v");

	char s[64];
	snprintf(s, sizeof(s), "%s", "a\\040b\\400c\\04d\\");
	mountinfo_unescape(s);
	/* \400 is beyond a byte and \04d is not three octal digits: both stay as they are */
	assert_string_equal(s, "a b\\400c\\04d\\");
}

static void test_not_mountinfo(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "\n", "garbage line", "24 20 1:2 / /short - ",
		"24 20 1:2 / /x rw - ext4",          /* no source after the type */
		"24 20 1:2 / /x - ext4 /dev/sda rw", /* the "-" where the mount options belong */
	};
	char buf[256];
	struct mountinfo_entry e;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], buf, sizeof(buf), &e) == 0)
			fail_msg("parsed \"%s\"", bad[i]);
	}
	/* more fields than the parser keeps: the separator beyond them is not found */
	char many[1024] = "1 2 3:4 / /m rw";
	for (int i = 0; i < 70; i++)
		strcat(many, " shared:1");
	strcat(many, " - ext4 /dev/sda rw");
	assert_int_equal(mountinfo_parse_line(many, &e), -1);
}

static void test_prefix(void **state)
{
	(void)state;
	assert_int_equal(mountinfo_prefix_len("/var/tmp/x", "/"), 1);
	assert_int_equal(mountinfo_prefix_len("/var/tmp/x", "/var"), 4);
	assert_int_equal(mountinfo_prefix_len("/var/tmp/x", "/var/tmp/x"), 10);
	assert_int_equal(mountinfo_prefix_len("/var/tmpx", "/var/tmp"), 0);
	assert_int_equal(mountinfo_prefix_len("/var", "/var/tmp"), 0);
	assert_int_equal(mountinfo_prefix_len("relative", "/"), 0);
}

static void test_sources(void **state)
{
	(void)state;
	char out[16];
	const char *p = mountinfo_next_source("/dev/sdc1:/dev/sdc2", out, sizeof(out));
	assert_string_equal(out, "/dev/sdc1");
	assert_non_null(p);
	p = mountinfo_next_source(p, out, sizeof(out));
	assert_string_equal(out, "/dev/sdc2");
	assert_null(p);

	p = mountinfo_next_source("/dev/sda", out, sizeof(out));
	assert_string_equal(out, "/dev/sda");
	assert_null(p);

	/* cut to the buffer, the rest still skipped */
	p = mountinfo_next_source("/dev/disk/by-id/very-long:x", out, sizeof(out));
	assert_string_equal(out, "/dev/disk/by-id");
	assert_string_equal(p, "x");

	p = mountinfo_next_source("a::", out, sizeof(out));
	assert_string_equal(out, "a");
	p = mountinfo_next_source(p, out, sizeof(out));
	assert_string_equal(out, "");
	p = mountinfo_next_source(p, out, sizeof(out));
	assert_string_equal(out, "");
	assert_null(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_example),
		cmocka_unit_test(test_optional_fields),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_not_mountinfo),
		cmocka_unit_test(test_prefix),
		cmocka_unit_test(test_sources),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
