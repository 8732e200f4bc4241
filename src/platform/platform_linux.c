#define _GNU_SOURCE
#include "platform.h"


#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/timex.h>
#include <unistd.h>

#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN 0x00002000U
#endif

const int plat_o_direct = O_DIRECT;

struct fs_name {
	unsigned long magic;
	const char *name;
	const char *fs_class; /* data in RAM, or on another machine */
};

/* /usr/include/linux/magic.h */
static const struct fs_name fs_names[] = {
	{ 0xEF53, "ext4", NULL },        /* ext2/3/4 share the magic */
	{ 0x58465342, "xfs", NULL },
	{ 0x9123683E, "btrfs", NULL },
	{ 0x2FC12FC1, "zfs", NULL },
	{ 0xF2F52010, "f2fs", NULL },
	{ 0x4d44, "vfat", NULL },
	{ 0x2011BAB0, "exfat", NULL },
	{ 0x5346544e, "ntfs", NULL },
	{ 0x7366746e, "ntfs3", NULL },
	{ 0x794c7630, "overlay", NULL },
	{ 0x01021994, "tmpfs", "ram" },
	{ 0x858458f6, "ramfs", "ram" },
	{ 0x958458f6, "hugetlbfs", "ram" },
	{ 0x6969, "nfs", "network" },
	{ 0xFF534D42, "cifs", "network" },
	{ 0xFE534D42, "smb2", "network" },
	{ 0x01021997, "v9fs", "network" },
	{ 0x00c36400, "ceph", "network" },
	{ 0x65735546, "fuse", NULL },
	{ 0x62646576, "bdev", NULL },
	{ 0x9fa0, "proc", NULL },
	{ 0x62656572, "sysfs", NULL },
};

const char *plat_fs_name(unsigned long magic, const char **fs_class)
{
	for (size_t i = 0; i < sizeof(fs_names) / sizeof(fs_names[0]); i++) {
		if (fs_names[i].magic == magic) {
			if (fs_class)
				*fs_class = fs_names[i].fs_class;
			return fs_names[i].name;
		}
	}
	if (fs_class)
		*fs_class = NULL;
	return NULL;
}

int plat_fs_info(int fd, struct fs_info *out)
{
	struct statfs sf;
	struct statvfs sv;
	if (fstatfs(fd, &sf) != 0 || fstatvfs(fd, &sv) != 0)
		return -1;
	memset(out, 0, sizeof(*out));
	const char *fs_class, *name = plat_fs_name((unsigned long)sf.f_type, &fs_class);
	if (name)
		snprintf(out->type, sizeof(out->type), "%s", name);
	else
		snprintf(out->type, sizeof(out->type), "0x%lx", (unsigned long)sf.f_type);
	out->in_ram = fs_class && strcmp(fs_class, "ram") == 0;
	out->total_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
	out->avail_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	return 0;
}

uint32_t plat_dio_align(int fd, bool is_blockdev)
{
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
	    (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_offset_align > 0)
		return sx.stx_dio_offset_align;
	int logical;
	if (is_blockdev && ioctl(fd, BLKSSZGET, &logical) == 0 && logical > 0)
		return (uint32_t)logical;
	return 0;
}

int plat_blockdev_size(int fd, uint64_t *bytes)
{
	return ioctl(fd, BLKGETSIZE64, bytes);
}

int plat_blockdev_readonly(int fd)
{
	int ro = 0;
	if (ioctl(fd, BLKROGET, &ro) != 0)
		return -1;
	return ro != 0;
}

int plat_evict_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* dirty pages cannot be dropped: write them back first */
	int rc = fdatasync(fd) != 0 && errno != EINVAL && errno != EROFS ? -1 : 0;
	int adv = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	int saved = adv ? adv : errno;
	close(fd);
	if (rc != 0 || adv != 0) {
		errno = saved;
		return -1;
	}
	return 0;
}

int plat_evict(int fd, bool is_blockdev, uint64_t len)
{
	/* dirty pages cannot be dropped: write them back first */
	if (fdatasync(fd) != 0 && errno != EINVAL && errno != EROFS)
		return -1;
	if (is_blockdev) {
		/* needs CAP_SYS_ADMIN; fadvise below covers the unprivileged case */
		if (ioctl(fd, BLKFLSBUF, 0) != 0 && errno != EACCES && errno != EPERM)
			return -1;
	}
	int rc = posix_fadvise(fd, 0, (off_t)len, POSIX_FADV_DONTNEED);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	return 0;
}

