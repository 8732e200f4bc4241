/* The SVG writer and its charts: escaping, nice ticks, log axes, unit
 * labels, colours apart in greyscale, and the elements each chart and each
 * command's picture writes (bars per bucket, points per level, marks with
 * their values, cells per value), with nothing that points outside. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "output_svg.h"
#include "quick.h"
#include "series.h"
#include "svg_chart.h"
#include "sweep.h"

static char *out;
static size_t out_len;

static FILE *begin_capture(void)
{
	free(out);
	out = NULL;
	FILE *f = open_memstream(&out, &out_len);
	assert_non_null(f);
	return f;
}

static void end_capture(FILE *f)
{
	assert_int_equal(fclose(f), 0);
}

static unsigned count(const char *haystack, const char *needle)
{
	unsigned n = 0;
	for (const char *p = haystack; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* What every document must be: balanced groups and text, nothing outside. */
static void assert_self_contained(const char *doc)
{
	assert_non_null(strstr(doc, "viewBox=\"0 0 "));
	assert_int_equal(count(doc, "<g"), count(doc, "</g>"));
	assert_int_equal(count(doc, "<text"), count(doc, "</text>"));
	assert_null(strstr(doc, "href"));
	assert_null(strstr(doc, "url("));
	assert_null(strstr(doc, "@import"));
	assert_null(strstr(doc, "<script"));
	assert_null(strstr(doc, "nan"));
	assert_null(strstr(doc, "inf\""));
}

static void escaped(const char *in, const char *want)
{
	FILE *f = begin_capture();
	svg_write_escaped(f, in);
	end_capture(f);
	assert_string_equal(out, want);
}

static void test_escaping(void **state)
{
	(void)state;
	escaped("a<b&c\"d'e>f", "a&lt;b&amp;c&quot;d&apos;e&gt;f");
	escaped("/tmp/<dir>&\"x\"", "/tmp/&lt;dir&gt;&amp;&quot;x&quot;");
	escaped("caf\xc3\xa9 \xe2\x86\x92", "caf\xc3\xa9 \xe2\x86\x92"); /* UTF-8 kept */
	escaped("bad\xff\xc3(", "bad\xef\xbf\xbd\xef\xbf\xbd("); /* not UTF-8: U+FFFD */
	escaped("\x01\x1b\x7f", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); /* XML forbids them */
	escaped("\xef\xbf\xbe", "\xef\xbf\xbd");                       /* U+FFFE */
	escaped("a\tb\nc", "a&#9;b&#10;c");
	escaped("", "");
}

static void test_wrapping(void **state)
{
	(void)state;
	struct svg s = { 0 };
	struct svg_font font = { .size = 10 };
	assert_int_equal(svg_wrap_lines(1000, 10, "short"), 1);
	const char *text = "\xc3\xa9\xc3\xa9\xc3\xa9 words that go on and on beyond one line of text "
			   "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9";
	unsigned lines = svg_wrap_lines(100, 10, text);
	assert_true(lines >= 4);
	s.f = begin_capture();
	assert_int_equal(svg_text_wrapped(&s, 0, 0, 100, &font, text), lines);
	end_capture(s.f);
	assert_int_equal(count(out, "<tspan"), lines);
	assert_null(strstr(out, "\xef\xbf\xbd")); /* no sequence cut in two */
}

static void test_nice_ticks(void **state)
{
	(void)state;
	double t[32];
	assert_true(svg_nice_step(10, 5) == 2);
	assert_true(svg_nice_step(7, 5) == 2);
	assert_true(fabs(svg_nice_step(1, 5) - 0.2) < 1e-12);
	assert_true(svg_nice_step(95, 6) == 20);
	assert_true(svg_nice_step(3e9, 6) == 5e8);
	double lo = 0, hi = 97;
	svg_nice_range(&lo, &hi, 5);
	assert_true(lo == 0 && hi == 100);
	lo = 3, hi = 3; /* nothing to span: still a range */
	svg_nice_range(&lo, &hi, 5);
	assert_true(hi > lo);
	unsigned n = svg_linear_ticks(0, 1.2e9, 6, t, 32);
	assert_int_equal(n, 7);
	assert_true(t[0] == 0 && t[1] == 2e8 && t[6] == 1.2e9);
	n = svg_linear_ticks(0, 0.9, 10, t, 32); /* 0.1 steps land on round values */
	assert_int_equal(n, 10);
	assert_true(fabs(t[3] - 0.3) < 1e-12);
	assert_int_equal(svg_linear_ticks(0, 1e6, 6, t, 3), 3); /* capped */
}

