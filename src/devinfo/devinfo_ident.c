/* What a whole disk is: its queue (rotational, block sizes, write cache,
 * scheduler), its identity (vendor, model, serial, firmware; ATA IDENTIFY,
 * SCSI VPD pages 0x80 and 0xB1, NVMe controller attributes), its zoned model,
 * its transport, whether a
 * hypervisor presents it, and which link it hangs on (devinfo_link.c). */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* SCSI VPD page 0x80 (unit serial number): 4-byte header, then ASCII. */
static int read_vpd_serial(const char *disk, char *buf, size_t len)
{
	char path[PATH_MAX];
	unsigned char raw[256];
	if (!join(path, sizeof(path), disk, "device/vpd_pg80"))
		return -1;
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	size_t n = fread(raw, 1, sizeof(raw), f);
	fclose(f);
	if (n < 5 || raw[1] != 0x80)
		return -1;
	size_t body = ((size_t)raw[2] << 8 | raw[3]);
	if (body > n - 4)
		body = n - 4;
	if (body >= len)
		body = len - 1;
	for (size_t i = 0; i < body; i++)
		buf[i] = isprint(raw[4 + i]) ? (char)raw[4 + i] : ' ';
	buf[body] = '\0';
	return trim(buf)[0] ? 0 : -1;
}

/* The cached ATA IDENTIFY data: 256 words in hex. */
static bool read_ata_id(const char *path, uint16_t w[256])
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	int i = 0;
	unsigned v;
	while (i < 256 && fscanf(f, "%4x", &v) == 1)
		w[i++] = (uint16_t)v;
	fclose(f);
	return i == 256;
}

/* ATA strings hold two characters per word, the first in the high byte. */
static void ata_string(const uint16_t *w, int first, int last, char *out, size_t len)
{
	size_t k = 0;
	for (int i = first; i <= last && k + 2 < len; i++) {
		out[k++] = (char)(w[i] >> 8);
		out[k++] = (char)(w[i] & 0xff);
	}
	out[k] = '\0';
	for (size_t i = 0; i < k; i++)
		if (!isprint((unsigned char)out[i]))
			out[i] = ' ';
	trim(out);
}

/* Model, serial, firmware and rpm from IDENTIFY in devdir/id; returns the
 * fastest SATA generation the device supports in Gbit/s (0 unknown). */
static double ata_identity(const char *devdir, struct dev_node *n)
{
	uint16_t id[256];
	char path[PATH_MAX], s[64];
	if (!join(path, sizeof(path), devdir, "id") || !read_ata_id(path, id))
		return 0;
	ata_string(id, 27, 46, s, sizeof(s));
	if (s[0])
		SCOPY(n->model, s);
	ata_string(id, 10, 19, s, sizeof(s));
	if (s[0])
		SCOPY(n->serial, s);
	ata_string(id, 23, 26, s, sizeof(s));
	if (s[0])
		SCOPY(n->firmware, s);
	/* word 217: 0 not reported, 1 non-rotating, 0x401-0xfffe rpm */
	if (id[217] == 1 || (id[217] >= 0x401 && id[217] != 0xffff))
		n->rpm = id[217];
	/* word 76: SATA capabilities, bits 1-3 = Gen1-3 supported */
	if (id[76] != 0 && id[76] != 0xffff)
		return id[76] & 8 ? 6.0 : id[76] & 4 ? 3.0 : id[76] & 2 ? 1.5 : 0;
	return 0;
}

/* libata disk: full identity from IDENTIFY, SATA link speed and its limits.
 * The port number N is the /ataN/ path component; without a port multiplier
 * the link is linkN and the device devN.<SCSI target>; behind one, linkN.C
 * and devN.C.0 with C the SCSI channel (libata-transport.c dev_set_name). */
static void ata_details(const struct ctx *c, const char *scsidev, struct dev_node *n)
{
	int port = -1;
	for (const char *p = scsidev; (p = strstr(p, "/ata")) != NULL; p += 4) {
		char *end;
		long v = strtol(p + 4, &end, 10);
		if (end != p + 4 && (*end == '/' || *end == '\0') && v >= 0 && v < INT_MAX) {
			port = (int)v;
			break;
		}
	}
	if (port < 0)
		return;
	int host = 0, channel = 0, target = 0, lun = 0;
	sscanf(base_name(scsidev), "%d:%d:%d:%d", &host, &channel, &target, &lun);
	char linkdir[PATH_MAX], devdir[PATH_MAX];
	pathf(linkdir, "%s/class/ata_link/link%d.%d", c->sys, port, channel);
	if (is_dir(linkdir)) {
		pathf(devdir, "%s/class/ata_device/dev%d.%d.0", c->sys, port, channel);
	} else {
		pathf(linkdir, "%s/class/ata_link/link%d", c->sys, port);
		pathf(devdir, "%s/class/ata_device/dev%d.%d", c->sys, port, target);
	}
	double dev_max = ata_identity(devdir, n);
	sata_link(linkdir, n->transport, dev_max, &n->link);
}

