#define _POSIX_C_SOURCE 200809L
#include "cli_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine.h"
#include "fiohints.h"
#include "matrix.h"
#include "fleet.h"
#include "names.h"
#include "steady.h"
#include "sweep.h"
#include "units.h"

struct given {
	const struct optdef *def;
	const char *value;
};

/* "unknown option '--histo'", and what was meant when a guess is good. */
static int unknown_option(const char *arg, size_t n, char *why, size_t len)
{
	char guess[96];
	const char *fio = fio_cli_equivalent(arg + 2, n);
	if (fio)
		return usage_error(why, len, "unknown option '%.*s' (a fio option; in diskbench: %s)",
				   (int)n + 2, arg, fio);
	if (suggest_option(arg + 2, n, guess, sizeof(guess)))
		return usage_error(why, len, "unknown option '%.*s'; did you mean '%s'?",
				   (int)n + 2, arg, guess);
	return usage_error(why, len, "unknown option '%.*s'", (int)n + 2, arg);
}

/* A word made of digits, which after an option whose value is optional
 * (--precondition[=PASSES]) was meant as its value (issue 44). */
static bool looks_like_count(const char *w)
{
	if (!*w)
		return false;
	for (; *w; w++)
		if (*w < '0' || *w > '9')
			return false;
	return true;
}

/* Splits argv into options (kept with their values, applied later, once the
 * test and so its defaults are known) and positional words. */
static int split_args(int argc, char **argv, struct given *opts, int *nopts,
		      const char **words, int *nwords, char *why, size_t len)
{
	bool only_words = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_words || a[0] != '-' || a[1] == '\0') {
			words[(*nwords)++] = a;
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_words = true;
			continue;
		}
		const struct optdef *d;
		const char *value = NULL;
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');
			size_t n = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
			d = find_long(a + 2, n);
			if (!d)
				return unknown_option(a, n, why, len);
			if (eq && !d->arg)
				return usage_error(why, len, "option '--%s' takes no value", d->name);
			value = eq ? eq + 1 : NULL;
		} else {
			d = find_short(a[1]);
			if (!d)
				return usage_error(why, len, "unknown option '-%c'", a[1]);
			if (a[2] != '\0') {
				if (!d->arg)
					return usage_error(why, len, "option '-%c' takes no value", a[1]);
				value = a + 2;
			}
		}
		/* "[=PASSES]": a value only with =; the next word is neither its value
		 * nor, when it looks like one, the TARGET (a file named 2 was written) */
		if (d->arg && !value && d->arg[0] == '[' && i + 1 < argc && looks_like_count(argv[i + 1]))
			return usage_error(why, len, "'--%s %s': an optional value goes after '=': use "
					   "--%s=%s (a word after it is neither its value nor the TARGET)",
					   d->name, argv[i + 1], d->name, argv[i + 1]);
		if (d->arg && !value && d->arg[0] != '[') {
			if (i + 1 >= argc)
				return usage_error(why, len, "option '--%s' needs a value (%s)", d->name, d->arg);
			value = argv[++i];
		}
		opts[*nopts].def = d;
		opts[*nopts].value = value;
		(*nopts)++;
	}
	return EXIT_OK;
}

static int apply_sweep_value(struct sweep_options *sw, const struct optdef *d, const char *v,
			     char *why, size_t len);

static int apply_matrix_value(struct matrix_axes *ax, const struct optdef *d, const char *v,
			      char *why, size_t len);

/* --host-label, --run-id, --start-at: what a fleet record says of its run. */
static int apply_fleet_value(struct options *o, const struct optdef *d, const char *v,
			     char *why, size_t len)
{
	const char *reason = NULL;
	size_t max = d->id == ID_HOST_LABEL ? FLEET_HOST_LEN - 1 : FLEET_RUN_ID_LEN - 1;
	if (d->id == ID_START_AT) {
		if (fleet_parse_start_at(v, fleet_now_ns(), &o->start_at_ns, &reason) != 0)
			return usage_error(why, len, "--start-at '%s': %s", v, reason);
		return EXIT_OK;
	}
	if (v[0] == '\0' || strlen(v) > max)
		return usage_error(why, len, "--%s: give 1 to %zu characters", d->name, max);
	if (d->id == ID_HOST_LABEL)
		o->host_label = v;
	else
		o->run_id = v;
	return EXIT_OK;
}

