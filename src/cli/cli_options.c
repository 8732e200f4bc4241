/* The option table: every option's long and short name, its value, which
 * tests take it (OPT_* bits) and its help line.  The parser, the help texts
 * and shell completion all read it, so none of them can drift. */
#define _POSIX_C_SOURCE 200809L
#include "cli_int.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "fiohints.h"
#include "names.h"
#include "sweep.h"

const struct optdef optdefs[] = {
	{ "bs", 'b', "SIZE", OPT_BS, ID_BS, "block size of each I/O" },
	{ "size", 's', "SIZE", OPT_SIZE, ID_SIZE,
	  "the region, and size of the test file (gone round for -t; --once: once)" },
	{ "time", 't', "SECONDS", OPT_TIME, ID_TIME,
	  "duration, decimals allowed (0: no limit, one pass; quick needs a time)" },
	{ "sync", 0, "MODE", OPT_SYNC, ID_SYNC,
	  "dsync: O_DSYNC on each write; osync: O_SYNC on each; fsync: one timed fsync at the end; none: neither" },
	{ "no-direct", 0, NULL, OPT_NODIRECT, ID_NODIRECT, "do not use O_DIRECT" },
	{ "drop-caches", 0, "MODE", OPT_DROP, ID_DROP,
	  "before reading: file (evict the test file, default), all (also drop_caches, root), none" },
	{ "no-drop-caches", 0, NULL, OPT_DROP, ID_NODROP, "same as --drop-caches=none" },
	{ "zeros", 0, NULL, OPT_ZEROS, ID_ZEROS, "write zeros, not incompressible random data" },
	{ "threads", 'j', "N", OPT_THREADS, ID_THREADS,
	  "N threads, each with its own buffers and requests (in flight: N x --qd)" },
	{ "qd", 0, "N", OPT_QD, ID_QD,
	  "requests in flight per thread, fio's iodepth (default 1; above 1 needs io_uring or aio)" },
	{ "engine", 0, "NAME", OPT_ENGINE, ID_ENGINE,
	  "auto (io_uring, else aio, else sync; default), uring, aio, sync, or nop (no I/O: the tool's ceiling)" },
	{ "warmup", 0, "N", OPT_WARMUP, ID_WARMUP,
	  "I/Os per thread done before the clock starts, not counted (default 1; O_DIRECT only)" },
	{ "seed", 0, "N", OPT_SEED, ID_SEED, "seed of the offset generator, for reproducible runs" },
	{ "histogram", 0, NULL, OPT_HIST, ID_HIST, "print the latency distribution as a bar chart" },
	{ "keep", 0, NULL, OPT_KEEP, ID_KEEP, "keep the test file diskbench created" },
	{ "max-open-zones", 0, "N", OPT_MAX_OPEN_ZONES, ID_MAX_OPEN_ZONES,
	  "a zoned device's writes: at most N zones open at once (default: the device's limit)" },
	{ "force", 0, NULL, OPT_FORCE, ID_FORCE,
	  "write tests: allow writing to an existing file or block device; read tests: "
	  "measure a file with holes anyway" },
	{ "grow", 0, NULL, OPT_GROW, ID_GROW,
	  "with --force on an existing file: write up to -s even past its end (default: "
	  "stay within its size)" },
	{ "run", 0, "MODE", OPT_SWEEP, ID_RUN,
	  "simple (small random, then large sequential reads; default), oltp (small only), dss (large only)" },
	{ "levels", 0, "LIST", OPT_SWEEP, ID_LEVELS,
	  "outstanding I/Os of the small series (dss: of the large), e.g. 1,2,4,8" },
	{ "large-levels", 0, "LIST", OPT_SWEEP, ID_LARGE_LEVELS, "streams of the large series (default 1,2,4,8)" },
	{ "large-bs", 0, "SIZE", OPT_SWEEP, ID_LARGE_BS, "block size of the large series (default 1M)" },
	{ "point-time", 0, "SECONDS", OPT_SWEEP, ID_POINT_TIME, "measured seconds per point (default 3)" },
	{ "budget", 0, "SECONDS", OPT_SWEEP, ID_BUDGET,
	  "cap on the whole sweep's measuring time (default 60); points shrink or top levels go" },
	{ "max-latency", 0, "LAT[,P]", OPT_SWEEP, ID_MAX_LATENCY,
	  "also report the most IOPS with latency P (default p99) <= LAT, e.g. 1ms,p99" },
	{ "curve", 0, "LIST", OPT_SWEEP, ID_CURVE,
	  "open-loop points at these % of the max IOPS, after the sweep (10,50,70,80,90,100)" },
	{ "write", 0, "PCT", OPT_WRITE_MIX, ID_WRITE, "make PCT % of the I/Os writes (own file, or --force)" },
	{ "mix", 0, "LIST", OPT_MIX, ID_MIX,
	  "shares of the I/Os in %: r read, w write, t trim, e.g. r70,w30 (default), r60,w30,t10" },
	{ "interval", 0, "SECONDS", OPT_INTERVAL, ID_INTERVAL,
	  "throughput is sampled every SECONDS (0.1 to 60, default 1) for the series and its checks" },
	{ "series", 0, NULL, OPT_SERIES, ID_SERIES,
	  "with --csv: one row per interval instead of the summary row" },
	{ "sustained", 0, NULL, OPT_SUSTAINED, ID_SUSTAINED,
	  "end once the rate is steady (or at -s/-t); report burst and sustained rates" },
	{ "json", 0, NULL, 0, ID_JSON, "print one JSON document on stdout" },
	{ "csv", 0, NULL, 0, ID_CSV, "print a CSV header and one row per test" },
	{ "quiet", 'q', NULL, 0, ID_QUIET, "print only the result line" },
	{ "help", 'h', NULL, 0, ID_HELP, "show help (with a TEST: that test's options)" },
	{ "version", 'V', NULL, 0, ID_VERSION, "show the version" },
	/* report */
	{ "baseline", 0, "OLD", OPT_REPORT, ID_BASELINE,
	  "compare with the records in OLD (\"-\": stdin); exit 4 when a figure got worse" },
	{ "threshold", 0, "PCT", OPT_REPORT, ID_THRESHOLD,
	  "with --baseline: worse by more than PCT % is a regression (default 10%)" },
	{ "noise-floor", 0, "LIST", OPT_REPORT, ID_NOISE_FLOOR,
	  "with --baseline and fewer than 3 baseline runs: how much two runs may differ, "
	  "rate=PCT,p50=PCT,p99=PCT or one PCT for all (default rate=10,p50=20,p99=50)" },
	{ "allow-missing", 0, NULL, OPT_REPORT, ID_ALLOW_MISSING,
	  "exit 0, not 5, when a host's run failed or a host of the baseline has no record" },
	/* fit (issue 41) */
	{ "list", 0, NULL, OPT_LIST, ID_LIST,
	  "list the profiles, one line each: name, aliases, what it checks" },
	/* matrix (issue 15); --budget has a row of its own, with matrix's meaning */
	{ "block-sizes", 0, "LIST", OPT_MATRIX, ID_BLOCK_SIZES,
	  "block sizes: a list (4k,64k,1M) or a range by powers of 4 (4k-16M; 4k-16M:2 by 2)" },
	{ "file-sizes", 0, "LIST", OPT_MATRIX, ID_FILE_SIZES,
	  "file sizes, in the same form (default 64M-1G: 64 MiB, 256 MiB, 1 GiB)" },
	{ "ops", 0, "LIST", OPT_MATRIX, ID_OPS,
	  "operations: write,rewrite,read,reread,randread,randwrite (default: all)" },
	{ "budget", 0, "SECONDS", OPT_MATRIX, ID_BUDGET,
	  "cap on the whole run, layout included (default 60); cells that do not fit are skipped" },
	/* fleet runs (issue 13) */
	{ "jsonl", 0, NULL, OPT_FLEET, ID_JSONL,
	  "the --json document on one line, with host, run id and times (fleet runs)" },
	{ "host-label", 0, "NAME", OPT_FLEET, ID_HOST_LABEL,
	  "--jsonl: this host's name in the record (default: the node name)" },
	{ "run-id", 0, "ID", OPT_FLEET, ID_RUN_ID,
	  "--jsonl: the run's id (default: from the launcher or --start-at)" },
	{ "start-at", 0, "TIME", OPT_START_AT, ID_START_AT,
	  "set up, then start at TIME: epoch seconds, 2026-11-30T12:00:00Z or +SECONDS" },
	/* files */
	{ "files", 'n', "N", OPT_FILES, ID_FILES,
	  "files per pass (default 16384, at most 1048576), split among the -j threads" },
	{ "file-size", 0, "SIZE", OPT_FILES, ID_FILE_SIZE,
	  "bytes in each file (default 0, at most 1 GiB), written in -b writes" },
	{ "dir", 0, "DIR", OPT_FILES, ID_DIR,
	  "work in DIR (created if missing; refused unless empty), not in a new directory under TARGET" },
	/* svg (issue 14) */
	{ "svg", 0, "FILE", OPT_SVG, ID_SVG,
	  "also draw the result as a self-contained SVG picture in FILE" },
	/* the factors that move a figure (issue 19) */
	{ "buffers", 0, "KIND", OPT_BUFFERS, ID_BUFFERS,
	  "huge (huge pages: one segment per request; default) or pages (4 KiB pages, as dd and fio)" },
	{ "batch", 0, "N", OPT_QD, ID_BATCH,
	  "at most N requests per submit call (default: all that are free; 1: as fio does)" },
	{ "poll", 0, NULL, OPT_QD, ID_POLL,
	  "io_uring polls the device for completions (IOPOLL: an NVMe drive with poll queues)" },
	{ "sqpoll", 0, NULL, OPT_QD, ID_SQPOLL,
	  "a kernel thread takes io_uring's submissions (SQPOLL): no system call to submit" },
	{ "reap", 0, "MODE", OPT_QD, ID_REAP,
	  "ring (each wait takes every completion ready; default) or syscall (one call each, as fio's libaio)" },
	/* steady (issue 29) */
	{ "round", 0, "SECONDS", OPT_STEADY, ID_ROUND,
	  "steady: each round's duration (default 60; 90s, 1.5m, ...)" },
	{ "max-rounds", 0, "N", OPT_STEADY, ID_MAX_ROUNDS,
	  "steady: give up after N rounds, exit 6 (default 25)" },
	{ "window", 0, "N", OPT_STEADY, ID_WINDOW,
	  "steady: the rounds judged together, at least 3 (default 5, as SNIA PTS)" },
	{ "excursion", 0, "PCT", OPT_STEADY, ID_EXCURSION,
	  "steady: the window's max - min within PCT % of its mean (default 20)" },
	{ "slope", 0, "PCT", OPT_STEADY, ID_SLOPE,
	  "steady: its least-squares line moves within PCT % of the mean across it (default 10)" },
	{ "metric", 0, "NAME", OPT_STEADY, ID_METRIC,
	  "steady: iops, bw or lat (mean latency); default iops below 64 KiB blocks, else bw" },
	{ "precondition", 0, "[=PASSES]", OPT_STEADY, ID_PRECONDITION,
	  "steady: first write the region PASSES times (default 2), 128 KiB sequential, 32 in flight" },
	{ "hold", 0, "N", OPT_STEADY, ID_HOLD,
	  "steady: N more rounds after steady state; one outside its band: left, exit 6" },
	/* open-loop load (issue 30) */
	{ "rate", 0, "IOPS", OPT_RATE, ID_RATE,
	  "open loop: start I/Os on a schedule of IOPS a second (k, M); latency from when each was due" },
	{ "arrivals", 0, "KIND", OPT_RATE, ID_ARRIVALS,
	  "open loop's gaps: poisson (random, the default; --seed) or fixed" },
	{ "latency", 0, "LAT[,pNN]", OPT_SLA, ID_LATENCY,
	  "sla: the response-time target, at p99 unless pNN (2ms, 500us,p99.9)" },
	{ "step-time", 0, "SECONDS", OPT_SLA, ID_STEP_TIME,
	  "sla: seconds each step runs (default 5)" },
	/* data verification (issue 42) */
	{ "verify", 0, "[=backlog]", OPT_VERIFY, ID_VERIFY,
	  "read back every block written and check its header and CRC32C, after the writes "
	  "(=backlog: as each thread goes, its clock stopped); bad blocks: exit 7" },
	{ "witness", 0, "FILE", OPT_WITNESS, ID_WITNESS,
	  "a line per write the disk acknowledged durable, flushed as it comes (-: stdout, the "
	  "result to stderr); verify: check the target against it" },
	{ "once", 0, NULL, OPT_ONCE, ID_ONCE,
	  "end after one pass over the region (-s), not at -t (fio without time_based)" },
	/* capacity (issue 42) */
	{ "destructive", 0, NULL, OPT_DESTRUCTIVE, ID_DESTRUCTIVE,
	  "capacity: do not save the blocks it overwrites, nor put them back" },
	{ "journal", 0, "FILE", OPT_JOURNAL, ID_JOURNAL,
	  "capacity: keep the blocks it overwrites in FILE until they are back "
	  "(default /var/tmp/diskbench-capacity-DEVICE.undo)" },
};
const size_t optdef_count = sizeof(optdefs) / sizeof(optdefs[0]);

