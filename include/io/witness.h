/* The witness of --witness (issue 42): the writes a disk acknowledged
 * durable, as lines that survive the disk, and their reading back by
 * `verify --witness`.
 *
 *   # diskbench witness 1 run=0123456789abcdef bs=4096 region=8388608 target=PATH
 *   w 4096 1                 (a write of the block at byte 4096, generation 1)
 *   ...
 *   # end lines=1234         (the run ended; absent after a power cut)
 *
 * Lines that start with neither "w " nor "#" (a serial console's kernel
 * messages) are counted and skipped; a last line without its newline was
 * cut and is skipped; "\r\n" ends a line as "\n" does.  Lines of an
 * earlier run in the same file are dropped at the next run's first line. */
#ifndef WITNESS_H
#define WITNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Each writes its line with one write(2), retried on EINTR and after a
 * short write.  0, or -1 with errno. */
int witness_put_header(int fd, uint64_t run_id, uint64_t bs, uint64_t region,
		       const char *target);
int witness_put_write(int fd, uint64_t offset, uint64_t generation);
int witness_put_end(int fd, uint64_t lines);

struct witness {
	uint64_t run_id, bs, region;
	uint64_t nblocks;
	uint32_t *acked;        /* per block: the newest generation acknowledged, 0: none */
	uint64_t listed;        /* blocks with a generation */
	uint64_t lines;         /* write lines read */
	uint64_t noise;         /* lines that were no witness's, skipped */
	bool ended;             /* the run's last line is there */
};

/* Reads a witness from f into w (freed by witness_free).  EXIT_OK, or a
 * code with the reason in why: EXIT_USAGE for a file that is no witness
 * or a line that contradicts its header (an offset outside the region),
 * EXIT_RUN for a read error or a region whose map would pass its bound. */
int witness_read(FILE *f, struct witness *w, char *why, size_t len);
void witness_free(struct witness *w);

#endif
