#define _POSIX_C_SOURCE 200809L
#include "output_series.h"

#include <string.h>
#include <unistd.h>

#include "detect.h"
#include "devinfo_stat.h"
#include "findings.h"
#include "json.h"
#include "output.h"
#include "series.h"
#include "units.h"

#define SPARK_WIDTH 60

/* MB/s with as many decimals as a small figure needs. */
static void mb_per_s(char *buf, size_t len, double bytes_per_sec)
{
	double mb = bytes_per_sec / 1e6;
	snprintf(buf, len, "%.*f", mb >= 100 ? 0 : mb >= 10 ? 1 : 2, mb);
}

/* "1.32k reads 1.8 GiB": one direction of a leaf's counters. */
static void leaf_direction(char *buf, size_t len, uint64_t n, uint64_t sectors, const char *what)
{
	char ios[32], bytes[32];
	if (n < 1000)
		snprintf(ios, sizeof(ios), "%llu", (unsigned long long)n);
	else
		fmt_count(ios, sizeof(ios), (double)n);
	fmt_bytes_iec(bytes, sizeof(bytes), sectors * 512);
	snprintf(buf, len, "%s %s %s", ios, what, bytes);
}

/* "device: vda 98 % busy, 1.32k reads 1.8 GiB, 40 writes 160 KiB; this run
 * read 128 MiB, other I/O 1.7 GiB": each disk's own counters over the run's
 * window (the run's direction always, the other where it moved), then what
 * the run itself moved, and what others did when the disks moved clearly
 * more (findings.h). */
static void text_device_io(FILE *f, const struct result *r)
{
	const struct devio *io = r->device_io;
	bool write = r->dir == IO_WRITE;
	char a[96], b[96], own[32], other[32];
	if (!io || devio_count(io) == 0)
		return;
	fputs("device:", f);
	for (unsigned i = 0, shown = 0; i < io->n; i++) {
		const struct devstat *d = &io->leaf[i].delta;
		if (!io->leaf[i].ok)
			continue;
		leaf_direction(a, sizeof(a), write ? d->writes : d->reads,
			       write ? d->write_sectors : d->read_sectors, write ? "writes" : "reads");
		b[0] = '\0';
		if (write ? d->reads : d->writes)
			leaf_direction(b, sizeof(b), write ? d->reads : d->writes,
				       write ? d->read_sectors : d->write_sectors, write ? "reads" : "writes");
		fprintf(f, "%s %s %.0f %% busy, %s%s%s", shown++ ? ";" : "", io->leaf[i].name,
			devio_util_pct(io, i), a, b[0] ? ", " : "", b);
	}
	if (r->ops) { /* a mix: what it moved is on its operations' lines */
		fputc('\n', f);
		return;
	}
	/* NOPs reach no disk: their bytes are no part of what the disks did */
	bool nop = r->engine && strcmp(r->engine, "nop") == 0;
	uint64_t moved = nop ? 0 : r->bytes;
	fmt_bytes_iec(own, sizeof(own), moved);
	if (nop)
		fputs("; this run moved no data (--engine=nop)", f);
	else
		fprintf(f, "; this run %s %s", write ? "wrote" : "read", own);
	uint64_t others = findings_other_io(devio_read_bytes(io), devio_write_bytes(io),
					    devio_count(io), moved, write);
	if (others > 0) {
		fmt_bytes_iec(other, sizeof(other), others);
		fprintf(f, ", other I/O %s", other);
	}
	fputc('\n', f);
}

/* "p99 per interval: 180 us .. 4.2 ms (worst at t = 12.0 s)": how far the
 * tail moved during the run, which one p99 over the whole run hides. */
static void text_latency_range(FILE *f, const struct series *s)
{
	unsigned lo = s->n, hi = s->n;
	for (unsigned i = 0; s->has_lat && i < s->n; i++) {
		if (s->s[i].ios == 0)
			continue;
		if (lo == s->n || s->s[i].p99_ns < s->s[lo].p99_ns)
			lo = i;
		if (hi == s->n || s->s[i].p99_ns > s->s[hi].p99_ns)
			hi = i;
	}
	if (hi == s->n)
		return;
	char a[32], b[32];
	fmt_ns(a, sizeof(a), (double)s->s[lo].p99_ns);
	fmt_ns(b, sizeof(b), (double)s->s[hi].p99_ns);
	fprintf(f, "lat p99 per interval: %s .. %s (highest in the interval ending at t = %.1f s)\n",
		a, b, s->s[hi].t_s);
}

