/* Unit tests of src/lib/rng.c and of the offset generator in src/run/bench.c:
 * reproducibility, independent streams, offsets inside the region and
 * aligned, uniform coverage, exact sequential partitions, wrapping. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "rng.h"

/* ---- the generator -------------------------------------------------------- */

static void test_same_seed_same_sequence(void **state)
{
	(void)state;
	struct rng a, b;
	rng_seed(&a, 12345, 0);
	rng_seed(&b, 12345, 0);
	for (int i = 0; i < 10000; i++)
		assert_int_equal(rng_next(&a), rng_next(&b));
	rng_seed(&a, 0, 0);
	rng_seed(&b, 0, 0);
	for (int i = 0; i < 1000; i++) {
		uint64_t x = rng_next(&a);
		assert_int_equal(x, rng_next(&b));
	}
}

static size_t common_values(uint64_t seed_a, uint64_t stream_a, uint64_t seed_b,
			    uint64_t stream_b)
{
	enum { N = 2000 };
	static uint64_t va[N], vb[N];
	struct rng a, b;
	rng_seed(&a, seed_a, stream_a);
	rng_seed(&b, seed_b, stream_b);
	for (int i = 0; i < N; i++) {
		va[i] = rng_next(&a);
		vb[i] = rng_next(&b);
	}
	size_t same_pos = 0;
	for (int i = 0; i < N; i++)
		same_pos += va[i] == vb[i];
	return same_pos;
}

static void test_streams_and_seeds_differ(void **state)
{
	(void)state;
	/* different streams of one seed, and different seeds, give different
	 * sequences (no equal value at the same position) */
	for (uint64_t s = 0; s < 8; s++) {
		assert_int_equal(common_values(42, s, 42, s + 1), 0);
		assert_int_equal(common_values(s, 0, s + 1, 0), 0);
	}
	assert_int_equal(common_values(0, 1, 1, 0), 0);
	/* one stream is not the other shifted by a few steps */
	struct rng a, b;
	rng_seed(&a, 7, 0);
	rng_seed(&b, 7, 1);
	uint64_t first_b = rng_next(&b);
	for (int i = 0; i < 100000; i++)
		assert_int_not_equal(rng_next(&a), first_b);
}

static void test_never_stuck(void **state)
{
	(void)state;
	/* xorshift must never reach the all-zero state, whatever the seed */
	static const uint64_t seeds[] = { 0, 1, UINT64_MAX, 0x9e3779b97f4a7c15u };
	for (size_t k = 0; k < sizeof(seeds) / sizeof(seeds[0]); k++) {
		for (uint64_t stream = 0; stream < 4; stream++) {
			struct rng r;
			rng_seed(&r, seeds[k], stream);
			assert_int_not_equal(r.state, 0);
			uint64_t prev = rng_next(&r), repeats = 0;
			for (int i = 0; i < 1000; i++) {
				uint64_t x = rng_next(&r);
				repeats += x == prev;
				prev = x;
			}
			assert_int_equal(repeats, 0);
		}
	}
}

static void test_below_range_and_bits(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 99, 3);
	static const uint64_t ns[] = { 1, 2, 3, 7, 64, 1000, 1ull << 32, (1ull << 63) + 5,
				       UINT64_MAX };
	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++)
		for (int i = 0; i < 2000; i++)
			assert_true(rng_below(&r, ns[k]) < ns[k]);
	assert_int_equal(rng_below(&r, 1), 0);
	/* every output bit is used: each is set about half of the time */
	unsigned ones[64] = { 0 };
	for (int i = 0; i < 20000; i++) {
		uint64_t x = rng_next(&r);
		for (int b = 0; b < 64; b++)
			ones[b] += (x >> b) & 1;
	}
	for (int b = 0; b < 64; b++)
		assert_true(ones[b] > 9000 && ones[b] < 11000);
}

