#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "devinfo.h"
#include "io.h"
#include "names.h"
#include "progress.h"
#include "units.h"
#include "util.h"

int run_prepare(struct target *t, const struct options *opt, struct result *r)
{
	bool write_test = r->dir == IO_WRITE;
	target_keep_files(opt->keep);
	int code = target_prepare(t, opt->target, write_test, opt->force, r);
	if (code != EXIT_OK)
		return code;
	snprintf(r->file, sizeof(r->file), "%s", t->path);
	static struct devinfo device; /* for the "device" key of the JSON */
	if (devinfo_probe(opt->target, devinfo_default_roots(), &device) == 0)
		r->device = &device;
	r->file_state = t->kind == TARGET_BLOCKDEV ? "device" : t->created ? "new" : "existing";
	return code;
}

int run_plan_region(const struct target *t, const struct options *opt, bool write_test,
		    struct result *r)
{
	uint64_t region = opt->size;
	bool clip = t->kind == TARGET_BLOCKDEV || (t->kind == TARGET_FILE && !write_test);
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
	if (align > 0 && (opt->bs % align != 0 || r->region % align != 0))
		return fail(r, EXIT_USAGE, "block size %llu is not a multiple of %u, the O_DIRECT "
			    "alignment of '%s'; use a multiple of %u or --no-direct",
			    (unsigned long long)opt->bs, align, t->created ? opt->target : t->path, align);
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

int run_layout(struct target *t, const struct options *opt, double max_s, struct result *r,
	       double *took_s)
{
	uint64_t written = 0;
	int code = target_check_space(t, r->region, r);
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
	if (t->fs_known && t->fs.in_ram && t->kind != TARGET_BLOCKDEV)
		warn(r, "'%s' is on %s: its data live in RAM, so the figure is memory speed, "
		     "not a disk's", t->path, t->fs.type);
	if (t->kind == TARGET_BLOCKDEV && t->fd >= 0) {
		const char *ram = plat_blockdev_in_ram(t->fd);
		if (ram)
			warn(r, "'%s' is a RAM-backed device (%s): the figure is memory speed, "
			     "not a disk's", t->path, ram);
	}
	if (write_test && opt->sync == SYNC_NONE)
		warn(r, "--sync=none: writes are not flushed, so the figure may measure a cache; "
		     "use --sync=dsync or --sync=fsync for what reaches the device");
}

void run_evict(const struct target *t, const struct options *opt, struct result *r)
{
	bool blockdev = t->kind == TARGET_BLOCKDEV;
	r->evicted = drop_mode_name(opt->drop);
	if (opt->drop != DROP_NONE && plat_evict(t->fd, blockdev, r->region) != 0)
		warn(r, "could not evict '%s' from the page cache:", t->path);
	if (opt->drop == DROP_ALL && plat_drop_all_caches() != 0)
		warn(r, "could not drop all caches (/proc/sys/vm/drop_caches needs root), "
		     "only the test file was evicted:");
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
	job->fsync_at_end = dir == IO_WRITE && opt->sync == SYNC_FSYNC;
}

void run_job_by_time(struct bench_job *job)
{
	job->wrap = true;
	job->bytes_limit = UINT64_MAX;
}

static void fill_result(const struct bench_outcome *out, struct result *r)
{
	r->lat = out->lat;
	r->bytes = out->bytes;
	r->ios = out->ios;
	r->seconds = out->seconds;
	r->interrupted = out->stopped;
	r->huge_buffers = out->huge_buffers;
}

int run_measure(const struct target *t, struct bench_job *job, const struct options *opt,
		struct result *r)
{
	struct bench_outcome *out = malloc(sizeof(*out));
	if (!out)
		return fail(r, EXIT_RUN, "allocate result:");
	bool show_progress = progress_wanted(opt) && (opt->time_s == 0 || opt->time_s > 1);
	struct bench_sampler progress;
	progress_sampler(&progress, r->test);
	job->fd = t->fd;
	int rc = bench_run(job, out, show_progress ? &progress : NULL);
	progress_clear();
	fill_result(out, r);
	int err = out->error;
	const char *op = out->failed_op;
	uint64_t offset = out->failed_offset;
	free(out);
	if (rc != 0) {
		errno = err;
		return fail(r, EXIT_RUN, "%s '%s' at offset %llu:", op ? op : "I/O", t->path,
			    (unsigned long long)offset);
	}
	if (r->interrupted)
		return fail(r, EXIT_SIGINT, "during the run");
	r->measured = true;
	if (opt->direct && opt->bs >= (256u << 10) && !r->huge_buffers)
		warn(r, "the I/O buffers are not in huge pages: on virtual disks, large O_DIRECT "
		     "requests from scattered pages can be much slower than the device allows");
	if (r->seconds < 0.2 || r->ios < 20)
		warn(r, "the run took only %.3f s (%llu I/Os), too short to time well; "
		     "use a larger -s or -t", r->seconds, (unsigned long long)r->ios);
	return EXIT_OK;
}
