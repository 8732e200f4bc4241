/* Steps every test command shares, in the order they run: prepare the
 * target, size the region, lay out data, open, evict and check the cache,
 * then measure and fill the result.  Commands are short sequences of these. */
#ifndef RUNNER_H
#define RUNNER_H

#include "bench.h"
#include "target.h"

/* Prepares the target and records it in r; write tests (r->dir) get the
 * safety checks. */
int run_prepare(struct target *t, const struct options *opt, struct result *r);
/* What sysfs says of the device holding path, for r->device (left NULL
 * where it cannot be told). */
void run_probe_device(const char *path, struct result *r);
/* The bytes the test ranges over: -s, clipped to an existing file or
 * device, rounded down to whole blocks. */
int run_plan_region(const struct target *t, const struct options *opt, bool write_test,
		    struct result *r);
/* Fails early, with the remedy, when O_DIRECT cannot work on the target. */
int run_check_direct(struct target *t, const struct options *opt, struct result *r);
/* Fills diskbench's own new file with r->region bytes of data, flushed, in
 * 1 MiB writes outside any timing.  With max_s > 0 it stops after max_s
 * seconds and the region shrinks, with a warning, to the whole blocks
 * written.  *took_s (if not NULL): how long it took. */
int run_layout(struct target *t, const struct options *opt, double max_s, struct result *r,
	       double *took_s);
/* Warnings that depend only on the target and options. */
void run_warn_target(const struct target *t, const struct options *opt, bool write_test,
		     struct result *r);
/* --drop-caches, then the residency measurement that proves it worked. */
void run_evict(const struct target *t, const struct options *opt, struct result *r);
/* Evicts again between parts of one run (sweep points through the page
 * cache), saying so only if it fails; returns the percentage still
 * resident, or -1 where it cannot be known. */
double run_evict_again(const struct target *t, const struct options *opt, struct result *r);
/* False, with the reason in r->residency_hidden, where the kernel would
 * report residency falsely (files the caller neither owns nor may write). */
bool run_residency_visible(const struct target *t, struct result *r);
/* Before reading data diskbench did not write: refuses a file with holes
 * in the region (unless --force: then a warning), and warns when samples
 * spread over the region all read back as zeros (never written or
 * discarded: the device may answer without touching its media). */
int run_check_data(struct target *t, const struct options *opt, struct result *r);
/* An empty result for a part of whole's run (a quick step, a steady round):
 * its test, options and direction, and whole's target, file and device. */
void run_part_result(struct result *part, const struct result *whole, const char *test,
		     const struct options *opt, enum io_dir dir);
/* The one job builder: a job over [0, region) in the given direction and
 * pattern, from opt's block size, threads, limits, seed and sync mode.
 * Commands that run parts (sweep points, quick steps) pass a copy of opt
 * with the part's figures. */
void run_describe_job(struct bench_job *job, enum io_dir dir, enum io_pattern pattern,
		      const struct options *opt, uint64_t region);
/* The engine for opt->engine ("auto": io_uring, else aio, else sync, with a
 * warning saying why a better one was passed over); an explicit engine
 * that cannot run here, or qd beyond what the engine holds, fails (exit 1)
 * with the reason.  Records the engine in r. */
int run_pick_engine(const struct options *opt, unsigned qd, struct result *r,
		    const struct engine_ops **ops);
/* The requests in flight per thread a run whose depth nobody asked for
 * (--rate's and sla's default, steady's preconditioning: not --qd) gets
 * from the engine opt names: qd, or the engine's own depth where that is
 * less (the sync engine keeps one), with a warning naming what ("the open
 * loop") in r (issue 44: such a run failed over a depth nobody asked). */
unsigned run_fit_depth(const struct options *opt, unsigned qd, const char *what,
		       struct result *r);
/* Warm-up I/Os per thread the job gets: --warmup for O_DIRECT runs, none
 * through the page cache. */
unsigned run_warmup_ios(const struct options *opt);
/* Makes job run for its time limit alone, starting over at the region's end. */
void run_job_by_time(struct bench_job *job);
/* -t as a duration (fio's time_based): with a time limit the job goes round
 * its region until the time is up; --once (or -t 0) makes it one pass,
 * random I/O as many blocks as the region holds.  Reads through the page
 * cache and trims no write refills make one pass, -t at most. */
void run_job_for(struct bench_job *job, const struct options *opt);
/* Whether job trims and writes nothing (trim, randtrim, a mix of reads
 * and trims): a second pass would trim blocks the first one freed. */
bool run_job_trims_alone(const struct bench_job *job);
/* run_ops.c, the mixes and trims (issue 31).  A mix's shares (--mix, a
 * trim test's t100) into job: each I/O's operation drawn from the seed;
 * the final fsync only for a mix that writes. */
void run_job_mix(struct bench_job *job, const struct options *opt);
/* Whether t (open for writing) can discard, asked once before the run
 * without discarding its data: EXIT_OK, or a usage error (exit 2) saying why. */
int run_check_trim(const struct target *t, struct result *r);
/* --poll: the target's block device has poll queues, else a usage error
 * saying why (none, or no sysfs to tell). */
int run_check_poll(const struct target *t, struct result *r);
/* A mix's figures by operation (result.ops, kept with r) and the way its
 * trims ran (result.trim_engine), from the loop's outcome. */
void run_fill_ops(const struct bench_job *job, const struct bench_outcome *out,
		  struct result *r);
/* bench_run with the fleet's part (r->fleet, when not NULL): --start-at's
 * wait just before the gate opens, on the first run of the process only,
 * and the record's wall-clock times (the first run's start, this run's
 * end).  Commands that call the timed loop themselves (sweep) use this. */
int run_bench(struct bench_job *job, struct bench_outcome *out,
	      const struct bench_sampler *sampler, struct result *r);
/* Runs the timed loop on t->fd and fills r (or r->error).  A job over
 * several targets (multi.h) has its descriptors set, and t is the array of
 * its targets (a failure names the one it was on; the flush check after a
 * write test uses the first). */
/* A zoned block device (issue 31; zoned.h) among t (job->ntargets of them,
 * or one), before any I/O: what it cannot run refused (exit 2, the reason
 * said), a write test's part-written zones
 * emptied, a read test's region cut to the blocks below the write pointers,
 * and the zones into job->zones (allocated), r->zoned.  Nothing for any
 * other target.  Then run_zoned_finish after the run (out NULL when none
 * ran): the resets into r->zoned, job->zones freed. */
int run_zoned_prepare(const struct target *t, struct bench_job *job, const struct options *opt,
		      struct result *r);
void run_zoned_finish(struct bench_job *job, const struct bench_outcome *out, struct result *r);
/* What a zoned target among t cannot run of job, refused (exit 2, the
 * reason said) without reading or resetting a zone; EXIT_OK otherwise.  A
 * command of several runs asks it for a later run before an earlier one
 * writes (sla: its open-loop steps, before its closed-loop probe, issue 44). */
int run_zoned_refuse(const struct target *t, const struct bench_job *job,
		     const struct options *opt, struct result *r);
/* What only a zoned device's zone report tells: the least capacity of its
 * sequential zones and how many conventional zones it has.  1 with both, 0
 * if path is no zoned device, -1 if it cannot be opened or asked. */
int run_zone_census(const char *path, int64_t *cap, int64_t *conventional);

int run_measure(const struct target *t, struct bench_job *job, const struct options *opt,
		struct result *r);

#endif
