/* Unit tests of files: the name tree (shares, leaves, names, paths), the
 * orders (identity, shuffle), the bookkeeping of phases and their repeats,
 * and its working directory: target_make_tree's refusal of a non-empty
 * --dir, and the clean-up of a tree (plat_remove_tree, which never follows a
 * symlink out of it).  Everything on disk lives in a mkdtemp directory that
 * teardown removes, also when a test fails. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diskbench.h"
#include "files.h"
#include "platform.h"
#include "rng.h"
#include "target.h"

/* ---- the name tree ---- */

static void test_shares_add_up(void **state)
{
	(void)state;
	static const uint64_t ns[] = { 1, 7, 1024, 16384, 16385, 1048576 };
	static const unsigned js[] = { 1, 2, 3, 7, 64 };
	for (size_t a = 0; a < sizeof(ns) / sizeof(ns[0]); a++) {
		for (size_t b = 0; b < sizeof(js) / sizeof(js[0]); b++) {
			uint64_t sum = 0;
			uint32_t lo = UINT32_MAX, hi = 0;
			for (unsigned t = 0; t < js[b]; t++) {
				uint32_t s = files_share(ns[a], js[b], t);
				sum += s;
				lo = s < lo ? s : lo;
				hi = s > hi ? s : hi;
			}
			assert_int_equal(sum, ns[a]);
			assert_true(hi - lo <= 1); /* as even as it can be */
		}
	}
	assert_int_equal(files_share(10, 3, 0), 4);
	assert_int_equal(files_share(10, 3, 2), 3);
}

static void test_leaves_hold_at_most_per_dir(void **state)
{
	(void)state;
	assert_int_equal(files_leaves(0), 0);
	assert_int_equal(files_leaves(1), 1);
	assert_int_equal(files_leaves(FILES_PER_DIR), 1);
	assert_int_equal(files_leaves(FILES_PER_DIR + 1), 2);
	assert_int_equal(files_leaves(FILES_MAX_COUNT), FILES_MAX_COUNT / FILES_PER_DIR);
	/* every index of a share falls in one of its leaves, none overfull */
	uint32_t share = 5000;
	unsigned count[8] = { 0 };
	for (uint32_t i = 0; i < share; i++) {
		unsigned leaf = files_leaf_of(i);
		assert_true(leaf < files_leaves(share));
		count[leaf]++;
	}
	for (unsigned l = 0; l < files_leaves(share); l++)
		assert_true(count[l] <= FILES_PER_DIR);
	assert_true(files_leaves(FILES_MAX_COUNT) <= FILES_PER_DIR); /* the threads' dirs too */
}

static void test_names(void **state)
{
	(void)state;
	char a[FILES_NAME_LEN + 1], b[FILES_NAME_LEN + 1];
	files_name(123, a);
	assert_int_equal(strlen(a), FILES_NAME_LEN);
	assert_memory_equal(a, "0000123", 7);
	for (int i = 7; i < FILES_NAME_LEN; i++)
		assert_true(a[i] >= 'a' && a[i] <= 'z');
	files_name(123, b);
	assert_string_equal(a, b); /* a pure function of the index */
	/* unique over a whole leaf, and the tails differ */
	static char seen[FILES_PER_DIR][FILES_NAME_LEN + 1];
	unsigned same_tail = 0;
	for (uint32_t i = 0; i < FILES_PER_DIR; i++) {
		files_name(i + 7 * FILES_PER_DIR, seen[i]);
		if (i > 0 && strcmp(seen[i] + 7, seen[i - 1] + 7) == 0)
			same_tail++;
		for (uint32_t k = 0; k < i; k += 97)
			assert_string_not_equal(seen[i], seen[k]);
	}
	assert_true(same_tail < 4);
	files_name(FILES_MAX_COUNT - 1, a);
	assert_memory_equal(a, "1048575", 7);
}

