/* A test build of diskbench (build/tests/diskbench-fake: main and every
 * room, with this file) whose surroundings the test sets, by environment
 * variables read only here, so findings can be driven end to end through
 * the real command line, sampler, record, judgements and output:
 *
 *   FAKE_LAT=healthy        each read sleeps 60-100 us, 0.3 % of them 4 ms
 *   FAKE_LAT=bucket:IOPS    a token bucket: IOPS/10 reads of 500 us per
 *                           100 ms slice, the next waits for the refill
 *                           (slow I/Os at a regular period)
 *   FAKE_LAT=pace:IOPS      each read held to its slot, IOPS a second
 *   FAKE_LAT=cliff:S        100 us reads for S seconds, then 400 us
 *   FAKE_LAT=swing:S        100 us and 300 us by turns, S seconds each
 *   FAKE_LAT=spin           each read spins on the CPU for 50 us
 *   FAKE_LAT=svc:US         each read spins on the CPU for US us
 *   FAKE_LAT=sleep:US       each read sleeps US us: a server of fixed
 *                           service time that needs no CPU (M/D/1 under
 *                           Poisson arrivals at one in flight)
 *   FAKE_LAT=steps:IOPS:S   pace:IOPS, a quarter faster every S seconds
 *   FAKE_LAT=cut:IOPS:S     pace:IOPS for S seconds, then half of it
 *   (reads of a FAKE_LAT run are not done: only their time is spent)
 *   FAKE_STALL=RUN:N:MS     in the RUN-th timed run of the process (from 1:
 *                           sla's probe is 1, its first step 2), read N of
 *                           the run (from 0, its warm-up I/Os included)
 *                           takes MS ms more: a stall set by read, not by
 *                           time, so that a test knows which arrival it hit
 *   FAKE_SYSFS=DIR          sysfs and the device under the target: one disk
 *   FAKE_DISK=NAME          NAME (FAKE_MAJMIN, "253:7" unset) whose counters
 *                           are DIR/class/block/NAME/stat, sensor under
 *                           DIR/class/block/NAME/device/hwmon
 *   FAKE_STAT_AFTER=LINE    the disk's stat line once the run ends
 *   FAKE_HEAT=C_PER_S       the sensor's reading rises this fast
 *   FAKE_CGROUP=DIR         /proc/self/cgroup is DIR/cgroup, mountinfo
 *                           DIR/mountinfo
 *   FAKE_CLOCK=virtual      time is the test's: the monotonic clock that
 *                           diskbench (clock_ns) and the fake read moves
 *                           only as the reads take their time (a nap moves
 *                           it to its end, then sleeps as long, so that a
 *                           sampler still sees the run unfold), as an
 *                           absolute sleep of diskbench moves it to its
 *                           end, and by 100 ns a reading (a wait that
 *                           spins on it ends); a figure is then what the
 *                           code makes of the reads' times, however late
 *                           the scheduler wakes the threads (the sync
 *                           engine's reads: no other engine's move it;
 *                           one thread's absolute sleep moves it for all,
 *                           so an open loop of several threads keeps to
 *                           the real clock)
 *   FAKE_READ_FLIP=OFFSET   a read that covers byte OFFSET returns it with
 *                           its lowest bit flipped: a corrupt block there
 *   FAKE_DROP_WRITES=N      pwrite does its first N writes, then says each
 *                           later one succeeded without writing (as
 *                           dm-flakey's drop_writes): lost writes
 *   FAKE_DISCARD=ERRNO      each trim an engine does synchronously (sync,
 *                           aio) fails with this errno (22: EINVAL); the
 *                           probe before the run is not faked
 *
 * Every wrapped function is called across objects (the linker's --wrap sees
 * only those calls).  Nothing here is built into ./diskbench. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "devinfo.h"
#include "devinfo_cgroup.h"
#include "devinfo_host.h"
#include "devinfo_stat.h"

ssize_t __real_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off);
uint64_t __real_clock_ns(void);
uint64_t __wrap_clock_ns(void);
int __real_clock_nanosleep(clockid_t id, int flags, const struct timespec *t, struct timespec *rem);
int __wrap_clock_nanosleep(clockid_t id, int flags, const struct timespec *t, struct timespec *rem);
ssize_t __real_pwrite(int fd, const void *buf, size_t n, off_t off);
ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off);
int __real_devinfo_probe(const char *path, const struct devinfo_roots *roots, struct devinfo *out);
int __wrap_devinfo_probe(const char *path, const struct devinfo_roots *roots, struct devinfo *out);
const struct devinfo_roots *__real_devinfo_default_roots(void);
const struct devinfo_roots *__wrap_devinfo_default_roots(void);
const struct cgroup_roots *__real_cgroup_default_roots(void);
const struct cgroup_roots *__wrap_cgroup_default_roots(void);
void __real_devio_end(struct devio *io, const char *sysfs, double seconds);
void __wrap_devio_end(struct devio *io, const char *sysfs, double seconds);
int __real_hwmon_read_c(const struct hwmon_sensor *s, double *celsius);
int __wrap_hwmon_read_c(const struct hwmon_sensor *s, double *celsius);
int __real_bench_run(const struct bench_job *job, struct bench_outcome *out,
		     const struct bench_sampler *sampler);
int __wrap_bench_run(const struct bench_job *job, struct bench_outcome *out,
		     const struct bench_sampler *sampler);
int __real_plat_discard(int fd, bool is_blockdev, uint64_t offset, uint64_t len);
int __wrap_plat_discard(int fd, bool is_blockdev, uint64_t offset, uint64_t len);

static uint64_t real_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* FAKE_CLOCK=virtual (above) */
static atomic_uint_fast64_t vclock_ns;

