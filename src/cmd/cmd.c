#define _POSIX_C_SOURCE 200809L
#include "cmd.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "output.h"
#include "output_svg.h"

#define MiB (1024ull * 1024)
#define GiB (1024ull * MiB)

#define OPTS_FLEET (OPT_FLEET | OPT_START_AT) /* every measuring test */
#define OPTS_COMMON (OPT_BS | OPT_SIZE | OPT_TIME | OPT_NODIRECT | OPT_THREADS | OPT_HIST | OPT_KEEP | \
		     OPT_QD | OPT_ENGINE | OPTS_FLEET | OPT_BUFFERS)
#define OPTS_SERIES (OPT_INTERVAL | OPT_SERIES)
#define OPTS_VERIFY (OPT_VERIFY | OPT_WITNESS) /* issue 42 */
#define OPTS_ZONED (OPT_FORCE | OPT_MAX_OPEN_ZONES) /* a zoned device: a test's --force */
#define OPTS_WRITE (OPTS_COMMON | OPT_SYNC | OPT_ZEROS | OPTS_ZONED | OPT_GROW | OPT_WARMUP | \
		    OPTS_SERIES | OPT_ONCE | OPTS_VERIFY)
#define OPTS_TRIM (OPTS_COMMON | OPTS_ZONED | OPT_WARMUP | OPTS_SERIES | OPT_ONCE)
#define OPTS_READ (OPTS_COMMON | OPT_DROP | OPT_ZEROS | OPTS_ZONED | OPT_WARMUP | OPTS_SERIES | \
		   OPT_ONCE)

