# SPDX-License-Identifier: MIT
# sandpit - one build for the engine (core/), the front end (tui/) and tests.
#
#   make            build build/sandpit
#   make run        build and open the playground (FILE=prog.py to open one)
#   make check      build and run every test (unit, integration, hostile, terminal)
#                   that is quick and not about time, J at once (J=1: one by one)
#   make check-long the long tests: 100 prepared runs, a 600 s prepared sandbox,
#                   the soak, fuzzing, CPython's tests (CI runs it after make check)
#   make check-timing  the bounds on time; for a quiet machine (docs/testing.md)
#   make check-compat  CPython's own tests, bare and in sandpit (long; fetches them)
#   make asan       the same under AddressSanitizer + UBSan (build-asan/)
#   make bench      side-by-side benchmarks (tests/bench/)
#   make soak       1,000 runs in one process; nothing may leak (SOAK_RUNS=)
#   make fuzz       run each libFuzzer target for FUZZ_SECONDS (clang)
#   make install    PREFIX=/usr/local DESTDIR= (the command, and libsandpit
#                   for other programs: header, .a, .so, sandpit.pc)
#   make uninstall  remove what install put there
#   make check-vm   sandpit on Debian 12's kernel under QEMU, cgroup v2 and v1
#                   (root; long; installs QEMU and debootstrap first)
#   make deps       install the Debian packages the build needs
#   make layers     files per folder, the longest functions, circles between
#                   files (make all fails on a circle in core/)

PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR  ?= $(DATADIR)/man
LIBDIR  ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
COMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
DESTDIR ?=
B       ?= build

CC      ?= cc
CFLAGS  ?= -O2 -g
SAN     ?=
CORE_PKGS := libseccomp libcap libutf8proc jansson
TUI_PKGS  := ncursesw libutf8proc inih chafa libpng libjpeg
TEST_PKGS := cmocka zlib
# The Debian package that gives each pkg-config name, for the message
# when one is missing (make deps installs them all).
PKG_DEBS  := libseccomp:libseccomp-dev libcap:libcap-dev libutf8proc:libutf8proc-dev \
             jansson:libjansson-dev ncursesw:libncurses-dev inih:libinih-dev \
             chafa:libchafa-dev libpng:libpng-dev libjpeg:libjpeg62-turbo-dev \
             cmocka:libcmocka-dev zlib:zlib1g-dev

# -Wno-format-truncation: 17 snprintf calls cut a message or a name to
# its buffer on purpose (gcc only; clang 14 does not know the switch,
# hence -Wno-unknown-warning-option). A helper given a format carries
# the printf attribute, so -Wformat=2 checks every format.
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wformat=2 -Wno-unknown-warning-option -Wno-format-truncation -Wvla
# Each object also writes the headers it read (build/**/*.d), so touching
# any header rebuilds exactly the objects that include it.
DEPFLAGS:= -MMD -MP
BASE    := -std=c11 -D_GNU_SOURCE -I core -I $(B)/gen $(WARN) $(SAN)
# The library's version is the header's; the SONAME changes with the major.
VERSION := $(shell sed -n 's/^\#define SP_VERSION "\(.*\)"/\1/p' core/sandpit.h)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME  := libsandpit.so.$(SOMAJOR)
# core/ is compiled once, position-independent, for both libraries; only
# what sandpit.h marks SP_API is exported from the shared one.
LIB_CFLAGS := -fPIC -fvisibility=hidden
CORE_CFLAGS := $(BASE) $(LIB_CFLAGS) $(shell pkg-config --cflags $(CORE_PKGS) 2>/dev/null)
TUI_CFLAGS  := $(BASE) -I tui $(shell pkg-config --cflags $(TUI_PKGS) 2>/dev/null) \
               -DSP_DATADIR='"$(DATADIR)/sandpit"'
TEST_CFLAGS := $(TUI_CFLAGS) $(shell pkg-config --cflags $(TEST_PKGS) 2>/dev/null) -Wno-missing-prototypes
CORE_LIBS   := $(shell pkg-config --libs $(CORE_PKGS) 2>/dev/null)
TUI_LIBS    := $(shell pkg-config --libs $(TUI_PKGS) 2>/dev/null)
TEST_LIBS   := $(shell pkg-config --libs $(TEST_PKGS) 2>/dev/null)

