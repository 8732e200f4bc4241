/* Rendering of `info` and `quick`: identity lines, a table of quick's steps
 * and its verdict; JSON documents holding "device", "tests" and "verdict". */
#include <string.h>

#include "devinfo.h"
#include "json.h"
#include "output.h"
#include "quick.h"
#include "units.h"

static void text_step(FILE *f, const char *label, const struct result *sr)
{
	struct stats_summary s;
	char rate[32], iops[16], p50[24], p99[24];
	stats_summarize(&sr->lat, &s);
	fmt_rate_si(rate, sizeof(rate), result_rate(sr));
	fmt_count(iops, sizeof(iops), result_iops(sr));
	fmt_ns(p50, sizeof(p50), (double)s.p50);
	fmt_ns(p99, sizeof(p99), (double)s.p99);
	fprintf(f, "  %-34s %12s %9s %10s %10s\n", label, rate, iops, p50, p99);
}

void out_quick_text(FILE *f, const struct result *r, bool quiet)
{
	const struct quick_report *q = r->quick;
	if (!quiet) {
		char span[32];
		if (r->device)
			devinfo_text(f, r->device);
		fmt_bytes_iec(span, sizeof(span), q->span);
		fprintf(f, "quick: over %s of %s (%s", span, r->file, r->file_state);
		fprintf(f, r->file_state && strcmp(r->file_state, "device") == 0 ? "" : " file");
		if (q->layout_s > 0)
			fprintf(f, ", laid out in %.1f s, not timed", q->layout_s);
		fputc(')', f);
		fprintf(f, "\n  %-34s %12s %9s %10s %10s\n", "step", "rate", "IOPS", "p50", "p99");
		for (unsigned i = 0; i < q->nsteps; i++)
			text_step(f, q->labels[i], &q->steps[i]);
	}
	fprintf(f, "%s\n", q->line);
}

static void json_verdict(struct json *j, const struct quick_report *q)
{
	const struct verdict *v = &q->verdict;
	const struct quick_figures *fig = &q->figures;
	json_key(j, "verdict");
	json_object_begin(j);
	json_key(j, "class"), json_string(j, v->cls ? v->cls->id : NULL);
	json_key(j, "label"), json_string(j, v->cls ? v->cls->label : NULL);
	json_key(j, "or"), json_string(j, v->second ? v->second->id : NULL);
	json_key(j, "fit"), json_string(j, v->fit);
	json_key(j, "prefix"), json_string(j, v->prefix);
	json_key(j, "identity_note"), json_string(j, v->identity_note[0] ? v->identity_note : NULL);
	json_key(j, "line"), json_string(j, q->line);
	json_key(j, "evidence");
	json_object_begin(j);
	json_key(j, "seq_read_bytes_per_sec"), json_double(j, fig->seq_read_bps, 1);
	json_key(j, "qd1_read_lat_ns_p50"), json_double(j, fig->qd1_lat_p50_ns, 0);
	json_key(j, "qd1_read_iops"), json_double(j, fig->qd1_iops, 2);
	json_key(j, "qd32_read_iops"), json_double(j, fig->qd32_iops, 2);
	json_key(j, "seq_write_bytes_per_sec");
	fig->seq_write_bps > 0 ? json_double(j, fig->seq_write_bps, 1) : json_null(j);
	json_object_end(j);
	json_key(j, "link");
	json_object_begin(j);
	json_key(j, "kind"), json_string(j, fig->link_kind);
	json_key(j, "speed"), json_string(j, fig->link_speed);
	json_key(j, "ceiling_bytes_per_sec");
	fig->link_ceiling_bps > 0 ? json_double(j, fig->link_ceiling_bps, 0) : json_null(j);
	json_object_end(j);
	json_object_end(j);
}

void out_quick_json(struct json *j, const struct result *r)
{
	const struct quick_report *q = r->quick;
	json_key(j, "span"), json_uint(j, q->span);
	json_key(j, "layout_s"), json_double(j, q->layout_s, 3);
	json_key(j, "measure_s"), json_double(j, q->measure_s, 3);
	json_key(j, "tests");
	json_array_begin(j);
	for (unsigned i = 0; i < q->nsteps; i++)
		out_json_test(j, &q->steps[i]);
	json_array_end(j);
	if (r->measured)
		json_verdict(j, q);
}

void out_info_csv(FILE *f, const struct result *r, void (*field)(FILE *, const char *))
{
	const struct devinfo *d = r->device;
	fputs("test,target,name,kind,depth,size_bytes,transport,vendor,model,rotational,"
	      "logical_block_size,physical_block_size,link_kind,link_speed,ceiling_bytes_per_sec,"
	      "error\n", f);
	if (!d) {
		field(f, r->test);
		fputc(',', f);
		field(f, r->target);
		fputs(",,,,,,,,,,,,,,", f);
		field(f, r->error);
		fputc('\n', f);
		return;
	}
	for (int i = 0; d && i < d->nstack; i++) {
		const struct dev_node *n = &d->stack[i];
		field(f, r->test);
		fputc(',', f);
		field(f, r->target);
		fputc(',', f);
		field(f, n->name);
		fprintf(f, ",%s,%d,%lld,", n->kind ? n->kind : "", n->depth, (long long)n->size_bytes);
		field(f, n->transport ? n->transport : "");
		fputc(',', f);
		field(f, n->vendor);
		fputc(',', f);
		field(f, n->model);
		fprintf(f, ",%d,%d,%d,%s,", n->rotational, n->logical_block_size,
			n->physical_block_size, n->link.kind ? n->link.kind : "");
		field(f, n->link.speed);
		fprintf(f, ",%.0f,\n", n->link.ceiling_bytes_per_sec);
	}
}