/* steady's options (issue 29); v is NULL for a bare --precondition. */
static int apply_steady_value(struct steady_options *st, const struct optdef *d, const char *v,
			      char *why, size_t len)
{
	const char *reason = NULL;
	int rc = 0;
	switch (d->id) {
	case ID_ROUND:
		rc = parse_seconds(v, &st->round_s, &reason);
		if (rc == 0 && st->round_s < 0.1) {
			reason = "a round must last at least 0.1 s";
			rc = -1;
		}
		break;
	case ID_MAX_ROUNDS: rc = parse_count(v, 1, STEADY_MAX_ROUNDS / 2, &st->max_rounds, &reason); break;
	case ID_WINDOW:
		rc = parse_count(v, STEADY_MIN_WINDOW, STEADY_MAX_ROUNDS / 2, &st->window, &reason);
		if (rc != 0)
			reason = "the window holds 3 rounds at least (SNIA PTS: 5)";
		break;
	case ID_EXCURSION: rc = parse_percent(v, &st->excursion_pct, &reason); break;
	case ID_SLOPE: rc = parse_percent(v, &st->slope_pct, &reason); break;
	case ID_HOLD: rc = parse_count(v, 0, STEADY_MAX_ROUNDS / 2, &st->hold, &reason); break;
	case ID_PRECONDITION:
		st->precondition = 2;
		if (v)
			rc = parse_count(v, 1, 100, &st->precondition, &reason);
		break;
	case ID_METRIC:
		st->metric = strcmp(v, "iops") == 0 ? METRIC_IOPS : strcmp(v, "bw") == 0 ? METRIC_BW :
			     strcmp(v, "lat") == 0 ? METRIC_LAT : METRIC_AUTO;
		if (st->metric == METRIC_AUTO) {
			reason = "use iops, bw or lat";
			rc = -1;
		}
		break;
	default: break;
	}
	if (rc != 0)
		return usage_error(why, len, "--%s '%s': %s", d->name, v ? v : "", reason);
	return EXIT_OK;
}

