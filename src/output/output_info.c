/* Rendering of `info`: the identity lines and the health lines, the devinfo
 * JSON object with "health" as the result, and CSV with one row per device
 * of the stack. */
#include "render.h"
#include "devinfo.h"
#include "devinfo_health.h"
#include "json.h"
#include "output.h"

/* A file in use as a block device (result.detail): the loop device over
 * it and what uses that, or swap. */
static void in_use_text(FILE *f, const struct devinfo_file_use *u)
{
	if (u->swap)
		fprintf(f, "in use: an active swap file\n");
	if (!u->loop[0])
		return;
	fprintf(f, "in use: backs /dev/%s", u->loop);
	if (u->mounted)
		fprintf(f, "; %s holds the %s filesystem mounted at %s", u->mount.device,
			u->mount.fs_type[0] ? u->mount.fs_type : "unknown",
			u->mount.mount_point[0] ? u->mount.mount_point : "a mount not visible here");
	else if (u->holder[0])
		fprintf(f, "; %s is built on it", u->holder);
	else if (u->loop_swap[0])
		fprintf(f, "; /dev/%s is active swap", u->loop_swap);
	else if (u->held)
		fprintf(f, "; the kernel holds it exclusively");
	fputc('\n', f);
}

static void info_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	(void)quiet, (void)histogram; /* the identity is all there is */
	devinfo_text(f, r->device);
	if (r->detail)
		in_use_text(f, r->detail);
	health_text(f, r->health, false);
}

static void str_or_null(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	if (s && s[0])
		json_string(j, s);
	else
		json_null(j);
}

/* "in_use": {"loop", "mounted_at", "fs_type", "holder", "swap", "loop_swap",
 * "held"}, or null. */
static void in_use_json(struct json *j, const struct devinfo_file_use *u)
{
	json_key(j, "in_use");
	if (!u) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	str_or_null(j, "loop", u->loop[0] ? u->loop : NULL);
	str_or_null(j, "mounted_at", u->mounted ? u->mount.mount_point : NULL);
	str_or_null(j, "fs_type", u->mounted ? u->mount.fs_type : NULL);
	str_or_null(j, "holder", u->holder);
	json_key(j, "swap");
	json_bool(j, u->swap);
	str_or_null(j, "loop_swap", u->loop_swap);
	json_key(j, "held");
	json_bool(j, u->held);
	json_object_end(j);
}

static void info_json(struct json *j, const struct result *r)
{
	json_key(j, "result");
	if (r->device) {
		json_object_begin(j);
		devinfo_json_members(j, r->device);
		json_key(j, "health");
		health_json(j, r->health);
		json_object_end(j);
	} else {
		json_null(j);
	}
	in_use_json(j, r->detail);
}

static void info_csv(FILE *f, const struct result *r)
{
	const struct devinfo *d = r->device;
	fputs("test,target,name,kind,depth,size_bytes,transport,vendor,model,rotational,"
	      "logical_block_size,physical_block_size,link_kind,link_speed,ceiling_bytes_per_sec,"
	      "error,virtual_kind\n", f);
	if (!d) {
		out_csv_field(f, r->test);
		fputc(',', f);
		out_csv_field(f, r->target);
		fputs(",,,,,,,,,,,,,,", f);
		out_csv_field(f, r->error);
		fputs(",\n", f);
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
		fprintf(f, ",%.0f,,", n->link.ceiling_bytes_per_sec);
		out_csv_field(f, n->virt_kind ? n->virt_kind : "");
		fputc('\n', f);
	}
}

const struct renderers render_info = { info_text, info_json, info_csv, NULL, NULL };
