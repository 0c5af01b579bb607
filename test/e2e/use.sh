#!/bin/sh
# -fmip-use with a heap profile, end to end: multi-file C and C++ programs
# whose hot and cold blocks come from one inlined helper (and, in C, a
# site reached from a hot and a cold caller, and a function that never
# runs), profiled, rebuilt with low thresholds, and run. The rebuilt
# programs must call the hinted allocation functions with the right hints
# where the profile says so and only there, link jemalloc, print what the
# plain build prints (with hints and with MIP_ALLOC_HINTS=0), and find
# their own blocks where they belong: each program asks jemalloc
# (arenas.lookup) which arena every block is in, frees them all, and
# checks with thread.allocated and thread.deallocated that every byte came
# back; and the allocator's hint counters (MIP_ALLOC_STATS=1) must count
# exactly the hot and cold blocks the programs' loops make. The never-run
# function must be in a .text.unlikely. section. The same checks on a
# rebuild with -fno-mip-alloc-hints must fail.
#   test/e2e/use.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$TMP"

# Blocks of 64 bytes: jemalloc puts them on 64-byte boundaries, so each is
# a granule of the heap profile's access counters of its own (profiled
# with jemalloc, as the programs run after the rebuild).
GEN="-fmip-generate=counts,heap -O2 -g"
LOW="-fmip-cold-min-lifetime=0.05 -fmip-cold-max-density=1 -fmip-hot-min-density=10"
ANNOTATE_LOW="--cold-min-lifetime 0.05 --cold-max-density 1 --hot-min-density 10"

# ---- the programs ------------------------------------------------------------
mkdir c cxx
cat >c/prog.h <<'C'
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* One helper for every block: inlined, so each caller has a site. */
static inline __attribute__((always_inline)) void *get(size_t n) {
  void *p = malloc(n);
  if (!p)
    abort();
  return p;
}

#define HOT 256
extern void *hot[HOT], *cold[3 * HOT], *mixed[2];
void hot_make(int i);
uint64_t hot_run(int n, int rounds);
void cold_make(int i);
uint64_t cold_sum(int n);
void cold_dump(int n);
void idle_user(void);
uint64_t busy_user(void);
C
cat >c/hot.c <<'C'
#include "prog.h"

void *hot[HOT];

void hot_make(int i) {
  uint64_t *p = get(64);
  p[0] = (uint64_t)i;
  p[1] = 0;
  hot[i] = p;
}

uint64_t hot_run(int n, int rounds) {
  uint64_t sum = 0;
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < n; i++) {
      uint64_t *p = hot[i];
      p[1] += p[0] + (uint64_t)r;
      sum += p[1];
    }
  return sum;
}
C
cat >c/cold.c <<'C'
#include <stdio.h>

#include "prog.h"

void *cold[3 * HOT];

void cold_make(int i) {
  for (int k = 0; k < 3; k++) {
    uint64_t *p = get(64);
    p[0] = (uint64_t)i * 3 + (uint64_t)k;
    cold[3 * i + k] = p;
  }
}

uint64_t cold_sum(int n) {
  uint64_t sum = 0;
  for (int i = 0; i < 3 * n; i++)
    sum += *(uint64_t *)cold[i];
  return sum;
}

/* never runs */
void cold_dump(int n) {
  for (int i = 0; i < 3 * n; i++)
    printf("%llu\n", (unsigned long long)*(uint64_t *)cold[i]);
}
C
cat >c/mixed.c <<'C'
#include <time.h>

#include "prog.h"

void *mixed[2];

/* One site, an idle caller and a busy one: stays unhinted. */
__attribute__((noinline)) void *shared_get(size_t n) { return malloc(n); }

void idle_user(void) {
  volatile uint64_t *p = shared_get(64);
  p[0] = 1;
  struct timespec t = {0, 200 * 1000000L};
  nanosleep(&t, NULL);
  mixed[0] = (void *)p;
}

uint64_t busy_user(void) {
  volatile uint64_t *p = shared_get(64);
  for (int i = 0; i < 8; i++)
    p[i] = 0;
  for (int i = 0; i < 100000; i++)
    p[i % 8] += (uint64_t)i;
  mixed[1] = (void *)p;
  return p[0] + p[7];
}
C
cp "$HERE/progs/arenas/arenas.h" c/
cat >c/main.c <<'C'
#include <stdio.h>
#include <string.h>

