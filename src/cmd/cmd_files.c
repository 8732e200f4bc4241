/* files: bonnie++'s -n test (Sequential Create / Random Create), honestly:
 * files/s and latency per phase, in a directory diskbench makes and removes;
 * a phase too short to time is run again, and one still short is said to be,
 * never printed as "+++++". */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#include "bench.h"
#include "cmd.h"
#include "files.h"
#include "names.h"
#include "progress.h"
#include "run_health.h"
#include "runner.h"
#include "target.h"
#include "units.h"
#include "util.h"

/* repeats of a short phase fit in this many times -t */
#define FILES_REPEAT_CAP 4

/* What the pass callback sees: the options, for the progress line, and the
 * phase whose pass runs now (-1: none yet), for an interrupted run's
 * listing, since a first pass adds nothing to its phase until it ends.  It
 * lives on the run's stack: two runs in one process never share it. */
struct pass_view {
	const struct options *opt;
	int running;
};

static void show_pass(void *ctx, int phase, unsigned pass)
{
	struct pass_view *view = ctx;
	view->running = phase;
	if (pass == 1)
		progress_label(view->opt, "files: %s", files_phase_name(phase));
	else
		progress_label(view->opt, "files: %s, pass %u", files_phase_name(phase), pass);
}

static int check_options(const struct options *opt, uint64_t n, struct result *r)
{
	if (opt->sync == SYNC_DSYNC || opt->sync == SYNC_OSYNC)
		return fail(r, EXIT_USAGE, "--sync=%s does not apply to files: %s makes a "
			    "file's data durable, not its name; use --sync=fsync (each file, then its "
			    "directory) or none", sync_mode_name(opt->sync),
			    opt->sync == SYNC_DSYNC ? "O_DSYNC" : "O_SYNC");
	if (n < opt->threads)
		return fail(r, EXIT_USAGE, "-n %llu gives fewer files than the %u threads of -j",
			    (unsigned long long)n, opt->threads);
	if (opt->files_dir && strcmp(opt->target, ".") != 0)
		return fail(r, EXIT_USAGE, "--dir and a TARGET exclude each other: --dir names the "
			    "directory to work in");
	return EXIT_OK;
}

/* The files, their directories and 5 % of the filesystem must fit. */
static int check_room(const struct target *t, uint64_t n, uint64_t size, struct result *r)
{
	struct statvfs sv;
	if (fstatvfs(t->fd, &sv) != 0)
		return EXIT_OK; /* not known: a full filesystem fails the run with ENOSPC */
	uint64_t unit = sv.f_frsize ? sv.f_frsize : 4096;
	uint64_t dirs = n / FILES_PER_DIR + 1; /* a block each at least, empty files or not */
	uint64_t need = n * ((size + unit - 1) / unit * unit) + dirs * unit;
	uint64_t total = (uint64_t)sv.f_blocks * unit, avail = (uint64_t)sv.f_bavail * unit;
	uint64_t inodes = n + n / FILES_PER_DIR + 64;
	int code = target_check_memory(t, need, r); /* ramfs: f_blocks is 0 */
	if (code != EXIT_OK)
		return code;
	char want[32], have[32], reserve[32];
	fmt_bytes_iec(want, sizeof(want), need);
	fmt_bytes_iec(have, sizeof(have), avail);
	fmt_bytes_iec(reserve, sizeof(reserve), total / 20);
	if (total > 0 && avail < total / 20) /* full already: no -n or --file-size helps */
		return fail(r, EXIT_RUN, "not enough free space for the files in '%s': %s available, "
			    "below the 5 %% of the filesystem (%s) that must stay free; free space "
			    "there or name another directory", t->path, have, reserve);
	if (total > 0 && avail - total / 20 < need)
		return fail(r, EXIT_RUN, "not enough free space for the files in '%s': %s needed, %s "
			    "available, and 5 %% of the filesystem must stay free; use a smaller -n or "
			    "--file-size", t->path, want, have);
	if (sv.f_files > 0 && sv.f_favail < inodes)
		return fail(r, EXIT_RUN, "not enough free inodes in '%s': %llu files need about %llu, "
			    "%llu are free; use a smaller -n", t->path, (unsigned long long)n,
			    (unsigned long long)inodes, (unsigned long long)sv.f_favail);
	return EXIT_OK;
}

/* The working directory: made (or checked), then opened as the target. */
static int make_workdir(struct target *t, struct files_result *fr, const struct options *opt,
			struct result *r)
{
	target_keep_files(opt->keep);
	int code = target_make_tree(opt->target, opt->files_dir, fr->dir, sizeof(fr->dir),
				    &fr->dir_state, r);
	if (code != EXIT_OK)
		return code;
	memset(t, 0, sizeof(*t));
	t->kind = TARGET_DIR;
	t->fd = -1;
	t->created = true;
	t->force = opt->force;
	snprintf(t->path, sizeof(t->path), "%s", fr->dir);
	snprintf(r->file, sizeof(r->file), "%s", fr->dir);
	r->file_state = fr->dir_state;
	return target_open(t, O_RDONLY | O_DIRECTORY, false, r);
}

/* What the run is asked to do, known before it starts (JSON params). */
static void describe(struct files_result *fr, const struct options *opt)
{
	fr->n = opt->files_n ? opt->files_n : FILES_DEFAULT_COUNT;
	fr->threads = opt->threads;
	fr->file_size = opt->file_size;
	fr->bs = opt->bs;
	fr->fsync = opt->sync == SYNC_FSYNC;
	fr->drop = opt->drop;
	fr->min_phase_s = opt->time_s;
	fr->repeat_cap_s = FILES_REPEAT_CAP * opt->time_s;
}

