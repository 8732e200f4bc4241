/* The block I/O limits a cgroup puts on this process: cgroup v2 io.max and
 * v1 blkio.throttle.{read,write}_{bps,iops}_device, in the process's own
 * group and every group above it up to the hierarchy's mount point (a limit
 * anywhere on the way applies; the lowest wins).  The group comes from
 * /proc/self/cgroup, the mount points from /proc/self/mountinfo.  A devinfo
 * room: both files are parameters, so fake trees drive it in tests. */
#ifndef DEVINFO_CGROUP_H
#define DEVINFO_CGROUP_H

#include <stddef.h>
#include <stdint.h>

#define CGROUP_MAX_DEVICES 16

struct cgroup_roots {
	const char *proc_cgroup; /* "/proc/self/cgroup" */
	const char *mountinfo;   /* "/proc/self/mountinfo" */
};

enum cgroup_limit_kind { CG_RBPS, CG_WBPS, CG_RIOPS, CG_WIOPS, CG_NKINDS };

/* The limits on one device; 0 where there is none. */
struct cgroup_limit {
	char majmin[16];            /* "7:0" */
	uint64_t value[CG_NKINDS];  /* bytes/s or I/Os per second */
	int version;                /* 1 or 2: the hierarchy the lowest one came from */
};

struct cgroup_limits {
	struct cgroup_limit dev[CGROUP_MAX_DEVICES];
	unsigned n;                 /* devices with at least one limit */
};

const struct cgroup_roots *cgroup_default_roots(void);
/* Parses one line of io.max ("7:0 rbps=max wbps=max riops=130 wiops=max")
 * into majmin[len] and value[] (0 for "max"); -1 if it is not one. */
int cgroup_parse_iomax(const char *line, char *majmin, size_t len, uint64_t value[CG_NKINDS]);
/* Fills out with the limits on the devices named in majmins[n] ("MAJ:MIN")
 * that apply to this process, from whichever of the two hierarchies are
 * mounted; returns how many devices have one (0 when no cgroup file can be
 * read: no limit is known then). */
unsigned cgroup_io_limits(const struct cgroup_roots *roots, const char *const *majmins, unsigned n,
			  struct cgroup_limits *out);

#endif
