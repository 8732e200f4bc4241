/* Rendering of `matrix`: a table of MB/s per operation (rows file size,
 * columns block size) with notes on what was skipped and why; the JSON
 * "result" with the axes and one object per cell; CSV with one row per cell
 * (test = matrix-OP).  Page-cache figures are labelled in every format. */
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "json.h"
#include "matrix.h"
#include "names.h"
#include "devinfo_health.h"
#include "output.h"
#include "output_svg.h"
#include "units.h"

static const struct matrix_result *matrix_of(const struct result *r)
{
	return r->detail;
}

static bool has_op(const struct matrix_result *m, int op)
{
	return (m->axes.ops >> op) & 1u;
}

/* Calls fn on every cell of the grid that exists (ops x valid pairs), in the
 * order of the tables: op, file size, block size. */
typedef void (*cell_fn)(void *ctx, enum matrix_op op, unsigned file, unsigned block,
			const struct matrix_cell *c);
static void each_cell(const struct matrix_result *m, cell_fn fn, void *ctx)
{
	for (int op = 0; op < MATRIX_NOPS; op++)
		for (unsigned f = 0; f < m->axes.nfile && has_op(m, op); f++)
			for (unsigned b = 0; b < m->axes.nblock; b++)
				if (matrix_pair_valid(&m->axes, f, b))
					fn(ctx, (enum matrix_op)op, f, b, &m->cells[op][f][b]);
}

static const char *sync_words(const struct result *r, enum matrix_op op)
{
	if (!matrix_op_writes(op))
		return "";
	switch (r->opt->sync) {
	case SYNC_DSYNC: return ", O_DSYNC";
	case SYNC_OSYNC: return ", O_SYNC";
	case SYNC_FSYNC: return ", one fsync at the end";
	case SYNC_NONE: break;
	}
	return ", no sync";
}

/* A cell in the table: its MB/s and a marker column ('*': too short), or
 * "-" (no cell: the block exceeds the file) or "skip". */
static void text_cell(FILE *f, const struct matrix_cell *c)
{
	double mbs = matrix_cell_rate(c) / 1e6;
	if (c->state == CELL_ABSENT)
		fprintf(f, " %9s ", "-");
	else if (c->state != CELL_MEASURED)
		fprintf(f, " %9s ", "skip");
	else
		fprintf(f, mbs < 1000 ? " %9.1f%c" : " %9.0f%c", mbs, matrix_cell_short(c) ? '*' : ' ');
}

static void text_table(FILE *f, const struct result *r, enum matrix_op op)
{
	const struct matrix_result *m = matrix_of(r);
	char size[32];
	fprintf(f, "matrix: %s: %s\n", matrix_op_name(op), matrix_op_what(op));
	fprintf(f, "  MB/s (10^6 bytes/s), %s%s, %s; rows: file size, columns: block size\n",
		m->direct ? "O_DIRECT" : "page cache (not O_DIRECT)", sync_words(r, op),
		r->engine_label ? r->engine_label : "sync");
	fprintf(f, "%9s", "file");
	for (unsigned b = 0; b < m->axes.nblock; b++) {
		fmt_size_exact(size, sizeof(size), m->axes.block_sizes[b]);
		fprintf(f, " %9s ", size);
	}
	fputc('\n', f);
	for (unsigned fi = 0; fi < m->axes.nfile; fi++) {
		fmt_size_exact(size, sizeof(size), m->axes.file_sizes[fi]);
		fprintf(f, "%9s", size);
		for (unsigned b = 0; b < m->axes.nblock; b++)
			text_cell(f, &m->cells[op][fi][b]);
		fputc('\n', f);
	}
}

/* What the notes under the tables need to know. */
struct tally {
	unsigned cells, measured, short_cells, absent;
	const char *reasons[4];
	unsigned nreasons;
};

static void count_cell(void *ctx, enum matrix_op op, unsigned file, unsigned block,
		       const struct matrix_cell *c)
{
	struct tally *t = ctx;
	(void)op, (void)file, (void)block;
	t->cells++;
	t->measured += c->state == CELL_MEASURED;
	t->short_cells += matrix_cell_short(c);
	if (c->state != CELL_SKIPPED)
		return;
	for (unsigned i = 0; i < t->nreasons; i++)
		if (t->reasons[i] == c->skipped)
			return;
	if (t->nreasons < 4)
		t->reasons[t->nreasons++] = c->skipped;
}

