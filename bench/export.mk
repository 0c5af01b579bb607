# make bench-export: how long `mipdata export` takes per format, and the
# size of what it writes, on a synthetic profile of 100,000 heap contexts
# (bench/export.sh, bench/README.md "Export"); prints the table and writes
# build/bench/export.md. BENCH_EXPORT_CONTEXTS, BENCH_EXPORT_DEPTH and
# BENCH_EXPORT_RUNS are read from the environment.
.PHONY: bench-export bench-export-run

bench-export: bench-deps
	$(MAKE) bench-export-run

bench-export-run: $(BENCH_TOOLS) $(MIPDATA)
	bench/export.sh $(BUILD)
