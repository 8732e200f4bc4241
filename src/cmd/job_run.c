/* A fio job file read (job_load) and its jobs run one after another
 * (job_run_all): see job_run.h.  Each job goes through the steps every
 * test takes (prepare, region, O_DIRECT check, data or space, open, evict,
 * measure), with fio's ways where they differ from a plain test's: a new
 * file of a job that only writes is allocated as fio's default
 * fallocate=native does, not written first; nothing runs before the clock
 * (no warm-up I/O); ramp_time is a time-based warm-up. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "finding.h"
#include "fleet.h"
#include "job_run.h"
#include "names.h"
#include "output.h"
#include "progress.h"
#include "run_record.h"
#include "run_verify.h"
#include "runner.h"
#include "units.h"
#include "util.h"

const char *const job_directives[] = { "about", "alias", "require", "report", "source", "op", "rank",
				       NULL };

/* ---- reading ------------------------------------------------------------------ */

/* path's text, malloc'd and NUL-terminated; NULL with the reason in why. */
static char *read_text(const char *path, char *why, size_t len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not hang the open */
	char *buf = NULL;
	size_t n = 0;
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(why, len, "%s", strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > JOB_FILE_MAX) {
		snprintf(why, len, S_ISREG(st.st_mode) ? "larger than 1 MiB: not a job file"
						       : "not a regular file");
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && n < (size_t)st.st_size) {
		ssize_t got = read(fd, buf + n, (size_t)st.st_size - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	if (!buf || memchr(buf, '\0', n)) {
		snprintf(why, len, "%s", buf ? "it holds NUL bytes: not a text file" : strerror(ENOMEM));
		free(buf);
		buf = NULL;
		goto out;
	}
	buf[n] = '\0';
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

/* `include NAME`: beside the job file (ctx), or NAME when absolute. */
static char *read_include(void *ctx, const char *from, const char *name, char *why, size_t len)
{
	char dir[4096], path[8192];
	(void)from;
	snprintf(dir, sizeof(dir), "%s", (const char *)ctx);
	snprintf(path, sizeof(path), "%s/%s", dirname(dir), name);
	return read_text(name[0] == '/' ? name : path, why, len);
}

static const char *read_env(void *ctx, const char *name)
{
	(void)ctx;
	return getenv(name);
}

int job_load(const char *path, struct jobfile *jf, struct result *r)
{
	char why[MSG_LEN];
	char *text = read_text(path, why, sizeof(why));
	if (!text)
		return fail(r, EXIT_USAGE, "job file '%s': %s", path, why);
	struct jobfile_source src = { path, read_include, read_env, (void *)path, job_directives };
	int rc = jobfile_parse(text, &src, jf, why, sizeof(why));
	free(text);
	return rc == 0 ? EXIT_OK : fail(r, EXIT_USAGE, "%s", why);
}

void job_report_release(void *report)
{
	struct job_report *rep = report;
	for (unsigned i = 0; rep->steps && i < rep->njobs; i++)
		result_release(&rep->steps[i].r);
	free(rep->steps);
	free(rep->records);
	free(rep->fleets);
}

/* ---- one job ------------------------------------------------------------------ */

/* The plain test a job is, for "test" in its record. */
static const char *test_name(const struct job_step *s)
{
	bool rand = s->pattern == PAT_RAND;
	if (mix_set(&s->o.mix))
		return rand ? "randrw" : "rw";
	if (s->r.dir == IO_WRITE)
		return rand ? "randwrite" : "seqwrite";
	return rand ? "randread" : "seqread";
}

static bool job_reads(const struct job_step *s)
{
	return mix_set(&s->o.mix) ? mix_has(&s->o.mix, MIX_READ) : s->r.dir == IO_READ;
}

/* The bytes it ranges over: a new file holds size= for each clone (each
 * thread its own slice, as fio's clones each have a file); an existing file
 * or device its size=, at most its own size. */
static int plan_region(struct job_step *s, const struct target *t, struct result *sr)
{
	unsigned clones = s->o.threads;
	if (t->created && s->size == 0)
		return fail(sr, EXIT_USAGE, "%s: job '%s': size= is needed for a new file (fio says "
			    "so too)", s->at, s->name);
	if (t->created && s->size > UINT64_MAX / clones)
		return fail(sr, EXIT_USAGE, "%s: job '%s': size= x numjobs is too large", s->at, s->name);
	s->o.size = t->created ? s->size * clones : s->size ? s->size : UINT64_MAX;
	int code = run_plan_region(t, &s->o, sr->dir == IO_WRITE, sr);
	if (code == EXIT_OK && s->pattern == PAT_SEQ && sr->region / s->o.bs < clones)
		code = fail(sr, EXIT_USAGE, "%s: job '%s': numjobs=%u needs %u blocks at least; the "
			    "region has %llu", s->at, s->name, clones, clones,
			    (unsigned long long)(sr->region / s->o.bs));
	return code;
}

/* A new file of a job that only writes: allocated, as fio's default
 * fallocate=native does before its first write. */
static int allocate(const struct job_step *s, struct target *t, struct result *sr)
{
	int code = target_open(t, O_RDWR, false, sr);
	if (code != EXIT_OK)
		return code;
	int rc = posix_fallocate(t->fd, 0, (off_t)(s->size * s->o.threads)); /* fio's size */
	target_close(t);
	errno = rc;
	return rc == 0 || rc == EOPNOTSUPP ? EXIT_OK : fail(sr, EXIT_RUN, "allocate '%s':", t->path);
}

static int prepare(struct job_step *s, struct target *t, struct result *sr)
{
	int code = run_prepare(t, &s->o, sr);
	if (code == EXIT_OK)
		code = plan_region(s, t, sr);
	if (code == EXIT_OK)
		code = run_check_direct(t, &s->o, sr);
	if (code == EXIT_OK && job_reads(s))
		code = run_check_data(t, &s->o, sr);
	if (code == EXIT_OK && t->created)
		code = job_reads(s) ? run_layout(t, &s->o, 0, sr, NULL) : allocate(s, t, sr);
	return code;
}

static int measure(struct job_step *s, struct target *t, struct result *sr)
{
	const struct options *o = &s->o;
	struct bench_job job;
	bool writes = sr->dir == IO_WRITE;
	int flags = writes ? O_RDWR | sync_open_flag(o->sync) : O_RDONLY;
	int code = target_open(t, flags, o->direct, sr);
	if (code != EXIT_OK)
		return code;
	if (job_reads(s))
		run_evict(t, o, sr);
	run_warn_target(t, o, writes, sr);
	run_describe_job(&job, sr->dir, s->pattern, o, sr->region);
	run_job_mix(&job, o);
	if (s->time_based) {
		run_job_by_time(&job);
	} else {
		/* its size once per clone; a cap of runtime= or -t */
		uint64_t each = t->created ? s->size : sr->region;
		job.bytes_limit = each * o->threads - each * o->threads % o->bs;
		job.wrap = job.bytes_limit > sr->region;
		job.sync_after_last = each % o->bs != 0; /* as fio, with bytes left short of a block */
	}
	job.warmup_s = s->ramp_s;
	code = run_verify_prepare(t, &job, o, sr); /* --verify: its writes read back after it */
	if (code == EXIT_OK)
		code = run_verify_finish(t, &job, o, sr, run_measure(t, &job, o, sr));
	return code;
}

/* What the run says of how it differs from fio's, as warnings. */
static void say_notes(const struct job_step *s, struct result *sr)
{
	if (s->notes & JOB_NOTE_QD_IGNORED)
		warn(sr, "iodepth has no effect with a synchronous ioengine, as in fio: one request in "
		     "flight per clone");
	if (s->notes & JOB_NOTE_CLONES)
		warn(sr, "numjobs=%u without group_reporting: diskbench reports the clones together, "
		     "as group_reporting does", s->o.threads);
	if (s->notes & JOB_NOTE_TARGET)
		warn(sr, "the TARGET named on the command line replaces the job's filename= and "
		     "directory=");
	if (s->notes & JOB_NOTE_VERIFY_READS)
		warn(sr, "a job that only reads is not verified: diskbench checks what a job writes "
		     "(fio would check the headers an earlier run of its own left)");
}

static int run_step(struct job_report *rep, unsigned i, struct result *whole)
{
	struct job_step *s = &rep->steps[i];
	struct result *sr = &s->r;
	struct target t = { .fd = -1 };
	enum io_dir dir = sr->dir; /* job_plan's; run_part_result clears the rest */
	run_part_result(sr, whole, test_name(s), &s->o, dir);
	sr->target = s->target;
	sr->record = &rep->records[i];
	sr->fleet = rep->fleets ? &rep->fleets[i] : NULL;
	if (sr->fleet)
		fleet_step_begin(sr->fleet, whole->fleet);
	rep->nsteps = i + 1;
	progress_label(&s->o, "job %u of %u: %s", i + 1, rep->njobs, s->name);
	int code = prepare(s, &t, sr);
	if (code == EXIT_OK)
		code = measure(s, &t, sr);
	progress_clear();
	target_close(&t);
	target_cleanup(); /* its file, before the next job lays out its own */
	if (sr->fleet)
		fleet_step_end(whole->fleet, sr->fleet);
	say_notes(s, sr);
	for (unsigned k = 0; k < sr->nwarnings; k++)
		warn(whole, "%s: %s", s->name, sr->warnings[k]);
	for (unsigned k = 0; k < sr->nfindings; k++)
		finding_carry(whole, &sr->findings[k], "job", i);
	if (code == EXIT_OK || code == EXIT_BAD_DATA) /* bad data: said, and the next jobs run */
		return code;
	whole->interrupted = sr->interrupted;
	if (strncmp(sr->error, s->at, strlen(s->at)) == 0) /* it names the job already */
		return fail(whole, code, "%s", sr->error);
	return fail(whole, code, "%s: %s", s->name, sr->error);
}

int job_run_all(struct job_report *rep, struct result *r)
{
	rep->records = calloc(rep->njobs, sizeof(*rep->records));
	if (r->fleet)
		rep->fleets = calloc(rep->njobs, sizeof(*rep->fleets));
	if (!rep->records || (r->fleet && !rep->fleets))
		return fail(r, EXIT_RUN, "cannot allocate the jobs' records:");
	bool bad_data = false;
	for (unsigned i = 0; i < rep->njobs; i++) {
		int code = run_step(rep, i, r);
		bad_data |= code == EXIT_BAD_DATA;
		if (code != EXIT_OK && code != EXIT_BAD_DATA)
			return code;
	}
	r->measured = true;
	return bad_data ? EXIT_BAD_DATA : EXIT_OK;
}

void job_print_finished(const struct job_report *rep)
{
	fprintf(stderr, "diskbench: %s interrupted; its jobs (not a result):\n",
		rep->fit ? "fit" : "job");
	for (unsigned i = 0; i < rep->njobs; i++) {
		const struct job_step *s = &rep->steps[i];
		char rate[32], iops[16], p50[24];
		if (i >= rep->nsteps || !s->r.measured) {
			fprintf(stderr, "  %-24s %s\n", s->name, i < rep->nsteps ? "interrupted" : "not run");
			continue;
		}
		fmt_rate_si(rate, sizeof(rate), result_rate(&s->r));
		fmt_count(iops, sizeof(iops), result_iops(&s->r));
		fmt_ns(p50, sizeof(p50), (double)stats_percentile(&s->r.lat, 50));
		fprintf(stderr, "  %-24s %s, %s IOPS, p50 %s\n", s->name, rate, iops, p50);
	}
}
