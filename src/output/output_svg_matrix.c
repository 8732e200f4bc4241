/* matrix's picture: a heat map per operation, rows file size, columns block
 * size, MB/s in each cell, as the text tables; a cell skipped or not run (or
 * absent, the block exceeding the file) is drawn as not measured.  Page-cache
 * figures say so in every title, as in the text. */
#include <math.h>
#include <string.h>

#include "render.h"
#include "matrix.h"
#include "output_svg.h"
#include "svg_chart.h"
#include "units.h"

struct matrix_labels {
	char block[MATRIX_MAX_SIZES][32], file[MATRIX_MAX_SIZES][32];
	const char *cols[MATRIX_MAX_SIZES], *rows[MATRIX_MAX_SIZES];
};

static void size_labels(struct matrix_labels *l, const struct matrix_axes *ax)
{
	for (unsigned b = 0; b < ax->nblock; b++) {
		fmt_size_exact(l->block[b], sizeof(l->block[b]), ax->block_sizes[b]);
		l->cols[b] = l->block[b];
	}
	for (unsigned f = 0; f < ax->nfile; f++) {
		fmt_size_exact(l->file[f], sizeof(l->file[f]), ax->file_sizes[f]);
		l->rows[f] = l->file[f];
	}
}

static void op_heatmap(struct svg *s, double y, const struct matrix_result *m, enum matrix_op op,
		       const struct matrix_labels *l)
{
	double values[MATRIX_MAX_SIZES * MATRIX_MAX_SIZES];
	char title[200];
	const struct matrix_axes *ax = &m->axes;
	for (unsigned f = 0; f < ax->nfile; f++)
		for (unsigned b = 0; b < ax->nblock; b++) {
			const struct matrix_cell *c = &m->cells[op][f][b];
			values[f * ax->nblock + b] = c->state == CELL_MEASURED ? matrix_cell_rate(c) : NAN;
		}
	snprintf(title, sizeof(title), "%s: %s (MB/s, %s)", matrix_op_name(op), matrix_op_what(op),
		 m->direct ? "O_DIRECT" : "page cache (not O_DIRECT)");
	struct chart_heat h = { title, "block size", "file size", l->cols, ax->nblock, l->rows,
				ax->nfile, values, SVG_RATE_SI };
	chart_heatmap(s, &(struct chart_box){ 0, y, s->width, chart_heatmap_height(ax->nfile) }, &h);
}

void out_svg_matrix(FILE *f, const struct result *r)
{
	const struct matrix_result *m = r->detail;
	static struct matrix_labels labels;
	struct svg s;
	char title[200], desc[300];
	unsigned nops = matrix_nops(&m->axes);
	double each = chart_heatmap_height(m->axes.nfile);
	size_labels(&labels, &m->axes);
	snprintf(title, sizeof(title), "matrix: MB/s of %u operation%s over block size x file size, %s",
		 nops, nops == 1 ? "" : "s", m->direct ? "O_DIRECT" : "page cache (not O_DIRECT)");
	snprintf(desc, sizeof(desc), "A heat map per operation: rows file size (%u), columns block "
		 "size (%u), darker for more MB/s; cells skipped or not run drawn as not measured; "
		 "%.1f s of a %.1f s budget", m->axes.nfile, m->axes.nblock, m->elapsed_s, m->budget_s);
	double y = svg_begin(&s, f, OUT_SVG_WIDTH, each * nops, title, desc);
	for (int op = 0; op < MATRIX_NOPS; op++) {
		if (!((m->axes.ops >> op) & 1u))
			continue;
		op_heatmap(&s, y, m, (enum matrix_op)op, &labels);
		y += each;
	}
	svg_end(&s);
}
