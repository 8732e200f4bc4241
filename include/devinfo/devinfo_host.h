/* Facts of the machine around the disks that bound a figure: the CPU's
 * frequency governor.  A devinfo room: the sysfs root is a parameter
 * (NULL: "/sys"), so fake trees drive it in tests. */
#ifndef DEVINFO_HOST_H
#define DEVINFO_HOST_H

#include <stddef.h>
#include <stdint.h>

/* cpu0's cpufreq governor ("performance", "powersave", "schedutil") into
 * buf[len]; -1 when the kernel has no cpufreq for it (many virtual machines). */
int devinfo_cpu_governor(const char *sysfs, char *buf, size_t len);

/* MemAvailable of proc/meminfo (proc NULL: "/proc"), the kernel's estimate
 * of what can be allocated without swapping, in bytes; -1 when unreadable. */
int devinfo_mem_available(const char *proc, uint64_t *bytes);

/* A drive's temperature sensor: NVMe's own hwmon, or drivetemp's for
 * SATA, found under the disk's sysfs directory (device/hwmon*,
 * device/hwmon/hwmon*). */
struct hwmon_sensor {
	char dir[512];     /* the hwmon directory; "" none */
	double max_c;      /* temp1_max, 0 unknown */
	double crit_c;     /* temp1_crit, 0 unknown */
};

/* Finds the sensor of the disk whose sysfs directory is disk_dir (a
 * dev_node's sysfs_path) and reads its limits; -1 when there is none. */
int hwmon_find(const char *disk_dir, struct hwmon_sensor *out);
/* The sensor's temp1_input in degrees Celsius; -1 when unreadable. */
int hwmon_read_c(const struct hwmon_sensor *s, double *celsius);

#endif
