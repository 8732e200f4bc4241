/* Rendering of `sla` (issue 30): its steps were printed as they ended
 * (cmd_sla.c); the text result is the verdict.  JSON holds "sla" with
 * every step; CSV a row per step. */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "output.h"
#include "render.h"
#include "sla_report.h"
#include "units.h"

void sla_pct_name(char *buf, size_t len, double pct)
{
	if (pct == 0)
		snprintf(buf, len, "mean");
	else
		snprintf(buf, len, "p%g", pct);
}

static const char *kind_name(enum sla_step_kind k)
{
	return k == SLA_PROBE ? "probe" : k == SLA_CONFIRM ? "confirm" : "step";
}

void sla_step_missed(char *buf, size_t len, const struct sla_report *rep,
		     const struct sla_step *st)
{
	char judged[24], target[24], pct[16];
	sla_pct_name(pct, sizeof(pct), rep->pct);
	if (!st->known) { /* the percentile may be any of those that never started */
		snprintf(buf, len, "%s unknown: %llu of the %llu I/Os due never started", pct,
			 (unsigned long long)st->unserved,
			 (unsigned long long)(st->ios + st->unserved));
		return;
	}
	if (st->ios == 0) {
		snprintf(buf, len, "no I/O completed in it");
		return;
	}
	fmt_ns(judged, sizeof(judged), st->judged_ns);
	fmt_ns(target, sizeof(target), rep->latency_ns);
	snprintf(buf, len, "%s %s %s %s", pct, judged, st->pass ? "<=" : ">", target);
}

void sla_step_text(FILE *f, const struct sla_report *rep, const struct sla_step *st)
{
	char asked[24], served[24], p50[24], p99[24], p999[24], svc[24], why[96];
	fmt_count(asked, sizeof(asked), st->asked);
	fmt_count(served, sizeof(served), st->served);
	fmt_ns(p50, sizeof(p50), st->p50_ns);
	fmt_ns(p99, sizeof(p99), st->p99_ns);
	fmt_ns(p999, sizeof(p999), st->p99_9_ns);
	fmt_ns(svc, sizeof(svc), st->service_p99_ns);
	if (st->kind == SLA_PROBE) {
		fprintf(f, "probe: %s IOPS closed loop at %u in flight (the ceiling); latency p50 %s, "
			"p99 %s\n", served, rep->in_flight, p50, p99);
		return;
	}
	sla_step_missed(why, sizeof(why), rep, st);
	fprintf(f, "%s %u: asked %s IOPS, served %s; response p50 %s, p99 %s, p99.9 %s; service "
		"p99 %s: %s (%s)\n", kind_name(st->kind), st->n, asked, served, p50, p99, p999, svc,
		st->pass ? "pass" : "fail", why);
	fflush(f);
}

static void sla_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	const struct sla_report *rep = r->detail;
	char found[24], ceiling[24], target[24], pct[16];
	(void)quiet, (void)histogram; /* the steps were printed as they ended */
	if (!rep || rep->nsteps == 0)
		return;
	fmt_count(ceiling, sizeof(ceiling), rep->ceiling_iops);
	fmt_ns(target, sizeof(target), rep->latency_ns);
	sla_pct_name(pct, sizeof(pct), rep->pct);
	if (!rep->found) {
		fprintf(f, "sla %s: no rate tried kept the %s response time within %s (ceiling %s IOPS "
			"closed loop)\n", rep->test, pct, target, ceiling);
		return;
	}
	fmt_count(found, sizeof(found), rep->found_iops);
	if (!rep->confirmed) { /* exit 6: not a rate the device holds */
		char why[96];
		sla_step_missed(why, sizeof(why), rep, &rep->steps[rep->nsteps - 1]);
		fprintf(f, "sla %s: unconfirmed: %s IOPS kept the %s response time within %s in step "
			"%u, its confirm run did not (%s)\n", rep->test, found, pct, target,
			rep->found_step, why);
		return;
	}
	fprintf(f, "sla %s: %s IOPS with %s response time <= %s (%.0f %% of the %s IOPS ceiling; "
		"open loop, %u in flight at most)\n", rep->test, found, pct, target,
		rep->ceiling_iops > 0 ? 100 * rep->found_iops / rep->ceiling_iops : 0, ceiling,
		rep->in_flight);
}

