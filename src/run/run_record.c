#define _POSIX_C_SOURCE 200809L
#include "run_record.h"

#include <string.h>
#include <sys/resource.h>

#include "clock.h"
#include "platform.h"

void run_record_prepare(struct run_record *rec, const struct devinfo *d, bool sampled,
			double interval_s)
{
	memset(rec, 0, sizeof(*rec));
	rec->armed = true;
	rec->device = d;
	rec->sysfs = devinfo_default_roots()->sysfs;
	rec->sampled = sampled;
	rec->usr_pct = rec->sys_pct = -1;
	rec->cache_fd = -1;
	rec->resident_open_pct = rec->resident_close_pct = -1;
	if (!sampled)
		return;
	series_init(&rec->series, interval_s);
	for (int i = 0; d && i < d->nleaves && rec->ntemps < RECORD_TEMP_DISKS; i++) {
		const struct dev_node *n = &d->stack[d->leaves[i]];
		struct hwmon_sensor *s = &rec->sensors[rec->ntemps];
		if (n->sysfs_path[0] && hwmon_find(n->sysfs_path, s) == 0)
			temp_track_init(&rec->temps[rec->ntemps++], n->name, s->max_c, s->crit_c);
	}
}

void run_record_temps(struct run_record *rec, double t_s)
{
	double c;
	for (unsigned i = 0; i < rec->ntemps; i++)
		if (hwmon_read_c(&rec->sensors[i], &c) == 0)
			temp_track_add(&rec->temps[i], t_s, c);
}

void run_record_watch_cache(struct run_record *rec, int fd, uint64_t len)
{
	rec->cache_fd = fd;
	rec->cache_len = len;
}

/* The watched region's share in the page cache, or -1. */
static double resident_pct(const struct run_record *rec)
{
	double pct;
	if (rec->cache_fd < 0 || plat_resident_pct(rec->cache_fd, rec->cache_len, &pct) != 0)
		return -1;
	return pct;
}

static uint64_t timeval_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

/* Every thread's user and system CPU time so far, the joined ones' too. */
static bool cpu_times(uint64_t *usr_ns, uint64_t *sys_ns)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return false;
	*usr_ns = timeval_ns(ru.ru_utime);
	*sys_ns = timeval_ns(ru.ru_stime);
	return true;
}

void run_record_open_cache(struct run_record *rec)
{
	if (!rec->armed || rec->open_ns != 0 || rec->cache_opened)
		return;
	rec->resident_open_pct = resident_pct(rec);
	rec->cache_opened = true;
}

void run_record_open(struct run_record *rec)
{
	if (!rec->armed || rec->open_ns != 0)
		return;
	/* the residency before anything of the window: its mmap and mincore
	 * (a page-table walk over the whole region) are not the run's */
	run_record_open_cache(rec);
	/* the counters first: they are what the window divides */
	if (rec->sampled)
		devio_begin(&rec->devio, rec->device, rec->sysfs);
	rec->open_ns = clock_ns();
	rec->cpu_read = cpu_times(&rec->usr_open_ns, &rec->sys_open_ns);
	run_record_temps(rec, 0.0);
}

/* The CPU time spent between the instants, in % of the window. */
static void close_cpu(struct run_record *rec)
{
	uint64_t usr, sys;
	double window = run_record_window_s(rec);
	if (!rec->cpu_read || window <= 0 || !cpu_times(&usr, &sys) || usr < rec->usr_open_ns ||
	    sys < rec->sys_open_ns)
		return;
	rec->usr_pct = (double)(usr - rec->usr_open_ns) / 1e9 / window * 100;
	rec->sys_pct = (double)(sys - rec->sys_open_ns) / 1e9 / window * 100;
}

/* The limits the process's cgroups put on every node of the device stack. */
static void read_limits(struct run_record *rec)
{
	const struct devinfo *d = rec->device;
	const char *majmins[DEVINFO_MAX_NODES];
	unsigned n = 0;
	for (int i = 0; d && i < d->nstack; i++)
		if (d->stack[i].majmin[0])
			majmins[n++] = d->stack[i].majmin;
	if (n == 0 || cgroup_io_limits(cgroup_default_roots(), majmins, n, &rec->limits) == 0)
		rec->limits.n = 0;
}

void run_record_close(struct run_record *rec)
{
	if (!rec->armed || rec->open_ns == 0)
		return;
	rec->armed = false;
	rec->close_ns = clock_ns();
	close_cpu(rec);
	if (rec->sampled)
		devio_end(&rec->devio, rec->sysfs, run_record_window_s(rec));
	read_limits(rec);
	if (devinfo_cpu_governor(rec->sysfs, rec->cpu_governor, sizeof(rec->cpu_governor)) != 0)
		rec->cpu_governor[0] = '\0';
	/* last, the window closed: the residency's cost is not the run's */
	rec->resident_close_pct = resident_pct(rec);
}

double run_record_window_s(const struct run_record *rec)
{
	if (rec->open_ns == 0 || rec->close_ns < rec->open_ns)
		return 0.0;
	return (double)(rec->close_ns - rec->open_ns) / 1e9;
}
