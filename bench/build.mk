# make bench: the overhead benchmark (bench/README.md). Installs what it
# needs, builds the plugin, the runtime and the mipcc driver, then runs
# bench/run.sh, which prints the tables and writes build/bench/results.md.
# BENCH_PROGRAMS, BENCH_RUNS and BENCH_JOBS are read from the environment.
.PHONY: bench-deps bench-run

BENCH_TOOLS := $(PLUGIN) $(PLUGIN_CLANG) $(RT_LIB) $(MIPCC)

bench: bench-deps
	$(MAKE) bench-run

bench-deps:
	scripts/install-deps bench

bench-run: $(BENCH_TOOLS)
	LLVM_DIR=$(LLVM_DIR) CLANG=$(CLANG) BUILD=$(BUILD) PLUGIN=$(PLUGIN) \
	  RT_LIB=$(RT_LIB) MIPCC=$(MIPCC) bench/run.sh
