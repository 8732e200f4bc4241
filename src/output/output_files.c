/* Rendering of files: a result line and a table of phases in text, the
 * phases as keys of the JSON "result", and CSV with a row per phase. */
#include <string.h>

#include "render.h"
#include "files.h"
#include "json.h"
#include "names.h"
#include "devinfo_health.h"
#include "output.h"
#include "units.h"

static const struct files_result *files_of(const struct result *r)
{
	return r->detail;
}

/* What the figures of the create and delete phases include. */
static const char *sync_words(const struct files_result *fr)
{
	return fr->fsync ? "fsync of each file and its directory: names on stable storage"
			 : "no fsync: the names may not have reached the disk";
}

/* "dropped", "cached" or "not evicted": where stat found the inodes. */
static const char *metadata_state(const struct files_result *fr)
{
	if (fr->drop == DROP_NONE)
		return "not evicted";
	return fr->drop == DROP_ALL && fr->drop_all_errno == 0 ? "dropped" : "cached";
}

/* " seq create 160k/s, stat 812k/s, delete 210k/s" */
static void text_order_rates(FILE *f, const struct files_result *fr, enum files_order order)
{
	fputs(order == FILES_SEQ ? " seq" : "; rand", f);
	for (int op = 0; op < FILES_NOPS; op++) {
		const struct files_phase *p = &fr->phase[files_phase_index(order, (enum files_op)op)];
		char rate[16];
		if (!p->planned)
			continue;
		fmt_count(rate, sizeof(rate), files_phase_rate(p));
		fprintf(f, "%s %s %s/s", op == FILES_CREATE ? "" : ",", files_op_name((enum files_op)op),
			rate);
	}
}

static void text_result_line(FILE *f, const struct result *r, const struct files_result *fr)
{
	char size[32];
	fmt_size_exact(size, sizeof(size), fr->file_size);
	fprintf(f, "%s: %llu file%s of %s per pass, %u thread%s:", r->test,
		(unsigned long long)fr->n, fr->n == 1 ? "" : "s", size, fr->threads,
		fr->threads == 1 ? "" : "s");
	text_order_rates(f, fr, FILES_SEQ);
	text_order_rates(f, fr, FILES_RAND);
	fprintf(f, " [%s, %s directory]\n", sync_words(fr), fr->dir_state);
}

static void text_table(FILE *f, const struct files_result *fr)
{
	fprintf(f, "%-12s %9s %6s %9s %9s %10s %10s\n", "phase", "files", "passes", "seconds",
		"files/s", "p50", "p99");
	for (int i = 0; i < FILES_NPHASES; i++) {
		const struct files_phase *p = &fr->phase[i];
		char rate[16], lat[2][24];
		if (!p->planned)
			continue;
		fmt_count(rate, sizeof(rate), files_phase_rate(p));
		fmt_ns(lat[0], sizeof(lat[0]), (double)stats_percentile(&p->lat, 50));
		fmt_ns(lat[1], sizeof(lat[1]), (double)stats_percentile(&p->lat, 99));
		fprintf(f, "%-12s %9llu %6u %9.3f %9s %10s %10s\n", files_phase_name(i),
			(unsigned long long)p->files, p->passes, p->seconds, rate, lat[0], lat[1]);
	}
}

static void text_cache_line(FILE *f, const struct result *r, const struct files_result *fr)
{
	const char *meta = fr->drop == DROP_NONE
		? "not evicted (--drop-caches=none): the stat and read figures may come from memory"
		: strcmp(metadata_state(fr), "dropped") == 0
		? "dentries and inodes dropped before each stat and read pass"
		: "dentries and inodes stay cached, so the stat figures are warm "
		  "(--drop-caches=all, as root, drops them)";
	fputs("cache: ", f);
	if (fr->file_size == 0)
		fputs("no file data to read", f);
	else if (r->resident_before_pct >= 0)
		fprintf(f, "file data %.1f %% resident before seq-read", r->resident_before_pct);
	else
		fputs("file data residency unknown", f);
	fprintf(f, " (evicted: %s); %s\n", r->evicted, meta);
}

