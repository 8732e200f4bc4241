/* What a disk says about itself: the decoders on pages built by hand from
 * the specifications (each expected figure worked out from the bytes set
 * here, not from the decoder), the pages they must refuse (a bad GUID, a
 * bad checksum, a page of another code), a drive without the attributes,
 * the run's arithmetic (deltas, write amplification), the reader through
 * fake commands (privilege, no device node, unsupported transports, a USB
 * bridge without ATA pass-through) and the warning a critical bit raises. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "devinfo_health.h"
#include "fake_root.h"
#include "run_health.h"

static void put_le(uint8_t *p, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/* An NVMe SMART log: 320 K, spare 97 % of threshold 10 %, 3 % used,
 * 4660 units read, 2^32 + 5 units written, 1234 hours, 7 media errors,
 * 12 and 3 minutes over the warning and critical temperatures, thermal
 * management 5 and 6 times for 100 and 200 s. */
static void nvme_page(uint8_t *p, uint8_t warning)
{
	memset(p, 0, HEALTH_PAGE);
	p[0] = warning;
	put_le(p + 1, 2, 320);
	p[3] = 97, p[4] = 10, p[5] = 3;
	put_le(p + 32, 16, 4660);
	put_le(p + 48, 16, (1ull << 32) + 5);
	put_le(p + 128, 16, 1234);
	put_le(p + 144, 16, 2);
	put_le(p + 160, 16, 7);
	put_le(p + 192, 4, 12);
	put_le(p + 196, 4, 3);
	put_le(p + 216, 4, 5);
	put_le(p + 220, 4, 6);
	put_le(p + 224, 4, 100);
	put_le(p + 228, 4, 200);
}

static void test_nvme(void **state)
{
	(void)state;
	uint8_t p[HEALTH_PAGE];
	struct health h;
	nvme_page(p, 0);
	health_init(&h, "nvme0n1");
	assert_int_equal(health_decode_nvme(p, &h), 0);
	assert_true(h.available);
	assert_string_equal(h.source, "nvme");
	assert_int_equal(h.temperature_c, 47);
	assert_int_equal(h.critical_warning, 0);
	assert_int_equal(h.available_spare_pct, 97);
	assert_int_equal(h.spare_threshold_pct, 10);
	assert_int_equal(h.percentage_used, 3);
	assert_int_equal(h.host_read_bytes, 4660LL * 512000);
	assert_int_equal(h.host_written_bytes, 4294967301LL * 512000);
	assert_int_equal(h.power_on_hours, 1234);
	assert_int_equal(h.unsafe_shutdowns, 2);
	assert_int_equal(h.media_errors, 7);
	assert_int_equal(h.warning_temp_minutes, 12);
	assert_int_equal(h.critical_temp_minutes, 3);
	assert_int_equal(h.thermal_transitions[0], 5);
	assert_int_equal(h.thermal_transitions[1], 6);
	assert_int_equal(h.thermal_seconds[0], 100);
	assert_int_equal(h.thermal_seconds[1], 200);
	assert_false(health_alarm(&h)); /* no bit set: silent */
	/* ATA-only figures stay unknown */
	assert_int_equal(h.reallocated_sectors, -1);
	assert_int_equal(h.nand_written_bytes, -1);
	/* a counter beyond 64 bits saturates instead of wrapping */
	p[48 + 8] = 1;
	assert_int_equal(health_decode_nvme(p, &h), 0);
	assert_int_equal(h.host_written_bytes, INT64_MAX);
	/* 263 K: below freezing is a temperature, not "unknown" */
	put_le(p + 1, 2, 263);
	health_decode_nvme(p, &h);
	assert_int_equal(h.temperature_c, -10);
	/* 0 K: no temperature reported */
	put_le(p + 1, 2, 0);
	health_decode_nvme(p, &h);
	assert_true(h.temperature_c == HEALTH_NO_TEMP);
}

