#include "output.h"

#include <string.h>

#include "devinfo.h"
#include "devinfo_health.h"
#include "json.h"
#include "names.h"
#include "output_series.h"
#include "units.h"

double result_rate(const struct result *r)
{
	return r->seconds > 0 ? (double)r->bytes / r->seconds : 0.0;
}

double result_iops(const struct result *r)
{
	return r->seconds > 0 ? (double)r->ios / r->seconds : 0.0;
}

static bool is_write(const struct result *r)
{
	return r->dir == IO_WRITE && (!r->ops || mix_has(&r->ops->mix, MIX_WRITE));
}

double result_requests_per_submit(const struct result *r)
{
	return r->submit_calls ? (double)r->submitted / (double)r->submit_calls : 0.0;
}

/* Completions taken per system call that waited for or took them (0: no
 * such calls, as with the sync engine). */
static double completions_per_reap(const struct result *r)
{
	return r->reap_calls ? (double)r->reaped / (double)r->reap_calls : 0.0;
}

/* The factors in which the run differs from what fio and dd do by default
 * (4 KiB-page buffers, one request per submit call, one pass over the
 * region), so that a figure beside theirs says why it differs:
 * ", huge-page buffers (1.0 segments/request), 11.8 requests/submit, -t: 3.2 passes" */
static void describe_factors(char *buf, size_t len, const struct result *r)
{
	int n = 0;
	double per_submit = result_requests_per_submit(r);
	if (r->huge_buffers && r->buffer_segments >= 0)
		n += snprintf(buf + n, len - (size_t)n, ", huge-page buffers (%.1f segments/request)",
			      r->buffer_segments);
	else if (r->huge_buffers)
		n += snprintf(buf + n, len - (size_t)n, ", huge-page buffers");
	if (per_submit >= 1.05)
		n += snprintf(buf + n, len - (size_t)n, ", %.1f requests/submit", per_submit);
	if (completions_per_reap(r) >= 1.05)
		n += snprintf(buf + n, len - (size_t)n, ", %.1f completions/reap",
			      completions_per_reap(r));
	if (r->registration_why[0])
		n += snprintf(buf + n, len - (size_t)n, ", %s", r->registration_why);
	if (r->opt && r->opt->poll)
		n += snprintf(buf + n, len - (size_t)n, ", polled completions (--poll)");
	if (r->opt && r->opt->sqpoll)
		n += snprintf(buf + n, len - (size_t)n, ", a kernel thread submits (--sqpoll)");
	if (!r->ended)
		return;
	if (strcmp(r->ended, "time") == 0)
		snprintf(buf + n, len - (size_t)n, ", -t: %.2f %s", r->passes,
			 r->passes > 1.0 ? "passes (wrapped)" : "of a pass");
	else if (strcmp(r->ended, "one pass") == 0 && r->opt->once)
		snprintf(buf + n, len - (size_t)n, ", one pass (--once)");
	else if (strcmp(r->ended, "one pass") == 0 && r->opt->time_s > 0)
		snprintf(buf + n, len - (size_t)n, ", one pass, before -t");
	else if (strcmp(r->ended, "steady") == 0)
		snprintf(buf + n, len - (size_t)n, ", ended when steady");
}

