/* Which commands a disk answers, by the transport sysfs named: NVMe's log
 * pages, ATA SMART (SATA, and USB bridges that pass ATA through), SCSI log
 * pages (SAS, SCSI, and USB bridges that do not).  Every way it can fail
 * ends as a reason in the reading, never as an error of the run. */
#define _POSIX_C_SOURCE 200809L
#include "devinfo_health.h"

#include "platform.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void health_why_errno(struct health *h, const char *what, int err)
{
	const char *why;
	switch (err) {
	case EACCES:
	case EPERM: why = "not permitted (run as root)"; break;
	case ENOENT: why = "no device node here (a chroot or container without /dev)"; break;
	case ENOTTY:
	case EINVAL:
	case EOPNOTSUPP: why = "not supported by the device or its driver"; break;
	case EIO: why = "the device refused it"; break;
	default: why = strerror(err); break;
	}
	snprintf(h->why, sizeof(h->why), "%s: %s", what, why);
	h->available = false;
}

static bool is(const char *s, const char *a)
{
	return s && strcmp(s, a) == 0;
}

static void read_nvme(int fd, const struct health_ops *ops, struct health *h)
{
	uint8_t page[HEALTH_PAGE];
	if (ops->nvme_log(fd, 0x02, page, sizeof(page)) != 0) {
		health_why_errno(h, "NVMe log page 02h", errno);
		return;
	}
	health_decode_nvme(page, h);
	if (ops->nvme_log(fd, 0xc0, page, sizeof(page)) != 0)
		snprintf(h->nand_why, sizeof(h->nand_why), "no OCP SMART log (C0h)");
	else
		health_decode_ocp(page, h);
}

static int read_ata(int fd, const struct health_ops *ops, const char *model, struct health *h)
{
	uint8_t data[HEALTH_PAGE], thresholds[HEALTH_PAGE];
	if (ops->ata_smart(fd, 0xd0, data) != 0) {
		health_why_errno(h, "ATA SMART READ DATA", errno);
		return -1;
	}
	bool have_thresholds = ops->ata_smart(fd, 0xd1, thresholds) == 0;
	return health_decode_ata(data, have_thresholds ? thresholds : NULL, model, h);
}

static int read_scsi(int fd, const struct health_ops *ops, struct health *h)
{
	uint8_t page[252];
	if (ops->scsi_log_sense(fd, 0x0d, page, sizeof(page)) != 0) {
		health_why_errno(h, "SCSI LOG SENSE temperature page", errno);
		return -1;
	}
	if (health_decode_scsi_temperature(page, sizeof(page), h) != 0)
		return -1;
	/* the write error counters are a bonus: their absence costs nothing */
	if (ops->scsi_log_sense(fd, 0x02, page, sizeof(page)) == 0)
		health_decode_scsi_write_errors(page, sizeof(page), h);
	return 0;
}

/* A USB bridge that passed no ATA SMART: its SCSI log pages, and when they
 * fail too, both reasons in one (privilege first: it is the remedy). */
static void read_usb_scsi(int fd, const struct health_ops *ops, struct health *h)
{
	char ata_why[sizeof(h->why)], name[sizeof(h->name)];
	bool ata_denied = strstr(h->why, "not permitted") != NULL;
	snprintf(ata_why, sizeof(ata_why), "%s", h->why);
	snprintf(name, sizeof(name), "%s", h->name);
	health_init(h, name);
	if (read_scsi(fd, ops, h) == 0)
		return;
	char scsi_why[sizeof(h->why)];
	snprintf(scsi_why, sizeof(scsi_why), "%s", h->why);
	if (ata_denied)
		snprintf(h->why, sizeof(h->why), "%s", ata_why);
	else
		snprintf(h->why, sizeof(h->why), "no ATA pass-through on this USB bridge; %.150s",
			 scsi_why);
}

/* The reason a disk has no reader (in buf), or NULL when it has one. */
static const char *no_reader(const struct dev_node *n, char *buf, size_t len)
{
	if (n->kind && !is(n->kind, "disk")) {
		snprintf(buf, len, "a %s device keeps no health log of its own", n->kind);
		return buf;
	}
	const char *t = n->transport;
	/* a SCSI disk on virtio-scsi may pass LOG SENSE to a real one */
	if (is(t, "virtio") && strncmp(n->name, "sd", 2) == 0)
		return NULL;
	if (is(t, "virtio") || is(t, "xen"))
		return "a virtual disk: the hypervisor passes no SMART or health log through";
	if (is(t, "mmc"))
		return "eMMC and SD health (EXT_CSD) is not read";
	if (!t)
		return "the transport is unknown";
	return NULL;
}

void health_read(const struct dev_node *n, const char *devdir, const struct health_ops *ops,
		 struct health *h)
{
	char path[512], reason[96];
	health_init(h, n->name);
	const char *none = no_reader(n, reason, sizeof(reason));
	if (none) {
		snprintf(h->why, sizeof(h->why), "%s", none);
		return;
	}
	const char *t = n->transport;
	bool nvme = is(t, "nvme"), ata = is(t, "sata") || is(t, "ata"), usb = is(t, "usb");
	bool scsi = usb || is(t, "virtio") || is(t, "sas") || is(t, "scsi") || is(t, "fc") || is(t, "iscsi") ||
		    is(t, "spi");
	if (!nvme && !ata && !scsi) {
		snprintf(h->why, sizeof(h->why), "no health reader for transport %s", t);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", devdir ? devdir : "/dev", n->name);
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		char what[600];
		snprintf(what, sizeof(what), "open %s", path);
		health_why_errno(h, what, errno);
		return;
	}
	if (nvme) {
		/* the log read is the controller's (NSID all), not the namespace's */
		health_nvme_controller(n->name, h->controller, sizeof(h->controller));
		read_nvme(fd, ops, h);
	} else if (ata || usb) {
		/* a USB bridge may pass ATA through (SAT); else its SCSI side */
		if (read_ata(fd, ops, n->model[0] ? n->model : NULL, h) != 0 && usb)
			read_usb_scsi(fd, ops, h);
	} else
		read_scsi(fd, ops, h);
	close(fd);
}

const struct health_ops *health_ioctl_ops(void)
{
	static const struct health_ops ops = { plat_nvme_log, plat_ata_smart, plat_scsi_log_sense };
	return &ops;
}
