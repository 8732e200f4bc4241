/* Recording failures and warnings in the result, for main.c to print.
 * A format ending in ':' gets ": strerror(errno)" appended, as in sbase. */
#ifndef UTIL_H
#define UTIL_H

#include "diskbench.h"

/* Stores the message in r->error and returns code, so callers can write
 * `return fail(r, EXIT_RUN, "open '%s':", path);`. */
int fail(struct result *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void warn(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* text when the command takes the option bit, else "": a message suggests
 * only options that the same command accepts. */
const char *opt_hint(const struct options *opt, unsigned bit, const char *text);

#endif