/* lsblk's get_transport order: SCSI host class, then path, then driver. */
static const char *scsi_transport(const struct ctx *c, const char *scsidev, int host)
{
	char p[PATH_MAX], buf[128];
	pathf(p, "%s/class/spi_host/host%d", c->sys, host);
	if (is_dir(p))
		return "spi";
	pathf(p, "%s/class/fc_host/host%d", c->sys, host);
	if (is_dir(p))
		return read_attr(p, "symbolic_name", buf, sizeof(buf)) == 0 && strstr(buf, " over ")
		       ? "fcoe" : "fc";
	pathf(p, "%s/class/sas_host/host%d", c->sys, host);
	if (is_dir(p) || exists(scsidev, "sas_device"))
		return "sas";
	if (exists(scsidev, "ieee1394_id"))
		return "sbp";
	pathf(p, "%s/class/iscsi_host/host%d", c->sys, host);
	if (is_dir(p))
		return "iscsi";
	if (strstr(scsidev, "/usb"))
		return "usb";
	pathf(p, "%s/class/scsi_host/host%d", c->sys, host);
	if (read_attr(p, "proc_name", buf, sizeof(buf)) == 0) {
		if (starts(buf, "ahci") || starts(buf, "sata"))
			return "sata";
		if (strstr(buf, "ata"))
			return "ata";
		if (strcmp(buf, "virtio_scsi") == 0)
			return "virtio";
	}
	return "scsi";
}

/* NVMe over fabrics names its transport in the controller's `transport`. */
static const char *nvme_transport(const char *disk)
{
	static const char *const names[][2] = {
		{ "pcie", "nvme" }, { "tcp", "nvme-tcp" }, { "rdma", "nvme-rdma" },
		{ "fc", "nvme-fc" }, { "loop", "nvme-loop" },
	};
	char buf[32];
	if (read_attr(disk, "device/transport", buf, sizeof(buf)) != 0)
		return "nvme";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(buf, names[i][0]) == 0)
			return names[i][1];
	return "nvme";
}

/* The transport of a disk: from its SCSI device (devpath, "" if none), else by name. */
static const char *disk_transport(const struct ctx *c, const char *disk, const char *devpath)
{
	const char *name = base_name(disk);
	int h, ch, t, l;
	if (devpath[0] && sscanf(base_name(devpath), "%d:%d:%d:%d", &h, &ch, &t, &l) == 4)
		return scsi_transport(c, devpath, h);
	static const char *const by_name[][2] = {
		{ "vd", "virtio" }, { "mmcblk", "mmc" }, { "xvd", "xen" }, { "loop", "loop" },
	};
	if (starts(name, "nvme"))
		return nvme_transport(disk);
	for (size_t i = 0; i < sizeof(by_name) / sizeof(by_name[0]); i++)
		if (starts(name, by_name[i][0]))
			return by_name[i][1];
	return NULL;
}

/* The SCSI host driver of a SCSI disk (proc_name: "storvsc", "vmw_pvscsi",
 * "virtio_scsi", "ahci" …) into buf; "" when there is none. */
static void scsi_host_driver(const struct ctx *c, const char *devpath, char *buf, size_t len)
{
	char p[PATH_MAX];
	int h, ch, t, l;
	buf[0] = '\0';
	if (devpath[0] && sscanf(base_name(devpath), "%d:%d:%d:%d", &h, &ch, &t, &l) == 4 &&
	    pathf(p, "%s/class/scsi_host/host%d", c->sys, h) && read_attr(p, "proc_name", buf, len) != 0)
		buf[0] = '\0';
}

/* One sign that a hypervisor presents a disk, and the name it then gets
 * (NULL: a physical disk, though it hangs in a cloud machine). */
struct virt_sign {
	enum { BY_MODEL, BY_VENDOR, BY_HOST_DRIVER, BY_TRANSPORT, BY_PCI_VENDOR, BY_PCI_SUBVENDOR } field;
	const char *prefix;      /* the start of the field, any case */
	const char *name;
	bool cloud;              /* a cloud provider's network volume */
};

