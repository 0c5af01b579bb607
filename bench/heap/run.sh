#!/bin/bash
# bench/heap/run.sh: the heap profiling benchmark (`make bench-heap`,
# bench/README.md "Heap profiling"). On the programs of `make bench` and
# cmark, which keeps millions of small blocks live:
#
#   1. builds plain, heap (mipcc -fmip-generate=heap), memprof (clang
#      -fmemory-profile), plain-fp and heap-stub (what heap's cost is made
#      of), and for the comparisons dhat, heap-nosib and memprof-nosib
#      (bench/lib.sh);
#   2. checks that every build prints what plain prints, keeping the heap
#      build's profile (its allocation count);
#   3. times plain, heap, memprof, plain-fp and heap-stub, interleaved,
#      with each process's peak resident size (rusage.c), and counts
#      plain's and heap's instructions with callgrind (MemProf's runtime
#      cannot run under valgrind);
#   4. what an allocation and its free cost the runtime as the number of
#      live blocks grows, on a program of its own (sweep.sh); with perf,
#      if it works here: where the heap build's time goes;
#   5. blocks and bytes per allocation site and per calling context, MIP
#      against valgrind's DHAT on the same run, and DHAT's time (truth.sh);
#   6. access counts per context, MIP against MemProf (access.sh), and on a
#      program whose right answers are known (calib.c);
#   7. writes the tables to build/bench/heap.md (report.sh).
#
#   BENCH_PROGRAMS        programs (default: "sqlite3 lua bzip2 cmark")
#   BENCH_HEAP_RUNS       timed runs per program and build (default 7)
#   BENCH_HEAP_DHAT_SIZE  full (default) or small: the workload size of
#                         steps 5 and 6 (small: the callgrind size of make bench)
#   BENCH_JOBS            parallel builds and DHAT runs (default: cores)
#   BENCH_HEAP_SWEEP_RUNS, BENCH_HEAP_SWEEP_LIVE, BENCH_HEAP_SWEEP_OPS: the
#                         sweep's (sweep.sh); BENCH_HEAP_SWEEP_RUNS=0 skips it
#   BENCH_HEAP_BASELINE   the build directory of another MIP checkout (an
#                         older commit, made with make): its heap build,
#                         heap-base, is built, checked, timed and counted
#                         with the others, and the report sets heap
#                         against it, measured in the same rounds
set -eu -o pipefail
. "$(dirname "$0")/../lib.sh"

PROGRAMS=${BENCH_PROGRAMS:-$HEAP_PROGRAMS}
RUNS=${BENCH_HEAP_RUNS:-7}
JOBS=${BENCH_JOBS:-$(nproc)}
MIPDATA=$(abspath "${MIPDATA:-$BUILD/bin/mipdata}")
export MIPDATA
PROFDATA=$LLVM_DIR/bin/llvm-profdata
HERE=$BENCH_DIR/heap
HB=$B/heap
REPORT=$B/heap.md
# heap-s512K and heap-s64K: the heap build sampling (MIP_OPTIONS
# heap_sample, docs/heap.md); heap-allocs-s512K: the heap-allocs build
# (no access counting) sampling; heaptrack: the plain build under
# heaptrack (heaptrack.sh), when it is installed.
TIMED="plain heap memprof plain-fp heap-stub heap-s512K heap-s64K heap-allocs heap-allocs-s512K"
HEAPTRACK_LIB=${HEAPTRACK_LIB:-/usr/lib/heaptrack}
[ -x "$HEAPTRACK_LIB/libexec/heaptrack_interpret" ] && command -v zstd >/dev/null &&
  TIMED="$TIMED heaptrack"
export HEAPTRACK_LIB
BUILT=$HEAP_CONFIGS
COUNTED="plain heap"
if [ -n "${BENCH_HEAP_BASELINE:-}" ]; then
  BENCH_HEAP_BASELINE=$(cd "$BENCH_HEAP_BASELINE" && pwd) ||
    die "BENCH_HEAP_BASELINE: no directory $BENCH_HEAP_BASELINE"
  export BENCH_HEAP_BASELINE
  TIMED="$TIMED heap-base" BUILT="$BUILT heap-base" COUNTED="$COUNTED heap-base"
