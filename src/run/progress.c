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

void progress_clear(void)
{
	if (!shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	shown = false;
}