/* The options a test accepts by a sibling's bit, and the bit of their own
 * that records them in options.given (diskbench.h, issue 44). */
static const struct {
	enum opt_id id;
	opt_bits given;
} own_given[] = {
	{ ID_BATCH, OPT_BATCH },   { ID_POLL, OPT_POLL },         { ID_SQPOLL, OPT_SQPOLL },
	{ ID_REAP, OPT_REAP },     { ID_ARRIVALS, OPT_ARRIVALS },
};

opt_bits optdef_given(const struct optdef *d)
{
	for (size_t i = 0; i < sizeof(own_given) / sizeof(own_given[0]); i++)
		if (own_given[i].id == d->id)
			return own_given[i].given;
	return d->bit;
}

const struct optdef *find_long(const char *name, size_t len)
{
	for (size_t i = 0; i < optdef_count; i++)
		if (strlen(optdefs[i].name) == len && strncmp(optdefs[i].name, name, len) == 0)
			return &optdefs[i];
	return NULL;
}

const struct optdef *find_short(char letter)
{
	for (size_t i = 0; i < optdef_count; i++)
		if (optdefs[i].letter == letter)
			return &optdefs[i];
	return NULL;
}

bool cli_option_at(size_t i, struct cli_option *out)
{
	if (i >= optdef_count)
		return false;
	const struct optdef *d = &optdefs[i];
	*out = (struct cli_option){ .name = d->name, .letter = d->letter, .arg = d->arg,
				    .bit = d->bit, .given = optdef_given(d), .help = d->help };
	return true;
}

