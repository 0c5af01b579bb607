#!/bin/sh
# Call counts, first-call order, block coverage and call edges on a small
# program whose every number is known in advance; block coverage inferred
# from few probes against probing every block; merges in any order.
#   test/e2e/modes.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$TMP"
SRC=$HERE/progs/modes

# build_runs NAME MODES ARGS1 ARGS2 SOURCES-AND-FLAGS...: NAME built with
# MODES, run twice, NAME.mip with both runs and its show JSON, NAME.json
build_runs() {
  name=$1 modes=$2 args1=$3 args2=$4
  shift 4
  mip_build "$modes" "$name" "$@"
  mip_runs "$name" "./$name" "$args1" "$args2"
  mip_profile "$name" "$name.mip" "$name.1.mipraw" "$name.2.mipraw"
  mip_show "$name.mip" >"$name.json"
}

# profile NAME MODES CFLAGS: the modes program, run with n=3 and n=10
profile() {
  # shellcheck disable=SC2086 # flag lists
  build_runs "$1" "$2" 3 10 $3 "$SRC/main.c" "$SRC/work.c"
}

expect() { # NAME FUNCTION FIELD WANT
  got=$(mip_field "$1.json" "$2" "$3")
  if [ "$got" = "$4" ]; then
    pass "$1: $2 $3 = $4"
  else
    fail "$1: $2 $3 = $got, want $4"
  fi
}

# n=3: step 3 times, leaf 3 + 2 (even i); n=10: step 10, leaf 10 + 5.
check_counts_and_order() {
  # tick: odd i (1 + 5 calls) and once from rare
  for f in main:2 setup_a:2 setup_b:2 step:13 leaf:20 tick:7 rare:1 never:0; do
    expect "$1" "${f%%:*}" calls "${f#*:}"
  done
  # first calls: main, setup_a, setup_b, step, leaf, then tick (i = 1),
  # then rare (second run only); never is never ranked
  for f in main:1 setup_a:2 setup_b:3 step:4 leaf:5 tick:6 rare:7 never:null; do
    expect "$1" "${f%%:*}" order "${f#*:}"
  done
  expect "$1" rare order_runs 1
  expect "$1" leaf order_runs 2
}

for opt in -O0 -O2; do
  profile "counts$opt" counts,order "$opt"
  check_counts_and_order "counts$opt"
done

# ---- blocks: every line marked HOT is covered, every COLD one is not,
# and every marked line is the line of some block.
profile blocks blocks,counts,order "-O2 -g"
check_counts_and_order blocks
mip_show blocks.mip --debug blocks |
  jq -r '.functions[] | .file as $f | .blocks // [] | .[] | select(.line != null)
         | "\($f | split("/") | last):\(.line) \(.covered)"' | sort -u >block-lines
for file in main.c work.c; do
  grep -n 'HOT \*/\|COLD \*/' "$SRC/$file" | while IFS=: read -r line text; do
    case "$text" in *HOT*) want=true other=false ;; *) want=false other=true ;; esac
    if grep -qx "$file:$line $want" block-lines && ! grep -qx "$file:$line $other" block-lines; then
      pass "blocks: $file:$line covered=$want"
    else
      fail "blocks: $file:$line should be covered=$want: $(grep "^$file:$line " block-lines | tr '\n' ' ')"
    fi
  done
done

# ---- inference against probing every block, here and on the bigger
# coverage programs
probed() { jq '[.functions[] | .blocks // [] | .[] | select(.probed)] | length' "$1.json"; }
blocks_of() { jq -c '[.functions[] | {name, blocks: [(.blocks // [])[] | .covered_runs]}]' "$1.json"; }
profile all-blocks all-blocks,counts,order "-O2 -g"
if [ "$(blocks_of blocks)" = "$(blocks_of all-blocks)" ]; then
  pass "inferred block coverage equals probing every block ($(probed blocks) of $(probed all-blocks) blocks probed)"
else
  fail "inferred block coverage differs from probing every block"
fi
c=$HERE/progs/c
cxx=$HERE/progs/cxx
for opt in -O0 -O2 -O3; do
  for variant in blocks all-blocks; do
    build_runs "c$opt-$variant" "$variant" circle square $opt -I"$c" \
      "$c/main.c" "$c/util.c" "$c/shapes/circle.c" "$c/shapes/square.c" \
      "$c/shapes/triangle.c"
    build_runs "cxx$opt-$variant" "$variant" c "cs x" $opt \
      "$cxx/main.cpp" "$cxx/shapes.cpp"
  done
  for prog in c cxx; do
    if [ "$(blocks_of "$prog$opt-blocks")" = "$(blocks_of "$prog$opt-all-blocks")" ]; then
      pass "$prog $opt: inferred blocks equal probing every block ($(probed "$prog$opt-blocks") of $(probed "$prog$opt-all-blocks") probed)"
    else
      fail "$prog $opt: inferred blocks differ from probing every block"
    fi
  done
done

# ---- edges: one sample per first call in each run
profile edges counts,order,edges "-O2"
jq -r '.edges[] | "\(.caller) \(.callee) \(.samples)"' edges.json | sort >edges.txt
cat >edges.want <<'E'
main rare 1
main setup_a 2
main setup_b 2
main step 2
null main 2
step leaf 2
step tick 2
E
if cmp -s edges.txt edges.want; then
  pass "edges: exactly the first-call edges of both runs"
else
  fail "edges differ: $(diff edges.want edges.txt | tr '\n' ' ')"
fi
[ "$(jq .edge_period edges.json)" = 1024 ] && pass "edge period 1024" ||
  fail "edge period $(jq .edge_period edges.json)"

# A hot loop: leaf called 200000 times gets a sample every 1024 calls.
mip_runs hot ./edges 100000
mip_profile edges hot.mip hot.1.mipraw
mip_show hot.mip >hot.json
calls=$(mip_field hot.json leaf calls)
samples=$(jq '[.edges[] | select(.callee == "leaf") | .samples] | add' hot.json)
want=$(((calls + 1023) / 1024))
[ "$samples" = "$want" ] && pass "edges: $calls calls of leaf give $samples samples" ||
  fail "edges: $calls calls of leaf give $samples samples, want $want"

# ---- merge order and merge trees give the same bytes
for r in 1 2 3; do
  MIP_PROFILE_FILE=m$r.mipraw ./edges $((r * 4)) >/dev/null
done
for order in "m1 m2 m3" "m3 m1 m2" "m2 m3 m1"; do
  "$MIPDATA" create -p "abc.$(echo $order | tr -d ' ')" edges.mipmap
  set -- $order
  "$MIPDATA" merge -p "abc.$(echo $order | tr -d ' ')" "$1.mipraw" "$2.mipraw" "$3.mipraw"
done
"$MIPDATA" create -p tree.left edges.mipmap
"$MIPDATA" create -p tree.right edges.mipmap
"$MIPDATA" merge -p tree.left m1.mipraw
"$MIPDATA" merge -p tree.right m3.mipraw m2.mipraw
"$MIPDATA" merge -p tree.left tree.right
if cmp -s abc.m1m2m3 abc.m3m1m2 && cmp -s abc.m1m2m3 abc.m2m3m1 &&
  cmp -s abc.m1m2m3 tree.left; then
  pass "merging in any order or tree gives identical bytes"
else
  fail "merge results depend on the order of inputs"
fi

finish
