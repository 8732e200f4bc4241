/* files: the timed passes.  Threads wait at a start gate; each does one
 * operation over its own files (its own subdirectory), timing each; the
 * phase's wall time runs from the gate to the last thread's end.  Set-up
 * (directories, orders, eviction) happens between passes, outside timing. */
#define _POSIX_C_SOURCE 200809L
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "files_int.h"
#include "rng.h"

static void fill_stamp(unsigned char *buf, size_t len, uint32_t index, uint64_t chunk)
{
	/* every 4 KiB of every file differs: no filesystem can dedupe them */
	for (size_t off = 0; off + 16 <= len; off += 4096) {
		uint64_t tag[2] = { index, chunk + off };
		memcpy(buf + off, tag, sizeof(tag));
	}
}

static int write_data(struct worker *w, int fd, uint32_t index)
{
	const struct files_config *cfg = w->ctl->cfg;
	uint64_t left = cfg->file_size, at = 0;
	while (left > 0) {
		size_t len = left < cfg->bs ? (size_t)left : (size_t)cfg->bs;
		if (!cfg->zeros)
			fill_stamp(w->buf, len, index, at);
		ssize_t n = write(fd, w->buf, len);
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			if (errno == EINTR)
				continue;
			return -1;
		}
		left -= (uint64_t)n;
		at += (uint64_t)n;
	}
	w->bytes += cfg->file_size;
	return 0;
}

static int do_create(struct worker *w, int dirfd, const char *name, uint32_t index)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	int rc = write_data(w, fd, index);
	if (rc == 0 && w->ctl->cfg->fsync)
		rc = fsync(fd);
	int saved = errno;
	if (close(fd) != 0 && rc == 0)
		return -1;
	errno = saved;
	return rc;
}

static int do_stat(struct worker *w, int dirfd, const char *name)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return -1;
	if ((uint64_t)st.st_size != w->ctl->cfg->file_size) {
		errno = EIO; /* not the file this run wrote */
		return -1;
	}
	return 0;
}

