#include "series.h"

#include <math.h>
#include <string.h>

_Static_assert(SERIES_CAP % 2 == 0, "samples merge in pairs");

void series_init(struct series *s, double interval_s)
{
	memset(s, 0, sizeof(*s));
	s->interval_s = interval_s;
	s->factor = 1;
}

/* Two intervals' histograms are gone by the time they merge: the p50 is
 * their I/O-weighted mean, the p99 the higher one (an upper bound). */
static void merge_latency(struct series_sample *out, const struct series_sample *a,
			  const struct series_sample *b)
{
	uint64_t ios = a->ios + b->ios;
	double p50 = ios ? ((double)a->p50_ns * (double)a->ios + (double)b->p50_ns * (double)b->ios) /
				   (double)ios
			 : 0.0;
	out->p50_ns = (uint64_t)(p50 + 0.5);
	out->p99_ns = a->p99_ns > b->p99_ns ? a->p99_ns : b->p99_ns;
}

/* The percentiles of the I/Os counted since the last sample ended. */
static void interval_latency(struct series *s, struct series_sample *out, const uint64_t *lat)
{
	uint64_t delta[STATS_COARSE_N];
	for (unsigned i = 0; i < STATS_COARSE_N; i++) {
		delta[i] = lat[i] > s->lat_last[i] ? lat[i] - s->lat_last[i] : 0;
		if (lat[i] > s->lat_last[i])
			s->lat_last[i] = lat[i];
	}
	out->p50_ns = stats_coarse_percentile(delta, 50);
	out->p99_ns = stats_coarse_percentile(delta, 99);
}

/* Halves the samples by adding neighbours; from now on each sample gathers
 * twice as many raw intervals, so all of them span the same time. */
static void merge_pairs(struct series *s)
{
	unsigned out = 0;
	for (unsigned i = 0; i + 1 < s->n; i += 2, out++) {
		struct series_sample m; /* s->s[out] may be s->s[i]: built apart */
		m.t_s = s->s[i + 1].t_s;
		m.bytes = s->s[i].bytes + s->s[i + 1].bytes;
		m.ios = s->s[i].ios + s->s[i + 1].ios;
		merge_latency(&m, &s->s[i], &s->s[i + 1]);
		s->s[out] = m;
	}
	s->n = out;
	s->factor *= 2;
	s->interval_s *= 2;
	s->merged = true;
}

void series_add_cumulative(struct series *s, double elapsed_s, uint64_t bytes, uint64_t ios)
{
	series_add_cumulative_lat(s, elapsed_s, bytes, ios, NULL);
}

void series_add_cumulative_lat(struct series *s, double elapsed_s, uint64_t bytes, uint64_t ios,
			       const uint64_t lat[STATS_COARSE_N])
{
	/* counters only grow; a reading that went backwards adds nothing */
	uint64_t db = bytes > s->last_bytes ? bytes - s->last_bytes : 0;
	uint64_t di = ios > s->last_ios ? ios - s->last_ios : 0;
	s->last_bytes = bytes > s->last_bytes ? bytes : s->last_bytes;
	s->last_ios = ios > s->last_ios ? ios : s->last_ios;
	s->last_t = elapsed_s;
	s->pending.t_s = elapsed_s;
	s->pending.bytes += db;
	s->pending.ios += di;
	if (++s->pending_count < s->factor)
		return;
	if (s->n == SERIES_CAP)
		merge_pairs(s);
	if (s->pending_count < s->factor)
		return;
	if (lat) {
		s->has_lat = true;
		interval_latency(s, &s->pending, lat);
	}
	s->s[s->n++] = s->pending;
	memset(&s->pending, 0, sizeof(s->pending));
	s->pending_count = 0;
}

void series_trim(struct series *s, double end_s)
{
	while (s->n > 0 && s->s[s->n - 1].t_s > end_s)
		s->n--;
}

