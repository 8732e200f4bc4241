#define _POSIX_C_SOURCE 200809L
#include "multi.h"

#include <stdio.h>
#include <string.h>

#include "runner.h"
#include "util.h"

static const char *target_name(const struct options *opt, unsigned k)
{
	return opt->ntargets > 1 ? opt->targets[k] : opt->target;
}

/* Each target one thread at least: -j below their number is raised. */
static void spread_threads(struct multi *m, const struct options *opt, struct result *r)
{
	struct options *o = &m->opt;
	if (!(opt->accepts & OPT_THREADS))
		return;
	if (o->threads < m->n) {
		if (opt->given & OPT_THREADS)
			warn(r, "-j %u raised to %u: each of the %u targets gets one thread at least",
			     o->threads, m->n, m->n);
		o->threads = m->n;
	}
	if (o->threads % m->n != 0)
		warn(r, "%u threads over %u targets do not divide evenly (%u to %u of them, %u to "
		     "the others), so the load is uneven%s", o->threads, m->n,
		     o->threads / m->n + 1, o->threads % m->n, o->threads / m->n,
		     opt_hint(opt, OPT_THREADS, "; use a multiple of the number of targets for -j"));
}

int multi_begin(struct multi **out, const struct options *opt, struct result *r)
{
	/* large (a device description and a latency histogram per target):
	 * kept with the result, whose renderers read its figures */
	struct multi *m = result_keep(r, sizeof(*m), NULL);
	*out = m;
	if (!m)
		return fail(r, EXIT_RUN, "cannot allocate the state of %u targets:",
			    opt->ntargets > 1 ? opt->ntargets : 1);
	m->n = opt->ntargets > 1 ? opt->ntargets : 1;
	m->opt = *opt;
	for (unsigned k = 0; k < m->n; k++) {
		m->t[k].fd = -1;
		m->t[k].path[0] = '\0';
		m->resident[k] = -1;
		m->out[k] = (struct result_target){ .target = target_name(opt, k),
						    .resident_before_pct = -1 };
	}
	if (m->n == 1)
		return EXIT_OK;
	for (unsigned k = 0; k < m->n; k++) {
		memset(&m->part[k], 0, sizeof(m->part[k]));
		stats_init(&m->part[k].lat);
	}
	spread_threads(m, opt, r);
	/* a sweep's threads change from point to point: none to name */
	for (unsigned k = 0; k < m->n && (opt->accepts & OPT_THREADS); k++)
		m->out[k].threads = multi_threads(m, k);
	r->opt = &m->opt;
	r->targets = m->out;
	r->ntargets = m->n;
	return target_check_several(opt->targets, m->n, r->dir == IO_WRITE && !opt_moves_no_data(opt),
				    opt->force, r);
}

unsigned multi_threads(const struct multi *m, unsigned k)
{
	unsigned local, peers;
	unsigned threads = m->opt.threads;
	/* the threads on k are k, k + n, k + 2n, …: place the first of them */
	bench_thread_place(k, threads, m->n, &local, &peers);
	return peers;
}

const struct options *multi_enter(struct multi *m, unsigned k, struct result *r)
{
	if (m->n == 1)
		return &m->opt;
	m->each = m->opt;
	m->each.target = m->out[k].target;
	m->each.targets[0] = m->out[k].target;
	m->each.ntargets = 1;
	m->each.threads = multi_threads(m, k);
	r->region = m->region[k];
	r->device = m->out[k].device;
	r->file_state = m->out[k].file_state;
	r->resident_before_pct = m->resident[k];
	snprintf(r->file, sizeof(r->file), "%s", m->t[k].path);
	return &m->each;
}

void multi_leave(struct multi *m, unsigned k, struct result *r)
{
	struct result_target *o = &m->out[k];
	if (m->n == 1)
		return;
	m->region[k] = r->region;
	m->resident[k] = r->resident_before_pct;
	if (r->device && r->device != &m->device[k]) {
		/* run_prepare describes every target into the same place */
		memcpy(&m->device[k], r->device, sizeof(m->device[k]));
		o->device = &m->device[k];
	}
	o->file = m->t[k].path[0] ? m->t[k].path : NULL;
	o->file_state = r->file_state;
	o->region = r->region;
}

