/* capacity's search against fake devices whose truth the test sets: an
 * honest one; one that wraps at 512 MiB of a claimed 4 GiB; one that wraps
 * at a size that is no power of two (nor a multiple of the probe block);
 * one that wraps onto an offset other than 0; one that loses writes past
 * its end (reads return zeros); one whose I/O fails past its end.  Each
 * must be found to the sector, within the plan's worst case, and every
 * sector capacity overwrote must be back byte for byte afterwards, also
 * when a signal comes mid-run.  The fake keeps only the sectors written;
 * every other sector reads as a pattern of its place on the medium, which
 * is what "back as it was" is checked against. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capacity.h"
#include "capacity_int.h"
#include "fake_dev.h"

#define MIB (1024ull * 1024)
#define GIB (1024 * MIB)

static char dir[64], journal[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_capacity.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(journal, sizeof(journal), "%s/undo", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(journal);
	rmdir(dir);
	return 0;
}

/* A run as capacity does it: the probe with every write saved, then the
 * restore; the journal removed when all is back. */
static void probe(struct fake *f, struct capacity_report *rep, const struct cap_hooks *hooks)
{
	struct cap_dev dev;
	char why[256] = "";
	fake_dev(f, &dev);
	memset(rep, 0, sizeof(*rep));
	capacity_plan(dev.size, dev.sector, &rep->plan);
	struct cap_journal *j = cap_journal_create(journal, 42, dev.size, dev.sector, "fake",
						   rep->plan.max_saved);
	assert_non_null(j);
	int rc = capacity_probe(&dev, j, 42, hooks, rep, why, sizeof(why));
	if (rc != 0)
		fail_msg("capacity_probe: %s", why);
	uint64_t lost = cap_journal_restore(j, &dev, rep->holds, rep);
	assert_int_equal(lost, 0);
	cap_journal_close(j, true);
	assert_int_equal(access(journal, F_OK), -1);
}

/* What every run must keep to: the plan's worst case, and the device as it was. */
static void check_run(struct fake *f, const struct capacity_report *rep)
{
	assert_true(rep->nsteps <= rep->plan.max_steps);
	assert_true(rep->written <= rep->plan.max_written);
	assert_true(rep->read <= rep->plan.max_read);
	assert_true(rep->saved_bytes <= rep->plan.max_saved);
	assert_true(rep->saved > 0);
	assert_int_equal(rep->restored, rep->saved);
	assert_int_equal(fake_changed(f), 0);
}

static void test_honest(void **state)
{
	(void)state;
	struct fake f;
	struct capacity_report rep;
	fake_init(&f, 4 * GIB, 4 * GIB, FAKE_HONEST, 512);
	probe(&f, &rep, NULL);
	assert_true(rep.done);
	assert_int_equal(rep.holds, 4 * GIB);
	assert_int_equal(rep.past, CAP_PAST_NONE);
	assert_int_equal(rep.period, 0);
	/* an honest device: the spread and the scan, nothing to narrow */
	assert_int_equal(rep.nsteps, 2);
	check_run(&f, &rep);
	fake_free(&f);
}

static void expect_wrap(uint64_t claimed, uint64_t real, uint64_t to, unsigned sector)
{
	struct fake f;
	struct capacity_report rep;
	fake_init(&f, claimed, real, FAKE_WRAP, sector);
	f.wraps_to = to;
	probe(&f, &rep, NULL);
	assert_true(rep.done);
	assert_int_equal(rep.holds, real);
	assert_int_equal(rep.good, real);
	assert_int_equal(rep.past, CAP_PAST_WRAP);
	assert_int_equal(rep.period, real - to);
	assert_int_equal(rep.wraps_to, to);
	/* the evidence: two offsets one period apart, the higher past the end */
	assert_int_equal(rep.seen_at > rep.seen_of ? rep.seen_at - rep.seen_of
						 : rep.seen_of - rep.seen_at, real - to);
	check_run(&f, &rep);
	fake_free(&f);
}

static void test_wrap_512m_of_4g(void **state)
{
	(void)state;
	expect_wrap(4 * GIB, 512 * MIB, 0, 512);
}

