/* A temporary directory standing in for /sys, /proc or a cgroup mount in a
 * unit test: made by setup, filled by relative path (parents created),
 * removed by teardown, also when a test fails.  Header-only: each test
 * program is one file. */
#ifndef FAKE_ROOT_H
#define FAKE_ROOT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char root[64];

/* Creates /tmp/diskbench-NAME.XXXXXX as root; 0 or -1. */
static int fake_root_make(const char *name)
{
	snprintf(root, sizeof(root), "/tmp/diskbench-%s.XXXXXX", name);
	return mkdtemp(root) ? 0 : -1;
}

/* Writes text to root/rel, creating the directories on the way. */
static void put(const char *rel, const char *text)
{
	char path[512];
	int n = snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_true(n > 0 && (size_t)n < sizeof(path));
	for (char *slash = path + strlen(root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int fake_root_remove(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
