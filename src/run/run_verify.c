/* --verify and --witness around a write test's run (issue 42; verify.h
 * holds the state, blockhdr.h the header): what --verify cannot run with,
 * the witness's descriptor, the read-back after the writes and what its
 * tally means. */
#define _POSIX_C_SOURCE 200809L
#include "run_verify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "blockhdr.h"
#include "clock.h"
#include "findings.h"
#include "platform.h"
#include "progress.h"
#include "runner.h"
#include "units.h"
#include "util.h"
#include "verify.h"

/* What --verify refuses, before anything is written: EXIT_OK, or a usage
 * error with the reason and the remedy. */
static int refuse(const struct target *t, const struct bench_job *job, const struct options *opt,
		  struct result *r)
{
	int64_t cap, conventional;
	char bound[32], bs[32];
	uint64_t blocks = job->region / job->bs, in_flight = (uint64_t)job->threads * job->qd;
	if (job->ntargets > 1)
		return fail(r, EXIT_USAGE, "--verify takes one TARGET");
	if (mix_has(&job->mix, MIX_TRIM))
		return fail(r, EXIT_USAGE, "--verify: trims discard what was written, so nothing "
			    "could be checked; use a mix without t");
	if (job->bs < BLK_MIN_BS)
		return fail(r, EXIT_USAGE, "--verify needs blocks of at least %u bytes (each "
			    "carries a %u-byte header)", BLK_MIN_BS, BLK_HDR_LEN);
	if (job->pattern == PAT_RAND && blocks < 2 * in_flight)
		return fail(r, EXIT_USAGE, "--verify with random writes needs at least twice as many "
			    "blocks as writes in flight (%llu x 2), since a block is never written "
			    "twice at once; the region has %llu", (unsigned long long)in_flight,
			    (unsigned long long)blocks);
	if (opt->verify == VERIFY_BACKLOG && job->rate > 0)
		return fail(r, EXIT_USAGE, "--verify=backlog stops the clock to read back, which an "
			    "open loop's schedule cannot; use --verify");
	if (run_zone_census(t->path, &cap, &conventional) == 1)
		return fail(r, EXIT_USAGE, "--verify does not run on a zoned device (its zones are "
			    "reset to be written again)");
	if (verify_map_bytes(job->region, job->bs) > VERIFY_MAX_MAP_BYTES) {
		fmt_bytes_iec(bound, sizeof(bound), VERIFY_MAX_MAP_BYTES);
		fmt_size_exact(bs, sizeof(bs), job->bs);
		return fail(r, EXIT_USAGE, "--verify keeps 4 bytes for each block, at most %s: %llu "
			    "blocks of %s is more; use a larger -b or a smaller -s", bound,
			    (unsigned long long)blocks, bs);
	}
	if (opt->witness && opt->sync == SYNC_NONE)
		return fail(r, EXIT_USAGE, "--witness lists the writes the disk acknowledged durable, "
			    "and --sync=none makes none; use --sync=dsync or --sync=fsync");
	return EXIT_OK;
}

/* The witness's descriptor: a file created (emptied) for it, or for "-"
 * stdout itself, whose other output then goes to stderr so that the
 * stream holds the witness's lines alone. */
