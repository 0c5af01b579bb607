#!/bin/sh
# make install and make uninstall, used as a packager and a user would:
# a staged install (DESTDIR) under a prefix, the installed mipcc and
# mipdata profiling a program that includes <mip/mip.h> through
# pkg-config, the man pages, and an uninstall that leaves nothing.
#
#   test/driver/install.sh BUILD_DIR      (run from the top of the tree)
#
# Prints one line per check; exits 1 if any failed.
if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
BUILD_ARG=$1
BUILD=$(cd "$1" && pwd -P) || exit 2
. "$(dirname "$0")/../e2e/lib.sh"
unset MIP_PROFILE_FILE MIP_OPTIONS MIP_LIBDIR MIP_MIPDATA MAKEFLAGS MFLAGS MAKELEVEL
make_tmp
ROOT=$TMP/stage
PREFIX=/opt/mip
INSTALLED=$ROOT$PREFIX
PROG=$(cd "$(dirname "$0")/progs/install" && pwd)

run_make() {
  make -s --no-print-directory BUILD="$BUILD_ARG" DESTDIR="$ROOT" \
    PREFIX="$PREFIX" "$@" >"$TMP/make.out" 2>&1
}

if run_make install; then
  pass "make install DESTDIR=... PREFIX=$PREFIX"
else
  fail "make install"; sed 's/^/     | /' "$TMP/make.out"; finish; exit
fi

missing=
for f in bin/mipcc bin/mipc++ bin/mipdata lib/mip/libmip.so lib/mip/libmip_rt.a \
  lib/mip/mip_interpose.o lib/mip/mip_interpose_shared.o lib/mip/mip_continuous.o \
  lib/mip/libmip_alloc.a \
  include/mip/mip.h include/mip/alloc.h lib/pkgconfig/mip.pc \
  share/man/man1/mipcc.1 share/man/man1/mipc++.1 share/man/man1/mipdata.1 \
  share/doc/mip/mipdata.md; do
  [ -e "$INSTALLED/$f" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then pass "installed: the tools, libraries, headers, pkg-config file, man pages, docs"
else fail "installed: missing$missing"; fi

# pkg-config gives the staged header directory (the sysroot is the stage).
cflags=$(PKG_CONFIG_PATH=$INSTALLED/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$ROOT \
  pkg-config --cflags mip 2>"$TMP/pc.err" | sed "s/ *$//")
version=$(PKG_CONFIG_PATH=$INSTALLED/lib/pkgconfig pkg-config --modversion mip 2>>"$TMP/pc.err")
plugin=$(PKG_CONFIG_PATH=$INSTALLED/lib/pkgconfig pkg-config --variable=plugin mip 2>>"$TMP/pc.err")
if [ "$cflags" = "-I$INSTALLED/include" ] && [ -n "$version" ] &&
  [ "$plugin" = "$PREFIX/lib/mip/libmip.so" ]; then
  pass "pkg-config mip: --cflags, --modversion $version, the plugin's path"
else
  fail "pkg-config mip: cflags '$cflags', version '$version', plugin '$plugin' $(cat "$TMP/pc.err")"
fi

# The installed driver finds its plugin and runtime beside itself, and the
# installed mipdata reads what the program wrote.
cd "$TMP"
if "$INSTALLED/bin/mipcc" -O2 -fmip-generate $cflags -c "$PROG/main.c" -o main.o &&
  "$INSTALLED/bin/mipcc" -O2 -fmip-generate -c "$PROG/twice.c" -o twice.o &&
  "$INSTALLED/bin/mipcc" main.o twice.o -o prog 2>"$TMP/build.err" &&
  MIP_OPTIONS=dump_at_exit=0 ./prog >/dev/null &&
  "$INSTALLED/bin/mipdata" extract prog -o prog.mipmap >/dev/null &&
  "$INSTALLED/bin/mipdata" create -p prog.mip prog.mipmap &&
  "$INSTALLED/bin/mipdata" merge -p prog.mip default.mipraw &&
  "$INSTALLED/bin/mipdata" show -p prog.mip --format json >show.json; then
  covered=$(jq -r '[.functions[] | select(.covered) | .name] | sort | join(" ")' show.json)
  if [ "$covered" = "main twice" ]; then
    pass "installed mipcc and mipdata: a program using mip_dump() profiles (covered: $covered)"
  else
    fail "installed tools: covered '$covered', expected 'main twice'"
  fi
else
  fail "installed tools: the build, the run or the pipeline failed: $(cat "$TMP/build.err")"
fi

said=$("$INSTALLED/bin/mipdata" --version 2>&1)
case $said in
  "mipdata (MIP) $version, built for LLVM "[0-9]*) pass "installed mipdata --version: $said" ;;
  *) fail "installed mipdata --version: '$said' (pkg-config says '$version')" ;;
esac

man_ok=yes
for page in mipcc mipc++ mipdata; do
  file=$INSTALLED/share/man/man1/$page.1
  [ -L "$file" ] && file=$INSTALLED/share/man/man1/$(readlink "$file")
  warnings=$(groff -man -ww -z "$file" 2>&1)
  name=$(MANWIDTH=80 man -l "$file" 2>/dev/null | sed -n '/^NAME/{n;p;q}')
  case $name in *"${page%%+*}"*" - "*) ;; *) man_ok="no ($page: '$name')" ;; esac
  [ -z "$warnings" ] || man_ok="no ($page: $warnings)"
done
if [ "$man_ok" = yes ]; then pass "man pages: render without warnings, NAME lines"
else fail "man pages: $man_ok"; fi

cd - >/dev/null
if run_make uninstall; then
  left=$(find "$ROOT" ! -type d | sed "s|^$ROOT||")
  if [ -z "$left" ]; then pass "make uninstall: no file left"
  else fail "make uninstall left: $left"; fi
else
  fail "make uninstall"; sed 's/^/     | /' "$TMP/make.out"
fi

# WERROR=0: a distribution build keeps the warnings, not their errors.
if make -n -B --no-print-directory BUILD="$BUILD_ARG" WERROR=0 "$BUILD_ARG/obj/lib/buf.o" |
    grep -q -- '-Wall' &&
  ! make -n -B --no-print-directory BUILD="$BUILD_ARG" WERROR=0 "$BUILD_ARG/obj/lib/buf.o" |
    grep -q -- '-Werror' &&
  make -n -B --no-print-directory BUILD="$BUILD_ARG" "$BUILD_ARG/obj/lib/buf.o" | grep -q -- '-Werror'; then
  pass "WERROR=0 drops -Werror, keeps -Wall; the default keeps -Werror"
else
  fail "WERROR switch"
fi
finish
