/* The disks' health over a run of several targets (run_health.c): every
 * target's disks read, a disk under two targets once; each disk's share of
 * the bytes worked out by hand from what each target moved; a target over
 * several disks (RAID, LVM) gives its disks no share, with the reason; the
 * disks past HEALTH_MAX_DISKS counted, and then no comparison for the run;
 * and a failing disk under the second target raised as a finding while
 * healthy ones stay silent.  The disks are files in a fake /dev, each
 * holding the NVMe SMART page the fake command returns and the disk's
 * number, so the test sets each disk's truth and counts its reads. */
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
#include "json.h"
#include "run_health.h"

#define NDISKS 12
#define MiB (1ull << 20)

static unsigned reads[NDISKS]; /* NVMe log 02h commands each fake disk answered */

/* The fake disk's page, then its number, from the file the reader opened. */
static int fake_nvme(int fd, uint8_t log_id, uint8_t *buf, size_t len)
{
	uint8_t index;
	if (log_id != 0x02) {
		errno = EIO;
		return -1;
	}
	if (pread(fd, buf, len, 0) != (ssize_t)len || pread(fd, &index, 1, HEALTH_PAGE) != 1 ||
	    index >= NDISKS) {
		errno = EIO;
		return -1;
	}
	reads[index]++;
	return 0;
}

static int fake_none(int fd, uint8_t code, uint8_t *buf, size_t len)
{
	(void)fd, (void)code, (void)buf, (void)len;
	errno = EIO;
	return -1;
}

static int fake_ata(int fd, uint8_t feature, uint8_t buf[HEALTH_PAGE])
{
	return fake_none(fd, feature, buf, HEALTH_PAGE);
}

static const struct health_ops fakes = { fake_nvme, fake_ata, fake_none };

/* nvmeNn1 holds a SMART page: its critical warning and its data units
 * written (1 unit = 512000 bytes). */
static void disk_file(unsigned index, uint8_t warning, uint64_t units_written)
{
	uint8_t page[HEALTH_PAGE + 1];
	char path[256];
	memset(page, 0, sizeof(page));
	page[0] = warning;
	page[1] = 0x40, page[2] = 0x01; /* 320 K */
	page[3] = 100, page[4] = 10;
	for (unsigned b = 0; b < 8; b++)
		page[48 + b] = (uint8_t)(units_written >> (8 * b));
	page[HEALTH_PAGE] = (uint8_t)index;
	snprintf(path, sizeof(path), "%s/nvme%un1", root, index);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(page, 1, sizeof(page), f), sizeof(page));
	fclose(f);
}

/* A target's stack: a top node over the given disks (leaves). */
static void target_on(struct devinfo *d, const unsigned *disks, int n)
{
	memset(d, 0, sizeof(*d));
	d->nstack = n + 1;
	snprintf(d->stack[0].name, sizeof(d->stack[0].name), "%s", n > 1 ? "md0" : "top");
	d->stack[0].kind = n > 1 ? "md" : "part";
	for (int i = 0; i < n; i++) {
		struct dev_node *node = &d->stack[i + 1];
		snprintf(node->name, sizeof(node->name), "nvme%un1", disks[i]);
		node->kind = "disk";
		node->transport = "nvme";
		node->parent = 0;
		d->leaves[d->nleaves++] = i + 1;
	}
}

static int setup(void **state)
{
	(void)state;
	(void)put; /* fake_root.h's text writer: the pages here are binary */
	memset(reads, 0, sizeof(reads));
	if (fake_root_make("run-health") != 0)
		return -1;
	for (unsigned i = 0; i < NDISKS; i++)
		disk_file(i, 0, 1000);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fake_root_remove();
}

static const struct health *reading(const struct health_run *run, const char *name)
{
	for (unsigned i = 0; i < run->n; i++)
		if (strcmp(run->before[i].name, name) == 0)
			return &run->after[i];
	fail_msg("%s not read", name);
	return NULL;
}

static int64_t share(const struct health_run *run, const char *name)
{
	for (unsigned i = 0; i < run->n; i++)
		if (strcmp(run->before[i].name, name) == 0)
			return run->disk_bytes[i];
	return -2;
}

/* Targets: t0 on nvme0n1; t1 and t2 both on nvme1n1; t3 a RAID over
 * nvme2n1 and nvme3n1; t4 on tmpfs (no disk).  Each disk read once before
 * and once after; nvme0n1 gets t0's bytes, nvme1n1 t1's and t2's, the
 * RAID's disks none (with the reason); the run t0..t3's. */