/* First match wins: what a cloud names its volumes and its local disks
 * before the bus they come through (Google's Persistent Disk sits on
 * virtio-scsi), the bus before an emulator's strings.  Verified against
 * amazon-ec2-utils' udev rules (ATTRS{model}=="Amazon Elastic Block Store";
 * instance store is "Amazon EC2 NVMe Instance Storage"), GCE's
 * 65-gce-disk-naming.rules and google_nvme_id ("PersistentDisk";
 * "nvme_card-pd", local SSD "nvme_card"), azure-vm-utils' 80-azure-disk.rules
 * (Msft "Virtual Disk"; "MSFT NVMe Accelerator v1.0" remote, "Microsoft NVMe
 * Direct Disk" local), QEMU's hw/nvme ("QEMU NVMe Ctrl") and hw/ide ("QEMU
 * HARDDISK"), and the proc_name of Linux's storvsc, vmw_pvscsi and
 * virtio_scsi hosts. */
static const struct virt_sign virt_signs[] = {
	{ BY_MODEL, "Amazon EC2 NVMe Instance Storage", NULL, false },
	{ BY_MODEL, "Microsoft NVMe Direct Disk", NULL, false },
	{ BY_MODEL, "Amazon Elastic Block Store", "Amazon EBS volume", true },
	{ BY_MODEL, "PersistentDisk", "Google Persistent Disk", true },
	{ BY_MODEL, "nvme_card-pd", "Google Persistent Disk (NVMe)", true },
	{ BY_MODEL, "MSFT NVMe Accelerator", "Azure remote disk (NVMe)", true },
	{ BY_HOST_DRIVER, "storvsc", "Hyper-V/Azure storvsc", false },
	{ BY_HOST_DRIVER, "vmw_pvscsi", "VMware PVSCSI", false },
	{ BY_HOST_DRIVER, "virtio_scsi", "virtio-scsi", false },
	{ BY_TRANSPORT, "virtio", "virtio-blk", false },
	{ BY_TRANSPORT, "xen", "Xen blkfront", false },
	{ BY_MODEL, "QEMU NVMe", "QEMU-emulated NVMe", false },
	{ BY_MODEL, "QEMU", "QEMU-emulated disk", false },
	{ BY_VENDOR, "QEMU", "QEMU-emulated disk", false },
	{ BY_VENDOR, "Msft", "Hyper-V/Azure virtual disk", false },
	{ BY_VENDOR, "VMware", "VMware virtual disk", false },
	{ BY_MODEL, "VMware", "VMware virtual disk", false },
	{ BY_VENDOR, "VBOX", "VirtualBox disk", false },
	{ BY_MODEL, "VBOX", "VirtualBox disk", false },
	{ BY_VENDOR, "Google", "Google virtual disk", false },
	{ BY_MODEL, "Google", "Google virtual disk", false },
	{ BY_VENDOR, "BHYVE", "bhyve disk", false },
	{ BY_MODEL, "BHYVE", "bhyve disk", false },
	{ BY_VENDOR, "Xen", "Xen-emulated disk", false },
	{ BY_MODEL, "Xen", "Xen-emulated disk", false },
	{ BY_MODEL, "Virtual", "virtual disk", false },
	/* an emulated NVMe controller's PCI vendor: Red Hat (virtio), Red Hat
	 * (QEMU), VMware, Microsoft, Google */
	{ BY_PCI_VENDOR, "0x1af4", "virtio NVMe", false },
	{ BY_PCI_VENDOR, "0x1b36", "QEMU-emulated NVMe", false },
	{ BY_PCI_VENDOR, "0x15ad", "VMware virtual NVMe", false },
	{ BY_PCI_VENDOR, "0x1414", "Hyper-V/Azure NVMe", false },
	{ BY_PCI_VENDOR, "0x1ae0", "Google virtual NVMe", false },
	/* last: QEMU gives the controllers it emulates (AHCI, xHCI, LSI, NVMe)
	 * Red Hat's PCI subsystem vendor unless told otherwise, whatever model
	 * string the disk behind them was given; a card passed through keeps
	 * its own */
	{ BY_PCI_SUBVENDOR, "0x1af4", "disk on a QEMU-emulated controller", false },
};

/* The PCI subsystem vendor of the controller a disk hangs on: the NVMe
 * function, else the nearest directory up the SCSI device's path that has
 * one (the AHCI, xHCI or SAS HBA); "" when none is found. */
