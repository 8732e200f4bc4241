/* The job's shape: how it ends (by time, or one pass), and the mixes and
 * trims (issue 31): a mix's shares into the job, the probe
 * that refuses a target which cannot discard, and each operation's
 * figures into the result. */
#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include <errno.h>
#include <string.h>

#include "platform.h"
#include "util.h"

void run_job_mix(struct bench_job *job, const struct options *opt)
{
	if (!mix_set(&opt->mix))
		return;
	job->mix = opt->mix;
	job->fsync_at_end = job->fsync_at_end && mix_has(&opt->mix, MIX_WRITE);
}

void run_job_by_time(struct bench_job *job)
{
	job->wrap = true;
	job->bytes_limit = UINT64_MAX;
}

bool run_job_trims_alone(const struct bench_job *job)
{
	return mix_has(&job->mix, MIX_TRIM) && !mix_has(&job->mix, MIX_WRITE);
}

void run_job_for(struct bench_job *job, const struct options *opt)
{
	/* reads through the page cache never go round: the second pass would
	 * come from the cache the first one filled; nor do trims that no write
	 * refills: the second would trim blocks the first one freed (trim at
	 * -t 5 went 45,000 times round a 4 MiB file, at 28.8 GB/s) */
	bool cache_reads = !opt->direct && job->dir == IO_READ && !mix_has(&job->mix, MIX_WRITE);
	if (opt->time_s > 0 && !opt->once && !cache_reads && !run_job_trims_alone(job))
		run_job_by_time(job);
	else if (opt->once)
		job->one_pass = true; /* one pass over each region, random I/O included */
}

int run_check_trim(const struct target *t, struct result *r)
{
	bool dev = t->kind == TARGET_BLOCKDEV;
	if (t->no_data || plat_discard_probe(t->fd, dev, r->region) == 0) /* nop: no probe */
		return EXIT_OK;
	int err = errno;
	const char *fs = t->fs_known ? t->fs.type : "its filesystem";
	if (err == EOPNOTSUPP && dev)
		return fail(r, EXIT_USAGE, "'%s' cannot discard (trim): the device does not support "
			    "it (its queue/discard_max_bytes is 0)", t->path);
	if (err == EOPNOTSUPP)
		return fail(r, EXIT_USAGE, "'%s' cannot discard (trim): %s cannot punch holes "
			    "(fallocate PUNCH_HOLE is not supported)", t->path, fs);
	if (err == EPERM && dev)
		return fail(r, EXIT_USAGE, "'%s' cannot discard (trim): the device is read-only",
			    t->path);
	errno = err;
	return fail(r, EXIT_USAGE, "'%s' cannot discard (trim):", t->path);
}

int run_check_poll(const struct target *t, struct result *r)
{
	char name[64];
	int poll = plat_io_poll(t->fd, name, sizeof(name));
	if (poll == 1)
		return EXIT_OK;
	if (poll == 0)
		return fail(r, EXIT_USAGE, "--poll: '%s'%s%s%s has no poll queues (its queue/io_poll "
			    "is 0): polled I/O needs an NVMe drive whose driver was loaded with poll "
			    "queues (nvme.poll_queues=N), not a loop, virtio or SATA disk", t->path,
			    name[0] ? " (" : "", name, name[0] ? ")" : "");
	return fail(r, EXIT_USAGE, "--poll: cannot tell whether '%s' has poll queues (no sysfs "
		    "entry for its device): polled I/O is refused unknown", t->path);
}

void run_fill_ops(const struct bench_job *job, const struct bench_outcome *out,
		  struct result *r)
{
	if (!mix_set(&job->mix))
		return;
	struct result_ops *ops = result_keep(r, sizeof(*ops), NULL);
	if (!ops)
		return; /* the total stands alone */
	const struct stats *lat[MIX_OPS] = { &out->lat_read, &out->lat_write, &out->lat_trim };
	ops->mix = job->mix;
	for (unsigned op = 0; op < MIX_OPS; op++) {
		ops->op[op].lat = *lat[op];
		ops->op[op].ios = lat[op]->count; /* every counted I/O has its latency */
		ops->op[op].bytes = lat[op]->count * job->bs;
	}
	r->ops = ops;
	r->trim_engine = out->trims ? out->trim_path : NULL;
}
