/* Unit tests of src/scratch.c: which names are diskbench's scratch files,
 * the decision to remove a leftover (and every case where it must not), and
 * a sweep over a real temp directory with a dead owner, a live one, a locked
 * one and look-alike names that must survive. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "platform.h"
#include "scratch.h"

static void test_parse_accepts_both_kinds(void **state)
{
	(void)state;
	struct scratch_name n;
	assert_true(scratch_parse(".diskbench-fcc187c9-14004-9MkNBz", &n));
	assert_false(n.tree);
	assert_string_equal(n.boot, "fcc187c9");
	assert_int_equal(n.pid, 14004);
	assert_true(scratch_parse(".diskbench-files-0123abcd-1-aaaaaa", &n));
	assert_true(n.tree);
	assert_false(n.staging);
	assert_int_equal(n.pid, 1);
	assert_true(scratch_parse(".diskbench-new-fcc187c9-14004-9MkNBz", &n));
	assert_true(n.staging);
	assert_false(n.tree);
	assert_true(scratch_parse(".diskbench-new-files-fcc187c9-14004-9MkNBz", &n));
	assert_true(n.staging && n.tree);
}

static void test_parse_rejects_lookalikes(void **state)
{
	(void)state;
	struct scratch_name n;
	const char *no[] = {
		".diskbench-ZNzGbe",                       /* the old name: never swept */
		".diskbench-files-ZNzGbe",
		"diskbench-fcc187c9-14004-9MkNBz",         /* not hidden */
		".diskbench-fcc187c9-14004-9MkNBz.bak",    /* something appended */
		".diskbench-fcc187c9-14004-9MkNB",         /* 5 random characters */
		".diskbench-fcc187c9-14004-9MkNBzz",
		".diskbench-FCC187C9-14004-9MkNBz",        /* boot ids are lowercase */
		".diskbench-fcc187c-14004-9MkNBz",
		".diskbench-fcc187c9--9MkNBz",             /* no pid */
		".diskbench-fcc187c9-014004-9MkNBz",       /* a leading zero */
		".diskbench-fcc187c9-1234567890-9MkNBz",   /* 10 digits */
		".diskbench-fcc187c9-12a4-9MkNBz",
		".diskbench-fcc187c9-14004-9Mk.Bz",
		".diskbench-other-fcc187c9-14004-9MkNBz",
		".diskbench-files-new-fcc187c9-14004-9MkNBz", /* the words in the wrong order */
		".diskbench-new-new-fcc187c9-14004-9MkNBz",
		"",
		".diskbench-",
	};
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		if (scratch_parse(no[i], &n))
			print_error("accepted '%s'\n", no[i]);
		assert_false(scratch_parse(no[i], &n));
	}
}

static void test_decide(void **state)
{
	(void)state;
	struct scratch_name n = { false, false, "aaaaaaaa", 42 };
	/* removed: this boot, owner gone, no lock; another boot on a local fs */
	assert_int_equal(scratch_decide(&n, "aaaaaaaa", false, false, true, 0), SCRATCH_REMOVE);
	assert_int_equal(scratch_decide(&n, "aaaaaaaa", false, false, false, 0), SCRATCH_REMOVE);
	assert_int_equal(scratch_decide(&n, "bbbbbbbb", false, false, true, 0), SCRATCH_REMOVE);
	/* kept: owner alive; lock held (another PID namespace); boot unknown */
	assert_int_equal(scratch_decide(&n, "aaaaaaaa", true, false, true, 0), SCRATCH_KEEP);
	assert_int_equal(scratch_decide(&n, "aaaaaaaa", false, true, true, 0), SCRATCH_KEEP);
	assert_int_equal(scratch_decide(&n, "bbbbbbbb", false, true, true, 0), SCRATCH_KEEP);
	assert_int_equal(scratch_decide(&n, "", false, false, true, 0), SCRATCH_KEEP);
	/* another boot on a shared filesystem: maybe another host's live run */
	assert_int_equal(scratch_decide(&n, "bbbbbbbb", false, false, false, 0),
			 SCRATCH_KEEP_OTHER_HOST);
	/* a staging name: its creator may be alive in another PID namespace, about
	 * to lock it; only a minute-old one, unlocked, is a dead run's */
	struct scratch_name st = { true, false, "aaaaaaaa", 42 };
	assert_int_equal(scratch_decide(&st, "aaaaaaaa", false, false, true, 0), SCRATCH_KEEP);
	assert_int_equal(scratch_decide(&st, "aaaaaaaa", false, false, true, 59), SCRATCH_KEEP);
	assert_int_equal(scratch_decide(&st, "aaaaaaaa", false, false, true, 61), SCRATCH_REMOVE);
	assert_int_equal(scratch_decide(&st, "aaaaaaaa", false, true, true, 3600), SCRATCH_KEEP);
	assert_int_equal(scratch_decide(&st, "aaaaaaaa", true, false, true, 3600), SCRATCH_KEEP);
}

