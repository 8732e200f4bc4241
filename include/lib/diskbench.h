/* diskbench: shared definitions — version, exit codes, options and the result
 * every test fills and every output format renders. */
#ifndef DISKBENCH_H
#define DISKBENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "arrivals.h"
#include "mix.h"
#include "stats.h"

struct devinfo;

/* The version comes from debian/changelog's top entry, through the Makefile
 * (-DDISKBENCH_VERSION): one source for the binary, the man pages and the
 * package. */
#ifndef DISKBENCH_VERSION
#error "DISKBENCH_VERSION is set by the Makefile from debian/changelog"
#endif
#define JSON_SCHEMA 1

/* Exit codes: part of the user-facing contract (man page, EXIT STATUS). */
enum exit_code {
	EXIT_OK = 0,
	EXIT_RUN = 1,      /* could not run, or cut short by an error */
	EXIT_USAGE = 2,    /* bad option, value or target */
	EXIT_REFUSED = 3,  /* refused for safety */
	EXIT_REGRESSED = 4, /* report --baseline: a figure got worse beyond --threshold */
	EXIT_INCOMPLETE = 5, /* report: a host's run failed, or a baseline host has no record */
	EXIT_UNMET = 6,    /* steady: not steady within --max-rounds, or left it during --hold */
	EXIT_BAD_DATA = 7, /* --verify or verify: corrupt, misplaced, stale or lost blocks; wins
			    * over 6 */
	EXIT_SIGINT = 130, /* interrupted (128 + SIGINT) */
};

/* how writes are made durable: O_DSYNC on each, one fsync at the end, none,
 * or O_SYNC on each (the file's metadata too: pg_test_fsync's open_sync) */
enum sync_mode { SYNC_DSYNC, SYNC_FSYNC, SYNC_NONE, SYNC_OSYNC };
enum drop_mode { DROP_FILE, DROP_ALL, DROP_NONE };
enum out_format { OUT_TEXT, OUT_JSON, OUT_CSV, OUT_JSONL /* --jsonl: fleet runs */ };
enum io_dir { IO_READ, IO_WRITE };
enum io_pattern { PAT_SEQ, PAT_RAND };

/* Bits naming each option, so a command row can say which ones apply: 64 of
 * them, so that a new option never waits for a free bit. */
typedef uint64_t opt_bits;
#define OPT_BIT(n) ((opt_bits)1 << (n))
#define OPT_BS OPT_BIT(0)
#define OPT_SIZE OPT_BIT(1)
#define OPT_TIME OPT_BIT(2)
#define OPT_SYNC OPT_BIT(3)
#define OPT_NODIRECT OPT_BIT(4)
#define OPT_DROP OPT_BIT(5)
#define OPT_ZEROS OPT_BIT(6)
#define OPT_THREADS OPT_BIT(7)
#define OPT_SEED OPT_BIT(8)
#define OPT_HIST OPT_BIT(9)
#define OPT_KEEP OPT_BIT(10)
#define OPT_FORCE OPT_BIT(11)
#define OPT_SWEEP OPT_BIT(12) /* --run, --levels, --large-*, --point-time, --budget, … */
#define OPT_WRITE_MIX OPT_BIT(13)
#define OPT_GROW OPT_BIT(14)
#define OPT_WARMUP OPT_BIT(15)
#define OPT_QD OPT_BIT(16)
#define OPT_ENGINE OPT_BIT(17)
/* report */
#define OPT_REPORT OPT_BIT(23) /* --baseline, --threshold */
#define OPT_MATRIX OPT_BIT(22) /* --block-sizes, --file-sizes, --ops (matrix) */
/* fleet runs (issue 13) */
#define OPT_FLEET OPT_BIT(18)    /* --jsonl, --host-label, --run-id */
#define OPT_START_AT OPT_BIT(19) /* --start-at */
#define OPT_FILES OPT_BIT(21) /* files: -n, --file-size, --dir */
/* svg (issue 14) */
#define OPT_SVG OPT_BIT(20) /* --svg FILE */
/* the per-interval series (kept apart from the bits above) */
#define OPT_INTERVAL OPT_BIT(24) /* --interval */
#define OPT_SERIES OPT_BIT(25)   /* --series: CSV rows per interval */
#define OPT_SUSTAINED OPT_BIT(26) /* --sustained: until the rate is steady */
/* the factors that move a figure (issue 19) */
#define OPT_BUFFERS OPT_BIT(27) /* --buffers=huge|pages; --batch goes with OPT_QD */
#define OPT_ONCE OPT_BIT(28)    /* --once: one pass over the region, not -t seconds */
#define OPT_STEADY OPT_BIT(29)  /* steady's --round, --max-rounds, --window, ... (issue 29) */
/* open-loop load (issue 30) */
#define OPT_RATE OPT_BIT(30)    /* --rate, --arrivals */
#define OPT_SLA OPT_BIT(31)     /* sla's --latency, --step-time */
#define OPT_MIX OPT_BIT(32)     /* --mix r70,w30: rw, randrw (issue 31) */
/* Given bits (issue 44): an option a test accepts with its siblings (by
 * their bit) records itself by a bit of its own in options.given, so that
 * "was --qd given" asks about --qd alone (--batch once made an open loop
 * run at one in flight).  A command's accepts mask never holds these. */
