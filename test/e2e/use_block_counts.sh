#!/bin/sh
# -fmip-generate=block-counts and the rebuild that uses it, through clang's
# own pipeline, on a C and C++ program (progs/block_counts: loops, a
# switch, a static function every call inlines, a function that never
# runs, exceptions thrown through a call). The ground truth is LLVM's own
# instrumented PGO (-fprofile-generate), which counts every function's
# entries before inlining too: llvm-profdata's "Function count".
#   1. the instrumented program prints what the plain one prints, and the
#      profile says how many functions have block counts;
#   2. the rebuild gives every function, the inlined static one too, the
#      calls LLVM's profile counted, from its block counts alone (no
#      counts mode), for one run and for two merged;
#   3. the rebuilt IR carries those entry counts and a profile summary,
#      and the rebuilt program prints what the plain one prints;
#   4. a function changed since: its block counts are not used (a missed
#      remark names it), the others' are;
#   5. a profile without block counts gives no such counts;
#   6. the counters of a function in a COMDAT group (an inline C++
#      function used by two units) are kept once, and count the calls of
#      both units;
#   7. under ThinLTO, the same counts, and the rebuild uses them;
#   8. with LLVM 14 (when its plugin is built), block counts are counted
#      and the rebuild says, once, that it uses them only from LLVM 19.
#   test/e2e/use_block_counts.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
PROG=$HERE/progs/block_counts
make_tmp
cd "$TMP"
cp "$PROG"/* .
PROFDATA=$LLVM_BIN/llvm-profdata

# build OUT FLAGS...: the program, each file compiled with FLAGS at -O2
build() {
  build_out=$1
  shift
  for src in main.c work.c; do
    "$MIPCC" -O2 -g "$@" -c "$src" -o "$build_out.${src%.c}.o" 2>>"$build_out.remarks" || return
  done
  "$MIPCXX" -O2 -g "$@" -c parse.cpp -o "$build_out.parse.o" 2>>"$build_out.remarks" || return
  "$MIPCXX" -O2 "$@" "$build_out".*.o -o "$build_out" 2>>"$build_out.remarks"
}

# entry_counts FILE.ll [DIVISOR]: "FUNCTION COUNT" for each function
# FILE defines with an entry count (divided by DIVISOR)
entry_counts() {
  awk -v div="${2:-1}" '
    /^define / && match($0, /@[^(]*\(/) {
      f = substr($0, RSTART + 1, RLENGTH - 2)
      if (match($0, /!prof ![0-9]+/)) md[f] = substr($0, RSTART + 6, RLENGTH - 6)
    }
    /^![0-9]+ = !\{!"function_entry_count"/ { c = $0; sub(/.*i64 /, "", c); sub(/}.*/, "", c); n[$1] = c }
    END { for (f in md) if (md[f] in n) print f, n[md[f]] / div }' "$1" | sort
}

# llvm_ir NAME INPUT...: NAME.ll, the IR of every file rebuilt with LLVM's
# profile of runs with each INPUT, merged
llvm_ir() {
  llvm_name=$1
  shift
  rm -f llvm.*.profraw
  for n in "$@"; do LLVM_PROFILE_FILE=llvm.$n.profraw ./llvm "$n" >/dev/null; done
  "$PROFDATA" merge -o "$llvm_name.profdata" llvm.*.profraw
  for src in main.c work.c parse.cpp; do
    "$CLANG" -O2 -fprofile-use="$llvm_name.profdata" -S -emit-llvm "$src" -o - 2>/dev/null
  done >"$llvm_name.ll"
}

# mip_ir NAME PROFILE: NAME.ll, the IR of every file rebuilt with PROFILE,
# and NAME.remarks
mip_ir() {
  for src in main.c work.c parse.cpp; do
    "$MIPCC" -O2 -fmip-use="$2" -Rpass=mip -S -emit-llvm "$src" -o - 2>>"$1.remarks"
  done >"$1.ll"
}

# mip_counts REMARKS: "FUNCTION COUNT" lines of the rebuild's remarks
mip_counts() {
  sed -n 's/.*remark: \([^:]*\): \([0-9]*\) calls and its branches from its block counts.*/\1 \2/p' "$1" | sort -u
}

# profile NAME INPUT...: NAME.mip from runs of bc with each INPUT
profile() {
  profile_name=$1
  shift
  rm -f "$profile_name".*.mipraw
  for n in "$@"; do MIP_PROFILE_FILE=$profile_name.$n.mipraw ./bc "$n" >/dev/null; done
  mip_profile bc "$profile_name.mip" "$profile_name".*.mipraw >/dev/null
}