static void test_log_axes(void **state)
{
	(void)state;
	double t[32], lo = 37, hi = 4100;
	svg_log_range(&lo, &hi);
	assert_true(lo == 10 && hi == 10000);
	unsigned n = svg_log_ticks(10, 1e6, t, 32);
	assert_int_equal(n, 6); /* five decades: powers of ten alone */
	assert_true(t[0] == 10 && fabs(t[5] - 1e6) < 1e-6);
	n = svg_log_ticks(100, 5000, t, 32);
	assert_int_equal(n, 6); /* few decades: 1, 2, 5 within each */
	assert_true(t[0] == 100 && t[1] == 200 && t[2] == 500 && t[5] == 5000);
	assert_int_equal(svg_log_ticks(0, 10, t, 32), 0);
	struct svg_axis a = { SVG_LOG, 10, 1000, 0, 200 };
	assert_true(fabs(svg_axis_pos(&a, 100) - 100) < 1e-9);
	assert_true(svg_axis_pos(&a, 0) == 0);
	struct svg_axis y = { SVG_LINEAR, 0, 50, 300, 100 }; /* upwards */
	assert_true(svg_axis_pos(&y, 25) == 200);
}

/* A bottom axis that ends 20 px from the picture's right edge: its last
 * label ends at its tick instead of running past the edge; the others
 * stay centred, and a first label at the left edge starts at its tick. */
static void test_axis_labels_inside(void **state)
{
	(void)state;
	static const double ticks[] = { 1e9, 1e10, 1e11 };
	struct svg_axis a = { SVG_LOG, 1e9, 1e11, 0, 880 };
	struct svg_axis_draw d = { SVG_BOTTOM, 100, NAN, SVG_RATE_SI, NULL, ticks, 3 };
	struct svg s;
	FILE *f = begin_capture();
	svg_begin(&s, f, 900, 200, "axis", "axis");
	svg_axis(&s, &a, &d);
	svg_end(&s);
	end_capture(f);
	assert_non_null(strstr(out, "x=\"880.0\" y=\"118.0\" font-size=\"11\" text-anchor=\"end\""));
	assert_non_null(strstr(out, "x=\"440.0\" y=\"118.0\" font-size=\"11\" text-anchor=\"middle\""));
	assert_non_null(strstr(out, "x=\"0.0\" y=\"118.0\" font-size=\"11\" fill="));
}

static void formatted(enum svg_unit unit, double v, const char *want)
{
	char buf[32];
	svg_format(buf, sizeof(buf), unit, v);
	assert_string_equal(buf, want);
}

static void test_units(void **state)
{
	(void)state;
	formatted(SVG_NS, 1000, "1 us");
	formatted(SVG_NS, 1.5e6, "1.5 ms");
	formatted(SVG_NS, 500, "500 ns");
	formatted(SVG_NS, 0, "0");
	formatted(SVG_RATE_SI, 2e8, "200 MB/s");
	formatted(SVG_RATE_SI, 1.2e9, "1.2 GB/s");
	formatted(SVG_RATE_IEC, 512.0 * 1024 * 1024, "512 MiB/s");
	formatted(SVG_COUNT, 1500, "1.5k");
	formatted(SVG_COUNT, 20000, "20k");
	formatted(SVG_BYTES_IEC, 4096, "4 KiB");
	formatted(SVG_SECONDS, 2.5, "2.5 s");
	formatted(SVG_SECONDS, 0, "0 s");
	formatted(SVG_PERCENT, 25, "25 %");
	formatted(SVG_PLAIN, 64, "64");
}

