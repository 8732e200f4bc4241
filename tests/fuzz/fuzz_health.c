/* libFuzzer target: the health decoders (devinfo_health.c) on arbitrary
 * bytes.  The input, cut or zero-padded to 512 bytes, is an NVMe log page
 * 02h, an OCP C0h page and ATA SMART data (the same bytes turned by half
 * a page as its thresholds); the input as it is, in a buffer of exactly its length, is a
 * SCSI LOG SENSE page of each kind.  Promises: every figure is unknown (-1)
 * or not negative, a temperature is unknown or one a 16-bit Kelvin or
 * 8-bit Celsius field can hold, a failing attribute has a threshold above its value's
 * floor, the deltas and write amplification of two readings are finite or
 * unknown, and the JSON and text renderers run on whatever came out. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devinfo_health.h"

#define PROMISE(cond) ((cond) ? (void)0 : abort())

static void check(const struct health *h)
{
	const int64_t figures[] = {
		h->media_errors, h->host_read_bytes, h->host_written_bytes, h->power_on_hours,
		h->unsafe_shutdowns, h->warning_temp_minutes, h->critical_temp_minutes,
		h->thermal_transitions[0], h->thermal_transitions[1], h->thermal_seconds[0],
		h->thermal_seconds[1], h->nand_written_bytes, h->reallocated_sectors,
		h->uncorrected_write_errors, h->critical_warning, h->available_spare_pct,
		h->spare_threshold_pct, h->percentage_used,
	};
	for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
		PROMISE(figures[i] >= -1);
	PROMISE(h->temperature_c == HEALTH_NO_TEMP ||
		(h->temperature_c >= -273 && h->temperature_c <= 65535 - 273));
	PROMISE(h->failing_attribute == 0 || (h->failing_threshold > 0 &&
					      h->failing_value <= h->failing_threshold));
	PROMISE(h->available || h->source == NULL);
	PROMISE(memchr(h->why, '\0', sizeof(h->why)) && memchr(h->nand_why, '\0', sizeof(h->nand_why)));
}

static void render(struct health_run *run, FILE *sink)
{
	struct json j;
	json_init(&j, sink);
	health_json(&j, run);
	health_text(sink, run, false);
	struct health_delta t;
	health_run_totals(run, &t);
	PROMISE(t.write_amplification < 0 || isfinite(t.write_amplification));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct health_run run;
	uint8_t page[HEALTH_PAGE] = { 0 };
	memcpy(page, data, size < sizeof(page) ? size : sizeof(page));
	FILE *sink = fopen("/dev/null", "w");
	PROMISE(sink != NULL);
	memset(&run, 0, sizeof(run));
	run.n = 3;
	run.after_taken = true;
	run.run_bytes = size;
	run.run_wrote = size & 1;
	/* each disk's share: known, not known with a reason, none */
	run.disk_bytes[0] = (int64_t)size;
	run.disk_bytes[1] = run.disk_bytes[2] = -1;
	run.disk_bytes_why[1] = "not known";
	run.left_out = (unsigned)(size & 2);

	struct health *nvme = &run.after[0], *ata = &run.after[1], *scsi = &run.after[2];
	health_init(nvme, "nvme0n1");
	health_decode_nvme(page, nvme);
	health_decode_ocp(page, nvme);
	check(nvme);
	run.before[0] = *nvme;
	run.before[0].host_written_bytes /= 2; /* a reading before: smaller counters */

	health_init(ata, "sda");
	uint8_t thresholds[HEALTH_PAGE];
	memcpy(thresholds, page + HEALTH_PAGE / 2, HEALTH_PAGE / 2);
	memcpy(thresholds + HEALTH_PAGE / 2, page, HEALTH_PAGE / 2);
	health_decode_ata(page, thresholds, size > 0 && (data[0] & 1) ? "INTEL SSDSC2BB48" : NULL, ata);
	check(ata);
	run.before[1] = *ata;

	uint8_t *exact = malloc(size ? size : 1);
	PROMISE(exact != NULL);
	memcpy(exact, data, size);
	health_init(scsi, "sdb");
	health_decode_scsi_temperature(exact, size, scsi);
	health_decode_scsi_write_errors(exact, size, scsi);
	check(scsi);
	run.before[2] = *scsi;
	free(exact);

	char text[512];
	health_warning_text(data[0 % (size ? size : 1)] * (size > 0), text, sizeof(text));
	render(&run, sink);
	run.after_taken = false;
	render(&run, sink);
	fclose(sink);
	return 0;
}
