/* The plain tests steady and sla run (cmd_runs_test lets these through),
 * as their command rows have them, without the command table: cmd.c's
 * table names steady and sla, so they cannot look back into it. */
#ifndef PLAIN_TEST_H
#define PLAIN_TEST_H

#include <stdbool.h>

#include "diskbench.h"
#include "target.h"

struct plain_test {
	const char *name;
	enum io_dir dir;
	enum io_pattern pattern;
};

/* The row of randread, randwrite, seqread or seqwrite, or NULL. */
const struct plain_test *plain_test_of(const char *name);

/* steady's and sla's steps on t before anything is measured: the region
 * planned, O_DIRECT and the data to read checked, a created file laid out
 * (reads, random writes) or its space checked.  preconditioned: the
 * region is written first (steady --precondition), so it is a write test
 * and needs no data of its own. */
int plain_test_prepare(const struct plain_test *test, struct target *t,
		       const struct options *opt, bool preconditioned, struct result *r);

/* Refuses (exit 2) a read test with --no-direct: steady's rounds and sla's
 * steps run by time over one region, so each would read what the parts
 * before it, or its own first pass, left in the page cache, a cache's
 * figure for the disk's (issue 39).  Evicting before each part would
 * leave a part's own re-reads cached; one cold pass through the cache is
 * buffered's.  cmd names the command, parts its parts ("rounds"). */
int plain_test_refuse_cached(const char *cmd, const char *parts,
			      const struct plain_test *test, const struct options *opt,
			      struct result *r);

/* The worst case, said on stderr before anything is written (not with -q):
 * "diskbench: CMD TEST: at most EACH = 7.5 s", then `then` (or nothing). */
void plain_test_say_worst_case(const char *cmd, const struct plain_test *test,
			       const struct options *opt, const char *each, double worst_s,
			       const char *then);

#endif
