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

/* CI's chroot without sysfs: a disk-backed directory whose O_DIRECT reads
 * ran at memory speed (the host's cache; figures of that run) names no
 * class, least of all RAM; the same figures on tmpfs stay RAM, and a disk of
 * known transport keeps its class. */
static void test_memory_speed_on_unknown_disk(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 10.2e9, .qd1_lat_p50_ns = 38.5e3, .qd1_iops = 25e3,
				   .qd32_iops = 199.6e3, .seq_write_bps = 1.57e9, .rotational = -1 };
	struct verdict v;
	char line[512];
	classify(&f, &v);
	verdict_line(line, sizeof(line), &f, &v);
	assert_null(v.cls);
	assert_string_equal(v.fit, "cache");
	assert_true(v.memory_speed);
	assert_string_equal(v.identity_note, "");
	assert_non_null(strstr(line, "looks like: a cache, not the disk: the figures are memory speed "
				     "(seq read 10.2 GB/s, QD1 read 38.5 us, 200k IOPS @ 32)"));
	assert_null(strstr(line, "RAM class"));

	f.fs_class = "ram";
	classify(&f, &v);
	assert_non_null(v.cls);
	assert_string_equal(v.cls->id, "ram");
	assert_false(v.memory_speed);

	struct quick_figures nvme = { .seq_read_bps = 6.5e9, .qd1_lat_p50_ns = 60e3, .qd32_iops = 700e3,
				      .transport = "nvme", .rotational = 0 };
	classify(&nvme, &v);
	assert_non_null(v.cls);
	assert_false(v.memory_speed);
	assert_string_not_equal(v.fit, "cache");
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
	assert_string_equal(v.prefix, "virtual disk: ");
	assert_non_null(strstr(line, "looks like: virtual disk: the figures come through a hypervisor"));
	/* a short buffer cuts the line, still a string */
	char small[40];
	memset(small, 'x', sizeof(small));
	verdict_line(small, sizeof(small), &f, &v);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_int_equal(strncmp(small, "looks like: virtual disk: the figures", 37), 0);
}

/* The virtio disk: runs whose figures vary as this VM's do (a
 * 5.77 GB/s Q1 read once, 2.6 GB/s the next time, a quiet host's 320k IOPS
 * that once made it "PCIe 4.0 or 3.0") give one verdict, which
 * names the hypervisor and no PCIe generation; the same figures on a
 * physical disk of unknown link name SATA or NVMe generations, and not
 * always the same (the control: the figures do move across the rows). */
static void test_virtual_verdict_is_stable(void **state)
{
	(void)state;
	const double runs[][3] = { /* seq read, QD1 p50, IOPS @ 32 */
		{ 5.77e9, 41e3, 150e3 }, { 2.63e9, 53.4e3, 87.4e3 }, { 3.59e9, 40.8e3, 62.0e3 },
		{ 2.95e9, 60e3, 120e3 }, { 1.62e9, 46.7e3, 110e3 }, { 3.5e9, 45e3, 320e3 },
		{ 973e6, 66.3e3, 43.9e3 }, /* -t 2 while seven other jobs shared the host */
	};
	const char *physical_first = NULL;
	bool physical_moved = false;
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		struct quick_figures f = { .seq_read_bps = runs[i][0], .qd1_lat_p50_ns = runs[i][1],
					   .qd32_iops = runs[i][2], .transport = "virtio", .is_virtual = true,
					   .virt_kind = "virtio-blk", .link_kind = "none", .rotational = 1 };
		struct verdict v;
		char line[512];
		classify(&f, &v);
		verdict_line(line, sizeof(line), &f, &v);
		assert_string_equal(v.cls->id, "ssd");
		assert_string_equal(v.fit, "consistent");
		assert_null(v.second);
		assert_string_equal(v.host_cache, "");
		assert_null(strstr(line, "PCIe"));
		const char *want = "looks like: virtual disk (virtio-blk): the figures come through a "
				   "hypervisor and resemble the SSD class (";
		assert_int_equal(strncmp(line, want, strlen(want)), 0);
		f.is_virtual = false;
		f.virt_kind = NULL;
		f.transport = NULL;
		classify(&f, &v);
		assert_true(strncmp(v.cls->id, "nvme_gen", 8) == 0 || strcmp(v.cls->id, "sata_ssd") == 0);
		if (!physical_first)
			physical_first = v.cls->id;
		physical_moved |= strcmp(v.cls->id, physical_first) != 0 || v.second;
	}
	assert_true(physical_moved);
}