static void test_nvme_warning(void **state)
{
	(void)state;
	uint8_t p[HEALTH_PAGE];
	struct health h;
	char text[256];
	nvme_page(p, NVME_CW_READ_ONLY | NVME_CW_SPARE);
	health_init(&h, "nvme0n1");
	health_decode_nvme(p, &h);
	assert_int_equal(h.critical_warning, 0x09);
	assert_true(health_alarm(&h));
	health_warning_text(h.critical_warning, text, sizeof(text));
	assert_string_equal(text, "available spare below its threshold, media read-only");
	health_warning_text(0x80, text, sizeof(text));
	assert_string_equal(text, "a reserved bit");
	/* a reading that could not be taken is no alarm */
	health_init(&h, "nvme0n1");
	assert_false(health_alarm(&h));
}

static const uint8_t ocp_guid[16] = { 0xC5, 0xAF, 0x10, 0x28, 0xEA, 0xBF, 0xF2, 0xA4,
				      0x9C, 0x4F, 0x6F, 0x7C, 0xC9, 0x14, 0xD5, 0xAF };

static void test_ocp(void **state)
{
	(void)state;
	uint8_t p[HEALTH_PAGE] = { 0 };
	struct health h;
	health_init(&h, "nvme0n1");
	put_le(p, 16, 3ull << 30);        /* physical media units written, bytes */
	put_le(p + 16, 16, 5ull << 30);   /* read: not used */
	memcpy(p + 496, ocp_guid, sizeof(ocp_guid));
	assert_int_equal(health_decode_ocp(p, &h), 0);
	assert_int_equal(h.nand_written_bytes, 3LL << 30);
	assert_string_equal(h.nand_why, "");
	/* another vendor's C0h page: the figure is not taken */
	health_init(&h, "nvme0n1");
	p[511] ^= 0xff;
	assert_int_equal(health_decode_ocp(p, &h), -1);
	assert_int_equal(h.nand_written_bytes, -1);
	assert_non_null(strstr(h.nand_why, "GUID"));
	/* all zeros (a controller that fills unknown pages with 0) */
	memset(p, 0, sizeof(p));
	assert_int_equal(health_decode_ocp(p, &h), -1);
}

static void ata_attr(uint8_t *page, int slot, int id, int value, uint64_t raw)
{
	uint8_t *a = page + 2 + slot * 12;
	a[0] = (uint8_t)id;
	a[3] = (uint8_t)value;
	a[4] = (uint8_t)value;
	put_le(a + 5, 6, raw);
}

static void ata_threshold(uint8_t *page, int slot, int id, int threshold)
{
	page[2 + slot * 12] = (uint8_t)id;
	page[2 + slot * 12 + 1] = (uint8_t)threshold;
}

static void ata_sum(uint8_t *page)
{
	uint8_t sum = 0;
	for (int i = 0; i < HEALTH_PAGE - 1; i++)
		sum = (uint8_t)(sum + page[i]);
	page[HEALTH_PAGE - 1] = (uint8_t)(0x100 - sum);
}

static void test_ata(void **state)
{
	(void)state;
	uint8_t d[HEALTH_PAGE] = { 0 }, t[HEALTH_PAGE] = { 0 };
	struct health h;
	d[0] = 0x10;
	ata_attr(d, 0, 5, 100, 12);
	ata_attr(d, 1, 9, 99, 0x05000123);          /* raw24: 0x123 = 291 h */
	ata_attr(d, 2, 194, 64, 0x0000400e0024ull); /* low byte: 36 C; max/min above */
	ata_attr(d, 3, 190, 60, 40);                /* 194 wins over 190 */
	ata_attr(d, 4, 241, 100, 1000000);          /* LBAs of 512 bytes */
	ata_attr(d, 5, 242, 100, 3);
	ata_sum(d);
	ata_threshold(t, 0, 5, 36);
	ata_threshold(t, 1, 9, 0);
	ata_sum(t);
	health_init(&h, "sda");
	assert_int_equal(health_decode_ata(d, t, NULL, &h), 0);
	assert_string_equal(h.source, "ata");
	assert_int_equal(h.reallocated_sectors, 12);
	assert_int_equal(h.power_on_hours, 291);
	assert_int_equal(h.temperature_c, 36);
	assert_int_equal(h.host_written_bytes, 512000000);
	assert_int_equal(h.host_read_bytes, 1536);
	assert_int_equal(h.ata_unit, 512); /* no model: 512 bytes, and said to be assumed */
	assert_true(h.ata_unit_assumed);
	assert_int_equal(h.failing_attribute, 0);
	assert_false(health_alarm(&h));
	/* NVMe-only figures stay unknown */
	assert_int_equal(h.critical_warning, -1);
	assert_int_equal(h.media_errors, -1);
}

