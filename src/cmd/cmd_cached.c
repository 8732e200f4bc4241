/* cached: what hdparm -T reports.  A small region is read once into the page
 * cache, checked to be resident, then re-read for -t seconds, so every read
 * is a copy from memory.  The file descriptor stays open from priming to the
 * end: Linux drops a block device's cache when its last opener closes it. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>

#include "cmd.h"
#include "io.h"
#include "platform.h"
#include "runner.h"
#include "util.h"

static int prime(const struct target *t, const struct options *opt, struct result *r)
{
	void *buf = plat_buffer_alloc(opt->bs);
	if (!buf)
		return fail(r, EXIT_RUN, "allocate %llu bytes:", (unsigned long long)opt->bs);
	int code = EXIT_OK;
	for (uint64_t off = 0; off < r->region && code == EXIT_OK; off += opt->bs)
		if (io_pread_full(t->fd, buf, opt->bs, off) < 0)
			code = fail(r, EXIT_RUN, "read '%s' at offset %llu:", t->path,
				    (unsigned long long)off);
	plat_buffer_free(buf, opt->bs);
	if (code != EXIT_OK)
		return code;
	r->evicted = "none";
	if (!run_residency_visible(t, r))
		return EXIT_OK;
	if (plat_resident_pct(t->fd, r->region, &r->resident_before_pct) != 0) {
		r->resident_before_pct = -1;
		warn(r, "could not check that '%s' is in the page cache:", t->path);
	} else if (r->resident_before_pct < 99.9) {
		warn(r, "only %.1f %% of the region stayed in the page cache after priming: "
		     "the figure mixes memory and disk reads", r->resident_before_pct);
	}
	return EXIT_OK;
}

int cmd_run_cached(const struct command *cmd, const struct options *opt, struct result *r)
{
	struct target t;
	struct bench_job job;
	r->primed = true;
	(void)cmd; /* one row, no variants */
	if (opt->time_s <= 0)
		return fail(r, EXIT_USAGE, "cached needs a time limit: -t SECONDS greater than 0");
	int code = run_prepare(&t, opt, r);
	if (code == EXIT_OK)
		code = run_plan_region(&t, opt, false, r);
	if (code == EXIT_OK && t.created)
		code = run_layout(&t, opt, 0, r, NULL);
	if (code == EXIT_OK)
		code = target_open(&t, O_RDONLY, false, r);
	if (code == EXIT_OK)
		code = prime(&t, opt, r);
	if (code == EXIT_OK) {
		run_warn_target(&t, opt, false, r);
		run_describe_job(&job, IO_READ, PAT_SEQ, opt, r->region);
		run_job_by_time(&job); /* the same region over and over, for -t seconds */
		code = run_measure(&t, &job, opt, r);
	}
	target_close(&t);
	target_cleanup();
	return code;
}
