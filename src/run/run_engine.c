/* Which engine a run gets (runner.h: run_pick_engine), and the depth it
 * allows a run whose depth nobody asked for (run_fit_depth). */
#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include "util.h"

int run_pick_engine(const struct options *opt, unsigned qd, struct result *r,
		    const struct engine_ops **ops)
{
	char note[MSG_LEN];
	if (engine_pick(opt->engine ? opt->engine : "auto", ops, note, sizeof(note)) != 0)
		return fail(r, EXIT_RUN, "--engine=%s: %s", opt->engine, note[0] ? note : "unavailable");
	if ((opt->poll || opt->sqpoll) && *ops != &engine_uring && *ops != &engine_nop)
		return fail(r, EXIT_RUN, "%s needs io_uring: %s", opt->poll ? "--poll" : "--sqpoll",
			    note[0] ? note : "the engine picked is not io_uring");
	if (note[0])
		warn(r, "%s", note);
	if (qd > (*ops)->max_qd)
		return fail(r, EXIT_RUN, "%u requests in flight per thread need an asynchronous engine, "
			    "and %s keeps %u%s", qd, (*ops)->label, (*ops)->max_qd,
			    opt_hint(opt, OPT_THREADS, "; use -j for more in flight"));
	r->engine = (*ops)->name;
	r->engine_label = (*ops)->label;
	if (*ops == &engine_nop)
		warn(r, "--engine=nop moves no data: each request is an io_uring NOP, so the figures "
		     "are what diskbench alone can issue and reap on this CPU (its ceiling), not "
		     "the target's");
	return EXIT_OK;
}

unsigned run_fit_depth(const struct options *opt, unsigned qd, const char *what,
		       struct result *r)
{
	const struct engine_ops *ops;
	char note[MSG_LEN];
	if ((opt->given & OPT_QD) ||
	    engine_pick(opt->engine ? opt->engine : "auto", &ops, note, sizeof(note)) != 0 ||
	    qd <= ops->max_qd)
		return qd; /* asked for, or it fits; an engine that cannot run fails later */
	warn(r, "the %s engine keeps %u request%s in flight per thread, so %s has %u, not %u%s",
	     ops->name, ops->max_qd, ops->max_qd == 1 ? "" : "s", what, ops->max_qd, qd,
	     opt_hint(opt, OPT_THREADS, "; -j runs more threads"));
	return ops->max_qd;
}
