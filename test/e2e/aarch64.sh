#!/bin/sh
# AArch64 Linux under qemu-user: programs cross-built with mipcc
# --target=aarch64-linux-gnu (the runtime of build/lib/mip/
# aarch64-linux-gnu), run by qemu-aarch64, profiled by the host's mipdata:
#   * coverage equal to SanitizerCoverage's, function by function, C and
#     C++, -O0 and -O2 (coverage_lib.sh, as coverage.sh on the host);
#   * a shared library: each function's calls equal to the same library's
#     on x86-64, and to what the program does;
#   * counts, first-call order, blocks and edges exactly as on x86-64
#     (whose numbers modes.sh holds against the program's known ones);
#   * the two-instruction coverage probe (a byte that starts at 1, 0 once
#     entered): pool and continuous mode give what the runs' files do;
#   * the counter sections: without file bytes (NOBITS) where they start
#     as zeros, which on AArch64 is all but coverage's;
#   * fork: parent and child each their own raw file, their calls as on
#     x86-64; threads: exact calls with the atomic mode, ranks 1..N;
#   * heap mode: per-site AllocCount and TotalSize as on x86-64 (whose
#     heap.sh holds them against DHAT), call stacks from frame records,
#     the known access patterns' exact counts, 8 threads, and a block a
#     library MIP did not instrument frees (interposition by GOT slots).
# Skipped, saying so, without qemu-aarch64 or the arm64 cross libraries
# (scripts/install-deps installs them). What armv7.sh checks too is in
# cross_lib.sh.
#   test/e2e/aarch64.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"

TRIPLE=aarch64-linux-gnu
SYSROOT=/usr/$TRIPLE
QEMU=qemu-aarch64
PKGS="libc6-dev-arm64-cross, libstdc++-12-dev-arm64-cross"
. "$HERE/cross_lib.sh"
cross_ready
TARGET_FLAGS="--target=$TRIPLE"
TAG=a64
ARCH=AArch64

cross_coverage a64
cross_modes
# Counters that start as zeros take no bytes of the file (NOBITS); only
# AArch64's coverage bytes, which start at 1, do.
expect_eq "counter sections on x86-64" "$(counter_sections modes-O2.x86)" \
  "__mip_blk NOBITS, __mip_cnt NOBITS, __mip_cov NOBITS, __mip_ord NOBITS"
expect_eq "counter sections on AArch64" "$(counter_sections modes-O2.a64)" \
  "__mip_blk NOBITS, __mip_cnt NOBITS, __mip_cov PROGBITS, __mip_ord NOBITS"
# The two-instruction coverage probe (a byte that starts at 1, 0 once
# entered): a run's file says so (MIP_RAW_COV_ZERO, 2).
cross_pool_continuous 2
cross_shared_library
cross_fork
cross_threads
cross_order

cross_heap

finish
