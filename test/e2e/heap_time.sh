#!/bin/sh
# The heap over time and at its peak, against independent truths:
#   1. valgrind's DHAT: the global peak (t-gmax) and, site by site, the
#      bytes and blocks live then (gb, gbk) of programs with several peaks
#      and a realloc, a heap that only grows, and threads;
#   2. a program that allocates in steps its arguments give: every point
#      of the timeline, the peak and each site's share of it, computed
#      here from the same steps;
#   3. show --heap's peak line and chart, YAML, and a merge of two runs
#      (the higher peak's run is kept, both peaks listed);
#   4. the heap filters of show --heap and annotate, against the same
#      selection made with jq;
#   5. mip_heap_start, mip_heap_stop, mip_heap_reset and MIP_OPTIONS
#      heap_record=0 count exactly the blocks of their region; a ghost
#      free is counted at its own free call.
#   test/e2e/heap_time.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$TMP"
SRC=$HERE/progs/heap_time
# DHAT reads DWARF 4 only; no tail calls, so both builds keep every frame.
FLAGS="-O2 -gdwarf-4 -fno-optimize-sibling-calls -pthread"

# profile BINARY NAME RAW... : NAME.mip from the runs of BINARY,
# NAME.json its show --heap
profile() {
  binary=$1 name=$2
  shift 2
  rm -f "$name.mip"
  mip_profile --debug "$binary" "$name.mip" "$@"
  mip_show "$name.mip" --heap >"$name.json"
}

# ---- 1. against DHAT ---------------------------------------------------------

# at_peak_vs_dhat NAME ARGS SAME_TOTAL: per site bytes and blocks at the
# peak, and the peak itself (SAME_TOTAL 1: DHAT's t-gmax line too; a
# threaded program's libc allocates blocks of its own that DHAT counts)
at_peak_vs_dhat() {
  name=$1 args=$2 same_total=$3
  "$MIPCC" -fmip-generate=heap $FLAGS "$SRC/$name.c" -o "$name"
  "$CLANG" $FLAGS "$SRC/$name.c" -o "$name.dhat"
  MIP_PROFILE_FILE=$name.mipraw "./$name" $args
  profile "$name" "$name" "$name.mipraw"
  valgrind --tool=dhat --dhat-out-file="$name.dhat.json" "./$name.dhat" $args \
    2>"$name.dhat.log"
  mip_sites_by AtPeakCount AtPeakSize "$name.json" >"$name.mip-peak"
  dhat_sites_by gbk gb "$name.dhat.json" "$SRC" >"$name.dhat-peak"
  n=$(awk '$3 > 0' "$name.mip-peak" | wc -l)
  if [ "$n" -ge 2 ] && cmp -s "$name.mip-peak" "$name.dhat-peak"; then
    pass "$name: bytes and blocks at the peak equal DHAT's gb and gbk at all $(wc -l <"$name.mip-peak") sites ($n with blocks then)"
  else
    fail "$name: at the peak, sites differ from DHAT's (site gbk gb; < DHAT, > MIP):"
    diff "$name.dhat-peak" "$name.mip-peak" | sed 's/^/     /'
  fi
  mip_peak=$(jq -r '"\(.heap_peak.bytes) \(.heap_peak.blocks)"' "$name.json")
  sum=$(awk '{ n += $2; b += $3 } END { print b, n }' "$name.dhat-peak")
  if [ "$mip_peak" = "$sum" ]; then
    pass "$name: the peak, $mip_peak (bytes blocks), is what DHAT's sites held at t-gmax"
  else
    fail "$name: peak $mip_peak, DHAT's sites at t-gmax $sum"
  fi
  if [ "$same_total" = 1 ]; then
    dhat_total=$(sed -n 's/.*At t-gmax: \([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\1 \2/p' "$name.dhat.log" | tr -d ,)
    if [ "$mip_peak" = "$dhat_total" ]; then
      pass "$name: the peak equals DHAT's t-gmax ($dhat_total)"
    else
      fail "$name: peak $mip_peak, DHAT's t-gmax $dhat_total"
    fi
  fi
}

