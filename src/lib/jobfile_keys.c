/* The keys of a fio job file that diskbench runs, their values read as fio
 * reads them, and what to write instead of the ones it does not run. */
#define _POSIX_C_SOURCE 200809L
#include "jobfile.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "fiohints.h"

#define MAX_BS (1ull << 30)

/* kinds of value: what a bare key means, and how a value is read */
enum kind { K_TEXT, K_SIZE, K_COUNT, K_BOOL, K_FLAG, K_TIME, K_WORD };

static const struct keydef {
	const char *name, *alias;
	enum jobfile_key key;
	enum kind kind;
	uint64_t max;     /* K_COUNT: the largest value */
} keys[] = {
	{ "name", NULL, JK_NAME, K_TEXT, 0 },
	{ "description", NULL, JK_DESCRIPTION, K_TEXT, 0 },
	{ "rw", "readwrite", JK_RW, K_WORD, 0 },
	{ "rwmixread", NULL, JK_RWMIXREAD, K_COUNT, 100 },
	{ "rwmixwrite", NULL, JK_RWMIXWRITE, K_COUNT, 100 },
	{ "bs", "blocksize", JK_BS, K_SIZE, 0 },
	{ "size", NULL, JK_SIZE, K_SIZE, 0 },
	{ "filename", NULL, JK_FILENAME, K_TEXT, 0 },
	{ "directory", NULL, JK_DIRECTORY, K_TEXT, 0 },
	{ "iodepth", NULL, JK_IODEPTH, K_COUNT, 4096 },
	{ "numjobs", NULL, JK_NUMJOBS, K_COUNT, 1024 },
	{ "ioengine", NULL, JK_IOENGINE, K_WORD, 0 },
	{ "direct", NULL, JK_DIRECT, K_BOOL, 0 },
	{ "buffered", NULL, JK_BUFFERED, K_BOOL, 0 },
	{ "sync", NULL, JK_SYNC, K_WORD, 0 },
	{ "fsync", NULL, JK_FSYNC, K_COUNT, 1u << 30 },
	{ "fdatasync", NULL, JK_FDATASYNC, K_COUNT, 1u << 30 },
	{ "end_fsync", NULL, JK_END_FSYNC, K_BOOL, 0 },
	{ "time_based", NULL, JK_TIME_BASED, K_FLAG, 0 },
	{ "runtime", "timeout", JK_RUNTIME, K_TIME, 0 },
	{ "ramp_time", NULL, JK_RAMP_TIME, K_TIME, 0 },
	{ "rate_iops", NULL, JK_RATE_IOPS, K_COUNT, 100000000 },
	{ "rate_process", NULL, JK_RATE_PROCESS, K_WORD, 0 },
	{ "randrepeat", NULL, JK_RANDREPEAT, K_BOOL, 0 },
	{ "randseed", NULL, JK_RANDSEED, K_COUNT, UINT64_MAX },
	{ "norandommap", NULL, JK_NORANDOMMAP, K_FLAG, 0 },
	{ "group_reporting", NULL, JK_GROUP_REPORTING, K_FLAG, 0 },
	{ "stonewall", "wait_for_previous", JK_STONEWALL, K_FLAG, 0 },
	{ "thread", NULL, JK_THREAD, K_FLAG, 0 },
	{ "verify", NULL, JK_VERIFY, K_WORD, 0 },
	{ "do_verify", NULL, JK_DO_VERIFY, K_BOOL, 0 },
	{ "verify_fatal", NULL, JK_VERIFY_FATAL, K_BOOL, 0 },
	{ "verify_backlog", NULL, JK_VERIFY_BACKLOG, K_COUNT, 1u << 30 },
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))
_Static_assert(NKEYS == JK_NKEYS, "a row per key");

