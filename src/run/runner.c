#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ceiling.h"
#include "checks.h"
#include "clock.h"
#include "devinfo.h"
#include "fleet.h"
#include "io.h"
#include "names.h"
#include "progress.h"
#include "run_health.h"
#include "run_record.h"
#include "sampling.h"
#include "units.h"
#include "util.h"
#include "utctime.h"

int run_prepare(struct target *t, const struct options *opt, struct result *r)
{
	/* --engine=nop writes nothing: a write test is checked as a read test */
	bool write_test = r->dir == IO_WRITE && !opt_moves_no_data(opt);
	target_keep_files(opt->keep);
	int code = target_prepare(t, opt->target, write_test, opt->force, r);
	t->no_data = opt_moves_no_data(opt);
	if (code != EXIT_OK)
		return code;
	snprintf(r->file, sizeof(r->file), "%s", t->path);
	run_probe_device(opt->target, r);
	r->file_state = t->kind == TARGET_BLOCKDEV ? "device" : t->created ? "new" : "existing";
	return code;
}

void run_probe_device(const char *path, struct result *r)
{
	/* for the "device" key of the JSON: kept with the result */
	struct devinfo *device = result_keep(r, sizeof(*device), NULL);
	if (device && devinfo_probe(path, devinfo_default_roots(), device) == 0)
		r->device = device;
}

int run_plan_region(const struct target *t, const struct options *opt, bool write_test,
		    struct result *r)
{
	uint64_t region = opt->size;
	/* an existing file is measured within its size: a write test grows it
	 * (and then measures block allocation) only when asked to */
	bool clip = t->kind == TARGET_BLOCKDEV ||
		    (t->kind == TARGET_FILE && !(write_test && opt->grow));
	if (clip && t->size < region)
		region = t->size;
	region -= region % opt->bs;
	if (region == 0) {
		char bs[32];
		fmt_size_exact(bs, sizeof(bs), opt->bs);
		if (clip)
			return fail(r, EXIT_USAGE, "'%s' (%llu bytes) is smaller than one block (%s)",
				    t->path, (unsigned long long)t->size, bs);
		return fail(r, EXIT_USAGE, "size is smaller than one block (%s)", bs);
	}
	r->region = region;
	if (write_test && t->kind == TARGET_FILE && region > t->size)
		return target_check_space(t, region - t->size, r);
	return EXIT_OK;
}

int run_check_direct(struct target *t, const struct options *opt, struct result *r)
{
	if (!opt->direct)
		return EXIT_OK;
	int code = target_open(t, O_RDONLY, true, r);
	if (code != EXIT_OK)
		return code;
	uint32_t align = plat_dio_align(t->fd, t->kind == TARGET_BLOCKDEV);
	target_close(t);
	/* no STATX_DIOALIGN (older kernels): the device's logical block size */
	if (align == 0 && r->device && r->device->has_top && r->device->top.logical_block_size > 0)
		align = (uint32_t)r->device->top.logical_block_size;
	if (align > 0 && (opt->bs % align != 0 || r->region % align != 0))
		return fail(r, EXIT_USAGE, "block size %llu is not a multiple of %u, the O_DIRECT "
			    "alignment of '%s'; use a multiple of %u%s",
			    (unsigned long long)opt->bs, align, t->created ? opt->target : t->path, align,
			    opt_hint(opt, OPT_NODIRECT, " or --no-direct"));
	return EXIT_OK;
}

/* The region shrinks to what a time-capped layout wrote, in whole blocks. */
static int shrink_to_layout(const struct target *t, const struct options *opt, double max_s,
			    uint64_t written, struct result *r)
{
	written -= written % opt->bs;
	if (written >= r->region)
		return EXIT_OK;
	char span[32], bs[32];
	fmt_bytes_iec(span, sizeof(span), written);
	warn(r, "laying out the file stopped after %.0f s at %s: the steps range over that "
	     "span only (on a disk with seeks, a small span flatters random I/O)", max_s, span);
	r->region = written;
	if (r->region >= opt->bs)
		return EXIT_OK;
	fmt_size_exact(bs, sizeof(bs), opt->bs);
	return fail(r, EXIT_RUN, "could not lay out even %s of '%s' in %.0f s", bs, t->path, max_s);
}

