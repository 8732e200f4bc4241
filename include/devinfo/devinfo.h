/* Device identity from sysfs only: no ioctl, no root, no external tool.
 * A path is resolved to its filesystem (fstatfs, /proc/self/mountinfo), then
 * to the block device under it and down `slaves/` to the physical disks,
 * each with its identity and the link it hangs on (SATA, USB, PCIe) and the
 * payload ceiling that link allows.
 * Every attribute is optional: a missing or unreadable file gives NULL / -1
 * (an empty string for the char arrays), never an error.  Roots are
 * parameters so that tests can use a fake tree.
 *
 * The platform boundary: devinfo_*.c hold every reader of /sys and of
 * /proc/self/mountinfo, each under a root parameter (struct devinfo_roots;
 * NULL means the real ones); platform_linux.c holds what acts on an open
 * descriptor (ioctls, statx, fstatfs, fadvise, mincore), the page-cache
 * knobs and the I/O buffers.  Its plat_blockdev_in_ram and plat_loop_backing
 * only turn a descriptor into a device number and ask devinfo.
 * The rooms inside devinfo are listed in devinfo_int.h. */
#ifndef DEVINFO_H
#define DEVINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#include "json.h"

struct devinfo_roots {
	const char *sysfs;     /* "/sys" */
	const char *mountinfo; /* "/proc/self/mountinfo" */
};

struct dev_link {
	const char *kind;      /* "sata", "usb", "pcie", "none" (no physical link of
				* its own: virtual disk, loop, dm, md, zram) or NULL */
	char speed[32];        /* "6.0 Gbps", "480 Mbit/s", "8.0 GT/s"; "" unknown */
	int width;             /* PCIe lanes; -1 unknown */
	double ceiling_bytes_per_sec; /* payload ceiling, 0 unknown */
	bool below_max;        /* running below what both ends support */
	char max_speed[32];    /* "" unknown */
	int max_width;         /* PCIe; -1 unknown */
	bool emulated;         /* a virtual disk's SATA or PCIe link: what the hypervisor
				* claims, not a wire; figures above its ceiling come
				* from the host's cache */
};

struct dev_node {
	char name[64];         /* "sda1", "dm-0", "nvme0n1" ('!' in sysfs names as '/') */
	char majmin[16];       /* "8:1"; "" unknown */
	const char *kind;      /* disk, part, dm, md, loop, zram, ram, nbd, pmem, rbd, rom, and over
				* the members of a multi-device filesystem: btrfs, bcachefs, multi */
	int64_t size_bytes;    /* -1 unknown */
	char vendor[64], model[128], serial[128], firmware[64];
	int rotational;        /* -1 unknown */
	int rpm;               /* -1 unknown, 1 = SSD per ATA, else rpm */
	bool rotational_unreliable; /* virtual disk (or stacked on one): rotational says nothing */
	int logical_block_size, physical_block_size; /* -1 unknown */
	char write_cache[24];  /* "write back", "write through" */
	int fua;               /* -1 unknown */
	char scheduler[32];    /* the active one */
	int removable;         /* -1 unknown */
	int hotplug;           /* first "removable" attribute up the device chain; -1 unknown */
	const char *transport; /* nvme sata sas ata usb virtio mmc scsi xen loop fc fcoe iscsi spi sbp … or NULL */
	bool is_virtual;       /* presented by a hypervisor */
	const char *virt_kind; /* which: "virtio-blk", "Xen blkfront", "Amazon EBS volume", …;
				* NULL for a physical disk */
	bool cloud_volume;     /* a cloud provider's network volume (EBS, Persistent Disk,
				* Azure remote disk) */
	char dm_name[64], dm_uuid_prefix[16] /* LVM, CRYPT, mpath, part */, md_level[16];
	int md_raid_disks;     /* -1 unknown */
	char backing_file[512]; /* loop */
	int loop_dio;          /* loop: 1 direct I/O to the backing file, -1 unknown */
	char parent_disk[64];  /* part: the whole disk it belongs to */
	bool in_ram;           /* zram, brd, pmem, or a loop over a file in tmpfs/ramfs */
	char zoned[16];        /* queue/zoned: "none", "host-aware", "host-managed"; "" unknown */
	int64_t zone_size_bytes; /* a zoned disk's zone (queue/chunk_sectors); -1 unknown or none */
	int64_t nr_zones;      /* queue/nr_zones of a zoned disk; -1 unknown or none */
	int64_t max_open_zones, max_active_zones; /* queue/max_open_zones, max_active_zones
						   * of a zoned disk: 0 no limit; -1 unknown */
	/* from the zone report (set by whoever can open the disk: info, a run):
	 * the least capacity of its sequential zones and how many conventional
	 * zones it has; -1 unknown */
	int64_t zone_capacity_bytes, conventional_zones;
	struct dev_link link;
	char sysfs_path[512];  /* realpath of the node's sysfs directory */
	/* Place in devinfo.stack (meaningless in devinfo.top): */
	int parent;            /* index of the node above, -1 for the top */
	int depth;             /* 0 for the top */
	bool duplicate;        /* already in the stack above: not walked again */
};

