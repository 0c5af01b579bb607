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

# Counters that take file bytes (an object of an older MIP: an explicit
# section is PROGBITS) linked with this MIP's, which take none (NOBITS):
# GNU ld and gold make two output sections of one name, lld one. mipdata
# must refuse the split image, which the runtime cannot write whole, with
# one line and no map; and take lld's.
cd "$TMP"
printf '__attribute__((used, section("__mip_cov"))) static unsigned char old;\n' >old.c
printf 'int main(void) { return 0; }\n' >new.c
"$CLANG" -O2 -c old.c -o old.o
"$MIPCC" -O2 -fmip-generate -c new.c -o new.o
for ld in bfd gold lld; do
  "$MIPCC" -fuse-ld=$ld old.o new.o -o mixed.$ld || { fail "mixed counters, $ld: link failed"; continue; }
  rc=0
  "$MIPDATA" extract mixed.$ld -o mixed.$ld.mipmap >mixed.$ld.out 2>mixed.$ld.err || rc=$?
  echo $rc >mixed.$ld.rc
done
expect_eq "older and newer counters, GNU ld: one line, no map" \
  "$(cat mixed.bfd.rc) $(wc -l <mixed.bfd.err) $(ls mixed.bfd.mipmap 2>/dev/null)" "1 1 "
expect_eq "older and newer counters, gold: refused" "$(cat mixed.gold.rc)" 1
grep -q "^mipdata: mixed.bfd: two sections named __mip_cov: objects instrumented by an older MIP" mixed.bfd.err &&
  pass "older and newer counters: the line says why: $(cat mixed.bfd.err)" ||
  fail "older and newer counters: $(cat mixed.bfd.err)"
expect_eq "older and newer counters, lld: one section, the map made" \
  "$(cat mixed.lld.rc) $(cat mixed.lld.out)" "0 mixed.lld.mipmap: 1 functions"

finish
