/* `diskbench report`'s own figures, handed from its command (src/cmd/cmd_report.c)
 * to its renderers (src/output/output_report.c) in result.detail. */
#ifndef REPORT_H
#define REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "fleetreport.h"

struct report_detail {
	unsigned files;               /* inputs read, stdin included */
	struct fleet_set set;         /* the records read */
	struct fleet_report rep;      /* their groups: complete when built */
	bool built;
	const char *baseline;         /* --baseline OLD, or NULL */
	struct fleet_set old_set;
	struct fleet_report old_rep;
	struct fleet_baseline base;   /* complete when compared */
	bool compared;
};

struct json;
struct result;

/* report's renderers (output_report.c), gathered with its picture
 * (output_svg_report.c) into render_report by output_report_render.c, so
 * that the picture can print the text's headline without a circle. */
void report_text(FILE *f, const struct result *r, bool quiet, bool histogram);
void report_json(struct json *j, const struct result *r);
void report_csv(FILE *f, const struct result *r);

#endif
