/* The single-test renderers' JSON: the document, a test's keys, its
 * parameters, result, factors and targets; and the figures every
 * single-test renderer derives from a result.  The text result line and
 * its pieces are output_text.c's, the CSV rows output_csv_row.c's. */
#include "output.h"

#include <string.h>

#include "devinfo.h"
#include "devinfo_health.h"
#include "json.h"
#include "names.h"
#include "output_int.h"
#include "output_series.h"

double result_rate(const struct result *r)
{
	return r->seconds > 0 ? (double)r->bytes / r->seconds : 0.0;
}

double result_iops(const struct result *r)
{
	return r->seconds > 0 ? (double)r->ios / r->seconds : 0.0;
}

bool result_is_write(const struct result *r)
{
	return r->dir == IO_WRITE && (!r->ops || mix_has(&r->ops->mix, MIX_WRITE));
}

unsigned result_pages_segments(const struct result *r)
{
	if (!r->page_size || !r->opt)
		return 0;
	return (unsigned)((r->opt->bs + r->page_size - 1) / r->page_size);
}

bool result_buffers_differ(const struct result *r)
{
	unsigned pages = result_pages_segments(r);
	bool data = !(r->ops && !mix_has(&r->ops->mix, MIX_READ) && !mix_has(&r->ops->mix, MIX_WRITE));
	bool nop = r->engine && strcmp(r->engine, "nop") == 0; /* NOPs move no data */
	return r->opt && r->opt->direct && r->huge_buffers && r->buffer_segments >= 0 && pages >= 2 &&
	       r->buffer_segments <= pages / 2.0 && data && !nop;
}

double result_requests_per_submit(const struct result *r)
{
	return r->submit_calls ? (double)r->submitted / (double)r->submit_calls : 0.0;
}

double result_completions_per_reap(const struct result *r)
{
	return r->reap_calls ? (double)r->reaped / (double)r->reap_calls : 0.0;
}

const char *result_policy_name(const struct result *r)
{
	const struct result_policy *p = &r->policy;
	if (!r->engine_facts || p->threads == 0)
		return NULL;
	if (p->measured == 0)
		return "unmeasured";
	if (p->one_by_one == 0)
		return "batched"; /* a thread that did not measure stays batched */
	return p->one_by_one == p->threads ? "one_by_one" : "mixed";
}

double out_per_second(uint64_t n, double seconds)
{
	return seconds > 0 ? (double)n / seconds : 0.0;
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
	json_key(j, "sync"), json_string(j, result_is_write(r) ? sync_mode_name(o->sync) : NULL);
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
	result_completions_per_reap(r) > 0 ? json_double(j, result_completions_per_reap(r), 2) : json_null(j);
	json_object_end(j);
	json_key(j, "registered");
	json_object_begin(j);
	json_key(j, "buffers"), json_tristate(j, known ? r->fixed_buffers : -1);
	json_key(j, "file"), json_tristate(j, known ? r->fixed_file : -1);
	json_key(j, "why"), json_string(j, r->registration_why[0] ? r->registration_why : NULL);
	json_object_end(j);
}

/* How the run chose to submit (issue 40); null where it did not choose. */
static void out_json_policy(struct json *j, const struct result *r)
{
	const struct result_policy *p = &r->policy;
	const char *name = result_policy_name(r);
	json_key(j, "submit_policy");
	if (!name) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_key(j, "chosen"), json_string(j, name);
	json_key(j, "threads"), json_uint(j, p->threads);
	json_key(j, "measured"), json_uint(j, p->measured);
	json_key(j, "one_by_one"), json_uint(j, p->one_by_one);
	json_key(j, "gain");
	json_object_begin(j);
	json_key(j, "min");
	p->measured ? json_double(j, p->gain_min, 3) : json_null(j);
	json_key(j, "max");
	p->measured ? json_double(j, p->gain_max, 3) : json_null(j);
	json_object_end(j);
	json_object_end(j);
}

/* What moved the figure, as it happened (issue 19): the buffer's backing
 * and segments, requests per submit call and how that was chosen, engine, requests in flight, what
 * ended the run and how often it went round its region. */
void out_json_factors(struct json *j, const struct result *r)
{
	double per_submit = result_requests_per_submit(r);
	json_key(j, "buffer");
	json_object_begin(j);
	json_key(j, "backing"), json_string(j, r->huge_buffers ? "huge pages" : "pages");
	json_key(j, "segments_per_request");
	r->buffer_segments >= 0 ? json_double(j, r->buffer_segments, 2) : json_null(j);
	json_key(j, "pages_segments_per_request");
	result_pages_segments(r) ? json_uint(j, result_pages_segments(r)) : json_null(j);
	json_object_end(j);
	json_key(j, "requests_per_submit");
	per_submit > 0 ? json_double(j, per_submit, 2) : json_null(j);
	out_json_policy(j, r);
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
	out_json_verify(j, r);
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
	figures ? json_double(j, out_per_second(t->bytes, t->seconds), 1) : json_null(j);
	json_key(j, "iops");
	figures ? json_double(j, out_per_second(t->ios, t->seconds), 2) : json_null(j);
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