/* "[bs=1 MiB, O_DIRECT, O_DSYNC, new file]" */
static void describe_mode(char *buf, size_t len, const struct result *r)
{
	const struct options *o = r->opt;
	char bs[32], region[32];
	fmt_size_exact(bs, sizeof(bs), o->bs);
	int n = snprintf(buf, len, "bs=%s", bs);
	if (r->ops && r->ops->mix.pct[MIX_TRIM] < 100) { /* a trim test's name says it */
		n += snprintf(buf + n, len - (size_t)n, ", mix ");
		n += mix_format(&r->ops->mix, buf + n, len - (size_t)n);
	}
	if (r->open_loop.on)
		n += snprintf(buf + n, len - (size_t)n, ", open loop at %.0f IOPS, %u in flight at most",
			      r->open_loop.rate_asked, r->open_loop.cap);
	else if (o->qd > 1)
		n += snprintf(buf + n, len - (size_t)n, ", qd %u \u00d7 %u thread%s = %u in flight",
			      o->qd, o->threads, o->threads == 1 ? "" : "s", o->qd * o->threads);
	else if (o->threads > 1)
		n += snprintf(buf + n, len - (size_t)n, ", %u threads", o->threads);
	if (r->engine_label && (o->accepts & OPT_ENGINE))
		n += snprintf(buf + n, len - (size_t)n, ", %s", r->engine_label);
	if (r->primed) {
		fmt_size_exact(region, sizeof(region), r->region);
		n += snprintf(buf + n, len - (size_t)n, ", region %s, page cache", region);
	} else {
		n += snprintf(buf + n, len - (size_t)n, ", %s", o->direct ? "O_DIRECT" : "page cache");
	}
	if (is_write(r))
		n += out_sync_words(buf + n, len - (size_t)n, r);
	if (r->ntargets > 1) /* each target's state is on its own line */
		n += snprintf(buf + n, len - (size_t)n, ", %u targets", r->ntargets);
	else if (r->file_state)
		n += snprintf(buf + n, len - (size_t)n, ", %s%s", r->file_state,
			      strcmp(r->file_state, "device") == 0 ? "" : " file");
	describe_factors(buf + n, len - (size_t)n, r);
}

void out_text_result_line(FILE *f, const struct result *r)
{
	char si[32], iec[32], rate_si[32], rate_iec[32], mode[320];
	double rate = result_rate(r), iops = result_iops(r);
	fmt_bytes_si(si, sizeof(si), r->bytes);
	fmt_bytes_iec(iec, sizeof(iec), r->bytes);
	fmt_rate_si(rate_si, sizeof(rate_si), rate);
	fmt_rate_iec(rate_iec, sizeof(rate_iec), rate);
	describe_mode(mode, sizeof(mode), r);
	fprintf(f, "%s: %llu bytes (%s, %s) in %.3f s = %s (%s), %.*f IOPS [%s]\n", r->test,
		(unsigned long long)r->bytes, si, iec, r->seconds, rate_si, rate_iec,
		iops < 100 ? 1 : 0, iops, mode);
}

static double per_second(uint64_t n, double seconds)
{
	return seconds > 0 ? (double)n / seconds : 0.0;
}

/* "  /dev/sdc (sdc, device): 1073741824 bytes in 10.0 s = 107 MB/s (102 MiB/s),
 * 26.2k IOPS, p50 301 us, p99 1.20 ms" */
static void text_target_line(FILE *f, const struct result_target *t)
{
	char rate_si[32], rate_iec[32], p50[24], p99[24];
	double rate = per_second(t->bytes, t->seconds), iops = per_second(t->ios, t->seconds);
	const char *dev = t->device && t->device->has_top ? t->device->top.name : "";
	const char *state = t->file_state ? t->file_state : "";
	fmt_rate_si(rate_si, sizeof(rate_si), rate);
	fmt_rate_iec(rate_iec, sizeof(rate_iec), rate);
	fmt_ns(p50, sizeof(p50), t->lat ? (double)stats_percentile(t->lat, 50) : 0);
	fmt_ns(p99, sizeof(p99), t->lat ? (double)stats_percentile(t->lat, 99) : 0);
	fprintf(f, "  %s (%s%s%s%s): %llu bytes in %.3f s = %s (%s), %.*f IOPS, p50 %s, p99 %s\n",
		t->target, dev, dev[0] && state[0] ? ", " : "", state,
		state[0] && strcmp(state, "device") != 0 ? " file" : "", (unsigned long long)t->bytes,
		t->seconds, rate_si, rate_iec, iops < 100 ? 1 : 0, iops, p50, p99);
}

void out_text_targets(FILE *f, const struct result *r)
{
	for (unsigned k = 0; k < r->ntargets; k++)
		text_target_line(f, &r->targets[k]);
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

void out_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	out_text_result_line(f, r);
	out_text_ops(f, r);
	out_text_zoned(f, r);
	out_text_targets(f, r);
	if (quiet)
		return;
	if (r->open_loop.on)
		out_text_open_loop(f, r);
	else if (r->lat.count > 0)
		out_text_latency_line(f, &r->lat);
	out_text_sync(f, r);
	out_text_series(f, r);
	health_text(f, r->health, true);
	out_text_cache_line(f, r);
	if (histogram)
		out_histogram(f, &r->lat);
}

