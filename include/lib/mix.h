/* A workload's mix of operations (--mix r70,w30, r60,w30,t10): the share
 * of I/Os, in whole percent, that are reads, writes and trims (discards).
 * Pure: the parser and formatter, and the draw that turns a number from
 * the seed's generator into an operation. */
#ifndef MIX_H
#define MIX_H

#include <stdbool.h>
#include <stddef.h>

/* The operations, in the order --mix names them; their values index
 * per-operation figures everywhere (engine_io.op, the timed loop's
 * latencies, result.ops). */
enum mix_op { MIX_READ, MIX_WRITE, MIX_TRIM, MIX_OPS };

struct mix {
	unsigned pct[MIX_OPS]; /* summing to 100; all 0: no mix (the test's direction) */
};

/* "r70,w30", "w100", "r60,w30,t10": letters r, w, t, each at most once,
 * with a whole percent 0..100, summing to 100.  0, or -1 with why. */
int mix_parse(const char *s, struct mix *m, char *why, size_t why_len);
/* "r70,w30" (the operations with a share, in r, w, t order); the length
 * snprintf would write. */
int mix_format(const struct mix *m, char *buf, size_t len);
/* A mix of reads and write_pct % writes (sweep --write). */
struct mix mix_read_write(unsigned write_pct);
/* The operation of an I/O whose draw (uniform in 0..99) is draw: the first
 * pct[READ] values read, the next pct[WRITE] write, the rest trim. */
enum mix_op mix_pick(const struct mix *m, unsigned draw);
/* Whether the mix is set (its shares sum to more than 0). */
bool mix_set(const struct mix *m);
/* Whether op has a share. */
bool mix_has(const struct mix *m, enum mix_op op);
/* The first operation with a share (READ for an empty mix). */
enum mix_op mix_first(const struct mix *m);
/* "read", "write", "trim". */
const char *mix_op_name(enum mix_op op);

#endif
