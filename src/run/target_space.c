/* What a target's file system can take: a test file on a RAM file system
 * within its share of memory, and on any file system within its free space
 * less the 5 % that must stay free. */
#define _POSIX_C_SOURCE 200809L
#include "target.h"

#include <string.h>
#include <unistd.h>

#include "devinfo_host.h"
#include "units.h"
#include "util.h"

static bool never_swapped(const char *fs_type)
{
	return strcmp(fs_type, "ramfs") == 0 || strcmp(fs_type, "hugetlbfs") == 0;
}

uint64_t target_ram_limit(const char *fs_type, uint64_t mem_available, bool force)
{
	if (force && !never_swapped(fs_type))
		return mem_available / 4 * 3;
	return mem_available / 2;
}

/* MemAvailable, else (no /proc in a chroot) the free pages sysinfo(2)
 * counts, which leave out the reclaimable cache: the smaller figure. */
static int memory_available(uint64_t *bytes)
{
	if (devinfo_mem_available(NULL, bytes) == 0)
		return 0;
	long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || page <= 0)
		return -1;
	*bytes = (uint64_t)pages * (uint64_t)page;
	return 0;
}

int target_check_memory(const struct target *t, uint64_t bytes, struct result *r)
{
	uint64_t avail;
	if (!t->fs_known || !t->fs.in_ram || t->no_data) /* nop: nothing will be written */
		return EXIT_OK;
	if (memory_available(&avail) != 0)
		return fail(r, EXIT_REFUSED, "'%s' is on %s, in RAM, and how much memory is free "
			    "cannot be read (/proc/meminfo):", t->path, t->fs.type);
	uint64_t limit = target_ram_limit(t->fs.type, avail, t->force);
	if (bytes <= limit)
		return EXIT_OK;
	char need[32], have[32], most[32];
	fmt_bytes_iec(need, sizeof(need), bytes);
	fmt_bytes_iec(have, sizeof(have), avail);
	fmt_bytes_iec(most, sizeof(most), limit);
	bool pinned = never_swapped(t->fs.type);
	/* --force is worth naming only where three quarters would hold it */
	bool forcible = !pinned && !t->force && bytes <= target_ram_limit(t->fs.type, avail, true);
	return fail(r, EXIT_REFUSED, "'%s' is on %s: its data live in RAM%s; %s would take more "
		    "than the %s allowed (%s of memory is available, MemAvailable); use a smaller size "
		    "or a target on a disk%s", t->path, t->fs.type,
		    pinned ? ", never swapped out" : "", need, most, have,
		    forcible ? opt_hint(r->opt, OPT_FORCE, ", or --force to allow three quarters of "
					"what is available") : "");
}

int target_check_space(const struct target *t, uint64_t bytes, struct result *r)
{
	int code = target_check_memory(t, bytes, r);
	if (code != EXIT_OK)
		return code;
	if (!t->fs_known || t->fs.total_bytes == 0 || t->no_data)
		return EXIT_OK; /* ramfs reports no size at all: the memory is the limit */
	uint64_t reserve = t->fs.total_bytes / 20;
	if (t->fs.avail_bytes >= reserve && t->fs.avail_bytes - reserve >= bytes)
		return EXIT_OK;
	char need[32], avail[32];
	fmt_bytes_iec(need, sizeof(need), bytes);
	fmt_bytes_iec(avail, sizeof(avail), t->fs.avail_bytes);
	return fail(r, EXIT_RUN, "not enough free space for '%s': %s needed, %s available, "
		    "and 5 %% of the filesystem must stay free; use a smaller -s", t->path, need, avail);
}

