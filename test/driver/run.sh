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
# 6. -fmip-use and -fmip-order end to end: profile a program, rebuild it
#    in one command, and check the linker followed the profile's order
#
# Prints one line per check; exits 1 if any failed.
set -u

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
BUILD=$(cd "$1" && pwd -P) || exit 2
. "$(dirname "$0")/../e2e/lib.sh"
set +e # each check says what failed; the script goes on
HERE=$(cd "$(dirname "$0")" && pwd -P) || exit 2
LIB=$BUILD/lib/mip
for f in "$MIPCC" "$MIPCXX" "$MIPDATA" "$LIB/libmip.so" "$LIB/libmip_rt.a" \
  "$LIB/libmip_alloc.a"; do
  if [ ! -e "$f" ]; then
    echo "missing $f: build it first" >&2
    exit 2
  fi
done

# Settings from the caller's environment would change what is checked
# (MAKEFLAGS carries an outer make's variables into the project builds).
unset MIP_DRIVER_VERBOSE MIP_LIBDIR MIP_MIPDATA MIP_PROFILE_FILE MAKEFLAGS \
  MFLAGS MAKELEVEL CMAKE_GENERATOR CFLAGS LDFLAGS

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mipcc-test.XXXXXX") || exit 2
SUITE_TMP=$TMP # removed on exit (lib.sh)
trap 'exit 1' HUP INT TERM
W=$TMP/work
mkdir "$W"

# check (lib.sh) shows the driver's last stderr, which usually says why
CHECK_LOG=$TMP/err