/* The final name never appears unlocked: by the time it exists, an
 * exclusive lock (what the sweep tries) fails; no staging name is left. */
static void test_create_publishes_locked(void **state)
{
	(void)state;
	char dir[] = "/tmp/diskbench-scratch-XXXXXX", out[600], path[700];
	struct scratch_name n;
	assert_non_null(mkdtemp(dir));
	for (int tree = 0; tree <= 1; tree++) {
		int fd = scratch_create(dir, tree, out, sizeof(out));
		assert_true(fd >= 0);
		assert_true(scratch_parse(strrchr(out, '/') + 1, &n));
		assert_false(n.staging);
		assert_int_equal(n.tree, tree);
		int probe = open(out, O_RDONLY | O_NONBLOCK);
		assert_true(probe >= 0);
		assert_int_equal(flock(probe, LOCK_EX | LOCK_NB), -1);
		close(probe);
		char *dot = strrchr(out, '/');
		snprintf(path, sizeof(path), "%.*s/.diskbench-new-%s", (int)(dot - out), out,
			 dot + 1 + strlen(".diskbench-"));
		struct stat st;
		assert_int_equal(lstat(path, &st), -1); /* the staging name is gone */
		if (tree) {
			assert_int_equal(rmdir(out), 0);
		} else {
			assert_int_equal(unlink(out), 0);
			close(fd);
		}
	}
	assert_int_equal(rmdir(dir), 0);
}

static void test_template_names_this_process(void **state)
{
	(void)state;
	char path[256], boot[9], want[128];
	struct scratch_name n;
	plat_boot_id(boot);
	scratch_template(path, sizeof(path), "/x/", false);
	snprintf(want, sizeof(want), "/x/.diskbench-%s-%ld-XXXXXX", boot[0] ? boot : "00000000",
		 (long)getpid());
	assert_string_equal(path, want);
	scratch_template(path, sizeof(path), "/x", true);
	snprintf(want, sizeof(want), "/x/.diskbench-files-%s-%ld-XXXXXX",
		 boot[0] ? boot : "00000000", (long)getpid());
	assert_string_equal(path, want);
	/* with the random part filled in, it parses back to this process */
	memcpy(strrchr(path, '-') + 1, "Ab3dE9", 6);
	assert_true(scratch_parse(strrchr(path, '/') + 1, &n));
	assert_int_equal(n.pid, (long)getpid());
}

/* A pid that is certainly not running: a child, reaped. */
static long dead_pid(void)
{
	pid_t p = fork();
	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return (long)p;
}

static void touch(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
}

static bool exists(const char *dir, const char *name)
{
	char path[512];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) == 0;
}