#define OPT_BATCH OPT_BIT(33)          /* --batch (accepted with OPT_QD) */
#define OPT_POLL OPT_BIT(34)           /* --poll (OPT_QD) */
#define OPT_SQPOLL OPT_BIT(35)         /* --sqpoll (OPT_QD) */
#define OPT_REAP OPT_BIT(36)           /* --reap (OPT_QD) */
#define OPT_ARRIVALS OPT_BIT(37)       /* --arrivals (OPT_RATE) */
#define OPT_MAX_OPEN_ZONES OPT_BIT(38) /* --max-open-zones: the tests that write zones (not
					* capacity, which has --force but no zones of its own) */
/* The bits that stand for a group of options, given or accepted (any of
 * sweep's, steady's, ...): "given & OPT_STEADY" says one of them was;
 * a question about one option of a group needs a bit of its own, above.
 * --drop-caches and --no-drop-caches share OPT_DROP: one setting. */
#define OPT_GROUPS (OPT_SWEEP | OPT_REPORT | OPT_MATRIX | OPT_FLEET | OPT_FILES | OPT_STEADY | \
		    OPT_SLA | OPT_DROP)
/* capacity (issue 42) */
#define OPT_DESTRUCTIVE OPT_BIT(46) /* --destructive: nothing saved nor put back */
#define OPT_JOURNAL OPT_BIT(47)     /* --journal FILE: where the saved blocks are kept */
/* data verification (issue 42) */
#define OPT_VERIFY OPT_BIT(44)  /* --verify[=backlog]: write tests */
#define OPT_WITNESS OPT_BIT(45) /* --witness FILE|-: write tests (with --verify) and verify */
/* fio job files and fit (issue 41) */
#define OPT_LIST OPT_BIT(40)    /* fit --list */
#define OPT_JOB OPT_BIT(41)     /* runs a job file (job, fit): -t is each job's runtime */

enum sweep_run { RUN_SIMPLE, RUN_OLTP, RUN_DSS };
/* steady --metric: IOPS below 64 KiB blocks, bytes/s from 64 KiB (auto) */
enum steady_metric { METRIC_AUTO, METRIC_IOPS, METRIC_BW, METRIC_LAT };

/* steady (issue 29): rounds of the named test until SNIA PTS's criterion holds */
struct steady_options {
	const char *test;      /* randread, randwrite, seqread, seqwrite */
	double round_s;        /* --round */
	unsigned max_rounds;   /* --max-rounds */
	unsigned window;       /* --window */
	double excursion_pct;  /* --excursion */
	double slope_pct;      /* --slope */
	enum steady_metric metric;
	unsigned precondition; /* --precondition[=PASSES]: passes; 0 none */
	unsigned hold;         /* --hold: rounds after steady state */
};
/* --buffers: huge pages (one segment per request; the default) or ordinary
 * 4 KiB pages, as dd and fio allocate them (issue 19) */
enum buffer_mode { BUF_HUGE, BUF_PAGES };
enum reap_mode { REAP_RING, REAP_SYSCALL }; /* --reap */
/* --verify (issue 42): off, every written block read back after the
 * writes, or each thread's writes read back in batches as it goes */
