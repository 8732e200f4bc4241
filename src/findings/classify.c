#define _POSIX_C_SOURCE 200809L
#include "classify.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

#define MB 1e6
#define GB 1e9
#define US 1e3
#define MS 1e6

/* Ranges widened from published figures so that real devices fall inside
 * (sources: shared/reference/sweep-info-quick-fleet.md §3). */
const struct device_class device_classes[] = {
	{ "usb2", "USB 2.0 flash", 5 * MB, 53 * MB, 300 * US, 5 * MS, 100, 3e3 },
	{ "usb3_flash", "USB 3 flash", 30 * MB, 450 * MB, 200 * US, 3 * MS, 300, 10e3 },
	{ "hdd", "HDD", 40 * MB, 300 * MB, 3 * MS, 25 * MS, 50, 500 },
	{ "hdd_15k", "15k rpm HDD", 100 * MB, 300 * MB, 2 * MS, 8 * MS, 150, 600 },
	{ "sata_ssd", "SATA SSD", 200 * MB, 600 * MB, 40 * US, 300 * US, 20e3, 100e3 },
	{ "nvme_gen3", "NVMe PCIe 3.0", 600 * MB, 3.94 * GB, 20 * US, 150 * US, 100e3, 800e3 },
	{ "nvme_gen4", "NVMe PCIe 4.0", 2 * GB, 7.88 * GB, 20 * US, 150 * US, 300e3, 1.6e6 },
	{ "nvme_gen5", "NVMe PCIe 5.0", 5 * GB, 15.75 * GB, 20 * US, 150 * US, 500e3, 2.5e6 },
	/* a virtual disk's solid-state figures, SATA to NVMe Gen5 in one row:
	 * no interface or generation, which only a real link could tell, and
	 * one name however much the host's load moves the figures */
	{ "ssd", "SSD", 200 * MB, 15.75 * GB, 20 * US, 300 * US, 20e3, 2.5e6 },
	{ "cloud_block", "cloud block volume", 50 * MB, 4 * GB, 300 * US, 3 * MS, 1e3, 260e3 },
	{ "ram", "RAM", 2 * GB, 1e12, 0, 20 * US, 200e3, 1e9 },
};
const size_t device_class_count = sizeof(device_classes) / sizeof(device_classes[0]);

/* 0 inside [lo, hi], else how many factors of e outside it. */
static double log_distance(double value, double lo, double hi)
{
	if (value <= 0)
		return 0;
	if (value < lo)
		return log(lo / (lo > 0 ? value : 1));
	if (value > hi)
		return log(value / hi);
	return 0;
}

static double misfit(const struct device_class *c, const struct quick_figures *f)
{
	return log_distance(f->seq_read_bps, c->seq_lo, c->seq_hi) +
	       log_distance(f->qd1_lat_p50_ns, c->lat_lo, c->lat_hi) +
	       log_distance(f->qd32_iops, c->iops_lo, c->iops_hi);
}

static bool is(const char *a, const char *b)
{
	return a && strcmp(a, b) == 0;
}

static bool in_ram(const struct quick_figures *f)
{
	return is(f->fs_class, "ram");
}

/* Where sysfs gives the link, its generation picks the rows: a USB 2.0 link
 * cannot carry a USB 3 device's rate, a PCIe 3.0 link makes any NVMe drive a
 * Gen3-class one.  Returns -1 when the link says nothing (an emulated link
 * says nothing of the device behind it). */
static int link_allows(const struct quick_figures *f, const struct device_class *c)
{
	if (f->link_emulated)
		return -1;
	if (is(f->link_kind, "usb") && f->link_ceiling_bps > 0) {
		if (f->link_ceiling_bps < 100e6) /* USB 2.0 and slower */
			return is(c->id, "usb2") || is(c->id, "hdd");
		return is(c->id, "usb3_flash") || is(c->id, "hdd");
	}
	if (is(f->link_kind, "pcie") && f->link_speed) {
		double gts = atof(f->link_speed);
		const char *row = gts >= 32 ? "nvme_gen5" : gts >= 16 ? "nvme_gen4" : "nvme_gen3";
		return is(c->id, row);
	}
	return -1;
}

