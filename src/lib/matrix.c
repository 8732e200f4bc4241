#define _POSIX_C_SOURCE 200809L
#include "matrix.h"

#include <stdlib.h>
#include <string.h>

#include "units.h"

static const struct {
	const char *name, *what;
	bool writes, random, evicts;
} ops[MATRIX_NOPS] = {
	[MATRIX_WRITE] = { "write", "sequential writes into new blocks (the file truncated first)",
			   true, false, false },
	[MATRIX_REWRITE] = { "rewrite", "sequential overwrites of data already in the file",
			     true, false, false },
	[MATRIX_READ] = { "read", "sequential reads, the file evicted from the cache first",
			  false, false, true },
	[MATRIX_REREAD] = { "reread", "the same reads again at once, no eviction between",
			    false, false, false },
	[MATRIX_RANDREAD] = { "randread", "random reads, the file evicted from the cache first",
			      false, true, true },
	[MATRIX_RANDWRITE] = { "randwrite", "random overwrites of data already in the file",
			       true, true, false },
};

const char *matrix_op_name(enum matrix_op op)
{
	return ops[op].name;
}

const char *matrix_op_what(enum matrix_op op)
{
	return ops[op].what;
}

bool matrix_op_writes(enum matrix_op op)
{
	return ops[op].writes;
}

bool matrix_op_random(enum matrix_op op)
{
	return ops[op].random;
}

bool matrix_op_evicts(enum matrix_op op)
{
	return ops[op].evicts;
}

/* LOW, LOW x factor, ... while <= high, into sizes (at most
 * MATRIX_MAX_SIZES of them); returns how many there are in all. */
static unsigned geometric(uint64_t low, uint64_t high, uint64_t factor, uint64_t *sizes)
{
	unsigned n = 0;
	for (uint64_t v = low; v <= high; v *= factor) {
		if (n < MATRIX_MAX_SIZES)
			sizes[n] = v;
		n++;
		if (v > high / factor)
			break;
	}
	return n;
}

void matrix_default_axes(struct matrix_axes *ax)
{
	if (ax->nblock == 0)
		ax->nblock = geometric(4ull << 10, 16ull << 20, 4, ax->block_sizes);
	if (ax->nfile == 0)
		ax->nfile = geometric(64ull << 20, 1ull << 30, 4, ax->file_sizes);
	if (ax->ops == 0)
		ax->ops = MATRIX_ALL_OPS;
}

