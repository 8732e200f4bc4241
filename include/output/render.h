/* How a command's result is printed: the renderers a command's row points
 * at (src/cmd/cmd.c) and each command's own set (src/output/output_*.c).
 * The output room owns this interface so that no renderer needs the command
 * table. */
#ifndef RENDER_H
#define RENDER_H

#include <stdbool.h>
#include <stdio.h>

struct json;
struct result;

/* How a command's result is printed.  A NULL member falls back to the
 * single-test renderer of output.h.  text runs only after a success; json
 * writes the keys between "target" and "warnings"; csv writes a header and
 * its rows. */
struct renderers {
	void (*text)(FILE *f, const struct result *r, bool quiet, bool histogram);
	void (*json)(struct json *j, const struct result *r);
	void (*csv)(FILE *f, const struct result *r);
	void (*svg)(FILE *f, const struct result *r); /* --svg: the whole document */
	/* --jsonl: the command's lines (quick: one per step); NULL: one line,
	 * the json document's keys after the fleet keys */
	void (*jsonl)(FILE *f, const struct result *r);
};

/* Each command's renderers (src/output/output_*.c). */
extern const struct renderers render_info, render_quick, render_sweep;
extern const struct renderers render_report;
extern const struct renderers render_matrix;
extern const struct renderers render_files;
extern const struct renderers render_steady;
extern const struct renderers render_sla;
extern const struct renderers render_capacity;
extern const struct renderers render_verify;
extern const struct renderers render_job, render_fit;

#endif