static int apply_value(struct options *o, const struct optdef *d, const char *v,
		       char *why, size_t len)
{
	const char *reason = NULL;
	int rc;
	switch (d->id) {
	case ID_BS: rc = parse_size(v, &o->bs, &reason); break;
	case ID_SIZE: rc = parse_size(v, &o->size, &reason); break;
	case ID_TIME: rc = parse_seconds(v, &o->time_s, &reason); break;
	case ID_ROUND:
	case ID_MAX_ROUNDS:
	case ID_WINDOW:
	case ID_EXCURSION:
	case ID_SLOPE:
	case ID_METRIC:
	case ID_PRECONDITION:
	case ID_HOLD:
		return apply_steady_value(&o->steady, d, v, why, len);
	case ID_THREADS: rc = parse_count(v, 1, OPT_MAX_THREADS, &o->threads, &reason); break;
	case ID_QD: rc = parse_count(v, 1, ENGINE_MAX_QD, &o->qd, &reason); break;
	case ID_WARMUP: rc = parse_count(v, 0, 1000000, &o->warmup_ios, &reason); break;
	case ID_BATCH: rc = parse_count(v, 1, ENGINE_MAX_QD, &o->batch, &reason); break;
	case ID_MAX_OPEN_ZONES: rc = parse_count(v, 1, 1u << 20, &o->max_open_zones, &reason); break;
	case ID_BUFFERS:
		if (buffer_mode_parse(v, &o->buffers) != 0)
			return usage_error(why, len, "--buffers '%s': use huge or pages", v);
		return EXIT_OK;
	case ID_REAP:
		if (reap_mode_parse(v, &o->reap) != 0)
			return usage_error(why, len, "--reap '%s': use ring or syscall", v);
		return EXIT_OK;
	case ID_SEED: rc = parse_uint(v, 0, UINT64_MAX, &o->seed, &reason); break;
	case ID_RATE: rc = parse_rate(v, &o->rate, &reason); break;
	case ID_ARRIVALS:
		if (arrivals_parse(v, &o->arrivals) != 0)
			return usage_error(why, len, "--arrivals '%s': use poisson or fixed", v);
		return EXIT_OK;
	case ID_LATENCY: rc = parse_latency_target(v, &o->sla, &reason); break;
	case ID_STEP_TIME:
		rc = parse_seconds(v, &o->sla.step_s, &reason);
		if (rc == 0 && o->sla.step_s < 0.1) {
			reason = "at least 0.1 s";
			rc = -1;
		}
		break;
	case ID_VERIFY:
	case ID_WITNESS:
		return cli_apply_verify(o, d->id, v, why, len);
	case ID_MIX: if (mix_parse(v, &o->mix, why + 7, len - 7) == 0) return EXIT_OK;
		return memcpy(why, "--mix: ", 7), EXIT_USAGE; /* the parser's reason after it */
	case ID_SYNC:
		if (sync_mode_parse(v, &o->sync) != 0)
			return usage_error(why, len, "--sync '%s': use dsync, osync, fsync or none", v);
		return EXIT_OK;
	case ID_DROP:
		if (drop_mode_parse(v, &o->drop) != 0)
			return usage_error(why, len, "--drop-caches '%s': use file, all or none", v);
		return EXIT_OK;
	case ID_ENGINE:
		if (strcmp(v, "auto") != 0 && !engine_parse_name(v))
			return usage_error(why, len, "--engine '%s': use auto, uring, aio, sync or nop", v);
		o->engine = v;
		return EXIT_OK;
	case ID_BASELINE:
		o->baseline = v;
		return EXIT_OK;
	case ID_THRESHOLD:
		rc = parse_percent(v, &o->threshold_pct, &reason);
		break;
	case ID_NOISE_FLOOR:
		rc = parse_noise_floor(v, o, &reason);
		break;
	case ID_HOST_LABEL:
	case ID_RUN_ID:
	case ID_START_AT:
		return apply_fleet_value(o, d, v, why, len);
	case ID_FILES: rc = parse_count(v, 1, OPT_MAX_FILES, &o->files_n, &reason); break;
	case ID_FILE_SIZE:
		rc = parse_file_size(v, &o->file_size, &reason);
		break;
	case ID_DIR:
		if (v[0] == '\0')
			return usage_error(why, len, "--dir needs a directory name");
		o->files_dir = v;
		return EXIT_OK;
	case ID_SVG:
	case ID_JOURNAL:
		if (v[0] == '\0')
			return usage_error(why, len, "--%s needs a file name", d->name);
		*(d->id == ID_SVG ? &o->svg_path : &o->journal) = v;
		return EXIT_OK;
	case ID_INTERVAL:
		rc = parse_seconds(v, &o->interval_s, &reason);
		if (rc == 0 && (o->interval_s < 0.1 || o->interval_s > 60)) {
			reason = "must be from 0.1 to 60 seconds";
			rc = -1;
		}
		break;
	case ID_BLOCK_SIZES:
	case ID_FILE_SIZES:
	case ID_OPS:
		return apply_matrix_value(&o->matrix, d, v, why, len);
	default:
		return apply_sweep_value(&o->sweep, d, v, why, len);
	}
	return rc == 0 ? EXIT_OK : usage_error(why, len, "--%s '%s': %s", d->name, v, reason);
}

