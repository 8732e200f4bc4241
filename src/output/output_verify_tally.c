/* A verification's tally (issue 42; result.verify): the text line and the
 * "verify" object of a write test run with --verify and of the verify
 * command (whose own renderers are output_verify.c's).  Nothing for a
 * run without one. */
#include "output.h"

#include <inttypes.h>
#include <stdio.h>

#include "json.h"
#include "units.h"

static const char *const kind_key[VERIFY_KINDS] = { "corrupt", "misplaced", "stale",
						    "unwritten", "lost" };

static uint64_t bad_blocks(const struct result_verify *v)
{
	uint64_t bad = 0;
	for (unsigned k = 0; k < VERIFY_KINDS; k++)
		bad += v->bad[k];
	return bad;
}

static const char *mode_words(const char *mode)
{
	switch (mode[0]) {
	case 'a': return "after the writes";
	case 'b': return "in batches as each thread wrote (backlog; thread time)";
	case 'w': return "against the witness";
	default: return "from their headers alone";
	}
}

/* "; witness: 250 acknowledged (3 torn by writes in flight), 6 blocks not
 * acknowledged (not judged)" and the like: what only verify's modes have. */
static void text_claims(FILE *f, const struct result_verify *v)
{
	if (v->mode[0] == 'w') {
		fprintf(f, "; the witness lists %" PRIu64 " blocks", v->acknowledged);
		if (v->in_flight)
			fprintf(f, " (%" PRIu64 " torn by a later write in flight, which nothing "
				"promised)", v->in_flight);
		fprintf(f, ", %" PRIu64 " others not judged", v->unacknowledged);
		if (v->witness_noise)
			fprintf(f, ", %" PRIu64 " of its lines were no witness's", v->witness_noise);
	} else if (v->mode[0] == 'h' && (v->no_header || v->other_run)) {
		fprintf(f, "; %" PRIu64 " without a header, %" PRIu64 " of other runs (never written "
			"by this one, or lost: --witness tells)", v->no_header, v->other_run);
	}
}

void out_text_verify_body(FILE *f, const struct result_verify *v)
{
	char bs[32], offset[32];
	fmt_size_exact(bs, sizeof(bs), v->block_size);
	fprintf(f, "%" PRIu64 " blocks of %s read back in %.3f s %s (CRC32C by %s): ",
		v->blocks, bs, v->seconds, mode_words(v->mode), v->crc);
	uint64_t bad = bad_blocks(v);
	if (bad == 0)
		fputs("all good", f);
	else
		fprintf(f, "%" PRIu64 " bad", bad);
	for (unsigned k = 0; k < VERIFY_KINDS; k++) {
		if (!v->bad[k])
			continue;
		snprintf(offset, sizeof(offset), "%" PRIu64, v->first[k][0].offset);
		fprintf(f, ", %" PRIu64 " %s (the first at %s)", v->bad[k], kind_key[k], offset);
	}
	text_claims(f, v);
}

void out_text_verify(FILE *f, const struct result *r)
{
	if (!r->verify)
		return;
	fputs("  verify: ", f);
	out_text_verify_body(f, r->verify);
	fputc('\n', f);
}

static void json_first(struct json *j, const struct result_verify *v, enum verify_kind k)
{
	uint64_t n = v->bad[k] < VERIFY_FIRST ? v->bad[k] : VERIFY_FIRST;
	json_key(j, kind_key[k]);
	json_array_begin(j);
	for (uint64_t i = 0; i < n; i++) {
		const struct verify_bad *b = &v->first[k][i];
		json_object_begin(j);
		json_key(j, "offset"), json_uint(j, b->offset);
		if (k == VERIFY_MISPLACED)
			json_key(j, "written_for"), json_uint(j, b->found);
		if (k == VERIFY_STALE || k == VERIFY_LOST)
			json_key(j, "generation_found"), json_uint(j, b->found);
		if (k != VERIFY_MISPLACED && b->wanted)
			json_key(j, "generation_wanted"), json_uint(j, b->wanted);
		json_object_end(j);
	}
	json_array_end(j);
}

/* What only verify's modes have. */
static void json_claims(struct json *j, const struct result_verify *v)
{
	if (v->mode[0] == 'h') {
		json_key(j, "no_header"), json_uint(j, v->no_header);
		json_key(j, "other_run"), json_uint(j, v->other_run);
	}
	if (v->mode[0] == 'w') {
		json_key(j, "acknowledged"), json_uint(j, v->acknowledged);
		json_key(j, "unacknowledged"), json_uint(j, v->unacknowledged);
		json_key(j, "in_flight"), json_uint(j, v->in_flight);
		json_key(j, "witness_noise"), json_uint(j, v->witness_noise);
	}
	if (v->mode[0] == 'w' || v->witness_lines)
		json_key(j, "witness_lines"), json_uint(j, v->witness_lines);
}

void out_json_verify(struct json *j, const struct result *r)
{
	const struct result_verify *v = r->verify;
	char run[24];
	if (!v)
		return;
	snprintf(run, sizeof(run), "%016" PRIx64, v->run_id);
	json_key(j, "verify");
	json_object_begin(j);
	json_key(j, "mode"), json_string(j, v->mode);
	json_key(j, "crc"), json_string(j, v->crc);
	json_key(j, "run_id"), json_string(j, run);
	json_key(j, "block_size"), json_uint(j, v->block_size);
	json_key(j, "region"), json_uint(j, v->region);
	json_key(j, "blocks"), json_uint(j, v->blocks);
	json_key(j, "bytes"), json_uint(j, v->bytes);
	json_key(j, "seconds"), json_double(j, v->seconds, 6);
	json_key(j, "good"), json_uint(j, v->good);
	json_key(j, "bad"), json_uint(j, bad_blocks(v));
	for (unsigned k = 0; k < VERIFY_KINDS; k++)
		json_key(j, kind_key[k]), json_uint(j, v->bad[k]);
	json_key(j, "first");
	json_object_begin(j);
	for (unsigned k = 0; k < VERIFY_KINDS; k++)
		json_first(j, v, (enum verify_kind)k);
	json_object_end(j);
	json_claims(j, v);
	if (v->map_bytes)
		json_key(j, "map_bytes"), json_uint(j, v->map_bytes);
	json_object_end(j);
}
