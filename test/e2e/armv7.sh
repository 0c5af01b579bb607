#!/bin/sh
# Armv7 Linux under qemu-user, in Thumb-2 (mipcc's default for the
# target) and in Arm state (-marm): programs cross-built with mipcc
# --target=armv7a-linux-gnueabihf (the runtime of build/lib/mip/
# armv7a-linux-gnueabihf), run by qemu-arm, profiled by the host's
# mipdata, which reads their 32-bit ELF and DWARF. In each state, as
# aarch64.sh does for AArch64 (cross_lib.sh):
#   * coverage equal to SanitizerCoverage's, function by function, C and
#     C++, -O0 and -O2, and the source line of each function from DWARF;
#   * counts, first-call order, blocks and edges exactly as on x86-64;
#   * pool and continuous mode give what the runs' files do;
#   * a shared library, fork, threads (the atomic mode's 64-bit counters
#     by ldrexd/strexd) and -fmip-use -fmip-order;
#   * heap mode, with its 32-bit shadow: per-site blocks, bytes and
#     accesses as on x86-64, the same frames from AAPCS frame records, the
#     access patterns' exact counts, threads, interposition, GOT slots
#     redirected (Rel relocations) to Thumb trampolines (cross_lib.sh);
#     and a program whose own mapping holds the shadow's range runs as
#     without MIP, after one line saying that heap profiling is off.
# And: the counter sections take no file bytes; the map's entries are
# the symbols' addresses; the probe's bytes per function in each state;
# mipcc's Thumb-2 default; the runtime's thread pointer, trampoline and
# jump decoder on the target.
# Skipped, saying so, without qemu-arm or the armhf cross libraries
# (scripts/install-deps installs them).
#   test/e2e/armv7.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"

TRIPLE=armv7a-linux-gnueabihf
SYSROOT=/usr/arm-linux-gnueabihf
QEMU=qemu-arm
PKGS="libc6-dev-armhf-cross, libstdc++-12-dev-armhf-cross"
. "$HERE/cross_lib.sh"
cross_ready
cd "$TMP" || exit 1

# ---- mipcc: Thumb-2 unless -marm
printf 'int f(int x) { return x + 1; }\n' >one.c
"$MIPCC" --target=$TRIPLE -fmip-generate -O2 -c one.c -o one.t32.o
"$MIPCC" --target=$TRIPLE -marm -fmip-generate -O2 -c one.c -o one.a32.o
# state_of OBJECT: f's state, by bit 0 of its symbol's value
state_of() {
  "$LLVM_BIN/llvm-readelf" -s "$1" |
    awk '$8 == "f" { print (substr($2, length($2)) ~ /[13579bdf]/) ? "Thumb" : "Arm" }'
}
expect_eq "mipcc --target=$TRIPLE: Thumb-2 by default, Arm state with -marm" \
  "$(state_of one.t32.o) $(state_of one.a32.o)" "Thumb Arm"

# ---- rt/arch/armv7.h on the target: thread pointer, trampoline, the
# direct-jump decoder (progs/arch/armv7.c says each)
# shellcheck disable=SC2086
"$CLANG" --target=$TRIPLE -mthumb $LINK -O2 -I"$HERE/../../include" \
  -I"$HERE/../../rt/arch" "$HERE/progs/arch/armv7.c" -o arch_check &&
  $TARGET_RUN ./arch_check >arch_check.out
expect_eq "rt/arch/armv7.h: thread pointer, trampolines to both states, b.w and b decoded" \
  "$(grep -c ' ok$' arch_check.out) $(grep -c ' bad$' arch_check.out)" "6 0"

# ---- the coverage probe's bytes per function (Thumb-2: 12, and 2 that align
# its literal after a function of one instruction) in functions that do
# nothing, with and without it (docs/instrumentation.md, "Architectures")
i=0
while [ $i -lt 32 ]; do
  printf 'void __attribute__((noinline)) f%d(void) { __asm__ volatile(""); }\n' $i
  i=$((i + 1))
done >empty.c
text_of() { "$LLVM_BIN/llvm-size" -A "$1" | awk '$1 == ".text" { print $2 }'; }
for state in t32 a32; do
  if [ $state = t32 ]; then sflag=-mthumb; else sflag=-marm; fi
  "$MIPCC" --target=$TRIPLE $sflag -O2 -fPIC -c empty.c -o "empty.$state.plain.o"
  "$MIPCC" --target=$TRIPLE $sflag -O2 -fPIC -fmip-generate -c empty.c -o "empty.$state.cov.o"
  echo $((($(text_of "empty.$state.cov.o") - $(text_of "empty.$state.plain.o")) / 32)) >"probe.$state"
