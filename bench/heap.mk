# make bench-heap: the heap profiling benchmark (bench/README.md, "Heap
# profiling"): wall time and peak RSS of -fmip-generate=heap next to plain
# and clang's MemProf, blocks and bytes per allocation site against
# valgrind's DHAT, access counts against MemProf. Installs what it needs
# like `make bench`, builds the tools, then runs bench/heap/run.sh, which
# prints the tables and writes build/bench/heap.md. BENCH_PROGRAMS,
# BENCH_HEAP_RUNS, BENCH_HEAP_DHAT_SIZE and BENCH_JOBS are read from the
# environment. Needs bench/build.mk (bench-deps, BENCH_TOOLS) first.
.PHONY: bench-heap bench-heap-run

bench-heap: bench-deps
	$(MAKE) bench-heap-run

bench-heap-run: $(BENCH_TOOLS) $(MIPDATA)
	LLVM_DIR=$(LLVM_DIR) CLANG=$(CLANG) CLANGXX=$(CLANGXX) BUILD=$(BUILD) PLUGIN=$(PLUGIN) \
	  RT_LIB=$(RT_LIB) MIPCC=$(MIPCC) MIPDATA=$(MIPDATA) bench/heap/run.sh
