/* Device identity from sysfs: path → filesystem → block device → leaves.
 * This file holds the entry points; the small readers every room uses are in
 * devinfo_sysfs.c and the rooms are listed in devinfo_int.h.  Sources for each file read are in
 * ../shared/reference/sweep-info-quick-fleet.md §2 (util-linux lsblk and
 * lib/sysfs.c, smartmontools, the kernel's ABI docs). */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "platform.h"

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

/* The mount source is a block device: its number; for a btrfs, whether it
 * spans several devices. */
static dev_t source_is_device(struct ctx *c, struct devinfo *d, const char *type, bool btrfs,
			      const char *source, dev_t dev)
{
	char dir[PATH_MAX];
	note_add(d, "%s: device of its mount source %s", type, source);
	if (btrfs && sysfs_dev_dir(c, dev, dir) == 0 && btrfs_fs_of(c, base_name(dir), c->btrfs) < 2)
		c->btrfs[0] = '\0';
	if (c->btrfs[0])
		note_add(d, "btrfs spans several devices (%s)", base_name(c->btrfs));
	return dev;
}

/* A source that stat() does not show as a block device: several devices
 * ("/dev/sdc1:/dev/sdc2", bcachefs) under one node, or one found by its
 * name in sysfs (a root without /dev).  0 unless every device is found. */
static dev_t source_by_name(struct ctx *c, struct devinfo *d, const char *type, bool btrfs,
			    const char *source)
{
	char path[PATH_MAX], dir[PATH_MAX];
	dev_t first = 0, dev;
	int count = 0;
	for (const char *p = source; p; count++) {
		p = mountinfo_next_source(p, path, sizeof(path));
		if (source_device(c, path, dir, &dev) != 0)
			return 0;
		if (count == 0)
			first = dev;
	}
	if (count == 1)
		return source_is_device(c, d, type, btrfs, source, first);
	SCOPY(c->multi, source);
	c->multi_kind = strcmp(type, "bcachefs") == 0 ? "bcachefs" : "multi";
	note_add(d, "%s spans several devices (%s)", type, source);
	return first;
}

static void info_init(struct devinfo *d, const char *path)
{
	memset(d, 0, sizeof(*d));
	SCOPY(d->path, path);
	node_init(&d->top);
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
	if (find_mount(c, majmin, real, NULL, &m) != 0)
		note_add(d, "cannot read %s: %s", c->roots->mountinfo, strerror(errno));
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
		/* in a chroot, a bind of the same device elsewhere (/usr) names
		 * the filesystem but is not the mount of path */
		SCOPY(d->mount_point, m.holds_path ? m.point : "");
		SCOPY(d->mount_source, m.source);
		d->mount_hidden = !m.holds_path;
	}
	if (class) {
		d->fs_class = class;
		if (depth > 0)
			note_add(d, "upper directory on %s", type);
		return 0;
	}
	if (major(st.st_dev) != 0)
		return st.st_dev;
	/* btrfs, bcachefs, fuseblk (ntfs-3g, exfat-fuse): the mount source is the device */
	bool btrfs = strcmp(type, "btrfs") == 0 || magic == 0x9123683E;
	struct stat src;
	if (m.source[0] == '/' && stat(m.source, &src) == 0 && S_ISBLK(src.st_mode))
		return source_is_device(c, d, type, btrfs, m.source, src.st_rdev);
	dev_t named = m.source[0] ? source_by_name(c, d, type, btrfs, m.source) : 0;
	if (named)
		return named;
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
			mountinfo_unescape(upper);
			note_add(d, "overlay: device of its upper directory %s", upper);
			return fs_device(c, d, upper, depth + 1);
		}
		note_add(d, "overlay without an upper directory");
		return 0;
	}
	note_add(d, "%s on anonymous device %s: no block device", type, majmin);
	return 0;
}

/* Where a block device is mounted (the first mount that uses it, or the
 * multi-device btrfs holding it), for the fs fields. */
static void mount_of_device(struct ctx *c, struct devinfo *d, dev_t dev)
{
	struct devinfo_mounted use;
	struct devset *set = calloc(1, sizeof(*set));
	char dir[PATH_MAX];
	if (!set)
		return;
	devset_add(set, dev, sysfs_dev_dir(c, dev, dir) == 0 ? base_name(dir) : "");
	int rc = set_mounted(c, set, &use);
	if (rc < 0)
		note_add(d, "cannot read %s: %s", c->roots->mountinfo, strerror(errno));
	if (rc > 0 && use.mount_point[0]) {
		SCOPY(d->fs_type, use.fs_type);
		SCOPY(d->mount_point, use.mount_point);
		SCOPY(d->mount_source, use.source);
	}
	free(set);
}

static int probe_blockdev(const char *name, const char *path_type, dev_t dev,
			  const struct devinfo_roots *roots, struct devinfo *out)
{
	struct ctx c;
	info_init(out, name);
	ctx_init(&c, roots);
	out->path_type = path_type;
	mount_of_device(&c, out, dev);
	walk_stack(&c, out, dev);
	return 0;
}

int devinfo_probe(const char *path, const struct devinfo_roots *roots, struct devinfo *out)
{
	struct stat st;
	struct ctx c;
	if (stat(path, &st) != 0)
		return -1;
	if (S_ISBLK(st.st_mode))
		return probe_blockdev(path, "block device", st.st_rdev, roots, out);
	info_init(out, path);
	ctx_init(&c, roots);
	out->path_type = S_ISDIR(st.st_mode) ? "dir" : S_ISREG(st.st_mode) ? "file" : "other";
	dev_t dev = fs_device(&c, out, path, 0);
	if (major(dev) != 0)
		walk_stack(&c, out, dev);
	return 0;
}

int devinfo_probe_devnum(unsigned maj, unsigned min, const struct devinfo_roots *roots,
			 struct devinfo *out)
{
	char name[32];
	snprintf(name, sizeof(name), "%u:%u", maj, min);
	return probe_blockdev(name, "device number", makedev(maj, min), roots, out);
}
