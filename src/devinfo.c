/* Device identity from sysfs: path → filesystem → block device → leaves.
 * Sources for each file read are in ../shared/reference/sweep-info-quick-fleet.md
 * §2 (util-linux lsblk and lib/sysfs.c, smartmontools, the kernel's ABI docs). */
#define _GNU_SOURCE
#include "devinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "platform.h"
#include "units.h"

static const struct devinfo_roots default_roots = {
	.sysfs = "/sys",
	.mountinfo = "/proc/self/mountinfo",
};

const struct devinfo_roots *devinfo_default_roots(void)
{
	return &default_roots;
}

/* ---- small helpers ------------------------------------------------------ */

/* Copies src into dst[len], cutting it if need be. */
static void scopy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}
#define SCOPY(dst, src) scopy((dst), sizeof(dst), (src))

static char *trim(char *s)
{
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	size_t i = 0;
	while (isspace((unsigned char)s[i]))
		i++;
	if (i > 0)
		memmove(s, s + i, n - i + 1);
	return s;
}

static bool join(char *out, size_t len, const char *dir, const char *rel)
{
	int n = snprintf(out, len, "%s/%s", dir, rel);
	return n >= 0 && (size_t)n < len;
}

static bool pathf(char out[PATH_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Formats a path into out[PATH_MAX]; false if it did not fit. */
static bool pathf(char out[PATH_MAX], const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out, PATH_MAX, fmt, ap);
	va_end(ap);
	return n >= 0 && n < PATH_MAX;
}

static bool exists(const char *dir, const char *rel)
{
	char path[PATH_MAX];
	return join(path, sizeof(path), dir, rel) && access(path, F_OK) == 0;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The first line of dir/rel, trimmed; -1 if missing, unreadable or empty. */
static int read_attr(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	buf[0] = '\0';
	if (!join(path, sizeof(path), dir, rel))
		return -1;
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *ok = fgets(buf, (int)len, f);
	fclose(f);
	if (!ok) {
		buf[0] = '\0';
		return -1;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return trim(buf)[0] ? 0 : -1;
}

static int read_i64(const char *dir, const char *rel, int64_t *out)
{
	char buf[64], *end;
	if (read_attr(dir, rel, buf, sizeof(buf)) != 0)
		return -1;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

/* A non-negative int attribute, or -1. */
static int read_int(const char *dir, const char *rel)
{
	int64_t v;
	if (read_i64(dir, rel, &v) != 0 || v < 0 || v > INT_MAX)
		return -1;
	return (int)v;
}

/* realpath of dir/rel into out[PATH_MAX]. */
static int resolve(const char *dir, const char *rel, char *out)
{
	char path[PATH_MAX];
	if (!join(path, sizeof(path), dir, rel))
		return -1;
	return realpath(path, out) ? 0 : -1;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void note_add(struct devinfo *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends one clause to d->note, "; " between clauses. */
static void note_add(struct devinfo *d, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	size_t n = strlen(d->note);
	if (n > 0 && n + 2 < sizeof(d->note)) {
		strcat(d->note, "; ");
		n += 2;
	}
	scopy(d->note + n, sizeof(d->note) - n, msg);
}

struct ctx {
	const struct devinfo_roots *roots;
	char sys[PATH_MAX];     /* realpath of the sysfs root */
	char btrfs[PATH_MAX];   /* /sys/fs/btrfs/<uuid> of a multi-device btrfs */
};

/* ---- filesystems -------------------------------------------------------- */

/* mountinfo type names of the same classes (and FUSE network filesystems). */
static const struct {
	const char *prefix;
	const char *class;
} fs_type_classes[] = {
	{ "tmpfs", "ram" }, { "ramfs", "ram" }, { "devtmpfs", "ram" },
	{ "nfs", "network" }, { "cifs", "network" }, { "smb", "network" }, { "9p", "network" },
	{ "ceph", "network" }, { "glusterfs", "network" }, { "lustre", "network" },
	{ "afs", "network" }, { "fuse.sshfs", "network" }, { "fuse.glusterfs", "network" },
	{ "fuse.ceph", "network" }, { "fuse.s3fs", "network" }, { "fuse.rclone", "network" },
};

static const char *fs_class_of(unsigned long magic, const char *type)
{
	const char *fs_class;
	if (plat_fs_name(magic, &fs_class) && fs_class)
		return fs_class;
	for (size_t i = 0; i < sizeof(fs_type_classes) / sizeof(fs_type_classes[0]); i++)
		if (starts(type, fs_type_classes[i].prefix))
			return fs_type_classes[i].class;
	return NULL;
}

struct mount {
	bool found;
	bool by_device;         /* matched on major:minor (else only on the path) */
	char type[32], point[512], source[512], opts[1024];
};

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* Length of mount point `point` if it contains `path`, else 0. */
static size_t prefix_len(const char *path, const char *point)
{
	size_t n = strlen(point);
	if (strcmp(point, "/") == 0)
		return path[0] == '/' ? 1 : 0;
	if (strncmp(path, point, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		return n;
	return 0;
}

/* The mount of the filesystem with device majmin that holds `real` (a
 * realpath; NULL for a block device, then the first mount of it, or of a
 * source that resolves to `source_real`).  Several matches (bind mounts):
 * the longest mount point holding `real`, the later one on a tie.  No match
 * on the device (btrfs subvolumes have their own st_dev): the longest mount
 * point holding `real`. */
static void find_mount(const char *file, const char *majmin, const char *real,
		       const char *source_real, struct mount *best)
{
	memset(best, 0, sizeof(*best));
	FILE *f = fopen(file, "r");
	if (!f)
		return;
	char *line = NULL;
	size_t cap = 0;
	int best_rank = 0;
	size_t best_len = 0;
	while (getline(&line, &cap, f) > 0) {
		char *field[64], *save = NULL;
		int n = 0;
		for (char *t = strtok_r(line, " \n", &save); t && n < 64; t = strtok_r(NULL, " \n", &save))
			field[n++] = t;
		int dash = -1;
		for (int i = 6; i < n; i++)
			if (strcmp(field[i], "-") == 0) {
				dash = i;
				break;
			}
		if (n < 5 || dash < 0 || dash + 2 >= n)
			continue;
		char *point = field[4], *source = field[dash + 2];
		unescape(point);
		unescape(source);
		bool dev = strcmp(field[2], majmin) == 0;
		if (!dev && source_real && source[0] == '/') {
			char rs[PATH_MAX];
			dev = realpath(source, rs) && strcmp(rs, source_real) == 0;
		}
		size_t len = real ? prefix_len(real, point) : 0;
		/* 3: device and path; 2: device only, first wins; 1: path only */
		int rank = dev ? (len > 0 ? 3 : 2) : (len > 0 ? 1 : 0);
		if (rank == 0 || rank < best_rank || (rank == best_rank && (rank == 2 || len < best_len)))
			continue;
		best_rank = rank;
		best_len = len;
		best->found = true;
		best->by_device = dev;
		SCOPY(best->type, field[dash + 1]);
		SCOPY(best->point, point);
		SCOPY(best->source, source);
		SCOPY(best->opts, dash + 3 < n ? field[dash + 3] : "");
	}
	free(line);
	fclose(f);
}

/* ---- one sysfs node ----------------------------------------------------- */

static void node_init(struct dev_node *n)
{
	memset(n, 0, sizeof(*n));
	n->size_bytes = -1;
	n->rotational = n->rpm = -1;
	n->logical_block_size = n->physical_block_size = -1;
	n->fua = n->removable = n->hotplug = -1;
	n->md_raid_disks = n->loop_dio = -1;
	n->link.width = n->link.max_width = -1;
	n->parent = -1;
}

static const char *node_kind(const char *dir, const char *name, bool part)
{
	if (part)
		return "part";
	if (exists(dir, "dm"))
		return "dm";
	if (exists(dir, "md"))
		return "md";
	if (exists(dir, "loop") || starts(name, "loop"))
		return "loop";
	static const char *const prefixes[][2] = {
		{ "zram", "zram" }, { "ram", "ram" }, { "nbd", "nbd" }, { "pmem", "pmem" },
		{ "rbd", "rbd" }, { "sr", "rom" }, { "dm-", "dm" }, { "md", "md" },
	};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts(name, prefixes[i][0]))
			return prefixes[i][1];
	return "disk";
}

/* Kinds with no physical link of their own: their leaves carry the data. */
static bool kind_without_link(const char *kind)
{
	static const char *const kinds[] = { "dm", "md", "loop", "zram", "ram", "nbd", "rbd", "pmem", "btrfs" };
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kind, kinds[i]) == 0)
			return true;
	return false;
}

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

static double sata_gbps(const char *s)
{
	double g = strtod(s, NULL); /* "6.0 Gbps"; "<unknown>" gives 0 */
	return g > 0 ? g : 0;
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

	uint16_t id[256];
	char path[PATH_MAX], s[64];
	double dev_max = 0;
	if (join(path, sizeof(path), devdir, "id") && read_ata_id(path, id)) {
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
			dev_max = id[76] & 8 ? 6.0 : id[76] & 4 ? 3.0 : id[76] & 2 ? 1.5 : 0;
	}

	char spd[32], lim[32];
	double cur = read_attr(linkdir, "sata_spd", spd, sizeof(spd)) == 0 ? sata_gbps(spd) : 0;
	if (strcmp(n->transport, "sata") == 0 || cur > 0)
		n->link.kind = "sata";
	if (cur <= 0)
		return;
	snprintf(n->link.speed, sizeof(n->link.speed), "%.1f Gbps", cur);
	n->link.ceiling_bytes_per_sec = cur * 1e9 * 8.0 / 10.0 / 8.0; /* 8b/10b */
	double host_max = read_attr(linkdir, "hw_sata_spd_limit", lim, sizeof(lim)) == 0 ? sata_gbps(lim) : 0;
	double max = host_max > 0 && dev_max > 0 ? (host_max < dev_max ? host_max : dev_max)
		     : host_max > 0 ? host_max : dev_max;
	if (max > 0) {
		snprintf(n->link.max_speed, sizeof(n->link.max_speed), "%.1f Gbps", max);
		n->link.below_max = cur < max;
	}
}

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

/* smartmontools get_usb_id: up from the SCSI device to the USB device (the
 * directory holding idVendor), at most 10 levels, not above /sys/devices. */
static void usb_link(const struct ctx *c, const char *devpath, struct dev_link *lk)
{
	char p[PATH_MAX], top[PATH_MAX], buf[16];
	lk->kind = "usb";
	SCOPY(p, devpath);
	pathf(top, "%s/devices", c->sys);
	for (int i = 0; i < 10 && strlen(p) > strlen(top); i++) {
		if (exists(p, "idVendor")) {
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
			return;
		}
		char *slash = strrchr(p, '/');
		if (!slash || slash == p)
			break;
		*slash = '\0';
	}
}

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
static int nvme_pci_dir(const char *disk, char *out)
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

/* What belongs to the whole disk: queue, identity, transport, link. */
static void disk_details(const struct ctx *c, const char *disk, struct dev_node *n)
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

	const char *name = base_name(disk);
	char devpath[PATH_MAX];
	bool has_dev = resolve(disk, "device", devpath) == 0;
	int h, ch, t, l;
	if (has_dev && sscanf(base_name(devpath), "%d:%d:%d:%d", &h, &ch, &t, &l) == 4)
		n->transport = scsi_transport(c, devpath, h);
	else if (starts(name, "nvme"))
		n->transport = nvme_transport(disk);
	else if (starts(name, "vd"))
		n->transport = "virtio";
	else if (starts(name, "mmcblk"))
		n->transport = "mmc";
	else if (starts(name, "xvd"))
		n->transport = "xen";
	else if (starts(name, "loop"))
		n->transport = "loop";

	char pci[PATH_MAX];
	bool has_pci = n->transport && strcmp(n->transport, "nvme") == 0 && nvme_pci_dir(disk, pci) == 0;
	if (n->transport && (strcmp(n->transport, "sata") == 0 || strcmp(n->transport, "ata") == 0))
		ata_details(c, devpath, n);
	n->is_virtual = virtual_disk(n, has_pci ? pci : NULL);
	n->rotational_unreliable = n->is_virtual;

	if (n->is_virtual || kind_without_link(n->kind) || kind_without_link(node_kind(disk, name, false))) {
		memset(&n->link, 0, sizeof(n->link));
		n->link.width = n->link.max_width = -1;
		n->link.kind = "none";
	} else if (n->transport && strcmp(n->transport, "usb") == 0) {
		usb_link(c, devpath, &n->link);
	} else if (has_pci) {
		pcie_link(pci, &n->link);
	}
	if (has_dev)
		n->hotplug = hotplug_of(c, devpath);
}

static void node_fill(const struct ctx *c, const char *dir, struct dev_node *n)
{
	char buf[PATH_MAX];
	node_init(n);
	SCOPY(n->sysfs_path, dir);
	SCOPY(n->name, base_name(dir));
	for (char *p = n->name; *p; p++)
		if (*p == '!')
			*p = '/';
	read_attr(dir, "dev", n->majmin, sizeof(n->majmin));
	int64_t sectors;
	if (read_i64(dir, "size", &sectors) == 0 && sectors >= 0 && sectors <= INT64_MAX / 512)
		n->size_bytes = sectors * 512; /* always 512-byte units */

	bool part = exists(dir, "partition");
	char disk[PATH_MAX];
	SCOPY(disk, dir);
	if (part) {
		char *slash = strrchr(disk, '/');
		if (slash && slash != disk)
			*slash = '\0';
		SCOPY(n->parent_disk, base_name(disk));
	}
	n->kind = node_kind(dir, n->name, part);

	if (strcmp(n->kind, "dm") == 0) {
		if (read_attr(dir, "dm/name", buf, sizeof(buf)) == 0)
			SCOPY(n->dm_name, buf);
		if (read_attr(dir, "dm/uuid", buf, sizeof(buf)) == 0) {
			buf[strcspn(buf, "-")] = '\0';
			if (starts(buf, "part") && isdigit((unsigned char)buf[4]))
				buf[4] = '\0';
			SCOPY(n->dm_uuid_prefix, buf);
		}
	} else if (strcmp(n->kind, "md") == 0) {
		if (read_attr(dir, "md/level", buf, sizeof(buf)) == 0)
			SCOPY(n->md_level, buf);
		n->md_raid_disks = read_int(dir, "md/raid_disks");
	} else if (strcmp(n->kind, "loop") == 0) {
		if (read_attr(dir, "loop/backing_file", buf, sizeof(buf)) == 0)
			SCOPY(n->backing_file, buf);
		n->loop_dio = read_int(dir, "loop/dio");
	} else if (strcmp(n->kind, "zram") == 0 || strcmp(n->kind, "ram") == 0) {
		n->in_ram = true;
	}
	disk_details(c, disk, n);
}

/* ---- the stack ---------------------------------------------------------- */

static void walk(const struct ctx *c, struct devinfo *d, const char *dir, int parent, int depth);

/* A loop device's child: the device under its backing file, if any. */
static void walk_loop_backing(const struct ctx *c, struct devinfo *d, int idx, int depth)
{
	struct dev_node *n = &d->stack[idx];
	char file[sizeof(n->backing_file)], link[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	struct statfs sf;
	SCOPY(file, n->backing_file);
	char *deleted = strstr(file, " (deleted)");
	if (deleted && deleted[10] == '\0')
		*deleted = '\0';
	if (!file[0] || stat(file, &st) != 0)
		return;
	dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	if (major(dev) == 0) {
		const char *fs_class = NULL;
		if (statfs(file, &sf) == 0)
			plat_fs_name((unsigned long)sf.f_type, &fs_class);
		n->in_ram = fs_class && strcmp(fs_class, "ram") == 0;
		return;
	}
	pathf(link, "%s/dev/block/%u:%u", c->sys, major(dev), minor(dev));
	if (realpath(link, dir))
		walk(c, d, dir, idx, depth + 1);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walks the devices that the symlinks in dir/sub point to, in name order,
 * as children of stack[idx] (slaves/ of a dm or md, devices/ of a btrfs). */
static void walk_links(const struct ctx *c, struct devinfo *d, const char *dir, const char *sub,
		       int idx, int depth)
{
	char path[PATH_MAX], child[PATH_MAX];
	if (!join(path, sizeof(path), dir, sub))
		return;
	DIR *sd = opendir(path);
	if (!sd)
		return;
	char *names[DEVINFO_MAX_NODES];
	int count = 0;
	struct dirent *e;
	while ((e = readdir(sd)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (count == DEVINFO_MAX_NODES) {
			d->truncated = true;
			break;
		}
		names[count] = strdup(e->d_name);
		if (names[count])
			count++;
	}
	closedir(sd);
	qsort(names, (size_t)count, sizeof(names[0]), name_cmp);
	for (int i = 0; i < count; i++) {
		if (resolve(path, names[i], child) == 0)
			walk(c, d, child, idx, depth + 1);
		free(names[i]);
	}
}

/* Depth-first from dir; a node met before is listed again but not walked. */
static void walk(const struct ctx *c, struct devinfo *d, const char *dir, int parent, int depth)
{
	if (d->nstack >= DEVINFO_MAX_NODES) {
		d->truncated = true;
		return;
	}
	int idx = d->nstack++;
	struct dev_node *n = &d->stack[idx];
	node_fill(c, dir, n);
	n->parent = parent;
	n->depth = depth;
	for (int i = 0; i < idx; i++)
		if (strcmp(d->stack[i].sysfs_path, n->sysfs_path) == 0) {
			n->duplicate = true;
			return;
		}
	bool part = strcmp(n->kind, "part") == 0 && n->parent_disk[0];
	bool loop = strcmp(n->kind, "loop") == 0;
	if (depth >= DEVINFO_MAX_DEPTH) {
		if (part || loop || exists(dir, "slaves"))
			d->truncated = true;
		return;
	}
	if (part) {
		char disk[PATH_MAX];
		SCOPY(disk, dir);
		*strrchr(disk, '/') = '\0';
		walk(c, d, disk, idx, depth + 1);
	} else if (loop) {
		walk_loop_backing(c, d, idx, depth);
	} else {
		walk_links(c, d, dir, "slaves", idx, depth);
	}
}

/* A multi-device btrfs: one synthetic node over its members. */
static void walk_btrfs(const struct ctx *c, struct devinfo *d)
{
	struct dev_node *n = &d->stack[d->nstack++];
	node_init(n);
	n->kind = "btrfs";
	SCOPY(n->name, base_name(c->btrfs));
	SCOPY(n->sysfs_path, c->btrfs);
	n->link.kind = "none";
	walk_links(c, d, c->btrfs, "devices", 0, 0);
}

static bool has_child(const struct devinfo *d, int i)
{
	for (int k = i + 1; k < d->nstack; k++)
		if (d->stack[k].parent == i)
			return true;
	return false;
}

/* Leaves, flags that travel up from them, and the top. */
static void finish(struct devinfo *d)
{
	if (d->nstack == 0)
		return;
	bool all_ram = true;
	for (int i = 0; i < d->nstack; i++) {
		if (d->stack[i].duplicate || has_child(d, i))
			continue;
		d->leaves[d->nleaves++] = i;
		all_ram = all_ram && d->stack[i].in_ram;
		if (!d->stack[i].rotational_unreliable)
			continue;
		/* a dm or md over virtual disks inherits their meaningless rotational */
		for (int p = d->stack[i].parent; p >= 0; p = d->stack[p].parent)
			d->stack[p].rotational_unreliable = true;
	}
	if (!d->fs_class && d->nleaves > 0 && all_ram)
		d->fs_class = "ram";
	d->top = d->stack[0];
	d->has_top = true;
}

/* ---- probing ------------------------------------------------------------ */

static void ctx_init(struct ctx *c, const struct devinfo_roots *roots)
{
	memset(c, 0, sizeof(*c));
	c->roots = roots ? roots : &default_roots;
	if (!realpath(c->roots->sysfs, c->sys))
		SCOPY(c->sys, c->roots->sysfs);
}

static void info_init(struct devinfo *d, const char *path)
{
	memset(d, 0, sizeof(*d));
	SCOPY(d->path, path);
	node_init(&d->top);
}

/* /sys/fs/btrfs/<uuid>/devices/ names each member; find the one holding dev. */
static void btrfs_members(struct ctx *c, dev_t dev)
{
	char link[PATH_MAX], dir[PATH_MAX], fsdir[PATH_MAX], rel[PATH_MAX];
	pathf(link, "%s/dev/block/%u:%u", c->sys, major(dev), minor(dev));
	pathf(fsdir, "%s/fs/btrfs", c->sys);
	if (!realpath(link, dir))
		return;
	DIR *fs = opendir(fsdir);
	if (!fs)
		return;
	struct dirent *e;
	while ((e = readdir(fs)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "%s/devices", e->d_name);
		int members = 0;
		bool ours = false;
		char devs[PATH_MAX];
		if (!join(devs, sizeof(devs), fsdir, rel))
			continue;
		DIR *dd = opendir(devs);
		if (!dd)
			continue;
		struct dirent *m;
		while ((m = readdir(dd)) != NULL) {
			if (m->d_name[0] == '.')
				continue;
			members++;
			ours = ours || strcmp(m->d_name, base_name(dir)) == 0;
		}
		closedir(dd);
		if (ours && members > 1 && join(c->btrfs, sizeof(c->btrfs), fsdir, e->d_name))
			break;
		c->btrfs[0] = '\0';
	}
	closedir(fs);
}

/* The block device under the filesystem holding path, or 0 with d->note or
 * d->fs_class saying why there is none.  Fills d's fs fields at depth 0; an
 * overlayfs is followed to its upper directory (depth 1). */
static dev_t fs_device(struct ctx *c, struct devinfo *d, const char *path, int depth)
{
	struct stat st;
	struct statfs sf;
	struct mount m;
	char majmin[16], real[PATH_MAX];
	if (stat(path, &st) != 0)
		return 0;
	unsigned long magic = statfs(path, &sf) == 0 ? (unsigned long)sf.f_type : 0;
	snprintf(majmin, sizeof(majmin), "%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!realpath(path, real))
		SCOPY(real, path);
	find_mount(c->roots->mountinfo, majmin, real, NULL, &m);
	const char *known = plat_fs_name(magic, NULL);
	char type[32];
	if (m.found)
		SCOPY(type, m.type);
	else if (known)
		SCOPY(type, known);
	else
		snprintf(type, sizeof(type), "0x%lx", magic);
	const char *class = fs_class_of(magic, type);
	if (m.found && !m.by_device)
		note_add(d, "mount found by path: st_dev %s is not in %s", majmin, c->roots->mountinfo);
	if (depth == 0) {
		SCOPY(d->fs_type, type);
		d->fs_magic = magic;
		SCOPY(d->st_dev, majmin);
		SCOPY(d->mount_point, m.point);
		SCOPY(d->mount_source, m.source);
	}
	if (class) {
		d->fs_class = class;
		if (depth > 0)
			note_add(d, "upper directory on %s", type);
		return 0;
	}
	if (major(st.st_dev) != 0)
		return st.st_dev;
	/* btrfs, fuseblk (ntfs-3g, exfat-fuse): the mount source is the device */
	bool btrfs = strcmp(type, "btrfs") == 0 || magic == 0x9123683E;
	struct stat src;
	if (m.source[0] == '/' && stat(m.source, &src) == 0 && S_ISBLK(src.st_mode)) {
		note_add(d, "%s: device of its mount source %s", type, m.source);
		if (btrfs)
			btrfs_members(c, src.st_rdev);
		if (c->btrfs[0])
			note_add(d, "btrfs spans several devices (%s)", base_name(c->btrfs));
		return src.st_rdev;
	}
	if (btrfs) {
		note_add(d, "btrfs: mount source %s is not a block device", m.source[0] ? m.source : "unknown");
		return 0;
	}
	if ((strcmp(type, "overlay") == 0 || magic == 0x794c7630) && depth == 0) {
		char *up = strstr(m.opts, "upperdir=");
		if (up) {
			char upper[PATH_MAX];
			SCOPY(upper, up + 9);
			upper[strcspn(upper, ",")] = '\0';
			unescape(upper);
			note_add(d, "overlay: device of its upper directory %s", upper);
			return fs_device(c, d, upper, depth + 1);
		}
		note_add(d, "overlay without an upper directory");
		return 0;
	}
	note_add(d, "%s on anonymous device %s: no block device", type, majmin);
	return 0;
}

static void probe_dev(struct ctx *c, struct devinfo *d, dev_t dev)
{
	char link[PATH_MAX], dir[PATH_MAX], majmin[16];
	snprintf(majmin, sizeof(majmin), "%u:%u", major(dev), minor(dev));
	pathf(link, "%s/dev/block/%s", c->sys, majmin);
	if (c->btrfs[0]) {
		walk_btrfs(c, d);
	} else if (realpath(link, dir)) {
		walk(c, d, dir, -1, 0);
	} else {
		note_add(d, "no sysfs entry for block device %s", majmin);
		return;
	}
	finish(d);
}

/* Where a block device is mounted (the first mount of it), for the fs fields. */
static void mount_of_device(struct ctx *c, struct devinfo *d, dev_t dev, const char *path)
{
	char majmin[16], real[PATH_MAX];
	struct mount m;
	snprintf(majmin, sizeof(majmin), "%u:%u", major(dev), minor(dev));
	find_mount(c->roots->mountinfo, majmin, NULL, realpath(path, real) ? real : NULL, &m);
	if (m.found) {
		SCOPY(d->fs_type, m.type);
		SCOPY(d->mount_point, m.point);
		SCOPY(d->mount_source, m.source);
	}
}

int devinfo_probe(const char *path, const struct devinfo_roots *roots, struct devinfo *out)
{
	struct stat st;
	struct ctx c;
	if (stat(path, &st) != 0)
		return -1;
	info_init(out, path);
	ctx_init(&c, roots);
	if (S_ISBLK(st.st_mode)) {
		out->path_type = "block device";
		mount_of_device(&c, out, st.st_rdev, path);
		probe_dev(&c, out, st.st_rdev);
		return 0;
	}
	out->path_type = S_ISDIR(st.st_mode) ? "dir" : S_ISREG(st.st_mode) ? "file" : "other";
	dev_t dev = fs_device(&c, out, path, 0);
	if (major(dev) != 0)
		probe_dev(&c, out, dev);
	return 0;
}

int devinfo_probe_devnum(unsigned maj, unsigned min, const struct devinfo_roots *roots,
			 struct devinfo *out)
{
	struct ctx c;
	char name[32];
	snprintf(name, sizeof(name), "%u:%u", maj, min);
	info_init(out, name);
	ctx_init(&c, roots);
	out->path_type = "device number";
	mount_of_device(&c, out, makedev(maj, min), name);
	probe_dev(&c, out, makedev(maj, min));
	return 0;
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

/* ---- JSON --------------------------------------------------------------- */

static void j_str(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s && s[0] ? s : NULL);
}

static void j_int(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	if (v < 0)
		json_null(j);
	else
		json_uint(j, (uint64_t)v);
}

static void j_flag(struct json *j, const char *key, int v)
{
	json_key(j, key);
	if (v < 0)
		json_null(j);
	else
		json_bool(j, v != 0);
}

static void j_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

static void j_rate(struct json *j, const char *key, double v)
{
	json_key(j, key);
	if (v > 0)
		json_double(j, v, 0);
	else
		json_null(j);
}

static void json_link(struct json *j, const struct dev_link *lk)
{
	json_key(j, "link");
	json_object_begin(j);
	j_str(j, "kind", lk->kind);
	j_str(j, "speed", lk->speed);
	j_int(j, "width", lk->width);
	j_str(j, "max_speed", lk->max_speed);
	j_int(j, "max_width", lk->max_width);
	j_bool(j, "below_max", lk->below_max);
	j_rate(j, "ceiling_bytes_per_sec", lk->ceiling_bytes_per_sec);
	json_object_end(j);
}

/* The fields a result needs to say what it ran on. */
static void json_node_core(struct json *j, const struct dev_node *n)
{
	j_str(j, "name", n->name);
	j_str(j, "majmin", n->majmin);
	j_str(j, "kind", n->kind);
	j_int(j, "size_bytes", n->size_bytes);
	j_str(j, "vendor", n->vendor);
	j_str(j, "model", n->model);
	j_str(j, "firmware", n->firmware);
	j_str(j, "transport", n->transport);
	j_bool(j, "virtual", n->is_virtual);
	j_flag(j, "rotational", n->rotational);
	j_bool(j, "rotational_unreliable", n->rotational_unreliable);
	j_int(j, "rpm", n->rpm);
	j_int(j, "logical_block_size", n->logical_block_size);
	j_int(j, "physical_block_size", n->physical_block_size);
	j_str(j, "write_cache", n->write_cache);
	j_flag(j, "fua", n->fua);
	j_flag(j, "removable", n->removable);
}

static void json_node(struct json *j, const struct devinfo *d, const struct dev_node *n, bool in_stack)
{
	json_object_begin(j);
	json_node_core(j, n);
	j_str(j, "serial", n->serial);
	j_str(j, "scheduler", n->scheduler);
	j_flag(j, "hotplug", n->hotplug);
	j_str(j, "dm_name", n->dm_name);
	j_str(j, "dm_uuid_prefix", n->dm_uuid_prefix);
	j_str(j, "md_level", n->md_level);
	j_int(j, "md_raid_disks", n->md_raid_disks);
	j_str(j, "backing_file", n->backing_file);
	j_flag(j, "loop_dio", n->loop_dio);
	j_str(j, "parent_disk", n->parent_disk);
	j_bool(j, "in_ram", n->in_ram);
	j_str(j, "sysfs_path", n->sysfs_path);
	json_link(j, &n->link);
	if (in_stack) {
		int self = (int)(n - d->stack);
		j_int(j, "depth", n->depth);
		j_str(j, "parent", n->parent >= 0 ? d->stack[n->parent].name : NULL);
		j_bool(j, "duplicate", n->duplicate);
		json_key(j, "members");
		json_array_begin(j);
		for (int k = self + 1; k < d->nstack; k++)
			if (d->stack[k].parent == self)
				json_string(j, d->stack[k].name);
		json_array_end(j);
	}
	json_object_end(j);
}

void devinfo_json(struct json *j, const struct devinfo *d)
{
	char magic[24];
	snprintf(magic, sizeof(magic), "0x%lx", d->fs_magic);
	json_object_begin(j);
	json_key(j, "fs");
	json_object_begin(j);
	j_str(j, "path", d->path);
	j_str(j, "path_type", d->path_type);
	j_str(j, "type", d->fs_type);
	j_str(j, "magic", d->fs_magic ? magic : NULL);
	j_str(j, "mount_point", d->mount_point);
	j_str(j, "source", d->mount_source);
	j_str(j, "st_dev", d->st_dev);
	j_str(j, "class", d->fs_class);
	j_str(j, "note", d->note);
	json_object_end(j);
	json_key(j, "device");
	if (d->has_top)
		json_node(j, d, &d->top, false);
	else
		json_null(j);
	json_key(j, "stack");
	json_array_begin(j);
	for (int i = 0; i < d->nstack; i++)
		json_node(j, d, &d->stack[i], true);
	json_array_end(j);
	json_key(j, "leaves");
	json_array_begin(j);
	for (int i = 0; i < d->nleaves; i++)
		json_string(j, d->stack[d->leaves[i]].name);
	json_array_end(j);
	j_rate(j, "ceiling_bytes_per_sec", devinfo_ceiling(d));
	j_bool(j, "truncated", d->truncated);
	json_object_end(j);
}

void devinfo_json_device(struct json *j, const struct devinfo *d)
{
	json_object_begin(j);
	if (d->has_top) {
		json_node_core(j, &d->top);
		json_link(j, &d->top.link);
	} else {
		j_str(j, "name", NULL);
	}
	j_str(j, "fs_type", d->fs_type);
	j_str(j, "fs_class", d->fs_class);
	j_str(j, "mount_point", d->mount_point);
	json_key(j, "leaves");
	json_array_begin(j);
	for (int i = 0; i < d->nleaves; i++) {
		const struct dev_node *n = &d->stack[d->leaves[i]];
		json_object_begin(j);
		j_str(j, "name", n->name);
		j_str(j, "kind", n->kind);
		j_str(j, "model", n->model);
		j_str(j, "transport", n->transport);
		j_bool(j, "virtual", n->is_virtual);
		j_flag(j, "rotational", n->rotational);
		j_int(j, "rpm", n->rpm);
		json_link(j, &n->link);
		json_object_end(j);
	}
	json_array_end(j);
	j_rate(j, "ceiling_bytes_per_sec", devinfo_ceiling(d));
	json_object_end(j);
}

/* ---- text --------------------------------------------------------------- */

static int pcie_gen(const char *speed)
{
	double g = strtod(speed, NULL);
	return g >= 64 ? 6 : g >= 32 ? 5 : g >= 16 ? 4 : g >= 8 ? 3 : g >= 5 ? 2 : g > 0 ? 1 : 0;
}

/* "PCIe Gen3 x4 (8.0 GT/s), ceiling 3.94 GB/s" */
static void link_text(char *buf, size_t len, const struct dev_node *n)
{
	const struct dev_link *lk = &n->link;
	char rate[32] = "", extra[96] = "";
	if (lk->ceiling_bytes_per_sec > 0) {
		fmt_rate_si(rate, sizeof(rate), lk->ceiling_bytes_per_sec);
		snprintf(extra, sizeof(extra), ", ceiling %s", rate);
	}
	if (!lk->kind) {
		snprintf(buf, len, "unknown");
	} else if (strcmp(lk->kind, "none") == 0) {
		snprintf(buf, len, "none (%s)", n->is_virtual ? "virtual disk" : n->in_ram ? "in RAM"
			 : "no physical link of its own");
	} else if (strcmp(lk->kind, "pcie") == 0) {
		int n1 = snprintf(buf, len, "PCIe");
		if (lk->speed[0])
			n1 += snprintf(buf + n1, len - (size_t)n1, " Gen%d", pcie_gen(lk->speed));
		if (lk->width > 0)
			n1 += snprintf(buf + n1, len - (size_t)n1, " x%d", lk->width);
		if (lk->speed[0])
			n1 += snprintf(buf + n1, len - (size_t)n1, " (%s)", lk->speed);
		if (lk->below_max)
			n1 += snprintf(buf + n1, len - (size_t)n1, ", below its maximum Gen%d x%d",
				       pcie_gen(lk->max_speed), lk->max_width);
		snprintf(buf + n1, len - (size_t)n1, "%s", extra);
	} else {
		snprintf(buf, len, "%s %s%s%s%s", strcmp(lk->kind, "sata") == 0 ? "SATA" : "USB",
			 lk->speed[0] ? lk->speed : "speed unknown", lk->below_max ? ", below its maximum " : "",
			 lk->below_max ? lk->max_speed : "", extra);
	}
}

/* "virtio disk", "partition of sda", "dm LVM vg0-root", "md raid1 of 2" */
static void kind_text(char *buf, size_t len, const struct dev_node *n)
{
	if (strcmp(n->kind, "part") == 0)
		snprintf(buf, len, "partition of %s%s%s", n->parent_disk,
			 n->transport ? ", " : "", n->transport ? n->transport : "");
	else if (strcmp(n->kind, "dm") == 0)
		snprintf(buf, len, "dm%s%s%s%s", n->dm_uuid_prefix[0] ? " " : "", n->dm_uuid_prefix,
			 n->dm_name[0] ? " " : "", n->dm_name);
	else if (strcmp(n->kind, "md") == 0)
		snprintf(buf, len, "md %s", n->md_level[0] ? n->md_level : "(level unknown)");
	else if (strcmp(n->kind, "loop") == 0)
		snprintf(buf, len, "loop over %s%s", n->backing_file[0] ? n->backing_file : "(no file)",
			 n->loop_dio == 1 ? " (direct I/O)" : "");
	else if (strcmp(n->kind, "disk") == 0)
		snprintf(buf, len, "%s%sdisk", n->transport ? n->transport : "", n->transport ? " " : "");
	else
		snprintf(buf, len, "%s", n->kind);
}

static void size_text(char *buf, size_t len, int64_t bytes)
{
	char si[24], iec[24];
	if (bytes < 0) {
		snprintf(buf, len, "size unknown");
		return;
	}
	fmt_bytes_si(si, sizeof(si), (uint64_t)bytes);
	fmt_bytes_iec(iec, sizeof(iec), (uint64_t)bytes);
	snprintf(buf, len, "%s (%s)", si, iec);
}

static void text_fs(FILE *f, const struct devinfo *d)
{
	if (strcmp(d->path_type, "block device") == 0 || strcmp(d->path_type, "device number") == 0) {
		fprintf(f, "%s: %s", d->path, d->path_type);
		if (d->mount_point[0])
			fprintf(f, ", mounted at %s (%s)", d->mount_point, d->fs_type[0] ? d->fs_type : "?");
		else
			fprintf(f, ", not mounted");
	} else {
		fprintf(f, "%s: %s on %s", d->path, d->path_type,
			d->fs_type[0] ? d->fs_type : "unknown filesystem");
		if (d->mount_point[0])
			fprintf(f, ", mounted at %s from %s", d->mount_point,
				d->mount_source[0] ? d->mount_source : "?");
		fprintf(f, " [st_dev %s]", d->st_dev);
	}
	if (d->fs_class && strcmp(d->fs_class, "ram") == 0)
		fprintf(f, ": data in RAM%s", d->has_top ? "" : ", no disk below");
	else if (d->fs_class)
		fprintf(f, ": network filesystem, no local disk below");
	fputc('\n', f);
}

static void text_node_details(FILE *f, const struct dev_node *n)
{
	char line[1024];
	int k = 0;
	line[0] = '\0';
	if (n->model[0])
		k += snprintf(line + k, sizeof(line) - (size_t)k, "%smodel %s", k ? ", " : "", n->model);
	if (n->vendor[0] && k < (int)sizeof(line))
		k += snprintf(line + k, sizeof(line) - (size_t)k, "%svendor %s", k ? ", " : "", n->vendor);
	if (n->serial[0] && k < (int)sizeof(line))
		k += snprintf(line + k, sizeof(line) - (size_t)k, "%sserial %s", k ? ", " : "", n->serial);
	if (n->firmware[0] && k < (int)sizeof(line))
		snprintf(line + k, sizeof(line) - (size_t)k, "%sfirmware %s", k ? ", " : "", n->firmware);
	if (line[0])
		fprintf(f, "  %s\n", line);

	if (n->rotational < 0)
		fprintf(f, "  rotational unknown");
	else
		fprintf(f, "  rotational %d", n->rotational);
	if (n->rotational_unreliable)
		fprintf(f, " (unreliable: virtual disk%s)", n->is_virtual ? "" : " below");
	else if (n->rpm == 1)
		fprintf(f, " (ATA: solid state)");
	else if (n->rpm > 1)
		fprintf(f, ", %d rpm", n->rpm);
	if (n->logical_block_size > 0)
		fprintf(f, ", %d/%d B sectors", n->logical_block_size, n->physical_block_size);
	if (n->write_cache[0]) {
		fprintf(f, ", write cache: %s", n->write_cache);
		if (strcmp(n->write_cache, "write back") == 0 && n->fua == 0)
			fprintf(f, " (no FUA: O_DSYNC sends FLUSH)");
		else if (n->fua == 1)
			fprintf(f, " (FUA)");
	}
	if (n->scheduler[0])
		fprintf(f, ", scheduler %s", n->scheduler);
	if (n->removable == 1 || n->hotplug == 1)
		fprintf(f, ", %s", n->removable == 1 ? "removable" : "hotplug");
	fputc('\n', f);
}

void devinfo_text(FILE *f, const struct devinfo *d)
{
	char kind[600], size[64], link[256];
	text_fs(f, d);
	if (d->note[0])
		fprintf(f, "  note: %s\n", d->note);
	if (!d->has_top) {
		if (!d->fs_class)
			fprintf(f, "device: none found\n");
		return;
	}
	const struct dev_node *t = &d->top;
	kind_text(kind, sizeof(kind), t);
	size_text(size, sizeof(size), t->size_bytes);
	fprintf(f, "device: %s [%s], %s, %s%s\n", t->name, t->majmin[0] ? t->majmin : "?", kind, size,
		t->is_virtual ? ", virtual" : "");
	text_node_details(f, t);
	link_text(link, sizeof(link), t);
	if (!kind_without_link(t->kind) || d->nstack == 1)
		fprintf(f, "  link: %s\n", link);
	if (d->nstack <= 1 && !d->truncated)
		return;

	/* the rest of the stack as a tree: "on" reads downwards, md0 on sda1 on sda */
	for (int i = 1; i < d->nstack; i++) {
		const struct dev_node *n = &d->stack[i];
		kind_text(kind, sizeof(kind), n);
		size_text(size, sizeof(size), n->size_bytes);
		fprintf(f, "%*son %s [%s], %s, %s", 2 * n->depth, "", n->name,
			n->majmin[0] ? n->majmin : "?", kind, size);
		if (n->duplicate) {
			fprintf(f, " (listed above)\n");
			continue;
		}
		if (n->model[0] && strcmp(n->kind, "part") != 0)
			fprintf(f, ", %s", n->model);
		if (n->is_virtual)
			fprintf(f, ", virtual");
		if (n->rpm > 1)
			fprintf(f, ", %d rpm", n->rpm);
		if (!has_child(d, i)) {
			link_text(link, sizeof(link), n);
			fprintf(f, ", link %s", link);
		}
		fputc('\n', f);
	}
	if (d->truncated)
		fprintf(f, "  (stack cut at %d nodes or depth %d)\n", DEVINFO_MAX_NODES, DEVINFO_MAX_DEPTH);
	double ceiling = devinfo_ceiling(d);
	fprintf(f, "leaves:");
	for (int i = 0; i < d->nleaves; i++)
		fprintf(f, "%s %s", i ? "," : "", d->stack[d->leaves[i]].name);
	if (ceiling > 0) {
		char rate[32];
		fmt_rate_si(rate, sizeof(rate), ceiling);
		fprintf(f, "; link ceiling %s%s\n", rate, d->nleaves > 1 ? " (sum)" : "");
	} else {
		fprintf(f, "; link ceiling unknown\n");
	}
}