/* fio keys diskbench job does not run, and what to write instead. */
static const struct {
	const char *fio, *instead;
} unsupported[] = {
	{ "filesize", "size=" },
	{ "io_size", "size= (the bytes to move), or time_based with runtime=" },
	{ "io_limit", "size= (the bytes to move), or time_based with runtime=" },
	{ "loops", "time_based with runtime=, or a larger size=" },
	{ "nrfiles", "one file per job: filename= or directory=" },
	{ "openfiles", "one file per job: filename= or directory=" },
	{ "offset", "nothing: I/O starts at offset 0 of the file or device" },
	{ "bsrange", "one bs=" },
	{ "blocksize_range", "one bs=" },
	{ "bssplit", "one bs=" },
	{ "rate", "rate_iops=" },
	{ "rate_min", "rate_iops=" },
	{ "rate_iops_min", "rate_iops=" },
	{ "thinktime", "rate_iops= for a paced load" },
	{ "iodepth_batch", "--batch on diskbench's command line" },
	{ "iodepth_batch_submit", "--batch on diskbench's command line" },
	{ "iodepth_low", "nothing: iodepth= requests stay in flight" },
	{ "fallocate", "nothing: a new file is allocated as fio's default (fallocate=native) does" },
	{ "invalidate", "nothing: a read job drops the file's page cache first, as fio's default" },
	{ "zero_buffers", "--zeros on diskbench's command line" },
	{ "refill_buffers", "nothing: each block written is unique to its offset" },
	{ "scramble_buffers", "nothing: each block written is unique to its offset" },
	{ "buffer_compress_percentage", "nothing: diskbench writes incompressible data (or --zeros)" },
	{ "unlink", "nothing: the test file is removed at the end (--keep keeps it)" },
	{ "new_group", "stonewall (each stonewall starts a new group)" },
	{ "exitall", "nothing: diskbench runs one job at a time" },
	{ "startdelay", "nothing: each job starts when the one before ends" },
	{ "write_lat_log", "--interval and --series on diskbench's command line" },
	{ "write_bw_log", "--interval and --series on diskbench's command line" },
	{ "write_iops_log", "--interval and --series on diskbench's command line" },
	{ "log_avg_msec", "--interval on diskbench's command line" },
	{ "percentile_list", "nothing: p50, p90, p99 and p99.9 are always reported" },
	{ "clat_percentiles", "nothing: percentiles are always reported" },
	{ "lat_percentiles", "nothing: percentiles are always reported" },
	{ "hipri", "--poll on diskbench's command line" },
	{ "sqthread_poll", "--sqpoll on diskbench's command line" },
	{ "fixedbufs", "nothing: io_uring registers the buffers where the kernel allows" },
	{ "registerfiles", "nothing: io_uring registers the file where the kernel allows" },
	{ "verify_only", "diskbench verify TARGET, on a region written with --verify --keep" },
	{ "verify_interval", "nothing: each block carries one header (verify=crc32c)" },
	{ "verify_offset", "nothing: each block's header is at its start (verify=crc32c)" },
	{ "verify_pattern", "verify=crc32c (each block's data is random, under a checked header)" },
	{ "verify_async", "nothing: each thread reads its own writes back" },
	{ "verify_backlog_batch", "verify_backlog=N alone: each batch of N is read back whole" },
	{ "verify_dump", "nothing: the first offsets of each kind of bad block are reported" },
	{ "verify_state_save", "--witness FILE on diskbench's command line" },
	{ "verify_state_load", "diskbench verify --witness FILE TARGET" },
	{ "sync_file_range", "fdatasync= or fsync=" },
	{ "cpus_allowed", "taskset(1) around diskbench" },
	{ "output", "a shell redirection" },
};

void jobfile_defaults(struct jobfile_params *p)
{
	memset(p, 0, sizeof(*p));
	p->rw = JF_READ;
	p->rwmixread = 50;
	p->bs = 4096;
	p->iodepth = 1;
	p->numjobs = 1;
	p->ioengine = JF_PSYNC;
	p->randrepeat = true;
	p->randseed = 0x89; /* fio's default */
	p->do_verify = true;
}