static void test_ata_without(void **state)
{
	(void)state;
	uint8_t d[HEALTH_PAGE] = { 0 };
	struct health h;
	/* an HDD: no 241, no 194, the airflow temperature only */
	ata_attr(d, 0, 9, 99, 10);
	ata_attr(d, 1, 190, 60, 0x1f);
	ata_sum(d);
	health_init(&h, "sdb");
	assert_int_equal(health_decode_ata(d, NULL, NULL, &h), 0);
	assert_int_equal(h.temperature_c, 31);
	assert_int_equal(h.host_written_bytes, -1);
	assert_int_equal(h.reallocated_sectors, -1);
	/* a page that fails its checksum is refused, not half-believed */
	d[100] ^= 1;
	health_init(&h, "sdb");
	assert_int_equal(health_decode_ata(d, NULL, NULL, &h), -1);
	assert_false(h.available);
	assert_non_null(strstr(h.why, "checksum"));
}

/* One page, 241 = 1000 and 242 = 3, read as four drives would count them:
 * the bytes by hand from each vendor's unit in smartmontools' drive
 * database (Host_Writes_32MiB, Total_Writes_GiB, Total_LBAs_Written). */
static void test_ata_units(void **state)
{
	(void)state;
	static const struct {
		const char *model;
		int64_t written, read;
		bool assumed;
	} drives[] = {
		{ "INTEL SSDSC2BB480G4", 1000ll * 33554432, 3ll * 33554432, false },
		{ "SanDisk SDSSDA240G", 1000ll * 1073741824, 3ll * 1073741824, false },
		{ "Samsung SSD 860 EVO 500GB", 512000, 1536, false },
		{ "ST4000DM004-2CV104", 512000, 1536, false },
		{ "QEMU HARDDISK", 512000, 1536, true },
		{ "", 512000, 1536, true },
	};
	uint8_t d[HEALTH_PAGE] = { 0 };
	ata_attr(d, 0, 241, 100, 1000);
	ata_attr(d, 1, 242, 100, 3);
	ata_sum(d);
	for (size_t i = 0; i < sizeof(drives) / sizeof(drives[0]); i++) {
		struct health h;
		health_init(&h, "sda");
		assert_int_equal(health_decode_ata(d, NULL, drives[i].model, &h), 0);
		assert_int_equal(h.host_written_bytes, drives[i].written);
		assert_int_equal(h.host_read_bytes, drives[i].read);
		assert_int_equal(h.ata_unit_assumed, drives[i].assumed);
	}
	/* a count that does not fit in bytes is no figure, not a wrapped one */
	uint8_t big[HEALTH_PAGE] = { 0 };
	ata_attr(big, 0, 241, 100, 0xffffffffffffull);
	ata_sum(big);
	struct health h;
	health_init(&h, "sda");
	health_decode_ata(big, NULL, "SanDisk SDSSDA240G", &h);
	assert_int_equal(h.host_written_bytes, -1);
	/* no 241/242 at all: no unit is claimed */
	uint8_t none[HEALTH_PAGE] = { 0 };
	ata_attr(none, 0, 9, 100, 10);
	ata_sum(none);
	health_init(&h, "sda");
	health_decode_ata(none, NULL, "INTEL SSDSC2BB480G4", &h);
	assert_int_equal(h.ata_unit, -1);
	assert_false(h.ata_unit_assumed);
}

