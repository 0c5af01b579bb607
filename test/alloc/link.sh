#!/bin/sh
# libmip_alloc.a linked the ways programs link it (docs/alloc.md):
#   C only, by the documented line: no C++ symbol or library pulled in
#   C++, operator new from jemalloc (-ljemalloc first) or from the C++
#   runtime (-lstdc++ first): hints hold either way
#   C++ replacing operator new/delete: hinted news are the program's own,
#   one line on stderr, C hints still on
#   a library carrying it, unloaded while a thread that used it lives
#   C under AddressSanitizer: hints off, one line on stderr
#   test/alloc/link.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/../e2e/lib.sh"
ROOT=$(cd "$HERE/../.." && pwd)
LIB=$BUILD/lib/mip/libmip_alloc.a
SRC=$HERE/link
make_tmp
cd "$TMP"

# expect NAME FILE WANT: FILE's content is WANT
expect() {
  if [ "$(cat "$2")" = "$3" ]; then
    pass "$1"
  else
    fail "$1: got"
    sed 's/^/    /' "$2"
  fi
}

OWN="cold: own arena
hot: own arena
notcold: plain"

"$CLANG" -O2 -I"$ROOT/include" "$SRC/c_only.c" "$LIB" -ljemalloc -o c_only
./c_only >out 2>err
expect "C program: hinted blocks in their arenas" out "$OWN"
expect "C program: nothing on stderr" err ""
if nm c_only | grep -q '_Z'; then
  fail "C program: C++ symbols linked in: $(nm c_only | grep _Z | head -3)"
else
  pass "C program: no C++ symbol linked in"
fi
if readelf -d c_only | grep -q 'libstdc++'; then
  fail "C program: needs libstdc++"
else
  pass "C program: no C++ runtime needed"
fi
MIP_ALLOC_HINTS=0 ./c_only >out 2>err
expect "MIP_ALLOC_HINTS=0: every block plain" out "cold: plain
hot: plain
notcold: plain"
expect "MIP_ALLOC_HINTS=0: nothing on stderr" err ""

CXX_OWN="cold: own arena, aligned own arena
hot: own arena, aligned own arena
notcold: plain, aligned plain
C cold: own arena"

"$CLANGXX" -std=c++17 -O2 -I"$ROOT/include" "$SRC/cxx.cpp" "$LIB" -ljemalloc \
  -o cxx_jemalloc
./cxx_jemalloc >out 2>err
expect "C++, jemalloc's operators: hinted blocks in their arenas" out \
  "operators: jemalloc
$CXX_OWN"
expect "C++, jemalloc's operators: nothing on stderr" err ""

"$CLANGXX" -std=c++17 -O2 -I"$ROOT/include" "$SRC/cxx.cpp" "$LIB" \
  -Wl,--push-state,--no-as-needed -lstdc++ -Wl,--pop-state -ljemalloc \
  -o cxx_runtime
./cxx_runtime >out 2>err
expect "C++, the C++ runtime's operators: hinted blocks in their arenas" out \
  "operators: C++ runtime
$CXX_OWN"
expect "C++, the C++ runtime's operators: nothing on stderr" err ""

"$CLANGXX" -std=c++17 -O2 -DREPLACE -I"$ROOT/include" "$SRC/cxx.cpp" "$LIB" \
  -ljemalloc -o cxx_replaced
./cxx_replaced >out 2>err
expect "C++ replacing operator new: hinted news are its own" out \
  "operators: program
cold: plain, aligned plain
hot: plain, aligned plain
notcold: plain, aligned plain
C cold: own arena
replaced operator new: 3 calls"
MSG="mip: allocation hints off for operator new: the program replaces"
expect "C++ replacing operator new: one line on stderr" err \
  "$MSG operator new or delete"

# A library carrying the archive, loaded and unloaded by a thread that
# then exits: its hot cache's destructor must still be there.
"$CLANG" -O2 -shared -fPIC -I"$ROOT/include" "$SRC/plugin.c" "$LIB" \
  -ljemalloc -o plugin.so
"$CLANG" -O2 "$SRC/loader.c" -ljemalloc -o loader
./loader "$TMP/plugin.so" >out 2>err
expect "library unloaded before its thread exits" out "ok"
expect "library unloaded before its thread exits: nothing on stderr" err ""

"$CLANG" -O1 -g -fsanitize=address -I"$ROOT/include" "$SRC/c_only.c" "$LIB" \
  -ljemalloc -o c_asan
ASAN_OPTIONS=detect_leaks=0 ./c_asan sanitized >out 2>err
expect "AddressSanitizer: one line on stderr" err \
  "mip: allocation hints off: malloc is not jemalloc's"

# pvalloc, which jemalloc lacks: a program's own pvalloc + free (and a
# shared library's) must work once the library makes jemalloc the
# process's malloc, exactly as without it
"$CLANG" -O1 -fno-builtin -I"$ROOT/include" "$SRC/pvalloc.c" "$LIB" -ljemalloc -o pvalloc_hinted
set +e
./pvalloc_hinted >out 2>err; rc=$?
set -e
expect "pvalloc + free with jemalloc as malloc (status $rc)" out "pvalloc: page-aligned, whole pages, freed"
"$CLANG" -O1 -fno-builtin -fPIC -shared -I"$ROOT/include" -DLIB "$SRC/pvalloc.c" -o libpv.so
"$CLANG" -O1 -fno-builtin -I"$ROOT/include" -DMAIN_ONLY "$SRC/pvalloc.c" -L. -lpv \
  -Wl,-rpath,"$TMP" "$LIB" -ljemalloc -o pvalloc_lib
set +e
./pvalloc_lib >out 2>err; rc=$?
set -e
expect "pvalloc + free in a shared library, jemalloc as malloc (status $rc)" out "pvalloc: page-aligned, whole pages, freed"

finish