const char *jobfile_key_name(enum jobfile_key k)
{
	return (unsigned)k < NKEYS ? keys[k].name : "?";
}

static const char *const rw_names[] = { [JF_READ] = "read", [JF_WRITE] = "write",
					[JF_RANDREAD] = "randread", [JF_RANDWRITE] = "randwrite",
					[JF_RW] = "rw", [JF_RANDRW] = "randrw" };
static const char *const engine_names[] = { [JF_PSYNC] = "psync", [JF_SYNC] = "sync",
					    [JF_LIBAIO] = "libaio", [JF_IO_URING] = "io_uring" };

const char *jobfile_rw_name(enum jobfile_rw rw)
{
	return (unsigned)rw < sizeof(rw_names) / sizeof(rw_names[0]) ? rw_names[rw] : "?";
}

const char *jobfile_engine_name(enum jobfile_engine e)
{
	return (unsigned)e < sizeof(engine_names) / sizeof(engine_names[0]) ? engine_names[e] : "?";
}

bool jobfile_random(const struct jobfile_params *p)
{
	return p->rw == JF_RANDREAD || p->rw == JF_RANDWRITE || p->rw == JF_RANDRW;
}

bool jobfile_writes(const struct jobfile_params *p)
{
	if (p->rw == JF_RW || p->rw == JF_RANDRW)
		return p->rwmixread < 100;
	return p->rw == JF_WRITE || p->rw == JF_RANDWRITE;
}

bool jobfile_reads(const struct jobfile_params *p)
{
	if (p->rw == JF_RW || p->rw == JF_RANDRW)
		return p->rwmixread > 0;
	return p->rw == JF_READ || p->rw == JF_RANDREAD;
}

/* ---- numbers, as fio reads them ------------------------------------------ */

/* Digits (decimal, or hexadecimal after 0x) into *out; the rest in *end. */
static int read_digits(const char *text, uint64_t *out, const char **end, const char **why)
{
	const char *p = text;
	unsigned base = 10;
	uint64_t v = 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2]))
		base = 16, p += 2;
	if (!isdigit((unsigned char)*p) && !(base == 16 && isxdigit((unsigned char)*p))) {
		*why = *p == '-' ? "must not be negative" : "not a number";
		return -1;
	}
	for (; base == 16 ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p); p++) {
		unsigned d = isdigit((unsigned char)*p) ? (unsigned)(*p - '0')
							 : (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
		if (v > (UINT64_MAX - d) / base) {
			*why = "too large";
			return -1;
		}
		v = v * base + d;
	}
	if (*p == '.') {
		*why = "write a whole number (fio reads decimals its own way)";
		return -1;
	}
	*out = v;
	*end = p;
	return 0;
}

int jobfile_parse_uint(const char *text, uint64_t max, uint64_t *out, const char **why)
{
	const char *end;
	uint64_t v;
	if (read_digits(text, &v, &end, why) != 0)
		return -1;
	if (*end) {
		*why = "not a whole number";
		return -1;
	}
	if (v > max) {
		*why = "too large";
		return -1;
	}
	*out = v;
	return 0;
}

int jobfile_parse_size(const char *text, uint64_t *out, const char **why)
{
	static const char units[] = "kmgtp";
	const char *end;
	uint64_t v, factor = 1;
	if (read_digits(text, &v, &end, why) != 0)
		return -1;
	const char *u = end[0] ? strchr(units, tolower((unsigned char)end[0])) : NULL;
	if (u && end[0]) {
		for (const char *k = units; k <= u; k++)
			factor <<= 10;
		end++;
		/* fio's default kb_base=1024 reads 8KiB as 8000 bytes and 8ki as 8192 */
		if (tolower((unsigned char)end[0]) == 'i') {
			*why = "fio reads KiB-style units the other way round (8KiB is 8000 bytes); "
			       "write 8k for 8192 bytes";
			return -1;
		}
	}
	if (tolower((unsigned char)end[0]) == 'b')
		end++;
	if (*end == '%') {
		*why = "a share of the file or device is not supported; give bytes";
		return -1;
	}
	if (*end) {
		*why = "not a size (examples: 4096, 2300, 8k, 1m, 2g, 0x1000)";
		return -1;
	}
	if (factor > 1 && v > UINT64_MAX / factor) {
		*why = "too large";
		return -1;
	}
	*out = v * factor;
	return 0;
}