static void text_notes(FILE *f, const struct matrix_result *m, const struct tally *t)
{
	if (t->short_cells)
		fputs("*: under 0.2 s or 20 I/Os, too short to time well\n", f);
	if (matrix_total_cells(&m->axes) < matrix_nops(&m->axes) * m->axes.nfile * m->axes.nblock)
		fputs("-: the block is larger than the file: no cell (iozone skips these too)\n", f);
	for (unsigned i = 0; i < t->nreasons; i++)
		fprintf(f, "skip: %s\n", t->reasons[i]);
	if (m->direct && has_op(m, MATRIX_REREAD))
		fputs("reread: with O_DIRECT no cache lies between the two passes, so reread measures "
		      "the device again; iozone's reread gains come from the page cache\n", f);
	if (!m->direct)
		fputs("page cache: these figures are mostly RAM speed, as iozone -a's are; without "
		      "--no-direct they are the device's\n", f);
	fprintf(f, "matrix: %u cells, %u measured, %u skipped, in %.1f s of a %g s budget; "
		"each cell at most one pass over its file\n", t->cells, t->measured,
		t->cells - t->measured, m->elapsed_s, m->budget_s);
}

static void matrix_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	const struct matrix_result *m = matrix_of(r);
	struct tally t = { 0 };
	bool first = true;
	(void)histogram; /* not an option of matrix */
	for (int op = 0; op < MATRIX_NOPS; op++) {
		if (!has_op(m, op))
			continue;
		if (!first)
			fputc('\n', f);
		text_table(f, r, (enum matrix_op)op);
		first = false;
	}
	each_cell(m, count_cell, &t);
	if (!quiet) {
		fputc('\n', f);
		text_notes(f, m, &t);
		health_text(f, r->health, true);
	}
}

static void json_sizes(struct json *j, const char *key, const uint64_t *sizes, unsigned n)
{
	json_key(j, key);
	json_array_begin(j);
	for (unsigned i = 0; i < n; i++)
		json_uint(j, sizes[i]);
	json_array_end(j);
}

static void json_axes(struct json *j, const struct matrix_result *m)
{
	json_key(j, "axes");
	json_object_begin(j);
	json_sizes(j, "block_sizes", m->axes.block_sizes, m->axes.nblock);
	json_sizes(j, "file_sizes", m->axes.file_sizes, m->axes.nfile);
	json_key(j, "ops");
	json_array_begin(j);
	for (int op = 0; op < MATRIX_NOPS; op++)
		if (has_op(m, op))
			json_string(j, matrix_op_name((enum matrix_op)op));
	json_array_end(j);
	json_object_end(j);
}

struct json_cells {
	struct json *j;
	const struct result *r;
};

/* A figure of a measured cell, or null. */
static void json_figure(struct json *j, bool measured, double v, int decimals)
{
	measured ? json_double(j, v, decimals) : json_null(j);
}

static void json_cell(void *ctx, enum matrix_op op, unsigned file, unsigned block,
		      const struct matrix_cell *c)
{
	const struct json_cells *jc = ctx;
	const struct matrix_result *m = matrix_of(jc->r);
	struct json *j = jc->j;
	bool ok = c->state == CELL_MEASURED;
	json_object_begin(j);
	json_key(j, "op"), json_string(j, matrix_op_name(op));
	json_key(j, "file_size"), json_uint(j, m->axes.file_sizes[file]);
	json_key(j, "block_size"), json_uint(j, m->axes.block_sizes[block]);
	json_key(j, "direct"), json_bool(j, m->direct);
	json_key(j, "sync");
	json_string(j, matrix_op_writes(op) ? sync_mode_name(jc->r->opt->sync) : NULL);
	json_key(j, "skipped"), json_string(j, ok ? NULL : c->skipped ? c->skipped : "not run");
	json_key(j, "region"), json_figure(j, ok, (double)c->region, 0);
	json_key(j, "time_limit_s"), json_figure(j, ok, c->time_limit_s, 3);
	json_key(j, "seconds"), json_figure(j, ok, c->seconds, 6);
	json_key(j, "bytes"), json_figure(j, ok, (double)c->bytes, 0);
	json_key(j, "ios"), json_figure(j, ok, (double)c->ios, 0);
	json_key(j, "bytes_per_sec"), json_figure(j, ok, matrix_cell_rate(c), 1);
	json_key(j, "iops"), json_figure(j, ok, matrix_cell_iops(c), 2);
	if (ok)
		out_json_lat(j, &c->lat);
	else
		json_key(j, "lat_ns"), json_null(j);
	json_key(j, "whole_file"), json_bool(j, ok && c->bytes >= c->region);
	json_key(j, "too_short"), json_bool(j, matrix_cell_short(c));
	json_key(j, "resident_before_pct");
	json_figure(j, ok && c->resident_before_pct >= 0, c->resident_before_pct, 2);
	json_object_end(j);
}

