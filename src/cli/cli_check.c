/* What cli_parse checks once every option is read: limits that involve
 * several options, --svg's path, and open-loop load's settings. */
#include "cli_int.h"

#include <string.h>
#include <sys/stat.h>

#include "engine.h"
#include "mix.h"
#include "units.h"

/* Several targets get one thread each at least (multi.h): the buffers are
 * counted for that many. */
static unsigned effective_threads(const struct options *o)
{
	return o->threads > o->ntargets ? o->threads : o->ntargets;
}

/* The top sweep level, the default one scaled with the targets as the
 * sweep command does (sweep_scale_levels). */
static unsigned top_level(const unsigned *levels, unsigned n, unsigned fallback, unsigned ntargets)
{
	if (n)
		return levels[n - 1];
	uint64_t top = (uint64_t)fallback * (ntargets ? ntargets : 1);
	return top > OPT_MAX_THREADS ? OPT_MAX_THREADS : (unsigned)top;
}

/* --rate (or sla) without --qd: room for as many in flight as the schedule may
 * need (a slow spell piles arrivals up), 128 per thread or 64 MiB of
 * buffers, whichever is fewer; the output says the cap.  An engine that
 * keeps fewer (sync: one) gets its own depth at run time, said in a
 * warning (run_fit_depth). */
void cli_settle_open_loop(struct options *o)
{
	bool open_loop = (o->given & OPT_RATE) || (o->accepts & OPT_SLA);
	if (!open_loop || (o->given & OPT_QD))
		return;
	uint64_t fit = OPEN_LOOP_BUFFER_BYTES / (o->bs ? o->bs : 1);
	o->qd = fit > OPEN_LOOP_QD ? OPEN_LOOP_QD : fit ? (unsigned)fit : 1;
}

int cli_check_open_loop(const struct options *o, char *why, size_t len)
{
	if ((o->given & OPT_ARRIVALS) && !o->rate)
		return usage_error(why, len, "--arrivals goes with --rate (a schedule of I/Os)");
	if (o->rate && o->sustained)
		return usage_error(why, len, "--rate and --sustained exclude each other: an open-loop "
				   "run's rate is the one asked");
	if (o->sweep.ncurve && o->sweep.run == RUN_DSS)
		return usage_error(why, len, "--curve is of the small random series' IOPS, which "
				   "--run=dss does not measure");
	if ((o->accepts & OPT_SLA) && !o->sla.latency_ns)
		return usage_error(why, len, "sla needs a target: --latency LAT[,pNN], e.g. "
				   "--latency 2ms (p99)");
	return EXIT_OK;
}

int cli_check_polling(const struct options *o, char *why, size_t len)
{
	if (!o->poll && !o->sqpoll)
		return EXIT_OK;
	const char *flag = o->poll ? "--poll" : "--sqpoll";
	const struct engine_ops *e = strcmp(o->engine, "auto") ? engine_parse_name(o->engine) : NULL;
	if (e && e != &engine_uring && !(e == &engine_nop && !o->poll))
		return usage_error(why, len, "%s is an io_uring setting, not --engine=%s's", flag,
				   o->engine);
	if (!o->poll)
		return EXIT_OK;
	if (!o->direct)
		return usage_error(why, len, "--poll polls O_DIRECT requests: not with --no-direct");
	if (mix_has(&o->mix, MIX_TRIM))
		return usage_error(why, len, "--poll: a trim cannot be polled");
	if (o->rate || (o->accepts & OPT_SLA))
		return usage_error(why, len, "--poll and an open loop (--rate, sla) exclude each "
				   "other: a polled ring cannot sleep until the next arrival");
	return EXIT_OK;
}

int cli_check_limits(const struct options *o, char *why, size_t len)
{
	char limit[32];
	const uint64_t max_bs = 256ull << 20, max_buffers = 4ull << 30;
	if (o->bs > max_bs) {
		fmt_size_exact(limit, sizeof(limit), max_bs);
		return usage_error(why, len, "block size is larger than %s", limit);
	}
	if ((o->given & OPT_QD) && o->qd > 1 && strcmp(o->engine, "sync") == 0)
		return usage_error(why, len, "--qd %u needs an asynchronous engine (--engine=uring or "
				   "aio); the sync engine keeps one request in flight per thread", o->qd);
	/* the sync engine holds one buffer a thread, whatever depth --rate settled */
	unsigned qd = strcmp(o->engine, "sync") == 0 ? 1 : o->qd;
	if (o->bs * effective_threads(o) * qd > max_buffers)
		return usage_error(why, len, "block size x threads x qd needs more than 4 GiB of "
				   "buffers");
	if (o->series_rows && o->format != OUT_CSV)
		return usage_error(why, len, "--series goes with --csv (JSON always has result.series)");
	if ((o->host_label || o->run_id) && o->format != OUT_JSONL)
		return usage_error(why, len, "--%s goes with --jsonl (only its records carry it)",
				   o->host_label ? "host-label" : "run-id");
	const struct sweep_options *sw = &o->sweep;
	if (sw->large_bs > max_bs) {
		fmt_size_exact(limit, sizeof(limit), max_bs);
		return usage_error(why, len, "--large-bs is larger than %s", limit);
	}
	unsigned top = top_level(sw->levels, sw->nlevels, 64, o->ntargets);
	unsigned top_large = top_level(sw->large_levels, sw->nlarge_levels, 8, o->ntargets);
	if (o->bs * top > max_buffers || sw->large_bs * top_large > max_buffers ||
	    (sw->run == RUN_DSS && sw->large_bs * top > max_buffers))
		return usage_error(why, len, "block size x levels needs more than 4 GiB of buffers");
	return cli_check_verify(o, why, len);
}

/* --svg FILE replaces a file, or writes to a character device or a pipe
 * (/dev/stdout); never to a block device or a directory, refused before
 * the run rather than after it. */
int cli_check_svg_path(const struct options *o, char *why, size_t len)
{
	struct stat st;
	if (!o->svg_path || stat(o->svg_path, &st) != 0)
		return EXIT_OK;
	if (S_ISBLK(st.st_mode))
		return usage_error(why, len, "--svg '%s' is a block device: a picture goes to a file",
				   o->svg_path);
	if (S_ISDIR(st.st_mode))
		return usage_error(why, len, "--svg '%s' is a directory: name the file to write",
				   o->svg_path);
	return EXIT_OK;
}

