#!/bin/bash
# bench/use/hotcold.sh: what allocation hints do for examples/hotcold (C)
# and examples/hotcold/cxx (C++), where 64-byte blocks that are updated
# all the time (hot) and 64-byte blocks that are written once (cold) are
# allocated in turn, and for the C program built with -DHOTCOLD_WRAPPER
# (*wrapper*), whose blocks all come from one allocation wrapper: rebuilt
# with -flto=thin, which clones the wrapper per context (and with -g,
# which that needs; the rebuild without -flto, which cannot hint the
# wrapper, is counted too). For each:
#
#   1. profiles it (mipcc -fmip-generate=counts,heap, linked with
#      jemalloc, the allocator it runs with after the rebuild) and rebuilds
#      it with -fmip-use and thresholds for a run of seconds;
#   2. checks that the rebuild calls the hinted allocation functions, and
#      that every build prints the same;
#   3. times, interleaved, median of BENCH_USE_RUNS: (a) the rebuild,
#      (b) the same binary with MIP_ALLOC_HINTS=0 (jemalloc, no hints),
#      (c) plain clang with glibc's malloc;
#   4. counts data cache misses of one shorter run of each under
#      cachegrind: D1, and LL twice, simulated as this machine's L2 and as
#      cachegrind's default (the last level it finds).
#
# Prints a markdown section on stdout, progress on stderr. Called by
# bench/use/run.sh (make bench-use), or on its own after make:
#   BUILD=build bench/use/hotcold.sh
# Variables: BUILD, MIPCC, MIPDATA, CLANG, LLVM_DIR (bench/lib.sh);
#   BENCH_USE_RUNS  timed runs per build (default 7)
#   BENCH_JOBS      cachegrind runs at once (default: cores)
#   HOTCOLD_STEPS   counter updates of a timed run (default 100000000)
#   HOTCOLD_CG_STEPS  ... of a cachegrind run (default 5000000)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

RUNS=${BENCH_USE_RUNS:-7}
JOBS=${BENCH_JOBS:-$(nproc)}
STEPS=${HOTCOLD_STEPS:-100000000}
CG_STEPS=${HOTCOLD_CG_STEPS:-5000000}
COUNTERS=4096
MIPDATA=$(abspath "${MIPDATA:-$BUILD/bin/mipdata}")
MIPCXX=$(dirname "$MIPCC")/mipc++
CLANGXX=${CLANGXX:-$(dirname "$CLANG")/clang++}
EXAMPLES=$ROOT/examples/hotcold
H=$B/use/hotcold
GEN="-fmip-generate=counts,heap -O2"
THRESHOLDS="-fmip-cold-min-lifetime=0.1 -fmip-hot-min-density=10"
ANNOTATE_THRESHOLDS="--cold-min-lifetime 0.1 --hot-min-density 10"

for v in RUNS JOBS STEPS CG_STEPS; do
  case ${!v} in '' | *[!0-9]* | 0) die "$v must be a positive number, not '${!v}'" ;; esac
done
for t in "$CLANG" "$CLANGXX" valgrind objdump; do
  command -v "$t" >/dev/null || die "$t not found (scripts/install-deps bench installs what is missing)"
done
for t in "$MIPCC" "$MIPDATA"; do
  [ -x "$t" ] || die "$t missing: run make first"
done
[ -e /usr/include/jemalloc/jemalloc.h ] || [ -e /usr/lib/x86_64-linux-gnu/libjemalloc.so ] ||
  die "jemalloc missing (package libjemalloc-dev; scripts/install-deps)"

# The L2 of this machine, for cachegrind's LL
machine_l2

rm -rf "$H"
mkdir -p "$H"

