#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void format_message(char *buf, size_t len, const char *fmt, va_list ap)
{
	int saved = errno;
	vsnprintf(buf, len, fmt, ap);
	size_t used = strlen(buf);
	if (used > 0 && buf[used - 1] == ':')
		snprintf(buf + used, len - used, " %s", strerror(saved));
}

int fail(struct result *r, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	format_message(r->error, sizeof(r->error), fmt, ap);
	va_end(ap);
	return code;
}

const char *opt_hint(const struct options *opt, opt_bits bit, const char *text)
{
	return opt && (opt->accepts & bit) ? text : "";
}

bool opt_moves_no_data(const struct options *opt)
{
	return opt && opt->engine && strcmp(opt->engine, "nop") == 0;
}

void warn(struct result *r, const char *fmt, ...)
{
	if (r->nwarnings >= MAX_WARNINGS)
		return;
	va_list ap;
	va_start(ap, fmt);
	format_message(r->warnings[r->nwarnings], MSG_LEN, fmt, ap);
	va_end(ap);
	for (unsigned i = 0; i < r->nwarnings; i++)
		if (strcmp(r->warnings[i], r->warnings[r->nwarnings]) == 0)
			return; /* said once is enough */
	r->nwarnings++;
}

void *result_keep(struct result *r, size_t size, void (*release)(void *p))
{
	void *p = r->nkept < RESULT_KEEP ? calloc(1, size) : NULL;
	if (!p) {
		errno = ENOMEM;
		return NULL;
	}
	r->kept[r->nkept++] = (struct result_kept){ p, release };
	return p;
}

void result_release(struct result *r)
{
	while (r->nkept > 0) {
		struct result_kept *k = &r->kept[--r->nkept];
		if (k->release)
			k->release(k->p);
		free(k->p);
	}
}

void result_release_part(void *part)
{
	result_release(part);
}
