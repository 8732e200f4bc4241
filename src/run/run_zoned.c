/* A zoned device in a run (issue 31): its zones read before any I/O, what
 * cannot be run on it refused with the reason, part-written zones emptied
 * before a write test, the read region cut to what lies below the write
 * pointers, and the zones' figures into the result. */
#define _POSIX_C_SOURCE 200809L
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devinfo.h"
#include "platform.h"
#include "units.h"
#include "util.h"
#include "zoned.h"

/* The zones of [0, region) as the device reports them. */
static int read_zones(const struct target *t, uint64_t region, uint64_t bs, uint32_t nr,
		      uint64_t zone_bytes, struct zone_map *m, struct result *r)
{
	uint64_t want = zone_bytes ? (region + zone_bytes - 1) / zone_bytes : nr;
	unsigned n = want < nr ? (unsigned)want : nr;
	struct plat_zone *rep = calloc(n ? n : 1, sizeof(*rep));
	if (!rep)
		return fail(r, EXIT_RUN, "cannot allocate the zone report:");
	int got = plat_zone_report(t->fd, 0, rep, n);
	int code = EXIT_OK;
	if (got < 0)
		code = fail(r, EXIT_RUN, "report the zones of '%s':", t->path);
	else if (zone_map_build(m, rep, (unsigned)got, region, bs) != 0)
		code = fail(r, EXIT_RUN, "cannot allocate the zone map:");
	free(rep);
	return code;
}

/* What a zoned device cannot run, said before any I/O. */
static int refuse_on_zoned(const struct target *t, const struct bench_job *job,
			   const struct options *opt, struct result *r)
{
	bool writes = job->dir == IO_WRITE || mix_has(&job->mix, MIX_WRITE);
	if (job->ntargets > 1)
		return fail(r, EXIT_USAGE, "'%s' is a zoned device: zoned devices are measured one at "
			    "a time, not among several targets", t->path);
	if (mix_set(&job->mix))
		return fail(r, EXIT_USAGE, "'%s' is a zoned device: a mix of operations on one queue "
			    "is not run on it (a read could land beyond a write pointer, a trim "
			    "is no zone reset); run its reads and writes as tests of their own",
			    t->path);
	if (writes && !opt->direct)
		return fail(r, EXIT_USAGE, "'%s' is a zoned device: its writes must reach it in "
			    "order, which the page cache's writeback does not keep; drop --no-direct",
			    t->path);
	if (job->rate > 0 && writes)
		return fail(r, EXIT_USAGE, "'%s' is a zoned device: an open loop (--rate, sla) of "
			    "writes is not run on it (a due write may find every open zone busy)",
			    t->path);
	return EXIT_OK;
}

/* The zones open at once: --max-open-zones, else the device's limit (the
 * smaller of open and active), else one per request in flight; never more
 * than the zones to write, nor fewer than the threads. */
static int pick_open_limit(const struct zone_map *m, const struct bench_job *job,
			   const struct options *opt, const struct result_zoned *z, struct result *r,
			   unsigned *open_limit)
{
	int64_t dev = z->device_max_open > 0 ? z->device_max_open : 0;
	if (z->device_max_active > 0 && (dev == 0 || z->device_max_active < dev))
		dev = z->device_max_active;
	uint64_t limit = opt->max_open_zones ? opt->max_open_zones
			 : dev > 0 ? (uint64_t)dev : (uint64_t)job->qd * job->threads;
	if (opt->max_open_zones && dev > 0 && opt->max_open_zones > dev)
		return fail(r, EXIT_USAGE, "--max-open-zones %u: '%s' keeps at most %lld zones open "
			    "(or active) at once", opt->max_open_zones, r->file, (long long)dev);
	if (limit > m->writable)
		limit = m->writable;
	if (!opt->max_open_zones && z->device_max_open < 0 && z->device_max_active < 0)
		warn(r, "the open and active zone limits of '%s' are unknown (no sysfs to say): %llu "
		     "zones are kept open; should writes fail with too many open or active zones, "
		     "lower --max-open-zones", r->file, (unsigned long long)limit);
	if (limit < job->threads)
		return fail(r, EXIT_USAGE, "-j %u: each thread writes zones of its own, and %llu can "
			    "be open at once%s", job->threads, (unsigned long long)limit,
			    m->writable < job->threads ? " (the region's sequential zones)" : "");
	*open_limit = (unsigned)limit;
	return EXIT_OK;
}

