/* Rendering a struct devinfo: one JSON object for `info`, a compact one
 * for every test's "device" key, and a few human lines. */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

/* ---- JSON --------------------------------------------------------------- */

static void j_str(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s && s[0] ? s : NULL);
}

/* ", host-managed zoned (8.0 MiB zones x 8, capacity 6.0 MiB, 2
 * conventional, at most 4 open, 6 active)": what a write test must keep to */
static void text_zones(FILE *f, const struct dev_node *n)
{
	char size[32];
	fprintf(f, ", %s zoned", n->zoned);
	if (n->zone_size_bytes <= 0)
		return;
	fmt_bytes_iec(size, sizeof(size), (uint64_t)n->zone_size_bytes);
	fprintf(f, " (%s zones", size);
	if (n->nr_zones > 0)
		fprintf(f, " x %lld", (long long)n->nr_zones);
	if (n->zone_capacity_bytes > 0 && n->zone_capacity_bytes < n->zone_size_bytes) {
		fmt_bytes_iec(size, sizeof(size), (uint64_t)n->zone_capacity_bytes);
		fprintf(f, ", capacity %s", size);
	}
	if (n->conventional_zones > 0)
		fprintf(f, ", %lld conventional", (long long)n->conventional_zones);
	if (n->max_open_zones >= 0)
		n->max_open_zones ? fprintf(f, ", at most %lld open", (long long)n->max_open_zones)
				  : fprintf(f, ", no open limit");
	if (n->max_active_zones > 0)
		fprintf(f, ", %lld active", (long long)n->max_active_zones);
	fputc(')', f);
}

static void j_int(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	if (v < 0)
		json_null(j);
	else
		json_uint(j, (uint64_t)v);
}

static void j_flag(struct json *j, const char *key, int v)
{
	json_key(j, key);
	if (v < 0)
		json_null(j);
	else
		json_bool(j, v != 0);
}

static void j_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

static void j_rate(struct json *j, const char *key, double v)
{
	json_key(j, key);
	if (v > 0)
		json_double(j, v, 0);
	else
		json_null(j);
}

static void json_link(struct json *j, const struct dev_link *lk)
{
	json_key(j, "link");
	json_object_begin(j);
	j_str(j, "kind", lk->kind);
	j_str(j, "speed", lk->speed);
	j_int(j, "width", lk->width);
	j_str(j, "max_speed", lk->max_speed);
	j_int(j, "max_width", lk->max_width);
	j_bool(j, "below_max", lk->below_max);
	j_rate(j, "ceiling_bytes_per_sec", lk->ceiling_bytes_per_sec);
	j_bool(j, "emulated", lk->emulated);
	json_object_end(j);
}

/* The fields a result needs to say what it ran on. */
static void json_node_core(struct json *j, const struct dev_node *n)
{
	j_str(j, "name", n->name);
	j_str(j, "majmin", n->majmin);
	j_str(j, "kind", n->kind);
	j_int(j, "size_bytes", n->size_bytes);
	j_str(j, "vendor", n->vendor);
	j_str(j, "model", n->model);
	j_str(j, "firmware", n->firmware);
	j_str(j, "transport", n->transport);
	j_bool(j, "virtual", n->is_virtual);
	j_str(j, "virtual_kind", n->virt_kind);
	j_bool(j, "cloud_volume", n->cloud_volume);
	j_flag(j, "rotational", n->rotational);
	j_bool(j, "rotational_unreliable", n->rotational_unreliable);
	j_int(j, "rpm", n->rpm);
	j_int(j, "logical_block_size", n->logical_block_size);
	j_int(j, "physical_block_size", n->physical_block_size);
	j_str(j, "write_cache", n->write_cache);
	j_flag(j, "fua", n->fua);
	j_flag(j, "removable", n->removable);
}

