/* libFuzzer target: the parsers of sizes, durations, whole numbers and the
 * sweep's --levels and --max-latency.  The input is one option value (the
 * bytes up to the first NUL), copied into a buffer of exactly its length so
 * that ASan sees any read past its end.  Beyond "no crash", each accepted
 * value is checked against what the parser promises. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diskbench.h"
#include "sweep.h"
#include "units.h"

/* A broken promise is a crash, so that libFuzzer keeps the input. */
#define PROMISE(cond) ((cond) ? (void)0 : abort())
#define DECIMAL "0123456789.eE+-"

static void check_size(const char *text)
{
	const char *why = NULL;
	uint64_t v = 0;
	if (parse_size(text, &v, &why) != 0) {
		PROMISE(why && why[0]);
		return;
	}
	PROMISE(v > 0 && v <= (uint64_t)INT64_MAX);
	/* plain digits: the value itself */
	if (text[strspn(text, "0123456789")] == '\0')
		PROMISE(v == strtoull(text, NULL, 10));
}

static void check_seconds(const char *text)
{
	const char *why = NULL;
	double v = -1;
	if (parse_seconds(text, &v, &why) != 0) {
		PROMISE(why && why[0]);
		return;
	}
	PROMISE(isfinite(v) && v >= 0 && v <= 1e7);
	/* decimal only: a number, then a unit (s, m or h, as -t 1m) or nothing */
	const char *rest = text + strspn(text, DECIMAL);
	PROMISE(strcmp(rest, "") == 0 || strcmp(rest, "s") == 0 || strcmp(rest, "m") == 0 ||
		strcmp(rest, "h") == 0);
}

static void check_uint(const char *text, uint64_t min, uint64_t max)
{
	const char *why = NULL;
	uint64_t v = 0;
	if (parse_uint(text, min, max, &v, &why) != 0) {
		PROMISE(why && why[0]);
		return;
	}
	PROMISE(v >= min && v <= max);
}

static void check_levels(const char *text)
{
	/* exactly SWEEP_MAX_LEVELS on the heap: one more write would be caught */
	unsigned *levels = malloc(SWEEP_MAX_LEVELS * sizeof(*levels));
	unsigned n = 0;
	const char *why = NULL;
	PROMISE(levels != NULL);
	if (sweep_parse_levels(text, OPT_MAX_THREADS, levels, &n, &why) != 0) {
		PROMISE(why && why[0]);
	} else {
		PROMISE(n >= 1 && n <= SWEEP_MAX_LEVELS);
		for (unsigned i = 0; i < n; i++)
			PROMISE(levels[i] >= 1 && levels[i] <= OPT_MAX_THREADS &&
				(i == 0 || levels[i] > levels[i - 1]));
	}
	free(levels);
}

static void check_max_latency(const char *text)
{
	static const double pcts[] = { 0, 50, 90, 99, 99.9, 100 };
	double limit = -1, pct = -1;
	const char *why = NULL;
	if (sweep_parse_max_latency(text, &limit, &pct, &why) != 0) {
		PROMISE(why && why[0]);
		return;
	}
	PROMISE(isfinite(limit) && limit > 0);
	const char *unit = text + strspn(text, DECIMAL); /* decimal, then the unit */
	PROMISE(unit[0] != '\0' && strchr("nums", unit[0]));
	bool known = false;
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++)
		known = known || pct == pcts[i];
	PROMISE(known);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = strnlen((const char *)data, size);
	char *text = malloc(len + 1);
	if (!text)
		return 0;
	memcpy(text, data, len);
	text[len] = '\0';
	check_size(text);
	check_seconds(text);
	check_uint(text, 1, OPT_MAX_THREADS);  /* -j */
	check_uint(text, 0, 100);              /* --write */
	check_uint(text, 0, UINT64_MAX);       /* --seed */
	check_levels(text);
	check_max_latency(text);
	free(text);
	return 0;
}
