/* fio job files (issue 41): the ini syntax fio reads — [global] and job
 * sections, key=value or a bare key, comments from ';' or '#' to the end of
 * the line, `include FILE`, ${NAME} in values — into typed jobs, each with
 * the [global] keys above it.  Strict: a key diskbench does not run, a value
 * it would read differently from fio (8KiB is 8000 bytes to fio), or
 * anything fio itself would refuse is an error naming the file, the line
 * and what to write instead, so that a job file never runs as something it
 * does not say.  Comment lines of the form `# diskbench-KEY: VALUE` are
 * kept as directives (fit's requirements) with the job they sit in.
 *
 * Pure: no I/O.  The caller hands the text, and reads included files and the
 * environment through the callbacks of struct jobfile_source. */
#ifndef JOBFILE_H
#define JOBFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JOBFILE_MAX_JOBS 64
#define JOBFILE_MAX_DIRECTIVES 64
#define JOBFILE_MAX_FILES 16     /* the file and the files it includes */
#define JOBFILE_MAX_DEPTH 8      /* includes inside includes */
#define JOBFILE_MAX_LINE 4096
#define JOBFILE_NAME_LEN 64
#define JOBFILE_PATH_LEN 1024
#define JOBFILE_TEXT_LEN 256

enum jobfile_rw { JF_READ, JF_WRITE, JF_RANDREAD, JF_RANDWRITE, JF_RW, JF_RANDRW };
/* psync is fio's default on Linux; sync reads and writes at the file's
 * position (lseek(2) where it moves), psync with pread(2)/pwrite(2) */
enum jobfile_engine { JF_PSYNC, JF_SYNC, JF_LIBAIO, JF_IO_URING };
enum jobfile_osync { JF_OSYNC_NONE, JF_OSYNC_SYNC /* O_SYNC */, JF_OSYNC_DSYNC /* O_DSYNC */ };
enum jobfile_rate_process { JF_RATE_LINEAR, JF_RATE_POISSON };

/* The keys diskbench runs; jobfile_params.given has a bit for each. */
enum jobfile_key {
	JK_NAME, JK_DESCRIPTION, JK_RW, JK_RWMIXREAD, JK_RWMIXWRITE, JK_BS, JK_SIZE,
	JK_FILENAME, JK_DIRECTORY, JK_IODEPTH, JK_NUMJOBS, JK_IOENGINE, JK_DIRECT, JK_BUFFERED,
	JK_SYNC, JK_FSYNC, JK_FDATASYNC, JK_END_FSYNC, JK_TIME_BASED, JK_RUNTIME, JK_RAMP_TIME,
	JK_RATE_IOPS, JK_RATE_PROCESS, JK_RANDREPEAT, JK_RANDSEED, JK_NORANDOMMAP,
	JK_GROUP_REPORTING, JK_STONEWALL, JK_THREAD, JK_VERIFY, JK_DO_VERIFY, JK_VERIFY_FATAL,
	JK_VERIFY_BACKLOG, JK_NKEYS
};
#define JOBFILE_GIVEN(k) ((uint64_t)1 << (k))

/* Where a key, a section or a directive is: the file (an index into
 * jobfile.files) and the line, from 1. */
struct jobfile_at {
	unsigned file, line;
};

/* A job's settings, fio's defaults where the file says nothing. */
struct jobfile_params {
	enum jobfile_rw rw;            /* read */
	unsigned rwmixread;            /* % of reads in rw/randrw: 50 */
	uint64_t bs;                   /* 4096 */
	uint64_t size;                 /* 0: not given (a file's or device's own size) */
	char filename[JOBFILE_PATH_LEN], directory[JOBFILE_PATH_LEN]; /* "": not given */
	char description[JOBFILE_TEXT_LEN];
	unsigned iodepth, numjobs;     /* 1, 1 */
	enum jobfile_engine ioengine;  /* psync */
	bool direct;                   /* false: through the page cache, as fio */
	enum jobfile_osync sync;       /* none */
	unsigned fsync, fdatasync;     /* a sync call after every N writes; 0: none */
	bool end_fsync, time_based;
	uint64_t runtime_us;           /* 0: none */
	uint64_t ramp_time_us;
	uint64_t rate_iops;            /* 0: no rate */
	enum jobfile_rate_process rate_process;
	bool randrepeat;               /* true: the same offsets every run */
	uint64_t randseed;             /* fio's default seed: 0x89 */
	bool norandommap, group_reporting, stonewall;
	/* verify=crc32c (or crc32c-intel): a write job's blocks read back and
	 * checked (diskbench's --verify); do_verify=0 turns it off, as in fio;
	 * verify_backlog=N: read back after every N writes (--verify=backlog);
	 * verify_fatal is read (0 or 1) and changes nothing: every block is
	 * checked and counted */
	bool verify, do_verify, verify_fatal;
	uint64_t verify_backlog;       /* 0: after the writes */
	uint64_t given;                /* JOBFILE_GIVEN(key) for each key set, [global] included */
	struct jobfile_at where[JK_NKEYS]; /* where each given key was set */
};