static int open_witness(const char *path, struct result *r, int *fd)
{
	if (strcmp(path, "-") != 0) {
		*fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
		/* a name that cannot be a witness file is the option's value at fault */
		bool bad_name = errno == EISDIR || errno == ENOENT || errno == ENOTDIR;
		return *fd < 0 ? fail(r, bad_name ? EXIT_USAGE : EXIT_RUN, "--witness '%s':", path)
			       : EXIT_OK;
	}
	fflush(stdout);
	*fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (*fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		return fail(r, EXIT_RUN, "--witness -: cannot take stdout:");
	return EXIT_OK;
}

/* A run's id: random, so that no two runs' blocks pass for each other's. */
static uint64_t new_run_id(uint64_t seed)
{
	uint64_t id;
	if (plat_random(&id, sizeof(id)) != 0)
		id = clock_ns() ^ ((uint64_t)getpid() << 32) ^ seed;
	return id;
}

int run_verify_prepare(const struct target *t, struct bench_job *job, const struct options *opt,
		       struct result *r)
{
	job->verify = NULL;
	if (opt->verify == VERIFY_OFF)
		return EXIT_OK;
	int fd = -1, code = refuse(t, job, opt, r);
	struct target rt = *t; /* backlog: the same file, for reading */
	rt.fd = -1;
	if (code == EXIT_OK && opt->verify == VERIFY_BACKLOG)
		code = target_open(&rt, O_RDONLY, opt->direct, r);
	if (code == EXIT_OK && opt->witness)
		code = open_witness(opt->witness, r, &fd);
	if (code != EXIT_OK) {
		target_close(&rt);
		return code;
	}
	struct verify_plan plan = { .region = job->region, .bs = job->bs,
				    .run_id = new_run_id(opt->seed), .read_fd = rt.fd,
				    .backlog = opt->verify == VERIFY_BACKLOG,
				    .backlog_n = opt->verify_backlog, .witness_fd = fd,
				    .witness_each = opt->sync == SYNC_DSYNC, .target = t->path };
	job->verify = verify_open(&plan); /* both descriptors are its own now */
	if (!job->verify)
		return fail(r, EXIT_RUN, "--verify: %s:", errno == EFBIG ? "its map" : "set-up");
	return EXIT_OK;
}

/* The region read back through a descriptor of its own, from the device
 * rather than the page cache the writes went through. */
static int read_back(const struct target *t, struct verify *v, const struct options *opt,
		     struct result *r)
{
	bool blockdev = t->kind == TARGET_BLOCKDEV;
	if (!opt->direct && fdatasync(t->fd) != 0)
		return fail(r, EXIT_RUN, "--verify: flush '%s' before reading it back:", t->path);
	struct target rt = *t; /* the same file, checked again as it is opened */
	rt.fd = -1;
	int code = target_open(&rt, O_RDONLY, opt->direct, r);
	if (code != EXIT_OK)
		return code;
	int fd = rt.fd;
	if (!opt->direct && plat_evict(fd, blockdev, r->region) != 0)
		warn(r, "--verify: could not evict '%s' from the page cache, so the blocks may have "
		     "been read back from memory, not the disk:", t->path);
	progress_label(opt, "%s: verifying, reading back what it wrote", r->test);
	int rc = verify_region(v, fd, &bench_stop_requested);
	int saved = errno;
	progress_clear();
	close(fd);
	errno = saved;
	if (rc != 0 && saved == EINTR) {
		r->interrupted = true;
		return fail(r, EXIT_SIGINT, "interrupted while verifying");
	}
	return rc != 0 ? fail(r, EXIT_RUN, "--verify: read '%s' back:", t->path) : EXIT_OK;
}

int run_verify_finish(const struct target *t, struct bench_job *job, const struct options *opt,
		      struct result *r, int code)
{
	struct verify *v = job->verify;
	if (!v)
		return code;
	job->verify = NULL;
	if (code == EXIT_OK && opt->witness && opt->sync == SYNC_FSYNC && verify_witness_all(v) != 0)
		warn(r, "--witness: its lines could not all be written (the witness claims fewer "
		     "writes than were made, never more):");
	if (code == EXIT_OK && opt->verify == VERIFY_AFTER)
		code = read_back(t, v, opt, r);
	struct result_verify *out = result_keep(r, sizeof(*out), NULL);
	int witness_err = out ? verify_result(v, out) : 0;
	verify_close(v);
	if (!out)
		return code == EXIT_OK ? fail(r, EXIT_RUN, "--verify: cannot keep its figures:") : code;
	if (witness_err) {
		errno = witness_err;
		warn(r, "--witness: writing it failed after %llu lines, which it holds (the witness "
		     "claims fewer writes than were made, never more):",
		     (unsigned long long)out->witness_lines);
	}
	out->durable = opt->sync != SYNC_NONE;
	if (code != EXIT_OK)
		return code;
	r->verify = out;
	return findings_judge_verify(out, r) ? EXIT_BAD_DATA : EXIT_OK;
}