static void files_text(FILE *f, const struct result *r, bool quiet, bool histogram)
{
	const struct files_result *fr = files_of(r);
	text_result_line(f, r, fr);
	if (quiet)
		return;
	text_table(f, fr);
	text_cache_line(f, r, fr);
	health_text(f, r->health, true);
	for (int i = 0; histogram && i < FILES_NPHASES; i++) {
		if (!fr->phase[i].planned)
			continue;
		fprintf(f, "%s ", files_phase_name(i));
		out_histogram(f, &fr->phase[i].lat);
	}
}

/* ---- JSON ---- */

static void json_params(struct json *j, const struct result *r, const struct files_result *fr)
{
	const struct options *o = r->opt;
	json_key(j, "params");
	json_object_begin(j);
	json_key(j, "files"), json_uint(j, fr->n);
	json_key(j, "file_size"), json_uint(j, fr->file_size);
	json_key(j, "block_size"), json_uint(j, o->bs);
	json_key(j, "threads"), json_uint(j, o->threads);
	json_key(j, "per_dir"), json_uint(j, FILES_PER_DIR);
	json_key(j, "sync"), json_string(j, sync_mode_name(o->sync));
	json_key(j, "drop_caches"), json_string(j, drop_mode_name(o->drop));
	json_key(j, "min_phase_s"), json_double(j, o->time_s, 3);
	json_key(j, "repeat_cap_s"), json_double(j, fr->repeat_cap_s, 3);
	json_key(j, "data"), json_string(j, o->zeros ? "zeros" : "random");
	json_key(j, "seed"), json_uint(j, o->seed);
	json_key(j, "dir_state"), json_string(j, fr->dir_state);
	json_object_end(j);
}

static void json_phase(struct json *j, int i, const struct files_phase *p)
{
	struct stats_summary s;
	uint64_t counts[STATS_LOG2_BUCKETS];
	stats_summarize(&p->lat, &s);
	stats_log2_counts(&p->lat, counts);
	json_key(j, files_phase_key(i));
	json_object_begin(j);
	json_key(j, "op"), json_string(j, files_op_name((enum files_op)(i % FILES_NOPS)));
	json_key(j, "files"), json_uint(j, p->files);
	json_key(j, "passes"), json_uint(j, p->passes);
	json_key(j, "seconds"), json_double(j, p->seconds, 6);
	json_key(j, "files_per_sec"), json_double(j, files_phase_rate(p), 1);
	json_key(j, "bytes"), json_uint(j, p->bytes);
	if (i % FILES_NOPS == FILES_READ) {
		json_key(j, "resident_before_pct");
		p->resident_before_pct >= 0 ? json_double(j, p->resident_before_pct, 2) : json_null(j);
	}
	out_json_lat(j, &s);
	out_json_lat_hist(j, counts);
	json_object_end(j);
}

/* The object of "result" (a run that finished). */
static void json_result_object(struct json *j, const struct result *r,
			       const struct files_result *fr)
{
	json_object_begin(j);
	json_key(j, "files"), json_uint(j, r->ios);
	json_key(j, "bytes"), json_uint(j, r->bytes);
	json_key(j, "seconds"), json_double(j, r->seconds, 6);
	json_key(j, "phases");
	json_object_begin(j);
	for (int i = 0; i < FILES_NPHASES; i++)
		if (fr->phase[i].planned)
			json_phase(j, i, &fr->phase[i]);
	json_object_end(j);
	json_object_end(j);
}

static void json_cache(struct json *j, const struct result *r, const struct files_result *fr)
{
	json_key(j, "cache");
	json_object_begin(j);
	json_key(j, "evicted"), json_string(j, r->measured ? r->evicted : NULL);
	json_key(j, "resident_before_pct");
	r->measured && r->resident_before_pct >= 0 ? json_double(j, r->resident_before_pct, 2)
						   : json_null(j);
	json_key(j, "metadata"), json_string(j, r->measured ? metadata_state(fr) : NULL);
	json_object_end(j);
}

