#define _POSIX_C_SOURCE 200809L
#include "target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "devinfo.h"
#include "devinfo_host.h"
#include "scratch.h"
#include "units.h"
#include "util.h"

/* The files to remove (one per target); each written before it is armed,
 * read by signal handlers. */
static char cleanup_path[OPT_MAX_TARGETS][4096];
static volatile sig_atomic_t cleanup_armed; /* how many of cleanup_path */
static bool keep_files;

void target_keep_files(bool keep)
{
	keep_files = keep;
}

static int arm_cleanup(const char *path)
{
	if (cleanup_armed >= OPT_MAX_TARGETS) {
		errno = EMFILE;
		return -1;
	}
	snprintf(cleanup_path[cleanup_armed], sizeof(cleanup_path[0]), "%s", path);
	cleanup_armed = cleanup_armed + 1;
	return 0;
}

/* A working directory of files (diskbench files): everything under it goes,
 * and the directory itself when diskbench made it. */
static char cleanup_tree[4096];
static volatile sig_atomic_t tree_armed, tree_remove_self;

static void arm_tree_cleanup(const char *path, bool remove_self)
{
	snprintf(cleanup_tree, sizeof(cleanup_tree), "%s", path);
	tree_remove_self = remove_self;
	tree_armed = 1;
}

/* Only async-signal-safe calls: the signal handler's path too. */
static void remove_armed(void)
{
	for (sig_atomic_t i = 0; i < cleanup_armed && !keep_files; i++)
		unlink(cleanup_path[i]);
	cleanup_armed = 0;
	if (tree_armed && !keep_files)
		plat_remove_tree(AT_FDCWD, cleanup_tree, tree_remove_self, 0);
	tree_armed = 0;
}

void target_cleanup(void)
{
	remove_armed();
}

void target_cleanup_from_signal(void)
{
	remove_armed();
}

