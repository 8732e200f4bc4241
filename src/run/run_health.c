#include "run_health.h"

#include <stdio.h>
#include <string.h>

#include "devinfo.h"
#include "finding.h"
#include "run_record.h"
#include "util.h"

/* Each measured part of a process (quick's steps) keeps its own readings in
 * its run record, which the command owns; a result without a record reads
 * none (it has no "health"). */

static const struct dev_node *leaf(const struct devinfo *d, int i)
{
	return &d->stack[d->leaves[i]];
}

/* Whether leaf i of target k is a disk met before it (under k or an earlier
 * target): a disk under two targets is read once. */
static bool met_before(const struct devinfo *const *devices, unsigned k, int i)
{
	const char *name = leaf(devices[k], i)->name;
	for (unsigned kk = 0; kk <= k; kk++) {
		const struct devinfo *d = devices[kk];
		int upto = kk == k ? i : d ? d->nleaves : 0;
		for (int ii = 0; d && ii < upto; ii++)
			if (strcmp(leaf(d, ii)->name, name) == 0)
				return true;
	}
	return false;
}

void run_health_read(struct health_run *run, const struct devinfo *const *devices, unsigned n,
		     const char *devdir, const struct health_ops *ops, bool after)
{
	unsigned got = 0, left_out = 0;
	unsigned room = after ? run->n : HEALTH_MAX_DISKS;
	for (unsigned k = 0; k < n; k++) {
		const struct devinfo *d = devices[k];
		for (int i = 0; d && i < d->nleaves; i++) {
			if (met_before(devices, k, i))
				continue;
			if (got == room) {
				left_out++;
				continue;
			}
			health_read(leaf(d, i), devdir, ops, after ? &run->after[got] : &run->before[got]);
			got++;
		}
	}
	if (after) {
		run->after_taken = true;
		return;
	}
	run->n = got;
	run->left_out = left_out;
	run->after_taken = false;
	run->run_bytes = 0;
	run->run_bytes_why[0] = '\0';
	for (unsigned i = 0; i < HEALTH_MAX_DISKS; i++) {
		run->disk_bytes[i] = -1;
		run->disk_bytes_why[i] = NULL;
	}
}

unsigned run_health_devices(const struct result *r, const struct devinfo **devices)
{
	if (r->ntargets <= 1 || !r->targets) {
		devices[0] = r->device;
		return 1;
	}
	for (unsigned k = 0; k < r->ntargets; k++)
		devices[k] = r->targets[k].device;
	return r->ntargets;
}

static bool under(const struct devinfo *d, const char *name)
{
	for (int i = 0; d && i < d->nleaves; i++)
		if (strcmp(leaf(d, i)->name, name) == 0)
			return true;
	return false;
}

/* Disk i's share: the bytes of the targets on it, when each of them lies on
 * it alone (a target over several disks splits its bytes in a way only the
 * layer above them knows: RAID, LVM, a filesystem over devices). */
static void disk_share(struct health_run *run, unsigned i, const struct devinfo *const *devices,
		       unsigned n, const uint64_t *bytes)
{
	uint64_t sum = 0;
	for (unsigned k = 0; k < n; k++) {
		if (!under(devices[k], run->before[i].name))
			continue;
		if (devices[k]->nleaves > 1 || devices[k]->truncated) {
			run->disk_bytes_why[i] = "a target on it spans several disks, and how its bytes "
						 "split among them is not known";
			return;
		}
		sum += bytes[k];
	}
	run->disk_bytes[i] = (int64_t)sum;
}

/* What every disk read saw of the run, when all the disks under the targets
 * were read; a target on no disk (tmpfs) adds nothing. */
static void run_share(struct health_run *run, const struct devinfo *const *devices, unsigned n,
		      const uint64_t *bytes)
{
	char *why = run->run_bytes_why;
	size_t len = sizeof(run->run_bytes_why);
	if (run->left_out) {
		snprintf(why, len, "%u more disk%s under the target%s not read (at most %d are)",
			 run->left_out, run->left_out == 1 ? "" : "s", n > 1 ? "s" : "",
			 HEALTH_MAX_DISKS);
		return;
	}
	for (unsigned k = 0; k < n; k++) {
		if (!devices[k] || devices[k]->truncated) {
			snprintf(why, len, "the disks under %s are not all known",
				 n > 1 ? "one of the targets" : "the target");
			return;
		}
		if (devices[k]->nleaves > 0)
			run->run_bytes += bytes[k];
	}
}

