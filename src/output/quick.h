/* quick: the whole check in one command — info, then sequential and random
 * reads (and, on diskbench's own file, O_DSYNC writes) — and a verdict on
 * what class of device the figures look like. */
#ifndef QUICK_H
#define QUICK_H

#include "classify.h"
#include "diskbench.h"

struct run_record;

#define QUICK_MAX_STEPS 8

struct quick_report {
	struct result steps[QUICK_MAX_STEPS];
	struct options opts[QUICK_MAX_STEPS];
	struct run_record *records; /* QUICK_MAX_STEPS: what each step's run observed */
	const char *labels[QUICK_MAX_STEPS];      /* "SEQ1M Q8T1 read" */
	char names[QUICK_MAX_STEPS][24];          /* "SEQ1M Q8T1", as CrystalDiskMark names it */
	char label_text[QUICK_MAX_STEPS][32];
	const char *engine;       /* resolved once for every step */
	unsigned max_qd;          /* what that engine holds per thread */
	unsigned nsteps;
	uint64_t span;            /* bytes of the file the steps range over */
	double measure_s;         /* the -t budget split over the steps */
	double layout_s;          /* time spent laying out the file (untimed) */
	struct quick_figures figures;
	struct verdict verdict;
	char line[512];           /* "looks like: …" */
};

#endif