at_peak_vs_dhat peaks "" 1
at_peak_vs_dhat peaks 3 1
at_peak_vs_dhat grow "" 1
at_peak_vs_dhat threads "" 0

# The comparison can fail: one block more at one site is caught.
awk 'NR == 1 { $2++ } { print }' peaks.mip-peak >broken-peak
if cmp -s broken-peak peaks.dhat-peak; then
  fail "a changed count at the peak still matched DHAT"
else
  pass "a changed count at the peak is caught by the comparison"
fi

# ---- 2. known steps ----------------------------------------------------------

# expected STEPS...: "event bytes blocks" after each step, as steps.c does
# them (N allocates N bytes, -K frees the K-th block)
expected() {
  echo "$@" | tr ' ' '\n' | awk '
    $1 > 0 { size[++n] = $1; live[n] = 1; bytes += $1; blocks++; print ++e, bytes, blocks }
    $1 < 0 && live[-$1] { live[-$1] = 0; bytes -= size[-$1]; blocks--; print ++e, bytes, blocks }'
}
# at_peak STEPS...: per site (odd sizes: one, even: two) "site bytes
# blocks" live at the first moment of the most bytes, DHAT's rule
at_peak() {
  echo "$@" | tr ' ' '\n' | awk '
    function keep() { if (bytes > top) { top = bytes; for (s in cur) at[s] = cur[s]; for (s in cnt) atn[s] = cnt[s] } }
    $1 > 0 { size[++n] = $1; live[n] = 1; bytes += $1; s = $1 % 2 ? "one" : "two"; cur[s] += $1; cnt[s]++; keep() }
    $1 < 0 && live[-$1] { k = -$1; live[k] = 0; bytes -= size[k]; s = size[k] % 2 ? "one" : "two"; cur[s] -= size[k]; cnt[s]-- }
    END { print "one", at["one"] + 0, atn["one"] + 0; print "two", at["two"] + 0, atn["two"] + 0 }'
}

STEPS="100 200 301 -1 4000 -2 51 -3 -5 7 8000 -6 -4 60 -7 -9 -8"
"$MIPCC" -fmip-generate=heap $FLAGS "$SRC/steps.c" -o steps
MIP_PROFILE_FILE=steps.mipraw ./steps $STEPS
profile steps steps steps.mipraw
expected $STEPS >steps.expected
jq -r '.heap_timeline[] | "\(.event) \(.bytes) \(.blocks)"' steps.json >steps.points
if [ -s steps.expected ] && cmp -s steps.expected steps.points; then
  pass "steps: the timeline has one point per birth and death, the bytes and blocks after each ($(wc -l <steps.points) points)"
else
  fail "steps: timeline (event bytes blocks; < expected, > MIP):"
  diff steps.expected steps.points | sed 's/^/     /'
fi
top=$(sort -k2,2n -k1,1nr steps.expected | tail -1 | awk '{ print $2, $3, $1 }')
peak=$(jq -r '"\(.heap_peak.bytes) \(.heap_peak.blocks) \(.heap_peak.event)"' steps.json)
if [ "$peak" = "$top" ]; then
  pass "steps: the peak is the first moment of the most bytes ($peak: bytes blocks event)"
else
  fail "steps: peak $peak, expected $top"
fi
at_peak $STEPS >steps.at-expected
jq -r '.heap[] | "\(.frames[0].function) \(.AtPeakSize) \(.AtPeakCount)"' steps.json |
  sort >steps.at
if cmp -s steps.at-expected steps.at; then
  pass "steps: each site's bytes and blocks at the peak ($(tr '\n' ';' <steps.at))"
else
  fail "steps: at the peak (site bytes blocks; < expected, > MIP):"
  diff steps.at-expected steps.at | sed 's/^/     /'
