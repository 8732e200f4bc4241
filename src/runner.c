#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devinfo.h"
#include "io.h"
#include "units.h"
#include "util.h"

static const char *const drop_names[] = { "file", "all", "none" };

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

int run_layout(struct target *t, const struct options *opt, struct result *r)
{
	int code = target_check_space(t, r->region, r);
	if (code != EXIT_OK)
		return code;
	code = target_open(t, O_RDWR, false, r);
	if (code != EXIT_OK)
		return code;
	if (io_layout(t->fd, r->region, 1u << 20, opt->zeros, opt->seed, &bench_stop_requested) != 0) {
		if (errno == EINTR && bench_stop_requested) {
			r->interrupted = true;
			return fail(r, EXIT_SIGINT, "while laying out '%s'", t->path);
		}
		return fail(r, EXIT_RUN, "lay out '%s':", t->path);
	}
	target_close(t);
	return EXIT_OK;
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
	r->evicted = drop_names[opt->drop];
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

static void progress_tick(void *ctx, const struct bench_sample *s)
{
	const char *test = ctx;
	char done[32], rate[32];
	fmt_bytes_si(done, sizeof(done), s->bytes);
	fmt_rate_si(rate, sizeof(rate), s->elapsed_s > 0 ? (double)s->bytes / s->elapsed_s : 0);
	fprintf(stderr, "\r%s: %s in %.0f s, %s   ", test, done, s->elapsed_s, rate);
	fflush(stderr);
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
	bool show_progress = !opt->quiet && isatty(STDERR_FILENO) &&
			     (opt->time_s == 0 || opt->time_s > 1);
	job->fd = t->fd;
	struct bench_sampler progress = { 1.0, progress_tick, (void *)r->test };
	int rc = bench_run(job, out, show_progress ? &progress : NULL);
	if (show_progress)
		fputs("\r\033[K", stderr);
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
