#!/bin/sh
# mip_dump() and MIP_OPTIONS: a program that never returns normally writes
# every image's profile when it asks; dump_at_exit=0 turns the exit-time
# write off; verbose=1 reports each file written; an unknown option is
# reported once per process, however many images read it.
#   test/e2e/dump.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
PROGS=$HERE/progs/dump
INCLUDE=$HERE/../../include
make_tmp
cd "$TMP"

MODES=-fmip-generate=counts
"$MIPCC" $MODES -O2 -shared -fPIC -I"$INCLUDE" "$PROGS/lib.c" -o libdumped.so
"$MIPCC" $MODES -O2 -I"$INCLUDE" "$PROGS/main.c" -L. -ldumped \
  -Wl,-rpath,'$ORIGIN' -o dumper
for image in dumper libdumped.so; do
  mip_create "$image" "$image.empty.mip"
done
LIB_ID=$(readelf -n libdumped.so | sed -n 's/.*Build ID: //p' | cut -c1-16)

# counts DIR: "step lib_step lib_work lib_dump main" calls from DIR's raws
counts() {
  cp dumper.empty.mip dumper.mip
  cp libdumped.so.empty.mip libdumped.so.mip
  "$MIPDATA" merge -p dumper.mip -p libdumped.so.mip -- "$1"/*.mipraw || return
  for f in "dumper.mip step" "libdumped.so.mip lib_step" "libdumped.so.mip lib_work" \
    "libdumped.so.mip lib_dump" "dumper.mip main"; do
    set -- $f
    mip_show "$1" >"$1.json"
    mip_field "$1.json" "$2" calls
  done | tr '\n' ' ' | sed 's/ $//'
}

# run DIR MODE [ENV...]: runs the program in a new DIR
run() {
  dir=$1 mode=$2
  shift 2
  mkdir "$dir"
  (cd "$dir" && env "$@" ../dumper "$mode" >out.txt 2>err.txt) || true
}

files() { (cd "$1" && ls -- *.mipraw 2>/dev/null | sort | tr '\n' ' '); }
BOTH="default.$LIB_ID.mipraw default.mipraw "

# 1. mip_dump then _exit: both images' profiles, complete
run dump dump
check_files() {
  [ "$(files "$1")" = "$BOTH" ] && pass "$2: both images written" ||
    fail "$2: files '$(files "$1")'"
}
check_files dump "mip_dump, _exit"
got=$(counts dump)
[ "$got" = "4 3 1 0 1" ] && pass "mip_dump, _exit: all calls counted ($got)" ||
  fail "mip_dump, _exit: calls '$got'"
[ "$(cat dump/out.txt)" = "dump 0 errno 1234" ] && [ ! -s dump/err.txt ] &&
  pass "mip_dump returns 0, keeps errno, says nothing" ||
  fail "mip_dump: $(cat dump/out.txt) $(cat dump/err.txt)"

# 2. called from inside the library, it writes the executable's too
run libdump libdump
check_files libdump "mip_dump from the library"
got=$(counts libdump)
[ "$got" = "4 3 1 1 1" ] && pass "mip_dump from the library: all calls counted ($got)" ||
  fail "mip_dump from the library: calls '$got'"

# 3. twice: the second replaces the first and holds everything since start
run twice twice
got=$(counts twice)
[ "$got" = "8 6 2 0 1" ] &&
  [ "$(cat twice/out.txt | tr '\n' ' ')" = "dump 0 errno 1234 dump 0 errno 1234 " ] &&
  pass "two dumps: the file holds everything, not reset ($got)" ||
  fail "two dumps: calls '$got', $(cat twice/out.txt)"

# 4. from a signal handler
run signal signal
got=$(counts signal)
[ "$got" = "4 3 1 0 1" ] && [ "$(cat signal/out.txt)" = "dump 0 errno 1234" ] &&
  pass "mip_dump in a signal handler ($got)" ||
  fail "mip_dump in a signal handler: calls '$got', $(cat signal/out.txt)"

# 5. an unwritable name: -1 and one line per image
run fails dump MIP_PROFILE_FILE=/proc/no/such/x.mipraw
[ "$(cat fails/out.txt)" = "dump -1 errno 1234" ] &&
  [ "$(grep -c "^mip: cannot write profile '/proc/no/such/x" fails/err.txt)" = 2 ] &&
  [ "$(wc -l <fails/err.txt)" = 2 ] &&
  pass "unwritable: mip_dump returns -1, one line per image" ||
  fail "unwritable: $(cat fails/out.txt) / $(cat fails/err.txt)"

# 6. normal exit: written at exit; with dump_at_exit=0 nothing is
run atexit exit
check_files atexit "exit"
run noexit exit MIP_OPTIONS=dump_at_exit=0
[ -z "$(files noexit)" ] && [ ! -s noexit/err.txt ] &&
  pass "dump_at_exit=0: nothing written at exit" ||
  fail "dump_at_exit=0: '$(files noexit)' $(cat noexit/err.txt)"
run nodumpexit dump MIP_OPTIONS=dump_at_exit=0
check_files nodumpexit "dump_at_exit=0 with mip_dump"

# 7. verbose=1: one line per file, with its size
run verbose exit MIP_OPTIONS=verbose=1
ok=1
for f in default.mipraw "default.$LIB_ID.mipraw"; do
  size=$(stat -c %s "verbose/$f" 2>/dev/null || echo none)
  grep -qx "mip: wrote profile '$f' ($size bytes)" verbose/err.txt || ok=0
done
[ "$ok" = 1 ] && [ "$(wc -l <verbose/err.txt)" = 2 ] &&
  pass "verbose=1: $(tr '\n' ';' <verbose/err.txt)" ||
  fail "verbose=1: $(cat verbose/err.txt)"

# 8. an unknown key and a bad value: one line each for the process (two
# images read MIP_OPTIONS), the rest still applied
run unknown exit "MIP_OPTIONS=bogus=1:verbose=1:dump_at_exit=yes"
want="mip: MIP_OPTIONS: unknown option 'bogus' (ignored)
mip: MIP_OPTIONS: dump_at_exit wants 0 or 1, not 'yes' (ignored)"
[ "$(grep -v "^mip: wrote" unknown/err.txt)" = "$want" ] &&
  [ "$(grep -c "^mip: wrote" unknown/err.txt)" = 2 ] &&
  [ "$(files unknown)" = "$BOTH" ] &&
  pass "unknown option and bad value: reported once, ignored" ||
  fail "unknown option: $(cat unknown/err.txt)"

# 9. the same source without MIP: mip_dump is a weak null, and it links
"$CLANG" -O2 -DNO_LIB -I"$INCLUDE" "$PROGS/main.c" -o plain
mkdir plainrun
out=$(cd plainrun && ../plain dump)
[ "$out" = "no mip_dump" ] && [ -z "$(ls plainrun)" ] &&
  pass "without MIP: builds, links, mip_dump is null" || fail "without MIP: $out"

if ls ./*/*.tmp.* >/dev/null 2>&1; then
  fail "temporary files left behind"
else
  pass "no temporary files left behind"
fi

finish
