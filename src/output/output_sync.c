/* A run with a sync call after every N writes (job files' fsync=N and
 * fdatasync=N, issue 41): the words for its result line, the calls' own
 * latency line, and JSON result.sync, result.sync_lat_ns and
 * result.sync_lat_hist, the figures etcd's check reads (fio's "sync"
 * percentiles).  Nothing for any other run. */
#include <stdio.h>

#include "json.h"
#include "output.h"

static const char *call_name(const struct result *r)
{
	return r->opt && r->opt->sync_data ? "fdatasync" : "fsync";
}

static bool syncs_each(const struct result *r)
{
	return r->opt && r->opt->sync_every > 0;
}

int out_sync_words(char *buf, size_t len, const struct result *r)
{
	const struct options *o = r->opt;
	int n = 0;
	if (syncs_each(r) && o->sync_every == 1)
		n = snprintf(buf, len, ", %s after every write", call_name(r));
	else if (syncs_each(r))
		n = snprintf(buf, len, ", %s after every %u writes", call_name(r), o->sync_every);
	const char *mode = o->sync == SYNC_DSYNC ? "O_DSYNC" : o->sync == SYNC_OSYNC ? "O_SYNC"
			   : o->sync == SYNC_FSYNC ? "fsync at end" : syncs_each(r) ? NULL : "no sync";
	if (mode && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ", %s", mode);
	return n < 0 ? 0 : (size_t)n < len ? n : (int)len - 1;
}

void out_text_sync(FILE *f, const struct result *r)
{
	char label[48];
	if (!syncs_each(r) || r->sync_lat.count == 0)
		return;
	snprintf(label, sizeof(label), "%s latency", call_name(r));
	out_text_latency_named(f, label, &r->sync_lat);
}

void out_json_sync(struct json *j, const struct result *r)
{
	if (!syncs_each(r))
		return;
	struct stats_summary s;
	uint64_t counts[STATS_LOG2_BUCKETS];
	json_key(j, "sync");
	json_object_begin(j);
	json_key(j, "call"), json_string(j, call_name(r));
	json_key(j, "every_writes"), json_uint(j, r->opt->sync_every);
	json_key(j, "calls"), json_uint(j, r->syncs);
	json_key(j, "per_sec"), json_double(j, r->seconds > 0 ? (double)r->syncs / r->seconds : 0, 2);
	json_object_end(j);
	stats_summarize(&r->sync_lat, &s);
	stats_log2_counts(&r->sync_lat, counts);
	out_json_lat_named(j, "sync_lat_ns", &s);
	out_json_lat_hist_named(j, "sync_lat_hist", counts);
}