static void controller_subvendor(const struct ctx *c, const char *devpath, const char *pci,
				 char *buf, size_t len)
{
	char p[PATH_MAX], top[PATH_MAX];
	buf[0] = '\0';
	if (pci) {
		if (read_attr(pci, "subsystem_vendor", buf, len) != 0)
			buf[0] = '\0';
		return;
	}
	SCOPY(p, devpath);
	pathf(top, "%s/devices", c->sys);
	for (int i = 0; i < 16 && devpath[0] && strlen(p) > strlen(top); i++) {
		if (read_attr(p, "subsystem_vendor", buf, len) == 0)
			return;
		char *slash = strrchr(p, '/');
		if (!slash || slash == p)
			break;
		*slash = '\0';
	}
	buf[0] = '\0';
}

/* Whether a hypervisor presents the disk, and as what (n->virt_kind,
 * n->cloud_volume): by model, vendor, SCSI host driver, transport, or the PCI
 * vendor of its NVMe controller (pci, or NULL). */
static void virtual_kind(const struct ctx *c, const char *devpath, const char *pci, struct dev_node *n)
{
	char host[64], pci_vendor[16] = "", subvendor[16];
	scsi_host_driver(c, devpath, host, sizeof(host));
	controller_subvendor(c, devpath, pci, subvendor, sizeof(subvendor));
	if (pci && read_attr(pci, "vendor", pci_vendor, sizeof(pci_vendor)) != 0)
		pci_vendor[0] = '\0';
	for (size_t i = 0; i < sizeof(virt_signs) / sizeof(virt_signs[0]); i++) {
		const struct virt_sign *s = &virt_signs[i];
		const char *field = s->field == BY_MODEL ? n->model : s->field == BY_VENDOR ? n->vendor
				  : s->field == BY_HOST_DRIVER ? host : s->field == BY_PCI_VENDOR ? pci_vendor
				  : s->field == BY_PCI_SUBVENDOR ? subvendor
				  : n->transport ? n->transport : "";
		if (!field[0] || strncasecmp(field, s->prefix, strlen(s->prefix)) != 0)
			continue;
		n->is_virtual = s->name != NULL;
		n->virt_kind = s->name;
		n->cloud_volume = s->cloud;
		return;
	}
}

/* lib/sysfs.c: the first `removable` attribute up the device chain that says
 * "fixed" or "removable" ("unknown" goes on up). */
static int hotplug_of(const struct ctx *c, const char *devpath)
{
	char p[PATH_MAX], top[PATH_MAX], buf[32];
	SCOPY(p, devpath);
	pathf(top, "%s/devices", c->sys);
	for (int i = 0; i < 16 && strlen(p) > strlen(top); i++) {
		if (read_attr(p, "removable", buf, sizeof(buf)) == 0) {
			if (strcmp(buf, "fixed") == 0)
				return 0;
			if (strcmp(buf, "removable") == 0)
				return 1;
		}
		char *slash = strrchr(p, '/');
		if (!slash || slash == p)
			break;
		*slash = '\0';
	}
	return -1;
}

static void queue_details(const char *disk, struct dev_node *n)
{
	char buf[512];
	n->rotational = read_int(disk, "queue/rotational");
	n->logical_block_size = read_int(disk, "queue/logical_block_size");
	n->physical_block_size = read_int(disk, "queue/physical_block_size");
	n->fua = read_int(disk, "queue/fua");
	n->removable = read_int(disk, "removable");
	if (read_attr(disk, "queue/write_cache", buf, sizeof(buf)) == 0)
		SCOPY(n->write_cache, buf);
	if (read_attr(disk, "queue/scheduler", buf, sizeof(buf)) == 0) {
		char *open = strchr(buf, '['), *close = open ? strchr(open, ']') : NULL;
		if (open && close) {
			*close = '\0';
			SCOPY(n->scheduler, open + 1);
		} else if (!strchr(buf, ' ')) {
			SCOPY(n->scheduler, buf);
		}
	}
}

/* The zoned model, and for a zoned disk its zone size and count: the
 * zone size is queue/chunk_sectors (512-byte sectors), as blkzone says. */
static void zoned_details(const char *disk, struct dev_node *n)
{
	char buf[32];
	int64_t v;
	if (read_attr(disk, "queue/zoned", buf, sizeof(buf)) != 0)
		return;
	SCOPY(n->zoned, buf);
	if (strcmp(buf, "none") == 0)
		return;
	if (read_i64(disk, "queue/chunk_sectors", &v) == 0 && v > 0)
		n->zone_size_bytes = v * 512;
	if (read_i64(disk, "queue/nr_zones", &v) == 0 && v > 0)
		n->nr_zones = v;
	if (read_i64(disk, "queue/max_open_zones", &v) == 0 && v >= 0)
		n->max_open_zones = v;
	if (read_i64(disk, "queue/max_active_zones", &v) == 0 && v >= 0)
		n->max_active_zones = v;
}

