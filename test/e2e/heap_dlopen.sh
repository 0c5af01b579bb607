#!/bin/sh
# A heap library in a process whose free is not MIP's: loaded with dlopen
# by a program built without MIP (PIE, non-PIE, -fno-plt, under an
# allocator preloaded ahead of libc, under valgrind), linked by one
# (DT_NEEDED, the library exporting no free), loaded from Python with
# ctypes. The program frees the library's blocks with its own free and
# realloc, through pointers to free, through a library it loads later,
# after unloading the heap library. Each site's blocks, bytes and blocks
# live at exit must be what the program says it did (progs/heap_dlopen),
# and DHAT's for a plain build of the library; none freed unseen; the
# program's output and exit status unchanged. Where frees cannot be seen
# (a free from dlsym(RTLD_NEXT), MIP_OPTIONS=heap_patch=0), one stderr
# line and show --heap's header say how many blocks it concerns. Last, an
# executable built with heap whose program defines free but not realloc.
#   test/e2e/heap_dlopen.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
PROG=$HERE/progs/heap_dlopen
make_tmp
cd "$TMP"
# DHAT reads DWARF 4 only.
FLAGS="-O2 -gdwarf-4 -fno-optimize-sibling-calls"

mkdir plain needed sub
"$MIPCC" -fmip-generate=heap $FLAGS -fPIC -shared "$PROG/lib.c" -o libheapdl.so
"$CLANG" $FLAGS -fPIC -shared "$PROG/lib.c" -o plain/libheapdl.so
"$MIPCC" -fmip-generate=heap $FLAGS -DSECOND -fPIC -shared "$PROG/lib.c" -o libheapdl2.so
"$CLANG" $FLAGS -DSECOND -fPIC -shared "$PROG/lib.c" -o plain/libheapdl2.so
# A heap library that exports no free, as one linked by mipcc will not.
printf '{ global: lib_*; local: *; };\n' >hide.map
"$MIPCC" -fmip-generate=heap $FLAGS -fPIC -shared "$PROG/lib.c" \
  -Wl,--version-script=hide.map -o needed/libheapdl.so
"$CLANG" -O2 -fPIC -shared "$PROG/plain.c" -o sub/libplaindl.so
HOST_FLAGS="$FLAGS -Wall -Wextra -Werror"
# shellcheck disable=SC2086 # flag lists
{
  "$CLANG" $HOST_FLAGS "$PROG/host.c" -Wl,-rpath,"$TMP/sub" -o host
  "$CLANG" $HOST_FLAGS -no-pie -fno-pic "$PROG/host.c" -o host_nopie
  "$CLANG" $HOST_FLAGS -fno-plt "$PROG/host.c" -o host_noplt
  "$CLANG" $HOST_FLAGS "$PROG/host.c" -Lneeded -Wl,--no-as-needed -lheapdl \
    -Wl,-rpath,"$TMP/needed" -o host_linked
}
"$CLANG" $FLAGS -c "$PROG/myfree.c" -o myfree.o
"$MIPCC" -fmip-generate=heap $FLAGS "$PROG/ownfree.c" myfree.o -o ownfree
"$CLANG" $FLAGS "$PROG/ownfree.c" myfree.o -o ownfree_plain
"$MIPDATA" extract libheapdl.so -o lib.mipmap >/dev/null
"$MIPDATA" extract ownfree -o ownfree.mipmap >/dev/null
"$MIPDATA" extract libheapdl2.so -o lib2.mipmap >/dev/null
"$MIPDATA" extract needed/libheapdl.so -o needed.mipmap >/dev/null
LIB=libheapdl.so MAP=lib.mipmap

