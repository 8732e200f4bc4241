/* Facts of the machine around the disks that bound a figure: the CPU's
 * frequency governor.  A devinfo room: the sysfs root is a parameter
 * (NULL: "/sys"), so fake trees drive it in tests. */
#ifndef DEVINFO_HOST_H
#define DEVINFO_HOST_H

#include <stddef.h>

/* cpu0's cpufreq governor ("performance", "powersave", "schedutil") into
 * buf[len]; -1 when the kernel has no cpufreq for it (many virtual machines). */
int devinfo_cpu_governor(const char *sysfs, char *buf, size_t len);

#endif