static void test_ata_failing(void **state)
{
	(void)state;
	uint8_t d[HEALTH_PAGE] = { 0 }, t[HEALTH_PAGE] = { 0 };
	struct health h;
	ata_attr(d, 0, 1, 0, 0);    /* value 0, threshold 0: "never fails" */
	ata_attr(d, 1, 5, 30, 900); /* value 30 <= threshold 36 */
	ata_sum(d);
	ata_threshold(t, 0, 1, 0);
	ata_threshold(t, 1, 5, 36);
	ata_sum(t);
	health_init(&h, "sda");
	assert_int_equal(health_decode_ata(d, t, NULL, &h), 0);
	assert_int_equal(h.failing_attribute, 5);
	assert_int_equal(h.failing_value, 30);
	assert_int_equal(h.failing_threshold, 36);
	assert_true(health_alarm(&h));
	/* value exactly one above the threshold: silent */
	d[2 + 12 + 3] = 37;
	ata_sum(d);
	health_init(&h, "sda");
	health_decode_ata(d, t, NULL, &h);
	assert_int_equal(h.failing_attribute, 0);
	/* thresholds that fail their checksum judge nothing */
	d[2 + 12 + 3] = 30;
	ata_sum(d);
	t[7] ^= 1;
	health_init(&h, "sda");
	assert_int_equal(health_decode_ata(d, t, NULL, &h), 0);
	assert_int_equal(h.failing_attribute, 0);
}

static void test_scsi(void **state)
{
	(void)state;
	/* page 0Dh: parameter 0 (temperature 41), parameter 1 (reference 65) */
	uint8_t temp[] = { 0x0d, 0, 0, 12, 0, 0, 0x03, 2, 0, 41, 0, 1, 0x03, 2, 0, 65 };
	/* page 02h: parameter 5, bytes processed (5 bytes); parameter 6, 2 errors */
	uint8_t werr[] = { 0x02, 0, 0, 17, 0, 5, 0, 5, 0x01, 0, 0, 0, 0, 0, 6, 0, 4, 0, 0, 0, 2 };
	struct health h;
	health_init(&h, "sdc");
	assert_int_equal(health_decode_scsi_temperature(temp, sizeof(temp), &h), 0);
	assert_string_equal(h.source, "scsi");
	assert_int_equal(h.temperature_c, 41);
	assert_int_equal(health_decode_scsi_write_errors(werr, sizeof(werr), &h), 0);
	assert_int_equal(h.host_written_bytes, 1LL << 32);
	assert_int_equal(h.uncorrected_write_errors, 2);
	/* FFh: the device does not know its temperature */
	temp[9] = 0xff;
	health_init(&h, "sdc");
	assert_int_equal(health_decode_scsi_temperature(temp, sizeof(temp), &h), -1);
	assert_false(h.available);
	/* another page answered */
	temp[0] = 0x0e;
	temp[9] = 41;
	assert_int_equal(health_decode_scsi_temperature(temp, sizeof(temp), &h), -1);
	/* a parameter longer than the page: ignored, no read past the end */
	uint8_t cut[] = { 0x0d, 0, 0, 6, 0, 0, 0x03, 200, 0, 41 };
	health_init(&h, "sdc");
	assert_int_equal(health_decode_scsi_temperature(cut, sizeof(cut), &h), -1);
	assert_true(h.temperature_c == HEALTH_NO_TEMP);
}

static void reading(struct health *h, int64_t host_written, int64_t nand)
{
	health_init(h, "d");
	h->available = true;
	h->source = "nvme";
	h->host_written_bytes = host_written;
	h->host_read_bytes = 1000;
	h->nand_written_bytes = nand;
	h->media_errors = 0;
}

/* Two namespaces of one controller report the same controller-wide
 * counters (the log is read with NSID all): they count once, and each
 * namespace's line compares the controller's bytes with what the run moved
 * on both.  Namespaces of two controllers, and ATA disks, count each. */
