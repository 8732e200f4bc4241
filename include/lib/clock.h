/* The benchmark clock: CLOCK_MONOTONIC in nanoseconds.  A reading means
 * nothing alone; it is only valid to subtract two of them. */
#ifndef CLOCK_H
#define CLOCK_H

#include <stdint.h>

uint64_t clock_ns(void);

#endif
