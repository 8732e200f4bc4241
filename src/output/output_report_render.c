/* report's renderers as one table: text, JSON and CSV from output_report.c,
 * the picture from output_svg_report.c (which prints the text's headline as
 * its title, so the table cannot live beside either without a circle). */
#include "output_svg.h"
#include "render.h"
#include "report.h"

const struct renderers render_report = { report_text, report_json, report_csv, out_svg_report };
