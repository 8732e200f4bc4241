/* devinfo over fake sysfs trees built here in a mkdtemp directory (laid out
 * like /sys: /sys/dev/block/M:m -> ../../devices/..., queue/ files, slaves/
 * symlinks, class/ata_link, class/ata_device) with a fake mountinfo, then a
 * few probes of this machine. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devinfo.h"
#include "json.h"
#include "platform.h"

/* snprintf without GCC's truncation guesses: every buffer here is ample. */
static void fmt_to(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fmt_to(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < len);
}

/* ---- a tiny JSON validator ----------------------------------------------- */

static const char *jv_value(const char *p, int depth);

static const char *jv_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

static const char *jv_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!*p || !strchr("\"\\/bfnrt", *p)) {
				return NULL;
			}
		}
		p++;
	}
	return p + 1;
}

static const char *jv_number(const char *p)
{
	const char *start = p;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return NULL;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return p > start ? p : NULL;
}

static const char *jv_container(const char *p, int depth, char close, bool object)
{
	p = jv_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			p = jv_string(jv_ws(p));
			if (!p)
				return NULL;
			p = jv_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		p = jv_value(p, depth + 1);
		if (!p)
			return NULL;
		p = jv_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *jv_value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	p = jv_ws(p);
	switch (*p) {
	case '{': return jv_container(p, depth, '}', true);
	case '[': return jv_container(p, depth, ']', false);
	case '"': return jv_string(p);
	case 't': return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
	case 'f': return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
	case 'n': return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
	default: return jv_number(p);
	}
}

static bool json_valid(const char *s)
{
	const char *end = jv_value(s, 0);
	return end && *jv_ws(end) == '\0';
}

static void test_validator(void **state)
{
	(void)state;
	assert_true(json_valid("{\"a\": [1, -2.5e3, true, false, null, \"x\\\"\\u00e9\"], \"b\": {}}"));
	assert_false(json_valid("{\"a\": 1,}"));
	assert_false(json_valid("{\"a\" 1}"));
	assert_false(json_valid("[1, 2"));
	assert_false(json_valid("\"tab\there\""));
	assert_false(json_valid("{} x"));
}

/* ---- capturing output ---------------------------------------------------- */

enum what { OUT_JSON, OUT_DEVICE, OUT_TEXT };

