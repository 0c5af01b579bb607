#!/bin/sh
# The heap runtime on its own, in a real process: progs/heap_rt calls the
# hooks, sets the site bytes and counts accesses by hand, as code built
# with -fmip-generate=heap would (glue.h), with an instrumented shared
# library beside it; progs/heap_rt/check decodes the raw profiles. Checks
# counts and sizes per context (8 threads included), accesses, live blocks
# at a dump and at exit, frees and reallocs by code MIP did not
# instrument, unseen frees, freed-unseen addresses, each image's
# contexts in its own profile, stack truncation,
# MIP_OPTIONS, fork, GNU ld, lld and gold, a library owning the heap
# state (linked, and loaded and unloaded twice), the clash with
# AddressSanitizer, and that a coverage-only program links no heap code.
#   test/e2e/heap_rt.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$HERE/../.." && pwd)
PROG=$HERE/progs/heap_rt
RT=$BUILD/lib/mip/libmip_rt.a
INTERPOSE=$BUILD/lib/mip/mip_interpose.o
INTERPOSE_SHARED=$BUILD/lib/mip/mip_interpose_shared.o
make_tmp
cd "$TMP"

FP="-O0 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -Wall -Wextra -Werror -I$SRC/rt/heap"
# Linked as mipcc links heap images: the interposer, then the runtime.
RTLINK="-Wl,--build-id $INTERPOSE $RT"
"$CLANG" -O1 -Wall -Wextra -Werror -I"$SRC/include" "$PROG/check.c" -o check
# shellcheck disable=SC2086 # flag lists
"$CLANG" $FP -fPIC -shared "$PROG/lib.c" -Wl,--build-id $INTERPOSE_SHARED \
  $RT -o libheaprt.so
# shellcheck disable=SC2086
"$CLANG" $FP -I"$SRC/include" -pthread "$PROG/main.c" -L. -lheaprt \
  -Wl,-rpath,"$TMP" $RTLINK -o heap_rt

rc=0
MIP_PROFILE_FILE=run.mipraw ./heap_rt dump >out.txt 2>err.txt || rc=$?
[ "$rc" -eq 0 ] && [ ! -s err.txt ] && pass "runs, and says nothing on stderr" ||
  fail "heap_rt: $(cat err.txt)"
./check run.mipraw >run.txt && ./check dump.mipraw >dump.txt &&
  pass "raw profiles decode" || fail "raw profiles do not decode"
child=$(awk '$1 == "child" { print $2 }' out.txt)
./check "run.$child.mipraw" >child.txt
# the library's: run.<16 hex digits>.mipraw
for f in run.????????????????.mipraw; do ./check "$f" >lib.txt; done

# What the run printed: its sites' and functions' addresses.
OUT=out.txt
site() { awk -v n="$1" '$1 == "site" && $2 == n { print $3 }' "$OUT"; }
function_at() { awk -v n="$1" '$1 == "function" && $2 == n { print $3 }' "$OUT"; }
# context FILE SITE_NAME: the context line(s) of that site
context() { grep "^context site=$(site "$2") " "$1"; }
# field LINE NAME
field() { echo "$1" | tr ' ' '\n' | awk -F= -v n="$2" '$1 == n { print $2 }'; }
stat() { awk -v k="$2" '$1 == "stat" && $2 == k { print $3 }' "$1"; }
# expect FILE SITE_NAME Name=value...: every field as said
expect() {
  file=$1 name=$2
  shift 2
  line=$(context "$file" "$name")
  if [ "$(echo "$line" | grep -c .)" != 1 ]; then
    fail "$file: one context for site $name, found $(echo "$line" | grep -c .)"
    return
  fi
  bad=
  for want in "$@"; do
    got=$(field "$line" "${want%%=*}")
    [ "$got" = "${want#*=}" ] || bad="$bad ${want%%=*}=$got (want ${want#*=})"
  done
  [ -z "$bad" ] && pass "$file: $name: $*" || fail "$file: $name:$bad"
}

expect run.txt loop AllocCount=10 TotalSize=1000 MinSize=100 \
  TotalAccessCount=30 MinAccessCount=3 MaxAccessCount=3 LiveAtExitCount=0
expect run.txt leak AllocCount=1 TotalAccessCount=2 LiveAtExitCount=1 \
  LiveAtExitSize=64 PeakLiveSize=64 TotalAccessDensity=3
