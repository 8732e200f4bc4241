/* matrix: iozone's auto mode (iozone -a), honestly.  Six operations over a
 * grid of block size x file size; each cell is at most one pass over its
 * file (iozone's unit of work), cut at its share of --budget.  O_DIRECT
 * unless --no-direct, and then every output says "page cache".  One test
 * file per file size in the directory TARGET, laid out once, measured at
 * every block size, removed before the next. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "cmd.h"
#include "io.h"
#include "matrix.h"
#include "names.h"
#include "progress.h"
#include "run_health.h"
#include "runner.h"
#include "units.h"
#include "util.h"

/* One run: what every step reads and the budget's clock. */
struct matrix_run {
	struct matrix_result *m;
	const struct options *opt;
	struct result *r;
	struct target t;
	const struct engine_ops *engine; /* picked once, so a fallback is said once */
	uint64_t started_ns;
	struct matrix_costs costs;       /* learnt as the run goes */
	double overhead_sum;             /* over the cells measured */
	uint64_t written;                /* layouts, write cells and their warm-ups */
	unsigned overhead_n;
	bool evicted_once, warned;
};

static const char *const skip_budget_plan =
	"budget: the file size's cells (and its layout) do not fit at the minimum cell time";
static const char *const skip_budget_used = "budget: used up by the cells before";
static const char *const skip_layout = "budget: laying out the file took longer than its share";

static double elapsed_s(const struct matrix_run *run)
{
	return (double)(clock_ns() - run->started_ns) / 1e9;
}

static void mark_cells(struct matrix_result *m, unsigned file, enum matrix_cell_state state,
		       const char *why)
{
	for (int op = 0; op < MATRIX_NOPS; op++)
		for (unsigned b = 0; b < m->axes.nblock; b++) {
			struct matrix_cell *c = &m->cells[op][file][b];
			if (!(m->axes.ops & (1u << op)) || !matrix_pair_valid(&m->axes, file, b))
				continue;
			if (c->state == CELL_ABSENT || c->state == CELL_PLANNED) {
				c->state = state;
				c->skipped = why;
			}
		}
}

/* Drops file sizes [from, rows_kept): the budget cannot hold them. */
static void drop_rows(struct matrix_run *run, unsigned from)
{
	struct matrix_result *m = run->m;
	char size[32];
	if (from >= m->rows_kept)
		return;
	for (unsigned f = from; f < m->rows_kept; f++)
		mark_cells(m, f, CELL_SKIPPED, skip_budget_plan);
	fmt_size_exact(size, sizeof(size), m->axes.file_sizes[from]);
	warn(run->r, "--budget %g s: file sizes from %s on skipped: their cells at %g s each%s do "
	     "not fit", m->budget_s, size, MATRIX_MIN_CELL_S,
	     run->costs.layout_s_per_byte > 0 ? " and their layout at the rate seen" : "");
	m->rows_kept = from;
}

/* The grid must hold a cell, and the budget the smallest file size's. */
static int plan(struct matrix_run *run)
{
	struct matrix_result *m = run->m;
	const struct matrix_axes *ax = &m->axes;
	char size[32];
	if (matrix_total_cells(ax) == 0) {
		fmt_size_exact(size, sizeof(size), ax->file_sizes[ax->nfile - 1]);
		return fail(run->r, EXIT_USAGE, "every block size of --block-sizes is larger than "
			    "every file size of --file-sizes (the largest is %s): no cell to measure",
			    size);
	}
	run->costs.min_cell_s = MATRIX_MIN_CELL_S;
	unsigned keep = matrix_rows_within(ax, 0, ax->nfile, m->budget_s, &run->costs);
	if (keep == 0)
		return fail(run->r, EXIT_USAGE, "--budget %g s cannot hold the %u cells of the "
			    "smallest file size (at least %g s each)", m->budget_s,
			    matrix_row_cells(ax, 0), MATRIX_MIN_CELL_S);
	for (unsigned f = 0; f < ax->nfile; f++)
		mark_cells(m, f, CELL_PLANNED, NULL);
	m->rows_kept = ax->nfile;
	drop_rows(run, keep);
	return EXIT_OK;
}