void out_json_params(struct json *j, const struct result *r, unsigned flags)
{
	const struct options *o = r->opt;
	json_key(j, "params");
	json_object_begin(j);
	json_key(j, "block_size");
	flags & PARAMS_NO_SIZES ? json_null(j) : json_uint(j, o->bs);
	json_key(j, "size");
	flags & PARAMS_NO_SIZES ? json_null(j) : json_uint(j, o->size);
	json_key(j, "time_limit_s");
	flags & PARAMS_NO_TIME_LIMIT ? json_null(j) : json_double(j, o->time_s, 3);
	json_key(j, "direct"), json_bool(j, o->direct);
	json_key(j, "sync"), json_string(j, is_write(r) ? sync_mode_name(o->sync) : NULL);
	json_key(j, "threads");
	flags & PARAMS_NO_THREADS ? json_null(j) : json_uint(j, o->threads);
	json_key(j, "drop_caches"),
		json_string(j, r->evicted && !r->primed ? drop_mode_name(o->drop) : NULL);
	json_key(j, "data"), json_string(j, o->zeros ? "zeros" : "random");
	json_key(j, "seed"), json_uint(j, o->seed);
	json_key(j, "warmup_ios"), json_uint(j, r->warmup_ios);
	json_key(j, "qd");
	flags & PARAMS_NO_QD ? json_null(j) : json_uint(j, o->qd);
	json_key(j, "engine"), json_string(j, r->engine);
	json_key(j, "file_state"), json_string(j, r->file_state);
	json_key(j, "region");
	flags & PARAMS_NO_SIZES ? json_null(j) : json_uint(j, r->region);
	json_key(j, "buffer"), json_string(j, r->huge_buffers ? "huge pages" : "pages");
	json_key(j, "buffers"), json_string(j, buffer_mode_name(o->buffers));
	json_key(j, "batch");
	o->batch ? json_uint(j, o->batch) : json_null(j);
	json_key(j, "reap"), json_string(j, reap_mode_name(o->reap));
	json_key(j, "poll"), json_bool(j, o->poll);
	json_key(j, "sqpoll"), json_bool(j, o->sqpoll);
	json_key(j, "once"), json_bool(j, o->once);
	if (mix_set(&o->mix)) { /* rw, randrw, trim, randtrim */
		char mix[32];
		mix_format(&o->mix, mix, sizeof(mix));
		json_key(j, "mix"), json_string(j, mix);
	}
	json_object_end(j);
}

static void json_tristate(struct json *j, int v)
{
	v < 0 ? json_null(j) : json_bool(j, v);
}

/* How completions were taken and what io_uring registered (issue 32). */
static void out_json_reap(struct json *j, const struct result *r)
{
	bool known = r->engine_facts && r->engine;
	bool inline_done = known && strcmp(r->engine, "sync") == 0;
	json_key(j, "reap");
	json_object_begin(j);
	json_key(j, "mode");
	json_string(j, inline_done ? "inline" : r->opt ? reap_mode_name(r->opt->reap) : NULL);
	json_key(j, "calls");
	inline_done || !known ? json_null(j) : json_uint(j, r->reap_calls);
	json_key(j, "completions_per_call");
	completions_per_reap(r) > 0 ? json_double(j, completions_per_reap(r), 2) : json_null(j);
	json_object_end(j);
	json_key(j, "registered");
	json_object_begin(j);
	json_key(j, "buffers"), json_tristate(j, known ? r->fixed_buffers : -1);
	json_key(j, "file"), json_tristate(j, known ? r->fixed_file : -1);
	json_key(j, "why"), json_string(j, r->registration_why[0] ? r->registration_why : NULL);
	json_object_end(j);
}

/* What moved the figure, as it happened (issue 19): the buffer's backing
 * and segments, requests per submit call, engine, requests in flight, what
 * ended the run and how often it went round its region. */
