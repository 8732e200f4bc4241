/* Unit tests of engine selection when the kernel refuses an engine
 * (src/engine/engine.c and the engines' probes): auto falls back, io_uring to aio
 * to sync, with a one-line reason; an explicit engine that cannot run
 * fails with that reason.
 *
 * Refusals are made real: kernel.io_uring_disabled=1 with the picks made
 * as nobody (root only; for a few milliseconds, the old value restored even
 * on failure; value 1 leaves io_uring to privileged processes, so other root
 * programs on the machine keep it meanwhile) and a seccomp
 * filter that answers EPERM to io_uring_setup and io_setup, installed in a
 * forked child, as Docker's default profile does. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "engine.h"

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif

#define SYSCTL "/proc/sys/kernel/io_uring_disabled"

struct choice {
	int rc, err;
	const struct engine_ops *ops;
	char note[512];
};

static void pick(const char *want, struct choice *c)
{
	memset(c, 0, sizeof(*c));
	errno = 0;
	c->rc = engine_pick(want, &c->ops, c->note, sizeof(c->note));
	c->err = errno;
}

/* ---- refused by a seccomp filter, in a child ------------------------------- */

/* Answers EPERM to the system calls in nrs[], allows everything else. */
static int deny(const long *nrs, unsigned n)
{
	struct sock_filter prog[16];
	unsigned k = 0;
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						 offsetof(struct seccomp_data, nr));
	for (unsigned i = 0; i < n; i++)
		prog[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nrs[i],
							 (uint8_t)(n - i), 0);
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						 SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA));
	struct sock_fprog fprog = { .len = (unsigned short)k, .filter = prog };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog);
}

/* Runs auto, uring and aio in a child, under a filter denying nrs[] if
 * n > 0; the results come back through a pipe.  0, or -1 if the child
 * failed (the caller asserts, after any clean-up). */
static int in_child(const long *nrs, unsigned n, bool as_nobody, struct choice out[3])
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		struct choice c[3];
		if (n > 0 && deny(nrs, n) != 0)
			_exit(3);
		/* without CAP_SYS_ADMIN, so that io_uring_disabled=1 applies */
		if (as_nobody && (setgroups(0, NULL) != 0 || setresgid(65534, 65534, 65534) != 0 ||
				  setresuid(65534, 65534, 65534) != 0))
			_exit(5);
		pick("auto", &c[0]);
		pick("uring", &c[1]);
		pick("aio", &c[2]);
		_exit(write(fds[1], c, sizeof(c)) == (ssize_t)sizeof(c) ? 0 : 4);
	}
	close(fds[1]);
	ssize_t got = read(fds[0], out, 3 * sizeof(*out));
	close(fds[0]);
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return got == (ssize_t)(3 * sizeof(*out)) ? 0 : -1;
}

static void under_filter(const long *nrs, unsigned n, struct choice out[3])
{
	assert_int_equal(in_child(nrs, n, false, out), 0);
}

/* ---- io_uring refused by the sysctl --------------------------------------- */

