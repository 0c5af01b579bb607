#!/bin/bash
# bench/use/pgo.sh: -fmip-use side by side with LLVM's PGO (`make
# bench-use-pgo`, bench/README.md "Profile use against LLVM's PGO"). For
# each program of `make bench`, from the same sources and flags (-O2):
#
#   plain      clang
#   mip-gen    mipcc -fmip-generate=counts,order,blocks,edges (profiled)
#   mip-use    mipcc -fmip-use=PROFILE
#   mip-noflow the same without the branch weights inferred from call-site
#              counts before inlining (-mllvm -mip-use-flow-weights=0):
#              entry counts and the profile summary only
#   mip-late   the same, with the profile used at the end of the pipeline
#              only (-mllvm -mip-use-entry-counts=0: no entry counts, no
#              profile summary), as -fmip-use was before it used the
#              profile before inlining
#   bc-gen     mipcc -fmip-generate=block-counts: edges counted before
#              inlining, on those each function's spanning tree leaves out
#   bc-use     mipcc -fmip-use with that profile: exact entry counts and
#              branch weights
#   fe-gen, fe-use   clang -fprofile-instr-generate, -fprofile-instr-use
#   ir-gen, ir-use   clang -fprofile-generate, -fprofile-use
#
# Every profile is trained on the full-size workload and every build
# measured on the callgrind-size one, another input (bench/programs):
# callgrind's instruction count (deterministic), cachegrind's I-cache
# misses (I1mr, LLi), .text bytes, and, with BENCH_PGO_RUNS > 0, CPU time
# of interleaved full-size runs (use/cputime.c). Prints a markdown table and
# writes it to build/bench/use-pgo.md; raw figures in
# build/bench/use-pgo/results.tsv. Variables: BENCH_PROGRAMS (default
# "sqlite3 lua bzip2"), BENCH_PGO_RUNS (default 0), BENCH_JOBS (cores).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

PROGRAMS=${BENCH_PROGRAMS:-$ALL_PROGRAMS}
RUNS=${BENCH_PGO_RUNS:-0}
JOBS=${BENCH_JOBS:-$(nproc)}
MIPDATA=$(abspath "${MIPDATA:-$BUILD/bin/mipdata}")
PROFDATA=$LLVM_DIR/bin/llvm-profdata
S=$B/use-pgo
REPORT=$B/use-pgo.md
GEN=-fmip-generate=counts,order,blocks,edges
MEASURED="plain mip-use mip-noflow mip-late bc-use fe-use ir-use"
INSTRUMENTED="mip-gen bc-gen fe-gen ir-gen"

for t in "$MIPCC" "$MIPDATA" "$PROFDATA"; do [ -x "$t" ] || die "$t missing"; done
mkdir -p "$S/obj" "$S/prof" "$SRC" "$BIN" "$WORK" "$TMP"
results=$S/results.tsv # PROG BUILD KEY VALUE
[ "${1:-}" = --cachegrind ] || : >"$results"
record() { printf '%s\t%s\t%s\t%s\n' "$@" >>"$results"; }
[ -x "$S/cputime" ] || "$CLANG" -O2 -Wall -Wextra -Werror "$BENCH_DIR/use/cputime.c" -o "$S/cputime"

# flags PROG BUILD: sets CMD, the compiler and its flags for BUILD
flags() {
  local prof=$S/prof/$1
  case $2 in
    plain) CMD=("$CLANG") ;;
    mip-gen) CMD=("$MIPCC" "$GEN") ;;
    mip-use) CMD=("$MIPCC" -fmip-use="$prof.mip") ;;
    mip-noflow) CMD=("$MIPCC" -fmip-use="$prof.mip" -mllvm -mip-use-flow-weights=0) ;;
    mip-late) CMD=("$MIPCC" -fmip-use="$prof.mip" -mllvm -mip-use-entry-counts=0) ;;
    bc-gen) CMD=("$MIPCC" -fmip-generate=block-counts) ;;
    bc-use) CMD=("$MIPCC" -fmip-use="$prof.bc.mip") ;;
    fe-gen) CMD=("$CLANG" -fprofile-instr-generate) ;;
    fe-use) CMD=("$CLANG" -fprofile-instr-use="$prof.fe.profdata") ;;
    ir-gen) CMD=("$CLANG" -fprofile-generate) ;;
    ir-use) CMD=("$CLANG" -fprofile-use="$prof.ir.profdata") ;;
  esac
}

