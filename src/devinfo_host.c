#define _POSIX_C_SOURCE 200809L
#include "devinfo_host.h"

#include "devinfo_int.h"

int devinfo_cpu_governor(const char *sysfs, char *buf, size_t len)
{
	char dir[PATH_MAX];
	if (!pathf(dir, "%s/devices/system/cpu/cpu0/cpufreq", sysfs ? sysfs : "/sys"))
		return -1;
	return read_attr(dir, "scaling_governor", buf, len);
}
