# diskbench — a plain Makefile.
#   make                 build ./diskbench
#   make check           unit tests (cmocka) and CLI/end-to-end tests
#   make sanitize        the same suite under ASan + UBSan
#   make install         PREFIX, MANPREFIX and DESTDIR are honoured
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANPREFIX ?= $(PREFIX)/share/man
CC ?= cc
CFLAGS ?= -O2 -g
WARNFLAGS = -std=c11 -Wall -Wextra -Wpedantic
ALL_CFLAGS = $(WARNFLAGS) -Iinclude $(CFLAGS) $(SAN)
ALL_LDFLAGS = $(LDFLAGS) $(SAN)
LDLIBS += -lpthread -lm

SRC_CORE = src/bench.c src/cli.c src/clock.c src/cmd.c src/cmd_cached.c src/cmd_io.c \
	   src/io.c src/json.c src/output.c src/platform_linux.c src/rng.c src/runner.c \
	   src/stats.c src/sweep.c src/cmd_sweep.c src/output_sweep.c src/target.c \
	   src/units.c src/util.c src/classify.c src/devinfo.c src/cmd_info.c \
	   src/cmd_quick.c src/output_quick.c src/engine.c src/engine_sync.c \
	   src/engine_aio.c src/engine_uring.c
OBJ_CORE = $(SRC_CORE:.c=.o)
OBJ = src/main.o $(OBJ_CORE)
HDR = $(wildcard include/*.h)

all: diskbench

diskbench: $(OBJ)
	$(CC) $(ALL_LDFLAGS) -o $@ $(OBJ) $(LDLIBS)

src/%.o: src/%.c $(HDR)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

clean:
	rm -f diskbench src/*.o
	rm -rf build

install: diskbench
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANPREFIX)/man1
	cp -f diskbench $(DESTDIR)$(BINDIR)/diskbench
	chmod 755 $(DESTDIR)$(BINDIR)/diskbench
	cp -f man/diskbench.1 $(DESTDIR)$(MANPREFIX)/man1/diskbench.1
	chmod 644 $(DESTDIR)$(MANPREFIX)/man1/diskbench.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/diskbench $(DESTDIR)$(MANPREFIX)/man1/diskbench.1

# ---- tests -----------------------------------------------------------------
# Unit tests: tests/unit/test_NAME.c, cmocka, linked with the core objects.
# A test may give extra linker flags (e.g. -Wl,--wrap=pwrite) on its first
# line, as a comment of the form: /* LDFLAGS: ... */
UNIT_SRC = $(wildcard tests/unit/test_*.c)
UNIT_BIN = $(patsubst tests/unit/%.c,build/tests/%,$(UNIT_SRC))

build/tests/%: tests/unit/%.c $(OBJ_CORE) $(HDR)
	@mkdir -p build/tests
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(OBJ_CORE) \
		$$(sed -n '1s|^/\* LDFLAGS: \(.*\) \*/$$|\1|p' $<) $(ALL_LDFLAGS) -lcmocka $(LDLIBS)

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $$t; done

cli: diskbench
	bash tests/cli/run.sh ./diskbench
	bash tests/cli/commands.sh ./diskbench

check: unit cli

test: check

SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
sanitize:
	$(MAKE) clean
	$(MAKE) check CFLAGS="-O1 -g" SAN="$(SANFLAGS)"
	$(MAKE) clean

# valgrind on one seqwrite and one seqread: no leak, no error.
memcheck: diskbench
	@d=$$(mktemp -d /var/tmp/diskbench-memcheck.XXXXXX) && trap 'rm -rf "$$d"' EXIT && \
	for t in seqwrite seqread; do \
		valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
			--error-exitcode=99 ./diskbench $$t -s 16M -q "$$d" || exit 1; \
	done && echo "memcheck: no leak, no error"

.PHONY: all clean install uninstall unit cli check test sanitize memcheck
