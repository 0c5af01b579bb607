#!/bin/sh
# -fmip-use gives LLVM counts before inlining, through clang's own
# pipeline: a program profiled with counts and edges, rebuilt with the
# profile. The rebuilt IR must carry every profiled function's calls as
# its entry count (in thousandths of a call, 0 for one that never ran; the
# inliner then takes the calls of the sites it inlines) and a profile
# summary; the inliner must inline the call that runs a million
# times, which is too large for it without the profile, and not the small
# function that never ran, which it inlines without; and the rebuilt
# program must print what the plain build prints. With -mllvm
# -mip-use-entry-counts=0 none of this happens (the checks of the counts
# and the inlining must fail).
#   test/e2e/use_counts.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$TMP"

# mix(): a long chain that the inliner's usual threshold (225) refuses;
# rare(): short enough for it, but only called with arguments.
awk 'BEGIN {
  print "#include <stdio.h>"
  print "__attribute__((noinline)) unsigned warm(unsigned x) { return x * 3 + 1; }"
  print "unsigned mix(unsigned x) {"
  for (i = 0; i < 40; i++)
    printf "  x = (x * %d) ^ (x >> %d);\n", 2 * i + 3, i % 13 + 1
  print "  return x;"
  print "}"
  print "unsigned rare(unsigned x) {"
  for (i = 0; i < 6; i++)
    printf "  x = (x * %d) ^ (x >> %d);\n", 2 * i + 5, i % 7 + 1
  print "  return x;"
  print "}"
  print "int main(int argc, char **argv) {"
  print "  (void)argv;"
  print "  if (argc > 5) return (int)rare((unsigned)argc);"
  print "  unsigned s = 0;"
  print "  for (unsigned i = 0; i < 1000000; i++) s += mix(i);"
  print "  for (unsigned i = 0; i < 2000; i++) s += warm(i);"
  print "  printf(\"%u\\n\", s);"
  print "  return 0;"
  print "}"
}' >prog.c

"$MIPCC" -O2 -fmip-generate=counts,edges prog.c -o gen
MIP_PROFILE_FILE=run.mipraw ./gen >gen.out
mip_profile gen prog.mip run.mipraw >/dev/null
"$CLANG" -O2 prog.c -o plain
./plain >plain.out

# use NAME FLAGS...: the rebuild's IR (NAME.ll), its inlining remarks
# (NAME.remarks) and program (NAME)
use() {
  use_name=$1
  shift
  check "$use_name: compiles" "$MIPCC" -O2 -fmip-use=prog.mip "$@" -S -emit-llvm \
    prog.c -o "$use_name.ll" -Rpass=inline -Rpass-missed=inline 2>"$use_name.remarks"
  "$MIPCC" -O2 -fmip-use=prog.mip "$@" prog.c -o "$use_name" 2>/dev/null || : >"$use_name"
}
use use
use late -mllvm -mip-use-entry-counts=0
"$CLANG" -O2 -S -emit-llvm prog.c -o clang.ll -Rpass=inline -Rpass-missed=inline 2>clang.remarks

# entry_count FILE FUNCTION: the function_entry_count of FUNCTION's
# definition, or "none"
entry_count() {
  awk -v f="@$2(" '
    /^define / && index($0, f) { if (match($0, /!prof ![0-9]+/)) md = substr($0, RSTART + 6, RLENGTH - 6); else md = "none" }
    /^![0-9]+ = !\{!"function_entry_count"/ { split($0, a, " "); n[a[1]] = $0 }
    END {
      if (md == "none" || !(md in n)) { print "none"; exit }
      s = n[md]; sub(/.*i64 /, "", s); sub(/}.*/, "", s); print s
    }' "$1"
}
inlined() { grep -q "'$2' inlined into 'main'" "$1.remarks"; }
not_inlined() { grep -q "'$2' not inlined into 'main'" "$1.remarks"; }
summary() { grep -q '!"ProfileSummary"' "$1.ll" && grep -q '!"ProfileFormat", !"InstrProf"' "$1.ll"; }

for b in use late; do
  case $b in use) is=expect_eq ;; *) is=expect_ne ;; esac
  expect_ne() { if [ "$2" != "$3" ]; then pass "$1: $2"; else fail "$1: got '$2'"; fi; }
  $is "$b: main's entry count" "$(entry_count $b.ll main)" 1000
  $is "$b: rare's entry count (never ran)" "$(entry_count $b.ll rare)" 0
  $is "$b: warm's entry count" "$(entry_count $b.ll warm)" 2000000
done
# mix keeps what its calls leave once the inliner took the hot site's
check "use: mix has an entry count" sh -c "[ \"$(entry_count use.ll mix)\" != none ]"
check "use: a profile summary" summary use
check "late: no profile summary" sh -c "! grep -q ProfileSummary late.ll"
check "clang inlines rare, not mix" sh -c "grep -q \"'rare' inlined into 'main'\" clang.remarks && grep -q \"'mix' not inlined into 'main'\" clang.remarks"
check "use inlines mix (hot call site), not rare (never ran)" sh -c "grep -q \"'mix' inlined into 'main'\" use.remarks && grep -q \"'rare' not inlined into 'main'\" use.remarks"
check "late inlines as clang does" sh -c "grep -q \"'rare' inlined into 'main'\" late.remarks && grep -q \"'mix' not inlined into 'main'\" late.remarks"
for b in use late; do
  ./$b >$b.out 2>/dev/null
  check "$b prints what plain prints" cmp -s $b.out plain.out
done
finish