fi

# ---- 3. show --heap, YAML, merge ----------------------------------------------

"$MIPDATA" show -p steps.mip --heap >steps.txt
line=$(grep '^Peak:' steps.txt)
case "$line" in
"Peak: $(echo "$top" | cut -d' ' -f1) bytes in $(echo "$top" | cut -d' ' -f2) blocks"*) pass "show --heap: $line" ;;
*) fail "show --heap's peak line: '$line', expected $top" ;;
esac
# The chart: 8 rows, one column per point (fewer than 64), its top row
# marked where the peak is.
rows=$(sed -n '/^Heap over time/,/+---/p' steps.txt | grep -c ' |')
cols=$(sed -n '/+---/p' steps.txt | tr -cd '-' | wc -c)
tallest=$(sed -n '/^Heap over time/{n;p}' steps.txt | sed 's/^[^|]*|//' | awk '{ print index($0, "#") }')
top_event=$(echo "$top" | cut -d' ' -f3)
if [ "$rows" = 8 ] && [ "$cols" = "$(wc -l <steps.expected)" ] && [ "$tallest" = "$top_event" ]; then
  pass "show --heap: a chart of 8 rows and $cols columns, highest at column $tallest"
else
  fail "show --heap's chart: $rows rows, $cols columns, highest at $tallest (wanted 8, $(wc -l <steps.expected), $top_event)"
  sed -n '/^Heap over time/,/+---/p' steps.txt | sed 's/^/     /'
fi
"$MIPDATA" show -p steps.mip --heap --format yaml >steps.yaml
if grep -q "^HeapPeak:" steps.yaml && grep -q "^  Bytes: $(echo "$top" | cut -d' ' -f1)\$" steps.yaml; then
  pass "show --heap --format yaml: HeapPeak"
else
  fail "show --heap --format yaml has no HeapPeak with the peak's bytes"
fi

# Two runs: the one with the higher peak is kept, in either order.
LOW="100 200 -1 301 -2 -3"
MIP_PROFILE_FILE=low.mipraw ./steps $LOW
cp steps.mipraw high.mipraw
profile steps lowhigh low.mipraw high.mipraw
profile steps highlow high.mipraw low.mipraw
low_top=$(expected $LOW | sort -k2,2n | tail -1 | cut -d' ' -f2)
peaks=$(jq -c '[.heap_peaks[].bytes]' lowhigh.json)
if cmp -s lowhigh.mip highlow.mip && [ "$peaks" = "[$(echo "$top" | cut -d' ' -f1),$low_top]" ] &&
  jq -r '.heap[] | "\(.frames[0].function) \(.AtPeakSize) \(.AtPeakCount)"' lowhigh.json | sort | cmp -s - steps.at-expected; then
  pass "merge: the higher peak's run is kept, in either order; peaks $peaks"
else
  fail "merge: peaks $peaks (wanted [$(echo "$top" | cut -d' ' -f1),$low_top]), at the peak:"
  jq -r '.heap[] | "\(.frames[0].function) \(.AtPeakSize) \(.AtPeakCount)"' lowhigh.json | sed 's/^/     /'
fi

# ---- filters: each the selection jq makes of the unfiltered contexts ------------

