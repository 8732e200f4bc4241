/* What `diskbench report` makes of the JSON Lines records of a fleet run
 * (each host's --jsonl record, round 2's shared format): reading a line past
 * a launcher's prefix, grouping records by run_id + test + params, per-host
 * rows with their deviation and flags, fleet totals with exact percentiles
 * of the merged histograms, and the comparison with a baseline.  Pure: no
 * I/O and no printing; lines come in as text, figures go out in structs. */
#ifndef FLEETREPORT_H
#define FLEETREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FLEET_SCHEME "log-linear-7" /* lat_buckets' scheme: stats.h, STATS_SUB_BITS 7 */
#define FLEET_OUTLIER_PCT 10.0      /* "outlier": beyond ± this of the fleet median */
#define FLEET_LATE_US 10000.0       /* "late": woke this much after --start-at ... */
#define FLEET_LATE_SHARE_PCT 1.0    /* ... or started this share of its run after the first */
#define FLEET_MSG 320
/* A record's line is at most this long: the largest real ones (a 512-sample
 * series, some 3000 latency buckets, a deep device stack) are ~70 KB;
 * longer lines are skipped, never held whole. */
#define FLEET_MAX_LINE (256u << 10)
#define FLEET_MAX_LINE_TEXT "256 KiB"
/* and hold at most this many JSON values (each costs a parsed node) */
#define FLEET_MAX_VALUES 65536u
/* A "line" this long without a newline is no JSON Lines (/dev/zero): the
 * input is refused rather than read for ever. */
#define FLEET_GIVE_UP_LINE (64u << 20)
#define FLEET_NO_SAMPLE UINT64_MAX  /* a per-interval value the record has as null */
#define FLEET_FLEET_ROW "(fleet)"   /* the host name of the fleet's row in a baseline */

enum fleet_flag { FLAG_LATE = 1, FLAG_OUTLIER = 2, FLAG_CLOCK = 4, FLAG_WARN = 8 };

struct fleet_param {
	char *key;
	char *text;   /* the value as JSON text */
	bool is_number;
	double number;
};

struct fleet_pair {
	unsigned index; /* stats_bucket_index() */
	uint64_t count;
};

enum { FLEET_FIT = 1, FLEET_NOT_FIT = 2 };

/* One host's record: what the report needs of it, copied out of the line. */
struct fleet_record {
	char *where;           /* "FILE:LINE" */
	char *host;            /* "host"; else the launcher's prefix ("node1: "); else where */
	char *rank;            /* the launcher's rank or index, or NULL */
	char *run_id;          /* "" when the record has none */
	char *test;
	struct fleet_param *params;
	unsigned nparams;
	bool timed;            /* started_at (and so the start offset) is known */
	int64_t start_us, end_us; /* µs since the epoch: the measured run */
	uint64_t bytes, ios;
	double seconds, bytes_per_sec, iops;
	bool has_lat;          /* result.lat_ns: min, max, p50, p99 */
	uint64_t lat_min, lat_max, p50, p99;
	struct fleet_pair *buckets;
	unsigned nbuckets;
	const char *no_buckets; /* why it has no usable lat_buckets, or NULL */
	double *series_end_s;  /* result.series: each sample's end, s since the start */
	uint64_t *series_bytes;
	uint64_t *series_ios, *series_p50, *series_p99; /* each per sample, or NULL;
							  * FLEET_NO_SAMPLE: none */
	unsigned nseries;
	bool has_late;
	double late_us;        /* start_at.late_us */
	int clock_synced;      /* clock.synchronised: 1, 0, or -1 when not known */
	unsigned nwarnings;
	char *error;           /* a failed run's "error" (it has no figures), or NULL */
	int fit;               /* a fit --jsonl line's fit.pass: FLEET_FIT, FLEET_NOT_FIT; 0 no fit */
	char *fit_verdict;     /* its fit.verdict, or NULL */
};

/* The records read so far and what was not one.  Every string taken from
 * a line (and the FILE of "FILE:LINE") is stored with its control characters
 * (C0, DEL, C1) and bidi controls escaped (fleet_escape), so that no output
 * of report lets an input rewrite a terminal or reorder a line. */
struct fleet_set {
	struct fleet_record *rec;
	unsigned n, cap;
	struct fleet_record *frec;     /* the failed runs: host, run, test and error */
	unsigned fcap;                 /* (their number is failed) */
	unsigned lines, skipped, failed;
	char first_skipped[FLEET_MSG]; /* "FILE:LINE: why" of the first line skipped */
	char first_failed[FLEET_MSG];  /* "host (FILE:LINE): error" of the first failed run */
};

