#define _POSIX_C_SOURCE 200809L
#include "checks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "detect.h"
#include "devinfo.h"
#include "devinfo_cgroup.h"
#include "devinfo_host.h"
#include "finding.h"
#include "io.h"
#include "platform.h"
#include "rng.h"
#include "sampling.h"
#include "units.h"
#include "util.h"

/* The name of the stack node with device number majmin, or "". */
static const char *node_name(const struct devinfo *d, const char *majmin)
{
	for (int i = 0; i < d->nstack; i++)
		if (strcmp(d->stack[i].majmin, majmin) == 0)
			return d->stack[i].name;
	return "";
}

static void report_limit(const struct cgroup_limit *l, const struct devinfo *d, struct result *r)
{
	bool write = r->dir == IO_WRITE;
	uint64_t bps = l->value[write ? CG_WBPS : CG_RBPS], iops = l->value[write ? CG_WIOPS : CG_RIOPS];
	double rate = r->seconds > 0 ? (double)r->bytes / r->seconds : 0;
	double ios = r->seconds > 0 ? (double)r->ios / r->seconds : 0;
	double reached = 0;
	char what[96] = "", b[32];
	unsigned maj = 0, min = 0;
	if (bps) {
		fmt_rate_si(b, sizeof(b), (double)bps);
		snprintf(what, sizeof(what), "%s", b);
		reached = rate / (double)bps;
	}
	if (iops) {
		size_t used = strlen(what);
		snprintf(what + used, sizeof(what) - used, "%s%llu IOPS", used ? " and " : "",
			 (unsigned long long)iops);
		if (ios / (double)iops > reached)
			reached = ios / (double)iops;
	}
	const char *name = node_name(d, l->majmin);
	warn(r, "this process is limited to %s %s on %s%s%s%s by its cgroup: %s", what,
	     write ? "of writes" : "of reads", l->majmin, name[0] ? " (" : "", name, name[0] ? ")" : "",
	     reached >= CHECKS_LIMIT_REACHED ? "the figure is the limit, not the device"
					     : "the run stayed below it, but it bounds what this "
					       "process can measure");
	struct finding *f = finding_add(r, "cgroup_limit");
	sscanf(l->majmin, "%u:%u", &maj, &min);
	finding_figure(f, "major", maj, 0);
	finding_figure(f, "minor", min, 0);
	finding_figure(f, "bytes_per_sec", (double)bps, 0);
	finding_figure(f, "iops", (double)iops, 0);
	finding_figure(f, "reached", reached, 3);
	finding_figure(f, "cgroup_version", l->version, 0);
}

void checks_cgroup(struct result *r)
{
	const struct devinfo *d = r->device;
	const char *majmins[DEVINFO_MAX_NODES];
	unsigned n = 0;
	struct cgroup_limits limits;
	bool write = r->dir == IO_WRITE;
	for (int i = 0; d && i < d->nstack; i++)
		if (d->stack[i].majmin[0])
			majmins[n++] = d->stack[i].majmin;
	if (n == 0 || cgroup_io_limits(cgroup_default_roots(), majmins, n, &limits) == 0)
		return;
	for (unsigned i = 0; i < limits.n; i++) {
		const struct cgroup_limit *l = &limits.dev[i];
		if (l->value[write ? CG_WBPS : CG_RBPS] || l->value[write ? CG_WIOPS : CG_RIOPS])
			report_limit(l, d, r);
	}
}

void checks_rate_cap(const struct options *opt, struct result *r)
{
	struct rate_cap c;
	char rate[32], p50[32], slow[32];
	if (!opt->direct || !r->series || !detect_rate_cap(r->series, &r->lat, &c))
		return;
	fmt_rate_si(rate, sizeof(rate), c.rate);
	fmt_ns(p50, sizeof(p50), (double)c.p50_ns);
	fmt_ns(slow, sizeof(slow), (double)c.slow_ns);
	warn(r, "throughput held flat at %s (varying %.1f %% across %u intervals) while most I/Os "
	     "took about %s and %.1f %% waited over %s: a rate cap (a cloud volume's or a "
	     "container's I/O limit) set the figure, not the device", rate, c.cv * 100,
	     r->series->n, p50, c.slow_share * 100, slow);
	struct finding *f = finding_add(r, "rate_cap");
	finding_figure(f, "bytes_per_sec", c.rate, 1);
	finding_figure(f, "cv", c.cv, 4);
	finding_figure(f, "p50_ns", (double)c.p50_ns, 0);
	finding_figure(f, "slow_ns", (double)c.slow_ns, 0);
	finding_figure(f, "slow_share", c.slow_share, 4);
}

