/* result.health as JSON and as text lines: each disk's reading (the one
 * after the run, when there was a run), and over a run the reading before
 * and the change, with the host's writes set against the run's bytes. */
#include "devinfo_health.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "units.h"

static void j_int(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	if (v < 0)
		json_null(j);
	else
		json_uint(j, (uint64_t)v);
}

static void j_pair(struct json *j, const char *key, const int64_t v[2])
{
	json_key(j, key);
	if (v[0] < 0) {
		json_null(j);
		return;
	}
	json_array_begin(j);
	json_uint(j, (uint64_t)v[0]);
	json_uint(j, (uint64_t)v[1]);
	json_array_end(j);
}

static void j_ratio(struct json *j, const char *key, double v)
{
	json_key(j, key);
	if (v < 0)
		json_null(j);
	else
		json_double(j, v, 3);
}

/* the members of one reading (inside an object the caller opened) */
static void json_reading(struct json *j, const struct health *h)
{
	json_key(j, "name"), json_string(j, h->name);
	json_key(j, "controller"), json_string(j, h->controller[0] ? h->controller : NULL);
	json_key(j, "available"), json_bool(j, h->available);
	if (!h->available) {
		json_key(j, "why"), json_string(j, h->why);
		return;
	}
	json_key(j, "source"), json_string(j, h->source);
	json_key(j, "temperature_c");
	if (h->temperature_c == HEALTH_NO_TEMP)
		json_null(j);
	else
		json_double(j, (double)h->temperature_c, 0);
	j_int(j, "critical_warning", h->critical_warning);
	j_int(j, "available_spare_pct", h->available_spare_pct);
	j_int(j, "spare_threshold_pct", h->spare_threshold_pct);
	j_int(j, "percentage_used", h->percentage_used);
	j_int(j, "media_errors", h->media_errors);
	j_int(j, "host_read_bytes", h->host_read_bytes);
	j_int(j, "host_written_bytes", h->host_written_bytes);
	j_int(j, "ata_unit", h->ata_unit);
	json_key(j, "ata_unit_assumed"), json_bool(j, h->ata_unit_assumed);
	j_int(j, "power_on_hours", h->power_on_hours);
	j_int(j, "unsafe_shutdowns", h->unsafe_shutdowns);
	j_int(j, "warning_temp_minutes", h->warning_temp_minutes);
	j_int(j, "critical_temp_minutes", h->critical_temp_minutes);
	j_pair(j, "thermal_transitions", h->thermal_transitions);
	j_pair(j, "thermal_seconds", h->thermal_seconds);
	j_int(j, "nand_written_bytes", h->nand_written_bytes);
	json_key(j, "nand_why"), json_string(j, h->nand_why[0] ? h->nand_why : NULL);
	j_int(j, "reallocated_sectors", h->reallocated_sectors);
	json_key(j, "failing_attribute");
	if (h->failing_attribute > 0) {
		json_object_begin(j);
		json_key(j, "id"), json_uint(j, (uint64_t)h->failing_attribute);
		json_key(j, "value"), json_uint(j, (uint64_t)h->failing_value);
		json_key(j, "threshold"), json_uint(j, (uint64_t)h->failing_threshold);
		json_object_end(j);
	} else {
		json_null(j);
	}
	j_int(j, "uncorrected_write_errors", h->uncorrected_write_errors);
}

static void json_delta(struct json *j, const struct health_delta *d)
{
	json_object_begin(j);
	j_int(j, "host_read_bytes", d->host_read_bytes);
	j_int(j, "host_written_bytes", d->host_written_bytes);
	j_int(j, "nand_written_bytes", d->nand_written_bytes);
	j_ratio(j, "write_amplification", d->write_amplification);
	j_int(j, "media_errors", d->media_errors);
	j_int(j, "reallocated_sectors", d->reallocated_sectors);
	j_int(j, "thermal_transitions", d->thermal_transitions);
	j_int(j, "thermal_seconds", d->thermal_seconds);
	json_object_end(j);
}

