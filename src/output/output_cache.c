/* The page cache around a read test's run: the text's cache line and the
 * JSON's "cache" object, shared by the single tests, matrix and sweep. */
#include "output.h"

#include "json.h"

void out_text_cache_line(FILE *f, const struct result *r)
{
	if (r->evicted && r->residency_hidden) {
		fprintf(f, "cache: unknown: %s (evicted: %s)\n", r->residency_hidden, r->evicted);
		return;
	}
	if (!r->evicted || r->resident_before_pct < 0)
		return;
	const char *state = r->primed ? "primed"
			    : r->resident_before_pct < 1.0 ? "cold"
			    : r->resident_before_pct < 99.0 ? "partly warm" : "warm";
	fprintf(f, "cache: %s, %.1f %% resident before the run", state, r->resident_before_pct);
	if (r->resident_after_pct >= 0)
		fprintf(f, ", %.1f %% after", r->resident_after_pct);
	fprintf(f, " (evicted: %s)\n", r->evicted);
}

void out_json_cache(struct json *j, const struct result *r)
{
	json_key(j, "cache");
	json_object_begin(j);
	json_key(j, "evicted"), json_string(j, r->evicted);
	json_key(j, "resident_before_pct");
	if (r->evicted && r->resident_before_pct >= 0)
		json_double(j, r->resident_before_pct, 2);
	else
		json_null(j);
	json_key(j, "resident_after_pct");
	if (r->evicted && r->resident_after_pct >= 0)
		json_double(j, r->resident_after_pct, 2);
	else
		json_null(j);
	json_key(j, "resident_unknown_reason"), json_string(j, r->residency_hidden);
	json_object_end(j);
}