enum verify_mode { VERIFY_OFF, VERIFY_AFTER, VERIFY_BACKLOG };

#define OPT_MAX_LEVELS 32
#define OPEN_LOOP_QD 128 /* --rate's requests in flight per thread at most, unless --qd */
#define OPT_MAX_THREADS 1024 /* -j and sweep levels */
#define OPT_MAX_TARGETS 64   /* TARGET... of the tests that take several (multi) */
#define OPT_MAX_FILES (1u << 20) /* files -n */
#define OPT_DEFAULT_FILES 16384u /* files -n, as bonnie++ -n 16 */
#define OPT_MAX_FILE_SIZE (1ull << 30) /* files --file-size */

struct sweep_options {
	enum sweep_run run;
	unsigned levels[OPT_MAX_LEVELS], nlevels;             /* 0: the defaults */
	unsigned large_levels[OPT_MAX_LEVELS], nlarge_levels;
	uint64_t large_bs;
	double point_s, budget_s;
	double max_latency_ns, max_latency_pct;                /* ns 0: not asked */
	unsigned write_pct;
	unsigned curve[OPT_MAX_LEVELS], ncurve; /* --curve: % of the max IOPS, open loop */
};

/* matrix (issue 15): the grid as given; a count of 0 means the defaults. */
#define OPT_MAX_MATRIX_SIZES 16
struct matrix_axes {
	uint64_t block_sizes[OPT_MAX_MATRIX_SIZES], file_sizes[OPT_MAX_MATRIX_SIZES];
	unsigned nblock, nfile;   /* sorted, increasing */
	unsigned ops;             /* a bit per enum matrix_op (matrix.h); 0: every one */
};

struct options {
	uint64_t bs;
	uint64_t size;
	double time_s; /* 0: no time limit */
	enum sync_mode sync;
	bool direct;
	enum drop_mode drop;
	bool zeros;
	unsigned threads;
	unsigned qd;          /* requests in flight per thread (fio's iodepth) */
	const char *engine;   /* "auto", "uring", "aio", "sync" */
	unsigned warmup_ios; /* per thread, before the clock starts (O_DIRECT runs) */
	uint64_t seed;
	bool histogram, keep, force, grow, quiet;
	enum out_format format;
	const char *target;
	opt_bits given;   /* each option on the command line by its own bit (the given
			   * bits above, or its OPT_* bit when no sibling shares it) */
	opt_bits accepts; /* OPT_* bits the command takes: a message suggests only these */
	struct sweep_options sweep;
	double interval_s;   /* per-interval series: seconds per sample (0: the default, 1) */
	bool series_rows;    /* --series: CSV prints the intervals, not the summary */
	bool sustained;      /* --sustained: end the run once the rate is steady */
	/* report */
	const char **inputs; /* the FILE operands ("-": stdin), owned by struct cli */
	unsigned ninputs;
	const char *baseline; /* --baseline OLD, or NULL */
	double threshold_pct; /* --threshold: worse than this is a regression */
	/* --noise-floor: how much two runs are taken to differ, in %, where the
	 * baseline has too few runs to show it: rates (MB/s, IOPS), p50, p99 */
	double noise_floor_rate_pct, noise_floor_p50_pct, noise_floor_p99_pct;
	bool allow_missing;   /* --allow-missing: failed or missing hosts do not make exit 5 */
	/* matrix (issue 15) */
	struct matrix_axes matrix;
	/* fleet runs (issue 13); --jsonl is format OUT_JSONL */
	const char *host_label; /* --host-label, or NULL: uname's nodename */
	const char *run_id;     /* --run-id, or NULL: chosen by fleet.h's rules */
	int64_t start_at_ns;    /* --start-at (given: OPT_START_AT), CLOCK_REALTIME ns */
	/* several targets (multi): every TARGET named, in order; target is the
	 * first.  0 (options built without the command line): target alone. */
	const char *targets[OPT_MAX_TARGETS];
	unsigned ntargets;
	/* files */
	unsigned files_n;      /* -n: files per pass (0: the default, 16384) */
	uint64_t file_size;    /* --file-size: bytes in each (default 0) */
	const char *files_dir; /* --dir: work there (NULL: a new directory under target) */
	/* svg (issue 14) */
	const char *svg_path; /* --svg FILE: the pictures, written after the run; NULL: none */
	/* the factors that move a figure (issue 19) */
	enum buffer_mode buffers; /* --buffers */
	unsigned batch;           /* --batch: requests per submit call at most; 0: no limit */
	enum reap_mode reap;      /* --reap: completions taken as they are ready, or one
				   * system call each (issue 32) */
	bool once;                /* --once: one pass over the region ends the run */
	bool poll;                /* --poll: io_uring polls for completions (IOPOLL) */
	bool sqpoll;              /* --sqpoll: a kernel thread takes submissions (SQPOLL) */
	unsigned max_open_zones;  /* --max-open-zones: a zoned device's writes keep at most
				   * this many zones open; 0: the device's limit */
	struct steady_options steady;
	/* open-loop load (issue 30) */
	double rate;              /* --rate: I/Os a second on a schedule; 0: closed loop */
	enum arrivals_kind arrivals; /* --arrivals */
	struct sla_options {
		double latency_ns;    /* --latency LAT[,pNN]: the target; 0: not given */
		double pct;           /* its percentile (99 unless pNN) */
		double step_s;        /* --step-time */
	} sla;
	struct mix mix;           /* --mix, or the test's own (trims: t100); unset: none */
	/* capacity (issue 42) */
	bool destructive;         /* --destructive: what capacity overwrites is not saved */
	const char *journal;      /* --journal FILE: its undo journal; NULL: the default */
	enum verify_mode verify;  /* --verify[=backlog] (issue 42) */
	const char *witness;      /* --witness FILE ("-": stdout), or NULL */
	unsigned verify_backlog;  /* --verify=backlog: writes a thread makes before reading
				   * them back (a job file's verify_backlog=N); 0: its depth */
	/* job files (issue 41): fio's fsync=N/fdatasync=N, a sync call after
	 * every sync_every writes, timed apart (0: none); fdatasync or fsync;
	 * and ioengine=sync's read/write at the file's position */
	unsigned sync_every;
	bool sync_data, at_position;
	const char *job_file;     /* job FILE.fio, fit PROFILE|FILE: the word after the command */
	bool list;                /* fit --list */
};

