/* The fleet keys of a --jsonl record (the shape `diskbench report` reads):
 * who ran (host, run_id, launcher), when (started_at, ended_at, start_at)
 * and how far the clock can be trusted (clock). */
#include "fleet.h"
#include "json.h"
#include "output.h"
#include "utctime.h"

static void json_utc(struct json *j, const char *key, bool known, int64_t ns)
{
	char utc[UTC_LEN];
	json_key(j, key);
	if (!known) {
		json_null(j);
		return;
	}
	utc_format(utc, sizeof(utc), ns);
	json_string(j, utc);
}

static void json_clock(struct json *j, const struct fleet_record *f)
{
	json_key(j, "clock");
	json_object_begin(j);
	json_key(j, "synchronised");
	f->clock_synced < 0 ? json_null(j) : json_bool(j, f->clock_synced == 1);
	json_key(j, "maxerror_us");
	f->clock_maxerror_us < 0 ? json_null(j) : json_uint(j, (uint64_t)f->clock_maxerror_us);
	json_object_end(j);
}

static void json_start_at(struct json *j, const struct fleet_record *f)
{
	json_key(j, "start_at");
	if (f->start_wanted) {
		json_object_begin(j);
		json_key(j, "requested"), json_double(j, (double)f->start_at_ns / 1e9, 6);
		json_key(j, "late_us");
		/* signed: a clock stepped back during the wait wakes early */
		f->start_waited ? json_double(j, (double)f->late_us, 0) : json_null(j);
		json_object_end(j);
	} else {
		json_null(j);
	}
}

void out_json_fleet(struct json *j, const struct fleet_record *f)
{
	json_key(j, "host"), json_string(j, f->host);
	json_key(j, "run_id"), json_string(j, f->run_id);
	json_utc(j, "started_at", f->timed, f->started_at_ns);
	json_utc(j, "ended_at", f->timed, f->ended_at_ns);
	json_key(j, "launcher");
	json_object_begin(j);
	for (unsigned i = 0; i < f->nlauncher; i++)
		json_key(j, f->launcher[i].name), json_string(j, f->launcher[i].value);
	json_object_end(j);
	json_clock(j, f);
	json_start_at(j, f);
}
