# Menagerie - build, test, bench and run.
#   make          build ./menagerie (optimised)
#   make run      build and start the main job
#   make test     install missing build dependencies, build the normal and the
#                 sanitizer (ASan+UBSan, clang) binaries, run every test
#   make bench    performance figures (perft and search) against peers
# CFG selects the build: release (default), san, debug (position invariant
# checks after every move: core/verify.c), or any other name for an
# optimised build of its own (objects in build/$(CFG)).

CFG ?= release
BUILD := build/$(CFG)

WARN := -Wall -Wextra -Werror -Wmissing-declarations -Wmissing-prototypes \
        -Wstrict-prototypes -Wshadow -Wvla
BASEFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc -I$(BUILD)/gen -pthread \
             $(shell pkg-config --cflags libmicrohttpd libcjson 2>/dev/null)

ifeq ($(CFG),san)
  CC := clang
  OPT := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
         -fno-sanitize-recover=all
else ifeq ($(CFG),debug)
  OPT := -O1 -g -DMENAGERIE_DEBUG
else
  CC ?= cc
  OPT := -O3 -g -DNDEBUG
endif
ifeq ($(CC),cc)
  CC := gcc
endif
# snprintf truncates on purpose (messages, move texts); gcc would flag each.
ifeq ($(CC),gcc)
  WARN += -Wno-format-truncation
endif

CFLAGS_ALL := $(BASEFLAGS) $(WARN) $(OPT) $(CFLAGS)
LDLIBS := -lm -pthread $(shell pkg-config --libs libmicrohttpd libcjson 2>/dev/null)

SRC := $(wildcard src/*/*.c)
MAIN := src/front/main.c
LIBSRC := $(filter-out $(MAIN),$(SRC))
GENSRC := $(BUILD)/gen/builtin_variants.c $(BUILD)/gen/www_files.c
OBJ := $(patsubst src/%.c,$(BUILD)/%.o,$(LIBSRC)) $(BUILD)/gen/builtin_variants.o \
       $(BUILD)/gen/www_files.o
WWWFILES := $(sort $(shell find www -type f 2>/dev/null))
TESTSRC := $(wildcard tests/unit/*.c)
TESTOBJ := $(patsubst tests/unit/%.c,$(BUILD)/tests/%.o,$(TESTSRC))
VARFILES := $(sort $(wildcard src/variants/*.var))

.PHONY: all run test bench deps clean format san
all: menagerie

menagerie: $(BUILD)/menagerie
	@cp $< $@

$(BUILD)/menagerie: $(OBJ) $(BUILD)/front/main.o
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS)

$(BUILD)/unit_tests: $(OBJ) $(TESTOBJ)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itests/unit -MMD -MP -c -o $@ $<

# Built-in variant definitions are compiled into the binary as text.
$(BUILD)/tools/embed: tools/embed.c
	@mkdir -p $(dir $@)
	gcc -std=c11 -O1 $(WARN) -o $@ $<

$(BUILD)/gen/builtin_variants.c: $(BUILD)/tools/embed $(VARFILES)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed builtin_variants src/variants/ $(VARFILES) > $@

# The web page (www/) is served from the binary too.
$(BUILD)/gen/www_files.c: $(BUILD)/tools/embed $(WWWFILES)
	@mkdir -p $(dir $@)
	$(BUILD)/tools/embed www_files www/ $(WWWFILES) > $@

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

run: deps menagerie
	./menagerie serve

san:
	$(MAKE) CFG=san build/san/menagerie build/san/unit_tests

test: deps
	$(MAKE) menagerie build/release/unit_tests
	$(MAKE) san
	$(MAKE) CFG=debug build/debug/menagerie
	bash tests/run.sh

bench: menagerie
	bash tests/bench.sh

deps:
	@bash tools/deps.sh

format:
	clang-format -i $(SRC) $(wildcard src/*/*.h) $(TESTSRC) tools/embed.c

clean:
	rm -rf build menagerie

-include $(OBJ:.o=.d) $(TESTOBJ:.o=.d) $(BUILD)/front/main.d