/* One size of a list or range: copied out so parse_size sees it alone. */
static int parse_one(const char *text, size_t len, uint64_t max, uint64_t *out, const char **why)
{
	char buf[64];
	if (len == 0) {
		*why = "an empty size in the list";
		return -1;
	}
	if (len >= sizeof(buf)) {
		*why = "a size is too long";
		return -1;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (parse_size(buf, out, why) != 0)
		return -1;
	if (*out > max) {
		*why = max == MATRIX_MAX_BLOCK ? "block sizes go up to 256 MiB" : "a size is too large";
		return -1;
	}
	return 0;
}

static int parse_range(const char *text, size_t dash, uint64_t max, uint64_t *sizes,
		       unsigned *n, const char **why)
{
	uint64_t low, high, factor = 4;
	size_t colon = strcspn(text, ":");
	if (colon < dash) {
		*why = "a step (':F') follows the range, e.g. 4k-16M:2";
		return -1;
	}
	if (parse_one(text, dash, max, &low, why) != 0 ||
	    parse_one(text + dash + 1, colon - dash - 1, max, &high, why) != 0)
		return -1;
	if (text[colon] == ':' && (parse_uint(text + colon + 1, 2, 1024, &factor, why) != 0)) {
		*why = "the step after ':' must be a whole number from 2 to 1024 (e.g. 4k-16M:2)";
		return -1;
	}
	if (high < low) {
		*why = "a range goes from the smaller size to the larger (e.g. 4k-16M)";
		return -1;
	}
	*n = geometric(low, high, factor, sizes);
	if (*n > MATRIX_MAX_SIZES) {
		*why = "at most 16 sizes: give a larger step after ':'";
		return -1;
	}
	if (sizes[*n - 1] != high) {
		*why = factor == 4 ? "the range's end must be its start times a power of 4 "
				     "(e.g. 4k-16M; 4k-8M:2 for powers of 2)"
				   : "the range's end must be its start times a power of the step";
		return -1;
	}
	return 0;
}

static int compare_sizes(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int parse_list(const char *text, uint64_t max, uint64_t *sizes, unsigned *n,
		      const char **why)
{
	const char *p = text;
	*n = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		if (*n >= MATRIX_MAX_SIZES) {
			*why = "at most 16 sizes";
			return -1;
		}
		if (parse_one(p, len, max, &sizes[*n], why) != 0)
			return -1;
		(*n)++;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	qsort(sizes, *n, sizeof(*sizes), compare_sizes);
	for (unsigned i = 1; i < *n; i++)
		if (sizes[i] == sizes[i - 1]) {
			*why = "a size appears twice";
			return -1;
		}
	return 0;
}

int matrix_parse_sizes(const char *text, uint64_t max, uint64_t *sizes, unsigned *n,
		       const char **why)
{
	size_t dash = strcspn(text, "-");
	if (text[0] == '-') {
		*why = "sizes must not be negative";
		return -1;
	}
	if (text[dash] == '-' && strchr(text, ',') == NULL)
		return parse_range(text, dash, max, sizes, n, why);
	if (text[dash] == '-') {
		*why = "give a list (4k,64k,1M) or a range (4k-16M), not both";
		return -1;
	}
	if (strchr(text, ':')) {
		*why = "a step (':F') goes with a range, e.g. 4k-16M:2";
		return -1;
	}
	return parse_list(text, max, sizes, n, why);
}

static int op_by_name(const char *name, size_t len)
{
	for (int i = 0; i < MATRIX_NOPS; i++)
		if (strlen(ops[i].name) == len && strncmp(ops[i].name, name, len) == 0)
			return i;
	return -1;
}

int matrix_parse_ops(const char *text, unsigned *bits, const char **why)
{
	const char *p = text;
	*bits = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		int op = op_by_name(p, len);
		if (op < 0) {
			*why = "operations are write, rewrite, read, reread, randread, randwrite";
			return -1;
		}
		if (*bits & (1u << op)) {
			*why = "an operation appears twice";
			return -1;
		}
		*bits |= 1u << op;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	if ((*bits & (1u << MATRIX_REREAD)) && !(*bits & (1u << MATRIX_READ))) {
		*why = "reread is read's second pass: add read";
		return -1;
	}
	return 0;
}

bool matrix_pair_valid(const struct matrix_axes *ax, unsigned file, unsigned block)
{
	return ax->block_sizes[block] <= ax->file_sizes[file];
}

unsigned matrix_nops(const struct matrix_axes *ax)
{
	unsigned n = 0;
	for (int i = 0; i < MATRIX_NOPS; i++)
		n += (ax->ops >> i) & 1u;
	return n;
}

unsigned matrix_row_cells(const struct matrix_axes *ax, unsigned file)
{
	unsigned blocks = 0;
	for (unsigned b = 0; b < ax->nblock; b++)
		blocks += matrix_pair_valid(ax, file, b);
	return blocks * matrix_nops(ax);
}

unsigned matrix_total_cells(const struct matrix_axes *ax)
{
	unsigned n = 0;
	for (unsigned f = 0; f < ax->nfile; f++)
		n += matrix_row_cells(ax, f);
	return n;
}

static unsigned add_step(const struct matrix_axes *ax, enum matrix_op op, unsigned block,
			 struct matrix_step *steps, unsigned n)
{
	if (!(ax->ops & (1u << op)))
		return n;
	steps[n].op = op;
	steps[n].block = block;
	return n + 1;
}

unsigned matrix_row_order(const struct matrix_axes *ax, unsigned file, struct matrix_step *steps)
{
	static const enum matrix_op on_data[] = { MATRIX_REWRITE, MATRIX_READ, MATRIX_REREAD,
						  MATRIX_RANDREAD, MATRIX_RANDWRITE };
	unsigned n = 0;
	for (unsigned b = 0; b < ax->nblock; b++) {
		if (!matrix_pair_valid(ax, file, b))
			continue;
		for (size_t k = 0; k < sizeof(on_data) / sizeof(on_data[0]); k++)
			n = add_step(ax, on_data[k], b, steps, n);
	}
	for (unsigned b = 0; b < ax->nblock; b++)
		if (matrix_pair_valid(ax, file, b))
			n = add_step(ax, MATRIX_WRITE, b, steps, n);
	return n;
}

bool matrix_needs_layout(unsigned op_bits)
{
	return (op_bits & ~(1u << MATRIX_WRITE)) != 0;
}

static double layout_estimate(const struct matrix_axes *ax, unsigned row,
			      const struct matrix_costs *k)
{
	return matrix_needs_layout(ax->ops) ? (double)ax->file_sizes[row] * k->layout_s_per_byte : 0;
}

static double row_cost(const struct matrix_axes *ax, unsigned row, const struct matrix_costs *k)
{
	return matrix_row_cells(ax, row) * (k->min_cell_s + k->overhead_s) +
	       layout_estimate(ax, row, k);
}

unsigned matrix_rows_within(const struct matrix_axes *ax, unsigned first, unsigned end,
			    double budget_s, const struct matrix_costs *k)
{
	double cost = 0;
	for (unsigned f = first; f < end; f++)
		cost += row_cost(ax, f, k);
	while (end > first && cost > budget_s)
		cost -= row_cost(ax, --end, k);
	return end - first;
}

double matrix_row_share(const struct matrix_axes *ax, unsigned row, unsigned end, double left_s,
			const struct matrix_costs *k)
{
	double layouts = 0;
	unsigned cells = 0;
	for (unsigned f = row; f < end; f++) {
		layouts += layout_estimate(ax, f, k);
		cells += matrix_row_cells(ax, f);
	}
	double rest = left_s > layouts ? left_s - layouts : 0;
	return cells ? layout_estimate(ax, row, k) + rest * matrix_row_cells(ax, row) / cells : 0;
}

double matrix_cell_time(double row_left_s, unsigned cells_left, const struct matrix_costs *k)
{
	if (cells_left == 0)
		return 0;
	double t = row_left_s / cells_left - k->overhead_s;
	return t >= k->min_cell_s ? t : 0;
}

double matrix_cell_rate(const struct matrix_cell *c)
{
	return c->seconds > 0 ? (double)c->bytes / c->seconds : 0.0;
}

double matrix_cell_iops(const struct matrix_cell *c)
{
	return c->seconds > 0 ? (double)c->ios / c->seconds : 0.0;
}

bool matrix_cell_short(const struct matrix_cell *c)
{
	return c->state == CELL_MEASURED && (c->seconds < 0.2 || c->ios < 20);
}
