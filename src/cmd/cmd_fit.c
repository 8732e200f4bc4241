/* fit PROFILE|FILE [TARGET] (issue 41): a profile's jobs run as `job` runs
 * them, then its requirements judged on their results (fit.h): exit 0 when
 * every requirement holds, 6 when one is missed.  A profile is a fio job
 * file: PROFILE is a path, else a name looked up in profiles/ beside the
 * binary (the source tree), in ../share/diskbench/profiles beside it (an
 * install under any PREFIX), then in /usr/share/diskbench/profiles; an
 * alias ("# diskbench-alias: slog") answers too.  fit --list lists them. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "fit.h"
#include "job_run.h"
#include "platform.h"
#include "util.h"

#define SYSTEM_PROFILES "/usr/share/diskbench/profiles"
#define NDIRS 3

/* Where profiles are looked for, in order; dirs[k][0] == '\0': none. */
static void profile_dirs(char dirs[NDIRS][4096])
{
	char exe[4000];
	memset(dirs, 0, NDIRS * sizeof(dirs[0]));
	if (plat_exe_dir(exe, sizeof(exe)) == 0) {
		snprintf(dirs[0], sizeof(dirs[0]), "%s/profiles", exe);
		snprintf(dirs[1], sizeof(dirs[1]), "%s/../share/diskbench/profiles", exe);
	}
	snprintf(dirs[2], sizeof(dirs[2]), "%s", SYSTEM_PROFILES);
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The directives of the profile at path (about, aliases), or false. */
static bool read_spec(const char *path, struct jobfile *jf, struct fit_spec *spec)
{
	struct result *scratch = calloc(1, sizeof(*scratch)); /* a reading's error goes nowhere */
	char why[MSG_LEN];
	bool ok = scratch && job_load(path, jf, scratch) == EXIT_OK &&
		  fit_spec_read(jf, spec, why, sizeof(why)) == 0;
	free(scratch);
	return ok;
}

/* The *.fio files of dir, sorted, into names (n at most max). */
static unsigned profile_names(const char *dir, char names[][JOB_NAME_LEN], unsigned max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;
	while (d && n < max && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len > 4 && len - 4 < JOB_NAME_LEN && strcmp(e->d_name + len - 4, ".fio") == 0)
			snprintf(names[n++], JOB_NAME_LEN, "%.*s", (int)(len - 4), e->d_name);
	}
	if (d)
		closedir(d);
	qsort(names, n, JOB_NAME_LEN, (int (*)(const void *, const void *))strcmp);
	return n;
}

/* name's profile in dir: NAME.fio, or the one with that alias. */
static bool find_in(const char *dir, const char *name, struct jobfile *jf, struct fit_spec *spec,
		    char *path, size_t len)
{
	char names[FIT_MAX_PROFILES][JOB_NAME_LEN];
	if ((size_t)snprintf(path, len, "%.4000s/%.200s.fio", dir, name) < len && is_file(path))
		return true;
	unsigned n = profile_names(dir, names, FIT_MAX_PROFILES);
	for (unsigned i = 0; i < n; i++) {
		snprintf(path, len, "%.4000s/%.63s.fio", dir, names[i]);
		if (!read_spec(path, jf, spec))
			continue;
		for (unsigned k = 0; k < spec->naliases; k++)
			if (strcmp(spec->alias[k], name) == 0)
				return true;
	}
	return false;
}

static int locate(const char *name, struct fit_report *fit, struct result *r)
{
	char dirs[NDIRS][4096];
	struct jobfile *jf = malloc(sizeof(*jf));
	int code = EXIT_USAGE;
	if (!jf)
		return fail(r, EXIT_RUN, "cannot allocate a profile's jobs:");
	bool path = strchr(name, '/') || is_file(name);
	snprintf(fit->file, sizeof(fit->file), "%s", name);
	profile_dirs(dirs);
	for (unsigned k = 0; !path && k < NDIRS && code != EXIT_OK; k++)
		if (dirs[k][0] && find_in(dirs[k], name, jf, &fit->spec, fit->file, sizeof(fit->file)))
			code = EXIT_OK;
	free(jf);
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	snprintf(fit->profile, sizeof(fit->profile), "%.*s", (int)strcspn(base, "."), base);
	if (path || code == EXIT_OK)
		return EXIT_OK;
	return fail(r, EXIT_USAGE, "no profile '%s': not a file, nor a profile in %s or %s "
		    "(diskbench fit --list lists them)", name, dirs[0][0] ? dirs[0] : "profiles/",
		    SYSTEM_PROFILES);
}

