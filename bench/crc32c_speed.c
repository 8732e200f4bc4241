/* What --verify costs a write phase in CPU: CRC32C's speed by the SSE4.2
 * instruction and by the table, and the whole stamp of a block (blk_stamp:
 * sector tags, header, CRC) and its check (blk_judge), over blocks of 4 KiB
 * and 1 MiB, as the fraction of one CPU a stream of 1 GB/s costs.
 *
 *   make build/bench/crc32c_speed && build/bench/crc32c_speed [SECONDS]
 *
 * Each figure is the best of 5 rounds of SECONDS (default 0.2) each, so a
 * busy machine lowers it rarely; bench/README.md keeps the last run. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "blockhdr.h"
#include "clock.h"
#include "crc32c.h"
#include "rng.h"

typedef uint32_t (*crc_fn)(uint32_t, const void *, size_t);

static volatile uint32_t sink; /* keeps the work from being optimised away */

/* The stamp and the check, as a crc_fn over a block of len bytes. */
static uint32_t stamp(uint32_t crc, const void *buf, size_t len)
{
	static uint64_t gen;
	struct blk_hdr h = { .block_size = (uint32_t)len, .offset = 0, .run_id = 1,
			     .generation = ++gen, .region = len };
	blk_stamp((void *)buf, &h);
	return crc ^ (uint32_t)gen;
}

static uint32_t check(uint32_t crc, const void *buf, size_t len)
{
	struct blk_hdr h;
	if (!blk_parse(buf, len, &h) || h.block_size != len)
		stamp(0, buf, len); /* a block of this size to check, once */
	enum blk_verdict v = blk_judge(buf, len, 0, 1, 0, NULL);
	if (v != BLK_GOOD)
		abort(); /* a check that did not run the whole CRC measures nothing */
	return crc ^ (uint32_t)v;
}

/* Bytes a second over blocks of len, the best of five rounds. */
static double speed(crc_fn f, const unsigned char *buf, size_t len, double seconds)
{
	double best = 0;
	for (int round = 0; round < 5; round++) {
		uint64_t t0 = clock_ns(), until = t0 + (uint64_t)(seconds * 1e9), bytes = 0, now;
		uint32_t crc = 0;
		do {
			for (int i = 0; i < 16; i++)
				crc ^= f(0, buf, len);
			bytes += 16 * (uint64_t)len;
		} while ((now = clock_ns()) < until);
		sink = crc;
		double rate = (double)bytes / ((double)(now - t0) / 1e9);
		best = rate > best ? rate : best;
	}
	return best;
}

static void row(const char *name, crc_fn f, const unsigned char *buf, double seconds)
{
	static const size_t lens[] = { 4096, 1u << 20 };
	for (size_t i = 0; i < 2; i++) {
		double rate = speed(f, buf, lens[i], seconds);
		printf("%-8s %8zu B blocks: %7.2f GB/s = %5.2f %% of a CPU at 1 GB/s written\n", name,
		       lens[i], rate / 1e9, 100.0 * 1e9 / rate);
	}
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 0.2;
	unsigned char *buf = malloc(1u << 20);
	if (!buf || !(seconds > 0)) {
		fprintf(stderr, "usage: crc32c_speed [SECONDS per round, > 0]\n");
		return 2;
	}
	struct rng r;
	rng_seed(&r, 1, 1);
	rng_fill(&r, buf, 1u << 20);
	printf("crc32c: this CPU uses %s\n", crc32c_impl());
	if (crc32c_hw_available())
		row("sse4.2", crc32c_hw, buf, seconds);
	row("table", crc32c_sw, buf, seconds);
	row("stamp", stamp, buf, seconds);
	row("check", check, buf, seconds);
	free(buf);
	return 0;
}
