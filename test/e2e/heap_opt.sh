#!/bin/sh
# One context per allocation site whatever the optimizer does to the code
# around it: progs/heap_opt calls every allocator from one C function and
# operator new and new[] from one C++ function, in the shapes that invite
# merging (switch arms, if/else arms with one tail, one allocator twice),
# built at every optimization level, linked by lld with identical code
# folding, and under ThinLTO and full LTO (instrumented at the link). Each
# build's blocks and bytes per site must equal valgrind DHAT's, and each
# context's first frame must be its site's line.
#   test/e2e/heap_opt.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$TMP"
SRC=$HERE/progs/heap_opt
ROUNDS=2000
# Its allocation calls, one a line.
SITES=$(grep -hcE '= (malloc|calloc|realloc|aligned_alloc|memalign|valloc)\(|posix_memalign\(|= new ' \
  "$SRC/allocs.c" "$SRC/news.cpp" | awk '{ n += $1 } END { print n }')

# build NAME CC CXX COMPILE-FLAGS FLAGS...: NAME from both sources, each
# compiled with COMPILE-FLAGS and FLAGS but the linker's (-fuse-ld=,
# -Wl,), and linked with FLAGS
build() {
  build_name=$1 build_cc=$2 build_cxx=$3 build_compile=$4
  shift 4
  for flag; do
    case $flag in
    -fuse-ld=* | -Wl,*) ;;
    *) build_compile="$build_compile $flag" ;;
    esac
  done
  # shellcheck disable=SC2086 # flag lists
  "$build_cc" -c $build_compile "$SRC/allocs.c" -o "$build_name.allocs.o" &&
    "$build_cxx" -c $build_compile "$SRC/news.cpp" -o "$build_name.news.o" &&
    "$build_cxx" "$@" "$build_name.allocs.o" "$build_name.news.o" -o "$build_name"
}

# heap_sites NAME [RUNNER]: runs the heap build NAME (under RUNNER) into
# NAME.json (show --heap) and NAME.mip-sites
heap_sites() {
  # shellcheck disable=SC2086 # RUNNER is a command and its arguments
  MIP_PROFILE_FILE=$1.mipraw ${2:-} "./$1" $ROUNDS >"$1.out"
  mip_profile --debug "$1" "$1.mip" "$1.mipraw"
  mip_show "$1.mip" --heap >"$1.json"
  mip_sites "$1.json" >"$1.mip-sites"
}

# check_sites NAME WHAT TRUTH: NAME's blocks and bytes per site against
# TRUTH's (DHAT's), and each context's first frame on its site's line.
check_sites() {
  name=$1 what=$2 truth=$3
  n=$(wc -l <"$name.mip-sites")
  if [ "$n" -eq "$SITES" ] && cmp -s "$name.mip-sites" "$truth"; then
    pass "$what: blocks and bytes equal DHAT's at all $n sites"
  else
    fail "$what: sites differ from DHAT's (site blocks bytes; < DHAT, > MIP):"
    diff "$truth" "$name.mip-sites" | sed 's/^/     /'
  fi
  jq -r '.heap[] | select(.site != null)
         | "\(.site.file):\(.site.line) \(.frames[0].file):\(.frames[0].line)"' \
    "$name.json" | sed "s|$SRC/||g" | sort -u >"$name.lines"
  if awk -v n="$SITES" '$1 != $2 { bad = 1 } END { exit bad || NR != n }' "$name.lines"; then
    pass "$what: every context's first frame is its site's line"
  else
    fail "$what: first frames on other lines than their sites (site frame):"
    awk '$1 != $2' "$name.lines" | sed 's/^/     /'
  fi
}

# compare NAME FLAGS...: the heap build's sites against DHAT's on the
# plain build, both with FLAGS (DHAT reads DWARF 4 only)
compare() {
  name=$1
  shift
  build "$name" "$MIPCC" "$MIPCXX" "" -fmip-generate=heap -gdwarf-4 "$@"
  # Without hooks between them, branch folding merges the allocation
  # calls themselves, and DHAT would see one site where the source has
  # several: the plain build keeps them apart.
  build "$name.dhat" "$CLANG" "$CLANGXX" "-mllvm -enable-tail-merge=false" -gdwarf-4 "$@"
  heap_sites "$name"
  valgrind --tool=dhat --dhat-out-file="$name.dhat.json" "./$name.dhat" $ROUNDS \
    >"$name.dhat.out" 2>"$name.dhat.log"
  dhat_sites "$name.dhat.json" "$SRC" >"$name.dhat-sites"
  check_sites "$name" "$name ($*)" "$name.dhat-sites"
}

compare O0 -O0
compare O1 -O1
compare O2 -O2
compare O3 -O3
compare Os -Os
compare Oz -Oz
compare icf -O2 -fuse-ld=lld -Wl,--icf=all
compare icf-Oz -Oz -fuse-ld=lld -Wl,--icf=all
# Under LTO the link instruments the code it generates, after inlining
# across units. The program allocates what it does at -O0, so DHAT's
# sites of the -O0 build hold: DHAT on a plain LTO build charges the
# malloc of allocs.c:18 to news.cpp:18, the line of touch(), inlined
# across units, whose location the call got in code generation.
for lto in -flto=thin -flto; do
  build "lto$lto" "$MIPCC" "$MIPCXX" "" -fmip-generate=heap -gdwarf-4 -O2 $lto -fuse-ld=lld
  heap_sites "lto$lto"
  check_sites "lto$lto" "-O2 $lto" O0.dhat-sites
done

# AArch64 under qemu-user, where -Oz also outlines code (the machine
# outliner): the program allocates what it does on x86-64, so DHAT's
# sites of the x86-64 -O0 build hold.
TRIPLE=aarch64-linux-gnu
if command -v qemu-aarch64 >/dev/null && [ -e "$BUILD/lib/mip/$TRIPLE/libmip_rt.a" ] &&
  ls /usr/lib/gcc-cross/$TRIPLE/*/libstdc++.so >/dev/null 2>&1; then
  for level in -O2 -Oz; do
    build "a64$level" "$MIPCC" "$MIPCXX" "" --target=$TRIPLE -fuse-ld=lld \
      -fmip-generate=heap -g $level
    heap_sites "a64$level" "qemu-aarch64 -L /usr/$TRIPLE"
    check_sites "a64$level" "AArch64 $level" O0.dhat-sites
  done
else
  echo "skipped: AArch64 (qemu-aarch64, the arm64 cross libraries, the AArch64 runtime)"
fi

finish