"$CLANG" -O2 main.c work.c -c && "$CLANGXX" -O2 parse.cpp -c && "$CLANGXX" main.o work.o parse.o -o plain
./plain 1000 >plain.out
"$CLANG" -O2 -fprofile-generate main.c work.c -c && "$CLANGXX" -O2 -fprofile-generate parse.cpp -c &&
  "$CLANGXX" -fprofile-generate main.o work.o parse.o -o llvm

# ---- 1. the instrumented program ------------------------------------------------
check "block-counts: builds" build bc -fmip-generate=block-counts
./bc 1000 >bc.out 2>bc.err
check "block-counts: prints what plain prints" cmp -s bc.out plain.out
check "block-counts: nothing on stderr" sh -c "! test -s bc.err"
profile one 1000
expect_eq "show: block counts of every function, the inlined static one too" \
  "$(mip_show one.mip | jq -r .summary.block_counts)" 7

# ---- 2, 3. the rebuild's counts against LLVM's ------------------------------------
# LLVM's rebuild gives each function its calls as entry count; MIP's, in
# thousandths of a call. Both inline twice (LLVM before it counts), so its
# calls are the program's: one per input.
llvm_ir llvm.one 1000
entry_counts llvm.one.ll >llvm.one.counts
check "rebuild: compiles" build use -fmip-use=one.mip -Rpass=mip -Rpass-missed=mip
mip_ir mip.one one.mip
entry_counts mip.one.ll 1000 >mip.one.counts
expect_eq "rebuild: LLVM's rebuild counts 6 functions" "$(wc -l <llvm.one.counts | tr -d ' ')" 6
check "rebuild: entry counts equal LLVM's ($(tr '\n' ' ' <mip.one.counts))" diff llvm.one.counts mip.one.counts
mip_counts mip.one.remarks >mip.one.remarked
expect_eq "rebuild: every function counted" "$(wc -l <mip.one.remarked | tr -d ' ')" 7
expect_eq "rebuild: the static function every call inlined" "$(grep '^twice ' mip.one.remarked)" "twice 1000"
expect_eq "rebuild: the function exceptions leave" "$(grep '^_Z5parsei ' mip.one.remarked)" "_Z5parsei 1000"
expect_eq "rebuild: the function that never ran" "$(grep '^never ' mip.one.remarked)" "never 0"
check "rebuild: a profile summary" grep -q '!"ProfileSummary"' mip.one.ll
profile two 1000 500
llvm_ir llvm.two 1000 500
entry_counts llvm.two.ll >llvm.two.counts
mip_ir mip.two two.mip
entry_counts mip.two.ll 1000 >mip.two.counts
check "two runs merged: entry counts equal LLVM's ($(tr '\n' ' ' <mip.two.counts))" diff llvm.two.counts mip.two.counts
expect_eq "two runs merged: twice" "$(mip_counts mip.two.remarks | grep '^twice ')" "twice 1500"
./use 1000 >use.out
check "rebuilt: prints what plain prints" cmp -s use.out plain.out
# The branches: each weight MIP's rebuild of work.c gives is one LLVM's
# gives, and it gives all but those of selects (which LLVM counts apart).
weights() { sed -n 's/^![0-9]* = \(!{!"branch_weights".*\)/\1/p' "$1" | sort; }
"$CLANG" -O2 -fprofile-use=llvm.one.profdata -S -emit-llvm work.c -o llvm.work.ll
"$MIPCC" -O2 -fmip-use=one.mip -S -emit-llvm work.c -o mip.work.ll 2>mip.work.err
weights llvm.work.ll >llvm.weights
weights mip.work.ll >mip.weights
check "branch weights: MIP's are LLVM's ($(wc -l <mip.weights | tr -d ' ') of $(wc -l <llvm.weights | tr -d ' '))" \
  sh -c "[ -s mip.weights ] && [ -z \"\$(comm -23 mip.weights llvm.weights)\" ]"
check "branch weights: all but one of LLVM's" sh -c "[ \$(comm -13 mip.weights llvm.weights | wc -l) -le 1 ]"
check "rebuild: no function said to differ" sh -c "! grep -q 'differ' mip.work.err"