static int check_target(const struct options *opt, struct result *r)
{
	enum target_kind kind;
	if (target_classify(opt->target, &kind) != 0)
		return fail(r, errno == ENOENT || errno == ENOTDIR ? EXIT_USAGE : EXIT_RUN,
			    "target '%s':", opt->target);
	if (kind != TARGET_DIR)
		return fail(r, EXIT_USAGE, "target '%s' is not a directory: matrix creates a test "
			    "file of each file size in a directory", opt->target);
	return EXIT_OK;
}

/* Every file size that will run must fit, keeping 5 % of the filesystem free
 * as the contract asks (one file at a time: the largest decides); the
 * refusal names the option that sets the sizes. */
static int check_space(const struct matrix_run *run)
{
	uint64_t largest = run->m->axes.file_sizes[run->m->rows_kept - 1];
	int code = target_check_memory(&run->t, largest, run->r);
	if (code == EXIT_OK)
		code = target_check_space(&run->t, largest, run->r);
	if (code != EXIT_RUN) /* memory's refusal says what it is itself */
		return code;
	char need[32], avail[32];
	fmt_size_exact(need, sizeof(need), largest);
	fmt_bytes_iec(avail, sizeof(avail), run->t.fs.avail_bytes);
	return fail(run->r, code, "not enough free space in '%s' for the %s file of --file-sizes: "
		    "%s available, and 5 %% of the filesystem must stay free; use smaller "
		    "--file-sizes", run->opt->target, need, avail);
}

/* O_DIRECT needs every block size aligned for this filesystem. */
static int check_blocks(struct matrix_run *run)
{
	struct options point = *run->opt;
	for (unsigned b = 0; b < run->m->axes.nblock; b++) {
		point.bs = run->m->axes.block_sizes[b];
		run->r->region = point.bs;
		int code = run_check_direct(&run->t, &point, run->r);
		if (code != EXIT_OK)
			return code;
	}
	return EXIT_OK;
}

/* Real data over the whole file, within max_s; *whole says it got there. */
static int lay_out(struct matrix_run *run, uint64_t size, double max_s, bool *whole)
{
	uint64_t written = 0, t0 = clock_ns();
	char label[32];
	*whole = true;
	if (run->t.no_data)
		return EXIT_OK; /* --engine=nop: nothing is written */
	int code = target_open(&run->t, O_RDWR, false, run->r);
	if (code != EXIT_OK)
		return code;
	fmt_size_exact(label, sizeof(label), size);
	progress_label(run->opt, "matrix: laying out the %s file", label);
	int rc = io_layout_timed(run->t.fd, size, 1u << 20, run->opt->zeros, run->opt->seed,
				 &bench_stop_requested, max_s, &written);
	target_close(&run->t);
	if (rc != 0 && bench_stop_requested) {
		run->r->interrupted = true;
		return fail(run->r, EXIT_SIGINT, "while laying out '%s'", run->t.path);
	}
	if (rc != 0)
		return fail(run->r, EXIT_RUN, "lay out '%s':", run->t.path);
	run->written += written;
	*whole = written >= size;
	if (written > 0) /* the rate the next files' layouts are planned with */
		run->costs.layout_s_per_byte = (double)(clock_ns() - t0) / 1e9 / (double)written;
	return EXIT_OK;
}

static double evict(struct matrix_run *run)
{
	if (run->evicted_once)
		return run_evict_again(&run->t, run->opt, run->r);
	run->evicted_once = true;
	run_evict(&run->t, run->opt, run->r);
	return run->r->resident_before_pct;
}

static void keep_figures(struct matrix_cell *c, const struct bench_outcome *out, struct result *r)
{
	c->state = CELL_MEASURED;
	c->bytes = out->bytes;
	c->ios = out->ios;
	c->seconds = out->seconds;
	stats_summarize(&out->lat, &c->lat);
	/* the sums are what an interrupted run prints as partial figures */
	r->bytes += out->bytes;
	r->ios += out->ios;
	r->seconds += out->seconds;
}

static int cell_failure(const struct matrix_run *run, const struct bench_outcome *out)
{
	if (out->stopped) {
		run->r->interrupted = true;
		return fail(run->r, EXIT_SIGINT, "during the matrix");
	}
	if (out->failed_why[0]) /* the engine could not start: its own reason */
		return fail(run->r, EXIT_RUN, "%s", out->failed_why);
	errno = out->error;
	return fail(run->r, EXIT_RUN, "%s '%s' at offset %llu:", out->failed_op, run->t.path,
		    (unsigned long long)out->failed_offset);
}