static void test_paths(void **state)
{
	(void)state;
	char path[FILES_PATH_LEN], name[FILES_NAME_LEN + 1], want[FILES_PATH_LEN];
	files_rel_path(path, sizeof(path), FILES_SEQ, 0, 3, 2050);
	files_name(2050, name);
	snprintf(want, sizeof(want), "seq-0/t0003/d0002/%s", name);
	assert_string_equal(path, want);
	files_rel_path(path, sizeof(path), FILES_RAND, 12, 1023, FILES_MAX_COUNT - 1);
	assert_true(strncmp(path, "rand-12/t1023/d1023/1048575", 27) == 0);
	assert_true(strlen(path) < FILES_PATH_LEN - 1);
	files_round_dir(path, sizeof(path), FILES_RAND, 4);
	assert_string_equal(path, "rand-4");
}

/* ---- orders ---- */

static void test_shuffle_is_a_permutation(void **state)
{
	(void)state;
	enum { N = 5000 };
	static uint32_t perm[N], again[N];
	static unsigned char hit[N];
	struct rng r1, r2;
	files_identity(perm, N);
	for (uint32_t i = 0; i < N; i++)
		assert_int_equal(perm[i], i);
	rng_seed(&r1, 42, 0);
	files_shuffle(perm, N, &r1);
	unsigned fixed = 0;
	for (uint32_t i = 0; i < N; i++) {
		assert_true(perm[i] < N);
		assert_int_equal(hit[perm[i]], 0);
		hit[perm[i]] = 1;
		fixed += perm[i] == i;
	}
	assert_true(fixed < 20); /* about 1 expected: it did shuffle */
	/* the same seed gives the same order, for reproducible runs */
	files_identity(again, N);
	rng_seed(&r2, 42, 0);
	files_shuffle(again, N, &r2);
	assert_memory_equal(perm, again, sizeof(perm));
	/* trivial sizes are left alone */
	uint32_t one = 0;
	files_shuffle(&one, 1, &r1);
	files_shuffle(NULL, 0, &r1);
	assert_int_equal(one, 0);
}

/* Each position gets each value about equally often (a biased shuffle,
 * e.g. j drawn from [0, n) instead of [0, i), fails this). */
static void test_shuffle_is_uniform(void **state)
{
	(void)state;
	enum { N = 4, RUNS = 24000 };
	unsigned count[N][N] = { { 0 } };
	struct rng r;
	rng_seed(&r, 7, 1);
	for (unsigned run = 0; run < RUNS; run++) {
		uint32_t perm[N];
		files_identity(perm, N);
		files_shuffle(perm, N, &r);
		for (unsigned pos = 0; pos < N; pos++)
			count[pos][perm[pos]]++;
	}
	for (unsigned pos = 0; pos < N; pos++)
		for (unsigned v = 0; v < N; v++)
			assert_true(count[pos][v] > RUNS / N * 0.93 && count[pos][v] < RUNS / N * 1.07);
}

/* ---- phases ---- */

static struct files_result fr; /* large: off the stack */

static void test_plan(void **state)
{
	(void)state;
	memset(&fr, 0, sizeof(fr));
	fr.file_size = 0;
	files_plan(&fr);
	for (int i = 0; i < FILES_NPHASES; i++)
		assert_int_equal(fr.phase[i].planned, i % FILES_NOPS != FILES_READ);
	fr.file_size = 1;
	files_plan(&fr);
	for (int i = 0; i < FILES_NPHASES; i++) {
		assert_true(fr.phase[i].planned);
		assert_true(fr.phase[i].resident_before_pct < 0);
		assert_int_equal(fr.phase[i].passes, 0);
	}
	assert_int_equal(files_phase_index(FILES_RAND, FILES_STAT), 5);
	assert_string_equal(files_phase_name(files_phase_index(FILES_SEQ, FILES_CREATE)), "seq-create");
	assert_string_equal(files_phase_name(files_phase_index(FILES_RAND, FILES_DELETE)), "rand-delete");
	assert_string_equal(files_phase_key(files_phase_index(FILES_RAND, FILES_READ)), "rand_read");
	assert_string_equal(files_op_name(FILES_STAT), "stat");
	assert_null(files_phase_name(FILES_NPHASES));
	assert_null(files_phase_key(-1));
}