/* 299999744 bytes: a multiple of the sector, not of the 4 KiB probe block */
static void test_wrap_not_power_of_two(void **state)
{
	(void)state;
	expect_wrap(2 * GIB, 299999744, 0, 512);
	/* a claimed size that is no multiple of the probe block either */
	expect_wrap(1999999488, 777777664, 0, 512);
}

static void test_wrap_4k_sectors(void **state)
{
	(void)state;
	expect_wrap(8 * GIB, 3 * GIB + 4096 * 77, 0, 4096);
}

/* past the end, writes land on [64 KiB, end): the period is end - 64 KiB */
static void test_wrap_to_offset(void **state)
{
	(void)state;
	expect_wrap(4 * GIB, 1 * GIB + 512 * 5, 64 * 1024, 512);
}

static void expect_end(enum fake_kind kind, uint64_t claimed, uint64_t real, enum cap_past past)
{
	struct fake f;
	struct capacity_report rep;
	fake_init(&f, claimed, real, kind, 512);
	probe(&f, &rep, NULL);
	assert_true(rep.done);
	assert_int_equal(rep.holds, real);
	assert_int_equal(rep.past, past);
	assert_int_equal(rep.period, 0);
	if (past == CAP_PAST_ERROR)
		assert_int_equal(rep.error, EIO);
	check_run(&f, &rep);
	fake_free(&f);
}

static void test_zeros_past_end(void **state)
{
	(void)state;
	expect_end(FAKE_ZEROS, 4 * GIB, 1 * GIB + 512 * 12345, CAP_PAST_ZEROS);
	expect_end(FAKE_ZEROS, 64 * GIB, 8 * GIB, CAP_PAST_ZEROS);
}

static void test_fails_past_end(void **state)
{
	(void)state;
	expect_end(FAKE_FAILS, 4 * GIB, 700 * MIB + 512 * 3, CAP_PAST_ERROR);
}

/* A device cache that answers reads of what it dropped (a limbo drive with
 * 4 MiB of cache): the flood between writes and reads pushes the probes
 * out of it, so it cannot make lost writes look kept. */
static void test_small_cache_flooded(void **state)
{
	(void)state;
	struct fake f;
	struct capacity_report rep;
	fake_init(&f, 4 * GIB, 1 * GIB, FAKE_ZEROS, 512);
	fake_cache(&f, 4 * MIB);
	probe(&f, &rep, NULL);
	assert_int_equal(rep.holds, 1 * GIB);
	assert_int_equal(rep.past, CAP_PAST_ZEROS);
	check_run(&f, &rep);
	fake_free(&f);
}

/* ---- signals, crashes and the journal -------------------------------------- */

static volatile sig_atomic_t terms;

static void on_term(int signo)
{
	(void)signo;
	terms++;
}

static bool stop_on_signal(void *ctx)
{
	(void)ctx;
	return cap_signals_pending();
}

/* SIGTERM comes after the 40th write (in the middle of a narrowing step):
 * the probe stops at the next I/O, every block goes back, and only then is
 * the signal delivered. */
static void test_signal_mid_run(void **state)
{
	(void)state;
	struct fake f;
	struct capacity_report rep;
	struct sigaction sa = { .sa_handler = on_term }, old;
	struct cap_hooks hooks = { NULL, stop_on_signal, NULL };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, &old);
	terms = 0;
	fake_init(&f, 4 * GIB, 512 * MIB, FAKE_WRAP, 512);
	f.signal_after = 40;
	cap_signals_hold();
	probe(&f, &rep, &hooks);
	assert_int_equal(terms, 0); /* held until every block was back */
	assert_false(rep.done);
	assert_int_equal(fake_changed(&f), 0);
	assert_int_equal(rep.restored, rep.saved);
	assert_true(f.writes < 200); /* it stopped soon after */
	cap_signals_release();
	assert_int_equal(terms, 1);
	sigaction(SIGTERM, &old, NULL);
	fake_free(&f);
}

static bool stop_after_writes(void *ctx)
{
	const struct fake *f = ctx;
	return f->writes >= f->stop_at;
}

/* A run killed after its n-th write, leaving its journal: the file as the
 * process left it, and the device with its stamps. */