static void test_fill(void **state)
{
	(void)state;
	unsigned char a[64 + 16], b[64 + 16];
	for (size_t len = 0; len <= 64; len++) {
		struct rng ra, rb;
		rng_seed(&ra, 5, 5);
		rng_seed(&rb, 5, 5);
		memset(a, 0xa5, sizeof(a));
		memset(b, 0xa5, sizeof(b));
		rng_fill(&ra, a, len);
		rng_fill(&rb, b, len);
		assert_memory_equal(a, b, sizeof(a));
		/* nothing written past len */
		for (size_t i = len; i < sizeof(a); i++)
			assert_int_equal(a[i], 0xa5);
	}
	/* random data is not zeros and not a repeating short pattern */
	unsigned char big[4096];
	struct rng r;
	rng_seed(&r, 1, 1);
	rng_fill(&r, big, sizeof(big));
	unsigned zeros = 0;
	for (size_t i = 0; i < sizeof(big); i++)
		zeros += big[i] == 0;
	assert_true(zeros < 64);
	assert_memory_not_equal(big, big + 2048, 2048);
}

/* ---- offsets -------------------------------------------------------------- */

static struct bench_job job_for(enum io_pattern pat, uint64_t bs, uint64_t region,
				uint64_t limit, unsigned threads, bool wrap, uint64_t seed)
{
	struct bench_job job;
	memset(&job, 0, sizeof(job));
	job.fd = -1;
	job.dir = IO_READ;
	job.pattern = pat;
	job.bs = bs;
	job.region = region;
	job.bytes_limit = limit;
	job.wrap = wrap;
	job.threads = threads;
	job.seed = seed;
	return job;
}

static void test_random_reproducible(void **state)
{
	(void)state;
	struct bench_job job = job_for(PAT_RAND, 4096, 1ull << 30, UINT64_MAX, 4, false, 77);
	struct offset_gen g1, g2, g3;
	uint64_t q1, q2, q3, o1, o2, o3;
	offset_gen_init(&g1, &job, 0, &q1);
	offset_gen_init(&g2, &job, 0, &q2);
	offset_gen_init(&g3, &job, 1, &q3);
	assert_int_equal(q1, q2);
	size_t same_as_other_thread = 0;
	for (int i = 0; i < 10000; i++) {
		assert_true(offset_gen_next(&g1, &o1));
		assert_true(offset_gen_next(&g2, &o2));
		assert_true(offset_gen_next(&g3, &o3));
		assert_int_equal(o1, o2);
		same_as_other_thread += o1 == o3;
	}
	/* 262144 blocks: two independent streams agree only by chance */
	assert_true(same_as_other_thread < 10);

	/* another seed, another sequence */
	struct bench_job other = job;
	other.seed = 78;
	offset_gen_init(&g1, &job, 0, &q1);
	offset_gen_init(&g2, &other, 0, &q2);
	size_t same = 0;
	for (int i = 0; i < 10000; i++) {
		assert_true(offset_gen_next(&g1, &o1));
		assert_true(offset_gen_next(&g2, &o2));
		same += o1 == o2;
	}
	assert_true(same < 10);
}

static void test_random_inside_and_aligned(void **state)
{
	(void)state;
	static const struct { uint64_t bs, region; } cases[] = {
		{ 4096, 4096 },            /* one block: always offset 0 */
		{ 4096, 3 * 4096 },
		{ 512, 1000 * 512 },
		{ 4096, 1ull << 30 },
		{ 1 << 20, 5ull << 30 },
		{ 8192, (1ull << 40) + 8192 }, /* large, not a power of two */
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		for (unsigned t = 0; t < 3; t++) {
			struct bench_job job = job_for(PAT_RAND, cases[k].bs, cases[k].region,
						       UINT64_MAX, 3, false, k);
			struct offset_gen g;
			uint64_t quota, off;
			offset_gen_init(&g, &job, t, &quota);
			for (int i = 0; i < 20000; i++) {
				assert_true(offset_gen_next(&g, &off));
				assert_true(off % cases[k].bs == 0);
				assert_true(off + cases[k].bs <= cases[k].region);
			}
		}
	}
	/* random runs end by quota, not by the generator */
	struct bench_job job = job_for(PAT_RAND, 4096, 1 << 20, 1 << 20, 1, false, 1);
	struct offset_gen g;
	uint64_t quota, off;
	offset_gen_init(&g, &job, 0, &quota);
	assert_int_equal(quota, 1 << 20);
	for (int i = 0; i < 1000; i++)
		assert_true(offset_gen_next(&g, &off));
}