static void json_node(struct json *j, const struct devinfo *d, const struct dev_node *n, bool in_stack)
{
	json_object_begin(j);
	json_node_core(j, n);
	j_str(j, "serial", n->serial);
	j_str(j, "scheduler", n->scheduler);
	j_flag(j, "hotplug", n->hotplug);
	j_str(j, "dm_name", n->dm_name);
	j_str(j, "dm_uuid_prefix", n->dm_uuid_prefix);
	j_str(j, "md_level", n->md_level);
	j_int(j, "md_raid_disks", n->md_raid_disks);
	j_str(j, "backing_file", n->backing_file);
	j_flag(j, "loop_dio", n->loop_dio);
	j_str(j, "parent_disk", n->parent_disk);
	j_bool(j, "in_ram", n->in_ram);
	j_str(j, "sysfs_path", n->sysfs_path);
	j_str(j, "zoned", n->zoned);
	j_int(j, "zone_size_bytes", n->zone_size_bytes);
	j_int(j, "nr_zones", n->nr_zones);
	j_int(j, "zone_capacity_bytes", n->zone_capacity_bytes);
	j_int(j, "conventional_zones", n->conventional_zones);
	j_int(j, "max_open_zones", n->max_open_zones);
	j_int(j, "max_active_zones", n->max_active_zones);
	json_link(j, &n->link);
	if (in_stack) {
		int self = (int)(n - d->stack);
		j_int(j, "depth", n->depth);
		j_str(j, "parent", n->parent >= 0 ? d->stack[n->parent].name : NULL);
		j_bool(j, "duplicate", n->duplicate);
		json_key(j, "members");
		json_array_begin(j);
		for (int k = self + 1; k < d->nstack; k++)
			if (d->stack[k].parent == self)
				json_string(j, d->stack[k].name);
		json_array_end(j);
	}
	json_object_end(j);
}

/* A block device or device number was probed, not a path on a filesystem. */
static bool probed_device(const struct devinfo *d)
{
	return strcmp(d->path_type, "block device") == 0 || strcmp(d->path_type, "device number") == 0;
}

void devinfo_json(struct json *j, const struct devinfo *d)
{
	json_object_begin(j);
	devinfo_json_members(j, d);
	json_object_end(j);
}

void devinfo_json_members(struct json *j, const struct devinfo *d)
{
	char magic[24];
	snprintf(magic, sizeof(magic), "0x%lx", d->fs_magic);
	json_key(j, "fs");
	json_object_begin(j);
	j_str(j, "path", d->path);
	j_str(j, "path_type", d->path_type);
	j_str(j, "type", d->fs_type);
	j_str(j, "magic", d->fs_magic ? magic : NULL);
	j_str(j, "mount_point", d->mount_point);
	j_str(j, "source", d->mount_source);
	json_key(j, "mount_visible"); /* null for a block device: not being mounted is no sign */
	if (probed_device(d))
		json_null(j);
	else
		json_bool(j, !d->mount_hidden);
	j_str(j, "st_dev", d->st_dev);
	j_str(j, "class", d->fs_class);
	j_str(j, "note", d->note);
	json_object_end(j);
	json_key(j, "device");
	if (d->has_top)
		json_node(j, d, &d->top, false);
	else
		json_null(j);
	json_key(j, "stack");
	json_array_begin(j);
	for (int i = 0; i < d->nstack; i++)
		json_node(j, d, &d->stack[i], true);
	json_array_end(j);
	json_key(j, "leaves");
	json_array_begin(j);
	for (int i = 0; i < d->nleaves; i++)
		json_string(j, d->stack[d->leaves[i]].name);
	json_array_end(j);
	j_rate(j, "ceiling_bytes_per_sec", devinfo_ceiling(d));
	j_bool(j, "truncated", d->truncated);
}