int jobfile_parse_time_us(const char *text, uint64_t *out, const char **why)
{
	static const struct { const char *unit; uint64_t us; } units[] = {
		{ "", 1000000 }, { "s", 1000000 }, { "sec", 1000000 }, { "ms", 1000 },
		{ "msec", 1000 }, { "us", 1 }, { "usec", 1 }, { "m", 60000000 },
		{ "h", 3600000000ull }, { "d", 86400000000ull },
	};
	const char *end;
	uint64_t v;
	if (read_digits(text, &v, &end, why) != 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i].unit);
		if (strlen(end) != n)
			continue;
		bool same = true;
		for (size_t k = 0; k < n; k++)
			same = same && tolower((unsigned char)end[k]) == units[i].unit[k];
		if (!same)
			continue;
		if (v > UINT64_MAX / units[i].us / 2) {
			*why = "too large";
			return -1;
		}
		*out = v * units[i].us;
		return 0;
	}
	*why = "not a time (examples: 120, 90s, 500ms, 2m, 1h)";
	return -1;
}

/* ---- the keys -------------------------------------------------------------- */

static const struct keydef *find_key(const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(name, keys[i].name) == 0 || (keys[i].alias && strcmp(name, keys[i].alias) == 0))
			return &keys[i];
	return NULL;
}

/* "unknown key 'iodepht'; did you mean 'iodepth'?", or what to write instead
 * of a fio key diskbench does not run. */
static int unknown_key(const char *key, char *why, size_t len)
{
	const char *cli = fio_cli_equivalent(key, strlen(key));
	for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		if (strcmp(key, unsupported[i].fio) == 0) {
			snprintf(why, len, "'%s' is a fio key diskbench job does not run; use %s", key,
				 unsupported[i].instead);
			return -1;
		}
	if (cli) {
		snprintf(why, len, "'%s' is a fio key diskbench job does not run (on diskbench's "
			 "command line: %s)", key, cli);
		return -1;
	}
	const char *nearest = NULL;
	size_t best = 3, n = strlen(key);
	for (size_t i = 0; i < NKEYS; i++) {
		size_t d = fio_edit_distance(key, n, keys[i].name);
		if (d < best && d * 2 < n)
			best = d, nearest = keys[i].name;
	}
	if (nearest)
		snprintf(why, len, "unknown key '%s'; did you mean '%s'?", key, nearest);
	else
		snprintf(why, len, "'%s' is not a key diskbench job runs (diskbench-methods(7), JOB FILES, "
			 "lists them)", key);
	return -1;
}

static int set_rw(struct jobfile_params *p, const char *v, const char **why)
{
	static const struct { const char *name; enum jobfile_rw rw; } words[] = {
		{ "read", JF_READ }, { "write", JF_WRITE }, { "randread", JF_RANDREAD },
		{ "randwrite", JF_RANDWRITE }, { "rw", JF_RW }, { "readwrite", JF_RW },
		{ "randrw", JF_RANDRW },
	};
	if (strchr(v, ':')) {
		*why = "offset modifiers (rw=...:N) are not supported";
		return -1;
	}
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(v, words[i].name) == 0) {
			p->rw = words[i].rw;
			return 0;
		}
	*why = strstr(v, "trim") ? "trims are not run from a job file; use diskbench trim or randtrim"
				 : "use read, write, randread, randwrite, rw (readwrite) or randrw";
	return -1;
}

