/* The small readers and string helpers every devinfo room uses: the roots a
 * reader works under (struct ctx), one attribute read, paths joined within
 * PATH_MAX.  A leaf of the room: it uses none of the others. */
#define _GNU_SOURCE
#include "devinfo_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const struct devinfo_roots default_roots = {
	.sysfs = "/sys",
	.mountinfo = "/proc/self/mountinfo",
};

const struct devinfo_roots *devinfo_default_roots(void)
{
	return &default_roots;
}

void ctx_init(struct ctx *c, const struct devinfo_roots *roots)
{
	memset(c, 0, sizeof(*c));
	c->roots = roots ? roots : &default_roots;
	if (!realpath(c->roots->sysfs, c->sys))
		SCOPY(c->sys, c->roots->sysfs);
}

/* ---- small helpers ------------------------------------------------------ */

void scopy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

char *trim(char *s)
{
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	size_t i = 0;
	while (isspace((unsigned char)s[i]))
		i++;
	if (i > 0)
		memmove(s, s + i, n - i + 1);
	return s;
}

bool join(char *out, size_t len, const char *dir, const char *rel)
{
	int n = snprintf(out, len, "%s/%s", dir, rel);
	return n >= 0 && (size_t)n < len;
}

bool pathf(char out[PATH_MAX], const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out, PATH_MAX, fmt, ap);
	va_end(ap);
	return n >= 0 && n < PATH_MAX;
}

bool exists(const char *dir, const char *rel)
{
	char path[PATH_MAX];
	return join(path, sizeof(path), dir, rel) && access(path, F_OK) == 0;
}

bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int read_attr(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	buf[0] = '\0';
	if (!join(path, sizeof(path), dir, rel))
		return -1;
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *ok = fgets(buf, (int)len, f);
	fclose(f);
	if (!ok) {
		buf[0] = '\0';
		return -1;
	}
	buf[strcspn(buf, "\n")] = '\0';
	return trim(buf)[0] ? 0 : -1;
}

int read_i64(const char *dir, const char *rel, int64_t *out)
{
	char buf[64], *end;
	if (read_attr(dir, rel, buf, sizeof(buf)) != 0)
		return -1;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

int read_int(const char *dir, const char *rel)
{
	int64_t v;
	if (read_i64(dir, rel, &v) != 0 || v < 0 || v > INT_MAX)
		return -1;
	return (int)v;
}

int resolve(const char *dir, const char *rel, char *out)
{
	char path[PATH_MAX];
	if (!join(path, sizeof(path), dir, rel))
		return -1;
	return realpath(path, out) ? 0 : -1;
}

const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

void note_add(struct devinfo *d, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	size_t n = strlen(d->note);
	if (n > 0 && n + 2 < sizeof(d->note)) {
		strcat(d->note, "; ");
		n += 2;
	}
	scopy(d->note + n, sizeof(d->note) - n, msg);
}

int sysfs_dev_dir(const struct ctx *c, dev_t dev, char *dir)
{
	char link[PATH_MAX];
	if (!pathf(link, "%s/dev/block/%u:%u", c->sys, major(dev), minor(dev)))
		return -1;
	return realpath(link, dir) ? 0 : -1;
}
