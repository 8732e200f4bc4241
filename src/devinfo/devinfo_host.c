#define _POSIX_C_SOURCE 200809L
#include "devinfo_host.h"

#include "devinfo_int.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

int devinfo_cpu_governor(const char *sysfs, char *buf, size_t len)
{
	char dir[PATH_MAX];
	if (!pathf(dir, "%s/devices/system/cpu/cpu0/cpufreq", sysfs ? sysfs : "/sys"))
		return -1;
	return read_attr(dir, "scaling_governor", buf, len);
}

/* millidegrees in dir/rel, as degrees; -1 when absent */
static int read_milli(const char *dir, const char *rel, double *celsius)
{
	int64_t v;
	if (read_i64(dir, rel, &v) != 0)
		return -1;
	*celsius = (double)v / 1000.0;
	return 0;
}

/* The first hwmonN under dir that has a temp1_input, into out[PATH_MAX]. */
static int first_hwmon(const char *dir, char *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = -1;
	while (d && rc != 0 && (e = readdir(d)) != NULL)
		if (strncmp(e->d_name, "hwmon", 5) == 0 && e->d_name[5] >= '0' && e->d_name[5] <= '9' &&
		    pathf(out, "%s/%s", dir, e->d_name) && exists(out, "temp1_input"))
			rc = 0;
	if (d)
		closedir(d);
	return rc;
}

int hwmon_find(const char *disk_dir, struct hwmon_sensor *out)
{
	char dir[PATH_MAX], found[PATH_MAX];
	memset(out, 0, sizeof(*out));
	bool got = (pathf(dir, "%s/device", disk_dir) && first_hwmon(dir, found) == 0) ||
		   (pathf(dir, "%s/device/hwmon", disk_dir) && first_hwmon(dir, found) == 0);
	if (!got)
		return -1;
	SCOPY(out->dir, found);
	if (read_milli(found, "temp1_max", &out->max_c) != 0)
		out->max_c = 0;
	if (read_milli(found, "temp1_crit", &out->crit_c) != 0)
		out->crit_c = 0;
	return 0;
}

int hwmon_read_c(const struct hwmon_sensor *s, double *celsius)
{
	return s->dir[0] ? read_milli(s->dir, "temp1_input", celsius) : -1;
}

int devinfo_mem_available(const char *proc, uint64_t *bytes)
{
	char path[PATH_MAX], line[256];
	unsigned long long kib;
	if (!pathf(path, "%s/meminfo", proc ? proc : "/proc"))
		return -1;
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	int found = -1;
	while (found != 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1 && kib <= UINT64_MAX / 1024) {
			*bytes = (uint64_t)kib * 1024;
			found = 0;
		}
	fclose(f);
	return found;
}
