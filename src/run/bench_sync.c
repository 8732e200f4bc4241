/* fio's fsync=N and fdatasync=N (job files, issue 41): after every N
 * writes the lane's next request is a sync call, timed from its submission
 * to its completion like any request but counted apart, so that the writes'
 * latency stays the writes' and the sync's is its own figure (what etcd's
 * check reads: fio's "sync" percentiles).  The sync engine runs it as
 * fsync(2) or fdatasync(2) inside submit, as fio's sync and psync engines
 * do. */
#include "bench_int.h"

const char *bench_sync_name(const struct bench_job *job)
{
	return job->sync_data ? "fdatasync" : "fsync";
}

struct engine_io *bench_sync_take(struct worker *w, struct lane *l, unsigned *n)
{
	struct engine_io *io = l->free[--l->nfree];
	io->op = w->job->sync_data ? ENGINE_FDATASYNC : ENGINE_FSYNC;
	io->write = false;
	io->offset = 0;
	io->len = 0; /* no bytes in flight; the slot's size comes back at completion */
	io->done = 0;
	io->retries = 0;
	l->batch[(*n)++] = io;
	w->unsynced = 0;
	return io;
}

bool bench_sync_done(struct worker *w, struct engine_io *io, uint64_t t1)
{
	io->len = (uint32_t)w->job->bs;
	if (io->result < 0)
		return false;
	if (w->recording && io->t_submit >= w->t_start) {
		stats_add(&w->sync_lat, t1 - io->t_submit);
		w->syncs++;
	}
	return true;
}