# drive TOOL ARGS...: runs the driver in $W with MIP_DRIVER_VERBOSE=1.
# Leaves its exit status in RC, the command it ran in LINE (without the
# "mipcc: " prefix), the mipdata command it ran first (-fmip-order links)
# in ORDER_LINE, its stdout and stderr in $TMP/out and $TMP/err.
drive() {
  tool=$1
  shift
  (cd "$W" && MIP_DRIVER_VERBOSE=1 "$tool" "$@") >"$TMP/out" 2>"$TMP/err" \
    </dev/null
  RC=$?
  ORDER_LINE=$(grep -E -m1 '^mipc(c|\+\+): [^ ]* order -p ' "$TMP/err" |
    sed 's/^[^:]*: //')
  LINE=$(grep -E '^mipc(c|\+\+): /' "$TMP/err" |
    grep -E -v -m1 '^[^ ]* [^ ]* order -p ' | sed 's/^[^:]*: //')
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

# ---- raw profile helpers (read through mipdata dump) ----------------------

# A raw profile that mipdata reads, with at least one counter section.
profile_ok() {
  sections=$(dump_value "$1" 'select(.kind == "raw profile") | .header.section_count' \
    2>>"$TMP/err") && [ "${sections:-0}" -ge 1 ]
}

profile_build_id() {
  id=$(raw_build_id "$1") && [ -n "$id" ] && echo "$id"
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
PLUGIN="-fplugin=$(realpath "$MIP_PLUGIN")"
RT="-Wl,-u,__mip_link_with_mipcc_or_libmip_rt $LIB/libmip_rt.a"

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

FP="-fno-omit-frame-pointer"
cat >"$W/fp.c" <<'EOF'
#include <stdlib.h>
__attribute__((noinline)) int leaf(int x) { return x * 3 + 1; }
int main(int argc, char **argv) {
  char *p = malloc((size_t)argc + 8);
  p[0] = (char)leaf(argc);
  int r = p[0] - 4 + (argv[0] == 0);
  free(p);
  return r;
}
EOF
# pushes FUNCTION OBJECT: FUNCTION's first instruction pushes %rbp.
pushes() {
  "$(dirname "$CLANG")/llvm-objdump" -d "$2" | grep -A1 "<$1>:" | grep -q 'push.*%rbp'
}
t_heap_frame_pointers() {
  drive "$MIPCC" -fmip-generate=heap -O2 -fomit-frame-pointer -c fp.c -o h.o
  [ "$RC" = 0 ] && has -fplugin-arg-mip-generate=heap &&
    ends_with "-fomit-frame-pointer -c fp.c -o h.o $FP" && instrumented "$W/h.o" &&
    has -momit-leaf-frame-pointer && pushes main "$W/h.o" &&
    ! pushes leaf "$W/h.o" &&
    # The command's own choice for leaves wins.
    drive "$MIPCC" -fmip-generate=heap -O2 -mno-omit-leaf-frame-pointer -c fp.c -o h.o &&
    [ "$RC" = 0 ] && pushes main "$W/h.o" && pushes leaf "$W/h.o" &&
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
check "heap mode compiles with frame pointers, after the user's flags, none in leaves unless asked" \
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

# MIP's version (include/mip/version.h) and the LLVM it is built for
# (llvm-config), on stderr before clang's own version.
t_mip_version() {
  version=$(sed -n 's/^#define MIP_VERSION "\(.*\)"$/\1/p' \
    "$HERE/../../include/mip/version.h")
  llvm=$("$(dirname "$CLANG")/llvm-config" --version)
  drive "$MIPCC" --version
  [ "$RC" = 0 ] && [ -n "$version" ] && [ -n "$llvm" ] &&
    [ "$(head -n 1 "$TMP/err")" = "mipcc (MIP) $version, built for LLVM $llvm" ] &&
    "$CLANG" --version | cmp -s - "$TMP/out" &&
    drive "$MIPCXX" --version && [ "$RC" = 0 ] &&
    [ "$(head -n 1 "$TMP/err")" = "mipc++ (MIP) $version, built for LLVM $llvm" ]
}
check "--version: MIP's and LLVM's versions on stderr, clang's output as it is" \
  t_mip_version

t_lto() {
  # The compile records the modes in the bitcode; the link, lld with the
  # plugin loaded, instruments the code it generates, once.
  drive "$MIPCC" -fmip-generate -flto -c a.c -o lto.o && [ "$RC" = 0 ] &&
    ! "$LLVM_BIN/llvm-nm" "$W/lto.o" 2>/dev/null | grep -q __mip &&
    drive "$MIPCC" -fmip-generate -flto lto.o -o lto && [ "$RC" = 0 ] &&
    grep -qE -- "-Wl,--load-pass-plugin=$LIB/llvm-[0-9]+/libmip.so" "$TMP/err" &&
    (cd "$W" && MIP_PROFILE_FILE=lto.mipraw ./lto) &&
    "$MIPDATA" extract "$W/lto" -o "$W/lto.mipmap" | grep -q "lto.mipmap: 2 functions" &&
    [ -s "$W/lto.mipraw" ] &&
    drive "$MIPCC" -fmip-generate -flto -fuse-ld=bfd lto.o -o lto2 &&
    [ "$RC" = 1 ] && [ ! -e "$W/lto2" ] &&
    [ "$(cat "$TMP/err")" = "mipcc: -fmip-generate with -flto needs lld to link (it loads MIP's plugin into the link's code generation): -fuse-ld=bfd cannot" ] &&
    drive "$MIPCC" -fmip-generate -flto -fno-lto -c a.c -o a.o && [ "$RC" = 0 ]
}
check "-fmip-generate with -flto: the modes in the bitcode, the instrumentation at the lld link" t_lto

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

# A library directory with plugins for LLVM 14 and 16 (docs/llvm.md): the
# newest unless --mip-llvm=N or MIP_LLVM=N picks another; one that is not
# there is refused, naming those that are.
mkdir -p "$TMP/rel/llvm-14" "$TMP/rel/llvm-16" "$TMP/rel/llvm-x"
for d in llvm-14 llvm-16 llvm-x; do : >"$TMP/rel/$d/libmip.so"; done
REL=$(realpath "$TMP/rel")
rel_drive() { drive env MIP_LIBDIR="$TMP/rel" MIP_CLANG="$TMP/argv" "$@"; }
t_llvm_release() {
  rel_drive "$MIPCC" -fmip-generate -c a.c && [ "$RC" = 0 ] &&
    has "-fplugin=$REL/llvm-16/libmip.so" &&
    rel_drive "$MIPCC" --mip-llvm=14 -fmip-generate -c a.c && [ "$RC" = 0 ] &&
    has "-fplugin=$REL/llvm-14/libmip.so" && lacks mip-llvm &&
    rel_drive MIP_LLVM=14 "$MIPCC" -fmip-generate -c a.c && [ "$RC" = 0 ] &&
    has "-fplugin=$REL/llvm-14/libmip.so" &&
    rel_drive MIP_LLVM=14 "$MIPCC" --mip-llvm=16 -fmip-generate -c a.c &&
    has "-fplugin=$REL/llvm-16/libmip.so" &&
    rel_drive "$MIPCC" --mip-llvm=14 --version && [ "$RC" = 0 ] &&
    grep -qxF "mipcc: using LLVM 14 ($TMP/argv); plugins for LLVM 16 14" "$TMP/err" &&
    grep -q "mode blocks probes every block" "$TMP/err"
}
check "the LLVM release: the newest plugin, --mip-llvm=N, MIP_LLVM=N" t_llvm_release

t_llvm_missing() {
  rel_drive "$MIPCC" --mip-llvm=17 -fmip-generate -c a.c
  [ "$RC" = 1 ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
    grep -qF "no MIP plugin for LLVM 17 in $TMP/rel (there are: 16 14)" "$TMP/err"
}
check "an LLVM release without a plugin is refused, naming those there are" t_llvm_missing

# ---- 1b. -fmip-use's settings, its libraries, -fmip-order ----------------

# args_of ARGS...: the compiler's argument vector (through the argv
# printer), one per line, in $TMP/args; the driver's exit status in RC.
args_of() {
  (cd "$W" && MIP_CLANG=$TMP/argv "$MIPCC" "$@") >"$TMP/args" 2>"$TMP/err" \
    </dev/null
  RC=$?
}

t_use_settings() {
  args_of -fmip-use=p.mip -fmip-hot-share=0.8 -fmip-cold-max-density=0.5 \
    -fmip-cold-min-lifetime=10 -fmip-hot-min-density=2e3 -fmip-list-stale \
    -fmip-cold-minsize -fmip-alloc-hints -fmip-branch-weights -O2 -c a.c
  [ "$RC" = 0 ] &&
    printf '%s\n' "$PLUGIN" -fplugin-arg-mip-use=p.mip \
      -fplugin-arg-mip-hot-share=0.8 -fplugin-arg-mip-cold-max-density=0.5 \
      -fplugin-arg-mip-cold-min-lifetime=10 \
      -fplugin-arg-mip-hot-min-density=2e3 -fplugin-arg-mip-list-stale \
      -fplugin-arg-mip-cold-minsize -fplugin-arg-mip-alloc-hints \
      -fplugin-arg-mip-branch-weights -O2 -c a.c | cmp -s - "$TMP/args" &&
    args_of -fno-mip-list-stale -fno-mip-cold-minsize -fno-mip-alloc-hints \
      -fno-mip-branch-weights -fmip-use=p.mip -c a.c &&
    [ "$RC" = 0 ] &&
    printf '%s\n' "$PLUGIN" -fplugin-arg-mip-use=p.mip \
      -fplugin-arg-mip-no-list-stale -fplugin-arg-mip-no-cold-minsize \
      -fplugin-arg-mip-no-alloc-hints -fplugin-arg-mip-no-branch-weights \
      -c a.c | cmp -s - "$TMP/args"
}
check "-fmip-use settings reach the plugin right after use=FILE" t_use_settings

# Other targets: the runtime of lib/mip/TRIPLE/, one line for a target
# without one, and no allocation hints where there is no libmip_alloc.a.
t_target_runtime() {
  args_of --target=aarch64-linux-gnu -fuse-ld=lld -fmip-generate a.c -o a &&
    [ "$RC" = 0 ] &&
    grep -qx "$(cd "$LIB/aarch64-linux-gnu" && pwd -P)/libmip_rt.a" "$TMP/args" &&
    ! grep -qx "$(cd "$LIB" && pwd -P)/libmip_rt.a" "$TMP/args" &&
    args_of -target aarch64-linux-gnu -fmip-generate=heap a.c -o a &&
    grep -qx "$(cd "$LIB/aarch64-linux-gnu" && pwd -P)/mip_interpose.o" "$TMP/args" &&
    args_of --target=x86_64-linux-gnu -fmip-generate a.c -o a &&
    grep -qx "$(cd "$LIB" && pwd -P)/libmip_rt.a" "$TMP/args"
}
t_target_unsupported() {
  args_of --target=riscv64-linux-gnu -fmip-generate a.c -o a
  [ "$RC" = 1 ] && [ "$(wc -l <"$TMP/err")" = 1 ] &&
    grep -q "^mipcc: no MIP runtime for target riscv64-linux-gnu: .*/riscv64-linux-gnu/libmip_rt.a is missing" "$TMP/err"
}
t_target_no_hints() {
  args_of --target=aarch64-linux-gnu -fmip-use=p.mip -c a.c &&
    [ "$RC" = 0 ] && grep -qx -- -fplugin-arg-mip-no-alloc-hints "$TMP/args" &&
    args_of --target=aarch64-linux-gnu -fmip-use=p.mip -fmip-alloc-hints -c a.c &&
    grep -qx -- -fplugin-arg-mip-alloc-hints "$TMP/args" &&
    ! grep -q -- no-alloc-hints "$TMP/args"
}
if [ -e "$LIB/aarch64-linux-gnu/libmip_rt.a" ]; then
  check "--target=aarch64-linux-gnu links lib/mip/aarch64-linux-gnu/" t_target_runtime
  check "no allocation hints for a target without libmip_alloc.a" t_target_no_hints
else
  echo "skip --target=aarch64-linux-gnu: $LIB/aarch64-linux-gnu not built"
fi
check "a target without a runtime: one line, exit 1" t_target_unsupported

# Armv7: every spelling of the triple links lib/mip/armv7a-linux-gnueabihf/;
# -mthumb comes before the command's flags, so that its -marm wins; heap
# mode keeps AAPCS frame records (-mframe-chain=aapcs) after the command's
# flags, which coverage does not.
t_target_armv7() {
  arm_rt="$(cd "$LIB/armv7a-linux-gnueabihf" && pwd -P)/libmip_rt.a"
  for t in armv7a-linux-gnueabihf arm-linux-gnueabihf armv7l-linux-gnueabihf \
    thumbv7a-linux-gnueabihf; do
    args_of --target=$t -fuse-ld=lld -fmip-generate a.c -o a &&
      [ "$RC" = 0 ] && grep -qx "$arm_rt" "$TMP/args" || return 1
  done
  args_of --target=armv7a-linux-gnueabihf -marm -fmip-generate a.c -o a &&
    [ "$(grep -n -x -e -mthumb -e -marm "$TMP/args" | cut -d: -f2 | tr '\n' ' ')" = "-mthumb -marm " ] &&
    ! grep -qx -e -mframe-chain=aapcs "$TMP/args" &&
    args_of --target=armv7a-linux-gnueabihf -fmip-generate=counts,heap a.c -o a &&
    [ "$RC" = 0 ] &&
    [ "$(grep -x -e -fno-omit-frame-pointer -e -mframe-chain=aapcs -e a.c "$TMP/args" | tr '\n' ' ')" = "a.c -fno-omit-frame-pointer -mframe-chain=aapcs " ] &&
    args_of -fmip-generate=heap a.c -o a && [ "$RC" = 0 ] &&
    ! grep -qx -e -mframe-chain=aapcs "$TMP/args"
}
if [ -e "$LIB/armv7a-linux-gnueabihf/libmip_rt.a" ]; then
  check "--target=armv7a-linux-gnueabihf and its other spellings: Thumb-2, heap mode's frame records" t_target_armv7
else
  echo "skip --target=armv7a-linux-gnueabihf: $LIB/armv7a-linux-gnueabihf not built"
fi

t_use_last_wins() {
  args_of -fmip-use=old.mip -fmip-hot-share=0.8 -fno-mip-list-stale \
    -fmip-branch-weights -fmip-hot-share=0.7 -fmip-list-stale \
    -fno-mip-branch-weights -fmip-use=p.mip -c a.c
  [ "$RC" = 0 ] &&
    printf '%s\n' "$PLUGIN" -fplugin-arg-mip-use=p.mip \
      -fplugin-arg-mip-hot-share=0.7 -fplugin-arg-mip-list-stale \
      -fplugin-arg-mip-no-branch-weights -c a.c | cmp -s - "$TMP/args"
}
check "-fmip-use settings: the last of each wins, once" t_use_last_wins

# refused MESSAGE ARGS...: mipcc ARGS exits 1 with the one line
# "mipcc: MESSAGE", and the compiler does not run.
refused() {
  want=$1
  shift
  args_of "$@"
  [ "$RC" = 1 ] && [ ! -s "$TMP/args" ] &&
    [ "$(cat "$TMP/err")" = "mipcc: $want" ]
}

t_use_numbers() {
  refused "-fmip-hot-share=abc: 'abc' is not a number" \
    -fmip-use=p.mip -fmip-hot-share=abc -c a.c &&
    refused "-fmip-hot-share=: '' is not a number" \
      -fmip-use=p.mip -fmip-hot-share= -c a.c &&
    refused "-fmip-cold-max-density=0.5x: '0.5x' is not a number" \
      -fmip-use=p.mip -fmip-cold-max-density=0.5x -c a.c &&
    refused "-fmip-cold-min-lifetime=1e: '1e' is not a number" \
      -fmip-use=p.mip -fmip-cold-min-lifetime=1e -c a.c &&
    refused "-fmip-hot-min-density=.: '.' is not a number" \
      -fmip-use=p.mip -fmip-hot-min-density=. -c a.c &&
    refused "-fmip-hot-share=nan: 'nan' is not a number" \
      -fmip-use=p.mip -fmip-hot-share=nan -c a.c &&
    refused "-fmip-hot-share needs a value: -fmip-hot-share=F" \
      -fmip-use=p.mip -fmip-hot-share -c a.c &&
    refused "-fmip-cold-min-lifetime needs a value: -fmip-cold-min-lifetime=SECONDS" \
      -fmip-use=p.mip -fmip-cold-min-lifetime -c a.c &&
    refused "-fmip-list-stale=1 takes no value" \
      -fmip-use=p.mip -fmip-list-stale=1 -c a.c &&
    args_of -fmip-use=p.mip -fno-mip-hot-share -c a.c && [ "$RC" = 1 ] &&
    grep -q "unknown option '-fno-mip-hot-share'" "$TMP/err" || return 1
  # Numbers mipcc lets through: ranges are the plugin's to judge.
  for v in 1 .5 5. +0.5 1e-3 2E+2 -1 7; do
    args_of -fmip-use=p.mip -fmip-hot-share=$v -c a.c
    [ "$RC" = 0 ] && grep -qx -- "-fplugin-arg-mip-hot-share=$v" "$TMP/args" ||
      return 1
  done
}
check "bad numbers for -fmip-use settings: one line, exit 1" t_use_numbers

t_use_needed() {
  refused "-fmip-order needs -fmip-use=FILE" -fmip-order -c a.c &&
    refused "-fmip-hot-share=0.5 needs -fmip-use=FILE" \
      -O2 -fmip-hot-share=0.5 -fmip-order -c a.c &&
    refused "-fno-mip-branch-weights needs -fmip-use=FILE" \
      -fno-mip-branch-weights a.o -o x &&
    refused "-fmip-order needs -fmip-use=FILE" -fmip-generate -fmip-order \
      --version &&
    # A profile cancelled with -fno-mip-use takes its settings with it.
    args_of -fmip-use=p.mip -fmip-order -fmip-hot-share=0.5 -fno-mip-use \
      -c a.c && [ "$RC" = 0 ] && printf '%s\n' -c a.c | cmp -s - "$TMP/args"
}
check "-fmip-order and the settings without -fmip-use are an error" \
  t_use_needed

t_use_lto() {
  # The compile gets the plugin as without -flto (it annotates the bitcode
  # for the link), and nothing for the link.
  args_of -fmip-use=p.mip -flto -c a.c && [ "$RC" = 0 ] &&
    grep -qx -- "-fplugin-arg-mip-use=p.mip" "$TMP/args" &&
    ! grep -q -- "--load-pass-plugin" "$TMP/args" &&
    # The link: lld, with the plugin loaded into its LTO and LLVM's
    # context disambiguation on (no hints: p.mip is no profile, and the
    # link reads it to decide on libmip_alloc.a).
    args_of -fmip-use=p.mip -fno-mip-alloc-hints -flto=thin a.o -o x &&
    [ "$RC" = 0 ] &&
    grep -qx -- "-fuse-ld=lld" "$TMP/args" &&
    grep -qxE -- "-Wl,--load-pass-plugin=$LIB/llvm-[0-9]+/libmip.so" "$TMP/args" &&
    grep -qx -- "-Wl,-mllvm,-enable-memprof-context-disambiguation" \
      "$TMP/args" &&
    grep -qx -- "-Wl,-mllvm,-supports-hot-cold-new" "$TMP/args" &&
    args_of -fmip-use=p.mip -fno-mip-alloc-hints -flto -fuse-ld=lld a.o \
      -o x && [ "$RC" = 0 ] &&
    [ "$(grep -c -- "-fuse-ld=lld" "$TMP/args")" = 1 ] &&
    refused "-fmip-use with -flto needs lld to link (it loads MIP's plugin into the link's code generation): -fuse-ld=bfd cannot" \
      -fmip-use=p.mip -flto -fuse-ld=bfd a.o -o x &&
    refused "p.mip: cannot read the profile (mipdata check says why)" \
      -fmip-use=p.mip -flto a.o -o x &&
    args_of -fmip-use=p.mip -flto -fno-lto a.o -o x && [ "$RC" = 0 ] &&
    ! grep -q -- "--load-pass-plugin" "$TMP/args" &&
    args_of -fmip-use=p.mip -fno-mip-use -flto a.o -o x && [ "$RC" = 0 ] &&
    ! grep -q -- "--load-pass-plugin" "$TMP/args"
}
check "-fmip-use with -flto: the plugin at the compile, in lld at the link" \
  t_use_lto

ALLOC="$LIB/libmip_alloc.a -Wl,--push-state,--as-needed -ljemalloc -Wl,--pop-state"
# argv_drive ARGS...: drive mipcc with the argv printer for a compiler.
argv_drive() { drive env MIP_CLANG="$TMP/argv" "$MIPCC" "$@"; }
# note_is TEXT: the driver's verbose line about libmip_alloc.a.
note_is() { grep -qxF "mipcc: libmip_alloc.a $1" "$TMP/err"; }

# Objects as a rebuild with a profile leaves them: one calls a hinted
# allocation function (C), one a hinted operator new (C++, also in an
# archive); a.o calls none.
cat >"$W/hint_c.c" <<'EOF'
#include <stdint.h>
#include <stdlib.h>
void *__mip_malloc_hint(size_t size, uint8_t hint);
void *make(size_t n) { return __mip_malloc_hint(n, 1); }
EOF
cat >"$W/hint_cxx.cpp" <<'EOF'
#include <cstddef>
enum class __hot_cold_t : unsigned char;
void *operator new(std::size_t, __hot_cold_t);
void *make() { return ::operator new(8, static_cast<__hot_cold_t>(255)); }
EOF
(cd "$W" && "$CLANG" -c hint_c.c && "$CLANG" -x c++ -c hint_cxx.cpp &&
  "$CLANG" -c a.c -o plain.o && ar rcs libhint.a plain.o hint_cxx.o) ||
  echo "cannot build the hinted objects"

t_use_link() {
  # Inputs that call no hinted function: nothing added.
  argv_drive -fmip-use=p.mip plain.o -o u
  [ "$RC" = 0 ] && [ "$LINE" = "$TMP/argv plain.o -o u" ] &&
    note_is "not added: no input calls a hinted allocation function" &&
    # One that does, as an object, in an archive, after "--".
    argv_drive -fmip-use=p.mip plain.o hint_c.o -o u &&
    [ "$RC" = 0 ] && [ "$LINE" = "$TMP/argv plain.o hint_c.o -o u $ALLOC" ] &&
    note_is "added: hint_c.o calls __mip_malloc_hint" &&
    argv_drive -fmip-use=p.mip plain.o libhint.a -o u && [ "$RC" = 0 ] &&
    ends_with "libhint.a -o u $ALLOC" &&
    note_is "added: libhint.a(hint_cxx.o) calls _Znwm12__hot_cold_t" &&
    argv_drive -fmip-use=p.mip -fmip-generate hint_c.o -o ug &&
    [ "$RC" = 0 ] && ends_with "hint_c.o -o ug $RT $ALLOC" &&
    argv_drive -fmip-use=p.mip -o ud -- hint_c.o &&
    ends_with "$ALLOC -- hint_c.o" &&
    # Sources compiled in the same command: their objects are out of
    # sight, so the library comes.
    argv_drive -fmip-use=p.mip -fPIC -shared lib.c -o libu.so &&
    [ "$RC" = 0 ] && has "$PLUGIN" && ends_with "-o libu.so $ALLOC" &&
    note_is "added: lib.c is compiled with -fmip-use in this command" &&
    argv_drive -fmip-use=p.mip -x c code.txt -o ux &&
    ends_with "-o ux -x none $ALLOC" &&
    # On request, either way.
    argv_drive -fmip-use=p.mip -fmip-alloc-hints plain.o -o uf &&
    [ "$RC" = 0 ] && ends_with "plain.o -o uf $ALLOC" &&
    note_is "added: -fmip-alloc-hints" &&
    argv_drive -fmip-use=p.mip -fno-mip-alloc-hints hint_c.o -o un &&
    [ "$RC" = 0 ] && [ "$LINE" = "$TMP/argv hint_c.o -o un" ] &&
    note_is "not added: -fno-mip-alloc-hints" || return 1
  # Not on commands that make no image.
  for args in "-c a.c -o a.o" "-r hint_c.o -o part.o" "-E a.c" \
    "-S a.c -o a.s"; do
    # shellcheck disable=SC2086 # the arguments are meant to be split
    argv_drive -fmip-use=p.mip $args
    [ "$RC" = 0 ] && [ -n "$LINE" ] && lacks libmip_alloc && lacks jemalloc ||
      return 1
  done
}
check "links with -fmip-use add libmip_alloc.a and jemalloc for hinted calls" \
  t_use_link

t_use_link_odd_inputs() {
  # What is not an ELF relocatable object or archive is passed over: the
  # linker judges it; mipcc adds nothing and says nothing more.
  : >"$W/empty.o"
  printf 'not elf at all' >"$W/text.o"
  truncated "$W/hint_c.o" 100 "$W/cut.o"
  mkfifo "$W/fifo.o"
  argv_drive -fmip-use=p.mip empty.o text.o cut.o fifo.o missing.o "$W" \
    -o odd
  rm -f "$W/fifo.o"
  [ "$RC" = 0 ] &&
    [ "$LINE" = "$TMP/argv empty.o text.o cut.o fifo.o missing.o $W -o odd" ] &&
    note_is "not added: no input calls a hinted allocation function"
}
check "link inputs mipcc cannot read are passed over" t_use_link_odd_inputs

t_use_link_missing() {
  mkdir -p "$TMP/noalloc"
  cp "$LIB/libmip.so" "$LIB/libmip_rt.a" "$TMP/noalloc/"
  (cd "$W" && MIP_LIBDIR=$TMP/noalloc "$MIPCC" -fmip-use=p.mip hint_c.o \
    -o x) \
    >/dev/null 2>"$TMP/err"
  [ $? = 1 ] && [ "$(cat "$TMP/err")" = "mipcc: cannot find $TMP/noalloc/libmip_alloc.a (set MIP_LIBDIR to the directory that holds it)" ]
}
check "a missing libmip_alloc.a is named, exit 1" t_use_link_missing

# Stand-ins for clang and mipdata on -fmip-order links. Both note their
# arguments in $FAKE_DIR; the compiler keeps a copy of the ordering file
# it was given, then exits with $FAKE_RC or dies of $FAKE_SIGNAL; mipdata
# writes two names and a summary, or fails with a message when
# $FAKE_MD_FAIL is set.
cat >"$TMP/fakecc" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$FAKE_DIR/cc.args"
for a in "$@"; do
  case "$a" in
  *-ordering-file=*) cp "${a#*-ordering-file=}" "$FAKE_DIR/cc.order" ;;
  esac
done
[ -n "${FAKE_SIGNAL:-}" ] && kill -"$FAKE_SIGNAL" $$
exit "${FAKE_RC:-0}"
EOF
cat >"$TMP/fakemipdata" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$FAKE_DIR/md.args"
if [ -n "${FAKE_MD_FAIL:-}" ]; then
  echo "mipdata: $3: no call counts in this profile" >&2
  exit 1
fi
printf 'main\nstep_a\n' >"$5"
echo "$5: 2 symbols"
EOF
chmod +x "$TMP/fakecc" "$TMP/fakemipdata"
FAKE=$TMP/fake
OTMP=$TMP/otmp

# fake_drive [VAR=VALUE...] TOOL ARGS...: drive with the stand-ins and
# TMPDIR set to the empty $OTMP; the ordering file's name in ORDER_FILE.
fake_drive() {
  rm -rf "$FAKE" "$OTMP" && mkdir "$FAKE" "$OTMP"
  drive env MIP_CLANG="$TMP/fakecc" MIP_MIPDATA="$TMP/fakemipdata" \
    TMPDIR="$OTMP" FAKE_DIR="$FAKE" "$@"
  ORDER_FILE=
  if [ -e "$FAKE/md.args" ]; then ORDER_FILE=$(sed -n 5p "$FAKE/md.args"); fi
}
# The ordering file was made in $OTMP by mkstemp, and is gone.
order_file_removed() {
  case "$ORDER_FILE" in "$OTMP"/mipcc-order.??????) ;; *) return 1 ;; esac &&
    [ -z "$(ls -A "$OTMP")" ]
}

t_order_compile() {
  args_of -fmip-use=p.mip -fmip-order -fno-function-sections -O2 -c a.c \
    -o a.o
  [ "$RC" = 0 ] &&
    printf '%s\n' "$PLUGIN" -fplugin-arg-mip-use=p.mip -fno-function-sections \
      -O2 -c a.c -o a.o -ffunction-sections -fdata-sections |
      cmp -s - "$TMP/args" &&
    fake_drive "$MIPCC" -fmip-use=p.mip -fmip-order -c a.c -o a.o &&
    [ "$RC" = 0 ] && [ -z "$ORDER_LINE" ] && [ ! -e "$FAKE/md.args" ] &&
    [ -z "$(ls -A "$OTMP")" ] && ends_with "-c a.c -o a.o -ffunction-sections -fdata-sections" &&
    # Only with -fmip-use and -fmip-order both.
    args_of -fmip-use=p.mip -c a.c && ! grep -q function-sections "$TMP/args" &&
    args_of -fmip-generate -c a.c && ! grep -q function-sections "$TMP/args"
}
check "-fmip-order compiles get -ffunction-sections -fdata-sections (last), no ordering" \
  t_order_compile

# (The -fmip-order links below link plain.o: an instrumented object, such
# as a.o, would bring the runtime onto the line.)
t_order_link() {
  fake_drive "$MIPCC" -fmip-use=p.mip -fmip-order plain.o -o prog
  [ "$RC" = 0 ] && order_file_removed &&
    [ "$ORDER_LINE" = "$TMP/fakemipdata order -p p.mip -o $ORDER_FILE --format lld" ] &&
    printf '%s\n' plain.o -o prog -fuse-ld=lld \
      "-Wl,--symbol-ordering-file=$ORDER_FILE" -Wl,--no-warn-symbol-ordering |
      cmp -s - "$FAKE/cc.args" &&
    # The compiler got the file mipdata wrote; mipdata's summary is not
    # on the command's stdout.
    printf 'main\nstep_a\n' | cmp -s - "$FAKE/cc.order" && [ ! -s "$TMP/out" ] &&
    # Compile and link in one command: both.
    fake_drive "$MIPCC" -fmip-use=p.mip -fmip-order -O2 a.c -o prog &&
    [ "$RC" = 0 ] && order_file_removed &&
    [ "$LINE" = "$TMP/fakecc $PLUGIN -fplugin-arg-mip-use=p.mip -O2 a.c -o prog -ffunction-sections -fdata-sections -fuse-ld=lld -Wl,--symbol-ordering-file=$ORDER_FILE -Wl,--no-warn-symbol-ordering $ALLOC" ] &&
    # No ordering at a partial link.
    fake_drive "$MIPCC" -fmip-use=p.mip -fmip-order -r a.o -o part.o &&
    [ "$RC" = 0 ] && [ ! -e "$FAKE/md.args" ] && lacks ordering
}
check "-fmip-order links: mipdata order, lld, the ordering file, removed" \
  t_order_link

t_order_linkers() {
  for ld in -fuse-ld=lld -fuse-ld=ld.lld -fuse-ld=/usr/bin/ld.lld \
    --ld-path=/usr/lib/llvm-19/bin/ld.lld; do
    fake_drive "$MIPCC" -fmip-use=p.mip -fmip-order "$ld" plain.o -o prog
    # The user's choice, not another -fuse-ld=lld.
    [ "$RC" = 0 ] && order_file_removed &&
      [ "$(grep -c -- '-fuse-ld\|--ld-path' "$FAKE/cc.args")" = 1 ] &&
      has "$ld" && has "-Wl,--symbol-ordering-file=$ORDER_FILE" &&
      has -Wl,--no-warn-symbol-ordering &&
      case "$ORDER_LINE" in *"--format lld") ;; *) false ;; esac || return 1
  done
  for ld in -fuse-ld=gold -fuse-ld=ld.gold -fuse-ld=/usr/bin/ld.gold \
    --ld-path=/usr/bin/ld.gold; do
    fake_drive "$MIPCC" -fmip-use=p.mip -fmip-order -fuse-ld=lld "$ld" \
      plain.o -o prog
    [ "$RC" = 0 ] && order_file_removed &&
      case "$ORDER_LINE" in *"--format gold") ;; *) false ;; esac &&
      printf '%s\n' -fuse-ld=lld "$ld" plain.o -o prog \
        "-Wl,--section-ordering-file=$ORDER_FILE" |
      cmp -s - "$FAKE/cc.args" || return 1
  done
}
check "-fmip-order with -fuse-ld=lld, ld.lld, gold, ld.gold, --ld-path" \
  t_order_linkers