#include "prog.h"

/* jemalloc's, when it is linked (the rebuild); NULL with glibc's malloc */
int mallctl(const char *name, void *old, size_t *oldlen, void *new_,
            size_t newlen) __attribute__((weak));

static uint64_t thread_bytes(const char *name) {
  uint64_t v = 0;
  size_t n = sizeof v;
  return mallctl(name, &v, &n, NULL, 0) == 0 ? v : 0;
}

#include "arenas.h"

static uint64_t round_of(int n, int check) {
  uint64_t a0 = 0, d0 = 0;
  /* Blocks the last round freed wait in the thread's cache, whatever
   * their arena, for the next plain allocation of their size: hand them
   * back first (docs/alloc.md). */
  if (mallctl)
    mallctl("thread.tcache.flush", NULL, NULL, NULL, 0);
  if (check && mallctl) {
    a0 = thread_bytes("thread.allocated");
    d0 = thread_bytes("thread.deallocated");
  }
  for (int i = 0; i < n; i++) {
    hot_make(i);
    cold_make(i);
  }
  uint64_t sum = 0;
  if (check) {
    idle_user();
    sum += busy_user();
  }
  sum += hot_run(n, 20000) ^ cold_sum(n);
  if (check && mallctl) {
    void *plain = malloc(64); /* untouched: neither hot nor cold */
    unsigned h = arena_of(hot[0]), c = arena_of(cold[0]);
    fprintf(stderr, "arenas hot=%u cold=%u mixed=%u,%u plain=%u uniform=%d\n", h,
            c, arena_of(mixed[0]), arena_of(mixed[1]), arena_of(plain),
            all_in(hot, n, h) && all_in(cold, 3 * n, c));
    free(plain);
  }
  for (int i = 0; i < n; i++)
    free(hot[i]);
  for (int i = 0; i < 3 * n; i++)
    free(cold[i]);
  if (check) {
    free(mixed[0]);
    free(mixed[1]);
  }
  if (check && mallctl) {
    long long left = (long long)(thread_bytes("thread.allocated") - a0) -
                     (long long)(thread_bytes("thread.deallocated") - d0);
    fprintf(stderr, "unfreed=%lld\n", left);
  }
  return sum;
}

int main(int argc, char **argv) {
  (void)argv;
  /* a first round, so that the second one counts no first-use set-up;
   * both from one call, so that their blocks have the same contexts */
  uint64_t sum[2];
  for (int r = 0; r < 2; r++)
    sum[r] = round_of(r ? HOT : 1, r);
  if (argc > 5)
    cold_dump(HOT);
  printf("%llu %llu\n", (unsigned long long)sum[0], (unsigned long long)sum[1]);
  if (!mallctl)
    fprintf(stderr, "no jemalloc\n");
  return 0;
}
C
cat >cxx/prog.hpp <<'CXX'
#include <cstddef>
#include <cstdint>
#include <vector>

struct Counter {
  std::uint64_t value[8];
};
struct Note {
  std::uint64_t value[8];
};

// One helper for every object: inlined, so each caller has a site.
template <class T>
[[gnu::always_inline]] inline T *make(std::uint64_t v) {
  T *p = new T();
  p->value[0] = v;
  return p;
}

struct Notes {
  void add(int i);
  std::uint64_t sum() const;
  void clear();
  Note *items[768];
  int n = 0;
};
CXX
cat >cxx/notes.cpp <<'CXX'
#include "prog.hpp"

void Notes::add(int i) {
  for (int k = 0; k < 3; k++)
    items[n++] = make<Note>(std::uint64_t(i) * 3 + k);
}

std::uint64_t Notes::sum() const {
  std::uint64_t s = 0;
  for (int i = 0; i < n; i++)
    s += items[i]->value[0];
  return s;
}

void Notes::clear() {
  for (int i = 0; i < n; i++)
    delete items[i];
  n = 0;
}
CXX
cat >cxx/main.cpp <<'CXX'
#include <cstdio>
#include <ctime>

