/* The latency blocks every JSON renderer writes (a summary, the log2
 * histogram, the whole histogram's buckets): apart from output.c so that
 * the single-test renderers and the mixes' (output_ops.c) both use them. */
#include "output.h"

#include "json.h"

void out_json_lat(struct json *j, const struct stats_summary *s)
{
	json_key(j, "lat_ns");
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
	json_key(j, "lat_hist");
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

/* The scheme's name tells a reader how to turn an index back into a
 * latency: stats_bucket_low() with STATS_SUB_BITS = 7. */
#define LAT_BUCKETS_SCHEME "log-linear-7"
_Static_assert(STATS_SUB_BITS == 7, "lat_buckets names its scheme");

void out_json_lat_buckets(struct json *j, const struct stats *lat)
{
	json_key(j, "lat_buckets");
	json_object_begin(j);
	json_key(j, "scheme"), json_string(j, LAT_BUCKETS_SCHEME);
	json_key(j, "pairs");
	json_array_begin(j);
	for (unsigned i = 0; i < STATS_NBUCKETS; i++) {
		if (lat->bucket[i] == 0)
			continue;
		json_array_begin(j);
		json_uint(j, i);
		json_uint(j, lat->bucket[i]);
		json_array_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}
