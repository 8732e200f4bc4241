/* libFuzzer target: the pure mountinfo parser (devinfo_mount.c) on its own.
 * The bytes before the first NUL are taken as mountinfo text: each line is
 * parsed in a buffer of exactly its length, and what was parsed must lie in
 * that line, with no field blank and no separator left in the fields that
 * are not unescaped.  The same bytes, and those after the NUL, then serve as a
 * mount point and a source that are escaped as the kernel escapes them (space,
 * tab, newline, backslash as \ooo) into a line that must parse back to them;
 * the source is also split at ':' (bcachefs "/dev/a:/dev/b") and the point
 * tried as a prefix of it. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devinfo.h"

#define PROMISE(cond) ((cond) ? (void)0 : abort())

static bool within(const char *s, const char *buf, size_t len)
{
	return s >= buf && s + strlen(s) <= buf + len;
}

static void check_line(const char *text, size_t len)
{
	char *line = malloc(len + 1);
	PROMISE(line != NULL);
	memcpy(line, text, len);
	line[len] = '\0';
	struct mountinfo_entry e;
	if (mountinfo_parse_line(line, &e) == 0) {
		const char *fields[] = { e.majmin, e.root, e.mount_point, e.mount_opts, e.fs_type, e.source };
		for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
			PROMISE(fields[i] && within(fields[i], line, len));
		PROMISE(e.super_opts && (e.super_opts[0] == '\0' || within(e.super_opts, line, len)));
		/* tokens: unescaping may bring a space back, nothing else may hold one */
		PROMISE(e.majmin[0] && !strpbrk(e.majmin, " \n"));
		PROMISE(e.fs_type[0] && !strpbrk(e.fs_type, " \n"));
		PROMISE(!strpbrk(e.mount_opts, " \n") && !strpbrk(e.super_opts, " \n"));
	}
	free(line);
}

/* s with the kernel's escapes (fs/proc_namespace.c mangle: " \t\n\\"). */
static char *escape(const char *s)
{
	char *out = malloc(strlen(s) * 4 + 1), *w = out;
	PROMISE(out != NULL);
	for (; *s; s++) {
		if (strchr(" \t\n\\", *s))
			w += sprintf(w, "\\%03o", (unsigned char)*s);
		else
			*w++ = *s;
	}
	*w = '\0';
	return out;
}

static void check_round_trip(const char *point, const char *source)
{
	if (!point[0] || !source[0])
		return; /* the kernel writes neither empty */
	char *p = escape(point), *s = escape(source);
	size_t len = strlen(p) + strlen(s) + 64;
	char *line = malloc(len);
	PROMISE(line != NULL);
	snprintf(line, len, "36 35 98:0 / %s rw,noatime shared:1 - ext4 %s rw\n", p, s);
	struct mountinfo_entry e;
	PROMISE(mountinfo_parse_line(line, &e) == 0);
	PROMISE(strcmp(e.mount_point, point) == 0 && strcmp(e.source, source) == 0);
	PROMISE(strcmp(e.majmin, "98:0") == 0 && strcmp(e.fs_type, "ext4") == 0);
	PROMISE(strcmp(e.super_opts, "rw") == 0);
	free(line);
	free(p);
	free(s);
}

static void check_sources(const char *source)
{
	char dev[64];
	size_t pieces = 0, total = 0;
	for (const char *p = source; p; pieces++) {
		p = mountinfo_next_source(p, dev, sizeof(dev));
		PROMISE(strlen(dev) < sizeof(dev) && !strchr(dev, ':'));
		total += strlen(dev);
	}
	PROMISE(pieces >= 1 && pieces <= strlen(source) + 1 && total <= strlen(source));
}

static void check_prefix(const char *path, const char *point)
{
	size_t n = mountinfo_prefix_len(path, point);
	if (n == 0)
		return;
	PROMISE(n <= strlen(point) && n <= strlen(path));
	if (strcmp(point, "/") == 0)
		PROMISE(n == 1 && path[0] == '/');
	else
		PROMISE(n == strlen(point) && strncmp(path, point, n) == 0 &&
			(path[n] == '/' || path[n] == '\0'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	size_t len = strnlen(text, size);
	for (size_t start = 0; start < len;) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) + 1 : len; /* with its newline */
		check_line(text + start, end - start);
		start = end;
	}
	char *a = strndup(text, len);
	char *b = len < size ? strndup(text + len + 1, size - len - 1) : strdup("");
	PROMISE(a && b);
	check_round_trip(a, b);
	check_sources(b);
	check_prefix(b, a);
	free(a);
	free(b);
	return 0;
}
