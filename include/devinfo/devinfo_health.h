/* What a disk says about itself, read with ioctls and no external tool:
 * NVMe's SMART / health log (log page 02h) and OCP's Datacenter SMART log
 * (C0h, for the bytes written to NAND), ATA SMART over SG_IO (ATA
 * PASS-THROUGH 16: READ DATA and READ THRESHOLDS), SCSI LOG SENSE
 * (temperature page 0Dh, write error counter page 02h).
 *
 * Two halves, so that tests feed recorded pages: the decoders (page bytes
 * -> struct health, pure, fuzzed) and the reader that opens a disk's node
 * and sends the commands through a struct health_ops (platform_health.c
 * holds the real ioctls; tests pass fakes whose truth they set). */
#ifndef DEVINFO_HEALTH_H
#define DEVINFO_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "devinfo.h"
#include "json.h"

#define HEALTH_PAGE 512         /* NVMe log pages 02h and C0h, ATA SMART data */
#define HEALTH_NVME_UNIT 512000 /* an NVMe data unit: 1000 x 512 bytes */
#define HEALTH_MAX_DISKS 8      /* leaves read per target */
#define HEALTH_NO_TEMP INT64_MIN /* temperature_c unknown */

/* NVMe critical warning bits (NVMe base spec, SMART / Health log byte 0). */
enum {
	NVME_CW_SPARE = 1 << 0,       /* available spare below its threshold */
	NVME_CW_TEMPERATURE = 1 << 1, /* a temperature beyond a threshold */
	NVME_CW_RELIABILITY = 1 << 2, /* reliability degraded by media errors */
	NVME_CW_READ_ONLY = 1 << 3,   /* media placed in read-only mode */
	NVME_CW_VOLATILE = 1 << 4,    /* volatile memory backup failed */
	NVME_CW_PMR = 1 << 5,         /* persistent memory region read-only */
};

/* One reading of one disk.  Every figure is -1 where the disk does not
 * report it. */
struct health {
	char name[64];             /* the disk: "nvme0n1", "sda" */
	char controller[64];       /* NVMe: the controller whose controller-wide log was
				    * read ("nvme0"), shared by its namespaces; "" where
				    * the counters are the disk's own (ATA, SCSI) */
	bool available;
	char why[192];             /* not available: why ("needs root (CAP_SYS_ADMIN)") */
	const char *source;        /* "nvme", "ata", "scsi"; NULL when not available */
	int64_t temperature_c;     /* HEALTH_NO_TEMP unknown: a drive may be below 0 C */
	int critical_warning;      /* NVMe bits above */
	int available_spare_pct, spare_threshold_pct, percentage_used;
	int64_t media_errors;      /* NVMe media and data integrity errors */
	int64_t host_read_bytes, host_written_bytes; /* NVMe data units x 512000; ATA 241/242
						      * x the drive's unit (ata_unit) */
	int64_t ata_unit;          /* bytes per unit of ATA 241/242 (512-byte LBAs, Intel's
				    * 32 MiB, GiB); -1 none read */
	bool ata_unit_assumed;     /* the drive's unit is not known: 512 bytes assumed */
	int64_t power_on_hours, unsafe_shutdowns;
	int64_t warning_temp_minutes, critical_temp_minutes; /* NVMe composite temperature */
	int64_t thermal_transitions[2], thermal_seconds[2];  /* NVMe thermal management 1 and 2 */
	int64_t nand_written_bytes; /* OCP C0h physical media units written */
	char nand_why[96];          /* why nand_written_bytes is -1 on an NVMe disk */
	int64_t reallocated_sectors; /* ATA attribute 5 */
	int failing_attribute;     /* ATA: the first attribute at or below its threshold, 0 none */
	int failing_value, failing_threshold;
	int64_t uncorrected_write_errors; /* SCSI page 02h */
};

/* Sets every figure unknown and names the disk. */
void health_init(struct health *h, const char *name);

/* ---- decoders: page bytes -> figures; -1 with h->why on a page that is
 * not what it claims to be -------------------------------------------- */

/* NVMe SMART / Health Information, log page 02h (512 bytes). */
int health_decode_nvme(const uint8_t page[HEALTH_PAGE], struct health *h);
/* OCP Datacenter NVMe SSD SMART / Health extended log, page C0h: physical
 * media units written (bytes), kept only when the page ends in OCP's GUID. */
int health_decode_ocp(const uint8_t page[HEALTH_PAGE], struct health *h);
/* ATA SMART READ DATA and READ THRESHOLDS (512 bytes each, checksummed);
 * thresholds may be NULL (then no attribute is called failing).  model
 * (the drive's, NULL unknown) says the unit of attributes 241 and 242. */