static void test_controller_counted_once(void **state)
{
	(void)state;
	struct health_run run = { .n = 2, .after_taken = true, .run_bytes = 2000000000,
				  .run_wrote = true };
	struct health_delta t;
	char c[16];
	health_nvme_controller("nvme0n1", c, sizeof(c));
	assert_string_equal(c, "nvme0");
	health_nvme_controller("nvme12n3p1", c, sizeof(c));
	assert_string_equal(c, "nvme12");
	health_nvme_controller("sda", c, sizeof(c));
	assert_string_equal(c, "");
	health_nvme_controller("nvme0c1n1", c, sizeof(c)); /* a hidden path: no namespace form */
	assert_string_equal(c, "");
	for (unsigned i = 0; i < 2; i++) {
		/* the controller wrote 2 GB over the run: what the run wrote, 1 GB on each */
		reading(&run.before[i], 5000000000, -1);
		reading(&run.after[i], 7000000000, -1);
		snprintf(run.before[i].controller, sizeof(run.before[i].controller), "nvme0");
		snprintf(run.after[i].controller, sizeof(run.after[i].controller), "nvme0");
		run.disk_bytes[i] = 1000000000;
	}
	health_run_totals(&run, &t);
	assert_int_equal(t.host_written_bytes, 2000000000); /* not 4 GB */
	assert_true(health_first_of_controller(&run, 0));
	assert_false(health_first_of_controller(&run, 1));
	bool shared;
	assert_int_equal(health_controller_bytes(&run, 1, &shared), 2000000000);
	assert_true(shared);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	health_text(f, &run, false);
	fclose(f);
	assert_non_null(strstr(buf, "on controller nvme0, all its namespaces (1.00 x the run's bytes on them)"));
	free(buf);
	/* another controller: its own counters, counted too */
	snprintf(run.after[1].controller, sizeof(run.after[1].controller), "nvme1");
	snprintf(run.before[1].controller, sizeof(run.before[1].controller), "nvme1");
	health_run_totals(&run, &t);
	assert_int_equal(t.host_written_bytes, 4000000000);
	assert_true(health_first_of_controller(&run, 1));
	assert_int_equal(health_controller_bytes(&run, 1, &shared), 1000000000);
	assert_false(shared);
	/* disks with counters of their own (ATA): each counts */
	run.after[0].controller[0] = run.after[1].controller[0] = '\0';
	health_run_totals(&run, &t);
	assert_int_equal(t.host_written_bytes, 4000000000);
}

static void test_delta(void **state)
{
	(void)state;
	struct health_run run = { .n = 2, .after_taken = true, .run_bytes = 1000000000,
				  .run_wrote = true };
	struct health_delta d, t;
	reading(&run.before[0], 1000000000, 2000000000);
	reading(&run.after[0], 2000000000, 4500000000);
	health_delta(&run.before[0], &run.after[0], &d);
	assert_int_equal(d.host_written_bytes, 1000000000);
	assert_int_equal(d.nand_written_bytes, 2500000000);
	assert_true(d.write_amplification > 2.4999 && d.write_amplification < 2.5001);
	assert_int_equal(d.media_errors, 0);
	assert_int_equal(d.reallocated_sectors, -1);
	/* a second disk without NAND figures: its host bytes count, its WAF does not */
	reading(&run.before[1], 0, -1);
	reading(&run.after[1], 512000, -1);
	health_delta(&run.before[1], &run.after[1], &d);
	assert_true(d.write_amplification < 0);
	health_run_totals(&run, &t);
	assert_int_equal(t.host_written_bytes, 1000512000);
	assert_int_equal(t.nand_written_bytes, 2500000000);
	assert_true(t.write_amplification > 2.4999 && t.write_amplification < 2.5001);
	assert_int_equal(t.host_read_bytes, 0);
	/* nothing written by the host: no ratio, not a division by zero */
	reading(&run.after[0], 1000000000, 2000000000);
	health_delta(&run.before[0], &run.after[0], &d);
	assert_true(d.write_amplification < 0);
	/* one reading missing: no delta */
	run.after[1].available = false;
	health_delta(&run.before[1], &run.after[1], &d);
	assert_int_equal(d.host_written_bytes, -1);
	/* JSON: the totals and the host's bytes against the run's */
	reading(&run.after[0], 2000000000, 4500000000);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;
	json_init(&j, f);
	health_json(&j, &run);
	fclose(f);
	assert_non_null(strstr(buf, "\"run_bytes\": 1000000000"));
	assert_non_null(strstr(buf, "\"write_amplification\": 2.500"));
	assert_non_null(strstr(buf, "\"host_vs_run\": 1.000"));
	free(buf);
}

/* ---- the reader, through fake commands --------------------------------- */

static int fake_errno;
static uint8_t fake_page[HEALTH_PAGE];
static unsigned fake_calls;

static int fake_nvme(int fd, uint8_t log_id, uint8_t *buf, size_t len)
{
	(void)fd;
	fake_calls++;
	if (fake_errno || log_id != 0x02) {
		errno = fake_errno ? fake_errno : EIO;
		return -1;
	}
	memcpy(buf, fake_page, len);
	return 0;
}

