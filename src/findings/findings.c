#include "findings.h"

#include <stdio.h>
#include <string.h>

#include "units.h"
#include "util.h"

/* ---- the shape of the series -------------------------------------------- */

static void judge_cliff(const struct cliff *c, const struct series *s, struct result *r)
{
	char from[32], to[32], moved[32];
	bool write = r->dir == IO_WRITE;
	fmt_rate_si(from, sizeof(from), c->burst_rate);
	fmt_rate_si(to, sizeof(to), c->sustained_rate);
	fmt_bytes_si(moved, sizeof(moved), c->at_bytes);
	warn(r, "throughput fell from %s to %s after %s %s (t = %.*f s): %s; the sustained "
	     "figure is %s", from, to, moved, write ? "written" : "read",
	     s->interval_s < 1 ? 1 : 0, c->at_s,
	     write ? "a write cache (SLC) or burst credits ran out"
		   : "burst credits ran out, or a cache or throttle in front of the disk took over",
	     to);
	struct finding *f = finding_add(r, "cliff");
	finding_figure(f, "at_s", c->at_s, 3);
	finding_figure(f, "at_bytes", (double)c->at_bytes, 0);
	finding_figure(f, "burst_bytes_per_sec", c->burst_rate, 1);
	finding_figure(f, "sustained_bytes_per_sec", c->sustained_rate, 1);
	finding_figure(f, "baseline_bytes_per_sec", c->baseline, 1);
}

static void judge_unsteady(const struct series *s, unsigned from, double cv,
			   const struct options *opt, struct result *r)
{
	struct series_summary sum;
	char lo[32], hi[32];
	series_summarize(s, from, s->n, &sum);
	fmt_rate_si(lo, sizeof(lo), sum.min);
	fmt_rate_si(hi, sizeof(hi), sum.max);
	warn(r, "throughput was unsteady: from %s to %s per %g s (coefficient of variation "
	     "%.0f %% over %u intervals%s): one run is not a figure to bet on; measure for "
	     "longer%s or repeat the run", lo, hi, s->interval_s, cv * 100, sum.n,
	     from > 0 ? ", after the drop" : "", opt_hint(opt, OPT_TIME, " (-t)"));
	struct finding *f = finding_add(r, "unsteady");
	finding_figure(f, "cv", cv, 3);
	finding_figure(f, "intervals", sum.n, 0);
	finding_figure(f, "interval_s", s->interval_s, 3);
	finding_figure(f, "min_bytes_per_sec", sum.min, 1);
	finding_figure(f, "max_bytes_per_sec", sum.max, 1);
}

/* --sustained: the burst and the steady rate the run ended on, or that it
 * ended before the rate settled. */
static void judge_sustained(const struct series *s, const struct options *opt, struct result *r)
{
	struct steady c;
	char burst[32], rate[32];
	bool steady = detect_steady(s, &c);
	fmt_rate_si(burst, sizeof(burst), c.burst_rate);
	fmt_rate_si(rate, sizeof(rate), c.rate);
	if (steady)
		warn(r, "sustained: %s, steady from t = %.0f s (the last %u intervals drift %.1f %%); "
		     "the burst was %s", rate, c.from_s, DETECT_STEADY_WINDOW, c.change * 100, burst);
	else
		warn(r, "the rate was not steady by the end of the run%s: the sustained figure may "
		     "be lower than this one; run longer%s", s->n < DETECT_STEADY_WINDOW
		     ? " (too few intervals to tell)" : "", opt_hint(opt, OPT_TIME, " (-t)"));
	struct finding *f = finding_add(r, "sustained");
	finding_figure(f, "steady", steady, 0);
	finding_figure(f, "steady_from_s", c.from_s, 3);
	finding_figure(f, "sustained_bytes_per_sec", c.rate, 1);
	finding_figure(f, "burst_bytes_per_sec", c.burst_rate, 1);
	finding_figure(f, "drift", c.change, 4);
}

