# Fuzz targets: one per reader (test/fuzz/fuzz_*.c), built with libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer into build/fuzz (FUZZ=1
# gives the format library and mipdata's objects the same flags).
# test/fuzz/README.md says what each target runs and how fast.
#   test-fuzz   every target for FUZZ_CHECK_SECONDS on average (default
#               30), two at a time, on a seed corpus made from real builds,
#               then the regression inputs
#   fuzz        the same for FUZZ_SECONDS in all (default 3600: an hour),
#               FUZZ_JOBS targets at a time (default 2, one per core):
#               FUZZ_SECONDS * FUZZ_JOBS / (the number of targets) on
#               average, shared by weight, the slower targets getting more
#               (run.sh); the table at the end says which targets fell
#               short of FUZZ_GOAL executions (default 10^7)
FUZZ_TARGETS := map mapfile raw profile view extract pool dump debuginfo
FUZZ_BINS := $(FUZZ_TARGETS:%=$(BUILD)/test/fuzz_%)
FUZZ_OWN := $(OBJ)/test/fuzz/fuzz_common.o $(OBJ)/test/fuzz/fuzz_merge.o \
  $(OBJ)/test/fuzz/mipdata_main.o
FUZZ_COMMON := $(FUZZ_OWN) \
  $(filter-out $(OBJ)/tools/mipdata/main.o,$(MIPDATA_OBJ))
FUZZ_CHECK_SECONDS ?= 30
FUZZ_SECONDS ?= 3600
FUZZ_JOBS ?= 2
FUZZ_GOAL ?= 10000000
.PHONY: fuzz-targets
# (made by pattern rules only, they would be deleted as intermediates)
.SECONDARY: $(FUZZ_TARGETS:%=$(OBJ)/test/fuzz/fuzz_%.o) $(FUZZ_OWN)

$(OBJ)/test/fuzz/%.o: ALL_CFLAGS += -I/usr/include/libdwarf $(MIPDATA_INCLUDES)
# The output writer compares each character it quotes; tracing those
# comparisons (libFuzzer's hints for solving them) took a third of the
# view target's time, and nothing it prints is there to be solved. Its
# edges are still counted.
ifneq ($(FUZZ),)
$(OBJ)/tools/mipdata/output/emit.o: ALL_CFLAGS += -fno-sanitize-coverage=trace-cmp
endif
# mipdata's main, renamed: libFuzzer has the process's main.
$(OBJ)/test/fuzz/mipdata_main.o: tools/mipdata/main.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Dmain=mipdata_main -c $< -o $@

# (fuzz_common.c's open_memstream: the streams annotate writes, unlocked)
$(BUILD)/test/fuzz_%: $(OBJ)/test/fuzz/fuzz_%.o $(FUZZ_COMMON) $(LIBMIPFMT)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -Wl,--wrap=open_memstream -o $@ $^ \
	  $(MIPDATA_LIBS)

# fuzz_pool: the runtime's pool merge, which reads the file it finds in
# the profiled program. The runtime's own objects are built without the
# sanitizers: its sources are built again here with the fuzzer's flags,
# all but the exit-time destructor and the heap runtime (the heap merge,
# merge_heap.c, needs none of it).
FUZZ_RT_OBJ := $(patsubst rt/%.c,$(OBJ)/test/fuzz/rt/%.o,\
  $(filter-out rt/profile/exit.c rt/heap/%.c,$(RT_SRC)))
$(FUZZ_RT_OBJ) $(OBJ)/test/fuzz/fuzz_pool.o: ALL_CFLAGS += $(RT_INCLUDES)
$(FUZZ_RT_OBJ): $(OBJ)/test/fuzz/rt/%.o: rt/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/test/fuzz_pool: $(OBJ)/test/fuzz/fuzz_pool.o $(FUZZ_RT_OBJ) \
  $(FUZZ_COMMON) $(LIBMIPFMT)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -Wl,--wrap=open_memstream -o $@ $^ \
	  $(MIPDATA_LIBS)

fuzz-targets: $(FUZZ_BINS)

test-fuzz: all
	$(MAKE) BUILD=$(BUILD)/fuzz FUZZ=1 fuzz-targets
	test/fuzz/run.sh $(BUILD) $(BUILD)/fuzz $(FUZZ_CHECK_SECONDS) 2

fuzz: deps all
	$(MAKE) BUILD=$(BUILD)/fuzz FUZZ=1 fuzz-targets
	FUZZ_GOAL=$(FUZZ_GOAL) test/fuzz/run.sh $(BUILD) $(BUILD)/fuzz \
	  $$(($(FUZZ_SECONDS) * $(FUZZ_JOBS) / $(words $(FUZZ_TARGETS)))) $(FUZZ_JOBS)