void fleet_set_init(struct fleet_set *s);
/* One input line (without or with its newline).  Returns 1 when it held a
 * record, 0 when it was blank, skipped (counted, the first reason kept) or a
 * failed run (counted likewise), -1 with errno ENOMEM. */
int fleet_add_line(struct fleet_set *s, const char *line, size_t len, const char *where);
/* A line the reader could not hold (longer than FLEET_MAX_LINE): counted as
 * skipped, why kept when it is the first. */
void fleet_skip_line(struct fleet_set *s, const char *where, const char *why);
void fleet_set_free(struct fleet_set *s);

/* s[0..n) with C0 controls, DEL, C1 controls (U+0080-U+009F), the bidi
 * controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and bytes
 * that are not UTF-8 written as \xNN or \uNNNN: malloc'd, or NULL (ENOMEM). */
char *fleet_escape(const char *s, size_t n);

/* Where a line's JSON starts, past a launcher's prefix ("node1: " from pdsh or
 * clush, "0: " from srun --label): its first '{', or NULL.  label gets the
 * prefix as a name ("node1", "0") when it looks like one, else "". */
const char *fleet_json_start(const char *line, size_t len, char *label, size_t label_len);
/* "2026-11-30T12:00:00.123456Z" → µs since the epoch: 0, or -1. */
int fleet_parse_time(const char *text, int64_t *us);
/* params keys that differ per host by nature and so are not compared
 * ("engine": what auto found in each host's kernel; but see fleet_record_nop). */
bool fleet_param_ignored(const char *key);
/* Whether r's run sent io_uring NOPs (params.engine "nop"): its figures are
 * diskbench's own ceiling on that host, no device's, so it is never grouped
 * nor compared with a run that moved data. */
bool fleet_record_nop(const struct fleet_record *r);

enum fleet_status { ROW_OK, ROW_FAILED, ROW_DUPLICATE };

struct fleet_row {
	const struct fleet_record *rec;
	enum fleet_status status; /* ROW_OK in rows[], else in others[] */
	const struct fleet_record *same_as; /* ROW_DUPLICATE: the record it repeats */
	char *label;           /* the host, made unique within its group */
	double start_offset_ms; /* from the group's first start; NAN when not known */
	double deviation_pct;  /* from the fleet median of the group's metric; NAN */
	unsigned flags;        /* enum fleet_flag */
};

struct fleet_totals {
	uint64_t bytes, ios;
	double sum_bytes_per_sec, sum_iops;
	double median;         /* of the group's metric */
	bool timed;            /* every host has started_at: span and skew known */
	double span_s, span_bytes_per_sec, start_skew_ms, start_skew_pct;
	bool has_window;       /* the common window, else window_why says why not */
	double window_s, window_bytes, window_bytes_per_sec;
	char window_why[FLEET_MSG];
	bool has_lat;          /* exact fleet percentiles, else lat_why says why not */
	uint64_t lat_count, lat_min, lat_max, p50, p90, p99, p99_9;
	char lat_why[FLEET_MSG];
};

struct fleet_group {
	const char *run_id, *test;
	bool by_iops;          /* random tests: IOPS is the metric, else MB/s */
	bool nop;              /* its records sent NOPs (fleet_record_nop): no device's */
	struct fleet_row *rows; /* the hosts that ran, sorted by label in natural order
				 * (node2 < node10); their figures make the totals */
	unsigned n;
	struct fleet_row *others; /* failed runs, then records given twice (input order) */
	unsigned nothers, nfailed;
	bool timed;            /* every row has started_at */
	int64_t first_start_us, last_end_us; /* when timed */
	struct fleet_totals t;
};

struct fleet_report {
	struct fleet_group *groups; /* in the order of their first record */
	unsigned n;
	unsigned duplicates;   /* records identical to one before: counted once */
	char first_duplicate[FLEET_MSG];
	unsigned failed;       /* hosts whose run failed, over all groups */
	unsigned overlaps;     /* runs of one test on different hosts that overlap in time */
	char first_overlap[FLEET_MSG];
};

/* Groups s's records (and failed runs) by run_id + test and computes each
 * group, in time linear in the records.  A record identical to an earlier
 * one (same run, test, host, rank, start and figures; or the same failure)
 * is counted once and listed as a duplicate.  Returns 0; -1 with why when
 * params differ within a group (naming the key and two hosts' values), when
 * a host (and rank) has two different records in one run (naming both
 * places), or with errno ENOMEM. */
int fleet_report_build(const struct fleet_set *s, struct fleet_report *rep, char *why, size_t len);
void fleet_report_free(struct fleet_report *rep);