static bool write_back_leaf(const struct devinfo *d)
{
	for (int i = 0; d && i < d->nleaves; i++)
		if (strcmp(d->stack[d->leaves[i]].write_cache, "write back") == 0)
			return true;
	return false;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The block to write: what it holds where the descriptor can read (a kept
 * file keeps the run's data), else test data of the same kind as the run's
 * (the same for the same seed). */
static void flush_data(int fd, void *buf, size_t len, uint64_t offset, const struct options *opt)
{
	struct rng g;
	if (pread(fd, buf, len, (off_t)offset) == (ssize_t)len)
		return;
	rng_seed(&g, opt->seed, 0xf1u);
	io_fill(buf, len, opt->zeros, &g);
	if (!opt->zeros)
		io_stamp(buf, len, offset, opt->seed);
}

/* Times rounds write + fdatasync pairs of len bytes at offset; -1 when one
 * fails (the check then says nothing). */
static int time_flushes(int fd, uint64_t offset, size_t len, const struct options *opt,
			uint64_t ns[CHECKS_FLUSH_ROUNDS])
{
	void *buf = plat_buffer_alloc(len);
	int rc = buf ? 0 : -1;
	if (buf)
		flush_data(fd, buf, len, offset, opt);
	for (unsigned i = 0; rc == 0 && i < CHECKS_FLUSH_ROUNDS; i++) {
		uint64_t t0 = clock_ns();
		if (pwrite(fd, buf, len, (off_t)offset) != (ssize_t)len || fdatasync(fd) != 0)
			rc = -1;
		ns[i] = clock_ns() - t0;
	}
	if (buf)
		plat_buffer_free(buf, len);
	return rc;
}

void checks_flush(const struct target *t, uint64_t region, uint64_t bs,
		  const struct options *opt, struct result *r)
{
	uint64_t ns[CHECKS_FLUSH_ROUNDS];
	uint64_t written = (r->bytes < region ? r->bytes : region) / bs * bs;
	size_t len = bs < CHECKS_FLUSH_LEN ? (size_t)bs : CHECKS_FLUSH_LEN;
	char median[32];
	if (r->dir != IO_WRITE || !r->measured || written == 0 || !(t->created || opt->force) ||
	    !write_back_leaf(r->device))
		return;
	if (time_flushes(t->fd, written - bs, len, opt, ns) != 0)
		return;
	qsort(ns, CHECKS_FLUSH_ROUNDS, sizeof(ns[0]), cmp_u64);
	double mid = (double)(ns[CHECKS_FLUSH_ROUNDS / 2 - 1] + ns[CHECKS_FLUSH_ROUNDS / 2]) / 2;
	if (mid >= CHECKS_FLUSH_FAST_NS)
		return;
	fmt_ns(median, sizeof(median), mid);
	warn(r, "flushes return in %s: the device or hypervisor acknowledges them without "
	     "reaching stable media, or it has power-loss protection; durability is not "
	     "verified by this run", median);
	struct finding *f = finding_add(r, "flush_fast");
	finding_figure(f, "median_ns", mid, 0);
	finding_figure(f, "min_ns", (double)ns[0], 0);
	finding_figure(f, "max_ns", (double)ns[CHECKS_FLUSH_ROUNDS - 1], 0);
	finding_figure(f, "rounds", CHECKS_FLUSH_ROUNDS, 0);
	finding_figure(f, "bytes", (double)len, 0);
}

void checks_cpu(const struct options *opt, struct result *r)
{
	if (devinfo_cpu_governor(devinfo_default_roots()->sysfs, r->cpu_governor,
				 sizeof(r->cpu_governor)) != 0)
		r->cpu_governor[0] = '\0';
	if (r->cpu_busiest < CHECKS_CPU_BOUND)
		return;
	warn(r, "a submitting thread was busy on the CPU for %.0f %% of the run: the figure is "
	     "limited by this CPU, not the device%s%s", r->cpu_busiest * 100,
	     opt_hint(opt, OPT_THREADS, "; more threads (-j)"),
	     opt_hint(opt, OPT_QD, " or a deeper queue (--qd) may go further"));
	struct finding *f = finding_add(r, "cpu_bound");
	finding_figure(f, "busiest_thread_share", r->cpu_busiest, 3);
}