#include "prog.hpp"

extern "C" int mallctl(const char *name, void *old, std::size_t *oldlen,
                       void *new_, std::size_t newlen) __attribute__((weak));

namespace {
std::uint64_t thread_bytes(const char *name) {
  std::uint64_t v = 0;
  std::size_t n = sizeof v;
  return mallctl(name, &v, &n, nullptr, 0) == 0 ? v : 0;
}

unsigned arena_of(const void *p) {
  unsigned a = ~0u;
  std::size_t n = sizeof a;
  mallctl("arenas.lookup", &a, &n, &p, sizeof p);
  return a;
}

Counter *counters[256];
Notes notes;

std::uint64_t round_of(int n, bool check) {
  std::uint64_t a0 = 0, d0 = 0;
  if (mallctl) // the last round's blocks, cached, whatever their arena
    mallctl("thread.tcache.flush", nullptr, nullptr, nullptr, 0);
  if (check && mallctl) {
    a0 = thread_bytes("thread.allocated");
    d0 = thread_bytes("thread.deallocated");
  }
  for (int i = 0; i < n; i++) {
    counters[i] = make<Counter>(std::uint64_t(i));
    notes.add(i);
  }
  if (check) {
    std::timespec t = {0, 200 * 1000000L};
    nanosleep(&t, nullptr);
  }
  std::uint64_t sum = 0;
  for (int r = 0; r < 20000; r++)
    for (int i = 0; i < n; i++) {
      counters[i]->value[1] += counters[i]->value[0] + std::uint64_t(r);
      sum += counters[i]->value[1];
    }
  sum ^= notes.sum();
  if (check && mallctl) {
    unsigned h = arena_of(counters[0]), c = arena_of(notes.items[0]);
    bool uniform = true;
    for (int i = 0; i < n; i++)
      uniform = uniform && arena_of(counters[i]) == h;
    for (int i = 0; i < notes.n; i++)
      uniform = uniform && arena_of(notes.items[i]) == c;
    void *plain = ::operator new(64); // untouched: neither hot nor cold
    std::fprintf(stderr, "arenas hot=%u cold=%u plain=%u uniform=%d\n", h, c,
                 arena_of(plain), uniform);
    ::operator delete(plain);
  }
  for (int i = 0; i < n; i++)
    delete counters[i];
  notes.clear();
  if (check && mallctl)
    std::fprintf(stderr, "unfreed=%lld\n",
                 (long long)(thread_bytes("thread.allocated") - a0) -
                     (long long)(thread_bytes("thread.deallocated") - d0));
  return sum;
}
}  // namespace

int main() {
  std::uint64_t sum[2];
  for (int r = 0; r < 2; r++) // one call: the same contexts
    sum[r] = round_of(r ? 256 : 1, r);
  std::printf("%llu %llu\n", (unsigned long long)sum[0], (unsigned long long)sum[1]);
  if (!mallctl)
    std::fprintf(stderr, "no jemalloc\n");
  return 0;
}
CXX