/* The output as a malloc'ed string. */
static char *render(const struct devinfo *d, enum what w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	struct json j;
	json_init(&j, f);
	if (w == OUT_JSON)
		devinfo_json(&j, d);
	else if (w == OUT_DEVICE)
		devinfo_json_device(&j, d);
	else
		devinfo_text(f, d);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static bool has(const char *hay, const char *needle)
{
	if (!strstr(hay, needle)) {
		print_error("missing \"%s\" in:\n%s\n", needle, hay);
		return false;
	}
	return true;
}

/* Every rendering of d is produced; both JSON forms are valid. */
static void check_outputs(const struct devinfo *d)
{
	char *json = render(d, OUT_JSON), *dev = render(d, OUT_DEVICE), *text = render(d, OUT_TEXT);
	if (!json_valid(json))
		print_error("invalid JSON:\n%s\n", json);
	assert_true(json_valid(json));
	assert_true(json_valid(dev));
	assert_true(has(json, "{\"fs\": {"));
	assert_true(has(json, "\"device\": "));
	assert_true(has(json, "\"stack\": ["));
	assert_true(has(json, "\"leaves\": ["));
	assert_true(has(dev, "\"ceiling_bytes_per_sec\": "));
	assert_true(strlen(text) > 0);
	free(json);
	free(dev);
	free(text);
}

/* ---- the fake tree -------------------------------------------------------- */

struct fx {
	char root[PATH_MAX];      /* the mkdtemp directory */
	char sys[PATH_MAX];       /* root/sys: the fake /sys */
	char mountinfo[PATH_MAX]; /* root/mountinfo */
	char data[PATH_MAX];      /* root/data: a real directory to probe */
	char majmin[16];          /* st_dev of data: the fake tree's top device */
	bool real_dev;            /* data is on a block device, so probing it reaches the fake tree */
	struct devinfo_roots roots;
	struct devinfo d;
};

static void mkdirs(const char *path)
{
	char tmp[PATH_MAX];
	fmt_to(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(tmp, 0755);
		*p = '/';
	}
	mkdir(tmp, 0755);
}

static void parent_dirs(const char *path)
{
	char dir[PATH_MAX];
	fmt_to(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
}

/* Writes sys/rel with the formatted content and a newline. */
static void put(struct fx *f, const char *rel, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(struct fx *f, const char *rel, const char *fmt, ...)
{
	char path[PATH_MAX];
	fmt_to(path, sizeof(path), "%s/%s", f->sys, rel);
	parent_dirs(path);
	FILE *out = fopen(path, "w");
	assert_non_null(out);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	assert_int_equal(fclose(out), 0);
}

/* A relative symlink sys/from -> sys/to, as sysfs has them. */
static void lnk(struct fx *f, const char *from, const char *to)
{
	char path[PATH_MAX], target[PATH_MAX] = "";
	fmt_to(path, sizeof(path), "%s/%s", f->sys, from);
	parent_dirs(path);
	for (const char *p = from; (p = strchr(p, '/')) != NULL; p++)
		strcat(target, "../");
	strcat(target, to);
	unlink(path);
	assert_int_equal(symlink(target, path), 0);
}

static void mount_line(struct fx *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mount_line(struct fx *f, const char *fmt, ...)
{
	FILE *out = fopen(f->mountinfo, "a");
	assert_non_null(out);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	assert_int_equal(fclose(out), 0);
}

static void mount_reset(struct fx *f)
{
	FILE *out = fopen(f->mountinfo, "w");
	assert_non_null(out);
	fclose(out);
}

/* A block device node: dev, size, removable and queue/ files. */
static void blockdev(struct fx *f, const char *dir, const char *majmin, long long sectors, int rot,
		     int lbs, int pbs, const char *cache, int fua, const char *sched)
{
	char rel[PATH_MAX];
	const char *name = strrchr(dir, '/') + 1;
	put(f, strcat(strcpy(rel, dir), "/dev"), "%s", majmin);
	put(f, strcat(strcpy(rel, dir), "/size"), "%lld", sectors);
	put(f, strcat(strcpy(rel, dir), "/removable"), "0");
	put(f, strcat(strcpy(rel, dir), "/queue/rotational"), "%d", rot);
	put(f, strcat(strcpy(rel, dir), "/queue/logical_block_size"), "%d", lbs);
	put(f, strcat(strcpy(rel, dir), "/queue/physical_block_size"), "%d", pbs);
	put(f, strcat(strcpy(rel, dir), "/queue/write_cache"), "%s", cache);
	put(f, strcat(strcpy(rel, dir), "/queue/fua"), "%d", fua);
	put(f, strcat(strcpy(rel, dir), "/queue/scheduler"), "%s", sched);
	fmt_to(rel, sizeof(rel), "dev/block/%s", majmin);
	lnk(f, rel, dir);
	char blk[PATH_MAX], path[PATH_MAX];
	fmt_to(blk, sizeof(blk), "block/%s", name);
	fmt_to(path, sizeof(path), "%s/%s", f->sys, blk);
	if (access(path, F_OK) != 0)
		lnk(f, blk, dir);
}

static void partition(struct fx *f, const char *dir, const char *majmin, long long sectors, int number)
{
	char rel[PATH_MAX];
	put(f, strcat(strcpy(rel, dir), "/dev"), "%s", majmin);
	put(f, strcat(strcpy(rel, dir), "/size"), "%lld", sectors);
	put(f, strcat(strcpy(rel, dir), "/partition"), "%d", number);
	put(f, strcat(strcpy(rel, dir), "/start"), "2048");
	fmt_to(rel, sizeof(rel), "dev/block/%s", majmin);
	lnk(f, rel, dir);
}

/* The cached IDENTIFY data: ATA strings two characters per word, high byte first. */
static void ata_id(struct fx *f, const char *rel, const char *model, const char *serial,
		   const char *fw, unsigned rpm, unsigned sata_caps)
{
	uint16_t w[256] = { 0 };
	const struct { const char *s; int first, words; } str[] = {
		{ serial, 10, 10 }, { fw, 23, 4 }, { model, 27, 20 },
	};
	for (size_t k = 0; k < 3; k++) {
		char pad[41];
		fmt_to(pad, sizeof(pad), "%-40s", str[k].s);
		for (int i = 0; i < str[k].words; i++)
			w[str[k].first + i] = (uint16_t)((unsigned char)pad[2 * i] << 8 | (unsigned char)pad[2 * i + 1]);
	}
	w[76] = (uint16_t)sata_caps;
	w[217] = (uint16_t)rpm;
	char text[256 * 5 + 1], *p = text;
	for (int i = 0; i < 256; i++)
		p += sprintf(p, "%04x%c", w[i], (i + 1) % 8 ? ' ' : '\n');
	p[-1] = '\0'; /* put() adds the last newline */
	put(f, rel, "%s", text);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	/* a directory on a block device, so that its st_dev leads into the fake tree */
	const char *bases[] = { getenv("TMPDIR"), "/var/tmp", "/tmp" };
	struct stat st;
	for (size_t i = 0; i < 3 && !f->root[0]; i++) {
		if (!bases[i] || stat(bases[i], &st) != 0 || (major(st.st_dev) == 0 && i < 2))
			continue;
		char tmpl[PATH_MAX];
		fmt_to(tmpl, sizeof(tmpl), "%s/devinfo-test.XXXXXX", bases[i]);
		if (mkdtemp(tmpl) && realpath(tmpl, f->root))
			break;
	}
	if (!f->root[0]) {
		free(f);
		return -1;
	}
	fmt_to(f->sys, sizeof(f->sys), "%s/sys", f->root);
	fmt_to(f->mountinfo, sizeof(f->mountinfo), "%s/mountinfo", f->root);
	fmt_to(f->data, sizeof(f->data), "%s/data", f->root);
	mkdirs(f->sys);
	mkdirs(f->data);
	stat(f->data, &st);
	f->real_dev = major(st.st_dev) != 0;
	if (f->real_dev)
		fmt_to(f->majmin, sizeof(f->majmin), "%u:%u", major(st.st_dev), minor(st.st_dev));
	else
		fmt_to(f->majmin, sizeof(f->majmin), "259:99");
	FILE *m = fopen(f->mountinfo, "w");
	if (!m)
		return -1;
	fclose(m);
	f->roots.sysfs = f->sys;
	f->roots.mountinfo = f->mountinfo;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	nftw(f->root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(f);
	return 0;
}

/* The fake top device under the data directory's filesystem. */
static void mount_data(struct fx *f, const char *source)
{
	mount_line(f, "22 1 0:4095 / /proc rw,relatime - proc proc rw"); /* never matches */
	mount_line(f, "27 1 %s / %s rw,relatime - ext4 %s rw,discard", f->majmin, f->data, source);
}

/* Probes the data directory (its st_dev leads to the fake top device), or
 * that device's number directly where the temp dir is not on a block device. */
static struct devinfo *probe(struct fx *f)
{
	unsigned maj, min;
	if (f->real_dev) {
		assert_int_equal(devinfo_probe(f->data, &f->roots, &f->d), 0);
		assert_string_equal(f->d.fs_type, "ext4");
		assert_string_equal(f->d.mount_point, f->data);
		assert_string_equal(f->d.st_dev, f->majmin);
		assert_string_equal(f->d.path_type, "dir");
	} else {
		assert_int_equal(sscanf(f->majmin, "%u:%u", &maj, &min), 2);
		assert_int_equal(devinfo_probe_devnum(maj, min, &f->roots, &f->d), 0);
	}
	assert_null(f->d.fs_class);
	check_outputs(&f->d);
	return &f->d;
}

static void assert_near(double got, double want, double rel)
{
	if (fabs(got - want) > fabs(want) * rel) {
		print_error("got %.6g, want %.6g\n", got, want);
		fail();
	}
}

/* ---- NVMe ---------------------------------------------------------------- */

#define PCI_A "devices/pci0000:00/0000:00:1d.0/0000:3d:00.0"
#define CTRL_A PCI_A "/nvme/nvme0"
#define NS_A CTRL_A "/nvme0n1"

static void nvme_a(struct fx *f, const char *ns_majmin, const char *gts, const char *maxgts, int w, int mw)
{
	put(f, PCI_A "/vendor", "0x144d");
	put(f, PCI_A "/current_link_speed", "%s PCIe", gts);
	put(f, PCI_A "/current_link_width", "%d", w);
	put(f, PCI_A "/max_link_speed", "%s PCIe", maxgts);
	put(f, PCI_A "/max_link_width", "%d", mw);
	put(f, CTRL_A "/model", "%-40s", "Samsung SSD 970 EVO Plus 1TB");
	put(f, CTRL_A "/serial", "%-20s", "S4EWNX0N123456A");
	put(f, CTRL_A "/firmware_rev", "%-8s", "2B2QEXM7");
	put(f, CTRL_A "/transport", "pcie");
	lnk(f, CTRL_A "/device", PCI_A);
	blockdev(f, NS_A, ns_majmin, 1953525168, 0, 512, 512, "write back", 1, "[none] mq-deadline kyber bfq");
	lnk(f, NS_A "/device", CTRL_A);
}

static void test_nvme_gen3_x4(void **state)
{
	struct fx *f = *state;
	nvme_a(f, f->majmin, "8.0", "8.0", 4, 4);
	mount_data(f, "/dev/nvme0n1");
	struct devinfo *d = probe(f);
	assert_true(d->has_top);
	assert_string_equal(d->mount_source, f->real_dev ? "/dev/nvme0n1" : "");
	const struct dev_node *t = &d->top;
	assert_string_equal(t->name, "nvme0n1");
	assert_string_equal(t->majmin, f->majmin);
	assert_string_equal(t->kind, "disk");
	assert_int_equal(t->size_bytes, 1953525168LL * 512);
	assert_string_equal(t->vendor, "");
	assert_string_equal(t->model, "Samsung SSD 970 EVO Plus 1TB");
	assert_string_equal(t->serial, "S4EWNX0N123456A");
	assert_string_equal(t->firmware, "2B2QEXM7");
	assert_int_equal(t->rotational, 0);
	assert_int_equal(t->rpm, -1);
	assert_false(t->rotational_unreliable);
	assert_int_equal(t->logical_block_size, 512);
	assert_int_equal(t->physical_block_size, 512);
	assert_string_equal(t->write_cache, "write back");
	assert_int_equal(t->fua, 1);
	assert_string_equal(t->scheduler, "none");
	assert_int_equal(t->removable, 0);
	assert_int_equal(t->hotplug, -1);
	assert_string_equal(t->transport, "nvme");
	assert_false(t->is_virtual);
	assert_string_equal(t->dm_name, "");
	assert_string_equal(t->backing_file, "");
	assert_string_equal(t->link.kind, "pcie");
	assert_string_equal(t->link.speed, "8.0 GT/s");
	assert_int_equal(t->link.width, 4);
	assert_string_equal(t->link.max_speed, "8.0 GT/s");
	assert_int_equal(t->link.max_width, 4);
	assert_false(t->link.below_max);
	assert_near(t->link.ceiling_bytes_per_sec, 3.938e9, 0.001);
	assert_int_equal(d->nstack, 1);
	assert_int_equal(d->nleaves, 1);
	assert_int_equal(d->leaves[0], 0);
	assert_near(devinfo_ceiling(d), 3.938e9, 0.001);
	assert_false(d->truncated);

	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "device: nvme0n1 ["));
	assert_true(has(text, "nvme disk, 1.0 TB (932 GiB)"));
	assert_true(has(text, "model Samsung SSD 970 EVO Plus 1TB"));
	assert_true(has(text, "link: PCIe Gen3 x4 (8.0 GT/s), ceiling 3.94 GB/s"));
	free(text);
	char *json = render(d, OUT_DEVICE);
	assert_true(has(json, "\"link\": {\"kind\": \"pcie\", \"speed\": \"8.0 GT/s\", \"width\": 4, "
			      "\"max_speed\": \"8.0 GT/s\", \"max_width\": 4, \"below_max\": false, "
			      "\"ceiling_bytes_per_sec\": 3938461538, \"emulated\": false}"));
	assert_true(has(json, "\"rotational\": false"));
	assert_true(has(json, "\"rpm\": null"));
	free(json);
}

/* A ZNS namespace: host-managed, its zone size from queue/chunk_sectors
 * (512-byte sectors) and its zone count; then a plain disk whose
 * chunk_sectors is a RAID chunk, not a zone, must show no zone at all. */
static void test_nvme_zoned(void **state)
{
	struct fx *f = *state;
	nvme_a(f, f->majmin, "8.0", "8.0", 4, 4);
	put(f, NS_A "/queue/zoned", "host-managed");
	put(f, NS_A "/queue/chunk_sectors", "16384");
	put(f, NS_A "/queue/nr_zones", "8");
	mount_data(f, "/dev/nvme0n1");
	const struct dev_node *t = &probe(f)->top;
	assert_string_equal(t->zoned, "host-managed");
	assert_int_equal(t->zone_size_bytes, 8 << 20);
	assert_int_equal(t->nr_zones, 8);
	char *text = render(&f->d, OUT_TEXT), *json = render(&f->d, OUT_JSON);
	assert_true(has(text, ", host-managed zoned (8.0 MiB zones x 8)"));
	assert_true(has(json, "\"zoned\": \"host-managed\", \"zone_size_bytes\": 8388608, \"nr_zones\": 8"));
	free(text);
	free(json);
	/* its limits from sysfs; capacity and conventional zones, which only the
	 * zone report tells, as info sets them after it */
	put(f, NS_A "/queue/max_open_zones", "14");
	put(f, NS_A "/queue/max_active_zones", "0");
	struct devinfo *d = probe(f);
	assert_int_equal(d->top.max_open_zones, 14);
	assert_int_equal(d->top.max_active_zones, 0);
	assert_int_equal(d->top.zone_capacity_bytes, -1);
	d->top.zone_capacity_bytes = 6 << 20;
	d->top.conventional_zones = 1;
	text = render(d, OUT_TEXT);
	json = render(d, OUT_JSON);
	assert_true(has(text, ", host-managed zoned (8.0 MiB zones x 8, capacity 6.0 MiB, 1 conventional, "
			"at most 14 open)"));
	assert_true(has(json, "\"zone_capacity_bytes\": 6291456, \"conventional_zones\": 1, "
			"\"max_open_zones\": 14, \"max_active_zones\": 0"));
	free(text);
	free(json);

	put(f, NS_A "/queue/zoned", "none");
	put(f, NS_A "/queue/chunk_sectors", "128");
	put(f, NS_A "/queue/nr_zones", "0");
	t = &probe(f)->top;
	assert_string_equal(t->zoned, "none");
	assert_int_equal(t->zone_size_bytes, -1);
	assert_int_equal(t->nr_zones, -1);
	text = render(&f->d, OUT_TEXT);
	assert_null(strstr(text, "zoned"));
	free(text);
}

/* A run on a zoned device asks devinfo_path_zoned for its model and limits:
 * a node made here (root only) whose number the fake tree describes. */
static void test_path_zoned(void **state)
{
	struct fx *f = *state;
	char node[PATH_MAX];
	struct devinfo_zoned z;
	fmt_to(node, sizeof(node), "%s/zns", f->root);
	if (mknod(node, S_IFBLK | 0600, makedev(259, 77)) != 0) {
		print_message("skipped: mknod needs root (%s)\n", strerror(errno));
		skip();
	}
	put(f, "devices/virtual/block/nullb1/dev", "259:77");
	lnk(f, "dev/block/259:77", "devices/virtual/block/nullb1");
	put(f, "devices/virtual/block/nullb1/queue/zoned", "host-managed");
	put(f, "devices/virtual/block/nullb1/queue/chunk_sectors", "131072");
	put(f, "devices/virtual/block/nullb1/queue/max_open_zones", "14");
	put(f, "devices/virtual/block/nullb1/queue/max_active_zones", "0");
	assert_int_equal(devinfo_path_zoned(node, &f->roots, &z), 1);
	assert_string_equal(z.model, "host-managed");
	assert_int_equal(z.max_open, 14);
	assert_int_equal(z.max_active, 0); /* no limit */
	/* host-aware is zoned too: written in order for speed, not for need */
	put(f, "devices/virtual/block/nullb1/queue/zoned", "host-aware");
	assert_int_equal(devinfo_path_zoned(node, &f->roots, &z), 1);
	assert_string_equal(z.model, "host-aware");
	/* a conventional disk is not */
	put(f, "devices/virtual/block/nullb1/queue/zoned", "none");
	assert_int_equal(devinfo_path_zoned(node, &f->roots, &z), 0);
	assert_string_equal(z.model, "");
	/* a device the tree does not know: not zoned as far as can be told */
	unlink(node);
	assert_int_equal(mknod(node, S_IFBLK | 0600, makedev(259, 78)), 0);
	assert_int_equal(devinfo_path_zoned(node, &f->roots, &z), 0);
	unlink(node);
	assert_int_equal(devinfo_path_zoned(f->root, &f->roots, &z), -1);
	assert_int_equal(errno, ENOTBLK);
}

/* Native multipath: the namespace hangs under nvme-subsysN, which holds the
 * controller; a Gen4 x4 device running at Gen3 x2. */
#define PCI_B "devices/pci0000:00/0000:00:01.1/0000:01:00.0"
#define CTRL_B PCI_B "/nvme/nvme1"
#define SUBSYS_B "devices/virtual/nvme-subsystem/nvme-subsys1"
#define NS_B SUBSYS_B "/nvme1n1"

static void test_nvme_below_max_multipath(void **state)
{
	struct fx *f = *state;
	put(f, PCI_B "/vendor", "0x15b7");
	put(f, PCI_B "/current_link_speed", "8.0 GT/s PCIe");
	put(f, PCI_B "/current_link_width", "2");
	put(f, PCI_B "/max_link_speed", "16.0 GT/s PCIe");
	put(f, PCI_B "/max_link_width", "4");
	put(f, CTRL_B "/model", "%-40s", "WD_BLACK SN850X 1000GB");
	lnk(f, CTRL_B "/device", PCI_B);
	put(f, SUBSYS_B "/model", "%-40s", "WD_BLACK SN850X 1000GB");
	put(f, SUBSYS_B "/serial", "%-20s", "22475Z800123");
	put(f, SUBSYS_B "/firmware_rev", "%-8s", "620311WD");
	lnk(f, SUBSYS_B "/nvme1", CTRL_B);
	blockdev(f, NS_B, f->majmin, 1953525168, 0, 512, 512, "write back", 0, "[none] mq-deadline");
	lnk(f, NS_B "/device", SUBSYS_B);
	mount_data(f, "/dev/nvme1n1");

	struct devinfo *d = probe(f);
	const struct dev_node *t = &d->top;
	assert_string_equal(t->model, "WD_BLACK SN850X 1000GB");
	assert_string_equal(t->serial, "22475Z800123");
	assert_string_equal(t->firmware, "620311WD");
	assert_string_equal(t->transport, "nvme");
	assert_string_equal(t->link.kind, "pcie");
	assert_string_equal(t->link.speed, "8.0 GT/s");
	assert_int_equal(t->link.width, 2);
	assert_string_equal(t->link.max_speed, "16.0 GT/s");
	assert_int_equal(t->link.max_width, 4);
	assert_true(t->link.below_max);
	assert_near(t->link.ceiling_bytes_per_sec, 8e9 * 2 * 128 / 130 / 8, 1e-9);
	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "PCIe Gen3 x2 (8.0 GT/s), below its maximum Gen4 x4, ceiling 1.97 GB/s"));
	free(text);

	/* a Gen2 link: 8b/10b */
	put(f, PCI_B "/current_link_speed", "5 GT/s");
	put(f, PCI_B "/current_link_width", "4");
	probe(f);
	assert_near(f->d.top.link.ceiling_bytes_per_sec, 2.0e9, 1e-9);
	assert_string_equal(f->d.top.link.speed, "5.0 GT/s");
}

/* ---- SATA ---------------------------------------------------------------- */

#define MODEL40 "WDC WD40EFRX-68N32N0 RED NAS 5400 CLASS!"

/* A SATA disk on port `port` (libata print_id) behind SCSI host `host`. */
static void sata_disk(struct fx *f, int port, int host, const char *disk, const char *disk_majmin,
		      const char *spd, const char *hw_limit, unsigned caps, unsigned rpm, char *out_dir)
{
	char dev[PATH_MAX], rel[PATH_MAX];
	fmt_to(dev, sizeof(dev), "devices/pci0000:00/0000:00:17.0/ata%d/host%d/target%d:0:0/%d:0:0:0",
		 port, host, host, host);
	fmt_to(rel, sizeof(rel), "%s/vendor", dev);
	put(f, rel, "ATA     ");
	fmt_to(rel, sizeof(rel), "%s/model", dev);
	put(f, rel, "%.16s", MODEL40);
	fmt_to(rel, sizeof(rel), "%s/rev", dev);
	put(f, rel, "0A82");
	fmt_to(out_dir, PATH_MAX, "%s/block/%s", dev, disk);
	blockdev(f, out_dir, disk_majmin, 7814037168LL, 1, 512, 4096, "write back", 0,
		 "[mq-deadline] kyber bfq none");
	fmt_to(rel, sizeof(rel), "%s/device", out_dir);
	lnk(f, rel, dev);
	fmt_to(rel, sizeof(rel), "class/scsi_host/host%d/proc_name", host);
	put(f, rel, "ahci");
	fmt_to(rel, sizeof(rel), "class/ata_link/link%d/sata_spd", port);
	put(f, rel, "%s", spd);
	fmt_to(rel, sizeof(rel), "class/ata_link/link%d/hw_sata_spd_limit", port);
	put(f, rel, "%s", hw_limit);
	fmt_to(rel, sizeof(rel), "class/ata_device/dev%d.0/id", port);
	ata_id(f, rel, MODEL40, "     WD-WCC7K1234567", "82.00A82", rpm, caps);
}

static void test_sata_partition(void **state)
{
	struct fx *f = *state;
	char sda[PATH_MAX], sda1[PATH_MAX];
	sata_disk(f, 3, 2, "sda", "8:0", "6.0 Gbps", "6.0 Gbps", 0x000e, 7200, sda);
	fmt_to(sda1, sizeof(sda1), "%s/sda1", sda);
	partition(f, sda1, f->majmin, 7814035087LL, 1);
	mount_data(f, "/dev/sda1");

	struct devinfo *d = probe(f);
	const struct dev_node *t = &d->top;
	assert_string_equal(t->name, "sda1");
	assert_string_equal(t->kind, "part");
	assert_string_equal(t->parent_disk, "sda");
	assert_int_equal(t->size_bytes, 7814035087LL * 512);
	assert_int_equal(strlen(MODEL40), 40);
	assert_string_equal(t->model, MODEL40);     /* not the 16-character SCSI model */
	assert_string_equal(t->serial, "WD-WCC7K1234567");
	assert_string_equal(t->firmware, "82.00A82");
	assert_string_equal(t->vendor, "ATA");
	assert_int_equal(t->rpm, 7200);
	assert_int_equal(t->rotational, 1);
	assert_false(t->rotational_unreliable);
	assert_int_equal(t->physical_block_size, 4096);
	assert_int_equal(t->fua, 0);
	assert_string_equal(t->scheduler, "mq-deadline");
	assert_string_equal(t->transport, "sata");
	assert_false(t->is_virtual);
	assert_string_equal(t->link.kind, "sata");
	assert_string_equal(t->link.speed, "6.0 Gbps");
	assert_string_equal(t->link.max_speed, "6.0 Gbps");
	assert_false(t->link.below_max);
	assert_int_equal(t->link.width, -1);
	assert_near(t->link.ceiling_bytes_per_sec, 600e6, 1e-9);

	assert_int_equal(d->nstack, 2);
	assert_string_equal(d->stack[1].name, "sda");
	assert_string_equal(d->stack[1].kind, "disk");
	assert_string_equal(d->stack[1].majmin, "8:0");
	assert_int_equal(d->stack[1].size_bytes, 7814037168LL * 512);
	assert_string_equal(d->stack[1].model, MODEL40);
	assert_int_equal(d->stack[1].parent, 0);
	assert_int_equal(d->stack[1].depth, 1);
	assert_int_equal(d->nleaves, 1);
	assert_int_equal(d->leaves[0], 1);
	assert_near(devinfo_ceiling(d), 600e6, 1e-9);

	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "partition of sda, sata"));
	assert_true(has(text, "rotational 1, 7200 rpm"));
	assert_true(has(text, "link: SATA 6.0 Gbps, ceiling 600 MB/s"));
	assert_true(has(text, "  on sda [8:0], sata disk, 4.0 TB (3.6 TiB), " MODEL40 ", 7200 rpm, link SATA"));
	free(text);

	/* an SSD per ATA word 217, and no IDENTIFY at all: the SCSI model stays */
	char rel[PATH_MAX];
	ata_id(f, "class/ata_device/dev3.0/id", MODEL40, "S1", "F1", 1, 0x000e);
	probe(f);
	assert_int_equal(f->d.top.rpm, 1);
	fmt_to(rel, sizeof(rel), "%s/class/ata_device/dev3.0/id", f->sys);
	assert_int_equal(unlink(rel), 0);
	probe(f);
	assert_string_equal(f->d.top.model, "WDC WD40EFRX-68N");
	assert_int_equal(f->d.top.rpm, -1);
	assert_string_equal(f->d.top.firmware, "0A82");
	assert_string_equal(f->d.top.link.max_speed, "6.0 Gbps"); /* the host's limit alone */
}

