/* report's picture: per group (run_id + test), each host's figure of the
 * group's metric (IOPS for random tests, else MB/s) as a bar, the fleet
 * median as the median line and the hosts flagged "outlier" drawn as such;
 * then the group's merged latency histogram with the fleet's p50, p99 and
 * p99.9 marked, the very percentiles the text and JSON say. */
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "output_svg.h"
#include "report.h"
#include "svg_chart.h"

static void print_first_line(FILE *f, const void *r)
{
	report_text(f, r, false, false);
}

static double group_height(const struct fleet_group *g)
{
	return CHART_BARS_HEIGHT + (g->t.has_lat ? CHART_HIST_HEIGHT : 0);
}

static void group_name(char *buf, size_t len, const struct fleet_group *g)
{
	if (g->run_id[0])
		snprintf(buf, len, "%s, run %s", g->test, g->run_id);
	else
		snprintf(buf, len, "%s, no run_id", g->test);
}

static void host_bars(struct svg *s, double y, const struct fleet_group *g, const char *name)
{
	struct chart_bar *bars = calloc(g->n ? g->n : 1, sizeof(*bars));
	char title[320];
	if (bars && g->n == 0) {
		snprintf(title, sizeof(title), "%s: no host's run succeeded", name);
		svg_text(s, 10, y + 20, &(struct svg_font){ .size = 12 }, title);
		free(bars);
		return;
	}
	if (!bars) {
		svg_text(s, 10, y + 20, &(struct svg_font){ .size = 12 }, "out of memory: no bars");
		return;
	}
	for (unsigned i = 0; i < g->n; i++) {
		const struct fleet_row *row = &g->rows[i];
		bars[i] = (struct chart_bar){ row->label,
					      g->by_iops ? row->rec->iops : row->rec->bytes_per_sec,
					      (row->flags & FLAG_OUTLIER) != 0 };
	}
	snprintf(title, sizeof(title), "%s: %s of each of %u hosts, against their median", name,
		 g->by_iops ? "IOPS" : "MB/s", g->n);
	struct chart_bars c = {
		.title = title,
		.value = { SVG_LINEAR, g->by_iops ? SVG_COUNT : SVG_RATE_SI,
			   g->by_iops ? "IOPS" : "throughput", 0, 0, NULL, 0 },
		.bars = bars, .nbars = g->n, .has_median = true, .median = g->t.median,
	};
	chart_bars(s, &(struct chart_box){ 0, y, s->width, CHART_BARS_HEIGHT }, &c);
	free(bars);
}

static void merged_histogram(struct svg *s, double y, const struct fleet_group *g, const char *name)
{
	static struct stats merged;
	struct chart_bin bins[STATS_LOG2_BUCKETS];
	uint64_t counts[STATS_LOG2_BUCKETS];
	char title[320];
	fleet_merged_stats(g, &merged);
	stats_log2_counts(&merged, counts);
	snprintf(title, sizeof(title), "%s: latency of the fleet's %llu I/Os (the hosts' histograms "
		 "merged, buckets of powers of two)", name, (unsigned long long)g->t.lat_count);
	struct chart_mark marks[] = {
		{ (double)g->t.p50, "p50", "p50", NULL },
		{ (double)g->t.p99, "p99", "p99", NULL },
		{ (double)g->t.p99_9, "p99.9", "p99.9", NULL },
	};
	struct chart_hist h = { title, SVG_NS, "latency of one I/O (log scale)", bins,
				chart_bins_log2(counts, bins), merged.count, marks, 3 };
	chart_histogram(s, &(struct chart_box){ 0, y, s->width, CHART_HIST_HEIGHT }, &h);
}

void out_svg_report(FILE *f, const struct result *r)
{
	const struct report_detail *d = r->detail;
	const struct fleet_report *rep = &d->rep;
	struct svg s;
	char title[400], desc[600], name[200];
	double body = 0;
	for (unsigned i = 0; i < rep->n; i++)
		body += group_height(&rep->groups[i]);
	out_svg_capture(title, sizeof(title), print_first_line, r);
	snprintf(desc, sizeof(desc), "diskbench report of %u record%s in %u run%s: per run, each "
		 "host's figure against the fleet median, outliers marked, then the latency of all "
		 "its I/Os with the fleet percentiles", d->set.n, d->set.n == 1 ? "" : "s", rep->n,
		 rep->n == 1 ? "" : "s");
	double y = svg_begin(&s, f, OUT_SVG_WIDTH, body, title, desc);
	for (unsigned i = 0; i < rep->n; i++) {
		const struct fleet_group *g = &rep->groups[i];
		group_name(name, sizeof(name), g);
		host_bars(&s, y, g, name);
		if (g->t.has_lat)
			merged_histogram(&s, y + CHART_BARS_HEIGHT, g, name);
		y += group_height(g);
	}
	svg_end(&s);
}