t_order_bfd() {
  fake_drive "$MIPCC" -fmip-use=p.mip -fmip-order -fuse-ld=bfd a.o -o prog
  [ "$RC" = 1 ] && [ ! -e "$FAKE/md.args" ] && [ ! -e "$FAKE/cc.args" ] &&
    [ -z "$(ls -A "$OTMP")" ] &&
    [ "$(cat "$TMP/err")" = "mipcc: -fmip-order needs lld or gold to link (-fuse-ld=lld or -fuse-ld=gold): -fuse-ld=bfd cannot order functions" ] &&
    fake_drive "$MIPCC" -fmip-use=p.mip -fmip-order -fuse-ld=gold \
      --ld-path=/usr/bin/ld.bfd a.o -o prog &&
    [ "$RC" = 1 ] && grep -q -- "--ld-path=/usr/bin/ld.bfd cannot order" "$TMP/err" &&
    fake_drive "$MIPCC" -fmip-use=p.mip -fmip-order -fuse-ld=lld -fuse-ld=bfd \
      a.o -o prog && [ "$RC" = 1 ] && [ ! -e "$FAKE/md.args" ] &&
    # Compiles do not link: the linker does not matter there.
    fake_drive "$MIPCC" -fmip-use=p.mip -fmip-order -fuse-ld=bfd -c a.c &&
    [ "$RC" = 0 ]
}
check "-fmip-order with -fuse-ld=bfd (or --ld-path to it) is refused" \
  t_order_bfd