int health_decode_ata(const uint8_t data[HEALTH_PAGE], const uint8_t *thresholds,
		      const char *model, struct health *h);
/* Bytes per unit of ATA attributes 241/242 for a drive model, as
 * smartmontools' drive database names them (Intel: 32 MiB; SanDisk, WD's
 * SSDs, Kingston and other SandForce/Phison drives: GiB; Samsung, Crucial,
 * Micron and disks: 512-byte LBAs); 512 with *assumed where the model is not
 * known. */
int64_t health_ata_unit(const char *model, bool *assumed);
/* SCSI LOG SENSE pages: temperature (0Dh) and write error counters (02h). */
int health_decode_scsi_temperature(const uint8_t *page, size_t len, struct health *h);
int health_decode_scsi_write_errors(const uint8_t *page, size_t len, struct health *h);

/* Whether a reading says the disk is failing: an NVMe critical warning bit,
 * an ATA attribute at or below its threshold. */
bool health_alarm(const struct health *h);
/* The NVMe critical warning bits in words, "available spare below
 * threshold, media read-only", into buf[len]. */
void health_warning_text(int bits, char *buf, size_t len);

/* ---- the reader ------------------------------------------------------- */

/* The commands, each on an open descriptor of the disk; 0, or -1 with
 * errno (EACCES / EPERM: privilege; EIO: the device refused it). */
struct health_ops {
	int (*nvme_log)(int fd, uint8_t log_id, uint8_t *buf, size_t len);
	int (*ata_smart)(int fd, uint8_t feature, uint8_t buf[HEALTH_PAGE]);
	int (*scsi_log_sense)(int fd, uint8_t page, uint8_t *buf, size_t len);
};
/* The ioctls: NVME_IOCTL_ADMIN_CMD and SG_IO (platform_health.c). */
const struct health_ops *health_ioctl_ops(void);

/* Reads what disk n (a leaf of devinfo's stack) says about itself through
 * devdir/NAME ("/dev" if NULL), by its transport.  Never fails: a disk that
 * cannot be read is h->available false with the reason. */
void health_read(const struct dev_node *n, const char *devdir, const struct health_ops *ops,
		 struct health *h);
/* The reason for errno err after trying `what`, as health_read writes it. */
void health_why_errno(struct health *h, const char *what, int err);

/* ---- a run: readings before and after ---------------------------------- */

struct health_run {
	unsigned n;
	unsigned left_out;         /* disks under the target(s) past HEALTH_MAX_DISKS, not read */
	bool after_taken;          /* false in `info`: one reading only */
	uint64_t run_bytes;        /* what diskbench moved on the disks read */
	char run_bytes_why[128];   /* run_bytes not known: why ("" known) */
	bool run_wrote;            /* the run wrote (else read) */
	struct health before[HEALTH_MAX_DISKS], after[HEALTH_MAX_DISKS];
	/* each disk's share of run_bytes: -1 where it cannot be told, and why */
	int64_t disk_bytes[HEALTH_MAX_DISKS];
	const char *disk_bytes_why[HEALTH_MAX_DISKS];
};

/* What changed over a run on one disk; -1 where either reading lacks it. */
struct health_delta {
	int64_t host_read_bytes, host_written_bytes, nand_written_bytes;
	int64_t media_errors, reallocated_sectors, thermal_transitions, thermal_seconds;
	double write_amplification; /* NAND / host bytes written; < 0 unknown */
};

void health_delta(const struct health *before, const struct health *after,
		  struct health_delta *d);
/* Sums over the disks read both times, each NVMe controller once (its
 * namespaces report the same controller-wide counters): -1 when none
 * reports it. */
void health_run_totals(const struct health_run *run, struct health_delta *total);
/* "nvme0" for an NVMe namespace "nvme0n1" (or "nvme0n1p2"), else "". */
void health_nvme_controller(const char *name, char *out, size_t len);
/* Whether disk i is the first of the run's disks on its NVMe controller
 * (always true for a disk with counters of its own). */
bool health_first_of_controller(const struct health_run *run, unsigned i);
/* What the run moved on disk i's controller: the sum of the shares of every
 * disk on it (-1 when any is unknown); *shared says whether other disks of
 * the run are on it too.  A disk of its own: its share. */
int64_t health_controller_bytes(const struct health_run *run, unsigned i, bool *shared);

/* JSON: the object of result.health (the caller wrote the key); NULL run
 * writes {"available": false, "why": "no disk under the target", ...}. */
void health_json(struct json *j, const struct health_run *run);
/* Text: one line per disk read ("health: nvme0n1: 41 C, spare 100 % ...");
 * with only_available, nothing for disks that could not be read. */
void health_text(FILE *f, const struct health_run *run, bool only_available);

#endif
