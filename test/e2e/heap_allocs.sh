#!/bin/sh
# -fmip-generate=heap-allocs: heap profiling without access counting, the
# build a sampled run (heap_sample) costs next to nothing in
# (docs/heap.md, "Allocations only"):
#   1. blocks and bytes per site equal valgrind's DHAT, as heap mode's do,
#      for a C program of three files and a C++ one; every context's
#      blocks, bytes, reallocations and blocks live at exit equal heap
#      mode's; the binary holds no shadow counter and no range call;
#   2. the profile says its accesses were not counted: show (text, JSON),
#      diff (notes, tables, conditions, --metric), flamegraph, the pprof
#      and speedscope exports; and it hints nothing (every context
#      notcold);
#   3. a sampled run of it: estimates, said so beside "not counted".
#   test/e2e/heap_allocs.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$TMP"
SRC=$HERE/progs/heap_truth
# As heap.sh: DWARF 4 for DHAT, no tail calls so both builds keep frames.
FLAGS="-O2 -gdwarf-4 -fno-optimize-sibling-calls"

# ---- 1. the truth ---------------------------------------------------------
C_SRCS="$SRC/main.c $SRC/store.c $SRC/suite.c"
# shellcheck disable=SC2086 # the sources are words
"$MIPCC" -fmip-generate=heap-allocs $FLAGS $C_SRCS -o allocs
# shellcheck disable=SC2086
"$MIPCC" -fmip-generate=heap $FLAGS $C_SRCS -o counted
# shellcheck disable=SC2086
"$CLANG" $FLAGS $C_SRCS -o plain
heap_run allocs 6
heap_run counted 6
./plain 6 >plain.out
check "heap-allocs: the program's output is the plain build's" cmp -s allocs.out plain.out

valgrind --tool=dhat --dhat-out-file=dhat.json ./plain 6 >dhat.out 2>dhat.log
expect_dhat_sites heap-allocs allocs.json dhat.json "$SRC"
expect_same_contexts heap-allocs "heap mode" counted.json heap-allocs allocs.json

"$MIPCXX" -fmip-generate=heap-allocs $FLAGS "$SRC/objects.cpp" -o objects
"$CLANGXX" $FLAGS "$SRC/objects.cpp" -o objects.plain
heap_run objects
valgrind --tool=dhat --dhat-out-file=objects.dhat.json ./objects.plain \
  >objects.dhat.out 2>objects.dhat.log
expect_dhat_sites "heap-allocs, C++" objects.json objects.dhat.json "$SRC"

# The shadow's offset (include/mip/arch.h) in the code: heap mode's
# counters use it, heap-allocs has none.
shadow_refs() { objdump -d --no-show-raw-insn "$1" | grep -c '0x7fff8000(' || true; }
check "heap mode's binary counts accesses (the check can fail)" \
  test "$(shadow_refs counted)" -gt 0
expect_eq "heap-allocs' binary has no shadow counter" "$(shadow_refs allocs)" 0
expect_eq "heap-allocs' binary calls no range counter" \
  "$(objdump -d allocs | grep -c 'call.*<__mip_heap_access_range' || true)" 0

# ---- 2. what each output says -----------------------------------------------
expect_eq "show JSON: three units counted no accesses" \
  "$(jq .heap_stats.uncounted_units allocs.json)" 3
expect_eq "show JSON: heap mode's counted them" \
  "$(jq .heap_stats.uncounted_units counted.json)" 0
expect_eq "show JSON: every access count 0" \
  "$(jq '[.heap[].TotalAccessCount] | add' allocs.json)" 0
"$MIPDATA" show -p allocs.mip --heap >allocs.txt
check "show: says accesses were not counted" \
  grep -q '^Accesses: not counted (3 units built with -fmip-generate=heap-allocs)' allocs.txt
check "show: no context has an access line" sh -c "! grep -q '^    accesses ' allocs.txt"
check "show: ... which heap mode's has (the check can fail)" sh -c \
  "'$MIPDATA' show -p counted.mip --heap | grep -q '^    accesses '"
# Thresholds under which every context of a counting build is cold: a
# build that counted nothing has no density to judge by, and hints none.
classes() {
  "$MIPDATA" annotate -p "$1" --format json --cold-min-lifetime 0 \
    --cold-max-density 1000000 2>"$1.annotate.err" |
    jq -c '[.. | objects | select(has("class")) | .class] | unique'
}
expect_eq "annotate: every context of heap mode's cold (the check can fail)" \
  "$(classes counted.mip)" '["cold"]'
expect_eq "annotate: every context of heap-allocs' notcold" \
  "$(classes allocs.mip)" '["notcold"]'
check "annotate: says why" grep -q \
  'allocs.mip: note: no access counts in this profile (built with -fmip-generate=heap-allocs): no allocation is hot or cold' \
  allocs.mip.annotate.err