t_order_hot_share() {
  fake_drive "$MIPCC" -fmip-use=p.mip -fmip-order -fmip-hot-share=0.5 a.c \
    -o prog
  [ "$RC" = 0 ] &&
    [ "$ORDER_LINE" = "$TMP/fakemipdata order -p p.mip -o $ORDER_FILE --format lld --hot-share 0.5" ] &&
    has -fplugin-arg-mip-hot-share=0.5 &&
    fake_drive "$MIPCC" -fmip-use=p.mip -fmip-order a.o -o prog &&
    [ -n "$ORDER_LINE" ] &&
    case "$ORDER_LINE" in *hot-share*) false ;; esac
}
check "-fmip-hot-share reaches mipdata order as --hot-share" t_order_hot_share

t_order_status() {
  fake_drive FAKE_RC=3 "$MIPCC" -fmip-use=p.mip -fmip-order a.o -o prog
  [ "$RC" = 3 ] && order_file_removed && [ -s "$FAKE/cc.order" ] &&
    fake_drive FAKE_SIGNAL=TERM "$MIPCC" -fmip-use=p.mip -fmip-order a.o \
      -o prog 2>/dev/null && [ "$RC" = 143 ] && order_file_removed
}
check "-fmip-order: the link's exit status and death by signal come through" \
  t_order_status

