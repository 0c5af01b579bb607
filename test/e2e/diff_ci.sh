#!/bin/sh
# mipdata diff where CI runs it: the base and the change checked out and
# built in two directories, as a CI job does (progs/diff_ci: a program
# that allocates through one wrapper, make, from four callers; version 2
# allocates twice as often in grows, leaks in leaks, no longer calls
# goes_away, and steady is as it was; three lines inserted at the top of
# its file move every line). The library's file is compiled as
# ../lib/wrap.c from programs/, so its debug information says
# CHECKOUT/programs/../lib/wrap.c.
#   1. the CI job of docs/mipdata.md ("In CI"), its script taken from the
#      page and run as it is: exit 3 on a failing condition, the markdown
#      in the job summary, rendered by cmark-gfm: each row names its
#      caller (grows, leaks, goes_away), steady is in no row, each row's
#      short stack under its table;
#   2. two directories match as one directory does: the same matched
#      share, the same numbers, the same rows; --match lines too; a
#      checkout built in a third directory matches the base's 100%;
#      flamegraph --base the same;
#   3. --path-map: a checkout whose lib/ moved to src/lib/ matches
#      nothing without it, as the one layout with it (relative and
#      absolute rules), the report naming each rule;
#   4. --wrapper names a function above the wrapper; two runs of one
#      build that took other paths: the warning says so;
#   5. no report or export shows a name with ".." or "." steps;
#   6. one library under two programs (progs/heap_images: an
#      instrumented libshelf.so under an instrumented and a plain app):
#      every context matches, and no warning.
#   test/e2e/diff_ci.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
PROG=$HERE/progs/diff_ci
DOCS=$HERE/../../docs/mipdata.md
make_tmp
cd "$TMP"
CHECK_LOG=$TMP/stderr
PATH=$BUILD/bin:$PATH
export PATH

# checkout DIR VERSION: the program's tree in DIR, at VERSION (2: the
# change, three lines inserted at the top of prog.c)
checkout() {
  mkdir -p "$1"
  cp -R "$PROG/." "$1/"
  if [ "$2" = 2 ]; then
    sed -i 's/^#define VERSION 1$/#define VERSION 2/' "$1/programs/prog.c"
    sed -i '1i /* three lines */\n/* inserted at */\n/* the top */' "$1/programs/prog.c"
  fi
}

# profile DIR NAME [MAKE ARGS...]: DIR's program built with heap
# profiling, run, and profiled into NAME.mip
profile() {
  dir=$1 name=$2
  shift 2
  make -s -C "$dir" CC="$MIPCC -fmip-generate=heap" "$@" >/dev/null
  (cd "$dir" && MIP_PROFILE_FILE="$dir/run.mipraw" ./prog)
  mip_profile --debug "$dir/prog" "$name.mip" "$dir/run.mipraw"
}

# ---- 1. the CI job, from docs/mipdata.md ---------------------------------
# The lines of the job's `run: |` after the page's ci-recipe mark, their
# indentation taken off.
awk '/<!-- ci-recipe -->/ { mark = 1 } mark && /^```$/ && on { exit }
     on { if (!indent) { match($0, /^ */); indent = RLENGTH }
          print substr($0, indent + 1) }
     mark && /run: \|$/ { on = 1 }' "$DOCS" >recipe.sh
check "the page's CI job has its script" grep -q 'mipdata diff base.mip pr.mip' recipe.sh
mkdir builds ci
checkout "$TMP/builds/base" 1
checkout "$TMP/builds/pr" 2
: >summary.md
set +e
(cd ci && CHECKOUTS=$TMP/builds GITHUB_STEP_SUMMARY=$TMP/summary.md sh -e ../recipe.sh) \
  >ci.out 2>ci.err
rc=$?
set -e
expect_eq "the CI job: exit 3 (a block live at exit)" "$rc" 3
expect_eq "the CI job: nothing on stderr but the runs' own" \
  "$(grep -c 'mipdata' ci.err || true)" 0
check "the job summary holds the report" sh -c "grep -q '^### mipdata diff: .*FAILED 1 of 2 conditions' summary.md"
cmark-gfm --unsafe -e table summary.md >summary.html
# site_cells LIST: the SITE cells of the table in the <details> whose
# summary starts with LIST
site_cells() {
  awk -v list="$1" 'index($0, "<summary>" list) { on = 1 } on && /<\/details>/ { exit }
    on && /<tr>/ { n = 0 } on && /<td/ && ++n == 6 {
      sub(/^ *<td>/, ""); sub(/<\/td> *$/, ""); print }' summary.html
}
# line PATTERN [SIDE]: the last line of SIDE's prog.c (pr) that has PATTERN
line() { grep -n "$1" "builds/${2:-pr}/programs/prog.c" | tail -n 1 | cut -d: -f1; }
WRAP_LINE=$(grep -n 'malloc(n)' "$PROG/lib/wrap.c" | cut -d: -f1)
expect_eq "markdown: the regression names its caller" \
  "$(site_cells Regressions)" "malloc in make ← grows (programs/prog.c:$(line 'free(make(GROW'))"
