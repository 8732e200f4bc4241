/* A mix's figures by operation (rw, randrw, trim, randtrim; issue 31):
 * reads, writes and trims are told apart, never averaged, in text and JSON. */
#include "output.h"

#include <string.h>

#include "json.h"
#include "units.h"

static double op_share(const struct result *r, const struct result_op *o)
{
	return r->ios ? 100.0 * (double)o->ios / (double)r->ios : 0.0;
}

/* "  write: 3072 I/Os (30.0 % of 10240), 12.6 MB (12.0 MiB), 3.07k IOPS,
 *  12.6 MB/s; p50 82.1 us, p99 310 us, max 2.10 ms" */
static void text_op_line(FILE *f, const struct result *r, enum mix_op op)
{
	const struct result_op *o = &r->ops->op[op];
	char si[32], iec[32], rate[32], p50[24], p99[24], max[24];
	double iops = r->seconds > 0 ? (double)o->ios / r->seconds : 0.0;
	fmt_bytes_si(si, sizeof(si), o->bytes);
	fmt_bytes_iec(iec, sizeof(iec), o->bytes);
	fmt_rate_si(rate, sizeof(rate), r->seconds > 0 ? (double)o->bytes / r->seconds : 0.0);
	fmt_ns(p50, sizeof(p50), (double)stats_percentile(&o->lat, 50));
	fmt_ns(p99, sizeof(p99), (double)stats_percentile(&o->lat, 99));
	fmt_ns(max, sizeof(max), (double)o->lat.max);
	fprintf(f, "  %s:%*s %llu I/Os (%.1f %%), %s (%s), %.*f IOPS, %s; p50 %s, p99 %s, max %s",
		mix_op_name(op), (int)(5 - strlen(mix_op_name(op))), "", (unsigned long long)o->ios,
		op_share(r, o), si, iec, iops < 100 ? 1 : 0, iops, rate, p50, p99, max);
	if (op == MIX_TRIM && r->trim_engine)
		fprintf(f, " [%s]", r->trim_engine);
	fputc('\n', f);
}

void out_text_ops(FILE *f, const struct result *r)
{
	if (!r->ops)
		return;
	for (unsigned op = 0; op < MIX_OPS; op++)
		if (mix_has(&r->ops->mix, (enum mix_op)op))
			text_op_line(f, r, (enum mix_op)op);
}

void out_json_ops(struct json *j, const struct result *r)
{
	if (!r->ops)
		return;
	json_key(j, "ops");
	json_object_begin(j);
	for (unsigned op = 0; op < MIX_OPS; op++) {
		const struct result_op *o = &r->ops->op[op];
		struct stats_summary s;
		uint64_t counts[STATS_LOG2_BUCKETS];
		if (!mix_has(&r->ops->mix, (enum mix_op)op))
			continue;
		stats_summarize(&o->lat, &s);
		stats_log2_counts(&o->lat, counts);
		json_key(j, mix_op_name((enum mix_op)op));
		json_object_begin(j);
		json_key(j, "ios"), json_uint(j, o->ios);
		json_key(j, "bytes"), json_uint(j, o->bytes);
		json_key(j, "share_pct"), json_double(j, op_share(r, o), 2);
		json_key(j, "mix_pct"), json_uint(j, r->ops->mix.pct[op]);
		json_key(j, "iops"), json_double(j, r->seconds > 0 ? (double)o->ios / r->seconds : 0, 2);
		json_key(j, "bytes_per_sec"),
			json_double(j, r->seconds > 0 ? (double)o->bytes / r->seconds : 0, 1);
		out_json_lat(j, &s);
		out_json_lat_hist(j, counts);
		json_object_end(j);
	}
	json_object_end(j);
	if (r->trim_engine)
		json_key(j, "trim_engine"), json_string(j, r->trim_engine);
}
