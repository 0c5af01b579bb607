#!/bin/sh
# Real builds at the link edge: what reaches the link decides what is
# linked, whatever the link command says.
#
#   test/driver/builds.sh BUILD_DIR
#
# 1. an autotools + libtool project (a shared library exported through
#    -export-symbols-regex, a program linked against it, a test program
#    run by configure) built with the README's recipe in coverage, all and
#    heap modes: configure passes and leaves no profile, the build runs,
#    the library's own profile names what ran; heap mode exports nothing
#    of libc's and still sees a free by code MIP did not build
# 2. a Makefile that links with LDFLAGS only (never -fmip-generate): a
#    static library through -L and -l, a shared library, a program
# 3. instrumented objects linked by other drivers (clang with GNU ld, gold
#    and lld; gcc): the link fails naming the symbol that says what to do;
#    linked by hand as docs/mipcc.md says, they profile
# 4. objects of older plugins (no such reference): mipcc still links the
#    runtime
# 5. configure-time test programs write no profile
# 6. mipdata merge names a profile of another build
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
for f in "$MIPCC" "$MIPDATA" "$LIB/libmip.so" "$LIB/libmip_rt.a" \
  "$LIB/mip_interpose.o" "$LIB/mip_interpose_shared.o"; do
  if [ ! -e "$f" ]; then
    echo "missing $f: build it first" >&2
    exit 2
  fi
done

unset MIP_DRIVER_VERBOSE MIP_LIBDIR MIP_MIPDATA MIP_PROFILE_FILE MIP_OPTIONS \
  MAKEFLAGS MFLAGS MAKELEVEL CFLAGS CPPFLAGS LDFLAGS LIBS CC CXX

TMP=$(mktemp -d "${TMPDIR:-/tmp}/mipcc-builds.XXXXXX") || exit 2
SUITE_TMP=$TMP # removed on exit (lib.sh)
trap 'exit 1' HUP INT TERM

ERR=$TMP/err
# check (lib.sh) shows what a check left in $ERR, which usually says why
CHECK_LOG=$ERR
skip() { echo "skip $*"; }
say() { echo "$*" >>"$ERR"; }

elf_build_id() {
  readelf -n "$1" | sed -n 's/^.*Build ID: *//p' | head -n 1
}

# profile_json NAME BINARY RAW...: the indexed profile of BINARY with the
# raw profiles merged, shown as JSON in $TMP/NAME.json (with --heap when
# the raw profiles hold heap data).
profile_json() {
  name=$1 bin=$2
  shift 2
  mip_profile --debug "$bin" "$TMP/$name.mip" "$@" &&
    mip_show "$TMP/$name.mip" >"$TMP/$name.json"
} 2>>"$ERR"

# fn NAME FUNCTION FIELD: the field of the function in NAME.json.
fn() { mip_field "$TMP/$1.json" "$2" "$3"; }

# covered NAME FUNCTION... : each is covered in one run; uncovered NAME
# FUNCTION...: none is.
covered() {
  name=$1
  shift
  for f in "$@"; do
    [ "$(fn "$name" "$f" covered_runs)" = 1 ] ||
      { say "$name: $f: covered_runs $(fn "$name" "$f" covered_runs)"; return 1; }
  done
}
uncovered() {
  name=$1
  shift
  for f in "$@"; do
    [ "$(fn "$name" "$f" covered)" = false ] ||
      { say "$name: $f: covered $(fn "$name" "$f" covered)"; return 1; }
  done
}

# exports_no_libc LIBRARY: it exports none of free, realloc, reallocarray.
exports_no_libc() {
  nm -D --defined-only "$1" >"$TMP/nm.out" 2>>"$ERR" || return 1
  got=$(awk '$3 ~ /^(free|realloc|reallocarray)$/' "$TMP/nm.out")
  [ -z "$got" ] || { say "$1 exports: $got"; return 1; }
}

