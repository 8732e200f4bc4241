/* libFuzzer target: the JSON reader, then the fleet report over the same
 * bytes.  The input is parsed whole with jp_parse (in a buffer of exactly
 * its length, so a read past the end is caught); an accepted tree must be
 * consistent (spans inside the text and nested, counts equal to the
 * children, strings terminated, exact whole numbers equal to their double
 * where a double holds them); a refusal must give a reason and a position
 * inside the text.  Then the input, split at newlines, goes through
 * fleet_add_line and, when it holds records, fleet_report_build and a
 * comparison with itself, which must find no regression. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleetreport.h"
#include "jsonparse.h"

#define PROMISE(cond) ((cond) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Walks the tree without recursion: each value's children, then its next
 * sibling, back up through a stack of parents. */
static void check_tree(const struct jp_doc *doc, size_t size)
{
	const struct jp_value *stack[JP_MAX_DEPTH + 1];
	int depth = 0;
	const struct jp_value *v = doc->root;
	PROMISE(v->key == NULL);
	while (v) {
		PROMISE(v->pos < v->end && v->end <= size);
		if (depth > 0)
			PROMISE(v->pos >= stack[depth - 1]->pos && v->end <= stack[depth - 1]->end);
		if (v->type == JP_STRING)
			PROMISE(v->str && v->str[v->str_len] == '\0' && v->str_len <= v->end - v->pos);
		if (v->type == JP_NUMBER && v->is_uint && v->u <= (1ull << 53))
			PROMISE((double)v->u == v->num || (v->u == 0 && v->num == 0));
		if (v->type == JP_ARRAY || v->type == JP_OBJECT) {
			size_t n = 0;
			for (const struct jp_value *c = v->first; c; c = c->next, n++)
				PROMISE((c->key != NULL) == (v->type == JP_OBJECT));
			PROMISE(n == v->count);
		}
		if (v->first) {
			PROMISE(depth < JP_MAX_DEPTH);
			stack[depth++] = v;
			v = v->first;
			continue;
		}
		while (!v->next && depth > 0)
			v = stack[--depth];
		v = depth > 0 ? v->next : NULL;
	}
}

static void check_report(const uint8_t *data, size_t size)
{
	struct fleet_set set;
	fleet_set_init(&set);
	size_t start = 0;
	while (start < size) {
		const uint8_t *nl = memchr(data + start, '\n', size - start);
		size_t end = nl ? (size_t)(nl - data) + 1 : size;
		char *line = malloc(end - start);
		if (!line)
			break;
		memcpy(line, data + start, end - start);
		int rc = fleet_add_line(&set, line, end - start, "fuzz:1");
		free(line);
		if (rc < 0)
			break;
		start = end;
	}
	PROMISE(set.n + set.skipped + set.failed <= set.lines);
	struct fleet_report rep;
	char why[512];
	memset(&rep, 0, sizeof(rep));
	if (set.n > 0 && fleet_report_build(&set, &rep, why, sizeof(why)) == 0) {
		for (unsigned i = 0; i < rep.n; i++) {
			const struct fleet_group *g = &rep.groups[i];
			PROMISE(g->n > 0);
			if (g->t.has_lat)
				PROMISE(g->t.p50 <= g->t.p90 && g->t.p90 <= g->t.p99 &&
					g->t.p99 <= g->t.p99_9 && g->t.p99_9 <= g->t.lat_max);
		}
		struct fleet_baseline b;
		static const struct fleet_judge judge = { .threshold_pct = 10 };
		if (fleet_compare(&rep, &rep, &judge, &b, why, sizeof(why)) == 0)
			PROMISE(b.nregressed == 0);
		fleet_baseline_free(&b);
	}
	fleet_report_free(&rep);
	fleet_set_free(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	struct jp_doc doc;
	const char *why = NULL;
	size_t pos = 0;
	if (jp_parse(&doc, text, size, &why, &pos) == 0)
		check_tree(&doc, size);
	else
		PROMISE(why && why[0] && pos <= size);
	jp_free(&doc);
	free(text);
	check_report(data, size);
	return 0;
}