# profile NAME COMMAND...: runs it, the profile of LIB going to
# NAME.<id>.mipraw; NAME.out, .err, .rc; merged, NAME.json and NAME.txt.
profile() {
  name=$1
  shift
  rm -f "$name".*.mipraw
  rc=0
  MIP_PROFILE_FILE="$TMP/$name.%m.mipraw" "$@" >"$name.out" 2>"$name.err" || rc=$?
  echo "$rc" >"$name.rc"
  id=$("$LLVM_BIN/llvm-readelf" -n "$LIB" | awk '/Build ID/ { print substr($3, 1, 16) }')
  if ! { "$MIPDATA" create -p "$name.mip" "$MAP" &&
    "$MIPDATA" merge -p "$name.mip" --debug "$LIB" "$name.$id.mipraw" &&
    mip_show "$name.mip" --heap >"$name.json" &&
    "$MIPDATA" show -p "$name.mip" --heap >"$name.txt"; } 2>>"$name.err"; then
    echo '{"heap": [], "heap_stats": {}}' >"$name.json" # no profile
    : >"$name.txt"
  fi
}

# "function blocks bytes live" per site: the profile's, the host's.
sites() {
  jq -r '.heap[] | select(.site != null)
         | "\(.site.function) \(.AllocCount) \(.TotalSize) \(.LiveAtExitCount)"' "$1.json" |
    awk '{ n[$1] += $2; b[$1] += $3; l[$1] += $4 }
         END { for (f in n) print f, n[f], b[f], l[f] }' | sort
}
truth() { awk '$1 == "site" && $3 > 0 { print $2, $3, $4, $5 }' "$1.out" | sort; }
stat() { jq ".heap_stats.$2" "$1.json"; }

# exact NAME LABEL COMMAND...: every site as the host says, none freed
# unseen, frees by uninstrumented code seen, nothing on stderr, and the
# host's output (errno included) and status 3 as COMMAND, the same with
# the plain library, gives them.
exact() {
  name=$1 label=$2
  shift 2
  sites "$name" >"$name.sites"
  truth "$name" >"$name.truth"
  rc=0
  "$@" >"$name.plain" 2>&1 || rc=$?
  if [ "$(cat "$name.rc")" = 3 ] && [ "$rc" = 3 ] && [ ! -s "$name.err" ] &&
    [ -s "$name.truth" ] && cmp -s "$name.out" "$name.plain" &&
    cmp -s "$name.sites" "$name.truth" &&
    [ "$(stat "$name" freed_unseen)" = 0 ] &&
    [ "$(stat "$name" uninterposed_runs)" = 0 ]; then
    pass "$label: $(wc -l <"$name.truth") sites as the host says (blocks, bytes, live at exit), none freed unseen, output and status as without MIP"
  else
    fail "$label: status $(cat "$name.rc") ($rc without MIP), freed unseen $(stat "$name" freed_unseen), stderr '$(head -c 300 "$name.err")'; sites (< host, > MIP), output (< without MIP):"
    diff "$name.truth" "$name.sites" | sed 's/^/     /' || true
    diff "$name.plain" "$name.out" | sed 's/^/     /' || true
  fi
}

# ---- dlopen: the host's free, its pointer to free, realloc and
# reallocarray, the library's own pointers to free.
profile dlopen ./host dlopen "$TMP/libheapdl.so"
exact dlopen "dlopen" ./host dlopen "$TMP/plain/libheapdl.so"
grep -qx "errno after free: kept" dlopen.out &&
  grep -qx "errno after realloc: kept" dlopen.out &&
  grep -qx "errno after a failing realloc: 12" dlopen.out &&
  pass "dlopen: errno as glibc leaves it (kept by free and realloc, ENOMEM)" ||
  fail "dlopen: errno: $(grep errno dlopen.out | tr '\n' ';')"
profile nopie ./host_nopie dlopen "$TMP/libheapdl.so"
exact nopie "non-PIE host, free's address taken (its PLT stub is free's address)" \
  ./host_nopie dlopen "$TMP/plain/libheapdl.so"
profile noplt ./host_noplt dlopen "$TMP/libheapdl.so"
exact noplt "host built with -fno-plt (calls through GLOB_DAT slots)" \
  ./host_noplt dlopen "$TMP/plain/libheapdl.so"
JEMALLOC=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
if [ -e "$JEMALLOC" ]; then
  profile jemalloc env LD_PRELOAD="$JEMALLOC" ./host dlopen "$TMP/libheapdl.so"
  exact jemalloc "jemalloc preloaded: its free stays the one called" \
    env LD_PRELOAD="$JEMALLOC" ./host dlopen "$TMP/plain/libheapdl.so"
