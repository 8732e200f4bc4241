/* Parsing and printing of sizes, durations and rates, all in one place.
 * Suffixes follow dd: k/M/G/T (any case) are powers of 1024, KB/MB/GB/TB are
 * powers of 1000.  Printing never mixes them: MB = 10^6 B, MiB = 2^20 B.
 * Parsers never print: they return -1 and point *why at the reason. */
#ifndef UNITS_H
#define UNITS_H

#include <stddef.h>
#include <stdint.h>

int parse_size(const char *text, uint64_t *out, const char **why);
int parse_seconds(const char *text, double *out, const char **why);
int parse_uint(const char *text, uint64_t min, uint64_t max, uint64_t *out, const char **why);

/* "1.1 GB" / "105 MB" / "512 B": dd's two significant figures. */
void fmt_bytes_si(char *buf, size_t len, uint64_t bytes);
void fmt_bytes_iec(char *buf, size_t len, uint64_t bytes);
/* "1.15 GB/s", "12.8 MB/s": three significant figures. */
void fmt_rate_si(char *buf, size_t len, double bytes_per_sec);
void fmt_rate_iec(char *buf, size_t len, double bytes_per_sec);
/* "812 ns", "53.2 us", "1.52 ms", "2.10 s". */
void fmt_ns(char *buf, size_t len, double ns);
/* Counts with three significant figures: "950", "17.3k", "1.20M". */
void fmt_count(char *buf, size_t len, double count);
/* Exact: "1 MiB", "8 KiB", "1000 B": the largest IEC unit that divides. */
void fmt_size_exact(char *buf, size_t len, uint64_t bytes);

#endif