/* Said before the layout, so that a run cut short while writing to memory
 * still says where the data went. */
static void warn_in_ram(struct target *t, struct result *r)
{
	if (!t->fs_known || !t->fs.in_ram || t->kind == TARGET_BLOCKDEV || t->ram_warned)
		return;
	warn(r, "'%s' is on %s: its data live in RAM, so the figure is memory speed, "
	     "not a disk's", t->path, t->fs.type);
	t->ram_warned = true;
}

int run_layout(struct target *t, const struct options *opt, double max_s, struct result *r,
	       double *took_s)
{
	uint64_t written = 0;
	if (took_s)
		*took_s = 0;
	if (t->no_data)
		return EXIT_OK; /* --engine=nop: diskbench's own file stays empty */
	int code = target_check_space(t, r->region, r);
	if (code == EXIT_OK)
		warn_in_ram(t, r);
	if (code == EXIT_OK)
		code = target_open(t, O_RDWR, false, r);
	if (code != EXIT_OK)
		return code;
	uint64_t t0 = clock_ns();
	int rc = io_layout_timed(t->fd, r->region, 1u << 20, opt->zeros, opt->seed,
				 &bench_stop_requested, max_s, &written);
	if (took_s)
		*took_s = (double)(clock_ns() - t0) / 1e9;
	target_close(t);
	if (rc != 0 && bench_stop_requested) {
		r->interrupted = true;
		return fail(r, EXIT_SIGINT, "while laying out '%s'", t->path);
	}
	if (rc != 0)
		return fail(r, EXIT_RUN, "lay out '%s':", t->path);
	return max_s > 0 ? shrink_to_layout(t, opt, max_s, written, r) : EXIT_OK;
}

void run_warn_target(const struct target *t, const struct options *opt, bool write_test,
		     struct result *r)
{
	if (t->fs_known && t->fs.in_ram && t->kind != TARGET_BLOCKDEV && !t->ram_warned)
		warn(r, "'%s' is on %s: its data live in RAM, so the figure is memory speed, "
		     "not a disk's", t->path, t->fs.type);
	if (t->kind == TARGET_BLOCKDEV && t->fd >= 0) {
		char ram[64];
		if (devinfo_fd_in_ram(t->fd, ram, sizeof(ram)))
			warn(r, "'%s' is a RAM-backed device (%s): the figure is memory speed, "
			     "not a disk's", t->path, ram);
	}
	if (opt->direct && t->fs_known && strcmp(t->fs.type, "zfs") == 0)
		warn(r, "'%s' is on zfs: before ZFS 2.3 it accepts O_DIRECT yet serves reads from "
		     "its own cache (ARC), so the figure may come from memory, not the disk", t->path);
	if (write_test && opt->sync == SYNC_NONE && !opt->sync_every)
		warn(r, "%s: writes are not flushed, so the figure may measure a cache%s",
		     (opt->accepts & OPT_JOB) ? "no sync=, fsync= or fdatasync= in the job"
					      : "--sync=none", opt_hint(opt, OPT_SYNC, "; use --sync=dsync or --sync=fsync for what reaches "
			      "the device"));
}

/* --drop-caches=file|all: the test file's pages out of the page cache;
 * false when that was asked and failed. */
static bool evict_file(const struct target *t, const struct options *opt, struct result *r)
{
	if (opt->drop == DROP_NONE)
		return true;
	bool blockdev = t->kind == TARGET_BLOCKDEV, done = true;
	if (plat_evict(t->fd, blockdev, r->region) != 0) {
		warn(r, "could not evict '%s' from the page cache:", t->path);
		done = false;
	}
	/* a loop device's reads may be served from its backing file's pages */
	char backing[PATH_MAX];
	bool direct_io;
	if (blockdev && devinfo_fd_loop_backing(t->fd, backing, sizeof(backing), &direct_io) == 0)
		plat_evict_path(backing);
	return done;
}

