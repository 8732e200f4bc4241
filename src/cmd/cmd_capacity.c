/* capacity (issue 42): how much of what a block device claims it really
 * holds, and what becomes of a write past that (it wraps onto a lower
 * offset, or is lost).  The search is the capacity room's (capacity.h);
 * here: the target's checks (a block device, --force, not mounted or in
 * use: O_EXCL), an undo journal left by an earlier run put back first, the
 * signals held until every block is back, and the messages. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "capacity.h"
#include "clock.h"
#include "cmd.h"
#include "devinfo.h"
#include "output.h"
#include "platform.h"
#include "runner.h"
#include "units.h"
#include "util.h"

struct cap_run {
	const struct options *opt;
	struct result *r;
	struct capacity_report *rep;
	struct target t;
	struct cap_dev dev;
	bool text; /* step lines on stdout */
};

/* A block device, --force, and options that agree. */
static int check_target(const struct options *opt, struct result *r)
{
	enum target_kind kind;
	if (opt->destructive && opt->journal)
		return fail(r, EXIT_USAGE, "--journal with --destructive: nothing is saved with "
			    "--destructive");
	if (target_classify(opt->target, &kind) != 0)
		return fail(r, errno == ENOENT || errno == ENOTDIR ? EXIT_USAGE : EXIT_RUN,
			    "target '%s':", opt->target);
	if (kind != TARGET_BLOCKDEV)
		return fail(r, EXIT_USAGE, "target '%s' is not a block device: capacity probes a "
			    "disk, a USB stick or a card (a file holds every byte it claims)",
			    opt->target);
	if (!opt->force)
		return fail(r, EXIT_REFUSED, "target '%s' is a block device: capacity writes to it "
			    "(%s); add --force if that is what you want", opt->target,
			    opt->destructive ? "--destructive: what it overwrites is lost"
					     : "each block it overwrites is saved and put back");
	return EXIT_OK;
}

/* The device opened for writing (O_EXCL: not mounted, not in use), and
 * what the probe needs of it. */
static int open_device(struct cap_run *c)
{
	int64_t cap, conventional;
	int code = run_prepare(&c->t, c->opt, c->r);
	if (code == EXIT_OK)
		code = target_open(&c->t, O_RDWR, true, c->r);
	if (code != EXIT_OK)
		return code;
	const struct devinfo *d = c->r->device;
	if (d && d->has_top && d->top.parent_disk[0])
		return fail(c->r, EXIT_USAGE, "'%s' is a partition of %s: a wrap of the disk lands "
			    "outside it, where capacity cannot see it; name the whole disk, /dev/%s",
			    c->t.path, d->top.parent_disk, d->top.parent_disk);
	if (run_zone_census(c->t.path, &cap, &conventional) == 1)
		return fail(c->r, EXIT_USAGE, "'%s' is a zoned device: it takes writes only at its "
			    "zones' write pointers, which capacity's do not keep to", c->t.path);
	unsigned sector = plat_dio_align(c->t.fd, true);
	cap_dev_fd(&c->dev, &c->t.fd, c->t.size, sector ? sector : 512);
	capacity_plan(c->t.size, c->dev.sector, &c->rep->plan);
	return EXIT_OK;
}

/* --journal, else /var/tmp/diskbench-capacity-NAME.undo, NAME the device's
 * kernel name (a symlink such as /dev/disk/by-id/... resolved), so that a
 * run again on the same device finds what a killed one left. */
static void journal_path(const struct cap_run *c, char *out, size_t len)
{
	char real[PATH_MAX];
	if (c->opt->journal) {
		snprintf(out, len, "%s", c->opt->journal);
		return;
	}
	if (!realpath(c->t.path, real))
		snprintf(real, sizeof(real), "%s", c->t.path);
	snprintf(out, len, "/var/tmp/diskbench-capacity-%s.undo", basename(real));
}

/* What an earlier run left at the journal's path, put back before this
 * run writes anything. */
static int replay_leftover(struct cap_run *c)
{
	char why[MSG_LEN];
	struct cap_replay *rp = &c->rep->replay;
	int rc = cap_journal_replay(c->rep->journal, &c->dev, rp, why, sizeof(why));
	if (rc < 0)
		return fail(c->r, EXIT_REFUSED, "%s", why);
	if (rc == 1 && rp->failed)
		return fail(c->r, EXIT_RUN, "the undo journal '%s' of an earlier run that did not "
			    "finish: %llu of its %llu ranges could not be put back; it stays there",
			    rp->path, (unsigned long long)rp->failed, (unsigned long long)rp->ranges);
	if (rc == 1 && rp->sectors > 0)
		warn(c->r, "an earlier capacity run on '%s' did not finish: %llu sectors it had "
		     "overwritten were put back from its undo journal '%s' first",
		     c->t.path, (unsigned long long)rp->sectors, rp->path);
	return EXIT_OK;
}

