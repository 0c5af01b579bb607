#!/bin/sh
# -fmip-use with -flto: allocation hints through wrappers. A C program
# allocates every block through one wrapper chain (block_new -> xmalloc
# -> malloc), from a hot path whose blocks are used again and again and a
# cold one whose blocks sit untouched: the one malloc site's contexts
# disagree, and without LTO it gets no hint (and the link says why, once).
# Rebuilt under ThinLTO and under full LTO, the link clones the chain for
# the cold contexts: the clone of xmalloc calls __mip_malloc_hint with the
# cold hint, the original calls malloc, the cold path calls the clones and
# the hot path the originals (in the IR before code generation and in the
# binary), -Rpass=mip names the clone, and at run time jemalloc finds the
# cold blocks in the cold arena and the hot ones with the plain ones, and
# the allocator's hint counters (__mip_alloc_hint_stats) count exactly the
# cold path's blocks as cold and nothing else. A second chain reaches its
# allocator through a pointer, as Lua's does: full LTO makes the call
# direct and clones it, ThinLTO cannot. mipdata annotate names the clones
# the link makes. With settings under which the cold path is notcold
# (HOTLOW), the site's contexts are hot and notcold: the same again, the
# clone for the hot path, hinted hot.
#   test/e2e/lto_use.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$TMP"

LOW="-fmip-cold-min-lifetime=0.05 -fmip-cold-max-density=1 -fmip-hot-min-density=10"
ANNOTATE_LOW="--cold-min-lifetime 0.05 --cold-max-density 1 --hot-min-density 10"
# No block lives long enough to be cold: the cold path's are notcold.
HOTLOW="-fmip-cold-min-lifetime=1000 -fmip-cold-max-density=1 -fmip-hot-min-density=10"
ANNOTATE_HOTLOW="--cold-min-lifetime 1000 --cold-max-density 1 --hot-min-density 10"

# ---- the program -------------------------------------------------------------
cat >prog.h <<'C'
#include <stddef.h>
#include <stdint.h>
void *xmalloc(size_t n);
void *block_new(uint64_t first);
/* A memory suite, as Lua's state has: the allocator through a pointer. */
struct suite {
  void *(*alloc)(void *ud, size_t n);
  void *ud;
};
extern struct suite suite;
void *suite_alloc(void *ud, size_t n);
void *suite_new(uint64_t first);
#define N 256
extern void *hot[N], *cold[N], *hot2[N], *cold2[N];
void hot_make(int i);
uint64_t hot_run(int n, int rounds);
void cold_make(int i);
uint64_t cold_sum(int n);
C
cat >xmalloc.c <<'C'
#include <stdio.h>
#include <stdlib.h>

#include "prog.h"

/* The program's allocation wrappers: every block comes from here. */
__attribute__((noinline)) void *xmalloc(size_t n) {
  void *p = malloc(n);
  if (!p) {
    fputs("out of memory\n", stderr);
    abort();
  }
  return p;
}

__attribute__((noinline)) void *block_new(uint64_t first) {
  uint64_t *p = xmalloc(64);
  p[0] = first;
  p[1] = 0;
  return p;
}

struct suite suite;

__attribute__((noinline)) void *suite_alloc(void *ud, size_t n) {
  (void)ud;
  void *p = realloc(NULL, n);
  if (!p)
    abort();
  return p;
}

__attribute__((noinline)) void *suite_new(uint64_t first) {
  uint64_t *p = suite.alloc(suite.ud, 64);
  p[0] = first;
  p[1] = 0;
  return p;
}
C
cat >hot.c <<'C'
#include "prog.h"

void *hot[N], *hot2[N];

void hot_make(int i) {
  hot[i] = block_new((uint64_t)i);
  hot2[i] = suite_new((uint64_t)i);
}

uint64_t hot_run(int n, int rounds) {
  uint64_t sum = 0;
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < n; i++) {
      uint64_t *p = hot[i], *q = hot2[i];
      p[1] += p[0] + (uint64_t)r;
      q[1] += q[0] ^ (uint64_t)r;
      sum += p[1] + q[1];
    }
  return sum;
}
C
cat >cold.c <<'C'
#include "prog.h"

