#!/bin/sh
# The runtime inside real programs: when it writes, where, and that it
# never changes what the program does.
#   test/e2e/runtime.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$TMP"

cat >prog.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
__attribute__((noinline)) void in_atexit(void) { puts("atexit ran"); }
__attribute__((noinline)) void in_destructor(void) { puts("destructor ran"); }
__attribute__((destructor)) static void late(void) { in_destructor(); }
int main(int argc, char **argv) {
  atexit(in_atexit);
  if (argc > 1 && strcmp(argv[1], "exit") == 0)
    exit(5);
  puts("main done");
  return 3;
}
C
cat >statics.cpp <<'C'
#include <cstdio>
__attribute__((noinline)) void from_static_destructor() { std::puts("static gone"); }
struct Global { ~Global() { from_static_destructor(); } } global;
int main() { return 0; }
C
"$MIPCC" -fmip-generate -O2 prog.c -o prog
"$MIPCXX" -fmip-generate -O2 statics.cpp -o statics
"$MIPDATA" extract prog -o prog.mipmap >/dev/null
"$MIPDATA" extract statics -o statics.mipmap >/dev/null

# covered_in RAW MAPFILE NAME: prints covered_runs of NAME
covered_in() {
  "$MIPDATA" create -p check.mip "$2"
  "$MIPDATA" merge -p check.mip "$1"
  "$MIPDATA" show -p check.mip --format json |
    jq -r --arg n "$3" '.functions[] | select(.name == $n) | .covered_runs'
}

# 1. exit status and output are the program's own, by return and by exit()
set +e
./prog >out.txt 2>err.txt; rc=$?
set -e
if [ "$rc" = 3 ] && [ ! -s err.txt ] && grep -q "main done" out.txt &&
  [ -s default.mipraw ]; then
  pass "return from main: status 3 kept, profile written, stderr empty"
else
  fail "return from main: status $rc, stderr: $(cat err.txt)"
fi
set +e
MIP_PROFILE_FILE=exit.mipraw ./prog exit >/dev/null; rc=$?
set -e
[ "$rc" = 5 ] && [ -s exit.mipraw ] &&
  pass "exit(5): status kept, profile written" || fail "exit(5): status $rc"

# 2. written after atexit handlers, C destructors and C++ static destructors
n=$(covered_in default.mipraw prog.mipmap in_atexit)
[ "$n" = 1 ] && pass "atexit handler counted" || fail "atexit handler: $n"
n=$(covered_in default.mipraw prog.mipmap in_destructor)
[ "$n" = 1 ] && pass "destructor counted" || fail "destructor: $n"
MIP_PROFILE_FILE=statics.mipraw ./statics >/dev/null
n=$(covered_in statics.mipraw statics.mipmap _Z22from_static_destructorv)
[ "$n" = 1 ] && pass "C++ static destructor counted" || fail "static destructor: $n"

# 3. file name patterns; parent directories are made; no temporary left
MIP_PROFILE_FILE='out/%h/run-%p-%%.mipraw' ./prog >/dev/null || true
host=$(uname -n)
found=$(ls out/"$host"/ 2>/dev/null | tr '\n' ' ')
case "$found" in
run-[0-9]*-%.mipraw" ") pass "%h/%p/%% expanded: out/$host/$found" ;;
*) fail "pattern expansion gave: '$found'" ;;
esac
if ls ./*.tmp.* out/*/*.tmp.* >/dev/null 2>&1; then
  fail "temporary files left behind"
else
  pass "no temporary files left behind"
fi

# 4. a profile that cannot be written: one stderr line, behaviour unchanged
set +e
MIP_PROFILE_FILE=/proc/no/such/dir/x.mipraw ./prog >out.txt 2>err.txt; rc=$?
set -e
if [ "$rc" = 3 ] && [ "$(wc -l <err.txt)" = 1 ] &&
  grep -q "^mip: cannot write profile '/proc/no/such/dir/x.mipraw': " err.txt &&
  grep -q "atexit ran" out.txt; then
  pass "unwritable: $(cat err.txt); status 3 kept"
else
  fail "unwritable: status $rc, stderr: $(cat err.txt)"
fi

# 5. the raw profile belongs to this build
if "$MIPDATA" create -p other.mip statics.mipmap &&
  ! "$MIPDATA" merge -p other.mip default.mipraw 2>/dev/null; then
  pass "raw profile refused by another build's profile"
else
  fail "raw profile accepted by another build's profile"
fi

finish