static void json_step(struct json *j, const struct sla_step *st)
{
	json_object_begin(j);
	json_key(j, "n"), json_uint(j, st->n);
	json_key(j, "kind"), json_string(j, kind_name(st->kind));
	json_key(j, "asked_iops");
	st->kind == SLA_PROBE ? json_null(j) : json_double(j, st->asked, 2);
	json_key(j, "served_iops"), json_double(j, st->served, 2);
	json_key(j, "seconds"), json_double(j, st->seconds, 6);
	json_key(j, "ios"), json_uint(j, st->ios);
	json_key(j, "late_ios"), json_uint(j, st->late_ios);
	json_key(j, "unserved_ios"), json_uint(j, st->unserved);
	json_key(j, "max_lag_ns"), json_uint(j, st->max_lag_ns);
	json_key(j, "response_ns");
	json_object_begin(j);
	json_key(j, "mean"), json_double(j, st->mean_ns, 1);
	json_key(j, "p50"), json_double(j, st->p50_ns, 0);
	json_key(j, "p99"), json_double(j, st->p99_ns, 0);
	json_key(j, "p99_9"), json_double(j, st->p99_9_ns, 0);
	json_object_end(j);
	json_key(j, "service_p99_ns"), json_double(j, st->service_p99_ns, 0);
	json_key(j, "percentile_known");
	st->kind == SLA_PROBE ? json_null(j) : json_bool(j, st->known);
	json_key(j, "pass");
	st->kind == SLA_PROBE ? json_null(j) : json_bool(j, st->pass);
	json_object_end(j);
}

static void sla_json(struct json *j, const struct result *r)
{
	const struct sla_report *rep = r->detail;
	out_json_file_device(j, r);
	if (r->opt)
		out_json_params(j, r, PARAMS_NO_TIME_LIMIT);
	json_key(j, "sla");
	if (!rep) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_key(j, "test"), json_string(j, rep->test);
	json_key(j, "latency_ns"), json_double(j, rep->latency_ns, 0);
	json_key(j, "percentile");
	rep->pct > 0 ? json_double(j, rep->pct, 3) : json_null(j);
	json_key(j, "statistic"), json_string(j, rep->pct > 0 ? "percentile" : "mean");
	json_key(j, "step_s"), json_double(j, rep->step_s, 3);
	json_key(j, "warmup_s"), json_double(j, rep->warmup_s, 3);
	json_key(j, "in_flight_max"), json_uint(j, rep->in_flight);
	json_key(j, "ceiling_iops"), json_double(j, rep->ceiling_iops, 2);
	json_key(j, "found_iops");
	rep->found ? json_double(j, rep->found_iops, 2) : json_null(j);
	json_key(j, "confirmed"), json_bool(j, rep->found && rep->confirmed);
	json_key(j, "steps");
	json_array_begin(j);
	for (unsigned i = 0; i < rep->nsteps; i++)
		json_step(j, &rep->steps[i]);
	json_array_end(j);
	json_object_end(j);
}

static void sla_csv(FILE *f, const struct result *r)
{
	const struct sla_report *rep = r->detail;
	fputs("test,target,step,kind,asked_iops,served_iops,seconds,ios,late_ios,unserved_ios,"
	      "response_p50_ns,response_p99_ns,response_p99_9_ns,service_p99_ns,pass,error\n", f);
	for (unsigned i = 0; rep && i < rep->nsteps; i++) {
		const struct sla_step *st = &rep->steps[i];
		out_csv_field(f, rep->test);
		fputc(',', f);
		out_csv_field(f, r->target);
		fprintf(f, ",%u,%s,", st->n, kind_name(st->kind));
		if (st->kind != SLA_PROBE)
			fprintf(f, "%.2f", st->asked);
		fprintf(f, ",%.2f,%.6f,%llu,%llu,%llu,%.0f,%.0f,%.0f,%.0f,%s,\n", st->served,
			st->seconds, (unsigned long long)st->ios, (unsigned long long)st->late_ios,
			(unsigned long long)st->unserved, st->p50_ns, st->p99_ns, st->p99_9_ns,
			st->service_p99_ns,
			st->kind == SLA_PROBE ? "" : st->pass ? "true" : "false");
	}
	if (r->error[0]) {
		out_csv_field(f, rep ? rep->test : NULL);
		fputc(',', f);
		out_csv_field(f, r->target);
		fputs(",,,,,,,,,,,,,,", f);
		out_csv_field(f, r->error);
		fputc('\n', f);
	}
}

const struct renderers render_sla = { sla_text, sla_json, sla_csv, NULL, NULL };
