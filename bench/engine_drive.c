/* A small driver of the timed loop for measuring the engines before the
 * command line knows them: calls bench_run directly on an existing file and
 * prints one line of figures, with the CPU time the whole process used.
 *
 *   engine_drive ENGINE QD THREADS BS rand|seq read|write SECONDS FILE [buffered]
 *
 * SECONDS 0: one pass over the file (as many blocks as it holds).
 *
 * Built by bench/engine_compare.sh against the core objects. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "engine.h"

static double cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	if (argc < 9) {
		fprintf(stderr, "usage: engine_drive ENGINE QD THREADS BS rand|seq read|write "
				"SECONDS FILE [buffered]\n");
		return 2;
	}
	const struct engine_ops *ops;
	char note[512];
	if (engine_pick(argv[1], &ops, note, sizeof(note)) != 0) {
		fprintf(stderr, "engine_drive: %s\n", note);
		return 1;
	}
	if (note[0])
		fprintf(stderr, "engine_drive: %s\n", note);
	bool write = strcmp(argv[6], "write") == 0;
	bool buffered = argc > 9 && strcmp(argv[9], "buffered") == 0;
	int fd = open(argv[8], (write ? O_RDWR : O_RDONLY) | (buffered ? 0 : O_DIRECT));
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		fprintf(stderr, "engine_drive: %s: %s\n", argv[8], strerror(errno));
		return 1;
	}
	struct bench_job job;
	memset(&job, 0, sizeof(job));
	job.fd = fd;
	job.dir = write ? IO_WRITE : IO_READ;
	job.pattern = strcmp(argv[5], "rand") == 0 ? PAT_RAND : PAT_SEQ;
	job.engine = ops;
	job.qd = (unsigned)atoi(argv[2]);
	job.threads = (unsigned)atoi(argv[3]);
	job.bs = strtoull(argv[4], NULL, 0);
	job.region = (uint64_t)st.st_size - (uint64_t)st.st_size % job.bs;
	job.time_limit_s = atof(argv[7]);
	job.wrap = job.time_limit_s > 0; /* 0 s: one pass over the file */
	job.bytes_limit = job.wrap ? UINT64_MAX : job.region;
	job.seed = 42;
	job.warmup_ios = 1;
	static struct bench_outcome out;
	double c0 = cpu_s();
	int rc = bench_run(&job, &out, NULL);
	double cpu = cpu_s() - c0;
	if (rc != 0) {
		fprintf(stderr, "engine_drive: %s at %llu: %s\n", out.failed_op,
			(unsigned long long)out.failed_offset, strerror(out.error));
		return 1;
	}
	struct stats_summary s;
	stats_summarize(&out.lat, &s);
	printf("engine=%s qd=%u threads=%u iops=%.0f MBps=%.1f p50_us=%.1f mean_us=%.1f "
	       "p99_us=%.1f cpu_us_per_io=%.3f qd_hist=",
	       out.engine_name, job.qd, job.threads, out.ios / out.seconds,
	       out.bytes / out.seconds / 1e6, s.p50 / 1e3, s.mean / 1e3, s.p99 / 1e3,
	       cpu / (double)out.ios * 1e6);
	for (unsigned b = 0; b < BENCH_QD_BUCKETS; b++)
		printf("%s%llu", b ? "," : "", (unsigned long long)out.qd_hist[b]);
	printf("\n");
	close(fd);
	return 0;
}
