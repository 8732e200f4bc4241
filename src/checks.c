#include "checks.h"

#include <stdio.h>
#include <string.h>

#include "detect.h"
#include "devinfo.h"
#include "devinfo_cgroup.h"
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