expect run.txt libfree AllocCount=1 TotalAccessCount=2 LiveAtExitCount=0
expect run.txt librealloc AllocCount=1 TotalSize=40 LiveAtExitCount=0
# A block moved by realloc stays in the context of the block it came from
# (as DHAT counts it): the realloc call's own site gets no context.
expect run.txt grow AllocCount=2 TotalSize=5050 ReallocCount=1 LiveAtExitCount=0
[ "$(grep -c "^context site=$(site realloc) " run.txt)" = 0 ] &&
  pass "run.txt: realloc: no context of its own" ||
  fail "run.txt: realloc: $(grep -c "^context site=$(site realloc) " run.txt) contexts"
expect run.txt thread AllocCount=8000 TotalSize=156000 MinSize=16 MaxSize=23 \
  LiveAtExitCount=0
expect run.txt strdup AllocCount=1 TotalSize=6
expect run.txt memalign AllocCount=1 TotalSize=200 LiveAtExitCount=1 \
  LiveAtExitSize=200
expect run.txt copy AllocCount=1 LiveAtExitCount=1 \
  TotalAccessCount="$(awk '$1 == "copy_granules" { print $2 }' out.txt)"
# The library's allocation is in the library's profile, not the owner's.
expect lib.txt lib AllocCount=1 TotalSize=72 LiveAtExitCount=0
[ "$(grep -c "^context site=$(site lib) " run.txt)" = 0 ] &&
  pass "run.txt: lib: not in the owner's profile" ||
  fail "run.txt: lib: $(grep -c "^context site=$(site lib) " run.txt) contexts"
expect run.txt dump AllocCount=1 LiveAtExitCount=0
expect dump.txt dump AllocCount=1 LiveAtExitCount=1 LiveAtExitSize=32
expect dump.txt leak AllocCount=1 LiveAtExitCount=1
[ "$(grep -c "^context site=$(site unseen_alloc) " run.txt)" = 2 ] &&
  pass "the two allocation calls of one site are two contexts" ||
  fail "contexts of site unseen_alloc: $(grep -c "^context site=$(site unseen_alloc) " run.txt)"

[ "$(stat run.txt 3)" = 1 ] && pass "one instrumented free of a block never seen" ||
  fail "unseen frees: $(stat run.txt 3)"
if [ "$(awk '$1 == "freed_unseen_same" { print $2 }' out.txt)" = 1 ]; then
  [ "$(stat run.txt 4)" = 1 ] && pass "an address allocated again while live: freed unseen" ||
    fail "freed unseen: $(stat run.txt 4)"
fi
[ "$(stat run.txt 6)" = 0 ] && [ "$(stat run.txt 7)" = 64 ] &&
  pass "nothing dropped, stack depth 64" ||
  fail "dropped $(stat run.txt 6), depth $(stat run.txt 7)"
grep -q "^sites 14/15$" run.txt && pass "site bytes: the 14 sites that ran" ||
  fail "site bytes: $(grep '^sites' run.txt)"

# stack ID of a site's context
stack_of() { field "$(context "$1" "$2")" stack; }
frames() { awk -v id="$2" '$1 == "stack" && $2 == id' "$1"; }
# within ADDRESS FUNCTION: the address is in the function's first 512 bytes
within() {
  a=$(printf '%d' "$1") f=$(printf '%d' "$(function_at "$2")")
  [ "$a" -gt "$f" ] && [ "$a" -lt $((f + 512)) ]
}
loop=$(frames run.txt "$(stack_of run.txt loop)")
within "$(echo "$loop" | awk '{ print $5 }')" loop &&
  within "$(echo "$loop" | awk '{ print $6 }')" main &&
  pass "stack of loop: return addresses in loop, then main" ||
  fail "stack of loop: $loop"
deep=$(frames run.txt "$(stack_of run.txt deep)")
[ "$(echo "$deep" | awk '{ print $3, $4 }')" = "64 1" ] &&
  within "$(echo "$deep" | awk '{ print $5 }')" deep_alloc &&
  [ "$(stat run.txt 5)" = 1 ] &&
  pass "a stack 100 calls deep: cut at 64, flagged, counted" ||
  fail "deep stack: $(echo "$deep" | cut -c1-60), truncated $(stat run.txt 5)"
