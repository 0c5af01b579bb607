#!/bin/sh
# Counts and first-call order with 8 threads: exact with the atomic mode,
# never more than the truth (and exact where one thread calls) without it;
# ranks unique, 1..N, main's first callee before anything the threads run.
#   test/e2e/threads.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
PROGS=$HERE/progs/threads
make_tmp
cd "$TMP"

THREADS=8
HOT=200000
"$MIPCC" -fmip-generate=counts,order,atomic -O2 -pthread "$PROGS/main.c" -o atomic
"$MIPCC" -fmip-generate=counts,order -O2 -pthread "$PROGS/main.c" -o plain

# profile BINARY: runs it once, into BINARY.mip and BINARY.json
profile() {
  mip_runs "$1" "./$1" ""
  mip_profile "$1" "$1.mip" "$1.1.mipraw"
  mip_show "$1.mip" >"$1.json"
}

calls() { mip_field "$1" "$2" calls; } # JSON NAME

# The calls each function really gets: NAME COUNT, one a line.
{
  echo "main 1"
  echo "first 1"
  echo "worker $THREADS"
  echo "hot $((THREADS * HOT))"
  i=0
  while [ $i -lt $THREADS ]; do
    echo "only$i $(((i + 1) * 1000))"
    i=$((i + 1))
  done
} >truth.txt

check_order() {
  json=$1.json
  # every function that ran has a rank, and the ranks are 1..N
  ranks=$(jq -r '[.functions[] | select(.calls > 0) | .order] | sort | map(tostring) | join(" ")' "$json")
  n=$(jq '[.functions[] | select(.calls > 0)] | length' "$json")
  want=$(seq 1 "$n" | tr '\n' ' ' | sed 's/ $//')
  dups=$(jq '[.functions[] | select(.order != null) | .order] | length - (unique | length)' "$json")
  unranked=$(jq '[.functions[] | select((.calls > 0) != (.order != null))] | length' "$json")
  [ "$dups" = 0 ] && [ "$unranked" = 0 ] &&
    pass "$1: the functions that ran, and only they, have ranks, all different" ||
    fail "$1: $dups duplicate ranks, $unranked functions ranked but not run or run but not ranked"
  # Unique but with a gap: two threads both saw the function's coverage
  # byte clear and both took a tick from the clock; one tick went unused.
  [ "$ranks" = "$want" ] && pass "$1: the $n functions that ran rank exactly 1..$n" ||
    fail "$1: ranks '$ranks', want '$want' (a gap is a tick taken by a thread that lost the race to rank a function)"
  runs=$(jq -r '[.functions[] | select(.calls > 0) | .order_runs] | unique | map(tostring) | join(" ")' "$json")
  [ "$runs" = 1 ] && pass "$1: each ranked in the one run" || fail "$1: order_runs $runs"
  # main, then first (before any thread starts), then the threads' own
  first=$(jq '.functions[] | select(.name == "first") | .order' "$json")
  main=$(jq '.functions[] | select(.name == "main") | .order' "$json")
  below=$(jq --argjson f "$first" '[.functions[] | select(.name | test("^(hot|worker|only[0-9])$")) | select(.order <= $f)] | length' "$json")
  [ "$main" = 1 ] && [ "$first" = 2 ] && [ "$below" = 0 ] &&
    pass "$1: main ranks 1, first 2, every thread function after" ||
    fail "$1: main $main, first $first, $below thread functions at or before first"
}

# 1. atomic: every count exact
profile atomic
while read -r name want; do
  got=$(calls atomic.json "$name")
  [ "$got" = "$want" ] && pass "atomic: $name called $got times" ||
    fail "atomic: $name called $got times, want $want"
done <truth.txt
covered=$(jq '[.functions[] | select(.covered_runs == 1)] | length' atomic.json)
[ "$covered" = "$(wc -l <truth.txt)" ] && pass "atomic: all $covered functions covered" ||
  fail "atomic: $covered functions covered"
check_order atomic

# 2. plain increments: never more than the truth; exact where one thread
# calls; how many the contended ones lost is printed, not checked
profile plain
while read -r name want; do
  got=$(calls plain.json "$name")
  case $name in
  hot | worker)
    if [ "$got" -le "$want" ] && [ "$got" -gt 0 ]; then
      pass "plain: $name $got <= $want"
      echo "     plain mode lost $((want - got)) of $want increments of $name"
    else
      fail "plain: $name $got, want at most $want"
    fi
    ;;
  *)
    [ "$got" = "$want" ] && pass "plain: $name called $got times (one thread)" ||
      fail "plain: $name called $got times, want $want"
    ;;
  esac
done <truth.txt
check_order plain

finish
