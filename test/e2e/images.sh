#!/bin/sh
# Several images in one process: an executable, an instrumented shared
# library it links, and an instrumented plug-in it dlopens, calls and
# dlcloses. Each writes its own raw profile (named by %m when the pattern
# does not say), and one `mipdata merge` with a -p per image sorts them.
#   test/e2e/images.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
PROGS=$HERE/progs/images
make_tmp
cd "$TMP"

MODES=-fmip-generate=counts,order
"$MIPCC" $MODES -O2 -shared -fPIC "$PROGS/foo.c" -o libfoo.so
"$MIPCC" $MODES -O2 -shared -fPIC "$PROGS/plug.c" -o libplug.so
"$MIPCC" $MODES -O2 "$PROGS/main.c" -I"$PROGS" -L. -lfoo \
  -Wl,-rpath,'$ORIGIN' -o app
# The plug-in once more, without a build-id: %m is then a hash of its path.
"$MIPCC" $MODES -O2 -shared -fPIC -Wl,--build-id=none "$PROGS/plug.c" \
  -o libplug-noid.so

build_id() { readelf -n "$1" | sed -n 's/.*Build ID: //p'; }
id16() { build_id "$1" | cut -c1-16; }
APP_ID=$(id16 app)
FOO_ID=$(id16 libfoo.so)
PLUG_ID=$(id16 libplug.so)

# The expected %m of an image without a build-id: 64-bit FNV-1a of the
# path the dynamic loader reports (here, the one given to dlopen).
cat >fnv1a.c <<'C'
#include <stdint.h>
#include <stdio.h>
int main(int argc, char **argv) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const char *p = argc > 1 ? argv[1] : ""; *p; p++)
    h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
  printf("%016llx\n", (unsigned long long)h);
  return 0;
}
C
"$CLANG" -O2 fnv1a.c -o fnv1a

# show PROFILE NAME FIELD: one field of one function in `mipdata show`
show() {
  mip_show "$1" >"$1.json"
  mip_field "$1.json" "$2" "$3"
}

# 1. one run: three files, the executable's under the exact name
mkdir run1
(cd run1 && ../app "$TMP/libplug.so" >out.txt 2>err.txt)
files=$(cd run1 && ls -- *.mipraw | sort | tr '\n' ' ')
want=$(printf '%s\n' default.mipraw "default.$FOO_ID.mipraw" \
  "default.$PLUG_ID.mipraw" | sort | tr '\n' ' ')
[ "$files" = "$want" ] && pass "three raw files: $files" ||
  fail "raw files: '$files', want '$want'"
[ ! -s run1/err.txt ] && pass "nothing on stderr" ||
  fail "stderr: $(cat run1/err.txt)"
grep -qx "after dlclose: 1 raw files" run1/out.txt &&
  pass "the plug-in's profile is written at dlclose, before exit" ||
  fail "at dlclose: $(cat run1/out.txt)"

# 2. a map and a profile per image; one merge with three -p
for image in app libfoo.so libplug.so; do
  mip_create "$image" "$image.mip"
done
if (cd run1 && "$MIPDATA" merge -p ../app.mip -p ../libfoo.so.mip \
  -p ../libplug.so.mip -- *.mipraw) 2>err.txt; then
  pass "merge with three -p"
else
  fail "merge with three -p: $(cat err.txt)"
fi
# image function calls order covered_runs
while read -r image name calls order covered; do
  got="$(show "$image.mip" "$name" calls) $(show "$image.mip" "$name" order) $(show "$image.mip" "$name" covered_runs)"
  [ "$got" = "$calls $order $covered" ] &&
    pass "$image $name: calls/order/covered $got" ||
    fail "$image $name: calls/order/covered '$got', want '$calls $order $covered'"
done <<'T'
app main 1 1 1
app app_only 3 2 1
app app_unused 0 null 0
libfoo.so foo_add 11 1 1
libfoo.so foo_twice 1 2 1
libfoo.so foo_unused 0 null 0
libplug.so plug_run 5 1 1
libplug.so plug_helper 5 2 1
libplug.so plug_unused 0 null 0
libplug.so plug_unused_too 0 null 0
T
runs="$(mip_show app.mip | jq .runs) $(mip_show libfoo.so.mip | jq .runs) $(mip_show libplug.so.mip | jq .runs)"
[ "$runs" = "1 1 1" ] && pass "one run in each profile" || fail "runs: $runs"

