#!/bin/sh
# bench/pool/run.sh [BUILD_DIR]: what pool mode (MIP_PROFILE_FILE with
# %Nm, docs/runtime.md "Pooled profiles") costs at exit, against the plain
# write of a raw profile of one run. Three images made by gen.sh: a
# coverage image of BENCH_POOL_FUNCTIONS functions, the same built with
# `all` (counts, order, blocks, edges: its pooled file keeps one coverage
# pattern per distinct run), and a heap image of BENCH_POOL_SITES
# allocation contexts. Each runs BENCH_POOL_RUNS times, one process after
# the other, every run another run number (other functions entered):
#
#   plain  MIP_PROFILE_FILE=plain.mipraw, replaced by every run
#   pool   MIP_PROFILE_FILE=pool-%1m.mipraw: every run merged into one
#          file, which grows to BENCH_POOL_RUNS runs
#
# Each process times its own mip_dump() (the work of the exit-time write,
# called early), in microseconds; the table gives the median and the 90th
# percentile, and the size of the file at the end. Then one more run of
# each under callgrind counts the instructions of its mip_dump() (the
# pool's with BENCH_POOL_RUNS runs in the file), which, unlike the times,
# repeat exactly: the times include system calls and page faults, and on
# a shared machine move by tens of percent from one run to the next.
# Not a test. Writes build/bench/pool.md too.
#
#   BENCH_POOL_RUNS       processes per image and mode (default 100)
#   BENCH_POOL_FUNCTIONS  functions of the coverage images (default 5000)
#   BENCH_POOL_SITES      allocation sites of the heap image (default 1000)
set -eu
BUILD=$(cd "${1:-${BUILD:-build}}" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
MIPCC=$BUILD/bin/mipcc
INCLUDE=$HERE/../../include
RUNS=${BENCH_POOL_RUNS:-100}
FUNCTIONS=${BENCH_POOL_FUNCTIONS:-5000}
SITES=${BENCH_POOL_SITES:-1000}
OUT=$BUILD/bench/pool
rm -rf "$OUT"
mkdir -p "$OUT"
cd "$OUT"

# build NAME KIND N MODES: linked with pool mode's merge (-fmip-pool),
# which the pool runs use and the plain ones leave alone
build() {
  sh "$HERE/gen.sh" "$2" "$3" >"$1.c"
  "$MIPCC" "-fmip-generate=$4" -fmip-pool -O2 -I"$INCLUDE" "$1.c" -o "$1"
}
build cov cov "$FUNCTIONS" coverage
build all cov "$FUNCTIONS" all
build heap heap "$SITES" heap

# stats FILE: "median p90" of the times in FILE
stats() {
  sort -n "$1" | awk '{ t[NR] = $1 } END {
    printf "%.0f %.0f", t[int((NR + 1) / 2)], t[int(NR * 0.9 + 0.5)] }'
}

# measure IMAGE MODE: runs IMAGE RUNS times; "median p90 bytes"
measure() {
  image=$1 mode=$2
  mkdir -p "$mode-$image"
  : >"$mode-$image.times"
  i=1
  while [ "$i" -le "$RUNS" ]; do
    if [ "$mode" = plain ]; then
      MIP_OPTIONS=dump_at_exit=0 MIP_PROFILE_FILE="$mode-$image/plain.mipraw" \
        "./$image" "$i" >out.txt
    else
      MIP_PROFILE_FILE="$mode-$image/pool-%1m.mipraw" "./$image" "$i" >out.txt
    fi
    read -r rc _ us <out.txt
    [ "$rc" = 0 ] || { echo "$image $mode: mip_dump() failed" >&2; exit 1; }
    echo "$us" >>"$mode-$image.times"
    i=$((i + 1))
  done
  echo "$(stats "$mode-$image.times") $(cat "$mode-$image"/*.mipraw | wc -c)"
}

# instructions IMAGE MODE: of one more run's mip_dump(), under callgrind
instructions() {
  image=$1 mode=$2
  name="$mode-$image/plain.mipraw" options=dump_at_exit=0
  [ "$mode" = pool ] && name="$mode-$image/pool-%1m.mipraw" options=
  MIP_OPTIONS=$options MIP_PROFILE_FILE=$name valgrind --tool=callgrind \
    --callgrind-out-file=/dev/null --toggle-collect=mip_dump "./$image" 0 \
    2>&1 >/dev/null | sed -n 's/.*Collected : *//p; s/.*I *refs: *//p' | tr -d , | tail -n 1
}

{
  echo "Exit-time write, $RUNS processes one after the other (microseconds of mip_dump()):"
  echo
  echo "| image | plain: median | p90 | instructions | file bytes | pool: median | p90 | instructions | pooled file bytes |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for image in cov all heap; do
    set -- $(measure "$image" plain) $(instructions "$image" plain) \
      $(measure "$image" pool) $(instructions "$image" pool)
    case $image in
    cov) name="coverage, $FUNCTIONS functions" ;;
    all) name="all modes, $FUNCTIONS functions" ;;
    heap) name="heap, $SITES contexts" ;;
    esac
    echo "| $name | $1 | $2 | $4 | $3 | $5 | $6 | $8 | $7 |"
  done
} | tee "$BUILD/bench/pool.md"
