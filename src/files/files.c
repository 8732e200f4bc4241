/* files: the pure parts — the name tree, the orders, the phases and when a
 * phase runs again. */
#include "files.h"

#include <stdio.h>
#include <string.h>

#include "rng.h"

uint32_t files_share(uint64_t n, unsigned threads, unsigned thread)
{
	uint64_t share = n / threads + (thread < n % threads ? 1 : 0);
	return (uint32_t)share;
}

unsigned files_leaves(uint32_t share)
{
	return (unsigned)((share + FILES_PER_DIR - 1) / FILES_PER_DIR);
}

unsigned files_leaf_of(uint32_t index)
{
	return index / FILES_PER_DIR;
}

/* Names in a directory differ in their tail as bonnie++'s do, so a
 * filesystem that hashes names spreads them as it would real ones. */
void files_name(uint32_t index, char buf[FILES_NAME_LEN + 1])
{
	uint32_t h = index * 2654435761u; /* Knuth's multiplicative hash */
	for (int i = 6; i >= 0; i--, index /= 10)
		buf[i] = (char)('0' + index % 10);
	for (int i = 7; i < FILES_NAME_LEN; i++, h /= 26)
		buf[i] = (char)('a' + h % 26);
	buf[FILES_NAME_LEN] = '\0';
}

void files_round_dir(char *buf, size_t len, enum files_order order, unsigned round)
{
	snprintf(buf, len, "%s-%u", order == FILES_SEQ ? "seq" : "rand", round);
}

void files_rel_path(char *buf, size_t len, enum files_order order, unsigned round,
		    unsigned thread, uint32_t index)
{
	char round_dir[16], name[FILES_NAME_LEN + 1];
	files_round_dir(round_dir, sizeof(round_dir), order, round);
	files_name(index, name);
	snprintf(buf, len, "%s/t%04u/d%04u/%s", round_dir, thread, files_leaf_of(index), name);
}

void files_identity(uint32_t *perm, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
}

void files_shuffle(uint32_t *perm, uint32_t n, struct rng *rng)
{
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = (uint32_t)rng_below(rng, i);
		uint32_t t = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = t;
	}
}

static const char *const phase_names[FILES_NPHASES] = {
	"seq-create", "seq-stat", "seq-read", "seq-delete",
	"rand-create", "rand-stat", "rand-read", "rand-delete",
};
static const char *const phase_keys[FILES_NPHASES] = {
	"seq_create", "seq_stat", "seq_read", "seq_delete",
	"rand_create", "rand_stat", "rand_read", "rand_delete",
};
static const char *const op_names[FILES_NOPS] = { "create", "stat", "read", "delete" };

int files_phase_index(enum files_order order, enum files_op op)
{
	return (int)order * FILES_NOPS + (int)op;
}

const char *files_phase_name(int phase)
{
	return phase >= 0 && phase < FILES_NPHASES ? phase_names[phase] : NULL;
}

const char *files_phase_key(int phase)
{
	return phase >= 0 && phase < FILES_NPHASES ? phase_keys[phase] : NULL;
}

const char *files_op_name(enum files_op op)
{
	return (unsigned)op < FILES_NOPS ? op_names[op] : NULL;
}

void files_plan(struct files_result *fr)
{
	for (int i = 0; i < FILES_NPHASES; i++) {
		struct files_phase *p = &fr->phase[i];
		memset(p, 0, sizeof(*p));
		stats_init(&p->lat);
		p->resident_before_pct = -1;
		p->planned = i % FILES_NOPS != FILES_READ || fr->file_size > 0;
	}
}

void files_phase_add(struct files_phase *p, const struct stats *lat, uint64_t files,
		     uint64_t bytes, double seconds)
{
	stats_merge(&p->lat, lat);
	p->files += files;
	p->bytes += bytes;
	p->seconds += seconds;
	p->passes++;
}

double files_phase_rate(const struct files_phase *p)
{
	return p->seconds > 0 ? (double)p->files / p->seconds : 0.0;
}

bool files_phase_wants_more(const struct files_phase *p, double min_s, double cap_s)
{
	return p->planned && min_s > 0 && p->seconds < min_s &&
	       p->repeat_s + p->last_cost_s <= cap_s;
}

bool files_phase_short(const struct files_phase *p)
{
	return p->planned && p->passes > 0 && p->seconds < FILES_SHORT_S;
}