#define VCLOCK_READ_NS 100 /* what a reading costs: the open loop's last 60 us spin */

static int virtual_time(void)
{
	static atomic_int known = -1; /* -1 not read yet, else FAKE_CLOCK's answer */
	int v = atomic_load(&known);
	if (v < 0) {
		const char *c = getenv("FAKE_CLOCK");
		v = c && strcmp(c, "virtual") == 0;
		atomic_store(&known, v);
	}
	return v;
}

/* The virtual clock, started at the real one's reading. */
static uint64_t vclock_read(void)
{
	uint_fast64_t zero = 0;
	atomic_compare_exchange_strong(&vclock_ns, &zero, real_now_ns());
	return atomic_fetch_add(&vclock_ns, VCLOCK_READ_NS) + VCLOCK_READ_NS;
}

static void vclock_advance_to(uint64_t t)
{
	uint_fast64_t cur = vclock_read();
	while (cur < t && !atomic_compare_exchange_weak(&vclock_ns, &cur, t))
		;
}

static uint64_t now_ns(void)
{
	return virtual_time() ? vclock_read() : real_now_ns();
}

uint64_t __wrap_clock_ns(void)
{
	return virtual_time() ? vclock_read() : __real_clock_ns();
}

static void nap_until(uint64_t t)
{
	uint64_t now = now_ns();
	if (virtual_time())
		vclock_advance_to(t);
	if (t <= now)
		return;
	struct timespec ts = { (time_t)((t - now) / 1000000000u), (long)((t - now) % 1000000000u) };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* An absolute sleep of diskbench's (the open loop's wait for the next
 * arrival) on the virtual clock: to its end at once. */
