/* A fit profile judged on its jobs' results: see fit.h.  The figures are
 * the results' own (fio's: IOPS of the job's counted I/Os over its time,
 * percentiles of the sync calls apart from the writes); a finding of a job
 * is said beside each of its rows it bears on. */
#include "fit.h"

#include <stdio.h>
#include <string.h>

#include "finding.h"
#include "findings.h"
#include "units.h"

static double per_sec(uint64_t n, const struct result *r)
{
	return r->seconds > 0 ? (double)n / r->seconds : 0;
}

/* The I/Os and bytes of one direction: a mix's share, or the whole run's
 * when it went that way alone; false when it did not go that way. */
static bool direction(const struct result *r, int op, uint64_t *ios, uint64_t *bytes,
		      const struct stats **lat)
{
	if (r->ops) {
		if (!mix_has(&r->ops->mix, (enum mix_op)op))
			return false;
		*ios = r->ops->op[op].ios, *bytes = r->ops->op[op].bytes, *lat = &r->ops->op[op].lat;
		return true;
	}
	if ((op == MIX_WRITE) != (r->dir == IO_WRITE))
		return false;
	*ios = r->ios, *bytes = r->bytes, *lat = &r->lat;
	return true;
}

static bool from_stats(const struct stats *s, enum fit_metric m, enum fit_metric first,
		       double *out)
{
	if (!s || s->count == 0)
		return false;
	struct stats_summary sum;
	stats_summarize(s, &sum);
	const double v[] = { (double)sum.min, sum.mean, (double)sum.p50, (double)sum.p90,
			     (double)sum.p99, (double)sum.p99_9, (double)sum.max };
	*out = v[m - first];
	return true;
}

bool fit_value(const struct result *r, unsigned writes_per_op, enum fit_metric m, double *out)
{
	uint64_t ios = 0, bytes = 0;
	const struct stats *lat = NULL;
	bool syncs = r->opt && r->opt->sync_every > 0 && r->syncs > 0;
	if (!r->measured || r->seconds <= 0)
		return false;
	switch (m) {
	case FM_IOPS: *out = per_sec(r->ios, r); return true;
	case FM_BW: *out = per_sec(r->bytes, r); return true;
	case FM_READ_IOPS:
	case FM_READ_BW:
		if (!direction(r, MIX_READ, &ios, &bytes, &lat))
			return false;
		*out = per_sec(m == FM_READ_IOPS ? ios : bytes, r);
		return true;
	case FM_WRITE_IOPS:
	case FM_WRITE_BW:
		if (!direction(r, MIX_WRITE, &ios, &bytes, &lat))
			return false;
		*out = per_sec(m == FM_WRITE_IOPS ? ios : bytes, r);
		return true;
	case FM_READ_LAT_P50:
	case FM_READ_LAT_P99:
		return direction(r, MIX_READ, &ios, &bytes, &lat) &&
		       from_stats(lat, m == FM_READ_LAT_P50 ? FM_LAT_P50 : FM_LAT_P99, FM_LAT_MIN, out);
	case FM_WRITE_LAT_P50:
	case FM_WRITE_LAT_P99:
		return direction(r, MIX_WRITE, &ios, &bytes, &lat) &&
		       from_stats(lat, m == FM_WRITE_LAT_P50 ? FM_LAT_P50 : FM_LAT_P99, FM_LAT_MIN, out);
	case FM_SYNC_IOPS:
		*out = per_sec(r->syncs, r);
		return syncs;
	case FM_OPS:
	case FM_USECS_PER_OP:
		if (!direction(r, MIX_WRITE, &ios, &bytes, &lat) || ios == 0)
			return false;
		*out = per_sec(ios, r) / (writes_per_op ? writes_per_op : 1);
		if (m == FM_USECS_PER_OP)
			*out = 1e9 / *out;
		return true;
	default:
		break;
	}
	if (m >= FM_SYNC_MIN && m <= FM_SYNC_MAX)
		return syncs && from_stats(&r->sync_lat, m, FM_SYNC_MIN, out);
	if (m >= FM_LAT_MIN && m <= FM_LAT_MAX)
		return from_stats(&r->lat, m, FM_LAT_MIN, out);
	return false;
}

