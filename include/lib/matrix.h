/* The block size x file size matrix (iozone's auto mode), kept pure for
 * tests: the operations, the parsers of --block-sizes, --file-sizes and
 * --ops, the grid's shape, the order cells run in, and how --budget is
 * split between file sizes and cells. */
#ifndef MATRIX_H
#define MATRIX_H

#include <stdbool.h>
#include <stdint.h>

#include "diskbench.h"
#include "stats.h"

#define MATRIX_MAX_SIZES OPT_MAX_MATRIX_SIZES
#define MATRIX_MAX_BLOCK (256ull << 20) /* -b's limit too */

/* iozone's -i 0 (write, rewrite), -i 1 (read, reread), -i 2 (random read,
 * random write), in its order, which is also the order of the tables. */
enum matrix_op {
	MATRIX_WRITE,
	MATRIX_REWRITE,
	MATRIX_READ,
	MATRIX_REREAD,
	MATRIX_RANDREAD,
	MATRIX_RANDWRITE,
	MATRIX_NOPS
};
#define MATRIX_ALL_OPS ((1u << MATRIX_NOPS) - 1)

/* The shortest time a cell may be given; a cell that would get less is
 * skipped and says why.  Below it run_measure calls a run too short. */
#define MATRIX_MIN_CELL_S 0.2

const char *matrix_op_name(enum matrix_op op);
/* What the op does to the file, for the text header and the man page. */
const char *matrix_op_what(enum matrix_op op);
bool matrix_op_writes(enum matrix_op op);
bool matrix_op_random(enum matrix_op op);
/* read and randread start from an evicted cache; reread follows read
 * without eviction; writes need none. */
bool matrix_op_evicts(enum matrix_op op);

/* Fills the axes the user left out (a count of 0) with iozone-like
 * defaults: blocks 4 KiB to 16 MiB by powers of 4, files 64 MiB to 1 GiB by
 * powers of 4, every operation. */
void matrix_default_axes(struct matrix_axes *ax);

/* A list "4k,64k,1M" (any order; sorted, duplicates refused) or a range
 * "LOW-HIGH" (LOW, LOW x 4, ... up to HIGH, which must be LOW times a power
 * of 4) or "LOW-HIGH:F" (steps of F, 2 to 1024).  Sizes as -s takes them,
 * each at most max (MATRIX_MAX_BLOCK for block sizes). */
int matrix_parse_sizes(const char *text, uint64_t max, uint64_t *sizes, unsigned *n,
		       const char **why);
/* "write,read,randread": a bit per op (1u << MATRIX_*); reread needs read,
 * since it is read's second pass. */
int matrix_parse_ops(const char *text, unsigned *ops, const char **why);

/* A cell exists where the block fits in the file (iozone skips the rest). */
bool matrix_pair_valid(const struct matrix_axes *ax, unsigned file, unsigned block);
unsigned matrix_nops(const struct matrix_axes *ax);
/* Cells of one file size: ops x the block sizes that fit it. */
unsigned matrix_row_cells(const struct matrix_axes *ax, unsigned file);
unsigned matrix_total_cells(const struct matrix_axes *ax);

/* One cell to run: an op at a block size (an index into the axes). */
struct matrix_step {
	enum matrix_op op;
	unsigned block;
};
#define MATRIX_MAX_STEPS (MATRIX_NOPS * MATRIX_MAX_SIZES)
/* The order the cells of one file size run in, returned in steps (as many as
 * matrix_row_cells): for each block size, rewrite, read, reread, randread,
 * randwrite, which all need the laid-out data intact; then write at each
 * block size, last, because it truncates the file to measure writes into
 * new blocks as iozone's write of a new file does. */
unsigned matrix_row_order(const struct matrix_axes *ax, unsigned file, struct matrix_step *steps);
/* Whether the file must hold data before its cells: any op but write. */
bool matrix_needs_layout(unsigned ops);

/* What the budget's split knows of the costs: measured as the run goes
 * (0 until known). */
struct matrix_costs {
	double min_cell_s;        /* the least time a cell may be given */
	double overhead_s;        /* per cell, outside its timed loop: eviction,
				   * threads, warm-up, the last I/O's drain */
	double layout_s_per_byte; /* laying out a file, when the ops need data */
};
/* How many file sizes of [first, end) the budget can hold, each cell at
 * min_cell_s + overhead_s, each file laid out at the rate known: the largest
 * go first.  0 when not even the first fits. */
unsigned matrix_rows_within(const struct matrix_axes *ax, unsigned first, unsigned end,
			    double budget_s, const struct matrix_costs *k);
/* The time file size row gets out of left_s while rows [row, end) remain:
 * its layout's estimate, plus what the layouts leave in proportion to its
 * share of the cells. */
double matrix_row_share(const struct matrix_axes *ax, unsigned row, unsigned end, double left_s,
			const struct matrix_costs *k);
/* The time limit of the next cell: what is left of its file size's share,
 * spread over the cells still to run there, less the overhead of each; 0
 * when that is below min_cell_s (the cell is then skipped). */
double matrix_cell_time(double row_left_s, unsigned cells_left, const struct matrix_costs *k);

/* ---- what a run measured ---- */

enum matrix_cell_state { CELL_ABSENT, CELL_PLANNED, CELL_MEASURED, CELL_SKIPPED };

struct matrix_cell {
	enum matrix_cell_state state;
	const char *skipped;        /* why, for CELL_SKIPPED */
	uint64_t region;            /* bytes the cell ranges over: the file, whole blocks */
	double time_limit_s;
	uint64_t bytes, ios;
	double seconds;
	struct stats_summary lat;
	double resident_before_pct; /* < 0: not measured (O_DIRECT, writes, reread) */
};

struct matrix_result {
	struct matrix_axes axes;    /* as run: the defaults filled in */
	struct matrix_cell cells[MATRIX_NOPS][MATRIX_MAX_SIZES][MATRIX_MAX_SIZES];
	double budget_s, elapsed_s;
	unsigned rows_kept;         /* file sizes the budget held */
	bool direct;
};

double matrix_cell_rate(const struct matrix_cell *c);
double matrix_cell_iops(const struct matrix_cell *c);
/* Fewer than 0.2 s or 20 I/Os: too short to time well. */
bool matrix_cell_short(const struct matrix_cell *c);

#endif
