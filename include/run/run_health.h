/* What the disks under the target say about themselves (devinfo_health.h),
 * read around a run: before the timed loop and after it (and once for
 * `info`), kept in one struct health_run per process that r->health points
 * at, and a critical warning turned into a warning and a finding.
 * A runner room. */
#ifndef RUN_HEALTH_H
#define RUN_HEALTH_H

#include "bench.h"
#include "diskbench.h"
#include "devinfo_health.h"

/* Reads every leaf disk under the run's targets (r->targets' devices with
 * several, else r->device), each once, at most HEALTH_MAX_DISKS (the rest
 * counted as left out), and points r->health at the readings. */
void run_health_before(struct result *r);
/* Reads them again after run_measure's run and gives each disk its share
 * of the bytes each target saw (job->parts; warm-up included); nothing when
 * run_health_before found no disk. */
void run_health_after(struct result *r, const struct bench_job *job);
/* The same for a command that ran its parts itself (matrix, files, sweep):
 * bytes[k] what it moved on target k (one per target, as
 * run_health_devices orders them), in the direction wrote says; NULL where
 * that cannot be known, and why (a string that outlives the result). */
void run_health_after_moved(struct result *r, const uint64_t *bytes, bool wrote,
			    const char *why);
/* What the disks saw of a single-target run: its counted bytes and its
 * warm-up I/O (untimed, but written or read all the same). */
uint64_t run_health_bytes(const struct result *r);
/* Warm-up bytes: ios per thread of bs, within the region. */
uint64_t run_health_warmup_bytes(unsigned ios, unsigned threads, uint64_t bs, uint64_t region);
/* A warning and a "health_warning" finding for each disk whose latest
 * reading is an alarm (health_alarm). */
void run_health_check(struct result *r);
/* The parts, for tests: the devices of the run's targets into devices
 * (OPT_MAX_TARGETS of room), their number returned; the disks under them
 * read through ops in devdir ("/dev" if NULL), each once; each disk's share
 * of bytes[k] (what target k moved; NULL: not known, for why) and the
 * run's, where they can be told. */
unsigned run_health_devices(const struct result *r, const struct devinfo **devices);
void run_health_read(struct health_run *run, const struct devinfo *const *devices, unsigned n,
		     const char *devdir, const struct health_ops *ops, bool after);
void run_health_attribute(struct health_run *run, const struct devinfo *const *devices,
			  unsigned n, const uint64_t *bytes, bool wrote, const char *why);
void run_health_report(const struct health_run *run, struct result *r);

#endif
