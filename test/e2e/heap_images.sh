#!/bin/sh
# Heap profiles across images: a thin program over its shared library,
# both built with heap (progs/heap_images), against valgrind's DHAT.
#   1. each image's profile holds the contexts of its own allocation
#      sites, and their blocks and bytes per site are DHAT's;
#   2. merge with both binaries symbolizes every frame in either image
#      (the library's under the program's allocations and the program's
#      under the library's): the call stacks, function, file and line,
#      are DHAT's; frames in the other image name it, and with one
#      binary only, the other image's frames name their object alone;
#   3. show (text, JSON, YAML) and annotate print each frame's object, and
#      a rebuild of the library with its profile decides as annotate says;
#   4. under valgrind: the same profiles as natively;
#   5. a CMake Release build (no -g): one note per binary, and function
#      names from the symbol table;
#   6. show --heap's text of C++ names fits a terminal;
#   7. so do the tables of functions of show, annotate, diff and order,
#      their rows of short names as they were, and a table whose names all
#      fit a line is laid out as before.
#   test/e2e/heap_images.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
SRC=$HERE/progs/heap_images
make_tmp
cd "$TMP"
# DHAT reads DWARF 4 only; no tail calls, so both builds keep every frame.
FLAGS="-O2 -gdwarf-4 -fno-optimize-sibling-calls"
ROUNDS=5

# build DIR DRIVER FLAGS...: libshelf.so and app, linked with an rpath
build() {
  dir=$1 driver=$2
  shift 2
  mkdir -p "$dir"
  "$driver" $FLAGS "$@" -fPIC -shared "$SRC/shelf.c" "$SRC/label.c" \
    -o "$dir/libshelf.so"
  "$driver" $FLAGS "$@" -I"$SRC" "$SRC/main.c" "$SRC/notes.c" -L"$dir" \
    -lshelf -Wl,-rpath,'$ORIGIN' -o "$dir/app"
}
build mip "$MIPCC" -fmip-generate=heap
build plain "$CLANG"
LIB_ID=$("$LLVM_BIN/llvm-readelf" -n mip/libshelf.so | awk '/Build ID/ { print substr($3, 1, 16) }')

# profiles DIR RUN [--debug BINARY...]: fresh app.mip and libshelf.so.mip
# in DIR with the raw profiles RUN.mipraw and RUN.LIB_ID.mipraw merged,
# and their show --heap JSON (app.json, lib.json)
profiles() {
  dir=$1 run=$2
  shift 2
  for image in app libshelf.so; do
    mip_create "mip/$image" "$dir/$image.mip"
  done
  "$MIPDATA" merge -p "$dir/app.mip" -p "$dir/libshelf.so.mip" "$@" \
    "mip/$run.mipraw" "mip/$run.$LIB_ID.mipraw"
  mip_show "$dir/app.mip" --heap >"$dir/app.json"
  mip_show "$dir/libshelf.so.mip" --heap >"$dir/lib.json"
}

(cd mip && MIP_PROFILE_FILE=run.mipraw ./app $ROUNDS >out.txt)
plain/app $ROUNDS >plain.out
valgrind --tool=dhat --dhat-out-file=dhat.json plain/app $ROUNDS \
  >dhat.out 2>dhat.log
cmp -s mip/out.txt plain.out && cmp -s mip/out.txt dhat.out &&
  pass "the heap build prints what the plain build does: $(cat plain.out)" ||
  fail "outputs differ: $(cat mip/out.txt) / $(cat plain.out) / $(cat dhat.out)"
[ -f "mip/run.$LIB_ID.mipraw" ] && pass "two raw profiles: the program's and run.$LIB_ID.mipraw" ||
  fail "raw profiles: $(ls mip)"
mkdir both
profiles both run --debug mip/app --debug mip/libshelf.so 2>merge.err
[ ! -s merge.err ] && pass "merge with both binaries: nothing on stderr" ||
  fail "merge: $(cat merge.err)"

# ---- 1. each image's contexts, and DHAT's blocks and bytes ---------------