static int apply_sweep_value(struct sweep_options *sw, const struct optdef *d, const char *v,
			     char *why, size_t len)
{
	const char *reason = NULL;
	uint64_t n;
	switch (d->id) {
	case ID_RUN:
		if (sweep_run_parse(v, &sw->run) != 0)
			return usage_error(why, len, "--run '%s': use simple, oltp or dss", v);
		break;
	case ID_LEVELS:
		if (sweep_parse_levels(v, OPT_MAX_THREADS, sw->levels, &sw->nlevels, &reason) != 0)
			goto bad;
		break;
	case ID_CURVE:
		if (sweep_parse_levels(v, 100, sw->curve, &sw->ncurve, &reason) != 0)
			goto bad;
		break;
	case ID_LARGE_LEVELS:
		if (sweep_parse_levels(v, OPT_MAX_THREADS, sw->large_levels, &sw->nlarge_levels,
				       &reason) != 0)
			goto bad;
		break;
	case ID_LARGE_BS:
		if (parse_size(v, &sw->large_bs, &reason) != 0)
			goto bad;
		break;
	case ID_POINT_TIME:
	case ID_BUDGET: {
		double *t = d->id == ID_BUDGET ? &sw->budget_s : &sw->point_s;
		if (parse_seconds(v, t, &reason) != 0)
			goto bad;
		if (*t <= 0) {
			reason = "must be greater than 0";
			goto bad;
		}
		break;
	}
	case ID_MAX_LATENCY:
		if (sweep_parse_max_latency(v, &sw->max_latency_ns, &sw->max_latency_pct, &reason) != 0)
			goto bad;
		break;
	case ID_WRITE:
		if (parse_uint(v, 0, 100, &n, &reason) != 0)
			goto bad;
		sw->write_pct = (unsigned)n;
		break;
	default:
		break;
	}
	return EXIT_OK;
bad:
	return usage_error(why, len, "--%s '%s': %s", d->name, v, reason);
}

static int apply_matrix_value(struct matrix_axes *ax, const struct optdef *d, const char *v,
			      char *why, size_t len)
{
	const char *reason = NULL;
	int rc;
	if (d->id == ID_OPS)
		rc = matrix_parse_ops(v, &ax->ops, &reason);
	else if (d->id == ID_BLOCK_SIZES)
		rc = matrix_parse_sizes(v, MATRIX_MAX_BLOCK, ax->block_sizes, &ax->nblock, &reason);
	else
		rc = matrix_parse_sizes(v, (uint64_t)INT64_MAX, ax->file_sizes, &ax->nfile, &reason);
	return rc == 0 ? EXIT_OK : usage_error(why, len, "--%s '%s': %s", d->name, v, reason);
}

static void apply_flag(struct cli *c, enum opt_id id)
{
	struct options *o = &c->opt;
	switch (id) {
	case ID_NODIRECT: o->direct = false; break;
	case ID_NODROP: o->drop = DROP_NONE; break;
	case ID_ZEROS: o->zeros = true; break;
	case ID_HIST: o->histogram = true; break;
	case ID_KEEP: o->keep = true; break;
	case ID_FORCE: o->force = true; break;
	case ID_GROW: o->grow = true; break;
	case ID_SERIES: o->series_rows = true; break;
	case ID_SUSTAINED: o->sustained = true; break;
	case ID_ONCE: o->once = true; break;
	case ID_POLL: o->poll = true; break;
	case ID_SQPOLL: o->sqpoll = true; break;
	case ID_DESTRUCTIVE: o->destructive = true; break;
	case ID_JSON: o->format = OUT_JSON; break;
	case ID_CSV: o->format = OUT_CSV; break;
	case ID_JSONL: o->format = OUT_JSONL; break;
	case ID_QUIET: o->quiet = true; break;
	case ID_ALLOW_MISSING: o->allow_missing = true; break;
	case ID_LIST: o->list = true; break;
	case ID_HELP: c->help = true; break;
	case ID_VERSION: c->version = true; break;
	default: break;
	}
}

/* The positional words: [help] TEST [TARGET...], several targets only for
 * the tests that spread their load over them; or [help] TEST FILE... for a
 * command that reads files (the words array is then kept, as the inputs); or completion SHELL. */
