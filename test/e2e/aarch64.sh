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
# (scripts/install-deps installs them).
#   test/e2e/aarch64.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"

TRIPLE=aarch64-linux-gnu
SYSROOT=/usr/$TRIPLE
skip=
command -v qemu-aarch64 >/dev/null || skip="qemu-aarch64 not installed (qemu-user)"
[ -n "$skip" ] || [ -e "$SYSROOT/lib/crt1.o" ] ||
  skip="no $SYSROOT/lib/crt1.o (libc6-dev-arm64-cross)"
[ -n "$skip" ] || ls /usr/lib/gcc-cross/$TRIPLE/*/libstdc++.so >/dev/null 2>&1 ||
  skip="no libstdc++ for $TRIPLE (libstdc++-12-dev-arm64-cross)"
[ -n "$skip" ] || [ -e "$BUILD/lib/mip/$TRIPLE/libmip_rt.a" ] ||
  skip="no $BUILD/lib/mip/$TRIPLE/libmip_rt.a (rebuild after installing the cross libraries)"
if [ -n "$skip" ]; then
  echo "skipped: $SUITE: $skip"
  exit 0
fi

make_tmp
TARGET_FLAGS="--target=$TRIPLE"
TARGET_RUN="qemu-aarch64 -L $SYSROOT"
LINK=-fuse-ld=lld # the host's GNU ld links no AArch64
. "$HERE/coverage_lib.sh"

# ---- coverage against SanitizerCoverage --------------------------------------
run_config c O0-g "-O0 -g" "$LINK"
run_config c O2 "-O2" "$LINK"
check_comparison_can_fail
run_config cxx O0-g "-O0 -g" "$LINK"
run_config cxx O2-g "-O2 -g" "$LINK"
check_objcopy_route

# ---- the same program for both architectures ----------------------------------
cd "$TMP"

# both NAME ARGS-OF-RUNS... -- BUILD-ARGS...: NAME.x86 and NAME.a64 built
# with mipcc BUILD-ARGS, each run once per ARGS (words, "" for none),
# their profiles NAME.ARCH.mip and show JSON NAME.ARCH.json.
both() {
  name=$1
  shift
  runs=
  while [ "$1" != -- ]; do
    runs="$runs|$1"
    shift
  done
  shift
  for arch in x86 a64; do
    if [ $arch = x86 ]; then flags= run=; else flags="$TARGET_FLAGS $LINK" run=$TARGET_RUN; fi
    # shellcheck disable=SC2086
    "$MIPCC" $flags "$@" -o "$name.$arch" || return
    target_command "./$name.$arch" "$run" >"$name.$arch.run"
    chmod +x "$name.$arch.run"
    raws= n=0
    old_ifs=$IFS
    IFS='|'
    for args in ${runs#|}; do
      IFS=$old_ifs
      n=$((n + 1))
      # shellcheck disable=SC2086
      MIP_PROFILE_FILE=$name.$arch.$n.mipraw "./$name.$arch.run" $args \
        >"$name.$arch.$n.out" || return
      raws="$raws $name.$arch.$n.mipraw"
    done
    IFS=$old_ifs
    # shellcheck disable=SC2086
    mip_profile "$name.$arch" "$name.$arch.mip" $raws >/dev/null &&
      mip_show "$name.$arch.mip" >"$name.$arch.json" || return
  done
}

# What a profile says per function, without addresses and build-ids.
functions_of() {
  jq -c '[.functions[] | {name, covered_runs, calls, order, order_runs,
          blocks: [(.blocks // [])[] | .covered_runs]}] | sort_by(.name)' "$1"
}
edges_of() { jq -c '[.edges // [] | .[] | [.caller, .callee, .samples]] | sort' "$1"; }

same_as_x86() { # NAME WHAT
  if [ "$(functions_of "$1.a64.json")" = "$(functions_of "$1.x86.json")" ] &&
    [ "$(edges_of "$1.a64.json")" = "$(edges_of "$1.x86.json")" ]; then
    pass "$2: $(jq '.functions | length' "$1.a64.json") functions as on x86-64"
  else
    fail "$2 differs from x86-64"
    diff "$1.x86.json" "$1.a64.json" | head -20 | sed 's/^/     /'
  fi
}

MODES=$HERE/progs/modes
for opt in -O0 -O2; do
  both "modes$opt" 3 10 -- -fmip-generate=counts,order,blocks,edges $opt \
    "$MODES/main.c" "$MODES/work.c" &&
    same_as_x86 "modes$opt" "counts, order, blocks, edges $opt" ||
    fail "counts, order, blocks, edges $opt: build or run failed"
done
both all-blocks 3 10 -- -fmip-generate=all-blocks,counts,order -O2 \
  "$MODES/main.c" "$MODES/work.c" &&
  same_as_x86 all-blocks "every block probed" ||
  fail "every block probed: build or run failed"
# order without counts: the first call is told by the coverage byte,
# which on AArch64 starts at 1 and is 0 once entered.
both order-only 3 10 -- -fmip-generate=order -O2 "$MODES/main.c" "$MODES/work.c" &&
  same_as_x86 order-only "order alone (first calls by the coverage byte)" ||
  fail "order alone: build or run failed"
# Counters that start as zeros take no bytes of the file (NOBITS); only
# AArch64's coverage bytes, which start at 1, do.
counter_sections() {
  "$LLVM_BIN/llvm-readelf" -S -W "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
    awk '$1 ~ /^__mip_/ { print $1, $2 }' | sort | paste -s -d, | sed 's/,/, /g'
}
expect_eq "counter sections on x86-64" "$(counter_sections modes-O2.x86)" \
  "__mip_blk NOBITS, __mip_cnt NOBITS, __mip_cov NOBITS, __mip_ord NOBITS"
expect_eq "counter sections on AArch64" "$(counter_sections modes-O2.a64)" \
  "__mip_blk NOBITS, __mip_cnt NOBITS, __mip_cov PROGBITS, __mip_ord NOBITS"
# The comparison can fail: one run fewer on AArch64 is another profile.
mip_profile modes-O2.a64 fewer.mip modes-O2.a64.1.mipraw >/dev/null
mip_show fewer.mip >fewer.json
[ "$(functions_of fewer.json)" != "$(functions_of modes-O2.x86.json)" ] &&
  pass "a profile of other runs is told apart" ||
  fail "a profile of other runs matched x86-64's"

# ---- pool mode (%1m: the runs merged into one file at exit) and
# continuous mode (%c: the counters mapped onto the file): the same
# profile as from the runs' own files.
"$MIPCC" $TARGET_FLAGS $LINK -fmip-generate -fmip-continuous -fmip-pool -O2 \
  "$MODES/main.c" "$MODES/work.c" -o cov.a64
mip_create cov.a64 cov.mip >/dev/null
for way in plain pool cont; do
  cp cov.mip "cov.$way.mip"
  for n in 3 10 0; do
    case $way in
    plain) file=cov.plain.$n.mipraw ;;
    pool) file=cov.pool.%1m.mipraw ;;
    cont) file=cov.cont.$n.%c.mipraw ;;
    esac
    # shellcheck disable=SC2086
    MIP_PROFILE_FILE=$file $TARGET_RUN ./cov.a64 $n >/dev/null || true
  done
  "$MIPDATA" merge -p "cov.$way.mip" cov.$way.*.mipraw
  mip_show "cov.$way.mip" >"cov.$way.json"
done
covered_runs_of() { jq -c '[.runs, [.functions[] | [.name, .covered_runs]]]' "$1"; }
[ "$(covered_runs_of cov.plain.json)" = "$(covered_runs_of cov.pool.json)" ] &&
  [ "$(covered_runs_of cov.plain.json)" = "$(covered_runs_of cov.cont.json)" ] &&
  [ "$(jq '.runs' cov.plain.json)" = 3 ] &&
  pass "pool and continuous mode: each function's covered runs as from 3 runs' files: $(covered_runs_of cov.plain.json)" ||
  fail "pool or continuous mode differ: $(covered_runs_of cov.plain.json) $(covered_runs_of cov.pool.json) $(covered_runs_of cov.cont.json)"
expect_eq "a run's file says its coverage bytes are 0 when entered (MIP_RAW_COV_ZERO)" \
  "$(dump_value cov.plain.3.mipraw .header.flags)" 2

# ---- a shared library ------------------------------------------------------------
C=$HERE/progs/c
for arch in x86 a64; do
  if [ $arch = x86 ]; then flags=; else flags="$TARGET_FLAGS $LINK"; fi
  # shellcheck disable=SC2086
  "$MIPCC" $flags -fmip-generate=counts -O2 -fPIC -shared -I"$C" \
    "$C/shapes/circle.c" "$C/shapes/square.c" "$C/shapes/triangle.c" \
    -o "libshapes.$arch.so"
done
for arch in x86 a64; do
  if [ $arch = x86 ]; then flags= run=; else flags="$TARGET_FLAGS $LINK" run=$TARGET_RUN; fi
  # shellcheck disable=SC2086
  "$MIPCC" $flags -fmip-generate=counts -O2 -I"$C" "$C/main.c" "$C/util.c" \
    "libshapes.$arch.so" -Wl,-rpath,"$TMP" -o "shared.$arch"
  for input in circle square; do
    # shellcheck disable=SC2086 # %m: a raw file per image
    MIP_PROFILE_FILE=shared.$arch.$input.%m.mipraw $run "./shared.$arch" $input >/dev/null
  done
  mip_create "libshapes.$arch.so" "libshapes.$arch.mip" >/dev/null
  "$MIPDATA" merge --skip-other-builds -p "libshapes.$arch.mip" \
    shared.$arch.*.mipraw 2>/dev/null
  mip_show "libshapes.$arch.mip" >"libshapes.$arch.json"
done
lib_calls() { jq -r '.functions[] | "\(.name)=\(.calls)/\(.covered_runs)"' "$1" | sort | tr '\n' ' '; }
expect_eq "shared library: its functions' calls as on x86-64" \
  "$(lib_calls libshapes.a64.json)" "$(lib_calls libshapes.x86.json)"
# main draws a circle in the first run and a square in the second
[ "$(mip_field libshapes.a64.json circle_area calls)" -ge 1 ] &&
  [ "$(mip_field libshapes.a64.json circle_area covered_runs)" = 1 ] &&
  [ "$(mip_field libshapes.a64.json triangle_area calls)" = 0 ] &&
  pass "shared library: circle_area ran in one run, triangle_area in none" ||
  fail "shared library: $(lib_calls libshapes.a64.json)"

# ---- fork ------------------------------------------------------------------------
for arch in x86 a64; do
  if [ $arch = x86 ]; then flags= run=; else flags="$TARGET_FLAGS $LINK" run=$TARGET_RUN; fi
  # shellcheck disable=SC2086
  "$MIPCC" $flags -fmip-generate=counts,order -O2 "$HERE/progs/fork/main.c" -o "forker.$arch"
  mip_create "forker.$arch" "forker.$arch.mip" >/dev/null
  mkdir -p "fork.$arch"
  # shellcheck disable=SC2086
  (cd "fork.$arch" && $run "../forker.$arch" exit >out.txt)
done
fork_calls() { # ARCH RAW
  cp "forker.$1.mip" check.mip
  "$MIPDATA" merge -p check.mip "$2" &&
    mip_show check.mip | jq -r '.functions[] | "\(.name)=\(.calls)/\(.covered_runs)"' |
    tr '\n' ' '
}
a64_child=$(sed -n 's/^child //p' fork.a64/out.txt)
x86_child=$(sed -n 's/^child //p' fork.x86/out.txt)
expect_eq "fork: the parent's calls as on x86-64" \
  "$(fork_calls a64 fork.a64/default.mipraw)" "$(fork_calls x86 fork.x86/default.mipraw)"
expect_eq "fork: the child's calls as on x86-64" \
  "$(fork_calls a64 "fork.a64/default.$a64_child.mipraw")" \
  "$(fork_calls x86 "fork.x86/default.$x86_child.mipraw")"

# ---- threads ---------------------------------------------------------------------
THREADS=8
HOT=200000
"$MIPCC" $TARGET_FLAGS $LINK -fmip-generate=counts,order,atomic -O2 -pthread \
  "$HERE/progs/threads/main.c" -o threads
# shellcheck disable=SC2086
MIP_PROFILE_FILE=threads.mipraw $TARGET_RUN ./threads >/dev/null
mip_profile threads threads.mip threads.mipraw >/dev/null
mip_show threads.mip >threads.json
{
  echo "first 1"
  echo "hot $((THREADS * HOT))"
  echo "main 1"
  i=0
  while [ $i -lt $THREADS ]; do
    echo "only$i $(((i + 1) * 1000))"
    i=$((i + 1))
  done
  echo "worker $THREADS"
} | sort >threads.want
jq -r '.functions[] | select(.calls > 0) | "\(.name) \(.calls)"' threads.json | sort >threads.got
if cmp -s threads.got threads.want; then
  pass "threads, atomic: every function's calls exact ($(wc -l <threads.got) functions)"
else
  fail "threads, atomic: $(diff threads.want threads.got | tr '\n' ' ')"
fi
ranks=$(jq -r '[.functions[] | select(.calls > 0) | .order] | sort | map(tostring) | join(" ")' threads.json)
expect_eq "threads: ranks 1..N, each once" "$ranks" "$(seq 1 "$(wc -l <threads.got)" | tr '\n' ' ' | sed 's/ $//')"

# ---- -fmip-use -fmip-order with lld: the rebuilt program's functions in
# the order mipdata order gives, from an AArch64 profile.
ORDER=$HERE/progs/order
order_sources=$(for f in main init work hash cold; do printf '%s ' "$ORDER/$f.c"; done)
# shellcheck disable=SC2086
"$MIPCC" $TARGET_FLAGS $LINK -fmip-generate=counts,order,edges -O2 $order_sources -o ordered
MIP_PROFILE_FILE=ordered.mipraw $TARGET_RUN ./ordered >ordered.out
mip_profile ordered ordered.mip ordered.mipraw >/dev/null
"$MIPDATA" order -p ordered.mip -o order.txt >/dev/null
# shellcheck disable=SC2086
"$MIPCC" $TARGET_FLAGS $LINK -O2 -fmip-use=ordered.mip -fmip-order $order_sources -o reordered
# follows BINARY: the functions of order.txt, in BINARY's order (the
# first of two static ones of one name), are order.txt.
follows() {
  "$LLVM_BIN/llvm-nm" -n "$1" | awk '$2 ~ /^[tT]$/ { print $3 }' >"$1.syms"
  awk 'NR == FNR { want[$1] = 1; next } ($1 in want) && !seen[$1]++' \
    order.txt "$1.syms" >"$1.order"
  cmp -s "$1.order" order.txt
}
# shellcheck disable=SC2086
"$CLANG" $TARGET_FLAGS $LINK -O2 -ffunction-sections $order_sources -o plain-order
follows plain-order && fail "the default layout already follows the order" ||
  pass "the default layout does not follow the order"
[ "$(wc -l <order.txt)" -ge 10 ] && follows reordered &&
  $TARGET_RUN ./reordered | cmp -s - ordered.out &&
  pass "-fmip-use -fmip-order: $(wc -l <order.txt) functions in mipdata order's order, same output" ||
  fail "-fmip-order: the binary's order differs from order.txt: $(diff order.txt reordered.order | head -5 | tr '\n' ' ')"

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
