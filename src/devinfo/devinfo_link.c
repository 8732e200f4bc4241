/* The link a disk hangs on and the payload it can carry at most: SATA
 * (libata's ata_link class), USB (the USB device up the chain), PCIe (the
 * NVMe controller's PCI function).  Ceilings are payload after line coding,
 * the figure a benchmark result can be held against (reference §3). */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- SATA ------------------------------------------------------------------ */

static double sata_gbps(const char *s)
{
	double g = strtod(s, NULL); /* "6.0 Gbps"; "<unknown>" gives 0 */
	return g > 0 ? g : 0;
}

void sata_link(const char *linkdir, const char *transport, double dev_max, struct dev_link *lk)
{
	char spd[32], lim[32];
	double cur = read_attr(linkdir, "sata_spd", spd, sizeof(spd)) == 0 ? sata_gbps(spd) : 0;
	if (strcmp(transport, "sata") == 0 || cur > 0)
		lk->kind = "sata";
	if (cur <= 0)
		return;
	snprintf(lk->speed, sizeof(lk->speed), "%.1f Gbps", cur);
	lk->ceiling_bytes_per_sec = cur * 1e9 * 8.0 / 10.0 / 8.0; /* 8b/10b */
	double host_max = read_attr(linkdir, "hw_sata_spd_limit", lim, sizeof(lim)) == 0 ? sata_gbps(lim) : 0;
	double max = host_max > 0 && dev_max > 0 ? (host_max < dev_max ? host_max : dev_max)
		     : host_max > 0 ? host_max : dev_max;
	if (max > 0) {
		snprintf(lk->max_speed, sizeof(lk->max_speed), "%.1f Gbps", max);
		lk->below_max = cur < max;
	}
}

/* ---- USB ------------------------------------------------------------------- */

/* Bulk payload per USB signalling rate in Mbit/s (reference §3.1): high speed
 * carries 13 x 512 B per 125 us microframe, full speed 19 x 64 B per 1 ms
 * frame; SuperSpeed uses 8b/10b, SuperSpeed+ 128b/132b. */
static double usb_ceiling(double mbits)
{
	if (mbits <= 0)
		return 0;
	if (mbits < 12)
		return mbits * 1e6 * 8.0 / 10.0 / 8.0; /* low speed: no bulk, about 0.15 MB/s */
	if (mbits < 480)
		return 19.0 * 64 * 1000;
	if (mbits < 5000)
		return 13.0 * 512 * 8000;
	if (mbits < 10000)
		return mbits * 1e6 * 8.0 / 10.0 / 8.0;
	return mbits * 1e6 * 128.0 / 132.0 / 8.0;
}

/* The link of the USB device at p (the directory holding idVendor). */
static void usb_device_link(const char *p, struct dev_link *lk)
{
	char buf[16];
	if (read_attr(p, "speed", buf, sizeof(buf)) != 0)
		return;
	double mbits = strtod(buf, NULL);
	if (mbits <= 0)
		return;
	snprintf(lk->speed, sizeof(lk->speed), "%s Mbit/s", buf);
	lk->ceiling_bytes_per_sec = usb_ceiling(mbits);
	/* bcdUSB >= 3.00: the device does SuperSpeed, at least 5000 Mbit/s */
	if (read_attr(p, "version", buf, sizeof(buf)) == 0 && strtod(buf, NULL) >= 3.0) {
		snprintf(lk->max_speed, sizeof(lk->max_speed), "5000 Mbit/s");
		lk->below_max = mbits < 5000;
	}
}

/* smartmontools get_usb_id: up from the SCSI device to the USB device (the
 * directory holding idVendor), at most 10 levels, not above /sys/devices. */
bool usb_device_dir(const struct ctx *c, const char *devpath, char p[PATH_MAX])
{
	char top[PATH_MAX];
	scopy(p, PATH_MAX, devpath);
	pathf(top, "%s/devices", c->sys);
	for (int i = 0; i < 10 && strlen(p) > strlen(top); i++) {
		if (exists(p, "idVendor"))
			return true;
		char *slash = strrchr(p, '/');
		if (!slash || slash == p)
			break;
		*slash = '\0';
	}
	return false;
}

