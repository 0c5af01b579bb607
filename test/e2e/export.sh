#!/bin/sh
# mipdata export, each format read by its real consumer, whose numbers
# must equal `mipdata show`'s: pprof by `go tool pprof`, DHAT's JSON by
# valgrind's own viewer (dh_view.html in headless Chromium), lcov by
# `lcov --summary` and genhtml, Cobertura by xmllint and the
# cobertura-parse package, speedscope by the schema the speedscope package
# ships, callgrind by callgrind_annotate. (No Debian package ships
# Cobertura's coverage-04.dtd, libcobertura-java's jars included, and
# gcovr reads no Cobertura: xmllint checks the XML is well-formed and
# its counts, cobertura-parse reads it as the CI services do.)
#   test/e2e/export.sh BUILD_DIR [MIPDATA]
# MIPDATA defaults to BUILD_DIR/bin/mipdata; the sanitizer pass gives a
# mipdata built with ASan and UBSan.
# The npm packages (ajv; speedscope; cobertura-parse) go into
# BUILD_DIR/npm, installed once. Chromium is driven by browser/cdp.js.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
if [ -n "${2:-}" ]; then MIPDATA=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
make_tmp
cd "$TMP"
SRC=$HERE/progs/export
NODE_MODULES=$BUILD/npm/node_modules
DH_VIEW=/usr/libexec/valgrind/dh_view.html
# go tool pprof, offline: no symbolization, its files kept here.
export HOME="$TMP" PPROF_TMPDIR="$TMP" GOFLAGS=-mod=mod GOTOOLCHAIN=local
CHECK_LOG=$TMP/check.log

NPM_PACKAGES="ajv@8 speedscope@1 cobertura-parse@1"
for p in $NPM_PACKAGES; do
  if [ ! -d "$NODE_MODULES/${p%@*}" ]; then
    mkdir -p "$BUILD/npm"
    # shellcheck disable=SC2086 # one word a package
    npm install --no-audit --no-fund --silent \
      --prefix "$BUILD/npm" $NPM_PACKAGES >npm.log 2>&1 || { cat npm.log; exit 1; }
    break
  fi
done

# ---- the program: C and C++ in two files, two runs, every mode export
# reads (heap, call counts, blocks, edges), with inlined frames.
MODES=heap,counts,blocks,edges
"$MIPCC" -fmip-generate=$MODES -O2 -g -c "$SRC/shapes.c" -o shapes.o
"$MIPCXX" -fmip-generate=$MODES -O2 -g "$SRC/main.cpp" shapes.o -o prog
mip_runs run ./prog 3 5
mip_profile --debug prog prog.mip run.1.mipraw run.2.mipraw
mip_profile --debug prog one.mip run.1.mipraw
mip_show prog.mip --debug prog >show.json
mip_show prog.mip --heap >heap.json
mip_show one.mip --heap >one-heap.json

export_as() { # FORMAT OUT [PROFILE]: mipdata export, with --debug prog
  "$MIPDATA" export -p "${3:-prog.mip}" --debug prog --format "$1" -o "$2"
}

# Totals per heap metric, as show gives them: "NAME VALUE" lines, in the
# names NAMES gives each MemInfoBlock field ("pprof" or "speedscope").
heap_totals() { # SHOW-HEAP-JSON NAMES
  jq -r --arg names "$2" '
    def total(f): [.heap[] | f] | add // 0;
    if $names == "pprof" then
      "accesses \(total(.TotalAccessCount))",
      "alloc_objects \(total(.AllocCount))", "alloc_space \(total(.TotalSize))",
      "inuse_objects \(total(.LiveAtExitCount))",
      "inuse_space \(total(.LiveAtExitSize))"
    else
      "accesses none \(total(.TotalAccessCount))",
      "allocations none \(total(.AllocCount))",
      "blocks live at exit none \(total(.LiveAtExitCount))",
      "bytes allocated bytes \(total(.TotalSize))",
      "bytes live at exit bytes \(total(.LiveAtExitSize))",
      "peak live bytes bytes \(total(.PeakLiveSize))"
    end' "$1"
}
calls_total() { jq '[.functions[].calls // 0] | add' show.json; }

