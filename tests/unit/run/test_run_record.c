/* LDFLAGS: -Wl,--wrap=getrusage -Wl,--wrap=clock_ns */
/* The run record (run_record.c): the disks' counters read at its two
 * instants, from a fake sysfs whose counters the test moves, and divided by
 * the window between them; a second run in the same record starts afresh.
 * The process's CPU time and a file's page-cache residency are read at the
 * same instants: the CPU figures are what getrusage says at the two
 * instants over what the clock says between them (both fed by the test, so
 * the split between user and system time is the test's, not the
 * scheduler's), and a real spin or sleep stays within what the kernel
 * guarantees; a file the test evicts, then reads in full between the
 * instants, is cold at the one and resident at the other. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_root.h"
#include "platform.h"
#include "run_record.h"

static struct run_record rec;

/* getrusage and the clock as the test sets them while fed.on: the answers
 * at the open, then at the close; otherwise the real calls. */
static struct {
	bool on, fail_open;
	struct rusage ru[2];
	uint64_t clock_ns[2];
	unsigned nru, nclock;
} fed;

int __real_getrusage(int who, struct rusage *ru);
int __wrap_getrusage(int who, struct rusage *ru);
uint64_t __real_clock_ns(void);
uint64_t __wrap_clock_ns(void);

int __wrap_getrusage(int who, struct rusage *ru)
{
	if (!fed.on)
		return __real_getrusage(who, ru);
	unsigned i = fed.nru < 2 ? fed.nru++ : 1;
	if (i == 0 && fed.fail_open)
		return -1;
	*ru = fed.ru[i];
	return 0;
}

uint64_t __wrap_clock_ns(void)
{
	if (!fed.on)
		return __real_clock_ns();
	return fed.clock_ns[fed.nclock < 2 ? fed.nclock++ : 1];
}

static struct timeval tv_us(uint64_t us)
{
	return (struct timeval){ .tv_sec = (time_t)(us / 1000000), .tv_usec = (long)(us % 1000000) };
}

/* Feeds the open and the close: the clock in ns, user and system CPU in us. */
static void feed(uint64_t t0_ns, uint64_t usr0_us, uint64_t sys0_us, uint64_t t1_ns,
		 uint64_t usr1_us, uint64_t sys1_us)
{
	memset(&fed, 0, sizeof(fed));
	fed.on = true;
	fed.clock_ns[0] = t0_ns, fed.clock_ns[1] = t1_ns;
	fed.ru[0].ru_utime = tv_us(usr0_us), fed.ru[0].ru_stime = tv_us(sys0_us);
	fed.ru[1].ru_utime = tv_us(usr1_us), fed.ru[1].ru_stime = tv_us(sys1_us);
}

/* The record: the disks' counters divided by the window between its two
 * instants, read from a fake sysfs whose counters the test moves. */
static void test_record_window(void **state)
{
	(void)state;
	static struct devinfo d;
	struct timespec pause = { 0, 50000000 };
	assert_int_equal(fake_root_make("record"), 0);
	memset(&d, 0, sizeof(d));
	d.nstack = 1, d.nleaves = 1, d.leaves[0] = 0;
	snprintf(d.stack[0].name, sizeof(d.stack[0].name), "vdz");
	put("class/block/vdz/stat", "100 0 800 10 0 0 0 0 0 1000 1000\n");
	run_record_prepare(&rec, &d, true, 1.0);
	rec.sysfs = root;
	run_record_close(&rec); /* never opened: nothing taken */
	assert_int_equal(rec.close_ns, 0);
	run_record_open(&rec);
	put("class/block/vdz/stat", "200 0 1600 20 0 0 0 0 0 1040 1040\n");
	nanosleep(&pause, NULL);
	run_record_close(&rec);
	double window = run_record_window_s(&rec);
	assert_true(window >= 0.05 && window < 5);
	assert_true(rec.devio.seconds == window);
	assert_int_equal(rec.devio.leaf[0].delta.reads, 100);
	assert_int_equal(rec.devio.leaf[0].delta.busy_ms, 40);
	/* 40 ms busy over the window, not over any longer span */
	assert_true(devio_util_pct(&rec.devio, 0) > 40.0 / (window * 1000) * 100 - 0.01);
	assert_true(devio_util_pct(&rec.devio, 0) < 40.0 / (window * 1000) * 100 + 0.01);
	/* a second run in the same record starts afresh */
	run_record_prepare(&rec, &d, true, 1.0);
	assert_int_equal(rec.open_ns, 0);
	assert_int_equal(rec.devio.n, 0);
	fake_root_remove();
}