# ---- helpers -----------------------------------------------------------------
# hint_calls BINARY: "FUNCTION CALLEE HINT" for each call of a hinted
# allocation function (the hint is the immediate last moved into %esi, the
# second argument; demangled)
hint_calls() {
  objdump -d --no-show-raw-insn "$1" | awk '
    /^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); hint = "none" }
    /mov +\$0x[0-9a-f]+,%esi/ { split($0, m, "$"); split(m[2], v, ","); hint = v[1] }
    /(call|jmp) .*<(__mip_[a-z_]*_hint|_Zn[wa][^>]*__hot_cold_t)>/ {
      callee = $NF; gsub(/[<>]/, "", callee); print fn, callee, hint }' | sort -u
}
# calls_in BINARY FUNCTION: the functions FUNCTION calls (or jumps to)
calls_in() {
  objdump -d --no-show-raw-insn "$1" | awk -v f="$2" '
    /^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn) }
    fn == f && /(call|jmp) +[0-9a-f]+ <[^+]*>$/ {
      c = $NF; gsub(/[<>]/, "", c); sub(/@plt$/, "", c); print c }' | sort -u | tr '\n' ' '
}
links_jemalloc() { readelf -dW "$1" | grep -q 'NEEDED.*libjemalloc'; }
# value FILE KEY: KEY=value from the program's stderr
value() { tr ' ' '\n' <"$1" | sed -n "s/^$2=//p"; }
# arenas_apart FILE: hot and cold blocks each in one arena of their own,
# apart from each other and from plain blocks; mixed blocks plain
arenas_apart() {
  h=$(value "$1" hot) c=$(value "$1" cold) p=$(value "$1" plain) m=$(value "$1" mixed)
  [ -n "$h" ] && [ -n "$c" ] && [ -n "$p" ] && [ "$(value "$1" uniform)" = 1 ] &&
    [ "$h" != "$c" ] && [ "$h" != "$p" ] && [ "$c" != "$p" ] &&
    { [ -z "$m" ] || [ "$m" = "$p,$p" ]; }
}
# arenas_together FILE: every block in the plain blocks' arena
arenas_together() {
  p=$(value "$1" plain) m=$(value "$1" mixed)
  [ -n "$p" ] && [ "$(value "$1" hot)" = "$p" ] && [ "$(value "$1" cold)" = "$p" ] &&
    { [ -z "$m" ] || [ "$m" = "$p,$p" ]; }
}
all_freed() { [ "$(value "$1" unfreed)" = 0 ]; }

# run NAME BINARY [ENV...]: runs it, stdout to NAME.out, stderr to NAME.err;
# checks the exit status and that the output is the plain build's
run() {
  name=$1 bin=$2
  shift 2
  rc=0
  env "$@" "./$bin" >"$name.out" 2>"$name.err" || rc=$?
  if [ "$rc" = 0 ] && cmp -s "$name.out" plain.out; then
    pass "$name: exit 0, the plain build's output ($(cat "$name.out"))"
  else
    fail "$name: exit $rc, output '$(cat "$name.out")' (plain: '$(cat plain.out)'); stderr: $(cat "$name.err")"
  fi
}

# profile LANG DRIVER CLANG SOURCES...: in LANG/, the plain build (plain,
# plain.out), the profiled one (gen) and its profile (prof.mip)
profile() {
  lang=$1 driver=$2 plain=$3
  shift 3
  cd "$TMP/$lang"
  "$plain" -O2 -g "$@" -o plain && ./plain >plain.out 2>plain.err ||
    fail "$lang: the plain build does not run"
  # shellcheck disable=SC2086 # flag lists
  "$driver" $GEN "$@" -o gen -ljemalloc
  MIP_PROFILE_FILE=gen.mipraw ./gen >gen.out 2>gen.err
  mip_profile --debug gen prof.mip gen.mipraw
  # shellcheck disable=SC2086
  "$MIPDATA" annotate -p prof.mip --debug gen $ANNOTATE_LOW --format json >annotate.json
}

# rebuild LANG DRIVER NAME FLAGS -- SOURCES...: compiles each source with
# -fmip-use and FLAGS (and -ffunction-sections) to its object, then links
# them with -fmip-use and FLAGS into NAME
rebuild() {
  lang=$1 driver=$2 name=$3
  shift 3
  flags=
  while [ "$1" != -- ]; do
    flags="$flags $1"
    shift
  done
  shift
  objs=
  for src in "$@"; do
    obj=$name-$(basename "${src%.*}").o
    # shellcheck disable=SC2086
    "$driver" -fmip-use=prof.mip $LOW $flags -O2 -g -ffunction-sections -c "$src" -o "$obj" ||
      fail "$lang: compiling $src with -fmip-use$flags"
    objs="$objs $obj"
  done
  # shellcheck disable=SC2086
  "$driver" -fmip-use=prof.mip $LOW $flags $objs -o "$name" ||
    fail "$lang: linking $name"
}

# ---- C -----------------------------------------------------------------------
profile c "$MIPCC" "$CLANG" main.c hot.c cold.c mixed.c
# the sites that are hot, cold or mixed (the untouched probe is notcold),
# by the function they are in (a loop unrolled has several)
sites() {
  jq -r '[.allocations[] | select(.class != "notcold" or .mixed) |
    "\(.instrumented_function):\(.class):\(.mixed)"] | unique | join(" ")' annotate.json
}
got=$(sites)
want="cold_make:cold:false hot_make:hot:false shared_get:notcold:true"
[ "$got" = "$want" ] && pass "c: the profile's sites: $got" ||
  fail "c: the profile's sites: got '$got', want '$want'"
