/* libFuzzer target: the fio job-file reader (src/lib/jobfile.c and its
 * keys), then fit's reading of the directives (src/lib/fitspec.c).  The input is the file's text (up to its first NUL, copied into a
 * buffer of exactly that length, so that ASan sees a read past the end);
 * `include` of any name reads the same text again (so includes nest until
 * the depth limit), ${A} is set and every other name is not.  An accepted
 * file must hold what the parser promises (jobs with names, block sizes,
 * depths and shares in range, directives inside the table); a refused one
 * a reason that names a file and a line. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fitspec.h"
#include "jobfile.h"

#define PROMISE(cond) ((cond) ? (void)0 : abort())

static const char *const directives[] = { "about", "alias", "require", "report", "source",
					  "op", "rank", NULL };

static char *again(void *ctx, const char *from, const char *name, char *why, size_t len)
{
	(void)from;
	(void)name;
	(void)why;
	(void)len;
	const char *text = ctx;
	char *copy = malloc(strlen(text) + 1);
	return copy ? strcpy(copy, text) : NULL;
}

static const char *env(void *ctx, const char *name)
{
	(void)ctx;
	return strcmp(name, "A") == 0 ? "4k" : NULL;
}

static void check_job(const struct jobfile_job *j)
{
	const struct jobfile_params *p = &j->p;
	PROMISE(j->name[0] && memchr(j->name, '\0', sizeof(j->name)));
	PROMISE(p->bs >= 1 && p->bs <= (1ull << 30));
	PROMISE(p->iodepth >= 1 && p->iodepth <= 4096);
	PROMISE(p->numjobs >= 1 && p->numjobs <= 1024);
	PROMISE(p->rwmixread <= 100);
	PROMISE(p->rw <= JF_RANDRW && p->ioengine <= JF_IO_URING && p->sync <= JF_OSYNC_DSYNC);
	PROMISE(memchr(p->filename, '\0', sizeof(p->filename)) &&
		memchr(p->directory, '\0', sizeof(p->directory)));
	PROMISE(!(p->given & JOBFILE_GIVEN(JK_SIZE)) || p->size > 0);
	for (unsigned k = 0; k < JK_NKEYS; k++)
		PROMISE(!(p->given & JOBFILE_GIVEN(k)) || p->where[k].line >= 1);
}

/* An accepted profile: every line's job one of the file's, every limit
 * finite, every requirement with a source, op sizes 1 to 64. */
static void check_spec(const struct jobfile *jf, char *why, size_t len)
{
	struct fit_spec *spec = malloc(sizeof(*spec));
	if (!spec)
		return;
	if (fit_spec_read(jf, spec, why, len) != 0) {
		PROMISE(why[0]);
	} else {
		PROMISE(spec->nrequire + spec->nreport + spec->nrank > 0);
		for (unsigned i = 0; i < spec->nrequire; i++) {
			const struct fit_line *l = &spec->require[i];
			PROMISE(l->source[0] && l->limit == l->limit && l->limit >= 0);
			PROMISE(l->job < (int)jf->njobs && l->metric < FM_NMETRICS);
		}
		for (unsigned i = 0; i < jf->njobs; i++)
			PROMISE(spec->writes_per_op[i] >= 1 && spec->writes_per_op[i] <= 64);
	}
	free(spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = strnlen((const char *)data, size);
	char *text = malloc(len + 1);
	struct jobfile *jf = malloc(sizeof(*jf));
	char why[512];
	if (!text || !jf) {
		free(text);
		free(jf);
		return 0;
	}
	memcpy(text, data, len);
	text[len] = '\0';
	struct jobfile_source src = { "f.fio", again, env, text, directives };
	if (jobfile_parse(text, &src, jf, why, sizeof(why)) != 0) {
		PROMISE(why[0] && strchr(why, ':'));
	} else {
		PROMISE(jf->njobs >= 1 && jf->njobs <= JOBFILE_MAX_JOBS);
		PROMISE(jf->nfiles >= 1 && jf->nfiles <= JOBFILE_MAX_FILES);
		PROMISE(jf->ndirs <= JOBFILE_MAX_DIRECTIVES);
		for (unsigned i = 0; i < jf->njobs; i++)
			check_job(&jf->jobs[i]);
		for (unsigned i = 0; i < jf->ndirs; i++)
			PROMISE(jf->dirs[i].job < (int)jf->njobs && jf->dirs[i].value[0] &&
				jf->dirs[i].at.file < jf->nfiles);
		check_spec(jf, why, sizeof(why));
	}
	free(jf);
	free(text);
	return 0;
}