# site_files JSON: the distinct source files of its contexts' sites
site_files() {
  jq -r '.heap[] | if .site == null then "(none)" else .site.file | split("/") | last end' "$1" |
    sort -u | tr '\n' ' '
}
n_app=$(jq '.heap | length' both/app.json)
n_lib=$(jq '.heap | length' both/lib.json)
[ "$(site_files both/app.json)" = "main.c notes.c " ] && [ "$n_app" -ge 3 ] &&
  pass "the program's profile: its $n_app contexts, all of its own sites (main.c, notes.c)" ||
  fail "the program's profile: $n_app contexts, sites in $(site_files both/app.json)"
[ "$(site_files both/lib.json)" = "label.c shelf.c " ] && [ "$n_lib" -ge 4 ] &&
  pass "the library's profile: its $n_lib contexts, all of its own sites (shelf.c, label.c)" ||
  fail "the library's profile: $n_lib contexts, sites in $(site_files both/lib.json)"

mip_sites both/app.json both/lib.json >mip.sites
dhat_sites dhat.json "$SRC" >dhat.sites
n=$(wc -l <mip.sites)
if [ "$n" -ge 8 ] && cmp -s mip.sites dhat.sites; then
  pass "blocks and bytes equal DHAT's at all $n sites of both images:"
  sed 's/^/       /' mip.sites
else
  fail "sites differ from DHAT's (site blocks bytes; < DHAT, > MIP):"
  diff dhat.sites mip.sites | sed 's/^/     /'
fi

# ---- 2. symbolized across images, as DHAT's stacks -----------------------

# The frames in our sources, "function (file:line)" innermost first: of
# every context of MIP's profiles, and of every program point of DHAT
# (valgrind's own DWARF reader, inlined frames included).
ours=$(cd "$SRC" && ls | tr '\n' '|' | sed 's/|$//; s/\./\\./g')
jq -r --arg ours "^($ours)$" '.heap[] | [.frames[] | select(.file != null)
        | "\(.function) (\(.file | split("/") | last):\(.line))"
        | select(test("\\((" + $ours[1:-1] + "):[0-9]+\\)$"))] | join(" < ")' \
  both/app.json both/lib.json | sort -u >mip.stacks
jq -r --arg ours "($ours):[0-9]+\\)$" '.ftbl as $f | .pps[]
        | [.fs[] | $f[.] | select(test($ours))] | join(" < ")' dhat.json |
  sed 's/0x[0-9A-F]*: //g; s/(\([^()]*\/\)\([^()/]*:[0-9]*\))/(\2)/g' |
  sort -u >dhat.stacks.all
# DHAT's program points of libc's own allocations (printf's buffer) are
# under a line that calls no allocator: the stacks of MIP's sites only.
awk -F ' < ' 'NR == FNR { leaf[$1] = 1; next } $1 in leaf' mip.stacks \
  dhat.stacks.all >dhat.stacks
n=$(wc -l <mip.stacks)
if [ "$n" -ge 8 ] && cmp -s mip.stacks dhat.stacks; then
  pass "call stacks: DHAT's, frame by frame, in both images ($n stacks)"
else
  fail "call stacks differ from DHAT's (< DHAT, > MIP):"
  diff dhat.stacks mip.stacks | sed 's/^/     /'
fi
# Each frame in the other image names it.
jq -e '[.heap[].frames[] | select(.function == "main")] | length > 0 and
       all(.object == "[executable]" and .outside == false and .line > 0)' \
  both/lib.json >/dev/null &&
  pass "the library's profile: main's frames symbolized, in [executable]" ||
  fail "the library's profile: main's frames $(jq -c '[.heap[].frames[] | select(.function == "main")][0]' both/lib.json)"
jq -e '[.heap[].frames[] | select(.function == "shelf_add")] | length > 0 and
       all((.object | endswith("/libshelf.so")) and .outside == false and .line > 0)' \
  both/app.json >/dev/null &&
  pass "the program's profile: the library's frames symbolized, in libshelf.so" ||
  fail "the program's profile: shelf_add's frames $(jq -c '[.heap[].frames[] | select(.function == "shelf_add")][0]' both/app.json)"