static int fake_ata(int fd, uint8_t feature, uint8_t buf[HEALTH_PAGE])
{
	(void)fd, (void)feature, (void)buf;
	fake_calls++;
	errno = fake_errno ? fake_errno : EIO;
	return -1;
}

static int fake_scsi_errno;

static int fake_scsi(int fd, uint8_t page, uint8_t *buf, size_t len)
{
	static const uint8_t temp[] = { 0x0d, 0, 0, 6, 0, 0, 0x03, 2, 0, 33 };
	(void)fd;
	fake_calls++;
	if (fake_scsi_errno) {
		errno = fake_scsi_errno;
		return -1;
	}
	if (page != 0x0d) {
		errno = EIO;
		return -1;
	}
	memset(buf, 0, len);
	memcpy(buf, temp, sizeof(temp));
	return 0;
}

static const struct health_ops fakes = { fake_nvme, fake_ata, fake_scsi };

static int setup(void **state)
{
	(void)state;
	fake_errno = fake_scsi_errno = 0;
	fake_calls = 0;
	return fake_root_make("health");
}

static int teardown(void **state)
{
	(void)state;
	return fake_root_remove();
}

static void disk(struct dev_node *n, const char *name, const char *transport)
{
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->kind = "disk";
	n->transport = transport;
}

static void test_reader(void **state)
{
	(void)state;
	struct dev_node n;
	struct health h;
	put("nvme0n1", "");
	put("sda", "");
	nvme_page(fake_page, 0);
	disk(&n, "nvme0n1", "nvme");
	health_read(&n, root, &fakes, &h);
	assert_true(h.available);
	assert_int_equal(h.temperature_c, 47);
	assert_string_equal(h.nand_why, "no OCP SMART log (C0h)");
	/* unprivileged: the reason, no figure */
	fake_errno = EACCES;
	health_read(&n, root, &fakes, &h);
	assert_false(h.available);
	assert_string_equal(h.why, "NVMe log page 02h: not permitted (run as root)");
	assert_true(h.temperature_c == HEALTH_NO_TEMP);
	fake_errno = EPERM;
	disk(&n, "sda", "sata");
	health_read(&n, root, &fakes, &h);
	assert_string_equal(h.why, "ATA SMART READ DATA: not permitted (run as root)");
	/* no device node (a chroot): said so, nothing sent */
	fake_calls = 0;
	disk(&n, "nvme9n1", "nvme");
	health_read(&n, root, &fakes, &h);
	assert_false(h.available);
	assert_non_null(strstr(h.why, "no device node here"));
	assert_int_equal(fake_calls, 0);
}

static void test_reader_kinds(void **state)
{
	(void)state;
	struct dev_node n;
	struct health h;
	put("sdu", "");
	/* a USB bridge without ATA pass-through: its SCSI temperature page */
	disk(&n, "sdu", "usb");
	health_read(&n, root, &fakes, &h);
	assert_true(h.available);
	assert_string_equal(h.source, "scsi");
	assert_int_equal(h.temperature_c, 33);
	/* a bridge that passes neither: both reasons; unprivileged: that one */
	fake_scsi_errno = EIO;
	health_read(&n, root, &fakes, &h);
	assert_false(h.available);
	assert_string_equal(h.why, "no ATA pass-through on this USB bridge; SCSI LOG SENSE "
				   "temperature page: the device refused it");
	fake_errno = EPERM;
	health_read(&n, root, &fakes, &h);
	assert_string_equal(h.why, "ATA SMART READ DATA: not permitted (run as root)");
	fake_errno = fake_scsi_errno = 0;
	/* a SCSI disk on virtio-scsi: its LOG SENSE is asked (it may reach a real disk) */
	put("sdb", "");
	disk(&n, "sdb", "virtio");
	health_read(&n, root, &fakes, &h);
	assert_true(h.available);
	assert_int_equal(h.temperature_c, 33);
	/* disks that have no log to ask, and nothing is sent to them */
	fake_calls = 0;
	disk(&n, "vda", "virtio");
	health_read(&n, root, &fakes, &h);
	assert_false(h.available);
	assert_non_null(strstr(h.why, "virtual disk"));
	disk(&n, "loop0", NULL);
	n.kind = "loop";
	health_read(&n, root, &fakes, &h);
	assert_string_equal(h.why, "a loop device keeps no health log of its own");
	disk(&n, "mmcblk0", "mmc");
	health_read(&n, root, &fakes, &h);
	assert_non_null(strstr(h.why, "EXT_CSD"));
	assert_int_equal(fake_calls, 0);
}

