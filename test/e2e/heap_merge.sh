#!/bin/sh
# mipdata's heap side on real binaries:
#   1. mipdata symbolize against llvm-symbolizer at every instruction of
#      two C++ programs, with DWARF 4 and 5, GNU ld and lld, -O0 to -O3;
#   2. merge --debug and show --heap on raw heap payloads that
#      progs/heapraw writes for call stacks taken from the program's code
#      (the frames must be llvm-symbolizer's for return address - 1), and
#      merges that give the same bytes in any order; without heap data,
#      show --heap says why as the maps and raw profiles do (a build
#      without heap, a heap library whose code calls no allocator, a
#      heap program before its runs);
#   3. a real run of a heap-instrumented program: its contexts' first
#      frames are their sites' calls;
#   4. a file compiled as .//src/./alloc.cpp has one name in show --debug,
#      annotate --debug, heap sites and frames, and symbolize;
#   5. what merge and show refuse, one line each, nothing written.
#   test/e2e/heap_merge.sh BUILD_DIR [MIPDATA]
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
if [ -n "${2:-}" ]; then MIPDATA=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
SRC=$(cd "$HERE/../.." && pwd)
PROG=$HERE/progs/heap
OBJDUMP=$LLVM_BIN/llvm-objdump
SYMBOLIZER=$LLVM_BIN/llvm-symbolizer
make_tmp
cd "$TMP"

# ---- 1. the symbolizer ------------------------------------------------------

# blocks FILE: llvm-symbolizer's output, one line per address
blocks() { awk 'BEGIN { RS = "" } { gsub("\n", " | "); print }' "$1"; }

addresses=0
inlined=0
compare_symbolizer() { # BINARY LABEL
  "$OBJDUMP" -d --no-show-raw-insn "$1" |
    awk '/^ *[0-9a-f]+:/ { sub(":", "", $1); print "0x" $1 }' >addrs
  "$SYMBOLIZER" --obj="$1" --no-demangle <addrs >llvm.out
  "$MIPDATA" symbolize --debug "$1" <addrs >mip.out
  blocks llvm.out >llvm.lines
  blocks mip.out >mip.lines
  n=$(wc -l <addrs)
  paste -d '\t' addrs llvm.lines mip.lines | awk -F '\t' '$2 != $3' >mismatches
  if [ ! -s diff ] && [ "$(wc -l <mip.lines)" -eq "$n" ]; then
    pass "symbolize $2: $n addresses as llvm-symbolizer gives them"
  else
    fail "symbolize $2: $(wc -l <mismatches) of $n addresses differ"
    head -3 mismatches
  fi
  addresses=$((addresses + n))
  inlined=$((inlined + $(awk -F ' [|] ' 'NF > 2' mip.lines | wc -l)))
}

for opt in -O0 -O1 -O2 -O3; do
  for dwarf in 4 5; do
    for ld in bfd lld; do
      "$CLANGXX" $opt -gdwarf-$dwarf -fuse-ld=$ld "$PROG/alloc.cpp" -o sym
      compare_symbolizer sym "alloc.cpp $opt DWARF $dwarf $ld"
    done
  done
done
for opt in -O0 -O2; do
  for dwarf in 4 5; do
    for ld in bfd lld; do
      "$CLANGXX" $opt -gdwarf-$dwarf -fuse-ld=$ld "$PROG/stl.cpp" -o sym
      compare_symbolizer sym "stl.cpp $opt DWARF $dwarf $ld"
    done
  done
done
"$CLANGXX" -O2 -g -gz -ffunction-sections -Wl,--gc-sections "$PROG/stl.cpp" -o sym
compare_symbolizer sym "stl.cpp, compressed DWARF, --gc-sections"
echo "     ($addresses addresses, $inlined of them in inlined code)"

# ---- 2. merge --debug and show --heap --------------------------------------

