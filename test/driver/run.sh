#!/bin/sh
# Tests of the mipcc / mipc++ compiler driver.
#
#   test/driver/run.sh BUILD_DIR
#
# 1. what the driver adds to which command (read from MIP_DRIVER_VERBOSE=1)
# 2. an unchanged CMake project built with CC=mipcc (Makefiles, and Ninja
#    with response files)
# 3. an unchanged Makefile project with a shared library
# 4. mipc++ on templates and inline functions
# 5. configure-style probes, which must behave exactly as with plain clang
#
# Prints one line per check; exits 1 if any failed.
set -u

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
BUILD=$(cd "$1" && pwd -P) || exit 2
HERE=$(cd "$(dirname "$0")" && pwd -P) || exit 2
MIPCC=$BUILD/bin/mipcc
MIPCXX=$BUILD/bin/mipc++
LIB=$BUILD/lib/mip
for f in "$MIPCC" "$MIPCXX" "$LIB/libmip.so" "$LIB/libmip_rt.a"; do
  if [ ! -e "$f" ]; then
    echo "missing $f: build it first" >&2
    exit 2
  fi
done

# Settings from the caller's environment would change what is checked
# (MAKEFLAGS carries an outer make's variables into the project builds).
unset MIP_DRIVER_VERBOSE MIP_LIBDIR MIP_PROFILE_FILE MAKEFLAGS MFLAGS \
  MAKELEVEL CMAKE_GENERATOR CFLAGS LDFLAGS

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mipcc-test.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' HUP INT TERM
W=$TMP/work
mkdir "$W"

failures=0
checks=0

# check NAME COMMAND...: runs COMMAND, reports ok or FAIL (with the
# driver's last stderr, which usually says why).
check() {
  name=$1
  shift
  checks=$((checks + 1))
  if "$@"; then
    echo "ok   $name"
  else
    echo "FAIL $name"
    failures=$((failures + 1))
    if [ -s "$TMP/err" ]; then
      sed 's/^/     | /' "$TMP/err" | head -20
    fi
  fi
  : >"$TMP/err"
}

# drive TOOL ARGS...: runs the driver in $W with MIP_DRIVER_VERBOSE=1.
# Leaves its exit status in RC, the command it ran in LINE (without the
# "mipcc: " prefix), its stdout and stderr in $TMP/out and $TMP/err.
drive() {
  tool=$1
  shift
  (cd "$W" && MIP_DRIVER_VERBOSE=1 "$tool" "$@") >"$TMP/out" 2>"$TMP/err" \
    </dev/null
  RC=$?
  LINE=$(grep -E -m1 '^mipc(c|\+\+): /' "$TMP/err" | sed 's/^[^:]*: //')
}

# has WORD / lacks TEXT: on the command line the driver ran.
has() {
  case " $LINE " in *" $1 "*) return 0 ;; esac
  return 1
}
lacks() {
  case "$LINE" in *"$1"*) return 1 ;; esac
  return 0
}
ends_with() {
  case "$LINE" in *"$1") return 0 ;; esac
  return 1
}

# The real compiler, as the driver finds it (honours MIP_CLANG).
LINE=
drive "$MIPCC" --version
CLANG=${LINE%% *}
if [ ! -x "$CLANG" ]; then
  echo "cannot find the real clang through $MIPCC (got '$CLANG')" >&2
  exit 2
fi
READELF=$(command -v readelf || echo "$(dirname "$CLANG")/llvm-readelf")

# ---- raw profile helpers --------------------------------------------------
# Header (little-endian, as is this host): magic[8] version[4]
# header_size[4] modes[8] section_count[4] build_id_size[4] build_id[64]

MAGIC=7f4d495052415700

hex_bytes() { od -An -tx1 -j"$2" -N"$3" "$1" | tr -d ' \n'; }
u32_at() { od -An -tu4 -j"$2" -N4 "$1" | tr -d ' \n'; }

# A raw profile with the magic and at least one counter section.
profile_ok() {
  [ -s "$1" ] &&
    [ "$(hex_bytes "$1" 0 8)" = "$MAGIC" ] &&
    [ "$(u32_at "$1" 24)" -ge 1 ]
}