static void usb_link(const struct ctx *c, const char *devpath, struct dev_link *lk)
{
	char p[PATH_MAX];
	lk->kind = "usb";
	if (usb_device_dir(c, devpath, p))
		usb_device_link(p, lk);
}

/* ---- PCIe ------------------------------------------------------------------ */

static double pcie_gts(const char *s)
{
	double g = strtod(s, NULL); /* "8.0 GT/s PCIe", older "8 GT/s", or "Unknown" */
	return g > 0 ? g : 0;
}

/* Payload ceiling of a PCIe link: 8b/10b up to 5 GT/s, 128b/130b from 8 GT/s
 * (Gen6's FLIT mode is close enough to the latter for a ceiling). */
static double pcie_ceiling(double gts, int width)
{
	if (gts <= 0 || width <= 0)
		return 0;
	return gts * width * (gts >= 8 ? 128.0 / 130.0 : 8.0 / 10.0) / 8.0 * 1e9;
}

/* The PCI function of an NVMe namespace: <disk>/device is the controller
 * nvmeX, whose device/ is the function; with native multipath <disk>/device
 * is nvme-subsysN, which holds its controllers nvmeX. */
int nvme_pci_dir(const char *disk, char *out)
{
	char sub[PATH_MAX];
	if (resolve(disk, "device/device", out) == 0 && exists(out, "current_link_speed"))
		return 0;
	if (resolve(disk, "device", sub) != 0)
		return -1;
	DIR *dir = opendir(sub);
	if (!dir)
		return -1;
	int rc = -1;
	struct dirent *e;
	while (rc != 0 && (e = readdir(dir)) != NULL) {
		char rel[300];
		if (!starts(e->d_name, "nvme") || starts(e->d_name, "nvme-subsys"))
			continue;
		snprintf(rel, sizeof(rel), "%s/device", e->d_name);
		if (resolve(sub, rel, out) == 0 && exists(out, "current_link_speed"))
			rc = 0;
	}
	closedir(dir);
	return rc;
}

static void pcie_link(const char *pci, struct dev_link *lk)
{
	char buf[64];
	lk->kind = "pcie";
	double gts = read_attr(pci, "current_link_speed", buf, sizeof(buf)) == 0 ? pcie_gts(buf) : 0;
	double max = read_attr(pci, "max_link_speed", buf, sizeof(buf)) == 0 ? pcie_gts(buf) : 0;
	lk->width = read_int(pci, "current_link_width");
	lk->max_width = read_int(pci, "max_link_width");
	if (gts > 0)
		snprintf(lk->speed, sizeof(lk->speed), "%.1f GT/s", gts);
	if (max > 0)
		snprintf(lk->max_speed, sizeof(lk->max_speed), "%.1f GT/s", max);
	lk->ceiling_bytes_per_sec = pcie_ceiling(gts, lk->width);
	lk->below_max = (gts > 0 && max > gts) || (lk->width > 0 && lk->max_width > lk->width);
}

/* ---- per disk, per stack ------------------------------------------------------ */

void disk_link(const struct ctx *c, const char *disk, const char *devpath, const char *pci,
	       struct dev_node *n)
{
	/* an emulated controller still claims a SATA, USB or PCIe link: kept,
	 * so that figures beyond it name the host's cache */
	bool usb = n->transport && strcmp(n->transport, "usb") == 0;
	bool claims = n->link.kind || pci || usb;
	if ((n->is_virtual && !claims) || kind_without_link(n->kind) ||
	    kind_without_link(node_kind(disk, base_name(disk), false))) {
		memset(&n->link, 0, sizeof(n->link));
		n->link.width = n->link.max_width = -1;
		n->link.kind = "none";
	} else if (usb) {
		usb_link(c, devpath, &n->link);
	} else if (pci) {
		pcie_link(pci, &n->link);
	}
	if (n->is_virtual && claims && n->link.kind && strcmp(n->link.kind, "none") != 0) {
		n->link.emulated = true;
		n->link.below_max = false; /* no slot or cable to check */
	}
}

double devinfo_ceiling(const struct devinfo *d)
{
	double sum = 0;
	for (int i = 0; i < d->nleaves; i++) {
		double c = d->stack[d->leaves[i]].link.ceiling_bytes_per_sec;
		if (c <= 0)
			return 0;
		sum += c;
	}
	return sum;
}
