/* How the closed loop submits when nobody said (issue 40, src/run/bench_policy.c):
 * the decision from given rates (one request per call only 3 % faster or
 * more; ties and nothing measured stay batched), and the whole loop over a
 * fake engine whose truth the test sets: a "device" that serves a request
 * in a time that grows with the burst it came in (as a virtio disk's queue
 * does) goes one request per call after its probe, its last submits one
 * request each, each with its flush; one that serves at once but whose
 * flush (the system call) costs 100 us stays batched, its last submits
 * without a flush; the choice is not made at depth 1, with --batch, without
 * submit_auto, in an open loop, or for an engine without a flush (aio's way),
 * and a run shorter than its probe says so. */
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

static bool one(double batched, double one_rate)
{
	struct bench_probe_figures f = { .batched_rate = batched, .one_rate = one_rate,
					 .gain = batched > 0 ? one_rate / batched : 0 };
	return bench_policy_one_by_one(&f);
}

static void test_decision(void **state)
{
	(void)state;
	assert_true(one(100e3, 131e3));  /* a disk whose queue wants it */
	assert_true(one(100e3, 103e3));  /* the boundary is in */
	assert_false(one(100e3, 102.9e3)); /* within the noise: the batch saves calls */
	assert_false(one(100e3, 100e3)); /* a tie */
	assert_false(one(250e3, 180e3)); /* a device that costs the machine's CPU */
	assert_false(one(0, 0));         /* nothing measured */
	assert_false(one(0, 5e3));       /* no batched figure: no ratio */
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
	uint64_t service_ns;     /* a request's service time, times its burst with per_burst */
	bool per_burst;          /* true: service_ns x the requests of its submit call */
	uint64_t flush_ns;       /* a flush's cost, spent spinning (a system call's) */
	unsigned submits, flushes;
	char tail[64];           /* the last events: '1' a submit of one, 'n' of more, 'f' a flush */
	unsigned events;
} fake;

static void event(char c)
{
	fake.tail[fake.events++ % sizeof(fake.tail)] = c;
}

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
	uint64_t service = fake.service_ns * (fake.per_burst ? n : 1);
	fake.submits++;
	event(n == 1 ? '1' : 'n');
	for (unsigned i = 0; i < n; i++) {
		e->io[e->n] = ios[i];
		e->due[e->n++] = now + service;
	}
	return 0;
}

static int fake_flush(struct engine *e)
{
	(void)e;
	fake.flushes++;
	event('f');
	uint64_t until = clock_ns() + fake.flush_ns;
	while (clock_ns() < until)
		;
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

static struct bench_job make_job(int fd, unsigned qd, uint64_t service_ns, bool per_burst,
				 uint64_t flush_ns)
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
	job.time_limit_s = 0.6;
	job.threads = 1;
	job.seed = 7;
	job.qd = qd;
	job.engine = &fake_queued;
	job.submit_auto = true;
	memset(&fake, 0, sizeof(fake));
	fake.service_ns = service_ns;
	fake.per_burst = per_burst;
	fake.flush_ns = flush_ns;
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

/* The last events (up to 64), oldest first. */
static const char *tail(char *buf)
{
	unsigned n = fake.events < sizeof(fake.tail) ? fake.events : sizeof(fake.tail);
	for (unsigned i = 0; i < n; i++)
		buf[i] = fake.tail[(fake.events - n + i) % sizeof(fake.tail)];
	buf[n] = 0;
	return buf;
}

/* A device whose requests wait the longer the bigger the burst they came
 * in (300 us a request of the burst): one request per call once the probe
 * has ended, each submit of one request with its flush. */
static void test_bursty_device_one_by_one(void **state)
{
	(void)state;
	int fd = fd_null();
	struct bench_job job = make_job(fd, 8, 300000, true, 0);
	struct bench_outcome *out = run(&job);
	const struct bench_policy *p = &out->policy;
	char buf[80];
	assert_int_equal(p->threads, 1);
	assert_int_equal(p->measured, 1);
	assert_int_equal(p->one_by_one, 1);
	if (p->gain_min < BENCH_POLICY_GAIN_MIN)
		fail_msg("gain %.3f where one per call is the faster", p->gain_min);
	const char *t = tail(buf);
	assert_int_equal(strlen(t), 64);
	for (const char *c = t + 1; *c; c++) /* after the first, 1f1f...: every submit its own call */
		if (*c == 'n' || *c == c[-1])
			fail_msg("not one by one at the end: %s", t);
	free(out);
	close(fd);
}

/* A device that serves at once, whose flush (the system call) costs 100 us:
 * batched on after the probe, no flush at the end. */
static void test_costly_calls_batched(void **state)
{
	(void)state;
	int fd = fd_null();
	struct bench_job job = make_job(fd, 8, 0, false, 100000);
	struct bench_outcome *out = run(&job);
	char buf[80];
	assert_int_equal(out->policy.measured, 1);
	assert_int_equal(out->policy.one_by_one, 0);
	if (out->policy.gain_max >= BENCH_POLICY_GAIN_MIN)
		fail_msg("gain %.3f where every call costs 100 us", out->policy.gain_max);
	const char *t = tail(buf);
	if (strchr(t, 'f') || strlen(t) < 64)
		fail_msg("not batched at the end: %s", t);
	assert_true(fake.flushes > 0); /* the probe did try one per call */
	free(out);

	/* a run shorter than its probe: tried, not measured */
	job = make_job(fd, 8, 300000, true, 0);
	job.time_limit_s = 0.05;
	out = run(&job);
	assert_int_equal(out->policy.threads, 1);
	assert_int_equal(out->policy.measured, 0);
	assert_int_equal(out->policy.one_by_one, 0);
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
		struct bench_job job = make_job(fd, 8, 2 * MS, false, 0);
		job.time_limit_s = 0.3;
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
		cmocka_unit_test(test_bursty_device_one_by_one),
		cmocka_unit_test(test_costly_calls_batched),
		cmocka_unit_test(test_not_chosen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
