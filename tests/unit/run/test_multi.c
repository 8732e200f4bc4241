/* Unit tests of several targets at once: the thread -> target mapping
 * (bench_thread_place) and each thread's offsets over its target; a run
 * over two files whose per-target parts add up to the total; the sweep's
 * level scaling and splitting; the checks done on all targets before any
 * is touched (target_check_several); the test files of several targets
 * removed together; and the union of the targets' disks (multi.c).
 * Files live in a mkdtemp directory that teardown removes. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>

#include "util.h" /* before cmocka.h, whose fail() is a macro */

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "multi.h"
#include "sweep.h"
#include "target.h"

#define KiB 1024ull

struct fx {
	char dir[256];
	char path[4][512];
	struct result r;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/diskbench-test-multi-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	f->r.resident_before_pct = -1;
	target_keep_files(false);
	*state = f;
	return 0;
}

/* Removes path, and what it holds when it is a directory. */
static void remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	DIR *d = opendir(path);
	struct dirent *e;
	char sub[1024];
	while (d && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		remove_tree(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

static int teardown(void **state)
{
	struct fx *f = *state;
	target_cleanup();
	remove_tree(f->dir);
	result_release(&f->r); /* what multi_begin kept with the result */
	free(f);
	return 0;
}

static const char *in_dir(struct fx *f, unsigned i, const char *name)
{
	snprintf(f->path[i], sizeof(f->path[i]), "%s/%s", f->dir, name);
	return f->path[i];
}

static void make_file(const char *path, size_t len)
{
	char buf[4096];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7 + 1);
	for (size_t done = 0; done < len; done += sizeof(buf))
		assert_int_equal(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	close(fd);
}

static unsigned entries(const char *dir)
{
	unsigned n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	if (d)
		closedir(d);
	return n;
}

/* ---- the mapping -------------------------------------------------------------- */

static void test_thread_place(void **state)
{
	(void)state;
	unsigned local, peers;
	/* 7 threads over 3 targets: 0,3,6 on target 0; 1,4 on 1; 2,5 on 2 */
	static const unsigned want_target[7] = { 0, 1, 2, 0, 1, 2, 0 };
	static const unsigned want_local[7] = { 0, 0, 0, 1, 1, 1, 2 };
	static const unsigned want_peers[7] = { 3, 2, 2, 3, 2, 2, 3 };
	for (unsigned i = 0; i < 7; i++) {
		assert_int_equal(bench_thread_place(i, 7, 3, &local, &peers), want_target[i]);
		assert_int_equal(local, want_local[i]);
		assert_int_equal(peers, want_peers[i]);
	}
	/* one target (0 or 1): every thread on it, as before */
	for (unsigned n = 0; n <= 1; n++) {
		assert_int_equal(bench_thread_place(5, 8, n, &local, &peers), 0);
		assert_int_equal(local, 5);
		assert_int_equal(peers, 8);
	}
	/* fewer threads than targets: the first targets get one each */
	assert_int_equal(bench_thread_place(1, 2, 4, &local, &peers), 1);
	assert_int_equal(peers, 1);
}

/* Each thread's slice lies in its own target's region; quotas count per target. */
static void test_offsets_per_target(void **state)
{
	(void)state;
	const uint64_t bs = 4096;
	const uint64_t regions[2] = { 8 * bs, 4 * bs };
	const int fds[2] = { -1, -1 };
	struct bench_job job = { .pattern = PAT_SEQ, .bs = bs, .threads = 4, .seed = 1,
				 .bytes_limit = 8 * bs, .ntargets = 2, .fds = fds,
				 .regions = regions };
	struct offset_gen g;
	uint64_t quota, off;
	/* target 0 (threads 0 and 2): [0, 4) and [4, 8) blocks; target 1 (1 and 3): [0, 2), [2, 4) */
	static const uint64_t start[4] = { 0, 0, 4, 2 }, end[4] = { 4, 2, 8, 4 };
	for (unsigned t = 0; t < 4; t++) {
		offset_gen_init(&g, &job, t, &quota);
		assert_int_equal(g.start, start[t] * bs);
		assert_int_equal(g.end, end[t] * bs);
		assert_int_equal(quota, (end[t] - start[t]) * bs);
	}
	/* random: anywhere in the thread's own target only */
	job.pattern = PAT_RAND;
	offset_gen_init(&g, &job, 1, &quota);
	assert_int_equal(quota, 4 * bs); /* 8 blocks per target, shared by its 2 threads */
	for (int i = 0; i < 1000; i++) {
		assert_true(offset_gen_next(&g, &off));
		assert_true(off < regions[1]);
		assert_int_equal(off % bs, 0);
	}
	/* one target: the job's region, all threads */
	struct bench_job one = { .pattern = PAT_SEQ, .bs = bs, .threads = 4, .seed = 1,
				 .bytes_limit = 8 * bs, .region = 8 * bs };
	offset_gen_init(&g, &one, 3, &quota);
	assert_int_equal(g.start, 6 * bs);
	assert_int_equal(g.end, 8 * bs);
	assert_int_equal(quota, 2 * bs);
}

/* A run over two files: each target's part of the bytes, I/Os and
 * latencies adds up to the total, and parts add up over runs. */
static void test_parts_add_up(void **state)
{
	struct fx *f = *state;
	const uint64_t region = 256 * KiB;
	int fds[2];
	uint64_t regions[2] = { region, region };
	static struct bench_part parts[2];
	static struct bench_outcome out;
	for (unsigned k = 0; k < 2; k++) {
		make_file(in_dir(f, k, k ? "b" : "a"), region);
		fds[k] = open(f->path[k], O_RDONLY);
		assert_true(fds[k] >= 0);
		memset(&parts[k], 0, sizeof(parts[k]));
		stats_init(&parts[k].lat);
	}
	struct bench_job job = { .fd = fds[0], .region = region, .dir = IO_READ,
				 .pattern = PAT_RAND, .bs = 4096, .threads = 4, .seed = 7,
				 .bytes_limit = 64 * KiB, .ntargets = 2, .fds = fds,
				 .regions = regions, .parts = parts };
	assert_int_equal(bench_run(&job, &out, NULL), 0);
	/* bytes_limit counts per target */
	assert_int_equal(parts[0].bytes, 64 * KiB);
	assert_int_equal(parts[1].bytes, 64 * KiB);
	assert_int_equal(parts[0].bytes + parts[1].bytes, out.bytes);
	assert_int_equal(parts[0].ios + parts[1].ios, out.ios);
	assert_int_equal(parts[0].lat.count + parts[1].lat.count, out.lat.count);
	for (unsigned k = 0; k < 2; k++) {
		assert_true(parts[k].seconds > 0);
		assert_true(parts[k].seconds <= out.seconds + 1e-9);
	}
	assert_int_equal(bench_run(&job, &out, NULL), 0);
	assert_int_equal(parts[0].bytes + parts[1].bytes, 2 * out.bytes);
	/* a write job with its fsync at the end: one on each target, in its part */
	for (unsigned k = 0; k < 2; k++) {
		close(fds[k]);
		fds[k] = open(f->path[k], O_WRONLY);
		assert_true(fds[k] >= 0);
	}
	job.dir = IO_WRITE;
	job.fsync_at_end = true;
	assert_int_equal(bench_run(&job, &out, NULL), 0);
	assert_int_equal(parts[0].bytes + parts[1].bytes, 3 * out.bytes);
	close(fds[0]);
	close(fds[1]);
}

/* Per-target rates over the common window add up to the total rate, even
 * when one target finishes long before the other (the rates are computed
 * here from bytes and seconds, not taken from any printed figure). */
static void test_rates_add_up(void **state)
{
	struct fx *f = *state;
	int fds[2];
	uint64_t regions[2] = { 16 * KiB, 1024 * KiB };
	static struct bench_part parts[2];
	static struct bench_outcome out;
	for (unsigned k = 0; k < 2; k++) {
		make_file(in_dir(f, k, k ? "big" : "small"), regions[k]);
		fds[k] = open(f->path[k], O_RDONLY);
		assert_true(fds[k] >= 0);
		memset(&parts[k], 0, sizeof(parts[k]));
		stats_init(&parts[k].lat);
	}
	struct bench_job job = { .fd = fds[0], .region = regions[0], .dir = IO_READ,
				 .pattern = PAT_SEQ, .bs = 4096, .threads = 2, .seed = 7,
				 .bytes_limit = UINT64_MAX, .ntargets = 2, .fds = fds,
				 .regions = regions, .parts = parts };
	assert_int_equal(bench_run(&job, &out, NULL), 0);
	assert_int_equal(parts[0].bytes, regions[0]);
	assert_int_equal(parts[1].bytes, regions[1]);
	double total = (double)out.bytes / out.seconds;
	double sum = (double)parts[0].bytes / parts[0].seconds +
		     (double)parts[1].bytes / parts[1].seconds;
	assert_true(sum <= total * (1 + 1e-9) && sum >= total * (1 - 1e-9));
	close(fds[0]);
	close(fds[1]);
}

static void test_targets_need_descriptors(void **state)
{
	(void)state;
	static struct bench_outcome out;
	struct bench_job job = { .region = 4096, .bs = 4096, .threads = 2, .bytes_limit = 4096,
				 .ntargets = 2 };
	assert_int_equal(bench_run(&job, &out, NULL), -1);
	assert_int_equal(out.error, EINVAL);
}

/* ---- the sweep ------------------------------------------------------------------- */

static void test_scale_levels(void **state)
{
	(void)state;
	static const unsigned base[7] = { 1, 2, 4, 8, 16, 32, 64 };
	unsigned out[7];
	assert_int_equal(sweep_scale_levels(base, 7, 1, OPT_MAX_THREADS, out), 7);
	assert_memory_equal(out, base, sizeof(base));
	assert_int_equal(sweep_scale_levels(base, 7, 2, OPT_MAX_THREADS, out), 7);
	static const unsigned two[7] = { 2, 4, 8, 16, 32, 64, 128 };
	assert_memory_equal(out, two, sizeof(two));
	/* 32 LUNs: 64 x 32 would pass the most threads diskbench runs */
	assert_int_equal(sweep_scale_levels(base, 7, 32, OPT_MAX_THREADS, out), 6);
	assert_int_equal(out[0], 32);
	assert_int_equal(out[5], 1024);
	static const unsigned large[4] = { 1, 2, 4, 8 };
	assert_int_equal(sweep_scale_levels(large, 4, 3, OPT_MAX_THREADS, out), 4);
	assert_int_equal(out[3], 24);
}

static void test_split_level_targets(void **state)
{
	(void)state;
	unsigned threads, qd, t1, q1;
	/* one target: as sweep_split_level */
	for (unsigned level = 1; level <= 64; level++) {
		sweep_split_level_targets(level, 32, 1, &threads, &qd);
		sweep_split_level(level, 32, &t1, &q1);
		assert_int_equal(threads, t1);
		assert_int_equal(qd, q1);
	}
	/* every level: threads x qd outstanding; a multiple of the targets is
	 * spread evenly, a thread count that is a multiple of them */
	for (unsigned n = 2; n <= 4; n++)
		for (unsigned level = 1; level <= 256; level++) {
			sweep_split_level_targets(level, 32, n, &threads, &qd);
			assert_int_equal(threads * qd, level);
			if (level % n == 0)
				assert_int_equal(threads % n, 0);
			else
				assert_int_equal(threads, level);
		}
	sweep_split_level_targets(128, 32, 2, &threads, &qd); /* 64 a target: 2 x 32 */
	assert_int_equal(threads, 4);
	assert_int_equal(qd, 32);
	sweep_split_level_targets(8, 1, 2, &threads, &qd); /* the sync engine: a thread each */
	assert_int_equal(threads, 8);
	assert_int_equal(qd, 1);
}

/* ---- checks before anything is touched ------------------------------------------- */

static int check(struct fx *f, bool write_test, bool force, unsigned n, ...)
{
	const char *args[4];
	va_list ap;
	va_start(ap, n);
	for (unsigned i = 0; i < n; i++)
		args[i] = va_arg(ap, const char *);
	va_end(ap);
	f->r.error[0] = '\0';
	return target_check_several(args, n, write_test, force, &f->r);
}

static void test_check_several(void **state)
{
	struct fx *f = *state;
	char a[512], b[512], a_slash[600], file[512], hard[512], nx[600], ny[600];
	snprintf(a, sizeof(a), "%s/a", f->dir);
	snprintf(b, sizeof(b), "%s/b", f->dir);
	snprintf(a_slash, sizeof(a_slash), "%s/", a);
	snprintf(file, sizeof(file), "%s/file", f->dir);
	snprintf(hard, sizeof(hard), "%s/hardlink", f->dir);
	snprintf(nx, sizeof(nx), "%s/new-x", a);
	snprintf(ny, sizeof(ny), "%s/new-y", a);
	assert_int_equal(mkdir(a, 0700), 0);
	assert_int_equal(mkdir(b, 0700), 0);
	make_file(file, 4096);
	assert_int_equal(link(file, hard), 0);

	assert_int_equal(check(f, true, false, 2, a, b), EXIT_OK);
	assert_int_equal(check(f, false, false, 2, nx, ny), EXIT_OK);
	assert_int_equal(check(f, false, false, 2, a, a_slash), EXIT_USAGE);
	assert_non_null(strstr(f->r.error, "is the same directory as"));
	assert_int_equal(check(f, false, false, 2, file, hard), EXIT_USAGE);
	assert_non_null(strstr(f->r.error, "is the same file as"));
	assert_int_equal(check(f, true, false, 3, b, nx, nx), EXIT_USAGE);
	/* a write test refuses an existing file among them before creating anything */
	assert_int_equal(check(f, true, false, 2, a, file), EXIT_REFUSED);
	assert_non_null(strstr(f->r.error, "is an existing file"));
	assert_int_equal(entries(a), 0);
	assert_int_equal(check(f, true, true, 2, a, file), EXIT_OK);
	assert_int_equal(check(f, false, false, 2, a, "/nonexistent-diskbench/x"), EXIT_USAGE);
	assert_int_equal(check(f, false, false, 2, a, "/dev/null"), EXIT_USAGE);
}

/* Each target's own file is removed, however many there are. */
static void test_cleanup_several(void **state)
{
	struct fx *f = *state;
	static struct target t[3];
	char dir[512];
	for (unsigned k = 0; k < 3; k++) {
		snprintf(dir, sizeof(dir), "%s/d%u", f->dir, k);
		assert_int_equal(mkdir(dir, 0700), 0);
		assert_int_equal(target_prepare(&t[k], dir, true, false, &f->r), EXIT_OK);
		target_close(&t[k]);
		assert_int_equal(entries(dir), 1);
	}
	target_cleanup();
	for (unsigned k = 0; k < 3; k++) {
		snprintf(dir, sizeof(dir), "%s/d%u", f->dir, k);
		assert_int_equal(entries(dir), 0);
	}
}

/* ---- the run over several targets (multi.c) ---------------------------------------- */

static void fake_node(struct dev_node *n, const char *name, const char *majmin, int parent)
{
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	snprintf(n->majmin, sizeof(n->majmin), "%s", majmin);
	n->parent = parent;
	n->kind = "disk";
}

static void test_threads_and_disks(void **state)
{
	struct fx *f = *state;
	static struct options opt;
	static struct devinfo lvm, other, same;
	struct multi *m;
	memset(&opt, 0, sizeof(opt));
	opt.threads = 3;
	opt.accepts = OPT_THREADS;
	opt.given = OPT_THREADS;
	opt.ntargets = 3;
	for (unsigned k = 0; k < 3; k++) {
		char name[8];
		snprintf(name, sizeof(name), "t%u", k);
		assert_int_equal(mkdir(in_dir(f, k, name), 0700), 0);
		opt.targets[k] = f->path[k];
	}
	opt.target = opt.targets[0];
	f->r.dir = IO_READ;
	assert_int_equal(multi_begin(&m, &opt, &f->r), EXIT_OK);
	assert_int_equal(m->n, 3);
	assert_int_equal(m->opt.threads, 3);
	assert_ptr_equal(f->r.opt, &m->opt);
	assert_int_equal(f->r.ntargets, 3);
	assert_int_equal(f->r.nwarnings, 0);
	for (unsigned k = 0; k < 3; k++)
		assert_int_equal(multi_threads(m, k), 1);

	/* -j 2 over 3 targets: raised, and said, since -j was given */
	opt.threads = 2;
	assert_int_equal(multi_begin(&m, &opt, &f->r), EXIT_OK);
	assert_int_equal(m->opt.threads, 3);
	assert_int_equal(f->r.nwarnings, 1);
	assert_non_null(strstr(f->r.warnings[0], "-j 2 raised to 3"));
	/* -j 4 over 3 targets: uneven, said */
	opt.threads = 4;
	assert_int_equal(multi_begin(&m, &opt, &f->r), EXIT_OK);
	assert_int_equal(multi_threads(m, 0), 2);
	assert_int_equal(multi_threads(m, 2), 1);
	assert_non_null(strstr(f->r.warnings[f->r.nwarnings - 1], "the load is uneven"));

	/* the disks of all three, each once: LVM on vda, vdb, and LVM on vda again */
	fake_node(&lvm.stack[0], "dm-0", "253:0", -1);
	fake_node(&lvm.stack[1], "vda", "254:0", 0);
	lvm.nstack = 2, lvm.leaves[0] = 1, lvm.nleaves = 1, lvm.has_top = true;
	lvm.top = lvm.stack[0];
	fake_node(&other.stack[0], "vdb", "254:16", -1);
	other.nstack = 1, other.leaves[0] = 0, other.nleaves = 1, other.has_top = true;
	same = lvm;
	m->out[0].device = &lvm;
	m->out[1].device = &other;
	m->out[2].device = &same;
	for (unsigned k = 0; k < 3; k++) {
		m->region[k] = (k + 1) * 1024 * KiB;
		m->resident[k] = k == 1 ? 50.0 : 0.0;
	}
	multi_measure_view(m, &f->r);
	const struct devinfo *all = f->r.device;
	assert_non_null(all);
	assert_int_equal(all->nstack, 3);
	assert_int_equal(all->nleaves, 2);
	assert_string_equal(all->stack[all->leaves[0]].name, "vda");
	assert_string_equal(all->stack[all->leaves[1]].name, "vdb");
	assert_int_equal(all->stack[1].parent, 0);
	assert_int_equal(all->stack[2].parent, -1);
	assert_int_equal(f->r.region, 6 * 1024 * KiB);
	/* 50 % of the second's 2 MiB of the 6 MiB in all */
	assert_true(f->r.resident_before_pct > 16.6 && f->r.resident_before_pct < 16.7);
	multi_finish(m, &f->r);
	assert_ptr_equal(f->r.device, &lvm);
	multi_close(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_place),
		cmocka_unit_test(test_offsets_per_target),
		cmocka_unit_test_setup_teardown(test_parts_add_up, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rates_add_up, setup, teardown),
		cmocka_unit_test(test_targets_need_descriptors),
		cmocka_unit_test(test_scale_levels),
		cmocka_unit_test(test_split_level_targets),
		cmocka_unit_test_setup_teardown(test_check_several, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cleanup_several, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threads_and_disks, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