/* A write test starts from zones that are empty or full: a part-written
 * one would hold an open or active zone the run cannot count. */
static int empty_part_written(const struct target *t, struct zone_map *m,
			      struct result_zoned *z, struct result *r)
{
	for (unsigned i = 0; i < m->n; i++) {
		struct zone *zn = &m->z[i];
		if (!zn->writable || zn->wp == zn->start || zone_full(zn))
			continue;
		if (plat_zone_reset(t->fd, zn->start, zn->len) != 0)
			return fail(r, EXIT_RUN, "reset the zone at %llu of '%s':",
				    (unsigned long long)zn->start, t->path);
		zn->wp = zn->start;
		z->reset_before++;
	}
	return EXIT_OK;
}

static int prepare_writes(const struct target *t, struct bench_job *job,
			  const struct options *opt, struct zone_map *m, struct result_zoned *z,
			  struct result *r)
{
	char bs[32], cap[32];
	if (m->writable == 0)
		return fail(r, EXIT_USAGE, "'%s': the region holds no sequential zone to write "
			    "(conventional or read-only zones only)%s", t->path,
			    opt_hint(opt, OPT_SIZE, "; use a larger -s"));
	if (!zone_map_fits_block(m, job->bs)) {
		fmt_bytes_iec(bs, sizeof(bs), job->bs);
		fmt_bytes_iec(cap, sizeof(cap), z->zone_capacity_bytes);
		return fail(r, EXIT_USAGE, "-b %s does not divide the zone capacity of '%s' (%s): "
			    "writes must fill each zone exactly", bs, t->path, cap);
	}
	int code = pick_open_limit(m, job, opt, z, r, &z->open_limit);
	if (code != EXIT_OK)
		return code;
	m->open_limit = z->open_limit;
	job->warmup_ios = 0; /* each write of a zone must be one of the run's */
	r->warmup_ios = 0;
	job->region = r->region = m->writable_bytes; /* what one pass writes */
	return empty_part_written(t, m, z, r);
}

static int prepare_reads(const struct target *t, struct bench_job *job, const struct options *opt,
			 struct zone_map *m, struct result_zoned *z, struct result *r)
{
	z->readable_bytes = m->read_blocks * job->bs;
	if (opt->max_open_zones)
		warn(r, "--max-open-zones %u: a read opens no zone, so it was not used",
		     opt->max_open_zones);
	if (m->read_blocks == 0)
		return fail(r, EXIT_RUN, "'%s' is a zoned device with nothing written in the region "
			    "(no whole block of %llu bytes below any zone's write pointer): a read "
			    "beyond a write pointer returns zeros without touching the medium; write "
			    "it first (diskbench seqwrite --force %s)", t->path,
			    (unsigned long long)job->bs, t->path);
	char readable[32];
	fmt_bytes_iec(readable, sizeof(readable), z->readable_bytes);
	warn(r, "'%s' is a zoned device: the reads cover the %s below its zones' write pointers%s, "
	     "not the whole region (a read beyond a pointer returns zeros without touching the "
	     "medium)", t->path, readable, m->conventional ? " and its conventional zones" : "");
	job->region = z->readable_bytes;
	r->region = z->readable_bytes;
	return EXIT_OK;
}

static void describe(const struct zone_map *m, const struct devinfo_zoned *dz,
		     uint64_t zone_bytes, struct result_zoned *z)
{
	memcpy(z->model, dz->model, sizeof(z->model));
	z->zone_bytes = zone_bytes;
	z->zone_capacity_bytes = zone_map_min_cap(m);
	z->zones = m->n;
	z->sequential = m->n - m->conventional;
	z->conventional = m->conventional;
	z->device_max_open = dz->max_open;
	z->device_max_active = dz->max_active;
	stats_init(&z->reset_lat);
}

static bool is_zoned(const struct target *t, uint32_t *nr, uint64_t *zone_bytes)
{
	return t->kind == TARGET_BLOCKDEV && plat_zone_geometry(t->fd, nr, zone_bytes) == 0 && *nr > 0;
}

static int prepare_map(const struct target *t, struct bench_job *job, const struct options *opt,
		       struct result *r, struct zone_map *m);

int run_zoned_refuse(const struct target *t, const struct bench_job *job,
		     const struct options *opt, struct result *r)
{
	uint32_t nr = 0;
	uint64_t zone_bytes = 0;
	for (unsigned k = 0; !t->no_data && k < (job->ntargets > 1 ? job->ntargets : 1); k++)
		if (is_zoned(&t[k], &nr, &zone_bytes))
			return refuse_on_zoned(&t[k], job, opt, r);
	return EXIT_OK;
}

