/* The CSV's per-operation columns (issue 31): a mix's reads, writes and
 * trims apart, as JSON's result.ops has them, so that a script reading CSV
 * can tell a 70/30 mix's reads from its writes.  Their own file: output_csv_row.c
 * writes the rest of the row. */
#include "output.h"

/* ios, bytes, iops, p50, p99 of one operation; the figures JSON's
 * result.ops.OP prints (iops over the run's seconds, 2 decimals) */
static void csv_op(FILE *f, uint64_t ios, uint64_t bytes, double seconds,
		   const struct stats_summary *s)
{
	fprintf(f, ",%llu,%llu,%.2f,%llu,%llu", (unsigned long long)ios,
		(unsigned long long)bytes, seconds > 0 ? (double)ios / seconds : 0.0,
		(unsigned long long)s->p50, (unsigned long long)s->p99);
}

/* The columns of an operation that did not run, or that this row does not
 * count apart (one target's row of a mix over several targets: the
 * operations are counted for the whole run only, as in JSON). */
static void csv_op_empty(FILE *f)
{
	fputs(",,,,,", f);
}

void out_csv_ops(FILE *f, const struct result *r, bool whole, uint64_t ios, uint64_t bytes,
		 double seconds, const struct stats_summary *s)
{
	for (unsigned op = 0; op < MIX_OPS; op++) {
		if (!s) { /* no figures in the row (a failed or unmeasured run) */
			csv_op_empty(f);
		} else if (r->ops) { /* a mix: an operation with a share, in the whole row */
			const struct result_op *o = &r->ops->op[op];
			struct stats_summary os;
			if (!whole || !mix_has(&r->ops->mix, (enum mix_op)op)) {
				csv_op_empty(f);
				continue;
			}
			stats_summarize(&o->lat, &os);
			csv_op(f, o->ios, o->bytes, r->seconds, &os);
		} else if (op == (r->dir == IO_WRITE ? MIX_WRITE : MIX_READ)) {
			csv_op(f, ios, bytes, seconds, s); /* one direction: the row's own */
		} else {
			csv_op_empty(f);
		}
	}
}
