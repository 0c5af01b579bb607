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

# ---- heap mode: allocation hooks, shadow, frame records, interposition
HEAP=$HERE/progs/heap_truth
HEAP_FLAGS="-O2 -gdwarf-4 -fno-optimize-sibling-calls"

# heap_profile BINARY RUNNER ARGS...: BINARY.json (show --heap)
heap_profile() {
  hp=$1 runner=$2
  shift 2
  # shellcheck disable=SC2086
  MIP_PROFILE_FILE=$hp.mipraw $runner "./$hp" "$@" >"$hp.out" &&
    mip_profile --debug "$hp" "$hp.mip" "$hp.mipraw" >/dev/null &&
    mip_show "$hp.mip" --heap >"$hp.json"
}

# heap_both NAME DRIVER ARGS -- SOURCES...: built for both, run, per-site
# blocks and bytes compared (heap.sh holds x86-64's against DHAT).
heap_both() {
  name=$1 driver=$2 args=$3
  shift 4
  "$driver" -fmip-generate=heap $HEAP_FLAGS "$@" -o "$name.x86" &&
    "$driver" $TARGET_FLAGS $LINK -fmip-generate=heap $HEAP_FLAGS "$@" -o "$name.a64" &&
    heap_profile "$name.x86" "" $args && heap_profile "$name.a64" "$TARGET_RUN" $args || {
    fail "heap $name: build or run failed"
    return
  }
  mip_sites "$name.x86.json" >"$name.x86.sites"
  mip_sites "$name.a64.json" >"$name.a64.sites"
  n=$(wc -l <"$name.a64.sites")
  if [ "$n" -ge 3 ] && cmp -s "$name.a64.sites" "$name.x86.sites" &&
    cmp -s "$name.a64.out" "$name.x86.out"; then
    pass "heap $name: AllocCount and TotalSize as on x86-64 at all $n sites"
  else
    fail "heap $name: sites differ from x86-64 (< x86-64, > AArch64):"
    diff "$name.x86.sites" "$name.a64.sites" | sed 's/^/     /'
  fi
}
heap_both truth "$MIPCC" 6 -- "$HEAP/main.c" "$HEAP/store.c" "$HEAP/suite.c"
heap_both objects "$MIPCXX" "" -- "$HEAP/objects.cpp"
awk 'NR == 1 { $2++ } { print }' truth.a64.sites >broken.sites
cmp -s broken.sites truth.x86.sites &&
  fail "heap: a changed count still matched" ||
  pass "heap: a changed count is caught by the comparison"
# Call stacks from AArch64 frame records (x29, x30): the same frames, up
# to the first in libc (whose own callers differ).
frames() {
  jq -r '.heap[] | select(.site != null)
         | [foreach .frames[].function as $f (false; . or ($f | startswith("/"));
            if . then empty else $f end)] | join(" ")' "$1" | sort
}
expect_eq "heap: the innermost frames as on x86-64" \
  "$(frames truth.a64.json | tr '\n' ';')" "$(frames truth.x86.json | tr '\n' ';')"

# heap_one NAME SOURCE FLAGS...: built for AArch64 and profiled
heap_one() {
  name=$1 src=$2
  shift 2
  "$MIPCC" $TARGET_FLAGS $LINK -fmip-generate=heap -O2 -g "$@" "$src" -o "$name" &&
    heap_profile "$name" "$TARGET_RUN"
}
heap_one access "$HEAP/access.c"
expect_eq "heap: the access pattern's exact count (5120 stores, 1536 loads)" \
  "$(jq '[.heap[] | select(.TotalSize == 4096) | .TotalAccessCount] | add' access.json)" 6656
heap_one copies "$HEAP/copies.c"
expect_eq "heap: copies and fills, one access per granule touched" \
  "$(jq '[.heap[] | select(.TotalSize == 4096) | .TotalAccessCount] | add' copies.json)" 2200
heap_one heap_threads "$HEAP/threads.c" -pthread
expect_eq "heap: 8 threads, blocks and bytes" \
  "$(jq -c '[([.heap[] | select(.site != null) | .AllocCount] | add), ([.heap[] | select(.site != null) | .TotalSize] | add)]' heap_threads.json)" \
  "[8000,156000]"
# A block freed by a library MIP did not instrument dies there: the
# runtime redirects the library's GOT slot to its AArch64 trampolines.
"$CLANG" $TARGET_FLAGS $LINK -O2 -fPIC -shared "$HEAP/release.c" -o librelease.so
"$MIPCC" $TARGET_FLAGS $LINK -fmip-generate=heap -O2 -g "$HEAP/lifetime.c" -L. \
  -lrelease -Wl,-rpath,"$TMP" -o lifetime
