/* The benchmark clock: CLOCK_MONOTONIC in nanoseconds.  A reading means
 * nothing alone; it is only valid to subtract two of them. */
#ifndef CLOCK_H
#define CLOCK_H

#include <stdint.h>

uint64_t clock_ns(void);
/* The calling thread's CPU time in nanoseconds (0 if it cannot be read):
 * read when a timing starts and once at its end, outside the hot loop. */
uint64_t clock_thread_cpu_ns(void);

#endif
