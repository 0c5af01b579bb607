#!/bin/sh
# Names and paths that hold any byte, through every output of mipdata,
# each read by its real consumer (docs/mipdata.md#names-in-the-outputs).
# progs/hostile/hostile.c names its source files (#line) and functions
# (assembler labels) with newlines that would add lcov and callgrind
# records (one names /etc/passwd), carriage returns and pipes that would
# add markdown table rows, terminal escapes, "<!--<script>" and
# "</script>" that would stop the flame graph page's script, backticks and
# bytes that are not UTF-8; each function allocates and is counted, so
# that functions, heap frames and sites all carry them. Then
# progs/hostile/generated.cpp: the functions the compiler makes without a
# source line, which lcov and Cobertura leave out saying so.
#   test/e2e/hostile_names.sh BUILD_DIR [MIPDATA]
# MIPDATA defaults to BUILD_DIR/bin/mipdata; the sanitizer pass gives a
# mipdata built with ASan and UBSan.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
if [ -n "${2:-}" ]; then MIPDATA=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
make_tmp
cd "$TMP"
SRC=$HERE/progs/hostile
# go tool pprof, offline: no symbolization, its files kept here.
export HOME="$TMP" PPROF_TMPDIR="$TMP" GOFLAGS=-mod=mod GOTOOLCHAIN=local
CHECK_LOG=$TMP/check.log
holds() { jq -e "$@" >/dev/null; } # holds FILTER FILE: jq -e, quiet

for v in 1 2; do
  "$MIPCC" -fmip-generate=heap,counts,blocks -O1 -g -fno-optimize-sibling-calls \
    -DVERSION=$v "$SRC/hostile.c" -o v$v
  mip_runs v$v ./v$v ""
  mip_profile --debug v$v v$v.mip v$v.1.mipraw
done
mip_show v2.mip --debug v2 >show.json
mip_show v2.mip --heap >heap.json
files=$(jq '[.functions[].file] | unique | length' show.json)
functions=$(jq '.functions | length' show.json)
contexts=$(jq '.heap | length' heap.json)
check "the profile holds the names: a file with a newline, a function with ESC" \
  holds '(any(.functions[]; .file | test("\n"))) and
         (any(.functions[]; .demangled | test("\u001b")))' show.json

# ---- lcov: one record a file, none injected -----------------------------------
"$MIPDATA" export -p v2.mip --debug v2 --format lcov -o v2.info 2>>"$CHECK_LOG"
expect_eq "lcov: one record a source file (SF, end_of_record), none for /etc/passwd" \
  "$(grep -c '^SF:' v2.info) $(grep -c '^end_of_record$' v2.info) $(grep -c '^SF:/etc/passwd$' v2.info || true)" \
  "$files $files 0"
jq -r '[.functions[] | .file as $f | .blocks[] | select(.line > 0) |
        {k: "\($f):\(.line)", hit: (.covered_runs > 0)}] | group_by(.k) |
       "\(map(select(any(.[]; .hit))) | length) \(length)"' show.json >want.lines
lcov --summary v2.info >summary.txt 2>&1 || true
got=$(sed -nE 's/^ *lines\.+: .*\(([0-9]+) of ([0-9]+) lines\)/\1 \2/p' summary.txt)
got="$got, $(sed -nE 's/^ *functions\.+: .*\(([0-9]+) of ([0-9]+) functions\)/\1 \2/p' summary.txt)"
expect_eq "lcov --summary: lines and functions (hit, found) are show's" \
  "$got" "$(cat want.lines), $(jq .summary.covered show.json) $functions"
# The sources do not exist under their names: genhtml writes their pages
# without the text. A record it read as /etc/passwd would show that file.
genhtml --quiet --ignore-errors source -o html v2.info >genhtml.log 2>&1 || true
pages=$(find html -name '*.gcov.html' | wc -l)
if [ "$pages" -eq "$files" ] && [ ! -e html/etc ] &&
  ! grep -rqF "$(head -1 /etc/passwd)" html; then
  pass "genhtml: $pages source pages, one a file, none of /etc/passwd"
else
  fail "genhtml: $pages source pages for $files files, or a page of /etc/passwd"
fi

# ---- Cobertura: XML 1.0, every class and method ------------------------------
"$MIPDATA" export -p v2.mip --debug v2 --format cobertura -o v2.xml 2>>"$CHECK_LOG"
check "cobertura: xmllint reads it (XML 1.0, UTF-8)" xmllint --noout v2.xml
xpath() { xmllint --xpath "$1" v2.xml 2>>"$CHECK_LOG"; }
expect_eq "cobertura: a class a file, a method a function" \
  "$(xpath 'count(//class)') $(xpath 'count(//method)')" "$files $functions"
