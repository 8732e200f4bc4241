/* libFuzzer target: devinfo over a generated sysfs tree.  A fake /sys is
 * built once in a temp dir (under $TMPDIR, else /tmp; removed at exit): a
 * SATA disk sda behind libata port 3 / SCSI host 2, its partition sda1, an
 * md0 over sda1 and a btrfs over sda1 and md0, laid out as
 * tests/unit/test_devinfo.c lays them out.  Each input is split at NUL bytes
 * into the fake mountinfo and the contents of the attribute files in `parts`
 * below (the last part takes the rest, NULs and all, being binary); a
 * missing part removes its file.  Then one probe, by the input's length
 * modulo 3:
 *   0  devinfo_probe of a directory of the temp dir, whose st_dev leads to
 *      md0 when it is a block device;
 *   1  devinfo_probe_devnum of md0 (9:0, the number for mountinfo lines to name);
 *   2  devinfo_probe of /proc: an anonymous device, so that the mount's type
 *      and source decide (a bcachefs "/dev/sda1:/dev/md0" found by name in
 *      class/block/, a btrfs in fs/btrfs/, an overlay's upper directory).
 * The result is rendered as text into /dev/null and as JSON into memory,
 * where it must be one valid JSON value (UTF-8 included) whatever the
 * files held. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "devinfo.h"
#include "json.h"

#define SCSI "devices/pci0000:00/0000:00:17.0/ata3/host2/target2:0:0/2:0:0:0"
#define SDA SCSI "/block/sda"
#define SDA1 SDA "/sda1"
#define MD0 "devices/virtual/block/md0"

/* The files each input rewrites, in input order ("mountinfo" is outside sys/). */
static const char *const parts[] = {
	"../mountinfo",
	SDA "/size",
	SDA "/queue/rotational",
	SCSI "/model",
	"class/ata_device/dev3.0/id",
	"class/ata_link/link3/sata_spd",
	"class/ata_link/link3/hw_sata_spd_limit",
	SDA "/queue/scheduler",
	SDA1 "/size",
	MD0 "/md/level",
	SDA "/queue/logical_block_size",
	SCSI "/vendor",
	SCSI "/rev",
	"class/scsi_host/host2/proc_name",
	SCSI "/vpd_pg80",                    /* binary: takes the rest of the input */
};
#define NPARTS (sizeof(parts) / sizeof(parts[0]))

static char root[PATH_MAX], sys[PATH_MAX], data[PATH_MAX], mountinfo[PATH_MAX];
static struct devinfo_roots roots;
static FILE *devnull;
static struct devinfo info;

static void path_of(char *out, const char *rel)
{
	if (snprintf(out, PATH_MAX, "%s/%s", sys, rel) >= PATH_MAX)
		abort();
}

static void mkdirs(const char *path)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(tmp, 0755);
		*p = '/';
	}
	mkdir(tmp, 0755);
}

/* sys/rel holding exactly len bytes of text.  Rewritten in place and cut to
 * length rather than truncated first: on a filesystem mounted with discard,
 * freeing the block of every file each run costs a discard request each. */
static void put(const char *rel, const void *text, size_t len)
{
	char path[PATH_MAX];
	path_of(path, rel);
	int fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd < 0) {
		*strrchr(path, '/') = '\0';
		mkdirs(path);
		path_of(path, rel);
		fd = open(path, O_WRONLY | O_CREAT, 0644);
	}
	if (fd < 0 || pwrite(fd, text, len, 0) != (ssize_t)len || ftruncate(fd, (off_t)len) != 0 ||
	    close(fd) != 0)
		abort();
}

static void put_str(const char *rel, const char *text)
{
	put(rel, text, strlen(text));
}

