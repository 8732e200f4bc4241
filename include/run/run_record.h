/* A measured run's observations of its surroundings, beside its figures:
 * the disks' counters, their temperatures, the cgroup limits, the CPU
 * governor, the process's CPU time and the test region's page-cache
 * residency, read at one pair of instants, when the start gate opens
 * (run_record_open) and right after the last worker joins
 * (run_record_close), so device figures are divided by the run's own
 * window.  The caller owns the record (the command keeping the result);
 * nothing here is static, so two runs in one process (quick's steps)
 * never see each other's.  A runner room: runner.c opens and closes it. */
#ifndef RUN_RECORD_H
#define RUN_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "detect.h"
#include "devinfo.h"
#include "devinfo_cgroup.h"
#include "devinfo_health.h"
#include "devinfo_host.h"
#include "devinfo_stat.h"
#include "series.h"

/* Disks whose temperature is followed (the first leaves with a sensor). */
#define RECORD_TEMP_DISKS 4

struct run_record {
	bool armed;                   /* prepared, not yet closed: the next gate opens it */
	const struct devinfo *device; /* the disks read; NULL: none known */
	const char *sysfs;            /* where their counters are ("/sys") */
	bool sampled;                 /* a series and temperatures are kept */
	struct series series;
	uint64_t open_ns, close_ns;   /* CLOCK_MONOTONIC at the two instants, 0: not yet */
	struct devio devio;           /* the disks' counters between them */
	struct temp_track temps[RECORD_TEMP_DISKS];
	struct hwmon_sensor sensors[RECORD_TEMP_DISKS];
	unsigned ntemps;
	struct cgroup_limits limits;  /* on the disks under the target, at the close */
	char cpu_governor[32];        /* cpu0's at the close; "" unknown */
	struct health_run health;     /* what the disks said of themselves (run_health.c) */
	/* the process's user and system CPU time (getrusage) at the open, then
	 * over the window in % of it (100 per CPU kept busy); < 0 unknown */
	bool cpu_read;
	uint64_t usr_open_ns, sys_open_ns;
	double usr_pct, sys_pct;
	/* the page cache over [0, cache_len) of cache_fd (run_record_watch_cache;
	 * -1: none), read just outside the window at both ends; < 0 unknown */
	int cache_fd;
	uint64_t cache_len;
	double resident_open_pct, resident_close_pct;
	bool cache_opened;            /* resident_open_pct read (run_record_open_cache) */
};

/* Empties rec for a run on the disks of d (NULL: none known); with sampled,
 * a series of interval_s samples and the disks' temperature sensors. */
void run_record_prepare(struct run_record *rec, const struct devinfo *d, bool sampled,
			double interval_s);
/* After run_record_prepare: the residency of [0, len) of fd is read at both
 * instants (one target whose residency the kernel shows, runner.c). */
void run_record_watch_cache(struct run_record *rec, int fd, uint64_t len);
/* The gate's residency, read ahead of run_record_open (which reads it
 * otherwise): before a --start-at wait, so that walking a large region does
 * not delay the agreed start. */
void run_record_open_cache(struct run_record *rec);
/* The first instant: the disks' counters and temperatures, the CPU time,
 * the residency (once, and only after run_record_prepare). */
void run_record_open(struct run_record *rec);
/* Reads the temperatures again, t_s into the run (from the sampler). */
void run_record_temps(struct run_record *rec, double t_s);
/* The second instant: the counters and the CPU time again, the cgroup
 * limits, the governor, the residency. */
void run_record_close(struct run_record *rec);
/* Seconds between the two instants; 0 before both are taken. */
double run_record_window_s(const struct run_record *rec);

#endif