/* ---- md RAID1 ------------------------------------------------------------ */

#define MD0 "devices/virtual/block/md0"

static void test_md_raid1(void **state)
{
	struct fx *f = *state;
	char sda[PATH_MAX], sdb[PATH_MAX], sda1[PATH_MAX], sdb1[PATH_MAX];
	sata_disk(f, 3, 2, "sda", "8:0", "6.0 Gbps", "6.0 Gbps", 0x000e, 7200, sda);
	/* sdb: a SATA III disk on a link that fell back to 3.0 Gbps */
	sata_disk(f, 4, 3, "sdb", "8:16", "3.0 Gbps", "6.0 Gbps", 0x000e, 7200, sdb);
	fmt_to(sda1, sizeof(sda1), "%s/sda1", sda);
	fmt_to(sdb1, sizeof(sdb1), "%s/sdb1", sdb);
	partition(f, sda1, "8:1", 7814035087LL, 1);
	partition(f, sdb1, "8:17", 7814035087LL, 1);
	blockdev(f, MD0, f->majmin, 7813770240LL, 1, 512, 4096, "write back", 0, "none");
	put(f, MD0 "/md/level", "raid1");
	put(f, MD0 "/md/raid_disks", "2");
	lnk(f, MD0 "/slaves/sdb1", sdb1); /* listed in name order whatever readdir says */
	lnk(f, MD0 "/slaves/sda1", sda1);
	mount_data(f, "/dev/md0");

	struct devinfo *d = probe(f);
	assert_string_equal(d->top.name, "md0");
	assert_string_equal(d->top.kind, "md");
	assert_string_equal(d->top.md_level, "raid1");
	assert_int_equal(d->top.md_raid_disks, 2);
	assert_string_equal(d->top.link.kind, "none");
	assert_null(d->top.transport);
	assert_int_equal(d->nstack, 5);
	const char *names[] = { "md0", "sda1", "sda", "sdb1", "sdb" };
	const int parents[] = { -1, 0, 1, 0, 3 };
	for (int i = 0; i < 5; i++) {
		assert_string_equal(d->stack[i].name, names[i]);
		assert_int_equal(d->stack[i].parent, parents[i]);
	}
	assert_int_equal(d->nleaves, 2);
	assert_int_equal(d->leaves[0], 2);
	assert_int_equal(d->leaves[1], 4);
	const struct dev_link *b = &d->stack[4].link;
	assert_string_equal(b->speed, "3.0 Gbps");
	assert_string_equal(b->max_speed, "6.0 Gbps");
	assert_true(b->below_max);
	assert_near(b->ceiling_bytes_per_sec, 300e6, 1e-9);
	assert_near(devinfo_ceiling(d), 900e6, 1e-9);

	char *json = render(d, OUT_JSON);
	assert_true(has(json, "\"members\": [\"sda1\", \"sdb1\"]"));
	assert_true(has(json, "\"leaves\": [\"sda\", \"sdb\"], \"ceiling_bytes_per_sec\": 900000000"));
	assert_true(has(json, "\"md_level\": \"raid1\""));
	free(json);
	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "device: md0 ["));
	assert_true(has(text, "md raid1"));
	assert_true(has(text, "SATA 3.0 Gbps, below its maximum 6.0 Gbps, ceiling 300 MB/s"));
	assert_true(has(text, "leaves: sda, sdb; link ceiling 900 MB/s (sum)"));
	free(text);

	/* one leaf with an unknown link: the sum is unknown */
	char rel[PATH_MAX];
	fmt_to(rel, sizeof(rel), "%s/class/ata_link/link4/sata_spd", f->sys);
	assert_int_equal(unlink(rel), 0);
	probe(f);
	assert_string_equal(f->d.stack[4].link.kind, "sata");
	assert_string_equal(f->d.stack[4].link.speed, "");
	assert_true(devinfo_ceiling(&f->d) == 0);
}