static void configure(struct files_config *cfg, const struct files_result *fr,
		      const struct target *t, const struct options *opt, struct pass_view *view)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->n = fr->n;
	cfg->threads = fr->threads;
	cfg->file_size = fr->file_size;
	cfg->bs = fr->bs;
	cfg->fsync = fr->fsync;
	cfg->zeros = opt->zeros;
	cfg->keep = opt->keep;
	cfg->drop = fr->drop;
	cfg->seed = opt->seed;
	cfg->min_phase_s = fr->min_phase_s;
	cfg->repeat_cap_s = fr->repeat_cap_s;
	cfg->root_fd = t->fd;
	cfg->stop = &bench_stop_requested;
	cfg->on_pass = show_pass;
	cfg->ctx = view;
}

static int run_failure(const struct files_result *fr, struct result *r)
{
	if (fr->stopped) {
		r->interrupted = true;
		return fail(r, EXIT_SIGINT, "interrupted during the run");
	}
	errno = fr->failed_errno;
	if (!fr->failed_path[0])
		return fail(r, EXIT_RUN, "%s:", fr->failed_op);
	return fail(r, EXIT_RUN, "%s '%s/%s':", fr->failed_op, fr->dir, fr->failed_path);
}

/* The run's own warnings: eviction, and phases still too short. */
static void warn_run(const struct files_result *fr, struct result *r)
{
	if (fr->evict_errno) {
		errno = fr->evict_errno;
		warn(r, "could not evict the files from the page cache:");
	}
	if (fr->drop_all_errno) {
		errno = fr->drop_all_errno;
		warn(r, "could not drop all caches (/proc/sys/vm/drop_caches needs root): the stat "
		     "figures come from the dentry and inode cache:");
	}
	for (int i = 0; i < FILES_NPHASES; i++) {
		const struct files_phase *p = &fr->phase[i];
		char rate[16];
		if (!files_phase_short(p))
			continue;
		fmt_count(rate, sizeof(rate), files_phase_rate(p));
		warn(r, "%s took %.3f s in all over %u pass%s%s: too short to time well, so %s "
		     "files/s is a rough figure; use a larger -n%s", files_phase_name(i), p->seconds,
		     p->passes, p->passes == 1 ? "" : "es",
		     fr->min_phase_s > 0 ? " (another would not fit the time given to repeats)" : "",
		     rate, fr->min_phase_s > 0 ? "" : " or -t");
	}
}

static void fill_result(const struct files_result *fr, struct result *r)
{
	r->bytes = r->ios = 0;
	r->seconds = 0;
	for (int i = 0; i < FILES_NPHASES; i++) {
		r->bytes += fr->phase[i].bytes;
		r->ios += fr->phase[i].files;
		r->seconds += fr->phase[i].seconds;
	}
	r->evicted = drop_mode_name(fr->drop);
	r->resident_before_pct = fr->phase[files_phase_index(FILES_SEQ, FILES_READ)].resident_before_pct;
}

/* What the disk saw of the run: the files' data written by the create
 * passes, after a reading taken before the first of them. */
static void health_after(const struct files_result *fr, struct result *r)
{
	uint64_t written = fr->phase[files_phase_index(FILES_SEQ, FILES_CREATE)].bytes +
			   fr->phase[files_phase_index(FILES_RAND, FILES_CREATE)].bytes;
	run_health_after_moved(r, fr->file_size ? &written : NULL, true,
			       "files wrote no file data (--file-size 0): what the disk wrote "
			       "is metadata and journal alone");
	run_health_check(r);
}

/* An interrupted run prints no result, but says on stderr which phases
 * finished (their figures are sound), which one was cut short and which
 * never ran: the whole run's sums would mix them. */
static void print_finished_phases(const struct files_result *fr, int running_phase)
{
	fputs("diskbench: files interrupted; its phases (not a result):\n", stderr);
	for (int i = 0; i < FILES_NPHASES; i++) {
		const struct files_phase *p = &fr->phase[i];
		char rate[16];
		if (!p->planned)
			continue;
		if (i == running_phase || p->passes == 0) {
			fprintf(stderr, "  %-14s %s\n", files_phase_name(i),
				i == running_phase ? "interrupted" : "not run");
			continue;
		}
		fmt_count(rate, sizeof(rate), files_phase_rate(p));
		fprintf(stderr, "  %-14s %s files/s (%llu files in %.3f s)\n", files_phase_name(i), rate,
			(unsigned long long)p->files, p->seconds);
	}
}

int cmd_run_files(const struct command *cmd, const struct options *opt, struct result *r)
{
	struct files_result *fr = result_keep(r, sizeof(*fr), NULL);
	struct files_config cfg;
	struct target t = { .fd = -1 };
	struct pass_view view = { opt, -1 };
	(void)cmd;
	if (!fr)
		return fail(r, EXIT_RUN, "cannot allocate the files' figures:");
	r->detail = fr;
	describe(fr, opt);
	if (opt->files_dir)
		r->target = opt->files_dir;
	int code = check_options(opt, fr->n, r);
	if (code == EXIT_OK)
		code = make_workdir(&t, fr, opt, r);
	if (code == EXIT_OK)
		code = check_room(&t, fr->n, opt->file_size, r);
	if (code == EXIT_OK) {
		run_probe_device(fr->dir, r);
		run_warn_target(&t, opt, false, r);
		configure(&cfg, fr, &t, opt, &view);
		files_plan(fr);
		run_health_before(r);
		if (files_run(&cfg, fr) != 0)
			code = run_failure(fr, r);
		progress_clear();
		health_after(fr, r);
	}
	if (fr->stopped)
		print_finished_phases(fr, view.running);
	if (code == EXIT_OK) {
		fill_result(fr, r);
		warn_run(fr, r);
		r->measured = true;
	}
	target_close(&t);
	target_cleanup();
	return code;
}
