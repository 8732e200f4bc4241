/* verify (issue 42): a region written earlier by a write test with
 * --verify --keep, read back long after (another boot, after a power cut)
 * and judged from its blocks' headers alone or, with --witness FILE,
 * against the writes the disk acknowledged durable.  Read-only: the
 * target is opened O_RDONLY and nothing is written to it. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "findings.h"
#include "platform.h"
#include "progress.h"
#include "runner.h"
#include "target.h"
#include "units.h"
#include "util.h"
#include "verify.h"
#include "witness.h"

/* How far into the target a header is looked for without a witness. */
#define FIND_WITHIN (64ull << 20)

/* A file or a block device, opened read-only; nothing else. */
static int open_target(struct target *t, const struct options *opt, struct result *r)
{
	enum target_kind kind;
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (target_classify(opt->target, &kind) != 0 || kind == TARGET_NEW)
		return fail(r, EXIT_USAGE, "'%s': %s", opt->target,
			    kind == TARGET_NEW ? strerror(ENOENT) : strerror(errno));
	if (kind != TARGET_FILE && kind != TARGET_BLOCKDEV)
		return fail(r, EXIT_USAGE, "verify reads the file or block device a write test's "
			    "--verify --keep left, not '%s'", opt->target);
	t->kind = kind;
	snprintf(t->path, sizeof(t->path), "%s", opt->target);
	snprintf(r->file, sizeof(r->file), "%s", t->path);
	r->file_state = kind == TARGET_BLOCKDEV ? "device" : "existing";
	run_probe_device(opt->target, r);
	int code = target_open(t, O_RDONLY, opt->direct, r);
	if (code == EXIT_OK && !opt->direct &&
	    plat_evict(t->fd, kind == TARGET_BLOCKDEV, UINT64_MAX / 2) != 0)
		warn(r, "could not evict '%s' from the page cache: blocks may be read from memory, "
		     "not the disk:", t->path);
	return code;
}

static int read_witness(const char *path, struct witness *w, struct result *r)
{
	char why[MSG_LEN - 64];
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	struct stat st;
	if (f && f != stdin && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f); /* fopen opens a directory, whose read fails: named as --witness's */
		f = NULL;
		errno = EISDIR;
	}
	if (!f)
		return fail(r, EXIT_USAGE, "--witness '%s':", path);
	int code = witness_read(f, w, why, sizeof(why));
	if (f != stdin)
		fclose(f);
	return code == EXIT_OK ? EXIT_OK : fail(r, code, "--witness '%s': %s", path, why);
}

/* The region to read: the witness's, or the one the first intact header
 * names; a region past the target's end is read as far as it goes. */
static int find_region(const struct target *t, const struct witness *w, uint64_t *bs,
		       uint64_t *region, uint64_t *run_id, struct result *r)
{
	if (w) {
		*bs = w->bs, *region = w->region, *run_id = w->run_id;
	} else {
		int found = verify_find_run(t->fd, FIND_WITHIN, bs, region, run_id);
		if (found < 0)
			return fail(r, EXIT_RUN, "read '%s':", t->path);
		if (found == 0)
			return fail(r, EXIT_RUN, "no block of '%s' holds a header of diskbench's --verify "
				    "in its first 64 MiB: did a write test's --verify --keep leave it?", t->path);
	}
	struct stat st;
	uint64_t size = t->size;
	if (t->kind == TARGET_FILE && fstat(t->fd, &st) == 0)
		size = (uint64_t)st.st_size;
	if (size < *region) {
		char have[32], want[32];
		fmt_bytes_iec(have, sizeof(have), size);
		fmt_bytes_iec(want, sizeof(want), *region);
		warn(r, "'%s' holds %s, less than the %s region %s names: %s", t->path, have, want,
		     w ? "the witness" : "its header", w ? "the writes it lists past the end are "
		     "unwritten" : "only the blocks it holds are judged");
		*region = size - size % *bs; /* a hostile header's region is not read for ever */
	}
	if (*region == 0)
		return fail(r, EXIT_RUN, "'%s' holds no whole block of the region", t->path);
	r->region = *region;
	return EXIT_OK;
}

int cmd_run_verify(const struct command *cmd, const struct options *opt, struct result *r)
{
	struct target t;
	struct witness w = { 0 };
	uint64_t bs = 0, region = 0, run_id = 0;
	(void)cmd;
	struct result_verify *out = result_keep(r, sizeof(*out), NULL);
	if (!out)
		return fail(r, EXIT_RUN, "cannot keep verify's figures:");
	int code = open_target(&t, opt, r);
	if (code == EXIT_OK && opt->witness)
		code = read_witness(opt->witness, &w, r);
	if (code == EXIT_OK)
		code = find_region(&t, opt->witness ? &w : NULL, &bs, &region, &run_id, r);
	if (code == EXIT_OK) {
		progress_label(opt, "verify: reading %s", t.path);
		if (verify_scan(t.fd, bs, region, run_id, opt->witness ? &w : NULL,
				&bench_stop_requested, out) != 0)
			code = errno == EINTR ? (r->interrupted = true, fail(r, EXIT_SIGINT, "interrupted"))
					      : fail(r, EXIT_RUN, "read '%s':", t.path);
		progress_clear();
	}
	if (code == EXIT_OK && opt->witness) {
		out->witness_lines = w.lines;
		out->witness_noise = w.noise;
		if (!w.ended)
			warn(r, "the witness has no end line: the run that wrote it was cut (a power cut "
			     "does that) or is still going");
	}
	witness_free(&w);
	target_close(&t);
	if (code != EXIT_OK)
		return code;
	out->durable = opt->witness != NULL; /* what a witness lists was acknowledged durable */
	r->verify = out;
	r->measured = true;
	return findings_judge_verify(out, r) ? EXIT_BAD_DATA : EXIT_OK;
}
