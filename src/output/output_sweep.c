/* Rendering of a sweep: a table per series and Orion's summary lines, the
 * JSON "result" with one entry per point, and CSV with one row per point. */
#include <string.h>

#include "render.h"
#include "json.h"
#include "devinfo_health.h"
#include "output.h"
#include "output_svg.h"
#include "sweep.h"
#include "units.h"

static const struct sweep_result *sweep_of(const struct result *r)
{
	return r->detail;
}

static const char *level_word(const struct sweep_series *s)
{
	return s->large ? "streams" : "outstanding";
}

static void text_header(FILE *f, const struct result *r, const struct sweep_series *s)
{
	char bs[32], region[48];
	fmt_size_exact(bs, sizeof(bs), s->bs);
	fmt_size_exact(region, sizeof(region), r->region);
	if (r->ntargets > 1) /* the sum of theirs */
		snprintf(region + strlen(region), sizeof(region) - strlen(region), " over %u targets",
			 r->ntargets);
	fprintf(f, "sweep: %s, bs=%s, %s, %s, region %s%s, %.2f s per point after %.2f s warm-up\n",
		s->workload, bs, r->engine_label ? r->engine_label : "sync",
		r->opt->direct ? "O_DIRECT" : "page cache", region,
		sweep_of(r)->write_pct ? ", with writes" : "", sweep_of(r)->plan.point_s,
		sweep_of(r)->plan.ramp_s);
	fprintf(f, "%12s %10s %10s %10s %10s %10s %10s %6s\n", level_word(s), "IOPS", "MB/s",
		"mean", "p50", "p99", "max", "L/N");
}

static void text_point(FILE *f, const struct sweep_point *p)
{
	char iops[16], lat[4][24];
	fmt_count(iops, sizeof(iops), sweep_iops(p));
	fmt_ns(lat[0], sizeof(lat[0]), p->lat.mean);
	fmt_ns(lat[1], sizeof(lat[1]), (double)p->lat.p50);
	fmt_ns(lat[2], sizeof(lat[2]), (double)p->lat.p99);
	fmt_ns(lat[3], sizeof(lat[3]), (double)p->lat.max);
	fprintf(f, "%12u %10s %10.1f %10s %10s %10s %10s %6.2f\n", p->level, iops,
		sweep_rate(p) / 1e6, lat[0], lat[1], lat[2], lat[3],
		sweep_littles_outstanding(p) / p->level);
	if (p->writes == 0)
		return;
	/* a mixed point: reads and writes are told apart, never averaged */
	char rd[2][24], wr[2][24];
	fmt_ns(rd[0], sizeof(rd[0]), (double)p->lat_read.p50);
	fmt_ns(rd[1], sizeof(rd[1]), (double)p->lat_read.p99);
	fmt_ns(wr[0], sizeof(wr[0]), (double)p->lat_write.p50);
	fmt_ns(wr[1], sizeof(wr[1]), (double)p->lat_write.p99);
	fprintf(f, "%12s reads p50 %s p99 %s (%llu), writes p50 %s p99 %s (%llu)\n", "", rd[0],
		rd[1], (unsigned long long)p->lat_read.count, wr[0], wr[1],
		(unsigned long long)p->lat_write.count);
}

