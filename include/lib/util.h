/* Recording failures and warnings in the result, for main.c to print.
 * A format ending in ':' gets ": strerror(errno)" appended, as in sbase. */
#ifndef UTIL_H
#define UTIL_H

#include <stddef.h>

#include "diskbench.h"

/* Stores the message in r->error and returns code, so callers can write
 * `return fail(r, EXIT_RUN, "open '%s':", path);`. */
int fail(struct result *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void warn(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* text when the command takes the option bit, else "": a message suggests
 * only options that the same command accepts. */
const char *opt_hint(const struct options *opt, opt_bits bit, const char *text);
/* --engine=nop: no request reaches the target, and nothing around the run
 * may either (the contract's Safety: no write, flush, trim or zone reset):
 * the target is opened read-only, nothing is laid out, evicted, flushed,
 * probed for trims or reset, and a write test asks no --force (issue 44). */
bool opt_moves_no_data(const struct options *opt);

/* Zeroed storage of size bytes that r owns until result_release (which
 * calls release(p) first when given): what a command's run fills and its
 * renderers read after it returns, never a static, so two runs in one
 * process never share it.  NULL with errno ENOMEM when out of memory or of
 * RESULT_KEEP slots. */
void *result_keep(struct result *r, size_t size, void (*release)(void *p));
/* Frees what r keeps, newest first; r's pointers into it are stale after. */
void result_release(struct result *r);
/* result_release for a part's result (a round's, a step's) kept by the
 * whole's result_keep: what the part's last run kept goes with it. */
void result_release_part(void *part);

#endif
