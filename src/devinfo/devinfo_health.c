/* The decoders of what a disk says about itself: page bytes -> struct
 * health, with offsets from the specifications (NVMe base 2.0 Figure 207,
 * OCP Datacenter NVMe SSD 2.0 section 4.8.3, ATA/ATAPI-8 SMART and
 * T13/e05171, SPC-4 log pages), and the arithmetic of a run's readings.
 * Pure: no descriptor, no allocation, so recorded pages drive them. */
#include "devinfo_health.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* OCP's C0h log ends in this GUID (AFD514C97C6F4F9CA4F2BFEA2810AFC5),
 * stored least significant byte first. */
static const uint8_t ocp_c0_guid[16] = {
	0xC5, 0xAF, 0x10, 0x28, 0xEA, 0xBF, 0xF2, 0xA4,
	0x9C, 0x4F, 0x6F, 0x7C, 0xC9, 0x14, 0xD5, 0xAF,
};

void health_init(struct health *h, const char *name)
{
	memset(h, 0, sizeof(*h));
	snprintf(h->name, sizeof(h->name), "%s", name ? name : "");
	h->temperature_c = HEALTH_NO_TEMP;
	h->critical_warning = h->available_spare_pct = h->spare_threshold_pct = -1;
	h->percentage_used = -1;
	h->media_errors = h->host_read_bytes = h->host_written_bytes = -1;
	h->power_on_hours = h->unsafe_shutdowns = -1;
	h->warning_temp_minutes = h->critical_temp_minutes = -1;
	h->thermal_transitions[0] = h->thermal_transitions[1] = -1;
	h->thermal_seconds[0] = h->thermal_seconds[1] = -1;
	h->nand_written_bytes = h->reallocated_sectors = h->uncorrected_write_errors = -1;
	h->ata_unit = -1;
}

