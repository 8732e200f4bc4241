/* A fit profile's directives read into its requirements, reports and
 * rankings: see fitspec.h. */
#define _POSIX_C_SOURCE 200809L
#include "fitspec.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

static const struct fit_metric_def metrics[FM_NMETRICS] = {
	[FM_IOPS] = { "iops", "IOPS", FIT_PER_SEC, true },
	[FM_READ_IOPS] = { "read.iops", "read IOPS", FIT_PER_SEC, true },
	[FM_WRITE_IOPS] = { "write.iops", "write IOPS", FIT_PER_SEC, true },
	[FM_BW] = { "bw", "throughput", FIT_BYTES_PER_SEC, true },
	[FM_READ_BW] = { "read.bw", "read throughput", FIT_BYTES_PER_SEC, true },
	[FM_WRITE_BW] = { "write.bw", "write throughput", FIT_BYTES_PER_SEC, true },
	[FM_LAT_MIN] = { "lat.min", "latency min", FIT_NS, false },
	[FM_LAT_MEAN] = { "lat.mean", "latency mean", FIT_NS, false },
	[FM_LAT_P50] = { "lat.p50", "latency p50", FIT_NS, false },
	[FM_LAT_P90] = { "lat.p90", "latency p90", FIT_NS, false },
	[FM_LAT_P99] = { "lat.p99", "latency p99", FIT_NS, false },
	[FM_LAT_P999] = { "lat.p99.9", "latency p99.9", FIT_NS, false },
	[FM_LAT_MAX] = { "lat.max", "latency max", FIT_NS, false },
	[FM_READ_LAT_P50] = { "read.lat.p50", "read latency p50", FIT_NS, false },
	[FM_READ_LAT_P99] = { "read.lat.p99", "read latency p99", FIT_NS, false },
	[FM_WRITE_LAT_P50] = { "write.lat.p50", "write latency p50", FIT_NS, false },
	[FM_WRITE_LAT_P99] = { "write.lat.p99", "write latency p99", FIT_NS, false },
	[FM_SYNC_MIN] = { "sync.min", "sync min", FIT_NS, false },
	[FM_SYNC_MEAN] = { "sync.mean", "sync mean", FIT_NS, false },
	[FM_SYNC_P50] = { "sync.p50", "sync p50", FIT_NS, false },
	[FM_SYNC_P90] = { "sync.p90", "sync p90", FIT_NS, false },
	[FM_SYNC_P99] = { "sync.p99", "sync p99", FIT_NS, false },
	[FM_SYNC_P999] = { "sync.p99.9", "sync p99.9", FIT_NS, false },
	[FM_SYNC_MAX] = { "sync.max", "sync max", FIT_NS, false },
	[FM_SYNC_IOPS] = { "sync.iops", "syncs/s", FIT_PER_SEC, true },
	[FM_OPS] = { "ops", "ops/s", FIT_PER_SEC, true },
	[FM_USECS_PER_OP] = { "usecs_per_op", "time per op", FIT_NS, false },
};

const struct fit_metric_def *fit_metric_def(enum fit_metric m)
{
	return (unsigned)m < FM_NMETRICS ? &metrics[m] : NULL;
}

int fit_metric_parse(const char *name)
{
	for (int m = 0; m < FM_NMETRICS; m++)
		if (strcmp(name, metrics[m].name) == 0)
			return m;
	return -1;
}

const char *fit_op_name(enum fit_op op)
{
	static const char *const names[] = { [FIT_LT] = "<", [FIT_LE] = "<=", [FIT_GT] = ">",
					     [FIT_GE] = ">=" };
	return (unsigned)op < 4 ? names[op] : "?";
}

/* a decimal number without sign, exponent or hexadecimal */
static int read_number(const char *text, double *out, const char **end)
{
	char *e;
	if (!isdigit((unsigned char)text[0]))
		return -1;
	if (strspn(text, "0123456789.") == 0)
		return -1;
	double v = strtod(text, &e);
	if ((size_t)(e - text) > strspn(text, "0123456789.") || !isfinite(v))
		return -1;
	*out = v;
	*end = e;
	return 0;
}

int fit_parse_limit(const char *text, enum fit_unit u, double *out, const char **why)
{
	const char *end;
	double v;
	if (u == FIT_BYTES_PER_SEC) {
		char size[32];
		size_t n = strlen(text);
		uint64_t bytes;
		if (n < 3 || n >= sizeof(size) || strcmp(text + n - 2, "/s") != 0) {
			*why = "a throughput is a size per second: 100MB/s, 1GiB/s";
			return -1;
		}
		snprintf(size, sizeof(size), "%.*s", (int)(n - 2), text);
		if (parse_size(size, &bytes, why) != 0)
			return -1;
		*out = (double)bytes;
		return 0;
	}
	if (read_number(text, &v, &end) != 0) {
		*why = "not a number";
		return -1;
	}
	if (u == FIT_NS) {
		double unit = strcmp(end, "ns") == 0 ? 1 : strcmp(end, "us") == 0 ? 1e3
			      : strcmp(end, "ms") == 0 ? 1e6 : strcmp(end, "s") == 0 ? 1e9 : 0;
		if (unit == 0) {
			*why = "a time needs its unit: ns, us, ms or s (10ms)";
			return -1;
		}
		*out = v * unit;
		return 0;
	}
	double scale = strcmp(end, "") == 0 ? 1 : strcmp(end, "k") == 0 ? 1e3
		       : strcmp(end, "M") == 0 ? 1e6 : 0;
	if (scale == 0) {
		*why = "a count per second: 500, 1.5k or 2M";
		return -1;
	}
	*out = v * scale;
	return 0;
}