/* ---- LVM over an NVMe partition ------------------------------------------ */

#define DM0 "devices/virtual/block/dm-0"

static void test_lvm(void **state)
{
	struct fx *f = *state;
	nvme_a(f, "259:0", "16.0", "16.0", 4, 4);
	partition(f, NS_A "/nvme0n1p2", "259:2", 1900000000LL, 2);
	blockdev(f, DM0, f->majmin, 1073741824LL, 0, 512, 512, "write back", 1, "none");
	put(f, DM0 "/dm/name", "vg0-root");
	put(f, DM0 "/dm/uuid", "LVM-Xq3AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijklmnopqrstu");
	lnk(f, DM0 "/slaves/nvme0n1p2", NS_A "/nvme0n1p2");
	mount_data(f, "/dev/mapper/vg0-root");

	struct devinfo *d = probe(f);
	const struct dev_node *t = &d->top;
	assert_string_equal(t->name, "dm-0");
	assert_string_equal(t->kind, "dm");
	assert_string_equal(t->dm_name, "vg0-root");
	assert_string_equal(t->dm_uuid_prefix, "LVM");
	assert_int_equal(t->size_bytes, 1073741824LL * 512);
	assert_string_equal(t->link.kind, "none");
	assert_int_equal(d->nstack, 3);
	assert_string_equal(d->stack[1].name, "nvme0n1p2");
	assert_string_equal(d->stack[1].kind, "part");
	assert_string_equal(d->stack[2].name, "nvme0n1");
	assert_int_equal(d->nleaves, 1);
	assert_int_equal(d->leaves[0], 2);
	assert_string_equal(d->stack[2].link.speed, "16.0 GT/s");
	assert_near(devinfo_ceiling(d), 16e9 * 4 * 128 / 130 / 8, 1e-9);

	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "dm LVM vg0-root"));
	assert_true(has(text, "  on nvme0n1p2 [259:2], partition of nvme0n1, nvme"));
	assert_true(has(text, "    on nvme0n1 [259:0], nvme disk"));
	assert_true(has(text, "PCIe Gen4 x4 (16.0 GT/s), ceiling 7.88 GB/s"));
	free(text);
	char *dev = render(d, OUT_DEVICE);
	assert_true(has(dev, "\"leaves\": [{\"name\": \"nvme0n1\""));
	free(dev);

	/* dm partitions and crypt: the prefix before the first '-' */
	put(f, DM0 "/dm/uuid", "part2-mpath-3600508b400105e210000900000490000");
	probe(f);
	assert_string_equal(f->d.top.dm_uuid_prefix, "part");
	put(f, DM0 "/dm/uuid", "CRYPT-LUKS2-0123456789abcdef-root");
	probe(f);
	assert_string_equal(f->d.top.dm_uuid_prefix, "CRYPT");
}

/* ---- USB ------------------------------------------------------------------ */

#define USBXHCI "devices/pci0000:00/0000:00:14.0"
#define USBDEV USBXHCI "/usb1/1-2"
#define USBSCSI USBDEV "/1-2:1.0/host6/target6:0:0/6:0:0:0"
#define SDC USBSCSI "/block/sdc"

static void test_usb_stick(void **state)
{
	struct fx *f = *state;
	put(f, USBDEV "/idVendor", "0781");
	put(f, USBDEV "/idProduct", "5567");
	put(f, USBDEV "/speed", "480");
	put(f, USBDEV "/version", " 2.00");
	put(f, USBDEV "/removable", "removable");
	put(f, USBSCSI "/vendor", "SanDisk ");
	put(f, USBSCSI "/model", "Cruzer Blade    ");
	put(f, USBSCSI "/rev", "1.00");
	put(f, "class/scsi_host/host6/proc_name", "usb-storage");
	blockdev(f, SDC, f->majmin, 60063744, 1, 512, 512, "write through", 0, "[mq-deadline] none");
	put(f, SDC "/removable", "1");
	lnk(f, SDC "/device", USBSCSI);
	mount_data(f, "/dev/sdc");

	struct devinfo *d = probe(f);
	const struct dev_node *t = &d->top;
	assert_string_equal(t->name, "sdc");
	assert_string_equal(t->transport, "usb");
	assert_int_equal(t->removable, 1);
	assert_int_equal(t->hotplug, 1);
	assert_string_equal(t->vendor, "SanDisk");
	assert_string_equal(t->model, "Cruzer Blade");
	assert_string_equal(t->firmware, "1.00");
	assert_string_equal(t->serial, ""); /* no serial anywhere yet */
	assert_string_equal(t->write_cache, "write through");
	assert_false(t->is_virtual);
	assert_string_equal(t->link.kind, "usb");
	assert_string_equal(t->link.speed, "480 Mbit/s");
	assert_false(t->link.below_max);
	assert_near(t->link.ceiling_bytes_per_sec, 53.2e6, 0.001);
	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "link: USB 480 Mbit/s, ceiling 53.2 MB/s"));
	assert_true(has(text, "removable"));
	free(text);

	/* the SCSI side's own serial, where a bridge gives one (here as
	 * device/serial), while the USB device has none */
	put(f, USBSCSI "/serial", "4C530001240820116322");
	probe(f);
	assert_string_equal(f->d.top.serial, "4C530001240820116322");
	/* usb-storage: the serial is the USB device's iSerialNumber, up the
	 * chain, as lsblk shows it (udev's usb_id) */
	put(f, USBDEV "/serial", "USB0001\n");
	probe(f);
	assert_string_equal(f->d.top.serial, "USB0001");

	/* a USB 3 stick in a USB 2 port */
	put(f, USBDEV "/version", " 3.20");
	probe(f);
	assert_true(f->d.top.link.below_max);
	assert_string_equal(f->d.top.link.max_speed, "5000 Mbit/s");

	const struct { const char *speed; double ceiling; } speeds[] = {
		{ "1.5", 0.15e6 }, { "12", 1.216e6 }, { "5000", 500e6 },
		{ "10000", 1212.12e6 }, { "20000", 2424.24e6 },
	};
	for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++) {
		put(f, USBDEV "/speed", "%s", speeds[i].speed);
		probe(f);
		assert_near(f->d.top.link.ceiling_bytes_per_sec, speeds[i].ceiling, 0.001);
	}
	assert_false(f->d.top.link.below_max);

	/* the same stick on QEMU's emulated xHCI (Red Hat's PCI subsystem
	 * vendor): virtual, its USB link kept as what the emulator claims */
	put(f, USBXHCI "/subsystem_vendor", "0x1af4");
	probe(f);
	assert_true(f->d.top.is_virtual);
	assert_string_equal(f->d.top.link.kind, "usb");
	assert_string_equal(f->d.top.link.speed, "20000 Mbit/s");
	assert_true(f->d.top.link.emulated);
	assert_false(f->d.top.link.below_max);
}

/* ---- virtio ----------------------------------------------------------------- */

#define VIRTIO "devices/pci0000:00/0000:00:02.0/virtio1"
#define VDA VIRTIO "/block/vda"

static void virtio_disk(struct fx *f, const char *majmin)
{
	put(f, "devices/pci0000:00/0000:00:02.0/vendor", "0x1af4");
	put(f, VIRTIO "/vendor", "0x1af4");
	blockdev(f, VDA, majmin, 536870912, 1, 512, 4096, "write back", 0, "none [mq-deadline] kyber bfq ");
	put(f, VDA "/serial", "overlayblk");
	put(f, VDA "/cache_type", "write back");
	lnk(f, VDA "/device", VIRTIO);
}

static void test_virtio(void **state)
{
	struct fx *f = *state;
	virtio_disk(f, f->majmin);
	mount_data(f, "/dev/vda");

	struct devinfo *d = probe(f);
	const struct dev_node *t = &d->top;
	assert_string_equal(t->name, "vda");
	assert_int_equal(t->size_bytes, 274877906944LL);
	assert_string_equal(t->transport, "virtio");
	assert_true(t->is_virtual);
	assert_int_equal(t->rotational, 1);
	assert_true(t->rotational_unreliable);
	assert_string_equal(t->link.kind, "none");
	assert_true(t->link.ceiling_bytes_per_sec == 0);
	assert_true(devinfo_ceiling(d) == 0);
	assert_string_equal(t->serial, "overlayblk");
	assert_string_equal(t->vendor, "0x1af4");
	assert_string_equal(t->model, "");
	assert_string_equal(t->firmware, "");
	assert_int_equal(t->rpm, -1);
	assert_string_equal(t->scheduler, "mq-deadline");
	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "virtio disk, 275 GB (256 GiB), virtual (virtio-blk)"));
	assert_true(has(text, "rotational 1 (unreliable: virtual disk)"));
	assert_true(has(text, "write cache: write back (no FUA: O_DSYNC sends FLUSH)"));
	assert_true(has(text, "link: none (virtual disk)"));
	free(text);
	char *json = render(d, OUT_DEVICE);
	assert_true(has(json, "\"virtual\": true, \"virtual_kind\": \"virtio-blk\", \"cloud_volume\": false, "
			      "\"rotational\": true, \"rotational_unreliable\": true"));
	assert_true(has(json, "\"model\": null"));
	free(json);
}

