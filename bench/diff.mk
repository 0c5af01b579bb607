# make bench-diff: mipdata diff on two synthetic profiles of 100,000 heap
# contexts each (bench/diff/gen.c makes them as merge does, through the
# unit tests' builder), its time and peak RSS (bench/diff.sh,
# bench/README.md "mipdata diff"). BENCH_DIFF_CONTEXTS and BENCH_DIFF_RUNS are
# read from the environment. Needs bench/build.mk (bench-deps: /usr/bin/time,
# jq) first.
.PHONY: bench-diff bench-diff-run

BENCH_DIFF_GEN := $(BUILD)/bench/diff-gen

$(BENCH_DIFF_GEN): $(OBJ)/bench/diff/gen.o $(OBJ)/test/unit/builder.o $(LIBMIPFMT)
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $$(pkg-config --libs check)

bench-diff: bench-deps
	$(MAKE) bench-diff-run

bench-diff-run: $(MIPDATA) $(BENCH_DIFF_GEN)
	bench/diff.sh $(BUILD)