static void files_json(struct json *j, const struct result *r)
{
	const struct files_result *fr = files_of(r);
	out_json_file_device(j, r);
	if (!fr || !r->opt)
		return;
	json_params(j, r, fr);
	json_key(j, "result");
	if (r->measured)
		json_result_object(j, r, fr);
	else
		json_null(j);
	json_cache(j, r, fr);
	if (r->health) { /* read before the first measurement and after the last */
		json_key(j, "health");
		health_json(j, r->health);
	}
}

/* ---- CSV ---- */

/* Whether a warning is another phase's ("seq-stat took ..."): each row
 * carries its own and those of the whole run. */
static bool other_phase_warning(const char *w, int phase)
{
	for (int i = 0; i < FILES_NPHASES; i++) {
		size_t len = strlen(files_phase_name(i));
		if (i != phase && strncmp(w, files_phase_name(i), len) == 0 && w[len] == ' ')
			return true;
	}
	return false;
}

static void csv_tail(FILE *f, const struct result *r, int phase)
{
	char warnings[MAX_WARNINGS * (MSG_LEN + 2)] = "";
	for (unsigned i = 0; i < r->nwarnings; i++) {
		if (other_phase_warning(r->warnings[i], phase))
			continue;
		if (warnings[0])
			strcat(warnings, "; ");
		strcat(warnings, r->warnings[i]);
	}
	fputc(',', f);
	out_csv_field(f, warnings);
	fputc(',', f);
	out_csv_field(f, r->error);
	fputc('\n', f);
}

/* files' own columns: a phase's files and files/s, never under names that
 * mean bytes and I/Os elsewhere; bytes and bytes/s only where data moved. */
#define FILES_CSV_HEADER "test,target,phase,files,passes,seconds,files_per_sec,lat_p50_ns," \
	"lat_p99_ns,threads,file_size,block_size,bytes,bytes_per_sec,sync,lat_min_ns,lat_mean_ns," \
	"lat_p90_ns,lat_p99_9_ns,lat_max_ns,resident_before_pct,warnings,error"

static void csv_phase(FILE *f, const struct result *r, const struct files_result *fr, int i)
{
	const struct files_phase *p = &fr->phase[i];
	struct stats_summary s;
	stats_summarize(&p->lat, &s);
	out_csv_field(f, r->test);
	fputc(',', f);
	out_csv_field(f, r->target);
	fprintf(f, ",%s,%llu,%u,%.6f,%.2f,%llu,%llu,%u,%llu,%llu,%llu,", files_phase_name(i),
		(unsigned long long)p->files, p->passes, p->seconds, files_phase_rate(p),
		(unsigned long long)s.p50, (unsigned long long)s.p99, fr->threads,
		(unsigned long long)fr->file_size, (unsigned long long)fr->bs,
		(unsigned long long)p->bytes);
	if (p->bytes > 0 && p->seconds > 0)
		fprintf(f, "%.1f", (double)p->bytes / p->seconds);
	fprintf(f, ",%s,%llu,%.1f,%llu,%llu,%llu,", fr->fsync ? "fsync" : "none",
		(unsigned long long)s.min, s.mean, (unsigned long long)s.p90,
		(unsigned long long)s.p99_9, (unsigned long long)s.max);
	if (i % FILES_NOPS == FILES_READ && p->resident_before_pct >= 0)
		fprintf(f, "%.2f", p->resident_before_pct);
	csv_tail(f, r, i);
}

static void files_csv(FILE *f, const struct result *r)
{
	const struct files_result *fr = files_of(r);
	fputs(FILES_CSV_HEADER "\n", f);
	if (!r->measured || !fr) {
		/* no figures: what failed, and why (phase to resident_before_pct empty) */
		out_csv_field(f, r->test);
		fputc(',', f);
		out_csv_field(f, r->target);
		fputs(",,,,,,,,,,,,,,,,,,,", f);
		csv_tail(f, r, -1);
		return;
	}
	for (int i = 0; i < FILES_NPHASES; i++)
		if (fr->phase[i].planned)
			csv_phase(f, r, fr, i);
}

const struct renderers render_files = { files_text, files_json, files_csv, NULL, NULL }; /* no --svg */