const struct command commands[] = {
	{ .name = "seqwrite", .run = cmd_run_io, .several_targets = true,
	  .summary = "sequential writes that reach the device (O_DIRECT, O_DSYNC)",
	  .options = OPT_RATE | OPTS_WRITE | OPT_SUSTAINED | OPT_SVG, .dir = IO_WRITE, .pattern = PAT_SEQ, .direct = true,
	  .bs = MiB, .size = GiB, .time_s = 10, .threads = 1, .sync = SYNC_DSYNC },
	{ .name = "seqread", .run = cmd_run_io, .several_targets = true,
	  .summary = "sequential O_DIRECT reads of data in no cache",
	  .options = OPT_RATE | OPTS_READ | OPT_SVG, .dir = IO_READ, .pattern = PAT_SEQ, .direct = true,
	  .bs = MiB, .size = GiB, .time_s = 10, .threads = 1 },
	{ .name = "buffered", .run = cmd_run_io, .several_targets = true,
	  .summary = "sequential reads through the page cache, cache evicted first (hdparm -t)",
	  .options = (OPTS_READ & ~(opt_bits)(OPT_NODIRECT | OPT_WARMUP | OPT_QD | OPT_ENGINE)),
	  .dir = IO_READ, .pattern = PAT_SEQ, .engine = "sync",
	  .direct = false, .bs = 2 * MiB, .size = GiB, .time_s = 3, .threads = 1 },
	{ .name = "cached", .run = cmd_run_cached,
	  .summary = "reads served from the page cache alone, no disk access (hdparm -T)",
	  .options = OPT_BS | OPT_SIZE | OPT_TIME | OPT_THREADS | OPT_HIST | OPT_KEEP | OPT_ZEROS |
		     OPTS_FLEET | OPT_BUFFERS,
	  .dir = IO_READ, .pattern = PAT_SEQ, .direct = false, .engine = "sync",
	  .bs = 2 * MiB, .size = 2 * MiB, .time_s = 2, .threads = 1 },
	{ .name = "randread", .run = cmd_run_io, .several_targets = true,
	  .summary = "random O_DIRECT reads: IOPS and latency",
	  .options = OPT_RATE | OPTS_READ | OPT_SEED | OPT_SVG, .dir = IO_READ, .pattern = PAT_RAND, .direct = true,
	  .bs = 4096, .size = GiB, .time_s = 5, .threads = 1 },
	{ .name = "randwrite", .run = cmd_run_io, .several_targets = true,
	  .summary = "random O_DIRECT writes: IOPS and latency",
	  .options = OPT_RATE | OPTS_WRITE | OPT_SEED | OPT_SVG, .dir = IO_WRITE, .pattern = PAT_RAND, .direct = true,
	  .bs = 4096, .size = GiB, .time_s = 5, .threads = 1, .sync = SYNC_DSYNC },
	{ .name = "randrw", .run = cmd_run_io, .several_targets = true,
	  .summary = "random reads and writes (and trims) mixed on one queue: --mix r70,w30",
	  .options = OPTS_WRITE | OPT_DROP | OPT_SEED | OPT_MIX | OPT_RATE, .dir = IO_WRITE, .pattern = PAT_RAND,
	  .direct = true, .bs = 4096, .size = GiB, .time_s = 5, .threads = 1, .sync = SYNC_DSYNC,
	  .mix = { { 70, 30, 0 } } },
	{ .name = "rw", .run = cmd_run_io, .several_targets = true,
	  .summary = "sequential reads and writes (and trims) mixed on one queue: --mix r70,w30",
	  .options = OPTS_WRITE | OPT_DROP | OPT_SEED | OPT_MIX | OPT_RATE, .dir = IO_WRITE, .pattern = PAT_SEQ,
	  .direct = true, .bs = MiB, .size = GiB, .time_s = 10, .threads = 1, .sync = SYNC_DSYNC,
	  .mix = { { 70, 30, 0 } } },
	{ .name = "trim", .run = cmd_run_io, .several_targets = true,
	  .summary = "sequential trims: BLKDISCARD on a device, holes punched in a file",
	  .options = OPTS_TRIM, .dir = IO_WRITE, .pattern = PAT_SEQ, .direct = true,
	  .bs = MiB, .size = GiB, .time_s = 5, .threads = 1, .sync = SYNC_NONE,
	  .mix = { { 0, 0, 100 } } },
	{ .name = "randtrim", .run = cmd_run_io, .several_targets = true,
	  .summary = "random trims: BLKDISCARD on a device, holes punched in a file",
	  .options = OPTS_TRIM | OPT_SEED, .dir = IO_WRITE, .pattern = PAT_RAND, .direct = true,
	  .bs = 4096, .size = GiB, .time_s = 5, .threads = 1, .sync = SYNC_NONE,
	  .mix = { { 0, 0, 100 } } },
	{ .name = "info", .run = cmd_run_info,
	  .summary = "device identity from sysfs: filesystem, device stack, disks and their links",
	  .options = 0, .dir = IO_READ, .render = &render_info, .targets = TAKES_ANY_PATH },
	{ .name = "quick", .run = cmd_run_quick,
	  .summary = "the whole check: info, CrystalDiskMark's 8 steps, dd's O_DSYNC write, a verdict",
	  .options = OPT_SIZE | OPT_TIME | OPT_DROP | OPT_KEEP | OPT_SEED | OPT_ZEROS | OPT_ENGINE |
		     OPTS_FLEET | OPT_SVG,
	  .dir = IO_READ, .pattern = PAT_SEQ, .direct = true,
	  .bs = MiB, .size = GiB, .time_s = 17, .threads = 1, .sync = SYNC_DSYNC,
	  .render = &render_quick },
	{ .name = "sweep", .run = cmd_run_sweep, .several_targets = true,
	  .summary = "Orion-style load sweep: max IOPS, min latency, the knee, max MB/s",
	  .options = OPT_BS | OPT_SIZE | OPT_NODIRECT | OPT_DROP | OPT_ZEROS | OPT_SEED | OPT_HIST |
		     OPT_KEEP | OPTS_ZONED | OPT_SWEEP | OPT_WRITE_MIX | OPT_SYNC | OPT_ENGINE |
		     OPTS_FLEET | OPT_SVG,
	  .dir = IO_READ, .pattern = PAT_RAND, .direct = true,
	  .bs = 4096, .size = GiB, .time_s = 0, .threads = 1, .sync = SYNC_DSYNC,
	  .render = &render_sweep },
	{ .name = "files", .run = cmd_run_files,
	  .summary = "file create, stat, read and delete rates, in order and at random (bonnie++ -n)",
	  .options = OPT_FILES | OPT_BS | OPT_TIME | OPT_THREADS | OPT_SYNC | OPT_DROP | OPT_ZEROS |
		     OPT_SEED | OPT_HIST | OPT_KEEP,
	  .dir = IO_WRITE, .pattern = PAT_SEQ, .direct = false,
	  .bs = MiB, .size = 0, .time_s = 0.5, .threads = 1, .sync = SYNC_NONE,
	  .render = &render_files, .targets = TAKES_DIR },
	{ .name = "matrix", .run = cmd_run_matrix,
	  .summary = "iozone -a, honestly: MB/s of six operations over block size x file size",
	  .options = OPT_MATRIX | OPT_NODIRECT | OPT_DROP | OPT_ZEROS | OPT_SEED | OPT_SYNC |
		     OPT_ENGINE | OPT_SVG,
	  .dir = IO_WRITE, .pattern = PAT_SEQ, .direct = true, .threads = 1, .sync = SYNC_DSYNC,
	  .render = &render_matrix, .targets = TAKES_DIR },
	{ .name = "steady", .run = cmd_run_steady, .takes_test = true,
	  .summary = "a test in rounds until SNIA PTS steady state: the sustained figure, proven",
	  .options = OPT_STEADY | OPT_SVG | OPT_VERIFY, .dir = IO_WRITE, .direct = true,
	  .render = &render_steady },
	{ .name = "sla", .run = cmd_run_sla, .takes_test = true,
	  .summary = "the most IOPS a test serves inside a response-time target (open loop)",
	  .options = OPT_SLA, .dir = IO_READ, .direct = true, .render = &render_sla },
	{ .name = "capacity", .run = cmd_run_capacity,
	  .summary = "the real capacity of a device that may claim more (f3probe): where it wraps or loses writes",
	  .options = OPT_FORCE | OPT_DESTRUCTIVE | OPT_JOURNAL, .dir = IO_WRITE, .direct = true,
	  .render = &render_capacity, .targets = TAKES_DEVICE },
	{ .name = "verify", .run = cmd_run_verify,
	  .summary = "check a region a write test's --verify --keep left: from its headers, or "
		     "against --witness after a power cut",
	  .options = OPT_WITNESS | OPT_NODIRECT, .dir = IO_READ, .direct = true,
	  .render = &render_verify, .targets = TAKES_FILE | TAKES_DEVICE },
	{ .name = "job", .run = cmd_run_job, .file_operand = "FILE.fio",
	  .summary = "run a fio job file: each job a run, its keys as fio's system calls",
	  .options = OPT_TIME | OPT_KEEP | OPTS_ZONED | OPT_HIST | OPT_SEED | OPT_DROP | OPTS_FLEET |
		     OPT_JOB | OPTS_VERIFY,
	  .dir = IO_WRITE, .render = &render_job },
	{ .name = "fit", .run = cmd_run_fit, .file_operand = "PROFILE|FILE",
	  .summary = "is the disk fit for etcd, PostgreSQL's WAL, a journal, OLTP, DSS: a profile judged",
	  .options = OPT_TIME | OPT_KEEP | OPTS_ZONED | OPT_HIST | OPT_SEED | OPT_DROP | OPTS_FLEET |
		     OPT_JOB | OPT_LIST,
	  .dir = IO_WRITE, .render = &render_fit },
	{ .name = "report", .run = cmd_run_report,
	  .summary = "merge the JSON Lines of a fleet run: per-host table, totals, exact percentiles",
	  .options = OPT_REPORT | OPT_SVG, .operands = "FILE...|-", .render = &render_report,
	  .targets = TAKES_FILE },
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
	opt->threshold_pct = 10;
	/* what identical back-to-back runs were seen to differ by on loop
	 * devices and SSDs: rates a few %, p50 up to ~16 %, p99 several times
	 * more (man page, report) */
	opt->noise_floor_rate_pct = 10;
	opt->noise_floor_p50_pct = 20;
	opt->noise_floor_p99_pct = 50;
	opt->mix = cmd->mix;
}