static int take_words(struct cli *c, const char **words, int nwords, char *why, size_t len)
{
	struct options *o = &c->opt;
	int i = 0;
	if (nwords > 0 && strcmp(words[0], "completion") == 0) {
		c->completion = nwords > 1 ? words[1] : ""; /* main says which shells exist */
		if (nwords > 2)
			return usage_error(why, len, "unexpected argument '%s'", words[2]);
		return EXIT_OK;
	}
	if (nwords > 0 && strcmp(words[0], "help") == 0) {
		c->help = true;
		i = 1;
	}
	if (i < nwords) {
		c->cmd = cmd_find(words[i]);
		if (!c->cmd && suggest_test(words[i]))
			return usage_error(why, len, "unknown test '%s'; did you mean '%s'?", words[i],
					   suggest_test(words[i]));
		if (!c->cmd) /* main adds "Try 'diskbench --help'." */
			return usage_error(why, len, "unknown test '%s'", words[i]);
		i++;
	}
	/* a word that names no test is the TARGET: then the test is missing */
	if (c->cmd && c->cmd->takes_test && i < nwords && cmd_find(words[i])) {
		c->test = cmd_find(words[i]);
		if (!cmd_runs_test(c->cmd, c->test))
			return usage_error(why, len, "%s runs randread, randwrite, seqread or seqwrite, "
					   "not '%s'", c->cmd->name, words[i]);
		i++;
	}
	if (c->cmd && c->cmd->file_operand && i < nwords) /* job FILE.fio, fit PROFILE */
		o->job_file = words[i++];
	if (c->cmd && c->cmd->operands) {
		c->opt.inputs = words + i;
		c->opt.ninputs = (unsigned)(nwords - i);
		return EXIT_OK;
	}
	for (; i < nwords; i++) {
		if (o->ntargets == 1 && !(c->cmd && c->cmd->several_targets))
			return usage_error(why, len, "unexpected argument '%s'%s", words[i],
					   c->cmd ? " (this test takes one TARGET)" : "");
		if (o->ntargets == OPT_MAX_TARGETS)
			return usage_error(why, len, "too many targets: at most %u", OPT_MAX_TARGETS);
		o->targets[o->ntargets++] = words[i];
	}
	/* the current directory, as the man page says (a job file's own target
	 * wins over it: none is named) */
	if (o->ntargets == 0 && !(c->cmd && c->cmd->file_operand))
		o->targets[o->ntargets++] = ".";
	o->target = o->ntargets ? o->targets[0] : ".";
	return EXIT_OK;
}

/* The output format, known even when parsing fails, so that a script that
 * asked for JSON gets its error as a JSON document too. */
static enum out_format sniff_format(int argc, char **argv)
{
	enum out_format format = OUT_TEXT;
	unsigned named = 0; /* a bit per format: two of them are a usage error */
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--json") == 0)
			format = OUT_JSON;
		else if (strcmp(argv[i], "--csv") == 0)
			format = OUT_CSV;
		else if (strcmp(argv[i], "--jsonl") == 0)
			format = OUT_JSONL;
		else
			continue;
		named |= 1u << format;
	}
	/* which of two would a script parse?  Neither: the error goes to stderr */
	return (named & (named - 1)) ? OUT_TEXT : format;
}

/* An option that means different things to different commands has a row
 * per meaning (--budget of sweep and of matrix): the one cmd takes. */
static const struct optdef *row_for(const struct optdef *d, const struct command *cmd)
{
	if (!cmd || !d->bit || (cmd->options & d->bit))
		return d;
	for (size_t i = 0; i < optdef_count; i++)
		if (strcmp(optdefs[i].name, d->name) == 0 && (cmd->options & optdefs[i].bit))
			return &optdefs[i];
	return d;
}