CORE_SRC := $(wildcard core/*.c)
TUI_SRC  := $(filter-out tui/cmd/main.c,$(wildcard tui/*/*.c))
CORE_OBJ := $(CORE_SRC:%.c=$(B)/%.o) $(B)/gen/prelude.o $(B)/gen/prelude_pyc.o \
            $(B)/gen/seccomp_bpf.o $(B)/gen/mpl_fontlist.o
TUI_OBJ  := $(TUI_SRC:%.c=$(B)/%.o) $(B)/gen/demos.o $(B)/gen/lessons.o \
            $(B)/gen/default_theme.o
DEMOS    := $(sort $(wildcard tui/demos/*.py))
LESSONS  := $(sort $(wildcard tui/lessons/*.lesson))

UNIT_SRC := $(wildcard tests/unit/test_*.c)
INTEG_SRC:= $(wildcard tests/integration/test_*.c)
TEST_BIN := $(UNIT_SRC:%.c=$(B)/%) $(INTEG_SRC:%.c=$(B)/%)

all: $(B)/sandpit $(B)/libsandpit.a $(B)/$(SONAME) $(B)/libsandpit.so $(B)/sandpit.pc $(B)/completion/sandpit

$(B)/libsandpit.a: $(CORE_OBJ)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

$(B)/libsandpit.so.$(VERSION): $(CORE_OBJ)
	$(CC) $(SAN) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined $(LDFLAGS) -o $@ $^ $(CORE_LIBS)

$(B)/$(SONAME) $(B)/libsandpit.so: $(B)/libsandpit.so.$(VERSION)
	ln -sf libsandpit.so.$(VERSION) $@

# pkg-config's description of the installed library; Requires.private
# names what a static link (pkg-config --static) needs besides. The paths
# it names are the install's: `make` and then `make install PREFIX=/usr`
# remakes it, since sandpit.pc.vars changes whenever one of them does.
$(B)/sandpit.pc.vars: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(PREFIX) $(LIBDIR) $(INCLUDEDIR) $(VERSION) $(CORE_PKGS)' | \
		cmp -s - $@ 2>/dev/null || \
		printf '%s\n' '$(PREFIX) $(LIBDIR) $(INCLUDEDIR) $(VERSION) $(CORE_PKGS)' > $@

$(B)/sandpit.pc: $(B)/sandpit.pc.vars core/sandpit.h Makefile
	@mkdir -p $(@D)
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
		'Name: sandpit' \
		'Description: libsandpit, the sandbox engine for stateless Python runs' \
		'Version: $(VERSION)' \
		'Requires.private: $(CORE_PKGS)' \
		'Cflags: -I$${includedir}' \
		'Libs: -L$${libdir} -lsandpit' > $@

# bash completion, told where the shipped themes are installed
$(B)/completion/sandpit: tui/completion/sandpit.bash Makefile
	@mkdir -p $(@D)
	sed 's|@THEMEDIR@|$(DATADIR)/sandpit/themes|' $< > $@

$(B)/libsandpit-tui.a: $(TUI_OBJ)
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

# The command is linked static-pie (glibc and the libraries from Debian's
# static archives): a `sandpit run` then maps one file and resolves no
# symbols at start, about 2 ms less a run on the bench machine, with ASLR
# kept (docs/performance.md). Sanitizer builds need the shared runtime,
# and STATIC=0 links everything shared.
STATIC ?= 1
ifeq ($(STATIC)$(SAN),1)
BIN_LIBS := -static-pie $(shell pkg-config --static --libs $(TUI_PKGS) 2>/dev/null) $(CORE_LIBS)
else
BIN_LIBS := $(TUI_LIBS) $(CORE_LIBS) -lm
endif

# SHARED_CORE=1 links the command against libsandpit.so.0 instead (the
# Debian package does: the front end needs nothing but sandpit.h's API).
SHARED_CORE ?= 0
# The growable buffer (core/buf.h), Python's keywords (core/pykeywords.h)
# and JSON text with the shortest floats (core/json_text.h) serve tui/ too
# but are no part of the library's API (hidden in the .so): the command
# links their objects itself.
CORE_SHARED_OBJ := $(B)/core/buf.o $(B)/core/pykeywords.o $(B)/core/json_dump.o
ifeq ($(SHARED_CORE),1)
CORE_LINK := $(CORE_SHARED_OBJ) -L$(B) -lsandpit
CORE_DEP  := $(B)/$(SONAME) $(B)/libsandpit.so $(CORE_SHARED_OBJ)
else
CORE_LINK := $(B)/libsandpit.a
CORE_DEP  := $(B)/libsandpit.a
endif

$(B)/sandpit: $(B)/tui/cmd/main.o $(B)/libsandpit-tui.a $(CORE_DEP)
	$(CC) $(SAN) $(LDFLAGS) -o $@ $(B)/tui/cmd/main.o $(B)/libsandpit-tui.a $(CORE_LINK) $(BIN_LIBS)

# core/ must never know the screen exists.
$(B)/.core-seam: $(wildcard core/*.c core/*.h)
	@if grep -nE '#include [<"](n?cursesw?|tui/|editor|theme)' core/*.c core/*.h; then \
		echo "core/ must not include ncurses or tui/ headers" >&2; exit 1; fi
	@mkdir -p $(@D) && touch $@
all: $(B)/.core-seam

# ---- the layers (tools/layers.py; docs/architecture.md, "Checking the
# layers"), read from what the build made: the objects' symbols (nm) and
# the compiler's .d files ----
LAYERS := python3 tools/layers.py
# The folders of tui/ that never draw (docs/architecture.md, "Where a
# change goes"): no .c in them may include curses, itself or through any
# header, so they serve the headless commands, the MCP server and the
# tests without a terminal. `make all` checks them.
TUI_FREE_DIRS := $(addprefix tui/,cmd service text config lesson image)
ifneq ($(strip $(TUI_FREE_DIRS)),)
$(B)/.layers-free: $(TUI_OBJ) tools/layers.py Makefile
	@$(LAYERS) --build $(B) --free $(TUI_FREE_DIRS)
	@touch $@
all: $(B)/.layers-free
endif

# No circle among core's files: each file calls only files below it, so
# one can be read, tested and changed without the rest (exit 1 naming each
# circle's files and calls). Part of all.
$(B)/.layers-core: $(CORE_OBJ) tools/layers.py
	@$(LAYERS) --build $(B) --fail-on-circles core
	@touch $@
all: $(B)/.layers-core
layers-check: $(B)/.layers-core

# For a closing note: files per folder, the 15 longest functions, the
# circles (needs universal-ctags).
layers: $(CORE_OBJ) $(TUI_OBJ) $(B)/tui/cmd/main.o
	@$(LAYERS) --build $(B) --report core tui

# A pkg-config package missing: name it and its Debian package now,
# instead of a compile error about a header later.
define need_pkgs
@pkg-config --exists $(1) 2>/dev/null || { \
	command -v pkg-config >/dev/null || { echo "sandpit: pkg-config is missing: install the Debian package pkg-config (or run make deps)" >&2; exit 1; }; \
	for p in $(1); do pkg-config --exists $$p && continue; deb=""; \
		for pd in $(PKG_DEBS); do [ "$${pd%%:*}" = $$p ] && deb=$${pd#*:}; done; \
		echo "sandpit: pkg-config finds no '$$p': install the Debian package $${deb:-that ships $$p.pc} (or run make deps)" >&2; \
	done; exit 1; }
endef
pkgs-core: ; $(call need_pkgs,$(CORE_PKGS))
pkgs-tui: ; $(call need_pkgs,$(TUI_PKGS))
pkgs-test: ; $(call need_pkgs,$(TEST_PKGS))

$(B)/core/%.o: core/%.c | pkgs-core
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/tui/%.o: tui/%.c | pkgs-tui
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TUI_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# Text files become C strings so the binary carries them (works after install).
$(B)/gen/prelude.c: core/prelude.py tools/embed.sh
	@mkdir -p $(@D)
	sh tools/embed.sh sp_prelude_py core/prelude.py > $@

# The prelude precompiled by the default interpreter (used only when a
# run's interpreter has the same magic number); empty without one.
$(B)/gen/prelude_pyc.c: core/prelude.py tools/embed_pyc.py
	@mkdir -p $(@D)
	@if [ -x /usr/bin/python3 ]; then /usr/bin/python3 -I -B tools/embed_pyc.py core/prelude.py > $@; \
	else printf 'const unsigned char sp_prelude_pyc[1];\nconst unsigned long sp_prelude_pyc_len = 0;\n' > $@; fi

# matplotlib's font list, made once, copied into every run's /cache
# (empty without matplotlib: runs then build their own).
$(B)/gen/mpl_fontlist.c: tools/embed_fontlist.py
	@mkdir -p $(@D)
	@if [ -x /usr/bin/python3 ]; then /usr/bin/python3 -I -B tools/embed_fontlist.py > $@; \
	else printf 'const char sp_mpl_fontlist_name[1];\nconst unsigned char sp_mpl_fontlist[1];\nconst unsigned long sp_mpl_fontlist_len = 0;\n' > $@; fi

# The seccomp filter compiled to BPF once, by a small host program.
$(B)/gen/seccomp-gen: tools/gen/seccomp_gen.c core/seccomp_rules.c core/sandbox.h core/base.h core/sandpit.h | pkgs-core
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) -o $@ tools/gen/seccomp_gen.c core/seccomp_rules.c $(CORE_LIBS)

$(B)/gen/seccomp_bpf.c: $(B)/gen/seccomp-gen
	$(B)/gen/seccomp-gen > $@

$(B)/gen/demos.c: $(DEMOS) tools/embed.sh
	@mkdir -p $(@D)
	sh tools/embed.sh --table demos $(DEMOS) > $@

$(B)/gen/lessons.c: $(LESSONS) tools/embed.sh
	@mkdir -p $(@D)
	sh tools/embed.sh --table lessons_embedded $(LESSONS) > $@

$(B)/gen/default_theme.c: themes/default.theme tools/embed.sh
	@mkdir -p $(@D)
	sh tools/embed.sh theme_default_text themes/default.theme > $@

$(B)/gen/%.o: $(B)/gen/%.c
	$(CC) $(CPPFLAGS) $(CFLAGS) $(BASE) $(LIB_CFLAGS) $(DEPFLAGS) -Wno-missing-prototypes -c -o $@ $<

$(B)/tests/%: tests/%.c $(B)/libsandpit-tui.a $(B)/libsandpit.a | pkgs-test
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(TEST_CFLAGS) $(DEPFLAGS) -I tests -o $@ $< $(B)/libsandpit-tui.a $(B)/libsandpit.a \
		$(TEST_LIBS) $(TUI_LIBS) $(CORE_LIBS) -lm $(TEST_WRAP)

# The fault-injection test makes these calls fail (ld --wrap: the
# library's calls reach the test's __wrap_ functions).
$(B)/tests/integration/test_faults: TEST_WRAP := -Wl,--wrap=pipe2,--wrap=timerfd_create,--wrap=epoll_ctl

tests: all $(TEST_BIN)

-include $(CORE_OBJ:.o=.d) $(TUI_OBJ:.o=.d) $(B)/tui/cmd/main.d $(TEST_BIN:=.d)

# The README's two commands. Each first installs missing Debian packages
# (then re-reads pkg-config in a fresh make). SUITES narrows the tests:
# unit integration hostile tui. J: tests at once (default: the CPUs).
# FILE opens a file in the playground.
J ?=
check:
	@sh .ci/deps.sh
	@$(MAKE) --no-print-directory test-run

test-run: tests
	@sh tests/run.sh $(if $(J),-j $(J)) $(B) $(SUITES)

# The tiers beside make check (docs/testing.md). check-long: the long
# tests, the soak (SOAK_RUNS=) and each fuzz target (FUZZ_SECONDS=), while
# a prepared sandbox waits PREPARED_AGE seconds in the background (a copy
# of its test, which a rebuild meanwhile cannot touch) and is checked
# last. check-timing: the bounds on time, one test at a time.
PREPARED_AGE ?= 600
check-long: tests
	@age=$$(mktemp -d "$${TMPDIR:-/tmp}/sandpit-age.XXXXXX") && cp $(B)/tests/integration/test_prepared_age "$$age/" || exit 1; \
	(SANDPIT="$$(cd $(B) && pwd)/sandpit" SANDPIT_PREPARED_AGE=$(PREPARED_AGE) \
		"$$age/test_prepared_age" > "$$age/log" 2>&1) & age_pid=$$!; \
	sh tests/run.sh $(if $(J),-j $(J)) --tier long $(B) && \
	$(MAKE) --no-print-directory soak && $(MAKE) --no-print-directory fuzz && \
	$(MAKE) --no-print-directory check-compat; rc=$$?; \
	echo "waiting for the prepared sandbox of $(PREPARED_AGE) s"; \
	if wait $$age_pid; then echo "ok   a prepared sandbox $(PREPARED_AGE) s old has every layer"; \
	else cat "$$age/log"; echo "FAIL a prepared sandbox $(PREPARED_AGE) s old"; rc=1; fi; \
	rm -rf "$$age"; exit $$rc

check-timing: tests
	@rc=0; sh tests/run.sh -j 1 --tier timing $(B) || rc=1; \
	for t in tests/timing/test_*.sh; do \
		if sh $$t $(B)/sandpit; then echo "ok   $$t"; else echo "FAIL $$t"; rc=1; fi; \
	done; exit $$rc

run:
	@sh .ci/deps.sh
	@$(MAKE) --no-print-directory all
	@./$(B)/sandpit $(FILE)

asan:
	@sh .ci/deps.sh
	$(MAKE) B=build-asan SAN='-fsanitize=address,undefined -fno-omit-frame-pointer' \
		CFLAGS='-O1 -g' test-run

# sandpit on a second kernel: a small Debian 12 guest (debootstrap, its
# own kernel and systemd) under QEMU, pure cgroup v2 and then v1, as root
# and as an ordinary user in a delegated scope (tests/vm/run.sh; needs
# root; the guest is built once into $(B)/vm). Like check, it first
# installs what it needs (the build's packages, QEMU, debootstrap).
check-vm:
	@sh .ci/deps.sh vm
	@$(MAKE) --no-print-directory vm-run

vm-run: all
	@sh tests/vm/run.sh $(B)

bench: $(B)/sandpit
	@sh tests/bench/run.sh $(B)

soak: $(B)/sandpit
	@sh tests/soak/run.sh $(B)

FUZZ_SECONDS ?= 30
fuzz:
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)

deps:
	@sh .ci/deps.sh

# sandpit.pc by name too: it says PREFIX, so an install with another one
# remakes it even when all is taken as made (make -o all install, which
# installs a build without rebuilding it; tests/embed does). DESTDIR is
# quoted: a staging dir may have spaces (tests/embed's, under a TMPDIR
# that has them).
install: all $(B)/sandpit.pc
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(DATADIR)/sandpit/themes" \
		"$(DESTDIR)$(INCLUDEDIR)" "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(PKGCONFIGDIR)" "$(DESTDIR)$(COMPLETIONDIR)"
	install -m 755 $(B)/sandpit "$(DESTDIR)$(BINDIR)/sandpit"
	install -m 644 docs/sandpit.1 "$(DESTDIR)$(MANDIR)/man1/sandpit.1"
	install -m 644 themes/*.theme "$(DESTDIR)$(DATADIR)/sandpit/themes/"
	install -m 644 $(B)/completion/sandpit "$(DESTDIR)$(COMPLETIONDIR)/sandpit"
	install -m 644 core/sandpit.h "$(DESTDIR)$(INCLUDEDIR)/sandpit.h"
	install -m 644 $(B)/libsandpit.a "$(DESTDIR)$(LIBDIR)/libsandpit.a"
	install -m 644 $(B)/libsandpit.so.$(VERSION) "$(DESTDIR)$(LIBDIR)/libsandpit.so.$(VERSION)"
	ln -sf libsandpit.so.$(VERSION) "$(DESTDIR)$(LIBDIR)/$(SONAME)"
	ln -sf $(SONAME) "$(DESTDIR)$(LIBDIR)/libsandpit.so"
	install -m 644 $(B)/sandpit.pc "$(DESTDIR)$(PKGCONFIGDIR)/sandpit.pc"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/sandpit" "$(DESTDIR)$(MANDIR)/man1/sandpit.1" "$(DESTDIR)$(COMPLETIONDIR)/sandpit"
	rm -rf "$(DESTDIR)$(DATADIR)/sandpit"
	rm -f "$(DESTDIR)$(INCLUDEDIR)/sandpit.h" "$(DESTDIR)$(LIBDIR)/libsandpit.a" \
		"$(DESTDIR)$(LIBDIR)/libsandpit.so.$(VERSION)" "$(DESTDIR)$(LIBDIR)/$(SONAME)" \
		"$(DESTDIR)$(LIBDIR)/libsandpit.so" "$(DESTDIR)$(PKGCONFIGDIR)/sandpit.pc"

clean:
	rm -rf build build-asan build-fuzz

# CPython's own regression tests, bare and in sandpit with generous limits
# (tests/compat/run.sh, which fetches Debian's test package itself): a
# test that passes bare must pass in the sandbox unless
# tests/compat/allowed.txt names the wall that blocks it. Long (minutes).
check-compat: all
	@sh tests/compat/run.sh $(B)/sandpit; rc=$$?; [ $$rc -eq 77 ] && rc=0; exit $$rc

FORCE:

.PHONY: FORCE layers layers-check check-compat pkgs-core pkgs-tui pkgs-test all tests check check-long check-timing check-vm vm-run test-run run asan bench soak fuzz deps install uninstall clean
