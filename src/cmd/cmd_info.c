/* info: what the target is, from sysfs — filesystem, device stack, the
 * disks at the bottom and the links they hang on — and what those disks say
 * of their own health (ioctls; unavailable with the reason unprivileged). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "devinfo.h"
#include "run_health.h"
#include "runner.h"
#include "util.h"

/* A zoned disk given as the target: its zone capacity and conventional
 * zones, which only its zone report tells (unknown where it cannot be
 * opened, e.g. without the right to read it). */
static void zone_census(const char *path, struct devinfo *info)
{
	int64_t cap, conventional;
	if (!info->has_top || strcmp(info->path_type, "block device") != 0 ||
	    run_zone_census(path, &cap, &conventional) != 1)
		return;
	info->top.zone_capacity_bytes = cap;
	info->top.conventional_zones = conventional;
	for (int i = 0; i < info->nstack; i++)
		if (strcmp(info->stack[i].name, info->top.name) == 0) {
			info->stack[i].zone_capacity_bytes = cap;
			info->stack[i].conventional_zones = conventional;
		}
}

int cmd_run_info(const struct command *cmd, const struct options *opt, struct result *r)
{
	struct devinfo *info = result_keep(r, sizeof(*info), NULL);
	(void)cmd;
	if (!info)
		return fail(r, EXIT_RUN, "cannot allocate the device's description:");
	if (devinfo_probe(opt->target, devinfo_default_roots(), info) != 0)
		return fail(r, errno == ENOENT || errno == ENOTDIR ? EXIT_USAGE : EXIT_RUN,
			    "target '%s':", opt->target);
	zone_census(opt->target, info);
	r->device = info;
	run_health_before(r);
	run_health_check(r);
	r->measured = true;
	/* a file may be a disk too: the loop device over it, and what uses it */
	struct devinfo_file_use *use = result_keep(r, sizeof(*use), NULL);
	struct stat st;
	if (use && stat(opt->target, &st) == 0 && S_ISREG(st.st_mode) &&
	    devinfo_file_use((uint64_t)st.st_dev, (uint64_t)st.st_ino, devinfo_default_roots(),
			     NULL, use) == 1)
		r->detail = use;
	return EXIT_OK;
}
