/* Rendering of `capacity` (issue 42): its steps were printed as they ended
 * (cmd_capacity.c); the text result is what the device claims and holds,
 * and what becomes of a write past that.  JSON holds "capacity" with the
 * steps; CSV one row. */
#include <stdio.h>
#include <string.h>

#include "capacity.h"
#include "json.h"
#include "output.h"
#include "render.h"
#include "units.h"

/* "4.3 GB (4.0 GiB)" */
static void both_units(char *buf, size_t len, uint64_t bytes)
{
	char si[32], iec[32];
	fmt_bytes_si(si, sizeof(si), bytes);
	fmt_bytes_iec(iec, sizeof(iec), bytes);
	snprintf(buf, len, "%s (%s)", si, iec);
}

/* "narrow: 32 blocks written across 412 MiB-513 MiB, read back: good to
 * 536866816 B, bad from 512 MiB; it wraps every 512 MiB (0.41 s)": the
 * bounds and the period exact (the largest unit that divides), since the
 * last steps move them by less than a rounded figure shows. */
void out_capacity_step(FILE *f, const struct capacity_report *rep, const struct cap_step *st)
{
	char from[32], to[32], bad[48] = "nothing bad yet", good[32], period[64] = "";
	fmt_bytes_iec(from, sizeof(from), st->from);
	fmt_bytes_iec(to, sizeof(to), st->to);
	fmt_size_exact(good, sizeof(good), st->good);
	if (st->bad < rep->claimed) {
		char b[32];
		fmt_size_exact(b, sizeof(b), st->bad);
		snprintf(bad, sizeof(bad), "bad from %s", b);
	}
	if (st->period) {
		char p[32];
		fmt_size_exact(p, sizeof(p), st->period);
		snprintf(period, sizeof(period), "; it wraps every %s", p);
	}
	if (st->kind == CAP_STEP_SCAN) {
		char every[32];
		fmt_bytes_iec(every, sizeof(every), rep->plan.base);
		fprintf(f, "scan: %u blocks read, one every %s from %s: good to %s, %s%s (%.2f s)\n",
			st->blocks, every, from, good, bad, period, st->seconds);
	} else {
		fprintf(f, "%s: %u blocks written across %s-%s, read back: good to %s, %s%s (%.2f s)\n",
			cap_step_name(st->kind), st->blocks, from, to, good, bad, period, st->seconds);
	}
	fflush(f);
}

/* What becomes of a write past the end, after "holds X". */
static void past_words(char *buf, size_t len, const struct capacity_report *rep)
{
	char at[32], to[32];
	switch (rep->past) {
	case CAP_PAST_WRAP:
		fmt_bytes_si(at, sizeof(at), rep->holds);
		fmt_bytes_si(to, sizeof(to), rep->wraps_to);
		if (rep->wraps_to == 0)
			snprintf(buf, len, "writes past %s wrap to offset 0", at);
		else
			snprintf(buf, len, "writes past %s wrap to offset %llu (%s)", at,
				 (unsigned long long)rep->wraps_to, to);
		break;
	case CAP_PAST_ZEROS:
		snprintf(buf, len, "writes past it are lost (they read back as zeros)");
		break;
	case CAP_PAST_LOST:
		snprintf(buf, len, "writes past it are lost (they do not read back)");
		break;
	case CAP_PAST_ERROR:
		snprintf(buf, len, "I/O past it fails (%s)", strerror(rep->error));
		break;
	case CAP_PAST_NONE:
		buf[0] = '\0';
		break;
	}
}

