/* The sysfs walk down the stack: from the device under a filesystem (or a
 * block device given) through slaves/, the whole disk of a partition, the
 * device holding a loop's backing file and the members of a multi-device
 * filesystem, to the disks at the bottom.  Also the one RAM detector and
 * the one loop backing-file reader, which platform_linux.c calls. */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "platform.h"

/* ---- one node ------------------------------------------------------------- */

void node_init(struct dev_node *n)
{
	memset(n, 0, sizeof(*n));
	n->size_bytes = -1;
	n->rotational = n->rpm = -1;
	n->logical_block_size = n->physical_block_size = -1;
	n->fua = n->removable = n->hotplug = -1;
	n->md_raid_disks = n->loop_dio = -1;
	n->zone_size_bytes = n->nr_zones = n->max_open_zones = n->max_active_zones = -1;
	n->zone_capacity_bytes = n->conventional_zones = -1;
	n->link.width = n->link.max_width = -1;
	n->parent = -1;
}

/* Kinds whose data live in memory: brd, zram, persistent memory, null_blk. */
static bool kind_in_ram(const char *kind)
{
	return strcmp(kind, "ram") == 0 || strcmp(kind, "zram") == 0 || strcmp(kind, "pmem") == 0 ||
	       strcmp(kind, "null") == 0;
}

/* The one loop backing-file reader, from the loop device's sysfs dir. */
static int loop_backing_at(const char *dir, char *path, size_t len, int *dio)
{
	char buf[PATH_MAX];
	*dio = read_int(dir, "loop/dio");
	if (read_attr(dir, "loop/backing_file", buf, sizeof(buf)) != 0)
		return -1;
	scopy(path, len, buf);
	return 0;
}

static void dm_details(const char *dir, struct dev_node *n)
{
	char buf[PATH_MAX];
	if (read_attr(dir, "dm/name", buf, sizeof(buf)) == 0)
		SCOPY(n->dm_name, buf);
	if (read_attr(dir, "dm/uuid", buf, sizeof(buf)) == 0) {
		buf[strcspn(buf, "-")] = '\0';
		if (starts(buf, "part") && isdigit((unsigned char)buf[4]))
			buf[4] = '\0';
		SCOPY(n->dm_uuid_prefix, buf);
	}
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
	n->in_ram = kind_in_ram(n->kind);

	if (strcmp(n->kind, "dm") == 0) {
		dm_details(dir, n);
	} else if (strcmp(n->kind, "md") == 0) {
		if (read_attr(dir, "md/level", buf, sizeof(buf)) == 0)
			SCOPY(n->md_level, buf);
		n->md_raid_disks = read_int(dir, "md/raid_disks");
	} else if (strcmp(n->kind, "loop") == 0) {
		loop_backing_at(dir, n->backing_file, sizeof(n->backing_file), &n->loop_dio);
	}
	disk_details(c, disk, n);
}

/* ---- the stack ---------------------------------------------------------- */

static void walk(const struct ctx *c, struct devinfo *d, const char *dir, int parent, int depth);

/* A loop device's child: the device under its backing file, if any; a
 * backing file on no block device is in RAM if its filesystem is. */
