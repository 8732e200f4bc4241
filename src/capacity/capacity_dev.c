/* capacity on a real block device: its I/O on an open descriptor, and the
 * signals held while blocks are out of place. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include "capacity_int.h"
#include "io.h"

static int fd_read(void *ctx, void *buf, size_t len, uint64_t off)
{
	ssize_t n = io_pread_full(*(int *)ctx, buf, len, off);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO; /* short: past what the device would give */
}

static int fd_write(void *ctx, const void *buf, size_t len, uint64_t off)
{
	ssize_t n = io_pwrite_full(*(int *)ctx, buf, len, off);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

/* On a block device fdatasync sends the device a cache flush (FLUSH CACHE,
 * SYNCHRONIZE CACHE, an NVMe Flush): what it acknowledged is on its medium,
 * as far as it tells the truth. */
static int fd_flush(void *ctx)
{
	return fdatasync(*(int *)ctx) == 0 ? 0 : -errno;
}

void cap_dev_fd(struct cap_dev *dev, int *fd, uint64_t size, unsigned sector)
{
	*dev = (struct cap_dev){ .ctx = fd, .read = fd_read, .write = fd_write, .flush = fd_flush,
				 .size = size, .sector = sector };
}

/* Every signal whose default action ends the process and that is not a
 * fault of the process itself (those cannot wait). */
static const int held_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1,
				    SIGUSR2, SIGVTALRM, SIGPROF, SIGPIPE, SIGXCPU, SIGXFSZ };
/* the mask to go back to: the process's, as signals are (one hold at a time) */
static sigset_t before;

void cap_signals_hold(void)
{
	sigset_t held;
	sigemptyset(&held);
	for (size_t i = 0; i < sizeof(held_signals) / sizeof(held_signals[0]); i++)
		sigaddset(&held, held_signals[i]);
	sigprocmask(SIG_BLOCK, &held, &before);
}

/* A signal the process ignores (main.c ignores SIGPIPE and SIGXFSZ) is
 * discarded, never pending; any other held one that came is. */
bool cap_signals_pending(void)
{
	sigset_t pending;
	if (sigpending(&pending) != 0)
		return false;
	for (size_t i = 0; i < sizeof(held_signals) / sizeof(held_signals[0]); i++)
		if (sigismember(&pending, held_signals[i]) == 1)
			return true;
	return false;
}

void cap_signals_release(void)
{
	sigprocmask(SIG_SETMASK, &before, NULL);
}