#define DEVINFO_MAX_NODES 32
#define DEVINFO_MAX_DEPTH 8

struct devinfo {
	char path[4096];              /* what was probed */
	const char *path_type;        /* "dir", "file", "block device", "device number", "other" */
	char fs_type[32];             /* from mountinfo, else from the magic; "" unknown */
	unsigned long fs_magic;       /* f_type of fstatfs; 0 unknown (block device) */
	char mount_point[512], mount_source[512];
	bool mount_hidden;            /* a dir or file whose filesystem is in no line of
				       * mountinfo: a chroot, or mountinfo unreadable */
	char st_dev[16];              /* "254:0"; "" for a block device */
	const char *fs_class;         /* NULL, "ram", "network" */
	char note[256];               /* how an anonymous device was resolved, or why not */
	struct dev_node top;          /* the device directly under the filesystem (or the block device given) */
	bool has_top;
	/* Every node walked from top down (top included), depth-first.  Children of a
	 * node: its slaves/, the whole disk of a partition, the device holding a
	 * loop's backing file, the members of a multi-device btrfs or of a mount
	 * source naming several devices ("/dev/sdc1:/dev/sdc2", bcachefs). */
	struct dev_node stack[DEVINFO_MAX_NODES];
	int nstack;
	int leaves[DEVINFO_MAX_NODES]; int nleaves;  /* indexes into stack: nodes with no children (the physical disks) */
	bool truncated;               /* DEVINFO_MAX_NODES or DEVINFO_MAX_DEPTH reached */
};

/* -1 + errno only if path cannot be stat'ed; every other gap is a NULL field. */
int devinfo_probe(const char *path, const struct devinfo_roots *roots, struct devinfo *out);
/* The same from a device number (as in st_dev), for callers that hold one. */
int devinfo_probe_devnum(unsigned maj, unsigned min, const struct devinfo_roots *roots,
			 struct devinfo *out);
const struct devinfo_roots *devinfo_default_roots(void);

/* Writes one object value {fs, device, stack, leaves, ceiling_bytes_per_sec};
 * the caller already wrote the key. */
void devinfo_json(struct json *j, const struct devinfo *d);
/* The same members without the braces, for an object the caller extends. */
void devinfo_json_members(struct json *j, const struct devinfo *d);
/* A compact object: the top device summary + link, the leaves' links and the
 * total ceiling, for every test's "device" key. */
void devinfo_json_device(struct json *j, const struct devinfo *d);
/* A few human lines, readable at one glance. */
void devinfo_text(FILE *f, const struct devinfo *d);
/* Sum of the payload ceilings of the leaves (0 if any is unknown): what the link(s) can carry. */
double devinfo_ceiling(const struct devinfo *d);

/* 1 if the data of block device maj:min live in memory (every disk at the
 * bottom of its stack is brd, zram, pmem, or a loop over a file in tmpfs or
 * ramfs), with the device's name in name[len]; 0 if not or unknown. */
int devinfo_blockdev_in_ram(unsigned maj, unsigned min, const struct devinfo_roots *roots,
			    char *name, size_t len);
/* The backing file of loop device maj:min (" (deleted)" as the kernel
 * writes it) and *dio 1/0 whether it does direct I/O to it (-1 unknown).
 * -1 if it is no loop device or has no backing file. */
int devinfo_loop_backing(unsigned maj, unsigned min, const struct devinfo_roots *roots,
			 char *path, size_t len, int *dio);
/* The same two for an open descriptor, under the real roots: the name of a
 * RAM-backed block device into name[len] (false if fd is none, or not in
 * RAM); a loop device's backing file and whether it does direct I/O (-1 with
 * errno ENOTBLK if fd is no block device, ENOENT if it has no backing). */
bool devinfo_fd_in_ram(int fd, char *name, size_t len);
int devinfo_fd_loop_backing(int fd, char *path, size_t len, bool *direct_io);

/* What sysfs says of a zoned block device's zones. */
struct devinfo_zoned {
	char model[16];          /* "host-managed", "host-aware"; "" unknown */
	int64_t max_open, max_active; /* 0 no limit, -1 unknown */
};