# ---- pprof ------------------------------------------------------------
# `go tool pprof -raw [ARGS...] FILE`: every sample's values, summed per
# sample type (-diff_base's base samples count negative).
pprof_totals() {
  go tool pprof -raw -symbolize=none "$@" 2>>"$CHECK_LOG" | awk '
    /^Samples:/ { state = 1; next }
    state == 1 { n = split($0, names, " ")
                 for (i = 1; i <= n; i++) sub(/\/.*/, "", names[i])
                 state = 2; next }
    state == 2 && /^Locations/ { exit }
    state == 2 && /^ *-?[0-9]+( +-?[0-9]+)*: / {
      line = $0; sub(/:.*/, "", line)
      m = split(line, v, " ")
      for (i = 1; i <= m; i++) total[names[i]] += v[i] }
    END { for (k in total) print k, total[k] }' | sort
}
check "pprof: exports" export_as pprof prog.pb.gz
{ heap_totals heap.json pprof; echo "calls $(calls_total)"; } | sort >want.pprof
pprof_totals prog.pb.gz >got.pprof
if [ -s got.pprof ] && cmp -s got.pprof want.pprof; then
  pass "pprof: go tool pprof -raw's totals equal show's: $(tr '\n' ' ' <got.pprof)"
else
  fail "pprof: totals differ (< show, > pprof):"
  diff want.pprof got.pprof | sed 's/^/     /'
fi
# The comparison can fail: one run's export against two runs' totals.
export_as pprof one.pb.gz one.mip
pprof_totals one.pb.gz >got-one.pprof
if cmp -s got-one.pprof want.pprof; then
  fail "pprof: one run's totals equal two runs'"
else
  pass "pprof: one run's export does not match two runs' totals"
fi
# -diff_base: two runs' export against one run's gives, per sample type,
# the difference of show's totals.
{ heap_totals heap.json pprof; echo "calls $(calls_total)"; } | sort >two.totals
{ heap_totals one-heap.json pprof
  echo "calls $(mip_show one.mip | jq '[.functions[].calls] | add')"; } | sort >one.totals
join two.totals one.totals | awk '{ print $1, $2 - $3 }' >want.diff
pprof_totals -diff_base one.pb.gz prog.pb.gz >got.diff
if [ -s got.diff ] && cmp -s got.diff want.diff; then
  pass "pprof: -diff_base totals are the differences of show's: $(tr '\n' ' ' <got.diff)"
else
  fail "pprof: -diff_base totals differ (< show, > pprof):"
  diff want.diff got.diff | sed 's/^/     /'
fi
# ... and mipdata diff's deltas of the same two profiles, unscaled.
"$MIPDATA" diff one.mip prog.mip --normalize none --format json 2>>"$CHECK_LOG" |
  jq -r '.heap.totals | "accesses \(.accesses.delta)", "alloc_objects \(.allocs.delta)",
    "alloc_space \(.bytes.delta)", "inuse_objects \(.["live-count"].delta)",
    "inuse_space \(.["live-bytes"].delta)"' | sort >diff.deltas
grep -v '^calls ' got.diff >got.heap.diff
if [ -s diff.deltas ] && cmp -s diff.deltas got.heap.diff; then
  pass "pprof: -diff_base totals equal mipdata diff's deltas: $(tr '\n' ' ' <diff.deltas)"
else
  fail "pprof: -diff_base totals differ from mipdata diff's deltas (< diff, > pprof):"
  diff diff.deltas got.heap.diff | sed 's/^/     /'
fi
# -top names the functions show names, with their calls.
go tool pprof -top -symbolize=none -sample_index=calls prog.pb.gz \
  >top.txt 2>>"$CHECK_LOG"
jq -r '.functions[] | select(.calls > 0) | "\(.calls) \(.demangled)"' show.json |
  sort >want.top