void series_close(struct series *s, double end_s, uint64_t bytes, uint64_t ios)
{
	uint64_t held_bytes = series_bytes_before(s, s->n), held_ios = 0;
	double last_t = s->n > 0 ? s->s[s->n - 1].t_s : 0.0;
	for (unsigned i = 0; i < s->n; i++)
		held_ios += s->s[i].ios;
	memset(&s->tail, 0, sizeof(s->tail));
	s->has_tail = bytes > held_bytes && end_s > last_t;
	if (!s->has_tail)
		return;
	s->tail.t_s = end_s;
	s->tail.bytes = bytes - held_bytes;
	s->tail.ios = ios > held_ios ? ios - held_ios : 0;
}

double series_tail_span(const struct series *s)
{
	if (!s->has_tail)
		return 0.0;
	return s->tail.t_s - (s->n > 0 ? s->s[s->n - 1].t_s : 0.0);
}

double series_tail_rate(const struct series *s)
{
	double span = series_tail_span(s);
	return span > 0 ? (double)s->tail.bytes / span : 0.0;
}

double series_span(const struct series *s, unsigned i)
{
	double start = i > 0 ? s->s[i - 1].t_s : 0.0;
	return s->s[i].t_s - start;
}

double series_rate(const struct series *s, unsigned i)
{
	double span = series_span(s, i);
	return span > 0 ? (double)s->s[i].bytes / span : 0.0;
}

uint64_t series_bytes_before(const struct series *s, unsigned i)
{
	uint64_t sum = 0;
	for (unsigned k = 0; k < i && k < s->n; k++)
		sum += s->s[k].bytes;
	return sum;
}

void series_summarize(const struct series *s, unsigned from, unsigned to,
		      struct series_summary *out)
{
	double mean = 0, m2 = 0;
	memset(out, 0, sizeof(*out));
	if (to > s->n)
		to = s->n;
	for (unsigned i = from; i < to; i++) {
		double x = series_rate(s, i);
		if (out->n == 0 || x < out->min)
			out->min = x;
		if (out->n == 0 || x > out->max)
			out->max = x;
		out->n++;
		double d = x - mean; /* Welford */
		mean += d / out->n;
		m2 += d * (x - mean);
	}
	out->avg = mean;
	out->stdev = out->n > 1 ? sqrt(m2 / (out->n - 1)) : 0.0;
}

unsigned series_sparkline(const struct series *s, unsigned width, char *buf, size_t len)
{
	static const char *const bars[8] = { "\u2581", "\u2582", "\u2583", "\u2584",
					     "\u2585", "\u2586", "\u2587", "\u2588" };
	struct series_summary sum;
	unsigned chars = s->n < width ? s->n : width, written = 0;
	size_t used = 0;
	series_summarize(s, 0, s->n, &sum);
	if (len > 0)
		buf[0] = '\0';
	if (chars == 0 || sum.max <= 0)
		return 0;
	for (unsigned c = 0; c < chars; c++) {
		/* the samples this character stands for, averaged */
		unsigned from = c * s->n / chars, to = (c + 1) * s->n / chars;
		double total = 0;
		for (unsigned i = from; i < to; i++)
			total += series_rate(s, i);
		/* each bar stands for an eighth of the highest rate; a stall
		 * (nothing moved) shows as a gap */
		int level = (int)ceil(total / (to - from) / sum.max * 8) - 1;
		const char *glyph = level < 0 ? " " : bars[level > 7 ? 7 : level];
		size_t n = strlen(glyph);
		if (used + n >= len)
			break;
		memcpy(buf + used, glyph, n + 1);
		used += n;
		written++;
	}
	return written;
}

double series_ios_rate(const struct series *s, unsigned from)
{
	if (from >= s->n)
		return 0.0;
	uint64_t ios = 0;
	for (unsigned i = from; i < s->n; i++)
		ios += s->s[i].ios;
	double span = s->s[s->n - 1].t_s - (from > 0 ? s->s[from - 1].t_s : 0.0);
	return span > 0 ? (double)ios / span : 0.0;
}
