# What aarch64.sh and armv7.sh share: programs cross-built with mipcc for
# another Linux target, run under qemu-user, profiled by the host's
# mipdata and held against the same programs built for the host (x86-64).
# Sourced after lib.sh; the target's script sets
#   TRIPLE     the --target mipcc and clang get
#   SYSROOT    the cross C library (qemu's -L)
#   QEMU       the emulator
#   PKGS       the Debian packages that bring SYSROOT, named in a skip
# then calls cross_ready (which skips the suite without them), and, for
# each state it tests, sets TARGET_FLAGS (the target's flags for every
# compile and link), TAG (the suffix of its files) and ARCH (its name in
# messages) before the checks below.

# cross_ready: the suite skipped, saying why, without the emulator, the
# cross libraries or the runtime built for TRIPLE; else the scratch
# directory and what coverage_lib.sh needs.
cross_ready() {
  skip=
  command -v "$QEMU" >/dev/null || skip="$QEMU not installed (qemu-user)"
  [ -n "$skip" ] || [ -e "$SYSROOT/lib/crt1.o" ] ||
    skip="no $SYSROOT/lib/crt1.o ($PKGS)"
  [ -n "$skip" ] || ls /usr/lib/gcc-cross/"${SYSROOT#/usr/}"/*/libstdc++.so >/dev/null 2>&1 ||
    skip="no libstdc++ for ${SYSROOT#/usr/} ($PKGS)"
  [ -n "$skip" ] || [ -e "$BUILD/lib/mip/$TRIPLE/libmip_rt.a" ] ||
    skip="no $BUILD/lib/mip/$TRIPLE/libmip_rt.a (rebuild after installing the cross libraries)"
  if [ -n "$skip" ]; then
    echo "skipped: $SUITE: $skip"
    exit 0
  fi
  make_tmp
  TARGET_RUN="$QEMU -L $SYSROOT"
  LINK=-fuse-ld=lld # the host's GNU ld links no other architecture
  . "$HERE/coverage_lib.sh"
}

# cross_coverage STATE: coverage against SanitizerCoverage, C and C++,
# -O0 and -O2 (coverage_lib.sh), named for STATE.
cross_coverage() {
  run_config c "$1-O0-g" "-O0 -g" "$LINK"
  run_config c "$1-O2" "-O2" "$LINK"
  check_comparison_can_fail
  run_config cxx "$1-O0-g" "-O0 -g" "$LINK"
  run_config cxx "$1-O2-g" "-O2 -g" "$LINK"
  check_objcopy_route
}

# arch_flags ARCH-TAG: "FLAGS|RUNNER" for x86 (the host) or $TAG.
arch_flags() {
  if [ "$1" = x86 ]; then echo "|"; else echo "$TARGET_FLAGS $LINK|$TARGET_RUN"; fi
}

# both NAME ARGS-OF-RUNS... -- BUILD-ARGS...: NAME.x86 (once) and
# NAME.$TAG built with mipcc BUILD-ARGS, each run once per ARGS (words,
# "" for none), their profiles NAME.ARCH.mip and show JSON NAME.ARCH.json.
both() {
  name=$1
  shift
  runs=
  while [ "$1" != -- ]; do
    runs="$runs|$1"
    shift
  done
  shift
  for arch in x86 "$TAG"; do
    [ "$arch" = x86 ] && [ -e "$name.x86.json" ] && continue
    fr=$(arch_flags "$arch")
    flags=${fr%|*} run=${fr#*|}
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
  if [ "$(functions_of "$1.$TAG.json")" = "$(functions_of "$1.x86.json")" ] &&
    [ "$(edges_of "$1.$TAG.json")" = "$(edges_of "$1.x86.json")" ]; then
    pass "$ARCH $2: $(jq '.functions | length' "$1.$TAG.json") functions as on x86-64"
  else
    fail "$ARCH $2 differs from x86-64"
    diff "$1.x86.json" "$1.$TAG.json" | head -20 | sed 's/^/     /'
  fi
}

# cross_modes: counts, first-call order, blocks and edges as on x86-64
# (whose numbers modes.sh holds against the program's known ones).
cross_modes() {
  cd "$TMP" || return
  MODES=$HERE/progs/modes
  for opt in -O0 -O2; do
    both "modes$opt" 3 10 -- -fmip-generate=counts,order,blocks,edges $opt \
      "$MODES/main.c" "$MODES/work.c" &&
      same_as_x86 "modes$opt" "counts, order, blocks, edges $opt" ||
      fail "$ARCH counts, order, blocks, edges $opt: build or run failed"
  done
  both all-blocks 3 10 -- -fmip-generate=all-blocks,counts,order -O2 \
    "$MODES/main.c" "$MODES/work.c" &&
    same_as_x86 all-blocks "every block probed" ||
    fail "$ARCH every block probed: build or run failed"
  # order without counts: the first call is told by the coverage byte
  both order-only 3 10 -- -fmip-generate=order -O2 "$MODES/main.c" "$MODES/work.c" &&
    same_as_x86 order-only "order alone (first calls by the coverage byte)" ||
    fail "$ARCH order alone: build or run failed"
  # The comparison can fail: one run fewer is another profile.
  mip_profile "modes-O2.$TAG" "fewer.$TAG.mip" "modes-O2.$TAG.1.mipraw" >/dev/null
  mip_show "fewer.$TAG.mip" >"fewer.$TAG.json"
  [ "$(functions_of "fewer.$TAG.json")" != "$(functions_of modes-O2.x86.json)" ] &&
    pass "$ARCH: a profile of other runs is told apart" ||
    fail "$ARCH: a profile of other runs matched x86-64's"
}

# counter_sections BINARY: "NAME TYPE" of its counter sections. Counters
# that start as zeros take no bytes of the file (NOBITS).
counter_sections() {
  "$LLVM_BIN/llvm-readelf" -S -W "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
    awk '$1 ~ /^__mip_/ { print $1, $2 }' | sort | paste -s -d, | sed 's/,/, /g'
}

# cross_pool_continuous COV-FLAG: pool mode (%1m: the runs merged into one
# file at exit) and continuous mode (%c: the counters mapped onto the
# file) give the profile of the runs' own files; a run's file has the
# header flags COV-FLAG (2: its coverage bytes are 0 when entered).
cross_pool_continuous() {
  cd "$TMP" || return
  # shellcheck disable=SC2086
  "$MIPCC" $TARGET_FLAGS $LINK -fmip-generate -fmip-continuous -fmip-pool -O2 \
    "$HERE/progs/modes/main.c" "$HERE/progs/modes/work.c" -o "cov.$TAG"
  mip_create "cov.$TAG" "cov.$TAG.mip" >/dev/null
  for way in plain pool cont; do
    cp "cov.$TAG.mip" "cov.$TAG.$way.mip"
    for n in 3 10 0; do
      case $way in
      plain) file=cov.$TAG.plain.$n.mipraw ;;
      pool) file=cov.$TAG.pool.%1m.mipraw ;;
      cont) file=cov.$TAG.cont.$n.%c.mipraw ;;
      esac
      # shellcheck disable=SC2086
      MIP_PROFILE_FILE=$file $TARGET_RUN "./cov.$TAG" $n >/dev/null || true
    done
    "$MIPDATA" merge -p "cov.$TAG.$way.mip" cov.$TAG.$way.*.mipraw
    mip_show "cov.$TAG.$way.mip" >"cov.$TAG.$way.json"
  done
  covered_runs_of() { jq -c '[.runs, [.functions[] | [.name, .covered_runs]]]' "$1"; }
  plain=$(covered_runs_of "cov.$TAG.plain.json")
  [ "$plain" = "$(covered_runs_of "cov.$TAG.pool.json")" ] &&
    [ "$plain" = "$(covered_runs_of "cov.$TAG.cont.json")" ] &&
    [ "$(jq '.runs' "cov.$TAG.plain.json")" = 3 ] &&
    [ "$(jq '[.functions[] | select(.covered_runs > 0)] | length' "cov.$TAG.plain.json")" -ge 2 ] &&
    pass "$ARCH pool and continuous mode: each function's covered runs as from 3 runs' files: $plain" ||
    fail "$ARCH pool or continuous mode differ: $plain $(covered_runs_of "cov.$TAG.pool.json") $(covered_runs_of "cov.$TAG.cont.json")"
  expect_eq "$ARCH: a run's file header flags" \
    "$(dump_value "cov.$TAG.plain.3.mipraw" .header.flags)" "$1"
}

# cross_shared_library: a library's functions' calls as on x86-64, and as
# the program does.
cross_shared_library() {
  cd "$TMP" || return
  C=$HERE/progs/c
  for arch in x86 "$TAG"; do
    [ "$arch" = x86 ] && [ -e libshapes.x86.json ] && continue
    fr=$(arch_flags "$arch")
    flags=${fr%|*} run=${fr#*|}
    # shellcheck disable=SC2086
    "$MIPCC" $flags -fmip-generate=counts -O2 -fPIC -shared -I"$C" \
      "$C/shapes/circle.c" "$C/shapes/square.c" "$C/shapes/triangle.c" \
      -o "libshapes.$arch.so"
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
  expect_eq "$ARCH shared library: its functions' calls as on x86-64" \
    "$(lib_calls "libshapes.$TAG.json")" "$(lib_calls libshapes.x86.json)"
  # main draws a circle in the first run and a square in the second
  [ "$(mip_field "libshapes.$TAG.json" circle_area calls)" -ge 1 ] &&
    [ "$(mip_field "libshapes.$TAG.json" circle_area covered_runs)" = 1 ] &&
    [ "$(mip_field "libshapes.$TAG.json" triangle_area calls)" = 0 ] &&
    pass "$ARCH shared library: circle_area ran in one run, triangle_area in none" ||
    fail "$ARCH shared library: $(lib_calls "libshapes.$TAG.json")"
}

# cross_fork: parent and child each their own raw file, their calls as on
# x86-64.
cross_fork() {
  cd "$TMP" || return
  for arch in x86 "$TAG"; do
    [ "$arch" = x86 ] && [ -e fork.x86/out.txt ] && continue
    fr=$(arch_flags "$arch")
    flags=${fr%|*} run=${fr#*|}
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
  child=$(sed -n 's/^child //p' "fork.$TAG/out.txt")
  x86_child=$(sed -n 's/^child //p' fork.x86/out.txt)
  expect_eq "$ARCH fork: the parent's calls as on x86-64" \
    "$(fork_calls "$TAG" "fork.$TAG/default.mipraw")" "$(fork_calls x86 fork.x86/default.mipraw)"
  expect_eq "$ARCH fork: the child's calls as on x86-64" \
    "$(fork_calls "$TAG" "fork.$TAG/default.$child.mipraw")" \
    "$(fork_calls x86 "fork.x86/default.$x86_child.mipraw")"
}

# cross_threads: exact calls with the atomic mode, ranks 1..N.
cross_threads() {
  cd "$TMP" || return
  THREADS=8
  HOT=200000
  # shellcheck disable=SC2086
  "$MIPCC" $TARGET_FLAGS $LINK -fmip-generate=counts,order,atomic -O2 -pthread \
    "$HERE/progs/threads/main.c" -o "threads.$TAG"
  # shellcheck disable=SC2086
  MIP_PROFILE_FILE=threads.$TAG.mipraw $TARGET_RUN "./threads.$TAG" >/dev/null
  mip_profile "threads.$TAG" "threads.$TAG.mip" "threads.$TAG.mipraw" >/dev/null
  mip_show "threads.$TAG.mip" >"threads.$TAG.json"
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
  jq -r '.functions[] | select(.calls > 0) | "\(.name) \(.calls)"' "threads.$TAG.json" |
    sort >"threads.$TAG.got"
  if cmp -s "threads.$TAG.got" threads.want; then
    pass "$ARCH threads, atomic: every function's calls exact ($(wc -l <"threads.$TAG.got") functions)"
  else
    fail "$ARCH threads, atomic: $(diff threads.want "threads.$TAG.got" | tr '\n' ' ')"
  fi
  ranks=$(jq -r '[.functions[] | select(.calls > 0) | .order] | sort | map(tostring) | join(" ")' "threads.$TAG.json")
  expect_eq "$ARCH threads: ranks 1..N, each once" "$ranks" \
    "$(seq 1 "$(wc -l <"threads.$TAG.got")" | tr '\n' ' ' | sed 's/ $//')"
}

# cross_order: -fmip-use -fmip-order with lld places the rebuilt
# program's functions in the order mipdata order gives from the target's
# profile.
cross_order() {
  cd "$TMP" || return
  ORDER=$HERE/progs/order
  order_sources=$(for f in main init work hash cold; do printf '%s ' "$ORDER/$f.c"; done)
  # shellcheck disable=SC2086
  "$MIPCC" $TARGET_FLAGS $LINK -fmip-generate=counts,order,edges -O2 $order_sources -o "ordered.$TAG"
  # shellcheck disable=SC2086
  MIP_PROFILE_FILE=ordered.$TAG.mipraw $TARGET_RUN "./ordered.$TAG" >"ordered.$TAG.out"
  mip_profile "ordered.$TAG" "ordered.$TAG.mip" "ordered.$TAG.mipraw" >/dev/null
  "$MIPDATA" order -p "ordered.$TAG.mip" -o "order.$TAG.txt" >/dev/null
  # shellcheck disable=SC2086
  "$MIPCC" $TARGET_FLAGS $LINK -O2 -fmip-use="ordered.$TAG.mip" -fmip-order $order_sources -o "reordered.$TAG"
  # follows BINARY: the functions of the order, in BINARY's order (the
  # first of two static ones of one name), are the order.
  follows() {
    "$LLVM_BIN/llvm-nm" -n "$1" | awk '$2 ~ /^[tT]$/ { print $3 }' >"$1.syms"
    awk 'NR == FNR { want[$1] = 1; next } ($1 in want) && !seen[$1]++' \
      "order.$TAG.txt" "$1.syms" >"$1.order"
    cmp -s "$1.order" "order.$TAG.txt"
  }
  # shellcheck disable=SC2086
  "$CLANG" $TARGET_FLAGS $LINK -O2 -ffunction-sections $order_sources -o "plain-order.$TAG"
  follows "plain-order.$TAG" && fail "$ARCH: the default layout already follows the order" ||
    pass "$ARCH: the default layout does not follow the order"
  # shellcheck disable=SC2086
  [ "$(wc -l <"order.$TAG.txt")" -ge 10 ] && follows "reordered.$TAG" &&
    $TARGET_RUN "./reordered.$TAG" | cmp -s - "ordered.$TAG.out" &&
    pass "$ARCH -fmip-use -fmip-order: $(wc -l <"order.$TAG.txt") functions in mipdata order's order, same output" ||
    fail "$ARCH -fmip-order: the binary's order differs from the order: $(diff "order.$TAG.txt" "reordered.$TAG.order" | head -5 | tr '\n' ' ')"
}

# cross_heap: heap mode against x86-64: per-site AllocCount and TotalSize
# as on x86-64 (whose heap.sh holds them against DHAT), the same innermost
# frames from the target's frame records, the known access patterns'
# exact counts, 8 threads, a block a library MIP did not instrument frees
# (interposition), and a heap library a plain program dlopens (its GOT
# slots redirected to the runtime's trampolines, JUMP_SLOT and GLOB_DAT).
HEAP=$HERE/progs/heap_truth
HEAP_FLAGS="-O2 -gdwarf-4 -fno-optimize-sibling-calls"

# heap_profile BINARY RUNNER ARGS...: BINARY.json (show --heap)
heap_profile() {
  hp=$1 runner=$2
  shift 2
  # shellcheck disable=SC2086
  MIP_PROFILE_FILE=$hp.mipraw $runner "./$hp" "$@" >"$hp.out" 2>"$hp.err" &&
    mip_profile --debug "$hp" "$hp.mip" "$hp.mipraw" >/dev/null &&
    mip_show "$hp.mip" --heap >"$hp.json"
}

# HEAP_ILP32: on a 32-bit target, "FILE:LINE BYTES" for each site whose
# blocks hold longs or pointers (4 bytes there, 8 on x86-64): their bytes
# are those, every other site's and every count as on x86-64.
HEAP_ILP32=

# heap_expected NAME: NAME.x86.sites with HEAP_ILP32's bytes.
heap_expected() {
  printf '%s\n' "$HEAP_ILP32" | tr '|' '\n' |
    awk 'NR == FNR { if (NF == 2) ilp32[$1] = $2; next }
         $1 in ilp32 { $3 = ilp32[$1] } { print }' - "$1.x86.sites"
}

# heap_both NAME DRIVER ARGS -- SOURCES...: built for both (x86-64 once),
# run, per-site blocks and bytes compared. (Not their accesses: each
# target's code generator leaves other loads and stores to count, and
# blocks share their end granules with other neighbours; access.c and
# copies.c, whose accesses are fixed and whose blocks share no granule,
# have their exact counts below.)
heap_both() {
  name=$1 driver=$2 args=$3
  shift 4
  if [ ! -e "$name.x86.json" ]; then
    # shellcheck disable=SC2086
    "$driver" -fmip-generate=heap $HEAP_FLAGS "$@" -o "$name.x86" &&
      heap_profile "$name.x86" "" $args || fail "heap $name: x86-64 build or run failed"
  fi
  # shellcheck disable=SC2086
  "$driver" $TARGET_FLAGS $LINK -fmip-generate=heap $HEAP_FLAGS "$@" -o "$name.$TAG" &&
    heap_profile "$name.$TAG" "$TARGET_RUN" $args || {
    fail "$ARCH heap $name: build or run failed"
    return
  }
  mip_sites "$name.x86.json" >"$name.x86.sites"
  mip_sites "$name.$TAG.json" >"$name.$TAG.sites"
  heap_expected "$name" >"$name.$TAG.expected"
  n=$(wc -l <"$name.$TAG.sites")
  # (the output too, but where it sums longs: truth's does)
  if [ "$n" -ge 3 ] && cmp -s "$name.$TAG.sites" "$name.$TAG.expected" &&
    { [ -n "$HEAP_ILP32" ] || cmp -s "$name.$TAG.out" "$name.x86.out"; }; then
    pass "$ARCH heap $name: AllocCount and TotalSize as on x86-64 at all $n sites${HEAP_ILP32:+ (ILP32 sizes where longs or pointers)}"
  else
    fail "$ARCH heap $name: sites differ from x86-64 (< x86-64, > $ARCH):"
    diff "$name.$TAG.expected" "$name.$TAG.sites" | sed 's/^/     /'
  fi
}

# Call stacks from the frame records: the same frames as on x86-64, up
# to the first in libc (whose own callers differ).
heap_frames() {
  jq -r '.heap[] | select(.site != null)
         | [foreach .frames[].function as $f (false; . or ($f | startswith("/"));
            if . then empty else $f end)] | join(" ")' "$1" | sort
}

# heap_one NAME SOURCE FLAGS...: built for the target and profiled
heap_one() {
  name=$1 src=$2
  shift 2
  # shellcheck disable=SC2086
  "$MIPCC" $TARGET_FLAGS $LINK -fmip-generate=heap -O2 -g "$@" "$src" -o "$name.$TAG" &&
    heap_profile "$name.$TAG" "$TARGET_RUN"
}

cross_heap() {
  heap_both truth "$MIPCC" 6 -- "$HEAP/main.c" "$HEAP/store.c" "$HEAP/suite.c"
  heap_both objects "$MIPCXX" "" -- "$HEAP/objects.cpp"
  awk 'NR == 1 { $2++ } { print }' "truth.$TAG.sites" >broken.sites
  cmp -s broken.sites "truth.$TAG.expected" &&
    fail "$ARCH heap: a changed count still matched" ||
    pass "$ARCH heap: a changed count is caught by the comparison"
  expect_eq "$ARCH heap: the innermost frames as on x86-64" \
    "$(heap_frames "truth.$TAG.json" | tr '\n' ';')" "$(heap_frames truth.x86.json | tr '\n' ';')"

  heap_one access "$HEAP/access.c"
  expect_eq "$ARCH heap: the access pattern's exact count (5120 stores, 1536 loads)" \
    "$(jq '[.heap[] | select(.TotalSize == 4096) | .TotalAccessCount] | add' "access.$TAG.json")" 6656
  heap_one copies "$HEAP/copies.c"
  expect_eq "$ARCH heap: copies and fills, one access per granule touched" \
    "$(jq '[.heap[] | select(.TotalSize == 4096) | .TotalAccessCount] | add' "copies.$TAG.json")" 2200
  heap_one heap_threads "$HEAP/threads.c" -pthread
  expect_eq "$ARCH heap: 8 threads, blocks and bytes" \
    "$(jq -c '[([.heap[] | select(.site != null) | .AllocCount] | add), ([.heap[] | select(.site != null) | .TotalSize] | add)]' "heap_threads.$TAG.json")" \
    "[8000,156000]"

  # A block freed by a library MIP did not instrument dies there: the
  # process's free is the program's interposed one.
  # shellcheck disable=SC2086
  "$CLANG" $TARGET_FLAGS $LINK -O2 -fPIC -shared "$HEAP/release.c" -o "librelease.$TAG.so"
  # shellcheck disable=SC2086
  "$MIPCC" $TARGET_FLAGS $LINK -fmip-generate=heap -O2 -g "$HEAP/lifetime.c" \
    "librelease.$TAG.so" -Wl,-rpath,"$TMP" -o "lifetime.$TAG"
  heap_profile "lifetime.$TAG" "$TARGET_RUN"
  expect_eq "$ARCH heap: a block a library frees is not live at exit" \
    "$(jq -c '[.heap[] | select(.TotalSize == 1000) | .LiveAtExitCount]' "lifetime.$TAG.json")" "[0]"

  # Sampled, every block recorded (heap_sample=1): the exact run's
  # contexts, blocks that uninstrumented code frees and reallocates
  # included, so every recorded block has its mark in the shadow's own
  # shadow, whose place differs per architecture (docs/heap.md).
  heap_one sampled "$HERE/progs/heap_sample/foreign.c" &&
    jq -c '.heap[] | [[.frames[].function], .AllocCount, .TotalSize,
      .ReallocCount, .LiveAtExitCount]' "sampled.$TAG.json" | sort >sampled.exact &&
    MIP_OPTIONS=heap_sample=1 heap_profile "sampled.$TAG" "$TARGET_RUN" &&
    jq -c '.heap[] | [[.frames[].function], .AllocCount, .TotalSize,
      .ReallocCount, .LiveAtExitCount]' "sampled.$TAG.json" | sort >sampled.all
  [ "$(wc -l <sampled.exact)" -ge 3 ] && cmp -s sampled.exact sampled.all &&
    pass "$ARCH heap: every block sampled, the exact run's contexts" ||
    fail "$ARCH heap: every block sampled, contexts differ from the exact run's"

  cross_heap_dlopen
}

# A heap library loaded with dlopen by a program built without MIP: the
# process's free is libc's, so the runtime redirects the GOT slots of
# free, realloc and reallocarray (JUMP_SLOT; GLOB_DAT with -fno-plt) to
# its trampolines. Each site's blocks, bytes and blocks live at exit as
# the host program says (progs/heap_dlopen), none freed unseen.
cross_heap_dlopen() {
  DL=$HERE/progs/heap_dlopen
  mkdir -p "sub.$TAG"
  # shellcheck disable=SC2086
  "$MIPCC" $TARGET_FLAGS $LINK -fmip-generate=heap $HEAP_FLAGS -fPIC -shared \
    "$DL/lib.c" -o "libheapdl.$TAG.so"
  # shellcheck disable=SC2086
  "$CLANG" $TARGET_FLAGS $LINK -O2 -fPIC -shared "$DL/plain.c" -o "sub.$TAG/libplaindl.so"
  "$MIPDATA" extract "libheapdl.$TAG.so" -o "libheapdl.$TAG.mipmap" >/dev/null
  dl_id=$("$LLVM_BIN/llvm-readelf" -n "libheapdl.$TAG.so" | awk '/Build ID/ { print substr($3, 1, 16) }')
  for plt in plt no-plt; do
    dl=dl.$TAG.$plt
    # shellcheck disable=SC2046,SC2086
    "$CLANG" $TARGET_FLAGS $LINK $HEAP_FLAGS $([ $plt = no-plt ] && echo -fno-plt) \
      "$DL/host.c" -Wl,-rpath,"$TMP/sub.$TAG" -o "host.$TAG.$plt"
    rm -f "$dl".*.mipraw
    rc=0
    MIP_PROFILE_FILE="$TMP/$dl.%m.mipraw" $TARGET_RUN "./host.$TAG.$plt" dlopen \
      "$TMP/libheapdl.$TAG.so" >"$dl.out" 2>"$dl.err" || rc=$?
    "$MIPDATA" create -p "$dl.mip" "libheapdl.$TAG.mipmap" &&
      "$MIPDATA" merge -p "$dl.mip" --debug "libheapdl.$TAG.so" "$dl.$dl_id.mipraw" &&
      mip_show "$dl.mip" --heap >"$dl.json"
    jq -r '.heap[] | select(.site != null)
           | "\(.site.function) \(.AllocCount) \(.TotalSize) \(.LiveAtExitCount)"' "$dl.json" |
      awk '{ n[$1] += $2; b[$1] += $3; l[$1] += $4 } END { for (f in n) print f, n[f], b[f], l[f] }' |
      sort >"$dl.sites"
    awk '$1 == "site" && $3 > 0 { print $2, $3, $4, $5 }' "$dl.out" | sort >"$dl.truth"
    if [ "$rc" = 3 ] && [ -s "$dl.truth" ] && cmp -s "$dl.sites" "$dl.truth" &&
      [ "$(jq .heap_stats.freed_unseen "$dl.json")" = 0 ]; then
      pass "$ARCH heap library dlopened by a plain program ($plt): $(wc -l <"$dl.truth") sites as the program says, none freed unseen"
    else
      fail "$ARCH heap library dlopened ($plt): status $rc, stderr '$(head -c 200 "$dl.err")' (< program, > MIP):"
      diff "$dl.truth" "$dl.sites" | sed 's/^/     /' || true
    fi
  done
  # Without the redirection (MIP_OPTIONS=heap_patch=0) the host's frees go
  # unseen: the check above can fail.
  MIP_OPTIONS=heap_patch=0 MIP_PROFILE_FILE="$TMP/nopatch.$TAG.%m.mipraw" $TARGET_RUN \
    "./host.$TAG.plt" dlopen "$TMP/libheapdl.$TAG.so" >/dev/null 2>&1 || true
  "$MIPDATA" create -p "nopatch.$TAG.mip" "libheapdl.$TAG.mipmap" &&
    "$MIPDATA" merge -p "nopatch.$TAG.mip" --debug "libheapdl.$TAG.so" "nopatch.$TAG.$dl_id.mipraw" 2>/dev/null &&
    mip_show "nopatch.$TAG.mip" --heap >"nopatch.$TAG.json"
  lost=$(jq '.heap_stats.freed_unseen + .heap_stats.live_uninterposed' "nopatch.$TAG.json")
  [ "$lost" -gt 0 ] &&
    pass "$ARCH: without the GOT redirection, $lost blocks are freed unseen or live for all MIP knows" ||
    fail "$ARCH: heap_patch=0 changed nothing: the dlopen check proves nothing"
}