jq -e '[.heap[] | .frames[0] as $f | .site.function == $f.function and
        .site.line == $f.line and .site.column == $f.column and $f.object == null]
       | length > 0 and all' both/lib.json >/dev/null &&
  pass "the library's contexts: each starts at its site's call, in the library" ||
  fail "the library's contexts do not start at their sites"

# With the library's binary only: the program's frames name their object.
"$MIPDATA" create -p one.mip both/libshelf.so.mipmap
"$MIPDATA" merge -p one.mip --debug mip/libshelf.so "mip/run.$LIB_ID.mipraw"
mip_show one.mip --heap >one.json
got=$(jq -c '[(.heap | length), ([.heap[].frames[] | select(.function == "[executable]")]
             | length > 0 and all(.outside and .object == "[executable]" and .file == null)),
             ([.heap[] | .site != null] | all)]' one.json)
[ "$got" = "[$n_lib,true,true]" ] &&
  pass "--debug libshelf.so alone: the library's contexts and sites; the program's frames name [executable]" ||
  fail "--debug libshelf.so alone: [contexts, frames, sites] $got"
rc=0
"$MIPDATA" merge -p both/app.mip --debug mip/libshelf.so mip/run.mipraw 2>merge1.err || rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l <merge1.err)" -eq 1 ] &&
  grep -q "^mipdata: mip/libshelf.so: build-id [0-9a-f]* does not match both/app.mip" merge1.err &&
  pass "the program's raw profile without the program's binary: refused, $(cat merge1.err)" ||
  fail "the program's raw profile without its binary: status $rc, $(cat merge1.err)"

# ---- 3. show and annotate name the object -----------------------------------

"$MIPDATA" show -p both/libshelf.so.mip --heap >lib.txt
"$MIPDATA" show -p both/app.mip --heap >app.txt
"$MIPDATA" show -p both/libshelf.so.mip --heap --format yaml >lib.yaml
grep -Eq '^    main +[^ ]*main\.c:[0-9]+:[0-9]+  \(in \[executable\]\)$' lib.txt &&
  grep -Eq '^    shelf_add +[^ ]*shelf\.c:[0-9]+:[0-9]+  \(in [^ ]*/libshelf\.so\)$' app.txt &&
  grep -q 'Object: "\[executable\]"' lib.yaml &&
  pass "show --heap: text and YAML name the object of the other image's frames" ||
  fail "show --heap: $(grep main lib.txt | head -1) / $(grep shelf_add app.txt | head -1)"
"$MIPDATA" annotate -p both/libshelf.so.mip >annotate.txt 2>/dev/null
"$MIPDATA" annotate -p both/libshelf.so.mip --format json >annotate.json 2>/dev/null
sites=$(jq '.allocations | length' annotate.json)
[ "$sites" -ge 4 ] && grep -q '(in \[executable\])' annotate.txt &&
  jq -e '[.allocations[].contexts[].frames[] | select(.function == "main") | .object]
         | length > 0 and all(. == "[executable]")' annotate.json >/dev/null &&
  pass "annotate the library's profile: its $sites sites, main's frames in [executable]" ||
  fail "annotate the library's profile: $sites sites"

# What a rebuild of the library with its profile decides is annotate's.
mkdir use
"$MIPCC" -fmip-use=both/libshelf.so.mip $FLAGS -fPIC -shared "$SRC/shelf.c" \
  "$SRC/label.c" -Rpass=mip -o use/libshelf.so 2>remarks.txt
hinted=$(grep -c 'remark: allocation hinted' remarks.txt || true)
want=$(jq '[.allocations[] | select(.class != "notcold")] | length' annotate.json)
[ "$hinted" = "$want" ] && ! grep -q 'warning' remarks.txt &&
  pass "-fmip-use=libshelf.so.mip: $hinted allocations hinted, as annotate says" ||
  fail "-fmip-use=libshelf.so.mip: $hinted hinted, annotate says $want: $(grep warning remarks.txt)"

# ---- 4. under valgrind ------------------------------------------------------------

contexts() {
  jq -c '.heap[] | [[.frames[] | [.function, .object]], .site.line, .AllocCount,
                    .TotalSize, .TotalAccessCount, .ReallocCount, .LiveAtExitCount]' "$1" | sort
}
rc=0
(cd mip && MIP_PROFILE_FILE=vg.mipraw valgrind --tool=none -q ./app $ROUNDS \
  >vg.out 2>vg.log) || rc=$?
