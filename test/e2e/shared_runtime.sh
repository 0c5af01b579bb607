#!/bin/sh
# The shared runtime (mipcc -fmip-shared-runtime): libmip_rt.so once for
# the process, each image keeping its counters, note and registration
# (mip_rt_image.o). The images of test/e2e/images.sh (an executable, a
# library it links, a plug-in it dlopens and dlcloses) built so:
#   1. each writes its own profile, the plug-in's at dlclose, with the
#      counts the runtime linked into each image gives;
#   2. a forked child writes its own files, its counters zeroed;
#      mip_dump() writes every image's profile; MIP_OPTIONS is read;
#      pool mode merges; %c says it is not continuous, once per image;
#   3. what an image keeps of the runtime: the empty program's growth over
#      plain, in loaded bytes, under 1 KiB (the budget's fixed part is
#      8 KiB);
#   4. heap, order, edges and continuous modes, whose state is the
#      image's own, are refused at the link.
#   test/e2e/shared_runtime.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
PROGS=$HERE/progs/images
make_tmp
cd "$TMP"
SIZE=$LLVM_BIN/llvm-size

# build DIR FLAGS...: the three images into DIR
build() {
  dir=$1
  shift
  mkdir -p "$dir"
  "$MIPCC" "$@" -O2 -shared -fPIC "$PROGS/foo.c" -o "$dir/libfoo.so"
  "$MIPCC" "$@" -O2 -shared -fPIC "$PROGS/plug.c" -o "$dir/libplug.so"
  "$MIPCC" "$@" -O2 "$PROGS/main.c" -I"$PROGS" -L"$dir" -lfoo \
    -Wl,-rpath,'$ORIGIN' -o "$dir/app"
}
build shared -fmip-generate=counts -fmip-shared-runtime
build linked -fmip-generate=counts
id16() { readelf -n "$1" | sed -n 's/.*Build ID: //p' | cut -c1-16; }

expect_eq "the images need libmip_rt.so" \
  "$(readelf -d shared/app shared/libfoo.so shared/libplug.so | grep -c 'NEEDED.*libmip_rt.so')" 3

# 1. one run: three files, the plug-in's before exit
for how in shared linked; do
  mkdir "$how/run"
  (cd "$how/run" && ../app "$TMP/$how/libplug.so" >out.txt 2>err.txt)
done
files=$(cd shared/run && ls -- *.mipraw | sort | tr '\n' ' ')
want=$(printf '%s\n' default.mipraw "default.$(id16 shared/libfoo.so).mipraw" \
  "default.$(id16 shared/libplug.so).mipraw" | sort | tr '\n' ' ')
expect_eq "three raw files" "$files" "$want"
expect_eq "nothing on stderr" "$(cat shared/run/err.txt)" ""
expect_eq "the plug-in's profile written at dlclose" \
  "$(grep -c 'after dlclose: 1 raw files' shared/run/out.txt)" 1
# calls of every function of IMAGE's profile, from the run in DIR
calls() {
  mip_create "$1/$2" "$1/$2.mip"
  (cd "$1/run" && "$MIPDATA" merge -p "../$2.mip" --skip-other-builds -- *.mipraw) 2>/dev/null
  mip_show "$1/$2.mip" | jq -c '[.functions[] | [.name, .calls]] | sort'
}
for image in app libfoo.so libplug.so; do
  got=$(calls shared "$image")
  expect_eq "$image: the counts of the runtime linked in" "$got" "$(calls linked "$image")"
done
case $(calls shared libfoo.so) in
*'["foo_add",11]'*) pass "libfoo.so: foo_add called 11 times" ;;
*) fail "libfoo.so: $(calls shared libfoo.so)" ;;
esac

# 2. fork, mip_dump, MIP_OPTIONS
cat >forks.c <<'C'
#include <mip/mip.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "foo.h"
int main(void) {
  foo_add(1, 2);
  pid_t child = fork();
  if (child == 0) {
    foo_twice(2);
    return 0;
  }
  waitpid(child, NULL, 0);
  printf("child %d\n", (int)child);
  printf("dump %d\n", mip_dump());
  return 0;
}
C
"$MIPCC" -fmip-generate=counts -fmip-shared-runtime -O2 forks.c -I"$PROGS" \
  -I"$HERE/../../include" -Lshared -lfoo -Wl,-rpath,"$TMP/shared" -o forks
