#!/bin/sh
# mipdata diff on a program in two versions (progs/diff: v1, v2), whose
# differences are known: twice allocates twice as often, main calls leak
# (a block live at exit) where it called fill_c (a call path removed),
# and grow.c has five lines inserted at its top (every line below moves).
# What the diff must say is computed here from the counts and sizes the
# program is built with:
#   1. totals, ratios, new and vanished contexts, the matched fraction;
#   2. --match lines: the contexts through grow.c no longer match;
#   3. 2 runs against 4: per run, every ratio is 1.0 (and 2.0 without
#      normalization);
#   4. each kind of --fail-on passes and fails (exit 3) where it should,
#      the report written all the same, the conditions listed in every
#      format;
#   5. the markdown rendered by cmark-gfm: its tables and <details>;
#   6. a profile against itself: no change, exit 0; a side without heap
#      data or without runs: one line, the rest compared; never NaN;
#      colour on a terminal only.
#   test/e2e/diff.sh BUILD_DIR [MIPDATA]
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
if [ -n "${2:-}" ]; then MIPDATA=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
PROG=$HERE/progs/diff
make_tmp
cd "$TMP"
CHECK_LOG=$TMP/stderr

# The program's counts and sizes (-D), and the truth computed from them.
A_COUNT=10 A_SIZE=8192 B_COUNT=4 B_SIZE=16384 C_COUNT=3 C_SIZE=32768
D_COUNT=8 D_SIZE=4096 L_SIZE=20000
DEFS="-DA_COUNT=$A_COUNT -DA_SIZE=$A_SIZE -DB_COUNT=$B_COUNT -DB_SIZE=$B_SIZE
-DC_COUNT=$C_COUNT -DC_SIZE=$C_SIZE -DD_COUNT=$D_COUNT -DD_SIZE=$D_SIZE -DL_SIZE=$L_SIZE"
A=$((A_COUNT * A_SIZE)) B=$((B_COUNT * B_SIZE)) C=$((C_COUNT * C_SIZE))
D1=$((D_COUNT * D_SIZE)) D2=$((2 * D_COUNT * D_SIZE))
BASE_BYTES=$((A + B + C + D1))
NEW_BYTES=$((A + B + D2 + L_SIZE))
BASE_ALLOCS=$((A_COUNT + B_COUNT + C_COUNT + D_COUNT))
NEW_ALLOCS=$((A_COUNT + B_COUNT + 2 * D_COUNT + 1))

