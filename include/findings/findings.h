/* What a measured run shows beyond its figures, said as warnings (words)
 * and findings (finding.h: a key and figures by name, for machines): a cliff, an
 * unsteady rate, a rate cap, a cgroup limit, heat, a CPU-bound thread, and
 * what the disks' own counters say.  Pure: each judgement reads only the
 * result and the view of its run (below) that the runner makes from the
 * run's record, never a file or a clock, so unit tests drive every one with
 * figures whose truth they set.  A findings room; sampling.c calls
 * findings_judge once the run's record is closed. */
#ifndef FINDINGS_H
#define FINDINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "detect.h"
#include "diskbench.h"
#include "finding.h"
#include "series.h"

/* A cgroup limit counts as the figure when the run reached this share of it. */
#define FINDINGS_LIMIT_REACHED 0.8
/* A worker thread busy on the CPU for this share of its run set the pace. */
#define FINDINGS_CPU_BOUND 0.90
/* A CPU-bound run at this share of diskbench's own ceiling (NOPs at its
 * depth and threads) may be the tool's limit: finding tool_bound */
#define FINDINGS_TOOL_SHARE 0.70

/* Runs that moved fewer bytes are not compared with the disks' counters
 * (metadata and other processes' I/O would swamp them). */
#define FINDINGS_DEVICE_MIN_BYTES (8u << 20)
/* A read test warns below this share reaching the disks; a write test
 * above this many times the bytes per disk, and below the write share
 * (a cache took the rest: buffered writes going round before one fsync). */
#define FINDINGS_DEVICE_READ_SHARE 0.5
#define FINDINGS_DEVICE_WRITE_TIMES 3.0
#define FINDINGS_DEVICE_WRITE_SHARE 0.5
/* The disks moved more than this many times the run's bytes (plus
 * FINDINGS_DEVICE_MIN_BYTES) on a read test: other processes' I/O.  On a
 * write test, reads beyond FINDINGS_DEVICE_READ_SHARE of its bytes are. */
#define FINDINGS_DEVICE_OTHER_TIMES 2.0

/* What a disk under the target did during the run, from its counters. */
struct findings_disk {
	const char *name;
	uint64_t read_bytes, write_bytes;
};

/* A cgroup limit in the run's direction on a device of the target's stack
 * (0: none of that kind). */
struct findings_limit {
	const char *majmin, *name; /* "7:0", and the stack's name for it or "" */
	uint64_t bytes_per_sec, iops;
	int version;               /* cgroup v1 or v2 */
};

/* What the run observed around itself, as the judgements need it. */
struct findings_view {
	const struct series *series;
	const struct temp_track *temps;
	unsigned ntemps;
	const struct findings_disk *disks; /* those whose counters were read */
	unsigned ndisks;
	const struct findings_limit *limits;
	unsigned nlimits;
};

/* Every judgement over r (figures, latencies, CPU share) and v; each one
 * that fires adds a warning and a finding to r. */
void findings_judge(const struct options *opt, const struct findings_view *v, struct result *r);

/* The bytes ndisks disks moved that are not the run's, 0 when nothing says
 * another process shared them.  A read test: what they read and wrote
 * beyond the run's bytes, once that is more than FINDINGS_DEVICE_OTHER_TIMES
 * the run's bytes plus FINDINGS_DEVICE_MIN_BYTES.  A write test: what they
 * read, once that is more than FINDINGS_DEVICE_READ_SHARE of the run's bytes
 * plus FINDINGS_DEVICE_MIN_BYTES (a write test reads next to nothing; the
 * writes beyond its own are amplification, device_wrote_more). */
uint64_t findings_other_io(uint64_t disk_read, uint64_t disk_written, unsigned ndisks,
			   uint64_t run_bytes, bool write);

/* verify_findings.c (issue 42): a verification's tally judged.  Bad
 * blocks are warnings with their first offsets and finding data_bad
 * (blocks, and the count of each kind); lost durable writes (stale,
 * unwritten or lost blocks of a run whose writes were acknowledged
 * durable) add finding writes_lost: no durable-write figure from that disk
 * stands.  True when a block is bad (exit 7). */
bool findings_judge_verify(const struct result_verify *v, struct result *r);

#endif
