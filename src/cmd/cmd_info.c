/* info: what the target is, from sysfs alone — filesystem, device stack,
 * the disks at the bottom and the links they hang on. */
#include <errno.h>

#include "cmd.h"
#include "devinfo.h"
#include "util.h"

int cmd_run_info(const struct command *cmd, const struct options *opt, struct result *r)
{
	static struct devinfo info;
	(void)cmd;
	if (devinfo_probe(opt->target, devinfo_default_roots(), &info) != 0)
		return fail(r, errno == ENOENT || errno == ENOTDIR ? EXIT_USAGE : EXIT_RUN,
			    "target '%s':", opt->target);
	r->device = &info;
	r->measured = true;
	return EXIT_OK;
}
