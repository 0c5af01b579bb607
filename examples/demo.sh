#!/bin/sh
# The main job, end to end, on examples/wordstat: build instrumented, run
# twice, extract the map, create a profile, merge both runs, show it.
#   examples/demo.sh BUILD_DIR
set -eu
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$(dirname "$0")/wordstat" && pwd)
WORK=$BUILD/demo
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
PATH=$BUILD/bin:$PATH

step() {
  printf '\n$ %s\n' "$*"
  sh -c "$*"
}

step "mipcc -fmip-generate -O2 -g $SRC/main.c $SRC/count.c $SRC/report.c -o wordstat"
step "MIP_PROFILE_FILE=run1.mipraw ./wordstat < $SRC/main.c"
step "MIP_PROFILE_FILE=run2.mipraw ./wordstat --json < $SRC/count.c"
step "mipdata extract wordstat -o wordstat.mipmap"
step "mipdata create -p wordstat.mip wordstat.mipmap"
step "mipdata merge -p wordstat.mip run1.mipraw run2.mipraw"
step "mipdata show -p wordstat.mip --debug wordstat"
step "mipdata show -p wordstat.mip --uncovered --format json"
printf '\nFiles are in %s\n' "$WORK"
