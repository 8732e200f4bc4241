/* /proc/self/mountinfo: a pure parser of one line (fuzzed on its own), and
 * the search for the mount of a path or of a device, reading the file the
 * roots name.  proc(5) gives the format:
 *   36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 *   (1)(2) (3)   (4)   (5)         (6)       (7)    (8) (9)    (10)      (11)
 * with zero or more optional fields (7) ended by the single "-" (8). */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MOUNTINFO_MAX_FIELDS 64

/* ---- the pure parser ------------------------------------------------------ */

void mountinfo_unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

size_t mountinfo_prefix_len(const char *path, const char *point)
{
	size_t n = strlen(point);
	if (strcmp(point, "/") == 0)
		return path[0] == '/' ? 1 : 0;
	if (strncmp(path, point, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		return n;
	return 0;
}

int mountinfo_parse_line(char *line, struct mountinfo_entry *e)
{
	char *field[MOUNTINFO_MAX_FIELDS], *save = NULL;
	int n = 0;
	for (char *t = strtok_r(line, " \n", &save); t && n < MOUNTINFO_MAX_FIELDS;
	     t = strtok_r(NULL, " \n", &save))
		field[n++] = t;
	int dash = -1;
	for (int i = 6; i < n && dash < 0; i++)
		if (strcmp(field[i], "-") == 0)
			dash = i;
	if (dash < 0 || dash + 2 >= n)
		return -1;
	mountinfo_unescape(field[3]);
	mountinfo_unescape(field[4]);
	mountinfo_unescape(field[dash + 2]);
	e->majmin = field[2];
	e->root = field[3];
	e->mount_point = field[4];
	e->mount_opts = field[5];
	e->fs_type = field[dash + 1];
	e->source = field[dash + 2];
	e->super_opts = dash + 3 < n ? field[dash + 3] : "";
	return 0;
}

const char *mountinfo_next_source(const char *p, char *out, size_t len)
{
	size_t n = strcspn(p, ":");
	size_t k = n < len ? n : len - 1;
	memcpy(out, p, k);
	out[k] = '\0';
	return p[n] == ':' ? p + n + 1 : NULL;
}

/* ---- finding a mount -------------------------------------------------------- */

/* How well a line fits: 3 device and path, 2 device only, 1 path only, 0 not. */
static int mount_rank(const struct mountinfo_entry *e, const char *majmin,
		      const char *real, const struct devset *set, size_t *len, bool *dev, int *member)
{
	*member = set ? devset_used_by(set, e) : -1;
	*dev = (majmin && strcmp(e->majmin, majmin) == 0) || *member >= 0;
	*len = real ? mountinfo_prefix_len(real, e->mount_point) : 0;
	return *dev ? (*len > 0 ? 3 : 2) : (*len > 0 ? 1 : 0);
}

/* Several matches (bind mounts): the longest mount point holding `real`,
 * the later one on a tie; on the device alone, the first (it names the
 * filesystem, but not where `real` is: holds_path false).  No match on the
 * device (btrfs subvolumes have their own st_dev): the longest mount point
 * holding `real`. */
int find_mount(const struct ctx *c, const char *majmin, const char *real, const struct devset *set,
	       struct mount *best)
{
	memset(best, 0, sizeof(*best));
	best->member = -1;
	FILE *f = fopen(c->roots->mountinfo, "r");
	if (!f)
		return -1;
	char *line = NULL;
	size_t cap = 0, best_len = 0;
	int best_rank = 0;
	while (getline(&line, &cap, f) > 0) {
		struct mountinfo_entry e;
		size_t len;
		bool dev;
		int member;
		if (mountinfo_parse_line(line, &e) != 0)
			continue;
		int rank = mount_rank(&e, majmin, real, set, &len, &dev, &member);
		if (rank == 0 || rank < best_rank || (rank == best_rank && (rank == 2 || len < best_len)))
			continue;
		best_rank = rank;
		best_len = len;
		best->found = true;
		best->by_device = dev;
		best->holds_path = len > 0;
		best->member = member;
		SCOPY(best->type, e.fs_type);
		SCOPY(best->point, e.mount_point);
		SCOPY(best->source, e.source);
		SCOPY(best->opts, e.super_opts);
	}
	free(line);
	fclose(f);
	return 0;
}
