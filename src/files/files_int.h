/* files: what the timed passes (files_run.c) and the set-up between them
 * (files_tree.c: directories, eviction) share.  Internal to the two. */
#ifndef FILES_INT_H
#define FILES_INT_H

#include <pthread.h>

#include "files.h"
#include "rng.h"

struct worker {
	struct pass_ctl *ctl;
	unsigned id;
	uint32_t share;
	unsigned nleaves;
	int *leaf_fd;         /* this round's leaf directories, open */
	uint32_t *order;      /* file numbers in the order of this pass */
	unsigned char *buf;   /* one block of data: min(-b, --file-size) bytes */
	size_t block;
	struct rng rng;       /* shuffles */
	struct stats lat;     /* this pass */
	uint64_t done, bytes, end_ns;
	int error;
	const char *failed_op;
	uint32_t failed_index;
	pthread_t thread;
};

/* What the coordinator and the workers share. */
struct pass_ctl {
	const struct files_config *cfg;
	struct files_result *fr;
	pthread_barrier_t gate, finish;
	/* the launch: workers wait for 1 (all started) or -1 (give up) */
	pthread_mutex_t launch_lock;
	pthread_cond_t launch_cond;
	int launch;
	enum files_op op;
	bool quit;
	struct worker *w;
	enum files_order order;
	unsigned round;
};

/* Records in fr why the run failed (op, path under the working directory,
 * errno); returns -1. */
int files_fail_at(struct pass_ctl *ctl, const char *op, const char *path);
/* The round's directories (ctl->order, ctl->round): one per thread, its
 * leaves open in the workers' leaf_fd.  Returns 0 or -1 (files_fail_at). */
int files_make_round(struct pass_ctl *ctl);
void files_close_leaves(struct pass_ctl *ctl);
/* Closes the leaves and, unless --keep, removes the round's directories. */
int files_remove_round(struct pass_ctl *ctl);
/* Before a stat or read pass: --drop-caches' eviction. */
void files_evict(struct pass_ctl *ctl);
/* Percentage of the files' data in the page cache (a sample), or -1. */
double files_resident_pct(struct pass_ctl *ctl);

#endif
