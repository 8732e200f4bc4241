/* diskbench files: bonnie++'s "Sequential Create / Random Create", honestly.
 * N files (split among threads, each thread in its own subdirectory, at most
 * FILES_PER_DIR entries in any directory) are created, stat'ed, read (when
 * not empty) and deleted, in creation order and then in random order; each
 * phase gives files/s and the latency of its operation.
 *
 * The pure parts (the name tree, the shuffle, the bookkeeping of phases and
 * of their repeats) are in files.c; the timed passes in files_run.c, which
 * never prints. */
#ifndef FILES_H
#define FILES_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diskbench.h"

struct rng;

#define FILES_DEFAULT_COUNT OPT_DEFAULT_FILES
#define FILES_MAX_COUNT OPT_MAX_FILES
#define FILES_PER_DIR 1024u
/* 7 digits of the index and 5 letters from its hash, as bonnie++'s names */
#define FILES_NAME_LEN 12
/* round (seq-N), thread (tNNNN), leaf (dNNNN), name */
#define FILES_PATH_LEN 48
/* a phase under this many seconds in all is too short to time well */
#define FILES_SHORT_S 0.2

enum files_order { FILES_SEQ, FILES_RAND, FILES_NORDERS };
enum files_op { FILES_CREATE, FILES_STAT, FILES_READ, FILES_DELETE, FILES_NOPS };
#define FILES_NPHASES (FILES_NORDERS * FILES_NOPS)

/* ---- the name tree ---- */
/* Files of thread `thread` among `threads` sharing n: n / threads, the
 * first n % threads threads one more. */
uint32_t files_share(uint64_t n, unsigned threads, unsigned thread);
/* Leaf directories a thread's share needs (FILES_PER_DIR files each). */
unsigned files_leaves(uint32_t share);
/* The leaf directory holding a thread's file number index. */
unsigned files_leaf_of(uint32_t index);
/* The name of a thread's file number index inside its leaf: 7 digits and 5
 * lowercase letters, FILES_NAME_LEN characters and a NUL in buf. */
void files_name(uint32_t index, char buf[FILES_NAME_LEN + 1]);
/* "seq-0/t0003/d0012/0012345abcde" relative to the working directory. */
void files_rel_path(char *buf, size_t len, enum files_order order, unsigned round,
		    unsigned thread, uint32_t index);
/* "seq-0" or "rand-3": a round's directory. */
void files_round_dir(char *buf, size_t len, enum files_order order, unsigned round);

/* ---- orders ---- */
/* perm = 0, 1, ..., n - 1. */
void files_identity(uint32_t *perm, uint32_t n);
/* A uniform shuffle (Fisher-Yates) of perm. */
void files_shuffle(uint32_t *perm, uint32_t n, struct rng *rng);

/* ---- phases ---- */
struct files_phase {
	bool planned;           /* read phases only when the files hold data */
	uint64_t files;         /* operations done, over all passes and threads */
	uint64_t bytes;         /* written (create) or read (read) */
	double seconds;         /* sum of the passes' wall times, start gate to last thread */
	double repeat_s;        /* wall time spent on repeats (passes after the first) */
	double last_cost_s;     /* wall time of the last pass with its set-up (create and
				 * delete: of the last round), what one more would cost */
	unsigned passes;
	double resident_before_pct; /* read phases: file data cached before the first pass; < 0 unknown */
	struct stats lat;       /* latency of each operation, all threads */
};

/* Everything a run of files measured: result.detail of the command. */
struct files_result {
	struct files_phase phase[FILES_NPHASES];
	uint64_t n;             /* files per pass */
	unsigned threads;
	uint64_t file_size, bs;
	bool fsync;             /* each file fsync'd, its directory at the end of a phase */
	enum drop_mode drop;
	double min_phase_s, repeat_cap_s;
	char dir[4096];         /* the working directory */
	const char *dir_state;  /* "new" (mkdtemp), "created" (--dir), "existing" (--dir, empty) */
	int drop_all_errno;     /* --drop-caches=all failed with this; 0: it worked or was not asked */
	int evict_errno;        /* a file or directory could not be evicted; 0: none */
	/* why a run failed: the operation, the path under dir and errno */
	const char *failed_op;
	char failed_path[FILES_PATH_LEN + 16];
	int failed_errno;
	bool stopped;           /* the stop flag was raised */
};

int files_phase_index(enum files_order order, enum files_op op);
/* "seq-create", ... (text, CSV as files-seq-create); "seq_create" (JSON keys). */
const char *files_phase_name(int phase);
const char *files_phase_key(int phase);
/* "create", "stat", "read", "delete". */
const char *files_op_name(enum files_op op);
/* Plans the phases: every one, reads only when file_size > 0. */
void files_plan(struct files_result *fr);
/* Adds one pass of a phase (its latencies, files, bytes and wall time). */
void files_phase_add(struct files_phase *p, const struct stats *lat, uint64_t files,
		     uint64_t bytes, double seconds);
double files_phase_rate(const struct files_phase *p);
/* Whether a phase should run once more: measured under min_s in all, and
 * one more pass (costing what the last did) keeps its repeats within cap_s
 * (min_s 0: never). */
bool files_phase_wants_more(const struct files_phase *p, double min_s, double cap_s);
/* Whether a phase is too short to time well, for the warning: under
 * FILES_SHORT_S in all. */
bool files_phase_short(const struct files_phase *p);

/* ---- the run (files_run.c) ---- */
struct files_config {
	uint64_t n;
	unsigned threads;
	uint64_t file_size, bs;
	bool fsync, zeros, keep;
	enum drop_mode drop;
	uint64_t seed;
	double min_phase_s, repeat_cap_s;
	int root_fd;                      /* the working directory */
	volatile sig_atomic_t *stop;      /* raised by a signal: stop between files */
	/* called before each pass, for the progress line */
	void (*on_pass)(void *ctx, int phase, unsigned pass);
	void *ctx;
};

/* Runs every planned phase of fr (files_plan first).  Returns 0, or -1 with
 * fr->failed_* set (or fr->stopped when the stop flag was raised). */
int files_run(const struct files_config *cfg, struct files_result *fr);

#endif
