/* --mix: the parser and formatter of a workload's operation shares, and
 * the draw the timed loop makes for each I/O. */
#include "mix.h"

#include <stdio.h>
#include <string.h>

static const char letters[] = "rwt"; /* by enum mix_op */

/* The reason into why; -1. */
static int refuse(char *why, size_t len, const char *reason, char c)
{
	snprintf(why, len, reason, c);
	return -1;
}

int mix_parse(const char *s, struct mix *m, char *why, size_t why_len)
{
	struct mix got = { { 0, 0, 0 } };
	bool seen[MIX_OPS] = { false, false, false };
	unsigned sum = 0;
	const char *p = s;
	for (;;) {
		const char *letter = *p ? strchr(letters, *p) : NULL;
		if (!letter && !*p) {
			snprintf(why, why_len, "an operation is missing: use r (read), w (write) or t "
				 "(trim) with a percent, as in r70,w30");
			return -1;
		}
		if (!letter)
			return refuse(why, why_len, "'%c' is not an operation: use r (read), w (write) "
				      "or t (trim) with a percent, as in r70,w30", *p);
		enum mix_op op = (enum mix_op)(letter - letters);
		if (seen[op])
			return refuse(why, why_len, "'%c' is given twice", *p);
		seen[op] = true;
		p++;
		if (*p < '0' || *p > '9')
			return refuse(why, why_len, "'%c' needs a whole percent after it, as in r70",
				      p[-1]);
		unsigned n = 0;
		while (*p >= '0' && *p <= '9' && n <= 100)
			n = n * 10 + (unsigned)(*p++ - '0');
		if (n > 100)
			return refuse(why, why_len, "'%c': a share is at most 100", letters[op]);
		got.pct[op] = n;
		sum += n;
		if (*p == '\0')
			break;
		if (*p++ != ',')
			return refuse(why, why_len, "'%c' after a share: separate the shares with "
				      "commas, as in r70,w30", p[-1]);
	}
	if (sum != 100) {
		snprintf(why, why_len, "'%s' sums to %u %%, not 100", s, sum);
		return -1;
	}
	*m = got;
	return 0;
}

int mix_format(const struct mix *m, char *buf, size_t len)
{
	int n = 0;
	if (len)
		buf[0] = '\0';
	for (unsigned op = 0; op < MIX_OPS; op++) {
		if (m->pct[op] == 0)
			continue;
		size_t at = (size_t)n < len ? (size_t)n : len;
		n += snprintf(buf + at, len - at, "%s%c%u", n ? "," : "", letters[op], m->pct[op]);
	}
	return n;
}

struct mix mix_read_write(unsigned write_pct)
{
	struct mix m = { { 100 - write_pct, write_pct, 0 } };
	return m;
}

enum mix_op mix_pick(const struct mix *m, unsigned draw)
{
	if (draw < m->pct[MIX_READ])
		return MIX_READ;
	if (draw < m->pct[MIX_READ] + m->pct[MIX_WRITE])
		return MIX_WRITE;
	return MIX_TRIM;
}

bool mix_set(const struct mix *m)
{
	return m->pct[MIX_READ] + m->pct[MIX_WRITE] + m->pct[MIX_TRIM] > 0;
}

bool mix_has(const struct mix *m, enum mix_op op)
{
	return m->pct[op] > 0;
}

enum mix_op mix_first(const struct mix *m)
{
	for (unsigned op = 0; op < MIX_OPS; op++)
		if (m->pct[op])
			return (enum mix_op)op;
	return MIX_READ;
}

const char *mix_op_name(enum mix_op op)
{
	static const char *const names[MIX_OPS] = { "read", "write", "trim" };
	return op < MIX_OPS ? names[op] : "?";
}
