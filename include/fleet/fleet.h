/* Fleet runs: what one host's record carries so that records from many
 * hosts (started by pdsh, clush, Ansible, srun or a Kubernetes Indexed Job)
 * can be grouped and merged by `diskbench report`, and the shared start
 * instant of --start-at.  The parsers, the formatter and the run id choice
 * are pure; fleet_identify reads uname, the environment and the kernel's
 * clock state, and fleet_wait sleeps on CLOCK_REALTIME.  Never prints.
 *
 * Times are int64 nanoseconds since the epoch on CLOCK_REALTIME: they label
 * records and line up starts across hosts; durations stay on clock.h's
 * CLOCK_MONOTONIC. */
#ifndef FLEET_H
#define FLEET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FLEET_HOST_LEN 256
#define FLEET_RUN_ID_LEN 128
#define FLEET_LAUNCHER_VARS 6
/* --start-at waits at most this long: further ahead is taken for a typo. */
#define FLEET_MAX_AHEAD_S 86400
/* The environment variable that names the run when --run-id is not given
 * (the Kubernetes manifest sets it from the Job's uid). */
#define FLEET_RUN_ID_ENV "DISKBENCH_RUN_ID"

/* The launcher variables a record names when present, in this order:
 * SLURM_JOB_ID, SLURM_PROCID, SLURMD_NODENAME, JOB_COMPLETION_INDEX,
 * OMPI_COMM_WORLD_RANK, PMI_RANK. */
extern const char *const fleet_launcher_names[FLEET_LAUNCHER_VARS];

/* getenv, or a fake environment in tests. */
typedef const char *(*fleet_getenv_fn)(const char *name);

struct fleet_var {
	const char *name, *value;
};

/* One process's fleet identity and times: filled by fleet_identify at
 * start, by fleet_wait and runner.c around the timed loop. */
struct fleet_record {
	char host[FLEET_HOST_LEN];        /* --host-label, else uname's nodename */
	char run_id[FLEET_RUN_ID_LEN];
	const char *run_id_source;        /* "option", "env", "slurm", "start-at", "random" */
	struct fleet_var launcher[FLEET_LAUNCHER_VARS];
	unsigned nlauncher;
	int clock_synced;                 /* 1 yes, 0 no, -1 unknown (adjtimex failed) */
	int64_t clock_maxerror_us;        /* -1: unknown */
	bool start_wanted;                /* --start-at given */
	int64_t start_at_ns;              /* its instant */
	bool start_waited;                /* the wait ended at the instant (before the first
					   * timed loop only) */
	bool start_passed;                /* the instant had passed when the run was ready */
	int64_t late_us;                  /* how long after the instant the wait ended */
	bool timed;                       /* a timed loop ran: the two times below hold */
	int64_t started_at_ns, ended_at_ns; /* the first loop's start, the last one's end */
};

/* What the command line asked for (struct options' fleet fields). */
struct fleet_ask {
	const char *host_label, *run_id; /* NULL: not given */
	bool start_wanted;
	int64_t start_at_ns;
};

/* --start-at's value: epoch seconds, decimals allowed ("1764504000.25");
 * ISO-8601 UTC ("2026-11-30T12:00:00Z", utctime.h); or "+N": the first
 * multiple of N seconds since the epoch at least N seconds after now_ns, so
 * that hosts launched within the same N-second slot agree on the instant.
 * At most FLEET_MAX_AHEAD_S ahead of now_ns.  0, or -1 with *why (a phrase
 * to follow the value). */
int fleet_parse_start_at(const char *text, int64_t now_ns, int64_t *at_ns, const char **why);

/* The run id, first found: --run-id (given), $DISKBENCH_RUN_ID, Slurm's
 * job id with its step ("slurm-42.0"), --start-at's instant ("at-1764504000",
 * the same on every host of one launch), else 16 hex digits of rnd.
 * Returns the source's name. */
const char *fleet_choose_run_id(char *buf, size_t len, const char *given, fleet_getenv_fn get,
				bool start_wanted, int64_t start_at_ns, const unsigned char rnd[8]);
/* The launcher variables present in get's environment, into f. */
void fleet_read_launcher(struct fleet_record *f, fleet_getenv_fn get);

/* CLOCK_REALTIME now, in nanoseconds since the epoch. */
int64_t fleet_now_ns(void);
/* Fills f for this process: host, run id, launcher, the clock's state. */
void fleet_identify(struct fleet_record *f, const struct fleet_ask *ask);
/* Waits, on CLOCK_REALTIME with absolute deadlines, until f->start_at_ns or
 * *stop; returns at once when the instant has passed (f->start_passed).
 * -1 when *stop ended the wait (a signal); else 0 with f->start_waited set
 * and f->late_us measured after the wait. */
int fleet_wait(struct fleet_record *f, volatile sig_atomic_t *stop);

/* A command of several timed steps (quick) gives each step a record of its
 * own, so that each step's --jsonl line has its own started_at and ended_at:
 * fleet_step_begin copies the run's record into step with no times yet;
 * fleet_step_end carries what the step did back into the run's record (the
 * --start-at wait, done once, and the span from the first start to the
 * last end). */
void fleet_step_begin(struct fleet_record *step, const struct fleet_record *run);
void fleet_step_end(struct fleet_record *run, const struct fleet_record *step);

#endif
