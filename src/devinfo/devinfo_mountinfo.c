/* /proc/self/mountinfo's lines: a pure parser of one line (fuzzed on its
 * own), apart from the search that reads the file (devinfo_mount.c).
 * proc(5) gives the format:
 *   36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 *   (1)(2) (3)   (4)   (5)         (6)       (7)    (8) (9)    (10)      (11)
 * with zero or more optional fields (7) ended by the single "-" (8). */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MOUNTINFO_MAX_FIELDS 64

void mountinfo_unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

size_t mountinfo_prefix_len(const char *path, const char *point)
{
	size_t n = strlen(point);
	if (strcmp(point, "/") == 0)
		return path[0] == '/' ? 1 : 0;
	if (strncmp(path, point, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		return n;
	return 0;
}

int mountinfo_parse_line(char *line, struct mountinfo_entry *e)
{
	char *field[MOUNTINFO_MAX_FIELDS], *save = NULL;
	int n = 0;
	for (char *t = strtok_r(line, " \n", &save); t && n < MOUNTINFO_MAX_FIELDS;
	     t = strtok_r(NULL, " \n", &save))
		field[n++] = t;
	int dash = -1;
	for (int i = 6; i < n && dash < 0; i++)
		if (strcmp(field[i], "-") == 0)
			dash = i;
	if (dash < 0 || dash + 2 >= n)
		return -1;
	mountinfo_unescape(field[3]);
	mountinfo_unescape(field[4]);
	mountinfo_unescape(field[dash + 2]);
	e->majmin = field[2];
	e->root = field[3];
	e->mount_point = field[4];
	e->mount_opts = field[5];
	e->fs_type = field[dash + 1];
	e->source = field[dash + 2];
	e->super_opts = dash + 3 < n ? field[dash + 3] : "";
	return 0;
}

const char *mountinfo_next_source(const char *p, char *out, size_t len)
{
	size_t n = strcspn(p, ":");
	size_t k = n < len ? n : len - 1;
	memcpy(out, p, k);
	out[k] = '\0';
	return p[n] == ':' ? p + n + 1 : NULL;
}