int cli_parse(int argc, char **argv, struct cli *c, char *why, size_t len)
{
	struct given *opts = calloc((size_t)argc + 1, sizeof(*opts));
	const char **words = calloc((size_t)argc + 1, sizeof(*words));
	int nopts = 0, nwords = 0, code = EXIT_USAGE;
	memset(c, 0, sizeof(*c));
	c->opt.target = NULL; /* unknown until the words are read: a usage error says null */
	if (!opts || !words) {
		usage_error(why, len, "out of memory");
		goto out;
	}
	code = split_args(argc, argv, opts, &nopts, words, &nwords, why, len);
	if (code == EXIT_OK)
		code = take_words(c, words, nwords, why, len);
	if (code != EXIT_OK)
		goto out;
	if (c->cmd && c->test)
		cmd_defaults_with(c->cmd, c->test, &c->opt);
	else if (c->cmd)
		cmd_defaults(c->cmd, &c->opt);
	c->opt.format = sniff_format(argc, argv);
	int formats = 0;
	bool threshold = false;
	for (int i = 0; i < nopts && code == EXIT_OK; i++) {
		const struct optdef *d = row_for(opts[i].def, c->cmd);
		if (d->bit && (c->completion || (c->cmd && !(c->opt.accepts & d->bit))))
			code = usage_error(why, len, "option '--%s' does not apply to %s", d->name,
					   c->cmd ? c->cmd->name : "completion");
		else if (d->arg)
			code = apply_value(&c->opt, d, opts[i].value, why, len);
		else
			apply_flag(c, d->id);
		c->opt.given |= optdef_given(d);
		threshold |= d->id == ID_THRESHOLD || d->id == ID_NOISE_FLOOR;
		if (d->id == ID_JSON || d->id == ID_CSV)
			formats |= d->id == ID_JSON ? 1 : 2;
		formats |= d->id == ID_JSONL ? 4 : 0;
		if (formats == 3 && code == EXIT_OK)
			code = usage_error(why, len, "--json and --csv exclude each other");
		else if ((formats & 4) && (formats & 3) && code == EXIT_OK)
			code = usage_error(why, len, "--jsonl and --%s exclude each other",
					   formats & 1 ? "json" : "csv");
	}
	if (code == EXIT_OK && !c->help && !c->version) {
		if (!c->cmd && !c->completion)
			code = usage_error(why, len, "no test named (see diskbench --help)");
		else if (c->cmd && c->cmd->operands && c->opt.ninputs == 0)
			code = usage_error(why, len, "%s needs %s (\"-\" reads stdin)", c->cmd->name,
					   c->cmd->operands);
		else if (c->cmd && c->cmd->takes_test && !c->test)
			code = usage_error(why, len, "%s needs a test: %s randwrite [OPTIONS] TARGET (or "
					   "randread, seqread, seqwrite)", c->cmd->name, c->cmd->name);
		else if (c->cmd && c->cmd->file_operand && !c->opt.job_file && !c->opt.list)
			code = usage_error(why, len, "%s needs %s: diskbench %s %s [TARGET]", c->cmd->name,
					   c->cmd->file_operand, c->cmd->name, c->cmd->file_operand);
		else if (threshold && !c->opt.baseline)
			code = usage_error(why, len, "--threshold and --noise-floor go with --baseline");
		else if (c->cmd) {
			cli_settle_open_loop(&c->opt);
			code = cli_check_open_loop(&c->opt, why, len);
			if (code == EXIT_OK)
				code = cli_check_polling(&c->opt, why, len);
		}
		if (code == EXIT_OK && c->cmd)
			code = cli_check_limits(&c->opt, why, len);
		if (code == EXIT_OK)
			code = cli_check_svg_path(&c->opt, why, len);
	}
out:
	if (code != EXIT_OK)
		c->opt.format = sniff_format(argc, argv);
	free(opts);
	if (code == EXIT_OK && c->opt.inputs) {
		c->words = words;
	} else {
		c->opt.inputs = NULL;
		c->opt.ninputs = 0;
		free(words);
	}
	return code;
}

void cli_free(struct cli *c)
{
	free(c->words);
	c->words = NULL;
	c->opt.inputs = NULL;
	c->opt.ninputs = 0;
}
