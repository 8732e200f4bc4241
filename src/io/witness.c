/* The witness's lines: written one write(2) each, read back tolerant of
 * what a serial console or a power cut does to a stream (witness.h). */
#define _POSIX_C_SOURCE 200809L
#include "witness.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diskbench.h"
#include "verify.h"

#define HEADER "# diskbench witness 1 "

static int put(int fd, const char *line, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, line, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			errno = k < 0 ? errno : EIO;
			return -1;
		}
		line += k;
		n -= (size_t)k;
	}
	return 0;
}

int witness_put_header(int fd, uint64_t run_id, uint64_t bs, uint64_t region,
		       const char *target)
{
	char line[600];
	int n = snprintf(line, sizeof(line), HEADER "run=%016" PRIx64 " bs=%" PRIu64 " region=%"
			 PRIu64 " target=%.400s\n", run_id, bs, region, target ? target : "");
	for (char *c = line; *c && c < line + n - 1; c++)
		if (*c == '\n' || *c == '\r')
			*c = '?'; /* a name with a newline stays on its line */
	return put(fd, line, (size_t)n);
}

int witness_put_write(int fd, uint64_t offset, uint64_t generation)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "w %" PRIu64 " %" PRIu64 "\n", offset, generation);
	return put(fd, line, (size_t)n);
}

int witness_put_end(int fd, uint64_t lines)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "# end lines=%" PRIu64 "\n", lines);
	return put(fd, line, (size_t)n);
}

/* ---- reading ---- */

static int parse_u64(const char *s, int base, uint64_t *out, const char **end)
{
	char *e;
	if (base == 16 ? !isxdigit((unsigned char)*s) : !isdigit((unsigned char)*s))
		return -1; /* strtoull would take a sign or spaces */
	errno = 0;
	unsigned long long v = strtoull(s, &e, base);
	if (errno || e == s)
		return -1;
	*out = v;
	*end = e;
	return 0;
}

/* "key=NUMBER" at *p, moving past it and one space. */
static int header_field(const char **p, const char *key, int base, uint64_t *out)
{
	size_t k = strlen(key);
	if (strncmp(*p, key, k) != 0 || parse_u64(*p + k, base, out, p) != 0)
		return -1;
	if (**p == ' ')
		(*p)++;
	return 0;
}

static int start_run(struct witness *w, const char *line, char *why, size_t len)
{
	const char *p = line + strlen(HEADER);
	uint64_t run, bs, region;
	if (header_field(&p, "run=", 16, &run) != 0 || header_field(&p, "bs=", 10, &bs) != 0 ||
	    header_field(&p, "region=", 10, &region) != 0 || region < bs) {
		snprintf(why, len, "its first line names no run, block size and region");
		return EXIT_USAGE;
	}
	if (bs < 512 || bs % 512 != 0 || bs > (256u << 20)) { /* what --verify ever writes */
		snprintf(why, len, "its block size %" PRIu64 " is no block --verify writes", bs);
		return EXIT_USAGE;
	}
	if (region / bs > VERIFY_MAX_MAP_BYTES / sizeof(uint32_t)) { /* verify.h's bound */
		snprintf(why, len, "its region (%" PRIu64 " blocks) is beyond what verify maps",
			 region / bs);
		return EXIT_RUN;
	}
	free(w->acked);
	memset(w, 0, sizeof(*w));
	w->run_id = run, w->bs = bs, w->region = region, w->nblocks = region / bs;
	w->acked = calloc(w->nblocks ? w->nblocks : 1, sizeof(*w->acked));
	if (!w->acked) {
		snprintf(why, len, "%s", strerror(ENOMEM));
		return EXIT_RUN;
	}
	return EXIT_OK;
}

static int take_write(struct witness *w, const char *line, uint64_t lineno, char *why, size_t len)
{
	uint64_t offset, gen;
	const char *p = line + 2;
	if (!w->acked) {
		snprintf(why, len, "line %" PRIu64 ": a write before the witness's first line", lineno);
		return EXIT_USAGE;
	}
	if (parse_u64(p, 10, &offset, &p) != 0 || *p++ != ' ' || parse_u64(p, 10, &gen, &p) != 0 ||
	    *p != '\n' || offset % w->bs != 0 || offset / w->bs >= w->nblocks || gen == 0 ||
	    gen > UINT32_MAX) {
		snprintf(why, len, "line %" PRIu64 ": not a write of a block of its region (%.40s)",
			 lineno, line);
		return EXIT_USAGE;
	}
	uint32_t *a = &w->acked[offset / w->bs];
	w->listed += *a == 0;
	if (gen > *a)
		*a = (uint32_t)gen;
	w->lines++;
	return EXIT_OK;
}

int witness_read(FILE *f, struct witness *w, char *why, size_t len)
{
	char line[1024];
	uint64_t lineno = 0;
	int code = EXIT_OK;
	memset(w, 0, sizeof(*w));
	while (code == EXIT_OK && fgets(line, sizeof(line), f)) {
		lineno++;
		size_t n = strlen(line);
		bool whole = n > 0 && line[n - 1] == '\n';
		if (!whole && n == sizeof(line) - 1) { /* a long line: its rest is noise */
			int c;
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
			w->noise++;
			continue;
		}
		if (!whole)
			break; /* the last line, cut by the power going */
		if (n >= 2 && line[n - 2] == '\r') /* a serial console's line end */
			line[n - 2] = '\n', line[n - 1] = '\0';
		if (strncmp(line, HEADER, strlen(HEADER)) == 0)
			code = start_run(w, line, why, len);
		else if (strncmp(line, "# end ", 6) == 0 && w->acked)
			w->ended = true;
		else if (strncmp(line, "w ", 2) == 0)
			code = take_write(w, line, lineno, why, len);
		else if (line[0] != '#')
			w->noise++;
	}
	if (code == EXIT_OK && ferror(f)) {
		snprintf(why, len, "%s", strerror(errno ? errno : EIO));
		code = EXIT_RUN;
	}
	if (code == EXIT_OK && !w->acked) {
		snprintf(why, len, "no witness of diskbench in it (its first line is \"" HEADER
			 "run=...\")");
		code = EXIT_USAGE;
	}
	if (code != EXIT_OK)
		witness_free(w);
	return code;
}

void witness_free(struct witness *w)
{
	free(w->acked);
	w->acked = NULL;
}
