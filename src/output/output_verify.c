/* The verify command's renderers (issue 42): a line naming the target,
 * its run and region, then the tally (output_verify_tally.c); the document's
 * file, device and "verify"; a CSV header and one row. */
#include "output.h"

#include <inttypes.h>
#include <stdio.h>

#include "json.h"
#include "render.h"
#include "units.h"

static void verify_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	const struct result_verify *v = r->verify;
	char region[32];
	(void)quiet, (void)histogram;
	if (!v)
		return;
	fmt_bytes_iec(region, sizeof(region), v->region);
	fprintf(f, "verify: %s (run %016" PRIx64 ", region %s): ", r->file, v->run_id, region);
	out_text_verify_body(f, v);
	fputc('\n', f);
}

static void verify_json(struct json *j, const struct result *r)
{
	out_json_file_device(j, r);
	if (r->verify)
		out_json_verify(j, r);
	else
		json_key(j, "verify"), json_null(j);
}

static void verify_csv(FILE *f, const struct result *r)
{
	const struct result_verify *v = r->verify;
	fputs("target,file,mode,run_id,block_size,region,blocks,seconds,good,corrupt,misplaced,"
	      "stale,unwritten,lost,acknowledged,in_flight,error\n", f);
	out_csv_field(f, r->target);
	fputc(',', f);
	out_csv_field(f, r->file);
	if (!v) {
		fputs(",,,,,,,,,,,,,,,", f);
	} else {
		fprintf(f, ",%s,%016" PRIx64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f,%" PRIu64,
			v->mode, v->run_id, v->block_size, v->region, v->blocks, v->seconds, v->good);
		for (unsigned k = 0; k < VERIFY_KINDS; k++)
			fprintf(f, ",%" PRIu64, v->bad[k]);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", v->acknowledged, v->in_flight);
	}
	out_csv_field(f, r->error[0] ? r->error : NULL);
	fputc('\n', f);
}

const struct renderers render_verify = { .text = verify_text, .json = verify_json,
					 .csv = verify_csv };