struct stats;
/* The group's hosts' lat_buckets added into s (initialised here): the
 * histogram the fleet percentiles are read from, for a picture of it. */
void fleet_merged_stats(const struct fleet_group *g, struct stats *s);
/* One record's lat_buckets added into s, and its min and max as bounds. */
void fleet_stats_add(struct stats *s, const struct fleet_record *r);

/* Names the first compared params key whose values differ between a and b,
 * with both values and hosts, in out; "" when none differs. */
void fleet_params_note(const struct fleet_record *a, const struct fleet_record *b,
		       char *out, size_t len);

/* ---- the baseline ---- */
enum fleet_figure { FIG_MBPS, FIG_IOPS, FIG_P50, FIG_P99, FIG_COUNT };

/* A figure regresses when it is worse by more than the threshold plus its
 * noise, which is how much two runs of the same disk differ: with
 * FLEET_REPEATS_TO_JUDGE or more baseline runs of a host, the range of
 * those runs (or what the series say, when wider); with fewer, the stated
 * floor of the figure (--noise-floor), or what the runs show when wider.
 * What the series say: FLEET_NOISE_SE standard errors of the old-to-new
 * difference, from the robust spread (median absolute deviation) of the
 * per-interval values (result.series, averaged in batches) in both runs,
 * plus how far odd intervals pulled each run's mean.  One run's intervals
 * understate how much two runs differ (a device's state, the page cache,
 * a throttle's phase change between runs, not within one), hence the floor. */
#define FLEET_NOISE_SE 3.0
#define FLEET_NOISE_MIN_SAMPLES 3 /* fewer batches of per-interval samples: spread unknown */
#define FLEET_REPEATS_TO_JUDGE 3  /* baseline runs whose range is the noise, no floor */

/* How a figure's difference is judged: --threshold, and --noise-floor per
 * figure in % (0: none, the measured noise alone). */
struct fleet_judge {
	double threshold_pct;
	double floor_pct[FIG_COUNT];
};

/* Which noise judged a figure: the floor, or the runs' own variation
 * (fewer runs than FLEET_REPEATS_TO_JUDGE, wider than the floor), or the
 * range of enough repeats. */
enum fleet_noise_from { NOISE_FLOOR, NOISE_MEASURED, NOISE_REPEATS };

struct fleet_change {
	const char *host;      /* a row's label, or FLEET_FLEET_ROW */
	enum fleet_figure figure;
	double old_value, new_value, change_pct; /* change_pct NAN when old is 0 */
	double noise_pct;      /* the figure's noise in % of the old value; NAN: unknown */
	enum fleet_noise_from noise_from;
	unsigned runs;         /* the baseline runs that had the figure */
	bool regressed;
};
const char *fleet_noise_from_name(enum fleet_noise_from n); /* "floor", "measured", "repeats" */

/* One NEW group against the OLD runs of the same test and params. */
struct fleet_pairing {
	const struct fleet_group *old, *new; /* either NULL: that side has no such run */
	const struct fleet_group **repeats;  /* the old runs compared (old is the first) */
	unsigned nrepeats;
	struct fleet_change *changes;
	unsigned n;
	const char **only_old, **only_new; /* hosts on one side only */
	unsigned n_only_old, n_only_new;
	unsigned n_common;     /* hosts on both sides: the fleet row sums these only */
};

struct fleet_baseline {
	double threshold_pct;
	struct fleet_judge judge;
	struct fleet_pairing *pairs;
	unsigned n;
	unsigned nregressed, nchanges;
};

/* Compares each group of cur with the groups of old of the same test and
 * params (several: repeated runs, their mean and range used), per host of
 * the same label and for the fleet over the hosts on both sides.  Returns
 * 0; -1 with why when old's runs of a test all differ from cur's in params
 * (naming the difference: like is compared with like only), when no figure
 * at all could be compared (saying why), or with errno ENOMEM. */
int fleet_compare(const struct fleet_report *old, const struct fleet_report *cur,
		  const struct fleet_judge *judge, struct fleet_baseline *out, char *why, size_t len);
void fleet_baseline_free(struct fleet_baseline *b);
/* Whether any host's run in rep succeeded (has figures). */
bool fleet_report_ran(const struct fleet_report *rep);
/* "MB/s", "IOPS", "p50", "p99"; and the machine key: "bytes_per_sec", ...
 * (the values are in the key's unit: bytes/s, I/Os per second, ns) */
const char *fleet_figure_label(enum fleet_figure f);
const char *fleet_figure_key(enum fleet_figure f);

#endif