/* What a virtual disk's figures may resemble: the host's storage, in
 * coarse rows (HDD, SSD, cloud block volume), never a SATA or PCIe
 * generation (the guest sees no real link) nor a USB stick; memory speed
 * means the host's cache. */
static bool virtual_allows(const struct device_class *c)
{
	return is(c->id, "hdd") || is(c->id, "ssd") || is(c->id, "cloud_block") || is(c->id, "ram");
}

/* Classes the identity allows. */
static bool identity_allows(const struct quick_figures *f, const struct device_class *c)
{
	if (is(c->id, "ssd") && !(f->is_virtual && !in_ram(f)))
		return false; /* the coarse row is for virtual disks only */
	if (f->is_virtual && !in_ram(f))
		return virtual_allows(c);
	int by_link = link_allows(f, c);
	if (by_link >= 0 && !(f->fs_class && strcmp(f->fs_class, "ram") == 0))
		return by_link;
	if (f->fs_class && strcmp(f->fs_class, "ram") == 0)
		return strcmp(c->id, "ram") == 0;
	if (!f->transport || f->is_virtual)
		return true;
	if (strcmp(f->transport, "usb") == 0)
		return !strcmp(c->id, "usb2") || !strcmp(c->id, "usb3_flash") || !strcmp(c->id, "hdd");
	if (strcmp(f->transport, "nvme") == 0)
		return strncmp(c->id, "nvme", 4) == 0;
	if (strcmp(f->transport, "sata") == 0 || strcmp(f->transport, "ata") == 0)
		return !strcmp(c->id, "sata_ssd") || !strcmp(c->id, "hdd");
	if (strcmp(f->transport, "sas") == 0)
		return !strcmp(c->id, "hdd") || !strcmp(c->id, "hdd_15k") || !strcmp(c->id, "sata_ssd");
	return true;
}