/* the reason shown when no disk could be read */
static const char *run_why(const struct health_run *run)
{
	if (!run || run->n == 0)
		return "no disk under the target";
	const struct health *last = run->after_taken ? run->after : run->before;
	for (unsigned i = 0; i < run->n; i++)
		if (last[i].available)
			return NULL;
	return last[0].why;
}

/* The host's bytes in the run's direction against what diskbench moved
 * there (moved < 0: not known): near 1 when the disk saw the run and
 * little else. */
static double host_vs_run(const struct health_run *run, const struct health_delta *t,
			  int64_t moved)
{
	int64_t host = run->run_wrote ? t->host_written_bytes : t->host_read_bytes;
	return host >= 0 && moved > 0 ? (double)host / (double)moved : -1;
}

/* run_bytes, its reason when not known, and host_vs_run */
static void json_moved(struct json *j, const struct health_run *run, const struct health_delta *d,
		       int64_t moved, const char *why)
{
	j_int(j, "run_bytes", moved);
	json_key(j, "run_bytes_why"), json_string(j, moved < 0 ? why : NULL);
	j_ratio(j, "host_vs_run", host_vs_run(run, d, moved));
}

void health_json(struct json *j, const struct health_run *run)
{
	const char *why = run_why(run);
	json_object_begin(j);
	json_key(j, "available"), json_bool(j, why == NULL);
	json_key(j, "why"), json_string(j, why);
	json_key(j, "disks");
	json_array_begin(j);
	for (unsigned i = 0; run && i < run->n; i++) {
		json_object_begin(j);
		json_reading(j, run->after_taken ? &run->after[i] : &run->before[i]);
		if (run->after_taken && run->before[i].available && run->after[i].available) {
			struct health_delta d;
			health_delta(&run->before[i], &run->after[i], &d);
			json_key(j, "before");
			json_object_begin(j);
			json_reading(j, &run->before[i]);
			json_object_end(j);
			json_key(j, "delta");
			json_delta(j, &d);
			bool shared;
			int64_t moved = health_controller_bytes(run, i, &shared);
			json_moved(j, run, &d, moved, moved < 0 && !shared ? run->disk_bytes_why[i]
						      : "the share of a disk on this controller is not known");
			json_key(j, "controller_shared"), json_bool(j, shared);
		}
		json_object_end(j);
	}
	json_array_end(j);
	json_key(j, "disks_left_out"), json_uint(j, run ? run->left_out : 0);
	if (run && run->after_taken && why == NULL) {
		struct health_delta t;
		bool known = run->run_bytes_why[0] == '\0';
		health_run_totals(run, &t);
		json_key(j, "delta");
		json_delta(j, &t);
		json_moved(j, run, &t, known ? (int64_t)run->run_bytes : -1, run->run_bytes_why);
	}
	json_object_end(j);
}

/* ---- text ---------------------------------------------------------------- */

struct line {
	char buf[512];
	size_t used;
};