int run_zoned_prepare(const struct target *t, struct bench_job *job, const struct options *opt,
		      struct result *r)
{
	job->zones = NULL;
	if (t->no_data)
		return EXIT_OK; /* --engine=nop: no zone is prepared or reset, nothing reaches one */
	struct zone_map *m = calloc(1, sizeof(*m));
	if (!m)
		return fail(r, EXIT_RUN, "cannot allocate the zone map:");
	int code = prepare_map(t, job, opt, r, m);
	if (!job->zones)
		free(m); /* not zoned, or refused */
	return code;
}

static int prepare_map(const struct target *t, struct bench_job *job, const struct options *opt,
		       struct result *r, struct zone_map *m)
{
	uint32_t nr = 0;
	uint64_t zone_bytes = 0;
	for (unsigned k = 1; k < job->ntargets; k++) /* several targets: none may be zoned */
		if (is_zoned(&t[k], &nr, &zone_bytes))
			return refuse_on_zoned(&t[k], job, opt, r);
	if (!is_zoned(t, &nr, &zone_bytes)) {
		if (opt->max_open_zones) /* asked for, and nothing here to limit: say so */
			warn(r, "--max-open-zones %u: '%s' is not a zoned device, so it was not used",
			     opt->max_open_zones, t->path);
		return EXIT_OK;
	}
	int code = refuse_on_zoned(t, job, opt, r);
	if (code != EXIT_OK)
		return code;
	/* a command of several runs into one result (sweep's points) keeps one */
	struct result_zoned *z = r->zoned ? (struct result_zoned *)r->zoned
					  : result_keep(r, sizeof(*z), NULL);
	if (!z)
		return fail(r, EXIT_RUN, "cannot allocate the zones' figures:");
	memset(z, 0, sizeof(*z));
	struct devinfo_zoned dz;
	if (devinfo_path_zoned(t->path, NULL, &dz) != 1)
		dz = (struct devinfo_zoned){ .max_open = -1, .max_active = -1 };
	code = read_zones(t, job->region, job->bs, nr, zone_bytes, m, r);
	if (code != EXIT_OK)
		return code;
	describe(m, &dz, zone_bytes, z);
	z->writes = job->dir == IO_WRITE;
	if (m->n == 0) {
		char size[32];
		fmt_bytes_iec(size, sizeof(size), zone_bytes);
		code = fail(r, EXIT_USAGE, "'%s' is a zoned device and the region holds no whole zone "
			    "(zones of %s)%s", t->path, size, opt_hint(opt, OPT_SIZE, "; use a larger -s"));
	} else {
		code = z->writes ? prepare_writes(t, job, opt, m, z, r) : prepare_reads(t, job, opt, m, z, r);
	}
	if (code != EXIT_OK) {
		zone_map_free(m);
		return code;
	}
	m->fd = t->fd;
	m->reset = plat_zone_reset;
	job->zones = m;
	r->zoned = z;
	return EXIT_OK;
}

void run_zoned_finish(struct bench_job *job, const struct bench_outcome *out, struct result *r)
{
	if (!job->zones)
		return;
	struct result_zoned *z = (struct result_zoned *)r->zoned; /* kept by prepare */
	if (out) {
		z->resets = out->zone_resets;
		z->reset_lat = out->lat_zone_reset;
	}
	zone_map_free(job->zones);
	free(job->zones);
	job->zones = NULL;
}

int run_zone_census(const char *path, int64_t *cap, int64_t *conventional)
{
	uint32_t nr = 0;
	uint64_t zone_bytes = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = plat_zone_geometry(fd, &nr, &zone_bytes) != 0 ? -1 : nr == 0 ? 0 : 1;
	struct plat_zone *rep = rc == 1 ? calloc(nr, sizeof(*rep)) : NULL;
	int got = rep ? plat_zone_report(fd, 0, rep, nr) : -1;
	close(fd);
	if (rc == 1 && got < 0)
		rc = -1;
	*cap = *conventional = 0;
	for (int i = 0; rc == 1 && i < got; i++) {
		if (rep[i].conventional)
			++*conventional;
		else if (*cap == 0 || (int64_t)rep[i].cap < *cap)
			*cap = (int64_t)rep[i].cap;
	}
	free(rep);
	return rc;
}
