#!/bin/sh
# mipdata order: a program with a known start-up sequence, two hot call
# chains and never-called functions (test/e2e/progs/order). The ordering
# file must list exactly what the program's shape says, and lld and gold
# must lay the functions out in that order.
#   test/e2e/order.sh BUILD_DIR [MIPDATA]
# MIPDATA defaults to BUILD_DIR/bin/mipdata; the sanitizer pass can give a
# mipdata built with ASan and UBSan.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
if [ -n "${2:-}" ]; then MIPDATA=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
PROG=$HERE/progs/order
NM=$LLVM_BIN/llvm-nm
make_tmp
cd "$TMP"

SOURCES="main init work hash cold"
GEN=-fmip-generate=counts,order,edges

# ---- the instrumented build, one run, the profile ------------------------
for s in $SOURCES; do
  "$MIPCC" $GEN -O2 -ffunction-sections -c "$PROG/$s.c" -o "$s.o"
done
OBJS=$(for s in $SOURCES; do printf '%s.o ' "$s"; done)
# shellcheck disable=SC2086 # the object list is meant to be split
"$MIPCC" $GEN $OBJS -o prog
./prog >run.out
mip_profile prog prog.mip default.mipraw

# lines FILE: the file on one line, for messages and comparisons
lines() { tr '\n' ' ' <"$1" | sed 's/ $//'; }

# ---- 1. the order ---------------------------------------------------------
"$MIPDATA" order -p prog.mip -o order.txt >summary.txt 2>err.txt
"$MIPDATA" order -p prog.mip --explain >explain.txt
# Cold functions come in profile order: ask show for it.
cold=$(mip_show prog.mip |
  jq -r '[.functions[] | select(.calls > 0) | .name] as $called |
         [.functions[] | select(.calls == 0) | .name |
          select(. as $n | any($called[]; . == $n) | not)] | join(" ")')
startup="main config_load tables_init helper log_open progress report"
hot="work_step mix rotl hash_a hash_b"
want="$startup $hot $cold"
got=$(lines order.txt)
if [ "$got" = "$want" ]; then
  pass "order: start-up by first call, hot clusters, cold last: $got"
else
  fail "order: got '$got', want '$want'"
  cat explain.txt
fi
[ ! -s err.txt ] && pass "no notes for a full profile" ||
  fail "unexpected stderr: $(cat err.txt)"
if [ "$(sort order.txt | uniq -d)" = "" ] &&
  [ "$(wc -l <order.txt)" = 14 ]; then
  pass "every function name once (14 names; the cold static helper shares its name)"
else
  fail "duplicates or missing names: $(lines order.txt)"
fi
grep -q "^order.txt: 14 symbols: 7 start-up, 5 hot in 2 clusters, 0 warm, 3 cold$" summary.txt &&
  pass "summary: $(cat summary.txt)" || fail "summary: $(cat summary.txt)"

# The placement explained: groups and clusters as the program's shape says.
"$MIPDATA" order -p prog.mip --explain=json >explain.json
groups=$(jq -r '[.functions[] | "\(.name):\(.group):\(.cluster // "-")"] | join(" ")' explain.json)
want_groups="main:startup:- config_load:startup:- tables_init:startup:- helper:startup:- log_open:startup:- progress:startup:- report:startup:- work_step:hot:1 mix:hot:1 rotl:hot:1 hash_a:hot:2 hash_b:hot:2"
case "$groups" in
"$want_groups "*) pass "explain: groups and clusters" ;;
*) fail "explain: $groups" ;;
esac
n=$(jq '[.functions[] | select(.group == "cold")] | length' explain.json)
dup=$(jq -r '[.functions[] | select(.line == null) | "\(.name):\(.group)"] | join(" ")' explain.json)
[ "$n" = 3 ] && [ "$dup" = "helper:cold" ] &&
  pass "explain: 3 cold functions, the cold static helper not written again" ||
  fail "explain: cold $n, unwritten '$dup'"
"$MIPDATA" order -p prog.mip --explain=yaml | grep -q '^  - line: 1$' &&
  pass "explain: yaml" || fail "explain: yaml"

# --startup N: the ranked functions beyond N go after the hot ones.
"$MIPDATA" order -p prog.mip -o order5.txt --startup 5 >/dev/null
got=$(lines order5.txt)
want="main config_load tables_init helper log_open $hot progress report $cold"
[ "$got" = "$want" ] && pass "--startup 5: $got" || fail "--startup 5: got '$got', want '$want'"