# compile PROG BUILD SRC: kept while its command, source, profiles and (for
# MIP's builds) plugin are unchanged
compile() {
  local p=$1 b=$2 src=$3 obj dep
  load_program "$p"
  obj=$S/obj/$p/$b/$(basename "${src%.c}").o
  flags "$p" "$b"
  # shellcheck disable=SC2206 # PROG_CFLAGS is a list
  CMD+=(-O2 $PROG_CFLAGS -c "$src" -o "$obj")
  if [ -f "$obj" ] && [ "$(cat "$obj.cmd")" = "${CMD[*]}" ]; then
    local fresh=1 deps=("$PROG_DIR/$src")
    case $b in
      mip-*) deps+=("$PLUGIN" "$MIPCC" "$S/prof/$p.mip") ;;
      bc-*) deps+=("$PLUGIN" "$MIPCC" "$S/prof/$p.bc.mip") ;;
      fe-use) deps+=("$S/prof/$p.fe.profdata") ;;
      ir-use) deps+=("$S/prof/$p.ir.profdata") ;;
    esac
    for dep in "${deps[@]}"; do
      [ -e "$dep" ] && [ "$dep" -nt "$obj" ] && fresh=0
    done
    [ "$fresh" = 1 ] && return 0
  fi
  log "compiling $p/$b/$(basename "$src")"
  rm -f "$obj.cmd"
  (cd "$PROG_DIR" && "${CMD[@]}") >"$obj.log" 2>&1 ||
    { tail -n 20 "$obj.log" >&2; return 1; }
  printf '%s\n' "${CMD[*]}" >"$obj.cmd"
}

build() { # PROG BUILD: compiles and links BIN/PROG/pgo.BUILD
  local p=$1 b=$2 src objs=()
  load_program "$p"
  mkdir -p "$S/obj/$p/$b" "$BIN/$p"
  for src in $PROG_SRCS; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    compile "$p" "$b" "$src" &
    objs+=("$S/obj/$p/$b/$(basename "${src%.c}").o")
  done
  wait
  for src in "${objs[@]}"; do [ -f "$src.cmd" ] || die "compiling $p/$b failed"; done
  local newer=0
  for src in "${objs[@]}"; do [ "$src" -nt "$BIN/$p/pgo.$b.nodebug" ] && newer=1; done
  [ "$newer" = 1 ] || return 0 # kept: its measurements stay valid
  flags "$p" "$b"
  # shellcheck disable=SC2086
  "${CMD[@]}" -O2 "${objs[@]}" $PROG_LIBS -o "$BIN/$p/pgo.$b" ||
    die "linking $p/$b failed"
  "$STRIP" --strip-debug -o "$BIN/$p/pgo.$b.nodebug" "$BIN/$p/pgo.$b"
}

