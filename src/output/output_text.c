/* The single-test text: the result line and its pieces (the mode in
 * brackets, the factors that set the figure apart from fio's and dd's),
 * several targets' lines, the latency histogram, and out_text, which puts
 * them together with the room's other blocks. */
#include "output.h"

#include <string.h>

#include "devinfo.h"
#include "devinfo_health.h"
#include "output_int.h"
#include "output_series.h"
#include "units.h"

/* How the run chose to submit (issue 40), where it chose and measured:
 * ", submitted one by one (1.31x the batch's rate in its probe)",
 * ", submitted in batches (one by one 0.92x in its probe)", ", submitted
 * one by one on 3 of 4 threads (0.98-1.31x ...)".  Returns what it wrote. */
static int describe_policy(char *buf, size_t len, const struct result *r)
{
	const char *name = result_policy_name(r);
	const struct result_policy *p = &r->policy;
	if (!name || strcmp(name, "unmeasured") == 0)
		return 0;
	char why[64], gain[24];
	if (p->gain_min + 0.005 > p->gain_max)
		snprintf(gain, sizeof(gain), "%.2fx", p->gain_max);
	else
		snprintf(gain, sizeof(gain), "%.2f-%.2fx", p->gain_min, p->gain_max);
	if (strcmp(name, "batched") == 0)
		snprintf(why, sizeof(why), "one by one %s in its probe", gain);
	else
		snprintf(why, sizeof(why), "%s the batch's rate in its probe", gain);
	if (strcmp(name, "mixed") == 0)
		return snprintf(buf, len, ", submitted one by one on %u of %u threads (%s)",
				p->one_by_one, p->threads, why);
	return snprintf(buf, len, ", submitted %s (%s)",
			strcmp(name, "batched") == 0 ? "in batches" : "one by one", why);
}

/* The factors in which the run differs from what fio and dd do by default
 * (4 KiB-page buffers, one request per submit call, one pass over the
 * region), so that a figure beside theirs says why it differs:
 * ", huge-page buffers (1.0 segments/request), 11.8 requests/submit, -t: 3.2 passes" */
static void describe_factors(char *buf, size_t len, const struct result *r)
{
	int n = 0;
	double per_submit = result_requests_per_submit(r);
	/* named where they set the figure apart (buffers_line says how), or may */
	if (result_buffers_differ(r))
		n += snprintf(buf + n, len - (size_t)n, ", huge-page buffers (%.1f segments/request)",
			      r->buffer_segments);
	else if (r->huge_buffers && r->buffer_segments < 0 && result_pages_segments(r) >= 2)
		n += snprintf(buf + n, len - (size_t)n, ", huge-page buffers");
	if (per_submit >= 1.05)
		n += snprintf(buf + n, len - (size_t)n, ", %.1f requests/submit", per_submit);
	if (result_completions_per_reap(r) >= 1.05)
		n += snprintf(buf + n, len - (size_t)n, ", %.1f completions/reap",
			      result_completions_per_reap(r));
	n += describe_policy(buf + n, len - (size_t)n, r);
	if (r->registration_why[0])
		n += snprintf(buf + n, len - (size_t)n, ", %s", r->registration_why);
	if (r->opt && r->opt->poll)
		n += snprintf(buf + n, len - (size_t)n, ", polled completions (--poll)");
	if (r->opt && r->opt->sqpoll)
		n += snprintf(buf + n, len - (size_t)n, ", a kernel thread submits (--sqpoll)");
	if (!r->ended)
		return;
	if (strcmp(r->ended, "time") == 0)
		snprintf(buf + n, len - (size_t)n, ", -t: %.2f %s", r->passes,
			 r->passes > 1.0 ? "passes (wrapped)" : "of a pass");
	else if (strcmp(r->ended, "one pass") == 0 && r->opt->once)
		snprintf(buf + n, len - (size_t)n, ", one pass (--once)");
	else if (strcmp(r->ended, "one pass") == 0 && r->opt->time_s > 0)
		snprintf(buf + n, len - (size_t)n, ", one pass, before -t");
	else if (strcmp(r->ended, "steady") == 0)
		snprintf(buf + n, len - (size_t)n, ", ended when steady");
}