double run_evict_again(const struct target *t, const struct options *opt, struct result *r)
{
	double pct;
	if (t->no_data)
		return -1;
	evict_file(t, opt, r);
	if (!plat_residency_visible(t->fd) || plat_resident_pct(t->fd, r->region, &pct) != 0)
		return -1;
	return pct;
}

bool run_residency_visible(const struct target *t, struct result *r)
{
	if (plat_residency_visible(t->fd))
		return true;
	r->resident_before_pct = -1;
	r->residency_hidden = "the kernel hides page-cache residency of files you neither own "
			      "nor can write";
	return false;
}

void run_evict(const struct target *t, const struct options *opt, struct result *r)
{
	if (t->no_data) { /* --engine=nop reads nothing: no fdatasync, no BLKFLSBUF */
		r->evicted = drop_mode_name(DROP_NONE);
		return;
	}
	/* the label says what was done, not what was asked */
	enum drop_mode done = evict_file(t, opt, r) ? opt->drop : DROP_NONE;
	if (done == DROP_ALL && plat_drop_all_caches() != 0) {
		warn(r, "could not drop all caches (/proc/sys/vm/drop_caches needs root), "
		     "only the test file was evicted:");
		done = DROP_FILE;
	}
	r->evicted = drop_mode_name(done);
	if (!run_residency_visible(t, r))
		return;
	if (plat_resident_pct(t->fd, r->region, &r->resident_before_pct) != 0) {
		r->resident_before_pct = -1;
		warn(r, "could not measure how much of '%s' is in the page cache:", t->path);
		return;
	}
	if (!opt->direct && r->resident_before_pct >= 1.0)
		warn(r, "%.1f %% of the data was still in the page cache before the run: the figure "
		     "may come from memory, not the disk%s", r->resident_before_pct,
		     opt->drop == DROP_NONE ? " (--drop-caches=none)" : "");
}

void run_part_result(struct result *part, const struct result *whole, const char *test,
		     const struct options *opt, enum io_dir dir)
{
	result_release(part); /* a reused part: what its last run kept (a mix's, the zones') */
	memset(part, 0, sizeof(*part));
	part->test = test;
	part->target = whole->target;
	part->device = whole->device; /* the checks over a part's series weigh its disks */
	part->opt = opt;
	part->dir = dir;
	part->region = whole->region;
	part->resident_before_pct = -1;
	part->resident_after_pct = -1;
	part->file_state = whole->file_state;
	snprintf(part->file, sizeof(part->file), "%s", whole->file);
}

void run_describe_job(struct bench_job *job, enum io_dir dir, enum io_pattern pattern,
		      const struct options *opt, uint64_t region)
{
	memset(job, 0, sizeof(*job));
	job->dir = dir;
	job->pattern = pattern;
	job->bs = opt->bs;
	job->region = region;
	job->bytes_limit = opt->size - opt->size % opt->bs;
	job->time_limit_s = opt->time_s;
	job->threads = opt->threads;
	job->seed = opt->seed;
	job->zeros = opt->zeros;
	job->fsync_at_end = dir == IO_WRITE && opt->sync == SYNC_FSYNC && !opt_moves_no_data(opt);
	job->warmup_ios = run_warmup_ios(opt);
	job->qd = opt->qd ? opt->qd : 1;
	job->batch = opt->batch;
	/* issue 40: how to submit is the run's to choose unless asked */
	job->submit_auto = !(opt->given & (OPT_BATCH | OPT_REAP));
	job->page_buffers = opt->buffers == BUF_PAGES;
	job->rate = opt->rate;
	job->arrivals = opt->arrivals;
	job->reap_each = opt->reap == REAP_SYSCALL;
	job->poll = opt->poll;
	job->sqpoll = opt->sqpoll;
	job->sync_every = dir == IO_WRITE ? opt->sync_every : 0;
	job->sync_data = opt->sync_data;
	job->at_position = opt->at_position;
}

