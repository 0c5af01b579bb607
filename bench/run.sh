#!/bin/bash
# bench/run.sh: the MIP overhead benchmark (`make bench`). Fetches real
# programs from Debian source packages, builds each in six configurations
# (two of them also run in continuous mode), checks they all compute the
# same output, measures size, wall time and instruction count, and writes
# the tables to build/bench/results.md; then the AArch64 size tables
# (bench/aarch64.sh).
#
#   BENCH_PROGRAMS  programs to run (default: "sqlite3 lua bzip2")
#   BENCH_RUNS      timed runs per program and configuration (default 5)
#   BENCH_JOBS      parallel builds and callgrind runs (default: cores)
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"

PROGRAMS=${BENCH_PROGRAMS:-$ALL_PROGRAMS}
RUNS=${BENCH_RUNS:-5}
JOBS=${BENCH_JOBS:-$(nproc)}
case $RUNS in '' | *[!0-9]* | 0) die "BENCH_RUNS must be a positive number, not '$RUNS'" ;; esac
case $JOBS in '' | *[!0-9]* | 0) die "BENCH_JOBS must be a positive number, not '$JOBS'" ;; esac
for p in $PROGRAMS; do
  case " $ALL_PROGRAMS " in *" $p "*) ;; *) die "unknown program '$p' in BENCH_PROGRAMS (known: $ALL_PROGRAMS)" ;; esac
done
[ -n "$PROGRAMS" ] || die "BENCH_PROGRAMS is empty"

for tool in "$CLANG" "$READELF" "$SIZE" "$STRIP" valgrind callgrind_annotate awk cksum; do
  command -v "$tool" >/dev/null || die "$tool not found (scripts/install-deps bench installs what is missing)"
done
[ -f "$PLUGIN" ] || die "$PLUGIN missing (make $PLUGIN)"
[ -f "$RT_LIB" ] || die "$RT_LIB missing (make $RT_LIB)"

start=$(date +%s)
mkdir -p "$SRC" "$BIN" "$WORK" "$OUT" "$TMP"
rm -rf "${OUT:?}"/* "${TMP:?}"/*
results=$OUT/results.tsv
: >"$results"
record() { echo "$*" >>"$results"; } # PROG CONFIG KEY VALUE

mipcc_works || die "$MIPCC does not instrument a trivial program (see $TMP/mipcc-check)"

# Sources.
for p in $PROGRAMS; do
  load_program "$p"
  "$BENCH_DIR/fetch.sh" "$PKG"
  prog_prepare "$PROG_DIR"
done

# Binaries: every program in every configuration, plus the empty program
# plain and with MIP for the runtime's size.
"$CLANG" -O2 -c "$BENCH_DIR/sancov-rt.c" -o "$BIN/sancov-rt.o.tmp"
if ! cmp -s "$BIN/sancov-rt.o.tmp" "$BIN/sancov-rt.o"; then
  mv "$BIN/sancov-rt.o.tmp" "$BIN/sancov-rt.o"
fi
log "building ($JOBS at a time)"
{
  echo "empty plain"
  echo "empty mip"
  echo "empty mip-co"
  for p in $PROGRAMS; do for c in $CONFIGS; do
    echo "$p $c"
  done; done
} | xargs -P "$JOBS" -n 2 "$BENCH_DIR/build.sh" || die "a build failed (see above)"

# Sizes.
for p in empty $PROGRAMS; do
  for c in $CONFIGS; do
    if [ "$p" = empty ]; then
      case $c in plain | mip | mip-co) ;; *) continue ;; esac
    fi
    sizes=$("$BENCH_DIR/size.sh" "$p" "$c")
    read -r stripped text data bss funcs code counters counter_file <<<"$sizes"
    record "$p" "$c" stripped "$stripped"
    record "$p" "$c" text "$text"
    record "$p" "$c" data "$data"
    record "$p" "$c" bss "$bss"
    record "$p" "$c" funcs "$funcs"
    record "$p" "$c" code "$code"
    record "$p" "$c" counters "$counters"
    record "$p" "$c" counter_file "$counter_file"
  done
done

# Same output in every configuration (this also warms the caches).
for p in $PROGRAMS; do
  "$BENCH_DIR/workload.sh" "$p" plain input
  want=
  for c in $CONFIGS; do
    sum=$("$BENCH_DIR/workload.sh" "$p" "$c" check)
    record "$p" "$c" check "$sum"
    [ -z "$want" ] && want=$sum
    [ "$sum" = "$want" ] ||
      die "$p/$c computes a different output than $p/plain ($sum, not $want): see $TMP/$p.$c/out"
  done
  log "$p: same output in all configurations ($want)"
done

# Wall time: round by round, every configuration once per round, starting
# with a different one each round.
for r in $(seq 1 "$RUNS"); do
  log "timing run $r of $RUNS"
  for p in $PROGRAMS; do
    # shellcheck disable=SC2086 # one word per configuration
    for c in $(rotated "$r" $CONFIGS); do
      record "$p" "$c" time "$("$BENCH_DIR/workload.sh" "$p" "$c" time)"
    done
  done
done

# Instruction counts.
log "counting instructions with callgrind ($JOBS at a time)"
for p in $PROGRAMS; do for c in $CONFIGS; do echo "$p $c callgrind"; done; done |
  xargs -P "$JOBS" -n 3 "$BENCH_DIR/workload.sh" >/dev/null || die "a callgrind run failed (see above)"
for p in $PROGRAMS; do
  want=
  for c in $CONFIGS; do
    read -r sum ir <"$OUT/callgrind/$p.$c/result"
    record "$p" "$c" ir "$ir"
    [ -z "$want" ] && want=$sum
    [ "$sum" = "$want" ] || die "$p/$c computes a different output under callgrind than $p/plain"
  done
  "$BENCH_DIR/hotspots.sh" "$p" 5 >"$OUT/hotspots.$p.tsv"
done

elapsed=$(($(date +%s) - start))
"$BENCH_DIR/report.sh" "$results" "$elapsed" | tee "$B/results.md"
# AArch64: sizes only, cross-built (skipped, saying so, without the cross
# libraries).
"$BENCH_DIR/aarch64.sh" | tee -a "$B/results.md"
log "tables written to $B/results.md (raw numbers: $results)"