/* "[bs=1 MiB, O_DIRECT, O_DSYNC, new file]" */
static void describe_mode(char *buf, size_t len, const struct result *r)
{
	const struct options *o = r->opt;
	char bs[32], region[32];
	fmt_size_exact(bs, sizeof(bs), o->bs);
	int n = snprintf(buf, len, "bs=%s", bs);
	if (r->ops && r->ops->mix.pct[MIX_TRIM] < 100) { /* a trim test's name says it */
		n += snprintf(buf + n, len - (size_t)n, ", mix ");
		n += mix_format(&r->ops->mix, buf + n, len - (size_t)n);
	}
	if (r->open_loop.on)
		n += snprintf(buf + n, len - (size_t)n, ", open loop at %.0f IOPS, %u in flight at most",
			      r->open_loop.rate_asked, r->open_loop.cap);
	else if (o->qd > 1)
		n += snprintf(buf + n, len - (size_t)n, ", qd %u \u00d7 %u thread%s = %u in flight",
			      o->qd, o->threads, o->threads == 1 ? "" : "s", o->qd * o->threads);
	else if (o->threads > 1)
		n += snprintf(buf + n, len - (size_t)n, ", %u threads", o->threads);
	if (r->engine_label && (o->accepts & OPT_ENGINE))
		n += snprintf(buf + n, len - (size_t)n, ", %s", r->engine_label);
	if (r->primed) {
		fmt_size_exact(region, sizeof(region), r->region);
		n += snprintf(buf + n, len - (size_t)n, ", region %s, page cache", region);
	} else {
		n += snprintf(buf + n, len - (size_t)n, ", %s", o->direct ? "O_DIRECT" : "page cache");
	}
	if (result_is_write(r))
		n += out_sync_words(buf + n, len - (size_t)n, r);
	if (r->ntargets > 1) /* each target's state is on its own line */
		n += snprintf(buf + n, len - (size_t)n, ", %u targets", r->ntargets);
	else if (r->file_state)
		n += snprintf(buf + n, len - (size_t)n, ", %s%s", r->file_state,
			      strcmp(r->file_state, "device") == 0 ? "" : " file");
	describe_factors(buf + n, len - (size_t)n, r);
}

void out_text_result_line(FILE *f, const struct result *r)
{
	char si[32], iec[32], rate_si[32], rate_iec[32], mode[320];
	double rate = result_rate(r), iops = result_iops(r);
	fmt_bytes_si(si, sizeof(si), r->bytes);
	fmt_bytes_iec(iec, sizeof(iec), r->bytes);
	fmt_rate_si(rate_si, sizeof(rate_si), rate);
	fmt_rate_iec(rate_iec, sizeof(rate_iec), rate);
	describe_mode(mode, sizeof(mode), r);
	fprintf(f, "%s: %llu bytes (%s, %s) in %.3f s = %s (%s), %.*f IOPS [%s]\n", r->test,
		(unsigned long long)r->bytes, si, iec, r->seconds, rate_si, rate_iec,
		iops < 100 ? 1 : 0, iops, mode);
}

/* "  /dev/sdc (sdc, device): 1073741824 bytes in 10.0 s = 107 MB/s (102 MiB/s),
 * 26.2k IOPS, p50 301 us, p99 1.20 ms" */
static void text_target_line(FILE *f, const struct result_target *t)
{
	char rate_si[32], rate_iec[32], p50[24], p99[24];
	double rate = out_per_second(t->bytes, t->seconds), iops = out_per_second(t->ios, t->seconds);
	const char *dev = t->device && t->device->has_top ? t->device->top.name : "";
	const char *state = t->file_state ? t->file_state : "";
	fmt_rate_si(rate_si, sizeof(rate_si), rate);
	fmt_rate_iec(rate_iec, sizeof(rate_iec), rate);
	fmt_ns(p50, sizeof(p50), t->lat ? (double)stats_percentile(t->lat, 50) : 0);
	fmt_ns(p99, sizeof(p99), t->lat ? (double)stats_percentile(t->lat, 99) : 0);
	fprintf(f, "  %s (%s%s%s%s): %llu bytes in %.3f s = %s (%s), %.*f IOPS, p50 %s, p99 %s\n",
		t->target, dev, dev[0] && state[0] ? ", " : "", state,
		state[0] && strcmp(state, "device") != 0 ? " file" : "", (unsigned long long)t->bytes,
		t->seconds, rate_si, rate_iec, iops < 100 ? 1 : 0, iops, p50, p99);
}