static void test_greyscale(void **state)
{
	(void)state;
	char ramp[8], prev[8] = "#ffffff";
	assert_true(svg_lightness("#000000") < 0.01 && svg_lightness("#ffffff") > 99.9);
	assert_true(svg_lightness("#12345") < 0 && svg_lightness("blue") < 0);
	for (unsigned i = 0; i < SVG_SERIES_STYLES; i++)
		for (unsigned k = i + 1; k < SVG_SERIES_STYLES; k++) {
			const struct svg_stroke *a = &svg_series_style[i], *b = &svg_series_style[k];
			assert_true(fabs(svg_lightness(a->colour) - svg_lightness(b->colour)) >= 15);
			assert_string_not_equal(a->dash, b->dash);
		}
	assert_true(svg_lightness(SVG_BAR) - svg_lightness(SVG_BAR_EDGE) >= 30);
	for (unsigned i = 0; i <= 10; i++) { /* the heat map's ramp darkens all the way */
		chart_ramp(i / 10.0, ramp);
		assert_true(svg_lightness(ramp) < svg_lightness(prev));
		memcpy(prev, ramp, sizeof(prev));
	}
}

static struct stats lat;

static void test_histogram(void **state)
{
	(void)state;
	uint64_t counts[STATS_LOG2_BUCKETS];
	struct chart_bin bins[STATS_LOG2_BUCKETS];
	struct svg s;
	stats_init(&lat);
	for (uint64_t v = 0; v < 1000; v++)
		stats_add(&lat, 20000 + v * 37);
	stats_add(&lat, 9000000); /* a lone slow one, buckets away */
	stats_log2_counts(&lat, counts);
	unsigned nbins = chart_bins_log2(counts, bins), nonempty = 0;
	for (unsigned k = 0; k < STATS_LOG2_BUCKETS; k++)
		nonempty += counts[k] > 0;
	assert_int_equal(nbins, nonempty);
	assert_true(bins[0].lo == 16384 && bins[0].hi == 32768);
	struct chart_mark marks[] = { { 38000, "p50", "p50", NULL }, { 56000, "p99", "p99", NULL } };
	struct chart_hist h = { "latency <of> \"x\"", SVG_NS, "latency", bins, nbins, lat.count, marks, 2 };
	FILE *f = begin_capture();
	double y = svg_begin(&s, f, 900, CHART_HIST_HEIGHT, "title & more", "desc");
	chart_histogram(&s, &(struct chart_box){ 0, y, 900, CHART_HIST_HEIGHT }, &h);
	svg_end(&s);
	end_capture(f);
	assert_self_contained(out);
	assert_int_equal(count(out, "class=\"bar\""), nbins);
	assert_int_equal(count(out, "class=\"marker\""), 2);
	assert_non_null(strstr(out, "data-key=\"p99\" data-value=\"56000\""));
	assert_non_null(strstr(out, ">p99 56 us<"));
	assert_int_equal(count(out, "class=\"cumulative\""), 1);
	assert_non_null(strstr(out, "latency &lt;of&gt; &quot;x&quot;"));
	assert_non_null(strstr(out, "<title id=\"svg-title\">title &amp; more</title>"));
}

static void test_xy(void **state)
{
	(void)state;
	static const double x[] = { 1, 2, 4, 8 }, iops[] = { 1e3, 2e3, 3.5e3, 3.6e3 };
	static const double p99[] = { 1e5, NAN, 3e5, 9e5 };
	struct chart_series series[] = { { "IOPS", x, iops, 4, 0, false, 0, true },
					  { "p99", x, p99, 4, 1, false, 0, true } };
	struct chart_callout callout = { 0, 3, "max IOPS 3.6k @ 8" };
	struct chart_mark knee = { 4, "knee", "knee", NULL };
	struct chart_xy c = { "load", { SVG_LOG, SVG_PLAIN, "outstanding", 0, 0, x, 4 },
			      { { SVG_LINEAR, SVG_COUNT, "IOPS", 0, 0, NULL, 0 },
				{ SVG_LOG, SVG_NS, "latency", 0, 0, NULL, 0 } },
			      series, 2, &knee, 1, &callout, 1, "line one\nline two" };
	struct svg s;
	FILE *f = begin_capture();
	double h = chart_xy_height(&c, 900);
	assert_true(h > chart_xy_height(&(struct chart_xy){ .nseries = 0 }, 900));
	double y = svg_begin(&s, f, 900, h, "xy", "xy");
	chart_xy(&s, &(struct chart_box){ 0, y, 900, h }, &c);
	svg_end(&s);
	end_capture(f);
	assert_self_contained(out);
	assert_int_equal(count(out, "class=\"point\""), 7); /* the gap has no point */
	assert_int_equal(count(out, "<polyline"), 2);       /* p99 has one point after its gap */
	assert_int_equal(count(out, "class=\"callout\""), 1);
	assert_non_null(strstr(out, "data-key=\"knee\" data-value=\"4\""));
	assert_non_null(strstr(out, ">line two<"));
	assert_non_null(strstr(out, ">8<")); /* the given ticks */
}

