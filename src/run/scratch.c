#define _GNU_SOURCE /* renameat2 */
#include "scratch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "platform.h"
#include "util.h"

#define PREFIX ".diskbench-"
#define STAGING_WORD "new-"
#define TREE_WORD "files-"
#define RANDOM_LEN 6 /* mkstemp's XXXXXX */

/* Skips exactly n characters of set; NULL when one is not in it. */
static const char *take(const char *p, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++, p++)
		if (*p == '\0' || !strchr(set, *p))
			return NULL;
	return p;
}

bool scratch_parse(const char *name, struct scratch_name *out)
{
	static const char hex[] = "0123456789abcdef";
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	memset(out, 0, sizeof(*out));
	if (strncmp(name, PREFIX, strlen(PREFIX)) != 0)
		return false;
	const char *p = name + strlen(PREFIX);
	if (strncmp(p, STAGING_WORD, strlen(STAGING_WORD)) == 0) {
		out->staging = true;
		p += strlen(STAGING_WORD);
	}
	if (strncmp(p, TREE_WORD, strlen(TREE_WORD)) == 0) {
		out->tree = true;
		p += strlen(TREE_WORD);
	}
	const char *boot = p;
	if (!(p = take(p, 8, hex)) || *p++ != '-')
		return false;
	memcpy(out->boot, boot, 8);
	size_t digits = strspn(p, "0123456789");
	if (digits == 0 || digits > 9 || p[0] == '0' || p[digits] != '-')
		return false;
	out->pid = strtol(p, NULL, 10);
	p += digits + 1;
	return (p = take(p, RANDOM_LEN, alnum)) != NULL && *p == '\0';
}

enum scratch_fate scratch_decide(const struct scratch_name *n, const char *my_boot,
				 bool pid_alive, bool locked, bool fs_local, double age_s)
{
	if (my_boot[0] == '\0' || locked)
		return SCRATCH_KEEP;
	/* a staging name lives for microseconds, between its creation and its
	 * lock; whose PID it names cannot be told from another PID namespace */
	if (n->staging && age_s < SCRATCH_STAGING_GRACE_S)
		return SCRATCH_KEEP;
	if (strcmp(n->boot, my_boot) == 0)
		return pid_alive ? SCRATCH_KEEP : SCRATCH_REMOVE;
	return fs_local ? SCRATCH_REMOVE : SCRATCH_KEEP_OTHER_HOST;
}

/* "00000000" where the boot id is unknown: such names are never swept by a
 * run that knows its boot unless the filesystem is local and unlocked. */
static const char *my_boot(void)
{
	static char boot[9];
	static bool read;
	if (!read) {
		plat_boot_id(boot);
		read = true;
	}
	return boot;
}

static void template_of(char *out, size_t len, const char *dir, bool tree, bool staging)
{
	size_t dlen = strlen(dir);
	snprintf(out, len, "%s%s" PREFIX "%s%s%s-%ld-XXXXXX", dir,
		 dlen > 0 && dir[dlen - 1] == '/' ? "" : "/", staging ? STAGING_WORD : "",
		 tree ? TREE_WORD : "", my_boot()[0] ? my_boot() : "00000000", (long)getpid());
}

void scratch_template(char *out, size_t len, const char *dir, bool tree)
{
	template_of(out, len, dir, tree, false);
}

/* Holds the shared lock on path until exit; 0, or -1 with errno. */
static int hold(const char *path)
{
	/* the descriptor stays open until exit: closing it would drop the lock */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (plat_lock_shared(fd) != 0) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return 0;
}

/* staging -> final, never over an existing name (a directory would be
 * replaced by rename(2) if it were empty). */
static int publish(const char *staging, const char *final)
{
	if (renameat2(AT_FDCWD, staging, AT_FDCWD, final, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	struct stat st; /* a filesystem without RENAME_NOREPLACE */
	if (lstat(final, &st) == 0) {
		errno = EEXIST;
		return -1;
	}
	return rename(staging, final);
}

int scratch_create(const char *dir, bool tree, char *out, size_t len)
{
	char staging[4096];
	template_of(staging, sizeof(staging), dir, tree, true);
	int fd = tree ? (mkdtemp(staging) ? 0 : -1) : mkostemp(staging, O_CLOEXEC);
	if (fd < 0) {
		template_of(out, len, dir, tree, false); /* what the message names */
		return -1;
	}
	/* the final name: the staging one without its word, the same random part */
	template_of(out, len, dir, tree, false);
	memcpy(out + strlen(out) - RANDOM_LEN, staging + strlen(staging) - RANDOM_LEN, RANDOM_LEN);
	if (hold(staging) != 0 || publish(staging, out) != 0) {
		int saved = errno;
		if (tree)
			rmdir(staging);
		else
			unlink(staging), close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

static bool pid_alive(long pid)
{
	/* EPERM: it runs, as another user */
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* Whether any process holds the entry's lock (unknown counts as held). */
static bool entry_locked(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0)
		return true;
	bool locked = plat_try_lock_exclusive(fd) != 0;
	close(fd); /* drops the lock we took, if any */
	return locked;
}

/* Removes one leftover of the right type; 0 or -1 with errno. */
static int remove_entry(int dirfd, const char *name, bool tree)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if (tree ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	return tree ? plat_remove_tree(dirfd, name, true, 0) : unlinkat(dirfd, name, 0);
}

static bool consider(int dirfd, const char *name, bool fs_local, struct result *r)
{
	struct scratch_name n;
	if (!scratch_parse(name, &n))
		return false;
	bool alive = strcmp(n.boot, my_boot()) == 0 && pid_alive(n.pid);
	struct stat st;
	struct timespec now;
	double age_s = fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
				       clock_gettime(CLOCK_REALTIME, &now) == 0
			       ? (double)(now.tv_sec - st.st_mtim.tv_sec) : 0;
	enum scratch_fate fate = scratch_decide(&n, my_boot(), alive, !alive &&
						entry_locked(dirfd, name), fs_local, age_s);
	if (fate == SCRATCH_KEEP_OTHER_HOST) {
		warn(r, "'%s' was left by diskbench on another boot or host; remove it by hand "
		     "if no run elsewhere uses this directory", name);
		return false;
	}
	if (fate != SCRATCH_REMOVE)
		return false;
	if (remove_entry(dirfd, name, n.tree) != 0) {
		warn(r, "could not remove '%s', left by a diskbench run that is gone: %s", name,
		     strerror(errno));
		return false;
	}
	warn(r, "removed '%s', left by diskbench process %ld, which is no longer running",
	     name, n.pid);
	return true;
}

unsigned scratch_sweep(const char *dir, struct result *r)
{
	unsigned removed = 0;
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dirfd >= 0 ? fdopendir(dirfd) : NULL;
	if (!d) {
		if (dirfd >= 0)
			close(dirfd);
		return 0; /* the run's own create will say why */
	}
	bool fs_local = plat_fs_local(dirfd);
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		removed += consider(dirfd, e->d_name, fs_local, r);
	closedir(d);
	return removed;
}