void fit_label(char *buf, size_t len, const struct result *r, enum fit_metric m)
{
	const char *label = fit_metric_def(m)->label;
	if (strncmp(label, "sync", 4) == 0 && r && r->opt && r->opt->sync_every)
		snprintf(buf, len, "%s%s", r->opt->sync_data ? "fdatasync" : "fsync", label + 4);
	else
		snprintf(buf, len, "%s", label);
}

void fit_format(char *buf, size_t len, enum fit_metric m, double v)
{
	switch (fit_metric_def(m)->unit) {
	case FIT_NS: fmt_ns(buf, len, v); break;
	case FIT_BYTES_PER_SEC: fmt_rate_si(buf, len, v); break;
	default: fmt_count(buf, len, v); break;
	}
}

static bool holds(enum fit_op op, double v, double limit)
{
	switch (op) {
	case FIT_LT: return v < limit;
	case FIT_LE: return v <= limit;
	case FIT_GT: return v > limit;
	default: return v >= limit;
	}
}

/* What a job's findings say of a row: a PASS a cache or an early
 * acknowledgement may have made, a FAIL a limit above the disk made. */
static void note_for(const struct result *r, enum fit_status st, char *note, size_t len,
		     const char *what)
{
	const struct finding *f;
	char a[32], b[32];
	note[0] = '\0';
	if (st == FIT_PASS && (f = finding_find(r, "flush_fast"))) {
		fmt_ns(a, sizeof(a), finding_value(f, "median_ns", 0));
		snprintf(note, len, "undermined: flushes returned in %s, the device or hypervisor "
			 "acknowledges them before stable media (or it has power-loss protection): "
			 "%s does not show durability", a, what);
	} else if (st == FIT_PASS && finding_find(r, "device_saw_less")) {
		snprintf(note, len, "undermined: the disks below saw less I/O than was done, a cache "
			 "served part of it: the figure may be the cache's");
	} else if (st != FIT_PASS && (f = finding_find(r, "cgroup_limit")) &&
		   (finding_value(f, "reached", 0) >= FINDINGS_LIMIT_REACHED || r->syncs > 0)) {
		a[0] = '\0';
		if (finding_value(f, "iops", 0) > 0)
			snprintf(a, sizeof(a), "%.0f IOPS", finding_value(f, "iops", 0));
		else
			fmt_rate_si(a, sizeof(a), finding_value(f, "bytes_per_sec", 0));
		/* a sync call's flush and metadata writes count against an IOPS limit
		 * beside the writes, which the run's own count does not show */
		bool reached = finding_value(f, "reached", 0) >= FINDINGS_LIMIT_REACHED;
		snprintf(note, len, "explained: a cgroup limit of %s on %.0f:%.0f %s: the figure is "
			 "the limit's, not the disk's", a, finding_value(f, "major", 0),
			 finding_value(f, "minor", 0), reached ? "set the pace" : "applies, and each sync "
			 "call's flush and metadata writes count against it too");
	} else if (st != FIT_PASS && (f = finding_find(r, "rate_cap")) &&
		   finding_value(f, "confirmed", 0) > 0) {
		fmt_rate_si(b, sizeof(b), finding_value(f, "bytes_per_sec", 0));
		snprintf(note, len, "explained: a rate cap held the throughput flat at %s: the figure "
			 "may be the cap's", b);
	}
}

static void judge_rows(struct fit_report *rep, const struct result *const *res, unsigned n)
{
	const struct fit_spec *spec = &rep->spec;
	rep->pass = true;
	for (unsigned l = 0; l < spec->nrequire; l++) {
		const struct fit_line *line = &spec->require[l];
		for (unsigned j = 0; j < n && rep->nrows < FIT_MAX_ROWS; j++) {
			if (line->job >= 0 && (unsigned)line->job != j)
				continue;
			struct fit_row *row = &rep->rows[rep->nrows++];
			row->line = l;
			row->job = j;
			bool known = fit_value(res[j], spec->writes_per_op[j], line->metric, &row->value);
			row->status = !known ? FIT_UNKNOWN : holds(line->op, row->value, line->limit)
				      ? FIT_PASS : line->recommended ? FIT_BELOW : FIT_FAIL;
			note_for(res[j], row->status, row->note, sizeof(row->note), "this PASS");
			rep->pass &= row->status == FIT_PASS || row->status == FIT_BELOW;
			rep->undermined |= row->status == FIT_PASS && strncmp(row->note, "undermined", 10) == 0;
		}
	}
}