static int measure_cell_into(struct bench_outcome *out, struct matrix_run *run, unsigned file,
			     const struct matrix_step *step, double time_s)
{
	const struct matrix_axes *ax = &run->m->axes;
	struct matrix_cell *c = &run->m->cells[step->op][file][step->block];
	struct options point = *run->opt;
	struct bench_job job;
	char fs[32], bs[32];
	point.bs = ax->block_sizes[step->block];
	point.size = ax->file_sizes[file];
	point.time_s = time_s;
	point.threads = 1;
	point.qd = 1;
	c->region = point.size - point.size % point.bs;
	c->time_limit_s = time_s;
	c->resident_before_pct = -1;
	run_describe_job(&job, matrix_op_writes(step->op) ? IO_WRITE : IO_READ,
			 matrix_op_random(step->op) ? PAT_RAND : PAT_SEQ, &point, c->region);
	job.fd = run->t.fd;
	job.engine = run->engine;
	run->r->warmup_ios = job.warmup_ios;
	/* --engine=nop: the test file is opened read-only, and nothing is written */
	if (step->op == MATRIX_WRITE && !opt_moves_no_data(run->opt) && ftruncate(run->t.fd, 0) != 0)
		return fail(run->r, EXIT_RUN, "truncate '%s':", run->t.path);
	if (matrix_op_evicts(step->op))
		c->resident_before_pct = evict(run);
	fmt_size_exact(fs, sizeof(fs), point.size);
	fmt_size_exact(bs, sizeof(bs), point.bs);
	progress_label(run->opt, "matrix: %s, %s file, bs %s", matrix_op_name(step->op), fs, bs);
	if (bench_run(&job, out, NULL) != 0 || out->stopped)
		return cell_failure(run, out);
	keep_figures(c, out, run->r);
	if (matrix_op_writes(step->op))
		run->written += out->bytes +
				run_health_warmup_bytes(job.warmup_ios, 1, point.bs, c->region);
	return EXIT_OK;
}

/* One cell, its outcome on the heap (large), gone once its figures are in c. */
static int measure_cell(struct matrix_run *run, unsigned file, const struct matrix_step *step,
			double time_s)
{
	struct bench_outcome *out = calloc(1, sizeof(*out));
	if (!out)
		return fail(run->r, EXIT_RUN, "cannot allocate the result of a cell:");
	int code = measure_cell_into(out, run, file, step, time_s);
	free(out);
	return code;
}

/* The time a cell took outside its timed loop, so later cells are given
 * their share less it. */
static void learn_overhead(struct matrix_run *run, uint64_t t0, const struct matrix_cell *c)
{
	double wall = (double)(clock_ns() - t0) / 1e9;
	run->overhead_sum += wall > c->seconds ? wall - c->seconds : 0;
	run->overhead_n++;
	run->costs.overhead_s = run->overhead_sum / run->overhead_n;
}

static int run_cells(struct matrix_run *run, unsigned file, uint64_t deadline_ns)
{
	struct matrix_step steps[MATRIX_MAX_STEPS];
	unsigned n = matrix_row_order(&run->m->axes, file, steps);
	for (unsigned i = 0; i < n; i++) {
		uint64_t now = clock_ns();
		double left = now < deadline_ns ? (double)(deadline_ns - now) / 1e9 : 0;
		double time_s = matrix_cell_time(left, n - i, &run->costs);
		if (time_s <= 0) {
			mark_cells(run->m, file, CELL_SKIPPED, skip_budget_used);
			return EXIT_OK;
		}
		int code = measure_cell(run, file, &steps[i], time_s);
		if (code != EXIT_OK)
			return code;
		learn_overhead(run, now, &run->m->cells[steps[i].op][file][steps[i].block]);
	}
	return EXIT_OK;
}

static int open_for_cells(struct matrix_run *run)
{
	int flags = O_RDWR | sync_open_flag(run->opt->sync);
	int code = target_open(&run->t, flags, run->opt->direct, run->r);
	if (code == EXIT_OK && !run->warned)
		run_warn_target(&run->t, run->opt, true, run->r);
	run->warned = true;
	return code;
}

/* One file size: its share of what is left of the budget, its file (laid
 * out within the share less the cells' minimum), its cells, clean-up. */