if [ "$rc" -eq 0 ] && cmp -s mip/out.txt mip/vg.out; then
  mkdir vg
  profiles vg vg --debug mip/app --debug mip/libshelf.so
  for image in app lib; do
    contexts "both/$image.json" >"$image.contexts"
    contexts "vg/$image.json" >"$image.vg.contexts"
    expect_same_files 2 "$image.contexts" "$image.vg.contexts" \
      "under valgrind, $image: the same %n contexts, frames, blocks, bytes and accesses" \
      "under valgrind, $image: other contexts (< native, > valgrind)"
  done
else
  fail "the heap build with its heap library does not run under valgrind (status $rc):"
  tail -n 3 mip/vg.log | sed 's/^/     /'
fi

# ---- 5. CMake's Release build: no -g ---------------------------------------------

CC=$MIPCC cmake --no-warn-unused-cli -S "$SRC" -B release \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-fmip-generate=heap >cmake.log 2>&1
cmake --build release >>cmake.log 2>&1
if "$LLVM_BIN/llvm-readelf" -S release/shelves | grep -q '\.debug_info' &&
  ! "$LLVM_BIN/llvm-dwarfdump" --debug-info release/shelves | grep -q 'DW_AT_name.*main\.c'; then
  pass "CMake Release: no DWARF of the program's own (only the runtime's)"
else
  fail "CMake Release: not the build this test is about"
fi
(cd release && MIP_PROFILE_FILE=rel.mipraw ./shelves $ROUNDS >out.txt)
REL_ID=$("$LLVM_BIN/llvm-readelf" -n release/libshelf.so | awk '/Build ID/ { print substr($3, 1, 16) }')
for image in shelves libshelf.so; do
  mip_create "release/$image" "release/$image.mip"
done
rc=0
"$MIPDATA" merge -p release/shelves.mip -p release/libshelf.so.mip \
  --debug release/shelves --debug release/libshelf.so release/rel.mipraw \
  "release/rel.$REL_ID.mipraw" 2>release.err || rc=$?
note="note: no debug information for the program's code (built without -g): its frames get function names from the symbol table, without file, line or inlined calls"
[ "$rc" -eq 0 ] && [ "$(wc -l <release.err)" -eq 2 ] &&
  grep -qxF "mipdata: release/shelves: $note" release.err &&
  grep -qxF "mipdata: release/libshelf.so: $note" release.err &&
  pass "merge of the Release build: one note per binary" ||
  fail "merge of the Release build: status $rc, $(cat release.err)"