awk '$1 ~ /^[0-9]+$/ && $2 ~ /%$/ { v = $1; $1 = $2 = $3 = $4 = $5 = ""
       sub(/^ +/, ""); print v, $0 }' top.txt | sort >got.top
if [ -s got.top ] && cmp -s got.top want.top; then
  pass "pprof: -top lists each function's calls as show does ($(wc -l <got.top) functions)"
else
  fail "pprof: -top differs from show's calls (< show, > pprof):"
  diff want.top got.top | sed 's/^/     /' | head -10
fi
# -traces: inlined frames marked "(inline)", the others not; as many as
# show's inlined frames of the contexts that allocated.
go tool pprof -traces -symbolize=none -sample_index=alloc_objects prog.pb.gz \
  >traces.txt 2>>"$CHECK_LOG"
want_inline=$(jq '[.heap[] | select(.AllocCount > 0) | .frames[] | select(.inlined)] | length' heap.json)
got_inline=$(grep -c ' (inline)$' traces.txt || true)
if [ "$want_inline" -gt 0 ] && [ "$got_inline" -eq "$want_inline" ] &&
  grep -q '^ *[0-9.kMB]* *points_new (inline)$' traces.txt &&
  grep -q '^ *shape_new$' traces.txt; then
  pass "pprof: -traces marks the $got_inline inlined frames (points_new in shape_new)"
else
  fail "pprof: -traces has $got_inline inlined frames, show $want_inline"
fi
# -raw: the locations' files and lines, and the mapping's build-id.
go tool pprof -raw -symbolize=none prog.pb.gz >raw.txt 2>>"$CHECK_LOG"
if grep -qF "points_new $SRC/shapes.c:10 " raw.txt &&
  grep -qF "shape_name $SRC/shapes.c:40 " raw.txt &&
  grep -q "$(jq -r .build_id show.json) \[FN\]\[FL\]\[LN\]\[IN\]$" raw.txt; then
  pass "pprof: functions with their files and lines, the mapping's build-id"
else
  fail "pprof: files, lines or build-id missing from -raw"
fi
# Frames of other objects (libc's, that called main) in a Mapping of
# their own, named by the object.
object=$(jq -r '[.heap[].frames[] | select(.object != null) | .object] | unique | .[0] // ""' heap.json)
if [ -n "$object" ] && grep -qF "M=2 $object " raw.txt &&
  grep -qF "2: 0x0/0x0/0x0 $object " raw.txt; then
  pass "pprof: $object's frames in a Mapping of their own"
else
  fail "pprof: no Mapping of its own for '$object'"
fi
# A profile with call counts and no heap data: a profile of calls alone.
"$MIPCC" -fmip-generate=counts -O2 -g -c "$SRC/shapes.c" -o counts-shapes.o
"$MIPCXX" -fmip-generate=counts -O2 -g "$SRC/main.cpp" counts-shapes.o -o counts
mip_runs counts ./counts 4
mip_profile counts counts.mip counts.1.mipraw
"$MIPDATA" export -p counts.mip --format pprof -o counts.pb.gz
got=$(pprof_totals counts.pb.gz | tr '\n' ' ')
want="calls $(mip_show counts.mip | jq '[.functions[].calls] | add') "
expect_eq "pprof: a counts-only profile is a profile of calls alone" "$got" "$want"
# Without blocks, a function's line is its declaration, hit in the runs
# that entered it: lcov's and Cobertura's readers count functions as
# lines.
"$MIPDATA" export -p counts.mip --debug counts --format lcov -o counts.info
"$MIPDATA" export -p counts.mip --debug counts --format cobertura -o counts.xml
want=$(mip_show counts.mip | jq -r '"\(.summary.covered) \(.summary.functions)"')
got=$(lcov --summary counts.info 2>&1 |
  sed -nE 's/^ *lines\.+: .*\(([0-9]+) of ([0-9]+) lines\)/\1 \2/p')