void out_json_factors(struct json *j, const struct result *r)
{
	double per_submit = result_requests_per_submit(r);
	json_key(j, "buffer");
	json_object_begin(j);
	json_key(j, "backing"), json_string(j, r->huge_buffers ? "huge pages" : "pages");
	json_key(j, "segments_per_request");
	r->buffer_segments >= 0 ? json_double(j, r->buffer_segments, 2) : json_null(j);
	json_object_end(j);
	json_key(j, "requests_per_submit");
	per_submit > 0 ? json_double(j, per_submit, 2) : json_null(j);
	out_json_reap(j, r);
	json_key(j, "engine"), json_string(j, r->engine);
	json_key(j, "in_flight");
	r->opt && r->engine ? json_uint(j, (uint64_t)(r->opt->qd ? r->opt->qd : 1) * r->opt->threads)
			    : json_null(j);
	json_key(j, "ended"), json_string(j, r->ended);
	json_key(j, "passes"), json_double(j, r->passes, 3);
	json_key(j, "wrapped"), json_bool(j, r->passes > 1.0);
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

static void json_latency(struct json *j, const struct stats *lat)
{
	struct stats_summary s;
	uint64_t counts[STATS_LOG2_BUCKETS];
	stats_summarize(lat, &s);
	stats_log2_counts(lat, counts);
	out_json_lat(j, &s);
	out_json_lat_hist(j, counts);
	out_json_lat_buckets(j, lat);
}

static void json_result(struct json *j, const struct result *r)
{
	json_key(j, "result");
	if (!r->measured) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_key(j, "bytes"), json_uint(j, r->bytes);
	json_key(j, "ios"), json_uint(j, r->ios);
	json_key(j, "seconds"), json_double(j, r->seconds, 6);
	json_key(j, "bytes_per_sec"), json_double(j, result_rate(r), 1);
	json_key(j, "iops"), json_double(j, result_iops(r), 2);
	json_latency(j, &r->lat);
	out_json_sync(j, r);
	out_json_open_loop(j, r);
	out_json_ops(j, r);
	out_json_zoned(j, r);
	out_json_qd_hist(j, r->qd_hist);
	out_json_series(j, r);
	out_json_factors(j, r);
	if (r->health) { /* the commands that read it around their run */
		json_key(j, "health");
		health_json(j, r->health);
	}
	json_object_end(j);
}

void out_json_qd_hist(struct json *j, const uint64_t hist[RESULT_QD_BUCKETS])
{
	static const char *const depth[RESULT_QD_BUCKETS] = { "1", "2-3", "4-7", "8-15", "16-31",
							     "32-63", "64+" };
	json_key(j, "qd_hist");
	json_object_begin(j);
	for (unsigned b = 0; b < RESULT_QD_BUCKETS; b++)
		json_key(j, depth[b]), json_uint(j, hist[b]);
	json_object_end(j);
}

/* The keys of one test, inside an object the caller opened. */
static void json_warnings(struct json *j, const struct result *r)
{
	json_key(j, "warnings");
	json_array_begin(j);
	for (unsigned i = 0; i < r->nwarnings; i++)
		json_string(j, r->warnings[i]);
	json_array_end(j);
	out_json_findings(j, r);
	json_key(j, "interrupted"), json_bool(j, r->interrupted);
	if (r->error[0])
		json_key(j, "error"), json_string(j, r->error);
}

void out_json_file_device(struct json *j, const struct result *r)
{
	json_key(j, "file"), json_string(j, r->file[0] ? r->file : NULL);
	if (r->device)
		json_key(j, "device"), devinfo_json_device(j, r->device);
}

/* One of several targets: what it is, and its part of the figures (null
 * when the run did not measure). */
static void json_target(struct json *j, const struct result *r, const struct result_target *t)
{
	bool figures = r->measured && t->lat;
	json_object_begin(j);
	json_key(j, "target"), json_string(j, t->target);
	json_key(j, "file"), json_string(j, t->file);
	json_key(j, "file_state"), json_string(j, t->file_state);
	json_key(j, "device");
	t->device ? devinfo_json_device(j, t->device) : json_null(j);
	json_key(j, "region"), json_uint(j, t->region);
	json_key(j, "threads"); /* null: a sweep's, which change from point to point */
	t->threads ? json_uint(j, t->threads) : json_null(j);
	json_key(j, "resident_before_pct");
	r->evicted && t->resident_before_pct >= 0 ? json_double(j, t->resident_before_pct, 2)
						  : json_null(j);
	json_key(j, "bytes"), figures ? json_uint(j, t->bytes) : json_null(j);
	json_key(j, "ios"), figures ? json_uint(j, t->ios) : json_null(j);
	json_key(j, "seconds"), figures ? json_double(j, t->seconds, 6) : json_null(j);
	json_key(j, "bytes_per_sec");
	figures ? json_double(j, per_second(t->bytes, t->seconds), 1) : json_null(j);
	json_key(j, "iops");
	figures ? json_double(j, per_second(t->ios, t->seconds), 2) : json_null(j);
	if (figures)
		json_latency(j, t->lat);
	else
		json_key(j, "lat_ns"), json_null(j);
	json_object_end(j);
}

void out_json_targets(struct json *j, const struct result *r)
{
	if (r->ntargets < 2)
		return;
	json_key(j, "targets");
	json_array_begin(j);
	for (unsigned k = 0; k < r->ntargets; k++)
		json_target(j, r, &r->targets[k]);
	json_array_end(j);
}

void out_json_single_body(struct json *j, const struct result *r)
{
	out_json_file_device(j, r);
	if (r->opt)
		out_json_params(j, r, 0);
	json_result(j, r);
	out_json_cache(j, r);
	out_json_targets(j, r);
}

void out_json_test_fields(struct json *j, const struct result *r, out_json_body_fn body)
{
	json_key(j, "test"), json_string(j, r->test);
	json_key(j, "target"), json_string(j, r->target);
	body(j, r);
	json_warnings(j, r);
}

void out_json_envelope(struct json *j)
{
	json_key(j, "schema"), json_uint(j, JSON_SCHEMA);
	json_key(j, "tool"), json_string(j, "diskbench");
	json_key(j, "version"), json_string(j, DISKBENCH_VERSION);
}

void out_json_test(struct json *j, const struct result *r)
{
	out_json_test_step(j, r, NULL);
}

void out_json_test_step(struct json *j, const struct result *r, const char *step)
{
	json_object_begin(j);
	if (step)
		json_key(j, "step"), json_string(j, step);
	out_json_test_fields(j, r, out_json_single_body);
	json_object_end(j);
}

static void json_document(FILE *f, const struct result *r, out_json_body_fn body, bool fleet)
{
	struct json j;
	json_init(&j, f);
	json_object_begin(&j);
	out_json_envelope(&j);
	if (fleet && r->fleet)
		out_json_fleet(&j, r->fleet);
	out_json_test_fields(&j, r, body);
	json_object_end(&j);
	fputc('\n', f);
}

void out_json_document(FILE *f, const struct result *r, out_json_body_fn body)
{
	json_document(f, r, body, false);
}

void out_json_line(FILE *f, const struct result *r, out_json_body_fn body)
{
	json_document(f, r, body, true);
}

void out_json(FILE *f, const struct result *r)
{
	out_json_document(f, r, out_json_single_body);
}

void out_csv_header(FILE *f)
{
	fputs(OUT_CSV_HEADER "\n", f);
}

/* What one CSV row says: a whole test, one of several targets, or their
 * total; notes: the row is the run's, with the warnings, the error and a
 * mix's operations (which are not counted per target). */
struct csv_part {
	const char *target;
	uint64_t bytes, ios;
	double seconds;
	const struct stats *lat;
	unsigned threads;
	double resident_before_pct;
	bool measured, notes;
	const char *step, *verdict; /* a step of a command of several, and its verdict */
};

/* Figure columns: a run that did not finish leaves them empty, since the
 * contract never prints partial figures as a result. */
static void csv_figures(FILE *f, const struct csv_part *p, const struct stats_summary *s,
			bool first_part)
{
	if (!p->measured) {
		fputs(first_part ? ",,,,,," : ",,,,,", f);
		return;
	}
	if (first_part)
		fprintf(f, ",%llu,%.6f,%.1f,%.2f,%llu,%llu", (unsigned long long)p->bytes, p->seconds,
			per_second(p->bytes, p->seconds), per_second(p->ios, p->seconds),
			(unsigned long long)s->p50, (unsigned long long)s->p99);
	else
		fprintf(f, ",%llu,%.1f,%llu,%llu,%llu", (unsigned long long)s->min, s->mean,
			(unsigned long long)s->p90, (unsigned long long)s->p99_9,
			(unsigned long long)s->max);
}

static void csv_part_row(FILE *f, const struct result *r, const struct csv_part *p)
{
	struct stats_summary s;
	memset(&s, 0, sizeof(s));
	if (p->measured)
		stats_summarize(p->lat, &s);
	out_csv_field(f, r->test);
	fputc(',', f);
	out_csv_field(f, p->target);
	/* no options (a usage error): the parameters are unknown, not zero */
	if (r->opt)
		fprintf(f, ",%llu", (unsigned long long)r->opt->bs);
	else
		fputc(',', f);
	csv_figures(f, p, &s, true);
	if (p->measured)
		fprintf(f, ",%llu", (unsigned long long)p->ios);
	else
		fputc(',', f);
	if (r->opt)
		fprintf(f, ",%u,%s,%s", p->threads, r->opt->direct ? "true" : "false",
			is_write(r) ? sync_mode_name(r->opt->sync) : "");
	else
		fputs(",,,", f);
	csv_figures(f, p, &s, false);
	fputc(',', f);
	if (r->evicted && p->resident_before_pct >= 0)
		fprintf(f, "%.2f", p->resident_before_pct);
	fputc(',', f);
	char warnings[MAX_WARNINGS * (MSG_LEN + 2)] = "";
	for (unsigned i = 0; p->notes && i < r->nwarnings; i++) {
		if (i)
			strcat(warnings, "; ");
		strcat(warnings, r->warnings[i]);
	}
	out_csv_field(f, warnings);
	fputc(',', f);
	out_csv_field(f, p->notes ? r->error : NULL);
	/* appended columns: requests in flight per thread, the engine, the step */
	r->opt ? fprintf(f, ",%u,", r->opt->qd) : fputs(",,", f);
	out_csv_field(f, r->engine);
	fputc(',', f);
	out_csv_field(f, p->step);
	fputc(',', f);
	out_csv_field(f, p->verdict);
	out_csv_ops(f, r, p->notes, p->ios, p->bytes, p->seconds, p->measured ? &s : NULL);
	fputc('\n', f);
}

void out_csv_step_row(FILE *f, const struct result *r, const char *step, const char *verdict)
{
	struct csv_part whole = { .target = r->target, .bytes = r->bytes, .ios = r->ios,
				  .seconds = r->seconds, .lat = &r->lat,
				  .threads = r->opt ? r->opt->threads : 0,
				  .resident_before_pct = r->resident_before_pct,
				  .measured = r->measured, .notes = true,
				  .step = step, .verdict = verdict };
	csv_part_row(f, r, &whole);
}

void out_csv_row(FILE *f, const struct result *r)
{
	out_csv_step_row(f, r, NULL, NULL);
}

/* Several targets: a row for each, then their total (target "total"),
 * which carries the warnings and the error. */
static void csv_target_rows(FILE *f, const struct result *r)
{
	for (unsigned k = 0; k < r->ntargets; k++) {
		const struct result_target *t = &r->targets[k];
		struct csv_part part = { .target = t->target, .bytes = t->bytes, .ios = t->ios,
					 .seconds = t->seconds, .lat = t->lat, .threads = t->threads,
					 .resident_before_pct = t->resident_before_pct,
					 .measured = r->measured && t->lat };
		csv_part_row(f, r, &part);
	}
	struct csv_part total = { .target = "total", .bytes = r->bytes, .ios = r->ios,
				  .seconds = r->seconds, .lat = &r->lat,
				  .threads = r->opt ? r->opt->threads : 0,
				  .resident_before_pct = r->resident_before_pct,
				  .measured = r->measured, .notes = true };
	csv_part_row(f, r, &total);
}

void out_csv(FILE *f, const struct result *r)
{
	if (r->opt && r->opt->series_rows) {
		out_csv_series(f, r);
		return;
	}
	out_csv_header(f);
	if (r->ntargets > 1)
		csv_target_rows(f, r);
	else
		out_csv_row(f, r);
}
