/* report: the JSON Lines of a fleet run, read from files or stdin (past the
 * launchers' prefixes), grouped and summed by fleetreport.c; with --baseline,
 * compared with older records, exit 4 when a figure got worse. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cmd.h"
#include "fleetreport.h"
#include "report.h"
#include "util.h"

/* One line of f into buf (cap bytes, the newline kept when it fits): 1 with
 * *len; 0 at the end of the file (or an error: ferror says); 2 when the
 * line is longer than cap, read to its end (*len its length so far) without
 * holding more than cap bytes, or to FLEET_GIVE_UP_LINE bytes. */
static int read_line(FILE *f, char *buf, size_t cap, size_t *len)
{
	int c = EOF;
	*len = 0;
	while (*len < cap && (c = getc(f)) != EOF) {
		buf[(*len)++] = (char)c;
		if (c == '\n')
			return 1;
	}
	if (*len < cap)
		return *len > 0;
	while (*len < FLEET_GIVE_UP_LINE && (c = getc(f)) != EOF && c != '\n')
		(*len)++;
	return 2;
}

/* Feeds every line of path ("-": stdin) to set; lines over FLEET_MAX_LINE
 * are skipped, a line without end stops the input. */
static int read_input(const char *path, struct fleet_set *set, struct result *r)
{
	bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "stdin" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	if (!f)
		return fail(r, errno == ENOENT || errno == ENOTDIR ? EXIT_USAGE : EXIT_RUN, "open '%s':",
			    path);
	char *line = malloc(FLEET_MAX_LINE), where[4200];
	size_t n;
	unsigned long lineno = 0;
	int code = line ? EXIT_OK : fail(r, EXIT_RUN, "read '%s': out of memory", name), got;
	errno = 0;
	while (code == EXIT_OK && (got = read_line(f, line, FLEET_MAX_LINE, &n)) > 0) {
		snprintf(where, sizeof(where), "%.4096s:%lu", name, ++lineno);
		if (got == 2 && n >= FLEET_GIVE_UP_LINE)
			code = fail(r, EXIT_USAGE, "read '%s': line %lu runs past %u MiB without a "
				    "newline: not JSON Lines", name, lineno, FLEET_GIVE_UP_LINE >> 20);
		else if (got == 2)
			fleet_skip_line(set, where, "longer than " FLEET_MAX_LINE_TEXT
					" (no diskbench record is)");
		else if (fleet_add_line(set, line, n, where) < 0)
			code = fail(r, EXIT_RUN, "read '%s': out of memory", name);
	}
	if (code == EXIT_OK && ferror(f))
		code = fail(r, errno == EISDIR ? EXIT_USAGE : EXIT_RUN, "read '%s':", name);
	free(line);
	if (!is_stdin)
		fclose(f);
	return code;
}

static void input_warnings(const struct fleet_set *set, const char *what, struct result *r)
{
	if (set->skipped)
		warn(r, "%s: skipped %u of %u lines that hold no diskbench record (first: %s)", what,
		     set->skipped, set->lines, set->first_skipped);
	if (set->failed)
		warn(r, "%s: %u %s failed: listed, left out of the figures (first: %s)", what,
		     set->failed, set->failed == 1 ? "host's run" : "hosts' runs", set->first_failed);
}

static void report_warnings(const struct fleet_report *rep, const char *what, struct result *r)
{
	if (rep->duplicates)
		warn(r, "%s: %u records repeat another exactly and are counted once (first: %s)", what,
		     rep->duplicates, rep->first_duplicate);
	if (rep->overlaps)
		warn(r, "%s: %u runs of one test overlap in time on different hosts under different run "
		     "ids (first: %s): one launch split in two? give every host the same --run-id or an "
		     "absolute --start-at", what, rep->overlaps, rep->first_overlap);
}

/* The groups of set, or exit 2 when there are none or they mix params. */
static int build(struct fleet_set *set, struct fleet_report *rep, const char *what,
		 struct result *r)
{
	char why[MSG_LEN];
	input_warnings(set, what, r);
	if (set->n == 0 && set->failed == 0)
		return fail(r, EXIT_USAGE, "%s: no diskbench record in %u lines%s%.320s%s", what,
			    set->lines, set->skipped ? " (first skipped: " : "", set->first_skipped,
			    set->skipped ? ")" : "");
	if (fleet_report_build(set, rep, why, sizeof(why)) != 0)
		return fail(r, errno == ENOMEM ? EXIT_RUN : EXIT_USAGE, "%s: %.400s", what, why);
	report_warnings(rep, what, r);
	return EXIT_OK;
}

