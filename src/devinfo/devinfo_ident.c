/* What a whole disk is: its queue (rotational, block sizes, write cache,
 * scheduler), its identity (vendor, model, serial, firmware; ATA IDENTIFY,
 * SCSI VPD page 0x80, NVMe controller attributes), its transport, whether a
 * hypervisor presents it, and which link it hangs on (devinfo_link.c). */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* Disks a hypervisor presents: by transport, by SCSI/ATA/NVMe vendor or
 * model string, by PCI vendor of an emulated NVMe controller. */
static bool virtual_disk(const struct dev_node *n, const char *pci)
{
	static const char *const vendors[] = { "Msft", "VMware", "QEMU", "VBOX", "Google", "Xen", "BHYVE" };
	static const char *const models[] = {
		"QEMU", "VMware", "VBOX", "Virtual", "Amazon Elastic Block Store", "PersistentDisk",
		"Google", "BHYVE", "Xen",
	};
	/* virtio/Red Hat, QEMU, VMware, Microsoft, Google */
	static const char *const pci_vendors[] = { "0x1af4", "0x1b36", "0x15ad", "0x1414", "0x1ae0" };
	if (n->transport && (strcmp(n->transport, "virtio") == 0 || strcmp(n->transport, "xen") == 0))
		return true;
	for (size_t i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++)
		if (strncasecmp(n->vendor, vendors[i], strlen(vendors[i])) == 0)
			return true;
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (strncasecmp(n->model, models[i], strlen(models[i])) == 0)
			return true;
	char buf[16];
	if (pci && read_attr(pci, "vendor", buf, sizeof(buf)) == 0)
		for (size_t i = 0; i < sizeof(pci_vendors) / sizeof(pci_vendors[0]); i++)
			if (strcmp(buf, pci_vendors[i]) == 0)
				return true;
	return false;
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
	identity_strings(disk, n);
	char devpath[PATH_MAX] = "", pci[PATH_MAX];
	bool has_dev = resolve(disk, "device", devpath) == 0;
	if (!has_dev)
		devpath[0] = '\0';
	n->transport = disk_transport(c, disk, devpath);
	bool has_pci = n->transport && strcmp(n->transport, "nvme") == 0 && nvme_pci_dir(disk, pci) == 0;
	if (n->transport && (strcmp(n->transport, "sata") == 0 || strcmp(n->transport, "ata") == 0))
		ata_details(c, devpath, n);
	n->is_virtual = virtual_disk(n, has_pci ? pci : NULL);
	n->rotational_unreliable = n->is_virtual;
	disk_link(c, disk, devpath, has_pci ? pci : NULL, n);
	if (has_dev)
		n->hotplug = hotplug_of(c, devpath);
}
