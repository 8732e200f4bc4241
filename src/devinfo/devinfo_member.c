/* Which block devices a mount uses: its major:minor, every device its
 * source names ("/dev/sdc1:/dev/sdc2" for bcachefs), and for a btrfs the
 * members listed in sysfs (its source names only the one it was mounted
 * by).  So `info` finds the mount of any member, and a write to a member or
 * to a disk holding one can be refused. */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* The device number in dir/dev ("8:33"). */
static int dev_attr(const char *dir, dev_t *dev)
{
	char buf[32];
	unsigned maj, min;
	if (read_attr(dir, "dev", buf, sizeof(buf)) != 0 || sscanf(buf, "%u:%u", &maj, &min) != 2)
		return -1;
	*dev = makedev(maj, min);
	return 0;
}

int source_device(const struct ctx *c, const char *path, char dir[PATH_MAX], dev_t *dev)
{
	struct stat st;
	char real[PATH_MAX], link[PATH_MAX];
	if (path[0] == '/' && stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
	    sysfs_dev_dir(c, st.st_rdev, dir) == 0) {
		*dev = st.st_rdev;
		return 0;
	}
	if (!starts(path, "/dev/"))
		return -1;
	const char *name = base_name(realpath(path, real) ? real : path);
	if (!name[0] || !pathf(link, "%s/class/block/%s", c->sys, name) || !realpath(link, dir))
		return -1;
	return dev_attr(dir, dev);
}

/* How many entries dir/sub holds (not . and ..); with `name`, -1 unless one of them is it. */
static int count_entries(const char *dir, const char *sub, const char *name)
{
	char path[PATH_MAX];
	if (!join(path, sizeof(path), dir, sub))
		return -1;
	DIR *dd = opendir(path);
	if (!dd)
		return -1;
	int count = 0;
	bool found = false;
	struct dirent *e;
	while ((e = readdir(dd)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		count++;
		found = found || (name && strcmp(e->d_name, name) == 0);
	}
	closedir(dd);
	return name && !found ? -1 : count;
}

int btrfs_fs_of(const struct ctx *c, const char *name, char out[PATH_MAX])
{
	char fsdir[PATH_MAX];
	out[0] = '\0';
	if (!name[0] || !pathf(fsdir, "%s/fs/btrfs", c->sys))
		return 0;
	DIR *fs = opendir(fsdir);
	if (!fs)
		return 0;
	int members = 0;
	struct dirent *e;
	while (members <= 0 && (e = readdir(fs)) != NULL) {
		if (e->d_name[0] == '.' || !join(out, PATH_MAX, fsdir, e->d_name))
			continue;
		members = count_entries(out, "devices", name);
	}
	closedir(fs);
	if (members <= 0) {
		out[0] = '\0';
		return 0;
	}
	return members;
}

/* The members of the btrfs in fsdir (sys/fs/btrfs/<uuid>), into s. */
static void btrfs_devset(const char *fsdir, struct devset *s)
{
	char devs[PATH_MAX], dir[PATH_MAX];
	if (!join(devs, sizeof(devs), fsdir, "devices"))
		return;
	DIR *dd = opendir(devs);
	if (!dd)
		return;
	struct dirent *e;
	while ((e = readdir(dd)) != NULL) {
		dev_t dev = 0;
		if (e->d_name[0] == '.')
			continue;
		if (resolve(devs, e->d_name, dir) == 0)
			dev_attr(dir, &dev);
		if (!devset_add(s, dev, e->d_name))
			break;
	}
	closedir(dd);
}

static void use_fill(struct devinfo_mounted *use, const char *device, const struct mount *m)
{
	if (!use)
		return;
	SCOPY(use->device, device);
	SCOPY(use->mount_point, m->point);
	SCOPY(use->fs_type, m->type);
	SCOPY(use->source, m->source);
}

/* A member of s inside a mounted btrfs (sysfs lists a btrfs only while it
 * is mounted): its mount, found through any of the btrfs's members. */
static int btrfs_mounted(const struct ctx *c, const struct devset *s, struct devinfo_mounted *use)
{
	char fsdir[PATH_MAX];
	for (int i = 0; i < s->n; i++) {
		if (btrfs_fs_of(c, s->m[i].name, fsdir) == 0)
			continue;
		struct devset *members = calloc(1, sizeof(*members));
		struct mount m;
		if (members) {
			btrfs_devset(fsdir, members);
			find_mount(c, NULL, NULL, members, &m);
			free(members);
		}
		if (!members || !m.found) {
			memset(&m, 0, sizeof(m));
			SCOPY(m.type, "btrfs");
		}
		use_fill(use, s->m[i].name, &m);
		return 1;
	}
	return 0;
}

int set_mounted(const struct ctx *c, const struct devset *s, struct devinfo_mounted *use)
{
	struct mount m;
	int rc = find_mount(c, NULL, NULL, s, &m);
	int saved = errno;
	if (m.found) {
		use_fill(use, s->m[m.member].name, &m);
		return 1;
	}
	if (btrfs_mounted(c, s, use))
		return 1;
	errno = saved;
	return rc < 0 ? -1 : 0;
}

/* The device in sysfs dir and its partitions (subdirectories with a `partition` file). */
static void disk_and_partitions(const char *dir, dev_t dev, struct devset *s)
{
	devset_add(s, dev, base_name(dir));
	DIR *dd = opendir(dir);
	if (!dd)
		return;
	struct dirent *e;
	char sub[PATH_MAX];
	while ((e = readdir(dd)) != NULL) {
		dev_t part;
		if (e->d_name[0] == '.' || !join(sub, sizeof(sub), dir, e->d_name) ||
		    !exists(sub, "partition") || dev_attr(sub, &part) != 0)
			continue;
		if (!devset_add(s, part, e->d_name))
			break;
	}
	closedir(dd);
}

int devinfo_blockdev_mounted(unsigned maj, unsigned min, const struct devinfo_roots *roots,
			     struct devinfo_mounted *use)
{
	struct ctx c;
	char dir[PATH_MAX];
	struct devset *s = calloc(1, sizeof(*s));
	if (!s)
		return -1;
	ctx_init(&c, roots);
	dev_t dev = makedev(maj, min);
	if (sysfs_dev_dir(&c, dev, dir) == 0)
		disk_and_partitions(dir, dev, s);
	else
		devset_add(s, dev, "");
	if (use)
		memset(use, 0, sizeof(*use));
	int rc = set_mounted(&c, s, use);
	int saved = errno;
	free(s);
	errno = saved;
	return rc;
}

int devinfo_path_mounted(const char *path, const struct devinfo_roots *roots,
			 struct devinfo_mounted *use)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return -1;
	if (!S_ISBLK(st.st_mode)) {
		errno = ENOTBLK;
		return -1;
	}
	return devinfo_blockdev_mounted(major(st.st_rdev), minor(st.st_rdev), roots, use);
}