static int compare(struct report_detail *d, const struct options *opt, struct result *r)
{
	char why[MSG_LEN];
	struct fleet_judge judge = { .threshold_pct = opt->threshold_pct };
	judge.floor_pct[FIG_MBPS] = judge.floor_pct[FIG_IOPS] = opt->noise_floor_rate_pct;
	judge.floor_pct[FIG_P50] = opt->noise_floor_p50_pct;
	judge.floor_pct[FIG_P99] = opt->noise_floor_p99_pct;
	if (fleet_compare(&d->old_rep, &d->rep, &judge, &d->base, why, sizeof(why)) != 0)
		return fail(r, errno == ENOMEM ? EXIT_RUN : EXIT_USAGE, "baseline: %.400s", why);
	d->compared = true;
	if (d->base.nregressed == 0)
		return EXIT_OK;
	warn(r, "%u of %u figures regressed beyond %g %% of the baseline", d->base.nregressed,
	     d->base.nchanges, opt->threshold_pct);
	return EXIT_REGRESSED;
}

/* Hosts of the baseline with no record in the new run: a warning each run. */
static unsigned missing_hosts(const struct fleet_baseline *b, struct result *r)
{
	unsigned n = 0;
	for (unsigned i = 0; i < b->n; i++) {
		const struct fleet_pairing *p = &b->pairs[i];
		if (p->new && p->n_only_old)
			warn(r, "%s: %u hosts of the baseline have no record in run '%s' (first: %s)",
			     p->new->test, p->n_only_old, p->new->run_id, p->only_old[0]);
		n += p->new ? p->n_only_old : 0;
	}
	return n;
}

/* Whether path names the same file as input ("-": stdin): device and inode. */
static bool same_file(const struct stat *picture, const char *input)
{
	struct stat st;
	int rc = strcmp(input, "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(input, &st);
	return rc == 0 && st.st_dev == picture->st_dev && st.st_ino == picture->st_ino;
}

/* --svg must not overwrite what report reads: refused before reading. */
static int check_svg(const struct options *opt, struct result *r)
{
	struct stat picture;
	if (!opt->svg_path || stat(opt->svg_path, &picture) != 0 || !S_ISREG(picture.st_mode))
		return EXIT_OK;
	for (unsigned i = 0; i < opt->ninputs; i++)
		if (same_file(&picture, opt->inputs[i]))
			return fail(r, EXIT_USAGE, "--svg '%s' is the input '%s': it would be overwritten",
				    opt->svg_path, opt->inputs[i]);
	if (opt->baseline && same_file(&picture, opt->baseline))
		return fail(r, EXIT_USAGE, "--svg '%s' is the baseline '%s': it would be overwritten",
			    opt->svg_path, opt->baseline);
	return EXIT_OK;
}

/* The figures are rendered after the command returns: what they hold is
 * freed with the result (result_release). */
static void free_detail(void *p)
{
	struct report_detail *detail = p;
	fleet_baseline_free(&detail->base);
	fleet_report_free(&detail->old_rep);
	fleet_set_free(&detail->old_set);
	fleet_report_free(&detail->rep);
	fleet_set_free(&detail->set);
}

int cmd_run_report(const struct command *cmd, const struct options *opt, struct result *r)
{
	struct report_detail *d = result_keep(r, sizeof(*d), free_detail);
	(void)cmd;
	r->target = NULL; /* report reads files: it has no target */
	if (!d)
		return fail(r, EXIT_RUN, "cannot allocate the report:");
	r->detail = d;
	d->baseline = opt->baseline;
	for (unsigned i = 0; i < opt->ninputs; i++)
		if (strcmp(opt->inputs[i], "-") == 0 && opt->baseline && strcmp(opt->baseline, "-") == 0)
			return fail(r, EXIT_USAGE, "stdin cannot hold both the baseline and the new records");
	int checked = check_svg(opt, r);
	if (checked != EXIT_OK)
		return checked;
	for (unsigned i = 0; i < opt->ninputs; i++, d->files++) {
		int code = read_input(opt->inputs[i], &d->set, r);
		if (code != EXIT_OK)
			return code;
	}
	int code = build(&d->set, &d->rep, "input", r);
	if (code != EXIT_OK)
		return code;
	d->built = true;
	r->measured = true;
	bool incomplete = d->rep.failed > 0;
	if (opt->baseline) {
		code = read_input(opt->baseline, &d->old_set, r);
		if (code == EXIT_OK)
			code = build(&d->old_set, &d->old_rep, "baseline", r);
		if (code == EXIT_OK)
			code = compare(d, opt, r);
		if (code != EXIT_OK && code != EXIT_REGRESSED)
			return code;
		incomplete |= missing_hosts(&d->base, r) > 0;
	}
	/* a regression is the stronger news; a host unaccounted for comes next */
	if (code == EXIT_OK && incomplete && !opt->allow_missing)
		code = EXIT_INCOMPLETE;
	return code;
}
