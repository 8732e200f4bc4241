#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "units.h"

static bool shown;

bool progress_wanted(const struct options *opt)
{
	return !opt->quiet && isatty(STDERR_FILENO);
}

void progress_label(const struct options *opt, const char *fmt, ...)
{
	va_list ap;
	if (!progress_wanted(opt))
		return;
	fputc('\r', stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" ...\033[K", stderr);
	fflush(stderr);
	shown = true;
}

static void show_sample(void *ctx, const struct bench_sample *s)
{
	const char *label = ctx;
	char done[32], rate[32];
	fmt_bytes_si(done, sizeof(done), s->bytes);
	fmt_rate_si(rate, sizeof(rate), s->elapsed_s > 0 ? (double)s->bytes / s->elapsed_s : 0);
	fprintf(stderr, "\r%s: %s in %.0f s, %s\033[K", label, done, s->elapsed_s, rate);
	fflush(stderr);
	shown = true;
}

void progress_sampler(struct bench_sampler *s, const char *label)
{
	s->interval_s = 1.0;
	s->fn = show_sample;
	s->ctx = (void *)label;
}

void progress_writes(const struct options *opt, const char *what, double seconds,
		     uint64_t region, bool can_once)
{
	char size[32];
	if (!progress_wanted(opt))
		return;
	progress_clear();
	fmt_bytes_iec(size, sizeof(size), region);
	if (opt->once || seconds <= 0)
		fprintf(stderr, "diskbench: %s will write its %s region once\n", what, size);
	else
		fprintf(stderr, "diskbench: %s will write for %.3g s, round and round its %s region "
			"as fast as the disk takes it: on a fast disk, many times %s%s\n", what, seconds,
			size, size, can_once ? " (--once: once)" : "");
	fflush(stderr);
}

void progress_clear(void)
{
	if (!shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	shown = false;
}
