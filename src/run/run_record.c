#include "run_record.h"

#include <string.h>

#include "clock.h"

void run_record_prepare(struct run_record *rec, const struct devinfo *d, bool sampled,
			double interval_s)
{
	memset(rec, 0, sizeof(*rec));
	rec->armed = true;
	rec->device = d;
	rec->sysfs = devinfo_default_roots()->sysfs;
	rec->sampled = sampled;
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

void run_record_open(struct run_record *rec)
{
	if (!rec->armed || rec->open_ns != 0)
		return;
	/* the counters first: they are what the window divides */
	if (rec->sampled)
		devio_begin(&rec->devio, rec->device, rec->sysfs);
	rec->open_ns = clock_ns();
	run_record_temps(rec, 0.0);
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
	if (rec->sampled)
		devio_end(&rec->devio, rec->sysfs, run_record_window_s(rec));
	read_limits(rec);
	if (devinfo_cpu_governor(rec->sysfs, rec->cpu_governor, sizeof(rec->cpu_governor)) != 0)
		rec->cpu_governor[0] = '\0';
}

double run_record_window_s(const struct run_record *rec)
{
	if (rec->open_ns == 0 || rec->close_ns < rec->open_ns)
		return 0.0;
	return (double)(rec->close_ns - rec->open_ns) / 1e9;
}
