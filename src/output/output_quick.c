/* Rendering of `quick`: identity lines, a table of its steps and its
 * verdict; a JSON document holding "device", "tests" and "verdict"; CSV with
 * a row per step. */
#include <stdio.h>
#include <string.h>

#include "render.h"
#include "devinfo.h"
#include "json.h"
#include "output.h"
#include "output_svg.h"
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

/* "quick: this run wrote 3.4 GB (13× its 256 MiB file)", on every run: a
 * fast disk takes many times the file in the write steps' seconds. */
static void text_written(FILE *f, const struct quick_report *q)
{
	char bytes[32], span[32];
	if (q->bytes_written == 0) {
		fprintf(f, "quick: this run wrote nothing (%s)\n",
			q->engine && strcmp(q->engine, "nop") == 0
				? "--engine=nop: NOPs write nothing"
				: "its target is not quick's own file: the read steps alone ran");
		return;
	}
	double times = q->span ? (double)q->bytes_written / (double)q->span : 0;
	fmt_bytes_si(bytes, sizeof(bytes), q->bytes_written);
	fmt_bytes_iec(span, sizeof(span), q->span);
	fprintf(f, "quick: this run wrote %s (%.*f× its %s file: its layout and the write steps)\n",
		bytes, times < 9.95 ? 1 : 0, times, span);
}

static void quick_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	const struct quick_report *q = r->detail;
	(void)histogram; /* not an option of quick */
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
		if (r->measured)
			text_written(f, q);
	}
	fprintf(f, "%s\n", q->line);
}

static void json_verdict(struct json *j, const struct quick_report *q)
{
	const struct verdict *v = &q->verdict;
	const struct quick_figures *fig = &q->figures;
	json_key(j, "verdict");
	json_object_begin(j);
	/* a capped run names no class: the figures are the limit's */
	bool named = v->cls && strcmp(v->fit, "capped") != 0 && strcmp(v->fit, "host_cache") != 0;
	json_key(j, "class"), json_string(j, named ? v->cls->id : NULL);
	json_key(j, "label"), json_string(j, named ? v->cls->label : NULL);
	json_key(j, "cap"), json_string(j, fig->cap[0] ? fig->cap : NULL);
	json_key(j, "or"), json_string(j, v->second ? v->second->id : NULL);
	json_key(j, "fit"), json_string(j, v->fit);
	json_key(j, "prefix"), json_string(j, v->prefix);
	json_key(j, "identity_note"), json_string(j, v->identity_note[0] ? v->identity_note : NULL);
	json_key(j, "virtual_kind"), json_string(j, fig->is_virtual ? fig->virt_kind : NULL);
	json_key(j, "cloud_volume"), json_bool(j, fig->cloud_volume);
	json_key(j, "host_cache"), json_string(j, v->host_cache[0] ? v->host_cache : NULL);
	json_key(j, "cached"), json_string(j, fig->cached[0] ? fig->cached : NULL);
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
	json_key(j, "emulated"), json_bool(j, fig->link_emulated);
	json_object_end(j);
	json_object_end(j);
}

static void cdm_figures(struct json *j, const struct result *sr, const char *dir)
{
	char key[40];
	snprintf(key, sizeof(key), "%s_bytes_per_sec", dir);
	json_key(j, key);
	sr && sr->measured ? json_double(j, result_rate(sr), 1) : json_null(j);
	snprintf(key, sizeof(key), "%s_iops", dir);
	json_key(j, key);
	sr && sr->measured ? json_double(j, result_iops(sr), 2) : json_null(j);
}

/* "cdm": the four figures as CrystalDiskMark names them, read and write. */
static void json_cdm(struct json *j, const struct quick_report *q)
{
	json_key(j, "cdm");
	json_object_begin(j);
	for (unsigned i = 0; i < q->nsteps; i++) {
		if (q->steps[i].dir != IO_READ)
			continue;
		const struct result *w = NULL;
		for (unsigned k = 0; k < q->nsteps; k++)
			if (q->steps[k].dir == IO_WRITE && strcmp(q->names[k], q->names[i]) == 0)
				w = &q->steps[k];
		json_key(j, q->names[i]);
		json_object_begin(j);
		cdm_figures(j, &q->steps[i], "read");
		cdm_figures(j, w, "write");
		json_object_end(j);
	}
	json_object_end(j);
}

