# make bench-flame: the flame graph page of a profile of 100,000 heap
# contexts (bench/README.md, "Flame graphs"): the time mipdata takes to
# write it, its size, its first paint in headless Chromium. Installs what
# it needs like `make check`, builds the tools, then runs bench/flame.sh,
# which prints the table and writes build/bench/flame.md.
# BENCH_FLAME_RUNS is read from the environment.
.PHONY: bench-flame bench-flame-run

bench-flame: deps
	$(MAKE) bench-flame-run

bench-flame-run: $(MIPDATA) $(MIPCC) $(PLUGIN) $(PLUGIN_CLANG) $(RT_LIB)
	BUILD=$(BUILD) MIPCC=$(abspath $(MIPCC)) MIPDATA=$(abspath $(MIPDATA)) bench/flame.sh
