# diskbench — a plain Makefile.
#   make                 build ./diskbench
#   make check           unit tests (cmocka), CLI/end-to-end tests and check-arch
#   make check-arch      no circle between files or rooms, the include table kept
#   make check-svg       the --svg pictures rendered by headless Chromium
#   make sanitize        the same suite under ASan + UBSan
#   make fuzz            each libFuzzer target in tests/fuzz/ for FUZZ_SECONDS (clang)
#   make check-envs      the tests in a chroot and in containers (root)
#   make static          ./diskbench-static, statically linked, to copy to other hosts
#   make check-fleet     fleet runs on pdsh, Slurm and the static binary (tests/cli/fleet.sh)
#   make check-lab       every kind of disk under a real kernel in qemu (tests/lab/lab.sh)
#   make check-deb       the Debian package: build, lintian, autopkgtest in a fresh root (root)
#   make install         PREFIX, MANPREFIX, BASHCOMPDIR, ZSHCOMPDIR and DESTDIR are honoured;
#                        fit's profiles go to PREFIX/share/diskbench/profiles
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANPREFIX ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
# fit's profiles: where the binary looks for them, ../share/diskbench/profiles
# beside BINDIR (so the same path under any PREFIX)
PROFILEDIR = $(PREFIX)/share/diskbench/profiles
CC ?= cc
CFLAGS ?= -O2 -g
WARNFLAGS = -std=c11 -Wall -Wextra -Wpedantic
# One version, one source: the top entry of debian/changelog feeds
# --version, JSON's "version", the installed man pages' headers and the
# package (tests/cli/doctest.py checks the man pages in the tree agree).
VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
ifeq ($(VERSION),)
$(error no version: debian/changelog's first line should read "diskbench (X.Y.Z) ...")
endif
VERSION_DEF = -DDISKBENCH_VERSION='"$(VERSION)"'
# Each room of src/ is a folder of sources; its public headers (its interface,
# what other rooms may include) are in include/ROOM/, its internal ones beside
# its sources in src/ROOM/.  Only include/ROOM/ is on the include path, so
# `#include "bench.h"` finds include/run/bench.h from anywhere, and an
# internal header is found only from its own folder (a quoted include looks
# beside the file first).  Unit tests and fuzz targets also see the internal
# headers.  Which room may use which is ARCHITECTURE.md's table, checked by
# make check-arch.
ROOMS = $(sort $(patsubst src/%/,%,$(dir $(wildcard src/*/*.c src/*/*.h))))
PUB_INC = $(patsubst %,-I%,$(sort $(wildcard include/*)))
ROOM_INC = $(patsubst %,-Isrc/%,$(ROOMS))
ALL_CFLAGS = $(WARNFLAGS) $(PUB_INC) $(VERSION_DEF) $(CFLAGS) $(SAN)
ALL_LDFLAGS = $(LDFLAGS) $(SAN)
LDLIBS += -lpthread -lm

# every source but main.c: a new file or room in src/ needs no edit here
SRC_CORE = $(sort $(wildcard src/*/*.c))
OBJ_CORE = $(SRC_CORE:.c=.o)
OBJ = src/main.o $(OBJ_CORE)
HDR = $(wildcard src/*/*.h include/*/*.h) debian/changelog

all: diskbench

diskbench: $(OBJ)
	$(CC) $(ALL_LDFLAGS) -o $@ $(OBJ) $(LDLIBS)

src/%.o: src/%.c $(HDR)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

clean:
	rm -f diskbench diskbench-static src/*.o src/*/*.o
	rm -rf build

# The section-7 pages: what diskbench prints, how it measures.
MAN7 = diskbench-output.7 diskbench-methods.7

# The completion scripts are written by the binary just built, from its own
# tables (a cross build would run `diskbench completion SHELL` on the target).
install: diskbench
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANPREFIX)/man1 $(DESTDIR)$(MANPREFIX)/man7
	cp -f diskbench $(DESTDIR)$(BINDIR)/diskbench
	chmod 755 $(DESTDIR)$(BINDIR)/diskbench
	sed '/^\.TH /s/"diskbench [^"]*"/"diskbench $(VERSION)"/' man/diskbench.1 \
		>$(DESTDIR)$(MANPREFIX)/man1/diskbench.1
	for p in $(MAN7); do \
		sed '/^\.TH /s/"diskbench [^"]*"/"diskbench $(VERSION)"/' man/$$p \
			>$(DESTDIR)$(MANPREFIX)/man7/$$p || exit 1; \
	done
	chmod 644 $(DESTDIR)$(MANPREFIX)/man1/diskbench.1 \
		$(patsubst %,$(DESTDIR)$(MANPREFIX)/man7/%,$(MAN7))
	mkdir -p $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	./diskbench completion bash >$(DESTDIR)$(BASHCOMPDIR)/diskbench
	./diskbench completion zsh >$(DESTDIR)$(ZSHCOMPDIR)/_diskbench
	chmod 644 $(DESTDIR)$(BASHCOMPDIR)/diskbench $(DESTDIR)$(ZSHCOMPDIR)/_diskbench
	mkdir -p $(DESTDIR)$(PROFILEDIR)
	cp -f profiles/*.fio $(DESTDIR)$(PROFILEDIR)/
	chmod 644 $(DESTDIR)$(PROFILEDIR)/*.fio

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/diskbench $(DESTDIR)$(MANPREFIX)/man1/diskbench.1
	rm -f $(patsubst %,$(DESTDIR)$(MANPREFIX)/man7/%,$(MAN7))
	rm -f $(DESTDIR)$(BASHCOMPDIR)/diskbench $(DESTDIR)$(ZSHCOMPDIR)/_diskbench
	rm -f $(patsubst profiles/%,$(DESTDIR)$(PROFILEDIR)/%,$(wildcard profiles/*.fio))
	-rmdir $(DESTDIR)$(PROFILEDIR) $(DESTDIR)$(PREFIX)/share/diskbench 2>/dev/null

# ---- tests -----------------------------------------------------------------
# Unit tests: tests/unit/test_NAME.c, cmocka, linked with the core objects.
# A test may give extra linker flags (e.g. -Wl,--wrap=pwrite) on its first
# line, as a comment of the form: /* LDFLAGS: ... */
# The tests mirror the rooms: tests/unit/ROOM/test_NAME.c.
UNIT_SRC = $(sort $(wildcard tests/unit/*/test_*.c))
UNIT_BIN = $(patsubst tests/unit/%.c,build/tests/%,$(UNIT_SRC))

build/tests/%: tests/unit/%.c $(OBJ_CORE) $(HDR) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(ROOM_INC) -Itests/unit -o $@ $< $(OBJ_CORE) \
		$$(sed -n '1s|^/\* LDFLAGS: \(.*\) \*/$$|\1|p' $<) $(ALL_LDFLAGS) -lcmocka $(LDLIBS)

# Microbenchmarks of the pure modules (bench/crc32c_speed.c): built against
# the core objects on demand, never run by make check.
build/bench/%: bench/%.c $(OBJ_CORE) $(HDR)
	@mkdir -p build/bench
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(OBJ_CORE) $(ALL_LDFLAGS) $(LDLIBS)

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "== $$t"; $$t; done

# diskbench with its surroundings faked by environment variables (delays,
# sysfs, the disk's counters, a sensor, cgroups, a clock of the test's own,
# writes that flip or drop, a stall, discards): tests/cli/fake_env.c, for the
# findings, steady, the open loop and --verify end to end (tests/cli/findings.sh,
# steady.sh, openloop.sh, verify.sh).  Never installed.
FAKE_WRAP = -Wl,--wrap=pread,--wrap=pwrite,--wrap=devinfo_probe,--wrap=devinfo_default_roots \
	-Wl,--wrap=cgroup_default_roots,--wrap=devio_end,--wrap=hwmon_read_c,--wrap=bench_run \
	-Wl,--wrap=plat_discard,--wrap=clock_ns,--wrap=clock_nanosleep
build/tests/diskbench-fake: tests/cli/fake_env.c src/main.o $(OBJ_CORE) $(HDR)
	@mkdir -p build/tests
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ tests/cli/fake_env.c src/main.o $(OBJ_CORE) \
		$(FAKE_WRAP) $(ALL_LDFLAGS) $(LDLIBS)

# The option and command tables as JSON (tests/cli/optable.c), which the
# option matrix (tests/cli/optmatrix.py) is generated from.  Never installed.
build/tests/diskbench-optable: tests/cli/optable.c $(OBJ_CORE) $(HDR)
	@mkdir -p build/tests
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ tests/cli/optable.c $(OBJ_CORE) $(ALL_LDFLAGS) $(LDLIBS)

cli: diskbench build/tests/diskbench-fake build/tests/diskbench-optable
	bash tests/cli/run.sh ./diskbench
	bash tests/cli/commands.sh ./diskbench
	python3 tests/cli/option_hints.py src ./diskbench
	bash tests/cli/golden.sh ./diskbench
	python3 tests/cli/test_invariants.py
	python3 tests/cli/optmatrix_run.py ./diskbench build/tests/diskbench-optable
	bash tests/cli/series.sh ./diskbench
	bash tests/cli/mix.sh ./diskbench
	bash tests/cli/verify.sh ./diskbench build/tests/diskbench-fake
	bash tests/cli/reap.sh ./diskbench
	bash tests/cli/policy.sh ./diskbench
	bash tests/cli/report.sh ./diskbench
	bash tests/cli/matrix.sh ./diskbench
	bash tests/cli/multi.sh ./diskbench
	bash tests/cli/files.sh ./diskbench
	bash tests/cli/svg.sh ./diskbench
	bash tests/cli/completion.sh ./diskbench
	bash tests/cli/safety.sh ./diskbench
	bash tests/cli/capacity.sh ./diskbench
	bash tests/cli/findings.sh ./diskbench build/tests/diskbench-fake
	bash tests/cli/steady.sh ./diskbench build/tests/diskbench-fake
	bash tests/cli/openloop.sh ./diskbench build/tests/diskbench-fake
	bash tests/cli/trims.sh ./diskbench build/tests/diskbench-fake
	bash tests/cli/unsaid.sh ./diskbench build/tests/diskbench-fake
	bash tests/cli/statics.sh
	bash tests/cli/messages.sh ./diskbench
	bash tests/cli/csv.sh ./diskbench
	bash tests/cli/fit.sh ./diskbench
	python3 tests/cli/doctest.py ./diskbench

# The rooms against ARCHITECTURE.md's table (from the objects' symbols and the
# #include lines), and the checker itself on trees whose faults are known.
check-arch: $(OBJ)
	python3 tests/arch/check_arch.py
	bash tests/arch/test_check_arch.sh

# make check builds all it runs first, on every CPU (a plain `make check`
# built one file at a time: minutes, four times over in CI), then runs the
# tests one after another as before: they share the machine's caches and
# devices.
NPROC := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
check-build: diskbench build/tests/diskbench-fake build/tests/diskbench-optable $(UNIT_BIN) $(OBJ)

check:
	$(MAKE) -j$(NPROC) check-build
	$(MAKE) unit cli check-arch

# --svg pictures drawn by headless Chromium (Debian's chromium), screenshots
# checked not blank and kept in $$ARTEFACTS when set; skipped without chromium.
check-svg: diskbench
	bash tests/cli/svg.sh --render ./diskbench

test: check

SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
sanitize:
	$(MAKE) clean
	$(MAKE) check CFLAGS="-O1 -g" SAN="$(SANFLAGS)"
	$(MAKE) clean

# valgrind on seqwrite, seqread and randread with each engine, an open-loop
# randread with each and one sla: no leak, no error.
memcheck: diskbench
	@d=$$(mktemp -d /var/tmp/diskbench-memcheck.XXXXXX) && trap 'rm -rf "$$d"' EXIT && \
	for e in sync aio uring; do for t in seqwrite seqread randread; do \
		echo "memcheck: $$t --engine=$$e --qd $$([ $$e = sync ] && echo 1 || echo 4)"; \
		valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
			--error-exitcode=99 ./diskbench $$t --engine=$$e \
			--qd $$([ $$e = sync ] && echo 1 || echo 4) -s 16M -t 1 -q "$$d" || exit 1; \
	done; \
	echo "memcheck: randread --rate 500 --engine=$$e (open loop)"; \
	valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
		--error-exitcode=99 ./diskbench randread --rate 500 --engine=$$e \
		-s 16M -t 1 -q "$$d" || exit 1; \
	done && echo "memcheck: sla randread (probe, step, confirm)" && \
	valgrind -q --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=all \
		--error-exitcode=99 ./diskbench sla randread --latency 10s --step-time 0.2 \
		-s 16M -q "$$d" >/dev/null && echo "memcheck: no leak, no error, with each engine"

# ---- environments ----------------------------------------------------------
# make check-envs (root; no network): `make check` in a chroot composed from
# the host, the unit tests in one without /proc, and the unit tests with
# tests/cli/run.sh in a new mount and PID namespace and under podman where it
# runs.  Each builds a copy of the tracked files; see tests/env/.
ENV_MAKE = make CFLAGS='$(CFLAGS)'
ENV_E2E = $(ENV_MAKE) -j2 diskbench && $(ENV_MAKE) unit && bash tests/cli/run.sh ./diskbench
check-envs:
	bash tests/env/chroot.sh --proc sh -c "$(ENV_MAKE) -j2 diskbench && $(ENV_MAKE) check"
	bash tests/env/chroot.sh --no-proc sh -c "$(ENV_MAKE) -j2 diskbench && $(ENV_MAKE) unit"
	bash tests/env/container.sh --all sh -c "$(ENV_E2E)"

# ---- fuzzing ---------------------------------------------------------------
# tests/fuzz/fuzz_NAME.c: a libFuzzer target, linked with the core objects
# built by clang under ASan + UBSan in build/fuzz/ (apart from the normal
# objects); each runs FUZZ_SECONDS from the seeds in tests/fuzz/corpus/NAME/,
# writing what it adds to a temp dir, and any crash, leak or timeout fails.
FUZZ_SECONDS ?= 60
FUZZ_CC = clang
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = $(WARNFLAGS) $(PUB_INC) $(ROOM_INC) $(VERSION_DEF) -O1 -g $(FUZZ_SAN)
FUZZ_OBJ = $(patsubst src/%.c,build/fuzz/%.o,$(SRC_CORE))
FUZZ_NAMES = $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN = $(patsubst %,build/fuzz/fuzz_%,$(FUZZ_NAMES))
.SECONDARY: $(FUZZ_OBJ)

build/fuzz/%.o: src/%.c $(HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ) $(HDR)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LDLIBS)

fuzz: $(FUZZ_BIN)
	@set -e; for t in $(FUZZ_NAMES); do \
		d=$$(mktemp -d /tmp/diskbench-fuzz.XXXXXX); mkdir $$d/new; \
		echo "== fuzz_$$t: $(FUZZ_SECONDS) s"; \
		if ! TMPDIR=$$d build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=build/fuzz/$$t- \
			$$d/new tests/fuzz/corpus/$$t >$$d/log 2>&1; then \
			tail -n 60 $$d/log; rm -rf $$d; \
			echo "fuzz_$$t failed: the input is in build/fuzz/$$t-*" >&2; exit 1; \
		fi; \
		echo "fuzz_$$t: $$(sed -n 's/^stat::number_of_executed_units: *//p' $$d/log) runs," \
			"$$(ls $$d/new | wc -l) new inputs"; \
		rm -rf $$d; \
	done

# ---- fleet runs ------------------------------------------------------------
# make static: glibc's libc.a (libc6-dev) linked in, stripped, objects apart in
# build/static/; --version says "static".  (Debian 12's musl-gcc lacks the
# kernel headers and statx(2), so glibc it is.)  make check-fleet: the --jsonl
# records, --start-at, pdsh's exec module, a one-node Slurm and the static
# binary in a bare chroot; parts whose tools are missing are skipped.
STATIC_OBJ = $(patsubst src/%.c,build/static/%.o,src/main.c $(SRC_CORE))

build/static/%.o: src/%.c $(HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -DDISKBENCH_STATIC -c -o $@ $<

diskbench-static: $(STATIC_OBJ)
	$(CC) $(ALL_LDFLAGS) -static -s -o $@ $(STATIC_OBJ) $(LDLIBS)

static: diskbench-static

check-fleet: diskbench
	bash tests/cli/fleet.sh ./diskbench

# ---- the hardware lab --------------------------------------------------------
# make check-lab: the static binary on every kind of disk, under Debian's own
# kernel in qemu (TCG): NVMe behind a PCIe root port, an NVMe zoned namespace,
# a SATA HDD and SSD on AHCI, a SCSI HDD on virtio-scsi, USB mass storage on
# xHCI, a volume capped at 150 IOPS, null_blk, dm-delay and dm-flakey; info,
# quick, the findings and the disks' health held against lsblk, smartctl and
# nvme-cli in the same guest (tests/lab/).  Skipped, with the reason, without qemu.
check-lab: static
	bash tests/lab/lab.sh ./diskbench-static

# ---- the Debian package -------------------------------------------------------
# make check-deb (root): dpkg-buildpackage on a copy of the tree, lintian (no
# error, no warning), full RELRO and PIE, then in a fresh debootstrap root:
# autopkgtest (debian/tests) against the installed binary, and a purge that
# leaves the root as it was (tests/deb/check_deb.sh).
check-deb:
	bash tests/deb/check_deb.sh

.PHONY: check-deb all clean install uninstall unit cli check check-build check-arch check-svg test sanitize memcheck fuzz check-envs \
	static check-fleet check-lab