# Every frame of the program's code is a function of its binary (nm).
"$LLVM_BIN/llvm-nm" --defined-only release/shelves | awk '$2 ~ /[tT]/ { print $3 }' | sort -u >shelves.syms
"$LLVM_BIN/llvm-nm" --defined-only release/libshelf.so | awk '$2 ~ /[tT]/ { print $3 }' | sort -u >libshelf.syms
mip_show release/shelves.mip --heap >rel-app.json
mip_show release/libshelf.so.mip --heap >rel-lib.json
frames_of() { # JSON OBJECT: the functions of its frames in that object
  jq -r --arg o "$2" '.heap[].frames[] | select(.outside | not)
    | select((.object // "") | if $o == "" then . == "" else endswith($o) end) | .function' "$1"
}
{ frames_of rel-app.json ""; frames_of rel-lib.json "[executable]"; } | sort >exe.frames
{ frames_of rel-lib.json ""; frames_of rel-app.json "/libshelf.so"; } | sort >lib.frames
bad=$(sort -u exe.frames | comm -23 - shelves.syms; sort -u lib.frames | comm -23 - libshelf.syms)
n=$(cat exe.frames lib.frames | wc -l)
if [ "$n" -ge 10 ] && [ -z "$bad" ] && grep -qx main exe.frames && grep -qx label_make lib.frames &&
  jq -e '[.heap[].frames[] | select(.outside | not) | .file == null] | all' rel-lib.json >/dev/null; then
  pass "Release: all $n frames of the program's code name a function of its symbol table, no file"
else
  fail "Release: $n frames, not in the symbol table: $(echo "$bad" | tr '\n' ' ')"
fi
"$MIPDATA" show -p release/libshelf.so.mip --heap >rel-lib.txt
grep -Eq '^#1  .*, (malloc|calloc) in (label_make|shelf_new|label_counts)$' rel-lib.txt &&
  pass "Release: show --heap names the site's function: $(sed -n 's/.*, \([a-z]* in [a-z_]*\)$/\1/p' rel-lib.txt | head -1)" ||
  fail "Release: show --heap: $(grep '^#1' rel-lib.txt)"
rc=0
"$MIPDATA" show -p release/shelves.mip --debug release/shelves --format json \
  >rel-show.json 2>rel-show.err || rc=$?
[ "$rc" -eq 0 ] &&
  [ "$(cat rel-show.err)" = "mipdata: release/shelves: note: no debug information for the program's code (built without -g): its functions have no source locations" ] &&
  jq -e '[.functions[] | .file == null and .line == null] | all' rel-show.json >/dev/null &&
  pass "Release: show --debug says so once, and gives no locations" ||
  fail "Release: show --debug: status $rc, $(cat rel-show.err)"

# ---- 6. C++ names in show --heap's text -------------------------------------------

"$MIPCXX" -fmip-generate=heap -O2 -g "$HERE/progs/heap/stl.cpp" -o stl
MIP_PROFILE_FILE=stl.mipraw ./stl
"$MIPDATA" extract stl -o stl.mipmap >/dev/null
"$MIPDATA" create -p stl.mip stl.mipmap
"$MIPDATA" merge -p stl.mip --debug stl stl.mipraw
"$MIPDATA" show -p stl.mip --heap >stl.txt
"$MIPDATA" show -p stl.mip --heap --format json >stl.json
longest=$(jq '[.heap[].frames[].demangled | length] | max' stl.json)
# The locations start in one column, after at most 40 of names (a run of
# padding ends there); lines without a location fit 100 columns; no name
# loses a character.
late=$(awk 'match($0, /[^ ]   +[^ ]/) && RSTART + RLENGTH > 48' stl.txt | wc -l)
wide=$(grep -Ev ':[0-9]+:[0-9]+|\(another object\)|^#' stl.txt | awk 'length > 100' | wc -l)
tr -d ' \n' <stl.txt >stl.flat
lost=0
jq -r '.heap[].frames[].demangled' stl.json | tr -d ' ' | sort -u >stl.names
while read -r name; do
  grep -qF -- "$name" stl.flat || lost=$((lost + 1))
done <stl.names
[ "$longest" -gt 200 ] && [ "$late" -eq 0 ] && [ "$wide" -eq 0 ] && [ "$lost" -eq 0 ] &&
  pass "show --heap text: names up to $longest characters, locations in column 47, name lines within 100 columns, nothing lost" ||
  fail "show --heap text: longest name $longest, $late late locations, $wide wide lines, $lost names lost"

# ---- 7. C++ names in the tables of functions --------------------------------------

# names.cpp, built here (short locations), has a function whose name runs
# to thousands of characters beside short ones; two runs, two profiles.
mkdir names
cp "$HERE/progs/names/names.cpp" names/
(cd names && "$MIPCXX" -fmip-generate=counts,order,edges,heap -O2 -g names.cpp -o names &&
  MIP_PROFILE_FILE=a.mipraw ./names 2 >/dev/null && MIP_PROFILE_FILE=b.mipraw ./names 5 x >/dev/null)
for p in a b; do
  mip_create names/names "names/$p.mip"
  "$MIPDATA" merge -p "names/$p.mip" --debug names/names "names/$p.mipraw"
done
"$MIPDATA" show -p names/a.mip --debug names/names >names/show.txt
"$MIPDATA" show -p names/a.mip --debug names/names --covered >names/covered.txt
"$MIPDATA" show -p names/a.mip --debug names/names --uncovered >names/uncovered.txt
"$MIPDATA" show -p names/a.mip --debug names/names --format json >names/show.json
"$MIPDATA" annotate -p names/a.mip >names/annotate.full
"$MIPDATA" diff names/a.mip names/b.mip >names/diff.txt
"$MIPDATA" order -p names/b.mip --explain -o names/order.lld >names/order.txt
# annotate's table of functions (its site headings are sentences)
sed -n '/^DECISION /,/^$/p' names/annotate.full >names/annotate.txt
longest=$(jq '[.functions[].demangled | length] | max' names/show.json)
jq -r '.functions[].demangled' names/show.json | tr -d ' ' | sort -u >names/all.names
# wide TEXT: its lines wider than 100 columns that hold part of a C++ name
# (the others are locations: a long path alone in its column)
wide() { awk 'length > 100 && /std::/' "$1" | wc -l; }
# lost TEXT: names of names/all.names that TEXT, without its line breaks
# and indentation, does not hold whole
lost() {
  tr -d ' \n' <"$1" >"$1.flat"
  n=0
  while read -r name; do
    grep -qF -- "$name" "$1.flat" || n=$((n + 1))
  done <names/all.names
  echo "$n"
}
# The row of tally as the table lays it out: the columns as wide as their
# widest cell (from the JSON), the names' at most 40.
jq -r '.functions[] | [.demangled, .calls // "-", .order // "-", .file, .line] | @tsv' \
  names/show.json >names/rows.tsv
expected=$(awk -F'\t' '
  { calls[NR] = $2; order[NR] = $3 == "-" ? "-" : sprintf("%.1f", $3)
    if ($1 == "tally") t = NR }
  END {
    cw = 5; ow = 5
    for (i = 1; i <= NR; i++) {
      if (length(calls[i]) > cw) cw = length(calls[i])
      if (length(order[i]) > ow) ow = length(order[i])
    }
    
    printf "yes      %4s  %*s  %*s  %-40s  %s\n", "1/1", cw, calls[t], ow, order[t], "tally", loc
  }
  $1 == "tally" { loc = $4 ":" $5 }' names/rows.tsv)
for t in show covered uncovered annotate diff order; do
  w=$(wide "names/$t.txt")
  [ "$w" -eq 0 ] && pass "$t text: no line of a name wider than 100 columns" ||
    fail "$t text: $w lines of names wider than 100 columns"
done
l=$(lost names/show.txt)
[ "$longest" -gt 1000 ] && [ "$l" -eq 0 ] &&
  pass "show text: all names whole, the longest $longest characters" ||
  fail "show text: longest name $longest, $l names not whole"
grep -qxF -- "$expected" names/show.txt &&
  pass "show text: a short name's row as before: '$expected'" ||
  fail "show text: no row '$expected': $(grep ' tally ' names/show.txt)"
# Names that all fit a line keep their column as wide as the longest: a
# C static's cell in annotate, "NAME (static, UNIT)", with a long unit:
# 96 characters, whatever the length of $TMP (a line holds 100).
room=$((96 - ${#TMP} - 46))
[ "$room" -ge 8 ] || room=8
deep=names/$(printf '%s' a/unit/of/a/project/with/a/long/path/in/a/source/tree/of/many/levels |
  cut -c "1-$room" | sed 's:/*$::')
mkdir -p "$deep"
printf 'static int helper(int x) { return 2 * x; }\nint main(int c, char **v) { (void)v; return helper(c) - 2; }\n' \
  >"$deep/util.c"
(cd names && "$MIPCC" -fmip-generate=counts -O0 -g "$TMP/$deep/util.c" -o c-app &&
  MIP_PROFILE_FILE=c.mipraw ./c-app)
mip_profile --debug names/c-app names/c.mip names/c.mipraw >/dev/null
"$MIPDATA" annotate -p names/c.mip --debug names/c-app --all >names/c-annotate.txt
row="warm +1 +1/1  helper \(static, $TMP/$deep/util.c\)  +$TMP/$deep/util.c:1\$"
grep -qE -- "$row" names/c-annotate.txt &&
  pass "annotate text: a C static with a long unit on one line, as before" ||
  fail "annotate text: no one-line row for helper: $(cat names/c-annotate.txt)"

finish
