#define _POSIX_C_SOURCE 200809L
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct suffix {
	const char *name;
	uint64_t factor;
};

static const struct suffix size_suffixes[] = {
	{ "", 1 },
	{ "k", 1ull << 10 }, { "K", 1ull << 10 }, { "KiB", 1ull << 10 },
	{ "m", 1ull << 20 }, { "M", 1ull << 20 }, { "MiB", 1ull << 20 },
	{ "g", 1ull << 30 }, { "G", 1ull << 30 }, { "GiB", 1ull << 30 },
	{ "t", 1ull << 40 }, { "T", 1ull << 40 }, { "TiB", 1ull << 40 },
	{ "KB", 1000ull }, { "kB", 1000ull },
	{ "MB", 1000000ull },
	{ "GB", 1000000000ull },
	{ "TB", 1000000000000ull },
};

static int suffix_factor(const char *text, uint64_t *factor)
{
	for (size_t i = 0; i < sizeof(size_suffixes) / sizeof(size_suffixes[0]); i++) {
		if (strcmp(text, size_suffixes[i].name) == 0) {
			*factor = size_suffixes[i].factor;
			return 0;
		}
	}
	return -1;
}

int parse_size(const char *text, uint64_t *out, const char **why)
{
	const char *p = text;
	uint64_t value = 0, factor;

	if (*p == '-') {
		*why = "must not be negative";
		return -1;
	}
	if (!isdigit((unsigned char)*p)) {
		*why = "not a size (examples: 4096, 8k, 1M, 2G, 500MB)";
		return -1;
	}
	for (; isdigit((unsigned char)*p); p++) {
		unsigned digit = (unsigned)(*p - '0');
		if (value > (UINT64_MAX - digit) / 10) {
			*why = "too large";
			return -1;
		}
		value = value * 10 + digit;
	}
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		*why = "use a whole number of a smaller unit (1.5G is 1536M)";
		return -1;
	}
	if (suffix_factor(p, &factor) != 0) {
		*why = "unknown suffix (use k, M, G, T for powers of 1024; KB, MB, GB, TB for powers of 1000)";
		return -1;
	}
	if (value == 0) {
		*why = "must be greater than zero";
		return -1;
	}
	if (value > UINT64_MAX / factor || value * factor > (uint64_t)INT64_MAX) {
		*why = "too large";
		return -1;
	}
	*out = value * factor;
	return 0;
}

/* A duration in seconds: decimals, and an optional unit s, m or h. */
int parse_seconds(const char *text, double *out, const char **why)
{
	char *end;
	if (!isdigit((unsigned char)text[0]) && text[0] != '.') {
		*why = text[0] == '-' ? "must not be negative" : "not a number of seconds";
		return -1;
	}
	errno = 0;
	double value = strtod(text, &end);
	/* decimal only: strtod would also read hexadecimal ("0x10") */
	bool decimal = strspn(text, "0123456789.eE+-") >= (size_t)(end - text);
	if (end == text || errno != 0 || !isfinite(value) || !decimal) {
		*why = "not a number of seconds";
		return -1;
	}
	/* a unit, as sleep(1) and timeout(1) take them: 90, 90s, 1.5m, 2h */
	double unit = strcmp(end, "h") == 0 ? 3600 : strcmp(end, "m") == 0 ? 60 : 1;
	if (strcmp(end, "s") == 0 || unit > 1)
		end++;
	if (*end != '\0') {
		*why = "not a duration (examples: 2.5, 90s, 1m, 2h)";
		return -1;
	}
	value *= unit;
	if (value > 1e7) {
		*why = "too large";
		return -1;
	}
	*out = value;
	return 0;
}

int parse_uint(const char *text, uint64_t min, uint64_t max, uint64_t *out, const char **why)
{
	static char range[96];
	char *end;
	if (!isdigit((unsigned char)text[0])) {
		*why = text[0] == '-' ? "must not be negative" : "not a whole number";
		return -1;
	}
	errno = 0;
	unsigned long long value = strtoull(text, &end, 10);
	if (*end != '\0') {
		*why = "not a whole number";
		return -1;
	}
	if (errno == ERANGE || value < min || value > max) {
		snprintf(range, sizeof(range), "must be from %llu to %llu",
			 (unsigned long long)min, (unsigned long long)max);
		*why = range;
		return -1;
	}
	*out = value;
	return 0;
}

/* Scale value into a unit of base^k and print it with the given style. */
static void fmt_scaled(char *buf, size_t len, double value, double base,
		       const char *const units[], int nunits, int sigfigs)
{
	int k = 0;
	while (k < nunits - 1 && value >= base * 0.9995)
		value /= base, k++;
	int decimals = 0;
	if (k > 0 || sigfigs == 3) {
		if (sigfigs == 2)
			decimals = value < 9.95 ? 1 : 0;
		else
			decimals = value < 9.995 ? 2 : value < 99.95 ? 1 : 0;
	}
	if (k == 0 && sigfigs == 2)
		decimals = 0;
	snprintf(buf, len, "%.*f %s", decimals, value, units[k]);
}

static const char *const si_bytes[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
static const char *const iec_bytes[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
static const char *const si_rates[] = { "B/s", "kB/s", "MB/s", "GB/s", "TB/s", "PB/s" };
static const char *const iec_rates[] = { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s", "PiB/s" };

void fmt_bytes_si(char *buf, size_t len, uint64_t bytes)
{
	fmt_scaled(buf, len, (double)bytes, 1000.0, si_bytes, 7, 2);
}

void fmt_bytes_iec(char *buf, size_t len, uint64_t bytes)
{
	fmt_scaled(buf, len, (double)bytes, 1024.0, iec_bytes, 7, 2);
}

void fmt_rate_si(char *buf, size_t len, double bytes_per_sec)
{
	fmt_scaled(buf, len, bytes_per_sec, 1000.0, si_rates, 6, 3);
}

void fmt_rate_iec(char *buf, size_t len, double bytes_per_sec)
{
	fmt_scaled(buf, len, bytes_per_sec, 1024.0, iec_rates, 6, 3);
}

void fmt_ns(char *buf, size_t len, double ns)
{
	static const char *const units[] = { "ns", "us", "ms", "s" };
	if (ns < 999.5) {
		snprintf(buf, len, "%.0f ns", ns);
		return;
	}
	fmt_scaled(buf, len, ns, 1000.0, units, 4, 3);
}

void fmt_size_exact(char *buf, size_t len, uint64_t bytes)
{
	int k = 0;
	while (k < 6 && bytes >= 1024 && bytes % 1024 == 0)
		bytes /= 1024, k++;
	snprintf(buf, len, "%llu %s", (unsigned long long)bytes, iec_bytes[k]);
}

void fmt_count(char *buf, size_t len, double count)
{
	static const char *const units[] = { "", "k", "M", "G" };
	char tmp[32];
	fmt_scaled(tmp, sizeof(tmp), count, 1000.0, units, 4, 3);
	/* fmt_scaled separates value and unit by a space; counts read better joined */
	char *space = strchr(tmp, ' ');
	if (space)
		memmove(space, space + 1, strlen(space));
	snprintf(buf, len, "%s", tmp);
}