static int do_read(struct worker *w, int dirfd, const char *name)
{
	const struct files_config *cfg = w->ctl->cfg;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	uint64_t got = 0;
	ssize_t n;
	while ((n = read(fd, w->buf, w->block)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		got += (uint64_t)n;
	}
	int saved = errno;
	close(fd);
	if (n < 0) {
		errno = saved;
		return -1;
	}
	if (got != cfg->file_size) {
		errno = EIO;
		return -1;
	}
	w->bytes += got;
	return 0;
}

static int do_op(struct worker *w, enum files_op op, int dirfd, const char *name, uint32_t index)
{
	switch (op) {
	case FILES_CREATE: return do_create(w, dirfd, name, index);
	case FILES_STAT: return do_stat(w, dirfd, name);
	case FILES_READ: return do_read(w, dirfd, name);
	case FILES_DELETE: return unlinkat(dirfd, name, 0);
	case FILES_NOPS: break;
	}
	errno = EINVAL;
	return -1;
}

/* The names reach stable storage only once their directories do. */
static int sync_leaves(struct worker *w)
{
	for (unsigned l = 0; l < w->nleaves; l++)
		if (fsync(w->leaf_fd[l]) != 0)
			return -1;
	return 0;
}

static void worker_pass(struct worker *w)
{
	const struct files_config *cfg = w->ctl->cfg;
	enum files_op op = w->ctl->op;
	char name[FILES_NAME_LEN + 1];
	stats_init(&w->lat);
	w->done = w->bytes = 0;
	for (uint32_t k = 0; k < w->share && !*cfg->stop; k++) {
		uint32_t index = w->order[k];
		files_name(index, name);
		int dirfd = w->leaf_fd[files_leaf_of(index)];
		uint64_t t0 = clock_ns();
		if (do_op(w, op, dirfd, name, index) != 0) {
			w->error = errno;
			w->failed_op = files_op_name(op);
			w->failed_index = index;
			return;
		}
		stats_add(&w->lat, clock_ns() - t0);
		w->done++;
	}
	bool changes_names = op == FILES_CREATE || op == FILES_DELETE;
	if (cfg->fsync && changes_names && !*cfg->stop && sync_leaves(w) != 0) {
		w->error = errno;
		w->failed_op = "fsync the directories of";
		w->failed_index = 0;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pass_ctl *ctl = w->ctl;
	pthread_mutex_lock(&ctl->launch_lock);
	while (ctl->launch == 0)
		pthread_cond_wait(&ctl->launch_cond, &ctl->launch_lock);
	int launch = ctl->launch;
	pthread_mutex_unlock(&ctl->launch_lock);
	if (launch < 0)
		return NULL;
	for (;;) {
		pthread_barrier_wait(&w->ctl->gate);
		if (w->ctl->quit)
			return NULL;
		worker_pass(w);
		w->end_ns = clock_ns();
		pthread_barrier_wait(&w->ctl->finish);
	}
}

/* ---- passes and phases ---- */

/* Creation order, or a new shuffle for every pass of the random phases. */
static void set_orders(struct pass_ctl *ctl)
{
	for (unsigned t = 0; t < ctl->cfg->threads; t++) {
		struct worker *w = &ctl->w[t];
		files_identity(w->order, w->share);
		if (ctl->order == FILES_RAND)
			files_shuffle(w->order, w->share, &w->rng);
	}
}

/* One pass of op by every thread, from the start gate. */
static int run_pass(struct pass_ctl *ctl, enum files_op op)
{
	const struct files_config *cfg = ctl->cfg;
	int phase = files_phase_index(ctl->order, op);
	struct files_phase *p = &ctl->fr->phase[phase];
	set_orders(ctl);
	if (cfg->on_pass)
		cfg->on_pass(cfg->ctx, phase, p->passes + 1);
	ctl->op = op;
	uint64_t t0 = clock_ns();
	pthread_barrier_wait(&ctl->gate);
	pthread_barrier_wait(&ctl->finish);
	uint64_t end = t0;
	for (unsigned t = 0; t < cfg->threads; t++) {
		struct worker *w = &ctl->w[t];
		if (w->error) {
			char path[FILES_PATH_LEN];
			errno = w->error;
			files_rel_path(path, sizeof(path), ctl->order, ctl->round, w->id, w->failed_index);
			return files_fail_at(ctl, w->failed_op, path);
		}
		end = w->end_ns > end ? w->end_ns : end;
	}
	if (*cfg->stop) {
		ctl->fr->stopped = true;
		return -1;
	}
	uint64_t files = 0, bytes = 0;
	struct stats *lat = &ctl->w[0].lat;
	for (unsigned t = 0; t < cfg->threads; t++) {
		files += ctl->w[t].done;
		bytes += ctl->w[t].bytes;
		if (t > 0)
			stats_merge(lat, &ctl->w[t].lat);
	}
	files_phase_add(p, lat, files, bytes, (double)(end - t0) / 1e9);
	return 0;
}

/* Stat and read run again on the same files (evicted again) while short. */
static int run_repeatable(struct pass_ctl *ctl, enum files_op op)
{
	const struct files_config *cfg = ctl->cfg;
	struct files_phase *p = &ctl->fr->phase[files_phase_index(ctl->order, op)];
	if (!p->planned || (p->passes > 0 &&
			    !files_phase_wants_more(p, cfg->min_phase_s, cfg->repeat_cap_s)))
		return 0;
	do {
		uint64_t t0 = clock_ns();
		bool first = p->passes == 0;
		files_evict(ctl);
		if (op == FILES_READ && first)
			p->resident_before_pct = files_resident_pct(ctl);
		if (run_pass(ctl, op) != 0)
			return -1;
		p->last_cost_s = (double)(clock_ns() - t0) / 1e9;
		if (!first)
			p->repeat_s += p->last_cost_s;
	} while (files_phase_wants_more(p, cfg->min_phase_s, cfg->repeat_cap_s));
	return 0;
}

/* Stat and read (while short) between a round's create and delete; the
 * seconds they took, which later rounds (that skip them) will not cost. */
static int run_middle(struct pass_ctl *ctl, double *took_s)
{
	uint64_t t0 = clock_ns();
	int rc = run_repeatable(ctl, FILES_STAT);
	if (rc == 0)
		rc = run_repeatable(ctl, FILES_READ);
	*took_s = (double)(clock_ns() - t0) / 1e9;
	return rc;
}

/* Rounds of one order: create in a new directory, stat and read (while
 * short), delete; another round while create or delete is short. */
static int run_order(struct pass_ctl *ctl, enum files_order order)
{
	const struct files_config *cfg = ctl->cfg;
	struct files_phase *create = &ctl->fr->phase[files_phase_index(order, FILES_CREATE)];
	struct files_phase *del = &ctl->fr->phase[files_phase_index(order, FILES_DELETE)];
	ctl->order = order;
	for (ctl->round = 0;; ctl->round++) {
		uint64_t t0 = clock_ns();
		double middle_s = 0;
		int rc = files_make_round(ctl);
		if (rc == 0)
			rc = run_pass(ctl, FILES_CREATE);
		if (rc == 0)
			rc = run_middle(ctl, &middle_s);
		if (rc == 0)
			rc = run_pass(ctl, FILES_DELETE);
		if (rc != 0) {
			files_close_leaves(ctl);
			return -1;
		}
		if (files_remove_round(ctl) != 0)
			return -1;
		double took = (double)(clock_ns() - t0) / 1e9;
		create->last_cost_s = del->last_cost_s = took - middle_s;
		if (ctl->round > 0) {
			create->repeat_s += took;
			del->repeat_s += took;
		}
		if (!files_phase_wants_more(create, cfg->min_phase_s, cfg->repeat_cap_s) &&
		    !files_phase_wants_more(del, cfg->min_phase_s, cfg->repeat_cap_s))
			return 0;
	}
}

static void free_workers(struct worker *w, unsigned n)
{
	for (unsigned t = 0; t < n; t++) {
		free(w[t].leaf_fd);
		free(w[t].order);
		free(w[t].buf);
	}
	free(w);
}

static struct worker *alloc_workers(const struct files_config *cfg, struct pass_ctl *ctl)
{
	struct worker *w = calloc(cfg->threads, sizeof(*w));
	size_t block = cfg->file_size < cfg->bs ? (size_t)cfg->file_size : (size_t)cfg->bs;
	if (!w)
		return NULL;
	for (unsigned t = 0; t < cfg->threads; t++) {
		struct worker *x = &w[t];
		x->ctl = ctl;
		x->id = t;
		x->share = files_share(cfg->n, cfg->threads, t);
		x->nleaves = files_leaves(x->share);
		x->leaf_fd = malloc((x->nleaves ? x->nleaves : 1) * sizeof(int));
		x->order = malloc((x->share ? x->share : 1) * sizeof(uint32_t));
		x->block = block;
		x->buf = calloc(1, block > 0 ? block : 1);
		if (!x->leaf_fd || !x->order || !x->buf) {
			free_workers(w, t + 1);
			return NULL;
		}
		for (unsigned l = 0; l < x->nleaves; l++)
			x->leaf_fd[l] = -1;
		rng_seed(&x->rng, cfg->seed, t);
		if (!cfg->zeros && block > 0)
			rng_fill(&x->rng, x->buf, block);
	}
	return w;
}

static void launch(struct pass_ctl *ctl, int how)
{
	pthread_mutex_lock(&ctl->launch_lock);
	ctl->launch = how;
	pthread_cond_broadcast(&ctl->launch_cond);
	pthread_mutex_unlock(&ctl->launch_lock);
}

/* The workers pass the barriers only once all of them run: a thread that
 * cannot start sends the others home before the first gate. */
static int start_workers(struct pass_ctl *ctl, unsigned *started)
{
	for (*started = 0; *started < ctl->cfg->threads; (*started)++) {
		int rc = pthread_create(&ctl->w[*started].thread, NULL, worker_main, &ctl->w[*started]);
		if (rc != 0) {
			launch(ctl, -1);
			errno = rc;
			return files_fail_at(ctl, "start thread", "");
		}
	}
	launch(ctl, 1);
	return 0;
}

static void stop_workers(struct pass_ctl *ctl, unsigned started)
{
	if (started == ctl->cfg->threads) {
		ctl->quit = true;
		pthread_barrier_wait(&ctl->gate);
	}
	for (unsigned t = 0; t < started; t++)
		pthread_join(ctl->w[t].thread, NULL);
}

int files_run(const struct files_config *cfg, struct files_result *fr)
{
	struct pass_ctl ctl = { .cfg = cfg, .fr = fr };
	unsigned started = 0;
	ctl.w = alloc_workers(cfg, &ctl);
	if (!ctl.w) {
		errno = ENOMEM;
		return files_fail_at(&ctl, "allocate buffers for", "");
	}
	pthread_barrier_init(&ctl.gate, NULL, cfg->threads + 1);
	pthread_barrier_init(&ctl.finish, NULL, cfg->threads + 1);
	pthread_mutex_init(&ctl.launch_lock, NULL);
	pthread_cond_init(&ctl.launch_cond, NULL);
	int rc = start_workers(&ctl, &started);
	for (int o = FILES_SEQ; o < FILES_NORDERS && rc == 0; o++)
		rc = run_order(&ctl, (enum files_order)o);
	stop_workers(&ctl, started);
	pthread_barrier_destroy(&ctl.gate);
	pthread_barrier_destroy(&ctl.finish);
	pthread_mutex_destroy(&ctl.launch_lock);
	pthread_cond_destroy(&ctl.launch_cond);
	free_workers(ctl.w, cfg->threads);
	if (rc != 0 && *cfg->stop)
		fr->stopped = true;
	return rc;
}
