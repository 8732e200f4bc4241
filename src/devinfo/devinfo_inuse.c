/* Regular files in use as block devices: the backing file of a loop device
 * (and what uses that device: a mount, a device built on it) and active
 * swap files.  The kernel names a loop's backing file by path in sysfs, so
 * each path is stat'ed and matched on device and inode; a path seen from
 * another mount namespace or a chroot names nothing here, so the loop
 * device itself is then asked for its file's device and inode (root: an
 * unprivileged caller cannot open it, and may miss such a file). */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "platform.h"

static bool same_file(const char *path, uint64_t dev, uint64_t ino)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_dev == dev &&
	       (uint64_t)st.st_ino == ino;
}

/* Loop device name backs the file dev:ino, by the device's own word: only
 * under the real roots, where /dev/NAME is the device sysfs describes. */
static bool loop_backs(const struct devinfo_roots *roots, const char *name, uint64_t dev,
		       uint64_t ino)
{
	char path[PATH_MAX];
	unsigned maj, min;
	uint64_t file_ino;
	if (roots && roots != devinfo_default_roots())
		return false;
	return pathf(path, "/dev/%s", name) &&
	       plat_loop_backing_id(path, &maj, &min, &file_ino) == 0 && file_ino == ino &&
	       makedev(maj, min) == (dev_t)dev;
}

/* The first device in dir/holders (dm-0, md0), or in a partition's. */
static bool first_holder(const char *dir, char *out, size_t len)
{
	char sub[PATH_MAX];
	DIR *d = pathf(sub, "%s/holders", dir) ? opendir(sub) : NULL;
	struct dirent *e;
	bool found = false;
	while (d && !found && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.') {
			scopy(out, len, e->d_name);
			found = true;
		}
	if (d)
		closedir(d);
	d = found ? NULL : opendir(dir);
	while (d && !found && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && pathf(sub, "%s/%s", dir, e->d_name) && exists(sub, "partition"))
			found = first_holder(sub, out, len);
	if (d)
		closedir(d);
	return found;
}

/* The names in /proc/swaps, unescaped (\040 is a space), one by one: fn
 * gets each and stops the walk by returning true. */
static bool swaps_any(const char *swaps, bool (*fn)(const char *name, const void *arg),
		      const void *arg)
{
	FILE *f = fopen(swaps ? swaps : "/proc/swaps", "re");
	char line[PATH_MAX + 64], name[PATH_MAX];
	bool found = false;
	while (f && !found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/')
			continue;
		char *w = name;
		for (const char *p = name; *p; p++) {
			unsigned oct;
			if (p[0] == '\\' && sscanf(p + 1, "%3o", &oct) == 1 && oct < 256) {
				*w++ = (char)oct;
				p += 3;
			} else {
				*w++ = *p;
			}
		}
		*w = '\0';
		found = fn(name, arg);
	}
	if (f)
		fclose(f);
	return found;
}

struct swap_dev {
	const char *name; /* "loop0", "loop0p1" */
	dev_t rdev;
};

/* A swap area on a block device is listed by its node's path (/dev/loop0):
 * matched by the node's device number, or by its name where the node is not
 * there to stat (another root). */
static bool swap_is_device(const char *path, const void *arg)
{
	const struct swap_dev *d = arg;
	struct stat st;
	if (stat(path, &st) == 0)
		return S_ISBLK(st.st_mode) && st.st_rdev == d->rdev;
	return strcmp(base_name(path), d->name) == 0;
}

static bool swap_is_file(const char *path, const void *arg)
{
	const uint64_t *id = arg; /* dev, ino */
	return same_file(path, id[0], id[1]);
}

/* Whether sysfs dir (a loop device or a partition of it) is active swap. */
static bool dir_in_swaps(const char *dir, const char *swaps)
{
	unsigned maj, min;
	char majmin[16];
	if (read_attr(dir, "dev", majmin, sizeof(majmin)) != 0 ||
	    sscanf(majmin, "%u:%u", &maj, &min) != 2)
		return false;
	struct swap_dev d = { base_name(dir), makedev(maj, min) };
	return swaps_any(swaps, swap_is_device, &d);
}

/* The loop device of dir, or one of its partitions, that is active swap. */
static bool loop_swap(const char *dir, const char *swaps, char *out, size_t len)
{
	char sub[PATH_MAX];
	struct dirent *e;
	bool found = dir_in_swaps(dir, swaps);
	if (found)
		scopy(out, len, base_name(dir));
	DIR *d = found ? NULL : opendir(dir);
	while (d && !found && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && pathf(sub, "%s/%s", dir, e->d_name) &&
		    exists(sub, "partition") && dir_in_swaps(sub, swaps)) {
			scopy(out, len, e->d_name);
			found = true;
		}
	if (d)
		closedir(d);
	return found;
}

/* Loop device dir (sys/block/loopN) backs the file: fill use, true when in
 * use.  Swap on the loop claims it as a mount would, but appears in no
 * mountinfo and as no holder; what else the kernel holds shows only as
 * EBUSY to an exclusive open (root; real roots only). */