t_order_interrupted() {
  rm -rf "$FAKE" "$OTMP" && mkdir "$FAKE" "$OTMP"
  printf '#!/bin/sh\necho $$ >"$FAKE_DIR/started.tmp"\nmv "$FAKE_DIR/started.tmp" "$FAKE_DIR/started"\nexec sleep 30\n' \
    >"$TMP/sleepcc"
  chmod +x "$TMP/sleepcc"
  (cd "$W" && exec env MIP_CLANG="$TMP/sleepcc" MIP_MIPDATA="$TMP/fakemipdata" \
    TMPDIR="$OTMP" FAKE_DIR="$FAKE" "$MIPCC" -fmip-use=p.mip -fmip-order \
    a.o -o prog) >/dev/null 2>&1 </dev/null &
  pid=$!
  n=0
  while [ ! -e "$FAKE/started" ] && [ $n -lt 100 ]; do
    sleep 0.1
    n=$((n + 1))
  done
  if [ ! -e "$FAKE/started" ] || [ -z "$(ls -A "$OTMP")" ]; then
    kill "$pid"
    return 1
  fi
  kill -TERM "$pid"
  # (The shell notes the death on stderr: keep that out of the report.)
  wait "$pid" 2>/dev/null
  rc=$?
  # mipcc passed the signal on, removed the file, and died of it as well.
  [ "$rc" = 143 ] && [ -z "$(ls -A "$OTMP")" ] &&
    ! kill -0 "$(cat "$FAKE/started")" 2>/dev/null
}
check "-fmip-order: SIGTERM to mipcc reaches the compiler, file removed" \
  t_order_interrupted

t_order_mipdata_fails() {
  fake_drive FAKE_MD_FAIL=1 "$MIPCC" -fmip-use=p.mip -fmip-order a.o -o prog
  [ "$RC" = 1 ] && [ ! -e "$FAKE/cc.args" ] && order_file_removed &&
    [ "$(grep -v '^mipcc: [/l]' "$TMP/err")" = "mipdata: p.mip: no call counts in this profile" ] ||
    return 1
  # No mipdata next to mipcc, and no MIP_MIPDATA: named, nothing created.
  mkdir -p "$TMP/nomipdata" && cp "$MIPCC" "$TMP/nomipdata/mipcc" &&
    (cd "$W" && TMPDIR=$OTMP MIP_LIBDIR=$LIB "$TMP/nomipdata/mipcc" \
      -fmip-use=p.mip -fmip-order a.o -o prog) >/dev/null 2>"$TMP/err"
  [ $? = 1 ] && [ -z "$(ls -A "$OTMP")" ] &&
    [ "$(cat "$TMP/err")" = "mipcc: cannot find $TMP/nomipdata/mipdata (set MIP_MIPDATA to the mipdata to run)" ]
}
check "-fmip-order: a failing mipdata order stops the link, exit 1" \
  t_order_mipdata_fails

# ---- 1c. what a link needs, whatever its command says --------------------

# rt_note_is TEXT: the driver's verbose line about libmip_rt.a;
# interpose_note_is OBJECT TEXT: about the heap interposer.
rt_note_is() { grep -qxF "mipcc: libmip_rt.a $1" "$TMP/err"; }
interpose_note_is() { grep -qxF "mipcc: $1 $2" "$TMP/err"; }
INTERPOSE=$LIB/mip_interpose.o
INTERPOSE_SHARED=$LIB/mip_interpose_shared.o

# Instrumented and plain objects, and archives of them in ld/ (static
# only) and ld/so/ (a shared library of the same name beside).
mkdir -p "$W/ld/so"
(cd "$W" && "$CLANG" -c a.c -o amain.o && "$CLANG" -fPIC -c lib.c -o nlib.o &&
  "$MIPCC" -fmip-generate -fPIC -c lib.c -o ilib.o &&
  "$MIPCC" -fmip-generate=heap -fPIC -c lib.c -o hlib.o &&
  "$MIPCC" -fmip-generate=heap -c a.c -o ha.o &&
  ar rcs ld/libinst.a nlib.o ilib.o && cp ld/libinst.a ld/so/ &&
  "$CLANG" -shared nlib.o -o ld/so/libinst.so && ar rcs ld/libheap.a hlib.o) ||
  echo "cannot build the objects for the link checks"

