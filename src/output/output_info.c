/* Rendering of `info`: the identity lines, the devinfo JSON object as the
 * result, and CSV with one row per device of the stack. */
#include "render.h"
#include "devinfo.h"
#include "json.h"
#include "output.h"

static void info_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	(void)quiet, (void)histogram; /* the identity is all there is */
	devinfo_text(f, r->device);
}

static void info_json(struct json *j, const struct result *r)
{
	json_key(j, "result");
	if (r->device)
		devinfo_json(j, r->device);
	else
		json_null(j);
}

static void info_csv(FILE *f, const struct result *r)
{
	const struct devinfo *d = r->device;
	fputs("test,target,name,kind,depth,size_bytes,transport,vendor,model,rotational,"
	      "logical_block_size,physical_block_size,link_kind,link_speed,ceiling_bytes_per_sec,"
	      "error\n", f);
	if (!d) {
		out_csv_field(f, r->test);
		fputc(',', f);
		out_csv_field(f, r->target);
		fputs(",,,,,,,,,,,,,,", f);
		out_csv_field(f, r->error);
		fputc('\n', f);
		return;
	}
	for (int i = 0; d && i < d->nstack; i++) {
		const struct dev_node *n = &d->stack[i];
		out_csv_field(f, r->test);
		fputc(',', f);
		out_csv_field(f, r->target);
		fputc(',', f);
		out_csv_field(f, n->name);
		fprintf(f, ",%s,%d,%lld,", n->kind ? n->kind : "", n->depth, (long long)n->size_bytes);
		out_csv_field(f, n->transport ? n->transport : "");
		fputc(',', f);
		out_csv_field(f, n->vendor);
		fputc(',', f);
		out_csv_field(f, n->model);
		fprintf(f, ",%d,%d,%d,%s,", n->rotational, n->logical_block_size,
			n->physical_block_size, n->link.kind ? n->link.kind : "");
		out_csv_field(f, n->link.speed);
		fprintf(f, ",%.0f,\n", n->link.ceiling_bytes_per_sec);
	}
}

const struct renderers render_info = { info_text, info_json, info_csv, NULL };