got=$(jq -r '[.functions[] | select(.decision == "cold") | .name] | join(" ")' annotate.json)
[ "$got" = cold_dump ] && pass "c: cold_dump never ran" || fail "c: cold functions: '$got'"

rebuild c "$MIPCC" use -- main.c hot.c cold.c mixed.c
got=$(hint_calls use | tr '\n' ';')
want="cold_make __mip_malloc_hint 0x1;hot_make __mip_malloc_hint 0xfe;"
[ "$got" = "$want" ] && pass "c: hinted calls: $got" ||
  fail "c: hinted calls: got '$got', want '$want'"
got=$(calls_in use shared_get)
[ "$got" = "malloc " ] && pass "c: the mixed site still calls malloc" ||
  fail "c: shared_get calls: '$got'"
links_jemalloc use && pass "c: linked with jemalloc" || fail "c: no libjemalloc in $(readelf -dW use | grep NEEDED)"
if readelf -SW use-cold.o | grep -q '\.text\.unlikely\.cold_dump '; then
  pass "c: cold_dump in .text.unlikely.cold_dump"
else
  fail "c: no .text.unlikely.cold_dump in cold.o: $(readelf -SW use-cold.o | grep -o '\.text[^ ]*' | tr '\n' ' ')"
fi
readelf -SW use-hot.o | grep -q '\.text\.hot\.hot_make ' &&
  pass "c: hot_make in .text.hot.hot_make" ||
  fail "c: no .text.hot.hot_make in hot.o: $(readelf -SW use-hot.o | grep -o '\.text[^ ]*' | tr '\n' ' ')"

# The blocks the program makes: a round of 1 and one of HOT, hot_make 1
# block of 64 bytes each, cold_make 3.
HOT=$(sed -n 's/^#define HOT //p' prog.h)
made=$((1 + HOT))
run "c, hinted" use MIP_ALLOC_STATS=1
expect_eq "c, hinted: the hint counters" "$(hint_stats_of "c, hinted.err")" \
  "$(hint_stats $((3 * made)) "$made" 0 0 64)"
arenas_apart "c, hinted.err" &&
  pass "c, hinted: hot, cold and plain blocks in three arenas, mixed ones plain ($(head -1 "c, hinted.err"))" ||
  fail "c, hinted: arenas: $(cat "c, hinted.err")"
all_freed "c, hinted.err" && pass "c, hinted: every byte freed" ||
  fail "c, hinted: $(cat "c, hinted.err")"
run "c, MIP_ALLOC_HINTS=0" use MIP_ALLOC_HINTS=0 MIP_ALLOC_STATS=1
expect_eq "c, MIP_ALLOC_HINTS=0: the hint counters, every hinted call plain" \
  "$(hint_stats_of "c, MIP_ALLOC_HINTS=0.err")" "$(hint_stats 0 0 0 $((4 * made)) 64)"
arenas_together "c, MIP_ALLOC_HINTS=0.err" && all_freed "c, MIP_ALLOC_HINTS=0.err" &&
  pass "c, MIP_ALLOC_HINTS=0: every block in the default arena, every byte freed" ||
  fail "c, MIP_ALLOC_HINTS=0: $(cat "c, MIP_ALLOC_HINTS=0.err")"

# Compiled and linked in one command: the profile, which hints sites, has
# mipcc add the allocator library, and the program is the same.
# shellcheck disable=SC2086
"$MIPCC" -fmip-use=prof.mip $LOW -O2 -g main.c hot.c cold.c mixed.c -o one ||
  fail "c: one-command rebuild"
run "c, one command" one
links_jemalloc one && arenas_apart "c, one command.err" &&
  pass "c, one command: linked with jemalloc, blocks in their arenas" ||
  fail "c, one command: $(readelf -dW one | grep NEEDED); $(cat "c, one command.err")"

