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
 * The result is rendered as JSON and text into /dev/null. */
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

static void render(const struct devinfo *d)
{
	struct json j;
	json_init(&j, devnull);
	devinfo_json(&j, d);
	json_init(&j, devnull);
	devinfo_json_device(&j, d);
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
