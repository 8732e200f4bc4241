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

/* The worst case, said on stderr before anything is written (not with -q):
 * "diskbench: CMD TEST: at most EACH = 7.5 s", then `then` (or nothing). */
void plain_test_say_worst_case(const char *cmd, const struct plain_test *test,
			       const struct options *opt, const char *each, double worst_s,
			       const char *then);

#endif