static int not_valid(struct health *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int not_valid(struct health *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(h->why, sizeof(h->why), fmt, ap);
	va_end(ap);
	return -1;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static uint64_t be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n && i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* A 128-bit little-endian counter; INT64_MAX where it exceeds 63 bits (no
 * disk gets there: 2^63 data units is 4.7e24 bytes). */
static int64_t le128(const uint8_t *p)
{
	uint64_t low = le(p, 8), high = le(p + 8, 8);
	return high || low > INT64_MAX ? INT64_MAX : (int64_t)low;
}

/* a count of data units as bytes, saturating */
static int64_t units_to_bytes(int64_t units)
{
	return units > INT64_MAX / HEALTH_NVME_UNIT ? INT64_MAX : units * HEALTH_NVME_UNIT;
}

int health_decode_nvme(const uint8_t page[HEALTH_PAGE], struct health *h)
{
	unsigned kelvin = (unsigned)le(page + 1, 2);
	h->critical_warning = page[0];
	/* 0 K means the controller does not report it */
	h->temperature_c = kelvin ? (int64_t)kelvin - 273 : HEALTH_NO_TEMP;
	h->available_spare_pct = page[3];
	h->spare_threshold_pct = page[4];
	h->percentage_used = page[5];
	h->host_read_bytes = units_to_bytes(le128(page + 32));
	h->host_written_bytes = units_to_bytes(le128(page + 48));
	h->power_on_hours = le128(page + 128);
	h->unsafe_shutdowns = le128(page + 144);
	h->media_errors = le128(page + 160);
	h->warning_temp_minutes = (int64_t)le(page + 192, 4);
	h->critical_temp_minutes = (int64_t)le(page + 196, 4);
	for (int i = 0; i < 2; i++) {
		h->thermal_transitions[i] = (int64_t)le(page + 216 + 4 * i, 4);
		h->thermal_seconds[i] = (int64_t)le(page + 224 + 4 * i, 4);
	}
	h->source = "nvme";
	h->available = true;
	return 0;
}

int health_decode_ocp(const uint8_t page[HEALTH_PAGE], struct health *h)
{
	if (memcmp(page + 496, ocp_c0_guid, sizeof(ocp_c0_guid)) != 0) {
		snprintf(h->nand_why, sizeof(h->nand_why),
			 "log C0h is not OCP's SMART log (another GUID)");
		return -1;
	}
	h->nand_written_bytes = le128(page);
	h->nand_why[0] = '\0';
	return 0;
}

/* ---- ATA SMART ----------------------------------------------------------- */

enum { ATA_ATTRS = 30, ATA_ATTR_LEN = 12, ATA_ATTR_AT = 2 };

static bool checksum_ok(const uint8_t *p)
{
	uint8_t sum = 0;
	for (int i = 0; i < HEALTH_PAGE; i++)
		sum = (uint8_t)(sum + p[i]);
	return sum == 0;
}

static int threshold_of(const uint8_t *thresholds, int id)
{
	for (int i = 0; thresholds && i < ATA_ATTRS; i++) {
		const uint8_t *t = thresholds + ATA_ATTR_AT + i * ATA_ATTR_LEN;
		if (t[0] == id)
			return t[1];
	}
	return 0;
}

/* One attribute's raw value into the figure it stands for (raw48, as
 * smartctl shows them by default; 9 as raw24, the hours without the
 * minutes some drives keep above). */
static void ata_attribute(int id, uint64_t raw, struct health *h)
{
	switch (id) {
	case 5: h->reallocated_sectors = (int64_t)raw; break;
	case 9: h->power_on_hours = (int64_t)(raw & 0xffffff); break;
	case 190: /* airflow temperature: only where 194 is absent */
		if (h->temperature_c == HEALTH_NO_TEMP)
			h->temperature_c = (int64_t)(raw & 0xff);
		break;
	case 194: h->temperature_c = (int64_t)(raw & 0xff); break;
	case 241: h->host_written_bytes = (int64_t)raw; break; /* units, scaled below */
	case 242: h->host_read_bytes = (int64_t)raw; break;
	default: break;
	}
}

static bool model_starts(const char *model, const char *prefix)
{
	return strncasecmp(model, prefix, strlen(prefix)) == 0;
}

int64_t health_ata_unit(const char *model, bool *assumed)
{
	static const struct {
		const char *prefix;
		int64_t unit;
	} units[] = {
		{ "INTEL", 32ll << 20 },                 /* Host_Writes_32MiB */
		{ "SanDisk", 1ll << 30 },               /* Total_Writes_GiB */
		{ "KINGSTON", 1ll << 30 }, { "Corsair Force", 1ll << 30 },
		{ "OCZ-", 1ll << 30 },                  /* SandForce: Lifetime_Writes_GiB */
		{ "Samsung SSD", 512 }, { "SAMSUNG MZ", 512 }, /* Total_LBAs_Written */
		{ "ST", 512 },                           /* Seagate */
	};
	*assumed = false;
	for (size_t i = 0; model && i < sizeof(units) / sizeof(units[0]); i++)
		if (model_starts(model, units[i].prefix))
			return units[i].unit;
	*assumed = true;
	return 512;
}

/* 241/242 were stored in the drive's units; a count too large for bytes in
 * 63 bits is a garbled attribute, not a figure */
static int64_t ata_units_to_bytes(int64_t units, int64_t unit)
{
	if (units < 0)
		return -1;
	return units > INT64_MAX / unit ? -1 : units * unit;
}

static void scale_ata_host_bytes(const char *model, struct health *h)
{
	if (h->host_written_bytes < 0 && h->host_read_bytes < 0)
		return;
	h->ata_unit = health_ata_unit(model, &h->ata_unit_assumed);
	h->host_written_bytes = ata_units_to_bytes(h->host_written_bytes, h->ata_unit);
	h->host_read_bytes = ata_units_to_bytes(h->host_read_bytes, h->ata_unit);
}

int health_decode_ata(const uint8_t data[HEALTH_PAGE], const uint8_t *thresholds,
		      const char *model, struct health *h)
{
	if (!checksum_ok(data))
		return not_valid(h, "the SMART data fail their checksum");
	if (thresholds && !checksum_ok(thresholds))
		thresholds = NULL; /* the values stand; no attribute is judged */
	for (int i = 0; i < ATA_ATTRS; i++) {
		const uint8_t *a = data + ATA_ATTR_AT + i * ATA_ATTR_LEN;
		if (a[0] == 0)
			continue;
		ata_attribute(a[0], le(a + 5, 6), h);
		int limit = threshold_of(thresholds, a[0]);
		/* smartctl's FAILING_NOW: a normalised value at or below a
		 * threshold that is not 0 (0 means "never fails") */
		if (limit > 0 && a[3] <= limit && h->failing_attribute == 0) {
			h->failing_attribute = a[0];
			h->failing_value = a[3];
			h->failing_threshold = limit;
		}
	}
	scale_ata_host_bytes(model, h);
	h->source = "ata";
	h->available = true;
	return 0;
}

/* ---- SCSI log pages ------------------------------------------------------- */

/* Calls fn for each parameter of a LOG SENSE page of code `code`:
 * header (page code, subpage, length BE16), then parameters (code BE16,
 * control, length, value). */
static int scsi_params(const uint8_t *page, size_t len, uint8_t code, struct health *h,
		       void (*fn)(unsigned param, const uint8_t *v, unsigned vlen, struct health *h))
{
	if (len < 4 || (page[0] & 0x3f) != code)
		return not_valid(h, "LOG SENSE answered with page %02Xh for %02Xh",
				 len < 4 ? 0u : page[0] & 0x3fu, code);
	size_t end = 4 + (size_t)be(page + 2, 2);
	if (end > len)
		end = len;
	for (size_t at = 4; at + 4 <= end;) {
		unsigned vlen = page[at + 3];
		if (at + 4 + vlen > end)
			break;
		fn((unsigned)be(page + at, 2), page + at + 4, vlen, h);
		at += 4 + vlen;
	}
	return 0;
}

static void temperature_param(unsigned param, const uint8_t *v, unsigned vlen, struct health *h)
{
	/* parameter 0000h: the current temperature in its second byte; FFh unknown */
	if (param == 0 && vlen >= 2 && v[1] != 0xff)
		h->temperature_c = v[1];
}

static void write_error_param(unsigned param, const uint8_t *v, unsigned vlen, struct health *h)
{
	if (vlen == 0 || vlen > 8)
		return;
	if (param == 5) /* total bytes processed */
		h->host_written_bytes = (int64_t)(be(v, vlen) & INT64_MAX);
	else if (param == 6) /* total uncorrected errors */
		h->uncorrected_write_errors = (int64_t)(be(v, vlen) & INT64_MAX);
}

int health_decode_scsi_temperature(const uint8_t *page, size_t len, struct health *h)
{
	if (scsi_params(page, len, 0x0d, h, temperature_param) != 0)
		return -1;
	if (h->temperature_c == HEALTH_NO_TEMP)
		return not_valid(h, "the temperature page holds no current temperature");
	h->source = "scsi";
	h->available = true;
	return 0;
}

int health_decode_scsi_write_errors(const uint8_t *page, size_t len, struct health *h)
{
	return scsi_params(page, len, 0x02, h, write_error_param);
}

/* ---- judgement and arithmetic ------------------------------------------- */

bool health_alarm(const struct health *h)
{
	return h->available && ((h->critical_warning > 0) || h->failing_attribute > 0);
}

void health_warning_text(int bits, char *buf, size_t len)
{
	static const char *const names[] = {
		"available spare below its threshold", "temperature beyond a threshold",
		"reliability degraded", "media read-only", "volatile memory backup failed",
		"persistent memory region read-only",
	};
	size_t used = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < 8 && used < len; i++) {
		if (!(bits & (1 << i)))
			continue;
		const char *name = i < sizeof(names) / sizeof(names[0]) ? names[i] : "a reserved bit";
		int n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

static int64_t diff(int64_t before, int64_t after)
{
	return before < 0 || after < 0 ? -1 : after - before;
}

void health_delta(const struct health *before, const struct health *after,
		  struct health_delta *d)
{
	bool both = before->available && after->available;
	d->host_read_bytes = both ? diff(before->host_read_bytes, after->host_read_bytes) : -1;
	d->host_written_bytes =
		both ? diff(before->host_written_bytes, after->host_written_bytes) : -1;
	d->nand_written_bytes =
		both ? diff(before->nand_written_bytes, after->nand_written_bytes) : -1;
	d->media_errors = both ? diff(before->media_errors, after->media_errors) : -1;
	d->reallocated_sectors =
		both ? diff(before->reallocated_sectors, after->reallocated_sectors) : -1;
	d->thermal_transitions = -1;
	d->thermal_seconds = -1;
	if (both && before->thermal_transitions[0] >= 0 && after->thermal_transitions[0] >= 0) {
		d->thermal_transitions = after->thermal_transitions[0] + after->thermal_transitions[1] -
			before->thermal_transitions[0] - before->thermal_transitions[1];
		d->thermal_seconds = after->thermal_seconds[0] + after->thermal_seconds[1] -
			before->thermal_seconds[0] - before->thermal_seconds[1];
	}
	d->write_amplification = -1;
	if (d->nand_written_bytes >= 0 && d->host_written_bytes > 0)
		d->write_amplification = (double)d->nand_written_bytes / (double)d->host_written_bytes;
}

static void add(int64_t *sum, int64_t v)
{
	if (v < 0)
		return;
	*sum = *sum < 0 ? v : *sum + v;
}

void health_nvme_controller(const char *name, char *out, size_t len)
{
	unsigned ctrl, ns;
	int used = 0;
	out[0] = '\0';
	if (sscanf(name, "nvme%un%u%n", &ctrl, &ns, &used) == 2 && used > 0)
		snprintf(out, len, "nvme%u", ctrl);
}

static const char *controller_of(const struct health_run *run, unsigned i)
{
	return run->after_taken ? run->after[i].controller : run->before[i].controller;
}

bool health_first_of_controller(const struct health_run *run, unsigned i)
{
	const char *c = controller_of(run, i);
	for (unsigned k = 0; c[0] && k < i; k++)
		if (strcmp(controller_of(run, k), c) == 0)
			return false;
	return true;
}

int64_t health_controller_bytes(const struct health_run *run, unsigned i, bool *shared)
{
	const char *c = controller_of(run, i);
	int64_t sum = run->disk_bytes[i];
	*shared = false;
	for (unsigned k = 0; c[0] && k < run->n; k++) {
		if (k == i || strcmp(controller_of(run, k), c) != 0)
			continue;
		*shared = true;
		sum = sum < 0 || run->disk_bytes[k] < 0 ? -1 : sum + run->disk_bytes[k];
	}
	return sum;
}

void health_run_totals(const struct health_run *run, struct health_delta *t)
{
	*t = (struct health_delta){ -1, -1, -1, -1, -1, -1, -1, -1 };
	int64_t host_with_nand = -1; /* host writes of the disks that report NAND writes */
	for (unsigned i = 0; run->after_taken && i < run->n; i++) {
		struct health_delta d;
		if (!health_first_of_controller(run, i))
			continue; /* the same controller-wide counters, counted once */
		health_delta(&run->before[i], &run->after[i], &d);
		add(&t->host_read_bytes, d.host_read_bytes);
		add(&t->host_written_bytes, d.host_written_bytes);
		add(&t->media_errors, d.media_errors);
		add(&t->reallocated_sectors, d.reallocated_sectors);
		add(&t->thermal_transitions, d.thermal_transitions);
		add(&t->thermal_seconds, d.thermal_seconds);
		if (d.nand_written_bytes >= 0 && d.host_written_bytes >= 0) {
			add(&t->nand_written_bytes, d.nand_written_bytes);
			add(&host_with_nand, d.host_written_bytes);
		}
	}
	if (t->nand_written_bytes >= 0 && host_with_nand > 0)
		t->write_amplification = (double)t->nand_written_bytes / (double)host_with_nand;
}
