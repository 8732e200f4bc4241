#define _POSIX_C_SOURCE 200809L
#include "names.h"

#include <fcntl.h>
#include <string.h>

static const char *const sync_names[] = { [SYNC_DSYNC] = "dsync", [SYNC_FSYNC] = "fsync",
					  [SYNC_NONE] = "none", [SYNC_OSYNC] = "osync" };
static const char *const drop_names[] = { [DROP_FILE] = "file", [DROP_ALL] = "all",
					  [DROP_NONE] = "none" };
static const char *const run_names[] = { [RUN_SIMPLE] = "simple", [RUN_OLTP] = "oltp",
					 [RUN_DSS] = "dss" };
static const char *const buffer_names[] = { [BUF_HUGE] = "huge", [BUF_PAGES] = "pages" };
static const char *const reap_names[] = { [REAP_RING] = "ring", [REAP_SYSCALL] = "syscall" };
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int lookup(const char *const *names, unsigned n, const char *text)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(text, names[i]) == 0)
			return (int)i;
	return -1;
}

const char *sync_mode_name(enum sync_mode m)
{
	return (unsigned)m < COUNT(sync_names) ? sync_names[m] : NULL;
}

int sync_open_flag(enum sync_mode m)
{
	return m == SYNC_DSYNC ? O_DSYNC : m == SYNC_OSYNC ? O_SYNC : 0;
}

const char *drop_mode_name(enum drop_mode m)
{
	return (unsigned)m < COUNT(drop_names) ? drop_names[m] : NULL;
}

const char *sweep_run_name(enum sweep_run m)
{
	return (unsigned)m < COUNT(run_names) ? run_names[m] : NULL;
}

int sync_mode_parse(const char *text, enum sync_mode *out)
{
	int k = lookup(sync_names, COUNT(sync_names), text);
	if (k >= 0)
		*out = (enum sync_mode)k;
	return k >= 0 ? 0 : -1;
}

int drop_mode_parse(const char *text, enum drop_mode *out)
{
	int k = lookup(drop_names, COUNT(drop_names), text);
	if (k >= 0)
		*out = (enum drop_mode)k;
	return k >= 0 ? 0 : -1;
}

int sweep_run_parse(const char *text, enum sweep_run *out)
{
	int k = lookup(run_names, COUNT(run_names), text);
	if (k >= 0)
		*out = (enum sweep_run)k;
	return k >= 0 ? 0 : -1;
}

const char *buffer_mode_name(enum buffer_mode m)
{
	return (unsigned)m < COUNT(buffer_names) ? buffer_names[m] : NULL;
}

const char *reap_mode_name(enum reap_mode m)
{
	return (unsigned)m < COUNT(reap_names) ? reap_names[m] : NULL;
}

int reap_mode_parse(const char *text, enum reap_mode *out)
{
	int k = lookup(reap_names, COUNT(reap_names), text);
	if (k >= 0)
		*out = (enum reap_mode)k;
	return k >= 0 ? 0 : -1;
}

int buffer_mode_parse(const char *text, enum buffer_mode *out)
{
	int k = lookup(buffer_names, COUNT(buffer_names), text);
	if (k >= 0)
		*out = (enum buffer_mode)k;
	return k >= 0 ? 0 : -1;
}