static void add_warning(struct verdict *v, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_warning(struct verdict *v, const char *fmt, ...)
{
	if (v->nwarnings >= VERDICT_MAX_WARNINGS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->warnings[v->nwarnings++], sizeof(v->warnings[0]), fmt, ap);
	va_end(ap);
}

static void pick_class(const struct quick_figures *f, struct verdict *v)
{
	double best = INFINITY, second = INFINITY;
	const struct device_class *any_best = NULL;
	double any = INFINITY;
	bool through_host = f->is_virtual && !in_ram(f);
	for (size_t i = 0; i < device_class_count; i++) {
		const struct device_class *c = &device_classes[i];
		double m = misfit(c, f);
		/* a hypervisor can make a disk look like anything: what the
		 * figures resemble is all there is, nothing to contradict */
		if (through_host && !identity_allows(f, c))
			continue;
		if (m < any)
			any = m, any_best = c;
		if (!identity_allows(f, c))
			continue;
		if (m < best) {
			second = best, v->second = v->cls;
			best = m, v->cls = c;
		} else if (m < second) {
			second = m, v->second = c;
		}
	}
	v->fit = "consistent";
	if (v->second && second - best < 0.05 && !through_host) /* one name, the same each run */
		v->fit = "ambiguous";
	else
		v->second = NULL;
	if (any_best && v->cls && any_best != v->cls && any + 0.5 < best) {
		v->fit = "contradicts_identity";
		if (f->fs_class && strcmp(f->fs_class, "ram") == 0)
			snprintf(v->identity_note, sizeof(v->identity_note),
				 "the figures fit %s better, but the filesystem lives in RAM",
				 any_best->label);
		else
			snprintf(v->identity_note, sizeof(v->identity_note),
				 "the figures fit %s better, but sysfs says the %s is %s", any_best->label,
				 f->link_kind && strcmp(f->link_kind, "none") ? "link" : "transport",
				 f->link_kind && strcmp(f->link_kind, "none") ? (f->link_speed ? f->link_speed : f->link_kind)
									 : (f->transport ? f->transport : "unknown"));
	}
}

/* "SATA", "PCIe", "USB" */
static const char *link_name(const struct quick_figures *f)
{
	return is(f->link_kind, "sata") ? "SATA" : is(f->link_kind, "pcie") ? "PCIe"
	       : is(f->link_kind, "usb") ? "USB" : f->link_kind ? f->link_kind : "claimed";
}

/* A virtual disk's figures that come from the host's cache: beyond the link
 * its emulated controller claims, or at memory speed (v->host_cache says
 * which). */
static void host_cache(const struct quick_figures *f, struct verdict *v)
{
	char rate[32], ceiling[32];
	double top = f->seq_read_bps > f->seq_write_bps ? f->seq_read_bps : f->seq_write_bps;
	if (f->link_emulated && f->link_ceiling_bps > 0 && top > 1.02 * f->link_ceiling_bps) {
		fmt_rate_si(rate, sizeof(rate), top);
		fmt_rate_si(ceiling, sizeof(ceiling), f->link_ceiling_bps);
		snprintf(v->host_cache, sizeof(v->host_cache), "%s is more than its claimed %s link "
			 "(%s, at most %s) can carry", rate, link_name(f),
			 f->link_speed ? f->link_speed : "?", ceiling);
	} else if (v->cls && is(v->cls->id, "ram")) {
		snprintf(v->host_cache, sizeof(v->host_cache), "the figures are memory speed");
	}
	if (v->host_cache[0])
		v->fit = "host_cache";
}

/* O_DIRECT figures at memory speed on a target that is neither known to
 * live in RAM nor known to be a virtual disk (no sysfs in a chroot, a
 * network filesystem): memory below diskbench served them, a hypervisor's,
 * a controller's or the device's, and no device class is named. */
static void memory_speed_cache(struct verdict *v)
{
	v->cls = NULL;
	v->second = NULL;
	v->identity_note[0] = '\0';
	v->fit = "cache";
	v->memory_speed = true;
}

static void link_warnings(const struct quick_figures *f, struct verdict *v)
{
	if (f->link_below_max) {
		bool pcie = f->link_kind && strcmp(f->link_kind, "pcie") == 0;
		add_warning(v, "the %s link runs below what the device supports (%s): check the %s",
			    f->link_kind ? f->link_kind : "device's", f->link_speed ? f->link_speed : "?",
			    pcie ? "slot" : "port and cable");
	}
	if (f->link_ceiling_bps <= 0)
		return;
	char ceiling[32], rate[32];
	double top = f->seq_read_bps > f->seq_write_bps ? f->seq_read_bps : f->seq_write_bps;
	fmt_rate_si(ceiling, sizeof(ceiling), f->link_ceiling_bps);
	fmt_rate_si(rate, sizeof(rate), top);
	if (f->link_emulated) {
		if (top > 1.02 * f->link_ceiling_bps)
			add_warning(v, "%s is more than the %s link (%s, at most %s) that the hypervisor "
				    "claims for this virtual disk: the host's cache was measured, not the "
				    "disk behind it", rate, link_name(f), f->link_speed ? f->link_speed : "?",
				    ceiling);
		return; /* an emulated link bounds nothing: no link-bound warning */
	}
	if (top > 1.02 * f->link_ceiling_bps)
		add_warning(v, "%s on a %s link (%s, at most %s of data) is impossible: a cache was "
			    "measured (page cache, device RAM or compression)", rate,
			    f->link_kind ? f->link_kind : "known", f->link_speed ? f->link_speed : "?",
			    ceiling);
	else if (top >= 0.85 * f->link_ceiling_bps)
		add_warning(v, "link-bound: %s is %.0f %% of what the %s link (%s) can carry; the "
			    "device may be faster than its link", rate, 100 * top / f->link_ceiling_bps,
			    f->link_kind ? f->link_kind : "", ceiling);
}

/* The figures volumes are sold at, within 2 %: a few per decade, so that a
 * device's IOPS land near one about one time in eight by chance, and the
 * other conditions of a cap carry the weight (a grid of every 500 IOPS
 * within 2 % matched every figure above 12,500). */
static double near_round(double v)
{
	static const double mantissas[] = { 1, 1.5, 2, 2.5, 3, 5, 7.5, 10 };
	if (!(v >= 10))
		return 0;
	double scale = pow(10, floor(log10(v)));
	for (size_t i = 0; i < sizeof(mantissas) / sizeof(mantissas[0]); i++)
		if (fabs(v - mantissas[i] * scale) <= 0.02 * mantissas[i] * scale)
			return mantissas[i] * scale;
	return 0;
}

bool classify_flat_cap(const struct quick_figures *f, double *round)
{
	*round = 0;
	/* a bucket that starts full lets a step's first interval run ahead */
	bool settled = f->qd1_settled_iops > 0 && f->qd32_settled_iops > 0;
	double qd1 = settled ? f->qd1_settled_iops : f->qd1_iops;
	double qd32 = settled ? f->qd32_settled_iops : f->qd32_iops;
	if (qd1 < 20 || qd32 <= 0 || f->qd1_lat_p50_ns <= 0)
		return false;
	double edges = settled && f->settled_ios > 0 ? 2 / f->settled_ios : 0;
	bool flat = fabs(qd32 - qd1) <= (0.03 + edges) * qd1;
	bool queued = f->qd32_lat_p50_ns > 8 * f->qd1_lat_p50_ns;
	/* zram, brd, null_blk, a loop over the page cache: the thread itself does
	 * the work, so IOPS stay flat whatever the depth, but it is busy */
	bool idle = f->qd1_cpu < 0.5 && f->qd32_cpu < 0.5;
	*round = near_round(qd32);
	return flat && queued && idle && *round > 0;
}

/* The cap in words, beside the verdict that names it. */
static void cap_warning(const struct quick_figures *f, struct verdict *v)
{
	double rounded;
	if (classify_flat_cap(f, &rounded))
		add_warning(v, "throttled: %.0f IOPS at 1 and at 32 outstanding, near the round "
			    "number %.0f, while latency grew %.0fx: a provisioned cap (cloud volume, "
			    "cgroup io.max)", f->qd32_settled_iops > 0 ? f->qd32_settled_iops : f->qd32_iops,
			    rounded, f->qd32_lat_p50_ns / f->qd1_lat_p50_ns);
}

void classify(const struct quick_figures *f, struct verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->prefix = "";
	if (f->nop) { /* no device answered: nothing to class, warn of or check */
		v->fit = "nop";
		return;
	}
	if (f->fs_class && strcmp(f->fs_class, "ram") == 0)
		v->prefix = "RAM: ";
	else if (f->fs_class && strcmp(f->fs_class, "network") == 0)
		v->prefix = "network: ";
	else if (f->is_virtual)
		v->prefix = "virtual disk: ";
	if (f->seq_read_bps > 0 || f->qd1_lat_p50_ns > 0 || f->qd32_iops > 0)
		pick_class(f, v);
	else if (f->cached[0])
		v->fit = "cache"; /* every figure came from a cache: no class */
	if (v->cls && f->cap[0]) {
		v->fit = "capped"; /* whatever class the figures resemble, a limit set them */
		v->second = NULL;
	} else if (v->cls && f->is_virtual && !in_ram(f)) {
		host_cache(f, v);
	} else if (v->cls && is(v->cls->id, "ram") && !in_ram(f)) {
		memory_speed_cache(v);
	}
	link_warnings(f, v);
	cap_warning(f, v);
	if (f->fs_class && strcmp(f->fs_class, "ram") == 0)
		add_warning(v, "the target lives in RAM: the figures are memory speed, not a disk's");
}

/* Appends to buf[len] at *n, which never passes the end (a cut line stays
 * a string). */
static void append(char *buf, size_t len, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t len, size_t *n, const char *fmt, ...)
{
	if (*n >= len)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + *n, len - *n, fmt, ap);
	va_end(ap);
	*n = k < 0 ? len : *n + (size_t)k;
}