static void test_targets(void **state)
{
	(void)state;
	static struct devinfo d[5];
	static struct health_run run;
	const unsigned t0[] = { 0 }, t1[] = { 1 }, t3[] = { 2, 3 };
	target_on(&d[0], t0, 1);
	target_on(&d[1], t1, 1);
	target_on(&d[2], t1, 1);
	target_on(&d[3], t3, 2);
	target_on(&d[4], NULL, 0);
	const struct devinfo *devices[] = { &d[0], &d[1], &d[2], &d[3], &d[4] };
	const uint64_t bytes[] = { 10 * MiB, 3 * MiB, 5 * MiB, 7 * MiB, 4 * MiB };
	run_health_read(&run, devices, 5, root, &fakes, false);
	assert_int_equal(run.n, 4);
	assert_int_equal(run.left_out, 0);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(reads[i], 1);
	/* nvme1n1 wrote 20 units (10240000 bytes) over the run */
	disk_file(1, 0, 1020);
	run_health_read(&run, devices, 5, root, &fakes, true);
	run_health_attribute(&run, devices, 5, bytes, true, NULL);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(reads[i], 2);
	assert_int_equal(reads[4], 0);
	assert_int_equal(reading(&run, "nvme1n1")->host_written_bytes, 1020 * 512000);
	assert_int_equal(share(&run, "nvme0n1"), 10 * MiB);
	assert_int_equal(share(&run, "nvme1n1"), 8 * MiB);
	assert_int_equal(share(&run, "nvme2n1"), -1);
	assert_int_equal(share(&run, "nvme3n1"), -1);
	assert_non_null(strstr(run.disk_bytes_why[2], "spans several disks"));
	assert_null(run.disk_bytes_why[0]);
	assert_int_equal(run.run_bytes, 25 * MiB); /* the tmpfs target's 4 MiB reach no disk */
	assert_string_equal(run.run_bytes_why, "");
	/* JSON: nvme1n1's 10240000 bytes against its 8388608 */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	struct json j;
	json_init(&j, f);
	health_json(&j, &run);
	fclose(f);
	assert_non_null(strstr(text, "\"run_bytes\": 8388608, \"run_bytes_why\": null, "
				     "\"host_vs_run\": 1.221"));
	assert_non_null(strstr(text, "\"run_bytes\": null, \"run_bytes_why\": \"a target on it "
				     "spans"));
	assert_non_null(strstr(text, "\"disks_left_out\": 0"));
	free(text);
	/* bytes not known at all: each disk and the run say why */
	run_health_attribute(&run, devices, 5, NULL, true, "not counted");
	assert_int_equal(share(&run, "nvme0n1"), -1);
	assert_string_equal(run.disk_bytes_why[0], "not counted");
	assert_string_equal(run.run_bytes_why, "not counted");
}

/* Twelve distinct disks over two targets, two of them under both: ten
 * disks, eight read, two left out, and the run's bytes not compared. */
static void test_left_out(void **state)
{
	(void)state;
	static struct devinfo d[2];
	static struct health_run run;
	const unsigned a[] = { 0, 1, 2, 3, 4, 5 }, b[] = { 4, 5, 6, 7, 8, 9 };
	target_on(&d[0], a, 6);
	target_on(&d[1], b, 6);
	const struct devinfo *devices[] = { &d[0], &d[1] };
	const uint64_t bytes[] = { MiB, MiB };
	run_health_read(&run, devices, 2, root, &fakes, false);
	assert_int_equal(run.n, HEALTH_MAX_DISKS);
	assert_int_equal(run.left_out, 2);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(reads[i], 1);
	assert_int_equal(reads[8] + reads[9], 0);
	run_health_read(&run, devices, 2, root, &fakes, true);
	run_health_attribute(&run, devices, 2, bytes, true, NULL);
	assert_string_equal(run.run_bytes_why, "2 more disks under the targets not read (at most 8 are)");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	health_text(f, &run, false);
	fclose(f);
	assert_non_null(strstr(text, "health: 2 more disks not read (at most 8 are)\n"));
	free(text);
}

/* A result over two targets: the devices come from r->targets, so a disk
 * that fails under the second target is read and raised; all healthy,
 * nothing is said. */
static void check_second_target(uint8_t warning, unsigned findings)
{
	static struct devinfo d[2];
	static struct result r;
	static struct result_target targets[2];
	static struct health_run run;
	const unsigned a[] = { 0 }, b[] = { 1 };
	const struct devinfo *devices[OPT_MAX_TARGETS];
	memset(&r, 0, sizeof(r));
	target_on(&d[0], a, 1);
	target_on(&d[1], b, 1);
	targets[0] = (struct result_target){ .target = "/a", .device = &d[0] };
	targets[1] = (struct result_target){ .target = "/b", .device = &d[1] };
	r.device = &d[0]; /* the first target's, as after multi_finish */
	r.targets = targets;
	r.ntargets = 2;
	disk_file(1, warning, 1000);
	unsigned n = run_health_devices(&r, devices);
	assert_int_equal(n, 2);
	run_health_read(&run, devices, n, root, &fakes, false);
	run_health_read(&run, devices, n, root, &fakes, true);
	run_health_report(&run, &r);
	assert_int_equal(r.nfindings, findings);
	assert_int_equal(r.nwarnings, findings);
	if (findings) {
		assert_string_equal(r.findings[0].key, "health_warning");
		assert_non_null(strstr(r.warnings[0], "nvme1n1 reports a critical warning (0x04: "
						       "reliability degraded)"));
	}
}

static void test_second_target_failing(void **state)
{
	(void)state;
	check_second_target(NVME_CW_RELIABILITY, 1);
}

static void test_second_target_healthy(void **state)
{
	(void)state;
	check_second_target(0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_targets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_left_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_second_target_failing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_second_target_healthy, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
