#include "cmd.h"

#include <string.h>

#include "output.h"

#define MiB (1024ull * 1024)
#define GiB (1024ull * MiB)

#define OPTS_COMMON (OPT_BS | OPT_SIZE | OPT_TIME | OPT_NODIRECT | OPT_THREADS | OPT_HIST | OPT_KEEP | \
		     OPT_QD | OPT_ENGINE)
#define OPTS_SERIES (OPT_INTERVAL | OPT_SERIES)
#define OPTS_WRITE (OPTS_COMMON | OPT_SYNC | OPT_ZEROS | OPT_FORCE | OPT_GROW | OPT_WARMUP | \
		    OPTS_SERIES)
#define OPTS_READ (OPTS_COMMON | OPT_DROP | OPT_ZEROS | OPT_FORCE | OPT_WARMUP | OPTS_SERIES)

const struct command commands[] = {
	{ .name = "seqwrite", .run = cmd_run_io,
	  .summary = "sequential writes that reach the device (O_DIRECT, O_DSYNC)",
	  .options = OPTS_WRITE | OPT_SUSTAINED, .dir = IO_WRITE, .pattern = PAT_SEQ, .direct = true,
	  .bs = MiB, .size = GiB, .time_s = 10, .threads = 1, .sync = SYNC_DSYNC },
	{ .name = "seqread", .run = cmd_run_io,
	  .summary = "sequential O_DIRECT reads of data in no cache",
	  .options = OPTS_READ, .dir = IO_READ, .pattern = PAT_SEQ, .direct = true,
	  .bs = MiB, .size = GiB, .time_s = 10, .threads = 1 },
	{ .name = "buffered", .run = cmd_run_io,
	  .summary = "sequential reads through the page cache, cache evicted first (hdparm -t)",
	  .options = (OPTS_READ & ~(unsigned)(OPT_NODIRECT | OPT_WARMUP | OPT_QD | OPT_ENGINE)),
	  .dir = IO_READ, .pattern = PAT_SEQ, .engine = "sync",
	  .direct = false, .bs = 2 * MiB, .size = GiB, .time_s = 3, .threads = 1 },
	{ .name = "cached", .run = cmd_run_cached,
	  .summary = "reads served from the page cache alone, no disk access (hdparm -T)",
	  .options = OPT_BS | OPT_SIZE | OPT_TIME | OPT_THREADS | OPT_HIST | OPT_KEEP | OPT_ZEROS,
	  .dir = IO_READ, .pattern = PAT_SEQ, .direct = false, .engine = "sync",
	  .bs = 2 * MiB, .size = 2 * MiB, .time_s = 2, .threads = 1 },
	{ .name = "randread", .run = cmd_run_io,
	  .summary = "random O_DIRECT reads: IOPS and latency",
	  .options = OPTS_READ | OPT_SEED, .dir = IO_READ, .pattern = PAT_RAND, .direct = true,
	  .bs = 4096, .size = GiB, .time_s = 5, .threads = 1 },
	{ .name = "randwrite", .run = cmd_run_io,
	  .summary = "random O_DIRECT writes: IOPS and latency",
	  .options = OPTS_WRITE | OPT_SEED, .dir = IO_WRITE, .pattern = PAT_RAND, .direct = true,
	  .bs = 4096, .size = GiB, .time_s = 5, .threads = 1, .sync = SYNC_DSYNC },
	{ .name = "info", .run = cmd_run_info,
	  .summary = "device identity from sysfs: filesystem, device stack, disks and their links",
	  .options = 0, .dir = IO_READ, .render = &render_info, .targets = TAKES_ANY_PATH },
	{ .name = "quick", .run = cmd_run_quick,
	  .summary = "one-minute check: info, reads (and writes on its own file), a verdict",
	  .options = OPT_SIZE | OPT_TIME | OPT_DROP | OPT_KEEP | OPT_SEED | OPT_ZEROS | OPT_ENGINE,
	  .dir = IO_READ, .pattern = PAT_SEQ, .direct = true,
	  .bs = MiB, .size = GiB, .time_s = 17, .threads = 1, .sync = SYNC_DSYNC,
	  .render = &render_quick },
	{ .name = "sweep", .run = cmd_run_sweep,
	  .summary = "Orion-style load sweep: max IOPS, min latency, the knee, max MB/s",
	  .options = OPT_BS | OPT_SIZE | OPT_NODIRECT | OPT_DROP | OPT_ZEROS | OPT_SEED | OPT_HIST |
		     OPT_KEEP | OPT_FORCE | OPT_SWEEP | OPT_WRITE_MIX | OPT_SYNC | OPT_ENGINE,
	  .dir = IO_READ, .pattern = PAT_RAND, .direct = true,
	  .bs = 4096, .size = GiB, .time_s = 0, .threads = 1, .sync = SYNC_DSYNC,
	  .render = &render_sweep },
};

const unsigned command_count = sizeof(commands) / sizeof(commands[0]);

const struct command *cmd_find(const char *name)
{
	for (unsigned i = 0; i < command_count; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

void cmd_defaults(const struct command *cmd, struct options *opt)
{
	opt->bs = cmd->bs;
	opt->size = cmd->size;
	opt->time_s = cmd->time_s;
	opt->sync = cmd->sync;
	opt->direct = cmd->direct;
	opt->drop = DROP_FILE;
	opt->threads = cmd->threads;
	opt->accepts = cmd->options;
	opt->warmup_ios = 1;
	opt->qd = 1;
	opt->engine = cmd->engine ? cmd->engine : "auto";
	opt->sweep.large_bs = MiB;
	opt->sweep.point_s = 3;
	opt->sweep.budget_s = 60;
}

void cmd_render(const struct command *cmd, const struct options *opt, const struct result *r,
		int code)
{
	static const struct renderers single = { out_text, out_json_single_body, out_csv };
	const struct renderers *own = cmd && cmd->render ? cmd->render : &single;
	if (opt->format == OUT_JSON)
		out_json_document(stdout, r, own->json ? own->json : single.json);
	else if (opt->format == OUT_CSV)
		(own->csv ? own->csv : single.csv)(stdout, r);
	else if (code == EXIT_OK)
		(own->text ? own->text : single.text)(stdout, r, opt->quiet, opt->histogram);
}