# heap_live NAME FILE LINE: LiveAtExitCount of the one context allocated at
# FILE:LINE in NAME's heap profile (shown with --heap).
heap_live() {
  mip_show "$TMP/$1.mip" --heap 2>>"$ERR" |
    jq -r --arg f "$2" --argjson l "$3" \
      '[.heap[] | select(.site.file != null and (.site.file | endswith("/" + $f))
        and .site.line == $l)] | if length == 1 then .[0].LiveAtExitCount
        else "contexts: \(length)" end'
}

# line_of FILE TEXT: the number of the line of FILE holding TEXT.
line_of() { grep -nF "$2" "$1" | head -n 1 | cut -d: -f1; }

# no_profile_in DIR: nothing named *.mipraw under it.
no_profile_in() {
  found=$(find "$1" -name '*.mipraw')
  [ -z "$found" ] || { say "left behind: $found"; return 1; }
}

LINKERS="bfd lld"
command -v ld.gold >/dev/null && LINKERS="bfd gold lld"

# A library built without MIP that frees what it is given.
REL=$TMP/release
mkdir -p "$REL"
printf '#include <stdlib.h>\nvoid lib_release(void *p) { free(p); }\n' \
  >"$REL/release.c"
"$CLANG" -O2 -fPIC -shared "$REL/release.c" -o "$REL/librelease.so" || exit 2

# ---- 1. autotools and libtool ----------------------------------------------

if command -v autoreconf >/dev/null && command -v libtoolize >/dev/null; then
  AT=$TMP/autotools
  cp -R "$HERE/autotools-project" "$AT"
  if (cd "$AT" && autoreconf -fi) >"$TMP/autoreconf.log" 2>&1; then
    AT_OK=1
  else
    AT_OK=0
    echo "FAIL autoreconf -fi"
    sed 's/^/     | /' "$TMP/autoreconf.log" | tail -10
    failures=$((failures + 1))
  fi
else
  AT_OK=0
  skip "autotools project (no autoreconf or libtoolize)"
fi