# 3. one -p: the other images' raws are refused, naming both build-ids,
# and nothing is written
cp app.mip app-before.mip
if (cd run1 && "$MIPDATA" merge -p ../app.mip -- default.mipraw \
  "default.$FOO_ID.mipraw") 2>err.txt; then
  fail "merge with one -p accepted the libraries' raws"
elif [ "$(cat err.txt)" = "mipdata: default.$FOO_ID.mipraw: from another build: build-id $(build_id libfoo.so), but ../app.mip is for build-id $(build_id app)" ] &&
  cmp -s app.mip app-before.mip; then
  pass "one -p refuses a library's raw: $(cat err.txt)"
else
  fail "one -p: $(cat err.txt)"
fi

# 4. several -p, a raw that no profile takes: an error naming the file and
# its build-id, nothing written; --skip-other-builds skips it with one
# warning line and merges the rest
cp libfoo.so.mip libfoo-before.mip
if (cd run1 && "$MIPDATA" merge -p ../app.mip -p ../libfoo.so.mip -- *.mipraw) 2>err.txt; then
  fail "a raw of no profile's build accepted"
elif [ "$(cat err.txt)" = "mipdata: default.$PLUG_ID.mipraw: build-id $(build_id libplug.so) matches no profile given (../app.mip, ../libfoo.so.mip)" ] &&
  cmp -s app.mip app-before.mip && cmp -s libfoo.so.mip libfoo-before.mip; then
  pass "raw of no profile's build: $(cat err.txt); nothing written"
else
  fail "raw of no profile's build: $(cat err.txt)"
fi
if (cd run1 && "$MIPDATA" merge --skip-other-builds -p ../app.mip \
  -p ../libfoo.so.mip -- *.mipraw) 2>err.txt &&
  [ "$(wc -l <err.txt)" = 1 ] &&
  grep -q "^mipdata: warning: default.$PLUG_ID.mipraw: build-id $(build_id libplug.so) matches no profile given .*; skipped$" err.txt &&
  [ "$(show app.mip main calls) $(show libfoo.so.mip foo_add calls)" = "2 22" ]; then
  pass "--skip-other-builds: one warning, the rest merged"
else
  fail "--skip-other-builds: $(cat err.txt); main $(show app.mip main calls)"
fi
if (cd run1 && "$MIPDATA" merge --skip-other-builds -p ../app.mip \
  -- "default.$PLUG_ID.mipraw") 2>err.txt; then
  fail "--skip-other-builds with nothing to merge exited 0"
else
  pass "--skip-other-builds with nothing to merge: $(tail -1 err.txt)"
fi

# 5. a build-id-less profile (from a bare map section) takes what no
# profile claims by build-id, when the layout matches (the plug-in has one
# function more than libfoo, so their layouts differ)
objcopy --dump-section .debug_mip=plug.section libplug.so
"$MIPDATA" create -p plug-bare.mip plug.section
"$MIPDATA" create -p app2.mip app.mipmap
if (cd run1 && "$MIPDATA" merge -p ../app2.mip -p ../plug-bare.mip \
  -- default.mipraw "default.$PLUG_ID.mipraw") 2>err.txt &&
  [ "$(show plug-bare.mip plug_run calls) $(show app2.mip main calls)" = "5 1" ]; then
  pass "a profile without a build-id takes the raw that matches its layout"
else
  fail "profile without a build-id: $(cat err.txt)"
fi
if (cd run1 && "$MIPDATA" merge -p ../app2.mip -p ../plug-bare.mip \
  -- "default.$FOO_ID.mipraw") 2>err.txt; then
  fail "a profile without a build-id took a raw of another layout"
else
  pass "a raw of another layout is not taken: $(cat err.txt)"
fi

