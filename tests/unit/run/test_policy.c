/* How the closed loop submits when nobody said (issue 40, src/run/bench_policy.c):
 * the decision from given measurements (one request per call only with the
 * thread under half busy and half a CPU idle or more; the boundaries, an
 * unknown idle, nothing measured), and the whole loop over a fake engine
 * whose "device" serves each request after a set time: a slow one (the
 * thread sleeps) goes one request per call after its probe, each submit of
 * one request followed by its own flush; an instant one (the thread never
 * sleeps), or a machine with no idle CPU, stays batched with no flush; the
 * choice is not made at depth 1, with --batch, without submit_auto, in an
 * open loop, or for an engine without a flush (aio's way). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "clock.h"
#include "engine.h"

#define MS 1000000ull

/* ---- the decision ------------------------------------------------------------ */

static bool one(double busy, double idle)
{
	struct bench_probe_figures f = { .busy = busy, .idle_cpus = idle };
	return bench_policy_one_by_one(&f);
}

static void test_decision(void **state)
{
	(void)state;
	/* a disk: the thread sleeps most of the time, the machine is idle */
	assert_true(one(0.25, 1.6));
	assert_true(one(0.0, 0.5));             /* the idle boundary is in */
	assert_true(one(0.499, 2.0));
	assert_true(one(0.3, -1));              /* idle unknown: the thread decides */
	/* a fast device: the thread is the limit */
	assert_false(one(0.65, 1.0));
	assert_false(one(0.5, 2.0));            /* the busy boundary is out */
	assert_false(one(1.0, -1));
	/* a loaded machine: no CPU to spare, however idle the thread */
	assert_false(one(0.1, 0.0));
	assert_false(one(0.1, 0.49));
	/* nothing measured */
	assert_false(one(-1, 2.0));
}

/* ---- a fake engine: each request done service_ns after its submission -------- */

#define FAKE_QD 64

struct engine {
	unsigned n;
	struct engine_io *io[FAKE_QD];
	uint64_t due[FAKE_QD];
	uint64_t reap_calls;
};

static struct fake {
	uint64_t service_ns;     /* 0: every request done at once (the thread spins) */
	unsigned submits, flushes;
	unsigned multi_after_flush; /* submits of more than one after the first flush */
	unsigned submits_after_flush;
} fake;

static int fake_probe(char *why, size_t len)
{
	(void)why, (void)len;
	return 0;
}

static struct engine *fake_open(const struct engine_setup *s, char *why, size_t len)
{
	(void)s, (void)why, (void)len;
	return calloc(1, sizeof(struct engine));
}

static int fake_submit(struct engine *e, struct engine_io *const ios[], unsigned n)
{
	uint64_t now = clock_ns();
	fake.submits++;
	if (fake.flushes > 0) {
		fake.submits_after_flush++;
		fake.multi_after_flush += n > 1;
	}
	for (unsigned i = 0; i < n; i++) {
		e->io[e->n] = ios[i];
		e->due[e->n++] = now + fake.service_ns;
	}
	return 0;
}

static int fake_flush(struct engine *e)
{
	(void)e;
	fake.flushes++;
	return 0;
}

static int fake_reap(struct engine *e, struct engine_io *done[], unsigned min, unsigned max)
{
	unsigned got = 0;
	e->reap_calls++;
	for (;;) {
		uint64_t now = clock_ns(), first = UINT64_MAX;
		for (unsigned i = 0; i < e->n && got < max;) {
			if (e->due[i] > now) {
				first = e->due[i] < first ? e->due[i] : first;
				i++;
				continue;
			}
			e->io[i]->result = e->io[i]->len;
			e->io[i]->done = e->io[i]->len;
			done[got++] = e->io[i];
			e->io[i] = e->io[--e->n];
			e->due[i] = e->due[e->n];
		}
		if (got >= min || e->n == 0)
			return (int)got;
		struct timespec ts = { 0, (long)(first - now) };
		nanosleep(&ts, NULL);
	}
}

static void fake_close(struct engine *e)
{
	free(e);
}

static void fake_facts(struct engine *e, struct engine_facts *f)
{
	*f = (struct engine_facts){ .reap_calls = e->reap_calls, .fixed_buffers = -1,
				    .fixed_file = -1 };
}

static const struct engine_ops fake_queued = {
	.name = "fake", .label = "fake", .max_qd = FAKE_QD, .probe = fake_probe,
	.open = fake_open, .submit = fake_submit, .reap = fake_reap, .close = fake_close,
	.flush = fake_flush, .facts = fake_facts,
};
/* the same without a flush: every submit a system call already (aio) */
static const struct engine_ops fake_direct = {
	.name = "fake", .label = "fake", .max_qd = FAKE_QD, .probe = fake_probe,
	.open = fake_open, .submit = fake_submit, .reap = fake_reap, .close = fake_close,
	.facts = fake_facts,
};

/* The machine's idle time as a test sets it: idle_cpus CPUs idle all along. */
static double idle_cpus;
static int fake_idle(uint64_t *ns)
{
	*ns = (uint64_t)((double)clock_ns() * idle_cpus);
	return 0;
}
static int no_idle(uint64_t *ns)
{
	(void)ns;
	errno = ENOENT;
	return -1;
}