int plat_drop_all_caches(void)
{
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, "3\n", 2);
	int saved = errno;
	close(fd);
	if (n != 2) {
		errno = n < 0 ? saved : EIO;
		return -1;
	}
	return 0;
}

int plat_resident_pct(int fd, uint64_t len, double *pct)
{
	long page = sysconf(_SC_PAGESIZE);
	if (len == 0) {
		*pct = 0.0;
		return 0;
	}
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -1;
	size_t pages = (len + (uint64_t)page - 1) / (uint64_t)page;
	unsigned char *vec = malloc(pages);
	if (!vec) {
		munmap(map, len);
		errno = ENOMEM;
		return -1;
	}
	int rc = mincore(map, len, vec);
	int saved = errno;
	if (rc == 0) {
		size_t resident = 0;
		for (size_t i = 0; i < pages; i++)
			resident += vec[i] & 1;
		*pct = 100.0 * (double)resident / (double)pages;
	}
	free(vec);
	munmap(map, len);
	errno = saved;
	return rc;
}

#define HUGE_PAGE (2u << 20)
#define HUGE_FROM (64u << 10)

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

/* On virtio-blk every physically discontiguous 4 KiB page of a buffer is one
 * more descriptor: measured here, a 1 MiB O_DIRECT read from a scattered
 * buffer ran at ~0.6 GB/s, from a transparent huge page at ~2.8 GB/s (the
 * gap between dd and fio).  So large buffers sit in 2 MiB huge pages. */
void *plat_buffer_alloc(size_t len)
{
	size_t align = len > HUGE_FROM ? HUGE_PAGE : (size_t)sysconf(_SC_PAGESIZE);
	size_t rounded = (len + align - 1) / align * align;
	void *buf = NULL;
	int rc = posix_memalign(&buf, align, rounded);
	if (rc != 0) {
		errno = rc;
		return NULL;
	}
	if (align == HUGE_PAGE)
		madvise(buf, rounded, MADV_HUGEPAGE); /* advisory: failure is fine */
	memset(buf, 0, rounded); /* fault every page in before any timing */
	if (align == HUGE_PAGE && !plat_buffer_is_huge(buf, len))
		madvise(buf, rounded, MADV_COLLAPSE); /* Linux >= 6.1; may fail */
	return buf;
}

void *plat_buffer_alloc_pages(size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t rounded = (len + page - 1) / page * page;
	void *buf = NULL;
	int rc = posix_memalign(&buf, page, rounded);
	if (rc != 0) {
		errno = rc;
		return NULL;
	}
	madvise(buf, rounded, MADV_NOHUGEPAGE); /* even where THP is "always" */
	memset(buf, 0, rounded);
	return buf;
}

/* Physically contiguous runs of [buf, buf + len), from pagemap entries
 * (bit 63: present, bits 0-54: the frame); -1 when a frame is hidden. */
static long count_runs(int fd, uintptr_t at, size_t len, size_t page)
{
	uint64_t prev = 0;
	long runs = 0;
	for (uintptr_t p = at / page * page; p < at + len; p += page) {
		uint64_t entry;
		if (pread(fd, &entry, sizeof(entry), (off_t)(p / page * sizeof(entry))) !=
		    (ssize_t)sizeof(entry))
			return -1;
		uint64_t pfn = entry & ((1ull << 55) - 1);
		if (!(entry >> 63) || pfn == 0)
			return -1;
		if (runs == 0 || pfn != prev + 1)
			runs++;
		prev = pfn;
	}
	return runs;
}

double plat_buffer_segments(const void *buf, size_t piece, unsigned n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || n == 0 || piece == 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	long total = 0;
	for (unsigned i = 0; i < n && total >= 0; i++) {
		long runs = count_runs(fd, (uintptr_t)buf + (uintptr_t)i * piece, piece, page);
		total = runs < 0 ? -1 : total + runs;
	}
	close(fd);
	return total < 0 ? -1 : (double)total / n;
}

void plat_buffer_free(void *buf, size_t len)
{
	(void)len;
	free(buf);
}

/* Reads AnonHugePages of the mapping holding buf from /proc/self/smaps. */
bool plat_buffer_is_huge(const void *buf, size_t len)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return false;
	char line[512];
	bool inside = false, huge = false;
	uintptr_t at = (uintptr_t)buf;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end, kb;
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			inside = at >= start && at < end;
			continue;
		}
		if (inside && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1) {
			huge = kb * 1024 >= len;
			break;
		}
	}
	fclose(f);
	return huge;
}