# 6. %p: separate files per image and per run
mkdir run2
(cd run2 && MIP_PROFILE_FILE='run-%p.mipraw' ../app "$TMP/libplug.so" >/dev/null &&
  MIP_PROFILE_FILE='run-%p.mipraw' ../app "$TMP/libplug.so" >/dev/null)
pids=$(cd run2 && ls | sed -n 's/^run-\([0-9]*\)\.mipraw$/\1/p' | tr '\n' ' ')
set -- $pids
ok=0
if [ $# = 2 ] && [ "$(ls run2 | wc -l)" = 6 ]; then
  ok=1
  for pid in "$@"; do
    for f in "run-$pid.mipraw" "run-$pid.$FOO_ID.mipraw" "run-$pid.$PLUG_ID.mipraw"; do
      [ -s "run2/$f" ] || ok=0
    done
  done
fi
[ "$ok" = 1 ] && pass "two runs with %p: 6 files, 3 per run: $(ls run2 | tr '\n' ' ')" ||
  fail "two runs with %p: $(ls run2 | tr '\n' ' ')"

# 7. %m in the pattern: every image, the executable included, by identity
mkdir run3
(cd run3 && MIP_PROFILE_FILE='out/%m.raw' ../app "$TMP/libplug.so" >/dev/null)
files=$(cd run3/out && ls | sort | tr '\n' ' ')
want=$(printf '%s.raw\n' "$APP_ID" "$FOO_ID" "$PLUG_ID" | sort | tr '\n' ' ')
[ "$files" = "$want" ] && pass "%m: $files" || fail "%m gave '$files', want '$want'"

# 8. an image without a build-id: %m is the hash of its path
mkdir run4
(cd run4 && ../app ../libplug-noid.so >/dev/null)
want="default.$(./fnv1a ../libplug-noid.so).mipraw"
[ -s "run4/$want" ] && pass "no build-id: $want" ||
  fail "no build-id: $(ls run4 | tr '\n' ' '), want $want"

# 9. names without an extension, and hidden names, get .%m appended
mkdir run5
(cd run5 && MIP_PROFILE_FILE=prof ../app "$TMP/libplug.so" >/dev/null &&
  MIP_PROFILE_FILE=d.x/.raw ../app "$TMP/libplug.so" >/dev/null)
files=$(cd run5 && find . -type f | sort | tr '\n' ' ')
want=$(printf '%s\n' ./prof "./prof.$FOO_ID" "./prof.$PLUG_ID" ./d.x/.raw \
  "./d.x/.raw.$FOO_ID" "./d.x/.raw.$PLUG_ID" | sort | tr '\n' ' ')
[ "$files" = "$want" ] && pass "no extension: $files" ||
  fail "no extension: '$files', want '$want'"

# 10. a name that is a device or a FIFO takes every image's profile as it
# is: nothing is inserted, no file is made beside it.
(MIP_PROFILE_FILE=/dev/null ./app "$TMP/libplug.so" >/dev/null)
beside=$(ls -d "/dev/null.$FOO_ID" "/dev/null.$PLUG_ID" 2>/dev/null | tr '\n' ' ')
rm -f "/dev/null.$FOO_ID" "/dev/null.$PLUG_ID"
[ -z "$beside" ] && pass "/dev/null: no file beside it" ||
  fail "/dev/null: files made beside it: $beside"
mkdir run6
mkfifo run6/p.fifo
cat run6/p.fifo >fifo.got &
reader=$!
exec 4>run6/p.fifo # holds the FIFO open between the images' writes
(MIP_PROFILE_FILE=run6/p.fifo ./app "$TMP/libplug.so" >/dev/null)
exec 4>&-
wait "$reader"
want=$(cat run3/out/*.raw | wc -c)
[ "$(ls run6)" = p.fifo ] && [ "$(wc -c <fifo.got)" = "$want" ] &&
  pass "a FIFO: the reader got the three images' profiles ($want bytes), no file beside it" ||
  fail "a FIFO: $(wc -c <fifo.got) bytes read, want $want; run6 holds $(ls run6 | tr '\n' ' ')"

if ls run*/*.tmp.* >/dev/null 2>&1; then
  fail "temporary files left behind"
else
  pass "no temporary files left behind"
fi

finish
