/* A set of block devices (by number and by kernel name), and which of them
 * a mountinfo line uses: what find_mount matches mounts against, apart from
 * the membership rules of devinfo_member.c that build the sets. */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

bool devset_add(struct devset *s, dev_t dev, const char *name)
{
	if (s->n >= (int)(sizeof(s->m) / sizeof(s->m[0])))
		return false;
	s->m[s->n].dev = dev;
	SCOPY(s->m[s->n].name, name);
	s->n++;
	return true;
}

/* Index of the member that the device path `path` (one device of a mount
 * source) is: the same device number, or for a path under /dev the same
 * kernel name (what the path resolves to: /dev/mapper/x is dm-N). */
static int devset_find_path(const struct devset *s, const char *path)
{
	struct stat st;
	char real[PATH_MAX];
	bool blk = path[0] == '/' && stat(path, &st) == 0 && S_ISBLK(st.st_mode);
	const char *name = NULL;
	if (starts(path, "/dev/"))
		name = base_name(realpath(path, real) ? real : path);
	for (int i = 0; i < s->n; i++) {
		if (blk && s->m[i].dev != 0 && st.st_rdev == s->m[i].dev)
			return i;
		if (name && s->m[i].name[0] && strcmp(name, s->m[i].name) == 0)
			return i;
	}
	return -1;
}

int devset_used_by(const struct devset *s, const struct mountinfo_entry *e)
{
	char majmin[24], path[PATH_MAX];
	for (int i = 0; i < s->n; i++) {
		snprintf(majmin, sizeof(majmin), "%u:%u", major(s->m[i].dev), minor(s->m[i].dev));
		if (s->m[i].dev != 0 && strcmp(e->majmin, majmin) == 0)
			return i;
	}
	for (const char *p = e->source; p;) {
		p = mountinfo_next_source(p, path, sizeof(path));
		int i = devset_find_path(s, path);
		if (i >= 0)
			return i;
	}
	return -1;
}