lib_frame=$(printf '%d' "$(frames lib.txt "$(stack_of lib.txt lib)" | awk '{ print $5 }')")
seg=$(awk '$1 == "segment" && $6 ~ /libheaprt/ { print $2, $3 }' lib.txt)
start=$(printf '%d' "${seg% *}") end=$(printf '%d' "${seg#* }")
[ "$lib_frame" -ge "$start" ] && [ "$lib_frame" -lt "$end" ] && pass "the library's block: one context, first frame in the library's segment" ||
  fail "library frame $lib_frame not in its segment"
awk '$1 == "segment" { n++; if (n == 1 && $6 == "-" && $5 == 20) exe = 1 }
     END { exit !(exe && n >= 4) }' run.txt &&
  pass "segments: the executable first (no name, build-id), then the libraries" ||
  fail "segments: $(grep -c '^segment' run.txt)"

# The library is no owner: its own site's context (with the segments of
# every object), its own unseen free, also as a ghost free at its free
# call's context, none of the process's statistics (nor its timeline).
[ "$(head -1 lib.txt)" = "kinds 5 33 34 35 36" ] && [ "$(stat lib.txt 3)" = 1 ] &&
  [ -z "$(stat lib.txt 4)" ] && [ "$(grep -c '^context' lib.txt)" = 2 ] &&
  [ "$(grep '^context' lib.txt | grep -c ' AllocCount=1 .* GhostFreeCount=0')" = 1 ] &&
  [ "$(grep '^context' lib.txt | grep -c ' AllocCount=0 .* GhostFreeCount=1')" = 1 ] &&
  [ "$(grep -c '^segment' lib.txt)" = "$(grep -c '^segment' run.txt)" ] &&
  pass "library profile: its own context, its ghost free's, segments and unseen free; no process statistics" ||
  fail "library profile: $(head -2 lib.txt | tr '\n' ' '), $(grep -c '^context' lib.txt) contexts"
# The child: only what it allocated; the parent's block it freed is no news.
[ "$(grep -c '^context' child.txt)" = 1 ] && [ "$(stat child.txt 3)" = 0 ] &&
  [ "$(stat child.txt 4)" = 0 ] &&
  pass "forked child: its own context only, no unseen frees" ||
  fail "child profile: $(grep -c '^context' child.txt) contexts, unseen $(stat child.txt 3)"
expect child.txt child AllocCount=5 TotalSize=40

# MIP_OPTIONS
OUT=opt.out
MIP_OPTIONS=heap_stack_depth=8 MIP_PROFILE_FILE=opt.mipraw ./heap_rt >"$OUT" 2>err.txt
./check opt.mipraw >opt.txt
deep=$(frames opt.txt "$(stack_of opt.txt deep)")
[ ! -s err.txt ] && [ "$(stat opt.txt 7)" = 8 ] &&
  [ "$(echo "$deep" | awk '{ print $3, $4 }')" = "8 1" ] &&
  pass "heap_stack_depth=8: stacks of at most 8 frames" ||
  fail "heap_stack_depth=8: depth $(stat opt.txt 7), stack $(echo "$deep" | cut -c1-30), $(cat err.txt)"
MIP_OPTIONS=heap_stack_depth=500:heap_nonsense=1:verbose=0 \
  MIP_PROFILE_FILE=opt.mipraw ./heap_rt >/dev/null 2>err.txt
cat >want.txt <<'EOF'
mip: MIP_OPTIONS: heap_stack_depth wants a number from 1 to 128, not '500' (ignored)
mip: MIP_OPTIONS: unknown option 'heap_nonsense' (ignored)
EOF
./check opt.mipraw >opt.txt
cmp -s err.txt want.txt && [ "$(stat opt.txt 7)" = 64 ] &&
  pass "bad heap options: one line each, once per process, defaults kept" ||
  fail "bad heap options: $(cat err.txt)"

# Other linkers: the same contexts (but the dump's).
OUT=out.txt
want=$(grep '^context' run.txt | grep -vc "^context site=$(site dump) ")
for ld in lld gold; do
  if [ $ld = gold ] && ! command -v ld.gold >/dev/null; then
    echo "skip gold: ld.gold not installed"
    continue
  fi
  # shellcheck disable=SC2086
  "$CLANG" $FP -fuse-ld=$ld -I"$SRC/include" -pthread "$PROG/main.c" -L. \
    -lheaprt -Wl,-rpath,"$TMP" $RTLINK -o heap_rt_$ld
  rc=0
  MIP_PROFILE_FILE=$ld.mipraw ./heap_rt_$ld >/dev/null 2>err.txt || rc=$?
  n=$(./check $ld.mipraw | grep -c '^context')
  [ "$rc" -eq 0 ] && [ "$n" = "$want" ] &&
    pass "linked with $ld: $n contexts" || fail "linked with $ld: status $rc, $n contexts"