/* A drop in throughput while a disk got hot: thermal throttling. */
static void judge_heat(const struct findings_view *v, bool dropped, struct result *r)
{
	struct heat h;
	for (unsigned i = 0; i < v->ntemps; i++) {
		const struct temp_track *t = &v->temps[i];
		if (!detect_heat(t, dropped, &h))
			continue;
		char limit[64] = "";
		if (h.limit_c > 0)
			snprintf(limit, sizeof(limit), ", reaching its limit of %.0f C", h.limit_c);
		char how[96];
		if (h.peak_c > h.first_c)
			snprintf(how, sizeof(how), "heated from %.0f C to %.0f C", h.first_c, h.peak_c);
		else /* hot before the run: it did not heat, it stayed hot */
			snprintf(how, sizeof(how), "was at %.0f C from the start", h.peak_c);
		warn(r, "throughput fell while %s %s%s (t = %.0f s): the drive slows itself down "
		     "when hot (thermal throttling); cool it, or quote the sustained figure", t->name,
		     how, limit, h.peak_t_s);
		struct finding *f = finding_add(r, "heat");
		finding_figure(f, "first_c", h.first_c, 1);
		finding_figure(f, "peak_c", h.peak_c, 1);
		finding_figure(f, "peak_t_s", h.peak_t_s, 3);
		finding_figure(f, "limit_c", h.limit_c, 1);
	}
}

/* ---- limits around the device ------------------------------------------- */

/* The share of a cgroup limit that the run reached. */
static double limit_reached(const struct findings_limit *l, const struct result *r)
{
	double rate = r->seconds > 0 ? (double)r->bytes / r->seconds : 0;
	double ios = r->seconds > 0 ? (double)r->ios / r->seconds : 0;
	double reached = l->bytes_per_sec ? rate / (double)l->bytes_per_sec : 0;
	if (l->iops && ios / (double)l->iops > reached)
		reached = ios / (double)l->iops;
	return reached;
}

static void judge_limit(const struct findings_limit *l, struct result *r)
{
	bool write = r->dir == IO_WRITE;
	double reached = limit_reached(l, r);
	char what[96] = "", b[32];
	unsigned maj = 0, min = 0;
	if (l->bytes_per_sec) {
		fmt_rate_si(b, sizeof(b), (double)l->bytes_per_sec);
		snprintf(what, sizeof(what), "%s", b);
	}
	if (l->iops) {
		size_t used = strlen(what);
		snprintf(what + used, sizeof(what) - used, "%s%llu IOPS", used ? " and " : "",
			 (unsigned long long)l->iops);
	}
	const char *name = l->name ? l->name : "";
	warn(r, "this process is limited to %s %s on %s%s%s%s by its cgroup: %s", what,
	     write ? "of writes" : "of reads", l->majmin, name[0] ? " (" : "", name, name[0] ? ")" : "",
	     reached >= FINDINGS_LIMIT_REACHED ? "the figure is the limit, not the device"
					       : "the run stayed below it, but it bounds what this "
						 "process can measure");
	struct finding *f = finding_add(r, "cgroup_limit");
	sscanf(l->majmin, "%u:%u", &maj, &min);
	finding_figure(f, "major", maj, 0);
	finding_figure(f, "minor", min, 0);
	finding_figure(f, "bytes_per_sec", (double)l->bytes_per_sec, 0);
	finding_figure(f, "iops", (double)l->iops, 0);
	finding_figure(f, "reached", reached, 3);
	finding_figure(f, "cgroup_version", l->version, 0);
}

/* Each limit the process's cgroups put on the devices under the target in
 * the run's direction; true when the run reached one. */
static bool judge_cgroup(const struct findings_view *v, struct result *r)
{
	bool reached = false;
	for (unsigned i = 0; i < v->nlimits; i++) {
		const struct findings_limit *l = &v->limits[i];
		if (!l->bytes_per_sec && !l->iops)
			continue;
		judge_limit(l, r);
		reached |= limit_reached(l, r) >= FINDINGS_LIMIT_REACHED;
	}
	return reached;
}