static void text_summary_small(FILE *f, const struct sweep_result *sw, const struct sweep_series *s)
{
	int best = sweep_max_iops(s), fast = sweep_min_latency(s), knee = sweep_knee(s);
	char v[4][24];
	if (best < 0)
		return;
	const struct sweep_point *pb = &s->points[best], *pf = &s->points[fast], *pk = &s->points[knee];
	fmt_count(v[0], sizeof(v[0]), sweep_iops(pb));
	fmt_ns(v[1], sizeof(v[1]), pf->lat.mean);
	fmt_count(v[2], sizeof(v[2]), sweep_iops(pk));
	fmt_ns(v[3], sizeof(v[3]), (double)pk->lat.p99);
	fprintf(f, "max IOPS: %s @ %u outstanding\n", v[0], pb->level);
	fprintf(f, "min latency: %s mean @ %u outstanding\n", v[1], pf->level);
	fprintf(f, "knee: %u outstanding (%s IOPS, p99 %s): the most IOPS per unit of latency; "
		"max IOPS x min latency puts it near %.1f\n", pk->level, v[2], v[3],
		sweep_iops(pb) * pf->lat.mean / 1e9);
	if (sw->max_latency_ns > 0) {
		char limit[24], which[16];
		int ok = sweep_max_iops_within(s, sw->max_latency_ns, sw->max_latency_pct);
		fmt_ns(limit, sizeof(limit), sw->max_latency_ns);
		if (sw->max_latency_pct > 0)
			snprintf(which, sizeof(which), "p%g", sw->max_latency_pct);
		else
			snprintf(which, sizeof(which), "mean");
		if (ok < 0) {
			fprintf(f, "max IOPS with %s <= %s: none of the points\n", which, limit);
		} else {
			fmt_count(v[0], sizeof(v[0]), sweep_iops(&s->points[ok]));
			fprintf(f, "max IOPS with %s <= %s: %s @ %u outstanding\n", which, limit, v[0],
				s->points[ok].level);
		}
	}
}

static void text_summary_large(FILE *f, const struct sweep_series *s)
{
	int best = sweep_max_rate(s);
	char rate[32];
	if (best < 0)
		return;
	fmt_rate_si(rate, sizeof(rate), sweep_rate(&s->points[best]));
	fprintf(f, "max MB/s: %s @ %u stream%s\n", rate, s->points[best].level,
		s->points[best].level == 1 ? "" : "s");
}

/* --curve: each open-loop point's asked and served rate and response time
 * (from when each I/O was due), beside its service time. */
static void text_curve(FILE *f, const struct sweep_result *sw)
{
	char max[16];
	fmt_count(max, sizeof(max), sw->curve_max_iops);
	fprintf(f, "curve: open loop at %% of the max IOPS (%s @ %u outstanding, the cap), response "
		"from when each I/O was due\n", max, sw->curve_outstanding);
	fprintf(f, "%6s %10s %10s %10s %10s %10s %12s %9s\n", "%", "asked", "served", "p50", "p99",
		"p99.9", "service p99", "unserved");
	for (unsigned i = 0; i < sw->ncurve; i++) {
		const struct sweep_curve_point *c = &sw->curve[i];
		char asked[16], served[16], lat[4][24];
		fmt_count(asked, sizeof(asked), c->asked);
		fmt_count(served, sizeof(served), sweep_curve_served(c));
		fmt_ns(lat[0], sizeof(lat[0]), (double)c->response.p50);
		fmt_ns(lat[1], sizeof(lat[1]), (double)c->response.p99);
		fmt_ns(lat[2], sizeof(lat[2]), (double)c->response.p99_9);
		fmt_ns(lat[3], sizeof(lat[3]), (double)c->service.p99);
		fprintf(f, "%6u %10s %10s %10s %10s %10s %12s %9llu\n", c->pct, asked, served, lat[0],
			lat[1], lat[2], lat[3], (unsigned long long)c->unserved);
	}
}

static void text_point_histogram(FILE *f, const struct sweep_point *p)
{
	fprintf(f, "  at %u:\n", p->level);
	out_histogram_counts(f, p->hist, p->lat.count);
}

static void sweep_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	const struct sweep_result *sw = sweep_of(r);
	for (unsigned i = 0; i < sw->nseries; i++) {
		const struct sweep_series *s = &sw->series[i];
		if (!quiet) {
			text_header(f, r, s);
			for (unsigned k = 0; k < s->npoints; k++)
				text_point(f, &s->points[k]);
			if (s->stopped)
				fprintf(f, "stopped early: %s (two steps in a row added less than 5 %%)\n",
					s->stopped);
		}
		if (s->large)
			text_summary_large(f, s);
		else
			text_summary_small(f, sw, s);
		if (!s->large && sw->ncurve)
			text_curve(f, sw);
		if (histogram && !quiet)
			for (unsigned k = 0; k < s->npoints; k++)
				text_point_histogram(f, &s->points[k]);
		if (!quiet && i + 1 < sw->nseries)
			fputc('\n', f);
	}
	if (!quiet && r->ntargets > 1) {
		fputs("\nper target, over every point:\n", f);
		out_text_targets(f, r);
	}
	if (!quiet)
		health_text(f, r->health, true);
}