expect_eq "markdown: the new context names its caller" \
  "$(site_cells 'New contexts')" "malloc in make ← leaks (programs/prog.c:$(line 'kept = make'))"
expect_eq "markdown: the vanished context names its caller" \
  "$(site_cells 'Vanished contexts')" "malloc in make ← goes_away (programs/prog.c:$(line 'free(make(GONE' base))"
check "markdown: steady, unchanged, in no row" sh -c "! grep -q '<td>.*steady' summary.html"
check "markdown: each row's short stack under its table" \
  grep -q "<li>make (lib/wrap.c:$WRAP_LINE) ← leaks (programs/prog.c:$(line 'kept = make')) ← main (programs/prog.c:$(line '    leaks()'))" summary.html
check "markdown: the report names both roots" \
  grep -q "files by name relative to the build root (base $TMP/builds/base, new $TMP/builds/pr)" summary.html
check "markdown: and the wrapper it found" grep -q 'wrappers: make\.' summary.html

# ---- 2. two directories, one directory -------------------------------------
# The same two versions built one after the other in one directory.
checkout "$TMP/one" 1
profile "$TMP/one" one_base
rm -rf "$TMP/one" && checkout "$TMP/one" 2
profile "$TMP/one" one_pr
# what NAME.json says, files' roots left out, and lifetimes and the
# densities made of them (accesses a byte a second of lifetime): they are
# wall-clock milliseconds, which a busy machine stretches in one run only
summary() {
  jq -S 'del(.base, .new) | .heap.matching.files |= del(.base_root, .new_root)
    | walk(if type == "object" then del(.file?, .lifetime?, .density?) else . end)' "$1.json"
}
for match in lines source; do
  "$MIPDATA" diff --format json --match $match --min-bytes 0 ci/base.mip ci/pr.mip >two.json 2>two.err
  "$MIPDATA" diff --format json --match $match --min-bytes 0 one_base.mip one_pr.mip >one.json 2>one.err
  if [ "$(summary two)" = "$(summary one)" ]; then
    pass "--match $match: two directories as one: $(jq -c '[.heap.matching.matched_fraction, .heap.totals.bytes.delta, [.heap.regressions.contexts[].label]]' two.json)"
  else
    fail "--match $match: two directories differ from one: $(summary two >two.s; summary one >one.s; diff two.s one.s | head -20 | tr '\n' ' ')"
  fi
done
expect_eq "two directories: 2 of 3 contexts matched on each side" \
  "$(jq -r '.heap.matching | [.base.matched, .new.matched] | join(" ")' two.json)" "2 2"
# The base built again in a third directory: every line matches.
checkout "$TMP/elsewhere/base" 1
profile "$TMP/elsewhere/base" elsewhere
"$MIPDATA" diff --format json --match lines ci/base.mip elsewhere.mip >moved.json 2>moved.err
expect_eq "--match lines, the base in another directory: all matched, no warning" \
  "$(jq -r .heap.matching.matched_fraction moved.json) $(cat moved.err)" "1 "
# flamegraph --base: the same stacks match.
for pair in "ci/base.mip ci/pr.mip" "one_base.mip one_pr.mip"; do
  # shellcheck disable=SC2086 # a pair is two words
  set -- $pair
  "$MIPDATA" flamegraph -p "$2" --base "$1" -o "fg.html" 2>&1 | sed "s|$2|NEW|; s|$1|BASE|"
done >fg.txt
expect_eq "flamegraph --base: two directories as one" "$(sed -n 1p fg.txt)" "$(sed -n 2p fg.txt)"

# ---- 3. --path-map -------------------------------------------------------------
# The change with lib/ moved to src/lib/.
checkout "$TMP/moved" 2
mkdir "$TMP/moved/src" && mv "$TMP/moved/lib" "$TMP/moved/src/"
profile "$TMP/moved" moved LIB=src/lib
"$MIPDATA" diff --format json --min-bytes 0 ci/base.mip moved.mip >nomap.json 2>nomap.err
expect_eq "lib/ moved: nothing matches" "$(jq -r .heap.matching.matched_fraction nomap.json)" 0
check "... and the warning points to --path-map" grep -q 'path-map' nomap.err
"$MIPDATA" diff --format json --min-bytes 0 ci/base.mip ci/pr.mip >want.json
for rule in lib=src/lib "$TMP/builds/base/lib=$TMP/builds/base/src/lib"; do
  "$MIPDATA" diff --format json --min-bytes 0 --path-map "$rule" ci/base.mip moved.mip >map.json 2>map.err
  expect_eq "--path-map $rule: as the one layout" \
    "$(jq -c '[.heap.matching.matched_fraction, [.heap.regressions.contexts[] | .delta, .caller.function]]' map.json)" \
    "$(jq -c '[.heap.matching.matched_fraction, [.heap.regressions.contexts[] | .delta, .caller.function]]' want.json)"
  expect_eq "--path-map $rule: the report names the rule, one file renamed in base" \
    "$(jq -c '.heap.matching.files.path_maps[] | [.base_renamed, .new_renamed]' map.json)" "[1,0]"