unsigned run_warmup_ios(const struct options *opt)
{
	/* through the page cache a warm-up read would warm (and read ahead of)
	 * the very cache the test measures */
	return opt->direct ? opt->warmup_ios : 0;
}

static const char *end_name(enum bench_end e)
{
	switch (e) {
	case BENCH_END_TIME: return "time";
	case BENCH_END_PASS: return "one pass";
	case BENCH_END_STEADY: return "steady";
	case BENCH_END_STOP: return "interrupted";
	case BENCH_END_ERROR: return "error";
	default: return NULL;
	}
}

/* Bytes moved over the bytes of every region the job covers. */
static double passes(const struct bench_job *job, uint64_t bytes)
{
	uint64_t region = 0;
	unsigned n = job->ntargets > 1 ? job->ntargets : 1;
	for (unsigned k = 0; k < n; k++)
		region += job->ntargets > 1 ? job->regions[k] : job->region;
	return region ? (double)bytes / (double)region : 0.0;
}

_Static_assert(RESULT_QD_BUCKETS == BENCH_QD_BUCKETS, "one qd_hist scheme");

static void fill_result(const struct bench_outcome *out, struct result *r)
{
	memcpy(r->qd_hist, out->qd_hist, sizeof(r->qd_hist));
	r->lat = out->lat;
	r->bytes = out->bytes;
	r->ios = out->ios;
	r->seconds = out->seconds;
	r->interrupted = out->stopped;
	r->huge_buffers = out->huge_buffers;
	/* one thread uses at most all of one CPU: above that is the disagreement
	 * of the thread's CPU clock and the monotonic one over a short run */
	r->cpu_busiest = out->cpu_busiest < 1.0 ? out->cpu_busiest : 1.0;
	r->submit_calls = out->submit_calls;
	r->submitted = out->submitted;
	r->engine_facts = true;
	r->reap_calls = out->reap_calls;
	r->reaped = out->reaped;
	r->fixed_buffers = out->fixed_buffers;
	r->fixed_file = out->fixed_file;
	snprintf(r->registration_why, sizeof(r->registration_why), "%s", out->reg_why);
	r->policy = (struct result_policy){ .threads = out->policy.threads,
					    .measured = out->policy.measured,
					    .one_by_one = out->policy.one_by_one,
					    .gain_min = out->policy.gain_min,
					    .gain_max = out->policy.gain_max };
	r->buffer_segments = out->buffer_segments;
	r->page_size = (uint32_t)sysconf(_SC_PAGESIZE);
	r->ended = end_name(out->ended);
	r->service_lat = out->lat_service;
	r->open_loop.late_ios = out->late_ios;
	r->open_loop.unserved = out->unserved;
	r->open_loop.max_lag_ns = out->max_lag_ns;
	r->syncs = out->syncs;
	r->sync_lat = out->lat_sync;
}

/* The end of the file inside the region: where the file ends now (a read
 * wholly past it knows only that it is at or before its offset). */