static void test_phase_bookkeeping(void **state)
{
	(void)state;
	struct files_phase *p = &fr.phase[0];
	static struct stats pass;
	memset(&fr, 0, sizeof(fr));
	files_plan(&fr);
	assert_true(files_phase_rate(p) == 0.0);
	for (int k = 0; k < 3; k++) {
		stats_init(&pass);
		for (uint64_t v = 1; v <= 1000; v++)
			stats_add(&pass, v * 1000);
		files_phase_add(p, &pass, 1000, 4096000, 0.25);
	}
	assert_int_equal(p->passes, 3);
	assert_int_equal(p->files, 3000);
	assert_int_equal(p->bytes, 3 * 4096000);
	assert_int_equal(p->lat.count, 3000);
	assert_true(p->seconds > 0.749 && p->seconds < 0.751);
	assert_true(files_phase_rate(p) > 3999 && files_phase_rate(p) < 4001);
}

static void test_repeats_and_short(void **state)
{
	(void)state;
	struct files_phase p;
	memset(&p, 0, sizeof(p));
	p.planned = true;
	assert_false(files_phase_short(&p)); /* never run: nothing to warn of */
	p.passes = 1;
	p.seconds = 0.1;
	p.last_cost_s = 0.3;
	assert_true(files_phase_short(&p));
	assert_true(files_phase_wants_more(&p, 0.5, 2.0));
	assert_false(files_phase_wants_more(&p, 0, 2.0));   /* -t 0: never repeat */
	assert_false(files_phase_wants_more(&p, 0.05, 2.0)); /* long enough */
	p.repeat_s = 1.8; /* one more (0.3 s) would pass the cap */
	assert_false(files_phase_wants_more(&p, 0.5, 2.0));
	p.repeat_s = 1.7;
	assert_true(files_phase_wants_more(&p, 0.5, 2.0));
	p.seconds = FILES_SHORT_S;
	assert_false(files_phase_short(&p));
	p.planned = false;
	p.seconds = 0;
	assert_false(files_phase_short(&p));
	assert_false(files_phase_wants_more(&p, 0.5, 2.0));
}

/* ---- the working directory ---- */

struct fx {
	char dir[256];
	struct result r;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/diskbench-test-files-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	target_keep_files(false);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	target_keep_files(false);
	target_cleanup();
	int rc = plat_remove_tree(AT_FDCWD, f->dir, true, 0);
	free(f);
	return rc;
}

static void touch(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "x", 1), 1);
	close(fd);
}

static bool exists(const char *dir, const char *name)
{
	char path[512];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) == 0;
}

static void test_make_tree_new(void **state)
{
	struct fx *f = *state;
	char made[4096];
	const char *how = NULL;
	assert_int_equal(target_make_tree(f->dir, NULL, made, sizeof(made), &how, &f->r), EXIT_OK);
	assert_string_equal(how, "new");
	assert_true(strncmp(made, f->dir, strlen(f->dir)) == 0);
	assert_non_null(strstr(made, "/.diskbench-files-"));
	assert_int_equal(mkdir(made, 0700), -1); /* it exists */
	char sub[4200];
	snprintf(sub, sizeof(sub), "%s/seq-0", made);
	assert_int_equal(mkdir(sub, 0700), 0);
	touch(sub, "f1");
	target_cleanup();
	struct stat st;
	assert_int_equal(stat(made, &st), -1); /* gone, with what it held */
	assert_int_equal(errno, ENOENT);
}

