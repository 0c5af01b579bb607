#!/bin/sh
# Heap profiles against independent truths: valgrind's DHAT for blocks
# and bytes per allocation site, a known access pattern for access
# counts, 8 threads for exact totals, and a library free for lifetimes.
#   test/e2e/heap.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$TMP"
SRC=$HERE/progs/heap_truth
# DHAT reads DWARF 4 only; no tail calls, so both builds keep every frame
# (mipcc adds frame pointers to heap builds itself).
FLAGS="-O2 -gdwarf-4 -fno-optimize-sibling-calls"

compare_with_dhat() { # NAME BUILD-COMMAND SOURCES... (run with ARGS)
  name=$1 driver=$2 plain=$3 args=$4
  shift 4
  "$driver" -fmip-generate=heap $FLAGS "$@" -o "$name"
  "$plain" $FLAGS "$@" -o "$name.dhat"
  heap_run "$name" $args
  valgrind --tool=dhat --dhat-out-file="$name.dhat.json" "./$name.dhat" $args \
    >"$name.dhat.out" 2>"$name.dhat.log"
  if ! cmp -s "$name.out" "$name.dhat.out"; then
    fail "$name: the two builds print different output"
  fi
  expect_dhat_sites "$name" "$name.json" "$name.dhat.json" "$SRC"
}

compare_with_dhat truth "$MIPCC" "$CLANG" 6 "$SRC/main.c" "$SRC/store.c" "$SRC/suite.c"
compare_with_dhat objects "$MIPCXX" "$CLANGXX" "" "$SRC/objects.cpp"

# The comparison can fail: one block more at one site is caught.
awk 'NR == 1 { $2++ } { print }' truth.json.sites >broken-sites
if cmp -s broken-sites truth.dhat.json.sites; then
  fail "a changed count still matched DHAT"
else
  pass "a changed count is caught by the comparison"
fi

# ---- under valgrind, which cannot reserve the usual shadow: the heap
# build runs all the same (on a smaller shadow), with the same profile.
contexts() {
  jq -c '.heap[] | [[.frames[].function], .AllocCount, .TotalSize,
                    .TotalAccessCount, .ReallocCount, .LiveAtExitCount]' "$1" | sort
}
if MIP_PROFILE_FILE=truth.vg.mipraw valgrind --tool=none -q ./truth 6 \
  >truth.vg.out 2>truth.vg.log && cmp -s truth.out truth.vg.out; then
  mip_profile --debug truth truth.vg.mip truth.vg.mipraw
  mip_show truth.vg.mip --heap >truth.vg.json
  contexts truth.json >truth.contexts
  contexts truth.vg.json >truth.vg.contexts
  n=$(wc -l <truth.contexts)
  if [ "$n" -ge 3 ] && cmp -s truth.contexts truth.vg.contexts; then
    pass "under valgrind: the same $n contexts, blocks, bytes and accesses"
  else
    fail "under valgrind: other contexts (< native, > valgrind):"
    diff truth.contexts truth.vg.contexts | sed 's/^/     /'
  fi
else
  fail "the heap build does not run under valgrind:"
  tail -n 5 truth.vg.log | sed 's/^/     /'
fi

# Live at exit (rounds = 6): the posix_memalign blocks of the even rounds
# (64, 66 and 68 bytes; each overwrites the last) and the last round's
# 24-byte block.
live=$(jq '[.heap[] | .LiveAtExitCount] | add' truth.json)
live_bytes=$(jq '[.heap[] | .LiveAtExitSize] | add' truth.json)
[ "$live" = 4 ] && [ "$live_bytes" = $((64 + 66 + 68 + 24)) ] &&
  pass "live at exit: 4 blocks, $live_bytes bytes" ||
  fail "live at exit: $live blocks, $live_bytes bytes; want 4, 222"
# The store's growth: blocks moved by realloc stay with the malloc that
# started them, as in DHAT (6 mallocs + 26 reallocs at store.c:10).
jq -c '.heap[] | select(.site.line == 10) | [.AllocCount, .ReallocCount]' truth.json >grown
[ "$(cat grown)" = "[32,26]" ] &&
  pass "realloc: 32 blocks at the malloc site, 26 of them reallocated" ||
  fail "realloc: [blocks, reallocations] at the malloc site: $(cat grown)"

