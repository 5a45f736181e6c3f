# Menagerie - build, test, bench and run.
#   make          build ./menagerie (optimised)
#   make run      build and start the main job
#   make test     install missing build dependencies, build the normal and the
#                 sanitizer (ASan+UBSan, clang) binaries, run every test
#   make test-fast  the fast tier alone (unit, perft, signature, layering, style)
#   make bench    performance figures (perft and search) against peers
#   make fuzz     builds the libFuzzer harnesses (tests/fuzz/) and runs them all in
#                 turn, each for FUZZ_SECONDS seconds (default 180), or on to FUZZ_RUNS
#                 inputs in all (resumable; state in FUZZ_DIR, default build/fuzz)
#   make install / uninstall   see "Installing" below (PREFIX, DESTDIR)
# CFG selects the build: release (default), san, fuzz (clang, coverage for
# libFuzzer plus ASan+UBSan), fuzz-ub (the same with UBSan alone: about ten
# times the inputs a second, for volume), debug (position invariant checks after every
# move: core/verify.c), or any other name for an optimised build of its own
# (objects in build/$(CFG)). A name ending in -pic (release-pic, san-pic) is
# that build as position-independent code, for libmenagerie (make lib).

CFG ?= release
BUILD := build/$(CFG)
KIND := $(CFG:%-pic=%)

WARN := -Wall -Wextra -Werror -Wmissing-declarations -Wmissing-prototypes \
        -Wstrict-prototypes -Wshadow -Wvla
BASEFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc -I. -I$(BUILD)/gen -pthread \
             $(shell pkg-config --cflags libmicrohttpd libcjson libsodium sqlite3 libpq 2>/dev/null)

# The fuzz builds count coverage in the code that reads input, not in the search.
FUZZ_COVERAGE := -fsanitize-coverage-ignorelist=tests/fuzz/coverage-ignore.txt
ifeq ($(KIND),san)
  CC := clang
  OPT := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
         -fno-sanitize-recover=all
else ifeq ($(KIND),fuzz)
  CC := clang
  OPT := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
         -fno-sanitize-recover=all $(FUZZ_COVERAGE)
else ifeq ($(KIND),fuzz-ub)
  CC := clang
  OPT := -O1 -g -fsanitize=fuzzer-no-link,undefined -fno-omit-frame-pointer \
         -fno-sanitize-recover=all $(FUZZ_COVERAGE)
else ifeq ($(KIND),debug)
  OPT := -O1 -g -DMENAGERIE_DEBUG
else
  CC ?= cc
  OPT := -O3 -g -DNDEBUG
endif
ifneq ($(KIND),$(CFG))
  OPT += -fPIC
endif
ifeq ($(CC),cc)
  CC := gcc
endif
# snprintf truncates on purpose (messages, move texts); gcc would flag each.
ifeq ($(CC),gcc)
  WARN += -Wno-format-truncation
endif

CFLAGS_ALL := $(BASEFLAGS) $(WARN) $(OPT) $(CPPFLAGS) $(CFLAGS)
LDLIBS := -lm -pthread $(shell pkg-config --libs libmicrohttpd libcjson libsodium sqlite3 libpq 2>/dev/null)

# The product: src/ (core, variants, search, mancala, engine, and the app's
# front ends in app/ and its folders). The lab (lab/: the match tool and its
# opening sets, the tuners) sits above it: linked into ./menagerie, which it
# hands its commands (app/app.h), and into nothing else; src/ never names it.
SRC := $(sort $(shell find src -name '*.c'))
MAIN := src/app/main.c
LIBSRC := $(filter-out $(MAIN) src/lib/%,$(SRC))
GENSRC := $(BUILD)/gen/builtin_variants.c $(BUILD)/gen/builtin_rules.c $(BUILD)/gen/web_files.c \
          $(BUILD)/gen/lab_opening_sets.c
OBJ := $(patsubst src/%.c,$(BUILD)/%.o,$(LIBSRC)) $(BUILD)/gen/builtin_variants.o \
       $(BUILD)/gen/builtin_rules.o $(BUILD)/gen/web_files.o
