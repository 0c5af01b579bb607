#!/bin/bash
# bench/workload.sh PROG CONFIG MODE: runs PROG's workload once with the
# CONFIG binary (for mip-c and mip-co-c, mip's and mip-co's in continuous
# mode). Profiles go to the run's scratch directory.
#   input      only generates the inputs of both sizes
#   check      full size; prints the output's checksum
#   time       full size; prints the wall time in seconds
#   callgrind  callgrind size, under valgrind --tool=callgrind; prints the
#              output's checksum and the total instruction count (Ir),
#              and keeps them (file result) and the callgrind files in
#              build/bench/out/callgrind/PROG.CONFIG
set -eu
. "$(dirname "$0")/lib.sh"

prog=${1:?usage: workload.sh PROG CONFIG MODE}
config=${2:?usage: workload.sh PROG CONFIG MODE}
mode=${3:?usage: workload.sh PROG CONFIG MODE}
load_program "$prog"
bin=$BIN/$prog/$config
[ -x "$bin" ] || die "$prog/$config: no binary ($bin)"

scratch=$TMP/$prog.$config
rm -rf "$scratch" && mkdir -p "$scratch"
profile_env "$scratch" "$config"
n=$SIZE_FULL
[ "$mode" = callgrind ] && n=$SIZE_CG
input=$WORK/$prog
mkdir -p "$input"
if [ "$mode" = input ]; then
  prog_input "$input" "$SIZE_FULL" && prog_input "$input" "$SIZE_CG"
  exit
fi
prog_input "$input" "$n"

RUNNER=
case $mode in
  check)
    prog_run "$bin" "$input" "$n" "$scratch/out" "$scratch" ||
      die "$prog/$config: workload failed"
    cksum <"$scratch/out" | awk '{ print $1 "-" $2 }' ;;
  time)
    t0=$EPOCHREALTIME
    prog_run "$bin" "$input" "$n" "$scratch/out" "$scratch" ||
      die "$prog/$config: workload failed"
    t1=$EPOCHREALTIME
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", b - a }' ;;
  callgrind)
    cg=$OUT/callgrind/$prog.$config
    rm -rf "$cg" && mkdir -p "$cg"
    RUNNER="valgrind --tool=callgrind --log-file=$cg/valgrind.%p.log --callgrind-out-file=$cg/callgrind.out.%p"
    prog_run "$bin.nodebug" "$input" "$n" "$scratch/out" "$scratch" ||
      die "$prog/$config: workload under callgrind failed (logs: $cg)"
    sum=$(cksum <"$scratch/out" | awk '{ print $1 "-" $2 }')
    ir=$(awk '$1 == "totals:" || $1 == "summary:" { last[FILENAME] = $2 }
      END { for (f in last) t += last[f]; printf "%.0f\n", t }' "$cg"/callgrind.out.*)
    [ "$ir" -gt 0 ] || die "$prog/$config: callgrind counted nothing (logs: $cg)"
    echo "$sum $ir" | tee "$cg/result" ;;
  *) die "unknown mode '$mode'" ;;
esac
