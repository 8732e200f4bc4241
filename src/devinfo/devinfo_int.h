/* What the devinfo rooms share, and nothing else includes.
 *   devinfo.c         entry points: path -> filesystem -> device; the small readers below
 *   devinfo_mount.c   mountinfo: the pure line parser, finding the mount of a path or device
 *   devinfo_member.c  which block devices a mount uses (multi-device sources, btrfs members)
 *   devinfo_walk.c    the sysfs walk down the stack; the RAM detector; the loop backing file
 *   devinfo_ident.c   what a whole disk is: queue, identity (ATA IDENTIFY, SCSI VPD, NVMe), transport
 *   devinfo_link.c    the link a disk hangs on (SATA, USB, PCIe) and its payload ceiling
 *   devinfo_render.c  text and JSON
 *   devinfo_cgroup.c  the block I/O limits of this process's cgroups (io.max, blkio.throttle)
 *   devinfo_inuse.c   regular files in use as block devices: loop backing files, swap files
 *   devinfo_host.c    the machine around the disks: cpu0's frequency governor and the drives' hwmon sensors
 * Every reader takes its roots (struct ctx) from the caller: no room opens
 * "/sys" or "/proc" by name. */
#ifndef DEVINFO_INT_H
#define DEVINFO_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "devinfo.h"

struct ctx {
	const struct devinfo_roots *roots;
	char sys[PATH_MAX];       /* realpath of the sysfs root */
	char btrfs[PATH_MAX];     /* sys/fs/btrfs/<uuid> of a multi-device btrfs */
	char multi[512];          /* a mount source naming several devices, "/dev/sdc1:/dev/sdc2" */
	const char *multi_kind;   /* the node kind over them: "bcachefs", "multi" */
};

/* ---- devinfo.c: small readers and string helpers ------------------------- */

void ctx_init(struct ctx *c, const struct devinfo_roots *roots);
/* Copies src into dst[len], cutting it if need be. */
void scopy(char *dst, size_t len, const char *src);
#define SCOPY(dst, src) scopy((dst), sizeof(dst), (src))
char *trim(char *s);
bool join(char *out, size_t len, const char *dir, const char *rel);
/* Formats a path into out[PATH_MAX]; false if it did not fit. */
bool pathf(char out[PATH_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool exists(const char *dir, const char *rel);
bool is_dir(const char *path);
/* The first line of dir/rel, trimmed; -1 if missing, unreadable or empty. */
int read_attr(const char *dir, const char *rel, char *buf, size_t len);
int read_i64(const char *dir, const char *rel, int64_t *out);
/* A non-negative int attribute, or -1. */
int read_int(const char *dir, const char *rel);
/* realpath of dir/rel into out[PATH_MAX]. */
int resolve(const char *dir, const char *rel, char *out);
const char *base_name(const char *path);
bool starts(const char *s, const char *prefix);
/* Appends one clause to d->note, "; " between clauses. */
void note_add(struct devinfo *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* realpath of sys/dev/block/MAJ:MIN into dir[PATH_MAX]; -1 if there is none. */
int sysfs_dev_dir(const struct ctx *c, dev_t dev, char *dir);

/* ---- devinfo_mount.c ------------------------------------------------------ */

struct devset;

struct mount {
	bool found;
	bool by_device;         /* matched on the device (else only on the path) */
	bool holds_path;        /* its mount point holds the path (else another mount
				 * of the same device: a bind seen from a chroot) */
	int member;             /* index in the devset of the device it uses, -1 */
	char type[32], point[512], source[512], opts[1024];
};

/* The mount of the filesystem with device majmin that holds `real` (a
 * realpath), or with real NULL the first mount that uses a device of `set`.
 * -1 with errno if the mountinfo file cannot be read (best->found false). */
int find_mount(const struct ctx *c, const char *majmin, const char *real, const struct devset *set,
	       struct mount *best);

/* ---- devinfo_member.c ----------------------------------------------------- */

/* Block devices, by number and by kernel name (either may be unknown). */
struct devset {
	int n;
	struct devset_member {
		dev_t dev;            /* 0 unknown */
		char name[64];        /* "sdc1"; "" unknown */
	} m[257];                     /* a disk and at most 256 partitions (DISK_MAX_PARTS) */
};

/* Adds a device; false if the set is full. */
bool devset_add(struct devset *s, dev_t dev, const char *name);
/* Index in s of a member a mount uses: its major:minor, or one device of
 * its source; -1 if none. */
int devset_used_by(const struct devset *s, const struct mountinfo_entry *e);
/* The mount that uses a member of s (or a mounted btrfs holding one), as
 * devinfo_blockdev_mounted says. */
int set_mounted(const struct ctx *c, const struct devset *s, struct devinfo_mounted *use);
/* The sysfs directory and number of one device path of a mount source:
 * by its device number, else (a fake root, a chroot without /dev) by the
 * kernel name its path ends in. */
int source_device(const struct ctx *c, const char *path, char dir[PATH_MAX], dev_t *dev);
/* The sys/fs/btrfs/<uuid> directory whose devices/ holds `name`, in out;
 * returns how many members it has, 0 if none holds name. */
int btrfs_fs_of(const struct ctx *c, const char *name, char out[PATH_MAX]);

/* ---- devinfo_walk.c ------------------------------------------------------- */

void node_init(struct dev_node *n);
const char *node_kind(const char *dir, const char *name, bool part);
/* Kinds with no physical link of their own: their leaves carry the data. */
bool kind_without_link(const char *kind);
bool has_child(const struct devinfo *d, int i);
/* The whole stack under block device dev (or under c->btrfs / c->multi), leaves and top. */
void walk_stack(struct ctx *c, struct devinfo *d, dev_t dev);

/* ---- devinfo_ident.c ------------------------------------------------------ */

/* What belongs to the whole disk: queue, identity, transport, link. */
void disk_details(const struct ctx *c, const char *disk, struct dev_node *n);

/* ---- devinfo_link.c ------------------------------------------------------- */

/* The PCI function of an NVMe namespace disk, into out[PATH_MAX]. */
int nvme_pci_dir(const char *disk, char *out);
/* The USB device a disk at devpath hangs from (the directory holding
 * idVendor, up from the SCSI device), in p; false when none is. */
bool usb_device_dir(const struct ctx *c, const char *devpath, char p[PATH_MAX]);
/* SATA link from sys/class/ata_link/linkN: speed, limit, ceiling; dev_max_gbps
 * is what the device's IDENTIFY says it supports (0 unknown). */
void sata_link(const char *linkdir, const char *transport, double dev_max_gbps, struct dev_link *lk);
/* The link of a disk that is not on libata: none (virtual, or a kind without
 * its own link), USB (devpath: its SCSI device), or PCIe (pci: the NVMe's
 * PCI function, or NULL). */
void disk_link(const struct ctx *c, const char *disk, const char *devpath, const char *pci,
	       struct dev_node *n);

#endif
