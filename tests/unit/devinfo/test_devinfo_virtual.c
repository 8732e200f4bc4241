/* Which disks a hypervisor presents, and as what: fake sysfs trees of the
 * virtual and cloud disks people meet (virtio, Xen, VMware PVSCSI, Hyper-V
 * storvsc, QEMU's emulated SATA and NVMe, EBS, Persistent Disk, Azure), each
 * beside physical disks that must not be called virtual (a Samsung NVMe, a
 * SATA disk, a SAS disk, EC2 instance store, Azure's local NVMe). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "devinfo.h"
#include "fake_root.h"

/* An absolute symlink root/from -> root/to (realpath follows it as sysfs's
 * relative ones). */
static void lnk(const char *from, const char *to)
{
	char path[512], target[512];
	snprintf(target, sizeof(target), "%s/%s", root, to);
	put(from, ""); /* creates the parents (and a file, replaced next) */
	snprintf(path, sizeof(path), "%s/%s", root, from);
	unlink(path);
	assert_int_equal(symlink(target, path), 0);
}

/* The files every disk has: its number, size and queue. */
static void disk_dir(const char *dir, const char *majmin)
{
	char rel[512], link[64];
	const char *files[][2] = {
		{ "dev", majmin }, { "size", "41943040" }, { "removable", "0" },
		{ "queue/rotational", "1" }, { "queue/logical_block_size", "512" },
		{ "queue/physical_block_size", "4096" }, { "queue/write_cache", "write back" },
		{ "queue/fua", "0" }, { "queue/scheduler", "[mq-deadline] none" },
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(rel, sizeof(rel), "%s/%s", dir, files[i][0]);
		put(rel, files[i][1]);
	}
	snprintf(link, sizeof(link), "dev/block/%s", majmin);
	lnk(link, dir);
}

/* A disk and what sysfs shows above it. */
struct fake_disk {
	const char *what;
	enum { SCSI, SATA, NVME, XEN, VIRTIO_BLK } bus;
	const char *host_driver;  /* SCSI host proc_name */
	const char *vendor;       /* SCSI vendor, 8 characters as the kernel pads it */
	const char *model;        /* SCSI model (16) or NVMe model (40) */
	const char *pci_vendor;   /* the NVMe controller's PCI function */
	/* what must come out */
	bool is_virtual;
	const char *kind;
	bool cloud;
	const char *link_kind;    /* "none", "sata", "pcie", or NULL */
	bool emulated;
};

#define SCSIDEV "devices/pci0000:00/0000:00:05.0/host2/target2:0:0/2:0:0:0"
#define ATADEV "devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0"
#define NVMEPCI "devices/pci0000:00/0000:00:04.0"
#define NVMECTRL NVMEPCI "/nvme/nvme0"

static void scsi_disk(const struct fake_disk *c, const char *dev, int host)
{
	char rel[600], disk[512];
	snprintf(rel, sizeof(rel), "%s/vendor", dev);
	put(rel, c->vendor);
	snprintf(rel, sizeof(rel), "%s/model", dev);
	put(rel, c->model);
	snprintf(rel, sizeof(rel), "class/scsi_host/host%d/proc_name", host);
	put(rel, c->host_driver);
	snprintf(disk, sizeof(disk), "%s/block/sda", dev);
	disk_dir(disk, "8:0");
	snprintf(rel, sizeof(rel), "%s/device", disk);
	lnk(rel, dev);
}

static void nvme_disk(const struct fake_disk *c)
{
	put(NVMEPCI "/vendor", c->pci_vendor);
	put(NVMEPCI "/current_link_speed", "2.5 GT/s PCIe");
	put(NVMEPCI "/current_link_width", "1");
	put(NVMEPCI "/max_link_speed", "8.0 GT/s PCIe");
	put(NVMEPCI "/max_link_width", "4");
	put(NVMECTRL "/model", c->model);
	put(NVMECTRL "/serial", "vol0123456789abcdef0");
	put(NVMECTRL "/transport", "pcie");
	lnk(NVMECTRL "/device", NVMEPCI);
	disk_dir(NVMECTRL "/nvme0n1", "259:0");
	lnk(NVMECTRL "/nvme0n1/device", NVMECTRL);
}