# filtered NAME JQ_SELECT ARGS...: show --heap ARGS against the contexts of
# NAME.json that JQ_SELECT keeps (each context: frames, site, fields)
filtered() {
  name=$1 select=$2
  shift 2
  jq -c "[.heap[] | select($select) | [.frames[0].function, .TotalSize]]" "$name.json" >want.filter
  mip_show "$name.mip" --heap "$@" | jq -c '[.heap[] | [.frames[0].function, .TotalSize]]' >got.filter
  n=$(jq length want.filter)
  if [ "$n" -ge 1 ] && [ "$n" -lt "$(jq '.heap | length' "$name.json")" ] && cmp -s want.filter got.filter; then
    pass "show --heap $*: the $n contexts jq selects"
  else
    fail "show --heap $*: $(cat got.filter), wanted $(cat want.filter)"
  fi
}
filtered peaks '.site.allocator == "malloc"' --alloc malloc
filtered peaks '.site.allocator == "calloc" or .site.allocator == "strdup"' --alloc calloc,strdup
filtered peaks '(.site.allocator == "malloc" or .site.allocator == "calloc" or .site.allocator == "strdup") and .MaxSize <= 400' --alloc c --max-size 400
filtered peaks '.MinSize >= 64 and .MaxSize <= 480' --min-size 64 --max-size 480
filtered peaks '[.frames[].function] | any(test("^(large|name)$"))' --frame '^(large|name)$'
filtered grow '.LiveAtExitCount > 0 and .MaxSize <= 100' --live --max-size 100
# Text and annotate take the same filters; annotate lists only those.
"$MIPDATA" show -p peaks.mip --heap --frame '^name$' >filtered.txt
if grep -q '^Heap: 1 context,' filtered.txt && grep -q 'strdup at' filtered.txt; then
  pass "show --heap --frame (text): one context, its totals"
else
  fail "show --heap --frame (text): $(head -3 filtered.txt | tr '\n' '|')"
fi
"$MIPDATA" annotate -p peaks.mip --format json --alloc strdup >annotated.json 2>/dev/null
if [ "$(jq -c '[.allocations[] | .contexts[]?] | length' annotated.json)" = 1 ]; then
  pass "annotate --alloc strdup: one context listed"
else
  fail "annotate --alloc strdup: $(jq -c '[.allocations[] | .contexts]' annotated.json)"
fi

# ---- 5. regions (mip/mip.h) and ghost frees --------------------------------------

"$MIPCC" -fmip-generate=heap $FLAGS -I"$HERE/../../include" "$SRC/region.c" -o region
for mode in region reset; do
  MIP_OPTIONS=heap_record=0 MIP_PROFILE_FILE=$mode.mipraw ./region "$mode" ||
    fail "region $mode: exit status $?"
  profile region "$mode" "$mode.mipraw"
done
# region: the 20 blocks allocated between start and stop, one of them
# reallocated (DHAT's count: 21 blocks, 1 reallocation), nothing of the
# 10 before or the 5 after; the 20 die after stop, all recorded; the free
# of getcwd's buffer is a ghost free at release()'s call of free.
got=$(jq -c '[.heap[] | [.frames[0].function, .AllocCount, .ReallocCount, .LiveAtExitCount, .GhostFreeCount]]' region.json)
want='[["inside",21,1,0,0],["release",0,0,0,1]]'
if [ "$got" = "$want" ]; then
  pass "region: only the blocks born between mip_heap_start and mip_heap_stop, and the ghost free at its free site: $got"
else
  fail "region: contexts [function, blocks, reallocs, live, ghost frees] $got, wanted $want"
fi
got=$(jq -c '[.heap_peak.bytes, .heap_peak.blocks, .heap_peak.events, .heap_stats.unseen_frees]' region.json)
if [ "$got" = "[4200,20,42,1]" ]; then
  pass "region: peak 4200 bytes in 20 blocks (19 of 200, the realloc's 400), 42 births and deaths, 1 unseen free"
else
  fail "region: [peak bytes, blocks, events, unseen frees] $got, wanted [4200,20,42,1]"
fi
got=$(jq -c '[[.heap[] | [.frames[0].function, .AllocCount]], .heap_peak.bytes, .heap_peak.events, .heap_stats.unseen_frees]' reset.json)
if [ "$got" = '[[["inside",3]],600,6,0]' ]; then
  pass "reset: only the 3 blocks after mip_heap_reset; the 7 before, freed after it, are no deaths and no ghosts"
else
  fail "reset: $got, wanted [[[\"inside\",3]],600,6,0]"
fi

finish
