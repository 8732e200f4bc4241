// dbx: O_DIRECT 1 MiB sequential pread/pwrite with different buffer allocations.
// usage: dbx FILE MODE read|write [BS] [BYTES] [EVICT(0/1)]
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>
#include <sys/mman.h>
#include <malloc.h>

static void vdastat(unsigned long long *rd, unsigned long long *wr) {
    FILE *f = fopen("/sys/block/vda/stat", "r");
    unsigned long long v[17] = {0};
    for (int i = 0; i < 17 && f && fscanf(f, "%llu", &v[i]) == 1; i++) ;
    if (f) fclose(f);
    *rd = v[0]; *wr = v[4];
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }

// count physically contiguous runs (block-layer segments) in [buf, buf+len)
static int segments(void *buf, size_t len, int *thp) {
    int fd = open("/proc/self/pagemap", O_RDONLY);
    if (fd < 0) return -1;
    long ps = 4096; size_t n = len / ps; uint64_t prev = 0; int segs = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t e; uintptr_t va = (uintptr_t)buf + i * ps;
        if (pread(fd, &e, 8, (va / ps) * 8) != 8) { close(fd); return -1; }
        uint64_t pfn = e & ((1ULL << 55) - 1);
        if (!(e >> 63) || pfn == 0) { close(fd); return -2; }
        if (i == 0 || pfn != prev + 1) segs++;
        prev = pfn;
    }
    close(fd);
    // THP check via kpageflags not needed: use smaps AnonHugePages of the region
    *thp = 0;
    FILE *f = fopen("/proc/self/smaps", "r"); char line[512]; int in = 0;
    uintptr_t a = (uintptr_t)buf;
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) in = (a >= lo && a < hi);
        else if (in && !strncmp(line, "AnonHugePages:", 14)) { *thp = atoi(line + 14); }
    }
    if (f) fclose(f);
    return segs;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage\n"); return 2; }
    const char *file = argv[1], *mode = argv[2]; int wr = !strcmp(argv[3], "write");
    size_t bs = argc > 4 ? strtoull(argv[4], 0, 0) : 1 << 20;
    long long total = argc > 5 ? strtoll(argv[5], 0, 0) : 1LL << 30;
    int evict = argc > 6 ? atoi(argv[6]) : 1;
    char *buf = NULL; size_t MB2 = 2 << 20;
    if (!strcmp(mode, "pm4k")) { if (posix_memalign((void **)&buf, 4096, bs)) return 1; }
    else if (!strcmp(mode, "pm512")) { if (posix_memalign((void **)&buf, 512, bs)) return 1; }
    else if (!strcmp(mode, "pm2m")) { if (posix_memalign((void **)&buf, MB2, bs)) return 1; }
    else if (!strcmp(mode, "pm2mhuge")) { size_t L = (bs + MB2 - 1) & ~(MB2 - 1); if (posix_memalign((void **)&buf, MB2, L)) return 1; if (madvise(buf, L, MADV_HUGEPAGE)) perror("madvise"); }
    else if (!strcmp(mode, "drain")) { // use up the per-CPU free lists first, then a plain buffer
        char *junk = mmap(0, 64 << 20, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
        memset(junk, 1, 64 << 20);
        if (posix_memalign((void **)&buf, 4096, bs)) return 1; }
    else if (!strcmp(mode, "mmap")) { buf = mmap(0, bs, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0); }
    else if (!strcmp(mode, "mmapdesc")) { // fault pages in backwards order (worst case)
        buf = mmap(0, bs, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
        for (long i = bs - 4096; i >= 0; i -= 4096) buf[i] = 1; }
    else if (!strcmp(mode, "mmaphuge")) { // over-allocate, align to 2 MiB, MADV_HUGEPAGE
        size_t L = (bs + MB2 - 1) & ~(MB2 - 1);
        char *p = mmap(0, L + MB2, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
        buf = (char *)(((uintptr_t)p + MB2 - 1) & ~(MB2 - 1));
        if (madvise(buf, L, MADV_HUGEPAGE)) perror("madvise"); }
    else if (!strcmp(mode, "mmappopulate")) { buf = mmap(0, bs, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_POPULATE, -1, 0); }
    else if (!strcmp(mode, "nomemset")) { if (posix_memalign((void **)&buf, 4096, bs)) return 1; }
    else if (!strncmp(mode, "run", 3)) { // runs of K physically contiguous pages, gaps between runs
        int K = atoi(mode + 3); size_t np = bs / 4096;
        char *p = mmap(0, 3 * MB2, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
        char *src = (char *)(((uintptr_t)p + MB2 - 1) & ~(MB2 - 1));
        madvise(src, MB2, MADV_HUGEPAGE); memset(src, 1, MB2);
        int t0; int s0 = segments(src, MB2, &t0); if (s0 != 1) fprintf(stderr, "source not contiguous: %d segs\n", s0);
        buf = mmap(0, bs, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
        for (size_t i = 0; i < np / K; i++)
            if (mremap(src + i * 2 * K * 4096, K * 4096, K * 4096, MREMAP_MAYMOVE|MREMAP_FIXED, buf + i * K * 4096) == MAP_FAILED) { perror("mremap"); return 1; }
    }
    else { fprintf(stderr, "bad mode\n"); return 2; }
    if (buf == MAP_FAILED || !buf) { perror("alloc"); return 1; }
    if (strcmp(mode, "nomemset") && strncmp(mode, "run", 3)) memset(buf, wr ? 0x5a : 0, bs);
    int thp = 0, segs = strcmp(mode, "nomemset") ? segments(buf, bs, &thp) : -3;
    int fd = open(file, (wr ? O_WRONLY : O_RDONLY) | O_DIRECT);
    if (fd < 0) { perror("open"); return 1; }
    if (evict) { fdatasync(fd); posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); }
    unsigned long long r0, w0, r1, w1; vdastat(&r0, &w0);
    double t0 = now(); long long done = 0; long n = 0;
    while (done < total) {
        ssize_t k = wr ? pwrite(fd, buf, bs, done) : pread(fd, buf, bs, done);
        if (k <= 0) { if (k < 0) perror("io"); break; }
        done += k; n++;
    }
    if (wr) fsync(fd);
    double dt = now() - t0; vdastat(&r1, &w1);
    if (!strcmp(mode, "nomemset")) segs = segments(buf, bs, &thp);
    printf("%s %s bs=%zu buf=%p segs=%d thpKB=%d MB/s=%.0f ios=%ld vda_rd=%llu vda_wr=%llu req/io=%.2f lat_us=%.0f\n",
           mode, wr ? "write" : "read", bs, buf, segs, thp, done / dt / 1e6, n, r1 - r0, w1 - w0,
           (double)((wr ? w1 - w0 : r1 - r0)) / n, dt / n * 1e6);
    return 0;
}
