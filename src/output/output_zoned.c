/* A zoned device's run (issue 31): the zones of the region, and how the
 * writes used them (open at once, one write in flight in each, the resets
 * and their times) or what the reads could read (below the write pointers). */
#include "output.h"

#include <string.h>

#include "json.h"
#include "units.h"

static const char *model_of(const struct result_zoned *z)
{
	return z->model[0] ? z->model : "model unknown";
}

/* "; 3 zone resets: p50 1.20 ms, p99 3.10 ms, max 4.00 ms" */
static void text_resets(FILE *f, const struct result_zoned *z)
{
	char p50[24], p99[24], max[24];
	if (z->resets == 0) {
		fputs("; no zone reset", f);
		return;
	}
	fmt_ns(p50, sizeof(p50), (double)stats_percentile(&z->reset_lat, 50));
	fmt_ns(p99, sizeof(p99), (double)stats_percentile(&z->reset_lat, 99));
	fmt_ns(max, sizeof(max), (double)z->reset_lat.max);
	fprintf(f, "; %llu zone reset%s (timed, in the run): p50 %s, p99 %s, max %s",
		(unsigned long long)z->resets, z->resets == 1 ? "" : "s", p50, p99, max);
}

void out_text_zoned(FILE *f, const struct result *r)
{
	const struct result_zoned *z = r->zoned;
	char zone[32], cap[32], readable[32];
	if (!z)
		return;
	fmt_bytes_iec(zone, sizeof(zone), z->zone_bytes);
	fmt_bytes_iec(cap, sizeof(cap), z->zone_capacity_bytes);
	fprintf(f, "  zoned (%s): %u zones of %s", model_of(z), z->zones, zone);
	if (z->writes && z->zone_capacity_bytes < z->zone_bytes)
		fprintf(f, " (capacity %s)", cap);
	if (!z->writes) {
		fmt_bytes_iec(readable, sizeof(readable), z->readable_bytes);
		fprintf(f, ", read below the write pointers: %s%s\n", readable,
			z->conventional ? " (conventional zones whole)" : "");
		return;
	}
	fprintf(f, ", written at each write pointer: %u open at once, one write in flight in each",
		z->open_limit);
	text_resets(f, z);
	if (z->reset_before)
		fprintf(f, "; %llu part-written zone%s emptied before the run",
			(unsigned long long)z->reset_before, z->reset_before == 1 ? "" : "s");
	fputc('\n', f);
}

static void json_limit(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	v < 0 ? json_null(j) : json_uint(j, (uint64_t)v);
}

static void json_resets(struct json *j, const struct result_zoned *z)
{
	struct stats_summary s;
	json_key(j, "zones_reset_before"), json_uint(j, z->reset_before);
	json_key(j, "zone_resets");
	json_object_begin(j);
	json_key(j, "count"), json_uint(j, z->resets);
	stats_summarize(&z->reset_lat, &s);
	out_json_lat(j, &s);
	json_object_end(j);
}

void out_json_zoned(struct json *j, const struct result *r)
{
	const struct result_zoned *z = r->zoned;
	if (!z)
		return;
	json_key(j, "zoned");
	json_object_begin(j);
	json_key(j, "model"), json_string(j, z->model[0] ? z->model : NULL);
	json_key(j, "zone_bytes"), json_uint(j, z->zone_bytes);
	json_key(j, "zone_capacity_bytes"), json_uint(j, z->zone_capacity_bytes);
	json_key(j, "zones"), json_uint(j, z->zones);
	json_key(j, "sequential_zones"), json_uint(j, z->sequential);
	json_key(j, "conventional_zones"), json_uint(j, z->conventional);
	json_limit(j, "device_max_open", z->device_max_open);
	json_limit(j, "device_max_active", z->device_max_active);
	json_key(j, "writes"), json_bool(j, z->writes);
	json_key(j, "open_limit");
	z->writes ? json_uint(j, z->open_limit) : json_null(j);
	json_key(j, "readable_bytes");
	z->writes ? json_null(j) : json_uint(j, z->readable_bytes);
	if (z->writes)
		json_resets(j, z);
	json_object_end(j);
}
