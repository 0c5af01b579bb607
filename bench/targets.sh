#!/bin/bash
# bench/targets.sh: what MIP's coverage mode adds to a program's size on
# each target, side by side (markdown on stdout): x86-64 (the host, its
# default linker), AArch64 and Armv7 (Thumb-2) cross-built with lld, when
# their cross libraries and runtimes are there (scripts/install-deps,
# then make). For each program, plain and mip (-fmip-generate): the
# stripped file and the loaded bytes (text, data and bss as the sections
# say, less lld's .relro_padding, page padding that neither the file nor
# the program holds); mip's growth over plain; the fixed part (the empty
# program's growth: the runtime) and the per-function part (the rest of
# the growth over the functions MIP instruments); and the budget, 8 B a
# function + 8 KiB, in loaded bytes. And mip-shared, the same linked
# with -fmip-shared-runtime: what each image keeps when libmip_rt.so
# (not counted: once per process) does the rest.
#   bench/targets.sh                       # empty sqlite3 lua bzip2 zstd
#   BENCH_PROGRAMS="bzip2" bench/targets.sh
#   BENCH_SHARED=0 bench/targets.sh        # no mip-shared (a MIP without it)
# Sizes only: no run, no time.
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"

PROGRAMS=${BENCH_PROGRAMS:-$ALL_PROGRAMS zstd}
TARGETS=${BENCH_TARGETS:-x86_64-linux-gnu aarch64-linux-gnu armv7a-linux-gnueabihf}
T=${BENCH_TARGETS_DIR:-$B/targets} # another MIPCC: another directory
LLVM_STRIP=$LLVM_DIR/bin/llvm-strip
mkdir -p "$T"

# Whether TRIPLE can be built here: the host, or a cross C library and
# MIP's runtime for it.
target_ok() {
  [ "$1" = x86_64-linux-gnu ] && return 0
  local sysroot=/usr/${1/#armv7a-/arm-}
  [ -e "$sysroot/lib/crt1.o" ] && [ -e "$BUILD/lib/mip/$1/libmip_rt.a" ]
}
# Armv7: Thumb-2 in every configuration, as Debian's armhf compilers and
# mipcc (docs/instrumentation.md, "Armv7") compile it.
target_flags() {
  [ "$1" = x86_64-linux-gnu ] || printf '%s ' "--target=$1" -fuse-ld=lld
  case $1 in armv7*) printf '%s ' -mthumb ;; esac
}

build_one() { # TRIPLE PROG CONFIG (plain, mip, mip-shared)
  load_program "$2"
  config_flags "${3%-shared}"
  [ "$3" = "${3%-shared}" ] || CC_CMD+=(-fmip-shared-runtime)
  local out=$T/$1/$2.$3
  mkdir -p "$T/$1"
  # shellcheck disable=SC2046,SC2086
  (cd "$PROG_DIR" && "${CC_CMD[@]}" $(target_flags "$1") -O2 $PROG_CFLAGS \
    $PROG_SRCS $PROG_LIBS -o "$out") >"$out.log" 2>&1 ||
    { tail -n 20 "$out.log" >&2; die "$2/$3 for $1: build failed (log: $out.log)"; }
  "$LLVM_STRIP" -o "$out.stripped" "$out"
}

# loaded FILE: the bytes of its allocated sections (flag A), less
# .relro_padding.
loaded() {
  "$READELF" -S -W "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
    awk '$7 ~ /A/ && $1 != ".relro_padding" { print $1 }' >"$T/alloc"
  "$SIZE" -A "$1" | awk 'NR == FNR { alloc[$1]; next } $1 in alloc { t += $2 }
    END { print t + 0 }' "$T/alloc" -
}
file_size() { stat -c %s "$1"; }
per() { awk -v a="$1" -v n="$2" 'BEGIN { printf "%.1f", n ? a / n : 0 }'; }

echo "## Sizes on every target"
echo
echo "Plain and mip (\`-fmip-generate\`), \`-O2\`: stripped file and loaded bytes" \
  "(text, data and bss, without lld's \`.relro_padding\`), and mip's growth. Fixed: the" \
  "empty program's growth (the runtime); per function: the rest of a program's growth" \
  "over the functions MIP instruments. Budget: 8 B a function + 8 KiB, loaded."
echo
echo "| target | program | functions | plain file | plain loaded | mip file | mip loaded | per function (loaded) | budget | mip-shared file | mip-shared loaded |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"
for t in $TARGETS; do
  if ! target_ok "$t"; then
    echo "| $t | skipped: no cross libraries or no $BUILD/lib/mip/$t | | | | | | | | | |"
    continue
  fi
  fixed=
  for p in empty $PROGRAMS; do
    load_program "$p"
    [ -z "$PKG" ] || "$BENCH_DIR/fetch.sh" "$PKG"
    prog_prepare "$PROG_DIR"
    build_one "$t" "$p" plain
    build_one "$t" "$p" mip
    [ "${BENCH_SHARED:-1}" = 0 ] || build_one "$t" "$p" mip-shared
    b=$T/$t/$p
    funcs=$(mip_functions "$b.mip")
    pf=$(file_size "$b.plain.stripped") pl=$(loaded "$b.plain.stripped")
    gf=$(($(file_size "$b.mip.stripped") - pf)) gl=$(($(loaded "$b.mip.stripped") - pl))
    [ -n "$fixed" ] || fixed=$gl
    budget=$((8 * funcs + 8192))
    if [ "$gl" -le "$budget" ]; then met="met ($gl of $budget)"; else met="**not met** ($gl of $budget)"; fi
    if [ "$p" = empty ]; then pfn="fixed: $gl"; else pfn=$(per $((gl - fixed)) "$funcs"); fi
    shared="| |"
    [ "${BENCH_SHARED:-1}" = 0 ] ||
      shared="+$(($(file_size "$b.mip-shared.stripped") - pf)) | +$(($(loaded "$b.mip-shared.stripped") - pl)) |"
    echo "| $t | $p | $funcs | $pf | $pl | +$gf | +$gl | $pfn | $met | $shared"
  done
done
echo
