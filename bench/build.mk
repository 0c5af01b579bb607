# make bench: the overhead benchmark (bench/README.md). Installs what it
# needs, builds the plugin, the runtime and the mipcc and mipc++ drivers,
# then runs bench/run.sh, which prints the tables and writes build/bench/results.md.
# BENCH_PROGRAMS, BENCH_RUNS and BENCH_JOBS are read from the environment.
.PHONY: bench-deps bench-run

BENCH_TOOLS := $(PLUGIN) $(PLUGIN_CLANG) $(RT_LIB) $(MIPCC) $(BIN)/mipc++

bench: bench-deps
	$(MAKE) bench-run

bench-deps:
	scripts/install-deps bench

# Then, for every other LLVM release built, plain, mip and mip-co again
# with that release's clang and plugin (into build/bench/llvm-N), and the
# releases side by side (bench/llvm.sh, appended to results.md).
# BENCH_BASE (default build/bench) is where it all goes but the fetched
# sources, which stay in build/bench/src: another directory lets this
# run beside another benchmark.
BENCH_BASE ?= $(BUILD)/bench

bench-run: $(BENCH_TOOLS) $(PLUGINS)
	LLVM_DIR=$(LLVM_DIR) CLANG=$(CLANG) BUILD=$(BUILD) PLUGIN=$(PLUGIN) \
	  RT_LIB=$(RT_LIB) MIPCC=$(MIPCC) MIP_LLVM=$(DEFAULT_LLVM) \
	  BENCH_OUT=$(BENCH_BASE) BENCH_SRC=$(BUILD)/bench/src bench/run.sh
	$(foreach n,$(OTHER_LLVM),LLVM_DIR=$(call llvm_dir,$(n)) \
	  CLANG=$(call llvm_dir,$(n))/bin/clang BUILD=$(BUILD) \
	  PLUGIN=$(LIB)/mip/llvm-$(n)/libmip.so RT_LIB=$(RT_LIB) MIPCC=$(MIPCC) \
	  MIP_LLVM=$(n) BENCH_OUT=$(BENCH_BASE)/llvm-$(n) BENCH_SRC=$(BUILD)/bench/src \
	  BENCH_CONFIGS="plain mip mip-co" bench/run.sh &&) true
	bench/llvm.sh $(BENCH_BASE) $(DEFAULT_LLVM) $(OTHER_LLVM) | tee -a $(BENCH_BASE)/results.md