void *cold[N], *cold2[N];

void cold_make(int i) {
  cold[i] = block_new((uint64_t)i * 3);
  cold2[i] = suite_new((uint64_t)i * 5);
}

uint64_t cold_sum(int n) {
  uint64_t sum = 0;
  for (int i = 0; i < n; i++)
    sum += *(uint64_t *)cold[i] + *(uint64_t *)cold2[i];
  return sum;
}
C
cp "$HERE/progs/arenas/arenas.h" ./
mkdir mip
cp "$HERE/../../include/mip/alloc.h" mip/
cat >main.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mip/alloc.h"
#include "prog.h"

/* jemalloc's, when it is linked; NULL with glibc's malloc */
int mallctl(const char *name, void *old, size_t *oldlen, void *new_,
            size_t newlen) __attribute__((weak));
/* libmip_alloc.a's, when the rebuild links it; NULL otherwise */
void __mip_alloc_hint_stats(struct mip_alloc_hint_stats *out)
    __attribute__((weak));

#include "arenas.h"

/* What the allocator's hint counters say of the blocks made so far. */
static void print_hint_stats(void) {
  struct mip_alloc_hint_stats s = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
  if (__mip_alloc_hint_stats)
    __mip_alloc_hint_stats(&s);
  fprintf(stderr, "hints cold=%llu,%llu hot=%llu,%llu notcold=%llu,%llu "
          "plain=%llu,%llu\n",
          (unsigned long long)s.cold.calls, (unsigned long long)s.cold.bytes,
          (unsigned long long)s.hot.calls, (unsigned long long)s.hot.bytes,
          (unsigned long long)s.notcold.calls,
          (unsigned long long)s.notcold.bytes,
          (unsigned long long)s.plain.calls, (unsigned long long)s.plain.bytes);
}

int main(void) {
  suite.alloc = suite_alloc;
  for (int i = 0; i < N; i++) {
    hot_make(i);
    cold_make(i);
  }
  struct timespec t = {0, 200 * 1000000L};
  nanosleep(&t, NULL);
  uint64_t sum = hot_run(N, 20000) ^ cold_sum(N);
  print_hint_stats();
  void *plain = malloc(64);
  unsigned h = arena_of(hot[0]), c = arena_of(cold[0]);
  unsigned h2 = arena_of(hot2[0]), c2 = arena_of(cold2[0]);
  fprintf(stderr, "arenas hot=%u cold=%u plain=%u uniform=%d\n", h, c,
          arena_of(plain), all_in(hot, N, h) && all_in(cold, N, c));
  fprintf(stderr, "suite hot=%u cold=%u plain=%u uniform=%d\n", h2, c2,
          arena_of(plain), all_in(hot2, N, h2) && all_in(cold2, N, c2));
  free(plain);
  for (int i = 0; i < N; i++) {
    free(hot[i]);
    free(cold[i]);
    free(hot2[i]);
    free(cold2[i]);
  }
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
C
SOURCES="main.c hot.c cold.c xmalloc.c"

# The blocks each path makes: N through each chain.
N=$(sed -n 's/^#define N //p' prog.h)

# ---- helpers -----------------------------------------------------------------
# value FILE LINE KEY: KEY=value from the program's stderr line LINE
# ("arenas": the wrapper's blocks, "suite": the memory suite's, "hints":
# the hint counters, calls,bytes)
value() { grep "^$2 " "$1" | tr ' ' '\n' | sed -n "s/^$3=//p"; }
# other CLASS: the other path's class of the two (cold, hot)
other() { if [ "$1" = cold ]; then echo hot; else echo cold; fi; }
# apart FILE LINE CLASS: the CLASS path's blocks all in an arena of their
# own, the other path's all with the plain ones
apart() {
  mine=$(value "$1" "$2" "$3") theirs=$(value "$1" "$2" "$(other "$3")")
  p=$(value "$1" "$2" plain)
  [ -n "$mine" ] && [ "$(value "$1" "$2" uniform)" = 1 ] &&
    [ "$theirs" = "$p" ] && [ "$mine" != "$p" ]
}
cold_apart() { apart "$1" "$2" cold; }
# counted FILE CLASS CALLS: the hint counters' line says CALLS calls of
# CLASS, of 64-byte blocks, and none of any other kind
counted() {
  got=$(grep '^hints ' "$1" || :)
  want="hints cold=0,0 hot=0,0 notcold=0,0 plain=0,0"
  [ "$3" = 0 ] || want=$(echo "$want" | sed "s/$2=0,0/$2=$3,$(($3 * 64))/")
  [ "$got" = "$want" ]
}
# calls_in BINARY FUNCTION: the functions FUNCTION calls (or jumps to)
calls_in() {
  objdump -d --no-show-raw-insn "$1" | awk -v f="$2" '
    /^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn) }
    fn == f && /(call|jmp) +[0-9a-f]+ <[^+]*>$/ {
      c = $NF; gsub(/[<>]/, "", c); sub(/@plt$/, "", c); print c }' |
    grep -v -e '^fwrite$' -e '^abort$' | sort -u | tr '\n' ' '
}
# ir_calls IR FUNCTION: the functions FUNCTION's body calls in the IR
ir_calls() {
  awk -v f="$2" '
    /^define / { in_f = index($0, "@" f "(") > 0 }
    /^}/ { in_f = 0 }
    in_f && / call / && match($0, /@[A-Za-z0-9_.]+\(/) {
      print substr($0, RSTART + 1, RLENGTH - 2) }' "$1" |
    grep -v -e '^fwrite$' -e '^abort$' -e '^llvm\.' | sort -u | tr '\n' ' '
}
# run NAME BINARY: runs it; stdout must be the plain build's
run() {
  rc=0
  "./$2" >"$1.out" 2>"$1.err" || rc=$?
  if [ "$rc" = 0 ] && cmp -s "$1.out" plain.out; then
    pass "$1: exit 0, the plain build's output"
  else
    fail "$1: exit $rc, output '$(cat "$1.out")'; stderr: $(cat "$1.err")"
  fi
}