# The checks can fail: a rebuild without hints passes none of them.
rebuild c "$MIPCC" nohints -fno-mip-alloc-hints -- main.c hot.c cold.c mixed.c
run "c, -fno-mip-alloc-hints" nohints MIP_ALLOC_STATS=1
if [ -z "$(hint_calls nohints)" ] && ! links_jemalloc nohints &&
  ! arenas_apart "c, -fno-mip-alloc-hints.err" && ! arenas_together "c, -fno-mip-alloc-hints.err" &&
  [ -z "$(hint_stats_of "c, -fno-mip-alloc-hints.err")" ] &&
  grep -q 'no jemalloc' "c, -fno-mip-alloc-hints.err"; then
  pass "c, -fno-mip-alloc-hints: no hinted calls, no jemalloc, and the arena and counter checks say so"
else
  fail "c, -fno-mip-alloc-hints: calls '$(hint_calls nohints)'; $(cat "c, -fno-mip-alloc-hints.err")"
fi
# and the arena check tells mixed-up arenas apart
printf 'arenas hot=3 cold=3 mixed=0,0 plain=0 uniform=1\n' >swapped.err
printf 'arenas hot=3 cold=4 mixed=0,3 plain=0 uniform=1\n' >mixed.err
printf 'arenas hot=3 cold=4 mixed=0,0 plain=0 uniform=0\n' >scattered.err
! arenas_apart swapped.err && ! arenas_apart mixed.err && ! arenas_apart scattered.err &&
  pass "the arena check fails on one arena for both, a hinted mixed block, scattered blocks" ||
  fail "the arena check accepts arenas it should not"

# ---- C++ ---------------------------------------------------------------------
# C++17 (std::timespec): the default of clang 16 and later, not before
profile cxx "$MIPCXX" "$CLANGXX" -std=c++17 main.cpp notes.cpp
got=$(sites)
want="_ZN5Notes3addEi:cold:false main:hot:false"
[ "$got" = "$want" ] && pass "c++: the profile's sites: $got" ||
  fail "c++: the profile's sites: got '$got', want '$want'"
rebuild cxx "$MIPCXX" use -std=c++17 -- main.cpp notes.cpp
# The objects main.cpp makes: a round of 1 and one of 256 (the length of
# counters[]), one Counter and 3 Notes each, 64 bytes each.
made=$((1 + $(sed -n 's/^Counter \*counters\[\([0-9]*\)\];$/\1/p' main.cpp)))
got=$(hint_calls use | awk '{ print $2, $3 }' | sort -u | tr '\n' ';')
want="_Znwm12__hot_cold_t 0x1;_Znwm12__hot_cold_t 0xfe;"
[ "$got" = "$want" ] && pass "c++: hinted operator new: $got" ||
  fail "c++: hinted calls: got '$got', want '$want'"
links_jemalloc use && pass "c++: linked with jemalloc" || fail "c++: no libjemalloc"
run "c++, hinted" use MIP_ALLOC_STATS=1
expect_eq "c++, hinted: the hint counters" "$(hint_stats_of "c++, hinted.err")" \
  "$(hint_stats $((3 * made)) "$made" 0 0 64)"
arenas_apart "c++, hinted.err" && all_freed "c++, hinted.err" &&
  pass "c++, hinted: hot, cold and plain objects in three arenas, every byte deleted" ||
  fail "c++, hinted: $(cat "c++, hinted.err")"
run "c++, MIP_ALLOC_HINTS=0" use MIP_ALLOC_HINTS=0 MIP_ALLOC_STATS=1
expect_eq "c++, MIP_ALLOC_HINTS=0: the hint counters, every hinted call plain" \
  "$(hint_stats_of "c++, MIP_ALLOC_HINTS=0.err")" "$(hint_stats 0 0 0 $((4 * made)) 64)"
arenas_together "c++, MIP_ALLOC_HINTS=0.err" && all_freed "c++, MIP_ALLOC_HINTS=0.err" &&
  pass "c++, MIP_ALLOC_HINTS=0: every object in the default arena, every byte deleted" ||
  fail "c++, MIP_ALLOC_HINTS=0: $(cat "c++, MIP_ALLOC_HINTS=0.err")"

finish