/* A symlink sys/from -> sys/to. */
static void lnk(const char *from, const char *to)
{
	char path[PATH_MAX], target[PATH_MAX];
	path_of(path, from);
	path_of(target, to);
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
	if (symlink(target, path) != 0)
		abort();
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void remove_tree(void)
{
	if (root[0])
		nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The parts of the tree no input changes. */
static void build_tree(void)
{
	put_str(SDA "/dev", "8:0\n");
	put_str(SDA "/removable", "0\n");
	put_str(SDA "/queue/physical_block_size", "4096\n");
	put_str(SDA "/queue/write_cache", "write back\n");
	put_str(SDA "/queue/fua", "0\n");
	lnk(SDA "/device", SCSI);
	put_str(SDA1 "/dev", "8:1\n");
	put_str(SDA1 "/partition", "1\n");
	put_str(SDA1 "/start", "2048\n");
	put_str(MD0 "/dev", "9:0\n");
	put_str(MD0 "/size", "7813770240\n");
	put_str(MD0 "/md/raid_disks", "2\n");
	lnk(MD0 "/slaves/sda1", SDA1);
	lnk("dev/block/8:0", SDA);
	lnk("dev/block/8:1", SDA1);
	lnk("dev/block/9:0", MD0);
	lnk("block/sda", SDA);
	lnk("block/md0", MD0);
	lnk("class/block/sda", SDA);
	lnk("class/block/sda1", SDA1);
	lnk("class/block/md0", MD0);
	/* a multi-device btrfs over sda1 and md0 (itself over sda1) */
	lnk("fs/btrfs/5e1f3c2a-7d4e-4b8a-9c0f-0123456789ab/devices/sda1", SDA1);
	lnk("fs/btrfs/5e1f3c2a-7d4e-4b8a-9c0f-0123456789ab/devices/md0", MD0);
	/* the temp dir's own device leads to md0, for devinfo_probe of a path */
	struct stat st;
	char rel[64];
	if (stat(data, &st) != 0)
		abort();
	snprintf(rel, sizeof(rel), "dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	char path[PATH_MAX];
	path_of(path, rel);
	if (major(st.st_dev) != 0 && access(path, F_OK) != 0)
		lnk(rel, MD0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *tmp = getenv("TMPDIR");
	snprintf(root, sizeof(root), "%s/devinfo.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(root))
		abort();
	atexit(remove_tree);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(data, sizeof(data), "%s/data", root);
	snprintf(mountinfo, sizeof(mountinfo), "%s/mountinfo", root);
	mkdirs(sys);
	mkdirs(data);
	build_tree();
	roots.sysfs = sys;
	roots.mountinfo = mountinfo;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	return 0;
}

/* ---- the JSON must stay JSON, whatever sysfs and mountinfo hold ---------- */

static const char *json_value(const char *p, int depth);

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

/* Length of the UTF-8 sequence at p (RFC 3629: no overlongs, no
 * surrogates, at most U+10FFFF), 0 if it is not one. */
static int utf8_seq(const unsigned char *p)
{
	int n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
	unsigned lo = 0x80, hi = 0xbf;
	if (p[0] == 0xe0) lo = 0xa0;
	if (p[0] == 0xed) hi = 0x9f;
	if (p[0] == 0xf0) lo = 0x90;
	if (p[0] == 0xf4) hi = 0x8f;
	if (n == 0 || p[1] < lo || p[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

static const char *json_str(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p != '"') {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20)
			return NULL;
		if (c >= 0x80) {
			int n = utf8_seq((const unsigned char *)p);
			if (n == 0)
				return NULL;
			p += n;
			continue;
		}
		if (c == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!p[i] || !strchr("0123456789abcdefABCDEF", p[i]))
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

static const char *json_num(const char *p)
{
	const char *start = p;
	p += *p == '-';
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		p += strspn(p, "0123456789");
	else
		return NULL;
	if (*p == '.') {
		size_t n = strspn(p + 1, "0123456789");
		if (n == 0)
			return NULL;
		p += 1 + n;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		p += *p == '+' || *p == '-';
		size_t n = strspn(p, "0123456789");
		if (n == 0)
			return NULL;
		p += n;
	}
	return p > start ? p : NULL;
}

static const char *json_container(const char *p, int depth, char close, bool object)
{
	p = skip_ws(p + 1);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (object) {
			if (!(p = json_str(skip_ws(p))))
				return NULL;
			p = skip_ws(p);
			if (*p++ != ':')
				return NULL;
		}
		if (!(p = json_value(p, depth + 1)))
			return NULL;
		p = skip_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *p, int depth)
{
	if (depth > 64)
		return NULL;
	p = skip_ws(p);
	switch (*p) {
	case '{': return json_container(p, depth, '}', true);
	case '[': return json_container(p, depth, ']', false);
	case '"': return json_str(p);
	case 't': return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
	case 'f': return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
	case 'n': return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
	default: return json_num(p);
	}
}

/* Writes one rendering of d to memory and checks it is one JSON value. */
static void check_json(const struct devinfo *d, void (*write)(struct json *, const struct devinfo *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		abort();
	struct json j;
	json_init(&j, f);
	write(&j, d);
	if (fclose(f) != 0)
		abort();
	const char *end = json_value(buf, 0);
	if (!end || *skip_ws(end) != '\0' || strlen(buf) != len) {
		fprintf(stderr, "invalid JSON:\n%s\n", buf);
		abort();
	}
	free(buf);
}

static void render(const struct devinfo *d)
{
	check_json(d, devinfo_json);
	check_json(d, devinfo_json_device);
	devinfo_text(devnull, d);
	(void)devinfo_ceiling(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *input, size_t size)
{
	size_t start = 0;
	for (size_t i = 0; i < NPARTS; i++) {
		char path[PATH_MAX];
		path_of(path, parts[i]);
		if (start > size) {
			unlink(path);
			continue;
		}
		size_t end = start;
		if (i + 1 < NPARTS)
			while (end < size && input[end] != '\0')
				end++;
		else
			end = size;
		put(parts[i], input + start, end - start);
		start = end + 1;
	}
	/* one probe per input (each costs a few hundred system calls), chosen by
	 * the length of the input */
	int rc = size % 3 == 0 ? devinfo_probe(data, &roots, &info)
		 : size % 3 == 1 ? devinfo_probe_devnum(9, 0, &roots, &info)
		 : devinfo_probe("/proc", &roots, &info);
	if (rc == 0)
		render(&info);
	return 0;
}