/* What made the rate cap look like one, in words. */
static void cap_evidence_words(const struct rate_cap *c, char *buf, size_t len)
{
	char p50[32], slow[32], round[32];
	fmt_ns(p50, sizeof(p50), (double)c->p50_ns);
	fmt_ns(slow, sizeof(slow), (double)c->slow_ns);
	if (c->budget)
		snprintf(buf, len, "most I/Os took about %s and %.1f %% waited over %s%s, %.0f %% of "
			 "the I/O time", p50, c->slow_share * 100, slow,
			 c->evidence == CAP_REGULAR ? " in every interval" : "", c->wait_share * 100);
	else {
		if (c->round_iops)
			snprintf(round, sizeof(round), "%.0f IOPS", c->round);
		else
			fmt_rate_si(round, sizeof(round), c->round);
		snprintf(buf, len, "at a round %s, as limits are set", round);
	}
}

/* A rate cap, stated as one only when something corroborates it (a cgroup
 * limit reached, or slow I/Os in every interval); else "may be". */
static void judge_rate_cap(const struct options *opt, const struct series *s, bool limited,
			   struct result *r)
{
	struct rate_cap c;
	char rate[32], why[192];
	if (!opt->direct || !detect_rate_cap(s, &r->lat, r->bytes, &c))
		return;
	bool sure = limited || c.evidence == CAP_REGULAR;
	fmt_rate_si(rate, sizeof(rate), c.rate);
	cap_evidence_words(&c, why, sizeof(why));
	warn(r, "throughput held flat at %s (varying %.1f %% across %u intervals), %s: %s", rate,
	     c.cv * 100, s->n, why,
	     limited ? "a rate cap set the figure, the cgroup limit above"
	     : sure ? "a rate cap (a cloud volume's or a container's I/O limit) set the figure, "
		      "not the device"
		    : "a rate cap (a cloud volume's or a container's I/O limit) may have set the "
		      "figure, though nothing here confirms one");
	struct finding *f = finding_add(r, "rate_cap");
	finding_figure(f, "confirmed", sure, 0);
	finding_figure(f, "bytes_per_sec", c.rate, 1);
	finding_figure(f, "iops", c.iops, 1);
	finding_figure(f, "cv", c.cv, 4);
	finding_figure(f, "p50_ns", (double)c.p50_ns, 0);
	finding_figure(f, "slow_ns", (double)c.slow_ns, 0);
	finding_figure(f, "slow_share", c.slow_share, 4);
	finding_figure(f, "wait_share", c.wait_share, 3);
}

/* What the command lets the user add to go further: the threads, the depth,
 * both, or neither (each said only where the command takes the option). */
static const char *more_parallel_hint(const struct options *opt)
{
	bool threads = opt && (opt->accepts & OPT_THREADS);
	bool depth = opt && (opt->accepts & OPT_QD);
	if (threads && depth)
		return "; more threads (-j) or a deeper queue (--qd) may go further";
	if (threads)
		return "; more threads (-j) may go further";
	return depth ? "; a deeper queue (--qd) may go further" : "";
}

/* The busiest submitting thread on the CPU for most of its run.  A thread
 * cannot use more than all of one CPU: a share above 1 is the two clocks'
 * disagreement, and says 100 %. */
static void judge_cpu(const struct options *opt, struct result *r)
{
	double share = r->cpu_busiest < 1.0 ? r->cpu_busiest : 1.0;
	if (share < FINDINGS_CPU_BOUND)
		return;
	/* the process's CPU per I/O (JSON cpu.ns_per_io), where the window's is known */
	bool known = r->cpu_usr_pct >= 0 && r->cpu_sys_pct >= 0 && r->ios > 0;
	double per_io = known ? (r->cpu_usr_pct + r->cpu_sys_pct) / 100 * r->seconds * 1e9 /
					(double)r->ios : 0;
	char cost[48] = "";
	if (known) {
		char ns[24];
		fmt_ns(ns, sizeof(ns), per_io);
		snprintf(cost, sizeof(cost), " (%s of CPU per I/O)", ns);
	}
	char ceiling[200] = "";
	double iops = r->seconds > 0 ? (double)r->ios / r->seconds : 0;
	double of_ceiling = r->tool_ceiling_iops > 0 ? iops / r->tool_ceiling_iops : 0;
	if (of_ceiling >= FINDINGS_TOOL_SHARE) {
		char nops[32];
		fmt_count(nops, sizeof(nops), r->tool_ceiling_iops);
		snprintf(ceiling, sizeof(ceiling), ", at %.0f %% of diskbench's own ceiling here (%s "
			 "IOPS of io_uring NOPs at the same depth and threads, --engine=nop): the tool "
			 "may be the limit", of_ceiling * 100, nops);
	}
	warn(r, "a submitting thread was busy on the CPU for %.0f %% of the run%s: the figure is "
	     "limited by this CPU, not the device%s%s", share * 100, cost, ceiling,
	     more_parallel_hint(opt));
	struct finding *f = finding_add(r, "cpu_bound");
	finding_figure(f, "busiest_thread_share", share, 3);
	if (known)
		finding_figure(f, "cpu_ns_per_io", per_io, 1);
	if (r->tool_ceiling_iops > 0)
		finding_figure(f, "tool_ceiling_iops", r->tool_ceiling_iops, 0);
	if (of_ceiling < FINDINGS_TOOL_SHARE)
		return;
	f = finding_add(r, "tool_bound");
	finding_figure(f, "iops", iops, 0);
	finding_figure(f, "tool_ceiling_iops", r->tool_ceiling_iops, 0);
	finding_figure(f, "share", of_ceiling, 3);
}