else
  echo "skip jemalloc: $JEMALLOC not installed"
fi

# DHAT, on the plain build of the library: blocks and bytes per site
# (but lib_alloc_grow's, whose blocks the host's realloc moves: DHAT
# counts the moved block too, MIP follows no block that code it did not
# instrument reallocates) and blocks live at the end.
valgrind --tool=dhat --dhat-out-file=dhat.json ./host dlopen \
  "$TMP/plain/libheapdl.so" >dhat.out 2>dhat.log || true
jq -r '.ftbl as $f | .pps[]
       | "\(.tbk) \(.tb) \(.ebk) " + ([.fs[] | $f[.] | select(test("lib\\.c:"))] | first // "-")' dhat.json |
  sed -n 's/^\([0-9]*\) \([0-9]*\) \([0-9]*\) 0x[0-9A-F]*: \([a-z_]*\) (.*lib\.c:[0-9]*)$/\4 \1 \2 \3/p' |
  awk '{ n[$1] += $2; b[$1] += $3; l[$1] += $4 }
       END { for (f in n) print f, (f == "lib_alloc_grow" ? "-" : n[f]), (f == "lib_alloc_grow" ? "-" : b[f]), l[f] }' |
  sort >dhat.sites
awk '{ print $1, ($1 == "lib_alloc_grow" ? "-" : $2), ($1 == "lib_alloc_grow" ? "-" : $3), $4 }' \
  dlopen.sites >dlopen.dhat-view
[ "$(wc -l <dhat.sites)" = 4 ] && cmp -s dhat.sites dlopen.dhat-view &&
  pass "dlopen: DHAT agrees at all 4 sites (blocks, bytes, live at the end)" || {
  fail "dlopen: DHAT disagrees (< DHAT, > MIP):"
  diff dhat.sites dlopen.dhat-view | sed 's/^/     /'
}

# Under valgrind, whose free (DHAT's) the redirection must call: the
# same profile.
profile vg valgrind -q --tool=dhat --dhat-out-file=/dev/null ./host dlopen "$TMP/libheapdl.so"
exact vg "under valgrind (DHAT)" \
  valgrind -q --tool=dhat --dhat-out-file=/dev/null ./host dlopen "$TMP/plain/libheapdl.so"
cmp -s vg.sites dlopen.sites && pass "under valgrind: the native profile's sites" ||
  fail "under valgrind: other sites than natively"

# ---- linked (DT_NEEDED) by a host built without MIP, no free exported.
LIB=needed/libheapdl.so MAP=needed.mipmap
profile linked ./host_linked linked
exact linked "linked by the host (DT_NEEDED), exporting no free" \
  env LD_LIBRARY_PATH="$TMP/plain" ./host_linked linked
LIB=libheapdl.so MAP=lib.mipmap

# ---- loaded after the heap library: its frees and reallocs too, and the
# host's RUNPATH still finds it (dlopen sees its real caller).
profile late ./host late "$TMP/libheapdl.so" libplaindl.so
exact late "a library loaded later (by a bare name, through the host's RUNPATH) frees and reallocates" \
  ./host late "$TMP/plain/libheapdl.so" libplaindl.so

# ---- unloaded while the host goes on freeing: the slots restored, the
# pointers to free it handed out (and dlsym's) still good.
profile dlclose ./host dlclose "$TMP/libheapdl.so"
exact dlclose "dlclose of the heap library, then frees (free, its pointer, dlsym's)" \
  ./host dlclose "$TMP/plain/libheapdl.so"

# ---- Two heap libraries; the one owning the state is unloaded: the other
# takes it over at its next allocation, and redirects in its turn.
LIB=libheapdl2.so MAP=lib2.mipmap
profile handover ./host handover "$TMP/libheapdl.so" "$TMP/libheapdl2.so"
exact handover "the owning library unloaded, another takes the state and the redirection over" \
  ./host handover "$TMP/plain/libheapdl.so" "$TMP/plain/libheapdl2.so"
LIB=libheapdl.so MAP=lib.mipmap

# ---- Python, ctypes: free and realloc from CDLL(None) and libc's handle.
if command -v python3 >/dev/null; then
  profile python python3 "$PROG/host.py" "$TMP/libheapdl.so"
  exact python "Python, ctypes (free and realloc through dlsym on handles)" \
    python3 "$PROG/host.py" "$TMP/plain/libheapdl.so"
else
  echo "skip python: python3 not installed"
fi

# ---- The loss said out loud. A free from dlsym(RTLD_NEXT) is libc's own:
# the blocks come back to the library (freed unseen).
profile next ./host next "$TMP/libheapdl.so"
k=$(awk '$1 == "reused" { print $2 }' next.out)
want="mip: $k of 12 heap blocks ($(((k * 100 + 6) / 12))%) were freed where MIP could not see it: their lifetimes are unknown (a free MIP cannot redirect: through a pointer from dlsym(RTLD_DEFAULT or RTLD_NEXT) or copied before the library was loaded, or in statically linked code)"
[ "${k:-0}" -ge 1 ] && [ "$(cat next.rc)" = 3 ] && [ "$(cat next.err)" = "$want" ] &&
  [ "$(stat next freed_unseen)" = "$k" ] && [ "$(stat next unknown_lifetimes)" = "$k" ] &&
  [ "$(stat next blocks)" = 12 ] &&
  pass "a free from dlsym(RTLD_NEXT): $k of 12 blocks freed unseen, one line says so" ||
  fail "dlsym(RTLD_NEXT): reused $k, status $(cat next.rc), stderr '$(cat next.err)'"
grep -qxF "Lifetimes: $k of 12 blocks ($(((k * 100 + 6) / 12))%) were freed where MIP could not see it: their lifetimes are unknown (a free MIP cannot redirect: through a pointer from dlsym(RTLD_DEFAULT or RTLD_NEXT) or copied before the library was loaded, or in statically linked code)" next.txt &&
  pass "show --heap says the same in its header" ||
  fail "show --heap header: $(sed -n 2,5p next.txt)"
! grep -q "^Lifetimes:" dlopen.txt && pass "no such line without a loss" ||
  fail "show --heap says lifetimes are unknown without a loss"

# With the redirection off, every block the host freed or kept may be
# one: the line counts the freed unseen and those live at exit.
MIP_OPTIONS=heap_patch=0 profile off ./host dlopen "$TMP/libheapdl.so"
lost=$(($(stat off freed_unseen) + $(stat off live_uninterposed)))
all=$(awk '$1 == "site" { n += $3 } END { print n }' off.out)
want="mip: $lost of $all heap blocks ($(((lost * 100 + all / 2) / all))%) were freed where MIP could not see it or are still live: their lifetimes are unknown (frees by code MIP did not instrument went unseen: heap_patch=0 in MIP_OPTIONS)"
# At least the blocks the host itself freed, reallocated or kept.
[ "$lost" -ge 33 ] && [ "$(stat off blocks)" = "$all" ] && [ "$(cat off.rc)" = 3 ] &&
  [ "$(cat off.err)" = "$want" ] && [ "$(stat off uninterposed_runs)" = 1 ] &&
  grep -q "^Lifetimes: $lost of $all blocks .* or are still live: .*unseen in 1 of 1 run)$" off.txt &&
  cmp -s off.out dlopen.out &&
  pass "heap_patch=0: $lost of $all blocks concerned, one line and show --heap say so" ||
  fail "heap_patch=0: lost $lost of $all, status $(cat off.rc), stderr '$(cat off.err)', $(grep ^Lifetimes off.txt)"

# ---- An executable built with heap whose program defines free (not
# realloc): the process's free is not MIP's, its realloc is. The
# executable owns the state and redirects; the program's free stays the
# one called (it counts), realloc does not call itself.
LIB=ownfree MAP=ownfree.mipmap
profile ownfree ./ownfree "$TMP/sub/libplaindl.so"
exact ownfree "a heap executable with a free of its own, a library freeing its blocks" \
  ./ownfree_plain "$TMP/sub/libplaindl.so"
grep -qx "the program's free saw them all" ownfree.out &&
  pass "the program's free is still the one called" ||
  fail "the program's free: $(tail -1 ownfree.out)"

finish