/* verify=: diskbench's header carries a CRC32C, so crc32c (and its synonym
 * crc32c-intel) runs as fio's would; 0 is none. */
static int set_verify(struct jobfile_params *p, const char *v, const char **why)
{
	if (strcmp(v, "crc32c") == 0 || strcmp(v, "crc32c-intel") == 0 || strcmp(v, "0") == 0) {
		p->verify = v[0] != '0';
		return 0;
	}
	*why = "diskbench checks each block's CRC32C under its own header: use verify=crc32c "
	       "(or 0 for none)";
	return -1;
}

static int set_word(struct jobfile_params *p, enum jobfile_key k, const char *v, const char **why)
{
	if (k == JK_RW)
		return set_rw(p, v, why);
	if (k == JK_IOENGINE) {
		for (unsigned e = 0; e < sizeof(engine_names) / sizeof(engine_names[0]); e++)
			if (strcmp(v, engine_names[e]) == 0) {
				p->ioengine = (enum jobfile_engine)e;
				return 0;
			}
		*why = "diskbench runs sync, psync, libaio and io_uring";
		return -1;
	}
	if (k == JK_SYNC) {
		if (strcmp(v, "0") == 0 || strcmp(v, "none") == 0)
			p->sync = JF_OSYNC_NONE;
		else if (strcmp(v, "1") == 0 || strcmp(v, "sync") == 0)
			p->sync = JF_OSYNC_SYNC;
		else if (strcmp(v, "dsync") == 0)
			p->sync = JF_OSYNC_DSYNC;
		else {
			*why = "use 0 (none), 1 or sync (O_SYNC), or dsync (O_DSYNC)";
			return -1;
		}
		return 0;
	}
	if (k == JK_VERIFY)
		return set_verify(p, v, why);
	/* rate_process */
	if (strcmp(v, "linear") == 0 || strcmp(v, "poisson") == 0) {
		p->rate_process = v[0] == 'l' ? JF_RATE_LINEAR : JF_RATE_POISSON;
		return 0;
	}
	*why = "use linear or poisson";
	return -1;
}

static int set_text(struct jobfile_params *p, enum jobfile_key k, const char *v, const char **why)
{
	size_t n = strlen(v);
	if (n == 0) {
		*why = "needs a value";
		return -1;
	}
	if (k == JK_DESCRIPTION) {
		if (n >= sizeof(p->description)) {
			*why = "too long";
			return -1;
		}
		memcpy(p->description, v, n + 1);
		return 0;
	}
	if ((k == JK_FILENAME || k == JK_DIRECTORY) && strchr(v, ':')) {
		*why = "several files (a:b) are not supported: name one";
		return -1;
	}
	if (n >= JOBFILE_PATH_LEN) {
		*why = "too long";
		return -1;
	}
	memcpy(k == JK_FILENAME ? p->filename : p->directory, v, n + 1);
	return 0;
}

/* A size key: bs (one size for reads and writes, up to 1 GiB) or size. */
static int set_size(struct jobfile_params *p, enum jobfile_key k, const char *v, const char **why)
{
	uint64_t n;
	if (k == JK_BS && strpbrk(v, ",/")) {
		*why = "one bs= for reads and writes; a pair is not supported";
		return -1;
	}
	if (k == JK_BS && strpbrk(v, "-:")) {
		*why = "a range of block sizes is not supported; give one";
		return -1;
	}
	if (jobfile_parse_size(v, &n, why) != 0)
		return -1;
	if (n == 0 || (k == JK_BS && n > MAX_BS)) {
		*why = n == 0 ? "must be greater than 0" : "at most 1g";
		return -1;
	}
	*(k == JK_BS ? &p->bs : &p->size) = n;
	return 0;
}