/* A SCSI disk mounted as the data directory: the SCSI device's vendor and
 * model (padded as the kernel pads them), its block node linked to it. */
static void scsi_disk(struct fx *f, const char *dev, const char *disk, const char *vendor,
		      const char *model, long long sectors)
{
	char rel[PATH_MAX];
	fmt_to(rel, sizeof(rel), "%s/vendor", dev);
	put(f, rel, "%s", vendor);
	fmt_to(rel, sizeof(rel), "%s/model", dev);
	put(f, rel, "%s", model);
	blockdev(f, disk, f->majmin, sectors, 1, 512, 4096, "write back", 1, "[mq-deadline] none");
	fmt_to(rel, sizeof(rel), "%s/device", disk);
	lnk(f, rel, dev);
	fmt_to(rel, sizeof(rel), "/dev%s", strrchr(disk, '/'));
	mount_data(f, rel);
}

/* Hypervisor disks behind SCSI: Hyper-V, VMware, QEMU by vendor or model. */
static void test_virtual_scsi(void **state)
{
	struct fx *f = *state;
	const char *dev = "devices/LNXSYSTM:00/VMBUS:00/vmbus_0/host0/target0:0:0/0:0:0:0";
	const char *sda = "devices/LNXSYSTM:00/VMBUS:00/vmbus_0/host0/target0:0:0/0:0:0:0/block/sda";
	char rel[PATH_MAX];
	put(f, "class/scsi_host/host0/proc_name", "storvsc");
	scsi_disk(f, dev, sda, "Msft    ", "Virtual Disk    ", 268435456);
	probe(f);
	assert_string_equal(f->d.top.transport, "scsi");
	assert_true(f->d.top.is_virtual);
	assert_true(f->d.top.rotational_unreliable);
	assert_string_equal(f->d.top.link.kind, "none");

	fmt_to(rel, sizeof(rel), "%s/vendor", dev);
	put(f, rel, "QEMU    ");
	fmt_to(rel, sizeof(rel), "%s/model", dev);
	put(f, rel, "QEMU HARDDISK   ");
	probe(f);
	assert_true(f->d.top.is_virtual);
	fmt_to(rel, sizeof(rel), "%s/vendor", dev);
	put(f, rel, "SEAGATE ");
	fmt_to(rel, sizeof(rel), "%s/model", dev);
	put(f, rel, "ST600MM0208     ");
	put(f, "class/scsi_host/host0/proc_name", "mpt3sas"); /* a real SAS HBA, not storvsc */
	put(f, "class/sas_host/host0/.keep", "x");
	probe(f);
	assert_false(f->d.top.is_virtual);
	assert_string_equal(f->d.top.transport, "sas");
	assert_null(f->d.top.link.kind);
}

/* SCSI VPD page 0xB1: the medium rotation rate in bytes 4-5 (SBC-4), as
 * the kernel exposes it in device/vpd_pgb1; 0 (not reported), a wrong page
 * code or a short page give no rpm. */
static void put_pgb1(struct fx *f, const char *rel, unsigned char page, unsigned rate, size_t len)
{
	unsigned char raw[64] = { 0x00, page, 0x00, 0x3c, (unsigned char)(rate >> 8), (unsigned char)rate };
	char path[PATH_MAX];
	fmt_to(path, sizeof(path), "%s/%s", f->sys, rel);
	parent_dirs(path);
	FILE *out = fopen(path, "wb");
	assert_non_null(out);
	assert_int_equal(fwrite(raw, 1, len, out), len);
	assert_int_equal(fclose(out), 0);
}

static void test_scsi_rpm(void **state)
{
	struct fx *f = *state;
	const char *dev = "devices/pci0000:00/0000:00:03.0/host2/target2:0:0/2:0:0:0";
	const char *sdc = "devices/pci0000:00/0000:00:03.0/host2/target2:0:0/2:0:0:0/block/sdc";
	char rel[PATH_MAX];
	put(f, "class/sas_host/host2/.keep", "x");
	scsi_disk(f, dev, sdc, "SEAGATE ", "ST4000NM0035    ", 7814037168LL);
	fmt_to(rel, sizeof(rel), "%s/vpd_pgb1", dev);
	put_pgb1(f, rel, 0xb1, 7200, 64);
	assert_int_equal(probe(f)->top.rpm, 7200);
	char *text = render(&f->d, OUT_TEXT);
	assert_true(has(text, "rotational 1, 7200 rpm"));
	free(text);
	put_pgb1(f, rel, 0xb1, 1, 64);
	assert_int_equal(probe(f)->top.rpm, 1);
	put_pgb1(f, rel, 0xb1, 0, 64);
	assert_int_equal(probe(f)->top.rpm, -1);
	put_pgb1(f, rel, 0xb0, 7200, 64);
	assert_int_equal(probe(f)->top.rpm, -1);
	put_pgb1(f, rel, 0xb1, 7200, 5);
	assert_int_equal(probe(f)->top.rpm, -1);
}

/* ---- loop -------------------------------------------------------------------- */

#define LOOP0 "devices/virtual/block/loop0"

static void test_loop(void **state)
{
	struct fx *f = *state;
	char file[PATH_MAX];
	fmt_to(file, sizeof(file), "%s/disk.img", f->data);
	FILE *img = fopen(file, "w");
	assert_non_null(img);
	fclose(img);
	virtio_disk(f, f->majmin); /* what the backing file's filesystem sits on */
	blockdev(f, LOOP0, "7:0", 131072, 0, 512, 512, "write back", 0, "none");
	put(f, LOOP0 "/loop/backing_file", "%s", file);
	put(f, LOOP0 "/loop/dio", "1");

	struct devinfo *d = &f->d;
	assert_int_equal(devinfo_probe_devnum(7, 0, &f->roots, d), 0);
	check_outputs(d);
	assert_string_equal(d->path, "7:0");
	assert_string_equal(d->path_type, "device number");
	assert_string_equal(d->top.name, "loop0");
	assert_string_equal(d->top.kind, "loop");
	assert_string_equal(d->top.transport, "loop");
	assert_string_equal(d->top.backing_file, file);
	assert_int_equal(d->top.loop_dio, 1);
	assert_int_equal(d->top.size_bytes, 64 << 20);
	assert_string_equal(d->top.link.kind, "none");
	assert_false(d->top.is_virtual);
	if (f->real_dev) {
		/* the backing file's device, itself virtual: rotational says nothing above it either */
		assert_int_equal(d->nstack, 2);
		assert_string_equal(d->stack[1].name, "vda");
		assert_int_equal(d->leaves[0], 1);
		assert_true(d->top.rotational_unreliable);
		assert_null(d->fs_class);
	} else {
		assert_int_equal(d->nstack, 1);
		assert_true(d->top.in_ram);
		assert_string_equal(d->fs_class, "ram");
	}
	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "7:0: device number, not mounted"));
	assert_true(has(text, "loop over "));
	assert_true(has(text, "(direct I/O)"));
	free(text);

	/* a deleted backing file: the loop device is the leaf */
	put(f, LOOP0 "/loop/backing_file", "/nonexistent/devinfo/disk.img (deleted)");
	assert_int_equal(devinfo_probe_devnum(7, 0, &f->roots, d), 0);
	check_outputs(d);
	assert_int_equal(d->nstack, 1);
	assert_int_equal(d->nleaves, 1);
	assert_int_equal(d->leaves[0], 0);
	assert_string_equal(d->top.backing_file, "/nonexistent/devinfo/disk.img (deleted)");
	assert_false(d->top.rotational_unreliable);

	/* a loop device mounted somewhere: the fs fields say where */
	mount_line(f, "40 1 7:0 / /mnt/img rw - ext4 /dev/loop0 rw");
	assert_int_equal(devinfo_probe_devnum(7, 0, &f->roots, d), 0);
	assert_string_equal(d->mount_point, "/mnt/img");
	assert_string_equal(d->fs_type, "ext4");
}

/* ---- tmpfs ---------------------------------------------------------------------- */

static void test_tmpfs(void **state)
{
	struct fx *f = *state;
	struct statfs sf;
	if (statfs("/dev/shm", &sf) != 0 || (unsigned long)sf.f_type != 0x01021994UL)
		skip();
	struct devinfo *d = &f->d;
	assert_int_equal(devinfo_probe("/dev/shm", &f->roots, d), 0);
	check_outputs(d);
	assert_string_equal(d->fs_class, "ram");
	assert_string_equal(d->fs_type, "tmpfs"); /* from the magic: the fake mountinfo is empty */
	assert_int_equal(d->fs_magic, 0x01021994UL);
	assert_false(d->has_top);
	assert_int_equal(d->nstack, 0);
	assert_int_equal(d->nleaves, 0);
	assert_true(devinfo_ceiling(d) == 0);
	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "/dev/shm: dir on tmpfs"));
	assert_true(has(text, "data in RAM, no disk below"));
	free(text);
	char *json = render(d, OUT_JSON);
	assert_true(has(json, "\"class\": \"ram\""));
	assert_true(has(json, "\"device\": null, \"stack\": [], \"leaves\": []"));
	free(json);
	char *dev = render(d, OUT_DEVICE);
	assert_true(has(dev, "\"fs_class\": \"ram\""));
	free(dev);

	/* zram under a filesystem is RAM as well */
	blockdev(f, "devices/virtual/block/zram0", f->majmin, 2097152, 0, 4096, 4096, "write through", 0, "none");
	mount_data(f, "/dev/zram0");
	if (f->real_dev) {
		assert_int_equal(devinfo_probe(f->data, &f->roots, d), 0);
		assert_string_equal(d->top.kind, "zram");
		assert_true(d->top.in_ram);
		assert_string_equal(d->fs_class, "ram");
	}
}

/* ---- missing files ------------------------------------------------------------- */