# train_mip PROG BUILD OUT: a MIP profile of BUILD, from the full-size
# workload, in OUT
train_mip() {
  local p=$1 b=$2 out=$3 d=$TMP/pgo-train.$1.$2
  rm -rf "$d" && mkdir -p "$d/raw"
  MIP_PROFILE_FILE=$d/raw/%p.mipraw RUNNER='' \
    prog_run "$BIN/$p/pgo.$b" "$WORK/$p" "$SIZE_FULL" "$d/out" "$d"
  "$MIPDATA" extract "$BIN/$p/pgo.$b" -o "$d/map" >/dev/null
  "$MIPDATA" create -p "$out" "$d/map"
  "$MIPDATA" merge -p "$out" "$d"/raw/*.mipraw >/dev/null
}

train() { # PROG: the four profiles, from the full-size workload
  local p=$1 d=$TMP/pgo-train.$1
  load_program "$p"
  rm -rf "$d" && mkdir -p "$d/fe" "$d/ir"
  "$BENCH_DIR/workload.sh" "$p" pgo.plain input
  train_mip "$p" mip-gen "$d/new.mip"
  train_mip "$p" bc-gen "$d/bc.mip"
  LLVM_PROFILE_FILE=$d/fe/%p.profraw RUNNER='' \
    prog_run "$BIN/$p/pgo.fe-gen" "$WORK/$p" "$SIZE_FULL" "$d/out" "$d"
  "$PROFDATA" merge -o "$d/fe.profdata" "$d"/fe/*.profraw
  LLVM_PROFILE_FILE=$d/ir/%p.profraw RUNNER='' \
    prog_run "$BIN/$p/pgo.ir-gen" "$WORK/$p" "$SIZE_FULL" "$d/out" "$d"
  "$PROFDATA" merge -o "$d/ir.profdata" "$d"/ir/*.profraw
  # Replaced only when changed, so that unchanged objects are kept.
  local f
  for f in new.mip:mip bc.mip:bc.mip fe.profdata:fe.profdata ir.profdata:ir.profdata; do
    cmp -s "$d/${f%%:*}" "$S/prof/$p.${f#*:}" || cp "$d/${f%%:*}" "$S/prof/$p.${f#*:}"
  done
}

cachegrind() { # PROG BUILD: I1 and LL instruction misses at callgrind size
  local p=$1 b=$2 d=$TMP/pgo-cg.$1.$2
  load_program "$p"
  rm -rf "$d" && mkdir -p "$d"
  RUNNER="valgrind --tool=cachegrind --cache-sim=yes --log-file=$d/log.%p --cachegrind-out-file=$d/cg.%p" \
    prog_run "$BIN/$p/pgo.$b.nodebug" "$WORK/$p" "$SIZE_CG" "$d/out" "$d" >/dev/null
  # events: Ir I1mr ILmr ...; summed over the workload's processes
  awk '/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i - 1 }
    /^summary:/ { i1 += $(col["I1mr"] + 1); ll += $(col["ILmr"] + 1) }
    END { printf "%d %d\n", i1, ll }' "$d"/cg.*
}

# bench/use/pgo.sh --cachegrind PROG BUILD: one cachegrind run (run in
# parallel by the script itself)
if [ "${1:-}" = --cachegrind ]; then
  cachegrind "$2" "$3"
  exit
fi

for p in $PROGRAMS; do
  load_program "$p"
  "$BENCH_DIR/fetch.sh" "$PKG"
  prog_prepare "$PROG_DIR"
  for b in plain mip-gen bc-gen fe-gen ir-gen; do build "$p" "$b"; done
  # Trained again only when an instrumented build changed.
  if [ "$BIN/$p/pgo.mip-gen" -nt "$S/prof/$p.mip" ] ||
    [ "$BIN/$p/pgo.bc-gen" -nt "$S/prof/$p.bc.mip" ] ||
    [ "$BIN/$p/pgo.fe-gen" -nt "$S/prof/$p.fe.profdata" ] ||
    [ "$BIN/$p/pgo.ir-gen" -nt "$S/prof/$p.ir.profdata" ]; then
    log "training $p"
    train "$p"
  fi
  for b in mip-use mip-noflow mip-late bc-use fe-use ir-use; do build "$p" "$b"; done
done

# stale PROG BUILD KIND: whether the binary is newer than its KIND result
stale() {
  local r=$S/$3/$1.$2
  [ "$3" = callgrind ] && r=$OUT/callgrind/$1.pgo.$2/result
  [ ! -s "$r" ] || [ "$BIN/$1/pgo.$2" -nt "$r" ]
}

log "callgrind and cachegrind ($JOBS at a time)"
for p in $PROGRAMS; do
  for b in $MEASURED $INSTRUMENTED; do
    if stale "$p" "$b" callgrind; then echo "$p pgo.$b callgrind"; fi
  done
done | xargs -r -P "$JOBS" -n 3 "$BENCH_DIR/workload.sh" >/dev/null
mkdir -p "$S/cachegrind"
for p in $PROGRAMS; do
  for b in $MEASURED; do
    if stale "$p" "$b" cachegrind; then echo "$p $b"; fi
  done
done | xargs -r -P "$JOBS" -n 2 bash -c '"$0" --cachegrind "$1" "$2" >"'"$S"'/cachegrind/$1.$2"' "$0"
for p in $PROGRAMS; do
  want=
  for b in $MEASURED $INSTRUMENTED; do
    read -r sum ir <"$OUT/callgrind/$p.pgo.$b/result"
    [ -z "$want" ] && want=$sum
    [ "$sum" = "$want" ] || die "$p/$b computes another output than $p/plain"
    record "$p" "$b" ir "$ir"
    record "$p" "$b" text "$("$SIZE" -A "$BIN/$p/pgo.$b" | awk '$1 == ".text" { print $2 }')"
  done
  for b in $MEASURED; do
    read -r i1 ll <"$S/cachegrind/$p.$b"
    record "$p" "$b" i1_misses "$i1"
    record "$p" "$b" ll_imisses "$ll"
  done
done

for r in $(seq 1 "$RUNS"); do
  log "timing round $r of $RUNS"
  for p in $PROGRAMS; do
    # shellcheck disable=SC2086
    for b in $(rotated "$r" $MEASURED); do
      m=$("$S/cputime" "$S/time.log" "$BENCH_DIR/workload.sh" "$p" "pgo.$b" time)
      record "$p" "$b" cpu "$(echo "$m" | awk '{ printf "%.4f\n", ($1 + $2) / 1e6 }')"
    done
  done
done

PROGRAMS=$PROGRAMS RUNS=$RUNS "$BENCH_DIR/use/pgo-report.sh" "$results" >"$REPORT"
cat "$REPORT"