static int eof_failure(const struct target *t, const struct bench_job *job,
		       const struct bench_outcome *out, struct result *r)
{
	struct stat st;
	uint64_t end = out->failed_offset;
	if (fstat(t->fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size < end)
		end = (uint64_t)st.st_size;
	uint64_t region = job->ntargets > 1 ? job->regions[out->failed_target] : job->region;
	return fail(r, EXIT_RUN, "%s '%s': the file ends at offset %llu, inside the %llu bytes the "
		    "run was to cover: it shrank during the run", out->failed_op, t->path,
		    (unsigned long long)end, (unsigned long long)region);
}

/* The failure of a run, named for what a user can act on. */
static int run_failure(const struct target *t, const struct bench_job *job,
		       const struct bench_outcome *out, const struct options *opt, struct result *r)
{
	char bs[32];
	const char *op = out->failed_op;
	fmt_size_exact(bs, sizeof(bs), job->bs);
	errno = out->error ? out->error : ENOMEM;
	if (out->eof)
		return eof_failure(t, job, out, r);
	if (!op || strcmp(op, "allocate") == 0)
		return fail(r, EXIT_RUN, "cannot allocate the I/O buffers (%u x %s):", job->threads, bs);
	if (strcmp(op, "start thread") == 0)
		return fail(r, EXIT_RUN, "cannot start %u threads:", job->threads);
	if (out->failed_why[0]) /* the engine could not start: its own reason */
		return fail(r, EXIT_RUN, "%s", out->failed_why);
	if (strcmp(op, "trim") == 0) /* a discard, never an O_DIRECT request */
		return fail(r, EXIT_RUN, "trim '%s' at offset %llu (%s, %s): the kernel refused the "
			    "discard:", t->path, (unsigned long long)out->failed_offset, bs,
			    out->trim_path ? out->trim_path : "discard");
	if (out->error == EINVAL && opt->direct)
		return fail(r, EXIT_RUN, "%s '%s' at offset %llu: the kernel refused the O_DIRECT "
			    "request (Invalid argument): the block size %s or the offset does not meet "
			    "the device's alignment%s", op, t->path,
			    (unsigned long long)out->failed_offset, bs,
			    opt_hint(opt, OPT_NODIRECT, "; use a multiple of its logical block size, "
				     "or --no-direct"));
	return fail(r, EXIT_RUN, "%s '%s' at offset %llu:", op, t->path,
		    (unsigned long long)out->failed_offset);
}

/* What runs just before the gate opens: --start-at's wait (before the
 * first timed loop of the process only), then a CLOCK_REALTIME and
 * CLOCK_MONOTONIC reading taken together, which turn the loop's monotonic
 * start into wall-clock time. */
struct start_hook {
	struct result *r;
	bool waited;
	int64_t real_ns;
	uint64_t mono_ns;
};

static void warn_start(const struct fleet_record *f, struct result *r)
{
	char at[UTC_LEN];
	utc_format(at, sizeof(at), f->start_at_ns);
	if (f->clock_synced == 0)
		warn(r, "--start-at: the system clock is not synchronised (the kernel admits an error "
		     "of up to %.3f s), so hosts may start that far apart; synchronise it with "
		     "chrony, ntpd or systemd-timesyncd", (double)f->clock_maxerror_us / 1e6);
	if (f->start_passed)
		warn(r, "--start-at %s had passed %.3f s before the run was ready (laying out, "
		     "evicting and opening took longer); it started at once", at,
		     (double)f->late_us / 1e6);
}

static int before_start(void *ctx)
{
	struct start_hook *h = ctx;
	struct fleet_record *f = h->r->fleet;
	/* nothing but the clock readings between the wake-up and the gate:
	 * the warnings come after the run */
	if (f && f->start_wanted && !f->start_waited) {
		h->waited = true;
		if (h->r->record) /* not between the wake-up and the gate */
			run_record_open_cache(h->r->record);
		if (fleet_wait(f, &bench_stop_requested) != 0)
			return -1;
	}
	h->real_ns = fleet_now_ns();
	h->mono_ns = clock_ns();
	if (h->r->record)
		run_record_open(h->r->record);
	return 0;
}

int run_bench(struct bench_job *job, struct bench_outcome *out,
	      const struct bench_sampler *sampler, struct result *r)
{
	struct start_hook hook = { .r = r };
	job->before_start = before_start;
	job->before_start_ctx = &hook;
	int rc = bench_run(job, out, sampler);
	if (r->record)
		run_record_close(r->record); /* right after the last worker joined */
	job->before_start = NULL;
	job->before_start_ctx = NULL;
	struct fleet_record *f = r->fleet;
	if (hook.waited && !bench_stop_requested)
		warn_start(f, r);
	if (!f || out->t_start_ns == 0 || hook.mono_ns == 0)
		return rc;
	int64_t start = hook.real_ns + (int64_t)(out->t_start_ns - hook.mono_ns);
	if (!f->timed)
		f->started_at_ns = start;
	f->ended_at_ns = start + (int64_t)(out->seconds * 1e9);
	f->timed = true;
	return rc;
}

/* One target's page cache, whose residency the eviction could measure
 * (read tests), is read again at the gate and after the join. */
static void watch_cache(const struct target *t, const struct bench_job *job, struct result *r)
{
	if (r->record && job->ntargets <= 1 && r->evicted && !r->residency_hidden)
		run_record_watch_cache(r->record, t->fd, r->region);
}

/* What the record read at the two instants, into the result. */
static void keep_record(struct result *r)
{
	const struct run_record *rec = r->record;
	bool closed = rec && rec->close_ns != 0;
	r->cpu_usr_pct = closed ? rec->usr_pct : -1;
	r->cpu_sys_pct = closed ? rec->sys_pct : -1;
	if (!closed || rec->cache_fd < 0)
		return;
	/* the gate's, after the warm-up, in place of the eviction's */
	r->resident_before_pct = rec->resident_open_pct;
	r->resident_after_pct = rec->resident_close_pct;
}

/* A run of -t seconds that ended after one pass, without --once: only a
 * run through the page cache and one of trims alone do (run_job_for), and
 * the result says why. */
static void warn_short_pass(const struct bench_job *job, const struct options *opt,
			    struct result *r)
{
	if (job->wrap || opt->once || opt->time_s <= 0 || !r->ended ||
	    strcmp(r->ended, "one pass") != 0 || r->seconds >= opt->time_s)
		return;
	bool trims = run_job_trims_alone(job);
	warn(r, "the run ended after one pass over the region, in %.3f s of -t %g: a second pass "
	     "would %s%s", r->seconds, opt->time_s,
	     trims ? "trim blocks the first one freed" : "read from the page cache the first one filled",
	     opt_hint(opt, OPT_SIZE, trims ? "; use a larger -s to trim for longer"
					   : "; use a larger -s to read for longer"));
}

int run_measure(const struct target *t, struct bench_job *job, const struct options *opt,
		struct result *r)
{
	int code = run_pick_engine(opt, job->qd, r, &job->engine);
	for (unsigned k = 0; code == EXIT_OK && opt->poll && k < (job->ntargets ? job->ntargets : 1); k++)
		code = run_check_poll(&t[k], r); /* before any I/O: a device without poll queues */
	if (code == EXIT_OK) /* a zoned device: refused with the reason, or its zones into the job */
		code = run_zoned_prepare(t, job, opt, r);
	if (code != EXIT_OK)
		return code;
	struct bench_outcome *out = calloc(1, sizeof(*out));
	if (!out) {
		run_zoned_finish(job, NULL, r);
		errno = ENOMEM;
		return fail(r, EXIT_RUN, "cannot allocate the result:");
	}
	bool show_progress = progress_wanted(opt) && (opt->time_s == 0 || opt->time_s > 1);
	struct sampling sampling;
	/* the record first: sampling_begin empties it for this run */
	const struct bench_sampler *sampler = sampling_begin(&sampling, opt, r, show_progress);
	run_health_before(r);
	if (job->ntargets <= 1)
		job->fd = t->fd;
	watch_cache(t, job, r);
	r->warmup_ios = job->warmup_ios;
	r->open_loop = (struct result_open_loop){ .on = job->rate > 0, .rate_asked = job->rate,
						  .cap = job->qd * job->threads };
	int rc = run_bench(job, out, sampler, r);
	progress_clear();
	run_zoned_finish(job, out, r);
	fill_result(out, r);
	run_fill_ops(job, out, r);
	keep_record(r);
	r->passes = passes(job, out->bytes);
	/* several targets: name the one the failure was on */
	const struct target *failed = job->ntargets > 1 ? &t[out->failed_target] : t;
	code = rc != 0 ? run_failure(failed, job, out, opt, r) : EXIT_OK;
	double sampler_lead_s = out->sampler_lead_s;
	free(out);
	if (code != EXIT_OK) {
		run_health_check(r); /* a drive that says it is failing may be why */
		return code;
	}
	if (r->interrupted && r->fleet && r->fleet->start_wanted && !r->fleet->timed)
		return fail(r, EXIT_SIGINT, "while waiting for --start-at");
	if (r->interrupted)
		return fail(r, EXIT_SIGINT, "interrupted during the run");
	r->measured = true;
	warn_short_pass(job, opt, r);
	run_tool_ceiling(job, r); /* before the findings, which weigh it */
	sampling_finish(opt, r, sampler_lead_s);
	checks_flush(t, job->region, job->bs, opt, r);
	run_health_after(r, job);
	run_health_check(r);
	if (opt->direct && opt->bs >= (256u << 10) && !r->huge_buffers && opt->buffers == BUF_HUGE)
		warn(r, "the I/O buffers are not in huge pages: on virtual disks, large O_DIRECT "
		     "requests from scattered pages can be much slower than the device allows");
	if (r->seconds < 0.2 || r->ios < 20)
		warn(r, "the run took only %.3f s (%llu I/Os), too short to time well; "
		     "use a larger -s%s", r->seconds, (unsigned long long)r->ios,
		     opt_hint(opt, OPT_TIME, " or -t"));
	return EXIT_OK;
}

static int check_holes(const struct target *t, const struct options *opt, struct result *r)
{
	uint64_t hole, allocated;
	char at[32], have[32], size[32];
	if (plat_holes(t->fd, r->region, &hole, &allocated) != 0 || hole >= r->region)
		return EXIT_OK;
	fmt_bytes_iec(have, sizeof(have), allocated);
	fmt_bytes_iec(size, sizeof(size), t->size);
	snprintf(at, sizeof(at), "%llu", (unsigned long long)hole);
	if (opt->force) {
		warn(r, "'%s' has holes (the first at offset %s; %s of its %s allocated): they read "
		     "as zeros the disk never delivers, so the figure flatters the disk", t->path, at,
		     have, size);
		return EXIT_OK;
	}
	return fail(r, EXIT_RUN, "'%s' has holes (the first at offset %s; %s of its %s allocated): "
		    "they read as zeros the disk never delivers, so the figure would flatter the "
		    "disk; write the file first%s", t->path, at, have, size,
		    opt_hint(opt, OPT_FORCE, ", or add --force to measure it anyway"));
}

#define ZERO_SAMPLES 16
#define SAMPLE_LEN 4096u

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Reads a few small samples spread over the region through the page cache,
 * then drops them again so they do not warm the run. */
static void check_zero_samples(const struct target *t, struct result *r)
{
	unsigned char buf[SAMPLE_LEN];
	unsigned read_ok = 0;
	uint64_t step = r->region / ZERO_SAMPLES;
	for (unsigned i = 0; i < ZERO_SAMPLES; i++) {
		uint64_t off = (step * i) / SAMPLE_LEN * SAMPLE_LEN;
		ssize_t n = io_pread_full(t->fd, buf, SAMPLE_LEN, off);
		if (n <= 0)
			break;
		posix_fadvise(t->fd, (off_t)off, (off_t)n, POSIX_FADV_DONTNEED);
		if (!all_zero(buf, (size_t)n))
			return;
		read_ok++;
	}
	if (read_ok > 0)
		warn(r, "%u samples spread over '%s' all read back as zeros: a region that was never "
		     "written or was discarded (TRIM) can be answered without touching the media, so "
		     "the figure may flatter the device", read_ok, t->path);
}

int run_check_data(struct target *t, const struct options *opt, struct result *r)
{
	if (t->created || t->kind == TARGET_DIR || t->kind == TARGET_NEW || t->no_data)
		return EXIT_OK;
	int code = target_open(t, O_RDONLY, false, r);
	if (code != EXIT_OK)
		return code;
	if (t->kind == TARGET_FILE)
		code = check_holes(t, opt, r);
	if (code == EXIT_OK)
		check_zero_samples(t, r);
	target_close(t);
	return code;
}