# --cluster-size too small for any pair: every hot function on its own,
# densest first; --hot-share 0.5: only the two most-called are hot.
"$MIPDATA" order -p prog.mip --cluster-size 1 --explain=json >small.json
n=$(jq '[.functions[] | select(.group == "hot") | .cluster] | unique | length' small.json)
[ "$n" = 5 ] && pass "--cluster-size 1: 5 single-function clusters" ||
  fail "--cluster-size 1: $n clusters"
"$MIPDATA" order -p prog.mip --hot-share 0.5 --explain=json >half.json
got=$(jq -r '[.functions[] | select(.group == "hot") | .name] | join(" ")' half.json)
[ "$got" = "mix rotl" ] && pass "--hot-share 0.5: hot = $got" ||
  fail "--hot-share 0.5: hot = '$got'"

# Deterministic: the same profile, the same file; two merged runs too.
"$MIPDATA" order -p prog.mip -o again.txt >/dev/null
cmp -s order.txt again.txt && pass "deterministic" || fail "two runs differ"
MIP_PROFILE_FILE=second.mipraw ./prog >/dev/null
cp prog.mip two.mip
"$MIPDATA" merge -p two.mip second.mipraw
"$MIPDATA" order -p two.mip -o two.txt >/dev/null
cmp -s order.txt two.txt && pass "two runs merged: same order" ||
  fail "two runs merged: $(lines two.txt)"

# gold form: the function sections, in the same order, each hot or cold
# function's .text.hot. or .text.unlikely. section (what -fmip-use makes
# of it) right before its .text. one; helper's for the cold static helper
# of cold.c, which shares the line.
"$MIPDATA" order -p prog.mip -o gold.txt --format gold >/dev/null
awk -v hot="$hot" -v cold="$cold helper" '
  BEGIN { n = split(hot, h, " "); for (i = 1; i <= n; i++) H[h[i]] = 1
          n = split(cold, c, " "); for (i = 1; i <= n; i++) C[c[i]] = 1 }
  { if ($1 in H) print ".text.hot." $1
    if ($1 in C) print ".text.unlikely." $1
    print ".text." $1 }' order.txt >gold.want
cmp -s gold.txt gold.want &&
  pass "gold form: .text.<symbol>, hot and cold sections first, same order" ||
  fail "gold form: $(lines gold.txt)"

# ---- 2. the linkers follow it ---------------------------------------------
# follows BINARY ORDER_FILE: the program's functions in BINARY, by address,
# must come in the order of the file's lines, with nothing in between.
follows() {
  "$NM" -n "$1" | awk '$2 ~ /^[tT]$/ { print $3 }' >syms.txt
  awk 'NR == FNR { line[$1] = NR; next }
       ($1 in line) { if (line[$1] < last || gap) bad = 1; last = line[$1]; seen++; inside = 1; next }
       inside { gap = 1 }
       END { exit bad || seen < 15 }' "$2" syms.txt
}
# A default link puts the files in command-line order: cold.c first, so the
# check below means something.
# shellcheck disable=SC2046 # the source list is meant to be split
"$CLANG" -O2 -ffunction-sections $(for s in cold hash init main work; do
  printf '%s ' "$PROG/$s.c"; done) -fuse-ld=lld -o plain-default
if follows plain-default order.txt; then
  fail "the default layout already follows the order (test proves nothing)"
else
  pass "the default layout does not follow the order"
fi

# Each linker twice: a plain build from source, and the instrumented
# objects relinked (which must still run and print the same).
for linker in lld gold; do
  if [ "$linker" = gold ]; then
    if ! command -v ld.gold >/dev/null; then
      echo "skip gold: ld.gold not installed"
      continue
    fi
    flag=-Wl,--section-ordering-file=gold.txt
  else
    flag=-Wl,--symbol-ordering-file=order.txt
  fi
  # shellcheck disable=SC2046 # the source list is meant to be split
  if "$CLANG" -O2 -ffunction-sections $(for s in $SOURCES; do
    printf '%s ' "$PROG/$s.c"; done) -fuse-ld=$linker "$flag" \
    -o plain-$linker 2>link.err && [ ! -s link.err ] &&
    follows plain-$linker order.txt; then
    pass "$linker: plain build follows the order"
  else
    fail "$linker: plain build: $(cat link.err)"
    "$NM" -n plain-$linker | grep -i ' t '
  fi
  # shellcheck disable=SC2086
  if "$MIPCC" $GEN $OBJS -fuse-ld=$linker "$flag" -o instr-$linker \
    2>link.err && [ ! -s link.err ] && follows instr-$linker order.txt &&
    ./instr-$linker >instr.out && cmp -s run.out instr.out; then
    pass "$linker: instrumented objects relinked follow the order, same output"
  else
    fail "$linker: instrumented relink: $(cat link.err)"
  fi
