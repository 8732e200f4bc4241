#define _POSIX_C_SOURCE 200809L
#include "engine.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Best first: the order auto tries them in (sync always runs, so auto never
 * reaches nop, which moves no data). */
static const struct engine_ops *const engines[] = { &engine_uring, &engine_aio, &engine_sync,
						    &engine_nop };
#define NENGINES (sizeof(engines) / sizeof(engines[0]))

const struct engine_ops *engine_parse_name(const char *name)
{
	for (size_t i = 0; i < NENGINES; i++)
		if (strcmp(name, engines[i]->name) == 0 || strcmp(name, engines[i]->label) == 0)
			return engines[i];
	return NULL;
}

const char *engine_name_at(size_t i)
{
	return i < NENGINES ? engines[i]->name : NULL;
}

int engine_pick(const char *want, const struct engine_ops **ops, char *note, size_t note_len)
{
	char why[256];
	size_t used = 0;
	note[0] = '\0';
	*ops = NULL;
	if (strcmp(want, "auto") != 0) {
		const struct engine_ops *e = engine_parse_name(want);
		if (!e) {
			snprintf(note, note_len, "unknown engine '%s' (auto, uring, aio, sync or nop)",
				 want);
			errno = EINVAL;
			return -1;
		}
		if (e->probe(note, note_len) != 0)
			return -1;
		*ops = e;
		return 0;
	}
	for (size_t i = 0; i < NENGINES; i++) {
		int saved;
		if (engines[i]->probe(why, sizeof(why)) == 0) {
			*ops = engines[i];
			if (used > 0)
				snprintf(note + used, note_len - used, "using %s", engines[i]->name);
			return 0;
		}
		saved = errno;
		int n = snprintf(note + used, note_len - used, "%s; ", why);
		if (n > 0)
			used = used + (size_t)n < note_len ? used + (size_t)n : note_len - 1;
		errno = saved;
	}
	return -1; /* not reached: sync always runs */
}