/* A mixed point's reads or writes alone: their own latency, never one
 * histogram for both (fio keeps them apart too). */
static void json_direction(struct json *j, const char *key, const struct stats_summary *lat,
			   const uint64_t hist[STATS_LOG2_BUCKETS])
{
	json_key(j, key);
	json_object_begin(j);
	json_key(j, "ios"), json_uint(j, lat->count);
	out_json_lat(j, lat);
	out_json_lat_hist(j, hist);
	json_object_end(j);
}

static void json_point(struct json *j, const struct sweep_point *p)
{
	json_object_begin(j);
	json_key(j, "outstanding"), json_uint(j, p->level);
	json_key(j, "threads"), json_uint(j, p->threads);
	json_key(j, "qd"), json_uint(j, p->qd);
	json_key(j, "seconds"), json_double(j, p->seconds, 6);
	json_key(j, "ios"), json_uint(j, p->ios);
	json_key(j, "writes"), json_uint(j, p->writes);
	json_key(j, "bytes"), json_uint(j, p->bytes);
	json_key(j, "iops"), json_double(j, sweep_iops(p), 2);
	json_key(j, "bytes_per_sec"), json_double(j, sweep_rate(p), 1);
	json_key(j, "samples"), json_uint(j, p->lat.count);
	out_json_lat(j, &p->lat);
	json_key(j, "littles_law_outstanding"), json_double(j, sweep_littles_outstanding(p), 3);
	json_key(j, "resident_before_pct");
	p->resident_before_pct >= 0 ? json_double(j, p->resident_before_pct, 2) : json_null(j);
	out_json_lat_hist(j, p->hist);
	if (p->lat_all) /* what `diskbench report` merges across hosts */
		out_json_lat_buckets(j, p->lat_all);
	if (p->writes > 0)
		json_direction(j, "read", &p->lat_read, p->hist_read),
		json_direction(j, "write", &p->lat_write, p->hist_write);
	json_object_end(j);
}

static void json_at(struct json *j, const char *key, const struct sweep_series *s, int index,
		    const char *value_key, double value, int decimals)
{
	json_key(j, key);
	if (index < 0) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_key(j, "outstanding"), json_uint(j, s->points[index].level);
	json_key(j, value_key), json_double(j, value, decimals);
	json_object_end(j);
}

static void json_summary(struct json *j, const struct sweep_result *sw, const struct sweep_series *s)
{
	int best = sweep_max_iops(s), fast = sweep_min_latency(s), knee = sweep_knee(s);
	int rate = sweep_max_rate(s);
	json_at(j, "max_iops", s, best, "iops", best < 0 ? 0 : sweep_iops(&s->points[best]), 2);
	json_at(j, "min_latency", s, fast, "lat_ns_mean", fast < 0 ? 0 : s->points[fast].lat.mean, 1);
	json_at(j, "max_bytes_per_sec", s, rate, "bytes_per_sec",
		rate < 0 ? 0 : sweep_rate(&s->points[rate]), 1);
	json_key(j, "knee");
	if (knee < 0 || s->large) {
		json_null(j);
	} else {
		const struct sweep_point *p = &s->points[knee];
		json_object_begin(j);
		json_key(j, "outstanding"), json_uint(j, p->level);
		json_key(j, "iops"), json_double(j, sweep_iops(p), 2);
		json_key(j, "lat_ns_p99"), json_uint(j, p->lat.p99);
		json_key(j, "rule"), json_string(j, "max_iops_per_latency");
		json_key(j, "bdp_outstanding"),
			json_double(j, sweep_iops(&s->points[best]) * s->points[fast].lat.mean / 1e9, 2);
		json_object_end(j);
	}
	if (sw->max_latency_ns > 0 && !s->large) {
		int ok = sweep_max_iops_within(s, sw->max_latency_ns, sw->max_latency_pct);
		json_key(j, "max_iops_within_latency");
		json_object_begin(j);
		json_key(j, "limit_ns"), json_double(j, sw->max_latency_ns, 0);
		json_key(j, "percentile"), json_double(j, sw->max_latency_pct, 1);
		json_key(j, "outstanding");
		ok < 0 ? json_null(j) : json_uint(j, s->points[ok].level);
		json_key(j, "iops");
		ok < 0 ? json_null(j) : json_double(j, sweep_iops(&s->points[ok]), 2);
		json_object_end(j);
	}
}