# at_build MODE: configures (README's recipe, and an external library
# through LIBS) and builds the project in $AT-MODE, then runs it.
at_build() {
  dir=$AT-build$1
  mkdir -p "$dir"
  (cd "$dir" && "$AT/configure" CC="$MIPCC" CFLAGS="-O2 -g -fmip-generate$1" \
    LIBS=-lrelease LDFLAGS="-L$REL -Wl,-rpath,$REL") >"$dir.configure" 2>&1 ||
    { say "configure failed:"; tail -5 "$dir.configure" >>"$ERR"; return 1; }
  grep -q 'whether malloc and free work\.\.\. yes' "$dir.configure" ||
    { say "configure's test program did not run"; return 1; }
  no_profile_in "$dir" || return 1
  make -C "$dir" >"$dir.make" 2>&1 ||
    { say "make failed:"; tail -5 "$dir.make" >>"$ERR"; return 1; }
  out=$(cd "$dir" && MIP_PROFILE_FILE="$dir/run/default.mipraw" ./shapes) &&
    [ "$out" = "rectangle area=12 perimeter=14
2" ] || { say "shapes printed: $out"; return 1; }
}

# at_profiles MODE: each image wrote its own profile; the library's holds
# what ran in it.
at_profiles() {
  dir=$AT-build$1
  so=$(readlink -f "$dir/.libs/libshape.so")
  id=$(elf_build_id "$so" | cut -c1-16)
  [ -n "$id" ] && [ -s "$dir/run/default.$id.mipraw" ] ||
    { say "no profile of libshape.so: $(ls "$dir/run")"; return 1; }
  profile_json "lib$1" "$so" "$dir/run/default.$id.mipraw" &&
    covered "lib$1" shape_area shape_perimeter shape_name shape_free &&
    uncovered "lib$1" shape_unused &&
    profile_json "exe$1" "$dir/.libs/shapes" "$dir/run/default.mipraw" &&
    covered "exe$1" main
}

if [ "$AT_OK" = 1 ]; then
  for mode in "" =all =heap; do
    check "autotools$mode: configure (no profile left), make, run" \
      at_build "$mode" &&
      check "autotools$mode: the library's own profile, the program's" \
        at_profiles "$mode"
  done
  t_at_calls() {
    [ "$(fn lib=all shape_area calls)" = 2 ] &&
      [ "$(fn lib=all shape_perimeter calls)" = 1 ] &&
      [ "$(fn lib=all shape_unused calls)" = 0 ] ||
      { say "calls: area $(fn lib=all shape_area calls), perimeter $(fn lib=all shape_perimeter calls)"; false; }
  }
  check "autotools=all: the library's call counts" t_at_calls
  t_at_heap() {
    dir=$AT-build=heap
    src=$AT/main.c
    exports_no_libc "$(readlink -f "$dir/.libs/libshape.so")" &&
      kept=$(heap_live exe=heap main.c "$(line_of "$src" 'malloc(100)')") &&
      released=$(heap_live exe=heap main.c "$(line_of "$src" 'malloc(200)')") &&
      [ "$kept" = 1 ] && [ "$released" = 0 ] ||
      { say "live at exit: kept $kept, released $released"; false; }
  }
  check "autotools=heap: the library exports no free; a block freed outside MIP dies" \
    t_at_heap
fi

# ---- 2. compiled with CFLAGS, linked with LDFLAGS only ---------------------

# ld_build MODE: builds and runs the project; no link command names the
# flag; each image's profile holds what ran in it.
ld_build() {
  dir=$TMP/ldflags$1
  cp -R "$HERE/ldflags-project" "$dir" &&
    make -C "$dir" CC="$MIPCC" CFLAGS="-O2 -g -fmip-generate$1" \
      >"$dir.make" 2>&1 ||
    { say "make failed:"; tail -5 "$dir.make" >>"$ERR"; return 1; }
  ! grep -- '-o tally \|-shared' "$dir.make" | grep -q fmip ||
    { say "a link names -fmip-generate"; return 1; }
  out=$(cd "$dir" && MIP_PROFILE_FILE="$dir/run/default.mipraw" ./tally) &&
    [ "$out" = "words=3" ] || { say "tally printed: $out"; return 1; }
  id=$(elf_build_id "$dir/libformat.so" | cut -c1-16)
  profile_json "ld$1" "$dir/tally" "$dir/run/default.mipraw" &&
    covered "ld$1" main count_words && uncovered "ld$1" count_unused &&
    profile_json "ldso$1" "$dir/libformat.so" "$dir/run/default.$id.mipraw" &&
    covered "ldso$1" format_count format_free &&
    uncovered "ldso$1" format_unused
}
for mode in "" =all =heap; do
  check "LDFLAGS-only links$mode: static and shared libraries, profiles" \
    ld_build "$mode"
done
check "LDFLAGS-only links=heap: the shared library exports no free" \
  exports_no_libc "$TMP/ldflags=heap/libformat.so"

# An allocator of its own, preloaded: blocks from a static arena, which
# only its own free may take back (glibc's aborts on them).
cat >"$TMP/arena.c" <<'EOF'
#include <stddef.h>
#include <string.h>
static _Alignas(16) char arena[1 << 24];
static size_t used;
void *malloc(size_t n) {
  size_t at = __atomic_fetch_add(&used, (n + 31) & ~(size_t)15,
                                 __ATOMIC_RELAXED);
  if (at + n + 16 > sizeof arena)
    return NULL;
  *(size_t *)(arena + at) = n;
  return arena + at + 16;
}
void free(void *p) { (void)p; }
void *calloc(size_t n, size_t m) {
  void *p = malloc(n * m);
  return p ? memset(p, 0, n * m) : p;
}
void *realloc(void *p, size_t n) {
  void *q = malloc(n);
  if (p && q) {
    size_t old = *(size_t *)((char *)p - 16);
    memcpy(q, p, old < n ? old : n);
  }
  return q;
}
EOF
t_preloaded() {
  # The heap library's free is its own, and forwards to the process's
  # (the preloaded one), not to libc's; the executable's to the next.
  "$CLANG" -O2 -fPIC -shared "$TMP/arena.c" -o "$TMP/arena.so" 2>>"$ERR" ||
    return 1
  for ld in $LINKERS; do
    dir=$TMP/preload-$ld
    cp -R "$HERE/ldflags-project" "$dir" &&
      make -C "$dir" CC="$MIPCC" CFLAGS="-O2 -fmip-generate=heap" \
        LDFLAGS="-fuse-ld=$ld" >"$dir.make" 2>&1 &&
      out=$(cd "$dir" && LD_PRELOAD=$TMP/arena.so \
        MIP_PROFILE_FILE="$dir/run/default.mipraw" ./tally 2>>"$ERR") &&
      [ "$out" = "words=3" ] && [ "$(ls "$dir/run" | wc -l)" = 2 ] ||
      { say "$ld: output: $out; profiles: $(ls "$dir/run")"; return 1; }
  done
}
check "LDFLAGS-only links=heap ($LINKERS): under a preloaded malloc, the library frees with it" \
  t_preloaded

# ---- 3. other drivers ------------------------------------------------------

W=$TMP/w
mkdir -p "$W"
cat >"$W/main.c" <<'EOF'
#include <stdlib.h>
int lib_work(int);
int main(int argc, char **argv) {
  (void)argv;
  char *p = malloc(16);
  p[0] = (char)argc;
  int r = p[0];
  free(p);
  return r - 1;
}
EOF
cat >"$W/lib.c" <<'EOF'
#include <stdlib.h>
int lib_work(int n) {
  char *p = malloc(n);
  p[0] = 1;
  int r = p[0];
  free(p);
  return r;
}
EOF
for mode in "" =heap =all; do
  (cd "$W" && "$MIPCC" -fmip-generate$mode -O2 -c main.c -o "main$mode.o" &&
    "$MIPCC" -fmip-generate$mode -O2 -fPIC -c lib.c -o "lib$mode.o") ||
    echo "cannot build the instrumented objects"
done

RT_SYM=__mip_link_with_mipcc_or_libmip_rt
HEAP_SYM=__mip_heap_link_with_mipcc_or_mip_interpose

# refused SYMBOL DRIVER ARGS...: the link fails, and says SYMBOL.
refused() {
  sym=$1
  shift
  if (cd "$W" && "$@") >"$TMP/link.out" 2>&1; then
    say "linked: $*"
    return 1
  fi
  grep -q "$sym" "$TMP/link.out" ||
    { say "$*:"; cat "$TMP/link.out" >>"$ERR"; return 1; }
}

t_other_drivers() {
  for ld in $LINKERS; do
    for gc in "" -Wl,--gc-sections; do
      refused $RT_SYM "$CLANG" -fuse-ld=$ld $gc main.o -o x &&
        refused $RT_SYM "$CLANG" -fuse-ld=$ld $gc -shared lib.o -o x.so &&
        refused $RT_SYM "$CLANG" -fuse-ld=$ld $gc -shared lib=all.o -o x.so &&
        refused $HEAP_SYM "$CLANG" -fuse-ld=$ld $gc main=heap.o -o x &&
        refused $HEAP_SYM "$CLANG" -fuse-ld=$ld $gc -shared lib=heap.o \
          -o x.so &&
        # The runtime alone is not enough for heap code.
        refused $HEAP_SYM "$CLANG" -fuse-ld=$ld $gc main=heap.o \
          "$LIB/libmip_rt.a" -o x &&
        refused $HEAP_SYM "$CLANG" -fuse-ld=$ld $gc -shared lib=heap.o \
          "$LIB/libmip_rt.a" -o x.so || return 1
    done
    # The linker itself, without a driver.
    linker=ld.$ld
    [ $ld = lld ] && linker=$LLVM_BIN/ld.lld
    refused $RT_SYM $linker -shared lib.o -o x.so &&
      refused $HEAP_SYM $linker -shared lib=heap.o "$LIB/libmip_rt.a" \
        -o x.so || return 1
  done
}
check "clang, ld ($LINKERS, with and without --gc-sections): links fail naming what to add" \
  t_other_drivers

if command -v gcc >/dev/null; then
  t_gcc() {
    refused $RT_SYM gcc main.o -o x && refused $RT_SYM gcc -shared lib.o -o x.so &&
      refused $HEAP_SYM gcc main=heap.o -o x &&
      refused $HEAP_SYM gcc -shared lib=heap.o -o x.so
  }
  check "gcc: links fail naming what to add" t_gcc
else
  skip "gcc (not installed)"
fi

# by_hand NAME ARGS...: linked with clang as docs/mipcc.md says, it runs
# and writes its profile.
by_hand() {
  name=$1
  shift
  (cd "$W" && "$CLANG" -Wl,--build-id "$@" -o "$name" &&
    MIP_PROFILE_FILE="$W/$name.mipraw" "./$name") 2>>"$ERR" &&
    [ -s "$W/$name.mipraw" ]
}
t_by_hand() {
  by_hand hand main.o "$LIB/libmip_rt.a" &&
    by_hand hand_all main=all.o "$LIB/libmip_rt.a" &&
    by_hand hand_heap main=heap.o "$LIB/mip_interpose.o" "$LIB/libmip_rt.a" &&
    (cd "$W" && "$CLANG" -shared lib=heap.o "$LIB/mip_interpose_shared.o" \
      "$LIB/libmip_rt.a" -o libhand.so) 2>>"$ERR" &&
    exports_no_libc "$W/libhand.so" &&
    # (The executables' interposer would have it export them.)
    (cd "$W" && "$CLANG" -shared lib=heap.o "$LIB/mip_interpose.o" \
      "$LIB/libmip_rt.a" -o libexe.so) 2>>"$ERR" &&
    ! exports_no_libc "$W/libexe.so" 2>/dev/null && : >"$ERR"
}
check "linked by hand with the runtime (and the interposer): profiles" t_by_hand

# ---- 4. objects of older plugins -------------------------------------------

t_old_objects() {
  # What an object built before the link reference looks like: counters,
  # and nothing that names the runtime.
  objcopy --remove-section=.rodata.mip.link \
    --remove-section=.rela.rodata.mip.link --strip-symbol=$RT_SYM \
    "$W/main.o" "$W/old.o" 2>>"$ERR" &&
    ! nm "$W/old.o" | grep -q $RT_SYM &&
    # Another driver links it silently, without the runtime...
    (cd "$W" && "$CLANG" old.o -o old_plain && MIP_PROFILE_FILE=old_plain.mipraw \
      ./old_plain) 2>>"$ERR" && [ ! -e "$W/old_plain.mipraw" ] &&
    # ... mipcc, flag or not, links it with it.
    (cd "$W" && MIP_DRIVER_VERBOSE=1 "$MIPCC" old.o -o old &&
      MIP_PROFILE_FILE=old.mipraw ./old) 2>>"$ERR" &&
    grep -qxF "mipcc: libmip_rt.a added: old.o is instrumented" "$ERR" &&
    [ -s "$W/old.mipraw" ]
}
check "objects of older plugins: mipcc links the runtime from their counters" \
  t_old_objects

# ---- 5. configure-time test programs ---------------------------------------

# probe_run NAME [VAR=VALUE...]: builds a.c as NAME in a fresh directory,
# linked with an instrumented shared library, and runs it there.
mkdir -p "$W/lib"
(cd "$W" && "$MIPCC" -fmip-generate -shared lib.o -o lib/libwork.so) ||
  echo "cannot build the probe library"
printf 'int lib_work(int);\nint main(void) { return lib_work(8) - 1; }\n' \
  >"$W/probe.c"
probe_run() {
  name=$1
  shift
  dir=$W/probe-$name
  rm -rf "$dir" && mkdir -p "$dir" &&
    "$MIPCC" -fmip-generate "$W/probe.c" -L"$W/lib" -lwork \
      -Wl,-rpath,"$W/lib" -o "$dir/$name" 2>>"$ERR" &&
    (cd "$dir" && env "$@" "./$name") 2>"$dir.err"
}
t_probes() {
  for name in conftest cmTC_5f3a1; do
    probe_run $name && no_profile_in "$W/probe-$name" && [ ! -s "$W/probe-$name.err" ] ||
      return 1
  done
  # One line, when asked.
  probe_run conftest MIP_OPTIONS=verbose=1 && no_profile_in "$W/probe-conftest" &&
    [ "$(cat "$W/probe-conftest.err")" = "mip: no profile for 'conftest', a configure-time test program (set MIP_PROFILE_FILE to write one)" ] ||
    { say "verbose: $(cat "$W/probe-conftest.err")"; return 1; }
}
check "conftest, cmTC_*: no profile, from any image" t_probes
t_probes_asked() {
  # A file named by MIP_PROFILE_FILE is written; other names are programs.
  probe_run conftest MIP_PROFILE_FILE=asked.mipraw &&
    [ -s "$W/probe-conftest/asked.mipraw" ] &&
    [ "$(find "$W/probe-conftest" -name '*.mipraw' | wc -l)" = 2 ] &&
    probe_run conftest2 && [ -s "$W/probe-conftest2/default.mipraw" ] &&
    probe_run my_conftest && [ -s "$W/probe-my_conftest/default.mipraw" ] ||
    { say "$(ls "$W"/probe-conftest*)"; false; }
}
check "conftest with MIP_PROFILE_FILE, and other names: profiles" t_probes_asked
# The check is linked only into executables named as probes are, however
# the output is spelled: an ordinary program and a shared library do
# without it.
t_probe_linked() {
  links_probe() { "$LLVM_BIN/llvm-nm" "$1" 2>/dev/null | grep -q ' __mip_link_probe$'; }
  (cd "$W" && mkdir -p spell &&
    "$MIPCC" -fmip-generate probe.c -Llib -lwork --output=spell/conftest &&
    "$MIPCC" -fmip-generate probe.c -Llib -lwork -ospell/cmTC_0a1b2 &&
    "$MIPCC" -fmip-generate probe.c -Llib -lwork -o spell/app &&
    "$MIPCC" -fmip-generate -shared -fPIC lib.o -o spell/conftest.so) 2>>"$ERR" || return 1
  links_probe "$W/probe-conftest/conftest" && links_probe "$W/probe-cmTC_5f3a1/cmTC_5f3a1" &&
    links_probe "$W/spell/conftest" && links_probe "$W/spell/cmTC_0a1b2" ||
    { say "a probe without the check"; return 1; }
  ! links_probe "$W/spell/app" && ! links_probe "$W/lib/libwork.so" &&
    ! links_probe "$W/spell/conftest.so" && ! links_probe "$W/probe-conftest2/conftest2" ||
    { say "the check in an image that is no probe"; return 1; }
}
check "the probe's check: linked into conftest and cmTC_* executables only" t_probe_linked

# ---- 6. a profile of another build in the merge ----------------------------

t_merge_other() {
  (cd "$W" && "$MIPCC" -fmip-generate main.c -o app && MIP_PROFILE_FILE=app.mipraw ./app &&
    "$MIPCC" -fmip-generate probe.c -L"$W/lib" -lwork -Wl,-rpath,"$W/lib" -o other &&
    MIP_PROFILE_FILE=stray.mipraw ./other &&
    mip_create app app.mip && cp app.mip app.before) 2>>"$ERR" || return 1
  (cd "$W" && "$MIPDATA" merge -p app.mip app.mipraw stray.mipraw) >/dev/null \
    2>"$TMP/merge.err" && { say "merged"; return 1; }
  grep -q "^mipdata: stray.mipraw: from another build: build-id [0-9a-f]*, but app.mip is for build-id" \
    "$TMP/merge.err" && cmp -s "$W/app.mip" "$W/app.before" ||
    { cat "$TMP/merge.err" >>"$ERR"; return 1; }
}
check "mipdata merge names the raw profile of another build, writes nothing" \
  t_merge_other

finish