profile_build_id() {
  n=$(u32_at "$1" 28)
  [ "$n" -gt 0 ] && hex_bytes "$1" 32 "$n"
}

elf_build_id() {
  "$READELF" -n "$1" | sed -n 's/^.*Build ID: *//p' | head -n 1
}

# profile_of PROFILE ELF: a good profile, stamped with ELF's build-id.
profile_of() {
  profile_ok "$1" && id=$(profile_build_id "$1") &&
    [ -n "$id" ] && [ "$id" = "$(elf_build_id "$2")" ]
}

# Compiled with the plugin: the objects carry a counter section.
instrumented() { "$READELF" -S -W "$1" 2>/dev/null | grep -q '__mip_cov'; }

# ---- 1. argument translation ----------------------------------------------

cat >"$W/a.c" <<'EOF'
static int square(int x) { return x * x; }
int main(void) { return square(3) - 9; }
EOF
cp "$W/a.c" "$W/code.txt"
printf 'int main(void) { return 0 }\n' >"$W/bad.c"
printf '\t.text\n' >"$W/s.S"
printf 'int lib(int x) { return x + 1; }\n' >"$W/lib.c"
: >"$W/empty.c"
# Prints its arguments one per line: stands in for clang where the exact
# argument vector matters.
printf '#!/bin/sh\nfor a in "$@"; do printf "%%s\\n" "$a"; done\n' >"$TMP/argv"
chmod +x "$TMP/argv"
PLUGIN="-fplugin=$LIB/libmip.so"
RT="-Wl,-u,__mip_rt_anchor $LIB/libmip_rt.a"

t_compile_only() {
  drive "$MIPCC" -fmip-generate -c a.c -o a.o
  [ "$RC" = 0 ] && has "$PLUGIN" && has -fplugin-arg-mip-generate &&
    lacks libmip_rt.a && lacks -- --build-id && lacks -fmip- &&
    instrumented "$W/a.o"
}
check "compile-only (-c) gets the plugin, not the runtime" t_compile_only

t_asm_out() {
  drive "$MIPCC" -fmip-generate -S a.c -o a.s
  [ "$RC" = 0 ] && has "$PLUGIN" && lacks libmip_rt.a
}
check "-S gets the plugin, not the runtime" t_asm_out

t_modes() {
  drive "$MIPCC" -fmip-generate=coverage -c a.c -o a.o
  [ "$RC" = 0 ] && has -fplugin-arg-mip-generate=coverage
}
check "-fmip-generate=LIST reaches the plugin verbatim" t_modes

FP="-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"
t_heap_frame_pointers() {
  drive "$MIPCC" -fmip-generate=heap -O2 -fomit-frame-pointer -c a.c -o h.o
  [ "$RC" = 0 ] && has -fplugin-arg-mip-generate=heap &&
    ends_with "-fomit-frame-pointer -c a.c -o h.o $FP" && instrumented "$W/h.o" &&
    "$(dirname "$CLANG")/llvm-objdump" -d "$W/h.o" | grep -A1 '<main>:' |
    grep -q 'push.*%rbp' &&
    drive "$MIPCC" '-fmip-generate=counts, heap' -c a.c -o h.o &&
    [ "$RC" = 0 ] && ends_with "-o h.o $FP" &&
    drive "$MIPCC" -fmip-generate=heap -o hd -c -- a.c &&
    [ "$RC" = 0 ] && ends_with "$FP -- a.c" &&
    drive "$MIPCC" -fmip-generate=all -c a.c -o h.o &&
    [ "$RC" = 0 ] && lacks omit-frame-pointer &&
    drive "$MIPCC" -fmip-generate=heap -fmip-generate -c a.c -o h.o &&
    [ "$RC" = 0 ] && lacks omit-frame-pointer &&
    drive "$MIPCC" -fmip-generate=heap -E a.c -o h.i &&
    [ "$RC" = 0 ] && [ "$LINE" = "$CLANG -E a.c -o h.i" ] &&
    drive "$MIPCC" -fmip-generate=heap a.o -o heaplink &&
    [ "$RC" = 0 ] && lacks omit-frame-pointer && ends_with "$RT"
}
check "heap mode compiles with frame pointers, after the user's flags" \
  t_heap_frame_pointers