static void build(const struct fake_disk *c)
{
	put("mountinfo", "");
	switch (c->bus) {
	case SCSI:
		scsi_disk(c, SCSIDEV, 2);
		break;
	case SATA:
		scsi_disk(c, ATADEV, 0);
		put("class/ata_link/link1/sata_spd", "1.5 Gbps");
		put("class/ata_link/link1/hw_sata_spd_limit", "<unknown>");
		break;
	case NVME:
		nvme_disk(c);
		break;
	case XEN:
		disk_dir("devices/vbd-51712/block/xvda", "202:0");
		lnk("devices/vbd-51712/block/xvda/device", "devices/vbd-51712");
		break;
	case VIRTIO_BLK:
		put("devices/pci0000:00/0000:00:02.0/vendor", "0x1af4");
		disk_dir("devices/pci0000:00/0000:00:02.0/virtio1/block/vda", "254:0");
		lnk("devices/pci0000:00/0000:00:02.0/virtio1/block/vda/device",
		    "devices/pci0000:00/0000:00:02.0/virtio1");
		break;
	}
}

static const char *majmin_of(const struct fake_disk *c)
{
	return c->bus == NVME ? "259:0" : c->bus == XEN ? "202:0" : c->bus == VIRTIO_BLK ? "254:0" : "8:0";
}

/* The text and device JSON say what presents the disk. */
static void check_rendering(const struct fake_disk *c, const struct devinfo *d)
{
	char *buf = NULL, want[160];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	devinfo_text(f, d);
	struct json j;
	json_init(&j, f);
	devinfo_json_device(&j, d);
	assert_int_equal(fclose(f), 0);
	if (c->is_virtual) {
		snprintf(want, sizeof(want), ", virtual (%s%s)", c->kind, c->cloud ? ", a network volume" : "");
		if (!strstr(buf, want))
			print_error("%s: missing \"%s\" in\n%s\n", c->what, want, buf);
		assert_non_null(strstr(buf, want));
		snprintf(want, sizeof(want), "\"virtual_kind\": \"%s\", \"cloud_volume\": %s", c->kind,
			 c->cloud ? "true" : "false");
		assert_non_null(strstr(buf, want));
	} else {
		assert_null(strstr(buf, "virtual"  " ("));
		assert_non_null(strstr(buf, "\"virtual\": false, \"virtual_kind\": null, \"cloud_volume\": false"));
	}
	if (c->emulated)
		assert_non_null(strstr(buf, "(emulated: what the hypervisor claims, not a wire)"));
	else
		assert_null(strstr(buf, "emulated:"));
	free(buf);
}

/* Each case in a fake root of its own, removed also when the case fails. */
static int setup(void **state)
{
	(void)state;
	return fake_root_make("virtual");
}

static int teardown(void **state)
{
	(void)state;
	return fake_root_remove();
}

static void check_case(void **state)
{
	static struct devinfo d;
	const struct fake_disk *c = *state;
	char mountinfo[512];
	unsigned maj, min;
	build(c);
	snprintf(mountinfo, sizeof(mountinfo), "%s/mountinfo", root);
	struct devinfo_roots roots = { root, mountinfo };
	assert_int_equal(sscanf(majmin_of(c), "%u:%u", &maj, &min), 2);
	assert_int_equal(devinfo_probe_devnum(maj, min, &roots, &d), 0);
	assert_true(d.has_top);
	const struct dev_node *t = &d.top;
	if (t->is_virtual != c->is_virtual || (c->kind && (!t->virt_kind || strcmp(t->virt_kind, c->kind))))
		print_error("%s: virtual %d (%s), want %d (%s)\n", c->what, t->is_virtual,
			    t->virt_kind ? t->virt_kind : "NULL", c->is_virtual, c->kind ? c->kind : "NULL");
	assert_int_equal(t->is_virtual, c->is_virtual);
	if (c->kind)
		assert_string_equal(t->virt_kind, c->kind);
	else
		assert_null(t->virt_kind);
	assert_int_equal(t->cloud_volume, c->cloud);
	assert_int_equal(t->rotational_unreliable, c->is_virtual);
	if (c->link_kind)
		assert_string_equal(t->link.kind, c->link_kind);
	else
		assert_null(t->link.kind);
	assert_int_equal(t->link.emulated, c->emulated);
	if (c->emulated)
		assert_false(t->link.below_max); /* no slot or cable to check in a VM */
	check_rendering(c, &d);
}

