/* What the disks under the target say about themselves (devinfo_health.h),
 * read around a run: before the timed loop and after it (and once for
 * `info`), kept in one struct health_run per process that r->health points
 * at, and a critical warning turned into a warning and a finding.
 * A runner room. */
#ifndef RUN_HEALTH_H
#define RUN_HEALTH_H

#include "diskbench.h"
#include "devinfo_health.h"

/* Reads every leaf of r->device (at most HEALTH_MAX_DISKS) and points
 * r->health at the readings. */
void run_health_before(struct result *r);
/* Reads them again after the run and records the run's bytes and
 * direction; nothing when run_health_before found no disk. */
void run_health_after(struct result *r);
/* What the disks saw of the run: its counted bytes and its warm-up I/O
 * (untimed, but written or read all the same); 0 for a run over several
 * targets, whose disks are not all read. */
uint64_t run_health_bytes(const struct result *r);
/* A warning and a "health_warning" finding for each disk whose latest
 * reading is an alarm (health_alarm). */
void run_health_check(struct result *r);
/* The same from a given run (tests), with the ops and device directory. */
void run_health_read(struct health_run *run, const struct devinfo *d, const char *devdir,
		     const struct health_ops *ops, bool after);
void run_health_report(const struct health_run *run, struct result *r);

#endif