static void test_random_uniform(void **state)
{
	(void)state;
	enum { BUCKETS = 64, DRAWS = 200000 };
	/* 64 buckets of 100 blocks each; bs not a power of two on purpose */
	const uint64_t bs = 4096 * 3, blocks = BUCKETS * 100;
	struct bench_job job = job_for(PAT_RAND, bs, blocks * bs, UINT64_MAX, 1, false, 2024);
	struct offset_gen g;
	uint64_t quota, off;
	unsigned count[BUCKETS] = { 0 };
	offset_gen_init(&g, &job, 0, &quota);
	for (int i = 0; i < DRAWS; i++) {
		assert_true(offset_gen_next(&g, &off));
		count[(off / bs) / 100]++;
	}
	double expect = (double)DRAWS / BUCKETS, chi2 = 0;
	for (int b = 0; b < BUCKETS; b++) {
		double d = count[b] - expect;
		chi2 += d * d / expect;
		/* every bucket within 10 % of its share (sd is about 1.8 %) */
		assert_true(count[b] > expect * 0.9 && count[b] < expect * 1.1);
	}
	/* 63 degrees of freedom: mean 63, sd 11; 150 is far out */
	if (chi2 >= 150)
		print_error("chi-square %.1f over %d buckets\n", chi2, BUCKETS);
	assert_true(chi2 < 150);

	/* the first and last block are reachable */
	bool first = false, last = false;
	struct bench_job small = job_for(PAT_RAND, 4096, 16 * 4096, UINT64_MAX, 1, false, 3);
	offset_gen_init(&g, &small, 0, &quota);
	for (int i = 0; i < 2000; i++) {
		assert_true(offset_gen_next(&g, &off));
		first |= off == 0;
		last |= off == 15 * 4096;
	}
	assert_true(first && last);
}

/* Runs every thread's generator of a sequential, non-wrapping job and
 * checks that the blocks visited within the quotas partition the region:
 * each thread sequential, each block at most once, none outside the region,
 * quotas summing to the limit (clipped to the region), and every block once
 * when the limit covers the region. */
static void check_seq_partition(uint64_t bs, uint64_t region, uint64_t limit, unsigned threads)
{
	struct bench_job job = job_for(PAT_SEQ, bs, region, limit, threads, false, 1);
	uint64_t nblocks = region / bs;
	unsigned char *seen = calloc(nblocks ? nblocks : 1, 1);
	assert_non_null(seen);
	uint64_t quota_sum = 0, visited = 0;
	for (unsigned t = 0; t < threads; t++) {
		struct offset_gen g;
		uint64_t quota, off, moved = 0, prev = 0;
		offset_gen_init(&g, &job, t, &quota);
		assert_true(quota % bs == 0);
		quota_sum += quota;
		while (moved < quota) {
			assert_true(offset_gen_next(&g, &off));
			if (moved > 0)
				assert_int_equal(off, prev + bs); /* sequential */
			prev = off;
			assert_true(off % bs == 0);
			assert_true(off + bs <= region);
			if (seen[off / bs])
				print_error("threads %u: thread %u visits block %llu again\n", threads, t,
					    (unsigned long long)(off / bs));
			assert_int_equal(seen[off / bs], 0); /* no overlap */
			seen[off / bs] = 1;
			moved += bs;
			visited++;
		}
	}
	uint64_t want = limit == UINT64_MAX ? nblocks * bs : limit / bs * bs;
	if (want > nblocks * bs)
		want = nblocks * bs;
	if (quota_sum != want)
		print_error("bs %llu region %llu limit %llu threads %u: quotas sum to %llu, want %llu\n",
			    (unsigned long long)bs, (unsigned long long)region,
			    (unsigned long long)limit, threads, (unsigned long long)quota_sum,
			    (unsigned long long)want);
	assert_int_equal(quota_sum, want);
	assert_int_equal(visited * bs, want);
	if (want == nblocks * bs) /* no gap: every block exactly once */
		for (uint64_t b = 0; b < nblocks; b++)
			assert_int_equal(seen[b], 1);
	free(seen);
}