uint64_t multi_space_before(const struct multi *m, unsigned k)
{
	uint64_t bytes = 0;
	const struct target *t = &m->t[k];
	for (unsigned i = 0; i < k && m->n > 1; i++)
		if (m->t[i].created && t->created && m->t[i].id_dev == t->id_dev)
			bytes += m->region[i];
	return bytes;
}

static int find_node(const struct devinfo *d, const char *majmin)
{
	for (int i = 0; majmin[0] && i < d->nstack; i++)
		if (strcmp(d->stack[i].majmin, majmin) == 0)
			return i;
	return -1;
}

/* Adds d's stack and leaves to all, each device once: two targets on one
 * disk must not count its counters twice. */
static void add_disks(struct devinfo *all, const struct devinfo *d)
{
	int map[DEVINFO_MAX_NODES];
	for (int i = 0; i < d->nstack; i++) {
		const struct dev_node *node = &d->stack[i];
		int at = find_node(all, node->majmin);
		if (at < 0 && all->nstack == DEVINFO_MAX_NODES)
			all->truncated = true;
		if (at < 0 && all->nstack < DEVINFO_MAX_NODES) {
			at = all->nstack++;
			all->stack[at] = *node;
			all->stack[at].parent = node->parent >= 0 ? map[node->parent] : -1;
		}
		map[i] = at;
	}
	for (int i = 0; i < d->nleaves; i++) {
		int at = map[d->leaves[i]], seen = 0;
		for (int j = 0; j < all->nleaves; j++)
			seen |= all->leaves[j] == at;
		if (at >= 0 && !seen)
			all->leaves[all->nleaves++] = at;
	}
}

void multi_measure_view(struct multi *m, struct result *r)
{
	uint64_t total = 0;
	double resident = 0;
	bool measured = true, described = false;
	if (m->n == 1)
		return;
	memset(&m->all, 0, sizeof(m->all));
	for (unsigned k = 0; k < m->n; k++) {
		const struct devinfo *d = m->out[k].device;
		if (d && !described)
			memcpy(&m->all, d, sizeof(m->all));
		else if (d)
			add_disks(&m->all, d);
		described |= d != NULL;
		total += m->region[k];
		resident += m->resident[k] * (double)m->region[k];
		measured &= m->resident[k] >= 0;
		m->out[k].resident_before_pct = m->resident[k];
	}
	r->region = total;
	r->resident_before_pct = measured && total ? resident / (double)total : -1;
	r->device = described ? &m->all : NULL;
}

void multi_ready(struct multi *m, bool write_test, bool evict, struct result *r)
{
	for (unsigned k = 0; k < m->n; k++) {
		const struct options *opt = multi_enter(m, k, r);
		run_warn_target(&m->t[k], opt, write_test, r);
		if (evict)
			run_evict(&m->t[k], opt, r);
		multi_leave(m, k, r);
	}
	multi_measure_view(m, r);
}

void multi_job(struct multi *m, struct bench_job *job)
{
	if (m->n == 1)
		return;
	for (unsigned k = 0; k < m->n; k++) {
		m->fd[k] = m->t[k].fd;
		m->job_region[k] = m->region[k] - m->region[k] % job->bs;
	}
	job->ntargets = m->n;
	job->fds = m->fd;
	job->regions = m->job_region;
	job->parts = m->part;
	job->fd = m->fd[0];
	job->region = m->job_region[0];
}

void multi_finish(struct multi *m, struct result *r)
{
	if (m->n == 1)
		return;
	for (unsigned k = 0; k < m->n; k++) {
		struct result_target *o = &m->out[k];
		o->bytes = m->part[k].bytes;
		o->ios = m->part[k].ios;
		o->seconds = m->part[k].seconds;
		o->lat = &m->part[k].lat;
	}
	snprintf(r->file, sizeof(r->file), "%s", m->t[0].path);
	r->file_state = m->out[0].file_state;
	r->device = m->out[0].device;
}

void multi_close(struct multi *m)
{
	for (unsigned k = 0; m && k < m->n; k++)
		target_close(&m->t[k]);
}