got="$got, $(node "$HERE/export/cobertura.mjs" "$NODE_MODULES" counts.xml 2>>"$CHECK_LOG" || true)"
expect_eq "lcov, cobertura: without blocks, one line a function (lcov; cobertura-parse)" \
  "$got" "$want, $want $want"
# Functions whose file no debug information names are left out, with a
# note: shapes.c built without -g.
"$MIPCC" -fmip-generate=counts -O2 -c "$SRC/shapes.c" -o nog-shapes.o
"$MIPCXX" -fmip-generate=counts -O2 -g "$SRC/main.cpp" nog-shapes.o -o nog
mip_runs nog ./nog 2
mip_profile nog nog.mip nog.1.mipraw
"$MIPDATA" export -p nog.mip --debug nog --format lcov -o nog.info 2>nog.err
nog_files=$(mip_show nog.mip --debug nog | jq '[.functions[] | select(.file == null)] | length')
if [ "$nog_files" -ge 4 ] && ! grep -q shape_ nog.info &&
  grep -qF "mipdata: nog.mip: note: $nog_files functions without a source file" nog.err &&
  lcov --summary nog.info >/dev/null 2>&1; then
  pass "lcov: the $nog_files functions without a file left out, with a note"
else
  fail "lcov: functions without a file ($nog_files): $(cat nog.err)"
fi
# A broken file is refused: pprof reads what it is given.
head -c 200 prog.pb.gz >cut.pb.gz
if go tool pprof -raw -symbolize=none cut.pb.gz >/dev/null 2>&1; then
  fail "pprof: a cut file was read"
else
  pass "pprof: a cut file is refused"
fi

# ---- DHAT -------------------------------------------------------------
dh_view() { node "$HERE/browser/dh_view.js" "$DH_VIEW" "$TMP/$1"; }
# "Total:     46,168 bytes (...) in 316 blocks (...)": BYTES BLOCKS
dh_total() { sed -E 's/,//g; s/^Total: +([0-9]+) bytes .* in ([0-9]+) blocks.*/\1 \2/'; }
check "dhat: exports" export_as dhat prog.dhat.json
want=$(jq '"\([.heap[].TotalSize] | add) \([.heap[].AllocCount] | add)"' -r heap.json)
if shown=$(dh_view prog.dhat.json 2>>"$CHECK_LOG") &&
  [ "$(echo "$shown" | dh_total)" = "$want" ]; then
  pass "dhat: dh_view.html loads it; its tree's total equals show's ($want: bytes blocks)"
else
  fail "dhat: dh_view shows '$shown', show says '$want' bytes blocks"
fi
jq '.pps[0] |= del(.tbk)' prog.dhat.json >broken.dhat.json
if dh_view broken.dhat.json >/dev/null 2>&1; then
  fail "dhat: the viewer took a PP without tbk"
else
  pass "dhat: the viewer refuses a PP without tbk (the check can fail)"
fi
check "dhat: ftbl[0] is [root], every frame in ftbl" jq -e \
  '.ftbl[0] == "[root]" and ([.pps[].fs[]] | max) < (.ftbl | length)' \
  prog.dhat.json >/dev/null

# ---- lcov and Cobertura ------------------------------------------------
# Ours: functions and covered ones from show, and the lines of blocks
# (each file and line once; hit when a block on it ran).
jq -r '[.functions[] | .file as $f | .blocks[] | select(.line > 0) |
        {k: "\($f):\(.line)", hit: (.covered_runs > 0)}] | group_by(.k) |
       "\(map(select(any(.[]; .hit))) | length) \(length)"' show.json >want.lines
read -r lines_hit lines_found <want.lines
functions=$(jq .summary.functions show.json)
functions_hit=$(jq .summary.covered show.json)
check "lcov: exports" export_as lcov prog.info
lcov --summary prog.info >lcov.txt 2>&1 || true
got=$(sed -nE 's/^ *lines\.+: .*\(([0-9]+) of ([0-9]+) lines\)/\1 \2/p' lcov.txt)
got="$got, $(sed -nE 's/^ *functions\.+: .*\(([0-9]+) of ([0-9]+) functions\)/\1 \2/p' lcov.txt)"
expect_eq "lcov: lcov --summary's lines and functions (hit, found) equal show's" \
  "$got" "$lines_hit $lines_found, $functions_hit $functions"