/* SCSI VPD page 0xB1 (block device characteristics): bytes 4-5 hold the
 * medium rotation rate, 1 for solid state, 0x401-0xfffe rpm (SBC-4). */
static void read_vpd_rpm(const char *disk, struct dev_node *n)
{
	char path[PATH_MAX];
	unsigned char raw[64];
	if (!join(path, sizeof(path), disk, "device/vpd_pgb1"))
		return;
	FILE *f = fopen(path, "rb");
	if (!f)
		return;
	size_t got = fread(raw, 1, sizeof(raw), f);
	fclose(f);
	if (got < 6 || raw[1] != 0xb1)
		return;
	unsigned rate = (unsigned)raw[4] << 8 | raw[5];
	if (rate == 1 || (rate >= 0x401 && rate != 0xffff))
		n->rpm = (int)rate;
}

int devinfo_path_zoned(const char *path, const struct devinfo_roots *roots,
		       struct devinfo_zoned *z)
{
	struct stat st;
	struct ctx c;
	char dir[PATH_MAX];
	struct dev_node n;
	*z = (struct devinfo_zoned){ .max_open = -1, .max_active = -1 };
	if (stat(path, &st) != 0)
		return -1;
	if (!S_ISBLK(st.st_mode)) {
		errno = ENOTBLK;
		return -1;
	}
	ctx_init(&c, roots);
	if (sysfs_dev_dir(&c, st.st_rdev, dir) != 0)
		return 0;
	memset(&n, 0, sizeof(n));
	n.zone_size_bytes = n.nr_zones = n.max_open_zones = n.max_active_zones = -1;
	zoned_details(dir, &n);
	if (strcmp(n.zoned, "host-managed") != 0 && strcmp(n.zoned, "host-aware") != 0)
		return 0;
	SCOPY(z->model, n.zoned);
	z->max_open = n.max_open_zones;
	z->max_active = n.max_active_zones;
	return 1;
}

static void identity_strings(const char *disk, struct dev_node *n)
{
	char buf[512];
	if (read_attr(disk, "device/vendor", buf, sizeof(buf)) == 0)
		SCOPY(n->vendor, buf);
	if (read_attr(disk, "device/model", buf, sizeof(buf)) == 0)
		SCOPY(n->model, buf);
	if (read_attr(disk, "device/rev", buf, sizeof(buf)) == 0 ||
	    read_attr(disk, "device/firmware_rev", buf, sizeof(buf)) == 0)
		SCOPY(n->firmware, buf);
	if (read_attr(disk, "serial", buf, sizeof(buf)) == 0 ||
	    read_attr(disk, "device/serial", buf, sizeof(buf)) == 0 ||
	    read_vpd_serial(disk, buf, sizeof(buf)) == 0)
		SCOPY(n->serial, buf);
}

void disk_details(const struct ctx *c, const char *disk, struct dev_node *n)
{
	queue_details(disk, n);
	zoned_details(disk, n);
	identity_strings(disk, n);
	char devpath[PATH_MAX] = "", pci[PATH_MAX];
	bool has_dev = resolve(disk, "device", devpath) == 0;
	if (!has_dev)
		devpath[0] = '\0';
	n->transport = disk_transport(c, disk, devpath);
	/* a USB disk's serial is its USB device's iSerialNumber, as lsblk (udev's
	 * usb_id) shows it: usb-storage mostly has no VPD page 80h, and a
	 * bridge's SCSI side, where it answers, names the bridge's idea of it */
	char usb[PATH_MAX], buf[128];
	if (has_dev && n->transport && strcmp(n->transport, "usb") == 0 &&
	    usb_device_dir(c, devpath, usb) && read_attr(usb, "serial", buf, sizeof(buf)) == 0)
		SCOPY(n->serial, buf);
	bool has_pci = n->transport && strcmp(n->transport, "nvme") == 0 && nvme_pci_dir(disk, pci) == 0;
	if (n->transport && (strcmp(n->transport, "sata") == 0 || strcmp(n->transport, "ata") == 0))
		ata_details(c, devpath, n);
	if (n->rpm < 0)
		read_vpd_rpm(disk, n);
	virtual_kind(c, devpath, has_pci ? pci : NULL, n);
	n->rotational_unreliable = n->is_virtual;
	disk_link(c, disk, devpath, has_pci ? pci : NULL, n);
	if (has_dev)
		n->hotplug = hotplug_of(c, devpath);
}