t_link_only() {
  drive "$MIPCC" -fmip-generate a.o -o a.out
  [ "$RC" = 0 ] && lacks -fplugin && has -Wl,--build-id &&
    ends_with "a.o -o a.out $RT" &&
    (cd "$W" && MIP_PROFILE_FILE=$W/link.mipraw ./a.out) &&
    profile_of "$W/link.mipraw" "$W/a.out"
}
check "link-only gets the runtime (last) and --build-id, not the plugin" \
  t_link_only

t_compile_link() {
  drive "$MIPCC" -fmip-generate a.c -o both
  [ "$RC" = 0 ] && has "$PLUGIN" && has -fplugin-arg-mip-generate &&
    ends_with "$RT" &&
    (cd "$W" && MIP_PROFILE_FILE=$W/both.mipraw ./both) &&
    profile_of "$W/both.mipraw" "$W/both"
}
check "compile+link gets plugin and runtime, and profiles" t_compile_link

t_cancel() {
  drive "$MIPCC" -fmip-generate -fno-mip-generate a.c -o plain
  [ "$RC" = 0 ] && [ "$LINE" = "$CLANG a.c -o plain" ]
}
check "-fno-mip-generate after -fmip-generate: nothing added" t_cancel

t_last_wins() {
  drive "$MIPCC" -fno-mip-generate -fmip-generate -c a.c -o a.o
  [ "$RC" = 0 ] && has "$PLUGIN"
}
check "-fmip-generate after -fno-mip-generate: the last one wins" t_last_wins

t_values() {
  drive "$MIPCC" -fmip-generate -c s.S -MD -MF dep.c -MT t.cpp \
    -include empty.c -o obj.c
  [ "$RC" = 0 ] && [ "$LINE" = "$CLANG -c s.S -MD -MF dep.c -MT t.cpp -include empty.c -o obj.c" ] &&
    drive "$MIPCC" -fmip-generate a.o -o prog.c -Xlinker -Map -Xlinker map.c &&
    [ "$RC" = 0 ] && lacks -fplugin && ends_with "$RT"
}
check "values of -o, -MF, -MT, -include, -Xlinker are not sources" t_values

t_lang() {
  drive "$MIPCC" -fmip-generate -c -x c code.txt -o x.o
  [ "$RC" = 0 ] && has "$PLUGIN" && instrumented "$W/x.o" &&
    drive "$MIPCC" -fmip-generate -c -xc code.txt -o x.o &&
    [ "$RC" = 0 ] && has "$PLUGIN" &&
    drive "$MIPCC" -fmip-generate -c -x c code.txt -x none s.S &&
    [ "$RC" = 0 ] && has "$PLUGIN"
}
check "-x c / -xc inputs get the plugin" t_lang

t_lang_link() {
  drive "$MIPCC" -fmip-generate -x c code.txt -o xprog
  [ "$RC" = 0 ] && ends_with "code.txt -o xprog -x none $RT" &&
    (cd "$W" && MIP_PROFILE_FILE=$W/x.mipraw ./xprog) &&
    profile_of "$W/x.mipraw" "$W/xprog"
}
check "a -x in force at the end is closed before the runtime" t_lang_link

t_dashdash() {
  drive "$MIPCC" -fmip-generate -o dd -- a.c
  [ "$RC" = 0 ] && has "$PLUGIN" && ends_with "-o dd $RT -- a.c"
}
check "the runtime goes before --" t_dashdash

t_version() {
  drive "$MIPCC" -fmip-generate --version
  [ "$RC" = 0 ] && [ "$LINE" = "$CLANG --version" ] &&
    "$CLANG" --version >"$TMP/clang-version" && cmp -s "$TMP/out" "$TMP/clang-version" &&
    drive "$MIPCC" -fmip-generate -dumpmachine &&
    [ "$RC" = 0 ] && [ "$LINE" = "$CLANG -dumpmachine" ]
}
check "--version, -dumpmachine (no inputs) pass through untouched" t_version

