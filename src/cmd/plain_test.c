/* The plain tests steady and sla run, and the steps the two commands take
 * alike around them: see plain_test.h. */
#include <stdio.h>
#include <string.h>

#include "plain_test.h"
#include "runner.h"
#include "util.h"

const struct plain_test *plain_test_of(const char *name)
{
	static const struct plain_test tests[] = {
		{ "randread", IO_READ, PAT_RAND }, { "randwrite", IO_WRITE, PAT_RAND },
		{ "seqread", IO_READ, PAT_SEQ }, { "seqwrite", IO_WRITE, PAT_SEQ },
	};
	for (size_t i = 0; name && i < sizeof(tests) / sizeof(tests[0]); i++)
		if (strcmp(tests[i].name, name) == 0)
			return &tests[i];
	return NULL;
}

int plain_test_prepare(const struct plain_test *test, struct target *t,
		       const struct options *opt, bool preconditioned, struct result *r)
{
	bool writes = test->dir == IO_WRITE || preconditioned;
	int code = run_prepare(t, opt, r);
	if (code == EXIT_OK)
		code = run_plan_region(t, opt, writes, r);
	if (code == EXIT_OK)
		code = run_check_direct(t, opt, r);
	if (code == EXIT_OK && !writes)
		code = run_check_data(t, opt, r);
	bool needs_data = (test->dir == IO_READ || test->pattern == PAT_RAND) && !preconditioned;
	if (code == EXIT_OK && t->created)
		code = needs_data ? run_layout(t, opt, 0, r, NULL)
				  : target_check_space(t, r->region, r);
	return code;
}

int plain_test_refuse_cached(const char *cmd, const char *parts,
			      const struct plain_test *test, const struct options *opt,
			      struct result *r)
{
	if (test->dir != IO_READ || opt->direct)
		return EXIT_OK;
	return fail(r, EXIT_USAGE, "%s %s --no-direct: its %s would read through the page cache, "
		    "where the ones before (and a pass that goes round) left the region, so they "
		    "would time the cache, not the disk; %s reads with O_DIRECT (leave out "
		    "--no-direct), and buffered times one pass through the cache from the disk",
		    cmd, test->name, parts, cmd);
}

void plain_test_say_worst_case(const char *cmd, const struct plain_test *test,
			       const struct options *opt, const char *each, double worst_s,
			       const char *then)
{
	if (opt->quiet)
		return;
	char took[32];
	if (worst_s < 120)
		snprintf(took, sizeof(took), "%.3g s", worst_s);
	else
		snprintf(took, sizeof(took), "%.3g min", worst_s / 60);
	/* a line of the run's own, not "diskbench: ...": that is an error's form, the one
	 * line a script takes for the error */
	fprintf(stderr, "%s %s on '%s': at most %s = %s%s\n", cmd, test->name, opt->target, each,
		took, then ? then : "");
}