# ---- access counts: 5120 stores and 1536 loads, nothing else.
mip_build heap access -O2 -g "$SRC/access.c"
heap_run access
got=$(jq '[.heap[] | select(.TotalSize == 4096) | .TotalAccessCount] | add' access.json)
[ "$got" = 6656 ] && pass "access pattern: exactly 6656 accesses (5120 stores, 1536 loads)" ||
  fail "access pattern: $got accesses, want 6656"
density=$(jq '[.heap[] | select(.TotalSize == 4096) | .TotalAccessDensity] | add' access.json)
[ "$density" = $((6656 * 100 / 4096)) ] && pass "access density: $density (accesses * 100 / bytes)" ||
  fail "access density: $density, want $((6656 * 100 / 4096))"

# ---- copies and fills: one access per granule touched, 22 a round.
mip_build heap copies -O2 -g "$SRC/copies.c"
heap_run copies
got=$(jq '[.heap[] | select(.TotalSize == 4096) | .TotalAccessCount] | add' copies.json)
[ "$got" = 2200 ] && pass "copies and fills: exactly 2200 accesses (one per granule touched)" ||
  fail "copies and fills: $got accesses, want 2200"

# ---- 8 threads, 1000 blocks each of 16..23 bytes at one site.
mip_build heap threads -O2 -g -pthread "$SRC/threads.c"
heap_run threads
count=$(jq '[.heap[] | select(.site != null) | .AllocCount] | add' threads.json)
bytes=$(jq '[.heap[] | select(.site != null) | .TotalSize] | add' threads.json)
[ "$count" = 8000 ] && [ "$bytes" = 156000 ] &&
  pass "8 threads: exactly 8000 blocks, 156000 bytes" ||
  fail "8 threads: $count blocks, $bytes bytes; want 8000, 156000"

# ---- threads that reach the heap state while its first thread is in it:
# the main thread's 200000 blocks of 64 bytes, 8 threads' 20000 blocks of
# 16..47 bytes each, every one freed; exact whichever thread was first.
mip_build heap late_threads -O2 -g -pthread "$SRC/late_threads.c"
heap_run late_threads
sites() { # the blocks, bytes and blocks live at exit of the contexts of size
  jq -r --argjson lo "$1" --argjson hi "$2" '[.heap[] | select(.site != null
    and .MinSize >= $lo and .MaxSize <= $hi)] |
    "\(map(.AllocCount) | add) \(map(.TotalSize) | add) \(map(.LiveAtExitCount) | add)"' \
    late_threads.json
}
main_sites=$(sites 64 64) thread_sites=$(sites 16 47)
[ "$main_sites" = "200000 12800000 0" ] &&
  pass "late threads: the first thread's 200000 blocks, 12800000 bytes, none live" ||
  fail "late threads: the first thread's blocks, bytes, live: $main_sites"
[ "$thread_sites" = "160000 5040000 0" ] &&
  pass "late threads: the 8 threads' 160000 blocks, 5040000 bytes, none live" ||
  fail "late threads: the 8 threads' blocks, bytes, live: $thread_sites"

# ---- a block freed by a library MIP did not instrument dies then.
"$CLANG" -O2 -fPIC -shared "$SRC/release.c" -o librelease.so
"$MIPCC" -fmip-generate=heap -O2 -g "$SRC/lifetime.c" -L. -lrelease -Wl,-rpath,"$TMP" -o lifetime
heap_run lifetime
jq -c '.heap[] | select(.TotalSize == 1000) | [.LiveAtExitCount, .MaxLifetime]' lifetime.json >life
case "$(cat life)" in
"[0,"[0-9]"]" | "[0,"[0-9][0-9]"]" | "[0,1"[0-9][0-9]"]")
  pass "library free: not live at exit, lifetime $(cut -d, -f2 life | tr -d ']') ms (< 200, the program ran 300 ms more)" ;;
*) fail "library free: [live at exit, max lifetime ms] = $(cat life)" ;;
esac

# ---- a program that fills each block to malloc_usable_size: the record
# beside it (rt/heap/heap_tail.c) is left out of that size, so every
# death is still seen.
"$MIPCC" -fmip-generate=heap -O2 -g "$SRC/usable.c" -o usable
heap_run usable
got=$(jq -c '[.heap[] | select(.site != null) | .AllocCount, .LiveAtExitCount,
  .LiveAtExitSize]' usable.json)
[ "$(cat usable.out)" = usable ] && [ "$got" = "[100,50,2000]" ] &&
  pass "blocks filled to malloc_usable_size: 100 allocations, 50 live at exit, 2000 bytes" ||
  fail "blocks filled to malloc_usable_size: $(cat usable.out), [blocks, live, live bytes] $got"

finish