/* QEMU's emulated SATA disk claims a 1.5 Gbps link: a figure beyond it is
 * the host's cache, named in the verdict; one within it is not. */
static void test_host_cache_beyond_claimed_link(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 2.1e9, .qd1_lat_p50_ns = 90e3, .qd32_iops = 60e3,
				   .transport = "sata", .is_virtual = true, .virt_kind = "QEMU-emulated disk",
				   .link_kind = "sata", .link_speed = "1.5 Gbps", .link_ceiling_bps = 150e6,
				   .link_emulated = true, .rotational = 1 };
	struct verdict v;
	char line[512];
	classify(&f, &v);
	verdict_line(line, sizeof(line), &f, &v);
	assert_string_equal(v.fit, "host_cache");
	assert_non_null(strstr(line, "looks like: virtual disk (QEMU-emulated disk): the figures come "
				     "through a hypervisor from the host's cache: 2.10 GB/s is more than its "
				     "claimed SATA link (1.5 Gbps, at most 150 MB/s) can carry (seq read 2.10 GB/s"));
	assert_true(has_warning(&v, "the host's cache was measured"));
	assert_false(has_warning(&v, "impossible")); /* the physical wording: device RAM, compression */

	/* within the claimed link: no cache named, no link-bound warning either
	 * (an emulated link bounds nothing) */
	f.seq_read_bps = 140e6, f.qd1_lat_p50_ns = 6e6, f.qd32_iops = 300;
	classify(&f, &v);
	verdict_line(line, sizeof(line), &f, &v);
	assert_string_equal(v.fit, "consistent");
	assert_string_equal(v.host_cache, "");
	assert_string_equal(v.cls->id, "hdd");
	assert_null(strstr(line, "cache"));
	assert_int_equal(v.nwarnings, 0);

	/* an emulated NVMe's PCIe link: beyond it, the cache; never a generation */
	struct quick_figures g = { .seq_read_bps = 3.0e9, .qd1_lat_p50_ns = 50e3, .qd32_iops = 200e3,
				   .transport = "nvme", .is_virtual = true, .virt_kind = "QEMU-emulated NVMe",
				   .link_kind = "pcie", .link_speed = "2.5 GT/s", .link_ceiling_bps = 250e6,
				   .link_emulated = true, .rotational = 0 };
	classify(&g, &v);
	verdict_line(line, sizeof(line), &g, &v);
	assert_string_equal(v.fit, "host_cache");
	assert_non_null(strstr(line, "claimed PCIe link (2.5 GT/s, at most 250 MB/s)"));
	assert_null(strstr(line, "PCIe 1.0"));
	assert_null(strstr(line, "PCIe 3.0"));
	assert_null(strstr(line, "SSD class"));
}

/* A virtual disk at memory speed is the host's cache too; a physical NVMe
 * beyond its real link keeps the physical warning and names no host. */
static void test_host_cache_memory_speed(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 9e9, .qd1_lat_p50_ns = 8e3, .qd32_iops = 450e3,
				   .transport = "virtio", .is_virtual = true, .virt_kind = "virtio-blk",
				   .link_kind = "none", .rotational = 1 };
	struct verdict v;
	char line[512];
	classify(&f, &v);
	verdict_line(line, sizeof(line), &f, &v);
	assert_string_equal(v.fit, "host_cache");
	assert_non_null(strstr(line, "from the host's cache: the figures are memory speed"));

	struct quick_figures p = { .seq_read_bps = 5e9, .qd1_lat_p50_ns = 60e3, .qd32_iops = 500e3,
				   .transport = "nvme", .link_kind = "pcie", .link_speed = "8.0 GT/s",
				   .link_ceiling_bps = 3.94e9, .rotational = 0 };
	classify(&p, &v);
	verdict_line(line, sizeof(line), &p, &v);
	assert_string_not_equal(v.fit, "host_cache");
	assert_string_equal(v.cls->id, "nvme_gen3");
	assert_true(has_warning(&v, "impossible"));
	assert_null(strstr(line, "hypervisor"));
}

