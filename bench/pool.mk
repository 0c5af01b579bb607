# make bench-pool: what pool mode (MIP_PROFILE_FILE with %Nm) costs at
# exit against the plain write of a raw profile, on generated coverage,
# all-modes and heap images (bench/pool/run.sh, bench/README.md "Pool
# mode"); prints the table and writes build/bench/pool.md.
# BENCH_POOL_RUNS, BENCH_POOL_FUNCTIONS and BENCH_POOL_SITES are read from
# the environment. Needs bench/build.mk (bench-deps, BENCH_TOOLS) first.
.PHONY: bench-pool bench-pool-run

bench-pool: bench-deps
	$(MAKE) bench-pool-run

bench-pool-run: $(BENCH_TOOLS)
	bench/pool/run.sh $(BUILD)
