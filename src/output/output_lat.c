/* The latency lines and JSON objects every renderer uses: a closed-loop
 * run's latency, an open-loop run's response and service times, and the
 * latency histogram (--histogram). */
#include "output.h"

#include <string.h>

#include "json.h"
#include "units.h"

void out_text_latency_line(FILE *f, const struct stats *lat)
{
	out_text_latency_named(f, "latency", lat);
}

void out_text_latency_named(FILE *f, const char *label, const struct stats *lat)
{
	struct stats_summary s;
	char v[8][24];
	stats_summarize(lat, &s);
	fmt_ns(v[0], sizeof(v[0]), (double)s.min);
	fmt_ns(v[1], sizeof(v[1]), s.mean);
	fmt_ns(v[2], sizeof(v[2]), (double)s.p50);
	fmt_ns(v[3], sizeof(v[3]), (double)s.p90);
	fmt_ns(v[4], sizeof(v[4]), (double)s.p99);
	fmt_ns(v[5], sizeof(v[5]), (double)s.p99_9);
	fmt_ns(v[6], sizeof(v[6]), (double)s.max);
	fmt_ns(v[7], sizeof(v[7]), s.stdev);
	fprintf(f, "%s: min %s, mean %s, p50 %s, p90 %s, p99 %s, p99.9 %s, max %s "
		"(stdev %s, %llu I/Os)\n", label, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
		(unsigned long long)s.count);
}

void out_json_lat(struct json *j, const struct stats_summary *s)
{
	out_json_lat_named(j, "lat_ns", s);
}

void out_json_lat_named(struct json *j, const char *key, const struct stats_summary *s)
{
	json_key(j, key);
	json_object_begin(j);
	json_key(j, "min"), json_uint(j, s->min);
	json_key(j, "mean"), json_double(j, s->mean, 1);
	json_key(j, "max"), json_uint(j, s->max);
	json_key(j, "stdev"), json_double(j, s->stdev, 1);
	json_key(j, "p50"), json_uint(j, s->p50);
	json_key(j, "p90"), json_uint(j, s->p90);
	json_key(j, "p99"), json_uint(j, s->p99);
	json_key(j, "p99_9"), json_uint(j, s->p99_9);
	json_object_end(j);
}

void out_json_lat_hist(struct json *j, const uint64_t counts[STATS_LOG2_BUCKETS])
{
	out_json_lat_hist_named(j, "lat_hist", counts);
}

void out_json_lat_hist_named(struct json *j, const char *key,
			     const uint64_t counts[STATS_LOG2_BUCKETS])
{
	json_key(j, key);
	json_array_begin(j);
	for (unsigned k = 0; k < STATS_LOG2_BUCKETS; k++) {
		if (counts[k] == 0)
			continue;
		json_object_begin(j);
		json_key(j, "le_ns"), json_uint(j, k + 1 < 64 ? (1ull << (k + 1)) - 1 : UINT64_MAX);
		json_key(j, "count"), json_uint(j, counts[k]);
		json_object_end(j);
	}
	json_array_end(j);
}

void out_histogram_counts(FILE *f, const uint64_t counts[STATS_LOG2_BUCKETS], uint64_t total)
{
	uint64_t peak = 0, cum = 0;
	unsigned lo = STATS_LOG2_BUCKETS, hi = 0;
	for (unsigned k = 0; k < STATS_LOG2_BUCKETS; k++) {
		if (counts[k] == 0)
			continue;
		lo = k < lo ? k : lo;
		hi = k;
		peak = counts[k] > peak ? counts[k] : peak;
	}
	if (peak == 0)
		return;
	fprintf(f, "latency histogram:\n%21s %12s %7s %7s\n", "range", "count", "%", "cum %");
	for (unsigned k = lo; k <= hi; k++) {
		char from[24], to[24], bar[41];
		fmt_ns(from, sizeof(from), k == 0 ? 0.0 : (double)(1ull << k));
		fmt_ns(to, sizeof(to), (double)(1ull << (k + 1 < 64 ? k + 1 : 63)));
		cum += counts[k];
		size_t width = (size_t)((counts[k] * 40 + peak - 1) / peak);
		memset(bar, '#', width);
		bar[width] = '\0';
		fprintf(f, "%9s - %9s %12llu %6.2f%% %6.2f%% %s\n", from, to,
			(unsigned long long)counts[k], 100.0 * (double)counts[k] / (double)total,
			100.0 * (double)cum / (double)total, bar);
	}
}

void out_histogram(FILE *f, const struct stats *lat)
{
	uint64_t counts[STATS_LOG2_BUCKETS];
	stats_log2_counts(lat, counts);
	out_histogram_counts(f, counts, lat->count);
}
