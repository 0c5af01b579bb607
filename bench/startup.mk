# make bench-startup: start-up page faults of the sqlite3 shell linked in
# its default layout and with the symbol ordering file `mipdata order`
# makes from a profile of the same workload (bench/README.md, "Start-up
# layout"). Installs what it needs like `make bench`, builds the tools,
# then runs bench/startup/run.sh, which prints the table and writes
# build/bench/startup.md. BENCH_STARTUP_RUNS and BENCH_JOBS are read from
# the environment. Needs bench/build.mk (bench-deps, BENCH_TOOLS) first.
.PHONY: bench-startup bench-startup-run

bench-startup: bench-deps
	$(MAKE) bench-startup-run

bench-startup-run: $(BENCH_TOOLS) $(MIPDATA)
	LLVM_DIR=$(LLVM_DIR) CLANG=$(CLANG) BUILD=$(BUILD) PLUGIN=$(PLUGIN) \
	  RT_LIB=$(RT_LIB) MIPCC=$(MIPCC) MIPDATA=$(MIPDATA) bench/startup/run.sh