mkdir forkrun
(cd forkrun && MIP_OPTIONS=dump_at_exit=0 ../forks >out.txt 2>err.txt)
child=$(sed -n 's/^child //p' forkrun/out.txt)
FOO=$(id16 shared/libfoo.so)
expect_eq "dump_at_exit=0: only what mip_dump() wrote (the parent's two images)" \
  "$(cd forkrun && ls -- *.mipraw | sort | tr '\n' ' ')" \
  "$(printf '%s\n' default.mipraw "default.$FOO.mipraw" | sort | tr '\n' ' ')"
expect_eq "mip_dump() returns 0" "$(sed -n 's/^dump //p' forkrun/out.txt)" 0
mkdir forkrun2
(cd forkrun2 && ../forks >out.txt 2>err.txt)
child=$(sed -n 's/^child //p' forkrun2/out.txt)
expect_eq "a forked child's files, with its pid" \
  "$(cd forkrun2 && ls -- *."$child".mipraw | sort | tr '\n' ' ')" \
  "$(printf '%s\n' "default.$child.mipraw" "default.$FOO.$child.mipraw" | sort | tr '\n' ' ')"
mip_create shared/libfoo.so foo.mip
(cd forkrun2 && "$MIPDATA" merge -p ../foo.mip -- "default.$FOO.$child.mipraw")
# foo_twice calls foo_add twice; the parent's call before the fork is not
# the child's
expect_eq "the child counts from zero" \
  "$(mip_show foo.mip | jq -c '[.functions[] | select(.name == "foo_add" or .name == "foo_twice") | [.name, .calls]] | sort')" \
  '[["foo_add",2],["foo_twice",1]]'

# pool mode is in libmip_rt.so; continuous mode is not, said once
mkdir poolrun
for i in 1 2; do
  (cd poolrun && MIP_OPTIONS=verbose=1 MIP_PROFILE_FILE="$TMP/poolrun/pooled/%1m.mipraw" \
    "$TMP/shared/app" >/dev/null 2>>err.txt)
done
expect_eq "pool mode: the second run merged into the first's file" \
  "$(grep -c "^mip: merged profile into '$TMP/poolrun/pooled/$(id16 shared/app)_0.mipraw' (2 runs)$" poolrun/err.txt)" 1
mkdir contrun
(cd contrun && MIP_PROFILE_FILE=prof%c.mipraw ../shared/app >/dev/null 2>err.txt)
expect_eq "%c: one line for each of the two images" "$(wc -l <contrun/err.txt)" 2
expect_eq "%c: the library's line" \
  "$(sort contrun/err.txt | head -n 1)" \
  "mip: cannot count into profile 'prof.$(id16 shared/libfoo.so).mipraw': linked with -fmip-shared-runtime, which has no continuous mode (it is written at exit instead)"
expect_eq "%c: the profiles written at exit" "$(cd contrun && ls -- *.mipraw | wc -l)" 2

# 3. the empty program: what an image keeps
printf 'int main(void) { return 0; }\n' >empty.c
"$CLANG" -O2 empty.c -o empty.plain
"$MIPCC" -fmip-generate -fmip-shared-runtime -O2 empty.c -o empty.shared
loaded() { "$SIZE" "$1" | awk 'NR == 2 { print $4 }'; }
growth=$(($(loaded empty.shared) - $(loaded empty.plain)))
if [ "$growth" -lt 1024 ]; then
  pass "empty program with the shared runtime: $growth bytes loaded over plain (< 1 KiB)"
else
  fail "empty program with the shared runtime: $growth bytes loaded over plain"
fi

# 4. refused
"$MIPCC" -fmip-generate=counts,order -O2 -c empty.c -o ordered.o
if "$MIPCC" -fmip-shared-runtime ordered.o -o refused 2>err.txt; then
  fail "an object built with order mode linked with -fmip-shared-runtime"
else
  pass "an object built with order mode refused: $(cat err.txt)"
fi
for flags in "-fmip-generate=heap" "-fmip-generate -fmip-continuous" \
  "-fmip-generate=edges"; do
  # shellcheck disable=SC2086
  if "$MIPCC" $flags -fmip-shared-runtime -O2 empty.c -o refused 2>err.txt; then
    fail "$flags -fmip-shared-runtime linked"
  else
    pass "$flags -fmip-shared-runtime refused: $(cat err.txt)"
  fi
done
finish
