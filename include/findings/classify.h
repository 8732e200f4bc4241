/* quick's verdict: which class of device the figures look like, checked
 * against what sysfs says the device and its link are, and the warnings
 * that expose impossible or capped figures.  Pure: figures in, words out. */
#ifndef CLASSIFY_H
#define CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>

struct device_class {
	const char *id, *label;
	double seq_lo, seq_hi;         /* sequential read, bytes/s */
	double lat_lo, lat_hi;         /* 4 KiB random read at QD1, p50, ns */
	double iops_lo, iops_hi;       /* 4 KiB random read IOPS at 32 outstanding */
};

extern const struct device_class device_classes[];
extern const size_t device_class_count;

/* What was measured (0: not measured) and what sysfs said (NULL/false: not
 * known). */
struct quick_figures {
	double seq_read_bps, qd1_lat_p50_ns, qd1_iops, qd32_iops, qd32_lat_p50_ns;
	double seq_write_bps;
	double qd1_settled_iops, qd32_settled_iops; /* the same steps' IOPS after their
						     * first interval (0 unknown) */
	double settled_ios;     /* the fewer I/Os of the two after their first interval */
	double qd1_cpu, qd32_cpu; /* the busiest submitting thread's CPU share of the QD1 and
				   * QD32 random read steps, 0..1 (< 0 unknown): a device that
				   * completes at memory speed keeps it near 1 */
	bool nop;               /* --engine=nop: io_uring NOPs, which reach no device: the
				 * figures are diskbench's own ceiling, no class's */
	const char *fs_class;   /* "ram", "network" or NULL */
	const char *transport;  /* "nvme", "sata", "usb", "virtio", … */
	bool is_virtual;
	const char *virt_kind;  /* "virtio-blk", "Amazon EBS volume", … or NULL */
	bool cloud_volume;      /* a cloud provider's network volume */
	bool link_emulated;     /* the link is a virtual disk's claim, not a wire */
	int rotational;         /* -1 unknown */
	const char *link_kind;  /* "sata", "usb", "pcie", "none" or NULL */
	const char *link_speed; /* "6.0 Gbps", "480", "8.0 GT/s PCIe" … */
	double link_ceiling_bps;/* 0 unknown */
	bool link_below_max;
	char cached[96];        /* the figures left out because a step's own finding says a
				 * cache served them ("seq read, QD1 read"), or "" */
	char cap[192];          /* what showed that a limit set the figures ("a cgroup
				 * limit of 130 IOPS on 7:0 (reached in RND4K Q32T1
				 * read)"), or "" */
};

#define VERDICT_MAX_WARNINGS 8

struct verdict {
	const struct device_class *cls;    /* best fit, or NULL when nothing was measured */
	const struct device_class *second; /* an equally good fit, or NULL */
	const char *fit;                   /* "consistent", "ambiguous", "contradicts_identity",
					    * "capped" (a limit set the figures: cls is what
					    * they resemble, not what the device is),
					    * "host_cache" (a virtual disk's figures beyond its
					    * claimed link, or at memory speed), "cache" (a
					    * step's own finding says a cache between diskbench
					    * and the disk served every figure weighed, or the
					    * figures are memory speed on a target not known
					    * to be in RAM or virtual: cls NULL), "nop" (the
					    * steps sent NOPs: no device, cls NULL, no warning) */
	bool memory_speed;                 /* "cache" because the figures are memory speed */
	const char *prefix;                /* "virtual disk: ", "RAM: ", "network: " or "" */
	char identity_note[160];           /* why identity and figures disagree, if they do */
	char host_cache[160];              /* why the figures are the host's cache, or "" */
	char warnings[VERDICT_MAX_WARNINGS][256];
	unsigned nwarnings;
};

void classify(const struct quick_figures *f, struct verdict *v);
/* A provisioned cap in quick's figures: IOPS at 1 and at 32 in flight within
 * 3 % of each other, plus 2 I/Os of the fewer counted (an interval's edge
 * falls between two I/Os of a paced device: short steps count few) (at
 * least 20; after each step's first interval where known, since a token
 * bucket that starts full lets the first one run ahead), median latency at 32 over 8 times that at
 * 1 (the requests queued somewhere), the submitting thread mostly idle (not
 * a device that answers at memory speed), and the IOPS within 2 % of a
 * round figure (1, 1.5, 2, 2.5, 3, 5 or 7.5 times a power of ten, as
 * volumes are sold).  True with that figure in *round. */
bool classify_flat_cap(const struct quick_figures *f, double *round);
/* "looks like: SATA SSD class (seq read 520 MB/s, QD1 read 90 us, 94k IOPS @ 32)" */
void verdict_line(char *buf, size_t len, const struct quick_figures *f, const struct verdict *v);

#endif