static void json_curve(struct json *j, const struct sweep_result *sw)
{
	json_key(j, "curve");
	if (sw->ncurve == 0) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_key(j, "max_iops"), json_double(j, sw->curve_max_iops, 2);
	json_key(j, "outstanding"), json_uint(j, sw->curve_outstanding);
	json_key(j, "points");
	json_array_begin(j);
	for (unsigned i = 0; i < sw->ncurve; i++) {
		const struct sweep_curve_point *c = &sw->curve[i];
		json_object_begin(j);
		json_key(j, "pct"), json_uint(j, c->pct);
		json_key(j, "rate_asked"), json_double(j, c->asked, 2);
		json_key(j, "rate_served"),
			json_double(j, sweep_curve_served(c), 2);
		json_key(j, "seconds"), json_double(j, c->seconds, 6);
		json_key(j, "ios"), json_uint(j, c->ios);
		json_key(j, "late_ios"), json_uint(j, c->late_ios);
		json_key(j, "unserved_ios"), json_uint(j, c->unserved);
		out_json_lat(j, &c->response);
		out_json_lat_named(j, "service_lat_ns", &c->service);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static void sweep_result_json(struct json *j, const struct result *r)
{
	const struct sweep_result *sw = sweep_of(r);
	json_object_begin(j);
	json_key(j, "point_time_s"), json_double(j, sw->plan.point_s, 3);
	json_key(j, "ramp_s"), json_double(j, sw->plan.ramp_s, 3);
	json_key(j, "budget_s"), json_double(j, sw->budget_s, 3);
	json_key(j, "write_pct"), json_uint(j, sw->write_pct);
	json_key(j, "series");
	json_array_begin(j);
	for (unsigned i = 0; i < sw->nseries; i++) {
		const struct sweep_series *s = &sw->series[i];
		json_object_begin(j);
		json_key(j, "workload"), json_string(j, s->workload);
		json_key(j, "block_size"), json_uint(j, s->bs);
		json_key(j, "levels");
		json_array_begin(j);
		for (unsigned k = 0; k < s->nlevels; k++)
			json_uint(j, s->levels[k]);
		json_array_end(j);
		json_key(j, "levels_dropped_by_budget"), json_uint(j, sw->dropped[i]);
		json_key(j, "stopped"), json_string(j, s->stopped);
		json_key(j, "points");
		json_array_begin(j);
		for (unsigned k = 0; k < s->npoints; k++)
			json_point(j, &s->points[k]);
		json_array_end(j);
		json_summary(j, sw, s);
		json_object_end(j);
	}
	json_array_end(j);
	json_curve(j, sw);
	json_object_end(j);
}

/* A point's reads and writes apart (issue 31), as its JSON "read" and
 * "write" count them: ios, bytes (ios x bs), iops over the point's seconds,
 * p50, p99; a point of reads alone fills the read columns with its own
 * figures and leaves the write columns empty (no write ran). */
static void csv_point_op(FILE *f, uint64_t ios, const struct sweep_series *s,
			 const struct sweep_point *p, const struct stats_summary *lat)
{
	fprintf(f, ",%llu,%llu,%.2f,%llu,%llu", (unsigned long long)ios,
		(unsigned long long)(ios * s->bs), p->seconds > 0 ? (double)ios / p->seconds : 0.0,
		(unsigned long long)lat->p50, (unsigned long long)lat->p99);
}

static void csv_point_ops(FILE *f, const struct sweep_result *sw, const struct sweep_series *s,
			  const struct sweep_point *p)
{
	if (sw->write_pct == 0) {
		csv_point_op(f, p->ios, s, p, &p->lat);
		fputs(",,,,,", f);
		return;
	}
	csv_point_op(f, p->lat_read.count, s, p, &p->lat_read);
	csv_point_op(f, p->lat_write.count, s, p, &p->lat_write);
}

/* --curve's points: workload "curve_PCT", the in-flight cap as outstanding,
 * the response time in the latency columns; reads and writes are not counted
 * apart there, so their columns are empty */
static void csv_curve(FILE *f, const struct result *r, const struct sweep_result *sw)
{
	for (unsigned i = 0; i < sw->ncurve; i++) {
		const struct sweep_curve_point *c = &sw->curve[i];
		const struct stats_summary *l = &c->response;
		uint64_t bs = sw->series[0].bs;
		out_csv_field(f, r->test);
		fputc(',', f);
		out_csv_field(f, r->target);
		double iops = sweep_curve_served(c);
		fprintf(f, ",%llu,%llu,%.6f,%.1f,%.2f,%llu,%llu,curve_%u,%u,%llu,%llu,%.1f,%llu,%llu,%llu,"
			",,,,,,,,,,",
			(unsigned long long)bs, (unsigned long long)(c->ios * bs), c->seconds,
			iops * (double)bs, iops, (unsigned long long)l->p50, (unsigned long long)l->p99,
			c->pct, sw->curve_outstanding, (unsigned long long)c->ios,
			(unsigned long long)l->min, l->mean, (unsigned long long)l->p90,
			(unsigned long long)l->p99_9, (unsigned long long)l->max);
		out_csv_open_loop(f, true, true, true, c->asked, iops, c->unserved);
		fputc('\n', f);
	}
}

static void sweep_csv(FILE *f, const struct result *r)
{
	const struct sweep_result *sw = sweep_of(r);
	if (!r->measured) {
		out_csv(f, r); /* a failed sweep: one row with the error */
		return;
	}
	fputs("test,target,block_size,bytes,seconds,bytes_per_sec,iops,lat_p50_ns,lat_p99_ns,"
	      "workload,outstanding,ios,lat_min_ns,lat_mean_ns,lat_p90_ns,lat_p99_9_ns,lat_max_ns,"
	      "littles_law_outstanding,read_ios,read_bytes,read_iops,read_lat_p50_ns,read_lat_p99_ns,"
	      "write_ios,write_bytes,write_iops,write_lat_p50_ns,write_lat_p99_ns,"
	      OUT_CSV_OPEN_HEADER "\n", f);
	for (unsigned i = 0; i < sw->nseries; i++) {
		const struct sweep_series *s = &sw->series[i];
		for (unsigned k = 0; k < s->npoints; k++) {
			const struct sweep_point *p = &s->points[k];
			out_csv_field(f, r->test);
			fputc(',', f);
			out_csv_field(f, r->target);
			fprintf(f, ",%llu,%llu,%.6f,%.1f,%.2f,%llu,%llu,%s,%u,%llu,%llu,%.1f,%llu,%llu,%llu,%.3f",
				(unsigned long long)s->bs, (unsigned long long)p->bytes, p->seconds,
				sweep_rate(p), sweep_iops(p), (unsigned long long)p->lat.p50,
				(unsigned long long)p->lat.p99, s->workload, p->level,
				(unsigned long long)p->ios, (unsigned long long)p->lat.min, p->lat.mean,
				(unsigned long long)p->lat.p90, (unsigned long long)p->lat.p99_9,
				(unsigned long long)p->lat.max, sweep_littles_outstanding(p));
			csv_point_ops(f, sw, s, p);
			out_csv_open_loop(f, false, true, true, 0, 0, 0); /* closed loop */
			fputc('\n', f);
		}
	}
	csv_curve(f, r, sw);
}

/* params carry no single time limit or thread count: each point has its own */
static void sweep_json(struct json *j, const struct result *r)
{
	out_json_file_device(j, r);
	out_json_params(j, r, PARAMS_NO_TIME_LIMIT | PARAMS_NO_THREADS | PARAMS_NO_QD);
	json_key(j, "result");
	if (r->measured)
		sweep_result_json(j, r);
	else
		json_null(j);
	out_json_cache(j, r);
	out_json_targets(j, r); /* each target's figures over every point */
	if (r->health) { /* read before the first measurement and after the last */
		json_key(j, "health");
		health_json(j, r->health);
	}
}

const struct renderers render_sweep = { sweep_text, sweep_json, sweep_csv, out_svg_sweep, NULL };