/* A cloud volume says so, and its figures resemble a cloud block volume. */
static void test_cloud_volume(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 131e6, .qd1_lat_p50_ns = 600e3, .qd32_iops = 3000,
				   .qd1_iops = 1600, .qd32_lat_p50_ns = 10e6, .transport = "nvme",
				   .is_virtual = true, .virt_kind = "Amazon EBS volume", .cloud_volume = true,
				   .link_kind = "pcie", .link_speed = "8.0 GT/s", .link_ceiling_bps = 3.94e9,
				   .link_emulated = true, .rotational = 0 };
	struct verdict v;
	char line[512];
	classify(&f, &v);
	verdict_line(line, sizeof(line), &f, &v);
	assert_string_equal(v.cls->id, "cloud_block");
	assert_non_null(strstr(line, "looks like: cloud volume (Amazon EBS volume): the figures come "
				     "through a hypervisor and resemble the cloud block volume class"));
	assert_null(strstr(line, "PCIe"));
	assert_int_equal(v.nwarnings, 0);
}

/* Figures a step's own finding says a cache served are not weighed: the
 * rest decide, and the line says which were left out; with none left, no
 * class at all. */
static void test_cached_figures_not_weighed(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 0, .qd1_lat_p50_ns = 90e3, .qd1_iops = 11e3,
				   .qd32_iops = 94e3, .qd32_lat_p50_ns = 330e3, .rotational = -1 };
	struct verdict v;
	char line[512];
	snprintf(f.cached, sizeof(f.cached), "seq read");
	classify(&f, &v);
	verdict_line(line, sizeof(line), &f, &v);
	assert_non_null(v.cls);
	assert_non_null(strstr(line, "seq read -,"));
	assert_non_null(strstr(line, "; not weighed: seq read (a cache served it)"));
	/* every figure from a cache: no class, and the line says why */
	struct quick_figures g = { .rotational = -1 };
	snprintf(g.cached, sizeof(g.cached), "seq read, QD1 read, QD32 IOPS");
	classify(&g, &v);
	verdict_line(line, sizeof(line), &g, &v);
	assert_null(v.cls);
	assert_string_equal(v.fit, "cache");
	assert_non_null(strstr(line, "a cache, not the disk"));
	/* nothing measured and nothing cached stays "unknown" */
	struct quick_figures none = { .rotational = -1 };
	classify(&none, &v);
	verdict_line(line, sizeof(line), &none, &v);
	assert_non_null(strstr(line, "unknown (nothing was measured)"));
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
	/* a fast device that does not queue (zram, brd, null_blk, a loop over the
	 * page cache): flat, latency grew 30x, at 15k IOPS (round), but the
	 * thread that submits did the work: not a cap */
	struct quick_figures z = { .seq_read_bps = 2e9, .qd1_lat_p50_ns = 60e3, .qd1_iops = 15100,
				   .qd32_iops = 15000, .qd32_lat_p50_ns = 2.1e6, .qd1_cpu = 0.97,
				   .qd32_cpu = 0.99 };
	double round;
	assert_false(classify_flat_cap(&z, &round));
	classify(&z, &v);
	assert_false(has_warning(&v, "throttled"));
	/* the same with an idle thread is a cap at 15000 */
	z.qd1_cpu = z.qd32_cpu = 0.05;
	assert_true(classify_flat_cap(&z, &round));
	assert_true(round == 15000);
	/* 12,700 IOPS flat and queued with an idle thread: no round figure near
	 * (the old grid of every 500 within 2 % called anything above 12,500 round) */
	z.qd1_iops = 12720, z.qd32_iops = 12700;
	assert_false(classify_flat_cap(&z, &round));
	classify(&z, &v);
	assert_false(has_warning(&v, "throttled"));
	/* the lab's volume capped at 150 IOPS: 152 at 1 and at 32, 6.6 ms -> 210 ms;
	 * the old rule wanted 500 IOPS or more and named no cap */
	struct quick_figures lab = { .seq_read_bps = 130e6, .qd1_lat_p50_ns = 6.6e6, .qd1_iops = 152,
				     .qd32_iops = 152, .qd32_lat_p50_ns = 210e6, .qd1_cpu = 0.01,
				     .qd32_cpu = 0.01, .is_virtual = true, .rotational = -1 };
	assert_true(classify_flat_cap(&lab, &round));
	assert_true(round == 150);
	classify(&lab, &v);
	assert_true(has_warning(&v, "throttled: 152 IOPS at 1 and at 32 outstanding, near the round "
				    "number 150"));
	/* qemu's bucket starts full: the QD32 step's first interval ran ahead
	 * (171 over the step), 150 after it, as at QD1 */
	lab.qd32_iops = 171, lab.qd1_settled_iops = 150.2, lab.qd32_settled_iops = 150.0;
	assert_true(classify_flat_cap(&lab, &round));
	assert_true(round == 150);
	/* settled figures that differ are no cap, whatever the step figures say */
	lab.qd32_iops = 152, lab.qd32_settled_iops = 171;
	assert_false(classify_flat_cap(&lab, &round));
	/* short steps count few I/Os: 60 after the first interval make 148 and
	 * 153 one I/O at an interval's edge apart (within 3 % + 2/60); with 600
	 * counted, the same gap is no longer flat */
	lab.qd1_settled_iops = 148, lab.qd32_settled_iops = 153, lab.settled_ios = 60;
	assert_true(classify_flat_cap(&lab, &round));
	lab.settled_ios = 600;
	assert_false(classify_flat_cap(&lab, &round));
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