/* Whether the block device at path is zoned (queue/zoned "host-managed" or
 * "host-aware": ZNS namespaces, SMR drives, zoned null_blk, dm over them):
 * 1 with *z filled; 0 if not, or no sysfs to say; -1 with errno if path is
 * no block device. */
int devinfo_path_zoned(const char *path, const struct devinfo_roots *roots,
		       struct devinfo_zoned *z);

/* A mounted filesystem that uses a block device. */
struct devinfo_mounted {
	char device[64];        /* the member it uses: the device asked about or a partition of it */
	char mount_point[512];  /* "" if the mount is not visible from this root */
	char fs_type[32];
	char source[512];
};
/* Whether block device maj:min, or any partition of it, is a member of a
 * mounted filesystem: a line of mountinfo whose major:minor is one of them,
 * or whose source names one (each device of a colon-separated source, as
 * bcachefs writes "/dev/sdc1:/dev/sdc2"), or a mounted multi-device btrfs
 * holding one (sys/fs/btrfs/<uuid>/devices/, where the mount source names
 * only one member).  1 and *use filled (use may be NULL) if so; 0 if not;
 * -1 with errno if mountinfo cannot be read and no btrfs holds it. */
int devinfo_blockdev_mounted(unsigned maj, unsigned min, const struct devinfo_roots *roots,
			     struct devinfo_mounted *use);
/* The same for a path naming a block device (-1 and ENOTBLK if it is not one). */
int devinfo_path_mounted(const char *path, const struct devinfo_roots *roots,
			 struct devinfo_mounted *use);

/* A regular file in use as a block device. */
struct devinfo_file_use {
	char loop[64];          /* a loop device backed by it ("loop0"); "" none */
	bool mounted;           /* that loop device, or a partition of it, is mounted */
	struct devinfo_mounted mount;
	char holder[64];        /* a device built on it ("dm-0", "md0"); "" none */
	bool swap;              /* an active swap file */
	char loop_swap[64];     /* that loop device, or a partition of it, is active swap
				 * ("loop0", "loop0p1"); "" none */
	bool held;              /* the kernel holds that loop device exclusively (an
				 * O_EXCL open fails with EBUSY), whatever the reason */
};
/* What uses the regular file with st_dev dev and st_ino ino as a block
 * device: a loop device over it (preferring one that is in use), what uses
 * that loop device (a mount, a device built on it, swap on it or on a
 * partition of it, by name or device number in /proc/swaps, and under the
 * real roots an exclusive hold the kernel reports), and /proc/swaps (swaps:
 * NULL for the real one).  1 when something does (use filled), 0 when nothing does. */
int devinfo_file_use(uint64_t dev, uint64_t ino, const struct devinfo_roots *roots,
		     const char *swaps, struct devinfo_file_use *use);

/* Whether block device maj:min is held by something sysfs, mountinfo or
 * /proc/swaps (swaps: NULL for the real one) shows: a mount of it or of a
 * partition, a device built on it (its holders/ or a partition's), swap on
 * it or on a partition.  1 with what in who ("dm-0", "a mount", "loop0p1"),
 * 0 when none shows (an O_EXCL claim is then a program's, or a ring being
 * torn down), -1 when sysfs cannot be read. */
int devinfo_blockdev_claimed(unsigned maj, unsigned min, const struct devinfo_roots *roots,
			     const char *swaps, char *who, size_t len);

/* One line of /proc/self/mountinfo:
 *   36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 * The strings point into the line, which parsing cuts up; root, mount_point
 * and source are unescaped (\040 is a space). */
struct mountinfo_entry {
	const char *majmin;      /* "98:0" as written */
	const char *root, *mount_point, *mount_opts;
	const char *fs_type, *source;
	const char *super_opts;  /* "" if absent */
};
/* Parses one line (NUL-terminated, a trailing newline allowed) in place: no
 * allocation, no file, so that it can be fuzzed.  -1 if it is not a
 * mountinfo line (too few fields, no " - " separator). */
int mountinfo_parse_line(char *line, struct mountinfo_entry *e);
/* Decodes mountinfo's \ooo escapes (space, tab, newline, backslash) in place. */
void mountinfo_unescape(char *s);
/* Length of mount point `point` if it holds `path`, else 0 (longest wins). */
size_t mountinfo_prefix_len(const char *path, const char *point);
/* The next device of a mount source (devices separated by ':'), copied to
 * out[len]; returns where the one after starts, or NULL when there is none. */
const char *mountinfo_next_source(const char *p, char *out, size_t len);

#endif
