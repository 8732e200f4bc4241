/* An open-loop run (--rate, issue 30): what was asked and what was served,
 * and its two latencies.  The response time counts from when each I/O was
 * due, so a device that falls behind shows every waiting I/O's wait (no
 * coordinated omission); the service time counts from submission, as a
 * closed-loop run and fio's clat do. */
#include "output.h"

#include "json.h"
#include "names.h"
#include "units.h"

/* I/Os a second served: what completed over the run's time */
static double open_loop_served(const struct result *r)
{
	return r->seconds > 0 ? (double)r->ios / r->seconds : 0.0;
}

void out_open_loop_served(char *buf, size_t len, const struct result *r)
{
	const struct result_open_loop *o = &r->open_loop;
	char asked[24], served[24], lag[24];
	fmt_count(asked, sizeof(asked), o->rate_asked);
	fmt_count(served, sizeof(served), open_loop_served(r));
	fmt_ns(lag, sizeof(lag), (double)o->max_lag_ns);
	/* more than 1 % never started: the device fell behind; a few due at the
	 * window's last instant are the schedule's edge, said but not blamed */
	if (o->unserved * 100 > r->ios)
		snprintf(buf, len, "served %s of the %s IOPS asked; the rest waited (max lag %s, %llu "
			 "due I/Os never started)", served, asked, lag, (unsigned long long)o->unserved);
	else if (o->unserved > 0)
		snprintf(buf, len, "%s IOPS asked, %s served (%llu due at the window's end not "
			 "started)", asked, served, (unsigned long long)o->unserved);
	else
		snprintf(buf, len, "%s IOPS asked, %s served", asked, served);
}

void out_text_open_loop(FILE *f, const struct result *r)
{
	const struct result_open_loop *o = &r->open_loop;
	const struct options *opt = r->opt;
	char served[200], lag[24];
	out_open_loop_served(served, sizeof(served), r);
	fmt_ns(lag, sizeof(lag), (double)o->max_lag_ns);
	fprintf(f, "open loop: %s (%s arrivals, at most %u in flight%s)", served,
		arrivals_name(opt->arrivals), o->cap,
		opt->given & OPT_QD ? "" : ", --rate's default; --qd sets it");
	if (o->late_ios > 0 && o->unserved == 0)
		fprintf(f, "; %llu I/Os started more than a mean gap late (max lag %s)",
			(unsigned long long)o->late_ios, lag);
	fputc('\n', f);
	if (r->lat.count > 0) {
		char label[160] = "response time (from when each I/O was due)";
		if (o->unserved > 0) /* they are in it: the count would not add up */
			snprintf(label, sizeof(label), "response time (from when each I/O was due; the "
				 "%llu never started counted to the window's end)",
				 (unsigned long long)o->unserved);
		out_text_latency_named(f, label, &r->lat);
		out_text_latency_named(f, "service time (from its submission)", &r->service_lat);
	}
}

void out_json_open_loop(struct json *j, const struct result *r)
{
	const struct result_open_loop *o = &r->open_loop;
	if (!o->on)
		return;
	json_key(j, "open_loop");
	json_object_begin(j);
	json_key(j, "rate_asked"), json_double(j, o->rate_asked, 2);
	json_key(j, "rate_served"), json_double(j, open_loop_served(r), 2);
	json_key(j, "arrivals"), json_string(j, arrivals_name(r->opt->arrivals));
	json_key(j, "in_flight_max"), json_uint(j, o->cap);
	json_key(j, "late_ios"), json_uint(j, o->late_ios);
	json_key(j, "unserved_ios"), json_uint(j, o->unserved);
	json_key(j, "max_lag_ns"), json_uint(j, o->max_lag_ns);
	json_key(j, "lat_from"), json_string(j, "due");
	json_object_end(j);
	struct stats_summary s;
	uint64_t counts[STATS_LOG2_BUCKETS];
	stats_summarize(&r->service_lat, &s);
	stats_log2_counts(&r->service_lat, counts);
	out_json_lat_named(j, "service_lat_ns", &s);
	out_json_lat_hist_named(j, "service_lat_hist", counts);
}

void out_csv_open_loop(FILE *f, bool open, bool measured, bool whole, double asked,
		       double served, uint64_t unserved)
{
	if (!measured)
		fputs(",,,,", f);
	else if (!open)
		fputs(",,,,submit", f);
	else if (!whole)
		fputs(",,,,due", f);
	else
		fprintf(f, ",%.2f,%.2f,%llu,due", asked, served, (unsigned long long)unserved);
}