/* ---- the disks' own counters -------------------------------------------- */

static void join_disks(const struct findings_view *v, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < v->ndisks && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
					 v->disks[i].name);
}

static uint64_t disk_bytes(const struct findings_view *v, bool reads, bool writes)
{
	uint64_t sum = 0;
	for (unsigned i = 0; i < v->ndisks; i++)
		sum += (reads ? v->disks[i].read_bytes : 0) + (writes ? v->disks[i].write_bytes : 0);
	return sum;
}

uint64_t findings_other_io(uint64_t disk_read, uint64_t disk_written, unsigned ndisks,
			   uint64_t run_bytes, bool write)
{
	if (ndisks == 0)
		return 0;
	if (write) {
		/* a write test reads next to nothing itself, so what the disks read
		 * is someone else's I/O; what they wrote beyond the run may be the
		 * run's own amplification (journal, copy-on-write, parity), which
		 * device_wrote_more names: writes alone say nothing of other I/O */
		double own = FINDINGS_DEVICE_READ_SHARE * (double)run_bytes + FINDINGS_DEVICE_MIN_BYTES;
		return (double)disk_read > own ? disk_read : 0;
	}
	uint64_t disk_bytes = disk_read + disk_written;
	if ((double)disk_bytes <= FINDINGS_DEVICE_OTHER_TIMES * (double)run_bytes + FINDINGS_DEVICE_MIN_BYTES)
		return 0;
	return disk_bytes > run_bytes ? disk_bytes - run_bytes : 0;
}

/* The disks moved clearly more than the run did: other processes' I/O. */
static bool judge_other_io(const struct findings_view *v, struct result *r)
{
	uint64_t total = disk_bytes(v, true, true);
	char names[256], moved[32], own[32];
	if (findings_other_io(disk_bytes(v, true, false), disk_bytes(v, false, true), v->ndisks,
			      r->bytes, r->dir == IO_WRITE) == 0)
		return false;
	join_disks(v, names, sizeof(names));
	fmt_bytes_si(moved, sizeof(moved), total);
	fmt_bytes_si(own, sizeof(own), r->bytes);
	warn(r, "%s moved %s during the run, diskbench %s: other I/O on the disk (another "
	     "process, or writeback) shared it, so its busy share is not this run's alone and the "
	     "figure may be lower than the disk alone gives", names, moved, own);
	struct finding *f = finding_add(r, "device_other_io");
	finding_figure(f, "device_read_bytes", (double)disk_bytes(v, true, false), 0);
	finding_figure(f, "device_write_bytes", (double)disk_bytes(v, false, true), 0);
	finding_figure(f, "bytes", (double)r->bytes, 0);
	return true;
}

/* Why a cache took most of a write test's bytes, as far as the options say. */
static const char *write_cache_why(const struct options *opt)
{
	if (opt->sync == SYNC_NONE)
		return " (--sync=none flushes nothing)";
	if (!opt->direct)
		return " (through the page cache, a block written again before a flush reaches the "
		       "disk once)";
	return opt->zeros ? " (or a filesystem that compresses took --zeros' blocks)" : "";
}

