/* report: the JSON Lines of a fleet run, read from files or stdin (past the
 * launchers' prefixes), grouped and summed by fleetreport.c; with --baseline,
 * compared with older records, exit 4 when a figure got worse. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cmd.h"
#include "fleetreport.h"
#include "report.h"
#include "util.h"

/* Feeds every line of path ("-": stdin) to set. */
static int read_input(const char *path, struct fleet_set *set, struct result *r)
{
	bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "stdin" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	if (!f)
		return fail(r, errno == ENOENT || errno == ENOTDIR ? EXIT_USAGE : EXIT_RUN, "open '%s':",
			    path);
	char *line = NULL, where[4200];
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	int code = EXIT_OK;
	errno = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		snprintf(where, sizeof(where), "%.4096s:%lu", name, ++lineno);
		if (fleet_add_line(set, line, (size_t)n, where) < 0) {
			code = fail(r, EXIT_RUN, "read '%s': out of memory", name);
			break;
		}
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
		warn(r, "%s: %u runs failed and are left out (first: %s)", what, set->failed,
		     set->first_failed);
}

/* The groups of set, or exit 2 when there are none or they mix params. */
static int build(struct fleet_set *set, struct fleet_report *rep, const char *what,
		 struct result *r)
{
	char why[MSG_LEN];
	input_warnings(set, what, r);
	if (set->n == 0)
		return fail(r, EXIT_USAGE, "%s: no diskbench record in %u lines%s%.320s%s", what,
			    set->lines, set->skipped ? " (first skipped: " : "", set->first_skipped,
			    set->skipped ? ")" : "");
	if (fleet_report_build(set, rep, why, sizeof(why)) != 0)
		return fail(r, errno == ENOMEM ? EXIT_RUN : EXIT_USAGE, "%s: %.400s", what, why);
	if (rep->duplicates)
		warn(r, "%s: %u records repeat a host of their run (first: %s)", what, rep->duplicates,
		     rep->first_duplicate);
	return EXIT_OK;
}

static int compare(struct report_detail *d, const struct options *opt, struct result *r)
{
	char why[MSG_LEN];
	if (fleet_compare(&d->old_rep, &d->rep, opt->threshold_pct, &d->base, why, sizeof(why)) != 0)
		return fail(r, errno == ENOMEM ? EXIT_RUN : EXIT_USAGE, "baseline: %.400s", why);
	d->compared = true;
	for (unsigned i = 0; i < d->base.n; i++)
		if (d->base.pairs[i].note[0])
			warn(r, "%s: compared despite different params: %s",
			     d->base.pairs[i].new->test, d->base.pairs[i].note);
	if (d->base.nregressed == 0)
		return EXIT_OK;
	warn(r, "%u of %u figures regressed beyond %g %% of the baseline", d->base.nregressed,
	     d->base.nchanges, opt->threshold_pct);
	return EXIT_REGRESSED;
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
	if (!opt->baseline)
		return EXIT_OK;
	code = read_input(opt->baseline, &d->old_set, r);
	if (code == EXIT_OK)
		code = build(&d->old_set, &d->old_rep, "baseline", r);
	return code == EXIT_OK ? compare(d, opt, r) : code;
}