static void test_run_warning(void **state)
{
	(void)state;
	static struct devinfo d;
	static struct result r;
	struct health_run run;
	memset(&d, 0, sizeof(d));
	memset(&r, 0, sizeof(r));
	put("nvme0n1", "");
	disk(&d.stack[0], "nvme0n1", "nvme");
	d.nstack = 1;
	d.leaves[0] = 0;
	d.nleaves = 1;
	nvme_page(fake_page, 0);
	const struct devinfo *devices[] = { &d };
	run_health_read(&run, devices, 1, root, &fakes, false);
	assert_int_equal(run.n, 1);
	run_health_report(&run, &r);
	assert_int_equal(r.nfindings, 0); /* healthy: silent */
	assert_int_equal(r.nwarnings, 0);
	/* the drive goes read-only during the run */
	nvme_page(fake_page, NVME_CW_READ_ONLY);
	run_health_read(&run, devices, 1, root, &fakes, true);
	assert_true(run.after_taken);
	run_health_report(&run, &r);
	assert_int_equal(r.nfindings, 1);
	assert_string_equal(r.findings[0].key, "health_warning");
	assert_int_equal(r.nwarnings, 1);
	assert_non_null(strstr(r.warnings[0], "nvme0n1 reports a critical warning (0x08: media "
					       "read-only)"));
	/* the temperature bit alone: hot, not failing; nothing said of its data */
	memset(&r, 0, sizeof(r));
	nvme_page(fake_page, NVME_CW_TEMPERATURE);
	run_health_read(&run, devices, 1, root, &fakes, true);
	run_health_report(&run, &r);
	assert_int_equal(r.nfindings, 1);
	assert_string_equal(r.findings[0].key, "health_warning");
	assert_non_null(strstr(r.warnings[0], "nvme0n1 reports it is too hot (critical warning "
					       "0x02, temperature beyond a threshold)"));
	assert_null(strstr(r.warnings[0], "back up"));
	assert_null(strstr(r.warnings[0], "failing"));
	/* hot and read-only: the read-only bit decides the wording */
	memset(&r, 0, sizeof(r));
	nvme_page(fake_page, NVME_CW_TEMPERATURE | NVME_CW_READ_ONLY);
	run_health_read(&run, devices, 1, root, &fakes, true);
	run_health_report(&run, &r);
	assert_non_null(strstr(r.warnings[0], "(0x0a: temperature beyond a threshold, media "
					       "read-only): the drive says it is failing"));
	assert_non_null(strstr(r.warnings[0], "back up its data"));
}

/* the bytes the disks saw: counted ones and the untimed warm-up */
static void test_run_bytes(void **state)
{
	(void)state;
	static struct result r;
	struct options o = { .threads = 2, .bs = 1u << 20 };
	memset(&r, 0, sizeof(r));
	r.opt = &o;
	r.bytes = 8u << 20;
	r.region = 64u << 20;
	r.warmup_ios = 1;
	assert_int_equal(run_health_bytes(&r), 10u << 20);
	r.region = 1u << 20; /* a warm-up cannot exceed the region */
	assert_int_equal(run_health_bytes(&r), 9u << 20);
	r.warmup_ios = 0;
	assert_int_equal(run_health_bytes(&r), 8u << 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvme),
		cmocka_unit_test(test_controller_counted_once),
		cmocka_unit_test(test_nvme_warning),
		cmocka_unit_test(test_ocp),
		cmocka_unit_test(test_ata),
		cmocka_unit_test(test_ata_without),
		cmocka_unit_test(test_ata_units),
		cmocka_unit_test(test_ata_failing),
		cmocka_unit_test(test_scsi),
		cmocka_unit_test(test_delta),
		cmocka_unit_test_setup_teardown(test_reader, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reader_kinds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_warning, setup, teardown),
		cmocka_unit_test(test_run_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