static void detail_lines(FILE *f, const struct result *r, const struct capacity_report *rep)
{
	char written[32], read[32];
	if (rep->holds < rep->claimed) {
		fprintf(f, "  exact: claims %llu bytes, holds %llu; the last good sector is at offset "
			"%llu", (unsigned long long)rep->claimed, (unsigned long long)rep->holds,
			(unsigned long long)(rep->holds ? rep->holds - rep->sector : 0));
		if (rep->holds >= rep->sector)
			fprintf(f, " (f3fix --last-sec=%llu %s makes a partition of the part that holds)",
				(unsigned long long)(rep->holds / rep->sector - 1), r->file);
		fputc('\n', f);
	}
	if (rep->past == CAP_PAST_WRAP)
		fprintf(f, "  wrap: reading offset %llu returned the block written at offset %llu "
			"(the same place, every %llu bytes)\n", (unsigned long long)rep->seen_at,
			(unsigned long long)rep->seen_of, (unsigned long long)rep->period);
	fmt_bytes_iec(written, sizeof(written), rep->written);
	fmt_bytes_iec(read, sizeof(read), rep->read);
	fprintf(f, "  probe: %u steps, %llu writes (%s), %llu reads (%s) in %.2f s; ", rep->nsteps,
		(unsigned long long)rep->writes, written, (unsigned long long)rep->reads, read,
		rep->seconds);
	if (rep->destructive)
		fprintf(f, "--destructive: what it wrote was not put back\n");
	else
		fprintf(f, "the %llu ranges it overwrote were saved to %s and put back\n",
			(unsigned long long)rep->saved, rep->journal);
}

static void capacity_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	const struct capacity_report *rep = r->detail;
	char claimed[80], holds[80], past[160];
	(void)histogram;
	if (!rep)
		return;
	both_units(claimed, sizeof(claimed), rep->claimed);
	if (rep->holds >= rep->claimed) {
		fprintf(f, "capacity: %s claims %s, holds all of it\n", r->file, claimed);
	} else {
		both_units(holds, sizeof(holds), rep->holds);
		past_words(past, sizeof(past), rep);
		fprintf(f, "capacity: %s claims %s, holds %s: %s\n", r->file, claimed, holds, past);
	}
	if (!quiet)
		detail_lines(f, r, rep);
}

static void json_offset_or_null(struct json *j, const char *key, bool known, uint64_t v)
{
	json_key(j, key);
	known ? json_uint(j, v) : json_null(j);
}

static void json_step(struct json *j, const struct capacity_report *rep, const struct cap_step *st,
		      unsigned n)
{
	json_object_begin(j);
	json_key(j, "n"), json_uint(j, n);
	json_key(j, "kind"), json_string(j, cap_step_name(st->kind));
	json_key(j, "from"), json_uint(j, st->from);
	json_key(j, "to"), json_uint(j, st->to);
	json_key(j, "blocks"), json_uint(j, st->blocks);
	json_key(j, "good_to"), json_uint(j, st->good);
	json_offset_or_null(j, "bad_from", st->bad < rep->claimed, st->bad);
	json_offset_or_null(j, "wrap_period_bytes", st->period != 0, st->period);
	json_key(j, "seconds"), json_double(j, st->seconds, 6);
	json_object_end(j);
}

static void json_journal(struct json *j, const struct capacity_report *rep)
{
	json_key(j, "destructive"), json_bool(j, rep->destructive);
	json_key(j, "journal"), json_string(j, rep->destructive ? NULL : rep->journal);
	json_key(j, "saved_ranges"), json_uint(j, rep->saved);
	json_key(j, "saved_bytes"), json_uint(j, rep->saved_bytes);
	json_key(j, "restored_ranges"), json_uint(j, rep->restored);
	json_key(j, "restore_failed"), json_uint(j, rep->restore_failed);
	json_key(j, "journal_kept"), json_bool(j, rep->journal_kept);
	json_key(j, "replayed");
	if (!rep->replay.done) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	json_key(j, "journal"), json_string(j, rep->replay.path);
	json_key(j, "ranges"), json_uint(j, rep->replay.ranges);
	json_key(j, "sectors_put_back"), json_uint(j, rep->replay.sectors);
	json_key(j, "sectors_left"), json_uint(j, rep->replay.skipped);
	json_key(j, "failed"), json_uint(j, rep->replay.failed);
	json_object_end(j);
}

static void json_plan(struct json *j, const struct capacity_report *rep)
{
	const struct cap_plan *p = &rep->plan;
	json_key(j, "sector_bytes"), json_uint(j, rep->sector);
	json_key(j, "block_bytes"), json_uint(j, p->bs);
	json_key(j, "blocks_per_step"), json_uint(j, p->spread);
	json_key(j, "base_from"), json_uint(j, p->guard);
	json_key(j, "base_bytes"), json_uint(j, p->base);
	json_key(j, "flood_bytes"), json_uint(j, p->flood);
}

