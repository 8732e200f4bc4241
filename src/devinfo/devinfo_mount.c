/* /proc/self/mountinfo: the search for the mount of a path or of a device,
 * reading the file the roots name; the line parser is devinfo_mountinfo.c. */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