static void test_missing_files(void **state)
{
	struct fx *f = *state;
	put(f, "devices/platform/thing/block/xyz0/dev", "%s", f->majmin);
	char rel[64];
	fmt_to(rel, sizeof(rel), "dev/block/%s", f->majmin);
	lnk(f, rel, "devices/platform/thing/block/xyz0");
	mount_data(f, "/dev/xyz0");

	struct devinfo *d = probe(f);
	const struct dev_node *t = &d->top;
	assert_true(d->has_top);
	assert_string_equal(t->name, "xyz0");
	assert_string_equal(t->kind, "disk");
	assert_int_equal(t->size_bytes, -1);
	assert_string_equal(t->vendor, "");
	assert_string_equal(t->model, "");
	assert_string_equal(t->serial, "");
	assert_string_equal(t->firmware, "");
	assert_int_equal(t->rotational, -1);
	assert_int_equal(t->rpm, -1);
	assert_false(t->rotational_unreliable);
	assert_int_equal(t->logical_block_size, -1);
	assert_int_equal(t->physical_block_size, -1);
	assert_string_equal(t->write_cache, "");
	assert_int_equal(t->fua, -1);
	assert_string_equal(t->scheduler, "");
	assert_int_equal(t->removable, -1);
	assert_int_equal(t->hotplug, -1);
	assert_null(t->transport);
	assert_false(t->is_virtual);
	assert_int_equal(t->md_raid_disks, -1);
	assert_int_equal(t->loop_dio, -1);
	assert_null(t->link.kind);
	assert_string_equal(t->link.speed, "");
	assert_int_equal(t->link.width, -1);
	assert_int_equal(t->link.max_width, -1);
	assert_false(t->link.below_max);
	assert_true(t->link.ceiling_bytes_per_sec == 0);
	assert_true(devinfo_ceiling(d) == 0);
	char *json = render(d, OUT_JSON);
	assert_true(has(json, "\"size_bytes\": null, \"vendor\": null, \"model\": null"));
	assert_true(has(json, "\"rotational\": null"));
	assert_true(has(json, "\"link\": {\"kind\": null, \"speed\": null, \"width\": null"));
	free(json);
	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "size unknown"));
	assert_true(has(text, "rotational unknown"));
	assert_true(has(text, "link: unknown"));
	free(text);

	/* garbage in the files is no better than nothing */
	put(f, "devices/platform/thing/block/xyz0/size", "lots");
	put(f, "devices/platform/thing/block/xyz0/queue/rotational", "%s", "");
	put(f, "devices/platform/thing/block/xyz0/queue/logical_block_size", "-512");
	probe(f);
	assert_int_equal(f->d.top.size_bytes, -1);
	assert_int_equal(f->d.top.rotational, -1);
	assert_int_equal(f->d.top.logical_block_size, -1);
}

/* No sysfs entry for the device, no mountinfo: still an answer, no error. */
static void test_no_sysfs(void **state)
{
	struct fx *f = *state;
	struct devinfo_roots roots = { .sysfs = f->sys, .mountinfo = "/nonexistent/mountinfo" };
	struct devinfo *d = &f->d;
	assert_int_equal(devinfo_probe(f->data, &roots, d), 0);
	check_outputs(d);
	assert_false(d->has_top);
	assert_string_equal(d->mount_point, "");
	if (f->real_dev) {
		assert_true(has(d->note, "no sysfs entry for block device"));
		char *text = render(d, OUT_TEXT);
		assert_true(has(text, "device: none found"));
		free(text);
	}
	struct devinfo_roots none = { .sysfs = "/nonexistent/sys", .mountinfo = "/nonexistent/mountinfo" };
	assert_int_equal(devinfo_probe_devnum(8, 0, &none, d), 0);
	assert_false(d->has_top);
	errno = 0;
	assert_int_equal(devinfo_probe("/nonexistent/devinfo/path", &roots, d), -1);
	assert_int_equal(errno, ENOENT);
}

/* ---- mountinfo --------------------------------------------------------------------- */

static void test_mountinfo_bind_and_escape(void **state)
{
	struct fx *f = *state;
	if (!f->real_dev)
		skip();
	char dir[PATH_MAX], file[PATH_MAX];
	fmt_to(dir, sizeof(dir), "%s/x y", f->data);
	mkdirs(dir);
	fmt_to(file, sizeof(file), "%s/file", dir);
	FILE *out = fopen(file, "w");
	assert_non_null(out);
	fclose(out);
	virtio_disk(f, f->majmin);
	mount_line(f, "20 1 %s / / rw - ext4 /dev/vda rw", f->majmin);
	mount_line(f, "21 20 %s /sub %s/x\\040y rw shared:1 master:2 - ext4 /dev/vda rw", f->majmin, f->data);
	mount_line(f, "22 20 %s /other %s/x rw - ext4 /dev/vda rw", f->majmin, f->data);
	mount_line(f, "23 20 0:99 / %s/x\\040y/file rw - tmpfs tmpfs rw", f->data);
	mount_line(f, "garbage line");
	mount_line(f, "24 20 1:2 / /short - ");

	struct devinfo *d = &f->d;
	assert_int_equal(devinfo_probe(file, &f->roots, d), 0);
	check_outputs(d);
	assert_string_equal(d->path_type, "file");
	assert_string_equal(d->mount_point, dir);
	assert_string_equal(d->mount_source, "/dev/vda");
	assert_string_equal(d->top.name, "vda");

	/* the path through a symlink resolves to the same mount */
	char link[PATH_MAX];
	fmt_to(link, sizeof(link), "%s/via-link", f->root);
	assert_int_equal(symlink(dir, link), 0);
	assert_int_equal(devinfo_probe(link, &f->roots, d), 0);
	assert_string_equal(d->mount_point, dir);
	assert_string_equal(d->note, "");

	/* st_dev in no line (btrfs subvolumes): the longest mount point holding the path */
	mount_reset(f);
	mount_line(f, "20 1 1:2 / / rw - ext4 /dev/other rw");
	mount_line(f, "21 20 1:3 / %s rw - xfs /dev/other2 rw", f->data);
	assert_int_equal(devinfo_probe(file, &f->roots, d), 0);
	assert_string_equal(d->mount_point, f->data);
	assert_string_equal(d->fs_type, "xfs");
	assert_true(has(d->note, "mount found by path"));
	assert_string_equal(d->top.name, "vda");
}

/* ---- anonymous devices: btrfs, overlayfs, others ------------------------------------- */

#define BTRFS_UUID "0f1e2d3c-aaaa-bbbb-cccc-000000000001"
#define VDB "devices/pci0000:00/0000:00:03.0/virtio2/block/vdb"

/* /proc stands in for a filesystem on an anonymous device: the fake
 * mountinfo says what it is, /dev/vda is a real block device source. */
static void test_anonymous_devices(void **state)
{
	struct fx *f = *state;
	struct stat vda, proc;
	if (!f->real_dev || stat("/dev/vda", &vda) != 0 || !S_ISBLK(vda.st_mode) ||
	    stat("/proc", &proc) != 0 || major(proc.st_dev) != 0)
		skip();
	char vmm[16], pmm[16];
	fmt_to(vmm, sizeof(vmm), "%u:%u", major(vda.st_rdev), minor(vda.st_rdev));
	fmt_to(pmm, sizeof(pmm), "%u:%u", major(proc.st_dev), minor(proc.st_dev));
	virtio_disk(f, vmm);
	const char *upper_disk = "vda";
	if (strcmp(vmm, f->majmin) != 0) {
		blockdev(f, "devices/platform/x/block/sdz", f->majmin, 8, 1, 512, 512, "write back", 0, "none");
		upper_disk = "sdz";
	}
	struct devinfo *d = &f->d;

	/* btrfs on one device: the device of its mount source */
	mount_line(f, "30 1 %s / /proc rw,relatime - btrfs /dev/vda rw,space_cache=v2", pmm);
	assert_int_equal(devinfo_probe("/proc", &f->roots, d), 0);
	check_outputs(d);
	assert_string_equal(d->fs_type, "btrfs");
	assert_string_equal(d->st_dev, pmm);
	assert_true(d->has_top);
	assert_string_equal(d->top.name, "vda");
	assert_true(has(d->note, "btrfs: device of its mount source /dev/vda"));

	/* btrfs over two devices: one node over both */
	blockdev(f, VDB, "254:16", 1048576, 1, 512, 512, "write back", 0, "none");
	lnk(f, "fs/btrfs/" BTRFS_UUID "/devices/vda", VDA);
	lnk(f, "fs/btrfs/" BTRFS_UUID "/devices/vdb", VDB);
	assert_int_equal(devinfo_probe("/proc", &f->roots, d), 0);
	check_outputs(d);
	assert_string_equal(d->top.kind, "btrfs");
	assert_string_equal(d->top.name, BTRFS_UUID);
	assert_int_equal(d->nstack, 3);
	assert_string_equal(d->stack[1].name, "vda");
	assert_string_equal(d->stack[2].name, "vdb");
	assert_int_equal(d->stack[2].depth, 1);
	assert_int_equal(d->nleaves, 2);
	assert_true(d->top.rotational_unreliable);
	assert_true(has(d->note, "btrfs spans several devices"));
	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "device: " BTRFS_UUID " [?], btrfs"));
	assert_true(has(text, "  on vdb [254:16], virtio disk"));
	free(text);

	/* overlayfs: the device of its upper directory */
	mount_reset(f);
	mount_line(f, "30 1 %s / /proc rw - overlay overlay rw,lowerdir=/l,upperdir=%s,workdir=/w", pmm, f->data);
	mount_data(f, "/dev/whatever");
	assert_int_equal(devinfo_probe("/proc", &f->roots, d), 0);
	check_outputs(d);
	assert_string_equal(d->fs_type, "overlay");
	assert_string_equal(d->mount_point, "/proc");
	assert_string_equal(d->top.name, upper_disk);
	assert_true(has(d->note, "overlay: device of its upper directory "));

	/* anything else on an anonymous device: no device, said so */
	mount_reset(f);
	mount_line(f, "30 1 %s / /proc rw - proc proc rw", pmm);
	assert_int_equal(devinfo_probe("/proc", &f->roots, d), 0);
	check_outputs(d);
	assert_false(d->has_top);
	assert_null(d->fs_class);
	assert_true(has(d->note, "proc on anonymous device "));
	text = render(d, OUT_TEXT);
	assert_true(has(text, "device: none found"));
	free(text);
}

/* ---- JSON escaping, depth cap, cycles ----------------------------------------------- */

static void test_json_escaping(void **state)
{
	struct fx *f = *state;
	virtio_disk(f, f->majmin);
	put(f, VIRTIO "/vendor", "we\"ird\\ \x01 \xff vendor");
	mount_data(f, "/dev/vda");
	probe(f); /* check_outputs validates the JSON */
	char *json = render(&f->d, OUT_JSON);
	assert_true(has(json, "\"vendor\": \"we\\\"ird\\\\ \\u0001 \\ufffd vendor\""));
	free(json);
}

