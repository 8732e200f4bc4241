/* files: the set-up between timed passes — each round's directories, and
 * the eviction before stat and read passes.  Never timed, never prints. */
#define _POSIX_C_SOURCE 200809L
#include "files_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform.h"

static int make_dir_at(int parent, const char *name, int *fd)
{
	if (mkdirat(parent, name, 0700) != 0 && errno != EEXIST)
		return -1;
	*fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return *fd < 0 ? -1 : 0;
}

void files_close_leaves(struct pass_ctl *ctl)
{
	for (unsigned t = 0; t < ctl->cfg->threads; t++) {
		struct worker *w = &ctl->w[t];
		for (unsigned l = 0; l < w->nleaves; l++) {
			if (w->leaf_fd[l] >= 0)
				close(w->leaf_fd[l]);
			w->leaf_fd[l] = -1;
		}
	}
}

int files_fail_at(struct pass_ctl *ctl, const char *op, const char *path)
{
	struct files_result *fr = ctl->fr;
	fr->failed_errno = errno;
	fr->failed_op = op;
	snprintf(fr->failed_path, sizeof(fr->failed_path), "%s", path);
	return -1;
}

static int make_thread_tree(struct pass_ctl *ctl, int round_fd, const char *round_dir,
			    struct worker *w)
{
	char name[16], path[FILES_PATH_LEN];
	int tfd;
	snprintf(name, sizeof(name), "t%04u", w->id);
	snprintf(path, sizeof(path), "%s/%s", round_dir, name);
	if (make_dir_at(round_fd, name, &tfd) != 0)
		return files_fail_at(ctl, "create the directory", path);
	for (unsigned l = 0; l < w->nleaves; l++) {
		snprintf(name, sizeof(name), "d%04u", l);
		if (make_dir_at(tfd, name, &w->leaf_fd[l]) != 0) {
			snprintf(path, sizeof(path), "%s/t%04u/%s", round_dir, w->id, name);
			close(tfd);
			return files_fail_at(ctl, "create the directory", path);
		}
	}
	/* with --sync=fsync the tree is durable before the clock starts */
	if (ctl->cfg->fsync && fsync(tfd) != 0) {
		close(tfd);
		return files_fail_at(ctl, "fsync the directory", path);
	}
	close(tfd);
	return 0;
}

int files_make_round(struct pass_ctl *ctl)
{
	const struct files_config *cfg = ctl->cfg;
	char round_dir[16];
	int rfd;
	files_round_dir(round_dir, sizeof(round_dir), ctl->order, ctl->round);
	if (make_dir_at(cfg->root_fd, round_dir, &rfd) != 0)
		return files_fail_at(ctl, "create the directory", round_dir);
	int rc = 0;
	for (unsigned t = 0; t < cfg->threads && rc == 0; t++)
		rc = make_thread_tree(ctl, rfd, round_dir, &ctl->w[t]);
	if (rc == 0 && cfg->fsync && (fsync(rfd) != 0 || fsync(cfg->root_fd) != 0))
		rc = files_fail_at(ctl, "fsync the directory", round_dir);
	close(rfd);
	return rc;
}

/* The round's directories, empty once its files are deleted. */
int files_remove_round(struct pass_ctl *ctl)
{
	char round_dir[16];
	files_close_leaves(ctl);
	if (ctl->cfg->keep)
		return 0;
	files_round_dir(round_dir, sizeof(round_dir), ctl->order, ctl->round);
	if (plat_remove_tree(ctl->cfg->root_fd, round_dir, true, 0) != 0)
		return files_fail_at(ctl, "remove the directory", round_dir);
	return 0;
}

/* ---- eviction (outside timing) ---- */

static void evict_file_data(struct pass_ctl *ctl, struct worker *w)
{
	char name[FILES_NAME_LEN + 1];
	for (uint32_t i = 0; i < w->share; i++) {
		files_name(i, name);
		int fd = openat(w->leaf_fd[files_leaf_of(i)], name, O_RDONLY | O_CLOEXEC);
		int rc = fd < 0 ? errno : posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		if (fd >= 0)
			close(fd);
		if (rc != 0 && ctl->fr->evict_errno == 0)
			ctl->fr->evict_errno = rc;
	}
}

/* --drop-caches=file: the files' data and the directories' own pages
 * (written back first: dirty pages cannot be dropped); all: the kernel's
 * dentries and inodes too, so stat finds nothing in memory. */
void files_evict(struct pass_ctl *ctl)
{
	const struct files_config *cfg = ctl->cfg;
	if (cfg->drop == DROP_NONE)
		return;
	if (plat_sync_fs(cfg->root_fd) != 0 && ctl->fr->evict_errno == 0)
		ctl->fr->evict_errno = errno;
	for (unsigned t = 0; t < cfg->threads; t++) {
		struct worker *w = &ctl->w[t];
		for (unsigned l = 0; l < w->nleaves; l++)
			posix_fadvise(w->leaf_fd[l], 0, 0, POSIX_FADV_DONTNEED); /* may not apply */
		if (cfg->file_size > 0)
			evict_file_data(ctl, w);
	}
	if (cfg->drop == DROP_ALL && plat_drop_all_caches() != 0 && ctl->fr->drop_all_errno == 0)
		ctl->fr->drop_all_errno = errno;
}

/* Percentage of the files' data in the page cache, from up to 64 files
 * spread over the first thread's share; -1 where it cannot be measured. */
double files_resident_pct(struct pass_ctl *ctl)
{
	struct worker *w = &ctl->w[0];
	char name[FILES_NAME_LEN + 1];
	uint32_t step = w->share > 64 ? w->share / 64 : 1;
	double sum = 0;
	unsigned counted = 0;
	for (uint32_t i = 0; i < w->share; i += step) {
		double pct;
		files_name(i, name);
		int fd = openat(w->leaf_fd[files_leaf_of(i)], name, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (plat_resident_pct(fd, ctl->cfg->file_size, &pct) == 0) {
			sum += pct;
			counted++;
		}
		close(fd);
	}
	return counted ? sum / counted : -1;
}
