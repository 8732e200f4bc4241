/* Scratch files and directories diskbench creates in a directory target:
 * names that say whose they are, and the sweep that removes those a dead
 * run left behind (SIGKILL, a crash, a power cut).
 *
 * A name is `.diskbench-BOOT-PID-XXXXXX` (a test file) or
 * `.diskbench-files-BOOT-PID-XXXXXX` (files' tree): BOOT the first 8 hex
 * digits of the kernel's boot id, PID the owner's process id, XXXXXX what
 * mkstemp/mkdtemp chose.  The owner also holds a shared flock on it while it
 * lives.  A later run removes a leftover only when all of these hold:
 *   - its name matches that pattern exactly (nothing else is ever touched);
 *   - nobody holds its lock (the owner, in any PID namespace of this kernel);
 *   - it is not a staging name (`.diskbench-new-…`) younger than a minute.
 * The owner creates the entry under its staging name, locks it, and only
 * then renames it to its final name: a run in another PID namespace, which
 * cannot tell whether the PID in a name is alive, never sees a final name
 * unlocked.  A staging name is unlocked for the microseconds between its
 * creation and its lock, so it is removed only once it is a minute old.
 *   - either it is from this boot and its PID is not running, or it is from
 *     another boot and the filesystem is local (not NFS, CIFS, FUSE or an
 *     unknown one, where another host's live run may own it).
 * Leftovers that are kept for the last reason are named in a warning. */
#ifndef SCRATCH_H
#define SCRATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "diskbench.h"

/* A staging name older than this, unlocked, is a dead run's. */
#define SCRATCH_STAGING_GRACE_S 60.0

struct scratch_name {
	bool staging;     /* .diskbench-new-…: created, not yet locked and renamed */
	bool tree;        /* .diskbench-files-… */
	char boot[9];
	long pid;
};

/* Parses a directory entry's name; false unless it matches exactly. */
bool scratch_parse(const char *name, struct scratch_name *out);

enum scratch_fate { SCRATCH_KEEP, SCRATCH_KEEP_OTHER_HOST, SCRATCH_REMOVE };
/* The decision, pure: my_boot "" (unknown) keeps everything; age_s is how
 * long ago the entry was last modified. */
enum scratch_fate scratch_decide(const struct scratch_name *n, const char *my_boot,
				 bool pid_alive, bool locked, bool fs_local, double age_s);

/* "<dir>/.diskbench-[files-]BOOT-PID-XXXXXX" into out, for mkstemp/mkdtemp. */
void scratch_template(char *out, size_t len, const char *dir, bool tree);
/* Creates a scratch file (tree: a directory) in dir, its name in out,
 * already locked (held until exit) when the name appears; returns the
 * file's descriptor (O_RDWR; 0 for a directory), or -1 with errno (out then
 * holds the name that failed). */
int scratch_create(const char *dir, bool tree, char *out, size_t len);
/* Removes the leftovers of dead runs in dir, each said in a warning of r;
 * errors are not fatal (the run goes on).  Returns how many were removed. */
unsigned scratch_sweep(const char *dir, struct result *r);

#endif