static void test_sweep_removes_only_dead_runs(void **state)
{
	(void)state;
	char boot[9], dir[] = "/tmp/diskbench-scratch-XXXXXX";
	char dead[64], dead_tree[64], live[64], locked[64], other_boot_shape[64], path[600];
	plat_boot_id(boot);
	if (!boot[0])
		skip(); /* no /proc: the sweep keeps everything, as documented */
	assert_non_null(mkdtemp(dir));
	long gone = dead_pid();
	snprintf(dead, sizeof(dead), ".diskbench-%s-%ld-aB3dE9", boot, gone);
	snprintf(dead_tree, sizeof(dead_tree), ".diskbench-files-%s-%ld-aB3dE9", boot, gone);
	snprintf(live, sizeof(live), ".diskbench-%s-%ld-aB3dE9", boot, (long)getpid());
	snprintf(locked, sizeof(locked), ".diskbench-%s-%ld-zzzzzz", boot, gone);
	snprintf(other_boot_shape, sizeof(other_boot_shape), ".diskbench-%s-%ld-aB3dE9x", boot, gone);
	touch(dir, dead);
	snprintf(path, sizeof(path), "%s/%s", dir, dead_tree);
	assert_int_equal(mkdir(path, 0700), 0);
	touch(path, "f0");
	touch(dir, live);
	touch(dir, locked);
	touch(dir, other_boot_shape);
	touch(dir, ".diskbench-ZNzGbe");
	touch(dir, "data.bin");
	/* a holder in another PID namespace looks dead by its pid: its lock keeps it */
	snprintf(path, sizeof(path), "%s/%s", dir, locked);
	int held = open(path, O_RDONLY);
	assert_true(held >= 0);
	assert_int_equal(flock(held, LOCK_SH), 0);

	struct result r;
	memset(&r, 0, sizeof(r));
	unsigned removed = scratch_sweep(dir, &r);
	close(held);

	assert_int_equal(removed, 2);
	assert_false(exists(dir, dead));
	assert_false(exists(dir, dead_tree));
	assert_true(exists(dir, live));
	assert_true(exists(dir, locked));
	assert_true(exists(dir, other_boot_shape));
	assert_true(exists(dir, ".diskbench-ZNzGbe"));
	assert_true(exists(dir, "data.bin"));
	assert_int_equal(r.nwarnings, 2);
	assert_non_null(strstr(r.warnings[0], "no longer running"));

	/* once its holder let go, the locked one goes too */
	memset(&r, 0, sizeof(r));
	assert_int_equal(scratch_sweep(dir, &r), 1);
	assert_false(exists(dir, locked));

	/* a name of the wrong type (a directory named like a file) stays */
	char odd[64];
	snprintf(odd, sizeof(odd), ".diskbench-%s-%ld-qqqqqq", boot, gone);
	snprintf(path, sizeof(path), "%s/%s", dir, odd);
	assert_int_equal(mkdir(path, 0700), 0);
	memset(&r, 0, sizeof(r));
	assert_int_equal(scratch_sweep(dir, &r), 0);
	assert_true(exists(dir, odd));
	rmdir(path);

	/* staging names of a dead pid: a fresh one stays (its creator may live in
	 * another PID namespace, about to lock it), a two-minute-old one goes */
	char fresh[80], stale[80];
	snprintf(fresh, sizeof(fresh), ".diskbench-new-%s-%ld-fReSh1", boot, gone);
	snprintf(stale, sizeof(stale), ".diskbench-new-%s-%ld-sTaLe1", boot, gone);
	touch(dir, fresh);
	touch(dir, stale);
	snprintf(path, sizeof(path), "%s/%s", dir, stale);
	struct timespec old[2] = { { time(NULL) - 120, 0 }, { time(NULL) - 120, 0 } };
	assert_int_equal(utimensat(AT_FDCWD, path, old, 0), 0);
	memset(&r, 0, sizeof(r));
	assert_int_equal(scratch_sweep(dir, &r), 1);
	assert_true(exists(dir, fresh));
	assert_false(exists(dir, stale));

	const char *left[] = { live, other_boot_shape, ".diskbench-ZNzGbe", "data.bin", fresh };
	for (size_t i = 0; i < sizeof(left) / sizeof(left[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, left[i]);
		unlink(path);
	}
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_accepts_both_kinds),
		cmocka_unit_test(test_parse_rejects_lookalikes),
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_template_names_this_process),
		cmocka_unit_test(test_sweep_removes_only_dead_runs),
		cmocka_unit_test(test_create_publishes_locked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
