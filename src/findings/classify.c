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

/* Where sysfs gives the link, its generation picks the rows: a USB 2.0 link
 * cannot carry a USB 3 device's rate, a PCIe 3.0 link makes any NVMe drive a
 * Gen3-class one.  Returns -1 when the link says nothing. */
static int link_allows(const struct quick_figures *f, const struct device_class *c)
{
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

/* Classes the identity allows. */
static bool identity_allows(const struct quick_figures *f, const struct device_class *c)
{
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
	for (size_t i = 0; i < device_class_count; i++) {
		const struct device_class *c = &device_classes[i];
		double m = misfit(c, f);
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
	if (v->second && second - best < 0.05)
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

/* A provisioned cap: IOPS the same at 1 and 32 outstanding while latency
 * grew with the load, at a round number. */
static void cap_warning(const struct quick_figures *f, struct verdict *v)
{
	if (f->qd1_iops < 500 || f->qd32_iops <= 0 || f->qd1_lat_p50_ns <= 0)
		return;
	bool flat = fabs(f->qd32_iops - f->qd1_iops) <= 0.03 * f->qd1_iops;
	bool queued = f->qd32_lat_p50_ns > 8 * f->qd1_lat_p50_ns;
	double rounded = 500 * floor(f->qd32_iops / 500 + 0.5);
	bool round_number = fabs(f->qd32_iops - rounded) <= 0.02 * rounded;
	if (flat && queued && round_number)
		add_warning(v, "throttled: %.0f IOPS at 1 and at 32 outstanding, near the round "
			    "number %.0f, while latency grew %.0fx: a provisioned cap (cloud volume, "
			    "cgroup io.max)", f->qd32_iops, rounded, f->qd32_lat_p50_ns / f->qd1_lat_p50_ns);
}

void classify(const struct quick_figures *f, struct verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->prefix = "";
	if (f->fs_class && strcmp(f->fs_class, "ram") == 0)
		v->prefix = "RAM: ";
	else if (f->fs_class && strcmp(f->fs_class, "network") == 0)
		v->prefix = "network: ";
	else if (f->is_virtual)
		v->prefix = "virtual disk: ";
	if (f->seq_read_bps > 0 || f->qd1_lat_p50_ns > 0 || f->qd32_iops > 0)
		pick_class(f, v);
	if (v->cls && f->cap[0]) {
		v->fit = "capped"; /* whatever class the figures resemble, a limit set them */
		v->second = NULL;
	}
	link_warnings(f, v);
	cap_warning(f, v);
	if (f->fs_class && strcmp(f->fs_class, "ram") == 0)
		add_warning(v, "the target lives in RAM: the figures are memory speed, not a disk's");
}

void verdict_line(char *buf, size_t len, const struct quick_figures *f, const struct verdict *v)
{
	char seq[32] = "-", lat[32] = "-", iops[32] = "-";
	if (!v->cls) {
		snprintf(buf, len, "looks like: unknown (nothing was measured)");
		return;
	}
	if (f->seq_read_bps > 0)
		fmt_rate_si(seq, sizeof(seq), f->seq_read_bps);
	if (f->qd1_lat_p50_ns > 0)
		fmt_ns(lat, sizeof(lat), f->qd1_lat_p50_ns);
	if (f->qd32_iops > 0)
		fmt_count(iops, sizeof(iops), f->qd32_iops);
	if (strcmp(v->fit, "capped") == 0) {
		snprintf(buf, len, "looks like: %scapped by %s: the figures are the limit, not a "
			 "device class (seq read %s, QD1 read %s, %s IOPS @ 32)", v->prefix, f->cap,
			 seq, lat, iops);
		return;
	}
	int n = snprintf(buf, len, "looks like: %s%s", v->prefix, v->cls->label);
	if (v->second)
		n += snprintf(buf + n, len - (size_t)n, " or %s", v->second->label);
	snprintf(buf + n, len - (size_t)n, " class (seq read %s, QD1 read %s, %s IOPS @ 32)%s%s",
		 seq, lat, iops, v->identity_note[0] ? "; " : "", v->identity_note);
}