static int run_row(struct matrix_run *run, unsigned file)
{
	const struct matrix_axes *ax = &run->m->axes;
	unsigned cells = matrix_row_cells(ax, file);
	double left = run->m->budget_s - elapsed_s(run);
	/* what the rows before taught (layout rate, overhead) may drop the last */
	drop_rows(run, file + matrix_rows_within(ax, file, run->m->rows_kept, left, &run->costs));
	if (file >= run->m->rows_kept)
		return EXIT_OK;
	double share = matrix_row_share(ax, file, run->m->rows_kept, left, &run->costs);
	uint64_t deadline = clock_ns() + (uint64_t)(share * 1e9);
	bool ready = true;
	int code = run_prepare(&run->t, run->opt, run->r);
	if (code == EXIT_OK && file == 0)
		code = check_space(run);
	if (code == EXIT_OK && file == 0)
		code = check_blocks(run);
	if (code == EXIT_OK && file == 0)
		run_health_before(run->r); /* before the first file is laid out */
	run->r->region = ax->file_sizes[file];
	if (code == EXIT_OK && matrix_needs_layout(ax->ops)) {
		double layout_s = share - cells * (run->costs.min_cell_s + run->costs.overhead_s);
		ready = false;
		if (layout_s > 0)
			code = lay_out(run, ax->file_sizes[file], layout_s, &ready);
		if (code == EXIT_OK && !ready)
			mark_cells(run->m, file, CELL_SKIPPED, skip_layout);
	}
	if (code == EXIT_OK && ready)
		code = open_for_cells(run);
	if (code == EXIT_OK && ready)
		code = run_cells(run, file, deadline);
	target_close(&run->t);
	target_cleanup();
	return code;
}

/* What --no-direct measures, said once for the whole run. */
static void warn_page_cache(const struct options *opt, struct result *r)
{
	if (!opt->direct)
		warn(r, "--no-direct: every figure went through the page cache, so it is mostly RAM "
		     "speed, as iozone -a's figures are, not the disk's");
}

static void warn_short_cells(const struct matrix_result *m, struct result *r)
{
	unsigned n = 0, measured = 0;
	for (int op = 0; op < MATRIX_NOPS; op++)
		for (unsigned f = 0; f < m->axes.nfile; f++)
			for (unsigned b = 0; b < m->axes.nblock; b++) {
				n += matrix_cell_short(&m->cells[op][f][b]);
				measured += m->cells[op][f][b].state == CELL_MEASURED;
			}
	if (n > 0)
		warn(r, "%u of %u cells took under 0.2 s or 20 I/Os, too short to time well "
		     "(marked *); larger --file-sizes time them better", n, measured);
}

int cmd_run_matrix(const struct command *cmd, const struct options *opt, struct result *r)
{
	/* the figures and the options they were measured with, read by the
	 * renderers after the command returns: kept with the result */
	struct matrix_result *m = result_keep(r, sizeof(*m), NULL);
	struct options *effective = result_keep(r, sizeof(*effective), NULL);
	struct matrix_run run = { .m = m, .r = r, .t = { .fd = -1 } };
	(void)cmd; /* one row, no variants */
	if (!m || !effective)
		return fail(r, EXIT_RUN, "cannot allocate the matrix's figures:");
	/* iozone writes without any sync; --no-direct reproduces it unless told */
	*effective = *opt;
	if (!opt->direct && !(opt->given & OPT_SYNC))
		effective->sync = SYNC_NONE;
	run.opt = r->opt = effective;
	r->detail = m;
	m->axes = opt->matrix;
	matrix_default_axes(&m->axes);
	m->budget_s = opt->sweep.budget_s;
	m->direct = opt->direct;
	int code = check_target(opt, r);
	if (code == EXIT_OK)
		code = plan(&run);
	if (code == EXIT_OK)
		code = run_pick_engine(effective, 1, r, &run.engine);
	warn_page_cache(opt, r);
	run.started_ns = clock_ns();
	for (unsigned f = 0; f < m->rows_kept && code == EXIT_OK; f++)
		code = run_row(&run, f);
	progress_clear();
	run_health_after_moved(r, &run.written, true, NULL);
	run_health_check(r);
	m->elapsed_s = elapsed_s(&run);
	r->measured = code == EXIT_OK;
	if (r->measured)
		warn_short_cells(m, r);
	return code;
}