void out_text_series(FILE *f, const struct result *r)
{
	const struct series *s = r->series;
	struct series_summary sum;
	char v[4][32];
	text_device_io(f, r);
	if (!s || s->n < 2)
		return;
	series_summarize(s, 0, s->n, &sum);
	mb_per_s(v[0], sizeof(v[0]), sum.min);
	mb_per_s(v[1], sizeof(v[1]), sum.max);
	mb_per_s(v[2], sizeof(v[2]), sum.avg);
	mb_per_s(v[3], sizeof(v[3]), sum.stdev);
	fprintf(f, "bw (MB/s): min %s, max %s, avg %s, stdev %s (per %g s, %u samples)\n", v[0],
		v[1], v[2], v[3], s->interval_s, sum.n);
	text_latency_range(f, s);
	if (!isatty(fileno(f)))
		return;
	char line[SPARK_WIDTH * 3 + 1], top[32];
	series_sparkline(s, SPARK_WIDTH, line, sizeof(line));
	fmt_rate_si(top, sizeof(top), sum.max);
	fprintf(f, "bw over time: %s (full bar %s)\n", line, top);
}

static void json_device_io(struct json *j, const struct result *r)
{
	const struct devio *io = r->device_io;
	json_key(j, "device_io");
	if (!io || devio_count(io) == 0) {
		json_null(j);
		return;
	}
	json_array_begin(j);
	for (unsigned i = 0; i < io->n; i++) {
		const struct devio_leaf *l = &io->leaf[i];
		if (!l->ok)
			continue;
		json_object_begin(j);
		json_key(j, "name"), json_string(j, l->name);
		json_key(j, "reads"), json_uint(j, l->delta.reads);
		json_key(j, "read_bytes"), json_uint(j, l->delta.read_sectors * 512);
		json_key(j, "read_merges"), json_uint(j, l->delta.read_merges);
		json_key(j, "writes"), json_uint(j, l->delta.writes);
		json_key(j, "write_bytes"), json_uint(j, l->delta.write_sectors * 512);
		json_key(j, "write_merges"), json_uint(j, l->delta.write_merges);
		json_key(j, "busy_ms"), json_uint(j, l->delta.busy_ms);
		json_key(j, "util_pct"), json_double(j, devio_util_pct(io, i), 1);
		json_key(j, "avg_in_flight"), json_double(j, devio_avg_in_flight(io, i), 2);
		json_object_end(j);
	}
	json_array_end(j);
}

double result_cpu_ns_per_io(const struct result *r)
{
	if (r->cpu_usr_pct < 0 || r->cpu_sys_pct < 0 || r->ios == 0 || r->seconds <= 0)
		return -1;
	return (r->cpu_usr_pct + r->cpu_sys_pct) / 100 * r->seconds * 1e9 / (double)r->ios;
}

/* What the CPU had to do with the figure: the busiest worker's share, the
 * process's user and system time over the window (fio's usr and sys) and
 * per I/O, and the frequency governor (null where the kernel has no
 * cpufreq). */
static void json_cpu(struct json *j, const struct result *r)
{
	json_key(j, "cpu");
	json_object_begin(j);
	json_key(j, "busiest_thread_pct"), json_double(j, r->cpu_busiest * 100, 1);
	json_key(j, "usr_pct");
	r->cpu_usr_pct >= 0 ? json_double(j, r->cpu_usr_pct, 1) : json_null(j);
	json_key(j, "sys_pct");
	r->cpu_sys_pct >= 0 ? json_double(j, r->cpu_sys_pct, 1) : json_null(j);
	json_key(j, "ns_per_io");
	double per_io = result_cpu_ns_per_io(r);
	per_io >= 0 ? json_double(j, per_io, 1) : json_null(j);
	json_key(j, "governor");
	if (r->cpu_governor[0])
		json_string(j, r->cpu_governor);
	else
		json_null(j);
	json_object_end(j);
}

static void json_doubles(struct json *j, const char *key, const double *v, unsigned n, int decimals)
{
	json_key(j, key);
	json_array_begin(j);
	for (unsigned k = 0; k < n; k++)
		json_double(j, v[k], decimals);
	json_array_end(j);
}

/* Each followed disk's temperatures: its limits and a reading per sample. */
static void json_temps(struct json *j, const struct result *r)
{
	json_key(j, "temps");
	json_array_begin(j);
	for (unsigned i = 0; i < r->ntemps; i++) {
		const struct temp_track *t = &r->temps[i];
		json_object_begin(j);
		json_key(j, "name"), json_string(j, t->name);
		json_key(j, "max_c"), json_double(j, t->max_c, 1);
		json_key(j, "crit_c"), json_double(j, t->crit_c, 1);
		json_doubles(j, "t_s", t->t_s, t->n, 3);
		json_doubles(j, "celsius", t->celsius, t->n, 1);
		json_object_end(j);
	}
	json_array_end(j);
}

