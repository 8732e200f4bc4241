/* What kind of block device a sysfs directory is (disk, part, dm, md, loop,
 * zram, ...), and which kinds have no physical link of their own: asked by
 * the stack walk and by the link readers alike, so a leaf of the room. */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <stddef.h>
#include <string.h>

const char *node_kind(const char *dir, const char *name, bool part)
{
	if (part)
		return "part";
	if (exists(dir, "dm"))
		return "dm";
	if (exists(dir, "md"))
		return "md";
	if (exists(dir, "loop") || starts(name, "loop"))
		return "loop";
	static const char *const prefixes[][2] = {
		{ "zram", "zram" }, { "ram", "ram" }, { "nbd", "nbd" }, { "pmem", "pmem" },
		{ "rbd", "rbd" }, { "sr", "rom" }, { "dm-", "dm" }, { "md", "md" },
	};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts(name, prefixes[i][0]))
			return prefixes[i][1];
	return "disk";
}

bool kind_without_link(const char *kind)
{
	static const char *const kinds[] = {
		"dm", "md", "loop", "zram", "ram", "nbd", "rbd", "pmem", "btrfs", "bcachefs", "multi",
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kind, kinds[i]) == 0)
			return true;
	return false;
}
