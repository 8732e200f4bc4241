// psegs PID ADDR [LEN]: physically contiguous runs in another process's buffer
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <fcntl.h>
#include <unistd.h>
int main(int c, char **v) {
    char p[64]; snprintf(p, sizeof p, "/proc/%s/pagemap", v[1]);
    uintptr_t a = strtoull(v[2], 0, 0); size_t len = c > 3 ? strtoull(v[3], 0, 0) : 1 << 20;
    int fd = open(p, O_RDONLY); if (fd < 0) { perror(p); return 1; }
    uintptr_t s = a & ~4095UL, e = (a + len + 4095) & ~4095UL; uint64_t prev = 0; int segs = 0, np = 0, miss = 0;
    for (uintptr_t va = s; va < e; va += 4096, np++) {
        uint64_t x; if (pread(fd, &x, 8, va / 4096 * 8) != 8) { perror("pread"); return 1; }
        uint64_t pfn = x & ((1ULL << 55) - 1);
        if (!(x >> 63)) { miss++; continue; }
        if (segs == 0 || pfn != prev + 1) segs++;
        prev = pfn;
    }
    printf("pid %s addr %#lx pages %d segs %d notpresent %d\n", v[1], (unsigned long)a, np, segs, miss);
    return 0;
}