t_lto() {
  drive "$MIPCC" -fmip-generate -flto -c a.c -o lto.o
  [ "$RC" = 1 ] && [ ! -e "$W/lto.o" ] &&
    [ "$(cat "$TMP/err")" = "mipcc: -fmip-generate does not support -flto yet" ] &&
    drive "$MIPCC" -fmip-generate -flto=thin a.c -o lto && [ "$RC" = 1 ] &&
    drive "$MIPCC" -fmip-generate -flto -fno-lto -c a.c -o a.o && [ "$RC" = 0 ] &&
    drive "$MIPCC" -flto -c a.c -o lto.o && [ "$RC" = 0 ]
}
check "-fmip-generate with -flto is refused with one line" t_lto

t_status() {
  drive "$MIPCC" -fmip-generate -c bad.c -o bad.o
  mip_rc=$RC
  (cd "$W" && "$CLANG" -c bad.c -o bad.o) >/dev/null 2>&1
  clang_rc=$?
  [ "$mip_rc" != 0 ] && [ "$mip_rc" = "$clang_rc" ] &&
    grep -q "expected ';' after return statement" "$TMP/err"
}
check "a failing compile's exit status and errors come through" t_status

t_signal() {
  printf '#!/bin/sh\nkill -TERM $$\n' >"$TMP/die"
  chmod +x "$TMP/die"
  # The shell notes the death on stderr: keep that out of the report.
  rc=$({ (cd "$W" && MIP_CLANG=$TMP/die "$MIPCC" -c a.c); echo $?; } 2>/dev/null)
  [ "$rc" = 143 ]
}
check "the compiler's death by signal comes through" t_signal

t_order() {
  (cd "$W" && MIP_CLANG=$TMP/argv "$MIPCC" -DX=1 -fmip-generate -c a.c \
    -I inc 'sp ace' -o a.o) >"$TMP/args" 2>"$TMP/err"
  printf '%s\n' "$PLUGIN" -fplugin-arg-mip-generate -DX=1 -c a.c -I inc \
    'sp ace' -o a.o | cmp -s - "$TMP/args" &&
    (cd "$W" && MIP_CLANG=$TMP/argv "$MIPCC" -O2 '' -c a.c) >"$TMP/args" &&
    printf '%s\n' -O2 '' -c a.c | cmp -s - "$TMP/args"
}
check "other arguments pass through untouched and in order" t_order

t_use() {
  (cd "$W" && MIP_CLANG=$TMP/argv "$MIPCC" -fmip-use=my.mipprof -c a.c) \
    >"$TMP/args" 2>"$TMP/err"
  printf '%s\n' "$PLUGIN" -fplugin-arg-mip-use=my.mipprof -c a.c |
    cmp -s - "$TMP/args"
}
check "-fmip-use=FILE becomes -fplugin-arg-mip-use=FILE" t_use

t_rsp() {
  printf -- '-c a.c\n-o "r 1.o"\n' >"$W/plain.rsp"
  printf -- "-fmip-generate -c a.c -o 'r 2.o'\n" >"$W/own.rsp"
  drive "$MIPCC" -fmip-generate @plain.rsp
  [ "$RC" = 0 ] && [ "$LINE" = "$CLANG $PLUGIN -fplugin-arg-mip-generate @plain.rsp" ] &&
    instrumented "$W/r 1.o" &&
    drive "$MIPCC" @own.rsp &&
    [ "$RC" = 0 ] && [ "$LINE" = "$CLANG $PLUGIN -fplugin-arg-mip-generate -c a.c -o 'r 2.o'" ] &&
    instrumented "$W/r 2.o"
}
check "response files: read, kept, or expanded when they hold -fmip-*" t_rsp

t_rsp_nested() {
  mkdir -p "$W/rsp"
  # As in clang, a nested @file is relative to the current directory.
  printf -- '-c @rsp/inner.rsp\n' >"$W/rsp/outer.rsp"
  printf -- 'a.c\n' >"$W/rsp/inner.rsp"
  printf -- '-c @loop.rsp\n' >"$W/loop.rsp"
  drive "$MIPCC" -fmip-generate @rsp/outer.rsp -o n.o
  [ "$RC" = 0 ] && has "$PLUGIN" && has @rsp/outer.rsp && lacks libmip_rt &&
    instrumented "$W/n.o" &&
    drive "$MIPCC" -fmip-generate @loop.rsp &&
    [ "$RC" = 1 ] && grep -q "recursive expansion of response file" "$TMP/err"
}
check "nested response files are read; a loop is an error" t_rsp_nested

