/* Host facts over a fake sysfs tree: cpu0's governor, and none where the
 * kernel has no cpufreq; drive temperature sensors (NVMe hwmonN, drivetemp
 * hwmon/hwmonN) with and without limits, and a disk without one. */
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
#include "fake_root.h"

static int setup(void **state)
{
	(void)state;
	return fake_root_make("host");
}

static int teardown(void **state)
{
	(void)state;
	return fake_root_remove();
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

static void test_hwmon(void **state)
{
	(void)state;
	struct hwmon_sensor s;
	double c = 0;
	char disk[128];
	snprintf(disk, sizeof(disk), "%s/block/nvme0n1", root);
	put("block/nvme0n1/device/uevent", "");
	assert_int_equal(hwmon_find(disk, &s), -1);
	assert_int_equal(hwmon_read_c(&s, &c), -1);
	/* NVMe: the controller's own hwmonN, limits in millidegrees */
	put("block/nvme0n1/device/hwmon3/temp1_input", "44850\n");
	put("block/nvme0n1/device/hwmon3/temp1_max", "81850\n");
	put("block/nvme0n1/device/hwmon3/temp1_crit", "84850\n");
	assert_int_equal(hwmon_find(disk, &s), 0);
	assert_true(s.max_c > 81.84 && s.max_c < 81.86);
	assert_true(s.crit_c > 84.84 && s.crit_c < 84.86);
	assert_int_equal(hwmon_read_c(&s, &c), 0);
	assert_true(c > 44.84 && c < 44.86);
	/* SATA with drivetemp: device/hwmon/hwmonN, no limits given */
	snprintf(disk, sizeof(disk), "%s/block/sda", root);
	put("block/sda/device/hwmon/hwmon5/temp1_input", "31000\n");
	assert_int_equal(hwmon_find(disk, &s), 0);
	assert_true(s.max_c == 0 && s.crit_c == 0);
	assert_int_equal(hwmon_read_c(&s, &c), 0);
	assert_true(c == 31.0);
}

/* MemAvailable in kB, as Linux writes it since 3.14; none before. */
static void test_mem_available(void **state)
{
	(void)state;
	uint64_t bytes = 7;
	assert_int_equal(devinfo_mem_available(root, &bytes), -1); /* no meminfo */
	put("meminfo", "MemTotal:        2048000 kB\nMemFree:          100000 kB\n");
	assert_int_equal(devinfo_mem_available(root, &bytes), -1); /* an old kernel */
	assert_int_equal(bytes, 7);
	put("meminfo", "MemTotal:        2048000 kB\nMemFree:          100000 kB\n"
	    "MemAvailable:     524288 kB\nBuffers:            2048 kB\n");
	assert_int_equal(devinfo_mem_available(root, &bytes), 0);
	assert_int_equal(bytes, 524288ull * 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mem_available, setup, teardown),
		cmocka_unit_test_setup_teardown(test_governor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hwmon, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