static void capacity_json(struct json *j, const struct result *r)
{
	const struct capacity_report *rep = r->detail;
	out_json_file_device(j, r);
	json_key(j, "capacity");
	if (!rep) {
		json_null(j);
		return;
	}
	bool fake = rep->holds < rep->claimed;
	json_object_begin(j);
	json_key(j, "claimed_bytes"), json_uint(j, rep->claimed);
	json_key(j, "holds_bytes"), json_uint(j, rep->holds);
	json_key(j, "holds_all"), json_bool(j, !fake);
	json_key(j, "done"), json_bool(j, rep->done);
	json_key(j, "good_to"), json_uint(j, rep->good);
	json_offset_or_null(j, "last_good_offset", rep->holds > 0, rep->holds - rep->sector);
	json_key(j, "past_end"), json_string(j, fake ? cap_past_name(rep->past) : NULL);
	json_offset_or_null(j, "wrap_period_bytes", rep->past == CAP_PAST_WRAP, rep->period);
	json_offset_or_null(j, "wraps_to_offset", rep->past == CAP_PAST_WRAP, rep->wraps_to);
	json_offset_or_null(j, "seen_at_offset", rep->past == CAP_PAST_WRAP, rep->seen_at);
	json_offset_or_null(j, "seen_written_at", rep->past == CAP_PAST_WRAP, rep->seen_of);
	json_key(j, "io_error");
	json_string(j, rep->past == CAP_PAST_ERROR && fake ? strerror(rep->error) : NULL);
	json_plan(j, rep);
	json_key(j, "writes"), json_uint(j, rep->writes);
	json_key(j, "bytes_written"), json_uint(j, rep->written);
	json_key(j, "reads"), json_uint(j, rep->reads);
	json_key(j, "bytes_read"), json_uint(j, rep->read);
	json_key(j, "seconds"), json_double(j, rep->seconds, 6);
	json_journal(j, rep);
	json_key(j, "steps");
	json_array_begin(j);
	for (unsigned i = 0; i < rep->nsteps; i++)
		json_step(j, rep, &rep->steps[i], i + 1);
	json_array_end(j);
	json_object_end(j);
}

static void capacity_csv(FILE *f, const struct result *r)
{
	const struct capacity_report *rep = r->detail;
	bool fake = rep && rep->holds < rep->claimed, wrap = fake && rep->past == CAP_PAST_WRAP;
	fputs("test,target,claimed_bytes,holds_bytes,holds_all,past_end,last_good_offset,"
	      "wrap_period_bytes,wraps_to_offset,steps,writes,bytes_written,reads,bytes_read,"
	      "seconds,restored_ranges,error\n", f);
	out_csv_field(f, r->test);
	fputc(',', f);
	out_csv_field(f, r->target);
	if (rep && rep->nsteps > 0) {
		fprintf(f, ",%llu,%llu,%s,%s,", (unsigned long long)rep->claimed,
			(unsigned long long)rep->holds, fake ? "false" : "true",
			fake ? cap_past_name(rep->past) : "");
		if (rep->holds > 0)
			fprintf(f, "%llu", (unsigned long long)(rep->holds - rep->sector));
		fputc(',', f);
		if (wrap)
			fprintf(f, "%llu,%llu", (unsigned long long)rep->period,
				(unsigned long long)rep->wraps_to);
		else
			fputc(',', f);
		fprintf(f, ",%u,%llu,%llu,%llu,%llu,%.6f,%llu,", rep->nsteps,
			(unsigned long long)rep->writes, (unsigned long long)rep->written,
			(unsigned long long)rep->reads, (unsigned long long)rep->read, rep->seconds,
			(unsigned long long)rep->restored);
	} else {
		fputs(",,,,,,,,,,,,,,,", f);
	}
	out_csv_field(f, r->error[0] ? r->error : NULL);
	fputc('\n', f);
}

const struct renderers render_capacity = { capacity_text, capacity_json, capacity_csv, NULL, NULL };
