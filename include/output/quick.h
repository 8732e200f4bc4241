/* quick: the whole check in one command — info, then sequential and random
 * reads (and, on diskbench's own file, O_DSYNC writes) — and a verdict on
 * what class of device the figures look like. */
#ifndef QUICK_H
#define QUICK_H

#include "classify.h"
#include "diskbench.h"

struct fleet_record;
struct run_record;

#define QUICK_MAX_STEPS 9
#define QUICK_DD_BS 8192 /* the dd step's block size: dd bs=8k oflag=dsync */

struct quick_report {
	struct result steps[QUICK_MAX_STEPS];
	struct options opts[QUICK_MAX_STEPS];
	struct run_record *records; /* QUICK_MAX_STEPS: what each step's run observed */
	struct fleet_record *fleets; /* QUICK_MAX_STEPS: each step's fleet record (its own
				      * times for --jsonl), or NULL when the run has none */
	const char *labels[QUICK_MAX_STEPS];      /* "SEQ1M Q8T1 read", "SEQ8K Q1T1 write (dd oflag=dsync)" */
	char names[QUICK_MAX_STEPS][24];          /* "SEQ1M Q8T1", as CrystalDiskMark names it */
	char label_text[QUICK_MAX_STEPS][40];
	const char *engine;       /* resolved once for every step */
	unsigned max_qd;          /* what that engine holds per thread */
	unsigned nsteps;
	int dd_step;              /* the step dd's figure compares with, -1 if it did not run */
	uint64_t span;            /* bytes of the file the steps range over */
	double measure_s;         /* the -t budget split over the steps */
	double layout_s;          /* time spent laying out the file (untimed) */
	bool laid_out;            /* quick wrote the file's span before the steps */
	uint64_t bytes_written;   /* the layout's and the write steps' (their warm-up
				   * included; not the flush check's few blocks) */
	struct quick_figures figures;
	struct verdict verdict;
	char line[512];           /* "looks like: …" */
};

#endif
