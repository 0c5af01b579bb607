# lua: the Lua 5.4 interpreter running bench/programs/bench.lua.
PKG=lua5.4
# Everything in src/ but the bytecode compiler luac.c, as Lua's own
# makefile builds the interpreter (POSIX, without dynamic C modules).
PROG_SRCS="src/lapi.c src/lcode.c src/lctype.c src/ldebug.c src/ldo.c src/ldump.c
src/lfunc.c src/lgc.c src/llex.c src/lmem.c src/lobject.c src/lopcodes.c
src/lparser.c src/lstate.c src/lstring.c src/ltable.c src/ltm.c src/lundump.c
src/lvm.c src/lzio.c src/lauxlib.c src/lbaselib.c src/lcorolib.c src/ldblib.c
src/liolib.c src/lmathlib.c src/loadlib.c src/loslib.c src/lstrlib.c
src/ltablib.c src/lutf8lib.c src/linit.c src/lua.c"
# Lua seeds its string hashes from the time and from addresses (ASLR); a
# fixed seed makes the instruction counts repeat exactly.
PROG_CFLAGS="-DLUA_COMPAT_5_3 -DLUA_USE_POSIX -Dluai_makeseed(L)=0"
PROG_LIBS="-lm"
SIZE_FULL=6    # rounds of bench.lua
SIZE_CG=1
WORKLOAD="bench/programs/bench.lua: recursive fib, table sort/hash, string
format/gmatch/gsub, closures, metatables (SCALE=$SIZE_FULL rounds; callgrind $SIZE_CG)"

# Debian's luaconf.h includes a header its debian/rules writes; so do we.
prog_prepare() { # SRCDIR
  local h=$1/src/lua5.4-deb-multiarch.h
  [ -f "$h" ] || printf '#define DEB_HOST_MULTIARCH "%s"\n' \
    "$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)" >"$h"
}
# Replaced whole and only when it changed: the callgrind runs of several
# configurations call this at once, and a copy under way is a script cut
# short for the run that reads it.
prog_input() {
  cmp -s "$BENCH_DIR/programs/bench.lua" "$1/bench.lua" ||
    { cp "$BENCH_DIR/programs/bench.lua" "$1/bench.lua.$$" && mv "$1/bench.lua.$$" "$1/bench.lua"; }
}
prog_run() { # BIN DIR N OUTFILE SCRATCH
  $RUNNER "$1" "$2/bench.lua" "$3" >"$4"
}
