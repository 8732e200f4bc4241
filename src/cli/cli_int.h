/* What the cli room's files share, and nothing else includes: the option
 * table (cli_options.c) that the parser (cli.c), the help texts (cli_help.c)
 * and shell completion's view of it (cli_option_at) all read. */
#ifndef CLI_INT_H
#define CLI_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

enum opt_id {
	ID_BS, ID_SIZE, ID_TIME, ID_SYNC, ID_NODIRECT, ID_DROP, ID_NODROP, ID_ZEROS,
	ID_THREADS, ID_SEED, ID_HIST, ID_KEEP, ID_FORCE, ID_GROW, ID_WARMUP, ID_QD, ID_ENGINE,
	ID_RUN, ID_LEVELS, ID_LARGE_LEVELS, ID_LARGE_BS, ID_POINT_TIME, ID_BUDGET, ID_MAX_LATENCY,
	ID_WRITE,
	ID_INTERVAL, ID_SERIES, ID_SUSTAINED,
	ID_JSON, ID_CSV, ID_QUIET, ID_HELP, ID_VERSION,
	ID_BASELINE, ID_THRESHOLD, ID_NOISE_FLOOR, /* report */
	/* matrix (issue 15) */
	ID_BLOCK_SIZES, ID_FILE_SIZES, ID_OPS,
	ID_JSONL, ID_HOST_LABEL, ID_RUN_ID, ID_START_AT,
	ID_FILES, ID_FILE_SIZE, ID_DIR,
	ID_SVG,
	ID_BUFFERS, ID_BATCH, ID_ONCE, /* issue 19 */
	ID_REAP, ID_POLL, ID_SQPOLL, /* issue 32 */
	ID_ALLOW_MISSING, /* report (issue 21) */
	ID_ROUND, ID_MAX_ROUNDS, ID_WINDOW, ID_EXCURSION, ID_SLOPE, ID_METRIC, ID_PRECONDITION,
	ID_HOLD, /* steady (issue 29) */
	ID_RATE, ID_ARRIVALS, ID_LATENCY, ID_STEP_TIME, ID_CURVE, /* open loop, sla (issue 30) */
	ID_MIX, ID_MAX_OPEN_ZONES, /* issue 31 */
	ID_DESTRUCTIVE, ID_JOURNAL, /* capacity (issue 42) */
	ID_VERIFY, ID_WITNESS, /* issue 42 */
	ID_LIST, /* fit (issue 41) */
};

struct optdef {
	const char *name;
	char letter;
	const char *arg;  /* NULL: a flag */
	opt_bits bit;     /* OPT_* of a test option; 0 for global ones */
	enum opt_id id;
	const char *help;
};

/* The bit in options.given that says d was on the command line: its own
 * given bit where a sibling shares d->bit (--batch: OPT_BATCH, accepted
 * with OPT_QD), else d->bit (issue 44). */
opt_bits optdef_given(const struct optdef *d);

/* Every option, global and per test, in the order --help lists them. */
extern const struct optdef optdefs[];
extern const size_t optdef_count;

/* The row of --NAME (len bytes of name) or -LETTER; NULL if none. */
const struct optdef *find_long(const char *name, size_t len);
const struct optdef *find_short(char letter);
/* The option a mistyped long name (n bytes, without its "--") most likely
 * meant, into out: a value run into the name (--qd32: "--qd 32"), the one
 * option it begins (--histo), or the nearest name within 2 edits and under
 * half its length (--sice).  False: no guess. */
bool suggest_option(const char *name, size_t n, char *out, size_t len);
/* The test whose name is within two edits of name, or NULL. */
const char *suggest_test(const char *name);

/* An open loop without --qd keeps at most OPEN_LOOP_QD requests in flight a
 * thread and at most this many bytes of their buffers (cli_settle_open_loop;
 * the help of sla says it). */
#define OPEN_LOOP_BUFFER_BYTES (64ull << 20)

/* The message into why; returns EXIT_USAGE. */
int usage_error(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* cli_values.c: option values; 0, or -1 with the reason in *reason. */
/* A count option (threads, qd, warm-up I/Os) within [min, max]. */
int parse_count(const char *v, uint64_t min, uint64_t max, unsigned *out, const char **reason);
/* "10", "10%", "2.5%": a share from 0 to 1000 %. */
int parse_percent(const char *v, double *out, const char **reason);
/* report --noise-floor: "15" (every figure), or "rate=10,p99=80". */
int parse_noise_floor(const char *v, struct options *o, const char **reason);
/* --rate: I/Os a second (k, M), from 0.001 to 100M. */
int parse_rate(const char *v, double *out, const char **reason);
/* sla --latency LAT[,pNN]. */
int parse_latency_target(const char *v, struct sla_options *sla, const char **reason);
/* files --file-size: a SIZE up to 1 GiB, or 0. */
int parse_file_size(const char *v, uint64_t *out, const char **reason);

/* cli_check.c: what is checked once every option is read.  EXIT_OK or
 * EXIT_USAGE with the reason in why. */
int cli_check_limits(const struct options *o, char *why, size_t len);
int cli_check_svg_path(const struct options *o, char *why, size_t len);
int cli_check_open_loop(const struct options *o, char *why, size_t len);
/* cli_verify.c (issue 42): --verify[=backlog] and --witness FILE into o
 * (v NULL for a bare --verify), and what they cannot go with, checked once
 * every option is read.  EXIT_OK or EXIT_USAGE with the reason in why. */
int cli_apply_verify(struct options *o, enum opt_id id, const char *v, char *why, size_t len);
int cli_check_verify(const struct options *o, char *why, size_t len);
/* --poll and --sqpoll: io_uring's, and IOPOLL only for O_DIRECT reads and
 * writes in a closed loop.  EXIT_OK or a usage error in why. */
int cli_check_polling(const struct options *o, char *why, size_t len);
/* --rate (or sla) without --qd: the in-flight cap it gets. */
void cli_settle_open_loop(struct options *o);

#endif