static void test_make_tree_named(void **state)
{
	struct fx *f = *state;
	char named[512], made[4096];
	const char *how = NULL;
	/* missing: created, and removed with its content */
	snprintf(named, sizeof(named), "%s/work", f->dir);
	assert_int_equal(target_make_tree(".", named, made, sizeof(made), &how, &f->r), EXIT_OK);
	assert_string_equal(how, "created");
	assert_string_equal(made, named);
	touch(named, "a");
	target_cleanup();
	assert_false(exists(f->dir, "work"));
	/* existing and empty: used; its content goes, the directory stays */
	assert_int_equal(mkdir(named, 0700), 0);
	assert_int_equal(target_make_tree(".", named, made, sizeof(made), &how, &f->r), EXIT_OK);
	assert_string_equal(how, "existing");
	touch(named, "b");
	target_cleanup();
	assert_true(exists(f->dir, "work"));
	assert_false(exists(f->dir, "work/b"));
	/* existing and not empty: refused, and nothing is armed to remove it */
	touch(named, "mine");
	assert_int_equal(target_make_tree(".", named, made, sizeof(made), &how, &f->r), EXIT_REFUSED);
	assert_non_null(strstr(f->r.error, "is not empty"));
	target_cleanup();
	assert_true(exists(f->dir, "work/mine"));
	/* a file, or under a missing parent: usage errors */
	snprintf(named, sizeof(named), "%s/work/mine", f->dir);
	assert_int_equal(target_make_tree(".", named, made, sizeof(made), &how, &f->r), EXIT_USAGE);
	snprintf(named, sizeof(named), "%s/none/deeper", f->dir);
	assert_int_equal(target_make_tree(".", named, made, sizeof(made), &how, &f->r), EXIT_USAGE);
	/* the target itself must be a directory */
	snprintf(named, sizeof(named), "%s/work/mine", f->dir);
	assert_int_equal(target_make_tree(named, NULL, made, sizeof(made), &how, &f->r), EXIT_USAGE);
}

static void test_make_tree_keep(void **state)
{
	struct fx *f = *state;
	char made[4096];
	const char *how;
	target_keep_files(true);
	assert_int_equal(target_make_tree(f->dir, NULL, made, sizeof(made), &how, &f->r), EXIT_OK);
	touch(made, "kept");
	target_cleanup();
	struct stat st;
	assert_int_equal(stat(made, &st), 0);
}

/* A tree deeper than files makes, many entries (several getdents reads),
 * and a symlink to a directory outside, whose content must survive. */
static void test_remove_tree(void **state)
{
	struct fx *f = *state;
	char root[512], path[600], outside[512];
	snprintf(root, sizeof(root), "%s/tree", f->dir);
	snprintf(outside, sizeof(outside), "%s/outside", f->dir);
	assert_int_equal(mkdir(outside, 0700), 0);
	touch(outside, "precious");
	assert_int_equal(mkdir(root, 0700), 0);
	snprintf(path, sizeof(path), "%s/a", root);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/a/b", root);
	assert_int_equal(mkdir(path, 0700), 0);
	for (int i = 0; i < 300; i++) {
		char name[32];
		snprintf(name, sizeof(name), "file-with-a-long-name-%03d", i);
		touch(path, name);
	}
	snprintf(path, sizeof(path), "%s/link", root);
	assert_int_equal(symlink(outside, path), 0);
	assert_int_equal(plat_remove_tree(AT_FDCWD, root, false, 0), 0);
	assert_true(exists(f->dir, "tree"));
	assert_false(exists(f->dir, "tree/a"));
	assert_false(exists(f->dir, "tree/link"));
	assert_true(exists(f->dir, "outside/precious"));
	assert_int_equal(plat_remove_tree(AT_FDCWD, root, true, 0), 0);
	assert_false(exists(f->dir, "tree"));
	/* already gone: nothing to do */
	assert_int_equal(plat_remove_tree(AT_FDCWD, root, true, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares_add_up),
		cmocka_unit_test(test_leaves_hold_at_most_per_dir),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_shuffle_is_a_permutation),
		cmocka_unit_test(test_shuffle_is_uniform),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_phase_bookkeeping),
		cmocka_unit_test(test_repeats_and_short),
		cmocka_unit_test_setup_teardown(test_make_tree_new, setup, teardown),
		cmocka_unit_test_setup_teardown(test_make_tree_named, setup, teardown),
		cmocka_unit_test_setup_teardown(test_make_tree_keep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_tree, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