static uint64_t cpu_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spins in user space until the process has used ms more of CPU. */
static void burn_cpu_ms(unsigned ms)
{
	volatile uint64_t x = 0;
	uint64_t until = cpu_now_ns() + (uint64_t)ms * 1000000u;
	while (cpu_now_ns() < until)
		for (unsigned i = 0; i < 10000; i++)
			x += i;
}

/* The share of the window the CPU clock says was spent in it: the truth
 * the record's getrusage figures are held to (this test runs one thread). */
static double expected_cpu_pct(uint64_t cpu_ns, const struct run_record *r)
{
	return (double)cpu_ns / 1e9 / run_record_window_s(r) * 100;
}

/* What getrusage says at the open and at the close, over the clock's window
 * between them: 2.000 s user and 0.500 s system before the open (not the
 * run's), 150 ms more user and 10 ms more system over a 200 ms window. */
static void test_record_cpu_between_instants(void **state)
{
	(void)state;
	run_record_prepare(&rec, NULL, false, 1.0);
	assert_true(rec.usr_pct < 0 && rec.sys_pct < 0); /* unknown before the close */
	feed(1000000000u, 2000000, 500000, 1200000000u, 2150000, 510000);
	run_record_open(&rec);
	run_record_close(&rec);
	fed.on = false;
	assert_int_equal(fed.nru, 2);
	assert_int_equal(fed.nclock, 2);
	assert_true(run_record_window_s(&rec) > 0.2 - 1e-12 && run_record_window_s(&rec) < 0.2 + 1e-12);
	assert_true(rec.usr_pct > 75.0 - 1e-9 && rec.usr_pct < 75.0 + 1e-9);
	assert_true(rec.sys_pct > 5.0 - 1e-9 && rec.sys_pct < 5.0 + 1e-9);

	/* the system time the larger: said as it was */
	run_record_prepare(&rec, NULL, false, 1.0);
	feed(5000000000u, 100000, 100000, 5500000000u, 100000, 450000);
	run_record_open(&rec);
	run_record_close(&rec);
	fed.on = false;
	assert_true(rec.usr_pct > -1e-9 && rec.usr_pct < 1e-9);
	assert_true(rec.sys_pct > 70.0 - 1e-9 && rec.sys_pct < 70.0 + 1e-9);

	/* a reading that went back, or none at the open: unknown, not a figure */
	run_record_prepare(&rec, NULL, false, 1.0);
	feed(1000000000u, 2000000, 500000, 1200000000u, 1900000, 510000);
	run_record_open(&rec);
	run_record_close(&rec);
	fed.on = false;
	assert_true(rec.usr_pct < 0 && rec.sys_pct < 0);
	run_record_prepare(&rec, NULL, false, 1.0);
	feed(1000000000u, 0, 0, 1200000000u, 150000, 10000);
	fed.fail_open = true;
	run_record_open(&rec);
	run_record_close(&rec);
	fed.on = false;
	assert_true(rec.usr_pct < 0 && rec.sys_pct < 0);
}

/* The same with the real calls around a real spin: the window's CPU, not
 * the 250 ms since the prepare (that would read several hundred %).  How the
 * kernel splits it into user and system time depends on where its ticks
 * fell (on a loaded machine a short window's split is anything), so only
 * their sum is held: the CPU clock's count within getrusage's microseconds. */
static void test_record_cpu_real_spin(void **state)
{
	(void)state;
	run_record_prepare(&rec, NULL, false, 1.0);
	burn_cpu_ms(200); /* before the open: not the run's */
	uint64_t before = cpu_now_ns();
	run_record_open(&rec);
	burn_cpu_ms(50);
	run_record_close(&rec);
	double expected = expected_cpu_pct(cpu_now_ns() - before, &rec);
	assert_true(rec.usr_pct >= 0 && rec.sys_pct >= 0);
	assert_true(rec.usr_pct + rec.sys_pct <= 100.0 + 5.0); /* one thread */
	assert_true(rec.usr_pct + rec.sys_pct <= expected + 5.0);
	assert_true(rec.usr_pct + rec.sys_pct >= expected * 0.5);
}

