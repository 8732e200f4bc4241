/* A fio job into the options of one diskbench run (see job_run.h): each key
 * to what makes the same system calls, and a refusal, with the key's file
 * and line, wherever diskbench would run something else than fio. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_run.h"
#include "sampling.h"
#include "units.h"
#include "util.h"

#define NO_KEY (-1)

/* "FILE:LINE: job 'NAME': why", at key k's line (NO_KEY, or a key the job
 * did not set: its section's); a usage error. */
static int refuse(struct result *r, const struct jobfile *jf, const struct jobfile_job *j, int k,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int refuse(struct result *r, const struct jobfile *jf, const struct jobfile_job *j, int k,
		  const char *fmt, ...)
{
	char at[256], why[MSG_LEN];
	va_list ap;
	bool given = k != NO_KEY && (j->p.given & JOBFILE_GIVEN(k));
	jobfile_where(jf, given ? j->p.where[k] : j->at, at, sizeof(at));
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return fail(r, EXIT_USAGE, "%s: job '%s': %s", at, j->name, why);
}

/* The engine, the requests in flight it keeps, and fio's defaults where
 * diskbench's own differ (reconcile.sh's peer mode): buffers in 4 KiB pages
 * (fio's iomem=malloc), one request per submit call (iodepth_batch=1), and
 * with libaio one io_getevents for each completion taken (as fio's libaio,
 * userspace_reap=0) */
static void plan_engine(const struct jobfile_params *p, struct job_step *s)
{
	bool synchronous = p->ioengine == JF_SYNC || p->ioengine == JF_PSYNC;
	s->o.engine = synchronous ? "sync" : p->ioengine == JF_LIBAIO ? "aio" : "uring";
	s->o.qd = synchronous ? 1 : p->iodepth;
	s->o.at_position = p->ioengine == JF_SYNC;
	s->o.buffers = BUF_PAGES;
	s->o.batch = 1;
	s->o.reap = p->ioengine == JF_LIBAIO ? REAP_SYSCALL : REAP_RING;
	if (synchronous && p->iodepth > 1)
		s->notes |= JOB_NOTE_QD_IGNORED;
}

/* How writes are made durable: O_DSYNC, O_SYNC, an fsync at the end, and
 * a sync call after every N writes. */
static int plan_sync(const struct jobfile *jf, const struct jobfile_job *j, struct job_step *s,
		     struct result *r)
{
	const struct jobfile_params *p = &j->p;
	if (p->fsync && p->fdatasync)
		return refuse(r, jf, j, JK_FDATASYNC, "fsync= and fdatasync= together: keep one");
	if (p->sync != JF_OSYNC_NONE && p->end_fsync)
		return refuse(r, jf, j, JK_END_FSYNC, "end_fsync=1 with sync=%s: every write is "
			      "durable already; leave one out", p->sync == JF_OSYNC_DSYNC ? "dsync" : "sync");
	s->o.sync = p->sync == JF_OSYNC_DSYNC ? SYNC_DSYNC : p->sync == JF_OSYNC_SYNC ? SYNC_OSYNC
		    : p->end_fsync ? SYNC_FSYNC : SYNC_NONE;
	s->o.sync_every = p->fdatasync ? p->fdatasync : p->fsync;
	s->o.sync_data = p->fdatasync > 0;
	int key = p->fdatasync ? JK_FDATASYNC : JK_FSYNC;
	const char *name = p->fdatasync ? "fdatasync" : "fsync";
	if (s->o.sync_every && strcmp(s->o.engine, "sync") != 0)
		return refuse(r, jf, j, key, "%s= runs with ioengine=sync or psync in diskbench (fio's "
			      "libaio also waits for the queue to drain and calls it synchronously); "
			      "use ioengine=psync", name);
	if (s->o.sync_every && p->rate_iops)
		return refuse(r, jf, j, key, "%s= with rate_iops= is not supported: leave out the "
			      "rate", name);
	return EXIT_OK;
}

/* --verify, --witness and the file's verify keys (issue 42): a job that
 * writes verifies when the command line says --verify (which wins) or its
 * section says verify=crc32c (do_verify=0 turns that off, as in fio);
 * verify_backlog=N reads back after every N writes of a thread.  A job that
 * only reads is not checked: its data is its own layout's, without headers
 * (fio would check the headers an earlier run of its own wrote). */
static int plan_verify(const struct jobfile *jf, const struct jobfile_job *j,
		       const struct options *opt, struct job_step *s, struct result *r)
{
	const struct jobfile_params *p = &j->p;
	bool asked = opt->verify != VERIFY_OFF || (p->verify && p->do_verify);
	s->o.verify = VERIFY_OFF;
	s->o.verify_backlog = 0;
	s->o.witness = NULL;
	if (asked && s->r.dir != IO_WRITE)
		s->notes |= JOB_NOTE_VERIFY_READS;
	if (!asked || s->r.dir != IO_WRITE)
		return EXIT_OK;
	s->o.verify = opt->verify != VERIFY_OFF ? opt->verify
		      : p->verify_backlog ? VERIFY_BACKLOG : VERIFY_AFTER;
	if (s->o.verify == VERIFY_BACKLOG)
		s->o.verify_backlog = (unsigned)p->verify_backlog;
	if (s->o.verify == VERIFY_BACKLOG && p->rate_iops)
		return refuse(r, jf, j, JK_VERIFY_BACKLOG, "reading back as it goes stops the clock, "
			      "which rate_iops='s schedule cannot; verify after the writes (leave out "
			      "verify_backlog= and --verify=backlog)");
	s->o.witness = opt->witness;
	if (opt->witness && s->o.sync == SYNC_NONE)
		return refuse(r, jf, j, JK_SYNC, "--witness lists the writes the disk acknowledged "
			      "durable, and this job makes none durable as it writes (fsync=N and "
			      "fdatasync=N are not witnessed): give it sync=dsync or end_fsync=1");
	return EXIT_OK;
}

/* --witness holds one run's writes: one job of the file writes them. */
static int plan_witness(const struct job_report *rep, const struct options *opt,
			struct result *r)
{
	unsigned witnessed = 0;
	for (unsigned i = 0; i < rep->njobs; i++)
		witnessed += rep->steps[i].o.witness != NULL;
	if (!opt->witness || witnessed == 1)
		return EXIT_OK;
	if (witnessed == 0)
		return fail(r, EXIT_USAGE, "--witness goes with a job that writes and verifies "
			    "(--verify, or verify=crc32c in its section)");
	return fail(r, EXIT_USAGE, "--witness holds one run's writes, and %u jobs of '%s' write "
		    "and verify: run a file with one of them", witnessed, rep->file);
}

/* What the job does: reads, writes or a mix, in order or at random. */
static void plan_io(const struct jobfile_params *p, struct job_step *s)
{
	bool both = (p->rw == JF_RW || p->rw == JF_RANDRW) && p->rwmixread > 0 &&
		    p->rwmixread < 100;
	s->pattern = jobfile_random(p) ? PAT_RAND : PAT_SEQ;
	s->r.dir = jobfile_writes(p) ? IO_WRITE : IO_READ;
	memset(&s->o.mix, 0, sizeof(s->o.mix));
	if (both) {
		s->o.mix.pct[MIX_READ] = p->rwmixread;
		s->o.mix.pct[MIX_WRITE] = 100 - p->rwmixread;
	}
}

/* Its time: time_based runs for runtime= (or -t), anything else ends after
 * its size, or at runtime= (or -t) when that comes first. */
static int plan_time(const struct jobfile *jf, const struct jobfile_job *j, const struct options *opt,
		     struct job_step *s, struct result *r)
{
	const struct jobfile_params *p = &j->p;
	s->time_based = p->time_based;
	s->o.time_s = (double)p->runtime_us / 1e6;
	if (opt->given & OPT_TIME)
		s->o.time_s = opt->time_s;
	if (s->time_based && s->o.time_s <= 0)
		return refuse(r, jf, j, JK_TIME_BASED, (opt->given & OPT_TIME)
			      ? "time_based with -t 0 would never end: give -t a time"
			      : "time_based needs runtime= (fio would run until stopped)");
	s->ramp_s = (double)p->ramp_time_us / 1e6;
	double every = s->o.time_s > 0 ? s->o.time_s / 10 : SAMPLING_INTERVAL_DEFAULT;
	s->o.interval_s = every < SAMPLING_INTERVAL_MIN ? SAMPLING_INTERVAL_MIN
			  : every > SAMPLING_INTERVAL_DEFAULT ? SAMPLING_INTERVAL_DEFAULT : every;
	return EXIT_OK;
}

/* Where it runs: TARGET when named (it replaces filename= and
 * directory=), else filename= (under directory=), else directory=, else
 * the current directory. */
static int plan_target(const struct jobfile *jf, const struct jobfile_job *j,
		       const struct options *opt, struct job_step *s, struct result *r)
{
	const struct jobfile_params *p = &j->p;
	int n;
	if (opt->ntargets > 0) {
		n = snprintf(s->target, sizeof(s->target), "%s", opt->targets[0]);
		if (p->filename[0] || p->directory[0])
			s->notes |= JOB_NOTE_TARGET;
	} else if (p->filename[0] && p->directory[0] && p->filename[0] != '/') {
		n = snprintf(s->target, sizeof(s->target), "%s/%s", p->directory, p->filename);
	} else {
		n = snprintf(s->target, sizeof(s->target), "%s",
			     p->filename[0] ? p->filename : p->directory[0] ? p->directory : ".");
	}
	if (n < 0 || (size_t)n >= sizeof(s->target))
		return refuse(r, jf, j, JK_FILENAME, "the path is too long");
	s->o.target = s->o.targets[0] = s->target;
	s->o.ntargets = 1;
	return EXIT_OK;
}

/* "rw=write bs=2300 ioengine=sync fdatasync=1 size=22m": the job's keys as
 * fio spells them, those it gave. */
static void describe_spec(const struct jobfile_params *p, char *buf, size_t len)
{
	size_t n = 0;
#define ADD(...) (n += (size_t)snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__))
	ADD("rw=%s", jobfile_rw_name(p->rw));
	if (p->rw == JF_RW || p->rw == JF_RANDRW)
		ADD(" rwmixread=%u", p->rwmixread);
	ADD(" bs=%llu", (unsigned long long)p->bs);
	if (p->size)
		ADD(" size=%llu", (unsigned long long)p->size);
	ADD(" ioengine=%s", jobfile_engine_name(p->ioengine));
	if (p->iodepth > 1)
		ADD(" iodepth=%u", p->iodepth);
	if (p->numjobs > 1)
		ADD(" numjobs=%u", p->numjobs);
	ADD(" direct=%d", p->direct ? 1 : 0);
	if (p->sync != JF_OSYNC_NONE)
		ADD(" sync=%s", p->sync == JF_OSYNC_DSYNC ? "dsync" : "sync");
	if (p->fsync)
		ADD(" fsync=%u", p->fsync);
	if (p->fdatasync)
		ADD(" fdatasync=%u", p->fdatasync);
	if (p->end_fsync)
		ADD(" end_fsync=1");
	if (p->time_based)
		ADD(" time_based");
	if (p->runtime_us)
		ADD(" runtime=%llums", (unsigned long long)(p->runtime_us / 1000));
	if (p->ramp_time_us)
		ADD(" ramp_time=%llums", (unsigned long long)(p->ramp_time_us / 1000));
	if (p->rate_iops)
		ADD(" rate_iops=%llu rate_process=%s", (unsigned long long)p->rate_iops,
		    p->rate_process == JF_RATE_POISSON ? "poisson" : "linear");
	if (p->verify)
		ADD(" verify=crc32c%s", p->do_verify ? "" : " do_verify=0");
	if (p->verify && p->verify_backlog)
		ADD(" verify_backlog=%llu", (unsigned long long)p->verify_backlog);
#undef ADD
	if (n >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

static int plan_step(const struct jobfile *jf, unsigned i, const struct options *opt,
		     struct job_step *s, struct result *r)
{
	const struct jobfile_job *j = &jf->jobs[i];
	const struct jobfile_params *p = &j->p;
	if (i > 0 && !p->stonewall)
		return refuse(r, jf, j, NO_KEY, "fio would start it together with '%s' (no stonewall); "
			      "diskbench runs jobs one after another: add stonewall to its section "
			      "or to [global]", jf->jobs[i - 1].name);
	s->o = *opt;
	/* the result line names the engine the file chose; a series of about ten
	 * intervals, as quick's steps keep, for the checks over time (a cgroup's
	 * limit, a rate cap) */
	s->o.accepts |= OPT_ENGINE | OPT_INTERVAL;
	snprintf(s->name, sizeof(s->name), "%s", j->name);
	jobfile_where(jf, j->at, s->at, sizeof(s->at));
	describe_spec(p, s->spec, sizeof(s->spec));
	s->writes_per_op = 1;
	s->size = p->size;
	s->o.bs = p->bs;
	s->o.threads = p->numjobs;
	s->o.direct = p->direct;
	s->o.warmup_ios = 0; /* fio does no I/O before its clock */
	s->o.once = false;
	s->o.rate = (double)p->rate_iops;
	s->o.arrivals = p->rate_process == JF_RATE_POISSON ? ARRIVALS_POISSON : ARRIVALS_FIXED;
	if (!(opt->given & OPT_SEED))
		s->o.seed = p->randrepeat ? p->randseed : opt->seed; /* fio: the same offsets each run */
	if (p->numjobs > 1 && !p->group_reporting)
		s->notes |= JOB_NOTE_CLONES;
	plan_engine(p, s);
	plan_io(p, s);
	int code = plan_sync(jf, j, s, r);
	if (code == EXIT_OK)
		code = plan_time(jf, j, opt, s, r);
	if (code == EXIT_OK)
		code = plan_target(jf, j, opt, s, r);
	if (code == EXIT_OK)
		code = plan_verify(jf, j, opt, s, r);
	return code;
}

int job_plan(const struct jobfile *jf, const struct options *opt, struct job_report *rep,
	     struct result *r)
{
	rep->steps = calloc(jf->njobs, sizeof(*rep->steps)); /* job_report_release frees them */
	if (!rep->steps)
		return fail(r, EXIT_RUN, "cannot allocate %u jobs:", jf->njobs);
	rep->njobs = jf->njobs;
	rep->worst_s = 0;
	for (unsigned i = 0; i < jf->njobs; i++) {
		struct job_step *s = &rep->steps[i];
		int code = plan_step(jf, i, opt, s, r);
		if (code != EXIT_OK)
			return code;
		double each = s->o.time_s > 0 ? s->o.time_s + s->ramp_s : -1;
		rep->worst_s = rep->worst_s < 0 || each < 0 ? -1 : rep->worst_s + each;
	}
	return plan_witness(rep, opt, r);
}