static int parent_is_dir(const char *path)
{
	char copy[4096];
	struct stat st;
	snprintf(copy, sizeof(copy), "%s", path);
	if (stat(dirname(copy), &st) != 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

/* target_classify, keeping what it stat'ed (st_mode 0 for a new path), so
 * that the checks and the identity kept for the run come from one stat. */
static int classify_stat(const char *path, enum target_kind *kind, struct stat *out)
{
	struct stat st;
	memset(out, 0, sizeof(*out));
	if (path[0] == '\0') {
		errno = ENOENT;
		return -1;
	}
	if (stat(path, &st) != 0) {
		/* "nosuchdir/" names a directory, not a new file in its parent */
		if (errno != ENOENT || path[strlen(path) - 1] == '/' || parent_is_dir(path) != 0)
			return -1;
		*kind = TARGET_NEW;
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		*kind = TARGET_DIR;
	else if (S_ISREG(st.st_mode))
		*kind = TARGET_FILE;
	else if (S_ISBLK(st.st_mode))
		*kind = TARGET_BLOCKDEV;
	else
		*kind = TARGET_OTHER;
	*out = st;
	return 0;
}

int target_classify(const char *path, enum target_kind *kind)
{
	struct stat st;
	return classify_stat(path, kind, &st);
}

/* A file that backs a loop device is written as that device would be:
 * refused while the device is mounted, swap, held by the kernel or built
 * on; an active swap file always.  dev and ino name the file as diskbench
 * keeps it for the run (one identity, from one stat or the open fd). */
static int refuse_file_in_use(const char *path, uint64_t dev, uint64_t ino, struct result *r)
{
	struct devinfo_file_use use;
	if (devinfo_file_use(dev, ino, devinfo_default_roots(), NULL, &use) != 1)
		return EXIT_OK;
	if (use.swap)
		return fail(r, EXIT_REFUSED, "file '%s' is in use: it is an active swap file "
			    "(/proc/swaps); refusing to write to it", path);
	if (use.mounted)
		return fail(r, EXIT_REFUSED, "file '%s' is in use: it backs /dev/%s, and %s holds the "
			    "%s filesystem mounted at %s; refusing to write to it", path, use.loop,
			    use.mount.device, use.mount.fs_type[0] ? use.mount.fs_type : "unknown",
			    use.mount.mount_point[0] ? use.mount.mount_point
						     : "a mount not visible from this root");
	if (use.holder[0])
		return fail(r, EXIT_REFUSED, "file '%s' is in use: it backs /dev/%s, which %s is built "
			    "on; refusing to write to it", path, use.loop, use.holder);
	if (use.loop_swap[0])
		return fail(r, EXIT_REFUSED, "file '%s' is in use: it backs /dev/%s, and /dev/%s is "
			    "active swap (/proc/swaps); refusing to write to it", path, use.loop,
			    use.loop_swap);
	if (use.held)
		return fail(r, EXIT_REFUSED, "file '%s' is in use: it backs /dev/%s, which the kernel "
			    "holds exclusively (swap, a mount or a device built on it); refusing to "
			    "write to it", path, use.loop);
	return EXIT_OK;
}

int target_check(enum target_kind kind, bool write_test, bool force, const char **why)
{
	switch (kind) {
	case TARGET_DIR:
	case TARGET_NEW:
		return EXIT_OK;
	case TARGET_FILE:
		if (write_test && !force) {
			*why = "is an existing file: a write test would overwrite it; "
			       "name a directory, a new path, or add --force";
			return EXIT_REFUSED;
		}
		return EXIT_OK;
	case TARGET_BLOCKDEV:
		if (write_test && !force) {
			*why = "is a block device: a write test destroys its data; "
			       "add --force if that is what you want";
			return EXIT_REFUSED;
		}
		return EXIT_OK;
	case TARGET_OTHER:
		break;
	}
	*why = "not a directory, regular file or block device";
	return EXIT_USAGE;
}

static void remember_identity(struct target *t, const struct stat *st)
{
	t->id_dev = (uint64_t)st->st_dev;
	t->id_ino = (uint64_t)st->st_ino;
	t->id_known = true;
}

/* A name swapped for another file or a symlink to a device between the
 * checks and an open must not be used: compare what the open found. */
static int check_identity(struct target *t, struct result *r)
{
	struct stat st;
	if (fstat(t->fd, &st) != 0)
		return fail(r, EXIT_RUN, "stat '%s':", t->path);
	if (!t->id_known) {
		remember_identity(t, &st);
		return EXIT_OK;
	}
	if ((uint64_t)st.st_dev == t->id_dev && (uint64_t)st.st_ino == t->id_ino)
		return EXIT_OK;
	target_close(t);
	return fail(r, EXIT_REFUSED, "'%s' is no longer the file diskbench checked (it was "
		    "replaced, e.g. by a symlink to another file or device); refusing to use it",
		    t->path);
}

/* A create that failed; on a read-only filesystem, what a read test can
 * measure instead. */
static int create_failed(const char *path, const char *what, struct result *r)
{
	if (errno == EROFS)
		return fail(r, EXIT_RUN, "create %s '%s': %s; to measure reads here, name an existing "
			    "file on this filesystem (or its block device) as the TARGET", what, path,
			    strerror(errno));
	return fail(r, EXIT_RUN, "create %s '%s':", what, path);
}

static int create_own_file(struct target *t, const char *arg, struct result *r)
{
	int fd;
	if (t->kind == TARGET_DIR) {
		scratch_sweep(arg, r);
		fd = scratch_create(arg, false, t->path, sizeof(t->path));
	} else {
		snprintf(t->path, sizeof(t->path), "%s", arg);
		fd = open(t->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	}
	if (fd < 0)
		return create_failed(t->path, "file", r);
	if (arm_cleanup(t->path) != 0) {
		int saved = errno;
		unlink(t->path);
		close(fd);
		errno = saved;
		return fail(r, EXIT_RUN, "create '%s':", t->path);
	}
	t->created = true;
	t->fd = fd;
	return check_identity(t, r);
}

/* An existing file's filesystem, for the free-space check of --grow. */
static int file_fs_info(struct target *t)
{
	int fd = open(t->path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		t->fs_known = plat_fs_info(fd, &t->fs) == 0;
		close(fd);
	}
	return EXIT_OK;
}

static int stat_existing(struct target *t, const char *arg, const struct stat *st,
			 struct result *r)
{
	snprintf(t->path, sizeof(t->path), "%s", arg);
	t->size = (uint64_t)st->st_size;
	remember_identity(t, st);
	if (t->kind != TARGET_BLOCKDEV)
		return file_fs_info(t);
	/* a device's st_size is 0: ask it, read-only, before anything is planned */
	int fd = open(t->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(r, EXIT_RUN, "open '%s':", t->path);
	int rc = plat_blockdev_size(fd, &t->size);
	close(fd);
	if (rc != 0)
		return fail(r, EXIT_RUN, "size of '%s':", t->path);
	return EXIT_OK;
}

int target_prepare(struct target *t, const char *arg, bool write_test, bool force,
		   struct result *r)
{
	const char *why;
	struct stat st;
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (classify_stat(arg, &t->kind, &st) != 0)
		return fail(r, errno == ENOENT || errno == ENOTDIR ? EXIT_USAGE : EXIT_RUN,
			    "target '%s':", arg);
	int code = write_test && t->kind == TARGET_FILE
			   ? refuse_file_in_use(arg, (uint64_t)st.st_dev, (uint64_t)st.st_ino, r)
			   : EXIT_OK;
	if (code != EXIT_OK)
		return code;
	code = target_check(t->kind, write_test, force, &why);
	if (code != EXIT_OK)
		return fail(r, code, "target '%s' %s", arg, why);
	t->force = force;
	if (t->kind == TARGET_DIR || t->kind == TARGET_NEW)
		code = create_own_file(t, arg, r);
	else
		code = stat_existing(t, arg, &st, r);
	if (code == EXIT_OK && t->fd >= 0 && plat_fs_info(t->fd, &t->fs) == 0)
		t->fs_known = true;
	return code;
}

/* O_EXCL catches what the kernel holds; mountinfo also names the members of
 * multi-device filesystems (btrfs RAID, bcachefs "/dev/a:/dev/b"), and says
 * where, for the message. */
static int refuse_if_mounted(const char *path, struct result *r)
{
	struct devinfo_mounted use;
	if (devinfo_path_mounted(path, NULL, &use) != 1)
		return EXIT_OK;
	return fail(r, EXIT_REFUSED, "device '%s' is in use: %s belongs to the %s filesystem "
		    "mounted at %s (from %s); refusing to write to it", path, use.device,
		    use.fs_type[0] ? use.fs_type : "unknown",
		    use.mount_point[0] ? use.mount_point : "a mount not visible from this root",
		    use.source);
}

#define CLAIM_RETRIES 20            /* about a second, */
#define CLAIM_RETRY_NS 50000000L    /* 50 ms apart */

/* An exclusive open of a device refused with EBUSY while nothing visible
 * holds it (no mount, holder or swap: a program's O_EXCL claim, or the
 * kernel still tearing down the io_uring ring of a run that has just
 * exited, issue 44) is tried again for about a second. */
static int open_device(const char *path, int flags)
{
	struct stat st;
	char who[64];
	int fd = open(path, flags);
	if (fd >= 0 || errno != EBUSY || !(flags & O_EXCL))
		return fd;
	bool shown = stat(path, &st) == 0 &&
		     devinfo_blockdev_claimed(major(st.st_rdev), minor(st.st_rdev), NULL, NULL, who,
					      sizeof(who)) == 1;
	errno = EBUSY; /* the readers' own errors are not the open's */
	for (unsigned i = 0; !shown && fd < 0 && errno == EBUSY && i < CLAIM_RETRIES; i++) {
		struct timespec nap = { 0, CLAIM_RETRY_NS };
		nanosleep(&nap, NULL);
		fd = open(path, flags);
	}
	return fd;
}

int target_open(struct target *t, int flags, bool direct, struct result *r)
{
	target_close(t);
	if (t->no_data) /* --engine=nop: whatever the test, nothing can write through it */
		flags = (flags & ~(O_ACCMODE | O_DSYNC | O_SYNC)) | O_RDONLY;
	if (direct)
		flags |= plat_o_direct;
	/* the one place writes to a device get O_EXCL: it fails with EBUSY while
	 * the device or a partition of it is mounted, or another program holds it */
	if (t->kind == TARGET_BLOCKDEV && (flags & O_ACCMODE) != O_RDONLY) {
		int code = refuse_if_mounted(t->path, r);
		if (code != EXIT_OK)
			return code;
		flags |= O_EXCL;
	}
	t->fd = t->kind == TARGET_BLOCKDEV ? open_device(t->path, flags | O_CLOEXEC)
					   : open(t->path, flags | O_CLOEXEC);
	if (t->fd < 0) {
		if (errno == EINVAL && direct) {
			t->no_direct = true;
			return fail(r, EXIT_RUN, "open '%s' with O_DIRECT: the filesystem does not "
				    "support direct I/O%s", t->path,
				    opt_hint(r->opt, OPT_NODIRECT, "; use --no-direct"));
		}
		if (errno == EBUSY && t->kind == TARGET_BLOCKDEV)
			return fail(r, EXIT_REFUSED, "device '%s' is in use (mounted, a partition of "
				    "it mounted, or held by another program); refusing to write to it",
				    t->path);
		return fail(r, EXIT_RUN, "open '%s':", t->path);
	}
	int code = check_identity(t, r);
	/* in use now, not only when checked: with several targets, one checked
	 * first may have become a loop's backing file while the others were laid out */
	if (code == EXIT_OK && t->kind == TARGET_FILE && (flags & O_ACCMODE) != O_RDONLY)
		code = refuse_file_in_use(t->path, t->id_dev, t->id_ino, r);
	if (code != EXIT_OK) {
		target_close(t);
		return code;
	}
	if (!t->fs_known && plat_fs_info(t->fd, &t->fs) == 0)
		t->fs_known = true;
	if (t->kind == TARGET_BLOCKDEV && plat_blockdev_size(t->fd, &t->size) != 0)
		return fail(r, EXIT_RUN, "size of '%s':", t->path);
	if (t->kind == TARGET_BLOCKDEV && (flags & O_ACCMODE) != O_RDONLY &&
	    plat_blockdev_readonly(t->fd) == 1)
		return fail(r, EXIT_RUN, "device '%s' is read-only: nothing to write to", t->path);
	return EXIT_OK;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

/* What makes two names one target: a device's number, a file's or
 * directory's inode, a new path's directory and last name. */
struct target_ident {
	bool device;
	uint64_t dev, ino;
	char leaf[256];
};

static int identify(const char *path, enum target_kind kind, struct target_ident *id)
{
	char copy[4096];
	struct stat st;
	memset(id, 0, sizeof(*id));
	snprintf(copy, sizeof(copy), "%s", path);
	if (kind == TARGET_NEW) {
		snprintf(id->leaf, sizeof(id->leaf), "%s", basename(copy));
		snprintf(copy, sizeof(copy), "%s", path);
		path = dirname(copy);
	}
	if (stat(path, &st) != 0)
		return -1;
	id->device = kind == TARGET_BLOCKDEV;
	id->dev = id->device ? (uint64_t)st.st_rdev : (uint64_t)st.st_dev;
	id->ino = id->device ? 0 : (uint64_t)st.st_ino;
	return 0;
}

static const char *kind_word(enum target_kind kind)
{
	return kind == TARGET_BLOCKDEV ? "device" : kind == TARGET_DIR ? "directory"
	       : kind == TARGET_FILE ? "file" : "path";
}

/* How node i of d's stack hangs from the one above it. */
static const char *hop_word(const struct devinfo *d, int i)
{
	const char *above = d->stack[d->stack[i].parent].kind;
	return strcmp(above, "part") == 0 ? "a partition of"
	       : strcmp(above, "loop") == 0 ? "backed by a file on" : "built on";
}

/* Whether the data of device upper live on device lower: lower is in
 * upper's stack, walked down sysfs (partition, slaves/, loop backing file).
 * The way down goes to how, "dm-0 is built on loop1p1, a partition of loop1". */
static bool lies_on(uint64_t upper, uint64_t lower, const struct devinfo_roots *roots,
		    char *how, size_t len)
{
	static struct devinfo d;
	char want[16];
	snprintf(want, sizeof(want), "%u:%u", major((dev_t)lower), minor((dev_t)lower));
	if (devinfo_probe_devnum(major((dev_t)upper), minor((dev_t)upper), roots, &d) != 0)
		return false;
	int hit = -1;
	for (int i = 1; i < d.nstack && hit < 0; i++)
		if (strcmp(d.stack[i].majmin, want) == 0)
			hit = i;
	if (hit < 0)
		return false;
	int chain[DEVINFO_MAX_NODES], n = 0;
	for (int i = hit; i > 0 && n < DEVINFO_MAX_NODES; i = d.stack[i].parent)
		chain[n++] = i;
	size_t used = (size_t)snprintf(how, len, "%s is", d.stack[0].name);
	for (int k = n - 1; k >= 0 && used < len; k--)
		used += (size_t)snprintf(how + used, len - used, "%s %s %s", k == n - 1 ? "" : ",",
					 hop_word(&d, chain[k]), d.stack[chain[k]].name);
	return true;
}

bool target_overlap(uint64_t a_rdev, uint64_t b_rdev, const struct devinfo_roots *roots,
		    char *how, size_t len)
{
	return lies_on(a_rdev, b_rdev, roots, how, len) || lies_on(b_rdev, a_rdev, roots, how, len);
}

static int refuse_overlap(const char *a, uint64_t a_rdev, const char *b, uint64_t b_rdev,
			  struct result *r)
{
	char how[512];
	if (target_overlap(a_rdev, b_rdev, devinfo_default_roots(), how, sizeof(how)))
		return fail(r, EXIT_USAGE, "targets '%s' and '%s' overlap: %s; the same blocks would "
			    "be measured twice; name each disk once", a, b, how);
	return EXIT_OK;
}

/* A bare word that reads as an option's value: digits, a point, a unit
 * ("2", "64M", "0.5", "4k", "10s", "2ms", "50%"), never a path ("./2"). */
static bool looks_like_value(const char *w)
{
	static const char *const units[] = { "", "k", "K", "m", "M", "g", "G", "t", "T", "KB",
					     "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB", "s", "ms",
					     "us", "%" };
	if (*w < '0' || *w > '9')
		return false;
	while ((*w >= '0' && *w <= '9') || *w == '.')
		w++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(w, units[i]) == 0)
			return true;
	return false;
}

/* A stray word after the TARGET ('randread -s 64M DIR 2') made a second
 * target: a file named 2 beside the first, read by a thread of its own on
 * the same device, every figure off (issue 44).  A new path that looks like
 * a value, on a device another target is on, is refused: './2' means it. */
static int refuse_stray_value(const char *const *args, unsigned n,
			      const enum target_kind *kinds, const struct target_ident *ids,
			      struct result *r)
{
	for (unsigned k = 0; k < n; k++)
		for (unsigned i = 0; i < n && kinds[k] == TARGET_NEW && looks_like_value(args[k]); i++)
			if (i != k && ids[i].dev == ids[k].dev)
				return fail(r, EXIT_USAGE, "target '%s' does not exist and looks like a "
					    "value, on the device of '%s': a stray word (an option's "
					    "value?); to measure a new file of that name too, name it "
					    "'./%s'", args[k], args[i], args[k]);
	return EXIT_OK;
}

int target_check_several(const char *const *args, unsigned n, bool write_test, bool force,
			 struct result *r)
{
	static struct target_ident ids[OPT_MAX_TARGETS];
	enum target_kind kinds[OPT_MAX_TARGETS];
	const char *why;
	if (n > OPT_MAX_TARGETS)
		return fail(r, EXIT_USAGE, "too many targets: at most %u", OPT_MAX_TARGETS);
	for (unsigned k = 0; k < n; k++) {
		struct stat st;
		if (classify_stat(args[k], &kinds[k], &st) != 0)
			return fail(r, errno == ENOENT || errno == ENOTDIR ? EXIT_USAGE : EXIT_RUN,
				    "target '%s':", args[k]);
		int code = write_test && kinds[k] == TARGET_FILE
				   ? refuse_file_in_use(args[k], (uint64_t)st.st_dev,
							(uint64_t)st.st_ino, r)
				   : EXIT_OK;
		if (code != EXIT_OK)
			return code;
		code = target_check(kinds[k], write_test, force, &why);
		if (code != EXIT_OK)
			return fail(r, code, "target '%s' %s", args[k], why);
	}
	for (unsigned k = 0; k < n; k++) {
		if (identify(args[k], kinds[k], &ids[k]) != 0)
			return fail(r, EXIT_RUN, "target '%s':", args[k]);
		for (unsigned i = 0; i < k; i++)
			if (ids[i].device == ids[k].device && ids[i].dev == ids[k].dev &&
			    ids[i].ino == ids[k].ino && strcmp(ids[i].leaf, ids[k].leaf) == 0)
				return fail(r, EXIT_USAGE, "target '%s' is the same %s as '%s': name "
					    "each target once", args[k], kind_word(kinds[k]), args[i]);
	}
	int stray = refuse_stray_value(args, n, kinds, ids, r);
	if (stray != EXIT_OK)
		return stray;
	for (unsigned k = 0; k < n; k++)
		for (unsigned i = 0; i < k && kinds[k] == TARGET_BLOCKDEV; i++) {
			int code = kinds[i] == TARGET_BLOCKDEV
				   ? refuse_overlap(args[i], ids[i].dev, args[k], ids[k].dev, r) : EXIT_OK;
			if (code != EXIT_OK)
				return code;
		}
	for (unsigned k = 0; write_test && k < n; k++) {
		int code = kinds[k] == TARGET_BLOCKDEV ? refuse_if_mounted(args[k], r) : EXIT_OK;
		if (code != EXIT_OK)
			return code;
	}
	return EXIT_OK;
}

/* Whether dir holds anything besides . and .. (-1 with errno if unreadable). */
static int dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	struct dirent *e;
	int empty = 1;
	errno = 0;
	while (empty && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			empty = 0;
	int saved = errno;
	closedir(d);
	errno = saved;
	return empty == 1 && saved != 0 ? -1 : empty;
}

static int use_named_dir(const char *path, char *out, size_t len, const char **state,
			 struct result *r)
{
	snprintf(out, len, "%s", path);
	if (mkdir(path, 0700) == 0) {
		*state = "created";
		arm_tree_cleanup(out, true);
		return EXIT_OK;
	}
	if (errno != EEXIST)
		return fail(r, errno == ENOENT || errno == ENOTDIR ? EXIT_USAGE : EXIT_RUN,
			    "--dir '%s':", path);
	struct stat st;
	if (lstat(path, &st) != 0)
		return fail(r, EXIT_RUN, "--dir '%s':", path);
	if (!S_ISDIR(st.st_mode))
		return fail(r, EXIT_USAGE, "--dir '%s' is not a directory", path);
	int empty = dir_is_empty(path);
	if (empty < 0)
		return fail(r, EXIT_RUN, "--dir '%s':", path);
	if (!empty)
		return fail(r, EXIT_REFUSED, "--dir '%s' is not empty: diskbench removes everything "
			    "it creates there, so it works only in a new or empty directory", path);
	*state = "existing";
	arm_tree_cleanup(out, false);
	return EXIT_OK;
}

int target_make_tree(const char *target, const char *named, char *out, size_t len,
		     const char **state, struct result *r)
{
	if (named)
		return use_named_dir(named, out, len, state, r);
	struct stat st;
	if (stat(target, &st) != 0)
		return fail(r, errno == ENOENT || errno == ENOTDIR ? EXIT_USAGE : EXIT_RUN,
			    "target '%s':", target);
	if (!S_ISDIR(st.st_mode))
		return fail(r, EXIT_USAGE, "target '%s' is not a directory: files works in a new "
			    "directory under the one named", target);
	scratch_sweep(target, r);
	if (scratch_create(target, true, out, len) < 0)
		return create_failed(out, "directory", r);
	*state = "new";
	arm_tree_cleanup(out, true);
	return EXIT_OK;
}
