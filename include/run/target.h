/* Targets: what the user named (directory, new path, file, block device),
 * whether a test may use it (the contract's safety rules, as a pure
 * decision), opening it, and removing diskbench's own test file at exit,
 * on error and on signals. */
#ifndef TARGET_H
#define TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "diskbench.h"
#include "platform.h"

enum target_kind { TARGET_DIR, TARGET_NEW, TARGET_FILE, TARGET_BLOCKDEV, TARGET_OTHER };

struct target {
	enum target_kind kind;
	char path[4096];       /* the file or device the test uses */
	int fd;
	bool created;          /* ours: removed at exit unless --keep */
	uint64_t size;         /* of an existing file or device, else 0 */
	struct fs_info fs;     /* of the filesystem holding a file */
	bool fs_known;
	/* what was checked: every later open must find the same file */
	uint64_t id_dev, id_ino;
	bool id_known;
	bool no_direct;        /* an O_DIRECT open failed: the filesystem has none */
	bool force;            /* --force: a tmpfs may take more of the free memory */
	bool ram_warned;       /* "data live in RAM" said already (before the layout) */
	bool no_data;          /* --engine=nop (opt_moves_no_data): opened read-only, never
				* laid out, written, flushed, evicted, trimmed or reset */
};

/* Classifies path without following into it; -1 with errno if neither it
 * nor its parent directory exists. */
int target_classify(const char *path, enum target_kind *kind);
/* May a test of this direction use a target of this kind?  Returns EXIT_OK,
 * EXIT_USAGE or EXIT_REFUSED, with *why set otherwise. */
int target_check(enum target_kind kind, bool write_test, bool force, const char **why);

/* Several targets (multi), before any is prepared: each classified and
 * checked as target_check does, none named twice (the same device number,
 * or the same file or directory: EXIT_USAGE), no two devices overlapping
 * (target_overlap: EXIT_USAGE), and for a write test no
 * block device among them mounted (EXIT_REFUSED), so that a write test
 * refuses before it creates, opens or writes anything.  Returns an exit
 * code. */
int target_check_several(const char *const *args, unsigned n, bool write_test, bool force,
			 struct result *r);
/* Whether block devices a and b (device numbers) overlap: one lies on the
 * other, as a partition of it, a dm or md device over it, or a loop device
 * over a file on it, as sysfs under roots tells.  Two partitions of one
 * disk, or two logical volumes of one volume group, do not.  How they
 * overlap goes to how ("loop0p1 is a partition of loop0"). */
struct devinfo_roots;
bool target_overlap(uint64_t a, uint64_t b, const struct devinfo_roots *roots, char *how,
		    size_t len);
/* Classifies and checks arg, and creates diskbench's own file where the
 * target is a directory or a new path.  Returns an exit code. */
int target_prepare(struct target *t, const char *arg, bool write_test, bool force,
		   struct result *r);
/* (Re)opens t->path with flags into t->fd; a device opened for writing
 * gets O_EXCL here, for every caller.  Returns an exit code. */
int target_open(struct target *t, int flags, bool direct, struct result *r);
void target_close(struct target *t);
/* Refuses (EXIT_RUN) when writing bytes would leave < 5 % free, and as
 * target_check_memory does. */
int target_check_space(const struct target *t, uint64_t bytes, struct result *r);
/* On a filesystem in memory (ramfs, tmpfs, hugetlbfs), refuses
 * (EXIT_REFUSED) to write more than target_ram_limit allows, whatever the
 * filesystem says is free: ramfs says nothing, tmpfs's size= may exceed RAM. */
int target_check_memory(const struct target *t, uint64_t bytes, struct result *r);
/* The most a test may write to filesystem fs_type in memory when
 * mem_available bytes are free (MemAvailable): half of it; with force, on
 * tmpfs, whose pages can be swapped out, three quarters.  ramfs and
 * hugetlbfs pages can never leave RAM, so force changes nothing there. */
uint64_t target_ram_limit(const char *fs_type, uint64_t mem_available, bool force);

/* A working directory for a tree of files: a new `.diskbench-files-XXXXXX`
 * under the directory target (mkdtemp), or, with named (--dir), that path,
 * created when missing, refused (EXIT_REFUSED) when it exists and is not
 * empty.  Its path goes to out and how it came to be to *state ("new",
 * "created", "existing"); the clean-up removes everything under it at exit,
 * on errors and on signals, and the directory itself unless it existed.
 * Returns an exit code. */
int target_make_tree(const char *target, const char *named, char *out, size_t len,
		     const char **state, struct result *r);

void target_keep_files(bool keep);
/* Removes the test file (or tree) now (normal exit and errors). */
void target_cleanup(void);
/* The same, using only async-signal-safe calls. */
void target_cleanup_from_signal(void);

#endif