fi
case $RUNS in '' | *[!0-9]* | 0) die "BENCH_HEAP_RUNS must be a positive number, not '$RUNS'" ;; esac
case $JOBS in '' | *[!0-9]* | 0) die "BENCH_JOBS must be a positive number, not '$JOBS'" ;; esac
case ${BENCH_HEAP_DHAT_SIZE:-full} in full | small) ;; *) die "BENCH_HEAP_DHAT_SIZE must be full or small" ;; esac
for p in $PROGRAMS; do
  case " $HEAP_PROGRAMS " in *" $p "*) ;; *) die "unknown program '$p' in BENCH_PROGRAMS (known: $HEAP_PROGRAMS)" ;; esac
done
[ -n "$PROGRAMS" ] || die "BENCH_PROGRAMS is empty"

for tool in "$CLANG" "$PROFDATA" "$LLVM_DIR/bin/llvm-dwarfdump" "$LLVM_DIR/bin/llvm-nm" valgrind jq awk cksum; do
  command -v "$tool" >/dev/null || die "$tool not found (scripts/install-deps bench installs what is missing)"
done
for t in "$MIPCC" "$MIPDATA"; do [ -x "$t" ] || die "$t missing: run make first"; done
[ -f "$RT_LIB" ] || die "$RT_LIB missing: run make first"
ls "$LLVM_DIR"/lib/clang/*/lib/linux/libclang_rt.memprof-x86_64.a >/dev/null 2>&1 ||
  die "the MemProf runtime is missing (package libclang-rt-19-dev)"

start=$(date +%s)
mkdir -p "$SRC" "$BIN" "$WORK" "$TMP" "$HB"
rm -rf "${HB:?}"/*
mkdir -p "$HB/out" "$HB/check" "$HB/time" "$HB/perf" "$HB/calib"
times=$HB/out/times.tsv
: >"$times"

# mipcc must instrument with heap
d=$TMP/mipcc-heap-check
mkdir -p "$d"
printf '#include <stdlib.h>\nint main(void) { free(malloc(1)); return 0; }\n' >"$d/t.c"
"$MIPCC" -fmip-generate=heap -O2 "$d/t.c" -o "$d/t" >"$d/log" 2>&1 ||
  die "$MIPCC -fmip-generate=heap cannot build a trivial program (see $d/log)"

# ---- 1. sources, inputs, builds ---------------------------------------------
for p in $PROGRAMS; do
  (
    load_program "$p"
    "$BENCH_DIR/fetch.sh" "$PKG"
    prog_prepare "$PROG_DIR"
    mkdir -p "$WORK/$p"
    prog_input "$WORK/$p" "$SIZE_FULL"
    prog_input "$WORK/$p" "$SIZE_CG"
  ) || die "$p: fetching or preparing failed"
done
"$CLANG" -O2 -Wall -Wextra -Werror "$HERE/rusage.c" -o "$HB/rusage"
# replaced only when it changed: the builds that link it depend on it
"$CLANG" -O2 -Wall -Wextra -Werror -I"$ROOT/rt/heap" -c "$HERE/hooks-stub.c" -o "$BIN/heap-hooks-stub.o.tmp"
if ! cmp -s "$BIN/heap-hooks-stub.o.tmp" "$BIN/heap-hooks-stub.o"; then
  mv "$BIN/heap-hooks-stub.o.tmp" "$BIN/heap-hooks-stub.o"
else
  rm -f "$BIN/heap-hooks-stub.o.tmp"
fi
log "building ($JOBS at a time)"
for p in $PROGRAMS; do for c in $BUILT; do echo "$p $c"; done; done |
  xargs -P "$JOBS" -n 2 "$BENCH_DIR/build.sh" || die "a build failed (see above)"

# run PROG CONFIG SCRATCH OUTFILE [RUNNER...]: one full-size run of the
# workload, from SCRATCH, with CONFIG's binary (heap-sRATE: heap's,
# sampling at RATE; heaptrack: plain's under heaptrack)
run() {
  local p=$1 c=$2 s=$3 o=$4 b=$2
  shift 4
  (
    load_program "$p"
    # shellcheck disable=SC2034 # read by prog_run (bench/programs/PROG.sh)
    RUNNER="$*"
    case $c in
      # heap-sRATE, not heap-stub (a build of its own)
      heap-s[0-9]*) b=heap; export MIP_OPTIONS=heap_sample=${c#heap-s} ;;
      heap-allocs-s[0-9]*) b=heap-allocs; export MIP_OPTIONS=heap_sample=${c#heap-allocs-s} ;;
      heaptrack) b=plain; RUNNER="$RUNNER $HERE/heaptrack.sh $s/heaptrack.$RANDOM" ;;
    esac
    prog_run "$BIN/$p/$b" "$WORK/$p" "$SIZE_FULL" "$o" "$s"
  )
}

# ---- 2. same output; the heap build's profile --------------------------------
for p in $PROGRAMS; do
  want=
  for c in $TIMED; do
    s=$HB/check/$p.$c
    mkdir -p "$s"
    MIP_PROFILE_FILE=$s/mip.%p.mipraw MEMPROF_OPTIONS=log_path=$s/memprof.profraw \
      run "$p" "$c" "$s" "$s/out" 2>"$s/log" ||
      { tail -n 20 "$s/log" >&2; die "$p/$c: workload failed (log: $s/log)"; }
    sum=$(cksum <"$s/out" | awk '{ print $1 "-" $2 }')
    [ -z "$want" ] && want=$sum
    [ "$sum" = "$want" ] || die "$p/$c prints something else than $p/plain ($sum, not $want): see $s/out"
  done
  s=$HB/check/$p.heap
  "$MIPDATA" extract "$BIN/$p/heap" -o "$s/$p.mipmap" >/dev/null
  "$MIPDATA" create -p "$s/$p.mip" "$s/$p.mipmap"
  "$MIPDATA" merge -p "$s/$p.mip" --debug "$BIN/$p/heap" "$s"/mip.*.mipraw
  "$MIPDATA" show -p "$s/$p.mip" --heap --format json >"$s/mip.json"
  log "$p: same output from $TIMED ($want)"
done

# ---- 3. wall time and peak RSS ------------------------------------------------
# Round by round, every build once per round, each round starting with
# another; a workload's time is its processes' added up, its peak RSS the
# largest of theirs.
for r in $(seq 1 "$RUNS"); do
  log "timing run $r of $RUNS"
  for p in $PROGRAMS; do
    # shellcheck disable=SC2086 # one word per build
    for c in $(rotated "$r" $TIMED); do
      s=$HB/time/$p.$c
      rm -rf "$s" && mkdir -p "$s"
      MIP_PROFILE_FILE=$s/mip.%p.mipraw MEMPROF_OPTIONS=log_path=$s/memprof.profraw \
        run "$p" "$c" "$s" "$s/out" "$HB/rusage" "$s/rusage" 2>"$s/log" ||
        { tail -n 20 "$s/log" >&2; die "$p/$c: workload failed (log: $s/log)"; }
      awk -v p="$p" -v c="$c" -v r="$r" -v OFS='\t' '
        { wall += $1; if ($2 > rss) rss = $2 }
        END { print p, c, r, wall, rss }' "$s/rusage" >>"$times"
    done
  done
done

# Instructions, at the callgrind size of make bench (bench/workload.sh);
# the heap runtime takes a smaller shadow under valgrind (docs/heap.md).
log "counting instructions with callgrind ($JOBS at a time)"
for p in $PROGRAMS; do for c in $COUNTED; do echo "$p $c callgrind"; done; done |
  xargs -P "$JOBS" -n 3 "$BENCH_DIR/workload.sh" >/dev/null || die "a callgrind run failed (see above)"
: >"$HB/out/instructions.tsv"
for p in $PROGRAMS; do
  read -r want plain_ir <"$OUT/callgrind/$p.plain/result"
  read -r sum heap_ir <"$OUT/callgrind/$p.heap/result"
  [ "$sum" = "$want" ] || die "$p/heap prints something else than $p/plain under callgrind"
  base_ir=-
  if [ -n "${BENCH_HEAP_BASELINE:-}" ]; then
    read -r sum base_ir <"$OUT/callgrind/$p.heap-base/result"
    [ "$sum" = "$want" ] || die "$p/heap-base prints something else than $p/plain under callgrind"
  fi
  printf '%s\t%s\t%s\t%s\n' "$p" "$plain_ir" "$heap_ir" "$base_ir" >>"$HB/out/instructions.tsv"
done

# ---- 4. the live-block sweep; where the heap build's time goes ----------------
sweep_ok=0
case ${BENCH_HEAP_SWEEP_RUNS:-3} in
  0) ;;
  *) MIPCC=$MIPCC "$HERE/sweep.sh" || die "the live-block sweep failed (see above)"
    sweep_ok=1 ;;
esac

perf_ok=0
if command -v perf >/dev/null &&
  perf record -q -o "$HB/perf/probe.data" true >/dev/null 2>&1; then
  perf_ok=1
fi
if [ "$perf_ok" = 1 ]; then
  log "sampling the heap builds with perf"
  # Runtime functions: everything libmip_rt.a defines, and the clock and
  # CPU reads it makes per block.
  "$LLVM_DIR/bin/llvm-nm" --defined-only "$RT_LIB" 2>/dev/null |
    awk 'NF == 3 && $2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$HB/perf/runtime-functions"
  perf_run() { perf record -q -F 2999 -o "$PERF_DIR/perf.$RANDOM$RANDOM.data" "$@"; }
  for p in $PROGRAMS; do
    for c in plain heap; do
      PERF_DIR=$HB/perf/$p.$c
      rm -rf "$PERF_DIR" && mkdir -p "$PERF_DIR/run"
      MIP_PROFILE_FILE=$PERF_DIR/run/mip.%p.mipraw \
        run "$p" "$c" "$PERF_DIR/run" "$PERF_DIR/run/out" perf_run 2>"$PERF_DIR/log" ||
        { tail -n 20 "$PERF_DIR/log" >&2; die "$p/$c: workload under perf failed (log: $PERF_DIR/log)"; }
      for f in "$PERF_DIR"/perf.*.data; do
        perf report -i "$f" --stdio --no-children -n --sort sym -g none 2>/dev/null
      done | awk '/^ *[0-9.]+%/ { n = $2; $1 = $2 = $3 = ""; sub(/^ +/, ""); s[$0] += n }
        END { for (f in s) printf "%d\t%s\n", s[f], f }' | sort -rn >"$PERF_DIR/symbols.tsv"
    done
  done
fi

# ---- 5. and 6. the comparisons ------------------------------------------------
log "DHAT and MemProf comparisons ($JOBS at a time; DHAT is slow)"
for p in $PROGRAMS; do echo "$p"; done |
  xargs -P "$JOBS" -n 1 "$HERE/truth.sh" || die "a comparison with DHAT failed (see above)"
for p in $PROGRAMS; do "$HERE/access.sh" "$p"; done

# calib.c, built with both, one run each
C=$HB/calib
"$MIPCC" -fmip-generate=heap -O2 -g -fno-optimize-sibling-calls "$HERE/calib.c" -o "$C/calib-heap"
"$CLANG" -O2 -g -fmemory-profile -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
  -fno-optimize-sibling-calls "$HERE/calib.c" -o "$C/calib-memprof"
MIP_PROFILE_FILE=$C/calib.mipraw "$C/calib-heap"
MEMPROF_OPTIONS=log_path=$C/memprof.profraw "$C/calib-memprof"
"$MIPDATA" extract "$C/calib-heap" -o "$C/calib.mipmap" >/dev/null
"$MIPDATA" create -p "$C/calib.mip" "$C/calib.mipmap"
"$MIPDATA" merge -p "$C/calib.mip" --debug "$C/calib-heap" "$C/calib.mipraw"
"$MIPDATA" show -p "$C/calib.mip" --heap --format json |
  jq -r '.heap[] | [.frames[0].function, .AllocCount, .TotalAccessCount] | @tsv' >"$C/mip.tsv"
"$PROFDATA" show --memory "$C"/memprof.profraw.* --profiled-binary="$C/calib-memprof" |
  awk -f "$HERE/memprof.awk" | awk -F'\t' -v OFS='\t' '{ split($1, f, ":"); print f[1], $2, $4 }' >"$C/memprof.tsv"

# ---- 7. report ----------------------------------------------------------------
elapsed=$(($(date +%s) - start))
PROGRAMS="$PROGRAMS" RUNS=$RUNS JOBS=$JOBS PERF_OK=$perf_ok SWEEP_OK=$sweep_ok \
  BASELINE=${BENCH_HEAP_BASELINE:-} \
  "$HERE/report.sh" "$elapsed" | tee "$REPORT"
log "tables written to $REPORT (raw numbers: $HB)"