if [ "$lines_found" -gt "$lines_hit" ] && [ "$functions" -gt "$functions_hit" ]; then
  pass "lcov: the program has lines and a function no run covered"
else
  fail "lcov: every line and function covered: the check proves less"
fi
if genhtml --quiet --demangle-cpp -o html prog.info >genhtml.log 2>&1 &&
  grep -q "$lines_hit" html/index.html; then
  pass "lcov: genhtml makes its report"
else
  fail "lcov: genhtml: $(head -3 genhtml.log)"
fi
# Functions' hits: their calls.
awk -F'[:,]' '/^FNDA:/ { print $2 }' prog.info | sort -n >got.fnda
jq -r '.functions[] | .calls' show.json | sort -n >want.fnda
check "lcov: each function's FNDA is its calls" cmp -s got.fnda want.fnda
export_as lcov one.info one.mip
awk -F'[:,]' '/^FNDA:/ { print $2 }' one.info | sort -n >one.fnda
if cmp -s one.fnda want.fnda; then
  fail "lcov: one run's FNDA equal two runs' calls"
else
  pass "lcov: one run's FNDA differ from two runs' calls (the check can fail)"
fi

check "cobertura: exports" export_as cobertura prog.xml
check "cobertura: well-formed XML (xmllint)" xmllint --noout prog.xml
xpath() { xmllint --xpath "$1" prog.xml; }
got="$(xpath 'string(/coverage/@lines-covered)') $(xpath 'string(/coverage/@lines-valid)')"
got="$got $(xpath 'count(//class/lines/line[@hits > 0])') $(xpath 'count(//class/lines/line)')"
got="$got $(xpath 'count(//method)')"
expect_eq "cobertura: lines covered and valid (attributes, class lines) and methods equal show's" \
  "$got" "$lines_hit $lines_found $lines_hit $lines_found $functions"
got=$(node "$HERE/export/cobertura.mjs" "$NODE_MODULES" prog.xml 2>>"$CHECK_LOG" || true)
expect_eq "cobertura: cobertura-parse's functions and lines (hit, found) equal show's" \
  "$got" "$functions_hit $functions $lines_hit $lines_found"
# Each class's file, joined to the source "/", is the source file.
missing=0
for f in $(xpath '//class/@filename' | sed -E 's/^ *filename="([^"]*)"/\1/'); do
  [ -f "/$f" ] || missing=$((missing + 1))
done
expect_eq "cobertura: classes' files resolve under the source /" \
  "$missing missing of $(xpath 'count(//class)')" \
  "0 missing of $(jq '[.functions[].file] | unique | length' show.json)"
rate=$(xpath 'string(/coverage/@line-rate)')
expect_eq "cobertura: line-rate" "$(awk -v r="$rate" 'BEGIN { printf "%.4f", r }')" \
  "$(awk -v h="$lines_hit" -v f="$lines_found" 'BEGIN { printf "%.4f", h / f }')"

# ---- speedscope -------------------------------------------------------
check "speedscope: exports" export_as speedscope prog.speedscope.json
if node "$HERE/export/speedscope.mjs" "$NODE_MODULES" prog.speedscope.json \
  >speedscope.txt 2>>"$CHECK_LOG"; then
  pass "speedscope: valid against the speedscope package's schema"
else
  fail "speedscope: not valid: $(head -c 300 "$CHECK_LOG")"
fi
{ heap_totals heap.json speedscope; echo "calls none $(calls_total)"; } | sort >want.speedscope
tr '\t' ' ' <speedscope.txt | sort >got.speedscope
if cmp -s got.speedscope want.speedscope; then
  pass "speedscope: each profile's unit and total equal show's ($(wc -l <got.speedscope) profiles)"