done

# ---- 3. profiles it cannot use --------------------------------------------
# refused NAME EXPECTED_STATUS PATTERN ARGS...: non-zero exit, no output
# file, an existing one left alone; on stderr one line matching PATTERN (a
# usage error, status 2, adds the usage, which takes two lines).
refused() {
  name=$1 want=$2 pattern=$3
  shift 3
  rm -f out.txt kept.txt
  printf 'old\n' >kept.txt
  set +e
  "$MIPDATA" order "$@" -o out.txt >out.log 2>err.txt
  rc=$?
  "$MIPDATA" order "$@" -o kept.txt >/dev/null 2>&1
  set -e
  expect_lines=1
  [ "$want" = 2 ] && expect_lines=2
  if [ "$rc" = "$want" ] && [ "$(wc -l <err.txt)" = $expect_lines ] &&
    head -n 1 err.txt | grep -q "$pattern" && [ ! -e out.txt ] &&
    [ "$(cat kept.txt)" = old ] && ! ls ./*.tmp* >/dev/null 2>&1; then
    pass "$name: exit $rc, $(head -n 1 err.txt)"
  else
    fail "$name: exit $rc (want $want), stderr: $(cat err.txt)"
  fi
}

refused "missing profile" 1 "^mipdata: nothing.mip: " -p nothing.mip
truncated prog.mip "$(($(dump_value prog.mip .header.header_size) / 2))" trunc.mip
refused "truncated profile" 1 "^mipdata: trunc.mip: " -p trunc.mip
printf 'not a profile\n' >text.mip
refused "not a profile" 1 "^mipdata: text.mip: " -p text.mip
"$MIPDATA" create -p fresh.mip prog.mipmap
refused "profile without runs" 1 "^mipdata: fresh.mip: no runs merged" -p fresh.mip

# profile_of NAME MODES: the program built with MODES, run once, NAME.mip
profile_of() {
  mip_build "$2" "$1" -O2 "$PROG"/*.c
  mip_runs "$1" "./$1" ""
  mip_profile "$1" "$1.mip" "$1.1.mipraw"
}

# coverage only: no call counts
profile_of cov coverage
refused "coverage-only profile" 1 "^mipdata: cov.mip: no call counts" -p cov.mip

refused "bad --format" 2 "^mipdata order: unknown format 'bfd'" -p prog.mip --format bfd
refused "bad --hot-share" 2 "^mipdata order: --hot-share" -p prog.mip --hot-share 1.5
refused "bad --startup" 2 "^mipdata order: --startup" -p prog.mip --startup -3
set +e
"$MIPDATA" order -p prog.mip 2>err.txt; rc=$?
"$MIPDATA" order -p prog.mip -o /proc/no/such/dir/o.txt 2>err2.txt; rc2=$?
set -e
[ "$rc" = 2 ] && grep -q -- "-o ORDER_FILE is required" err.txt &&
  pass "no -o: usage error" || fail "no -o: exit $rc, $(cat err.txt)"
[ "$rc2" = 1 ] && [ "$(wc -l <err2.txt)" = 1 ] &&
  grep -q "^mipdata: /proc/no/such/dir/o.txt: " err2.txt &&
  pass "unwritable output: $(cat err2.txt)" ||
  fail "unwritable output: exit $rc2, $(cat err2.txt)"

# counts without order and edges: one note, called functions by calls.
profile_of counts counts
"$MIPDATA" order -p counts.mip -o counts.txt >/dev/null 2>err.txt
head -n 5 counts.txt | tr '\n' ' ' >top.txt
if [ "$(wc -l <err.txt)" = 1 ] &&
  grep -q "^mipdata: counts.mip: note: no first-call order" err.txt &&
  [ "$(cat top.txt)" = "mix rotl hash_a hash_b work_step " ] &&
  [ "$(sed -n 6p counts.txt)" = progress ]; then
  pass "counts only: $(cat err.txt)"
else
  fail "counts only: stderr '$(cat err.txt)', order $(lines counts.txt)"
fi

finish