struct jobfile_job {
	char name[JOBFILE_NAME_LEN];   /* its section's, or name= */
	struct jobfile_at at;          /* its [section] line */
	struct jobfile_params p;
};

/* "# diskbench-require: sync.p99 <= 10ms": key "require", the value after
 * the colon, trimmed. */
struct jobfile_directive {
	char key[32];
	char value[JOBFILE_TEXT_LEN];
	struct jobfile_at at;
	int job;                       /* the job whose section holds it; -1: before any job
					* or in a [global] section */
};

struct jobfile {
	struct jobfile_job jobs[JOBFILE_MAX_JOBS];
	unsigned njobs;
	struct jobfile_directive dirs[JOBFILE_MAX_DIRECTIVES];
	unsigned ndirs;
	char files[JOBFILE_MAX_FILES][JOBFILE_PATH_LEN]; /* [0]: the file; then its includes */
	unsigned nfiles;
};

/* What the parser may ask its caller. */
struct jobfile_source {
	const char *name;  /* the file's name, for messages */
	/* `include NAME` in file `from`: its text, malloc'd and NUL-terminated
	 * (the parser frees it), or NULL with the reason in why.  NULL: an
	 * include is an error. */
	char *(*include)(void *ctx, const char *from, const char *name, char *why, size_t len);
	/* ${NAME}: its value, or NULL when it is not set (an error: fio would
	 * put nothing there).  NULL: ${...} is an error. */
	const char *(*getenv)(void *ctx, const char *name);
	void *ctx;
	/* directive keys the caller reads ("require", "source", ...), NULL
	 * terminated: any other diskbench-KEY is an error; NULL: none is */
	const char *const *directives;
};

/* Parses text (NUL-terminated) into out.  0; or -1 with "FILE:LINE: what is
 * wrong; what to write instead" in why.  A file with no job is an error. */
int jobfile_parse(const char *text, const struct jobfile_source *src, struct jobfile *out,
		  char *why, size_t why_len);

/* "FILE:LINE" of at, into buf. */
void jobfile_where(const struct jobfile *jf, struct jobfile_at at, char *buf, size_t len);

/* jobfile_keys.c: one key=value (bare: value NULL) into p, set at `at`.
 * 0; or -1 with the reason in why, without the place (the caller puts it in
 * front). */
int jobfile_set(struct jobfile_params *p, const char *key, const char *value,
		struct jobfile_at at, char *why, size_t why_len);
/* fio's defaults, before any key. */
void jobfile_defaults(struct jobfile_params *p);
/* A key's name (canonical, as fio's documentation spells it). */
const char *jobfile_key_name(enum jobfile_key k);
/* The name fio and diskbench give an rw= value or an engine. */
const char *jobfile_rw_name(enum jobfile_rw rw);
const char *jobfile_engine_name(enum jobfile_engine e);
/* Whether the job writes (write, randwrite, rw, randrw with writes), reads,
 * goes at random offsets. */
bool jobfile_writes(const struct jobfile_params *p);
bool jobfile_reads(const struct jobfile_params *p);
bool jobfile_random(const struct jobfile_params *p);

/* fio-style numbers: sizes (4096, 8k, 1m, 0x1000; k, m, g, t, p with an
 * optional b are powers of 1024, as fio's default kb_base=1024 reads
 * them), times (120, 500ms, 2m: d, h, m, s, ms, us; seconds by default)
 * and whole numbers.  0 or -1 with the reason in *why. */
int jobfile_parse_size(const char *text, uint64_t *out, const char **why);
int jobfile_parse_time_us(const char *text, uint64_t *out, const char **why);
int jobfile_parse_uint(const char *text, uint64_t max, uint64_t *out, const char **why);

#endif