/* A slice run to its end stops: a non-wrapping generator runs out. */
static void test_seq_slice_ends(void **state)
{
	(void)state;
	const uint64_t bs = 4096, region = 10 * 4096;
	for (unsigned threads = 1; threads <= 4; threads++) {
		struct bench_job job = job_for(PAT_SEQ, bs, region, region, threads, false, 1);
		uint64_t total = 0;
		for (unsigned t = 0; t < threads; t++) {
			struct offset_gen g;
			uint64_t quota, off, n = 0;
			offset_gen_init(&g, &job, t, &quota);
			while (offset_gen_next(&g, &off))
				assert_true(++n <= region / bs);
			assert_int_equal(n * bs, quota);
			assert_false(offset_gen_next(&g, &off));
			total += n;
		}
		assert_int_equal(total * bs, region);
	}
	/* one thread: 0, bs, 2 bs, ... */
	struct bench_job job = job_for(PAT_SEQ, bs, region, region, 1, false, 1);
	struct offset_gen g;
	uint64_t quota, off;
	offset_gen_init(&g, &job, 0, &quota);
	for (uint64_t i = 0; i < region / bs; i++) {
		assert_true(offset_gen_next(&g, &off));
		assert_int_equal(off, i * bs);
	}
}

static void test_seq_partition(void **state)
{
	(void)state;
	static const unsigned thread_counts[] = { 1, 2, 3, 4, 7, 8, 16, 33 };
	for (size_t k = 0; k < sizeof(thread_counts) / sizeof(thread_counts[0]); k++) {
		unsigned n = thread_counts[k];
		check_seq_partition(4096, 1 << 20, 1 << 20, n);           /* limit == region */
		check_seq_partition(4096, 1 << 20, UINT64_MAX, n);        /* no byte limit */
		check_seq_partition(4096, 1 << 20, 4ull << 20, n);        /* limit > region */
		check_seq_partition(4096, 1000 * 4096, 1000 * 4096, n);   /* uneven split */
		check_seq_partition(512, 511 * 512, 511 * 512, n);        /* prime block count */
		check_seq_partition(4096, 1 << 20, 100 * 4096, n);        /* limit < region */
		check_seq_partition(4096, 1 << 20, 100 * 4096 + 17, n);   /* not whole blocks */
	}
	check_seq_partition(1 << 20, 1ull << 30, 1ull << 30, 1);
	check_seq_partition(4096, 3 * 4096, 3 * 4096, 8); /* more threads than blocks */
}

static void test_seq_wrap(void **state)
{
	(void)state;
	const uint64_t bs = 4096, region = 16 * 4096;
	/* one thread: 0, bs, ..., region - bs, then 0 again, three times over */
	struct bench_job job = job_for(PAT_SEQ, bs, region, 3 * region, 1, true, 1);
	struct offset_gen g;
	uint64_t quota, off;
	offset_gen_init(&g, &job, 0, &quota);
	assert_int_equal(quota, 3 * region);
	for (uint64_t i = 0; i < 3 * region / bs; i++) {
		assert_true(offset_gen_next(&g, &off));
		assert_int_equal(off, (i * bs) % region);
	}
	/* wrapping never runs out */
	for (int i = 0; i < 1000; i++) {
		assert_true(offset_gen_next(&g, &off));
		assert_true(off < region && off % bs == 0);
	}

	/* several threads: each walks its part of the region sequentially and,
	 * at that part's end, starts over at its beginning, never leaving the
	 * region */
	job = job_for(PAT_SEQ, bs, region, UINT64_MAX, 4, true, 1);
	for (unsigned t = 0; t < 4; t++) {
		offset_gen_init(&g, &job, t, &quota);
		uint64_t prev, lo = UINT64_MAX, hi = 0;
		assert_true(offset_gen_next(&g, &prev));
		unsigned wraps = 0;
		for (int i = 0; i < 100; i++) {
			assert_true(offset_gen_next(&g, &off));
			assert_true(off < region && off % bs == 0);
			lo = off < lo ? off : lo;
			hi = off > hi ? off : hi;
			if (off != prev + bs) {
				/* a restart: from the last block of the range to its first */
				assert_int_equal(off, g.start);
				assert_int_equal(prev + bs, g.end);
				wraps++;
			}
			prev = off;
		}
		assert_true(wraps >= 2);
		assert_int_equal(lo, g.start);
		assert_int_equal(hi + bs, g.end);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_seed_same_sequence),
		cmocka_unit_test(test_streams_and_seeds_differ),
		cmocka_unit_test(test_never_stuck),
		cmocka_unit_test(test_below_range_and_bits),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_random_reproducible),
		cmocka_unit_test(test_random_inside_and_aligned),
		cmocka_unit_test(test_random_uniform),
		cmocka_unit_test(test_seq_partition),
		cmocka_unit_test(test_seq_slice_ends),
		cmocka_unit_test(test_seq_wrap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
