# MIP: build, test, benchmark.
#
#   make            build everything into build/
#   make check      install what is missing, then run every test
#   make demo       install what is missing, then profile examples/wordstat
#   make demo-use   the same, then rebuild examples/hotcold and
#                   examples/startup with their profiles
#   make bench      install what is missing, then the overhead benchmark
#   make bench-startup  start-up page faults, default layout vs mipdata order
#   make bench-heap     heap profiling: cost, and truth against DHAT and MemProf
#   make bench-use      rebuilding with the profile: sections, time, faults
#   make bench-pool     pool mode (%Nm): the exit-time merge against the write
#   make bench-flame    the flame graph page of 100,000 heap contexts: its
#                       generation, size and first paint in Chromium
#   make bench-export   mipdata export of 100,000 heap contexts, per format
#   make bench-diff     mipdata diff on two profiles of 100,000 heap contexts
#   make fuzz       every reader under libFuzzer, ASan and UBSan: an hour
#                   in all (FUZZ_SECONDS, default 3600), two targets at a
#                   time (FUZZ_JOBS), then a table of what each did
#   make install    copy build/ into $(PREFIX) (DESTDIR= for staging)
#   make uninstall  remove what make install copied
#
# The tree is built by one make (no recursion): each directory contributes
# a build.mk fragment.

# LLVM=N builds against Debian's LLVM N (/usr/lib/llvm-N), LLVM_DIR= against
# another tree: that release's plugin alone. Without either, the plugin is
# built for every supported release installed (plugin/build.mk, docs/llvm.md)
# and everything else with LLVM 19's clang.
LLVM     ?=
LLVM_DIR ?= /usr/lib/llvm-$(or $(LLVM),19)
CLANG    ?= $(LLVM_DIR)/bin/clang
CLANGXX  ?= $(LLVM_DIR)/bin/clang++
PREFIX   ?= /usr/local
BUILD    ?= build
# SAN=1 builds the tools, the format library and the unit tests with
# AddressSanitizer and UndefinedBehaviorSanitizer (into build/san); FUZZ=1
# the same with libFuzzer's coverage too, for the fuzz targets (into
# build/fuzz).
SAN      ?=
FUZZ     ?=

CC  := $(CLANG)
CXX := $(CLANGXX)
AR  := $(LLVM_DIR)/bin/llvm-ar

comma := ,
SAN_FLAGS := $(if $(SAN)$(FUZZ),-fsanitize=address$(comma)undefined -fno-sanitize-recover=all -fno-omit-frame-pointer) \
  $(if $(FUZZ),-fsanitize=fuzzer-no-link)
# Warnings are errors while developing; WERROR=0 for distribution builds,
# where a newer compiler's new warning should not stop the build.
WERROR    ?= 1
WARN      := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
CFLAGS    ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(SAN_FLAGS) -Iinclude -Ilib -MMD -MP
LDFLAGS   ?=
ALL_LDFLAGS = $(LDFLAGS) $(SAN_FLAGS)

BIN := $(BUILD)/bin
LIB := $(BUILD)/lib
OBJ := $(BUILD)/obj

.DEFAULT_GOAL := all
.PHONY: all check demo bench install uninstall clean deps check-all test-unit test-e2e test-san \
  test-fuzz fuzz

include lib/build.mk
include rt/build.mk
include rt/alloc/build.mk
include plugin/build.mk
include tools/build.mk
include test/build.mk
include test/fuzz/build.mk
include bench/build.mk
include bench/startup.mk
include bench/use.mk
include bench/heap.mk
include bench/pool.mk
include bench/flame.mk
include bench/export.mk
include bench/diff.mk
include examples/build.mk
include dist/install.mk

all: $(ALL_TARGETS)

deps:
	scripts/install-deps

# The total time at the end, passed or not (each suite says its own).
check: deps
	@start=$$(date +%s); $(MAKE) check-all; rc=$$?; \
	  if [ $$rc = 0 ]; then result="every suite passed"; else result=FAILED; fi; \
	  echo "make check: $$result in $$(($$(date +%s) - start)) s"; exit $$rc

check-all: all test-unit test-e2e test-llvm test-san test-fuzz

# The sanitizer pass: the unit tests, and the bad-input tests against a
# mipdata built with ASan and UBSan (test programs come from the normal
# build).
test-san: all
	$(MAKE) BUILD=$(BUILD)/san SAN=1 $(BUILD)/san/test/unit-tests $(BUILD)/san/bin/mipdata
	@$(call timed,unit (ASan+UBSan),$(BUILD)/san/test/unit-tests)
	test/bad-input/run.sh $(BUILD) $(BUILD)/san/bin/mipdata
	test/e2e/order.sh $(BUILD) $(BUILD)/san/bin/mipdata
	test/e2e/data.sh $(BUILD) $(BUILD)/san/bin/mipdata
	test/e2e/heap_merge.sh $(BUILD) $(BUILD)/san/bin/mipdata
	test/e2e/annotate.sh $(BUILD) $(BUILD)/san/bin/mipdata
	test/e2e/cli.sh $(BUILD) $(BUILD)/san/bin/mipdata
	test/e2e/flamegraph.sh $(BUILD) $(BUILD)/san/bin/mipdata
	test/e2e/export.sh $(BUILD) $(BUILD)/san/bin/mipdata
	test/e2e/diff.sh $(BUILD) $(BUILD)/san/bin/mipdata
	test/e2e/hostile_names.sh $(BUILD) $(BUILD)/san/bin/mipdata

clean:
	rm -rf $(BUILD)

$(OBJ)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)
