/* quick's classifier: the seed articles' figures land in the right class,
 * identity narrows or contradicts, and impossible or capped figures warn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "classify.h"

static bool has_warning(const struct verdict *v, const char *needle)
{
	for (unsigned i = 0; i < v->nwarnings; i++)
		if (strstr(v->warnings[i], needle))
			return true;
	return false;
}

static void test_usb2_stick(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 16.9e6, .transport = "usb", .rotational = -1 };
	struct verdict v;
	classify(&f, &v);
	assert_string_equal(v.cls->id, "usb2");
	assert_int_equal(v.nwarnings, 0);
}

static void test_usb3_hdd(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 115e6, .qd1_lat_p50_ns = 12e6, .qd32_iops = 160,
				   .transport = "usb", .rotational = 1 };
	struct verdict v;
	classify(&f, &v);
	assert_string_equal(v.cls->id, "hdd");
	assert_string_equal(v.fit, "consistent");
}

static void test_sata_ssd(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 429e6, .qd1_lat_p50_ns = 90e3, .qd32_iops = 94e3,
				   .rotational = -1 };
	struct verdict v;
	char line[256];
	classify(&f, &v);
	assert_string_equal(v.cls->id, "sata_ssd");
	verdict_line(line, sizeof(line), &f, &v);
	assert_non_null(strstr(line, "looks like: SATA SSD class (seq read 429 MB/s"));
	assert_non_null(strstr(line, "94.0k IOPS @ 32"));
}

static void test_nvme_volume_group(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 1.5e9, .qd1_lat_p50_ns = 80e3, .qd32_iops = 300e3,
				   .rotational = 0 };
	struct verdict v;
	classify(&f, &v);
	assert_string_equal(v.cls->id, "nvme_gen3");
}

static void test_impossible_rate_on_usb2(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 2.1e9, .transport = "usb", .link_kind = "usb",
				   .link_speed = "480 Mbit/s", .link_ceiling_bps = 53.2e6 };
	struct verdict v;
	classify(&f, &v);
	assert_true(has_warning(&v, "impossible"));
	assert_true(has_warning(&v, "cache"));
}

static void test_link_bound(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 560e6, .qd1_lat_p50_ns = 70e3, .qd32_iops = 90e3,
				   .transport = "sata", .link_kind = "sata", .link_speed = "6.0 Gbps",
				   .link_ceiling_bps = 600e6 };
	struct verdict v;
	classify(&f, &v);
	assert_string_equal(v.cls->id, "sata_ssd");
	assert_true(has_warning(&v, "link-bound"));
	assert_false(has_warning(&v, "impossible"));
}

static void test_pcie_below_max(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 1.8e9, .transport = "nvme", .link_kind = "pcie",
				   .link_speed = "8.0 GT/s PCIe x2", .link_ceiling_bps = 1.97e9,
				   .link_below_max = true };
	struct verdict v;
	classify(&f, &v);
	assert_true(has_warning(&v, "below what the device supports"));
	assert_true(has_warning(&v, "slot"));
	assert_true(has_warning(&v, "link-bound"));
}

static void test_link_picks_the_row(void **state)
{
	(void)state;
	/* 2.1 GB/s through a USB 2.0 link: USB 2.0 class, impossible, and the
	 * figures contradict the identity */
	struct quick_figures f = { .seq_read_bps = 2.1e9, .qd1_lat_p50_ns = 60e3, .qd32_iops = 200e3,
				   .transport = "usb", .link_kind = "usb", .link_speed = "480 Mbit/s",
				   .link_ceiling_bps = 53.2e6 };
	struct verdict v;
	classify(&f, &v);
	assert_string_equal(v.cls->id, "usb2");
	assert_string_equal(v.fit, "contradicts_identity");
	assert_non_null(strstr(v.identity_note, "480 Mbit/s"));
	assert_true(has_warning(&v, "impossible"));
	/* a Gen4 drive's figures on a Gen3 link: Gen3 class */
	struct quick_figures g = { .seq_read_bps = 3.5e9, .qd1_lat_p50_ns = 50e3, .qd32_iops = 700e3,
				   .transport = "nvme", .link_kind = "pcie", .link_speed = "8.0 GT/s",
				   .link_ceiling_bps = 3.94e9 };
	classify(&g, &v);
	assert_string_equal(v.cls->id, "nvme_gen3");
	g.link_speed = "16.0 GT/s";
	g.link_ceiling_bps = 7.88e9;
	g.seq_read_bps = 6.5e9;
	g.qd32_iops = 1.2e6;
	classify(&g, &v);
	assert_string_equal(v.cls->id, "nvme_gen4");
}