/* The label's baseline against its point's centre in the first callout of
 * out: > 0 below the point, < 0 above. */
static double callout_offset(const char *svg)
{
	const char *g = strstr(svg, "<g class=\"callout\">");
	assert_non_null(g);
	const char *cy = strstr(g, "cy=\""), *text = strstr(g, "<text");
	assert_non_null(cy);
	assert_non_null(text);
	const char *ty = strstr(text, " y=\"");
	assert_non_null(ty);
	return strtod(ty + 4, NULL) - strtod(cy + 4, NULL);
}

/* A latency at its least on the left, rising with the load: its label goes
 * below the point, not onto the line; a figure falling from its left point
 * keeps its label above. */
static void test_callout_clear_of_the_line(void **state)
{
	(void)state;
	static const double x[] = { 1, 2, 4, 8 }, rising[] = { 6e4, 2e5, 6e5, 2e6 };
	static const double falling[] = { 4e3, 2e3, 1e3, 5e2 };
	for (int climb = 1; climb >= 0; climb--) {
		struct chart_series series[] = { { "lat", x, climb ? rising : falling, 4, 0, false, 0,
						   true } };
		struct chart_callout callout = { 0, 0, "min latency 60.0 us mean @ 1" };
		struct chart_xy c = { "load", { SVG_LOG, SVG_PLAIN, "outstanding", 0, 0, x, 4 },
				      { { SVG_LOG, SVG_NS, "latency", 0, 0, NULL, 0 },
					{ SVG_LOG, SVG_NS, "latency", 0, 0, NULL, 0 } },
				      series, 1, NULL, 0, &callout, 1, NULL };
		struct svg s;
		FILE *f = begin_capture();
		double h = chart_xy_height(&c, 900);
		double y = svg_begin(&s, f, 900, h, "xy", "xy");
		chart_xy(&s, &(struct chart_box){ 0, y, 900, h }, &c);
		svg_end(&s);
		end_capture(f);
		double off = callout_offset(out);
		if (climb ? off <= 0 : off >= 0)
			fail_msg("a %s line: label %.1f px from its point", climb ? "rising" : "falling",
				 off);
	}
}

static void test_bars_and_bullets(void **state)
{
	(void)state;
	struct chart_bar bars[] = { { "host-a", 500e6, false }, { "host-b", 520e6, false },
				    { "host-c", 90e6, true }, { "host-d", NAN, false } };
	struct chart_band band = { 400e6, 600e6, "SATA SSD range", false };
	struct chart_bars c = { "per host", { SVG_LINEAR, SVG_RATE_SI, "throughput", 0, 0, NULL, 0 },
				bars, 4, true, 500e6, &band, 1 };
	struct chart_bullet rows[] = { { "seq", 520e6, SVG_RATE_SI, 0, 0, &band, 1 },
				       { "not run", 0, SVG_COUNT, 0, 0, NULL, 0 } };
	struct svg s;
	FILE *f = begin_capture();
	double y = svg_begin(&s, f, 900, CHART_BARS_HEIGHT + chart_bullets_height(2), "bars", "bars");
	chart_bars(&s, &(struct chart_box){ 0, y, 900, CHART_BARS_HEIGHT }, &c);
	chart_bullets(&s, &(struct chart_box){ 0, y + CHART_BARS_HEIGHT, 900, chart_bullets_height(2) },
		      "bullets", rows, 2);
	svg_end(&s);
	end_capture(f);
	assert_self_contained(out);
	assert_int_equal(count(out, "class=\"bar\""), 3);   /* two bars, the seq bullet */
	assert_int_equal(count(out, "class=\"bar outlier\""), 1);
	assert_int_equal(count(out, "class=\"band\""), 2);
	assert_non_null(strstr(out, "<line class=\"median\" data-value=\"500000000\""));
	assert_non_null(strstr(out, ">median 500 MB/s<"));
	assert_non_null(strstr(out, ">not measured<"));
}