done
expect_eq "coverage probe bytes per function: Thumb-2, Arm" \
  "$(cat probe.t32), $(cat probe.a32)" "14, 20"

# heap_refused: the shadow's range (include/mip/arch.h: 0x20000000, 256
# MiB) held by the program itself, an executable linked there: the
# runtime says in one line that heap profiling is off, and the program
# runs as it does without MIP (its output, its exit status), its
# instrumented accesses counting into a word of the runtime's own. (The
# other refusal, no room for 256 MiB, cannot be had under qemu-arm: it
# reserves the guest's 4 GiB when it starts, so that a ulimit -v below
# that stops qemu itself, and its -R, which reserves less, fails on
# every program with this qemu.)
heap_refused() {
  # shellcheck disable=SC2086
  "$MIPCC" $TARGET_FLAGS $LINK -fmip-generate=heap $HEAP_FLAGS -no-pie \
    -Wl,--image-base=0x20000000 "$HEAP/main.c" "$HEAP/store.c" "$HEAP/suite.c" \
    -o "refused.$TAG" || fail "$ARCH heap refused: build failed"
  # shellcheck disable=SC2086
  "$CLANG" $TARGET_FLAGS $LINK $HEAP_FLAGS "$HEAP/main.c" "$HEAP/store.c" \
    "$HEAP/suite.c" -o "plain.$TAG"
  rc=0 plain_rc=0
  MIP_PROFILE_FILE="refused.$TAG.mipraw" $TARGET_RUN "./refused.$TAG" 6 \
    >"refused.$TAG.out" 2>"refused.$TAG.err" || rc=$?
  $TARGET_RUN "./plain.$TAG" 6 >"plain.$TAG.out" 2>&1 || plain_rc=$?
  expect_eq "$ARCH heap: the shadow's range taken, one line, the program unaffected" \
    "$rc $(wc -l <"refused.$TAG.err") $(cat "refused.$TAG.err") $(cmp -s "refused.$TAG.out" "plain.$TAG.out" && echo same)" \
    "$plain_rc 1 mip: heap profiling off: it needs the address range 0x20000000-0x30000000 for its shadow memory, which something else holds same"
}

# ---- Thumb-2, then Arm state
# The heap sites whose blocks hold longs or pointers (cross_lib.sh): the
# stores' arrays of longs (their reallocations born in their context);
# 31 nodes {int, pointer}; an array of 7 of them and new[]'s 8-byte
# cookie.
# shellcheck disable=SC2034
HEAP_ILP32="store.c:10 4000|objects.cpp:19 248|objects.cpp:22 64"
for state in t32 a32; do
  if [ $state = t32 ]; then
    TARGET_FLAGS="--target=$TRIPLE -mthumb" ARCH="Armv7 Thumb-2"
  else
    TARGET_FLAGS="--target=$TRIPLE -marm" ARCH="Armv7 Arm"
  fi
  TAG=$state
  cross_coverage $state
  cross_modes
  expect_eq "$ARCH: counter sections without file bytes" \
    "$(counter_sections "modes-O2.$TAG")" \
    "__mip_blk NOBITS, __mip_cnt NOBITS, __mip_cov NOBITS, __mip_ord NOBITS"
  # Each function's entry in the map, without the Thumb bit its reader
  # clears (flag 8), is a function symbol's address in the map file,
  # whose sizes mipdata order clusters by.
  entries=$(mip_dump "modes-O2.$TAG.mipmap" | jq -c '[.symbols[].addr] as $s
    | [.section.records[] | select(.name == "function") | .body
       | (if (.flags / 8 | floor) % 2 == 1 then .entry - .entry % 2 else .entry end)
       | select(. as $e | $s | index($e)) ] | length')
  expect_eq "$ARCH: the map's entries are its symbols' addresses" \
    "$entries" "$(jq '.functions | length' "modes-O2.$TAG.json")"
  # coverage bytes start at 0 and are 1 once entered, as on x86-64
  cross_pool_continuous 0
  cross_shared_library
  cross_fork
  cross_threads
  cross_order
  cross_heap
  heap_refused
done

finish