bool plat_residency_visible(int fd)
{
	struct stat st;
	char self[64];
	if (fstat(fd, &st) != 0)
		return false;
	if (geteuid() == 0 || st.st_uid == geteuid())
		return true;
	/* the kernel's test is write permission on the inode: ask it of the
	 * open file itself, not of a name that may have changed */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	return faccessat(AT_FDCWD, self, W_OK, AT_EACCESS) == 0;
}

int plat_holes(int fd, uint64_t len, uint64_t *first_hole, uint64_t *allocated)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -1;
	*allocated = (uint64_t)st.st_blocks * 512u;
	off_t hole = lseek(fd, 0, SEEK_HOLE);
	if (hole < 0) {
		if (errno != EINVAL && errno != ENXIO)
			return -1;
		hole = (off_t)len; /* no SEEK_HOLE here: the filesystem says it has none */
	}
	*first_hole = (uint64_t)hole < len ? (uint64_t)hole : len;
	return 0;
}

int plat_discard(int fd, bool is_blockdev, uint64_t offset, uint64_t len)
{
	if (is_blockdev) {
		uint64_t range[2] = { offset, len };
		return ioctl(fd, BLKDISCARD, range);
	}
	int rc;
	do
		rc = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset,
			       (off_t)len);
	while (rc != 0 && errno == EINTR);
	return rc;
}

const char *plat_discard_name(bool is_blockdev)
{
	return is_blockdev ? "ioctl_blkdiscard" : "fallocate_punch_hole";
}

int plat_discard_probe(int fd, bool is_blockdev, uint64_t end)
{
	if (!is_blockdev) {
		struct stat st;
		if (fstat(fd, &st) != 0)
			return -1;
		uint64_t past = (uint64_t)st.st_size > end ? (uint64_t)st.st_size : end;
		past = (past + 4095) / 4096 * 4096 + 4096; /* wholly past the end */
		return plat_discard(fd, false, past, 4096);
	}
	uint64_t size;
	if (plat_blockdev_size(fd, &size) != 0)
		return -1;
	/* the kernel says EOPNOTSUPP (no discard) or EPERM (read-only) before it
	 * looks at the range; a range of nothing then is EINVAL or no work */
	uint64_t range[2] = { size, 0 };
	if (ioctl(fd, BLKDISCARD, range) == 0 || errno == EINVAL)
		return 0;
	return -1;
}

/* queue/io_poll of /sys/dev/block/M:m, or of its parent (a partition has
 * no queue of its own): '1', '0', or -1. */
static int read_io_poll(const char *dev)
{
	char path[96], c = 0;
	const char *where[] = { "queue/io_poll", "../queue/io_poll" };
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dev, where[i]);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t n = read(fd, &c, 1);
		close(fd);
		if (n == 1)
			return c == '1';
	}
	return -1;
}

int plat_io_poll(int fd, char *name, size_t name_len)
{
	struct stat st;
	char dev[64], link[PATH_MAX];
	name[0] = '\0';
	if (fstat(fd, &st) != 0)
		return -1;
	dev_t d = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	snprintf(dev, sizeof(dev), "/sys/dev/block/%u:%u", major(d), minor(d));
	ssize_t n = readlink(dev, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		const char *base = strrchr(link, '/');
		snprintf(name, name_len, "%s", base ? base + 1 : link);
	}
	return read_io_poll(dev);
}

/* systemd's rule (time-util): the kernel raises maxerror by 500 ppm while
 * nothing disciplines the clock, and sets STA_UNSYNC at 16 s */
#define CLOCK_MAXERROR_UNSYNC_US 16000000L

int plat_clock_state(bool *synchronised, int64_t *maxerror_us)
{
	struct timex tx;
	memset(&tx, 0, sizeof(tx)); /* modes 0: read, change nothing */
	int state = adjtimex(&tx);
	if (state < 0)
		return -1;
	*maxerror_us = tx.maxerror;
	*synchronised = state != TIME_ERROR && !(tx.status & STA_UNSYNC) &&
			tx.maxerror < CLOCK_MAXERROR_UNSYNC_US;
	return 0;
}

int plat_random(void *buf, size_t n)
{
	ssize_t got;
	do
		got = getrandom(buf, n, GRND_NONBLOCK);
	while (got < 0 && errno == EINTR);
	if (got == (ssize_t)n)
		return 0;
	/* kernels before 3.17, or seccomp filters that refuse getrandom */
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	got = read(fd, buf, n);
	close(fd);
	return got == (ssize_t)n ? 0 : -1;
}

int plat_sync_fs(int fd)
{
	return syncfs(fd);
}

/* The kernel's record of getdents64(2); glibc's struct dirent64 needs
 * _LARGEFILE64_SOURCE, and the syscall is what a signal handler may use. */
