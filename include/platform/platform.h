/* Everything Linux-specific that acts on an open descriptor: filesystem
 * identity (fstatfs and the one filesystem-magic table), O_DIRECT alignment,
 * block device ioctls, page-cache eviction and residency, I/O buffers.  Each
 * function returns 0 or -1 with errno set, and never prints.
 *
 * The platform boundary: platform_linux.c holds ioctls, statx, fstatfs,
 * fadvise, mincore, drop_caches and buffers; devinfo_*.c hold every reader
 * of /sys and /proc/self/mountinfo, each under a root parameter (struct
 * devinfo_roots).  Platform uses no other room but the pure leaves: devinfo
 * uses it (the filesystem-magic table), never the other way round. */
#ifndef PLATFORM_H
#define PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Open flags the rest of the code may use without _GNU_SOURCE. */
extern const int plat_o_direct;

struct fs_info {
	char type[32];  /* "ext4", "tmpfs", … or "0x…" */
	bool in_ram;    /* tmpfs, ramfs: data live in memory */
	uint64_t total_bytes, avail_bytes;
};

int plat_fs_info(int fd, struct fs_info *out);
/* Name ("ext4", "tmpfs", …) and class (NULL, "ram", "network") of a
 * filesystem from its statfs magic; NULL when the magic is not known. */
const char *plat_fs_name(unsigned long magic, const char **fs_class);
/* O_DIRECT offset/length alignment of an open file or device; 0 if unknown. */
uint32_t plat_dio_align(int fd, bool is_blockdev);
int plat_blockdev_size(int fd, uint64_t *bytes);
/* 1 if the block device is read-only (BLKROGET), 0 if not, -1 unknown. */
int plat_blockdev_readonly(int fd);

/* Write back and evict [0, len) of fd from the page cache: fdatasync,
 * POSIX_FADV_DONTNEED and, for a block device, BLKFLSBUF where permitted.
 * (A loop device's backing file is its caller's: devinfo_fd_loop_backing,
 * then plat_evict_path.) */
int plat_evict(int fd, bool is_blockdev, uint64_t len);
/* The same for a whole file by its path. */
int plat_evict_path(const char *path);
/* sync(2), then 3 > /proc/sys/vm/drop_caches (root only). */
int plat_drop_all_caches(void);
/* Percentage of [0, len) of fd resident in the page cache (mmap + mincore). */
int plat_resident_pct(int fd, uint64_t len, double *pct);
/* Whether the kernel tells this process the truth about fd's residency:
 * since Linux 5.2 mincore(2) reports every page of a file resident unless
 * the caller owns the file, may write to it, or is privileged. */
bool plat_residency_visible(int fd);
/* Offset of the first hole in [0, len) of fd (SEEK_HOLE), len if none, and
 * the bytes the file has allocated (st_blocks); -1 with errno on failure. */
int plat_holes(int fd, uint64_t len, uint64_t *first_hole, uint64_t *allocated);
/* Discards (trims) [offset, offset + len) synchronously: BLKDISCARD on a
 * block device, fallocate(PUNCH_HOLE | KEEP_SIZE) on a file (the size
 * stays, the blocks are freed and read as zeros).  0, or -1 with errno. */
int plat_discard(int fd, bool is_blockdev, uint64_t offset, uint64_t len);
/* The name of plat_discard's way: "ioctl_blkdiscard", "fallocate_punch_hole". */
const char *plat_discard_name(bool is_blockdev);
/* Whether fd (open for writing) can be discarded, without discarding any of
 * its data: a discard of nothing at the device's end, or a hole punched
 * past the file's end (offset at or beyond it).  0, or -1 with errno
 * (EOPNOTSUPP: it cannot; EPERM: a read-only device). */
int plat_discard_probe(int fd, bool is_blockdev, uint64_t end);

/* Zoned block devices (platform_zones.c).  The zone count and size of the
 * device fd is open on: 0 with *nr_zones 0 when it is not zoned (an older
 * kernel included), -1 with errno on a failure. */
int plat_zone_geometry(int fd, uint32_t *nr_zones, uint64_t *zone_bytes);

enum plat_zone_cond {
	ZONE_COND_NOT_WP,   /* a conventional zone: no write pointer */
	ZONE_COND_EMPTY,
	ZONE_COND_OPEN,     /* written part way: open (implicitly or explicitly) or closed */
	ZONE_COND_FULL,
	ZONE_COND_READONLY,
	ZONE_COND_OFFLINE,
};

/* One zone, in bytes: where it starts, its size, the part of it that can be
 * written (its capacity, at most its size), and its write pointer. */
struct plat_zone {
	uint64_t start, len, cap, wp;
	bool conventional;
	enum plat_zone_cond cond;
};

/* Reports up to max zones from the one holding byte `from` into out: the
 * number reported (fewer at the device's end), or -1 with errno. */
int plat_zone_report(int fd, uint64_t from, struct plat_zone *out, unsigned max);
/* Resets the zones in [start, start + len) to empty: 0, or -1 with errno. */
int plat_zone_reset(int fd, uint64_t start, uint64_t len);