t_preprocess() {
  drive "$MIPCC" -fmip-generate -E a.c -o a.i
  [ "$RC" = 0 ] && [ "$LINE" = "$CLANG -E a.c -o a.i" ] &&
    drive "$MIPCC" -fmip-generate -fsyntax-only a.c &&
    [ "$RC" = 0 ] && [ "$LINE" = "$CLANG -fsyntax-only a.c" ]
}
check "-E and -fsyntax-only get nothing (no code is generated)" t_preprocess

t_shared() {
  drive "$MIPCC" -fmip-generate -fPIC -shared lib.c -o libx.so
  [ "$RC" = 0 ] && has "$PLUGIN" && ends_with "$RT" &&
    drive "$MIPCC" -fmip-generate -r a.o -o part.o &&
    [ "$RC" = 0 ] && lacks libmip_rt.a
}
check "-shared links the runtime, -r (partial link) does not" t_shared

t_cxx() {
  drive "$MIPCXX" -fmip-generate -c a.c -o a.o
  case "$LINE" in */clang++\ *) ;; *) return 1 ;; esac &&
    grep -q '^mipc++: ' "$TMP/err" && has "$PLUGIN"
}
check "mipc++ runs clang++" t_cxx

t_missing() {
  mkdir -p "$TMP/empty"
  (cd "$W" && MIP_LIBDIR=$TMP/empty "$MIPCC" -fmip-generate -c a.c) \
    >/dev/null 2>"$TMP/err"
  [ $? = 1 ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
    grep -q "$TMP/empty/libmip.so" "$TMP/err" &&
    cp "$LIB/libmip.so" "$TMP/empty/" &&
    (cd "$W" && MIP_LIBDIR=$TMP/empty "$MIPCC" -fmip-generate a.c -o m) \
      >/dev/null 2>"$TMP/err"
  [ $? = 1 ] && grep -q "$TMP/empty/libmip_rt.a" "$TMP/err"
}
check "a missing plugin or runtime is named, exit 1" t_missing

t_unknown() {
  drive "$MIPCC" -fmip-bogus -c a.c
  [ "$RC" = 1 ] && grep -q "unknown option '-fmip-bogus'" "$TMP/err"
}
check "an unknown -fmip-* flag is an error" t_unknown

# ---- 2. an unchanged CMake project ----------------------------------------

# cmake_build NAME CMAKE-ARGS...: configures and builds the project in
# $TMP/NAME with CC=mipcc, then runs the program.
cmake_build() {
  dir=$TMP/$1
  shift
  CC=$MIPCC cmake --no-warn-unused-cli -S "$HERE/cmake-project" -B "$dir" \
    -DCMAKE_C_FLAGS=-fmip-generate "$@" >"$TMP/err" 2>&1 &&
    grep -q 'The C compiler identification is Clang' "$TMP/err" &&
    cmake --build "$dir" >>"$TMP/err" 2>&1 &&
    instrumented "$dir/libstats.a" &&
    out=$(MIP_PROFILE_FILE=$dir/run/default.mipraw "$dir/summary") &&
    [ "$out" = "sum=16 max=9" ] &&
    profile_of "$dir/run/default.mipraw" "$dir/summary"
}

check "cmake (Unix Makefiles): static library + program profile" \
  cmake_build cmake-make -G "Unix Makefiles"
if command -v ninja >/dev/null 2>&1; then
  # CMake then puts the flags, -fmip-generate included, in response files.
  check "cmake (Ninja, response files): static library + program profile" \
    cmake_build cmake-ninja -G Ninja -DCMAKE_NINJA_FORCE_RESPONSE_FILE=ON
else
  echo "skip cmake with Ninja (no ninja)"
fi

# ---- 3. an unchanged Makefile project with a shared library ---------------

t_make() {
  cp -R "$HERE/make-project" "$TMP/make" &&
    make -C "$TMP/make" CC="$MIPCC" CFLAGS=-fmip-generate >"$TMP/err" 2>&1 &&
    instrumented "$TMP/make/main.o" && instrumented "$TMP/make/libshape.so" &&
    out=$(LD_LIBRARY_PATH=$TMP/make MIP_PROFILE_FILE=$TMP/make/run/default.mipraw \
      "$TMP/make/shapes") &&
    [ "$out" = "area=12 perimeter=14" ] &&
    # Each image writes its own profile: the library's name gets its
    # build-id (%m) inserted.
    lib_id=$(elf_build_id "$TMP/make/libshape.so" | cut -c1-16) &&
    profile_of "$TMP/make/run/default.mipraw" "$TMP/make/shapes" &&
    profile_of "$TMP/make/run/default.$lib_id.mipraw" "$TMP/make/libshape.so"
}
check "make: program + -shared library build, run, profile" t_make

t_make_exe() {
  # The same program with an uninstrumented copy of the library (mipcc
  # without -fmip-generate adds nothing): the profile is the executable's.
  cp -R "$HERE/make-project" "$TMP/make-plain" &&
    make -C "$TMP/make-plain" CC="$MIPCC" libshape.so >"$TMP/err" 2>&1 &&
    ! instrumented "$TMP/make-plain/libshape.so" &&
    out=$(LD_LIBRARY_PATH=$TMP/make-plain \
      MIP_PROFILE_FILE=$TMP/make/run2/default.mipraw "$TMP/make/shapes") &&
    [ "$out" = "area=12 perimeter=14" ] &&
    profile_of "$TMP/make/run2/default.mipraw" "$TMP/make/shapes"
}
check "make: the executable writes its own profile" t_make_exe

# ---- 4. mipc++ ------------------------------------------------------------

t_cxx_program() {
  cp "$HERE/cxx/templates.cpp" "$W/" &&
    drive "$MIPCXX" -fmip-generate -O1 -c templates.cpp -o templates.o &&
    [ "$RC" = 0 ] && instrumented "$W/templates.o" &&
    drive "$MIPCXX" -fmip-generate templates.o -o templates &&
    [ "$RC" = 0 ] && ends_with "$RT" &&
    out=$(MIP_PROFILE_FILE=$W/cxx.mipraw "$W/templates") &&
    [ "$out" = "6 2.0 6
tally=3" ] &&
    profile_of "$W/cxx.mipraw" "$W/templates"
}
check "mipc++: templates and inline functions build, run, profile" \
  t_cxx_program

# ---- 5. configure-style probes --------------------------------------------

cat >"$W/conftest.c" <<'EOF'
#include <stdio.h>
int main(void) { puts("hi"); return 0; }
EOF
cat >"$W/confbad.c" <<'EOF'
#include <no_such_header_here.h>
int main(void) { return 0; }
EOF
printf 'int main(void) { int unused; return 0; }\n' >"$W/confwarn.c"

# probe MIPFLAGS ARGS...: mipcc MIPFLAGS ARGS must exit as clang ARGS does,
# with the same output and diagnostics.
probe() {
  mipflags=$1
  shift
  (cd "$W" && "$MIPCC" $mipflags "$@") </dev/null >"$TMP/p1.out" 2>"$TMP/p1.err"
  r1=$?
  (cd "$W" && "$CLANG" "$@") </dev/null >"$TMP/p2.out" 2>"$TMP/p2.err"
  r2=$?
  [ "$r1" = "$r2" ] && cmp -s "$TMP/p1.out" "$TMP/p2.out" &&
    cmp -s "$TMP/p1.err" "$TMP/p2.err"
}

for mipflags in -fmip-generate -fmip-generate=coverage \
  "-fmip-generate -fno-mip-generate"; do
  check "probe [$mipflags] -E -dM -" probe "$mipflags" -E -dM -
  check "probe [$mipflags] -c conftest.c" probe "$mipflags" -c conftest.c
  check "probe [$mipflags] -Werror -c confwarn.c" \
    probe "$mipflags" -Wall -Werror -c confwarn.c
  check "probe [$mipflags] -c confbad.c" probe "$mipflags" -c confbad.c
  check "probe [$mipflags] -Werror conftest.c -o conftest" \
    probe "$mipflags" -Werror conftest.c -o conftest
  check "probe [$mipflags] -Werror -c s.S" probe "$mipflags" -Werror -c s.S
done

echo "$((checks - failures)) of $checks driver checks passed"
[ "$failures" = 0 ]