struct reader {
	const struct jobfile *jf;
	struct fit_spec *spec;
	const char *source;   /* the last source line's, or NULL */
	char *why;
	size_t len;
};

static int error_at(struct reader *rd, const struct jobfile_directive *d, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int error_at(struct reader *rd, const struct jobfile_directive *d, const char *fmt, ...)
{
	char at[256];
	va_list ap;
	jobfile_where(rd->jf, d->at, at, sizeof(at));
	int n = snprintf(rd->why, rd->len, "%s: diskbench-%s: ", at, d->key);
	if (n < 0 || (size_t)n >= rd->len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(rd->why + n, rd->len - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* "sync.p99 < 10ms [recommended]", "write.iops", "ops": words into line. */
static int read_line(struct reader *rd, const struct jobfile_directive *d, struct fit_line *line,
		     bool with_limit)
{
	char copy[JOBFILE_TEXT_LEN], *save = NULL;
	snprintf(copy, sizeof(copy), "%s", d->value);
	char *name = strtok_r(copy, " \t", &save), *op = strtok_r(NULL, " \t", &save);
	char *limit = strtok_r(NULL, " \t", &save), *extra = strtok_r(NULL, " \t", &save);
	int m = name ? fit_metric_parse(name) : -1;
	memset(line, 0, sizeof(*line));
	if (m < 0)
		return error_at(rd, d, "'%s' is not a metric (diskbench-methods(7), FIT, lists them)",
				name ? name : "");
	line->metric = (enum fit_metric)m;
	line->job = d->job;
	line->at = d->at;
	snprintf(line->source, sizeof(line->source), "%s", rd->source ? rd->source : "");
	if (!with_limit && strcmp(d->key, "rank") == 0 && op) { /* its label: the words after */
		const char *rest = strstr(d->value, op);
		snprintf(line->label, sizeof(line->label), "%s", rest);
		return 0;
	}
	if (!with_limit)
		return op ? error_at(rd, d, "names a metric alone: '%s' is too much", op) : 0;
	static const char *const ops[] = { "<", "<=", ">", ">=" };
	int k = -1;
	for (int i = 0; op && i < 4; i++)
		k = strcmp(op, ops[i]) == 0 ? i : k;
	if (k < 0 || !limit)
		return error_at(rd, d, "write METRIC OP LIMIT, OP one of <, <=, >, >= (sync.p99 < 10ms)");
	line->op = (enum fit_op)k;
	const char *reason;
	if (fit_parse_limit(limit, metrics[m].unit, &line->limit, &reason) != 0)
		return error_at(rd, d, "'%s': %s", limit, reason);
	snprintf(line->limit_text, sizeof(line->limit_text), "%s", limit);
	line->recommended = extra && strcmp(extra, "recommended") == 0;
	if (extra && (!line->recommended || strtok_r(NULL, " \t", &save)))
		return error_at(rd, d, "only 'recommended' may follow the limit");
	if (!rd->source)
		return error_at(rd, d, "a requirement needs its public source: a "
				"# diskbench-source: line above it");
	return 0;
}

static int read_directive(struct reader *rd, const struct jobfile_directive *d)
{
	struct fit_spec *spec = rd->spec;
	const char *k = d->key;
	if (strcmp(k, "about") == 0) {
		snprintf(spec->about, sizeof(spec->about), "%s", d->value);
	} else if (strcmp(k, "alias") == 0) {
		if (spec->naliases == FIT_MAX_ALIASES || strlen(d->value) >= JOBFILE_NAME_LEN ||
		    strpbrk(d->value, " \t/"))
			return error_at(rd, d, "one name (no blank or '/'), at most %d of them",
					FIT_MAX_ALIASES);
		snprintf(spec->alias[spec->naliases++], JOBFILE_NAME_LEN, "%s", d->value);
	} else if (strcmp(k, "source") == 0) {
		rd->source = d->value;
	} else if (strcmp(k, "op") == 0) {
		char *end;
		long n = strtol(d->value, &end, 10);
		if (d->job < 0 || *end || n < 1 || n > 64)
			return error_at(rd, d, "in a job's section: the writes of one operation, 1 to 64");
		spec->writes_per_op[d->job] = (unsigned)n;
	} else {
		bool req = strcmp(k, "require") == 0, rank = strcmp(k, "rank") == 0;
		unsigned *n = req ? &spec->nrequire : rank ? &spec->nrank : &spec->nreport;
		struct fit_line *lines = req ? spec->require : rank ? spec->rank : spec->report;
		if (*n == FIT_MAX_LINES)
			return error_at(rd, d, "more than %d of them", FIT_MAX_LINES);
		if (read_line(rd, d, &lines[*n], req) != 0)
			return -1;
		(*n)++;
	}
	return 0;
}

int fit_spec_read(const struct jobfile *jf, struct fit_spec *spec, char *why, size_t why_len)
{
	struct reader rd = { jf, spec, NULL, why, why_len };
	memset(spec, 0, sizeof(*spec));
	for (unsigned i = 0; i < JOBFILE_MAX_JOBS; i++)
		spec->writes_per_op[i] = 1;
	for (unsigned i = 0; i < jf->ndirs; i++)
		if (read_directive(&rd, &jf->dirs[i]) != 0)
			return -1;
	if (spec->nrequire + spec->nreport + spec->nrank == 0) {
		snprintf(why, why_len, "%.200s: not a profile: no diskbench-require, -report or -rank "
			 "line says what to judge", jf->files[0]);
		return -1;
	}
	return 0;
}