else
  fail "speedscope: profiles differ (< show, > speedscope):"
  diff want.speedscope got.speedscope | sed 's/^/     /'
fi
jq '.profiles[0].unit = "allocations"' prog.speedscope.json >bad.speedscope.json
if node "$HERE/export/speedscope.mjs" "$NODE_MODULES" bad.speedscope.json >/dev/null 2>&1; then
  fail "speedscope: the schema took a unit it does not have"
else
  pass "speedscope: the schema refuses a unit it does not have (the check can fail)"
fi

# ---- callgrind --------------------------------------------------------
check "callgrind: exports" export_as callgrind callgrind.out.prog
callgrind_annotate --threshold=100 callgrind.out.prog >annotate.txt 2>&1 || true
got=$(sed -nE 's/^ *([0-9,]+) .*PROGRAM TOTALS/\1/p' annotate.txt | tr -d ,)
expect_eq "callgrind: callgrind_annotate's total equals show's calls" "$got" "$(calls_total)"
export_as callgrind callgrind.out.one one.mip
got_one=$(callgrind_annotate callgrind.out.one 2>&1 |
  sed -nE 's/^ *([0-9,]+) .*PROGRAM TOTALS/\1/p' | tr -d ,)
if [ -n "$got_one" ] && [ "$got_one" != "$(calls_total)" ]; then
  pass "callgrind: one run's total, $got_one, is not two runs' (the check can fail)"
else
  fail "callgrind: one run's total '$got_one' equals two runs'"
fi
jq -r '.functions[] | select(.calls > 0) | "\(.calls) \(.file):\(.demangled)"' show.json |
  sort >want.callgrind
# "101 (24.22%)  FILE:FUNCTION" under "Calls  file:function"
awk '/file:function/ { on = 1; next } on && /^-+$/ { next } on && NF == 0 { exit }
     on { print }' annotate.txt |
  sed -E 's/^ *([0-9,]+) +(\( *[0-9.]+%\) +)?/\1 /' |
  awk '{ n = $1; gsub(/,/, "", n); sub(/^[^ ]+ /, ""); if (n > 0) print n, $0 }' |
  sort >got.callgrind
if [ -s got.callgrind ] && cmp -s got.callgrind want.callgrind; then
  pass "callgrind: each function's calls, in its file, as show has them"
else
  fail "callgrind: functions differ (< show, > callgrind_annotate):"
  diff want.callgrind got.callgrind | sed 's/^/     /' | head -10
fi
edges=$(grep -c '^calls=' callgrind.out.prog || true)
want_edges=$(jq '[.edges[] | select(.caller != null)] | length' show.json)
if [ "$want_edges" -gt 0 ] && [ "$edges" -eq "$want_edges" ] &&
  callgrind_annotate --inclusive=yes callgrind.out.prog >inclusive.txt 2>&1 &&
  grep -q "$(calls_total) .*:main$" inclusive.txt; then
  pass "callgrind: $edges sampled edges as calls= lines; main's inclusive cost is every call"
else
  fail "callgrind: $edges calls= lines, show has $want_edges edges from MIP's code"
fi

# ---- folded stacks: flamegraph's writer, through export.
check "folded: exports" \
  "$MIPDATA" export -p prog.mip --format folded --metric allocs -o prog.folded
"$MIPDATA" flamegraph -p prog.mip --format folded --metric allocs >flame.folded
check "folded: the same lines as flamegraph --format folded" cmp -s prog.folded flame.folded
expect_eq "folded: the values add up to show's allocations" \
  "$(awk '{ n += $NF } END { print n + 0 }' prog.folded)" \
  "$(jq '[.heap[].AllocCount] | add' heap.json)"

expect_eq "folded --alloc c++: the values add up to show --heap --alloc c++'s" \
  "$("$MIPDATA" export -p prog.mip --format folded --metric bytes --alloc c++ |
     awk '{ n += $NF } END { print n + 0 }')" \
  "$(mip_show prog.mip --heap --alloc c++ | jq '[.heap[].TotalSize] | add')"

finish