#define MAX_WARNINGS 16
/* How often 1, 2-3, 4-7, 8-15, 16-31, 32-63, 64+ requests were in flight. */
#define RESULT_QD_BUCKETS 7
#define MSG_LEN 512
#define MAX_FINDINGS 32 /* quick: its steps' findings, each with its step */
#define FINDING_FIGURES 10
#define RESULT_KEEP 8

struct series;
struct devio;
struct temp_track;
struct health_run;
struct fleet_record;
struct run_record;

/* What one of several targets did in a run (multi): its own file, device
 * and figures; the result's figures are their total. */
struct result_target {
	const char *target;     /* as named on the command line */
	const char *file;       /* the file or device used */
	const char *file_state; /* "new", "existing", "device" */
	const struct devinfo *device; /* NULL when sysfs says nothing */
	uint64_t region;
	unsigned threads;       /* the threads that work on it; 0: they vary (sweep) */
	uint64_t bytes, ios;
	double seconds;         /* its threads' span: first start to last end */
	const struct stats *lat; /* every I/O on it; NULL before a run */
	double resident_before_pct; /* < 0: not measured */
};

/* A run of a mix (rw, randrw, trim, randtrim): each operation's figures,
 * indexed by enum mix_op. */
struct result_ops {
	struct mix mix; /* the shares asked */
	struct result_op {
		uint64_t ios, bytes;
		struct stats lat;
	} op[MIX_OPS];
};

/* What a detector saw, for machines: a key ("cliff", "unsteady", ...) and
 * its figures by name; the same finding is also a warning in words. */
struct finding {
	const char *key;
	unsigned nfigures;
	struct finding_figure {
		const char *name;
		double value;
		int decimals;
	} figures[FINDING_FIGURES];
};

/* What a test measured, filled by the command and rendered by the command's
 * renderers (the command row's, else output.c's single-test ones).  Nothing
 * here names a command: what only one command has goes in `detail`. */
/* A zoned device's run (issue 31): the zones of its region, and how the
 * writes used them or what the reads could read. */