static int set_count(struct jobfile_params *p, const struct keydef *d, const char *v,
		     const char **why)
{
	uint64_t n;
	if (d->key == JK_RATE_IOPS && strpbrk(v, ",/")) {
		*why = "one rate for reads and writes; a pair is not supported";
		return -1;
	}
	if (jobfile_parse_uint(v, d->max, &n, why) != 0)
		return -1;
	bool at_least_one = d->key == JK_IODEPTH || d->key == JK_NUMJOBS;
	if (at_least_one && n == 0) {
		*why = "must be at least 1";
		return -1;
	}
	switch (d->key) {
	case JK_RWMIXREAD: p->rwmixread = (unsigned)n; break;
	case JK_RWMIXWRITE: p->rwmixread = 100 - (unsigned)n; break;
	case JK_IODEPTH: p->iodepth = (unsigned)n; break;
	case JK_NUMJOBS: p->numjobs = (unsigned)n; break;
	case JK_FSYNC: p->fsync = (unsigned)n; break;
	case JK_FDATASYNC: p->fdatasync = (unsigned)n; break;
	case JK_RATE_IOPS: p->rate_iops = n; break;
	case JK_VERIFY_BACKLOG: p->verify_backlog = n; break;
	default: p->randseed = n; break;
	}
	return 0;
}

/* bool (a value of 0 or 1) and flag (bare, or 0 or 1) keys */
static int set_bool(struct jobfile_params *p, const struct keydef *d, const char *v,
		    const char **why)
{
	bool on = true;
	if (v && strcmp(v, "0") != 0 && strcmp(v, "1") != 0) {
		*why = "use 0 or 1";
		return -1;
	}
	if (!v && d->kind == K_BOOL) {
		*why = "needs a value: 0 or 1";
		return -1;
	}
	on = !v || v[0] == '1';
	switch (d->key) {
	case JK_DIRECT: p->direct = on; break;
	case JK_BUFFERED: p->direct = !on; break;
	case JK_END_FSYNC: p->end_fsync = on; break;
	case JK_TIME_BASED: p->time_based = on; break;
	case JK_RANDREPEAT: p->randrepeat = on; break;
	case JK_NORANDOMMAP: p->norandommap = on; break;
	case JK_GROUP_REPORTING: p->group_reporting = on; break;
	case JK_STONEWALL: p->stonewall = on; break;
	case JK_DO_VERIFY: p->do_verify = on; break;
	case JK_VERIFY_FATAL: p->verify_fatal = on; break;
	default: break; /* thread: diskbench's jobs are threads already */
	}
	return 0;
}

int jobfile_set(struct jobfile_params *p, const char *key, const char *value,
		struct jobfile_at at, char *why, size_t why_len)
{
	const struct keydef *d = find_key(key);
	const char *reason = NULL;
	if (!d)
		return unknown_key(key, why, why_len);
	int rc;
	if (!value && d->kind != K_FLAG && d->kind != K_BOOL) {
		reason = "needs a value (key=value)";
		rc = -1;
	} else {
		switch (d->kind) {
		case K_TEXT: rc = d->key == JK_NAME ? 0 : set_text(p, d->key, value, &reason); break;
		case K_SIZE: rc = set_size(p, d->key, value, &reason); break;
		case K_COUNT: rc = set_count(p, d, value, &reason); break;
		case K_TIME:
			rc = jobfile_parse_time_us(value, d->key == JK_RUNTIME ? &p->runtime_us
									 : &p->ramp_time_us, &reason);
			break;
		case K_WORD: rc = set_word(p, d->key, value, &reason); break;
		default: rc = set_bool(p, d, value, &reason); break;
		}
	}
	if (rc != 0) {
		snprintf(why, why_len, "%s=%s: %s", d->name, value ? value : "", reason);
		return -1;
	}
	p->given |= JOBFILE_GIVEN(d->key);
	p->where[d->key] = at;
	return 0;
}
