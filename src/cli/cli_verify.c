/* --verify[=backlog] and --witness FILE (issue 42): their values, and what
 * they cannot go with. */
#define _POSIX_C_SOURCE 200809L
#include "cli_int.h"

#include <string.h>

int cli_apply_verify(struct options *o, enum opt_id id, const char *v, char *why, size_t len)
{
	if (id == ID_WITNESS) {
		if (v[0] == '\0')
			return usage_error(why, len, "--witness needs a file name (or - for stdout)");
		o->witness = v;
		return EXIT_OK;
	}
	if (!v || strcmp(v, "after") == 0)
		o->verify = VERIFY_AFTER;
	else if (strcmp(v, "backlog") == 0)
		o->verify = VERIFY_BACKLOG;
	else
		return usage_error(why, len, "--verify '%s': use --verify (after the writes) or "
				   "--verify=backlog (as each thread goes)", v);
	return EXIT_OK;
}

int cli_check_verify(const struct options *o, char *why, size_t len)
{
	/* a write test, not the verify command; job checks its file's verify= itself */
	bool writes = (o->accepts & OPT_VERIFY) && !(o->accepts & OPT_JOB);
	if (writes && o->witness && o->verify == VERIFY_OFF)
		return usage_error(why, len, "--witness goes with --verify: its lines name the "
				   "generations the blocks' headers carry");
	if (o->verify != VERIFY_OFF && o->engine && strcmp(o->engine, "nop") == 0)
		return usage_error(why, len, "--verify reads back what was written, and --engine=nop "
				   "writes nothing");
	return EXIT_OK;
}