done

# A program without heap code, with the heap library: the library owns
# the state. The library defines no free: its calls, through a function
# pointer too, and the program's go to libc's, which the library, owning
# the state, redirects to its runtime (heap_got.c; test/e2e/heap_dlopen.sh
# has the rest); so too when it is loaded with dlopen.
# shellcheck disable=SC2086
"$CLANG" -O1 "$PROG/host.c" -L. -lheaprt -Wl,-rpath,"$TMP" -o host
MIP_PROFILE_FILE=host.mipraw ./host
./check host.*.mipraw >host.txt
[ "$(grep -c '^context' host.txt)" = 3 ] &&
  [ "$(grep '^context' host.txt | grep -c 'TotalSize=50 .*LiveAtExitCount=0 ')" = 1 ] &&
  [ "$(grep '^context' host.txt | grep -c 'TotalSize=100 .*LiveAtExitCount=0 ')" = 1 ] &&
  [ "$(grep '^context' host.txt | grep -c 'TotalSize=300 .*LiveAtExitCount=1 ')" = 1 ] &&
  pass "library owner: its own free through a pointer is seen, and the program's, redirected" ||
  fail "library owner: $(grep '^context' host.txt)"
nm -D --defined-only libheaprt.so >exports.txt
grep -Eq ' (free|realloc|reallocarray)$' exports.txt &&
  fail "the heap library exports $(grep -E ' (free|realloc|reallocarray)$' exports.txt | tr '\n' ' ')" ||
  pass "the heap library exports no free, realloc or reallocarray"
"$CLANG" -O1 "$PROG/host.c" -ldl -o host_dl
rm -f host.*.mipraw
rc=0
MIP_PROFILE_FILE=host.mipraw ./host_dl dlopen "$TMP/libheaprt.so" 2>err.txt || rc=$?
./check host.*.mipraw >host.txt
[ "$rc" -eq 0 ] && [ ! -s err.txt ] && [ "$(grep -c '^context' host.txt)" = 2 ] &&
  [ "$(grep '^context' host.txt | grep -c 'TotalSize=200 .*LiveAtExitCount=1 ')" = 1 ] &&
  [ "$(grep '^context' host.txt | grep -c 'TotalSize=100 .*LiveAtExitCount=0 ')" = 1 ] &&
  pass "dlopen, dlclose, twice: a new state each time; the program's free seen" ||
  fail "dlopen: status $rc, $(grep -c '^context' host.txt) contexts, $(cat err.txt)"

# Beside AddressSanitizer, whose shadow is at the same place: one line, and
# the process stops rather than corrupt it.
echo 'int main(void) { return 0; }' >asan.c
# shellcheck disable=SC2086
"$CLANG" -fsanitize=address -I"$SRC/rt/heap" -include "$PROG/glue.h" -DHEAP_RT_MAIN asan.c \
  $RTLINK -o asan 2>/dev/null
rc=0
./asan >/dev/null 2>err.txt || rc=$?
[ "$rc" -eq 134 ] && grep -q "^mip: heap profiling needs the address range 0x7fff8000-0x10007fff8000 for its shadow memory, which something else holds" err.txt &&
  [ "$(grep -c . err.txt)" -le 2 ] && [ "$(grep -c '^mip:' err.txt)" = 1 ] &&
  pass "with AddressSanitizer: one line and abort" ||
  fail "with AddressSanitizer: status $rc, $(cat err.txt)"

# Coverage only: calling free must not pull the heap runtime (nor its
# interposed free) out of the archive.
cat >cov.c <<'EOF'
#include <stdlib.h>
void *volatile kept;
int main(void) {
  kept = malloc(4);
  kept = realloc(kept, 8);
  free(kept);
  return 0;
}
EOF
# (Linked as mipcc links an image without heap code.)
"$CLANG" -O2 cov.c -Wl,--build-id -Wl,-u,__mip_link_with_mipcc_or_libmip_rt \
  "$RT" -o cov
if nm cov | grep -q "__mip_heap\|mip_rt_heap_owner\|mip_rt_heap_start"; then
  fail "a program without heap code links heap members: $(nm cov | grep heap | head -3)"
else
  nm cov | grep -q " U free" && pass "free and realloc stay libc's without heap code" ||
    fail "free is defined in a coverage-only program"
fi

finish
