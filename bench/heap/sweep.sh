#!/bin/bash
# bench/heap/sweep.sh: the live-block sweep of `make bench-heap`
# (bench/README.md, "The live-block sweep"): what an allocation and its
# free cost heap mode's runtime as the number of live blocks grows.
#
# Builds bench/heap/sweep.c with mipcc -fmip-generate=heap (heap) and
# again linked with hooks-stub.o (stub: the same instrumented program, no
# runtime work per block), then runs every pattern (tree, churn, random)
# at every live count with both builds, round by round, each round
# starting with another build, each process through rusage (its peak
# resident size). Under callgrind, the instructions of the operations
# alone (--toggle-collect=phase) at two live counts. Writes, in
# build/bench/heap/sweep:
#   times.tsv         live pattern build round ops ns peak_rss_kib
#   instructions.tsv  live pattern build ops Ir
#
#   BENCH_HEAP_SWEEP_RUNS  rounds (default 3)
#   BENCH_HEAP_SWEEP_LIVE  live counts (default "1000 10000 100000
#                          1000000 10000000")
#   BENCH_HEAP_SWEEP_OPS   operations per run of churn and random, and
#                          at least per run of tree (default 2000000)
set -eu -o pipefail
. "$(dirname "$0")/../lib.sh"

RUNS=${BENCH_HEAP_SWEEP_RUNS:-3}
LIVE=${BENCH_HEAP_SWEEP_LIVE:-"1000 10000 100000 1000000 10000000"}
OPS=${BENCH_HEAP_SWEEP_OPS:-2000000}
CG_LIVE="1000 1000000"
CG_OPS=200000
PATTERNS="tree churn random"
for v in "$RUNS" "$OPS" $LIVE; do
  case $v in '' | *[!0-9]* | 0) die "BENCH_HEAP_SWEEP_RUNS, _LIVE and _OPS must be positive numbers, not '$v'" ;; esac
done
S=$B/heap/sweep
RUSAGE=$B/heap/rusage
STUB=$BIN/heap-hooks-stub.o
if [ ! -x "$RUSAGE" ] || [ ! -f "$STUB" ]; then
  die "$RUSAGE or $STUB missing (bench/heap/run.sh builds them)"
fi
rm -rf "$S" && mkdir -p "$S/run"

"$MIPCC" -fmip-generate=heap -O2 -g "$BENCH_DIR/heap/sweep.c" -o "$S/heap"
"$MIPCC" -fmip-generate=heap -O2 -g "$BENCH_DIR/heap/sweep.c" "$STUB" -o "$S/stub"
for c in heap stub; do "$STRIP" --strip-debug -o "$S/$c.nodebug" "$S/$c"; done

# ops PATTERN LIVE: the operations asked for (tree: whole rounds of LIVE)
ops() { if [ "$1" = tree ] && [ "$2" -gt "$OPS" ]; then echo "$2"; else echo "$OPS"; fi; }

export MIP_PROFILE_FILE=$S/run/sweep.mipraw
: >"$S/times.tsv"
for r in $(seq 1 "$RUNS"); do
  log "sweep: round $r of $RUNS"
  for n in $LIVE; do
    for p in $PATTERNS; do
      for c in $(rotated "$r" heap stub); do
        rm -f "$S/run/rusage"
        out=$("$RUSAGE" "$S/run/rusage" "$S/$c" "$p" "$n" "$(ops "$p" "$n")") ||
          die "sweep: $c $p $n failed"
        read -r _ _ made ns <<<"$out"
        rss=$(awk '{ print $2 }' "$S/run/rusage")
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$p" "$c" "$r" "$made" "$ns" "$rss" >>"$S/times.tsv"
      done
    done
  done
done

log "sweep: counting instructions with callgrind"
: >"$S/instructions.tsv"
for n in $CG_LIVE; do
  for p in $PATTERNS; do
    for c in heap stub; do
      o=$CG_OPS
      [ "$p" = tree ] && [ "$n" -gt "$o" ] && o=$n
      valgrind --tool=callgrind --toggle-collect=phase --callgrind-out-file="$S/run/callgrind.out" \
        "$S/$c.nodebug" "$p" "$n" "$o" >"$S/run/out" 2>"$S/run/log" ||
        { tail -n 20 "$S/run/log" >&2; die "sweep: $c $p $n failed under callgrind"; }
      ir=$(awk '$1 == "totals:" || $1 == "summary:" { t = $2 } END { print t + 0 }' "$S/run/callgrind.out")
      printf '%s\t%s\t%s\t%s\t%s\n' "$n" "$p" "$c" "$(awk '{ print $3 }' "$S/run/out")" "$ir" >>"$S/instructions.tsv"
    done
  done
done
rm -rf "$S/run"