static void walk_loop_backing(const struct ctx *c, struct devinfo *d, int idx, int depth)
{
	struct dev_node *n = &d->stack[idx];
	char file[sizeof(n->backing_file)], dir[PATH_MAX];
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
	if (sysfs_dev_dir(c, dev, dir) == 0)
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

/* A filesystem over several devices: one node over its members, those of
 * a btrfs in sysfs, else those its mount source names. */
static void walk_multi(const struct ctx *c, struct devinfo *d)
{
	struct dev_node *n = &d->stack[d->nstack++];
	char path[PATH_MAX], dir[PATH_MAX];
	dev_t dev;
	node_init(n);
	n->link.kind = "none";
	if (c->btrfs[0]) {
		n->kind = "btrfs";
		SCOPY(n->name, base_name(c->btrfs));
		SCOPY(n->sysfs_path, c->btrfs);
		walk_links(c, d, c->btrfs, "devices", 0, 0);
		return;
	}
	n->kind = c->multi_kind;
	for (const char *p = c->multi; p;) {
		p = mountinfo_next_source(p, path, sizeof(path));
		size_t k = strlen(n->name);
		/* "sdc1:sdc2", as bcachefs writes its source without the /dev/ */
		snprintf(n->name + k, sizeof(n->name) - k, "%s%s", k ? ":" : "", base_name(path));
		if (source_device(c, path, dir, &dev) == 0)
			walk(c, d, dir, 0, 1);
	}
}

bool has_child(const struct devinfo *d, int i)
{
	for (int k = i + 1; k < d->nstack; k++)
		if (d->stack[k].parent == i)
			return true;
	return false;
}

/* Every disk at the bottom holds its data in memory. */
static bool leaves_in_ram(const struct devinfo *d)
{
	for (int i = 0; i < d->nleaves; i++)
		if (!d->stack[d->leaves[i]].in_ram)
			return false;
	return d->nleaves > 0;
}

/* Leaves, flags that travel up from them, and the top. */
static void finish(struct devinfo *d)
{
	if (d->nstack == 0)
		return;
	for (int i = 0; i < d->nstack; i++) {
		if (d->stack[i].duplicate || has_child(d, i))
			continue;
		d->leaves[d->nleaves++] = i;
		if (!d->stack[i].rotational_unreliable)
			continue;
		/* a dm or md over virtual disks inherits their meaningless rotational */
		for (int p = d->stack[i].parent; p >= 0; p = d->stack[p].parent)
			d->stack[p].rotational_unreliable = true;
	}
	if (!d->fs_class && leaves_in_ram(d))
		d->fs_class = "ram";
	d->top = d->stack[0];
	d->has_top = true;
}

void walk_stack(struct ctx *c, struct devinfo *d, dev_t dev)
{
	char dir[PATH_MAX];
	if (c->btrfs[0] || c->multi[0]) {
		walk_multi(c, d);
	} else if (sysfs_dev_dir(c, dev, dir) == 0) {
		walk(c, d, dir, -1, 0);
	} else {
		note_add(d, "no sysfs entry for block device %u:%u", major(dev), minor(dev));
		return;
	}
	finish(d);
}

/* ---- for the platform layer ------------------------------------------------ */

int devinfo_blockdev_in_ram(unsigned maj, unsigned min, const struct devinfo_roots *roots,
			    char *name, size_t len)
{
	struct ctx c;
	struct devinfo *d = calloc(1, sizeof(*d));
	if (!d)
		return 0;
	ctx_init(&c, roots);
	walk_stack(&c, d, makedev(maj, min));
	int in_ram = leaves_in_ram(d);
	if (in_ram)
		scopy(name, len, d->top.name);
	free(d);
	return in_ram;
}

int devinfo_loop_backing(unsigned maj, unsigned min, const struct devinfo_roots *roots,
			 char *path, size_t len, int *dio)
{
	struct ctx c;
	char dir[PATH_MAX];
	ctx_init(&c, roots);
	*dio = -1;
	if (sysfs_dev_dir(&c, makedev(maj, min), dir) != 0)
		return -1;
	return loop_backing_at(dir, path, len, dio);
}

/* The device number of an open block device; false if fd is not one. */
static bool blockdev_number(int fd, unsigned *maj, unsigned *min)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode))
		return false;
	*maj = major(st.st_rdev);
	*min = minor(st.st_rdev);
	return true;
}

bool devinfo_fd_in_ram(int fd, char *name, size_t len)
{
	unsigned maj, min;
	return blockdev_number(fd, &maj, &min) &&
	       devinfo_blockdev_in_ram(maj, min, NULL, name, len) == 1;
}

int devinfo_fd_loop_backing(int fd, char *path, size_t len, bool *direct_io)
{
	unsigned maj, min;
	int dio;
	if (!blockdev_number(fd, &maj, &min)) {
		errno = ENOTBLK;
		return -1;
	}
	if (devinfo_loop_backing(maj, min, NULL, path, len, &dio) != 0) {
		errno = ENOENT;
		return -1;
	}
	*direct_io = dio == 1;
	return 0;
}