int __wrap_clock_nanosleep(clockid_t id, int flags, const struct timespec *t, struct timespec *rem)
{
	if (!virtual_time() || id != CLOCK_MONOTONIC)
		return __real_clock_nanosleep(id, flags, t, rem);
	uint64_t want = (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
	nap_until(flags & TIMER_ABSTIME ? want : now_ns() + want);
	return 0;
}

static atomic_uint_fast64_t first_ns, calls;
static pthread_mutex_t bucket = PTHREAD_MUTEX_INITIALIZER;

static uint64_t since_first(void)
{
	uint64_t zero = 0, now = now_ns();
	atomic_compare_exchange_strong(&first_ns, &zero, now);
	return now - atomic_load(&first_ns);
}

/* A token bucket: `per_slice` reads per 100 ms; the one past them waits
 * for the next slice (the lock makes the slices the threads' together). */
static void take_token(unsigned iops)
{
	static uint64_t slice_end;
	static unsigned left;
	unsigned per_slice = iops / 10 ? iops / 10 : 1;
	pthread_mutex_lock(&bucket);
	uint64_t now = now_ns();
	if (slice_end == 0 || now >= slice_end) {
		slice_end = (slice_end == 0 ? now : slice_end) + 100000000u;
		if (slice_end <= now)
			slice_end = now + 100000000u;
		left = per_slice;
	}
	if (left == 0) {
		nap_until(slice_end);
		slice_end += 100000000u;
		left = per_slice;
	}
	left--;
	pthread_mutex_unlock(&bucket);
	/* 500 us: long enough that a busy machine's late wake-ups stay small
	 * beside it, as a device's own latency would */
	nap_until(now_ns() + 500000);
}

/* Each read in its slot, iops a second, whatever the threads.  Slots lost
 * to late wake-ups (a busy machine) are made up by the reads after; a
 * pause outside the reads (the gate, the warm-up's end) is not banked. */
static void take_slot(unsigned iops)
{
	static uint64_t next, last_return;
	uint64_t step = 1000000000u / iops;
	pthread_mutex_lock(&bucket);
	uint64_t now = now_ns();
	if (next == 0 || now - last_return > 5000000u)
		next = now;
	next += step;
	uint64_t mine = next;
	pthread_mutex_unlock(&bucket);
	nap_until(mine);
	pthread_mutex_lock(&bucket);
	last_return = now_ns();
	pthread_mutex_unlock(&bucket);
}

/* FAKE_READ_FLIP: the byte at that offset flipped in what a real read got. */
static ssize_t read_flipped(int fd, void *buf, size_t n, off_t off, const char *at)
{
	ssize_t got = __real_pread(fd, buf, n, off);
	long long flip = atoll(at);
	if (got > 0 && flip >= (long long)off && flip < (long long)off + got)
		((unsigned char *)buf)[flip - off] ^= 1;
	return got;
}

ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	static atomic_uint_fast64_t writes;
	const char *drop = getenv("FAKE_DROP_WRITES");
	if (drop && atomic_fetch_add(&writes, 1) >= strtoull(drop, NULL, 10))
		return (ssize_t)n; /* acknowledged, never written */
	return __real_pwrite(fd, buf, n, off);
}

/* The timed runs so far, and the reads of the one running (FAKE_STALL). */
static atomic_uint runs, run_reads;

int __wrap_bench_run(const struct bench_job *job, struct bench_outcome *out,
		     const struct bench_sampler *sampler)
{
	atomic_store(&run_reads, 0);
	atomic_fetch_add(&runs, 1);
	return __real_bench_run(job, out, sampler);
}

/* FAKE_STALL's read: MS ms more when this read is read N of run RUN. */
static void stall_if_due(void)
{
	const char *stall = getenv("FAKE_STALL");
	unsigned run, nth, ms;
	if (!stall || sscanf(stall, "%u:%u:%u", &run, &nth, &ms) != 3)
		return;
	unsigned read = atomic_fetch_add(&run_reads, 1);
	if (atomic_load(&runs) == run && read == nth)
		nap_until(now_ns() + ms * 1000000ull);
}

ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off)
{
	const char *lat = getenv("FAKE_LAT"), *flip = getenv("FAKE_READ_FLIP");
	unsigned v = 0;
	double s = 0;
	if (n >= 512)
		stall_if_due();
	if (flip)
		return read_flipped(fd, buf, n, off, flip);
	if (!lat || n < 512)
		return __real_pread(fd, buf, n, off);
	uint64_t k = atomic_fetch_add(&calls, 1);
	if (strcmp(lat, "healthy") == 0)
		nap_until(now_ns() + (k % 1000 < 3 ? 4000000u : 60000u + (k * 7919u) % 40000u));
	else if (sscanf(lat, "bucket:%u", &v) == 1 && v > 0)
		take_token(v);
	else if (sscanf(lat, "pace:%u", &v) == 1 && v > 0)
		take_slot(v);
	else if (sscanf(lat, "cliff:%lf", &s) == 1)
		nap_until(now_ns() + ((double)since_first() / 1e9 < s ? 100000u : 400000u));
	else if (sscanf(lat, "swing:%lf", &s) == 1 && s > 0)
		nap_until(now_ns() + ((uint64_t)((double)since_first() / 1e9 / s) % 2 ? 300000u : 100000u));
	else if (sscanf(lat, "steps:%u:%lf", &v, &s) == 2 && v > 0 && s > 0)
		take_slot((unsigned)(v * (1 + 0.25 * (double)(uint64_t)((double)since_first() / 1e9 / s))));
	else if (sscanf(lat, "cut:%u:%lf", &v, &s) == 2 && v > 1)
		take_slot((double)since_first() / 1e9 < s ? v : v / 2);
	else if (sscanf(lat, "sleep:%u", &v) == 1 && v > 0)
		nap_until(now_ns() + v * 1000ull);
	else if (sscanf(lat, "svc:%u", &v) == 1 && v > 0)
		for (uint64_t end = now_ns() + v * 1000ull; now_ns() < end;)
			;
	else if (strcmp(lat, "spin") == 0)
		for (uint64_t end = now_ns() + 50000; now_ns() < end;)
			;
	return (ssize_t)n;
}

