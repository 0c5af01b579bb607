# make bench-use: what rebuilding real programs with their profile
# (mipcc -fmip-use, -fmip-order) does to their code sections, run time,
# start-up page faults and compile time (bench/README.md, "Profile use").
# Installs what it needs like `make bench`, builds the tools, then runs
# bench/use/run.sh, which prints the tables and writes build/bench/use.md.
# BENCH_PROGRAMS, BENCH_USE_RUNS, BENCH_USE_STARTUP_RUNS,
# BENCH_USE_COMPILE_RUNS and BENCH_JOBS are read from the environment.
# Needs bench/build.mk (bench-deps, BENCH_TOOLS) first.
.PHONY: bench-use bench-use-run

bench-use: bench-deps
	$(MAKE) bench-use-run

bench-use-run: $(BENCH_TOOLS) $(MIPDATA) $(ALLOC_LIB)
	LLVM_DIR=$(LLVM_DIR) CLANG=$(CLANG) BUILD=$(BUILD) PLUGIN=$(PLUGIN) \
	  RT_LIB=$(RT_LIB) MIPCC=$(MIPCC) MIPDATA=$(MIPDATA) bench/use/run.sh

# make bench-use-pgo: -fmip-use side by side with LLVM's front-end and
# IR-level PGO (bench/use/pgo.sh; bench/README.md, "Profile use against
# LLVM's PGO"). BENCH_PROGRAMS, BENCH_PGO_RUNS and BENCH_JOBS are read from
# the environment.
.PHONY: bench-use-pgo bench-use-pgo-run

bench-use-pgo: bench-deps
	$(MAKE) bench-use-pgo-run

bench-use-pgo-run: $(BENCH_TOOLS) $(MIPDATA)
	LLVM_DIR=$(LLVM_DIR) CLANG=$(CLANG) BUILD=$(BUILD) PLUGIN=$(PLUGIN) \
	  RT_LIB=$(RT_LIB) MIPCC=$(MIPCC) MIPDATA=$(MIPDATA) bench/use/pgo.sh