void devinfo_json_device(struct json *j, const struct devinfo *d)
{
	json_object_begin(j);
	if (d->has_top) {
		json_node_core(j, &d->top);
		json_link(j, &d->top.link);
	} else {
		j_str(j, "name", NULL);
	}
	j_str(j, "fs_type", d->fs_type);
	j_str(j, "fs_class", d->fs_class);
	j_str(j, "mount_point", d->mount_point);
	json_key(j, "leaves");
	json_array_begin(j);
	for (int i = 0; i < d->nleaves; i++) {
		const struct dev_node *n = &d->stack[d->leaves[i]];
		json_object_begin(j);
		j_str(j, "name", n->name);
		j_str(j, "kind", n->kind);
		j_str(j, "model", n->model);
		j_str(j, "transport", n->transport);
		j_bool(j, "virtual", n->is_virtual);
		j_str(j, "virtual_kind", n->virt_kind);
		j_bool(j, "cloud_volume", n->cloud_volume);
		j_flag(j, "rotational", n->rotational);
		j_int(j, "rpm", n->rpm);
		json_link(j, &n->link);
		json_object_end(j);
	}
	json_array_end(j);
	j_rate(j, "ceiling_bytes_per_sec", devinfo_ceiling(d));
	json_object_end(j);
}

/* ---- text --------------------------------------------------------------- */

static int pcie_gen(const char *speed)
{
	double g = strtod(speed, NULL);
	return g >= 64 ? 6 : g >= 32 ? 5 : g >= 16 ? 4 : g >= 8 ? 3 : g >= 5 ? 2 : g > 0 ? 1 : 0;
}

/* "PCIe Gen3 x4 (8.0 GT/s), ceiling 3.94 GB/s" */
static void link_text(char *buf, size_t len, const struct dev_node *n)
{
	const struct dev_link *lk = &n->link;
	char rate[32] = "", extra[160] = "";
	if (lk->ceiling_bytes_per_sec > 0) {
		fmt_rate_si(rate, sizeof(rate), lk->ceiling_bytes_per_sec);
		snprintf(extra, sizeof(extra), ", ceiling %s", rate);
	}
	if (lk->emulated)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 " (emulated: what the hypervisor claims, not a wire)");
	if (!lk->kind) {
		snprintf(buf, len, "unknown");
	} else if (strcmp(lk->kind, "none") == 0) {
		snprintf(buf, len, "none (%s)", n->is_virtual ? "virtual disk" : n->in_ram ? "in RAM"
			 : "no physical link of its own");
	} else if (strcmp(lk->kind, "pcie") == 0) {
		int n1 = snprintf(buf, len, "PCIe");
		if (lk->speed[0])
			n1 += snprintf(buf + n1, len - (size_t)n1, " Gen%d", pcie_gen(lk->speed));
		if (lk->width > 0)
			n1 += snprintf(buf + n1, len - (size_t)n1, " x%d", lk->width);
		if (lk->speed[0])
			n1 += snprintf(buf + n1, len - (size_t)n1, " (%s)", lk->speed);
		if (lk->below_max)
			n1 += snprintf(buf + n1, len - (size_t)n1, ", below its maximum Gen%d x%d",
				       pcie_gen(lk->max_speed), lk->max_width);
		snprintf(buf + n1, len - (size_t)n1, "%s", extra);
	} else {
		snprintf(buf, len, "%s %s%s%s%s", strcmp(lk->kind, "sata") == 0 ? "SATA" : "USB",
			 lk->speed[0] ? lk->speed : "speed unknown", lk->below_max ? ", below its maximum " : "",
			 lk->below_max ? lk->max_speed : "", extra);
	}
}