heap_profile lifetime "$TARGET_RUN"
expect_eq "heap: a block a library frees is not live at exit" \
  "$(jq -c '[.heap[] | select(.TotalSize == 1000) | .LiveAtExitCount]' lifetime.json)" "[0]"

# A heap library loaded with dlopen by a program built without MIP: the
# process's free is libc's, so the runtime redirects the GOT slots of
# free, realloc and reallocarray (JUMP_SLOT; GLOB_DAT with -fno-plt) to
# its AArch64 trampolines. Each site's blocks, bytes and blocks live at
# exit as the host program says (progs/heap_dlopen), none freed unseen.
DL=$HERE/progs/heap_dlopen
mkdir -p sub
"$MIPCC" $TARGET_FLAGS $LINK -fmip-generate=heap $HEAP_FLAGS -fPIC -shared \
  "$DL/lib.c" -o libheapdl.so
"$CLANG" $TARGET_FLAGS $LINK -O2 -fPIC -shared "$DL/plain.c" -o sub/libplaindl.so
"$MIPDATA" extract libheapdl.so -o libheapdl.mipmap >/dev/null
dl_id=$("$LLVM_BIN/llvm-readelf" -n libheapdl.so | awk '/Build ID/ { print substr($3, 1, 16) }')
for plt in plt no-plt; do
  # shellcheck disable=SC2046
  "$CLANG" $TARGET_FLAGS $LINK $HEAP_FLAGS $([ $plt = no-plt ] && echo -fno-plt) \
    "$DL/host.c" -Wl,-rpath,"$TMP/sub" -o "host.$plt"
  rm -f "dl.$plt".*.mipraw
  rc=0
  MIP_PROFILE_FILE="$TMP/dl.$plt.%m.mipraw" $TARGET_RUN "./host.$plt" dlopen \
    "$TMP/libheapdl.so" >"dl.$plt.out" 2>"dl.$plt.err" || rc=$?
  "$MIPDATA" create -p "dl.$plt.mip" libheapdl.mipmap &&
    "$MIPDATA" merge -p "dl.$plt.mip" --debug libheapdl.so "dl.$plt.$dl_id.mipraw" &&
    mip_show "dl.$plt.mip" --heap >"dl.$plt.json"
  jq -r '.heap[] | select(.site != null)
         | "\(.site.function) \(.AllocCount) \(.TotalSize) \(.LiveAtExitCount)"' "dl.$plt.json" |
    awk '{ n[$1] += $2; b[$1] += $3; l[$1] += $4 } END { for (f in n) print f, n[f], b[f], l[f] }' |
    sort >"dl.$plt.sites"
  awk '$1 == "site" && $3 > 0 { print $2, $3, $4, $5 }' "dl.$plt.out" | sort >"dl.$plt.truth"
  if [ "$rc" = 3 ] && [ -s "dl.$plt.truth" ] && cmp -s "dl.$plt.sites" "dl.$plt.truth" &&
    [ "$(jq .heap_stats.freed_unseen "dl.$plt.json")" = 0 ]; then
    pass "heap library dlopened by a plain program ($plt): $(wc -l <"dl.$plt.truth") sites as the program says, none freed unseen"
  else
    fail "heap library dlopened ($plt): status $rc, stderr '$(head -c 200 "dl.$plt.err")' (< program, > MIP):"
    diff "dl.$plt.truth" "dl.$plt.sites" | sed 's/^/     /' || true
  fi
done
# Without the redirection (MIP_OPTIONS=heap_patch=0) the host's frees go
# unseen: the check above can fail.
MIP_OPTIONS=heap_patch=0 MIP_PROFILE_FILE="$TMP/nopatch.%m.mipraw" $TARGET_RUN \
  ./host.plt dlopen "$TMP/libheapdl.so" >/dev/null 2>&1 || true
"$MIPDATA" create -p nopatch.mip libheapdl.mipmap &&
  "$MIPDATA" merge -p nopatch.mip --debug libheapdl.so "nopatch.$dl_id.mipraw" 2>/dev/null &&
  mip_show nopatch.mip --heap >nopatch.json
lost=$(jq '.heap_stats.freed_unseen + .heap_stats.live_uninterposed' nopatch.json)
[ "$lost" -gt 0 ] &&
  pass "without the GOT redirection, $lost blocks are freed unseen or live for all MIP knows" ||
  fail "heap_patch=0 changed nothing: the dlopen check proves nothing"

finish