static void test_heatmap(void **state)
{
	(void)state;
	static const char *const cols[] = { "4 KiB", "64 KiB", "1 MiB" };
	static const char *const rows[] = { "16 MiB", "1 GiB" };
	const double values[] = { 40e6, 600e6, 2.5e9, 35e6, NAN, 2.4e9 };
	struct chart_heat c = { "matrix", "block size", "file size", cols, 3, rows, 2, values,
				SVG_RATE_SI };
	struct svg s;
	FILE *f = begin_capture();
	double y = svg_begin(&s, f, 900, chart_heatmap_height(2), "heat", "heat");
	chart_heatmap(&s, &(struct chart_box){ 0, y, 900, chart_heatmap_height(2) }, &c);
	svg_end(&s);
	end_capture(f);
	assert_self_contained(out);
	assert_int_equal(count(out, "class=\"cell\""), 5);
	assert_int_equal(count(out, "class=\"cell missing\""), 1);
	assert_non_null(strstr(out, "data-row=\"1\" data-col=\"2\" data-value=\"2400000000\""));
	assert_non_null(strstr(out, ">2.5 GB/s<"));
	assert_non_null(strstr(out, "fill=\"#ffffff\">2.5 GB/s<")); /* light text on the darkest */
	assert_non_null(strstr(out, "fill=\"#1a1a1a\">35 MB/s<"));  /* dark text on the lightest */
}

static struct options opt;
static struct result r;
static struct series se;

static void fill_result(void)
{
	memset(&r, 0, sizeof(r));
	opt = (struct options){ .bs = 4096, .threads = 1, .qd = 1, .direct = true };
	r.test = "randread";
	r.target = "/tmp/<a&b>";
	snprintf(r.file, sizeof(r.file), "/tmp/<a&b>/it's \"here\"");
	r.opt = &opt;
	r.bytes = 4096ull * lat.count;
	r.ios = lat.count;
	r.seconds = 2;
	r.lat = lat;
	r.measured = true;
	series_init(&se, 0.5);
	for (unsigned i = 1; i <= 4; i++)
		series_add_cumulative(&se, 0.5 * i, 1000000ull * i * (i < 3 ? 2 : 1), 250u * i);
	r.series = &se;
	r.findings[0] = (struct finding){ "cliff", 1, { { "at_s", 1.0, 3 } } };
	r.findings[1] = (struct finding){ "unsteady", 1, { { "cv", 0.412, 3 } } };
	r.nfindings = 2;
}

static void test_single_test_picture(void **state)
{
	(void)state;
	fill_result();
	FILE *f = begin_capture();
	out_svg(f, &r);
	end_capture(f);
	assert_self_contained(out);
	uint64_t counts[STATS_LOG2_BUCKETS];
	struct chart_bin bins[STATS_LOG2_BUCKETS];
	stats_log2_counts(&r.lat, counts);
	assert_int_equal(count(out, "class=\"bar\""), chart_bins_log2(counts, bins));
	char want[64];
	snprintf(want, sizeof(want), "data-key=\"p99.9\" data-value=\"%llu\"",
		 (unsigned long long)stats_percentile(&r.lat, 99.9));
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, "data-key=\"cliff\" data-value=\"1\""));
	assert_non_null(strstr(out, "unsteady (cv 0.412)"));
	assert_non_null(strstr(out, "/tmp/&lt;a&amp;b&gt;/it&apos;s &quot;here&quot;"));
	assert_non_null(strstr(out, "<title id=\"svg-title\">randread: "));
	assert_int_equal(count(out, "class=\"chart "), 2);
	se.n = 1; /* one sample: no chart over time */
	f = begin_capture();
	out_svg(f, &r);
	end_capture(f);
	assert_int_equal(count(out, "class=\"chart "), 1);
}

static struct sweep_result sw;