struct result_zoned {
	char model[16];           /* "host-managed", "host-aware"; "" unknown (no sysfs) */
	uint64_t zone_bytes;
	uint64_t zone_capacity_bytes; /* the least capacity among the writable zones */
	unsigned zones, sequential, conventional; /* in the region */
	int64_t device_max_open, device_max_active; /* 0: no limit; -1: unknown */
	bool writes;
	unsigned open_limit;      /* writes: zones open at once, every thread's together */
	uint64_t reset_before;    /* writes: part-written zones emptied before the run, untimed */
	uint64_t resets;          /* writes: written zones emptied in the run to go round, timed */
	struct stats reset_lat;
	uint64_t readable_bytes;  /* reads: below the write pointers, conventional zones whole */
};

/* --verify and `verify` (issue 42): the blocks read back and what they
 * were.  Bad kinds make exit 7; the first offsets of each are kept. */
enum verify_kind {
	VERIFY_CORRUPT,   /* the CRC fails: changed after it was written, or torn */
	VERIFY_MISPLACED, /* intact, but another offset's: a misdirected write, a fake drive's wrap */
	VERIFY_STALE,     /* intact, but an older write of the block (or an earlier run's) */
	VERIFY_UNWRITTEN, /* no header where the run wrote */
	VERIFY_LOST,      /* --witness: older than the write the disk acknowledged */
	VERIFY_KINDS
};
#define VERIFY_FIRST 8
struct result_verify {
	const char *mode;         /* "after" (the write phase), "backlog", "headers" (verify),
				   * "witness" (verify --witness) */
	const char *crc;          /* how CRC32C ran: "sse4.2" or "table" */
	uint64_t run_id, block_size, region;
	uint64_t blocks, bytes;   /* judged, read back */
	double seconds;           /* the read-back's own time, never the write phase's */
	uint64_t good;
	uint64_t bad[VERIFY_KINDS];
	struct verify_bad {
		uint64_t offset;
		uint64_t found;   /* misplaced: the offset its header names; stale, lost:
				   * the generation found (0: another run's or none) */
		uint64_t wanted;  /* the generation that should be there */
	} first[VERIFY_KINDS][VERIFY_FIRST];
	uint64_t map_bytes;       /* memory the generations took (4 bytes a block) */
	/* verify: blocks no claim covers, counted but not bad */
	uint64_t no_header, other_run; /* without --witness: no header; another run's */
	uint64_t acknowledged;    /* --witness: the blocks it lists */
	uint64_t unacknowledged;  /* --witness: blocks it does not list (not judged) */
	uint64_t in_flight;       /* --witness: torn by a newer write nobody was promised */
	uint64_t witness_lines, witness_noise; /* lines read, lines that were no witness's */
	bool durable;             /* the writes were acknowledged durable (dsync, fsync) */
};

