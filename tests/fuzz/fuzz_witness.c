/* libFuzzer target: what verify reads from a disk and a witness, both
 * hostile.  The input is a witness file (witness_read, through fmemopen)
 * and, after its first NUL, a block (blk_judge at a few sizes and offsets,
 * blk_newest_generation).  Beyond "no crash": an accepted witness has a
 * block size --verify could write, a map of its region's blocks, no
 * generation where a line said none, and as many blocks listed as it has
 * non-zero generations. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockhdr.h"
#include "diskbench.h"
#include "witness.h"

#define PROMISE(cond) ((cond) ? (void)0 : abort())

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_witness(const uint8_t *data, size_t size)
{
	struct witness w;
	char why[256];
	FILE *f = fmemopen((void *)data, size ? size : 1, "r");
	if (!f)
		return;
	if (witness_read(f, &w, why, sizeof(why)) == EXIT_OK) {
		PROMISE(w.bs >= 512 && w.bs % 512 == 0 && w.bs <= (256u << 20));
		PROMISE(w.nblocks == w.region / w.bs && w.acked);
		uint64_t listed = 0;
		for (uint64_t i = 0; i < w.nblocks; i++)
			listed += w.acked[i] != 0;
		PROMISE(listed == w.listed && w.listed <= w.lines);
		witness_free(&w);
	} else {
		PROMISE(why[0] != '\0');
	}
	fclose(f);
}

static void fuzz_block(const uint8_t *data, size_t size)
{
	static const uint64_t sizes[] = { 512, 4096, 65536 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint64_t bs = sizes[k];
		unsigned char *b = calloc(1, bs);
		if (!b)
			return;
		memcpy(b, data, size < bs ? size : bs);
		struct blk_hdr h;
		enum blk_verdict v = blk_judge(b, bs, 0, 0x1234, 1, &h);
		PROMISE((unsigned)v < BLK_VERDICTS);
		if (v == BLK_GOOD)
			PROMISE(h.offset == 0 && h.run_id == 0x1234 && h.generation >= 1 &&
				h.block_size == bs);
		PROMISE(blk_newest_generation(b, bs, 0, 0x1234) <= BLK_MAX_GENERATION);
		free(b);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t text = nul ? (size_t)(nul - data) : size;
	fuzz_witness(data, text);
	if (nul)
		fuzz_block(nul + 1, size - text - 1);
	return 0;
}