/* fit --list: the profiles of the first directory that holds any. */
static int list(struct job_report *rep, struct result *r)
{
	char dirs[NDIRS][4096], names[FIT_MAX_PROFILES][JOB_NAME_LEN], path[8192];
	struct fit_listing *l = result_keep(r, sizeof(*l), NULL);
	struct jobfile *jf = malloc(sizeof(*jf));
	struct fit_spec *spec = malloc(sizeof(*spec));
	if (!l || !jf || !spec) {
		free(jf);
		free(spec);
		return fail(r, EXIT_RUN, "cannot allocate the list of profiles:");
	}
	rep->listing = l;
	profile_dirs(dirs);
	for (unsigned k = 0; k < NDIRS && l->n == 0; k++) {
		unsigned n = dirs[k][0] ? profile_names(dirs[k], names, FIT_MAX_PROFILES) : 0;
		snprintf(l->dir, sizeof(l->dir), "%.4000s", dirs[k]);
		for (unsigned i = 0; i < n; i++) {
			struct fit_profile *p = &l->p[l->n++];
			snprintf(p->name, sizeof(p->name), "%.63s", names[i]);
			snprintf(path, sizeof(path), "%.4000s/%.63s.fio", dirs[k], names[i]);
			if (!read_spec(path, jf, spec)) {
				snprintf(p->about, sizeof(p->about), "(not a valid profile: fit %.200s says "
					 "why)", path);
				continue;
			}
			snprintf(p->about, sizeof(p->about), "%s", spec->about);
			for (unsigned a = 0; a < spec->naliases; a++)
				snprintf(p->aliases + strlen(p->aliases),
					 sizeof(p->aliases) - strlen(p->aliases), "%s%s", a ? ", " : "",
					 spec->alias[a]);
		}
	}
	free(jf);
	free(spec);
	r->measured = true;
	if (l->n == 0)
		return fail(r, EXIT_RUN, "no profiles in %s or %s", dirs[0][0] ? dirs[0] : "profiles/",
			    SYSTEM_PROFILES);
	return EXIT_OK;
}

/* fit's part of reading the file: its directives, and each job's op size. */
static int read_profile(const struct jobfile *jf, struct job_report *rep, struct result *r)
{
	char why[MSG_LEN];
	if (fit_spec_read(jf, &rep->fit->spec, why, sizeof(why)) != 0)
		return fail(r, EXIT_USAGE, "%s", why);
	for (unsigned i = 0; i < rep->njobs; i++)
		rep->steps[i].writes_per_op = rep->fit->spec.writes_per_op[i];
	return EXIT_OK;
}

int cmd_run_fit(const struct command *cmd, const struct options *opt, struct result *r)
{
	(void)cmd;
	struct job_report *rep = result_keep(r, sizeof(*rep), job_report_release);
	if (!rep)
		return fail(r, EXIT_RUN, "cannot allocate the profile's figures:");
	r->detail = rep;
	if (opt->list)
		return list(rep, r);
	rep->fit = result_keep(r, sizeof(*rep->fit), NULL);
	if (!rep->fit)
		return fail(r, EXIT_RUN, "cannot allocate the profile's figures:");
	int code = locate(opt->job_file, rep->fit, r);
	if (code == EXIT_OK)
		code = job_read_and_run(rep->fit->file, opt, rep, read_profile, r);
	if (code != EXIT_OK && code != EXIT_BAD_DATA) /* a profile's verify=: judged, 7 wins */
		return code;
	const struct result *results[JOBFILE_MAX_JOBS];
	const char *names[JOBFILE_MAX_JOBS];
	for (unsigned i = 0; i < rep->njobs; i++) {
		results[i] = &rep->steps[i].r;
		names[i] = rep->steps[i].name;
	}
	fit_judge(rep->fit, results, names, rep->njobs);
	if (code == EXIT_BAD_DATA)
		return code;
	return rep->fit->pass ? EXIT_OK : fail(r, EXIT_UNMET, "%s", rep->fit->verdict);
}