"$MIPDATA" diff counted.mip allocs.mip >diff.txt 2>diff.err
expect_eq "diff: one note, of new" "$(cat diff.err)" \
  "mipdata: allocs.mip: note: new counted no accesses (heap-allocs): accesses and density are not compared"
check "diff: the heap line says it" \
  grep -q 'base exact, new accesses not counted (heap-allocs)' diff.txt
check "diff: no accesses or density row" sh -c \
  "! grep -q '^accesses\|^mean access density' diff.txt"
check "diff: ... which a diff of two counting builds has (the check can fail)" sh -c \
  "'$MIPDATA' diff counted.mip counted.mip 2>/dev/null | grep -q '^accesses'"
"$MIPDATA" diff --format json counted.mip allocs.mip >diff.json 2>/dev/null
expect_eq "diff JSON: accesses and density not measured, bytes measured" \
  "$(jq -c '[.heap.totals.accesses.measured, .heap.totals.density.measured, .heap.totals.bytes.measured, .heap.new_uncounted, (.heap.ratios | has("accesses"))]' diff.json)" \
  '[false,false,true,3,false]'
"$MIPDATA" diff --format json --fail-on 'accesses>1000' counted.mip allocs.mip \
  >gate.json 2>/dev/null
expect_eq "diff: a condition on accesses is not evaluated" "$?" 0
expect_eq "... and says why" "$(jq -r '.conditions[0].measured' gate.json)" \
  "not evaluated: a side counted no accesses (heap-allocs)"
set +e
"$MIPDATA" diff --metric accesses counted.mip allocs.mip >metric.out 2>metric.err
rc=$?
set -e
expect_eq "diff --metric accesses: one line naming the profile, no output" \
  "$rc $(tail -n 1 metric.err) $(wc -c <metric.out)" \
  "1 mipdata: allocs.mip: --metric accesses: no access counts in this profile (built with -fmip-generate=heap-allocs) 0"

"$MIPDATA" flamegraph -p allocs.mip -o flame.html
check "flamegraph: the title says it" grep -q 'accesses not counted (heap-allocs)' flame.html
check "flamegraph: accesses and density not offered" \
  grep -q '"key":"accesses","label":"accesses","unit":"accesses","mean":false,"scale":1,"factor":1,"measured":false' flame.html
set +e
"$MIPDATA" flamegraph -p allocs.mip --metric density -o flame2.html 2>flame2.err
rc=$?
set -e
expect_eq "flamegraph --metric density: one line, no file" \
  "$rc $(cat flame2.err) $(test -e flame2.html && echo written)" \
  "1 mipdata: allocs.mip: --metric density: no access counts in this profile (built with -fmip-generate=heap-allocs) "

"$MIPDATA" export -p allocs.mip --format pprof -o allocs.pb.gz
"$MIPDATA" export -p counted.mip --format pprof -o counted.pb.gz
types() { go tool pprof -raw "$1" 2>/dev/null | sed -n "/^Samples:/{n;p;q}"; }
expect_eq "pprof: no accesses sample type" "$(types allocs.pb.gz)" \
  "alloc_objects/count alloc_space/bytes[dflt] inuse_objects/count inuse_space/bytes"
expect_eq "pprof: heap mode's has it (the check can fail)" "$(types counted.pb.gz)" \
  "alloc_objects/count alloc_space/bytes[dflt] inuse_objects/count inuse_space/bytes accesses/count"
check "pprof: the comment says it" sh -c \
  "go tool pprof -comments allocs.pb.gz 2>/dev/null | grep -q 'accesses not counted (heap-allocs)'"
"$MIPDATA" export -p allocs.mip --format speedscope -o allocs.speedscope.json
expect_eq "speedscope: no accesses profile" \
  "$(jq -c '[.profiles[].name | select(test("access"))] | length' allocs.speedscope.json)" 0

# ---- 3. sampled ---------------------------------------------------------------
MIP_OPTIONS=heap_sample=4K:heap_sample_seed=1 MIP_PROFILE_FILE=sampled.mipraw \
  ./allocs 6 >sampled.out
mip_profile --debug allocs sampled.mip sampled.mipraw
"$MIPDATA" show -p sampled.mip --heap >sampled.txt
check "sampled heap-allocs run: both notes" sh -c \
  "grep -q '^Accesses: not counted' sampled.txt && grep -q '^Sampled: heap_sample=4096 ' sampled.txt"

# ---- mipcc ----------------------------------------------------------------------
# shellcheck disable=SC2086
"$MIPCC" -fmip-generate=heap,heap-allocs $FLAGS $C_SRCS -o both
check "heap and heap-allocs together: accesses counted" \
  test "$(shadow_refs both)" -gt 0

finish