# ---- the profile -------------------------------------------------------------
# shellcheck disable=SC2086 # source lists
"$CLANG" -O2 -g $SOURCES -o plain && ./plain >plain.out 2>/dev/null ||
  fail "the plain build does not run"
# shellcheck disable=SC2086
"$MIPCC" -fmip-generate=counts,heap -O2 -g $SOURCES -o gen -ljemalloc
MIP_PROFILE_FILE=gen.mipraw ./gen >/dev/null 2>&1
mip_profile --debug gen prof.mip gen.mipraw
# shellcheck disable=SC2086
"$MIPDATA" annotate -p prof.mip --debug gen $ANNOTATE_LOW >annotate.txt
want="with -flto: cloned for the cold contexts: xmalloc, block_new, called from cold_make"
# The hot path's contexts are hot: they keep the original, unhinted.
grep -q "notcold (mixed): malloc at .*xmalloc.c" annotate.txt &&
  grep -q "its contexts disagree (1 cold, 1 hot, 0 notcold)" annotate.txt &&
  grep -qF "with -flto: the hot contexts keep the original, unhinted" annotate.txt &&
  grep -qF "$want" annotate.txt &&
  pass "annotate: the malloc site is mixed, and names the clones: $(grep -F "$want" annotate.txt | sed 's/^ *//')" ||
  fail "annotate: $(cat annotate.txt)"

# ---- without LTO -------------------------------------------------------------
# shellcheck disable=SC2086
"$MIPCC" -fmip-use=prof.mip $LOW -O2 -g $SOURCES -o nolto -ljemalloc 2>nolto.link
n=$(grep -c 'no hint without -flto' nolto.link || true)
[ "$n" = 1 ] && grep -qF "mipcc: prof.mip: 2 allocation sites reached through wrappers" nolto.link &&
  pass "without -flto: the link says once why the wrapper gets no hint" ||
  fail "without -flto: the link said: $(cat nolto.link)"
got=$(calls_in nolto xmalloc)
[ "$got" = "malloc " ] && pass "without -flto: xmalloc calls malloc" ||
  fail "without -flto: xmalloc calls '$got'"

