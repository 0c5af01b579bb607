#!/bin/sh
# End-to-end coverage test: real multi-file C and C++ programs built with
# mipcc -fmip-generate in many configurations, run twice with different
# inputs, turned into a profile with mipdata, and compared function by
# function with an independent ground truth: the same program built with
# SanitizerCoverage's function-entry flags and test/e2e/sancov_truth.c.
#
#   test/e2e/coverage.sh BUILD_DIR      (KEEP_TMP=1 keeps the files)
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
. "$HERE/coverage_lib.sh"

run_config c O0-g "-O0 -g"
run_config c O1 "-O1"
run_config c O2-g "-O2 -g"
run_config c O3-dwarf4 "-O3 -gdwarf-4"
run_config c Os-nopie "-Os -fno-pie" "-no-pie"
run_config c O2-gc "-O2 -g -ffunction-sections" "-Wl,--gc-sections"
run_config c O2-lld "-O2 -g" "-fuse-ld=lld"
run_config c O2-lld-gc-pie "-O2 -ffunction-sections -fPIE" \
  "-fuse-ld=lld -Wl,--gc-sections -pie"
check_objcopy_route
check_comparison_can_fail

run_config cxx O0-g "-O0 -g"
run_config cxx O2-g "-O2 -g"
run_config cxx O3 "-O3"
run_config cxx O2-gc "-O2 -ffunction-sections" "-Wl,--gc-sections"
run_config cxx O2-lld-nopie "-O2 -g -fno-pie" "-fuse-ld=lld -no-pie"
check_objcopy_route

finish
