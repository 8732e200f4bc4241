/* The job-file reader: lines, sections, includes, ${NAME} and the
 * diskbench-* comment directives (see jobfile.h); the keys' values are
 * jobfile_keys.c's. */
#define _POSIX_C_SOURCE 200809L
#include "jobfile.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIRECTIVE_PREFIX "diskbench-"

struct parser {
	const struct jobfile_source *src;
	struct jobfile *out;
	struct jobfile_params global; /* the [global] keys read so far */
	int cur;                      /* the section being read: a job, -1 [global], -2 none */
	unsigned depth;               /* includes inside includes */
	char *why;
	size_t len;
};

/* "FILE:LINE: " then the message; returns -1. */
static int error_at(struct parser *ps, unsigned file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int error_at(struct parser *ps, unsigned file, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(ps->why, ps->len, "%.200s:%u: ", ps->out->files[file], line);
	if (n < 0 || (size_t)n >= ps->len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(ps->why + n, ps->len - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* `# diskbench-KEY: VALUE`, kept with the section it is in; any other
 * comment is nothing. */
static int directive(struct parser *ps, char *body, unsigned file, unsigned line)
{
	body = trim(body);
	if (strncmp(body, DIRECTIVE_PREFIX, strlen(DIRECTIVE_PREFIX)) != 0)
		return 0;
	char *key = body + strlen(DIRECTIVE_PREFIX), *colon = strchr(key, ':');
	if (!colon)
		return error_at(ps, file, line, "'%.60s' needs a colon: # diskbench-KEY: VALUE", body);
	*colon = '\0';
	char *value = trim(colon + 1);
	bool known = false;
	for (const char *const *d = ps->src->directives; d && *d && !known; d++)
		known = strcmp(key, *d) == 0;
	if (!known)
		return error_at(ps, file, line, "unknown directive 'diskbench-%.40s' "
				"(diskbench-methods(7), FIT, lists them)", key);
	struct jobfile *jf = ps->out;
	if (jf->ndirs == JOBFILE_MAX_DIRECTIVES)
		return error_at(ps, file, line, "more than %d diskbench- directives",
				JOBFILE_MAX_DIRECTIVES);
	struct jobfile_directive *d = &jf->dirs[jf->ndirs];
	if (strlen(value) >= sizeof(d->value))
		return error_at(ps, file, line, "diskbench-%s: the value is too long (at most %zu "
				"characters)", key, sizeof(d->value) - 1);
	if (strlen(key) >= sizeof(d->key) || value[0] == '\0')
		return error_at(ps, file, line, "diskbench-%.40s: needs a value", key);
	snprintf(d->key, sizeof(d->key), "%s", key);
	snprintf(d->value, sizeof(d->value), "%s", value);
	d->at = (struct jobfile_at){ file, line };
	d->job = ps->cur >= 0 ? ps->cur : -1;
	jf->ndirs++;
	return 0;
}

/* "[name]": a [global] section or a new job, which starts from the
 * [global] keys read so far. */
static int section(struct parser *ps, char *s, unsigned file, unsigned line)
{
	size_t n = strlen(s);
	if (s[n - 1] != ']')
		return error_at(ps, file, line, "a section header is [NAME], on a line of its own");
	s[n - 1] = '\0';
	char *name = trim(s + 1);
	if (name[0] == '\0')
		return error_at(ps, file, line, "a job needs a name: [NAME]");
	if (strcmp(name, "global") == 0) {
		ps->cur = -1;
		return 0;
	}
	struct jobfile *jf = ps->out;
	if (strlen(name) >= JOBFILE_NAME_LEN)
		return error_at(ps, file, line, "a job's name has at most %d characters",
				JOBFILE_NAME_LEN - 1);
	if (jf->njobs == JOBFILE_MAX_JOBS)
		return error_at(ps, file, line, "more than %d jobs", JOBFILE_MAX_JOBS);
	struct jobfile_job *j = &jf->jobs[jf->njobs];
	snprintf(j->name, sizeof(j->name), "%s", name);
	j->at = (struct jobfile_at){ file, line };
	j->p = ps->global;
	ps->cur = (int)jf->njobs++;
	return 0;
}

/* value with each ${NAME} replaced by its value, into out. */
static int expand(struct parser *ps, const char *value, char *out, size_t len, unsigned file,
		  unsigned line)
{
	size_t n = 0;
	if (value[0] == '(')
		return error_at(ps, file, line, "arithmetic is not supported; write the number");
	for (const char *p = value; *p;) {
		const char *add = p, *close = NULL;
		size_t k = 1;
		if (p[0] == '$' && p[1] != '{')
			return error_at(ps, file, line, "fio's $pagesize, $mb_memory and $ncpus are not "
					"supported; write the number");
		if (p[0] == '$') {
			char name[128];
			close = strchr(p, '}');
			if (!close || (size_t)(close - p - 2) >= sizeof(name) || close == p + 2)
				return error_at(ps, file, line, "'${' needs a name and '}'");
			snprintf(name, sizeof(name), "%.*s", (int)(close - p - 2), p + 2);
			if (!ps->src->getenv)
				return error_at(ps, file, line, "${%s}: environment variables are not "
						"expanded here", name);
			add = ps->src->getenv(ps->src->ctx, name);
			if (!add)
				return error_at(ps, file, line, "${%s} is not set (fio would put nothing "
						"there)", name);
			k = strlen(add);
		}
		if (n + k >= len)
			return error_at(ps, file, line, "the value is too long");
		memcpy(out + n, add, k);
		n += k;
		p = close ? close + 1 : p + 1;
	}
	out[n] = '\0';
	return 0;
}

static int key_value(struct parser *ps, char *s, unsigned file, unsigned line)
{
	char value[JOBFILE_MAX_LINE], why[320];
	char *eq = strchr(s, '='), *key = s;
	if (eq)
		*eq = '\0';
	key = trim(key);
	if (key[0] == '\0')
		return error_at(ps, file, line, "a key is missing before '='");
	if (ps->cur == -2)
		return error_at(ps, file, line, "'%.60s' is outside any section: put it under "
				"[global] or a [job]", key);
	if (eq && expand(ps, trim(eq + 1), value, sizeof(value), file, line) != 0)
		return -1;
	struct jobfile_params *p = ps->cur >= 0 ? &ps->out->jobs[ps->cur].p : &ps->global;
	struct jobfile_at at = { file, line };
	if (jobfile_set(p, key, eq ? value : NULL, at, why, sizeof(why)) != 0)
		return error_at(ps, file, line, "%s", why);
	if (strcmp(key, "name") != 0)
		return 0;
	if (ps->cur < 0)
		return error_at(ps, file, line, "name= names a job: put it in the job's section");
	if (strlen(value) >= JOBFILE_NAME_LEN)
		return error_at(ps, file, line, "a job's name has at most %d characters",
				JOBFILE_NAME_LEN - 1);
	snprintf(ps->out->jobs[ps->cur].name, JOBFILE_NAME_LEN, "%s", value);
	return 0;
}

static int parse_text(struct parser *ps, const char *text, unsigned file);

/* `include NAME`: the file's lines in place of this one; it may hold keys
 * and further includes, not sections. */
static int include(struct parser *ps, char *name, unsigned file, unsigned line)
{
	struct jobfile *jf = ps->out;
	char why[300] = "";
	name = trim(name);
	if (!ps->src->include)
		return error_at(ps, file, line, "include is not supported here");
	if (name[0] == '\0' || strlen(name) >= JOBFILE_PATH_LEN)
		return error_at(ps, file, line, "include needs a file name");
	if (ps->depth >= JOBFILE_MAX_DEPTH)
		return error_at(ps, file, line, "includes nest more than %d deep", JOBFILE_MAX_DEPTH);
	if (jf->nfiles == JOBFILE_MAX_FILES)
		return error_at(ps, file, line, "more than %d files included", JOBFILE_MAX_FILES - 1);
	char *text = ps->src->include(ps->src->ctx, jf->files[file], name, why, sizeof(why));
	if (!text)
		return error_at(ps, file, line, "include %.200s: %s", name, why[0] ? why : "cannot read it");
	unsigned k = jf->nfiles++;
	snprintf(jf->files[k], sizeof(jf->files[k]), "%s", name);
	ps->depth++;
	int rc = parse_text(ps, text, k);
	ps->depth--;
	free(text);
	return rc;
}

/* One line (comments and blanks included). */
static int parse_line(struct parser *ps, char *line, unsigned file, unsigned no)
{
	char *s = trim(line);
	if (s[0] == '#' || s[0] == ';')
		return directive(ps, s + 1, file, no);
	s[strcspn(s, ";#")] = '\0'; /* fio ends a line at a ';' or '#' */
	s = trim(s);
	if (s[0] == '\0')
		return 0;
	if (s[0] == '[') {
		if (ps->depth > 0)
			return error_at(ps, file, no, "an included file may not hold [sections]");
		return section(ps, s, file, no);
	}
	if (strncmp(s, "include", 7) == 0 && isspace((unsigned char)s[7]))
		return include(ps, s + 8, file, no);
	return key_value(ps, s, file, no);
}

static int parse_text(struct parser *ps, const char *text, unsigned file)
{
	char line[JOBFILE_MAX_LINE + 1];
	unsigned no = 0;
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		no++;
		if (n > JOBFILE_MAX_LINE)
			return error_at(ps, file, no, "the line is longer than %d characters",
					JOBFILE_MAX_LINE);
		memcpy(line, p, n);
		line[n] = '\0';
		if (parse_line(ps, line, file, no) != 0)
			return -1;
		p += n + (p[n] == '\n');
	}
	return 0;
}

void jobfile_where(const struct jobfile *jf, struct jobfile_at at, char *buf, size_t len)
{
	const char *file = at.file < jf->nfiles ? jf->files[at.file] : "?";
	snprintf(buf, len, "%.200s:%u", file, at.line);
}

int jobfile_parse(const char *text, const struct jobfile_source *src, struct jobfile *out,
		  char *why, size_t why_len)
{
	struct parser ps = { .src = src, .out = out, .cur = -2, .why = why, .len = why_len };
	memset(out, 0, sizeof(*out));
	jobfile_defaults(&ps.global);
	snprintf(out->files[0], sizeof(out->files[0]), "%s", src->name ? src->name : "-");
	out->nfiles = 1;
	why[0] = '\0';
	if (parse_text(&ps, text, 0) != 0)
		return -1;
	if (out->njobs == 0) {
		snprintf(why, why_len, "%.200s: no job: a job file holds a [section] other than "
			 "[global]", out->files[0]);
		return -1;
	}
	return 0;
}