/* A write test whose disks saw a small share of its bytes: a cache's figure,
 * said as --sync=none's caution is, but measured. */
static void judge_write_share(const struct options *opt, const char *names, const char *seen,
			      const char *moved, uint64_t dev, double ratio, struct result *r)
{
	warn(r, "only %.*f %% of the bytes written reached %s (%s of %s): a cache between "
	     "diskbench and the disk took the rest%s, so the figure may measure a cache, not the "
	     "disk%s", ratio < 0.1 ? 1 : 0, ratio * 100, names, seen, moved, write_cache_why(opt),
	     opt->sync != SYNC_DSYNC ? opt_hint(opt, OPT_SYNC, "; use --sync=dsync for what "
						"reaches the device") : "");
	struct finding *f = finding_add(r, "device_saw_less");
	finding_figure(f, "device_bytes", (double)dev, 0);
	finding_figure(f, "bytes", (double)r->bytes, 0);
	finding_figure(f, "share", ratio, 3);
}

/* What the disks below saw against what diskbench moved: far less on a read
 * means a cache served it, on a write that a cache took it; far more on a
 * write means amplification. */
static void judge_device(const struct options *opt, const struct findings_view *v,
			 struct result *r)
{
	char names[256], moved[32], seen[32];
	bool write = r->dir == IO_WRITE;
	uint64_t dev = disk_bytes(v, !write, write);
	double ratio = r->bytes > 0 ? (double)dev / (double)r->bytes : 0;
	/* a mix (r->ops): reads, writes and trims, no one figure to hold the disks' to */
	if (v->ndisks == 0 || r->ops || r->bytes < FINDINGS_DEVICE_MIN_BYTES || judge_other_io(v, r))
		return;
	join_disks(v, names, sizeof(names));
	fmt_bytes_si(moved, sizeof(moved), r->bytes);
	fmt_bytes_si(seen, sizeof(seen), dev);
	if (!write && ratio < FINDINGS_DEVICE_READ_SHARE) {
		warn(r, "only %.*f %% of the bytes read reached %s (%s of %s): a cache between "
		     "diskbench and the disk served the rest", ratio < 0.1 ? 1 : 0, ratio * 100, names,
		     seen, moved);
		struct finding *f = finding_add(r, "device_saw_less");
		finding_figure(f, "device_bytes", (double)dev, 0);
		finding_figure(f, "bytes", (double)r->bytes, 0);
		finding_figure(f, "share", ratio, 3);
	} else if (write && ratio < FINDINGS_DEVICE_WRITE_SHARE) {
		judge_write_share(opt, names, seen, moved, dev, ratio, r);
	} else if (write && ratio > FINDINGS_DEVICE_WRITE_TIMES * v->ndisks) {
		warn(r, "%s wrote %.1f times the bytes diskbench wrote (%s for %s): journaling, "
		     "copy-on-write, RAID parity or other writers on the disk", names, ratio, seen,
		     moved);
		struct finding *f = finding_add(r, "device_wrote_more");
		finding_figure(f, "device_bytes", (double)dev, 0);
		finding_figure(f, "bytes", (double)r->bytes, 0);
		finding_figure(f, "ratio", ratio, 3);
	}
}

void findings_judge(const struct options *opt, const struct findings_view *v, struct result *r)
{
	const struct series *s = v->series;
	struct cliff c;
	double cv;
	if (!s)
		return;
	bool cliff = detect_cliff(s, &c);
	if (cliff)
		judge_cliff(&c, s, r);
	/* after a cliff, the variation the drop explains is not unsteadiness */
	unsigned from = cliff ? c.at : 0;
	if (detect_unsteady(s, from, &cv))
		judge_unsteady(s, from, cv, opt, r);
	judge_heat(v, cliff, r);
	if (opt->sustained)
		judge_sustained(s, opt, r);
	bool limited = judge_cgroup(v, r);
	judge_rate_cap(opt, s, limited, r);
	judge_cpu(opt, r);
	if (!r->engine || strcmp(r->engine, "nop") != 0) /* NOPs reach no disk */
		judge_device(opt, v, r);
}
