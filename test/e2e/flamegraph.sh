#!/bin/sh
# mipdata flamegraph: the pages of two versions of a program, driven in
# headless Chromium (browser/flamegraph.js, over the DevTools protocol),
# against what the program is known to do (progs/flame: a regression, an
# improvement, a new frame, a vanished stack) and each metric's total from
# `mipdata show --heap`; the folded stacks against show's contexts.
#   test/e2e/flamegraph.sh BUILD_DIR [MIPDATA]
# MIPDATA defaults to BUILD_DIR/bin/mipdata; the sanitizer pass gives a
# mipdata built with ASan and UBSan.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
if [ -n "${2:-}" ]; then MIPDATA=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
make_tmp
cd "$TMP"
SRC=$HERE/progs/flame/flame.c
FLAGS="-O1 -g -fno-optimize-sibling-calls"
CHECK_LOG=$TMP/log

for v in 1 2; do
  "$MIPCC" -fmip-generate=heap $FLAGS -DVERSION=$v "$SRC" -o v$v
  MIP_PROFILE_FILE=v$v.mipraw ./v$v
done
MIP_PROFILE_FILE=v1b.mipraw ./v1
# A program that allocates nothing: an empty side.
printf 'int main(void) { return 0; }\n' >none.c
"$MIPCC" -fmip-generate=heap $FLAGS none.c -o none
MIP_PROFILE_FILE=none.mipraw ./none
mip_profile --debug v1 v1.mip v1.mipraw
mip_profile --debug v2 v2.mip v2.mipraw
mip_profile --debug v1 v1x2.mip v1.mipraw v1b.mipraw
mip_profile --debug none none.mip none.mipraw
mip_show v2.mip --heap >v2.json

# Each metric's total as show's contexts add up (means over every
# allocation, in seconds and accesses per byte per second), and the bytes
# of two functions, for the search's share.
jq '[.heap[]] as $h | def sum(f): [$h[] | f] | add;
  {totals: {allocs: sum(.AllocCount), bytes: sum(.TotalSize), peak: sum(.PeakLiveSize),
   "live-count": sum(.LiveAtExitCount), "live-bytes": sum(.LiveAtExitSize),
   accesses: sum(.TotalAccessCount),
   lifetime: (sum(.TotalLifetime) / sum(.AllocCount) / 1000),
   density: (sum(.TotalLifetimeAccessDensity) / sum(.AllocCount) / 100)},
   bytes_grow: sum(select(.frames[0].function == "grow_index") | .TotalSize),
   bytes_fill: sum(select(.frames[0].function == "fill_cache") | .TotalSize)}' \
  v2.json >truth.json
nonzero() { jq -e '.totals.lifetime > 0 and .totals."live-bytes" > 0' truth.json >/dev/null; }
check "the example's lifetimes and live blocks are not all 0" nonzero

flame() { "$MIPDATA" flamegraph "$@" 2>>"$CHECK_LOG"; }
flame -p v2.mip --base v1.mip -o diff.html
flame -p v2.mip --debug v2 -o single.html
flame -p v2.mip --base v2.mip -o same.html
flame -p v1.mip --base v2.mip -o reverse.html
flame -p v2.mip --base v1x2.mip --normalize runs -o runs.html
flame -p none.mip --base v2.mip -o empty.html
flame -p v2.mip --base none.mip -o onto-empty.html

# ---- the pages are self-contained: nothing fetched from anywhere
for page in diff single same reverse runs empty onto-empty; do
  if grep -Eiq '(src|href)="(https?:)?//|@import|url\(' $page.html; then
    fail "$page.html refers to something outside itself"
  else
    pass "$page.html has no reference outside itself"
  fi
done

# ---- in the browser
node "$HERE/browser/flamegraph.js" "$TMP" >browser.out 2>browser.err || true
while read -r status rest; do
  case $status in
    ok) pass "$rest" ;;
    *) fail "${rest#ok }" ;;
  esac
done <browser.out
if [ ! -s browser.out ]; then
  fail "the browser run said nothing:"
  sed 's/^/     /' browser.err
fi

# The checks can fail: v1's page against v2's totals.
cp diff.html keep.html
flame -p v1.mip --base v2.mip -o diff.html
node "$HERE/browser/flamegraph.js" "$TMP" >wrong.out 2>/dev/null || true
if grep -q "^not ok diff.html: the root's bytes" wrong.out; then
  pass "another profile's page fails the totals"
else
  fail "another profile's page passed the totals"
fi
mv keep.html diff.html

# ---- folded stacks: show's contexts, root first, with their values
folded_truth() { # METRIC-FIELD
  jq -r --arg f "$1" '.heap[] | "\([.frames[].demangled] | reverse | join(";")) \(.[$f])"' \
    v2.json | sort
}
for pair in bytes:TotalSize allocs:AllocCount lifetime:TotalLifetime; do
  metric=${pair%%:*} field=${pair#*:}
  flame -p v2.mip --format folded --metric "$metric" | sort >folded.$metric
  folded_truth "$field" >folded.$metric.truth
  if [ -s folded.$metric ] && cmp -s folded.$metric folded.$metric.truth; then
    pass "folded --metric $metric: one line per context, as show has them ($(wc -l <folded.$metric) lines)"
  else
    fail "folded --metric $metric differs from show's contexts:"
    diff folded.$metric.truth folded.$metric | sed 's/^/     /'
  fi
done

# Heap filters: the contexts drawn are those show --heap keeps.
expect_eq "--frame grow_index: folded bytes add up to show --heap --frame's" \
  "$(flame -p v2.mip --format folded --frame grow_index | awk '{ n += $NF } END { print n + 0 }')" \
  "$(mip_show v2.mip --heap --frame grow_index | jq '[.heap[].TotalSize] | add')"

# Firefox (Debian's firefox-esr, headless) draws the same differential page
# from file://: its screenshot has the regression's red, the improvement's
# blue and the new frame's purple (each box at least 1,000 pixels); the
# page of one profile is drawn in its warm colours, with no blue or purple.
firefox_shot() { # PAGE PNG
  HOME=$TMP timeout 120 firefox-esr --headless --window-size=1200,700 \
    --screenshot "$TMP/$2" "file://$TMP/$1" >>"$CHECK_LOG" 2>&1
}
if firefox_shot diff.html ff-diff.png &&
  node "$HERE/browser/hues.js" ff-diff.png 1000 red blue purple >>"$CHECK_LOG"; then
  pass "Firefox: the differential page from file:// draws the red, blue and purple frames"
else
  fail "Firefox: no screenshot of the differential page, or colours missing"
fi
if firefox_shot single.html ff-single.png &&
  node "$HERE/browser/hues.js" ff-single.png 1000 red >>"$CHECK_LOG" &&
  ! node "$HERE/browser/hues.js" ff-single.png 1000 blue >>"$CHECK_LOG" &&
  ! node "$HERE/browser/hues.js" ff-single.png 1000 purple >>"$CHECK_LOG"; then
  pass "Firefox: the page of one profile is drawn, with no blue or purple (the check can fail)"
else
  fail "Firefox: the page of one profile is blank or shows differential colours"
fi

finish