/* "virtio disk", "partition of sda", "dm LVM vg0-root", "md raid1 of 2" */
static void kind_text(char *buf, size_t len, const struct dev_node *n)
{
	if (strcmp(n->kind, "part") == 0)
		snprintf(buf, len, "partition of %s%s%s", n->parent_disk,
			 n->transport ? ", " : "", n->transport ? n->transport : "");
	else if (strcmp(n->kind, "dm") == 0)
		snprintf(buf, len, "dm%s%s%s%s", n->dm_uuid_prefix[0] ? " " : "", n->dm_uuid_prefix,
			 n->dm_name[0] ? " " : "", n->dm_name);
	else if (strcmp(n->kind, "md") == 0)
		snprintf(buf, len, "md %s", n->md_level[0] ? n->md_level : "(level unknown)");
	else if (strcmp(n->kind, "loop") == 0)
		snprintf(buf, len, "loop over %s%s", n->backing_file[0] ? n->backing_file : "(no file)",
			 n->loop_dio == 1 ? " (direct I/O)" : "");
	else if (strcmp(n->kind, "disk") == 0)
		snprintf(buf, len, "%s%sdisk", n->transport ? n->transport : "", n->transport ? " " : "");
	else
		snprintf(buf, len, "%s", n->kind);
}

static void size_text(char *buf, size_t len, int64_t bytes)
{
	char si[24], iec[24];
	if (bytes < 0) {
		snprintf(buf, len, "size unknown");
		return;
	}
	fmt_bytes_si(si, sizeof(si), (uint64_t)bytes);
	fmt_bytes_iec(iec, sizeof(iec), (uint64_t)bytes);
	snprintf(buf, len, "%s (%s)", si, iec);
}

static void text_fs(FILE *f, const struct devinfo *d)
{
	if (probed_device(d)) {
		fprintf(f, "%s: %s", d->path, d->path_type);
		if (d->mount_point[0])
			fprintf(f, ", mounted at %s (%s)", d->mount_point, d->fs_type[0] ? d->fs_type : "?");
		else
			fprintf(f, ", not mounted");
	} else {
		fprintf(f, "%s: %s on %s", d->path, d->path_type,
			d->fs_type[0] ? d->fs_type : "unknown filesystem");
		if (d->mount_point[0])
			fprintf(f, ", mounted at %s from %s", d->mount_point,
				d->mount_source[0] ? d->mount_source : "?");
		else if (d->mount_hidden)
			fprintf(f, ", the mount is not visible from this root (chroot?)");
		fprintf(f, " [st_dev %s]", d->st_dev);
	}
	if (d->fs_class && strcmp(d->fs_class, "ram") == 0)
		fprintf(f, ": data in RAM%s", d->has_top ? "" : ", no disk below");
	else if (d->fs_class)
		fprintf(f, ": network filesystem, no local disk below");
	fputc('\n', f);
}

static void text_node_details(FILE *f, const struct dev_node *n)
{
	char line[1024];
	int k = 0;
	line[0] = '\0';
	if (n->model[0])
		k += snprintf(line + k, sizeof(line) - (size_t)k, "%smodel %s", k ? ", " : "", n->model);
	if (n->vendor[0] && k < (int)sizeof(line))
		k += snprintf(line + k, sizeof(line) - (size_t)k, "%svendor %s", k ? ", " : "", n->vendor);
	if (n->serial[0] && k < (int)sizeof(line))
		k += snprintf(line + k, sizeof(line) - (size_t)k, "%sserial %s", k ? ", " : "", n->serial);
	if (n->firmware[0] && k < (int)sizeof(line))
		snprintf(line + k, sizeof(line) - (size_t)k, "%sfirmware %s", k ? ", " : "", n->firmware);
	if (line[0])
		fprintf(f, "  %s\n", line);

	if (n->rotational < 0)
		fprintf(f, "  rotational unknown");
	else
		fprintf(f, "  rotational %d", n->rotational);
	if (n->rotational_unreliable)
		fprintf(f, " (unreliable: virtual disk%s)", n->is_virtual ? "" : " below");
	else if (n->rpm == 1)
		fprintf(f, " (ATA: solid state)");
	else if (n->rpm > 1)
		fprintf(f, ", %d rpm", n->rpm);
	if (n->logical_block_size > 0)
		fprintf(f, ", %d/%d B sectors", n->logical_block_size, n->physical_block_size);
	if (n->write_cache[0]) {
		fprintf(f, ", write cache: %s", n->write_cache);
		if (strcmp(n->write_cache, "write back") == 0 && n->fua == 0)
			fprintf(f, " (no FUA: O_DSYNC sends FLUSH)");
		else if (n->fua == 1)
			fprintf(f, " (FUA)");
	}
	if (n->scheduler[0])
		fprintf(f, ", scheduler %s", n->scheduler);
	if (n->removable == 1 || n->hotplug == 1)
		fprintf(f, ", %s", n->removable == 1 ? "removable" : "hotplug");
	if (n->zoned[0] && strcmp(n->zoned, "none") != 0)
		text_zones(f, n);
	fputc('\n', f);
}

