/* `diskbench report`'s own figures, handed from its command (src/cmd_report.c)
 * to its renderers (src/output_report.c) in result.detail. */
#ifndef REPORT_H
#define REPORT_H

#include <stdbool.h>

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

#endif
