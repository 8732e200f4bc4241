/* The runbook question "is this disk (or fleet) slower than last month?":
 * each group of the new report against the old group of the same test, per
 * host and per figure, flagged where worse beyond a threshold. */
#define _POSIX_C_SOURCE 200809L
#include "fleetreport.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *label, *key;
	bool lower_is_better;
} figures[FIG_COUNT] = {
	[FIG_MBPS] = { "MB/s", "bytes_per_sec", false },
	[FIG_IOPS] = { "IOPS", "iops", false },
	[FIG_P50] = { "p50", "lat_p50_ns", true },
	[FIG_P99] = { "p99", "lat_p99_ns", true },
};

const char *fleet_figure_label(enum fleet_figure f)
{
	return figures[f].label;
}

const char *fleet_figure_key(enum fleet_figure f)
{
	return figures[f].key;
}

/* One of the four figures of a host or of the fleet: 0 with *v, or -1 when
 * the latencies are not known. */
static int figure_of(enum fleet_figure f, double rate, double iops, bool has_lat, uint64_t p50,
		     uint64_t p99, double *v)
{
	double all[FIG_COUNT] = { [FIG_MBPS] = rate, [FIG_IOPS] = iops, [FIG_P50] = (double)p50,
				  [FIG_P99] = (double)p99 };
	*v = all[f];
	return f == FIG_P50 || f == FIG_P99 ? (has_lat ? 0 : -1) : 0;
}

static int host_figure(const struct fleet_record *r, enum fleet_figure f, double *v)
{
	return figure_of(f, r->bytes_per_sec, r->iops, r->has_lat, r->p50, r->p99, v);
}

/* The fleet's: summed rates, merged percentiles. */
static int fleet_figure(const struct fleet_totals *t, enum fleet_figure f, double *v)
{
	return figure_of(f, t->sum_bytes_per_sec, t->sum_iops, t->has_lat, t->p50, t->p99, v);
}

static void add_change(struct fleet_pairing *p, const char *host, enum fleet_figure f,
		       double old_value, double new_value, double threshold_pct)
{
	struct fleet_change *c = &p->changes[p->n++];
	c->host = host;
	c->figure = f;
	c->old_value = old_value;
	c->new_value = new_value;
	c->change_pct = old_value > 0 ? (new_value / old_value - 1) * 100 : NAN;
	c->regressed = figures[f].lower_is_better ? c->change_pct > threshold_pct :
						    c->change_pct < -threshold_pct;
}

static const struct fleet_row *find_row(const struct fleet_group *g, const char *label)
{
	for (unsigned i = 0; g && i < g->n; i++)
		if (strcmp(g->rows[i].label, label) == 0)
			return &g->rows[i];
	return NULL;
}

static int compare_pair(struct fleet_pairing *p, double threshold_pct)
{
	unsigned n_old = p->old ? p->old->n : 0, n_new = p->new ? p->new->n : 0;
	p->changes = calloc((size_t)(n_new + 1) * FIG_COUNT, sizeof(*p->changes));
	p->only_old = calloc(n_old + 1, sizeof(*p->only_old));
	p->only_new = calloc(n_new + 1, sizeof(*p->only_new));
	if (!p->changes || !p->only_old || !p->only_new)
		return -1;
	for (unsigned i = 0; i < n_new; i++) {
		const struct fleet_row *row = &p->new->rows[i], *was = find_row(p->old, row->label);
		if (!was) {
			p->only_new[p->n_only_new++] = row->label;
			continue;
		}
		for (unsigned f = 0; f < FIG_COUNT; f++) {
			double a, b;
			if (host_figure(was->rec, f, &a) == 0 && host_figure(row->rec, f, &b) == 0)
				add_change(p, row->label, f, a, b, threshold_pct);
		}
	}
	for (unsigned i = 0; i < n_old; i++)
		if (!find_row(p->new, p->old->rows[i].label))
			p->only_old[p->n_only_old++] = p->old->rows[i].label;
	for (unsigned f = 0; p->old && p->new && f < FIG_COUNT; f++) {
		double a, b;
		if (fleet_figure(&p->old->t, f, &a) == 0 && fleet_figure(&p->new->t, f, &b) == 0)
			add_change(p, FLEET_FLEET_ROW, f, a, b, threshold_pct);
	}
	return 0;
}

/* The old group of cur's test: the only one, or the only one with the same
 * params; NULL when there is none, *several set when it cannot tell. */
static const struct fleet_group *match_old(const struct fleet_report *old,
					   const struct fleet_group *cur, unsigned *several)
{
	const struct fleet_group *any = NULL, *same = NULL;
	unsigned n_any = 0, n_same = 0;
	char note[FLEET_MSG];
	for (unsigned i = 0; i < old->n; i++) {
		const struct fleet_group *g = &old->groups[i];
		if (strcmp(g->test, cur->test) != 0)
			continue;
		any = g, n_any++;
		fleet_params_note(g->rows[0].rec, cur->rows[0].rec, note, sizeof(note));
		if (!note[0])
			same = g, n_same++;
	}
	*several = 0;
	if (n_same == 1)
		return same;
	if (n_any == 1)
		return any;
	if (n_any > 1)
		*several = n_any;
	return NULL;
}

static bool is_paired(const struct fleet_baseline *b, const struct fleet_group *old)
{
	for (unsigned i = 0; i < b->n; i++)
		if (b->pairs[i].old == old)
			return true;
	return false;
}

int fleet_compare(const struct fleet_report *old, const struct fleet_report *cur,
		  double threshold_pct, struct fleet_baseline *out, char *why, size_t len)
{
	memset(out, 0, sizeof(*out));
	out->threshold_pct = threshold_pct;
	out->pairs = calloc((size_t)old->n + cur->n + 1, sizeof(*out->pairs));
	if (!out->pairs)
		goto nomem;
	for (unsigned i = 0; i < cur->n; i++) {
		const struct fleet_group *g = &cur->groups[i];
		unsigned several;
		struct fleet_pairing *p = &out->pairs[out->n++];
		p->new = g;
		p->old = match_old(old, g, &several);
		if (several) {
			snprintf(why, len, "the baseline holds %u runs of %.20s that differ from run '%.60s' "
				 "in params: give it one run", several, g->test, g->run_id);
			errno = EINVAL;
			return -1;
		}
		if (p->old)
			fleet_params_note(p->old->rows[0].rec, g->rows[0].rec, p->note, sizeof(p->note));
	}
	for (unsigned i = 0; i < old->n; i++)
		if (!is_paired(out, &old->groups[i]))
			out->pairs[out->n++].old = &old->groups[i];
	for (unsigned i = 0; i < out->n; i++) {
		if (compare_pair(&out->pairs[i], threshold_pct) != 0)
			goto nomem;
		out->nchanges += out->pairs[i].n;
		for (unsigned k = 0; k < out->pairs[i].n; k++)
			out->nregressed += out->pairs[i].changes[k].regressed;
	}
	return 0;
nomem:
	snprintf(why, len, "out of memory");
	errno = ENOMEM;
	return -1;
}

void fleet_baseline_free(struct fleet_baseline *b)
{
	for (unsigned i = 0; b->pairs && i < b->n; i++) {
		free(b->pairs[i].changes);
		free(b->pairs[i].only_old);
		free(b->pairs[i].only_new);
	}
	free(b->pairs);
	memset(b, 0, sizeof(*b));
}