/* Whether the block device under fd (the device itself, or the one its
 * file lives on; a partition's disk) has poll queues, which io_uring's
 * IOPOLL needs: 1 (its queue/io_poll is 1), 0 (it is 0), -1 (no sysfs to
 * say).  name gets the device's kernel name ("nvme0n1"), or "". */
int plat_io_poll(int fd, char *name, size_t name_len);

/* syncfs(2): write back the filesystem holding fd. */
int plat_sync_fs(int fd);
/* Removes everything under the directory name (relative to parent_fd, or a
 * path with AT_FDCWD), and the directory itself when remove_self; symlinks
 * are removed, never followed.  Only async-signal-safe calls, so a signal
 * handler may use it; depth: 0 from outside.  A directory that does not
 * exist counts as removed.  Returns 0 or -1 with errno. */
int plat_remove_tree(int parent_fd, const char *name, bool remove_self, unsigned depth);

/* Scratch files (scratch.c): the first 8 hex digits of this boot's id
 * (/proc/sys/kernel/random/boot_id) into out[9], "" when unknown (no /proc);
 * whether the filesystem holding fd is local (a known magic, not a network
 * or cluster one: no other host can be writing there); a shared lock held
 * on fd for as long as it stays open, and a try for an exclusive one that
 * fails with EWOULDBLOCK while any process, in any PID namespace, holds it. */
void plat_boot_id(char out[9]);
/* The directory of this program's binary (/proc/self/exe), into buf: where
 * fit finds its profiles beside it.  -1 when the kernel does not say. */
int plat_exe_dir(char *buf, size_t len);
bool plat_fs_local(int fd);
int plat_lock_shared(int fd);
int plat_try_lock_exclusive(int fd);

/* I/O buffers: aligned, pre-faulted, in huge pages where the kernel allows,
 * so that a large O_DIRECT request is one physically contiguous segment. */
void *plat_buffer_alloc(size_t len);
void plat_buffer_free(void *buf, size_t len);
/* Whether buf's first len bytes are backed by transparent huge pages. */
bool plat_buffer_is_huge(const void *buf, size_t len);
/* An ordinary buffer in 4 KiB pages, as dd and fio allocate theirs
 * (--buffers=pages): page-aligned, MADV_NOHUGEPAGE, pre-faulted.  Freed
 * with plat_buffer_free. */
void *plat_buffer_alloc_pages(size_t len);
/* The mean number of physically contiguous runs in each of the n pieces of
 * piece bytes from buf: the scatter-gather segments a request from it costs
 * the device (/proc/self/pagemap).  -1 when the kernel hides physical
 * addresses (without CAP_SYS_ADMIN) or the map cannot be read. */
double plat_buffer_segments(const void *buf, size_t piece, unsigned n);

/* fleet runs (issue 13) */
/* The kernel's view of the system clock, read only (adjtimex(2) with modes
 * 0, no privilege needed): whether NTP or PTP keeps it synchronised, and
 * the largest error the kernel admits, in microseconds. */
int plat_clock_state(bool *synchronised, int64_t *maxerror_us);
/* n random bytes from getrandom(2), else /dev/urandom. */
int plat_random(void *buf, size_t n);

/* kernel.io_uring_disabled: 0 (or no such sysctl), 1 (only its group), 2. */
int plat_io_uring_disabled(void);
/* The calling thread's timers wake when asked, not up to 50 us later (the
 * kernel's default timer slack): the open loop's pacing.  Where the system
 * cannot, nothing changes. */
void plat_precise_timers(void);

/* A disk's health (issue 25), asked on an open descriptor of the whole
 * disk; 0, or -1 with errno (EACCES/EPERM without the privilege, EIO when
 * the device refused).  NVMe Get Log Page log_id, controller-wide, len a
 * multiple of 4 (CAP_SYS_ADMIN). */
int plat_nvme_log(int fd, uint8_t log_id, uint8_t *buf, size_t len);
/* ATA SMART READ DATA (feature D0h) or READ THRESHOLDS (D1h): one 512-byte
 * sector, through SG_IO and ATA PASS-THROUGH (16) (CAP_SYS_RAWIO). */
int plat_ata_smart(int fd, uint8_t feature, uint8_t buf[512]);
/* SCSI LOG SENSE of page (cumulative values), len bytes at most. */
int plat_scsi_log_sense(int fd, uint8_t page, uint8_t *buf, size_t len);

/* The device number and inode of loop device devpath's backing file
 * (LOOP_GET_STATUS64): what names it whatever mount namespace or chroot
 * the caller sees it from.  -1 with errno (EACCES unprivileged, ENXIO
 * unbound). */
int plat_loop_backing_id(const char *devpath, unsigned *maj, unsigned *min, uint64_t *ino);
/* Whether the kernel holds block device devpath exclusively (swap, a mount,
 * a device built on it, an O_EXCL opener): an O_RDONLY|O_EXCL open fails
 * with EBUSY then.  1 held, 0 not, -1 with errno when it cannot tell
 * (EACCES unprivileged). */
int plat_blockdev_held(const char *devpath);

#endif