static int read_sysctl(char *buf, size_t len)
{
	int fd = open(SYSCTL, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int write_sysctl(const char *value)
{
	int fd = open(SYSCTL, O_WRONLY);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, value, strlen(value));
	close(fd);
	return n == (ssize_t)strlen(value) ? 0 : -1;
}

static void test_sysctl_disabled(void **state)
{
	(void)state;
	char old[16];
	if (geteuid() != 0 || read_sysctl(old, sizeof(old)) != 0) {
		print_message("skipping: needs root and " SYSCTL " (Linux 6.6+)\n");
		return;
	}
	struct choice c[3];
	if (atoi(old) == 2) {
		print_message("skipping: io_uring is disabled for everyone here\n");
		return;
	}
	if (write_sysctl("1") != 0) {
		print_message("skipping: cannot write " SYSCTL ": %s\n", strerror(errno));
		return;
	}
	/* the window is this short (other programs on the machine may use
	 * io_uring too), and the picks run in a child so that nothing, not even
	 * a crash, comes between the change and the restore */
	int rc = in_child(NULL, 0, true, c);
	int restored = write_sysctl(old);
	assert_int_equal(restored, 0);
	assert_int_equal(rc, 0);
	struct choice autom = c[0], uring = c[1], aio = c[2];

	assert_int_equal(autom.rc, 0);
	assert_ptr_equal(autom.ops, &engine_aio);
	assert_string_equal(autom.note, "io_uring unavailable: Operation not permitted "
					 "(kernel.io_uring_disabled=1 and not in kernel.io_uring_group); "
					 "using aio");
	assert_int_equal(uring.rc, -1);
	assert_int_equal(uring.err, EPERM);
	assert_null(uring.ops);
	assert_string_equal(uring.note, "io_uring unavailable: Operation not permitted "
					 "(kernel.io_uring_disabled=1 and not in kernel.io_uring_group)");
	assert_int_equal(aio.rc, 0);
	assert_ptr_equal(aio.ops, &engine_aio);
	assert_string_equal(aio.note, "");

	/* and back: io_uring again */
	pick("auto", &autom);
	assert_int_equal(autom.rc, 0);
	assert_ptr_equal(autom.ops, &engine_uring);
	assert_string_equal(autom.note, "");
}

static bool io_uring_sysctl_clear(void)
{
	char v[16];
	return read_sysctl(v, sizeof(v)) != 0 || atoi(v) == 0;
}

static void test_seccomp_uring(void **state)
{
	(void)state;
	char why[256];
	if (engine_aio.probe(why, sizeof(why)) != 0 || !io_uring_sysctl_clear()) {
		print_message("skipping: %s\n", engine_aio.probe(why, sizeof(why)) != 0
						? why : "io_uring is disabled by sysctl here");
		return;
	}
	static const long nrs[] = { __NR_io_uring_setup };
	struct choice c[3];
	under_filter(nrs, 1, c);
	assert_int_equal(c[0].rc, 0);
	assert_ptr_equal(c[0].ops, &engine_aio);
	assert_string_equal(c[0].note, "io_uring unavailable: Operation not permitted "
				       "(kernel.io_uring_disabled or a seccomp profile, as in "
				       "Docker's default); using aio");
	assert_int_equal(c[1].rc, -1);
	assert_int_equal(c[1].err, EPERM);
	assert_non_null(strstr(c[1].note, "io_uring unavailable: Operation not permitted"));
	assert_int_equal(c[2].rc, 0);
	assert_ptr_equal(c[2].ops, &engine_aio);
}

static void test_seccomp_both(void **state)
{
	(void)state;
	static const long nrs[] = { __NR_io_uring_setup, __NR_io_setup };
	struct choice c[3];
	under_filter(nrs, 2, c);
	assert_int_equal(c[0].rc, 0);
	assert_ptr_equal(c[0].ops, &engine_sync);
	assert_non_null(strstr(c[0].note, "io_uring unavailable: Operation not permitted"));
	assert_non_null(strstr(c[0].note, "; aio unavailable: Operation not permitted "
					  "(a seccomp profile); using sync"));
	assert_null(strchr(c[0].note, '\n'));
	assert_int_equal(c[1].rc, -1);
	assert_int_equal(c[1].err, EPERM);
	assert_int_equal(c[2].rc, -1);
	assert_int_equal(c[2].err, EPERM);
	assert_null(c[2].ops);
	assert_string_equal(c[2].note, "aio unavailable: Operation not permitted (a seccomp profile)");
}

/* What the child reports of a run (a whole outcome is more than a pipe
 * holds). */
struct refusal {
	int error;
	uint64_t ios;
	char op[32];
	char why[160];
};

/* An engine refused when the run starts (the probe passed, the world
 * changed): the run fails before any I/O, naming the engine and its
 * reason. */
static void test_open_refused(void **state)
{
	(void)state;
	char path[] = "/var/tmp/diskbench-test-fallback-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	int pipefd[2];
	assert_int_equal(pipe(pipefd), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static const long nrs[] = { __NR_io_uring_setup, __NR_io_setup };
		static struct bench_outcome outcome;
		struct refusal out[2];
		memset(out, 0, sizeof(out)); /* padding too: all of it goes down the pipe */
		if (deny(nrs, 2) != 0)
			_exit(3);
		for (int i = 0; i < 2; i++) {
			struct bench_job job = { .fd = fd, .dir = IO_WRITE, .pattern = PAT_SEQ,
						 .bs = 4096, .region = 1 << 20, .bytes_limit = 1 << 20,
						 .threads = 2, .seed = 1, .qd = 4 };
			job.engine = i == 0 ? &engine_uring : &engine_aio;
			bench_run(&job, &outcome, NULL);
			out[i].error = outcome.error;
			out[i].ios = outcome.ios;
			snprintf(out[i].op, sizeof(out[i].op), "%s", outcome.failed_op);
			memcpy(out[i].why, outcome.failed_why, sizeof(out[i].why));
		}
		_exit(write(pipefd[1], out, sizeof(out)) == (ssize_t)sizeof(out) ? 0 : 4);
	}
	close(pipefd[1]);
	struct refusal out[2];
	ssize_t got = read(pipefd[0], out, sizeof(out));
	close(pipefd[0]);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	close(fd);
	unlink(path);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(got, (ssize_t)sizeof(out));
	assert_int_equal(st.st_size, 0); /* not one write */
	assert_int_equal(out[0].error, EPERM);
	assert_string_equal(out[0].op, "io_uring");
	assert_non_null(strstr(out[0].why, "io_uring unavailable: Operation not permitted"));
	assert_int_equal(out[0].ios, 0);
	assert_int_equal(out[1].error, EPERM);
	assert_string_equal(out[1].op, "libaio");
	assert_string_equal(out[1].why,
			    "aio unavailable: Operation not permitted (a seccomp profile)");
	assert_int_equal(out[1].ios, 0);
}

/* ---- registered buffers refused: the quiet fallback ------------------------ */

/* The kB of memory the process has pinned (VmPin): io_uring's registered
 * buffers, while a ring holds them. */
static long pinned_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static void note_pinned(void *ctx, const struct bench_sample *s)
{
	(void)s;
	long *most = ctx, kb = pinned_kb();
	if (kb > *most)
		*most = kb;
}

/* Reads a 4 MiB file at qd 32 through io_uring for 0.3 s; returns how much
 * was pinned at most during the run (kB), or -1 if the run failed. */
static long run_pinned(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	struct bench_job job = { .fd = fd, .dir = IO_READ, .pattern = PAT_RAND, .bs = 65536,
				 .region = 4 << 20, .bytes_limit = UINT64_MAX, .wrap = true,
				 .time_limit_s = 0.3, .threads = 1, .seed = 1, .qd = 32,
				 .engine = &engine_uring };
	long most = 0;
	struct bench_sampler sampler = { .interval_s = 0.02, .fn = note_pinned, .ctx = &most };
	static struct bench_outcome out;
	int rc = bench_run(&job, &out, &sampler);
	close(fd);
	return rc == 0 && out.ios > 0 ? most : -1;
}

/* Without CAP_IPC_LOCK, a small RLIMIT_MEMLOCK: what a user gets. */
static int as_user_with_little_memlock(void)
{
	struct __user_cap_header_struct head = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct caps[2];
	if (syscall(SYS_capget, &head, caps) != 0)
		return -1;
	caps[CAP_IPC_LOCK / 32].effective &= ~(1u << (CAP_IPC_LOCK % 32));
	caps[CAP_IPC_LOCK / 32].permitted &= ~(1u << (CAP_IPC_LOCK % 32));
	if (syscall(SYS_capset, &head, caps) != 0)
		return -1;
	struct rlimit little = { 64 << 10, 64 << 10 };
	return setrlimit(RLIMIT_MEMLOCK, &little);
}

/* Registered buffers pin their pages; where the kernel refuses them
 * (RLIMIT_MEMLOCK), the run still goes, on plain buffers. */
static void test_fixed_buffers_refused(void **state)
{
	(void)state;
	char why[256];
	if (engine_uring.probe(why, sizeof(why)) != 0 || pinned_kb() < 0) {
		print_message("skipping: %s\n", pinned_kb() < 0 ? "no VmPin in /proc/self/status" : why);
		return;
	}
	char path[] = "/var/tmp/diskbench-test-pin-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	int rc = ftruncate(fd, 4 << 20);
	close(fd);
	long root_pinned = rc == 0 ? run_pinned(path) : -1;
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		long pinned = as_user_with_little_memlock() == 0 ? run_pinned(path) : -2;
		_exit(write(fds[1], &pinned, sizeof(pinned)) == sizeof(pinned) ? 0 : 4);
	}
	close(fds[1]);
	long user_pinned = -3;
	ssize_t got = read(fds[0], &user_pinned, sizeof(user_pinned));
	close(fds[0]);
	int status;
	waitpid(pid, &status, 0);
	unlink(path);
	assert_int_equal(got, (ssize_t)sizeof(user_pinned));
	assert_true(root_pinned >= 32 * 64); /* registered: 32 x 64 KiB pinned */
	assert_int_equal(user_pinned, 0);    /* refused: the run went on without */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysctl_disabled),
		cmocka_unit_test(test_seccomp_uring),
		cmocka_unit_test(test_seccomp_both),
		cmocka_unit_test(test_open_refused),
		cmocka_unit_test(test_fixed_buffers_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