"$CLANG" -std=c11 -D_GNU_SOURCE -I"$SRC/include" -I"$SRC/lib" \
  "$HERE/progs/heapraw/heapraw.c" "$SRC"/lib/*.c -o heapraw
"$MIPCXX" -fmip-generate -O2 -g "$PROG/alloc.cpp" -o prog
./prog >/dev/null
mip_create prog prog.mip
cp prog.mip empty.mip
build_id=$("$LLVM_BIN/llvm-readelf" -n prog | awk '/Build ID/ { print $3 }')

# ret FUNCTION CALLEE: the return address of FUNCTION's first call to CALLEE
ret() {
  "$OBJDUMP" -d --no-show-raw-insn prog | awk -v fn="<$1>:" -v callee="$2" '
    /^[0-9a-f]+ </ { in_fn = ($2 == fn) }
    found { sub(":", "", $1); print "0x" $1; exit }
    in_fn && /call/ && index($0, callee) { found = 1 }'
}
R_GROW_MALLOC=$(ret _ZN5store4growEm "<malloc@plt>")
R_FILL_CALLOC=$(ret _Z4filli "<calloc@plt>")
R_MAIN_GROW=$(ret main "<_ZN5store4growEm>")
R_MAIN_FILL=$(ret main "<_Z4filli>")
for r in R_GROW_MALLOC R_FILL_CALLOC R_MAIN_GROW R_MAIN_FILL; do
  eval "[ -n \"\$$r\" ]" || fail "no call found for $r"
done

BIAS=0x555555550000
LIBC=0x7f1200000000
rt() { printf '0x%x' $(($1 + BIAS)); }
spec() { # FIRST_COUNT: a run's payloads
  cat <<SPEC
segment $BIAS $((BIAS + 0x1000000)) $BIAS $build_id -
segment $LIBC $((LIBC + 0x200000)) $LIBC - /lib/x86_64-linux-gnu/libc.so.6
stack 1 0 $(rt "$R_GROW_MALLOC") $(rt "$R_MAIN_GROW") $((LIBC + 0x2a1ca)) 0x1234
stack 2 0 $(rt "$R_FILL_CALLOC") $(rt "$R_MAIN_FILL")
stack 3 1 $(rt "$R_FILL_CALLOC") $(rt "$R_MAIN_FILL") 0x4321
context 1 0 AllocCount=$1 TotalSize=$((50 * $1)) MinSize=34 MaxSize=66 AllocTimestamp=3 DeallocTimestamp=9 LiveAtExitCount=1 LiveAtExitSize=34 PeakLiveSize=66
context 2 0 AllocCount=5 TotalSize=40 MinSize=8 MaxSize=8 TotalAccessCount=10 DeallocTimestamp=$1
context 3 0 AllocCount=1 TotalSize=8 MinSize=8 MaxSize=8
stat 3 2
stat 5 1
stat 7 64
SPEC
}
spec 2 | ./heapraw default.mipraw heap1.mipraw
spec 3 | ./heapraw default.mipraw heap2.mipraw

if "$MIPDATA" merge -p prog.mip --debug prog heap1.mipraw 2>err; then
  pass "merge --debug takes a raw profile with heap data"
else
  fail "merge --debug: $(cat err)"
fi
mip_show prog.mip --heap >heap.json
# frames FILE INDEX: a context's frames as llvm-symbolizer prints them
frames() {
  jq -r "[.heap[$2].frames[] | if .outside then .function else
    \"\(.function) | \(.file):\(.line):\(.column)\" end] | join(\" | \")" "$1"
}
expect_frames() { # LABEL GOT RETURN_ADDRESS... [OBJECT...]
  label=$1 got=$2
  shift 2
  want=""
  for a in "$@"; do
    case $a in
    0x*) f=$("$SYMBOLIZER" --obj=prog --no-demangle "$(printf '0x%x' $((a - 1)))" | blocks /dev/stdin) ;;
    *) f=$a ;;
    esac
    want="${want:+$want | }$f"
  done
  if [ "$got" = "$want" ]; then
    pass "$label: $got"
  else
    fail "$label: got '$got', want '$want'"
  fi
}
expect_frames "largest context: inlined make() in grow(), main, libc, unknown" \
  "$(frames heap.json 0)" "$R_GROW_MALLOC" "$R_MAIN_GROW" \
  /lib/x86_64-linux-gnu/libc.so.6 "[unknown]"
expect_frames "calloc in alloc_n() in table() in fill(), main" \
  "$(frames heap.json 1)" "$R_FILL_CALLOC" "$R_MAIN_FILL"
[ "$(jq -r '[.heap[0].frames[] | .inlined] | map(tostring) | join(" ")' heap.json)" = "true false false false false" ] &&
  pass "make() is marked inlined, the rest are not" ||
  fail "inlined flags: $(jq -c '[.heap[0].frames[] | .inlined]' heap.json)"
[ "$(jq '[.heap[1].frames[] | select(.inlined)] | length' heap.json)" -ge 1 ] &&
  pass "alloc_n()/table() frames are marked inlined" ||
  fail "no inlined frame in fill()'s context"
[ "$(jq -c '[.heap[] | [.TotalSize, .AllocCount, .truncated]]' heap.json)" = '[[100,2,false],[40,5,false],[8,1,true]]' ] &&
  pass "three contexts, largest first, truncation kept" ||
  fail "contexts: $(jq -c '[.heap[] | [.TotalSize, .AllocCount, .truncated]]' heap.json)"
[ "$(jq -c '.heap_stats' heap.json)" = '{"unseen_frees":2,"freed_unseen":0,"truncated_stacks":1,"dropped":0,"stack_depth":64,"uninterposed_runs":0,"live_uninterposed":0,"unknown_lifetimes":0,"blocks":8,"sample_bytes":0,"recorded_blocks":8,"uncounted_units":0}' ] &&
  pass "heap statistics" || fail "heap_stats: $(jq -c .heap_stats heap.json)"
[ "$(jq -r '.heap[0].frames[0].demangled' heap.json)" = "store::make(unsigned long)" ] &&
  pass "frames are demangled too" ||
  fail "demangled: $(jq -r '.heap[0].frames[0].demangled' heap.json)"

mip_show prog.mip --heap --sort count >count.json
[ "$(jq -c '[.heap[] | .AllocCount]' count.json)" = '[5,2,1]' ] &&
  pass "--sort count" || fail "--sort count: $(jq -c '[.heap[] | .AllocCount]' count.json)"
"$MIPDATA" show -p prog.mip --heap --format yaml >heap.yaml
grep -q '^HeapProfileRecords:' heap.yaml && grep -q 'IsInlineFrame: true' heap.yaml &&
  grep -q '^ *MemInfoBlock:' heap.yaml && grep -q '^ *TotalLifetimeAccessDensity: ' heap.yaml &&
  pass "YAML in llvm-profdata's shape" || fail "YAML: $(head -30 heap.yaml)"
"$MIPDATA" show -p prog.mip --heap >heap.txt
grep -q '^#1  100 bytes in 2 allocations (34 to 66 bytes)$' heap.txt &&
  grep -q 'store::make(unsigned long) .*alloc.cpp:[0-9]*:[0-9]*  (inlined)$' heap.txt &&
  grep -q '^    ... (stack truncated)$' heap.txt &&
  pass "text: contexts with their frames" || fail "text: $(cat heap.txt)"
mip_show prog.mip >cov.json && [ "$(jq .runs cov.json)" = 1 ] &&
  pass "show without --heap still shows coverage" || fail "coverage show"

# the same runs in any order, raw or through profiles: the same bytes
cp empty.mip ab.mip
cp empty.mip ba.mip
cp empty.mip b.mip
"$MIPDATA" merge -p ab.mip --debug prog heap1.mipraw heap2.mipraw
"$MIPDATA" merge -p ba.mip --debug prog heap2.mipraw heap1.mipraw
"$MIPDATA" merge -p b.mip --debug prog heap2.mipraw
"$MIPDATA" merge -p b.mip prog.mip
cmp -s ab.mip ba.mip && cmp -s ab.mip b.mip &&
  pass "merging in any order gives the same bytes" ||
  fail "merge order changes the profile"
mip_show ab.mip --heap >ab.json
[ "$(jq -c '[.heap[] | [.AllocCount, .DeallocTimestamp]]' ab.json)" = '[[5,9],[10,3],[2,0]]' ] &&
  pass "contexts of two runs combine" ||
  fail "combined: $(jq -c '[.heap[] | [.AllocCount, .DeallocTimestamp]]' ab.json)"

"$MIPDATA" show -p empty.mip --heap >none.txt
mip_show empty.mip --heap >none.json
grep -q '^No heap data' none.txt && [ "$(jq -c '[.heap, .heap_stats]' none.json)" = '[null,null]' ] &&
  pass "show --heap without heap data says so" || fail "no heap data: $(cat none.txt)"

# Why there is no heap data is what the map and the runs say: prog's map
# has no heap site record (a build without heap); so has that of a heap
# library whose code calls no allocator, whose runs have no heap payload
# although its program's have, merged with --debug; a heap program's
# profile without runs has its sites and no run.
NO_SITE="No heap data: this image has no allocation site (built without -fmip-generate=heap, or its code calls no allocator)."
heap_sites() { dump_value "$1" '[.section.records[] | select(.name == "heap site")] | length'; }
payloads() { dump_value "$1" '[.sections[].name] | join(" ")'; }
printf 'int twice(int x) { return 2 * x; }\n' >twice.c
printf '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\nint twice(int);\nint main(int c, char **v) { char *p = strdup(v[0]); puts(p); free(p); return twice(c - 1); }\n' >usetwice.c
"$MIPCC" -fmip-generate=heap -O2 -g -fPIC -shared twice.c -o libtwice.so
"$MIPCC" -fmip-generate=heap -O2 -g usetwice.c -L. -ltwice -Wl,-rpath,'$ORIGIN' -o usetwice
mkdir twice-runs
MIP_PROFILE_FILE=twice-runs/%m.mipraw ./usetwice >/dev/null
mip_create libtwice.so libtwice.mip
mip_create usetwice usetwice.mip
"$MIPDATA" show -p usetwice.mip --heap | sed -n 2p >twice-none.txt
"$MIPDATA" merge -p usetwice.mip -p libtwice.mip --debug usetwice \
  --debug libtwice.so twice-runs/*.mipraw
"$MIPDATA" show -p libtwice.mip --heap | sed -n 2p >twice-lib.txt
lib_id=$("$LLVM_BIN/llvm-readelf" -n libtwice.so | awk '/Build ID/ { print substr($3, 1, 16) }')
expect_eq "the maps' heap sites: prog's, the library's, its program's" \
  "$(heap_sites prog.mipmap) $(heap_sites libtwice.mipmap) $(heap_sites usetwice.mipmap)" "0 0 2"
expect_eq "the library's run has no heap payload" "$(payloads "twice-runs/$lib_id.mipraw")" COV
expect_eq "show --heap of a build without heap" "$(sed -n 2p none.txt)" "$NO_SITE"
expect_eq "show --heap of a heap library whose code calls no allocator" \
  "$(cat twice-lib.txt)" "$NO_SITE"
expect_eq "show --heap of a heap program before its runs" "$(cat twice-none.txt)" \
  "No heap data: no run merged yet (merge its raw profiles with --debug BINARY)."
expect_eq "... and after: its contexts" \
  "$(mip_show usetwice.mip --heap | jq -c '[.heap[].site.allocator]')" '["strdup"]'

# ---- 3. a real run ----------------------------------------------------------------
# The runtime's stacks, the plugin's sites and the binary's DWARF must
# agree: each allocation's innermost frame is its site's call.
mip_build heap hprog -O2 -g "$PROG/alloc.cpp"
MIP_PROFILE_FILE=real.mipraw ./hprog >/dev/null
mip_profile --debug hprog hprog.mip real.mipraw
mip_show hprog.mip --heap >real.json
got=$(jq -c '[(.heap // [])[] | [.TotalSize, .site.allocator, .site.function == .frames[0].function,
  .site.line == .frames[0].line, .site.column == .frames[0].column, .frames[0].inlined]]' real.json)
want='[[34,"malloc",true,true,true,true],[8,"calloc",true,true,true,true]]'
[ "$got" = "$want" ] &&
  pass "a real run: each context's first frame is its site's call, inlined" ||
  fail "a real run: got $got, want $want"

# ---- 4. one name per file -----------------------------------------------------
# DWARF names the file of a unit compiled as .//src/./alloc.cpp with the
# "//" and "/./" the compiler was given (zstd's lib/Makefile compiles
# .//NAME.c); every output names the file that is there.
mkdir src
cp "$PROG/alloc.cpp" src/
"$MIPCXX" -fmip-generate=heap -O2 -g .//src/./alloc.cpp -o dotprog
MIP_PROFILE_FILE=dot.mipraw ./dotprog >/dev/null
"$MIPDATA" extract dotprog -o dot.mipmap >/dev/null
"$MIPDATA" create -p dot.mip dot.mipmap
"$MIPDATA" merge -p dot.mip --debug dotprog dot.mipraw
"$MIPDATA" show -p dot.mip --debug dotprog --format json >dot-show.json
"$MIPDATA" show -p dot.mip --heap --format json >dot-heap.json
"$MIPDATA" annotate -p dot.mip --debug dotprog --all --format json \
  >dot-annotate.json 2>/dev/null
main=$("$LLVM_BIN/llvm-nm" dotprog | awk '$3 == "main" { print "0x" $1 }')
"$MIPDATA" symbolize --debug dotprog "$main" >dot-symbolize.txt
expect_file() { # LABEL LIST: the names in LIST (one a line) are the file's
  got=$(sort -u "$2" | paste -sd ' ' -)
  if [ -f "$PWD/src/alloc.cpp" ] && [ "$got" = "$PWD/src/alloc.cpp" ]; then
    pass "$1 name the file as $got"
  else
    fail "$1 name $got, not $PWD/src/alloc.cpp"
  fi
}
jq -r '.functions[] | .file' dot-show.json >names
expect_file "show --debug's functions" names
jq -r '.heap[] | .site.file, (.frames[] | select(.outside | not) | .file)' \
  dot-heap.json >names
expect_file "show --heap's sites and frames" names
jq -r '.functions[].file, (.allocations[] | .file,
  (.contexts[].frames[] | select(.outside | not) | .file))' dot-annotate.json >names
expect_file "annotate --debug's functions, sites and frames" names
sed -n 's/:[0-9]*:[0-9]*$//p' dot-symbolize.txt >names
expect_file "symbolize's frames" names

# ---- 5. refusals ---------------------------------------------------------------

# refused NAME NEEDLE -- mipdata ARGS: exit 1, one line with NEEDLE,
# empty.mip untouched
refused() {
  name=$1 needle=$2
  shift 3
  cp empty.mip target.mip
  set +e
  "$MIPDATA" "$@" >out 2>err
  rc=$?
  set -e
  if [ "$rc" -ne 1 ] || [ "$(wc -l <err)" -ne 1 ] || ! grep -qF -- "$needle" err; then
    fail "$name: status $rc, stderr: $(cat err)"
  elif ! cmp -s empty.mip target.mip; then
    fail "$name: the profile changed"
  else
    pass "$name: $(cat err)"
  fi
}
"$CLANGXX" -O2 -g "$PROG/alloc.cpp" -o other
"$LLVM_BIN/llvm-strip" --strip-debug prog -o prog-nodebug
printf 'context 9 0 AllocCount=1\n' | ./heapraw default.mipraw nostack.mipraw
refused "heap data without --debug" "heap1.mipraw: has heap data: give the profiled binary with --debug" -- \
  merge -p target.mip heap1.mipraw
refused "--debug of another build" "other: build-id" -- \
  merge -p target.mip --debug other heap1.mipraw
refused "--debug without DWARF" "prog-nodebug: no debug information" -- \
  merge -p target.mip --debug prog-nodebug heap1.mipraw
refused "--debug that is not there" "absent: cannot open" -- \
  merge -p target.mip --debug absent heap1.mipraw
refused "a context whose stack is missing" "nostack.mipraw: corrupt raw profile: heap context 0 uses stack 9" -- \
  merge -p target.mip --debug prog nostack.mipraw
set +e
"$MIPDATA" show -p prog.mip --heap --covered >/dev/null 2>err
rc=$?
set -e
[ "$rc" -eq 2 ] && pass "show --heap --covered is a usage error" || fail "show --heap --covered: $rc"

finish
