# Tests. `make check` runs them all; test/README.md says how they are
# organized and how to add one.
#   test-unit       Check unit tests (format library, writer, report
#                   model, runtime)
#   test-ir         the plugin's passes on IR, through opt and FileCheck
#   test-bad-input  every mipdata command against broken files
#   test-NAME       test/e2e/NAME.sh: real programs against an independent
#                   ground truth (test-coverage, test-modes, ...: every
#                   script of test/e2e; test/README.md lists them)
#   test-driver     the mipcc driver: argument translation, real builds
#   test-alloc      libmip_alloc.a, the allocator side of allocation hints
#   test-fuzz       every reader under libFuzzer (test/fuzz/build.mk)
#   test-llvm       the plugin in every other LLVM release built: test-llvm-N
#                   for each (docs/llvm.md)
UNIT_SRC  := $(wildcard test/unit/*.c)
UNIT_OBJ  := $(UNIT_SRC:%.c=$(OBJ)/%.o)
UNIT_BIN  := $(BUILD)/test/unit-tests
# The runtime's pieces without exit.c, whose destructor would write a
# profile when the test binary exits, and continuous mode's object.
UNIT_RT_OBJ := $(filter-out $(OBJ)/rt/profile/exit.o,$(RT_OBJ)) $(CONTINUOUS_OBJ)
# The runtime's headers include each other by name, as in rt/build.mk.
$(UNIT_OBJ): ALL_CFLAGS += $(RT_INCLUDES) $(MIPDATA_INCLUDES)

# Every test/e2e/NAME.sh (but lib.sh and the NAME_lib.sh that suites
# share) is a suite, test-NAME: the most
# basic ones first, so that what breaks everything shows there; then the
# others in name order. A new script is picked up as it is.
E2E_FIRST   := coverage modes runtime
E2E_SCRIPTS := $(E2E_FIRST) $(filter-out $(E2E_FIRST) lib %_lib,\
  $(sort $(basename $(notdir $(wildcard test/e2e/*.sh)))))
.PHONY: test-ir test-bad-input test-driver $(E2E_SCRIPTS:%=test-%)

# $(call timed,NAME,COMMAND): COMMAND, then how long it took, for the
# suites that do not say it themselves (the Check binaries; the scripts
# print theirs with their count of checks).
timed = start=$$(date +%s); $(2); rc=$$?; \
  echo "$(1): $$(($$(date +%s) - start)) s"; exit $$rc

$(UNIT_BIN): $(UNIT_OBJ) $(UNIT_RT_OBJ) $(REPORT_OBJ) $(FLAME_OBJ) \
  $(EXPORT_UNIT_OBJ) $(DIFF_RATIO_OBJ) $(LIBMIPFMT)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -liberty -lm $$(pkg-config --libs check)

test-unit: $(UNIT_BIN)
	@$(call timed,unit,$(UNIT_BIN))

test-ir: $(PLUGIN)
	test/ir/run.sh $(BUILD)

test-bad-input: $(MIPDATA) $(PLUGIN) $(RT_LIB) $(MIPCC)
	test/bad-input/run.sh $(BUILD)

# test-coverage, test-modes, ...: one end-to-end script each
$(E2E_SCRIPTS:%=test-%): test-%: all
	test/e2e/$*.sh $(BUILD)

test-driver: all
	test/driver/run.sh $(BUILD)
	test/driver/builds.sh $(BUILD)
	test/driver/install.sh $(BUILD)

test-e2e: test-ir test-bad-input $(E2E_SCRIPTS:%=test-%) test-driver test-alloc

# libmip_alloc.a's tests: Check suites in a binary of their own, linked with
# jemalloc as the process's malloc (and the C++ runtime, for the hinted
# operator new), then link.sh's programs linked the ways users link. Not
# in test-san: AddressSanitizer's allocator and jemalloc cannot both be the
# process's malloc (under a sanitizer the library turns hints off).
ALLOC_TEST_OBJ := $(patsubst %.c,$(OBJ)/%.o,$(wildcard test/alloc/*.c)) \
  $(OBJ)/test/alloc/cxx.o
ALLOC_TEST_BIN := $(BUILD)/test/alloc-tests
ALLOC_PRELOAD  := $(BUILD)/test/alloc-other-malloc.so
ALLOC_MEASURE  := $(BUILD)/test/alloc-measure
.PHONY: test-alloc alloc-measure

$(ALLOC_TEST_OBJ) $(ALLOC_PRELOAD) $(ALLOC_MEASURE): SAN_FLAGS :=
# The plain functions the tests compare with, as called: clang would
# otherwise assume that malloc and its kin leave errno alone.
$(ALLOC_TEST_OBJ): ALL_CFLAGS += -fno-builtin

$(OBJ)/test/alloc/%.o: test/alloc/%.cpp
	@mkdir -p $(@D)
	$(CXX) -std=c++17 $(WARN) $(CFLAGS) -Iinclude -MMD -MP -c $< -o $@

$(ALLOC_TEST_BIN): $(ALLOC_TEST_OBJ) $(ALLOC_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $(ALLOC_TEST_OBJ) $(ALLOC_LIB) -ljemalloc -lstdc++ \
	  -lpthread $$(pkg-config --libs check)

# Another malloc for a child of the tests to run under (test_switch.c).
$(ALLOC_PRELOAD): test/alloc/preload/other_malloc.c
	@mkdir -p $(@D)
	$(CC) -std=c11 $(WARN) $(CFLAGS) -fno-builtin -shared -fPIC -o $@ $<

test-alloc: $(ALLOC_TEST_BIN) $(ALLOC_PRELOAD)
	@$(call timed,alloc,$(ALLOC_TEST_BIN))
	test/alloc/link.sh $(BUILD)

# The measurement behind the hot arena's thread cache (docs/alloc.md).
$(ALLOC_MEASURE): test/alloc/measure/hot_cache.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -o $@ $< -ljemalloc -lpthread

alloc-measure: $(ALLOC_MEASURE)
	$(ALLOC_MEASURE)

# Every LLVM release the build has a plugin for, besides the default, on
# which everything above runs: test-llvm-N runs the IR tests and the
# suites whose truth does not depend on the compiler (coverage against
# SanitizerCoverage, every mode, heap against valgrind's DHAT, and a
# rebuild with the profile) with MIP_LLVM=N, that release's clang, tools
# and plugin.
LLVM_SUITES := coverage modes heap use
.PHONY: test-llvm $(PLUGIN_LLVM:%=test-llvm-%)

test-llvm: $(OTHER_LLVM:%=test-llvm-%)

$(PLUGIN_LLVM:%=test-llvm-%): test-llvm-%: all
	@rc=0; MIP_LLVM=$* test/ir/run.sh $(BUILD) || rc=1; \
	  for s in $(LLVM_SUITES); do MIP_LLVM=$* test/e2e/$$s.sh $(BUILD) || rc=1; done; \
	  exit $$rc