# ---- ThinLTO and full LTO ----------------------------------------------------
# lto NAME FLAG [SETTINGS]: compiles each source with FLAG and the
# profile, with SETTINGS ($LOW by default), links with -Rpass=mip, keeping
# the IR before code generation
lto() {
  name=$1 flag=$2 settings=${3:-$LOW}
  mkdir "$name"
  for src in $SOURCES; do
    # shellcheck disable=SC2086
    "$MIPCC" -fmip-use=prof.mip $settings -O2 -g "$flag" -c "$src" \
      -o "$name/${src%.c}.o" || fail "$name: compiling $src"
  done
  # shellcheck disable=SC2086
  (cd "$name" && "$MIPCC" -fmip-use=../prof.mip $settings -O2 "$flag" -Rpass=mip \
    main.o hot.o cold.o xmalloc.o -o prog -Wl,--save-temps) >"$name.link" 2>&1 ||
    fail "$name: link: $(cat "$name.link")"
  cp "$name/prog" "$name.prog" 2>/dev/null || :
  for bc in "$name"/*precodegen.bc; do
    "$LLVM_BIN/llvm-dis" "$bc" -o - || :
  done >"$name.ll"
}

# check_lto NAME HINTED [CLASS]: HINTED the hinted calls the link makes
# (the memory suite's allocator is cloned only where the indirect call
# can be made direct: full LTO), all for the CLASS path (cold by default,
# or hot), whose blocks also come from the clones
check_lto() {
  name=$1 hinted_calls=$2 class=${3:-cold}
  # LLVM prints an i8 254 as -2
  value=1
  [ "$class" = hot ] && value=-2
  grep -q "xmalloc.c:8:13: allocation hinted $class in xmalloc.memprof.1, the clone of xmalloc for its $class contexts" "$name.link" &&
    pass "$name: -Rpass=mip names the clone" ||
    fail "$name: link remarks: $(cat "$name.link")"
  # In the IR: the clone's call is hinted, the original's plain; the
  # clone of block_new calls the clone of xmalloc.
  got="$(ir_calls "$name.ll" xmalloc.memprof.1)| $(ir_calls "$name.ll" xmalloc)| $(ir_calls "$name.ll" block_new.memprof.1)| $(ir_calls "$name.ll" block_new)"
  want="__mip_malloc_hint | malloc | xmalloc.memprof.1 | xmalloc "
  [ "$got" = "$want" ] && pass "$name: the IR: $got" ||
    fail "$name: the IR: got '$got', want '$want'"
  hinted=$(grep 'call.*@__mip_[a-z]*_hint(' "$name.ll" || true)
  n=$(printf '%s\n' "$hinted" | grep -c "i8 zeroext $value)" || true)
  [ "$n" = "$hinted_calls" ] && [ "$(printf '%s\n' "$hinted" | wc -l)" = "$n" ] &&
    pass "$name: $n hinted calls in the IR, with the $class hint ($value)" ||
    fail "$name: hinted calls in the IR, want $hinted_calls $class: $hinted"
  # In the binary, wherever the callers were inlined: the clones on the
  # CLASS path only.
  got="$(calls_in "$name.prog" xmalloc.memprof.1)| $(calls_in "$name.prog" xmalloc)"
  [ "$got" = "__mip_malloc_hint | malloc " ] &&
    pass "$name: the binary's xmalloc clone calls __mip_malloc_hint, xmalloc malloc" ||
    fail "$name: the binary: '$got'"
  clone_callers=$(objdump -d --no-show-raw-insn "$name.prog" | awk '
    /^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn) }
    /call +[0-9a-f]+ <block_new(\.memprof\.1)?>$/ { c = $NF; gsub(/[<>]/, "", c); print fn ":" c }' |
    sort -u | tr '\n' ' ')
  case $clone_callers in
  *${class}_make:block_new.memprof.1* | *main:block_new.memprof.1*) ;;
  *) clone_callers="none: $clone_callers" ;;
  esac
  case $clone_callers in
  none*) fail "$name: no call of block_new.memprof.1 on the $class path: $clone_callers" ;;
  *$(other "$class")_make:block_new.memprof.1*) fail "$name: the $(other "$class") path calls the clone: $clone_callers" ;;
  *) pass "$name: callers of block_new: $clone_callers" ;;
  esac
  run "$name" "$name.prog"
  apart "$name.err" arenas "$class" &&
    pass "$name: $class blocks in an arena of their own, $(other "$class") ones with the plain ones ($(grep arenas "$name.err"))" ||
    fail "$name: arenas: $(cat "$name.err")"
  # The hint counters: N $class blocks of 64 bytes through each chain
  # cloned, no other hinted call.
  counted "$name.err" "$class" $((hinted_calls * N)) &&
    pass "$name: the hint counters count $((hinted_calls * N)) $class blocks, nothing else ($(grep '^hints ' "$name.err"))" ||
    fail "$name: hint counters: $(cat "$name.err")"
}

lto thin -flto=thin
check_lto thin 1
# ThinLTO cannot make the suite's indirect call direct: no clone there.
! cold_apart thin.err suite &&
  pass "thin: the memory suite's cold blocks stay plain ($(grep suite thin.err))" ||
  fail "thin: suite: $(cat thin.err)"
lto full -flto
check_lto full 2
grep -q "xmalloc.c:[0-9]*:[0-9]*: allocation hinted cold in suite_alloc.memprof.1, the clone of suite_alloc for its cold contexts" full.link &&
  cold_apart full.err suite &&
  pass "full: the suite's allocator, called through a pointer, cloned and hinted: $(grep suite full.err)" ||
  fail "full: suite: $(cat full.err); $(grep suite full.link)"

# The checks can fail: the build without LTO passes none of them.
run nolto nolto
! cold_apart nolto.err arenas && ! cold_apart nolto.err suite && pass "without -flto: the arena check says the cold blocks are plain ($(grep -e ^arenas -e ^suite nolto.err | tr '\n' ' '))" ||
  fail "without -flto: arenas: $(cat nolto.err)"
counted nolto.err cold 0 &&
  pass "without -flto: the hint counters count no hinted call" ||
  fail "without -flto: hint counters: $(cat nolto.err)"

# ---- hot and notcold contexts --------------------------------------------------
# The same profile under settings where no block is cold: the malloc
# site's contexts are hot (the hot path) and notcold (the cold path's
# blocks, barely touched). The link clones for the hot ones.
# shellcheck disable=SC2086
"$MIPDATA" annotate -p prof.mip --debug gen $ANNOTATE_HOTLOW >annotate-hot.txt
want="with -flto: cloned for the hot contexts: xmalloc, block_new, called from hot_make"
grep -q "notcold (mixed): malloc at .*xmalloc.c" annotate-hot.txt &&
  grep -q "its contexts disagree (0 cold, 1 hot, 1 notcold)" annotate-hot.txt &&
  grep -qF "$want" annotate-hot.txt &&
  pass "annotate, hot and notcold: names the clones for the hot contexts: $(grep -F "$want" annotate-hot.txt | sed 's/^ *//')" ||
  fail "annotate, hot and notcold: $(cat annotate-hot.txt)"
lto thin-hot -flto=thin "$HOTLOW"
check_lto thin-hot 1 hot
lto full-hot -flto "$HOTLOW"
check_lto full-hot 2 hot
grep -q "xmalloc.c:[0-9]*:[0-9]*: allocation hinted hot in suite_alloc.memprof.1, the clone of suite_alloc for its hot contexts" full-hot.link &&
  apart full-hot.err suite hot &&
  pass "full-hot: the suite's allocator, called through a pointer, cloned and hinted hot: $(grep suite full-hot.err)" ||
  fail "full-hot: suite: $(cat full-hot.err); $(grep suite full-hot.link)"
# and the hot checks fail on the cold build: its hot path is plain
! apart full.err arenas hot && ! counted full.err hot $((2 * N)) &&
  pass "the hot checks fail on the cold build" ||
  fail "the hot checks pass on the cold build: $(cat full.err)"

finish
