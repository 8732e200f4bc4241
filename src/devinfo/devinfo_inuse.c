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

/* Loop device dir (sys/block/loopN) backs the file: fill use, true when in use. */
static bool loop_use(const struct devinfo_roots *roots, const char *dir, struct devinfo_file_use *use)
{
	unsigned maj, min;
	char majmin[16];
	scopy(use->loop, sizeof(use->loop), base_name(dir));
	if (read_attr(dir, "dev", majmin, sizeof(majmin)) != 0 ||
	    sscanf(majmin, "%u:%u", &maj, &min) != 2)
		return false;
	use->mounted = devinfo_blockdev_mounted(maj, min, roots, &use->mount) == 1;
	if (!use->mounted)
		first_holder(dir, use->holder, sizeof(use->holder));
	return use->mounted || use->holder[0];
}

/* Without sysfs (a chroot that mounts none): each /dev/loopN asked for its
 * backing file, and its mount found by its number in mountinfo. */
static int find_loops_in_dev(const struct devinfo_roots *roots, uint64_t dev, uint64_t ino,
			     struct devinfo_file_use *use)
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
	}
	if (d)
		closedir(d);
	return found;
}

static int find_loops(const struct devinfo_roots *roots, uint64_t dev, uint64_t ino,
		      struct devinfo_file_use *use)
{
	struct ctx c;
	char blocks[PATH_MAX], dir[PATH_MAX], backing[PATH_MAX];
	ctx_init(&c, roots);
	DIR *d = pathf(blocks, "%s/block", c.sys) ? opendir(blocks) : NULL;
	if (!d)
		return find_loops_in_dev(roots, dev, ino, use);
	struct dirent *e;
	struct devinfo_file_use first = { 0 };
	bool any = false, busy = false;
	while (!busy && (e = readdir(d)) != NULL) {
		if (!starts(e->d_name, "loop") || !pathf(dir, "%s/%s", blocks, e->d_name) ||
		    read_attr(dir, "loop/backing_file", backing, sizeof(backing)) != 0 ||
		    !(same_file(backing, dev, ino) || loop_backs(roots, e->d_name, dev, ino)))
			continue;
		struct devinfo_file_use this = { 0 };
		busy = loop_use(roots, dir, &this);
		if (busy || !any)
			first = this;
		any = true;
	}
	closedir(d);
	scopy(use->loop, sizeof(use->loop), first.loop);
	use->mounted = first.mounted;
	use->mount = first.mount;
	scopy(use->holder, sizeof(use->holder), first.holder);
	return any;
}

/* /proc/swaps: "Filename Type Size Used Priority", paths with \040 for a space. */
static bool in_swaps(const char *swaps, uint64_t dev, uint64_t ino)
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
		found = same_file(name, dev, ino);
	}
	if (f)
		fclose(f);
	return found;
}

int devinfo_file_use(uint64_t dev, uint64_t ino, const struct devinfo_roots *roots,
		     const char *swaps, struct devinfo_file_use *use)
{
	memset(use, 0, sizeof(*use));
	use->swap = in_swaps(swaps, dev, ino);
	int loops = find_loops(roots, dev, ino, use);
	return use->swap || loops;
}