t_link_scan() {
  # An instrumented object, linked without the flag: the runtime comes.
  drive "$MIPCC" a.o -o scan1
  [ "$RC" = 0 ] && has -Wl,--build-id && ends_with "a.o -o scan1 $RT" &&
    rt_note_is "added: a.o is instrumented" &&
    (cd "$W" && MIP_PROFILE_FILE=$W/scan1.mipraw ./scan1) &&
    profile_of "$W/scan1.mipraw" "$W/scan1" &&
    # Nothing instrumented, nothing added.
    drive "$MIPCC" amain.o nlib.o -o scan2 && [ "$RC" = 0 ] &&
    [ "$LINE" = "$CLANG amain.o nlib.o -o scan2" ] &&
    rt_note_is "not added: no input is instrumented" &&
    drive "$MIPCC" -fmip-generate amain.o -o scan3 && [ "$RC" = 0 ] &&
    rt_note_is "added: -fmip-generate" &&
    # Not on commands that make no image.
    drive "$MIPCC" -r a.o -o part.o && [ "$RC" = 0 ] && lacks libmip_rt &&
    ! grep -q 'libmip_rt' "$TMP/err"
}
check "links of instrumented objects get the runtime, flag or not" t_link_scan

# scan_adds ARGS...: the link (compiler stood in for) gets the runtime for
# ld/libinst.a(ilib.o); scan_skips ARGS...: it gets nothing.
scan_adds() {
  argv_drive amain.o "$@" -o s
  [ "$RC" = 0 ] && ends_with "$RT" &&
    rt_note_is "added: $SCAN_WHERE(ilib.o) is instrumented" ||
    { echo "adds: $*" >>"$TMP/err"; return 1; }
}
scan_skips() {
  argv_drive amain.o "$@" -o s
  [ "$RC" = 0 ] && lacks libmip_rt && rt_note_is "not added: no input is instrumented" ||
    { echo "skips: $*" >>"$TMP/err"; return 1; }
}

t_link_scan_args() {
  SCAN_WHERE=ld/libinst.a
  scan_adds ld/libinst.a &&
    scan_adds -Wl,--whole-archive,ld/libinst.a,--no-whole-archive &&
    scan_adds -Xlinker ld/libinst.a &&
    # Values of linker options are no inputs.
    scan_skips -Wl,-soname,ld/libinst.a && scan_skips -Wl,-Map,ld/libinst.a &&
    scan_skips -Xlinker -soname -Xlinker ld/libinst.a &&
    SCAN_WHERE=ld/libinst.a && scan_adds -Lld -linst &&
    SCAN_WHERE=ld/libinst.a && scan_adds -L ld -l inst &&
    scan_adds -Wl,-Lld,-linst && scan_adds -Xlinker -L -Xlinker ld -linst &&
    scan_adds -Lld -l:libinst.a && scan_adds --library-directory=ld -linst &&
    # A shared library found first is another image, with its own runtime.
    scan_skips -Lld/so -linst && scan_skips -linst && scan_skips -Lnowhere -linst &&
    SCAN_WHERE=ld/so/libinst.a && scan_adds -Lld/so -Wl,-Bstatic -linst &&
    scan_adds -static -Lld/so -linst &&
    scan_skips -Lld/so -Wl,-Bstatic -Wl,-Bdynamic -linst
}
check "-Wl, -Xlinker, -L and -l: the static libraries the linker reads are looked into" \
  t_link_scan_args

t_link_heap() {
  # Heap code: the executable's interposer, or the shared library's.
  drive "$MIPCC" ha.o -o hx
  [ "$RC" = 0 ] && ends_with "ha.o -o hx $INTERPOSE $RT" &&
    interpose_note_is mip_interpose.o \
      "added: ha.o has heap code (__mip_heap_link_with_mipcc_or_mip_interpose)" &&
    (cd "$W" && MIP_PROFILE_FILE=$W/hx.mipraw ./hx) &&
    profile_of "$W/hx.mipraw" "$W/hx" &&
    drive "$MIPCC" -shared hlib.o -o libh.so && [ "$RC" = 0 ] &&
    ends_with "-o libh.so $INTERPOSE_SHARED $RT" &&
    interpose_note_is mip_interpose_shared.o \
      "added: hlib.o has heap code (__mip_heap_link_with_mipcc_or_mip_interpose)" &&
    ! nm -D --defined-only "$W/libh.so" | grep -Eq ' (free|realloc|reallocarray)$' &&
    argv_drive -Wl,-shared ld/libheap.a -o x.so && ends_with "$INTERPOSE_SHARED $RT" &&
    interpose_note_is mip_interpose_shared.o \
      "added: ld/libheap.a(hlib.o) has heap code (__mip_heap_link_with_mipcc_or_mip_interpose)" &&
    # Compiled in the same command: the flag says.
    drive "$MIPCC" -fmip-generate=heap a.c -o hx2 && [ "$RC" = 0 ] &&
    ends_with "-o hx2 $FP $INTERPOSE $RT" &&
    interpose_note_is mip_interpose.o \
      "added: a.c is compiled with heap mode in this command" &&
    # No heap code, no interposer, whatever the flag.
    argv_drive -fmip-generate=heap a.o -o nx && ends_with "a.o -o nx $RT" &&
    ! grep -q mip_interpose "$TMP/err"
}
check "links of heap code get the interposer: the executable's or the library's" \
  t_link_heap

# compile_adds_nothing FLAG WHAT: a compile with FLAG adds nothing of
# WHAT and does not pass the flag on.
compile_adds_nothing() {
  drive "$MIPCC" -fmip-generate "$1" -c a.c -o flag.o
  [ "$RC" = 0 ] && lacks "$2" && lacks -fmip-
}

# link_adds FLAG OUT TAIL SAYS: a link of a.o with FLAG ends with TAIL
# (a.o -o OUT and what FLAG adds) and mipcc says SAYS.
link_adds() {
  drive "$MIPCC" "$1" a.o -o "$2" && [ "$RC" = 0 ] &&
    ends_with "a.o -o $2 $3" && grep -qxF "$4" "$TMP/err"
}

# cancelled_or_idle FLAG WHAT: a later -fno- form cancels FLAG, and a
# link that gets no runtime gets nothing of WHAT either.
cancelled_or_idle() {
  argv_drive "$1" "-fno-${1#-f}" a.o -o nof && ends_with "a.o -o nof $RT" &&
    drive "$MIPCC" "$1" amain.o -o idle && [ "$RC" = 0 ] && lacks "$2"
}

t_link_continuous() {
  CONT=$LIB/mip_continuous.o
  compile_adds_nothing -fmip-continuous mip_continuous &&
    # A link: the object after the interposer, before the runtime.
    link_adds -fmip-continuous cx "$CONT $RT" \
      "mipcc: mip_continuous.o added: -fmip-continuous" &&
    drive "$MIPCC" -fmip-continuous ha.o -o chx && [ "$RC" = 0 ] &&
    ends_with "ha.o -o chx $INTERPOSE $CONT $RT" &&
    # Mapped at run time; a later -fno-mip-continuous cancels it.
    (cd "$W" && MIP_OPTIONS=verbose=1 MIP_PROFILE_FILE=$W/cx%c.mipraw ./cx) 2>"$TMP/run" &&
    grep -q "^mip: counting into profile '$W/cx.mipraw'" "$TMP/run" &&
    cancelled_or_idle -fmip-continuous mip_continuous
}
check "-fmip-continuous: links get mip_continuous.o before the runtime, compiles nothing" \
  t_link_continuous

t_link_pool() {
  POOL=-Wl,-u,__mip_link_pool
  POOL_HEAP=-Wl,-u,__mip_link_pool_heap
  compile_adds_nothing -fmip-pool __mip_link_pool &&
    # A link: the merge named before the runtime; heap code, its heap part.
    link_adds -fmip-pool px "$POOL $RT" \
      "mipcc: pool mode's merge added: -fmip-pool" &&
    drive "$MIPCC" -fmip-pool ha.o -o phx && [ "$RC" = 0 ] &&
    ends_with "ha.o -o phx $INTERPOSE $POOL $POOL_HEAP $RT" &&
    drive "$MIPCC" -fmip-pool -fmip-continuous a.o -o pcx && [ "$RC" = 0 ] &&
    ends_with "a.o -o pcx $LIB/mip_continuous.o $POOL $RT" &&
    # Pooled at run time: the second run merges into the first's file.
    (cd "$W" && for i in 1 2; do MIP_OPTIONS=verbose=1 MIP_PROFILE_FILE=$W/pooled/%1m.mipraw ./px; done) 2>"$TMP/run" &&
    grep -q "^mip: merged profile into '$W/pooled/[0-9a-f]*_0.mipraw' (2 runs)$" "$TMP/run" &&
    cancelled_or_idle -fmip-pool __mip_link_pool
}
check "-fmip-pool: links name pool mode's merge before the runtime, compiles nothing" \
  t_link_pool