expect_eq "cobertura: the escape file's name, its controls shown escaped" \
  "$(xpath 'string(//class[contains(@name, "pwned")]/@name)')" \
  'esc\x1b]0;pwned\x07\x1b[2J.c'

# ---- callgrind: each function in its file ------------------------------------
"$MIPDATA" export -p v2.mip --debug v2 --format callgrind -o callgrind.out.v2
callgrind_annotate --threshold=100 callgrind.out.v2 >annotate.txt 2>&1 || true
# "2 (9.09%)  FILE:FUNCTION" under "Calls  file:function"
listed=$(awk '/file:function/ { on = 1; next } on && /^-+$/ { next }
              on && NF == 0 { exit } on { n++ } END { print n + 0 }' annotate.txt)
total=$(sed -nE 's/^ *([0-9,]+) .*PROGRAM TOTALS/\1/p' annotate.txt | tr -d ,)
expect_eq "callgrind_annotate: the calls of every function, each once" \
  "$listed $total" "$functions $(jq '[.functions[].calls] | add' show.json)"
check "callgrind_annotate: the newline file's function, in its file, escaped" \
  grep -qF 'a\nSF:/etc/passwd\nend_of_record\nb.c:newline_file' annotate.txt
check "callgrind: a name that starts like a compressed name's id, escaped" \
  grep -qxF 'fn=\x281) forged' callgrind.out.v2

# ---- the linker's ordering file: a symbol a line, none split -----------------
"$MIPDATA" order -p v2.mip -o v2.order 2>>"$CHECK_LOG"
# Every line is the whole name of one of the program's symbols; the names
# with a control character (a line end among them) cannot be a line.
nm v2 | sed 's/^[0-9a-f]* [A-Za-z] //' | sort -u >symbols.txt
whole=$(jq '[.functions[].name | select(test("[\u0000-\u001f\u007f]") | not)] |
  unique | length' show.json)
if [ "$(wc -l <v2.order)" -eq "$whole" ] &&
  [ -z "$(sort -u v2.order | comm -23 - symbols.txt)" ]; then
  pass "order: $whole lines, each a symbol of the program, no name split"
else
  fail "order: $(wc -l <v2.order) lines for $whole names, or a line that names no symbol"
fi

# ---- folded stacks: one line a context, its frames --------------------------
"$MIPDATA" export -p v2.mip --format folded --metric bytes -o v2.folded
awk '{ print gsub(/;/, ";") + 1 }' v2.folded | sort -n >got.depths
jq '.heap[] | .frames | length' heap.json | sort -n >want.depths
if [ "$(wc -l <v2.folded)" -eq "$contexts" ] && cmp -s got.depths want.depths &&
  [ "$(awk '{ n += $NF } END { print n }' v2.folded)" = \
    "$(jq '[.heap[].TotalSize] | add' heap.json)" ]; then
  pass "folded: $contexts lines, each with its context's frames and bytes"
else
  fail "folded: $(wc -l <v2.folded) lines for $contexts contexts, or frames split"
fi

# ---- pprof --------------------------------------------------------------------
"$MIPDATA" export -p v2.mip --format pprof -o v2.pb.gz
go tool pprof -top -symbolize=none -sample_index=calls v2.pb.gz >top.txt 2>>"$CHECK_LOG" || true
expect_eq "go tool pprof -top: every counted function" \
  "$(awk '$1 ~ /^[0-9]+$/ && $2 ~ /%$/' top.txt | wc -l)" "$functions"

# ---- JSON: valid, and valid UTF-8 (a byte that is not: U+FFFD) ----------------
"$MIPDATA" export -p v2.mip --format speedscope -o v2.speedscope.json
"$MIPDATA" export -p v2.mip --format dhat -o v2.dhat.json
"$MIPDATA" diff v1.mip v2.mip --format json >diff.json || true
"$MIPDATA" annotate -p v2.mip --debug v2 --format json >annotate.json 2>>"$CHECK_LOG"
utf8() { iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; }
for j in show.json heap.json diff.json annotate.json v2.speedscope.json v2.dhat.json; do
  if holds . "$j" 2>>"$CHECK_LOG" && utf8 "$j"; then
    pass "$j: jq reads it, valid UTF-8"
  else
    fail "$j: not JSON, or not UTF-8"
  fi
done
dh_view() { node "$HERE/browser/dh_view.js" /usr/libexec/valgrind/dh_view.html "$TMP/$1"; }
check "dhat: valgrind's dh_view.html draws it" dh_view v2.dhat.json
check "show's JSON: the bytes that are not UTF-8 as U+FFFD, the rest exact" \
  holds 'any(.functions[]; .demangled == "bad\ufffd\ufffd_fn") and
         any(.functions[]; .demangled == "row\r| forged | cell |\n`tick`")' show.json

# ---- markdown: the rows and cells the diff has -------------------------------
"$MIPDATA" diff v1.mip v2.mip --format markdown >diff.md || true
cmark-gfm -e table diff.md >diff.html
# A header row a table, then the totals, the ratios and each list of
# contexts, a row each.
want=$(jq '.heap | 2 + (.totals | length) + (.ratios | length) +
  ([.regressions, .improvements, .new, .vanished | .contexts | length] |
   map(if . > 0 then . + 1 else 0 end) | add)' diff.json)
rows=$(grep -c '<tr>' diff.html || true)
cells=$(grep -c '<td' diff.html || true)
want_cells=$(jq '.heap | 5 * (.totals | length) + 8 * (.ratios | length) +
  6 * ([.regressions, .improvements, .new, .vanished | .contexts | length] | add)' diff.json)
expect_eq "markdown: cmark-gfm renders every row and cell, none forged" \
  "$rows rows, $cells cells" "$want rows, $want_cells cells"
check "markdown: the carriage-return name in one cell, escaped" \
  grep -qF '<td>malloc in row\r| forged | cell |\n`tick` (' diff.html

# ---- text: no control byte reaches a terminal ---------------------------------
"$MIPDATA" show -p v2.mip --debug v2 >show.txt 2>show.err
"$MIPDATA" show -p v2.mip --heap >heap.txt 2>>show.err
"$MIPDATA" annotate -p v2.mip --debug v2 >annotate-text.txt 2>>show.err
"$MIPDATA" diff v1.mip v2.mip >diff.txt 2>>show.err || true
# A profile named with ESC and a byte that is not UTF-8: the header and an
# error name it (and below, a note).
hostile=$(printf 'p\033[2J\377')
cp v2.mip "$hostile.mip"
"$MIPDATA" show -p "$hostile.mip" --heap >path.txt 2>>show.err
"$MIPDATA" show -p "$hostile.mip" --debug "$hostile.missing" >/dev/null 2>>show.err || true
for t in show.txt heap.txt annotate-text.txt diff.txt path.txt show.err; do
  if ! tr -d '\n' <"$t" | LC_ALL=C grep -q '[[:cntrl:]]' && utf8 "$t"; then
    pass "$t: no control byte but newlines, valid UTF-8"
  else
    fail "$t: a raw control byte or a byte that is not UTF-8"
  fi
done
check "show: the escape file and function, escaped as ls and git show them" \
  grep -qF 'esc\x1b]0;pwned\x07\x1b[2J;fn   /' show.txt
check "show: the profile's name escaped in its header" \
  grep -qF 'Profile p\x1b[2J\xff.mip: build-id' path.txt

# ---- the flame graph page: its script runs and draws every frame ---------------
"$MIPDATA" flamegraph -p v2.mip -o flame.html 2>>"$CHECK_LOG"
"$MIPDATA" flamegraph -p v2.mip --base v1.mip -o flame-diff.html 2>>"$CHECK_LOG"
# Frames: the root and each distinct stack prefix, root first.
jq '{frames: (1 + ([.heap[] | [.frames[].demangled] | reverse |
       . as $s | range(1; length + 1) | $s[:.]] | unique | length)),
     names: ["<!--<script>fn</script>", "esc\u001b]0;pwned\u0007\u001b[2J;fn",
             "row\r| forged | cell |\n`tick`"]}' heap.json >want-flame.json