static void test_below_max_without_ceiling(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 250e6, .transport = "sata", .link_kind = "sata",
				   .link_speed = "3.0 Gbps", .link_below_max = true };
	struct verdict v;
	classify(&f, &v);
	assert_true(has_warning(&v, "sata link runs below"));
	assert_true(has_warning(&v, "port and cable"));
}

static void test_ram_note_names_no_null(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 1e9, .qd1_lat_p50_ns = 60e3, .qd32_iops = 100e3,
				   .fs_class = "ram" };
	struct verdict v;
	char line[512];
	classify(&f, &v);
	verdict_line(line, sizeof(line), &f, &v);
	assert_null(strstr(line, "(null)"));
}

static void test_ram(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 9e9, .qd1_lat_p50_ns = 3e3, .qd32_iops = 900e3,
				   .fs_class = "ram" };
	struct verdict v;
	char line[256];
	classify(&f, &v);
	assert_string_equal(v.cls->id, "ram");
	assert_true(has_warning(&v, "RAM"));
	verdict_line(line, sizeof(line), &f, &v);
	assert_non_null(strstr(line, "looks like: RAM: RAM class"));
}

static void test_identity_contradiction(void **state)
{
	(void)state;
	/* sysfs says USB, the figures say NVMe */
	struct quick_figures f = { .seq_read_bps = 3e9, .qd1_lat_p50_ns = 60e3, .qd32_iops = 500e3,
				   .transport = "usb" };
	struct verdict v;
	classify(&f, &v);
	assert_string_equal(v.fit, "contradicts_identity");
	assert_non_null(strstr(v.identity_note, "usb"));
}

static void test_virtual_prefix(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 2.2e9, .qd1_lat_p50_ns = 53e3, .qd32_iops = 78e3,
				   .transport = "virtio", .is_virtual = true };
	struct verdict v;
	char line[256];
	classify(&f, &v);
	verdict_line(line, sizeof(line), &f, &v);
	assert_non_null(strstr(line, "looks like: virtual disk: "));
}

static void test_provisioned_cap(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 131e6, .qd1_lat_p50_ns = 330e3, .qd1_iops = 3010,
				   .qd32_iops = 3000, .qd32_lat_p50_ns = 10.6e6 };
	struct verdict v;
	classify(&f, &v);
	assert_true(has_warning(&v, "throttled"));
	/* a device that scales with the load is not capped */
	struct quick_figures g = f;
	g.qd32_iops = 40e3;
	classify(&g, &v);
	assert_false(has_warning(&v, "throttled"));
}

/* A limit quick saw (a cgroup limit reached, a rate cap in a series): the
 * figures of a capped volume look like a USB stick's, and the verdict must
 * not say so. */
static void test_capped_names_no_class(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 136e6, .qd1_lat_p50_ns = 152e3, .qd1_iops = 132,
				   .qd32_iops = 135, .qd32_lat_p50_ns = 207e6, .is_virtual = true,
				   .rotational = -1 };
	struct verdict v;
	char line[512];
	classify(&f, &v);
	assert_string_not_equal(v.fit, "capped");
	snprintf(f.cap, sizeof(f.cap), "a cgroup limit of 130 IOPS on 7:0 (reached in RND4K Q1T1 read)");
	classify(&f, &v);
	assert_string_equal(v.fit, "capped");
	assert_null(v.second);
	verdict_line(line, sizeof(line), &f, &v);
	assert_non_null(strstr(line, "capped by a cgroup limit of 130 IOPS on 7:0"));
	assert_null(strstr(line, v.cls->label)); /* the class the figures resemble is not named */
	assert_non_null(strstr(line, "135 IOPS @ 32"));
	assert_int_equal(strncmp(line, "looks like: virtual disk: capped", 32), 0);
}

static void test_nothing_measured(void **state)
{
	(void)state;
	struct quick_figures f = { .rotational = -1 };
	struct verdict v;
	char line[128];
	classify(&f, &v);
	assert_null(v.cls);
	verdict_line(line, sizeof(line), &f, &v);
	assert_non_null(strstr(line, "unknown"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usb2_stick),
		cmocka_unit_test(test_usb3_hdd),
		cmocka_unit_test(test_sata_ssd),
		cmocka_unit_test(test_nvme_volume_group),
		cmocka_unit_test(test_impossible_rate_on_usb2),
		cmocka_unit_test(test_link_bound),
		cmocka_unit_test(test_pcie_below_max),
		cmocka_unit_test(test_ram),
		cmocka_unit_test(test_link_picks_the_row),
		cmocka_unit_test(test_below_max_without_ceiling),
		cmocka_unit_test(test_ram_note_names_no_null),
		cmocka_unit_test(test_identity_contradiction),
		cmocka_unit_test(test_virtual_prefix),
		cmocka_unit_test(test_provisioned_cap),
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_capped_names_no_class),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