static bool loop_use(const struct devinfo_roots *roots, const char *dir, const char *swaps,
		     struct devinfo_file_use *use)
{
	unsigned maj, min;
	char majmin[16], dev[PATH_MAX];
	scopy(use->loop, sizeof(use->loop), base_name(dir));
	if (read_attr(dir, "dev", majmin, sizeof(majmin)) != 0 ||
	    sscanf(majmin, "%u:%u", &maj, &min) != 2)
		return false;
	use->mounted = devinfo_blockdev_mounted(maj, min, roots, &use->mount) == 1;
	if (!use->mounted)
		first_holder(dir, use->holder, sizeof(use->holder));
	if (!use->mounted && !use->holder[0])
		loop_swap(dir, swaps, use->loop_swap, sizeof(use->loop_swap));
	if (!use->mounted && !use->holder[0] && !use->loop_swap[0] &&
	    (!roots || roots == devinfo_default_roots()) && pathf(dev, "/dev/%s", use->loop))
		use->held = plat_blockdev_held(dev) == 1;
	return use->mounted || use->holder[0] || use->loop_swap[0] || use->held;
}

/* Without sysfs (a chroot that mounts none): each /dev/loopN asked for its
 * backing file, and its mount found by its number in mountinfo. */
static int find_loops_in_dev(const struct devinfo_roots *roots, const char *swaps, uint64_t dev,
			     uint64_t ino, struct devinfo_file_use *use)
{
	if (roots && roots != devinfo_default_roots())
		return 0;
	DIR *d = opendir("/dev");
	struct dirent *e;
	int found = 0;
	char path[PATH_MAX];
	struct stat st;
	while (d && !found && (e = readdir(d)) != NULL) {
		if (!starts(e->d_name, "loop") || !isdigit((unsigned char)e->d_name[4]) ||
		    !loop_backs(roots, e->d_name, dev, ino) || !pathf(path, "/dev/%s", e->d_name) ||
		    stat(path, &st) != 0 || !S_ISBLK(st.st_mode))
			continue;
		found = 1;
		scopy(use->loop, sizeof(use->loop), e->d_name);
		use->mounted = devinfo_blockdev_mounted(major(st.st_rdev), minor(st.st_rdev), roots,
							&use->mount) == 1;
		/* with no sysfs the member has no kernel name: the loop is it */
		if (use->mounted && !use->mount.device[0])
			scopy(use->mount.device, sizeof(use->mount.device), e->d_name);
		struct swap_dev sd = { e->d_name, st.st_rdev };
		if (!use->mounted && swaps_any(swaps, swap_is_device, &sd))
			scopy(use->loop_swap, sizeof(use->loop_swap), e->d_name);
		else if (!use->mounted)
			use->held = plat_blockdev_held(path) == 1;
	}
	if (d)
		closedir(d);
	return found;
}

static int find_loops(const struct devinfo_roots *roots, const char *swaps, uint64_t dev,
		      uint64_t ino, struct devinfo_file_use *use)
{
	struct ctx c;
	char blocks[PATH_MAX], dir[PATH_MAX], backing[PATH_MAX];
	ctx_init(&c, roots);
	DIR *d = pathf(blocks, "%s/block", c.sys) ? opendir(blocks) : NULL;
	if (!d)
		return find_loops_in_dev(roots, swaps, dev, ino, use);
	struct dirent *e;
	struct devinfo_file_use first = { 0 };
	bool any = false, busy = false;
	while (!busy && (e = readdir(d)) != NULL) {
		if (!starts(e->d_name, "loop") || !pathf(dir, "%s/%s", blocks, e->d_name) ||
		    read_attr(dir, "loop/backing_file", backing, sizeof(backing)) != 0 ||
		    !(same_file(backing, dev, ino) || loop_backs(roots, e->d_name, dev, ino)))
			continue;
		struct devinfo_file_use this = { 0 };
		busy = loop_use(roots, dir, swaps, &this);
		if (busy || !any)
			first = this;
		any = true;
	}
	closedir(d);
	scopy(use->loop, sizeof(use->loop), first.loop);
	use->mounted = first.mounted;
	use->mount = first.mount;
	scopy(use->holder, sizeof(use->holder), first.holder);
	scopy(use->loop_swap, sizeof(use->loop_swap), first.loop_swap);
	use->held = first.held;
	return any;
}

int devinfo_file_use(uint64_t dev, uint64_t ino, const struct devinfo_roots *roots,
		     const char *swaps, struct devinfo_file_use *use)
{
	memset(use, 0, sizeof(*use));
	const uint64_t id[2] = { dev, ino };
	use->swap = swaps_any(swaps, swap_is_file, id); /* "Filename Type Size Used Priority" */
	int loops = find_loops(roots, swaps, dev, ino, use);
	return use->swap || loops;
}

int devinfo_blockdev_claimed(unsigned maj, unsigned min, const struct devinfo_roots *roots,
			     const char *swaps, char *who, size_t len)
{
	struct ctx c;
	char link[PATH_MAX], dir[PATH_MAX];
	ctx_init(&c, roots);
	who[0] = '\0';
	if (devinfo_blockdev_mounted(maj, min, roots, NULL) == 1) {
		scopy(who, len, "a mount");
		return 1;
	}
	/* the device's own directory (its name is swap's), not the dev/block link */
	if (!pathf(link, "%s/dev/block/%u:%u", c.sys, maj, min) || !realpath(link, dir) ||
	    !exists(dir, "dev"))
		return -1; /* no sysfs to ask */
	if (first_holder(dir, who, len) || loop_swap(dir, swaps, who, len))
		return 1;
	return 0;
}