struct plat_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

#define TREE_MAX_DEPTH 8

/* One read of the directory from its start; removes what it finds (sub-
 * directories depth first).  Returns the entries removed, or -1. */
static long remove_entries_once(int dirfd, unsigned depth)
{
	char buf[2048] __attribute__((aligned(8)));
	long removed = 0;
	if (lseek(dirfd, 0, SEEK_SET) != 0)
		return -1;
	for (;;) {
		long n = syscall(SYS_getdents64, dirfd, buf, sizeof(buf));
		if (n <= 0)
			return n < 0 ? -1 : removed;
		for (long off = 0; off < n;) {
			struct plat_dirent64 *d = (struct plat_dirent64 *)(void *)(buf + off);
			const char *name = d->d_name;
			off += d->d_reclen;
			if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
				continue;
			if (d->d_type != DT_DIR && unlinkat(dirfd, name, 0) == 0) {
				removed++;
				continue;
			}
			if ((d->d_type == DT_DIR || errno == EISDIR) && depth < TREE_MAX_DEPTH &&
			    plat_remove_tree(dirfd, name, true, depth + 1) == 0)
				removed++;
		}
	}
}

/* Deleting while reading a directory may make its reader skip entries
 * (hashed directories reorder), so read it again until a read finds
 * nothing more to remove; and a thread still finishing its last create
 * (a signal handler's clean-up) may add one after that: try again. */
int plat_remove_tree(int parent_fd, const char *name, bool remove_self, unsigned depth)
{
	for (int tries = 0; tries < 3; tries++) {
		int fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return errno == ENOENT ? 0 : -1;
		long removed;
		do
			removed = remove_entries_once(fd, depth);
		while (removed > 0);
		close(fd);
		if (removed < 0)
			return -1;
		if (!remove_self || unlinkat(parent_fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT)
			return 0;
		if (errno != ENOTEMPTY && errno != EEXIST)
			return -1;
	}
	return -1;
}

int plat_io_uring_disabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
	int disabled = 0;
	if (!f)
		return 0; /* before Linux 6.6 there is no such switch */
	if (fscanf(f, "%d", &disabled) != 1)
		disabled = 0;
	fclose(f);
	return disabled;
}

/* ---- scratch files (scratch.c) -------------------------------------------- */

void plat_boot_id(char out[9])
{
	char buf[64] = "";
	out[0] = '\0';
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	if (!f)
		return;
	bool ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (ok && strspn(buf, "0123456789abcdef") >= 8) {
		memcpy(out, buf, 8);
		out[8] = '\0';
	}
}

int plat_exe_dir(char *buf, size_t len)
{
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n <= 0 || (size_t)n >= sizeof(path) - 1)
		return -1;
	path[n] = '\0';
	char *slash = strrchr(path, '/');
	if (!slash || (size_t)(slash - path) >= len)
		return -1;
	snprintf(buf, len, "%.*s", (int)(slash - path), path);
	return 0;
}

bool plat_fs_local(int fd)
{
	struct statfs sf;
	const char *fs_class, *name;
	if (fstatfs(fd, &sf) != 0 || !(name = plat_fs_name((unsigned long)sf.f_type, &fs_class)))
		return false; /* an unknown filesystem (GFS2, OCFS2, …) may be shared */
	/* FUSE may be sshfs or another host's disk */
	return strcmp(name, "fuse") != 0 && (!fs_class || strcmp(fs_class, "network") != 0);
}

int plat_lock_shared(int fd)
{
	return flock(fd, LOCK_SH | LOCK_NB);
}

int plat_try_lock_exclusive(int fd)
{
	return flock(fd, LOCK_EX | LOCK_NB);
}

int plat_blockdev_held(const char *devpath)
{
	int fd = open(devpath, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == EBUSY ? 1 : -1;
}

int plat_loop_backing_id(const char *devpath, unsigned *maj, unsigned *min, uint64_t *ino)
{
	int fd = open(devpath, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct loop_info64 info;
	int rc = ioctl(fd, LOOP_GET_STATUS64, &info);
	int saved = errno;
	close(fd);
	if (rc != 0) {
		errno = saved;
		return -1;
	}
	/* lo_device is the kernel's huge_encode_dev of the file's st_dev */
	*maj = (unsigned)((info.lo_device & 0xfff00) >> 8);
	*min = (unsigned)((info.lo_device & 0xff) | ((info.lo_device >> 12) & 0xfff00));
	*ino = info.lo_inode;
	return 0;
}

void plat_precise_timers(void)
{
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}
