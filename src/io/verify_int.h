/* What verify.c and verify_region.c share, and nothing else includes: a
 * verified run's state (verify.h). */
#ifndef VERIFY_INT_H
#define VERIFY_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "diskbench.h"

struct verify {
	uint64_t region, bs, nblocks, run_id;
	_Atomic uint32_t *map;     /* per block: the generation of its last write, and
				    * the top bit while a write of it is in flight */
	bool backlog;
	unsigned backlog_n;        /* the plan's: 0, each lane's own batch */
	int read_fd;               /* backlog's, or -1 */
	int witness_fd;            /* -1: no witness */
	bool witness_each;
	int witness_err;           /* the witness's first write error; it stopped there */
	uint64_t witness_lines;
	pthread_mutex_t lock;      /* the witness's lines, the lanes' tallies merged */
	struct result_verify tally;
};

#endif
