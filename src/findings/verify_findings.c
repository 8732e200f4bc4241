/* What a verification's tally means (issue 42): bad blocks said in words
 * with their first offsets, and a disk that lost writes it acknowledged
 * durable judged unfit to give a durable-write figure.  Pure: it reads the
 * tally alone. */
#include "findings.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

static const char *const kind_name[VERIFY_KINDS] = { "corrupt", "misplaced", "stale",
						      "unwritten", "lost" };

/* "2 corrupt (at 4096, 8192)": a kind's count and its first offsets, at
 * most three in words (the JSON keeps more); misplaced ones with the
 * offset their block was written for. */
static size_t say_kind(char *buf, size_t len, const struct result_verify *v, enum verify_kind k)
{
	size_t n = (size_t)snprintf(buf, len, "%llu %s (", (unsigned long long)v->bad[k],
				    kind_name[k]);
	uint64_t shown = v->bad[k] < 3 ? v->bad[k] : 3;
	for (uint64_t i = 0; i < shown && n < len; i++) {
		const struct verify_bad *b = &v->first[k][i];
		n += (size_t)snprintf(buf + n, len - n, "%s%llu", i ? ", " : "at ",
				      (unsigned long long)b->offset);
		if (k == VERIFY_MISPLACED && n < len)
			n += (size_t)snprintf(buf + n, len - n, " the block of %llu",
					      (unsigned long long)b->found);
	}
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s)", v->bad[k] > shown ? ", ..." : "");
	return n < len ? n : len;
}

/* Why each kind is bad, said once after the list. */
static const char *why_kind(enum verify_kind k)
{
	switch (k) {
	case VERIFY_CORRUPT: return "corrupt: the CRC fails, the data changed after it was written "
				    "or only part of a write arrived";
	case VERIFY_MISPLACED: return "misplaced: an intact block written for another offset, "
				      "as a drive that claims more than it holds (its writes wrap) "
				      "or a misdirected write leaves";
	case VERIFY_STALE: return "stale: an older write of the block where a later one completed";
	case VERIFY_UNWRITTEN: return "unwritten: no header where a write completed";
	case VERIFY_LOST: return "lost: older than the write the witness says the disk acknowledged";
	default: return "";
	}
}

static void say_bad(const struct result_verify *v, uint64_t bad, struct result *r)
{
	char list[MSG_LEN] = "", why[MSG_LEN] = "";
	size_t n = 0, w = 0;
	for (unsigned k = 0; k < VERIFY_KINDS; k++) {
		if (!v->bad[k])
			continue;
		if (n > 0 && n < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n, ", ");
		if (n < sizeof(list))
			n += say_kind(list + n, sizeof(list) - n, v, (enum verify_kind)k);
		if (w < sizeof(why))
			w += (size_t)snprintf(why + w, sizeof(why) - w, "%s%s", w ? "; " : "",
					      why_kind((enum verify_kind)k));
	}
	warn(r, "data did not verify: %llu of %llu blocks bad: %s", (unsigned long long)bad,
	     (unsigned long long)v->blocks, list);
	warn(r, "%s", why);
	struct finding *f = finding_add(r, "data_bad");
	finding_figure(f, "blocks", (double)v->blocks, 0);
	for (unsigned k = 0; k < VERIFY_KINDS; k++)
		finding_figure(f, kind_name[k], (double)v->bad[k], 0);
}

/* The writes a durable run completed that are gone: stale, unwritten,
 * lost; with the lowest offset among them. */
static uint64_t lost_writes(const struct result_verify *v, uint64_t *first)
{
	static const enum verify_kind kinds[] = { VERIFY_STALE, VERIFY_UNWRITTEN, VERIFY_LOST };
	uint64_t n = 0;
	*first = UINT64_MAX;
	for (unsigned i = 0; i < 3; i++) {
		enum verify_kind k = kinds[i];
		n += v->bad[k];
		if (v->bad[k] && v->first[k][0].offset < *first)
			*first = v->first[k][0].offset;
	}
	return n;
}

bool findings_judge_verify(const struct result_verify *v, struct result *r)
{
	uint64_t bad = 0, first;
	for (unsigned k = 0; k < VERIFY_KINDS; k++)
		bad += v->bad[k];
	if (bad == 0)
		return false;
	say_bad(v, bad, r);
	uint64_t lost = lost_writes(v, &first);
	if (!v->durable || lost == 0)
		return true;
	warn(r, "the disk lost %llu write%s it had acknowledged durable (the first at offset %llu): "
	     "every durable-write figure from it (O_DSYNC, fsync) measured a cache that does not "
	     "keep what it acknowledges, not durable storage", (unsigned long long)lost,
	     lost == 1 ? "" : "s", (unsigned long long)first);
	struct finding *f = finding_add(r, "writes_lost");
	finding_figure(f, "writes", (double)lost, 0);
	finding_figure(f, "first_offset", (double)first, 0);
	return true;
}