done
check "--path-map: text says the rule" sh -c "'$MIPDATA' diff --path-map lib=src/lib ci/base.mip moved.mip | grep -q -- '--path-map lib=src/lib renamed 1 of base, 0 of new'"
set +e
"$MIPDATA" diff --path-map nothing ci/base.mip moved.mip >/dev/null 2>bad.err
rc=$?
set -e
expect_eq "--path-map without '=': a usage error" "$rc $(head -n 1 bad.err)" \
  "2 mipdata diff: --path-map 'nothing': expects OLD=NEW, OLD a file or directory name"

# ---- 4. --wrapper ----------------------------------------------------------------
"$MIPDATA" diff --format json --wrapper leaks ci/base.mip ci/pr.mip >wrapper.json
expect_eq "--wrapper leaks: the new row is named by leaks' caller" \
  "$(jq -r '.heap.new.contexts[0].label' wrapper.json)" "malloc in make ← main (programs/prog.c:$(line '    leaks()'))"

# Two runs of one build on other paths: the warning names that cause.
(cd builds/base && MIP_PROFILE_FILE=$TMP/other.mipraw ./prog other)
mip_profile --debug builds/base/prog other.mip other.mipraw
"$MIPDATA" diff ci/base.mip other.mip >/dev/null 2>other.err
check "one build on other paths: the warning says so" \
  grep -q 'only 0.0% of the heap contexts matched (0.0% of bytes), though both profiles are of one build (build-id [0-9a-f]*): the runs allocated on other paths' other.err

# ---- 5. names without steps ------------------------------------------------------
check "the debug information names the library's file with a '..' step" sh -c \
  "'$LLVM_BIN/llvm-dwarfdump' --debug-info builds/pr/prog | grep -q '\"../lib/wrap.c\"'"
: >outputs
for format in text markdown json; do
  "$MIPDATA" diff --format $format ci/base.mip ci/pr.mip >>outputs 2>&1 || true
done
for format in text json yaml; do
  "$MIPDATA" show -p ci/pr.mip --heap --format $format >>outputs
done
for format in dhat speedscope; do
  "$MIPDATA" export -p ci/pr.mip --format $format -o "export.$format" && cat "export.$format" >>outputs
done
"$MIPDATA" flamegraph -p ci/pr.mip -o flame.html 2>/dev/null && cat flame.html >>outputs
check "reports and exports name wrap.c" grep -q "$TMP/builds/pr/lib/wrap.c" outputs
expect_eq "no report or export shows a '..' or '.' step" \
  "$(grep -c -e '/\.\./' -e '/\./' -e '[( "]\./' outputs || true)" 0

# ---- 6. one library under two programs ---------------------------------------------
SRC=$HERE/progs/heap_images
FLAGS="-O2 -g -fno-optimize-sibling-calls"
mkdir -p lib/mip lib/plain
# shellcheck disable=SC2086 # FLAGS are words
"$MIPCC" $FLAGS -fmip-generate=heap -fPIC -shared "$SRC/shelf.c" "$SRC/label.c" -o lib/mip/libshelf.so
cp lib/mip/libshelf.so lib/plain/
# shellcheck disable=SC2086
"$MIPCC" $FLAGS -fmip-generate=heap -I"$SRC" "$SRC/main.c" "$SRC/notes.c" -Llib/mip -lshelf \
  -Wl,-rpath,'$ORIGIN' -o lib/mip/app
# shellcheck disable=SC2086
"$CLANG" $FLAGS -I"$SRC" "$SRC/main.c" "$SRC/notes.c" -Llib/plain -lshelf \
  -Wl,-rpath,'$ORIGIN' -o lib/plain/app
LIB_ID=$("$LLVM_BIN/llvm-readelf" -n lib/mip/libshelf.so | awk '/Build ID/ { print substr($3, 1, 16) }')
for host in mip plain; do
  (cd lib/$host && MIP_PROFILE_FILE=run.mipraw ./app 5 >out.txt)
  debug=
  [ $host = mip ] && debug="--debug lib/mip/app"
  mip_create lib/$host/libshelf.so lib/$host.mip
  # shellcheck disable=SC2086
  "$MIPDATA" merge -p lib/$host.mip --debug lib/$host/libshelf.so $debug "lib/$host/run.$LIB_ID.mipraw"
done
check "the instrumented host's frames are symbolized, the plain host's are not" sh -c \
  "'$MIPDATA' show -p lib/mip.mip --heap | grep -q 'main.c' && ! '$MIPDATA' show -p lib/plain.mip --heap | grep -q 'main.c'"
"$MIPDATA" diff --format json lib/mip.mip lib/plain.mip >lib.json 2>lib.err
expect_eq "one library under two programs: every context matched, no warning" \
  "$(jq -r '.heap.matching | [.matched_fraction, .files.image_frames_only] | join(" ")' lib.json) $(cat lib.err)" "1 true "
expect_eq "... and nothing changed" \
  "$(jq -r '[.heap.regressions.count, .heap.improvements.count, .heap.new.count, .heap.vanished.count] | join(" ")' lib.json)" "0 0 0 0"

finish
