#include "run_health.h"

#include <stdio.h>

#include "devinfo.h"
#include "finding.h"
#include "run_record.h"
#include "util.h"

/* Each measured part of a process (quick's steps) keeps its own readings in
 * its run record, which the command owns; a result without a record reads
 * none (it has no "health"). */

void run_health_read(struct health_run *run, const struct devinfo *d, const char *devdir,
		     const struct health_ops *ops, bool after)
{
	if (!after) {
		run->n = 0;
		run->after_taken = false;
	}
	for (int i = 0; d && i < d->nleaves && (after || run->n < HEALTH_MAX_DISKS); i++) {
		if (after && (unsigned)i >= run->n)
			break;
		const struct dev_node *n = &d->stack[d->leaves[i]];
		health_read(n, devdir, ops, after ? &run->after[i] : &run->before[run->n]);
		if (!after)
			run->n++;
	}
	if (after)
		run->after_taken = true;
}

void run_health_before(struct result *r)
{
	r->health = NULL;
	if (!r->record)
		return;
	struct health_run *run = &r->record->health;
	run_health_read(run, r->device, NULL, health_ioctl_ops(), false);
	r->health = run;
}

void run_health_after(struct result *r)
{
	if (!r->health)
		return;
	struct health_run *run = &r->record->health;
	run_health_read(run, r->device, NULL, health_ioctl_ops(), true);
	run->run_bytes = run_health_bytes(r);
	run->run_wrote = r->dir == IO_WRITE;
}

uint64_t run_health_bytes(const struct result *r)
{
	/* the disks read are the first target's: their bytes are not the
	 * run's when it spans several */
	if (r->ntargets > 1 || !r->opt)
		return 0;
	uint64_t warmup = (uint64_t)r->warmup_ios * r->opt->threads * r->opt->bs;
	return r->bytes + (warmup < r->region ? warmup : r->region);
}

static void report_alarm(const struct health *h, struct result *r)
{
	char what[256];
	if (h->critical_warning > 0) {
		health_warning_text(h->critical_warning, what, sizeof(what));
		warn(r, "%s reports a critical warning (0x%02x: %s): the drive says it is failing "
		     "or protecting itself; back up its data, and do not take its figures for "
		     "a healthy drive's", h->name, (unsigned)h->critical_warning, what);
	} else {
		warn(r, "%s reports SMART attribute %d at %d, at or below its threshold %d: the "
		     "drive says it is failing; back up its data, and do not take its figures for "
		     "a healthy drive's", h->name, h->failing_attribute, h->failing_value,
		     h->failing_threshold);
	}
	struct finding *f = finding_add(r, "health_warning");
	finding_figure(f, "critical_warning", h->critical_warning, 0);
	finding_figure(f, "failing_attribute", h->failing_attribute, 0);
	finding_figure(f, "failing_value", h->failing_value, 0);
	finding_figure(f, "failing_threshold", h->failing_threshold, 0);
}

void run_health_report(const struct health_run *run, struct result *r)
{
	for (unsigned i = 0; run && i < run->n; i++) {
		const struct health *h = run->after_taken ? &run->after[i] : &run->before[i];
		if (health_alarm(h))
			report_alarm(h, r);
	}
}

void run_health_check(struct result *r)
{
	run_health_report(r->health, r);
}