static void put(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct line *l, const char *fmt, ...)
{
	if (l->used >= sizeof(l->buf))
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(l->buf + l->used, sizeof(l->buf) - l->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->used += (size_t)n;
}

static void put_bytes(struct line *l, const char *what, int64_t bytes)
{
	char b[32];
	if (bytes < 0)
		return;
	fmt_bytes_si(b, sizeof(b), (uint64_t)bytes);
	put(l, ", %s %s", b, what);
}

static void text_reading(FILE *f, const struct health *h)
{
	struct line l = { .used = 0 };
	static const char *const source_names[][2] = {
		{ "nvme", "NVMe log 02h" }, { "ata", "ATA SMART" }, { "scsi", "SCSI log pages" },
	};
	const char *src = h->source;
	for (size_t i = 0; i < sizeof(source_names) / sizeof(source_names[0]); i++)
		if (src && strcmp(src, source_names[i][0]) == 0)
			src = source_names[i][1];
	put(&l, "health: %s (%s)", h->name, src ? src : "?");
	if (h->temperature_c != HEALTH_NO_TEMP)
		put(&l, ": %lld C", (long long)h->temperature_c);
	if (h->critical_warning >= 0) {
		char w[256];
		health_warning_text(h->critical_warning, w, sizeof(w));
		put(&l, ", critical warning %s", h->critical_warning ? w : "none");
	}
	if (h->available_spare_pct >= 0)
		put(&l, ", spare %d %% (threshold %d %%), %d %% used", h->available_spare_pct,
		    h->spare_threshold_pct, h->percentage_used);
	if (h->media_errors >= 0)
		put(&l, ", %lld media errors", (long long)h->media_errors);
	if (h->reallocated_sectors >= 0)
		put(&l, ", %lld reallocated sectors", (long long)h->reallocated_sectors);
	if (h->failing_attribute > 0)
		put(&l, ", attribute %d FAILING (%d <= threshold %d)", h->failing_attribute,
		    h->failing_value, h->failing_threshold);
	put_bytes(&l, "written", h->host_written_bytes);
	put_bytes(&l, "read", h->host_read_bytes);
	if (h->ata_unit_assumed)
		put(&l, " (ATA 241/242 counted as 512-byte units: this model's unit is not known)");
	put_bytes(&l, "written to NAND", h->nand_written_bytes);
	if (h->power_on_hours >= 0)
		put(&l, ", %lld h powered on", (long long)h->power_on_hours);
	fprintf(f, "%s\n", l.buf);
}

static void text_change(FILE *f, const struct health_run *run, unsigned i)
{
	const struct health *b = &run->before[i], *a = &run->after[i];
	struct health_delta d;
	struct line l = { .used = 0 };
	health_delta(b, a, &d);
	put(&l, "health: %s over the run", a->name);
	int64_t host = run->run_wrote ? d.host_written_bytes : d.host_read_bytes;
	bool shared;
	int64_t on_it = health_controller_bytes(run, i, &shared);
	if (host >= 0) {
		char moved[32];
		fmt_bytes_si(moved, sizeof(moved), (uint64_t)host);
		put(&l, ": the host %s %s", run->run_wrote ? "wrote" : "read", moved);
		if (shared)
			put(&l, " on controller %s, all its namespaces", a->controller);
		if (on_it > 0)
			put(&l, " (%.2f x the run's bytes%s)", (double)host / (double)on_it,
			    shared ? " on them" : "");
		else if (!shared && run->disk_bytes_why[i])
			put(&l, " (the run's bytes on it: not known, %s)", run->disk_bytes_why[i]);
		if (a->ata_unit_assumed)
			put(&l, " (512-byte units assumed: this model's unit is not known)");
	}
	if (d.write_amplification >= 0)
		put(&l, ", write amplification %.2f", d.write_amplification);
	if (d.media_errors > 0)
		put(&l, ", %lld new media errors", (long long)d.media_errors);
	if (d.reallocated_sectors > 0)
		put(&l, ", %lld newly reallocated sectors", (long long)d.reallocated_sectors);
	if (d.thermal_transitions > 0)
		put(&l, ", %lld thermal throttling transitions (%lld s)",
		    (long long)d.thermal_transitions, (long long)d.thermal_seconds);
	if (b->temperature_c != HEALTH_NO_TEMP && a->temperature_c != HEALTH_NO_TEMP)
		put(&l, ", %lld -> %lld C", (long long)b->temperature_c, (long long)a->temperature_c);
	fprintf(f, "%s\n", l.buf);
}

void health_text(FILE *f, const struct health_run *run, bool only_available)
{
	for (unsigned i = 0; run && i < run->n; i++) {
		const struct health *h = run->after_taken ? &run->after[i] : &run->before[i];
		if (!h->available) {
			if (!only_available)
				fprintf(f, "health: %s: unavailable: %s\n", h->name, h->why);
		} else if (run->after_taken && run->before[i].available) {
			text_change(f, run, i);
		} else {
			text_reading(f, h);
		}
	}
	if (!only_available && (!run || run->n == 0))
		fprintf(f, "health: no disk under the target\n");
	else if (run && run->left_out && (!only_available || !run_why(run)))
		fprintf(f, "health: %u more disk%s not read (at most %d are)\n", run->left_out,
			run->left_out == 1 ? "" : "s", HEALTH_MAX_DISKS);
}
