/* One CSV field, quoted as RFC 4180 says.  Its own file: every renderer in
 * the room writes fields, output_csv_row.c uses the renderers of
 * output_series.c, and those write fields too; with the field here, the
 * uses run one way. */
#include "output.h"

#include <string.h>

void out_csv_field(FILE *f, const char *s)
{
	if (!s)
		return;
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