/* A window spent asleep costs the process (next to) no CPU. */
static void test_record_cpu_idle_window(void **state)
{
	(void)state;
	struct timespec pause = { 0, 100000000 };
	run_record_prepare(&rec, NULL, false, 1.0);
	burn_cpu_ms(100); /* before the open */
	run_record_open(&rec);
	nanosleep(&pause, NULL);
	run_record_close(&rec);
	assert_true(rec.usr_pct >= 0 && rec.sys_pct >= 0);
	assert_true(rec.usr_pct + rec.sys_pct < 20.0);
	/* a record never opened keeps them unknown */
	run_record_prepare(&rec, NULL, false, 1.0);
	run_record_close(&rec);
	assert_true(rec.usr_pct < 0 && rec.sys_pct < 0);
}

#define CACHE_FILE_BYTES (8u << 20)

struct cache_file {
	char dir[64], path[96];
	int fd;
};

/* An 8 MiB file under /var/tmp (a disk's filesystem, not tmpfs, on most
 * systems), written and synced so its pages can be evicted. */
static int cache_file_setup(void **state)
{
	static struct cache_file f;
	static char block[1 << 20];
	f.fd = -1;
	snprintf(f.dir, sizeof(f.dir), "/var/tmp/diskbench-record.XXXXXX");
	if (!mkdtemp(f.dir))
		return -1;
	*state = &f;
	snprintf(f.path, sizeof(f.path), "%s/data", f.dir);
	f.fd = open(f.path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (f.fd < 0)
		return -1;
	memset(block, 0x5a, sizeof(block));
	for (unsigned i = 0; i < CACHE_FILE_BYTES / sizeof(block); i++)
		if (write(f.fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			return -1;
	return fsync(f.fd);
}

static int cache_file_teardown(void **state)
{
	struct cache_file *f = *state;
	if (f->fd >= 0)
		close(f->fd);
	unlink(f->path);
	rmdir(f->dir);
	return 0;
}

static void read_whole(int fd)
{
	static char buf[1 << 16];
	off_t off = 0;
	ssize_t n;
	while ((n = pread(fd, buf, sizeof(buf), off)) > 0)
		off += n;
	assert_int_equal(off, CACHE_FILE_BYTES);
}

/* Evicted, then read in full between the instants: cold at the gate,
 * resident after the join. */
static void test_record_residency_at_instants(void **state)
{
	struct cache_file *f = *state;
	struct fs_info fs;
	if (plat_fs_info(f->fd, &fs) == 0 && fs.in_ram)
		skip(); /* /var/tmp in RAM: its pages are always resident */
	if (!plat_residency_visible(f->fd))
		skip(); /* mincore would call every page resident */
	assert_int_equal(posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	run_record_prepare(&rec, NULL, false, 1.0);
	run_record_open(&rec); /* not watched: nothing read */
	run_record_close(&rec);
	assert_true(rec.resident_open_pct < 0 && rec.resident_close_pct < 0);
	run_record_prepare(&rec, NULL, false, 1.0);
	run_record_watch_cache(&rec, f->fd, CACHE_FILE_BYTES);
	run_record_open(&rec);
	read_whole(f->fd);
	run_record_close(&rec);
	assert_true(rec.resident_open_pct >= 0 && rec.resident_open_pct < 5.0);
	assert_true(rec.resident_close_pct > 99.0);
	/* read at the open, not when watched: a file read in between is warm */
	assert_int_equal(posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	run_record_prepare(&rec, NULL, false, 1.0);
	run_record_watch_cache(&rec, f->fd, CACHE_FILE_BYTES);
	read_whole(f->fd);
	run_record_open(&rec);
	run_record_close(&rec);
	/* and at the close, not later */
	assert_int_equal(posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	assert_true(rec.resident_open_pct > 99.0 && rec.resident_close_pct > 99.0);
	/* read ahead of the open (before a --start-at wait): the open keeps it */
	run_record_prepare(&rec, NULL, false, 1.0);
	run_record_watch_cache(&rec, f->fd, CACHE_FILE_BYTES);
	run_record_open_cache(&rec);
	read_whole(f->fd);
	run_record_open(&rec);
	run_record_close(&rec);
	assert_true(rec.resident_open_pct >= 0 && rec.resident_open_pct < 5.0);
	assert_true(rec.resident_close_pct > 99.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_window),
		cmocka_unit_test(test_record_cpu_between_instants),
		cmocka_unit_test(test_record_cpu_real_spin),
		cmocka_unit_test(test_record_cpu_idle_window),
		cmocka_unit_test_setup_teardown(test_record_residency_at_instants,
						cache_file_setup, cache_file_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