LABSRC := $(wildcard lab/*.c)
LABOBJ := $(patsubst %.c,$(BUILD)/%.o,$(LABSRC)) $(BUILD)/gen/lab_opening_sets.o
WWWFILES := $(sort $(shell find www -type f 2>/dev/null))
TESTSRC := $(wildcard tests/unit/*.c)
TESTOBJ := $(patsubst tests/unit/%.c,$(BUILD)/tests/%.o,$(TESTSRC))
VARFILES := $(sort $(wildcard src/variants/*.var src/variants/*.base src/variants/weights/*.eval \
                              src/variants/nets/*.nnue))
OPENFILES := $(sort $(wildcard lab/openings/*.txt))
FUZZ_SECONDS ?= 180
FUZZ_RUNS ?=
FUZZ_DIR ?=
FUZZ_CFG ?= fuzz

.PHONY: all run test test-fast bench deps clean format format-check san fuzz fuzzers tune spsa train lib FORCE
all: menagerie

menagerie: $(BUILD)/menagerie
	@cp $< $@

$(BUILD)/menagerie: $(OBJ) $(LABOBJ) $(BUILD)/app/main.o
	$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/unit_tests: $(OBJ) $(TESTOBJ)
	$(CC) $(CFLAGS_ALL) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c -o $@ $<

$(BUILD)/lab/%.o: lab/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c -o $@ $<

# libmenagerie (src/lib/menagerie.h): the engine without its front ends, as
# position-independent code, exporting only the menagerie_ calls. `make lib`
# builds build/release-pic/libmenagerie.so; CFG=san-pic the sanitizers' one.
SOSRC := $(filter-out src/app/%,$(LIBSRC)) $(wildcard src/lib/*.c)
SOOBJ := $(patsubst src/%.c,$(BUILD)/%.o,$(SOSRC)) $(BUILD)/gen/builtin_variants.o \
         $(BUILD)/gen/builtin_rules.o
# (a sanitized library takes the sanitizers' runtime from the program that loads it)
SONOUNDEF := $(if $(filter san fuzz,$(KIND)),,-Wl,--no-undefined)
lib:
	$(MAKE) CFG=release-pic build/release-pic/libmenagerie.so

$(BUILD)/libmenagerie.so: $(SOOBJ) src/lib/menagerie.map
	$(CC) $(CFLAGS_ALL) $(LDFLAGS) -shared -Wl,-soname,libmenagerie.so \
	    -Wl,--version-script=src/lib/menagerie.map $(SONOUNDEF) -o $@ $(SOOBJ) -lm -pthread \
	    $(shell pkg-config --libs libsodium 2>/dev/null)

# libFuzzer harnesses (CFG=fuzz): one binary per tests/fuzz/fuzz_*.c.
$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -fsanitize=fuzzer -Itests/fuzz -o $@ $< $(OBJ) $(LDLIBS)

$(BUILD)/tests/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/unit -MMD -MP -c -o $@ $<

# The Texel tuner (lab/tune/tune.sh runs it).
tune: $(BUILD)/tune
$(BUILD)/tune: lab/tune/tune.c $(OBJ)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS)

# The trainer of the networks (docs/nnue.md).
train: $(BUILD)/train
$(BUILD)/train: lab/nnue/train.c lab/samples.h $(OBJ)
	$(CC) $(CFLAGS_ALL) -o $@ $(filter-out %.h,$^) $(LDLIBS)

# The SPSA tuner of the search's numbers (docs/development.md, "Tuning the search").
spsa: $(BUILD)/spsa
$(BUILD)/spsa: lab/tune/spsa.c $(OBJ)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS)

# Built-in variant definitions are compiled into the binary: the games (NAME.var),
# the parents only (NAME.base), the tuned weights (weights/NAME.eval) and the
# networks (nets/NAME.nnue, docs/nnue.md).
$(BUILD)/tools/embed: tools/embed.c
	@mkdir -p $(dir $@)
	gcc -std=c11 -O1 $(WARN) -o $@ $<

# Each embedded file list is kept in a .list file, rewritten only when it
# changes, so that a file taken away rebuilds the table as one added does.
$(BUILD)/gen/%.list: FORCE
	@mkdir -p $(dir $@)
	@echo '$(EMBED_$*)' | cmp -s - $@ || echo '$(EMBED_$*)' > $@
EMBED_builtin_variants = $(VARFILES)
EMBED_lab_opening_sets = $(OPENFILES)
EMBED_web_files = $(WWWFILES)
FORCE:

$(BUILD)/gen/builtin_variants.c: $(BUILD)/tools/embed $(VARFILES) $(BUILD)/gen/builtin_variants.list
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed builtin_variants src/variants/ $(VARFILES) > $@

# Opening sets of the match tool (made by `menagerie openings`).
$(BUILD)/gen/lab_opening_sets.c: $(BUILD)/tools/embed $(OPENFILES) $(BUILD)/gen/lab_opening_sets.list
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed --header lab/opening_sets.h --type LabOpeningSet lab_opening_sets \
	    lab/openings/ $(OPENFILES) > $@

# The web page (www/) is served from the binary too; the engine tells the
# rules texts of its pages (www/rules/) to every front end.
$(BUILD)/gen/web_files.c: $(BUILD)/tools/embed $(WWWFILES) $(BUILD)/gen/web_files.list
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed --header app/web/files.h --type WebFile web_files www/ $(WWWFILES) > $@

$(BUILD)/gen/builtin_rules.c: $(BUILD)/tools/embed $(filter www/rules/%,$(WWWFILES)) $(BUILD)/gen/web_files.list
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed builtin_rules www/rules/ $(filter www/rules/%,$(WWWFILES)) > $@

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

run: deps menagerie
	./menagerie serve

san:
	$(MAKE) CFG=san build/san/menagerie build/san/unit_tests

fuzzers:
	$(MAKE) CFG=$(FUZZ_CFG) $(patsubst tests/fuzz/%.c,build/$(FUZZ_CFG)/fuzz/%,$(wildcard tests/fuzz/fuzz_*.c))

fuzz: deps fuzzers
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_DIR=$(FUZZ_DIR) FUZZ_CFG=$(FUZZ_CFG) \
	    bash tests/fuzz/run.sh

# The builds of `make test` use every core (JOBS=1 for one at a time); the
# debug build and the fuzz harnesses are built by tests/run.sh, side by side
# with the first tests.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
test: deps
	$(MAKE) -j$(JOBS) menagerie build/release/unit_tests
	$(MAKE) -j$(JOBS) san
	bash tests/run.sh
test-fast: deps
	$(MAKE) -j$(JOBS) menagerie build/release/unit_tests
	$(MAKE) -j$(JOBS) san
	TIER=fast bash tests/run.sh

bench: menagerie
	bash tests/bench.sh

deps:
	@bash tools/deps.sh

# Every C file of the project, in .clang-format's style: `make format`
# applies it, `make format-check` (part of make test) fails on any line
# out of it.
FORMATFILES = $(sort $(shell find src lab tests/unit tests/fuzz tools python/menagerie \
                  -name '*.[ch]' -not -path 'tests/fuzz/corpus/*'))
format:
	clang-format -i $(FORMATFILES)
format-check:
	clang-format --dry-run --Werror $(FORMATFILES)

clean:
	rm -rf build menagerie python/build python/*.egg-info python/menagerie/*.so

# --- Installing -------------------------------------------------------------
# `make install PREFIX=/usr DESTDIR=/tmp/pkg`: the binary and its manual page
# in the games sections, the documentation, and XBoard's engine registration
# (an .eng plugin file and a logo, found by XBoard's -autoInstall). The
# version has one source: the first line of debian/changelog.
VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/games
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/menagerie
PLUGINDIR ?= $(PREFIX)/share/games/plugins
INSTALL ?= install

$(BUILD)/app/main.o: CFLAGS_ALL += -DMENAGERIE_VERSION='"$(VERSION)"'
$(BUILD)/app/main.o: debian/changelog
$(BUILD)/lib/menagerie.o: CFLAGS_ALL += -DMENAGERIE_VERSION='"$(VERSION)"'
$(BUILD)/lib/menagerie.o: debian/changelog

.PHONY: install uninstall
# The manual's pages, installed beside README.md as its links name them.
DOCS := $(wildcard docs/*.md)
install: menagerie
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man6 $(DESTDIR)$(DOCDIR) \
	    $(DESTDIR)$(PLUGINDIR)/xboard $(DESTDIR)$(PLUGINDIR)/logos
	$(INSTALL) -m 755 menagerie $(DESTDIR)$(BINDIR)/menagerie
	sed 's/@VERSION@/$(VERSION)/' docs/menagerie.6 | gzip -9n > $(DESTDIR)$(MANDIR)/man6/menagerie.6.gz
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)/docs
	$(INSTALL) -m 644 README.md $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/docs
	{ echo '# Menagerie: rules summary'; echo; awk '/^## /{p = /^## Rules/} p' docs/playing.md; \
	  echo '## Variant definition files'; sed '1{/^# /d}; s/^#/##/' docs/variants.md; } \
	    > $(DESTDIR)$(DOCDIR)/rules.md
	sed 's|@BINDIR@|$(BINDIR)|' dist/menagerie.eng > $(DESTDIR)$(PLUGINDIR)/xboard/menagerie.eng
	$(INSTALL) -m 644 dist/menagerie.png $(DESTDIR)$(PLUGINDIR)/logos/menagerie.png

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/menagerie $(DESTDIR)$(MANDIR)/man6/menagerie.6.gz \
	    $(DESTDIR)$(DOCDIR)/README.md $(DESTDIR)$(DOCDIR)/rules.md \
	    $(addprefix $(DESTDIR)$(DOCDIR)/,$(DOCS)) \
	    $(DESTDIR)$(PLUGINDIR)/xboard/menagerie.eng $(DESTDIR)$(PLUGINDIR)/logos/menagerie.png
	-rmdir $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) 2>/dev/null

-include $(OBJ:.o=.d) $(LABOBJ:.o=.d) $(TESTOBJ:.o=.d) $(BUILD)/app/main.d $(BUILD)/lib/menagerie.d
