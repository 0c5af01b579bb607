# Tests. `make check` runs them all; see test/README.md.
#   test-unit       Check unit tests (format library, writer, runtime)
#   test-ir         the plugin's passes on IR, through opt and FileCheck
#   test-bad-input  every mipdata command against broken files
#   test-e2e        real programs against an independent ground truth
#                   (coverage), exact counts, order, blocks and edges
#                   (modes), the runtime inside programs (runtime), shared
#                   libraries (images), threads, fork, mip_dump (dump),
#                   function order files (order), the heap runtime
#                   (heap_rt), heap merge and symbolization (heap_merge),
#                   heap profiles against DHAT and known patterns (heap),
#                   the driver, and the above
UNIT_SRC  := $(wildcard test/unit/*.c)
UNIT_OBJ  := $(UNIT_SRC:%.c=$(OBJ)/%.o)
UNIT_BIN  := $(BUILD)/test/unit-tests
# The runtime's pieces without exit.c, whose destructor would write a
# profile when the test binary exits.
UNIT_RT_OBJ := $(filter-out $(OBJ)/rt/exit.o,$(RT_OBJ))

E2E_SCRIPTS := coverage modes runtime images threads fork dump order heap_rt \
  heap_merge heap
.PHONY: test-ir test-bad-input test-driver $(E2E_SCRIPTS:%=test-%)

$(UNIT_BIN): $(UNIT_OBJ) $(UNIT_RT_OBJ) $(OBJ)/tools/mipdata/emit.o $(LIBMIPFMT)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $$(pkg-config --libs check)

test-unit: $(UNIT_BIN)
	$(UNIT_BIN)

test-ir: $(PLUGIN)
	test/ir/run.sh $(BUILD)

test-bad-input: $(MIPDATA) $(PLUGIN) $(RT_LIB) $(MIPCC)
	test/bad-input/run.sh $(BUILD)

# test-coverage, test-modes, ...: one end-to-end script each
$(E2E_SCRIPTS:%=test-%): test-%: all
	test/e2e/$*.sh $(BUILD)

test-driver: all
	test/driver/run.sh $(BUILD)

test-e2e: test-ir test-bad-input $(E2E_SCRIPTS:%=test-%) test-driver