/* "dd": the 8 KiB O_DSYNC write step, the figure `dd bs=8k oflag=dsync`
 * gives (null figures where quick wrote nothing). */
static void json_dd(struct json *j, const struct quick_report *q)
{
	const struct result *sr = q->dd_step >= 0 ? &q->steps[q->dd_step] : NULL;
	json_key(j, "dd");
	json_object_begin(j);
	json_key(j, "block_size"), json_uint(j, QUICK_DD_BS);
	json_key(j, "oflag"), json_string(j, "dsync");
	cdm_figures(j, sr, "write");
	json_object_end(j);
}

static void quick_json(struct json *j, const struct result *r)
{
	const struct quick_report *q = r->detail;
	out_json_file_device(j, r);
	json_key(j, "span"), json_uint(j, q->span);
	json_key(j, "layout_s"), json_double(j, q->layout_s, 3);
	json_key(j, "measure_s"), json_double(j, q->measure_s, 3);
	json_key(j, "bytes_written");
	r->measured ? json_uint(j, q->bytes_written) : json_null(j);
	json_key(j, "tests");
	json_array_begin(j);
	for (unsigned i = 0; i < q->nsteps; i++)
		out_json_test_step(j, &q->steps[i], q->labels[i]);
	json_array_end(j);
	json_key(j, "engine"), json_string(j, q->engine);
	json_cdm(j, q);
	json_dd(j, q);
	if (r->measured)
		json_verdict(j, q);
}

static void quick_csv(FILE *f, const struct result *r)
{
	const struct quick_report *q = r->detail;
	const struct verdict *v = &q->verdict;
	/* the verdict's class, as JSON's verdict.class: none when capped or unmeasured */
	const char *cls = r->measured && v->cls && strcmp(v->fit, "capped") != 0 ? v->cls->id : NULL;
	out_csv_header(f);
	for (unsigned i = 0; i < q->nsteps; i++)
		out_csv_step_row(f, &q->steps[i], q->labels[i], cls);
	if (r->error[0])
		out_csv_row(f, r); /* where quick itself failed */
}

/* One step of quick (whole) as a line of its own, a record like a single
 * test's: the envelope, the step's fleet keys (its own times), "command"
 * and "step" (its name in the table), the step's test keys, then what
 * whole_keys adds about the whole run (NULL: nothing). */
static void step_line(FILE *f, const struct result *step, const char *name,
		      const struct result *whole, out_json_body_fn whole_keys)
{
	struct json j;
	json_init(&j, f);
	json_object_begin(&j);
	out_json_envelope(&j);
	if (step->fleet)
		out_json_fleet(&j, step->fleet);
	json_key(&j, "command"), json_string(&j, whole->test);
	json_key(&j, "step"), json_string(&j, name);
	out_json_test_fields(&j, step, out_json_single_body);
	if (whole_keys)
		whole_keys(&j, whole);
	json_object_end(&j);
	fputc('\n', f);
}

static void verdict_keys(struct json *j, const struct result *r)
{
	json_verdict(j, r->detail);
}

/* quick's own keys, for a line that says quick failed before a step did */
static void failed_keys(struct json *j, const struct result *r)
{
	out_json_file_device(j, r);
}

/* --jsonl: a record per step, each merged with the same step of other
 * hosts by `diskbench report`; the verdict, which weighs every step, on
 * each line.  A failure that no step's line holds (quick's own checks, the
 * layout) gets a line of its own with "test": "quick". */
static void quick_jsonl(FILE *f, const struct result *r)
{
	const struct quick_report *q = r->detail;
	unsigned n = q ? q->nsteps : 0;
	for (unsigned i = 0; i < n; i++)
		step_line(f, &q->steps[i], q->labels[i], r, r->measured ? verdict_keys : NULL);
	if (r->error[0] && (n == 0 || !q->steps[n - 1].error[0]))
		out_json_line(f, r, failed_keys);
}

const struct renderers render_quick = { quick_text, quick_json, quick_csv, out_svg_quick,
					quick_jsonl };