static struct cap_journal *killed_run(struct fake *f, unsigned n)
{
	struct cap_dev dev;
	struct capacity_report rep;
	char why[256];
	struct cap_hooks hooks = { f, stop_after_writes, NULL };
	fake_dev(f, &dev);
	memset(&rep, 0, sizeof(rep));
	capacity_plan(dev.size, dev.sector, &rep.plan);
	struct cap_journal *j = cap_journal_create(journal, 7, dev.size, dev.sector, "fake", 0);
	assert_non_null(j);
	f->stop_at = n;
	assert_int_equal(capacity_probe(&dev, j, 7, &hooks, &rep, why, sizeof(why)), 0);
	assert_false(rep.done);
	return j;
}

static void test_replay_after_kill(void **state)
{
	(void)state;
	struct fake f;
	struct cap_dev dev;
	struct cap_replay rp;
	char why[256];
	fake_init(&f, 4 * GIB, 512 * MIB, FAKE_WRAP, 512);
	cap_journal_close(killed_run(&f, 50), false); /* the process died: the file stays */
	assert_true(fake_changed(&f) > 0);
	assert_int_equal(access(journal, F_OK), 0);
	fake_dev(&f, &dev);
	assert_int_equal(cap_journal_replay(journal, &dev, &rp, why, sizeof(why)), 1);
	assert_true(rp.done);
	assert_int_equal(rp.failed, 0);
	assert_true(rp.sectors > 0);
	assert_int_equal(fake_changed(&f), 0);
	assert_int_equal(access(journal, F_OK), -1); /* all back: removed */
	/* nothing left: a second replay finds no file */
	assert_int_equal(cap_journal_replay(journal, &dev, &rp, why, sizeof(why)), 0);
	fake_free(&f);
}

/* After the kill, someone wrote one of the sectors capacity had stamped
 * (a new filesystem, say): the replay leaves that sector alone and puts
 * back every other; a torn entry at the journal's end (the run died
 * appending it) is ignored. */
static void test_replay_leaves_new_data(void **state)
{
	(void)state;
	struct fake f;
	struct cap_dev dev;
	struct cap_replay rp;
	char why[256];
	unsigned char mine[512];
	fake_init(&f, 4 * GIB, 4 * GIB, FAKE_HONEST, 512);
	cap_journal_close(killed_run(&f, 20), false);
	uint64_t stamped = fake_some_changed(&f);
	memset(mine, 0xa5, sizeof(mine));
	fake_poke(&f, stamped, mine);
	FILE *jf = fopen(journal, "a");
	assert_non_null(jf);
	fputs("torn", jf);
	fclose(jf);
	fake_dev(&f, &dev);
	assert_int_equal(cap_journal_replay(journal, &dev, &rp, why, sizeof(why)), 1);
	assert_int_equal(rp.failed, 0);
	assert_true(rp.skipped >= 1);
	assert_int_equal(fake_changed(&f), 1); /* the new sector alone */
	assert_memory_equal(fake_peek(&f, stamped), mine, sizeof(mine));
	fake_free(&f);
}

/* Every range written back but the flush after failed: the journal stays
 * (the writes may not be on the medium), saying they were written back; the
 * next run finds none of the stamps and, knowing why, removes it. */
static void test_replay_after_failed_flush(void **state)
{
	(void)state;
	struct fake f;
	struct cap_dev dev;
	struct cap_replay rp;
	struct capacity_report rep;
	char why[256];
	fake_init(&f, 4 * GIB, 512 * MIB, FAKE_WRAP, 512);
	fake_dev(&f, &dev);
	memset(&rep, 0, sizeof(rep));
	capacity_plan(dev.size, dev.sector, &rep.plan);
	struct cap_journal *j = cap_journal_create(journal, 11, dev.size, dev.sector, "fake", 0);
	assert_non_null(j);
	assert_int_equal(capacity_probe(&dev, j, 11, NULL, &rep, why, sizeof(why)), 0);
	f.flush_fails = true;
	assert_int_equal(cap_journal_restore(j, &dev, rep.holds, &rep), 1);
	cap_journal_close(j, false);
	f.flush_fails = false;
	assert_int_equal(fake_changed(&f), 0);
	assert_int_equal(cap_journal_replay(journal, &dev, &rp, why, sizeof(why)), 1);
	assert_int_equal(rp.sectors, 0);
	assert_int_equal(access(journal, F_OK), -1);
	fake_free(&f);
}