/* A virtual disk's line names what presents it and what the figures
 * resemble, never a device class it cannot see. */
static void virtual_line(char *buf, size_t len, const struct quick_figures *f, const struct verdict *v,
			 const char *seq, const char *lat, const char *iops)
{
	size_t n = 0;
	append(buf, len, &n, "looks like: %s", f->cloud_volume ? "cloud volume" : "virtual disk");
	if (f->virt_kind)
		append(buf, len, &n, " (%s)", f->virt_kind);
	if (v->host_cache[0])
		append(buf, len, &n, ": the figures come through a hypervisor from the host's cache: %s",
		       v->host_cache);
	else
		append(buf, len, &n, ": the figures come through a hypervisor and resemble the %s class",
		       v->cls->label);
	append(buf, len, &n, " (seq read %s, QD1 read %s, %s IOPS @ 32)", seq, lat, iops);
}

/* The figures of memory_speed_cache() and where they came from. */
static void memory_speed_line(char *buf, size_t len, const struct verdict *v, const char *seq,
			      const char *lat, const char *iops)
{
	snprintf(buf, len, "looks like: %sa cache, not the disk: the figures are memory speed (seq "
		 "read %s, QD1 read %s, %s IOPS @ 32) on a target not known to live in RAM: memory "
		 "below it served them (a hypervisor's, a controller's or the device's), so no "
		 "class is named", v->prefix, seq, lat, iops);
}

