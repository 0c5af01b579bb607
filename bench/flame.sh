#!/bin/sh
# make bench-flame: the flame graph page of a heap profile of 100,000
# contexts (bench/README.md, "Flame graphs"). A generated program calls
# 40 allocating functions through 50 x 50 others, so that every one of
# its 50 x 50 x 40 call paths is a context of its own, with block sizes
# from 10 MB down to 100 bytes (a few large contexts, many small ones, as
# real heaps have). Measured: the time mipdata takes to write the page
# (best of BENCH_FLAME_RUNS), its size, and, in headless Chromium, the
# time from navigation to the graph's first paint; with frames merged as
# by default, and with none merged (--merge-below 0). Targets: 2 s, 10 MB,
# 2 s. Writes build/bench/flame.md.
#   BUILD=build MIPCC=... MIPDATA=... bench/flame.sh
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
BUILD=$(cd "${BUILD:-$ROOT/build}" && pwd)
MIPCC=${MIPCC:-$BUILD/bin/mipcc}
MIPDATA=${MIPDATA:-$BUILD/bin/mipdata}
RUNS=${BENCH_FLAME_RUNS:-3}
OUT=$BUILD/bench/flame
mkdir -p "$OUT"
cd "$OUT"

NF=50 NG=50 NH=40
# ---- the program
{
  echo '#include <stdlib.h>'
  echo 'void *volatile sink;'
  echo '#define KEEP __attribute__((noinline))'
  echo 'static size_t size_of(unsigned id) { return 100 + 10000000u / (id + 1); }'
  h=0
  while [ $h -lt $NH ]; do
    echo "KEEP void h$h(unsigned id) { void *p = malloc(size_of(id)); sink = p; free(p); }"
    h=$((h + 1))
  done
  g=0
  while [ $g -lt $NG ]; do
    printf 'KEEP void g%d(unsigned id) {' $g
    h=0
    while [ $h -lt $NH ]; do printf ' h%d(id * %d + %d);' $h $NH $h; h=$((h + 1)); done
    echo ' }'
    g=$((g + 1))
  done
  f=0
  while [ $f -lt $NF ]; do
    printf 'KEEP void f%d(unsigned id) {' $f
    g=0
    while [ $g -lt $NG ]; do printf ' g%d(id * %d + %d);' $g $NG $g; g=$((g + 1)); done
    echo ' }'
    f=$((f + 1))
  done
  printf 'int main(void) {'
  f=0
  while [ $f -lt $NF ]; do printf ' f%d(%d);' $f $f; f=$((f + 1)); done
  echo ' return 0; }'
} >many.c
"$MIPCC" -fmip-generate=heap -O1 -g -fno-optimize-sibling-calls many.c -o many
rm -f many.mipraw many.mip
MIP_PROFILE_FILE=many.mipraw ./many
"$MIPDATA" extract many -o many.mipmap >/dev/null
"$MIPDATA" create -p many.mip many.mipmap
"$MIPDATA" merge -p many.mip --debug many many.mipraw
contexts=$("$MIPDATA" show -p many.mip --heap --format json | jq '.heap | length')

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# best_ms ARGS...: the fastest of RUNS runs of mipdata flamegraph ARGS
best_ms() {
  best=
  i=0
  while [ $i -lt "$RUNS" ]; do
    start=$(now_ms)
    "$MIPDATA" flamegraph "$@" 2>/dev/null
    took=$(($(now_ms) - start))
    if [ -z "$best" ] || [ "$took" -lt "$best" ]; then best=$took; fi
    i=$((i + 1))
  done
  echo "$best"
}

row() { # NAME PAGE ARGS...
  name=$1 page=$2
  shift 2
  ms=$(best_ms -p many.mip -o "$page" "$@")
  bytes=$(wc -c <"$page")
  paint=$(node "$HERE/flame_paint.js" "$page")
  printf '| %s | %s | %s ms | %s MB | %s |\n' "$name" "$contexts" "$ms" \
    "$(echo "$bytes" | awk '{ printf "%.2f", $1 / 1e6 }')" "$paint"
}

{
  echo "# Flame graph of $contexts contexts"
  echo
  echo "mipdata flamegraph, best of $RUNS; first paint in headless Chromium"
  echo "($(chromium --version 2>/dev/null | head -1)). Targets: 2 s, 10 MB, 2 s."
  echo
  echo "| page | contexts | generated in | size | in the browser |"
  echo "| --- | --- | --- | --- | --- |"
  row "small frames merged (default)" merged.html
  row "nothing merged (--merge-below 0)" whole.html --merge-below 0
  row "differential against itself" diff.html --base many.mip
} | tee "$BUILD/bench/flame.md"