static void test_cycle_and_depth(void **state)
{
	struct fx *f = *state;
	char dir[64], rel[128], to[64];
	/* dm-0 <-> dm-1: a cycle no real tree has, walked once */
	blockdev(f, "devices/virtual/block/dm-0", f->majmin, 8, 0, 512, 512, "write back", 0, "none");
	put(f, "devices/virtual/block/dm-0/dm/name", "a");
	blockdev(f, "devices/virtual/block/dm-1", "253:1", 8, 0, 512, 512, "write back", 0, "none");
	put(f, "devices/virtual/block/dm-1/dm/name", "b");
	lnk(f, "devices/virtual/block/dm-0/slaves/dm-1", "devices/virtual/block/dm-1");
	lnk(f, "devices/virtual/block/dm-1/slaves/dm-0", "devices/virtual/block/dm-0");
	mount_data(f, "/dev/dm-0");
	struct devinfo *d = probe(f);
	assert_int_equal(d->nstack, 3);
	assert_true(d->stack[2].duplicate);
	assert_int_equal(d->nleaves, 0);
	assert_true(devinfo_ceiling(d) == 0);

	/* a chain of 12 dm devices: cut at depth 8 */
	for (int i = 10; i < 22; i++) {
		fmt_to(dir, sizeof(dir), "devices/virtual/block/dm-%d", i);
		char mm[16];
		fmt_to(mm, sizeof(mm), "253:%d", i);
		blockdev(f, dir, i == 10 ? f->majmin : mm, 8, 0, 512, 512, "write back", 0, "none");
		fmt_to(rel, sizeof(rel), "%s/dm/name", dir);
		put(f, rel, "chain%d", i);
		if (i < 21) {
			fmt_to(rel, sizeof(rel), "%s/slaves/dm-%d", dir, i + 1);
			fmt_to(to, sizeof(to), "devices/virtual/block/dm-%d", i + 1);
			lnk(f, rel, to);
		}
	}
	probe(f);
	assert_string_equal(f->d.top.name, "dm-10");
	assert_int_equal(f->d.nstack, DEVINFO_MAX_DEPTH + 1);
	assert_true(f->d.truncated);
	char *text = render(&f->d, OUT_TEXT);
	assert_true(has(text, "stack cut"));
	free(text);
}

/* ---- multi-device filesystems, mount membership ------------------------------------- */

#define HBA "devices/platform/h0/block/"

/* A plain disk with partitions <name>1..<name>parts, all in class/block as sysfs has them. */
static void disk_with_parts(struct fx *f, const char *name, unsigned maj, unsigned min, int parts)
{
	char dir[PATH_MAX], mm[16], rel[PATH_MAX], cls[PATH_MAX];
	fmt_to(dir, sizeof(dir), HBA "%s", name);
	fmt_to(mm, sizeof(mm), "%u:%u", maj, min);
	blockdev(f, dir, mm, 2097152, 0, 512, 512, "write back", 0, "none");
	fmt_to(cls, sizeof(cls), "class/block/%s", name);
	lnk(f, cls, dir);
	for (int i = 1; i <= parts; i++) {
		fmt_to(rel, sizeof(rel), "%s/%s%d", dir, name, i);
		fmt_to(mm, sizeof(mm), "%u:%u", maj, min + (unsigned)i);
		partition(f, rel, mm, 1048576, i);
		fmt_to(cls, sizeof(cls), "class/block/%s%d", name, i);
		lnk(f, cls, rel);
	}
}

static void assert_use(const struct devinfo_mounted *use, const char *device, const char *point,
		       const char *type, const char *source)
{
	assert_string_equal(use->device, device);
	assert_string_equal(use->mount_point, point);
	assert_string_equal(use->fs_type, type);
	assert_string_equal(use->source, source);
}

static void test_mounted_members(void **state)
{
	struct fx *f = *state;
	struct devinfo_mounted use;
	disk_with_parts(f, "sdc", 8, 32, 2);
	disk_with_parts(f, "sdd", 8, 48, 1);
	disk_with_parts(f, "sde", 8, 64, 0);
	disk_with_parts(f, "sdf", 8, 80, 0);
	mount_line(f, "22 1 0:4095 / /proc rw,relatime - proc proc rw");
	assert_int_equal(devinfo_blockdev_mounted(8, 32, &f->roots, &use), 0);

	/* a mounted partition: its disk is in use through it, its sibling is not */
	mount_line(f, "30 1 8:33 / /mnt/a rw - ext4 /dev/sdc1 rw");
	assert_int_equal(devinfo_blockdev_mounted(8, 32, &f->roots, &use), 1);
	assert_use(&use, "sdc1", "/mnt/a", "ext4", "/dev/sdc1");
	assert_int_equal(devinfo_blockdev_mounted(8, 33, &f->roots, &use), 1);
	assert_int_equal(devinfo_blockdev_mounted(8, 34, &f->roots, NULL), 0);

	/* bcachefs: an anonymous device number, each member named in its source */
	mount_line(f, "31 1 0:77 / /mnt/b rw - bcachefs /dev/sdd1:/dev/sdc2 rw");
	assert_int_equal(devinfo_blockdev_mounted(8, 34, &f->roots, &use), 1);
	assert_use(&use, "sdc2", "/mnt/b", "bcachefs", "/dev/sdd1:/dev/sdc2");
	assert_int_equal(devinfo_blockdev_mounted(8, 48, &f->roots, &use), 1);
	assert_use(&use, "sdd1", "/mnt/b", "bcachefs", "/dev/sdd1:/dev/sdc2");

	/* a multi-device btrfs: its source names sdf, only sysfs says sde is in it too */
	assert_int_equal(devinfo_blockdev_mounted(8, 64, &f->roots, &use), 0);
	lnk(f, "fs/btrfs/" BTRFS_UUID "/devices/sde", HBA "sde");
	lnk(f, "fs/btrfs/" BTRFS_UUID "/devices/sdf", HBA "sdf");
	assert_int_equal(devinfo_blockdev_mounted(8, 64, &f->roots, &use), 1);
	assert_use(&use, "sde", "", "btrfs", ""); /* mounted, out of this root's sight */
	mount_line(f, "32 1 0:88 / /mnt/c rw - btrfs /dev/sdf rw");
	assert_int_equal(devinfo_blockdev_mounted(8, 64, &f->roots, &use), 1);
	assert_use(&use, "sde", "/mnt/c", "btrfs", "/dev/sdf");

	/* info on a member says where it is mounted */
	struct devinfo *d = &f->d;
	assert_int_equal(devinfo_probe_devnum(8, 34, &f->roots, d), 0);
	check_outputs(d);
	assert_string_equal(d->mount_point, "/mnt/b");
	assert_string_equal(d->fs_type, "bcachefs");
	assert_int_equal(devinfo_probe_devnum(8, 64, &f->roots, d), 0);
	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "8:64: device number, mounted at /mnt/c (btrfs)"));
	free(text);

	/* mountinfo unreadable: unknown, unless sysfs alone knows */
	struct devinfo_roots blind = { .sysfs = f->sys, .mountinfo = "/nonexistent/mountinfo" };
	errno = 0;
	assert_int_equal(devinfo_blockdev_mounted(8, 32, &blind, &use), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(devinfo_blockdev_mounted(8, 64, &blind, &use), 1);

	/* by path */
	errno = 0;
	assert_int_equal(devinfo_path_mounted(f->data, &f->roots, &use), -1);
	assert_int_equal(errno, ENOTBLK);
	assert_int_equal(devinfo_path_mounted("/nonexistent/devinfo/dev", &f->roots, &use), -1);
}

/* /proc stands in for a bcachefs on an anonymous device over sdc1 and sdc2. */
static void test_multi_device_source(void **state)
{
	struct fx *f = *state;
	struct stat proc;
	if (stat("/proc", &proc) != 0 || major(proc.st_dev) != 0)
		skip();
	char pmm[16];
	fmt_to(pmm, sizeof(pmm), "%u:%u", major(proc.st_dev), minor(proc.st_dev));
	disk_with_parts(f, "sdc", 8, 32, 2);
	mount_line(f, "30 1 %s / /proc rw - bcachefs /dev/sdc1:/dev/sdc2 rw", pmm);

	struct devinfo *d = &f->d;
	assert_int_equal(devinfo_probe("/proc", &f->roots, d), 0);
	check_outputs(d);
	assert_string_equal(d->fs_type, "bcachefs");
	assert_string_equal(d->mount_source, "/dev/sdc1:/dev/sdc2");
	assert_true(has(d->note, "bcachefs spans several devices (/dev/sdc1:/dev/sdc2)"));
	assert_string_equal(d->top.kind, "bcachefs");
	assert_string_equal(d->top.name, "sdc1:sdc2");
	assert_string_equal(d->top.link.kind, "none");
	/* bcachefs, sdc1 on sdc, sdc2 on sdc (listed again, not walked) */
	assert_int_equal(d->nstack, 5);
	const char *names[] = { "sdc1:sdc2", "sdc1", "sdc", "sdc2", "sdc" };
	const int depths[] = { 0, 1, 2, 1, 2 };
	for (int i = 0; i < 5; i++) {
		assert_string_equal(d->stack[i].name, names[i]);
		assert_int_equal(d->stack[i].depth, depths[i]);
	}
	assert_true(d->stack[4].duplicate);
	assert_int_equal(d->nleaves, 1);
	assert_int_equal(d->leaves[0], 2);
	char *text = render(d, OUT_TEXT);
	assert_true(has(text, "device: sdc1:sdc2 [?], bcachefs"));
	assert_true(has(text, "  on sdc1 [8:33], partition of sdc"));
	assert_true(has(text, "  on sdc2 [8:34], partition of sdc"));
	free(text);
	char *json = render(d, OUT_JSON);
	assert_true(has(json, "\"members\": [\"sdc1\", \"sdc2\"]"));
	free(json);

	/* a device of the source that sysfs does not know: nothing guessed */
	mount_reset(f);
	mount_line(f, "30 1 %s / /proc rw - bcachefs /dev/sdc1:/dev/sdz9 rw", pmm);
	assert_int_equal(devinfo_probe("/proc", &f->roots, d), 0);
	check_outputs(d);
	assert_false(d->has_top);
	assert_true(has(d->note, "bcachefs on anonymous device"));
}

/* ---- a chroot: the mount is not in mountinfo ------------------------------------------- */