/* Each rank line's best job in each op size, in the order the sizes first
 * appear. */
static void judge_ranks(struct fit_report *rep, const struct result *const *res, unsigned n)
{
	const struct fit_spec *spec = &rep->spec;
	for (unsigned l = 0; l < spec->nrank; l++) {
		const struct fit_line *line = &spec->rank[l];
		bool higher = fit_metric_def(line->metric)->higher_better;
		unsigned first = rep->nbest;
		for (unsigned j = 0; j < n && rep->nbest < FIT_MAX_ROWS; j++) {
			double v;
			if (line->job >= 0 && (unsigned)line->job != j)
				continue;
			unsigned size = spec->writes_per_op[j], g = first;
			while (g < rep->nbest && rep->best[g].writes_per_op != size)
				g++;
			if (g == rep->nbest)
				rep->best[rep->nbest++] = (struct fit_best){ l, size, -1, 0 };
			if (!fit_value(res[j], size, line->metric, &v))
				continue;
			struct fit_best *b = &rep->best[g];
			if (b->job < 0 || (higher ? v > b->value : v < b->value))
				b->job = (int)j, b->value = v;
		}
	}
}

/* "etcd FAQ" of "etcd FAQ, https://...": a source as the verdict cites it */
static void short_source(char *buf, size_t len, const char *source)
{
	size_t n = strcspn(source, ",");
	snprintf(buf, len, "%.*s", (int)(n < 60 ? n : 60), source);
}

/* The notes of the jobs without a row (reported or ranked figures). */
static void gather_findings(struct fit_report *rep, const struct result *const *res,
			    const char *const *names, unsigned n)
{
	static const enum fit_status asked[] = { FIT_PASS, FIT_FAIL };
	rep->nfindings = 0;
	for (unsigned j = 0; j < n; j++) {
		bool judged = false;
		for (unsigned i = 0; i < rep->nrows; i++)
			judged |= rep->rows[i].job == j;
		for (unsigned k = 0; k < 2 && !judged; k++) {
			char note[FIT_NOTE_LEN];
			note_for(res[j], asked[k], note, sizeof(note), "its figure");
			if (note[0] && rep->nfindings < sizeof(rep->findings) / sizeof(rep->findings[0]))
				snprintf(rep->findings[rep->nfindings++], sizeof(rep->findings[0]), "%s: %s",
					 names[j], note);
		}
	}
}

#define APPEND(buf, ...) snprintf((buf) + strlen(buf), sizeof(buf) - strlen(buf), __VA_ARGS__)

/* The verdict's parts, "; " between them. */
static void part(struct fit_report *rep, bool *any)
{
	if (*any)
		APPEND(rep->verdict, "; ");
	*any = true;
}

static void verdict_rows(struct fit_report *rep, const struct result *const *res,
			 const char *const *names, unsigned n, bool *any)
{
	for (unsigned i = 0; i < rep->nrows; i++) {
		const struct fit_row *row = &rep->rows[i];
		const struct fit_line *line = &rep->spec.require[row->line];
		char label[48], value[32], cite[64];
		fit_label(label, sizeof(label), res[row->job], line->metric);
		fit_format(value, sizeof(value), line->metric, row->value);
		short_source(cite, sizeof(cite), line->source);
		part(rep, any);
		APPEND(rep->verdict, "%s%s%s %s", n > 1 ? names[row->job] : "", n > 1 ? " " : "",
		       label, row->status == FIT_UNKNOWN ? "not measured" : value);
		if (row->status == FIT_PASS)
			APPEND(rep->verdict, " %s %s", fit_op_name(line->op), line->limit_text);
		else if (row->status == FIT_BELOW)
			APPEND(rep->verdict, ", below the recommended %s %s", fit_op_name(line->op),
			       line->limit_text);
		else
			APPEND(rep->verdict, ", not %s %s", fit_op_name(line->op), line->limit_text);
		APPEND(rep->verdict, " (%s)", cite);
	}
}