struct result {
	const char *test;
	const char *target;
	char file[4096];      /* file or device actually read/written */
	const char *file_state; /* "new", "existing", "device" */
	const struct options *opt;
	enum io_dir dir;
	bool primed;          /* the region was read into the page cache on purpose first */
	uint64_t region;      /* bytes of the file the I/O ranges over */
	unsigned warmup_ios;  /* per thread, before the clock started */
	const char *engine;   /* the engine that ran: "uring", "aio", "sync"; NULL: none ran */
	const char *engine_label; /* as people write it: "io_uring", "libaio", "sync" */
	uint64_t qd_hist[RESULT_QD_BUCKETS];
	uint64_t bytes, ios;
	double seconds;
	struct stats lat;     /* merged latency of every I/O */
	bool measured;        /* the timed loop ran to its end */
	bool huge_buffers;    /* I/O buffers in transparent huge pages */
	double cpu_busiest;   /* the busiest worker thread's CPU share of its run, 0..1 */
	double cpu_usr_pct, cpu_sys_pct; /* the process's user and system CPU time over the
					  * run's window, in % of it; < 0 unknown */
	char cpu_governor[32]; /* cpu0's frequency governor; "" unknown */
	bool interrupted;
	const char *evicted;  /* "file", "all", "none", or NULL when not a read test */
	double resident_before_pct; /* < 0: not measured */
	double resident_after_pct;  /* right after the workers joined; < 0: not measured */
	const char *residency_hidden; /* why it could not be measured truthfully, or NULL */
	char warnings[MAX_WARNINGS][MSG_LEN];
	unsigned nwarnings;
	char error[MSG_LEN];  /* empty unless the test failed */
	const struct devinfo *device; /* what sysfs says of the target, or NULL */
	const struct series *series;  /* throughput per interval, or NULL when not sampled */
	const struct devio *device_io; /* what the disks below did during the run, or NULL */
	const struct temp_track *temps; /* the disks' temperatures over the run */
	unsigned ntemps;
	const struct health_run *health; /* what the disks said of themselves before and
					 * after (devinfo_health.h); NULL: not read */
	struct finding findings[MAX_FINDINGS];
	unsigned nfindings;
	void *detail;         /* the command's own figures (a sweep's series, quick's
			       * steps), read only by that command's renderers */
	/* fleet runs (issue 13): host, run id, launcher, clock state, --start-at
	 * and the timed loop's wall-clock start and end (fleet.h); one record per
	 * process, shared by the parts of a run (quick's steps); NULL: none */
	struct fleet_record *fleet;
	/* several targets (multi): each one's part; 0 for a run on one target,
	 * whose target, file and device are the ones above */
	const struct result_target *targets;
	unsigned ntargets;
	/* what the run observed around itself (run_record.h), in storage the
	 * command owns and gives before the run; NULL: nothing is observed */
	struct run_record *record;
	/* storage the command's run keeps until the result is rendered
	 * (util.h's result_keep), freed by result_release */
	struct result_kept {
		void *p;
		void (*release)(void *p);
	} kept[RESULT_KEEP];
	unsigned nkept;
	/* the factors that move a figure (issue 19), from the timed loop */
	uint64_t submit_calls, submitted; /* counted requests and the calls that started them */
	double buffer_segments; /* mean physically contiguous runs per request buffer; < 0: unknown */
	uint32_t page_size;     /* the system's page: what fio's and dd's buffers are made of,
				 * each one segment at most; 0 when no run filled it */
	const char *ended;      /* "time", "one pass", "steady", "interrupted", "error"; NULL: none */
	double passes;          /* bytes moved over the region's bytes (every target's) */
	/* issue 32: the engine's system calls that waited for or took
	 * completions (0 for one that completes inside submit) and the
	 * completions taken in them; what io_uring registered (1 yes, 0
	 * refused, -1 not this engine) and why it was refused, or "" */
	double tool_ceiling_iops; /* diskbench's own: io_uring NOPs at the run's depth and
				   * threads, measured after a CPU-bound run; 0: not */
	bool engine_facts;      /* these four were measured (a timed loop ran) */
	uint64_t reap_calls, reaped;
	int fixed_buffers, fixed_file;
	char registration_why[128];
	/* issue 40: how requests were submitted where the run chose: the
	 * threads that chose (0: none did: asked, or not this engine, depth or
	 * loop), those that measured, those that went one request per call,
	 * and the measuring threads' least and most gain (one request per
	 * call's completion rate over the batch's in their probe); bench.h */
	struct result_policy {
		unsigned threads, measured, one_by_one;
		double gain_min, gain_max;
	} policy;
	/* open loop (--rate, issue 30): lat is then each I/O's response time,
	 * from when it was due; service_lat from its submission */
	struct result_open_loop {
		bool on;
		double rate_asked;      /* I/Os a second */
		uint64_t late_ios;      /* started more than one mean gap after due */
		uint64_t unserved;      /* due inside the window, never started */
		uint64_t max_lag_ns;    /* the longest wait past due to start */
		unsigned cap;           /* requests in flight at most: qd x threads */
	} open_loop;
	struct stats service_lat;
	const struct result_ops *ops; /* a mix's figures by operation; NULL: not a mix */
	const struct result_zoned *zoned; /* a zoned device's zones in the run; NULL: not zoned */
	const char *trim_engine; /* how the trims reached the kernel ("uring_fallocate",
				  * "ioctl_blkdiscard", ...); NULL: none ran */
	const struct result_verify *verify; /* --verify's read-back, verify's; NULL: none */
	/* opt->sync_every (job files, issue 41): the sync calls counted and
	 * each one's time, apart from the writes' */
	uint64_t syncs;
	struct stats sync_lat;
};

#endif