t_link_shared_runtime() {
  SHARED_RT="$LIB/mip_rt_image.o $LIB/libmip_rt.so -Wl,-rpath,$LIB"
  compile_adds_nothing -fmip-shared-runtime libmip_rt &&
    # A link: the image's object and libmip_rt.so instead of the archive.
    link_adds -fmip-shared-runtime sx "$SHARED_RT" \
      "mipcc: libmip_rt.so and mip_rt_image.o added: a.o is instrumented, -fmip-shared-runtime" &&
    (cd "$W" && MIP_PROFILE_FILE=$W/sx.mipraw ./sx) &&
    profile_of "$W/sx.mipraw" "$W/sx" &&
    # Heap code keeps its runtime in the image: refused.
    drive "$MIPCC" -fmip-shared-runtime ha.o -o shx && [ "$RC" != 0 ] &&
    grep -q "^mipcc: -fmip-shared-runtime: heap mode needs the runtime linked into the image" "$TMP/err" &&
    cancelled_or_idle -fmip-shared-runtime libmip_rt
}
check "-fmip-shared-runtime: links get mip_rt_image.o and libmip_rt.so, compiles nothing" \
  t_link_shared_runtime

t_link_scan_hints() {
  # Hinted calls in a static library found through -L and -l.
  argv_drive -fmip-use=p.mip plain.o -L. -lhint -o u
  [ "$RC" = 0 ] && ends_with "-lhint -o u $ALLOC" &&
    note_is "added: ./libhint.a(hint_cxx.o) calls _Znwm12__hot_cold_t"
}
check "-fmip-use links: hinted calls found through -L and -l" t_link_scan_hints

# ---- 2. an unchanged CMake project ----------------------------------------

# cmake_build NAME CMAKE-ARGS...: configures the project in $TMP/NAME
# with CC=mipcc, from there (where its test program runs, and must leave
# no profile), builds it, then runs the program.
cmake_build() {
  dir=$TMP/$1
  shift
  mkdir -p "$dir" &&
    (cd "$dir" && CC=$MIPCC cmake --no-warn-unused-cli "$HERE/cmake-project" \
      -DCMAKE_C_FLAGS=-fmip-generate "$@") >"$TMP/err" 2>&1 &&
    grep -q 'The C compiler identification is Clang' "$TMP/err" &&
    grep -q 'Performing Test MIPCC_TEST_RUNS - Success' "$TMP/err" &&
    [ -z "$(find "$dir" -name '*.mipraw')" ] &&
    cmake --build "$dir" >>"$TMP/err" 2>&1 &&
    instrumented "$dir/libstats.a" &&
    out=$(MIP_PROFILE_FILE=$dir/run/default.mipraw "$dir/summary") &&
    [ "$out" = "sum=16 max=9" ] &&
    profile_of "$dir/run/default.mipraw" "$dir/summary"
}

check "cmake (Unix Makefiles): static library + program profile, no probe's" \
  cmake_build cmake-make -G "Unix Makefiles"
if command -v ninja >/dev/null 2>&1; then
  # CMake then puts the flags, -fmip-generate included, in response files.
  check "cmake (Ninja, response files): static library + program profile, no probe's" \
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
    profile_of "$W/cxx.mipraw" "$W/templates" &&
    # Linked without the flag, as builds that link with LDFLAGS do.
    drive "$MIPCXX" templates.o -o templates2 && [ "$RC" = 0 ] &&
    ends_with "$RT" && (cd "$W" && MIP_PROFILE_FILE=$W/cxx2.mipraw ./templates2 >/dev/null) &&
    profile_of "$W/cxx2.mipraw" "$W/templates2"
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

# ---- 6. -fmip-use and -fmip-order end to end ------------------------------

# A program whose functions are defined in the reverse of the order it
# first calls them, with a hot loop and two functions it never calls.
cat >"$W/lay_main.c" <<'EOF'
#include <stdio.h>
int lay_a(int), lay_b(int), lay_c(int), lay_spin(int);
int lay_never_x(int), lay_never_y(int);
int main(int argc, char **argv) {
  (void)argv;
  int v = lay_a(argc);
  v = lay_b(v);
  v = lay_c(v);
  for (int i = 0; i < 100000; i++)
    v = lay_spin(v);
  if (argc > 5)
    v += lay_never_x(v) + lay_never_y(v);
  printf("%d\n", v);
  return 0;
}
EOF
cat >"$W/lay_fn.c" <<'EOF'
int lay_never_y(int v) { return v * 7 + 1; }
int lay_never_x(int v) { return v * 5 + 3; }
int lay_spin(int v) { return (v * 31 + 7) & 0xffff; }
int lay_c(int v) { return v + 3; }
int lay_b(int v) { return v * 2; }
int lay_a(int v) { return v + 1; }
EOF
NM=$(command -v nm || echo "$(dirname "$CLANG")/llvm-nm")

# text_order BINARY: the program's own functions, by address.
text_order() {
  "$NM" -n "$1" | awk '$2 ~ /^[tT]$/ && $3 ~ /^(main|lay_.*)$/ { print $3 }' |
    tr '\n' ' ' | sed 's/ $//'
}

# The profile: counts and first-call order, one run.
t_lay_profile() {
  (cd "$W" && mip_build counts,order lay_gen -O2 lay_main.c lay_fn.c &&
    MIP_PROFILE_FILE=$W/lay.mipraw ./lay_gen >lay.want &&
    mip_profile lay_gen lay.mip lay.mipraw &&
    "$MIPDATA" order -p lay.mip -o lay.order >/dev/null) >"$TMP/err" 2>&1 &&
    # What the profile ran first, first; the hot loop; the cold ones.
    LAY_WANT=$(grep -E '^(main|lay_.*)$' "$W/lay.order" | tr '\n' ' ' |
      sed 's/ $//') &&
    case "$LAY_WANT" in
    "main lay_a lay_b lay_c lay_spin lay_never_"?" lay_never_"?) ;;
    *) echo "order file: $LAY_WANT" >"$TMP/err" && false ;;
    esac
}
check "end to end: the profile (counts,order) of the layout program" \
  t_lay_profile
LAY_WANT=${LAY_WANT:-none}

t_lay_plain() {
  (cd "$W" && "$MIPCC" -fmip-use=lay.mip -O2 -fuse-ld=lld lay_main.c \
    lay_fn.c -o lay_plain) 2>"$TMP/err" &&
    got=$(text_order "$W/lay_plain") && [ "$got" != "$LAY_WANT" ]
}
check "end to end: without -fmip-order the layout is another" t_lay_plain

# lay_ordered BINARY MIPCC-ARGS...: built by one mipcc command with
# -fmip-use -fmip-order, it runs as before, its functions come in the
# profile's order, and no ordering file is left behind.
lay_ordered() {
  bin=$1
  shift
  rm -rf "$OTMP" && mkdir "$OTMP"
  drive env TMPDIR="$OTMP" "$MIPCC" -fmip-use=lay.mip -fmip-order "$@" -o "$bin"
  [ "$RC" = 0 ] && [ -n "$ORDER_LINE" ] && [ -z "$(ls -A "$OTMP")" ] &&
    (cd "$W" && "./$bin" >"$bin.out") && cmp -s "$W/$bin.out" "$W/lay.want" &&
    got=$(text_order "$W/$bin") &&
    { [ "$got" = "$LAY_WANT" ] || { echo "text order: $got" >>"$TMP/err" &&
      false; }; }
}

t_lay_lld() {
  lay_ordered lay_lld -O2 lay_main.c lay_fn.c &&
    has -ffunction-sections && has -fuse-ld=lld &&
    case "$ORDER_LINE" in *"--format lld") ;; *) false ;; esac
}
check "end to end: -fmip-use -fmip-order in one command lays out by profile (lld)" \
  t_lay_lld

if command -v ld.gold >/dev/null 2>&1; then
  t_lay_gold() {
    lay_ordered lay_gold -O2 -fuse-ld=gold lay_main.c lay_fn.c &&
      case "$ORDER_LINE" in *"--format gold") ;; *) false ;; esac
  }
  check "end to end: the same with gold" t_lay_gold
else
  echo "skip end to end with gold (no ld.gold)"
fi