/* The same name tables the parsers above use, so a completed value always
 * parses. */
const char *cli_option_value(const char *name, size_t k)
{
	const struct optdef *d = find_long(name, strlen(name));
	switch (d ? d->id : ID_HELP) {
	case ID_SYNC: return sync_mode_name((enum sync_mode)k);
	case ID_DROP: return drop_mode_name((enum drop_mode)k);
	case ID_RUN: return sweep_run_name((enum sweep_run)k);
	case ID_ENGINE: return k == 0 ? "auto" : engine_name_at(k - 1);
	case ID_BUFFERS: return buffer_mode_name((enum buffer_mode)k);
	case ID_REAP: return reap_mode_name((enum reap_mode)k);
	case ID_ARRIVALS: return k < 2 ? arrivals_name((enum arrivals_kind)k) : NULL;
	default: return NULL;
	}
}

const char *suggest_test(const char *name)
{
	const char *nearest = NULL;
	size_t best = 3, n = strlen(name);
	for (unsigned i = 0; i < command_count; i++) {
		size_t dist = fio_edit_distance(name, n, commands[i].name);
		if (dist < best && dist * 2 < n) {
			best = dist;
			nearest = commands[i].name;
		}
	}
	return nearest;
}

bool suggest_option(const char *name, size_t n, char *out, size_t len)
{
	const struct optdef *prefix_of = NULL, *nearest = NULL;
	size_t best = 3, prefixes = 0;
	for (size_t i = 0; i < optdef_count; i++) {
		const struct optdef *d = &optdefs[i];
		size_t k = strlen(d->name);
		if (d->arg && k < n && strncmp(name, d->name, k) == 0 &&
		    strchr("0123456789", name[k])) {
			snprintf(out, len, "--%s %.*s", d->name, (int)(n - k), name + k);
			return true;
		}
		if (n >= 2 && k > n && strncmp(name, d->name, n) == 0 &&
		    (!prefix_of || strcmp(prefix_of->name, d->name) != 0)) {
			prefix_of = d;
			prefixes++;
		}
		size_t dist = fio_edit_distance(name, n, d->name);
		if (dist < best && dist * 2 < n) {
			best = dist;
			nearest = d;
		}
	}
	const struct optdef *d = prefixes == 1 ? prefix_of : nearest;
	if (d)
		snprintf(out, len, "--%s", d->name);
	return d != NULL;
}

int usage_error(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}