static struct devinfo_roots fake_roots;

const struct devinfo_roots *__wrap_devinfo_default_roots(void)
{
	const char *sysfs = getenv("FAKE_SYSFS");
	if (!sysfs)
		return __real_devinfo_default_roots();
	fake_roots = *__real_devinfo_default_roots();
	fake_roots.sysfs = sysfs;
	return &fake_roots;
}

/* The real probe for the filesystem, then one fake disk under it. */
int __wrap_devinfo_probe(const char *path, const struct devinfo_roots *roots, struct devinfo *out)
{
	const char *sysfs = getenv("FAKE_SYSFS"), *disk = getenv("FAKE_DISK");
	const char *majmin = getenv("FAKE_MAJMIN");
	int rc = __real_devinfo_probe(path, __real_devinfo_default_roots(), out);
	(void)roots;
	if (rc != 0 || !sysfs || !disk)
		return rc;
	struct dev_node *n = &out->top;
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", disk);
	snprintf(n->majmin, sizeof(n->majmin), "%s", majmin ? majmin : "253:7");
	snprintf(n->sysfs_path, sizeof(n->sysfs_path), "%s/class/block/%s", sysfs, disk);
	n->kind = "disk";
	n->size_bytes = -1;
	n->rotational = -1, n->rpm = -1, n->fua = -1;
	n->logical_block_size = -1, n->physical_block_size = -1;
	out->has_top = true;
	out->stack[0] = *n;
	out->nstack = 1;
	out->leaves[0] = 0;
	out->nleaves = 1;
	return 0;
}

static struct cgroup_roots fake_cgroup;
static char cg_file[4096], mi_file[4096];

const struct cgroup_roots *__wrap_cgroup_default_roots(void)
{
	const char *dir = getenv("FAKE_CGROUP");
	if (!dir)
		return __real_cgroup_default_roots();
	snprintf(cg_file, sizeof(cg_file), "%s/cgroup", dir);
	snprintf(mi_file, sizeof(mi_file), "%s/mountinfo", dir);
	fake_cgroup = (struct cgroup_roots){ cg_file, mi_file };
	return &fake_cgroup;
}

void __wrap_devio_end(struct devio *io, const char *sysfs, double seconds)
{
	const char *after = getenv("FAKE_STAT_AFTER"), *disk = getenv("FAKE_DISK");
	char path[4096];
	FILE *f;
	if (after && disk && sysfs) {
		snprintf(path, sizeof(path), "%s/class/block/%s/stat", sysfs, disk);
		if ((f = fopen(path, "w"))) {
			fprintf(f, "%s\n", after);
			fclose(f);
		}
	}
	__real_devio_end(io, sysfs, seconds);
}

int __wrap_hwmon_read_c(const struct hwmon_sensor *s, double *celsius)
{
	const char *heat = getenv("FAKE_HEAT");
	int rc = __real_hwmon_read_c(s, celsius);
	if (rc == 0 && heat)
		*celsius += atof(heat) * (double)since_first() / 1e9;
	return rc;
}

int __wrap_plat_discard(int fd, bool is_blockdev, uint64_t offset, uint64_t len)
{
	const char *err = getenv("FAKE_DISCARD");
	if (!err)
		return __real_plat_discard(fd, is_blockdev, offset, len);
	errno = atoi(err);
	return -1;
}