t_lay_separate() {
  # Compiles: one section per function, hot and cold ones prefixed.
  drive "$MIPCC" -fmip-use=lay.mip -fmip-order -O2 -c lay_fn.c -o lay_fn.o &&
    [ "$RC" = 0 ] && ends_with "-ffunction-sections -fdata-sections" && [ -z "$ORDER_LINE" ] &&
    "$READELF" -S -W "$W/lay_fn.o" >"$TMP/sections" &&
    grep -q ' \.text\.hot\.lay_spin ' "$TMP/sections" &&
    grep -q ' \.text\.unlikely\.lay_never_x ' "$TMP/sections" &&
    grep -q ' \.text\.lay_a ' "$TMP/sections" &&
    drive "$MIPCC" -fmip-use=lay.mip -fmip-order -O2 -c lay_main.c \
      -o lay_main.o && [ "$RC" = 0 ] &&
    # The link alone orders them.
    lay_ordered lay_objs lay_main.o lay_fn.o && lacks -fplugin
}
check "end to end: compiled separately, then linked with -fmip-order" \
  t_lay_separate

t_lay_settings() {
  # The plugin takes every setting mipcc passes; it judges the ranges.
  drive "$MIPCC" -fmip-use=lay.mip -fmip-hot-share=0.8 \
    -fmip-cold-max-density=0.5 -fmip-cold-min-lifetime=10 \
    -fmip-hot-min-density=2e3 -fmip-list-stale -fmip-cold-minsize \
    -fmip-alloc-hints -fmip-branch-weights -O2 -c lay_fn.c -o lay_s.o &&
    [ "$RC" = 0 ] &&
    drive "$MIPCC" -fmip-use=lay.mip -fmip-hot-share=2 -c lay_fn.c -o lay_s.o &&
    [ "$RC" = 1 ] && grep -q "hot-share=2: expected a number from 0 to 1" \
      "$TMP/err" &&
    # Last one wins, in the plugin too: a.c's main is not the profiled one.
    drive "$MIPCC" -fmip-use=lay.mip -fno-mip-list-stale -fmip-list-stale \
      -c a.c -o lay_s.o && [ "$RC" = 0 ] && grep -q "stale: main" "$TMP/err" &&
    drive "$MIPCC" -fmip-use=lay.mip -fmip-list-stale -fno-mip-list-stale \
      -c a.c -o lay_s.o && [ "$RC" = 0 ] && ! grep -q "stale: main" "$TMP/err"
}
check "end to end: the plugin takes the settings, the last one wins" \
  t_lay_settings

# bad_profile FILE MESSAGE: compiling with -fmip-use=FILE fails with the
# compiler's one error "mip: FILE: MESSAGE", and writes no object.
bad_profile() {
  rm -f "$W/bad.o"
  drive "$MIPCC" -fmip-use="$1" -O2 -c lay_fn.c -o bad.o
  [ "$RC" = 1 ] && [ ! -e "$W/bad.o" ] &&
    [ "$(grep -c 'error:' "$TMP/err")" = 1 ] &&
    grep -qF "error: mip: $1: $2" "$TMP/err"
}

t_lay_bad_profile() {
  : >"$W/empty.mip"
  truncated "$W/lay.mip" 100 "$W/short.mip"
  with_byte "$W/lay.mip" "$(dump_offset "$W/lay.mip" .header version)" 377 \
    "$W/newer.mip" &&
    bad_profile missing.mip "cannot open: No such file or directory" &&
    bad_profile empty.mip "empty file" &&
    bad_profile lay.mipraw "not a MIP indexed profile (this is a raw profile)" &&
    bad_profile lay.mipmap "not a MIP indexed profile" &&
    bad_profile short.mip "truncated" &&
    bad_profile newer.mip "profile version 255 is newer than this MIP reads (2)" &&
    bad_profile "$W" "not a regular file"
}
check "end to end: a bad profile is one compiler error, no object" \
  t_lay_bad_profile

t_lay_no_counts() {
  # A coverage-only profile has no call counts to order by.
  rm -rf "$OTMP" && mkdir "$OTMP"
  (cd "$W" && mip_build coverage cov a.c &&
    MIP_PROFILE_FILE=$W/cov.mipraw ./cov &&
    mip_profile cov cov.mip cov.mipraw) >"$TMP/err" 2>&1 &&
    (cd "$W" && TMPDIR=$OTMP "$MIPCC" -fmip-use=cov.mip -fmip-order a.c \
      -o cov_ordered) >/dev/null 2>"$TMP/err"
  [ $? = 1 ] && [ ! -e "$W/cov_ordered" ] && [ -z "$(ls -A "$OTMP")" ] &&
    [ "$(cat "$TMP/err")" = "mipdata: cov.mip: no call counts in this profile: order needs a build with -fmip-generate=counts (best counts,order,edges)" ]
}
check "end to end: a profile without call counts stops -fmip-order" \
  t_lay_no_counts

t_lay_status() {
  # A real link that fails: clang's status and message come through.
  rm -rf "$OTMP" && mkdir "$OTMP"
  (cd "$W" && TMPDIR=$OTMP "$MIPCC" -fmip-use=lay.mip -fmip-order lay_main.o \
    -o never) >/dev/null 2>"$TMP/err" </dev/null
  mip_rc=$?
  (cd "$W" && "$CLANG" -fuse-ld=lld lay_main.o -o never) >/dev/null 2>&1
  clang_rc=$?
  [ "$mip_rc" != 0 ] && [ "$mip_rc" = "$clang_rc" ] && [ ! -e "$W/never" ] &&
    [ -z "$(ls -A "$OTMP")" ] &&
    grep -q "undefined symbol: lay_a" "$TMP/err"
}
check "end to end: a failing -fmip-order link's status and message come through" \
  t_lay_status

needed() { "$READELF" -d "$1" | grep NEEDED; }

t_lay_jemalloc() {
  cat >"$W/hinted.c" <<'EOF'
#include <stdint.h>
#include <stdlib.h>
void *__mip_malloc_hint(size_t size, uint8_t hint);
int main(void) {
  char *p = __mip_malloc_hint(100, 1);
  p[99] = 1;
  free(p);
  return 0;
}
EOF
  cat >"$W/mallocs.c" <<'EOF'
#include <stdlib.h>
int main(int argc, char **argv) {
  char *p = malloc((size_t)argc + 10);
  p[0] = argv[0][0];
  free(p);
  return 0;
}
EOF
  # -O0: at -O2 clang drops a malloc whose block is never used.
  (cd "$W" && "$CLANG" -O0 -c hinted.c mallocs.c) 2>"$TMP/err" &&
    # A hinted call: libmip_alloc.a defines it, jemalloc comes with it.
    ! (cd "$W" && "$CLANG" hinted.o -o hinted) >/dev/null 2>&1 &&
    drive "$MIPCC" -fmip-use=lay.mip hinted.o -o hinted && [ "$RC" = 0 ] &&
    "$W/hinted" && needed "$W/hinted" | grep -q 'libjemalloc\.so' &&
    # No allocator call at all: the same program as without -fmip-use.
    drive "$MIPCC" -fmip-use=lay.mip lay_main.o lay_fn.o -o lay_use &&
    [ "$RC" = 0 ] && lacks libmip_alloc &&
    (cd "$W" && "$CLANG" lay_main.o lay_fn.o -o lay_clang) &&
    cmp -s "$W/lay_use" "$W/lay_clang" &&
    # A program that calls malloc but no hinted function keeps the
    # system's allocator...
    drive "$MIPCC" -fmip-use=lay.mip mallocs.o -o mallocs && [ "$RC" = 0 ] &&
    "$W/mallocs" && ! needed "$W/mallocs" | grep -q jemalloc &&
    # ... also compiled in the same command, when the profile hints no
    # allocation (lay.mip has no heap data)...
    drive "$MIPCC" -fmip-use=lay.mip -O0 mallocs.c -o mallocs &&
    [ "$RC" = 0 ] && "$W/mallocs" && lacks libmip_alloc &&
    grep -qxF "mipcc: libmip_alloc.a not added: lay.mip makes no allocation site cold or hot" "$TMP/err" &&
    ! needed "$W/mallocs" | grep -q jemalloc &&
    # ... unless the link asks for the library.
    drive "$MIPCC" -fmip-use=lay.mip -fmip-alloc-hints mallocs.o \
      -o mallocs && [ "$RC" = 0 ] && "$W/mallocs" &&
    needed "$W/mallocs" | grep -q 'libjemalloc\.so'
}
check "end to end: libmip_alloc.a and jemalloc at -fmip-use links" \
  t_lay_jemalloc

finish