static void matrix_result_json(struct json *j, const struct result *r)
{
	const struct matrix_result *m = matrix_of(r);
	struct json_cells jc = { j, r };
	json_object_begin(j);
	json_key(j, "budget_s"), json_double(j, m->budget_s, 3);
	json_key(j, "elapsed_s"), json_double(j, m->elapsed_s, 3);
	json_key(j, "min_cell_s"), json_double(j, MATRIX_MIN_CELL_S, 3);
	json_key(j, "direct"), json_bool(j, m->direct);
	json_key(j, "cache"), json_string(j, m->direct ? "O_DIRECT" : "page cache");
	json_axes(j, m);
	json_key(j, "cells");
	json_array_begin(j);
	each_cell(m, json_cell, &jc);
	json_array_end(j);
	json_object_end(j);
}

/* params carry no single block size, size, time limit or region: each cell
 * has its own */
static void matrix_json(struct json *j, const struct result *r)
{
	out_json_file_device(j, r);
	out_json_params(j, r, PARAMS_NO_TIME_LIMIT | PARAMS_NO_SIZES);
	json_key(j, "result");
	if (r->measured)
		matrix_result_json(j, r);
	else
		json_null(j);
	out_json_cache(j, r);
	if (r->health) { /* read before the first measurement and after the last */
		json_key(j, "health");
		health_json(j, r->health);
	}
}

struct csv_cells {
	FILE *f;
	const struct result *r;
};

/* test,target,block_size,bytes,seconds,bytes_per_sec,iops,lat_p50_ns,lat_p99_ns
 * (the contract's), then the cell's own columns; a skipped cell leaves its
 * figures empty and says why. */
static void csv_cell(void *ctx, enum matrix_op op, unsigned file, unsigned block,
		     const struct matrix_cell *c)
{
	const struct csv_cells *cc = ctx;
	const struct matrix_result *m = matrix_of(cc->r);
	FILE *f = cc->f;
	char test[32];
	snprintf(test, sizeof(test), "matrix-%s", matrix_op_name(op));
	out_csv_field(f, test);
	fputc(',', f);
	out_csv_field(f, cc->r->target);
	fprintf(f, ",%llu", (unsigned long long)m->axes.block_sizes[block]);
	if (c->state == CELL_MEASURED)
		fprintf(f, ",%llu,%.6f,%.1f,%.2f,%llu,%llu", (unsigned long long)c->bytes, c->seconds,
			matrix_cell_rate(c), matrix_cell_iops(c), (unsigned long long)c->lat.p50,
			(unsigned long long)c->lat.p99);
	else
		fputs(",,,,,,", f);
	fprintf(f, ",%s,%llu,%s,%s", matrix_op_name(op),
		(unsigned long long)m->axes.file_sizes[file], m->direct ? "true" : "false",
		matrix_op_writes(op) ? sync_mode_name(cc->r->opt->sync) : "");
	if (c->state == CELL_MEASURED)
		fprintf(f, ",%.3f,%llu,%llu,%.1f,%llu,%s,", c->time_limit_s, (unsigned long long)c->ios,
			(unsigned long long)c->lat.min, c->lat.mean, (unsigned long long)c->lat.max,
			matrix_cell_short(c) ? "true" : "false");
	else
		fputs(",,,,,,,", f);
	out_csv_field(f, c->state == CELL_MEASURED ? NULL : c->skipped ? c->skipped : "not run");
	fputc('\n', f);
}

static void matrix_csv(FILE *f, const struct result *r)
{
	struct csv_cells cc = { f, r };
	if (r->measured) {
		fputs("test,target,block_size,bytes,seconds,bytes_per_sec,iops,lat_p50_ns,"
		      "lat_p99_ns,op,file_size,direct,sync,time_limit_s,ios,lat_min_ns,lat_mean_ns,"
		      "lat_max_ns,too_short,skipped\n", f);
		each_cell(matrix_of(r), csv_cell, &cc);
	} else {
		out_csv(f, r); /* a failed run: one row with the error */
	}
}

const struct renderers render_matrix = { matrix_text, matrix_json, matrix_csv, out_svg_matrix, NULL };