/* The report lines' figures, job by job: "journal: write IOPS 1.20k, write latency p99 3.1 ms" */
static void verdict_figures(struct fit_report *rep, const struct result *const *res,
			    const char *const *names, unsigned n, bool *any)
{
	const struct fit_spec *spec = &rep->spec;
	for (unsigned j = 0; j < n; j++) {
		char figs[320] = "";
		for (unsigned l = 0; l < spec->nreport; l++) {
			const struct fit_line *line = &spec->report[l];
			char label[48], value[32];
			double v;
			if ((line->job >= 0 && (unsigned)line->job != j) ||
			    !fit_value(res[j], spec->writes_per_op[j], line->metric, &v))
				continue;
			fit_label(label, sizeof(label), res[j], line->metric);
			fit_format(value, sizeof(value), line->metric, v);
			APPEND(figs, "%s%s %s", figs[0] ? ", " : "", label, value);
		}
		if (!figs[0])
			continue;
		part(rep, any);
		APPEND(rep->verdict, "%s%s%s", n > 1 ? names[j] : "", n > 1 ? ": " : "", figs);
	}
}

/* The rank lines' best: "best by ops/s: one write: fdatasync 5.55k (180 us/op)" */
static void verdict_best(struct fit_report *rep, const struct result *const *res,
			 const char *const *names, bool *any)
{
	bool sizes = false;
	for (unsigned g = 0; g < rep->nbest; g++)
		sizes |= rep->best[g].writes_per_op != rep->best[0].writes_per_op;
	for (unsigned g = 0; g < rep->nbest; g++) {
		const struct fit_best *b = &rep->best[g];
		const struct fit_line *line = &rep->spec.rank[b->line];
		char label[48], value[32], size[32] = "";
		if (b->job < 0)
			continue;
		fit_label(label, sizeof(label), res[b->job], line->metric);
		fit_format(value, sizeof(value), line->metric, b->value);
		if (sizes)
			snprintf(size, sizeof(size), b->writes_per_op == 1 ? "one write: " : "%u writes: ",
				 b->writes_per_op);
		part(rep, any);
		if (line->label[0] && (g == 0 || rep->best[g - 1].line != b->line))
			APPEND(rep->verdict, "%s: ", line->label);
		else if (!line->label[0])
			APPEND(rep->verdict, "best by %s: ", label);
		APPEND(rep->verdict, "%s%s (%s %s", size, names[b->job], value, label);
		if (line->metric == FM_OPS) {
			fmt_ns(value, sizeof(value), 1e9 / b->value);
			APPEND(rep->verdict, ", %s/op", value);
		}
		APPEND(rep->verdict, ")");
	}
}

static void advise(struct fit_report *rep)
{
	bool explained = false, below = false;
	for (unsigned i = 0; i < rep->nrows; i++) {
		explained |= rep->rows[i].status != FIT_PASS &&
			     strncmp(rep->rows[i].note, "explained", 9) == 0;
		below |= rep->rows[i].status == FIT_BELOW;
	}
	if (explained)
		APPEND(rep->advice, "a limit above the disk set the failing figures: measure outside "
		       "it to judge the disk. ");
	if (rep->undermined)
		APPEND(rep->advice, "durability was not shown: check that the drive has power-loss "
		       "protection, or that the hypervisor's cache mode reaches stable storage. ");
	if (below && rep->pass)
		APPEND(rep->advice, "a recommended figure was missed: fit for a light load, not for the "
		       "heavy load the recommendation names. ");
	size_t n = strlen(rep->advice);
	if (n > 0 && rep->advice[n - 1] == ' ')
		rep->advice[n - 1] = '\0';
}

void fit_judge(struct fit_report *rep, const struct result *const *results,
	       const char *const *names, unsigned n)
{
	rep->nrows = rep->nbest = 0;
	rep->undermined = false;
	rep->advice[0] = '\0';
	judge_rows(rep, results, n);
	judge_ranks(rep, results, n);
	gather_findings(rep, results, names, n);
	rep->judged = true;
	snprintf(rep->verdict, sizeof(rep->verdict), "%s: ", rep->profile);
	if (rep->spec.nrequire)
		APPEND(rep->verdict, "%s: ", !rep->pass ? "not fit" : rep->undermined
					   ? "fit, undermined (see below)" : "fit");
	bool any = false;
	verdict_rows(rep, results, names, n, &any);
	verdict_figures(rep, results, names, n, &any);
	verdict_best(rep, results, names, &any);
	advise(rep);
}