# build LANG: profiles and builds one language's program into $H/LANG:
# gen (instrumented), use (rebuilt), plain (clang)
build() {
  local lang=$1 driver compiler srcs flags="" lto=""
  local d=$H/$lang
  mkdir -p "$d"
  if [ "$lang" = c ] || [ "$lang" = wrapper ]; then
    driver=$MIPCC compiler=$CLANG srcs="main.c table.c journal.c"
    cp "$EXAMPLES"/*.c "$EXAMPLES"/*.h "$d/"
    [ "$lang" = wrapper ] && flags="-DHOTCOLD_WRAPPER -g" lto=-flto=thin
  else
    driver=$MIPCXX compiler=$CLANGXX srcs="main.cpp journal.cpp"
    cp "$EXAMPLES"/cxx/*.cpp "$EXAMPLES"/cxx/*.hpp "$d/"
  fi
  cd "$d"
  log "hotcold ($lang): profiling"
  # shellcheck disable=SC2086 # lists
  "$driver" $GEN $flags $srcs -o gen -ljemalloc >build.log 2>&1 ||
    { cat build.log >&2; die "building the instrumented $lang program failed"; }
  MIP_PROFILE_FILE=gen.mipraw ./gen "$COUNTERS" "$STEPS" >gen.out
  "$MIPDATA" extract gen -o gen.mipmap >/dev/null
  "$MIPDATA" create -p gen.mip gen.mipmap
  "$MIPDATA" merge -p gen.mip --debug gen gen.mipraw
  # shellcheck disable=SC2086
  "$MIPDATA" annotate -p gen.mip --debug gen $ANNOTATE_THRESHOLDS >annotate.txt 2>&1 || true
  log "hotcold ($lang): rebuilding"
  # shellcheck disable=SC2086
  "$driver" -fmip-use=gen.mip $THRESHOLDS -Rpass=mip -O2 $flags $lto $srcs -o use >>build.log 2>&1 ||
    { cat build.log >&2; die "the -fmip-use build of the $lang program failed"; }
  if [ -n "$lto" ]; then
    # shellcheck disable=SC2086
    "$driver" -fmip-use=gen.mip $THRESHOLDS -O2 $flags $srcs -o use-nolto >>build.log 2>&1 ||
      { cat build.log >&2; die "the -fmip-use build of the $lang program without $lto failed"; }
  fi
  # shellcheck disable=SC2086
  "$compiler" -O2 $flags $srcs -o plain >>build.log 2>&1 ||
    { cat build.log >&2; die "the plain build of the $lang program failed"; }
}

# hints BINARY: "N (H hot, C cold)": the calls of hinted allocation
# functions, by the hint they pass (the immediate moved into %esi last)
hints() {
  objdump -d --no-show-raw-insn "$1" | awk '
    /^[0-9a-f]+ <.*>:$/ { hint = "" }
    /mov +\$0x[0-9a-f]+,%esi/ { split($0, m, "$"); split(m[2], v, ","); hint = v[1] }
    /(call|jmp) .*<(__mip_[a-z_]*_hint|_Zn[wa][^>]*__hot_cold_t)>/ {
      n++; if (hint == "0xfe") hot++; else if (hint == "0x1") cold++ }
    END { printf "%d (%d hot, %d cold)\n", n, hot, cold }'
}

# The three ways: name, command (in the language's directory)
WAYS=(hints nohints plain)
declare -A CMD=([hints]="./use" [nohints]="env MIP_ALLOC_HINTS=0 ./use" [plain]="./plain")
declare -A TITLE=([hints]="\`-fmip-use\`, hints" [nohints]="the same, \`MIP_ALLOC_HINTS=0\`"
  [plain]="plain clang, glibc \`malloc\`")

# seconds COMMAND...: wall time of one run, output to the current out file
seconds() {
  local t0=$EPOCHREALTIME t1
  "$@" >"$OUTFILE"
  t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

LANGS="c cxx wrapper"
declare -A HINTS SAME
for lang in $LANGS; do
  build "$lang"
  HINTS[$lang]=$(hints "$H/$lang/use")
  [ "$lang" = wrapper ] && HINTS[nolto]=$(hints "$H/$lang/use-nolto")
  case ${HINTS[$lang]} in
    0\ *) log "hotcold ($lang): the rebuild has no hinted calls (see $H/$lang/annotate.txt)" ;;
  esac
done

# ---- timed runs, interleaved --------------------------------------------------
for lang in $LANGS; do
  cd "$H/$lang"
  for w in "${WAYS[@]}"; do : >"time.$w"; done
  for ((r = 1; r <= RUNS; r++)); do
    log "hotcold ($lang): timed runs, round $r of $RUNS"
    for w in "${WAYS[@]}"; do
      OUTFILE=out.$w
      # shellcheck disable=SC2086 # the command is a list
      seconds ${CMD[$w]} "$COUNTERS" "$STEPS" >>"time.$w"
    done
  done
  same=yes
  for w in "${WAYS[@]}"; do cmp -s "out.$w" out.plain || same=no; done
  SAME[$lang]=$same
done

# ---- cachegrind ----------------------------------------------------------------
# cg LANG WAY KIND: one cachegrind run; KIND l2 (LL as this machine's L2)
# or default
cg() {
  local lang=$1 w=$2 kind=$3 bin=./use.cg
  local extra=() envs=()
  [ "$kind" = l2 ] && extra=(--LL="$l2")
  [ "$w" = nohints ] && envs=(MIP_ALLOC_HINTS=0)
  [ "$w" = plain ] && bin=./plain.cg
  cd "$H/$lang"
  env "${envs[@]}" valgrind --tool=cachegrind --cache-sim=yes "${extra[@]}" \
    --cachegrind-out-file=/dev/null --log-file="cg.$w.$kind.log" \
    "$bin" "$COUNTERS" "$CG_STEPS" >"cg.$w.$kind.out"
}
log "hotcold: cachegrind, $CG_STEPS steps"
# Without debug information: valgrind 3.19 cannot read the DWARF 5 that
# clang 19 writes (libmip_alloc.a's included).
for lang in $LANGS; do
  for bin in use plain; do
    "$STRIP" --strip-debug -o "$H/$lang/$bin.cg" "$H/$lang/$bin"
  done
done
for lang in $LANGS; do
  for w in "${WAYS[@]}"; do
    for kind in l2 default; do
      while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
      cg "$lang" "$w" "$kind" &
    done
  done
done
wait
# misses LOG NAME: the count on cachegrind's summary line NAME ("D1  misses")
misses() { sed -n "s/^==[0-9]*== $2: *\([0-9,]*\).*/\1/p" "$1" | head -1; }
# ll_found LOG: which cache cachegrind's default LL is
ll_found() {
  local l
  l=$(sed -n 's/.*warning: \(L[0-9]\) cache found, using its data for the LL simulation.*/\1/p' "$1" | head -1)
  if [ -n "$l" ]; then echo "the $l it finds"; else echo "the last level it finds"; fi
}

# ---- the table -----------------------------------------------------------------
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
range() { sort -n "$1" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s", lo, hi }'; }

echo "### Hot and cold allocations: examples/hotcold"
echo
echo "\`examples/hotcold\`: $COUNTERS counters updated $STEPS times in a shuffled cycle, and" \
  "three notes per counter, written once; counters and notes are 64 bytes and allocated in" \
  "turn, so without hints one counter lies between every three notes. Profiled with" \
  "\`-fmip-generate=counts,heap\`, linked with jemalloc; rebuilt with \`-fmip-use\`" \
  "\`$THRESHOLDS\`. Hinted calls in the rebuild: C ${HINTS[c]}, C++ ${HINTS[cxx]}." \
  "*wrapper*: the C program with \`-DHOTCOLD_WRAPPER\`, every block from one" \
  "\`allocate()\` function, profiled and rebuilt with \`-g\`; its rebuild with" \
  "\`-flto=thin\` clones \`allocate\` for the cold contexts (hinted calls: ${HINTS[wrapper]});" \
  "without \`-flto\` it has ${HINTS[nolto]}, and its blocks are placed as with" \
  "\`MIP_ALLOC_HINTS=0\`." \
  "Wall time: median of $RUNS interleaved runs (fastest-slowest). Misses: one run of" \
  "$CG_STEPS steps under \`valgrind --tool=cachegrind --cache-sim=yes\`, data misses;" \
  "LL simulated once as this machine's L2 ($L2_TEXT) and once as cachegrind's default" \
  "($(ll_found "$H/c/cg.plain.default.log"))."
echo
echo "Without hints, jemalloc hands the counters every fourth 64-byte slot of a page: at a" \
  "256-byte stride they fall into a quarter of the sets of any cache indexed by address" \
  "bits above the line, and spread over four times the pages. With hints they are packed" \
  "in an arena of their own, and the notes in another. glibc's 80-byte chunks for 64-byte" \
  "blocks do not line up with the sets that way, but spread the counters over five times" \
  "the pages."
echo
echo "| program | build | wall time (s) | D1 misses | LL misses, L2-sized | LL misses, default | output |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for lang in $LANGS; do
  prog=hotcold
  [ "$lang" = cxx ] && prog=hotcold++
  [ "$lang" = wrapper ] && prog="hotcold, wrapper, \`-flto=thin\`"
  cd "$H/$lang"
  for w in "${WAYS[@]}"; do
    same=same
    cmp -s "out.$w" out.plain || same="**differs**"
    cmp -s "cg.$w.l2.out" cg.plain.l2.out || same="**differs**"
    echo "| $prog | ${TITLE[$w]} | $(median "time.$w") ($(range "time.$w")) |" \
      "$(misses "cg.$w.l2.log" "D1  misses") | $(misses "cg.$w.l2.log" "LLd misses") |" \
      "$(misses "cg.$w.default.log" "LLd misses") | $same |"
  done
done
echo
echo "Output: $(cat "$H/c/out.plain")"
for lang in $LANGS; do
  [ "${SAME[$lang]}" = yes ] || die "hotcold ($lang): the builds print different things (see $H/$lang/out.*)"
done
