# Fuzz targets: one per reader (test/fuzz/fuzz_*.c), built with libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer into build/fuzz (FUZZ=1
# gives the format library and mipdata's objects the same flags).
#   test-fuzz   every target for FUZZ_CHECK_SECONDS (default 30) on a seed
#               corpus made from real builds, then the regression inputs
#   fuzz        the same for FUZZ_SECONDS (default 3600) per target
FUZZ_TARGETS := map mapfile raw profile view extract pool
FUZZ_BINS := $(FUZZ_TARGETS:%=$(BUILD)/test/fuzz_%)
FUZZ_COMMON := $(OBJ)/test/fuzz/fuzz_common.o $(OBJ)/test/fuzz/mipdata_main.o \
  $(filter-out $(OBJ)/tools/mipdata/main.o,$(MIPDATA_OBJ))
FUZZ_CHECK_SECONDS ?= 30
FUZZ_SECONDS ?= 3600
.PHONY: fuzz-targets

$(OBJ)/test/fuzz/%.o: ALL_CFLAGS += -I/usr/include/libdwarf
# mipdata's main, renamed: libFuzzer has the process's main.
$(OBJ)/test/fuzz/mipdata_main.o: tools/mipdata/main.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Dmain=mipdata_main -c $< -o $@

$(BUILD)/test/fuzz_%: $(OBJ)/test/fuzz/fuzz_%.o $(FUZZ_COMMON) $(LIBMIPFMT)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(MIPDATA_LIBS)

# fuzz_pool: the runtime's pool merge, which reads the file it finds in
# the profiled program. The runtime's own objects are built without the
# sanitizers: its sources are built again here with the fuzzer's flags,
# all but the exit-time destructor and the heap runtime (the heap merge,
# merge_heap.c, needs none of it).
FUZZ_RT_OBJ := $(patsubst rt/%.c,$(OBJ)/test/fuzz/rt/%.o,\
  $(filter-out rt/profile/exit.c rt/heap/%.c,$(RT_SRC)))
$(FUZZ_RT_OBJ) $(OBJ)/test/fuzz/fuzz_pool.o: ALL_CFLAGS += $(RT_DIRS:%=-I%)
$(FUZZ_RT_OBJ): $(OBJ)/test/fuzz/rt/%.o: rt/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/test/fuzz_pool: $(OBJ)/test/fuzz/fuzz_pool.o $(FUZZ_RT_OBJ) \
  $(FUZZ_COMMON) $(LIBMIPFMT)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(MIPDATA_LIBS)

fuzz-targets: $(FUZZ_BINS)

test-fuzz: all
	$(MAKE) BUILD=$(BUILD)/fuzz FUZZ=1 fuzz-targets
	test/fuzz/run.sh $(BUILD) $(BUILD)/fuzz $(FUZZ_CHECK_SECONDS)

fuzz: deps all
	$(MAKE) BUILD=$(BUILD)/fuzz FUZZ=1 fuzz-targets
	test/fuzz/run.sh $(BUILD) $(BUILD)/fuzz $(FUZZ_SECONDS)
