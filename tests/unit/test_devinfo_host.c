/* Host facts over a fake sysfs tree: cpu0's governor, and none where the
 * kernel has no cpufreq. */
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

#include "devinfo_host.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "mkdir -p \"$(dirname '%s/%s')\"", root, rel);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/diskbench-host.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_governor(void **state)
{
	(void)state;
	char buf[32] = "stale";
	assert_int_equal(devinfo_cpu_governor(root, buf, sizeof(buf)), -1);
	put("devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
	assert_int_equal(devinfo_cpu_governor(root, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "powersave");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_governor, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