/* A journal of another device (another size, or a twin without that run's
 * stamps) is refused and kept, the device untouched; so is a file that is
 * no journal. */
static void test_replay_refuses_others(void **state)
{
	(void)state;
	struct fake f, other;
	struct cap_dev dev;
	struct cap_replay rp;
	char why[256];
	fake_init(&f, 4 * GIB, 4 * GIB, FAKE_HONEST, 512);
	cap_journal_close(killed_run(&f, 10), false);
	fake_init(&other, 2 * GIB, 2 * GIB, FAKE_HONEST, 512);
	fake_dev(&other, &dev);
	assert_int_equal(cap_journal_replay(journal, &dev, &rp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "another device"));
	assert_int_equal(access(journal, F_OK), 0);
	assert_int_equal(other.writes, 0);
	fake_free(&other);
	/* a twin of the same size: none of that run's stamps on it, so the
	 * journal is the other one's only copy of those bytes: kept */
	fake_init(&other, 4 * GIB, 4 * GIB, FAKE_HONEST, 512);
	fake_dev(&other, &dev);
	assert_int_equal(cap_journal_replay(journal, &dev, &rp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "another device's"));
	assert_int_equal(access(journal, F_OK), 0);
	assert_int_equal(other.writes, 0);
	unlink(journal);
	FILE *jf = fopen(journal, "w");
	fputs("not a journal at all, but long enough to hold a header's worth of bytes......"
	      "................................................................................"
	      "................................................................................"
	      "................................................................................",
	      jf);
	fclose(jf);
	assert_int_equal(cap_journal_replay(journal, &dev, &rp, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not a capacity undo journal"));
	unlink(journal);
	fake_free(&f);
	fake_free(&other);
}

/* --destructive: the same answer, and what it wrote stays. */
static void test_destructive(void **state)
{
	(void)state;
	struct fake f;
	struct cap_dev dev;
	struct capacity_report rep;
	char why[256];
	fake_init(&f, 4 * GIB, 512 * MIB, FAKE_WRAP, 512);
	fake_dev(&f, &dev);
	memset(&rep, 0, sizeof(rep));
	capacity_plan(dev.size, dev.sector, &rep.plan);
	assert_int_equal(capacity_probe(&dev, NULL, 9, NULL, &rep, why, sizeof(why)), 0);
	assert_int_equal(rep.holds, 512 * MIB);
	assert_true(rep.destructive);
	assert_int_equal(rep.saved, 0);
	assert_true(fake_changed(&f) > 0);
	fake_free(&f);
}

/* ---- the stamps ----------------------------------------------------------------- */

static void test_stamps(void **state)
{
	(void)state;
	unsigned char buf[4096];
	uint64_t at = 0;
	cap_stamp(buf, sizeof(buf), 1 << 20, 99, 512);
	for (unsigned i = 0; i < 8; i++) {
		assert_int_equal(cap_stamp_seen(buf + 512 * i, 512, 99, &at), CAP_SEEN_OURS);
		assert_int_equal(at, (1 << 20) + 512 * i);
	}
	assert_int_equal(cap_stamp_seen(buf, 512, 98, &at), CAP_SEEN_OTHER); /* another run's */
	buf[300] ^= 1;
	assert_int_equal(cap_stamp_seen(buf, 512, 99, &at), CAP_SEEN_OTHER); /* not whole */
	memset(buf, 0, 512);
	assert_int_equal(cap_stamp_seen(buf, 512, 99, &at), CAP_SEEN_ZEROS);
	cap_stamp(buf, 4096, 0, 5, 4096);
	assert_int_equal(cap_stamp_seen(buf, 4096, 5, &at), CAP_SEEN_OURS);
	assert_int_equal(at, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stamps),
		cmocka_unit_test_setup_teardown(test_honest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrap_512m_of_4g, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrap_not_power_of_two, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrap_4k_sectors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrap_to_offset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zeros_past_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fails_past_end, setup, teardown),
		cmocka_unit_test_setup_teardown(test_small_cache_flooded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_signal_mid_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay_after_kill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay_leaves_new_data, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay_after_failed_flush, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay_refuses_others, setup, teardown),
		cmocka_unit_test_setup_teardown(test_destructive, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