static void test_mount_not_visible(void **state)
{
	struct fx *f = *state;
	virtio_disk(f, f->majmin);
	mount_line(f, "22 1 0:4095 / /proc rw,relatime - proc proc rw"); /* all a chroot may see */

	struct devinfo *d = &f->d;
	assert_int_equal(devinfo_probe(f->data, &f->roots, d), 0);
	check_outputs(d);
	assert_true(d->mount_hidden);
	assert_string_equal(d->mount_point, "");
	if (f->real_dev)
		assert_string_equal(d->top.name, "vda"); /* st_dev still leads to the device */
	char *text = render(d, OUT_TEXT);
	assert_true(has(text, ", the mount is not visible from this root (chroot?) [st_dev "));
	assert_null(strstr(text, "mounted at"));
	free(text);
	char *json = render(d, OUT_JSON);
	assert_true(has(json, "\"mount_visible\": false"));
	free(json);

	/* a bind of the same filesystem elsewhere (/usr in a chroot composed from
	 * the host) names the filesystem, but it is not the mount of the path */
	if (f->real_dev && strncmp(f->data, "/usr/", 5) != 0) {
		mount_line(f, "23 1 %s /usr /usr ro,relatime - ext4 /dev/vda rw", f->majmin);
		assert_int_equal(devinfo_probe(f->data, &f->roots, d), 0);
		check_outputs(d);
		assert_true(d->mount_hidden);
		assert_string_equal(d->mount_point, "");
		assert_string_equal(d->fs_type, "ext4");
		assert_string_equal(d->mount_source, "/dev/vda");
		text = render(d, OUT_TEXT);
		assert_true(has(text, ": dir on ext4, the mount is not visible from this root (chroot?)"));
		free(text);
	}

	mount_data(f, "/dev/vda");
	assert_int_equal(devinfo_probe(f->data, &f->roots, d), 0);
	assert_false(d->mount_hidden);
	json = render(d, OUT_JSON);
	assert_true(has(json, "\"mount_visible\": true"));
	free(json);
	text = render(d, OUT_TEXT);
	assert_null(strstr(text, "not visible"));
	free(text);

	/* a block device that is in no line is simply not mounted */
	mount_reset(f);
	assert_int_equal(devinfo_probe_devnum(8, 0, &f->roots, d), 0);
	assert_false(d->mount_hidden);
	json = render(d, OUT_JSON);
	assert_true(has(json, "\"mount_visible\": null"));
	free(json);
}

/* ---- the RAM detector and the loop backing-file reader ---------------------------------- */

static void test_ram_detector(void **state)
{
	struct fx *f = *state;
	char name[64];
	unsigned maj, min;
	assert_int_equal(sscanf(f->majmin, "%u:%u", &maj, &min), 2);
	virtio_disk(f, f->majmin);
	blockdev(f, "devices/virtual/block/zram0", "252:0", 8, 0, 4096, 4096, "write through", 0, "none");
	blockdev(f, "devices/virtual/block/ram0", "1:0", 8, 0, 512, 512, "write through", 0, "none");
	blockdev(f, "devices/virtual/block/pmem0", "259:1", 8, 0, 512, 4096, "write through", 0, "none");
	blockdev(f, "devices/virtual/block/dm-3", "253:3", 8, 0, 512, 512, "write back", 0, "none");
	lnk(f, "devices/virtual/block/dm-3/slaves/zram0", "devices/virtual/block/zram0");

	assert_int_equal(devinfo_blockdev_in_ram(252, 0, &f->roots, name, sizeof(name)), 1);
	assert_string_equal(name, "zram0");
	assert_int_equal(devinfo_blockdev_in_ram(1, 0, &f->roots, name, sizeof(name)), 1);
	assert_string_equal(name, "ram0");
	assert_int_equal(devinfo_blockdev_in_ram(259, 1, &f->roots, name, sizeof(name)), 1);
	assert_string_equal(name, "pmem0");
	assert_int_equal(devinfo_blockdev_in_ram(253, 3, &f->roots, name, sizeof(name)), 1);
	assert_string_equal(name, "dm-3"); /* every leaf below it is in RAM */
	/* null_blk keeps its data in RAM (memory_backed) or nowhere: no disk either way */
	blockdev(f, "devices/virtual/block/nullb0", "251:0", 8, 0, 512, 512, "write through", 0, "none");
	assert_int_equal(devinfo_blockdev_in_ram(251, 0, &f->roots, name, sizeof(name)), 1);
	assert_string_equal(name, "nullb0");
	struct devinfo *d = &f->d;
	assert_int_equal(devinfo_probe_devnum(251, 0, &f->roots, d), 0);
	assert_string_equal(d->top.kind, "null");
	assert_true(d->top.in_ram);
	assert_string_equal(d->top.link.kind, "none");
	assert_int_equal(devinfo_blockdev_in_ram(maj, min, &f->roots, name, sizeof(name)), 0);
	assert_int_equal(devinfo_blockdev_in_ram(9, 9, &f->roots, name, sizeof(name)), 0);
	lnk(f, "devices/virtual/block/dm-3/slaves/vda", VDA); /* one leaf on a disk */
	assert_int_equal(devinfo_blockdev_in_ram(253, 3, &f->roots, name, sizeof(name)), 0);

	/* a loop over a file on the data directory's disk, then over a file in tmpfs */
	char file[PATH_MAX];
	fmt_to(file, sizeof(file), "%s/disk.img", f->data);
	FILE *img = fopen(file, "w");
	assert_non_null(img);
	fclose(img);
	blockdev(f, LOOP0, "7:0", 8, 0, 512, 512, "write back", 0, "none");
	put(f, LOOP0 "/loop/backing_file", "%s", file);
	if (f->real_dev)
		assert_int_equal(devinfo_blockdev_in_ram(7, 0, &f->roots, name, sizeof(name)), 0);
	struct statfs sf;
	if (statfs("/dev/shm", &sf) != 0 || (unsigned long)sf.f_type != 0x01021994UL)
		return;
	char shm[] = "/dev/shm/devinfo-test-XXXXXX";
	int fd = mkstemp(shm);
	assert_true(fd >= 0);
	close(fd);
	put(f, LOOP0 "/loop/backing_file", "%s", shm);
	int in_ram = devinfo_blockdev_in_ram(7, 0, &f->roots, name, sizeof(name));
	unlink(shm);
	assert_int_equal(in_ram, 1);
	assert_string_equal(name, "loop0");
}

static void test_loop_backing_reader(void **state)
{
	struct fx *f = *state;
	char path[PATH_MAX], small[8];
	int dio;
	virtio_disk(f, "254:0");
	blockdev(f, LOOP0, "7:0", 8, 0, 512, 512, "write back", 0, "none");
	put(f, LOOP0 "/loop/backing_file", "/srv/images/disk.img (deleted)");
	put(f, LOOP0 "/loop/dio", "1");
	assert_int_equal(devinfo_loop_backing(7, 0, &f->roots, path, sizeof(path), &dio), 0);
	assert_string_equal(path, "/srv/images/disk.img (deleted)");
	assert_int_equal(dio, 1);
	assert_int_equal(devinfo_loop_backing(7, 0, &f->roots, small, sizeof(small), &dio), 0);
	assert_string_equal(small, "/srv/im");
	put(f, LOOP0 "/loop/dio", "0");
	assert_int_equal(devinfo_loop_backing(7, 0, &f->roots, path, sizeof(path), &dio), 0);
	assert_int_equal(dio, 0);

	/* no loop, no device */
	assert_int_equal(devinfo_loop_backing(254, 0, &f->roots, path, sizeof(path), &dio), -1);
	assert_int_equal(devinfo_loop_backing(9, 9, &f->roots, path, sizeof(path), &dio), -1);
	assert_int_equal(dio, -1);

	/* the platform's callers: a descriptor that is no block device */
	bool direct;
	int fd = open(f->data, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	errno = 0;
	assert_int_equal(devinfo_fd_loop_backing(fd, path, sizeof(path), &direct), -1);
	assert_int_equal(errno, ENOTBLK);
	char name[64];
	assert_false(devinfo_fd_in_ram(fd, name, sizeof(name)));
	close(fd);
}

/* ---- this machine ---------------------------------------------------------------------- */

static void test_real_root(void **state)
{
	(void)state;
	struct devinfo *d = malloc(sizeof(*d));
	assert_non_null(d);
	assert_int_equal(devinfo_probe("/", devinfo_default_roots(), d), 0);
	check_outputs(d);
	if (d->mount_hidden) {
		print_message("skipped: / is not a mount visible in mountinfo (a chroot?)\n");
		free(d);
		skip();
	}
	assert_string_equal(d->path_type, "dir");
	assert_string_equal(d->mount_point, "/");
	if (access("/sys/block/vda", F_OK) == 0 && !d->fs_class) {
		/* this VM: ext4 on the virtio disk vda */
		assert_true(d->has_top);
		assert_string_equal(d->top.name, "vda");
		assert_string_equal(d->top.transport, "virtio");
		assert_true(d->top.is_virtual);
		assert_string_equal(d->top.virt_kind, "virtio-blk");
		assert_false(d->top.cloud_volume);
		assert_true(d->top.rotational_unreliable);
		assert_string_equal(d->top.link.kind, "none");
		assert_true(d->top.size_bytes > 0);
		assert_true(d->top.logical_block_size >= 512);

		assert_int_equal(devinfo_probe("/dev/vda", devinfo_default_roots(), d), 0);
		check_outputs(d);
		assert_string_equal(d->path_type, "block device");
		assert_string_equal(d->top.name, "vda");
		assert_string_equal(d->mount_point, "/");
	}
	free(d);
}

static void test_real_shm(void **state)
{
	(void)state;
	struct statfs sf;
	if (statfs("/dev/shm", &sf) != 0 || (unsigned long)sf.f_type != 0x01021994UL) {
		print_message("skipped: /dev/shm is not tmpfs\n");
		skip();
	}
	struct devinfo *d = malloc(sizeof(*d));
	assert_non_null(d);
	assert_int_equal(devinfo_probe("/dev/shm", devinfo_default_roots(), d), 0);
	check_outputs(d);
	if (d->mount_hidden || strcmp(d->mount_point, "/dev/shm") != 0) {
		print_message("skipped: /dev/shm is not a mount visible in mountinfo (a chroot?)\n");
		free(d);
		skip();
	}
	assert_string_equal(d->fs_class, "ram");
	assert_string_equal(d->fs_type, "tmpfs");
	assert_string_equal(d->mount_point, "/dev/shm");
	assert_false(d->has_top);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_validator),
		cmocka_unit_test_setup_teardown(test_nvme_gen3_x4, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nvme_below_max_multipath, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nvme_zoned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_path_zoned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scsi_rpm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sata_partition, setup, teardown),
		cmocka_unit_test_setup_teardown(test_md_raid1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lvm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_usb_stick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_virtio, setup, teardown),
		cmocka_unit_test_setup_teardown(test_virtual_scsi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tmpfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_sysfs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mountinfo_bind_and_escape, setup, teardown),
		cmocka_unit_test_setup_teardown(test_anonymous_devices, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_escaping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cycle_and_depth, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mounted_members, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multi_device_source, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mount_not_visible, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ram_detector, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop_backing_reader, setup, teardown),
		cmocka_unit_test(test_real_root),
		cmocka_unit_test(test_real_shm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