/* Virtual and cloud disks, each named for what presents it. */
static const struct fake_disk virtual_disks[] = {
	{ "virtio-blk", VIRTIO_BLK, NULL, NULL, NULL, NULL, true, "virtio-blk", false, "none", false },
	{ "Xen", XEN, NULL, NULL, NULL, NULL, true, "Xen blkfront", false, "none", false },
	{ "virtio-scsi", SCSI, "virtio_scsi", "QEMU    ", "QEMU HARDDISK   ", NULL, true,
	  "virtio-scsi", false, "none", false },
	{ "VMware PVSCSI", SCSI, "vmw_pvscsi", "VMware  ", "Virtual disk    ", NULL, true,
	  "VMware PVSCSI", false, "none", false },
	{ "Hyper-V storvsc", SCSI, "storvsc", "Msft    ", "Virtual Disk    ", NULL, true,
	  "Hyper-V/Azure storvsc", false, "none", false },
	{ "Google PD on virtio-scsi", SCSI, "virtio_scsi", "Google  ", "PersistentDisk  ", NULL, true,
	  "Google Persistent Disk", true, "none", false },
	{ "QEMU SATA", SATA, "ahci", "ATA     ", "QEMU HARDDISK   ", NULL, true, "QEMU-emulated disk",
	  false, "sata", true },
	{ "QEMU NVMe", NVME, NULL, NULL, "QEMU NVMe Ctrl                          ", "0x1b36", true,
	  "QEMU-emulated NVMe", false, "pcie", true },
	{ "EBS", NVME, NULL, NULL, "Amazon Elastic Block Store              ", "0x1d0f", true,
	  "Amazon EBS volume", true, "pcie", true },
	{ "Google PD on NVMe", NVME, NULL, NULL, "nvme_card-pd                            ", "0x1ae0",
	  true, "Google Persistent Disk (NVMe)", true, "pcie", true },
	{ "Azure remote NVMe", NVME, NULL, NULL, "MSFT NVMe Accelerator v1.0              ", "0x1414",
	  true, "Azure remote disk (NVMe)", true, "pcie", true },
};

/* Physical disks, also those a cloud machine hangs on its PCIe bus, are
 * not virtual and keep their real link. */
static const struct fake_disk physical_disks[] = {
	{ "Samsung NVMe", NVME, NULL, NULL, "Samsung SSD 970 EVO Plus 1TB            ", "0x144d",
	  false, NULL, false, "pcie", false },
	{ "EC2 instance store", NVME, NULL, NULL, "Amazon EC2 NVMe Instance Storage        ", "0x1d0f",
	  false, NULL, false, "pcie", false },
	{ "Azure local NVMe", NVME, NULL, NULL, "Microsoft NVMe Direct Disk v2           ", "0x1414",
	  false, NULL, false, "pcie", false },
	{ "SATA disk", SATA, "ahci", "ATA     ", "WDC WD40EFRX-68N", NULL, false, NULL, false, "sata",
	  false },
	{ "SAS disk", SCSI, "mpt3sas", "SEAGATE ", "ST600MM0208     ", NULL, false, NULL, false, NULL,
	  false },
};

/* A disk given a real model string on a controller QEMU emulates (the
 * lab's AHCI disks): the controller's Red Hat subsystem vendor gives it
 * away.  The same disk on a controller with its own subsystem vendor (a real
 * ICH9, or a card passed through) stays physical. */
static const struct fake_disk on_qemu_ahci = {
	"SATA on QEMU's AHCI", SATA, "ahci", "ATA     ", "WDC WD40EFRX-68N", NULL, true,
	"disk on a QEMU-emulated controller", false, "sata", true,
};
static const struct fake_disk on_real_ahci = {
	"SATA on a real AHCI", SATA, "ahci", "ATA     ", "WDC WD40EFRX-68N", NULL, false, NULL, false,
	"sata", false,
};

static void test_qemu_controller(void **state)
{
	put("devices/pci0000:00/0000:00:1f.2/subsystem_vendor", "0x1af4");
	*state = (void *)&on_qemu_ahci;
	check_case(state);
}

static void test_real_controller(void **state)
{
	put("devices/pci0000:00/0000:00:1f.2/subsystem_vendor", "0x8086");
	*state = (void *)&on_real_ahci;
	check_case(state);
}

/* A test named after its case, so that a failure says which disk. */
#define CASE(table, i) { .name = table[i].what, .test_func = check_case, .setup_func = setup, \
			 .teardown_func = teardown, .initial_state = (void *)&table[i] }

int main(void)
{
	const struct CMUnitTest tests[] = {
		CASE(virtual_disks, 0), CASE(virtual_disks, 1), CASE(virtual_disks, 2),
		CASE(virtual_disks, 3), CASE(virtual_disks, 4), CASE(virtual_disks, 5),
		CASE(virtual_disks, 6), CASE(virtual_disks, 7), CASE(virtual_disks, 8),
		CASE(virtual_disks, 9), CASE(virtual_disks, 10),
		CASE(physical_disks, 0), CASE(physical_disks, 1), CASE(physical_disks, 2),
		CASE(physical_disks, 3), CASE(physical_disks, 4),
		cmocka_unit_test_setup_teardown(test_qemu_controller, setup, teardown),
		cmocka_unit_test_setup_teardown(test_real_controller, setup, teardown),
	};
	_Static_assert(sizeof(virtual_disks) / sizeof(virtual_disks[0]) == 11, "every virtual case runs");
	_Static_assert(sizeof(physical_disks) / sizeof(physical_disks[0]) == 5, "every physical case runs");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
