/* The plain tests steady and sla run (cmd_runs_test lets these through),
 * as their command rows have them, without the command table: cmd.c's
 * table names steady and sla, so they cannot look back into it. */
#ifndef PLAIN_TEST_H
#define PLAIN_TEST_H

#include "diskbench.h"

struct plain_test {
	const char *name;
	enum io_dir dir;
	enum io_pattern pattern;
};

/* The row of randread, randwrite, seqread or seqwrite, or NULL. */
const struct plain_test *plain_test_of(const char *name);

#endif
