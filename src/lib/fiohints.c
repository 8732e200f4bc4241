/* fio's options and what diskbench takes instead: see fiohints.h. */
#include "fiohints.h"

#include <stdint.h>
#include <string.h>

/* fio's options that a fio user types first, and diskbench's way to say
 * the same (the table "diskbench for fio users" in diskbench-methods(7)) */
static const struct {
	const char *fio, *ours;
} fio_options[] = {
	{ "iodepth", "--qd, requests in flight per thread" },
	{ "numjobs", "-j, threads" },
	{ "runtime", "-t, a duration" },
	{ "time_based", "nothing, -t is a duration already" },
	{ "direct", "nothing, O_DIRECT is the default; --no-direct for the page cache" },
	{ "rw", "the test's name, as in diskbench randread TARGET" },
	{ "readwrite", "the test's name, as in diskbench randread TARGET" },
	{ "bs", "-b" },
	{ "blocksize", "-b" },
	{ "size", "-s" },
	{ "filename", "the TARGET operand" },
	{ "directory", "the TARGET operand" },
	{ "ioengine", "--engine" },
	{ "ramp_time", "--warmup, I/Os before the clock starts" },
	{ "randseed", "--seed" },
	{ "output-format", "--json or --csv" },
	{ "fsync", "--sync=dsync, each write durable (--sync=fsync: one fsync at the end)" },
	{ "end_fsync", "--sync=fsync" },
	{ "fsync_on_close", "--sync=fsync" },
	{ "rate_iops", "--rate, open loop: latency counts from when each I/O was due" },
	{ "rate_process", "--arrivals poisson or fixed, with --rate" },
	{ "userspace_reap", "nothing, --reap=ring is the default (--reap=syscall: one call per completion)" },
	{ "zonemode", "nothing, a zoned device is written at its zones' write pointers" },
	{ "max_open_zones", "--max-open-zones" },
};

const char *fio_cli_equivalent(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof(fio_options) / sizeof(fio_options[0]); i++)
		if (strlen(fio_options[i].fio) == n && strncmp(fio_options[i].fio, name, n) == 0)
			return fio_options[i].ours;
	return NULL;
}

/* Levenshtein distance between a[0..n) and b: how many characters to
 * insert, delete or change (names are short: at most 63 characters). */
size_t fio_edit_distance(const char *a, size_t n, const char *b)
{
	size_t m = strlen(b), row[64];
	if (n >= 64 || m >= 64)
		return SIZE_MAX;
	for (size_t j = 0; j <= m; j++)
		row[j] = j;
	for (size_t i = 1; i <= n; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= m; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			best = up + 1 < best ? up + 1 : best;
			row[j] = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
			diag = up;
		}
	}
	return row[m];
}