# ---- 4. a changed function ------------------------------------------------------------
sed -i 's/^  if (x % 7 == 0)$/  if (x % 7 == 0 || x == -5)/' work.c
grep -q 'x == -5' work.c || fail "the change to work.c was not made"
"$MIPCC" -O2 -fmip-use=one.mip -Rpass=mip -Rpass-missed=mip -c work.c -o changed.o 2>changed.remarks
check "changed: classify's block counts not used, said once" \
  sh -c "[ \$(grep -c 'block counts not used: the function changed' changed.remarks) = 1 ]"
check "changed: the remark is classify's" grep -q 'work.c:1:.*block counts not used' changed.remarks
check "changed: walk still counted" grep -q 'walk: 1 calls and its branches' changed.remarks
cp "$PROG/work.c" work.c

# ---- 5. a profile without block counts ------------------------------------------------
rm -f counts.remarks
build counts -fmip-generate=counts
MIP_PROFILE_FILE=counts.mipraw ./counts 1000 >/dev/null
mip_profile counts counts.mip counts.mipraw >/dev/null
"$MIPCC" -O2 -fmip-use=counts.mip -Rpass=mip -c work.c -o counts-use.o 2>counts-use.remarks
check "counts only: no block-count remark" sh -c "! grep -q 'from its block counts' counts-use.remarks"

# ---- 6. a COMDAT function inlined in two units ------------------------------------------
cat >shared.h <<'EOF'
inline int step(int x) {
  if (x & 1)
    return 3 * x + 1;
  return x / 2;
}
int in_a(int n);
int in_b(int n);
EOF
printf '#include "shared.h"\nint in_a(int n) { int s = 0; for (int i = 0; i < n; i++) s += step(i); return s; }\n' >a.cpp
printf '#include "shared.h"\n#include <stdio.h>\nint in_b(int n) { int s = 0; for (int i = 0; i < n; i++) s += step(i); return s; }\nint main() { printf("%%d\\n", in_a(300) + in_b(200)); return 0; }\n' >b.cpp
"$MIPCXX" -O2 -fmip-generate=block-counts a.cpp b.cpp -o comdat 2>comdat.err
check "COMDAT: links" test -x comdat
MIP_PROFILE_FILE=comdat.mipraw ./comdat >/dev/null
mip_profile comdat comdat.mip comdat.mipraw >/dev/null
"$MIPCXX" -O2 -fmip-use=comdat.mip -Rpass=mip -c a.cpp -o a.o 2>comdat.remarks
expect_eq "COMDAT: step counted once for both units" \
  "$(sed -n 's/.*remark: _Z4stepi: \([0-9]*\) calls.*/\1/p' comdat.remarks | sort -u)" 500

# ---- 7. ThinLTO ----------------------------------------------------------------------------
rm -f lto.remarks
build lto -flto=thin -fmip-generate=block-counts
MIP_PROFILE_FILE=lto.mipraw ./lto 1000 >lto.out
check "ThinLTO: prints what plain prints" cmp -s lto.out plain.out
mip_profile lto lto.mip lto.mipraw >/dev/null
expect_eq "ThinLTO: block counts of every function" "$(mip_show lto.mip | jq -r .summary.block_counts)" 7
rm -f lto-use.remarks
build lto-use -flto=thin -fmip-use=lto.mip -Rpass=mip
check "ThinLTO: the rebuild's counts are those without LTO" diff mip.one.remarked "$(mip_counts lto-use.remarks >lto.remarked && echo lto.remarked)"

# ---- 8. LLVM 14 ---------------------------------------------------------------------------
if [ -f "$BUILD/lib/mip/llvm-14/libmip.so" ]; then
  "$MIPCC" --mip-llvm=14 -O2 -fmip-generate=block-counts work.c main.c -c 2>old.err &&
    "$MIPCXX" --mip-llvm=14 -O2 -fmip-generate=block-counts parse.cpp -c 2>>old.err &&
    "$MIPCXX" --mip-llvm=14 main.o work.o parse.o -o old 2>>old.err
  check "LLVM 14: builds" test -x old
  MIP_PROFILE_FILE=old.mipraw ./old 1000 >old.out
  check "LLVM 14: prints what plain prints" cmp -s old.out plain.out
  mip_profile old old.mip old.mipraw >/dev/null
  expect_eq "LLVM 14: block counts of every function" \
    "$(mip_show old.mip | jq -r .summary.block_counts)" 7
  "$MIPCC" --mip-llvm=14 -O2 -fmip-use=old.mip -c work.c -o old-use.o 2>old-use.err
  expect_eq "LLVM 14: the rebuild says it once" \
    "$(grep -c 'block counts are used by LLVM 19 and later only' old-use.err)" 1
fi
finish
