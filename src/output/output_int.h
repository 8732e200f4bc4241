/* What the single-test renderers' files (output.c, output_text.c,
 * output_csv_row.c) share: figures derived from a result.  Nothing outside
 * the room includes it. */
#ifndef OUTPUT_INT_H
#define OUTPUT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "output.h"

/* Whether the run wrote data (a mix only if it has writes): its sync mode
 * is said. */
bool result_is_write(const struct result *r);
/* Completions taken per system call that waited for or took them (0: no
 * such calls, as with the sync engine). */
double result_completions_per_reap(const struct result *r);
/* How the run chose to submit (issue 40): "one_by_one", "batched", "mixed"
 * (threads chose differently) or "unmeasured" (the run ended before its
 * probe did); NULL where it did not choose. */
const char *result_policy_name(const struct result *r);
/* The segments a request makes from the system's pages, as fio's and dd's
 * buffers are (one a page at most): its block over the page; 0 unknown. */
unsigned result_pages_segments(const struct result *r);
/* Whether the huge-page buffers set the figure apart, as far as the run
 * sees it: O_DIRECT requests of data whose buffers made half the segments
 * that pages make, or fewer (issue 39). */
bool result_buffers_differ(const struct result *r);
/* n a second over seconds, 0 over none. */
double out_per_second(uint64_t n, double seconds);

#endif
