/* Device identity from sysfs only: no ioctl, no root, no external tool.
 * A path is resolved to its filesystem (fstatfs, /proc/self/mountinfo), then
 * to the block device under it and down `slaves/` to the physical disks,
 * each with its identity and the link it hangs on (SATA, USB, PCIe) and the
 * payload ceiling that link allows.
 * Every attribute is optional: a missing or unreadable file gives NULL / -1
 * (an empty string for the char arrays), never an error.  Roots are
 * parameters so that tests can use a fake tree. */
#ifndef DEVINFO_H
#define DEVINFO_H

#include <stdbool.h>
#include <stdint.h>
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
};

struct dev_node {
	char name[64];         /* "sda1", "dm-0", "nvme0n1" ('!' in sysfs names as '/') */
	char majmin[16];       /* "8:1"; "" unknown */
	const char *kind;      /* disk, part, dm, md, loop, zram, ram, nbd, pmem, rbd, rom, btrfs */
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
	char dm_name[64], dm_uuid_prefix[16] /* LVM, CRYPT, mpath, part */, md_level[16];
	int md_raid_disks;     /* -1 unknown */
	char backing_file[512]; /* loop */
	int loop_dio;          /* loop: 1 direct I/O to the backing file, -1 unknown */
	char parent_disk[64];  /* part: the whole disk it belongs to */
	bool in_ram;           /* zram, brd, or a loop over a file in tmpfs/ramfs */
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
	char st_dev[16];              /* "254:0"; "" for a block device */
	const char *fs_class;         /* NULL, "ram", "network" */
	char note[256];               /* how an anonymous device was resolved, or why not */
	struct dev_node top;          /* the device directly under the filesystem (or the block device given) */
	bool has_top;
	/* Every node walked from top down (top included), depth-first.  Children of a
	 * node: its slaves/, the whole disk of a partition, the device holding a
	 * loop's backing file, the members of a multi-device btrfs. */
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
/* A compact object: the top device summary + link, the leaves' links and the
 * total ceiling, for every test's "device" key. */
void devinfo_json_device(struct json *j, const struct devinfo *d);
/* A few human lines, readable at one glance. */
void devinfo_text(FILE *f, const struct devinfo *d);
/* Sum of the payload ceilings of the leaves (0 if any is unknown): what the link(s) can carry. */
double devinfo_ceiling(const struct devinfo *d);

#endif