/* ", virtual (virtio-blk)", ", virtual (Amazon EBS volume, a network volume)" */
static void virtual_text(FILE *f, const struct dev_node *n)
{
	if (!n->is_virtual)
		return;
	fprintf(f, ", virtual");
	if (n->virt_kind)
		fprintf(f, " (%s%s)", n->virt_kind, n->cloud_volume ? ", a network volume" : "");
}

void devinfo_text(FILE *f, const struct devinfo *d)
{
	char kind[600], size[64], link[320];
	text_fs(f, d);
	if (d->note[0])
		fprintf(f, "  note: %s\n", d->note);
	if (!d->has_top) {
		if (!d->fs_class)
			fprintf(f, "device: none found\n");
		return;
	}
	const struct dev_node *t = &d->top;
	kind_text(kind, sizeof(kind), t);
	size_text(size, sizeof(size), t->size_bytes);
	fprintf(f, "device: %s [%s], %s, %s", t->name, t->majmin[0] ? t->majmin : "?", kind, size);
	virtual_text(f, t);
	fputc('\n', f);
	text_node_details(f, t);
	link_text(link, sizeof(link), t);
	if (!kind_without_link(t->kind) || d->nstack == 1)
		fprintf(f, "  link: %s\n", link);
	if (d->nstack <= 1 && !d->truncated)
		return;

	/* the rest of the stack as a tree: "on" reads downwards, md0 on sda1 on sda */
	for (int i = 1; i < d->nstack; i++) {
		const struct dev_node *n = &d->stack[i];
		kind_text(kind, sizeof(kind), n);
		size_text(size, sizeof(size), n->size_bytes);
		fprintf(f, "%*son %s [%s], %s, %s", 2 * n->depth, "", n->name,
			n->majmin[0] ? n->majmin : "?", kind, size);
		if (n->duplicate) {
			fprintf(f, " (listed above)\n");
			continue;
		}
		if (n->model[0] && strcmp(n->kind, "part") != 0)
			fprintf(f, ", %s", n->model);
		virtual_text(f, n);
		if (n->rpm > 1)
			fprintf(f, ", %d rpm", n->rpm);
		if (!has_child(d, i)) {
			link_text(link, sizeof(link), n);
			fprintf(f, ", link %s", link);
		}
		fputc('\n', f);
	}
	if (d->truncated)
		fprintf(f, "  (stack cut at %d nodes or depth %d)\n", DEVINFO_MAX_NODES, DEVINFO_MAX_DEPTH);
	double ceiling = devinfo_ceiling(d);
	fprintf(f, "leaves:");
	for (int i = 0; i < d->nleaves; i++)
		fprintf(f, "%s %s", i ? "," : "", d->stack[d->leaves[i]].name);
	if (ceiling > 0) {
		char rate[32];
		fmt_rate_si(rate, sizeof(rate), ceiling);
		fprintf(f, "; link ceiling %s%s\n", rate, d->nleaves > 1 ? " (sum)" : "");
	} else {
		fprintf(f, "; link ceiling unknown\n");
	}
}