void run_health_attribute(struct health_run *run, const struct devinfo *const *devices,
			  unsigned n, const uint64_t *bytes, bool wrote, const char *why)
{
	run->run_wrote = wrote;
	run->run_bytes = 0;
	run->run_bytes_why[0] = '\0';
	for (unsigned i = 0; i < run->n; i++) {
		run->disk_bytes[i] = -1;
		run->disk_bytes_why[i] = bytes ? NULL : why;
		if (bytes)
			disk_share(run, i, devices, n, bytes);
	}
	if (bytes)
		run_share(run, devices, n, bytes);
	else
		snprintf(run->run_bytes_why, sizeof(run->run_bytes_why), "%s", why);
}

void run_health_before(struct result *r)
{
	const struct devinfo *devices[OPT_MAX_TARGETS];
	r->health = NULL;
	if (!r->record)
		return;
	struct health_run *run = &r->record->health;
	unsigned n = run_health_devices(r, devices);
	run_health_read(run, devices, n, NULL, health_ioctl_ops(), false);
	r->health = run;
}

void run_health_after_moved(struct result *r, const uint64_t *bytes, bool wrote, const char *why)
{
	const struct devinfo *devices[OPT_MAX_TARGETS];
	if (!r->health)
		return;
	struct health_run *run = &r->record->health;
	unsigned n = run_health_devices(r, devices);
	run_health_read(run, devices, n, NULL, health_ioctl_ops(), true);
	run_health_attribute(run, devices, n, bytes, wrote, why);
}

void run_health_after(struct result *r, const struct bench_job *job)
{
	uint64_t bytes[OPT_MAX_TARGETS];
	if (mix_set(&job->mix)) { /* reads, writes and trims: no one figure to hold the disk's to */
		run_health_after_moved(r, NULL, r->dir == IO_WRITE, "a mix's reads, writes and trims "
				       "are in result.ops; the disk's counters are not matched to them");
		return;
	}
	bytes[0] = run_health_bytes(r);
	for (unsigned k = 0; job->ntargets > 1 && k < job->ntargets && r->targets; k++)
		bytes[k] = job->parts[k].bytes +
			   run_health_warmup_bytes(r->warmup_ios, r->targets[k].threads, job->bs,
						   job->regions[k]);
	run_health_after_moved(r, bytes, r->dir == IO_WRITE, NULL);
}

uint64_t run_health_warmup_bytes(unsigned ios, unsigned threads, uint64_t bs, uint64_t region)
{
	uint64_t warmup = (uint64_t)ios * threads * bs;
	return warmup < region ? warmup : region;
}

uint64_t run_health_bytes(const struct result *r)
{
	if (!r->opt)
		return 0;
	return r->bytes + run_health_warmup_bytes(r->warmup_ios, r->opt->threads, r->opt->bs,
						  r->region);
}

/* NVMe's temperature bit alone, or ATA's temperature attribute (190, 194)
 * at its threshold: the drive is hot, which says nothing of its data */
static bool only_hot(const struct health *h)
{
	if (h->critical_warning > 0)
		return h->critical_warning == NVME_CW_TEMPERATURE;
	return h->failing_attribute == 190 || h->failing_attribute == 194;
}

static void report_alarm(const struct health *h, struct result *r)
{
	char what[256];
	if (only_hot(h)) {
		health_warning_text(NVME_CW_TEMPERATURE, what, sizeof(what));
		warn(r, "%s reports it is too hot (%s%s): the drive slows itself down when hot "
		     "(thermal throttling); cool it, and do not take its figures for a cool drive's",
		     h->name, h->critical_warning > 0 ? "critical warning 0x02, " : "SMART "
		     "temperature attribute at its threshold, ", what);
	} else if (h->critical_warning > 0) {
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
