/* What a measured run shows beyond its figures, said as warnings (words)
 * and findings (a key and figures by name, for machines): a cliff, an
 * unsteady rate, a rate cap, a cgroup limit, heat, a CPU-bound thread, and
 * what the disks' own counters say.  Pure: each judgement reads only the
 * result and its run record (run_record.h), never a file or a clock, so unit
 * tests drive every one with figures whose truth they set.  A findings room;
 * the runner calls findings_judge once the run's record is closed. */
#ifndef FINDINGS_H
#define FINDINGS_H

#include "diskbench.h"

/* A cgroup limit counts as the figure when the run reached this share of it. */
#define FINDINGS_LIMIT_REACHED 0.8
/* A worker thread busy on the CPU for this share of its run set the pace. */
#define FINDINGS_CPU_BOUND 0.90

/* Runs that moved fewer bytes are not compared with the disks' counters
 * (metadata and other processes' I/O would swamp them). */
#define FINDINGS_DEVICE_MIN_BYTES (8u << 20)
/* A read test warns below this share reaching the disks; a write test
 * above this many times the bytes per disk. */
#define FINDINGS_DEVICE_READ_SHARE 0.5
#define FINDINGS_DEVICE_WRITE_TIMES 3.0
/* The disks moved more than this many times the run's bytes (plus
 * FINDINGS_DEVICE_MIN_BYTES) on a read test: other processes' I/O. */
#define FINDINGS_DEVICE_OTHER_TIMES 2.0

/* Every judgement over r and r->record (series, counters, temperatures,
 * limits); each one that fires adds a warning and a finding to r.  Needs a
 * record that was opened and closed; says nothing without one. */
void findings_judge(const struct options *opt, struct result *r);

/* The bytes the disks under the run moved beyond what the run itself did
 * (0 when they moved no more than FINDINGS_DEVICE_OTHER_TIMES its bytes,
 * or the counters were not read). */
uint64_t findings_other_io(const struct result *r);

/* A finding with key in r (NULL when r holds MAX_FINDINGS already), and a
 * figure added to it. */
struct finding *finding_add(struct result *r, const char *key);
void finding_figure(struct finding *f, const char *name, double value, int decimals);
/* The figure called name in f, or fallback when f has none. */
double finding_value(const struct finding *f, const char *name, double fallback);
/* The finding called key in r, or NULL. */
const struct finding *finding_find(const struct result *r, const char *key);

#endif
