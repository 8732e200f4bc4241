#define _POSIX_C_SOURCE 200809L
#include "devinfo_cgroup.h"

#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devinfo_int.h"

const struct cgroup_roots *cgroup_default_roots(void)
{
	static const struct cgroup_roots roots = { "/proc/self/cgroup", "/proc/self/mountinfo" };
	return &roots;
}

/* Where this process sits in each hierarchy that can limit block I/O. */
struct cg_place {
	char v2[PATH_MAX];    /* "0::/path"; "" unknown */
	char blkio[PATH_MAX]; /* "N:...blkio...:/path" */
	char v2_mount[PATH_MAX], v2_root[PATH_MAX];
	char blkio_mount[PATH_MAX], blkio_root[PATH_MAX];
};

static bool has_word(const char *list, const char *word)
{
	size_t len = strlen(word);
	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, word, len) == 0 && (p[len] == ',' || p[len] == '\0'))
			return true;
	return false;
}

static void read_proc_cgroup(const char *path, struct cg_place *pl)
{
	char line[PATH_MAX + 128];
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		if (strcmp(line, "0") == 0 && c1[1] == '\0')
			SCOPY(pl->v2, c2 + 1);
		else if (has_word(c1 + 1, "blkio"))
			SCOPY(pl->blkio, c2 + 1);
	}
	fclose(f);
}

static void read_mounts(const char *path, struct cg_place *pl)
{
	char line[3 * PATH_MAX];
	struct mountinfo_entry e;
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (mountinfo_parse_line(line, &e) != 0)
			continue;
		if (strcmp(e.fs_type, "cgroup2") == 0 && !pl->v2_mount[0]) {
			SCOPY(pl->v2_mount, e.mount_point);
			SCOPY(pl->v2_root, e.root);
		} else if (strcmp(e.fs_type, "cgroup") == 0 && has_word(e.super_opts, "blkio") &&
			   !pl->blkio_mount[0]) {
			SCOPY(pl->blkio_mount, e.mount_point);
			SCOPY(pl->blkio_root, e.root);
		}
	}
	fclose(f);
}

/* The directory of group path in a hierarchy mounted at mount from root:
 * the part of the path below the mount's root, under the mount point. */
static bool group_dir(const char *mount, const char *root, const char *group, char out[PATH_MAX])
{
	size_t rl = strlen(root);
	if (strcmp(root, "/") != 0 && strncmp(group, root, rl) == 0 &&
	    (group[rl] == '/' || group[rl] == '\0'))
		group += rl;
	return pathf(out, "%s%s", mount, group);
}

static struct cgroup_limit *device_slot(struct cgroup_limits *out, const char *majmin)
{
	for (unsigned i = 0; i < out->n; i++)
		if (strcmp(out->dev[i].majmin, majmin) == 0)
			return &out->dev[i];
	if (out->n >= CGROUP_MAX_DEVICES)
		return NULL;
	struct cgroup_limit *l = &out->dev[out->n++];
	memset(l, 0, sizeof(*l));
	SCOPY(l->majmin, majmin);
	return l;
}

static bool wanted(const char *majmin, const char *const *majmins, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (majmins[i] && strcmp(majmins[i], majmin) == 0)
			return true;
	return false;
}

/* Keeps the lowest limit of each kind: the tightest one on the way up binds. */
static void lower(struct cgroup_limits *out, const char *majmin, enum cgroup_limit_kind k,
		  uint64_t v, int version)
{
	struct cgroup_limit *l = v ? device_slot(out, majmin) : NULL;
	if (l && (l->value[k] == 0 || v < l->value[k])) {
		l->value[k] = v;
		l->version = version;
	}
}

int cgroup_parse_iomax(const char *line, char *majmin, size_t len, uint64_t value[CG_NKINDS])
{
	static const char *const keys[CG_NKINDS] = { "rbps", "wbps", "riops", "wiops" };
	char dev[32], *end;
	int used = 0;
	if (sscanf(line, " %31s%n", dev, &used) != 1 || !strchr(dev, ':'))
		return -1;
	memset(value, 0, CG_NKINDS * sizeof(value[0]));
	scopy(majmin, len, dev);
	for (const char *p = line + used; *p;) {
		char word[64];
		int n = 0;
		if (sscanf(p, " %63s%n", word, &n) != 1)
			break;
		p += n;
		char *eq = strchr(word, '=');
		for (unsigned k = 0; eq && k < CG_NKINDS; k++)
			if ((size_t)(eq - word) == strlen(keys[k]) && strncmp(word, keys[k], eq - word) == 0)
				value[k] = strcmp(eq + 1, "max") == 0 ? 0 : strtoull(eq + 1, &end, 10);
	}
	return 0;
}

static void read_iomax(const char *dir, const char *const *majmins, unsigned n,
		       struct cgroup_limits *out)
{
	char path[PATH_MAX], line[256], mm[32];
	uint64_t v[CG_NKINDS];
	FILE *f = pathf(path, "%s/io.max", dir) ? fopen(path, "re") : NULL;
	while (f && fgets(line, sizeof(line), f))
		if (cgroup_parse_iomax(line, mm, sizeof(mm), v) == 0 && wanted(mm, majmins, n))
			for (unsigned k = 0; k < CG_NKINDS; k++)
				lower(out, mm, k, v[k], 2);
	if (f)
		fclose(f);
}

static void read_blkio(const char *dir, const char *const *majmins, unsigned n,
		       struct cgroup_limits *out)
{
	static const char *const files[CG_NKINDS] = {
		"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device",
		"blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device" };
	char path[PATH_MAX], line[256], mm[32];
	uint64_t v;
	for (unsigned k = 0; k < CG_NKINDS; k++) {
		FILE *f = pathf(path, "%s/%s", dir, files[k]) ? fopen(path, "re") : NULL;
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "%31s %" SCNu64, mm, &v) == 2 && wanted(mm, majmins, n))
				lower(out, mm, k, v, 1);
		if (f)
			fclose(f);
	}
}

/* Reads dir and each directory above it up to mount. */
static void walk_up(const char *mount, char dir[PATH_MAX], bool v2, const char *const *majmins,
		    unsigned n, struct cgroup_limits *out)
{
	size_t ml = strlen(mount);
	for (;;) {
		if (v2)
			read_iomax(dir, majmins, n, out);
		else
			read_blkio(dir, majmins, n, out);
		char *slash = strrchr(dir, '/');
		if (strlen(dir) <= ml || !slash || (size_t)(slash - dir) < ml)
			break;
		*slash = '\0';
	}
}

unsigned cgroup_io_limits(const struct cgroup_roots *roots, const char *const *majmins, unsigned n,
			  struct cgroup_limits *out)
{
	struct cg_place *pl = calloc(1, sizeof(*pl));
	char dir[PATH_MAX];
	memset(out, 0, sizeof(*out));
	if (!pl)
		return 0;
	read_proc_cgroup(roots->proc_cgroup, pl);
	read_mounts(roots->mountinfo, pl);
	if (pl->v2[0] && pl->v2_mount[0] && group_dir(pl->v2_mount, pl->v2_root, pl->v2, dir))
		walk_up(pl->v2_mount, dir, true, majmins, n, out);
	if (pl->blkio[0] && pl->blkio_mount[0] &&
	    group_dir(pl->blkio_mount, pl->blkio_root, pl->blkio, dir))
		walk_up(pl->blkio_mount, dir, false, majmins, n, out);
	free(pl);
	return out->n;
}