# Both versions are built from one directory, src/, as two builds of one
# tree are: the same file names, in keys and frames.
build_version() { # VERSION
  rm -rf src
  mkdir src
  cp "$PROG/diffprog.h" "$PROG/$1"/*.c src/
  # shellcheck disable=SC2086 # DEFS are words
  (cd src && "$MIPCC" -fmip-generate=heap,counts,order,blocks -O0 -g $DEFS \
    main.c grow.c -o "../$1")
}
build_version v1
build_version v2
mip_runs v1 ./v1 "" "" "" ""
mip_runs v2 ./v2 ""
mip_profile --debug v1 v1.mip v1.1.mipraw
mip_profile --debug v2 v2.mip v2.1.mipraw
mip_profile --debug v1 v1x2.mip v1.1.mipraw v1.2.mipraw
mip_profile --debug v1 v1x4.mip v1.1.mipraw v1.2.mipraw v1.3.mipraw v1.4.mipraw

# diff_json NAME ARGS...: mipdata diff --format json ARGS into NAME.json,
# its status in RC
diff_json() {
  name=$1
  shift
  set +e
  "$MIPDATA" diff --format json "$@" >"$name.json" 2>"$name.err"
  RC=$?
  set -e
}
# value NAME FILTER: what jq FILTER gives of NAME.json
value() { jq -r "$2" "$1.json"; }
# near GOT WANT: equal to 1e-9 (relative)
near() {
  awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d;
    s = w < 0 ? -w : w; exit !(d <= 1e-9 * (s > 1 ? s : 1)) }'
}
expect_near() { # NAME GOT WANT
  if near "$2" "$3"; then pass "$1: $2"; else fail "$1: $2, want $3"; fi
}

# ---- 1. the two versions ---------------------------------------------------
diff_json v12 v1.mip v2.mip --min-bytes 0
expect_eq "v1 v2: exit status" "$RC" 0
expect_eq "bytes allocated, base" "$(value v12 .heap.totals.bytes.base)" "$BASE_BYTES"
expect_eq "bytes allocated, new" "$(value v12 .heap.totals.bytes.new)" "$NEW_BYTES"
expect_eq "bytes allocated, delta" "$(value v12 .heap.totals.bytes.delta)" \
  "$((NEW_BYTES - BASE_BYTES))"
expect_near "bytes allocated, change %" "$(value v12 .heap.totals.bytes.change)" \
  "$(awk "BEGIN { printf \"%.17g\", 100 * ($NEW_BYTES - $BASE_BYTES) / $BASE_BYTES }")"
expect_eq "allocations, base and new" "$(value v12 '[.heap.totals.allocs.base, .heap.totals.allocs.new] | join(" ")')" \
  "$BASE_ALLOCS $NEW_ALLOCS"
expect_eq "live at exit: 0, then the leak, change null (new)" \
  "$(value v12 '[.heap.totals["live-bytes"] | .base, .new, .change] | join(" ")')" "0 $L_SIZE "
expect_eq "peak: each context's own, summed" \
  "$(value v12 '[.heap.totals.peak.base, .heap.totals.peak.new] | join(" ")')" \
  "$((A_SIZE + B_SIZE + C_SIZE + D_SIZE)) $((A_SIZE + B_SIZE + D_SIZE + L_SIZE))"
# Three of four contexts on each side match (fill_c's vanished, leak's is
# new): the fractions by count and by bytes.
expect_eq "contexts matched, base and new" \
  "$(value v12 '.heap.matching | [.base.contexts, .base.matched, .new.contexts, .new.matched] | join(" ")')" "4 3 4 3"
expect_near "matched fraction by count" "$(value v12 .heap.matching.matched_fraction)" 0.75
expect_near "matched fraction by bytes" "$(value v12 .heap.matching.matched_bytes_fraction)" \
  "$(awk "BEGIN { printf \"%.17g\", ($A + $B + $D1 + $A + $B + $D2) / ($BASE_BYTES + $NEW_BYTES) }")"
expect_eq "no warning of a low match" "$(cat v12.err)" ""
# The one regression: twice's context, doubled.
expect_eq "regressions: twice's context alone" \
  "$(value v12 '.heap.regressions | [.count, .contexts[0].site.function, .contexts[0].delta, .contexts[0].ratio] | join(" ")')" \
  "1 twice $D1 2"
expect_near "its share of the base total" "$(value v12 .heap.regressions.contexts[0].share)" \
  "$(awk "BEGIN { printf \"%.17g\", 100 * $D1 / $BASE_BYTES }")"
expect_eq "improvements: none" "$(value v12 .heap.improvements.count)" 0
expect_eq "new: leak's context, its bytes live at exit" \
  "$(value v12 '.heap.new | [.count, .contexts[0].site.function, .contexts[0].new.bytes, .contexts[0].new["live-bytes"]] | join(" ")')" \
  "1 leak $L_SIZE $L_SIZE"
expect_eq "vanished: the path through fill_c" \
  "$(value v12 '.heap.vanished | [.count, .contexts[0].base.bytes, (.contexts[0].frames | map(.function) | index("fill_c") != null)] | join(" ")')" \
  "1 $C true"
# Ratios of the three matched contexts: 1, 1 and 2.
expect_eq "bytes ratios: 1 up, 2 unchanged" \
  "$(value v12 '.heap.ratios.bytes | [.regressed, .improved, .unchanged, .p10, .p50, .p90] | join(" ")')" "1 0 2 1 1 2"
expect_near "bytes ratios: geomean 2^(1/3)" "$(value v12 .heap.ratios.bytes.geomean)" \
  "$(awk 'BEGIN { printf "%.17g", exp(log(2) / 3) }')"
# The noise floor: a context counts in the ratios when either side has
# at least --min-bytes bytes.
diff_json floor v1.mip v2.mip --min-bytes "$D2"
expect_eq "--min-bytes twice's new bytes: 3 contexts, 1 up" \
  "$(value floor '[.heap.above_floor, .heap.ratios.bytes.regressed] | join(" ")')" "3 1"
diff_json floor v1.mip v2.mip --min-bytes $((D2 + 1))
expect_eq "--min-bytes above: fill_a's context alone, unchanged" \
  "$(value floor '[.heap.above_floor, .heap.ratios.bytes.regressed, .heap.ratios.bytes.unchanged] | join(" ")')" "1 0 1"
# Functions: 7 in v1, all covered; v2 adds leak and no longer calls fill_c.
expect_eq "coverage, base and new" \
  "$(value v12 '.functions | [.base.coverage, .new.coverage, .added, .removed] | join(" ")')" "100 87.5 1 0"
expect_near "coverage change in points" "$(value v12 .functions.coverage_delta)" -12.5
expect_eq "newly uncovered: fill_c" "$(value v12 '.functions.newly_uncovered.functions | join(" ")')" fill_c
expect_eq "first called: leak entered, fill_c left" \
  "$(value v12 '[.functions.order.entered.functions[], .functions.order.left.functions[]] | join(" ")')" "leak fill_c"
expect_eq "grow's calls: A + B + C, then A + B" \
  "$(value v12 '.functions.calls.top[] | select(.function == "grow") | [.base, .new] | join(" ")')" \
  "$((A_COUNT + B_COUNT + C_COUNT)) $((A_COUNT + B_COUNT))"
expect_eq "blocks newly cold: fill_c's" \
  "$(value v12 '[.functions.blocks.cold[].function] | unique | join(" ")')" fill_c

# ---- 2. --match lines: grow.c's lines moved ----------------------------------
diff_json lines v1.mip v2.mip --min-bytes 0 --match lines
expect_eq "--match lines: only twice's context matches" \
  "$(value lines '.heap.matching | [.base.matched, .new.matched] | join(" ")') $(value lines '.heap.regressions.contexts[0].site.function')" "1 1 twice"
expect_eq "--match lines: the paths through grow.c are new and vanished" \
  "$(value lines '[.heap.new.count, .heap.vanished.count, ([.heap.new.contexts[].site.function] | unique | join(",")), ([.heap.vanished.contexts[].site.function] | unique | join(","))] | join(" ")')" \
  "3 3 grow,leak grow"
expect_near "--match lines: matched fraction" "$(value lines .heap.matching.matched_fraction)" 0.25
check "--match lines: a warning that little matched" grep -q "only 25.0% of the heap contexts matched" lines.err
diff_json self_lines v1.mip v1.mip --match lines
expect_eq "--match lines of a profile with itself: all match" \
  "$(value self_lines '.heap.matching.matched_fraction')" 1

# ---- 3. normalization: 2 runs against 4 ------------------------------------
diff_json runs v1x2.mip v1x4.mip --min-bytes 0
expect_eq "2 runs against 4: the factor printed" "$(value runs .heap.factor.bytes)" 2
for metric in allocs bytes live-count live-bytes accesses; do
  expect_eq "2 runs against 4, per run: $metric ratios all 1.0, unchanged" \
    "$(value runs ".heap.ratios[\"$metric\"] | [.geomean, .p10, .p50, .p90, .regressed + .improved] | join(\" \")")" "1 1 1 1 0"
done
expect_eq "2 runs against 4, per run: total bytes unchanged" "$(value runs .heap.totals.bytes.change)" 0
diff_json runs_none v1x2.mip v1x4.mip --min-bytes 0 --normalize none
expect_eq "--normalize none: every bytes ratio 2.0" \
  "$(value runs_none '.heap.ratios.bytes | [.geomean, .p10, .p90, .regressed] | join(" ")')" "2 2 2 4"
diff_json runs_total v1x2.mip v2.mip --min-bytes 0 --normalize total
expect_near "--normalize total: the factor is new's total over base's" \
  "$(value runs_total .heap.factor.bytes)" "$(awk "BEGIN { printf \"%.17g\", $NEW_BYTES / (2 * $BASE_BYTES) }")"
expect_near "--normalize total: the totals equal" "$(value runs_total .heap.totals.bytes.change)" 0
check "text prints the factor" sh -c "'$MIPDATA' diff v1x2.mip v1x4.mip | grep -q 'base values x 2 (base 2 runs, new 4)'"

# ---- 4. the gate -------------------------------------------------------------
# gate WANT EXPR [BASE NEW]: diff exits WANT (0 passes, 3 fails) for EXPR
gate() {
  want=$1 expr=$2 base=${3:-v1.mip} new=${4:-v2.mip}
  set +e
  "$MIPDATA" diff "$base" "$new" --format json --fail-on "$expr" >gate.json 2>gate.err
  rc=$?
  set -e
  failed=$(jq -r '.conditions[0].failed' gate.json 2>/dev/null)
  case $want in 3) want_failed=true ;; *) want_failed=false ;; esac
  if [ "$rc" = "$want" ] && [ "$failed" = "$want_failed" ]; then
    pass "--fail-on '$expr': exit $rc, $(jq -r .conditions[0].measured gate.json)"
  else
    fail "--fail-on '$expr': exit $rc (want $want), failed $failed: $(cat gate.err)"
  fi
}
# Bytes went down by 16%, allocations up by 24%.
gate 0 'total.bytes>+5%'
gate 3 'total.bytes<-10%'
gate 3 'total.allocs>=+24%'
gate 0 'total.allocs>+25%'
gate 3 "total.bytes<=-$((BASE_BYTES - NEW_BYTES))"
gate 0 "total.bytes<-$((BASE_BYTES - NEW_BYTES))"
# twice's context grew by D1 bytes (100%); leak's is new, L_SIZE bytes.
gate 3 "context.bytes>+20%&>$((D1 - 1))"
gate 0 "context.bytes>+20%&>${D1}"
gate 3 'context.bytes>+20%&>16KiB'
gate 0 'context.bytes>+20%&>64KiB'
gate 3 "context.live-bytes>$((L_SIZE - 1))"
# Leaks: new's bytes live at exit.
gate 3 'live-bytes>0'
gate 0 'live-bytes>0' v1.mip v1.mip
gate 0 "live-bytes>$L_SIZE"
# Coverage: 100% to 87.5%.
gate 3 'coverage<-0.5pt'
gate 0 'coverage<-12.5pt'
gate 3 'coverage<90'
gate 0 'coverage<-0.5pt' v1.mip v1.mip

# The report of a failed gate is written, in every format, with what failed.
for format in text markdown json; do
  set +e
  "$MIPDATA" diff v1.mip v2.mip --format $format --fail-on 'live-bytes>0' \
    --fail-on 'total.bytes>+5%' -o "gate.$format" 2>gate.err
  rc=$?
  set -e
  if [ "$rc" = 3 ] && grep -q 'FAILED.*live-bytes' "gate.$format" 2>/dev/null ||
    { [ $format = json ] && [ "$(jq -r '[.failed, .conditions[0].failed, .conditions[1].failed] | join(" ")' gate.json)" = "1 true false" ]; }; then
    pass "$format: exit 3, the report written with the failed condition"
  else
    fail "$format: exit $rc, report: $(head -c 300 "gate.$format" 2>/dev/null)"
  fi
done

# ---- 5. markdown, rendered -------------------------------------------------
"$MIPDATA" diff v1.mip v2.mip --format markdown --fail-on 'live-bytes>0' >v12.md || true
cmark-gfm --unsafe -e table v12.md >v12.html
tables=$(grep -c '<table>' v12.html)
details=$(grep -c '<details>' v12.html)
in_details=$(awk '/<details>/ { on = 1 } on && /<table>/ { n++; on = 0 } END { print n + 0 }' v12.html)
if [ "$tables" -ge 5 ] && [ "$details" -ge 4 ] && [ "$in_details" = "$details" ]; then
  pass "markdown: $tables tables, $details <details> sections, each with its table"
else
  fail "markdown: $tables tables, $details <details>, $in_details with a table"
fi
# The totals table: a header row and one row per metric, in cells.
check "markdown: the totals table's bytes row" \
  grep -q "<td>bytes allocated</td>" v12.html
check "markdown: the headline on one line, first" \
  sh -c "head -n 1 v12.html | grep -q '<h3>mipdata diff: bytes allocated -16.3%.*FAILED 1 of 1 conditions</h3>'"
check "markdown: the failed condition in a table" \
  grep -q "<td>FAILED</td>" v12.html

# ---- 6. robustness -----------------------------------------------------------
for format in text markdown json; do
  set +e
  "$MIPDATA" diff v1.mip v1.mip --format $format --fail-on 'total.bytes>0%' \
    --fail-on 'context.bytes>0' --fail-on 'coverage<0pt' >self.$format 2>self.err
  rc=$?
  set -e
  expect_eq "a profile against itself ($format): exit 0, nothing said" "$rc $(cat self.err)" "0 "
done
expect_eq "a profile against itself: no change anywhere" \
  "$(jq -r '[.heap.totals[].delta, .heap.regressions.count, .heap.improvements.count, .heap.new.count, .heap.vanished.count, .functions.coverage_delta, .functions.newly_covered.count, .functions.newly_uncovered.count, .functions.code_changed.count, .functions.calls.changed] | unique | join(" ")' self.json)" 0

# A coverage-only build of v1: no heap data on one side.
rm -rf src && mkdir src && cp "$PROG/diffprog.h" "$PROG"/v1/*.c src/
# shellcheck disable=SC2086 # DEFS are words
(cd src && "$MIPCC" -fmip-generate -O0 -g $DEFS main.c grow.c -o ../cov)
mip_runs cov ./cov ""
mip_profile cov cov.mip cov.1.mipraw
diff_json noheap cov.mip v2.mip
# One line for each thing missing: heap data, call counts.
expect_eq "no heap data on one side: exit 0, one line each for heap and calls" \
  "$RC $(cut -d: -f2- noheap.err | tr '\n' '|')" \
  "0  cov.mip: note: base has no heap data: the heap is not compared| cov.mip: note: base has no call counts: calls are not compared|"
expect_eq "... heap null, functions compared" \
  "$(value noheap '[.heap, .functions.base.functions, (.missing | length)] | map(tostring) | join(" ")')" "null 7 2"
gate 0 'live-bytes>0' cov.mip v2.mip
check "... a heap condition is not evaluated" sh -c "jq -e '.conditions[0].evaluated == false' gate.json >/dev/null"
# A profile with no run.
mip_create v1 empty.mip
diff_json norun empty.mip v1.mip
check "no run on one side: a note, exit 0" sh -c "[ $RC = 0 ] && grep -q 'empty.mip: note: base has no run' norun.err"
expect_eq "... no NaN or infinity in any document" \
  "$(cat ./*.json | grep -ciE 'nan|inf' || true)" 0
check "text to a file: no colour" sh -c "! grep -q \"$(printf '\033')\" self.text"
# On a terminal (script(1) gives one), the headline in colour; red when a
# condition failed; none with NO_COLOR.
ESC=$(printf '\033')
script -qec "'$MIPDATA' diff v1.mip v2.mip --fail-on live-bytes\>0" /dev/null >tty.out || true
check "text on a terminal: the failed headline in red" grep -q "^${ESC}\[31m${ESC}\[1mbytes allocated" tty.out
NO_COLOR=1 script -qec "'$MIPDATA' diff v1.mip v2.mip" /dev/null >tty.out || true
check "text on a terminal, NO_COLOR set: no colour" sh -c "[ -s tty.out ] && ! grep -q '$ESC' tty.out"

# ---- heap filters: both sides filtered as show --heap filters them ------
diff_json filtered v1.mip v2.mip --min-bytes 0 --live
want=$(for p in v1.mip v2.mip; do mip_show "$p" --heap --live |
  jq '[.heap[].TotalSize] | add // 0'; done | tr '\n' ' ')
expect_eq "--live: totals are those of show --heap --live (base new)" \
  "$(value filtered '"\(.heap.totals.bytes.base) \(.heap.totals.bytes.new) "')" "$want"
check "--live: fewer bytes than unfiltered (the check can fail)" \
  test "$(value filtered .heap.totals.bytes.new)" -lt "$NEW_BYTES"

finish
