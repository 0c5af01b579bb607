#!/bin/sh
# IR-level tests of the plugin: every test/ir/*.ll carries "; RUN:" lines,
# run through sh with these substitutions, each of which must succeed:
#   %s       the test file         %opt     opt loading the plugin
#   %default-opt  the same for the default release (lib/mip/libmip.so's)
#   %S       the test directory    %clang   clang
#   %llc     llc                   %t       a scratch file prefix
#   %FileCheck, %objdump, %readelf tools from that LLVM (not, count on PATH)
#   %profile FILE MODES OUT        a real profile of FILE in OUT.mip
#                                  (profile.sh: instrument, run, merge)
#   %lib                           test/e2e/lib.sh sourced: its helpers
#                                  (dump_offset, with_byte, ...) follow
#
# A "; REQUIRES: FEATURE..." line names what the test needs: an LLVM
# target llc was built with ("aarch64", "x86-64", as `llc --version` lists
# them), or what the LLVM release is: "llvm-K+" (release K or later: a
# test of what an older release's opt cannot read or its llc and objdump
# print otherwise), "block-inference" (17 and later) or
# "no-block-inference" (docs/llvm.md). A test whose feature is missing is
# skipped, saying so.
#
# MIP_LLVM=N runs them against LLVM release N: its opt, llc, clang and
# plugin (test/e2e/lib.sh).
#
#   test/ir/run.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/../e2e/lib.sh"
make_tmp
PATH=$LLVM_BIN:$PATH # not, count
export BUILD # for %lib

# The features this machine has, one a line.
"$LLVM_BIN/llc" --version | awk '/Registered Targets:/ {t = 1; next} t {print $1}' \
  >"$TMP/features"
k=14
while [ "$k" -le "$LLVM_RELEASE" ]; do
  echo "llvm-$k+" >>"$TMP/features"
  k=$((k + 1))
done
if [ "$LLVM_RELEASE" -ge 17 ]; then
  echo block-inference
else
  echo no-block-inference
fi >>"$TMP/features"
echo "LLVM $LLVM_RELEASE: $MIP_PLUGIN"
default=$(readlink "$BUILD/lib/mip/libmip.so" | sed -n 's|^llvm-\([0-9]*\)/.*|\1|p')
default=${default:-$LLVM_RELEASE}
DEFAULT_OPT="/usr/lib/llvm-$default/bin/opt -load-pass-plugin=$BUILD/lib/mip/libmip.so"
[ "$default" -lt 15 ] && DEFAULT_OPT="$DEFAULT_OPT -opaque-pointers"

# missing_feature TEST: the first feature TEST requires that is missing.
missing_feature() {
  for feature in $(sed -n 's/^; REQUIRES: //p' "$1"); do
    grep -qxF "$feature" "$TMP/features" || {
      echo "$feature"
      return
    }
  done
}

for test in "$HERE"/*.ll; do
  name=$(basename "$test")
  missing=$(missing_feature "$test")
  if [ -n "$missing" ]; then
    echo "skipped: $name (needs $missing)"
    continue
  fi
  status=ok
  grep '^; RUN: ' "$test" | sed 's/^; RUN: //' >"$TMP/commands"
  n=0
  while IFS= read -r command; do
    n=$((n + 1))
    command=$(printf '%s\n' "$command" | sed \
      -e "s|%default-opt|$DEFAULT_OPT|g" \
      -e "s|%opt|$LLVM_BIN/opt $OPT_FLAGS -load-pass-plugin=$MIP_PLUGIN|g" \
      -e "s|%llc|$LLVM_BIN/llc $IR_FLAGS|g" \
      -e "s|%clang|$CLANG $CLANG_IR_FLAGS|g" \
      -e "s|%S|$HERE|g" \
      -e "s|%FileCheck|$LLVM_BIN/FileCheck|g" \
      -e "s|%objdump|$LLVM_BIN/llvm-objdump|g" \
      -e "s|%readelf|$LLVM_BIN/llvm-readelf|g" \
      -e "s|%profile|$HERE/profile.sh $BUILD|g" \
      -e "s|%lib|. $HERE/../e2e/lib.sh;|g" \
      -e "s|%t|$TMP/$name|g" \
      -e "s|%s|$test|g")
    if ! sh -c "$command" >"$TMP/out" 2>&1; then
      status=failed
      echo "     $command"
      sed 's/^/     /' "$TMP/out" | head -n 30
      break
    fi
  done <"$TMP/commands"
  if [ "$n" -eq 0 ]; then
    fail "$name: no RUN lines"
  elif [ "$status" = ok ]; then
    pass "$name ($n commands)"
  else
    fail "$name"
  fi
done

finish