/* --engine=nop (issue 39): NOPs reach no device, so their figures, whatever
 * they resemble (memory speed on a virtual disk: "host_cache" before), name
 * no class, no cache and warn of nothing; the line says why.  The same
 * figures without nop keep their verdict. */
static void test_nop_names_nothing(void **state)
{
	(void)state;
	struct quick_figures f = { .seq_read_bps = 655e9, .qd1_lat_p50_ns = 710, .qd32_iops = 2.4e6,
				   .qd1_iops = 239e3, .is_virtual = true, .virt_kind = "virtio-blk",
				   .transport = "virtio", .rotational = 1, .link_kind = "usb",
				   .link_speed = "480", .link_ceiling_bps = 40e6, .nop = true };
	struct verdict v;
	char line[512];
	classify(&f, &v);
	assert_null(v.cls);
	assert_null(v.second);
	assert_string_equal(v.fit, "nop");
	assert_string_equal(v.prefix, "");
	assert_string_equal(v.host_cache, "");
	assert_int_equal(v.nwarnings, 0); /* not even the link's ceiling: no link was used */
	verdict_line(line, sizeof(line), &f, &v);
	assert_string_equal(line, "looks like: no device: --engine=nop sent io_uring NOPs, which "
			    "reach none, so the figures (seq read 655 GB/s, QD1 read 710 ns, 2.40M "
			    "IOPS @ 32) are diskbench's own ceiling on this CPU and no class is named");

	f.nop = false; /* negative: the same figures from a device keep their verdict */
	classify(&f, &v);
	assert_non_null(v.cls);
	assert_string_equal(v.fit, "host_cache");
	assert_true(v.nwarnings > 0);
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
		cmocka_unit_test(test_virtual_verdict_is_stable),
		cmocka_unit_test(test_host_cache_beyond_claimed_link),
		cmocka_unit_test(test_host_cache_memory_speed),
		cmocka_unit_test(test_memory_speed_on_unknown_disk),
		cmocka_unit_test(test_cloud_volume),
		cmocka_unit_test(test_provisioned_cap),
		cmocka_unit_test(test_cached_figures_not_weighed),
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_nop_names_nothing),
		cmocka_unit_test(test_capped_names_no_class),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