static struct cap_journal *open_journal(struct cap_run *c, uint64_t run)
{
	struct capacity_report *rep = c->rep;
	struct cap_journal *j = cap_journal_create(rep->journal, run, c->dev.size, c->dev.sector,
						   c->t.path, rep->plan.max_saved + (1u << 20));
	if (!j) {
		fail(c->r, EXIT_RUN, "cannot create the undo journal '%s': %s; name another place "
		     "(a disk that is not the one probed) with --journal FILE", rep->journal,
		     strerror(errno));
		return NULL;
	}
	if (cap_journal_in_ram(j))
		warn(c->r, "the undo journal '%s' is on a filesystem in memory: it would not "
		     "survive a power cut during the run; --journal FILE on a disk would",
		     rep->journal);
	return j;
}

/* Said before the first write: the worst case, and where the saved blocks go; a
 * line of the run's own, not "diskbench: ..." (an error's form, the one line a
 * script takes for the error). */
static void say_plan(const struct cap_run *c)
{
	const struct cap_plan *p = &c->rep->plan;
	char claimed[32], written[32], read[32];
	if (c->opt->quiet)
		return;
	fmt_bytes_si(claimed, sizeof(claimed), c->dev.size);
	fmt_bytes_iec(written, sizeof(written), p->max_written);
	fmt_bytes_iec(read, sizeof(read), p->max_read);
	fprintf(stderr, "capacity: %s claims %s; at most %u steps, %s written and %s "
		"read%s%s%s\n", c->t.path, claimed, p->max_steps, written, read,
		c->opt->destructive ? "; --destructive: what it overwrites is lost" :
				      ", each block saved first to ",
		c->opt->destructive ? "" : c->rep->journal,
		c->opt->destructive ? "" : " (if this run is killed, run it again: it puts "
					   "them back)");
}

static bool stop_asked(void *ctx)
{
	(void)ctx;
	return bench_stop_requested || cap_signals_pending();
}

static void step_done(void *ctx, const struct capacity_report *rep)
{
	const struct cap_run *c = ctx;
	if (c->text)
		out_capacity_step(stdout, rep, &rep->steps[rep->nsteps - 1]);
}

/* The search and the restore with the signals held; released once every
 * block is back, when a signal that came is delivered (main.c then says
 * the run was interrupted). */
static int probe_held(struct cap_run *c, struct cap_journal *j, uint64_t run, char *why,
		      size_t len)
{
	struct cap_hooks hooks = { c, stop_asked, step_done };
	struct capacity_report *rep = c->rep;
	int rc = capacity_probe(&c->dev, j, run, &hooks, rep, why, len);
	if (j) {
		uint64_t lost = cap_journal_restore(j, &c->dev, rep->holds, rep);
		rep->journal_kept = lost > 0;
		cap_journal_close(j, lost == 0);
	}
	return rc;
}

static int after_probe(struct cap_run *c, int rc, const char *why)
{
	struct capacity_report *rep = c->rep;
	char at_least[32], at_most[32];
	if (rep->journal_kept)
		return fail(c->r, EXIT_RUN, "%llu of the %llu ranges capacity overwrote could not be "
			    "put back; their bytes are in '%s': run this command again to put them "
			    "back", (unsigned long long)rep->restore_failed,
			    (unsigned long long)rep->saved, rep->journal);
	if (rc != 0)
		return fail(c->r, EXIT_RUN, "capacity: %s", why);
	if (!rep->done) {
		fmt_bytes_iec(at_least, sizeof(at_least), rep->good);
		fmt_bytes_iec(at_most, sizeof(at_most), rep->holds);
		fprintf(stderr, "diskbench: capacity interrupted: so far it holds at least %s and at "
			"most %s; %s\n", at_least, at_most,
			rep->destructive ? "what was written stays (--destructive)"
					 : "every block written is back as it was");
		return fail(c->r, EXIT_RUN, "interrupted during the run");
	}
	c->r->measured = true;
	return EXIT_OK;
}

/* The run's id, in every stamp: an earlier run's stamps are never this one's. */
static uint64_t run_id(const struct options *opt)
{
	uint64_t x = opt->seed ^ (uint64_t)clock_ns() ^ 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 29);
}

int cmd_run_capacity(const struct command *cmd, const struct options *opt, struct result *r)
{
	struct cap_run c = { .opt = opt, .r = r, .text = opt->format == OUT_TEXT && !opt->quiet };
	struct cap_journal *j = NULL;
	char why[MSG_LEN] = "";
	(void)cmd;
	c.rep = result_keep(r, sizeof(*c.rep), NULL);
	if (!c.rep)
		return fail(r, EXIT_RUN, "cannot allocate capacity's report:");
	c.t.fd = -1;
	int code = check_target(opt, r);
	if (code == EXIT_OK)
		code = open_device(&c);
	if (code == EXIT_OK)
		r->detail = c.rep;
	uint64_t run = run_id(opt);
	cap_signals_hold(); /* from the journal's replay to the last block put back */
	if (code == EXIT_OK && !opt->destructive) {
		journal_path(&c, c.rep->journal, sizeof(c.rep->journal));
		code = replay_leftover(&c);
		if (code == EXIT_OK && !(j = open_journal(&c, run)))
			code = EXIT_RUN;
	}
	if (code == EXIT_OK) {
		say_plan(&c);
		int rc = probe_held(&c, j, run, why, sizeof(why));
		code = after_probe(&c, rc, why);
	}
	cap_signals_release();
	target_close(&c.t);
	target_cleanup();
	return code;
}