void out_text_targets(FILE *f, const struct result *r)
{
	for (unsigned k = 0; k < r->ntargets; k++)
		text_target_line(f, &r->targets[k]);
}

void out_histogram_counts(FILE *f, const uint64_t counts[STATS_LOG2_BUCKETS], uint64_t total)
{
	uint64_t peak = 0, cum = 0;
	unsigned lo = STATS_LOG2_BUCKETS, hi = 0;
	for (unsigned k = 0; k < STATS_LOG2_BUCKETS; k++) {
		if (counts[k] == 0)
			continue;
		lo = k < lo ? k : lo;
		hi = k;
		peak = counts[k] > peak ? counts[k] : peak;
	}
	if (peak == 0)
		return;
	fprintf(f, "latency histogram:\n%21s %12s %7s %7s\n", "range", "count", "%", "cum %");
	for (unsigned k = lo; k <= hi; k++) {
		char from[24], to[24], bar[41];
		fmt_ns(from, sizeof(from), k == 0 ? 0.0 : (double)(1ull << k));
		fmt_ns(to, sizeof(to), (double)(1ull << (k + 1 < 64 ? k + 1 : 63)));
		cum += counts[k];
		size_t width = (size_t)((counts[k] * 40 + peak - 1) / peak);
		memset(bar, '#', width);
		bar[width] = '\0';
		fprintf(f, "%9s - %9s %12llu %6.2f%% %6.2f%% %s\n", from, to,
			(unsigned long long)counts[k], 100.0 * (double)counts[k] / (double)total,
			100.0 * (double)cum / (double)total, bar);
	}
}

void out_histogram(FILE *f, const struct stats *lat)
{
	uint64_t counts[STATS_LOG2_BUCKETS];
	stats_log2_counts(lat, counts);
	out_histogram_counts(f, counts, lat->count);
}

/* "buffers: huge pages, 1.0 segment per 1 MiB request; fio and dd, from 4 KiB
 * pages, send up to 256 per request ...": where the buffers set the figure
 * apart, what a peer's ordinary buffers send, and the option that does too. */
static void out_text_buffers_line(FILE *f, const struct result *r)
{
	char bs[32], page[32];
	if (!result_buffers_differ(r))
		return;
	fmt_size_exact(bs, sizeof(bs), r->opt->bs);
	fmt_size_exact(page, sizeof(page), r->page_size);
	fprintf(f, "buffers: huge pages, %.1f segment%s per %s request; fio and dd, from %s pages, "
		"send up to %u per request, which a virtual disk's host may take much slower: "
		"--buffers=pages %s as they do\n", r->buffer_segments,
		r->buffer_segments < 1.05 ? "" : "s", bs, page, result_pages_segments(r),
		!result_is_write(r) ? "reads" : r->ops && mix_has(&r->ops->mix, MIX_READ)
						 ? "reads and writes" : "writes");
}

void out_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	out_text_result_line(f, r);
	out_text_ops(f, r);
	out_text_zoned(f, r);
	out_text_targets(f, r);
	out_text_verify(f, r);
	if (quiet)
		return;
	if (r->open_loop.on)
		out_text_open_loop(f, r);
	else if (r->lat.count > 0)
		out_text_latency_line(f, &r->lat);
	out_text_sync(f, r);
	out_text_buffers_line(f, r);
	out_text_series(f, r);
	health_text(f, r->health, true);
	out_text_cache_line(f, r);
	if (histogram)
		out_histogram(f, &r->lat);
}