static struct bench_job make_job(int fd, unsigned qd, uint64_t service_ns, double idle)
{
	struct bench_job job;
	memset(&job, 0, sizeof(job));
	job.fd = fd;
	job.dir = IO_READ;
	job.pattern = PAT_RAND;
	job.bs = 4096;
	job.region = 1 << 20;
	job.bytes_limit = UINT64_MAX;
	job.wrap = true;
	job.time_limit_s = 0.3;
	job.threads = 1;
	job.seed = 7;
	job.qd = qd;
	job.engine = &fake_queued;
	job.submit_auto = true;
	job.cpu_idle_ns = fake_idle;
	memset(&fake, 0, sizeof(fake));
	fake.service_ns = service_ns;
	idle_cpus = idle;
	return job;
}

static struct bench_outcome *run(const struct bench_job *job)
{
	struct bench_outcome *out = calloc(1, sizeof(*out));
	assert_non_null(out);
	assert_int_equal(bench_run(job, out, NULL), 0);
	assert_true(out->ios > 0);
	return out;
}

static int fd_null(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

/* A slow device (2 ms a request) on an idle machine: one request per call
 * once the probe has ended, each in a submit of its own with its flush. */
static void test_slow_device_one_by_one(void **state)
{
	(void)state;
	int fd = fd_null();
	struct bench_job job = make_job(fd, 8, 2 * MS, 2.0);
	struct bench_outcome *out = run(&job);
	const struct bench_policy *p = &out->policy;
	assert_int_equal(p->threads, 1);
	assert_int_equal(p->measured, 1);
	assert_int_equal(p->one_by_one, 1);
	if (p->busy_max >= BENCH_POLICY_BUSY_MAX)
		fail_msg("busy %.3f while sleeping on its device", p->busy_max);
	assert_true(p->idle_cpus > 1.5 && p->idle_cpus < 2.5);
	assert_true(fake.flushes > 100);
	assert_int_equal(fake.multi_after_flush, 0);
	assert_int_equal(fake.flushes, fake.submits_after_flush + 1);
	free(out);

	/* idle unknown (no /proc/stat): the thread alone decides */
	job = make_job(fd, 8, 2 * MS, 0);
	job.cpu_idle_ns = no_idle;
	out = run(&job);
	assert_int_equal(out->policy.one_by_one, 1);
	assert_true(out->policy.idle_cpus < 0);
	free(out);
	close(fd);
}

/* The negative cases: a device as fast as the thread (it never sleeps), or
 * a machine with no idle CPU, stay batched: no flush, the probe measured. */
static void test_busy_or_loaded_batched(void **state)
{
	(void)state;
	int fd = fd_null();
	struct bench_job job = make_job(fd, 8, 0, 2.0);
	struct bench_outcome *out = run(&job);
	assert_int_equal(out->policy.measured, 1);
	assert_int_equal(out->policy.one_by_one, 0);
	if (out->policy.busy_max < BENCH_POLICY_BUSY_MAX)
		fail_msg("busy %.3f while never sleeping", out->policy.busy_max);
	assert_int_equal(fake.flushes, 0);
	free(out);

	job = make_job(fd, 8, 2 * MS, 0.1);
	out = run(&job);
	assert_int_equal(out->policy.measured, 1);
	assert_int_equal(out->policy.one_by_one, 0);
	assert_true(out->policy.idle_cpus < BENCH_POLICY_IDLE_MIN);
	assert_int_equal(fake.flushes, 0);
	free(out);

	/* a run shorter than its probe: nothing measured, batched throughout */
	job = make_job(fd, 8, 2 * MS, 2.0);
	job.time_limit_s = 0.05;
	out = run(&job);
	assert_int_equal(out->policy.threads, 1);
	assert_int_equal(out->policy.measured, 0);
	assert_int_equal(fake.flushes, 0);
	free(out);
	close(fd);
}

/* Where the run does not choose: depth 1, --batch, submit_auto off (--reap,
 * peer mode), an open loop, an engine without a flush. */
static void test_not_chosen(void **state)
{
	(void)state;
	int fd = fd_null();
	for (int k = 0; k < 5; k++) {
		struct bench_job job = make_job(fd, 8, 2 * MS, 2.0);
		job.time_limit_s = 0.15;
		if (k == 0)
			job.qd = 1;
		else if (k == 1)
			job.batch = 4;
		else if (k == 2)
			job.submit_auto = false;
		else if (k == 3)
			job.rate = 2000;
		else
			job.engine = &fake_direct;
		struct bench_outcome *out = run(&job);
		if (out->policy.threads != 0)
			fail_msg("case %d: the run chose", k);
		if (k == 1)
			assert_true(fake.flushes > 0); /* --batch 4: its own calls, as before */
		else
			assert_int_equal(fake.flushes, 0);
		free(out);
	}
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decision),
		cmocka_unit_test(test_slow_device_one_by_one),
		cmocka_unit_test(test_busy_or_loaded_batched),
		cmocka_unit_test(test_not_chosen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