/* Per-interval p50 and p99: null for an interval in which nothing
 * completed, and the keys absent where no latencies were sampled. */
static void json_latencies(struct json *j, const struct series *s)
{
	static const char *const keys[] = { "p50_ns", "p99_ns" };
	if (!s->has_lat)
		return;
	for (unsigned k = 0; k < 2; k++) {
		json_key(j, keys[k]);
		json_array_begin(j);
		for (unsigned i = 0; i < s->n; i++) {
			uint64_t v = k == 0 ? s->s[i].p50_ns : s->s[i].p99_ns;
			if (s->s[i].ios == 0)
				json_null(j);
			else
				json_uint(j, v);
		}
		json_array_end(j);
	}
}

void out_json_series(struct json *j, const struct result *r)
{
	const struct series *s = r->series;
	if (!s)
		return;
	json_key(j, "series");
	json_object_begin(j);
	json_key(j, "interval_s"), json_double(j, s->interval_s, 3);
	json_key(j, "t_s");
	json_array_begin(j);
	for (unsigned i = 0; i < s->n; i++)
		json_double(j, s->s[i].t_s, 3);
	json_array_end(j);
	json_key(j, "bytes");
	json_array_begin(j);
	for (unsigned i = 0; i < s->n; i++)
		json_uint(j, s->s[i].bytes);
	json_array_end(j);
	json_key(j, "ios");
	json_array_begin(j);
	for (unsigned i = 0; i < s->n; i++)
		json_uint(j, s->s[i].ios);
	json_array_end(j);
	json_latencies(j, s);
	json_key(j, "merged"), json_bool(j, s->merged);
	json_key(j, "tail"); /* the last, shorter interval, apart from the arrays */
	if (s->has_tail) {
		json_object_begin(j);
		json_key(j, "t_s"), json_double(j, s->tail.t_s, 3);
		json_key(j, "bytes"), json_uint(j, s->tail.bytes);
		json_key(j, "ios"), json_uint(j, s->tail.ios);
		json_object_end(j);
	} else {
		json_null(j);
	}
	json_object_end(j);
	json_device_io(j, r);
	json_cpu(j, r);
	json_temps(j, r);
}

void out_json_findings(struct json *j, const struct result *r)
{
	json_key(j, "findings");
	json_array_begin(j);
	for (unsigned i = 0; i < r->nfindings; i++) {
		const struct finding *fd = &r->findings[i];
		json_object_begin(j);
		json_key(j, "key"), json_string(j, fd->key);
		for (unsigned k = 0; k < fd->nfigures; k++) {
			json_key(j, fd->figures[k].name);
			json_double(j, fd->figures[k].value, fd->figures[k].decimals);
		}
		json_object_end(j);
	}
	json_array_end(j);
}

/* One row: an interval of span seconds; lat: its p50 and p99 are known. */
static void csv_series_row(FILE *f, const struct result *r, const struct series_sample *x,
			   double span, bool lat, bool partial)
{
	out_csv_field(f, r->test);
	fputc(',', f);
	out_csv_field(f, r->target);
	fprintf(f, ",%.3f,%llu,%llu,%.1f,%.2f,", x->t_s, (unsigned long long)x->bytes,
		(unsigned long long)x->ios, span > 0 ? (double)x->bytes / span : 0.0,
		span > 0 ? (double)x->ios / span : 0.0);
	if (lat) /* empty: nothing completed, or not sampled */
		fprintf(f, "%llu,%llu", (unsigned long long)x->p50_ns, (unsigned long long)x->p99_ns);
	else
		fputc(',', f);
	fprintf(f, ",%s\n", partial ? "true" : "false");
}

void out_csv_series(FILE *f, const struct result *r)
{
	const struct series *s = r->measured ? r->series : NULL;
	fputs(OUT_CSV_SERIES_HEADER "\n", f);
	for (unsigned i = 0; s && i < s->n; i++)
		csv_series_row(f, r, &s->s[i], series_span(s, i), s->has_lat && s->s[i].ios > 0,
			       false);
	/* the last, shorter interval, so the rows add up to the run's bytes */
	if (s && s->has_tail)
		csv_series_row(f, r, &s->tail, series_tail_span(s), false, true);
}