static void add_point(struct sweep_series *s, unsigned level, double iops, double mean)
{
	struct sweep_point *p = &s->points[s->npoints];
	s->levels[s->npoints++] = level;
	s->nlevels = s->npoints;
	*p = (struct sweep_point){ .level = level, .threads = level, .qd = 1, .seconds = 1,
				   .ios = (uint64_t)iops, .bytes = (uint64_t)iops * s->bs };
	p->lat.count = p->ios, p->lat.mean = mean;
	p->lat.p50 = (uint64_t)mean, p->lat.p99 = (uint64_t)(mean * 3);
}

static void test_sweep_picture(void **state)
{
	(void)state;
	fill_result();
	memset(&sw, 0, sizeof(sw));
	sw.nseries = 2;
	sw.series[0] = (struct sweep_series){ .workload = "small_random_read", .bs = 4096 };
	sw.series[1] = (struct sweep_series){ .workload = "large_seq_read", .large = true, .bs = 1 << 20 };
	static const double iops[] = { 10e3, 19e3, 35e3, 50e3, 52e3 };
	for (unsigned i = 0; i < 5; i++)
		add_point(&sw.series[0], 1u << i, iops[i], 100e3 * (1u << i) / (iops[i] / 10e3));
	add_point(&sw.series[1], 1, 1000, 1e6);
	add_point(&sw.series[1], 2, 1500, 1.3e6);
	r.detail = &sw;
	r.test = "sweep";
	FILE *f = begin_capture();
	out_svg_sweep(f, &r);
	end_capture(f);
	assert_self_contained(out);
	assert_int_equal(count(out, "<g class=\"series\" data-series=\"IOPS\""), 1);
	assert_int_equal(count(out, "class=\"point\""), 3 * 5 + 3 * 2);
	char knee[64];
	snprintf(knee, sizeof(knee), "data-key=\"knee\" data-value=\"%u\"",
		 sw.series[0].points[sweep_knee(&sw.series[0])].level);
	assert_non_null(strstr(out, knee));
	assert_non_null(strstr(out, "max IOPS: 52k @ 16 outstanding"));
	assert_non_null(strstr(out, "max MB/s: "));
}

static struct quick_report q;

static void test_quick_picture(void **state)
{
	(void)state;
	memset(&q, 0, sizeof(q));
	q.figures = (struct quick_figures){ .seq_read_bps = 520e6, .qd1_lat_p50_ns = 90e3,
					    .qd1_iops = 10e3, .qd32_iops = 94e3, .rotational = -1 };
	classify(&q.figures, &q.verdict);
	verdict_line(q.line, sizeof(q.line), &q.figures, &q.verdict);
	assert_non_null(q.verdict.cls);
	q.nsteps = 2;
	q.labels[0] = "SEQ1M Q1T1 read", q.labels[1] = "RND4K Q32T1 read";
	q.steps[0] = (struct result){ .bytes = 520000000, .seconds = 1, .measured = true };
	q.steps[1] = (struct result){ .bytes = 94000ull * 4096, .seconds = 1, .measured = true };
	fill_result();
	r.detail = &q;
	FILE *f = begin_capture();
	out_svg_quick(f, &r);
	end_capture(f);
	assert_self_contained(out);
	char title[600];
	snprintf(title, sizeof(title), "<title id=\"svg-title\">%s</title>", q.line);
	assert_non_null(strstr(out, title));
	assert_int_equal(count(out, "class=\"band\""), q.verdict.second ? 6 : 3);
	assert_int_equal(count(out, "class=\"bar\""), 4 + 2); /* four measured figures, two steps */
	assert_non_null(strstr(out, ">not measured<"));      /* no write step */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_wrapping),
		cmocka_unit_test(test_nice_ticks),
		cmocka_unit_test(test_log_axes),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_greyscale),
		cmocka_unit_test(test_histogram),
		cmocka_unit_test(test_xy),
		cmocka_unit_test(test_callout_clear_of_the_line),
		cmocka_unit_test(test_axis_labels_inside),
		cmocka_unit_test(test_bars_and_bullets),
		cmocka_unit_test(test_heatmap),
		cmocka_unit_test(test_single_test_picture),
		cmocka_unit_test(test_sweep_picture),
		cmocka_unit_test(test_quick_picture),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	free(out);
	return failed;
}