void verdict_line(char *buf, size_t len, const struct quick_figures *f, const struct verdict *v)
{
	char seq[32] = "-", lat[32] = "-", iops[32] = "-";
	if (f->seq_read_bps > 0)
		fmt_rate_si(seq, sizeof(seq), f->seq_read_bps);
	if (f->qd1_lat_p50_ns > 0)
		fmt_ns(lat, sizeof(lat), f->qd1_lat_p50_ns);
	if (f->qd32_iops > 0)
		fmt_count(iops, sizeof(iops), f->qd32_iops);
	if (v->memory_speed) {
		memory_speed_line(buf, len, v, seq, lat, iops);
		return;
	}
	if (v->fit && strcmp(v->fit, "nop") == 0) {
		snprintf(buf, len, "looks like: no device: --engine=nop sent io_uring NOPs, which reach "
			 "none, so the figures (seq read %s, QD1 read %s, %s IOPS @ 32) are diskbench's "
			 "own ceiling on this CPU and no class is named", seq, lat, iops);
		return;
	}
	if (!v->cls && v->fit && strcmp(v->fit, "cache") == 0) {
		snprintf(buf, len, "looks like: %sa cache, not the disk: a cache between diskbench and "
			 "the disk served the %s figures (the steps' warnings say so), so no class is "
			 "named", v->prefix, f->cached);
		return;
	}
	if (!v->cls) {
		snprintf(buf, len, "looks like: unknown (nothing was measured)");
		return;
	}
	if (strcmp(v->fit, "capped") == 0) {
		snprintf(buf, len, "looks like: %scapped by %s: the figures are the limit, not a "
			 "device class (seq read %s, QD1 read %s, %s IOPS @ 32)", v->prefix, f->cap,
			 seq, lat, iops);
		return;
	}
	if (strcmp(v->prefix, "virtual disk: ") == 0) {
		virtual_line(buf, len, f, v, seq, lat, iops);
		size_t n = strlen(buf);
		if (f->cached[0])
			append(buf, len, &n, "; not weighed: %s (a cache served it)", f->cached);
		return;
	}
	int n = snprintf(buf, len, "looks like: %s%s", v->prefix, v->cls->label);
	if (v->second)
		n += snprintf(buf + n, len - (size_t)n, " or %s", v->second->label);
	n += snprintf(buf + n, len - (size_t)n, " class (seq read %s, QD1 read %s, %s IOPS @ 32)%s%s",
		      seq, lat, iops, v->identity_note[0] ? "; " : "", v->identity_note);
	if (f->cached[0] && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; not weighed: %s (a cache served it)", f->cached);
}