bool cmd_runs_test(const struct command *cmd, const struct command *test)
{
	return cmd->takes_test && test && test->run == cmd_run_io && test->direct &&
	       !mix_set(&test->mix);
}

void cmd_defaults_with(const struct command *cmd, const struct command *test, struct options *opt)
{
	cmd_defaults(test, opt);
	/* its rounds (steps) are its time, and sla chooses the rates; a row per
	 * interval is a single run's */
	opt->accepts = cmd->options | (test->options & ~(opt_bits)(OPT_TIME | OPT_ONCE |
								    OPT_SUSTAINED | OPT_SERIES |
								    OPT_RATE | OPTS_VERIFY));
	if (cmd->options & OPT_SLA) {
		opt->steady.test = test->name; /* the test a command runs, steady's or sla's */
		opt->sla = (struct sla_options){ .pct = 99, .step_s = 5 };
		opt->time_s = opt->sla.step_s;
		return;
	}
	opt->steady = (struct steady_options){ .test = test->name, .round_s = 60, .max_rounds = 25,
					       .window = 5, .excursion_pct = 20, .slope_pct = 10 };
	opt->time_s = opt->steady.round_s;
}

static const struct renderers single = { out_text, out_json_single_body, out_csv, out_svg, NULL };

void cmd_render(const struct command *cmd, const struct options *opt, const struct result *r,
		int code)
{
	const struct renderers *own = cmd && cmd->render ? cmd->render : &single;
	if (opt->format == OUT_JSON)
		out_json_document(stdout, r, own->json ? own->json : single.json);
	else if (opt->format == OUT_JSONL && own->jsonl)
		own->jsonl(stdout, r);
	else if (opt->format == OUT_JSONL)
		out_json_line(stdout, r, own->json ? own->json : single.json);
	else if (opt->format == OUT_CSV)
		(own->csv ? own->csv : single.csv)(stdout, r);
	else if (code == EXIT_OK || code == EXIT_REGRESSED || code == EXIT_INCOMPLETE ||
		       code == EXIT_UNMET || code == EXIT_BAD_DATA)
		(own->text ? own->text : single.text)(stdout, r, opt->quiet, opt->histogram);
}

/* A partly written picture is removed, but only a regular file: the name
 * may be /dev/full or a FIFO. */
int cmd_write_svg(const struct command *cmd, const struct options *opt, const struct result *r)
{
	const struct renderers *own = cmd && cmd->render ? cmd->render : &single;
	void (*draw)(FILE *, const struct result *) = own->svg ? own->svg : single.svg;
	struct stat st;
	FILE *f = fopen(opt->svg_path, "w");
	if (!f)
		return -1;
	errno = 0;
	draw(f, r);
	bool failed = fflush(f) != 0 || ferror(f);
	int saved = errno;
	bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
	if (fclose(f) != 0 && !failed)
		failed = true, saved = errno;
	if (!failed)
		return 0;
	if (regular)
		remove(opt->svg_path);
	errno = saved ? saved : EIO;
	return -1;
}