for page in flame.html flame-diff.html; do
  said=$(node "$HERE/browser/hostile_flame.js" "$TMP/$page" want-flame.json 2>&1 || true)
  case $said in
    "ok "*) pass "$page: ${said#ok }" ;;
    *) fail "$page: ${said#not ok }" ;;
  esac
done

# ---- compiler-generated functions: said to be so -------------------------------
"$MIPCXX" -fmip-generate=counts,blocks -O1 -g "$SRC/generated.cpp" -o generated
mip_runs generated ./generated ""
mip_profile generated "$hostile-generated.mip" generated.1.mipraw
generated=$(mip_show "$hostile-generated.mip" --debug generated |
  jq '[.functions[] | select(.file == null)] | length')
for format in lcov cobertura; do
  "$MIPDATA" export -p "$hostile-generated.mip" --debug generated \
    --format $format -o generated.$format 2>generated.$format.err
  if [ "$generated" -ge 3 ] &&
    grep -qF "mipdata: p\x1b[2J\xff-generated.mip: note: $generated compiler-generated functions (no source line, such as " generated.$format.err &&
    ! tr -d '\n' <generated.$format.err | LC_ALL=C grep -q '[[:cntrl:]]' &&
    ! grep -q 'without -g' generated.$format.err; then
    pass "$format: the $generated compiler-generated functions left out, said to be so (the profile's name escaped)"
  else
    fail "$format: $generated functions without a file: $(cat -v generated.$format.err)"
  fi
done

finish
