#!/bin/bash
# bench/aarch64.sh: the AArch64 size tables of `make bench` (markdown on
# stdout), when the arm64 cross libraries are there (scripts/install-deps):
#   1. probe bytes per function, x86-64 and AArch64: a generated unit of
#      PROBE_FUNCTIONS small functions compiled -O2 -c in each mode; the
#      growth of .text (code) and of the writable sections (counters) over
#      the plain build, per function;
#   2. the stripped size of sqlite3, lua and bzip2 cross-built for
#      aarch64-linux-gnu with lld: plain, mip, mip-co, and LLVM's
#      pgo-cov and instr. Debian has no AArch64 build of LLVM's profile
#      runtime: those two link against an empty stand-in (and leave its
#      symbols undefined), so their sizes lack the runtime, which the
#      x86-64 table's "empty" row gives.
# Time under qemu says nothing about a real core: sizes only.
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"

TRIPLE=aarch64-linux-gnu
PROGRAMS=${BENCH_PROGRAMS:-$ALL_PROGRAMS}
PROBE_FUNCTIONS=1000
A64_CONFIGS="plain mip mip-co pgo-cov instr"
A=$B/aarch64
LLVM_STRIP=$LLVM_DIR/bin/llvm-strip

if [ ! -e "/usr/$TRIPLE/lib/crt1.o" ] || [ ! -e "$BUILD/lib/mip/$TRIPLE/libmip_rt.a" ]; then
  echo "## AArch64"
  echo
  echo "skipped: no arm64 cross libraries or no $BUILD/lib/mip/$TRIPLE (scripts/install-deps, then make)"
  exit 0
fi
mkdir -p "$A"

# The stand-in for LLVM's profile runtime: a resource directory with
# clang's headers and an empty libclang_rt.profile.a.
stand_in=$A/resource
mkdir -p "$stand_in/lib/aarch64-unknown-linux-gnu"
ln -sfn "$("$CLANG" -print-resource-dir)/include" "$stand_in/include"
rm -f "$stand_in/lib/aarch64-unknown-linux-gnu/libclang_rt.profile.a"
"$LLVM_DIR/bin/llvm-ar" rc "$stand_in/lib/aarch64-unknown-linux-gnu/libclang_rt.profile.a"

# target_flags CONFIG: what the configuration's command gets for AArch64.
target_flags() {
  printf '%s ' "--target=$TRIPLE" -fuse-ld=lld
  case $1 in pgo-cov | instr)
    printf '%s ' "-resource-dir=$stand_in" -Wl,--unresolved-symbols=ignore-all ;;
  esac
}

# ---- 1. probe bytes per function ---------------------------------------------
unit=$A/probes.c
awk -v n="$PROBE_FUNCTIONS" 'BEGIN {
  for (i = 0; i < n; i++)
    printf "__attribute__((noinline)) int f%d(int x) { return x * %d + 1; }\n", i, i + 3 }' >"$unit"

# section_bytes OBJECT WHAT: bytes of the functions' code (their
# symbols' sizes: x86-64 pads functions to 16 bytes, which would hide a
# short probe), or of the writable and counter sections (data: .data*,
# .bss*, __mip_*, __llvm_prf_*).
section_bytes() {
  if [ "$2" = code ]; then
    "$NM" -S -t d "$1" | awk '$3 ~ /^[tT]$/ { t += $2 } END { print t + 0 }'
  else
    "$SIZE" -A "$1" | awk '$1 ~ /^\.(data|bss)/ || $1 ~ /^__(mip|llvm_prf)_/ { t += $2 } END { print t + 0 }'
  fi
}

probe_row() { # CONFIG
  local line="| $1 |" arch base_code base_data code data
  for arch in x86_64 aarch64; do
    local flags=(--target=$arch-linux-gnu -O2 -c "$unit")
    config_flags plain
    "${CC_CMD[@]}" "${flags[@]}" -o "$A/plain.$arch.o"
    config_flags "$1"
    "${CC_CMD[@]}" "${flags[@]}" -o "$A/$1.$arch.o"
    base_code=$(section_bytes "$A/plain.$arch.o" code)
    base_data=$(section_bytes "$A/plain.$arch.o" data)
    code=$(section_bytes "$A/$1.$arch.o" code)
    data=$(section_bytes "$A/$1.$arch.o" data)
    line="$line $(awk -v a="$code" -v b="$base_code" -v n="$PROBE_FUNCTIONS" 'BEGIN { printf "%.1f", (a - b) / n }') |"
    line="$line $(awk -v a="$data" -v b="$base_data" -v n="$PROBE_FUNCTIONS" 'BEGIN { printf "%.1f", (a - b) / n }') |"
  done
  echo "$line"
}

echo "## AArch64"
echo
echo "### Probe bytes per function"
echo
echo "$PROBE_FUNCTIONS functions \`int fK(int x) { return x * K + 1; }\` in one unit," \
  "\`-O2 -c\`: what each configuration adds per function to the code (the functions' symbol sizes) and to" \
  "the counters (writable and counter sections), over the plain build."
echo
echo "| configuration | x86-64 code | x86-64 counters | AArch64 code | AArch64 counters |"
echo "| --- | ---: | ---: | ---: | ---: |"
for c in mip mip-co pgo-cov instr; do probe_row "$c"; done
echo

# ---- 2. the programs cross-built -----------------------------------------------
build_a64() { # PROG CONFIG
  load_program "$1"
  config_flags "$2"
  local out=$A/$1.$2
  # shellcheck disable=SC2046,SC2086
  (cd "$PROG_DIR" && "${CC_CMD[@]}" $(target_flags "$2") -O2 $PROG_CFLAGS \
    $PROG_SRCS $PROG_LIBS -o "$out") >"$out.log" 2>&1 ||
    { tail -n 20 "$out.log" >&2; die "$1/$2 for AArch64: build failed (log: $out.log)"; }
  "$LLVM_STRIP" -o "$out.stripped" "$out"
}

# growth PROG CONFIG: "FILE TEXT+DATA", what CONFIG adds to PROG's plain
# build: the stripped file's bytes, and text + data (llvm-size).
growth() {
  local b=$A/$1
  echo $(($(stat -c %s "$b.$2.stripped") - $(stat -c %s "$b.plain.stripped"))) \
    $(($(td "$b.$2.stripped") - $(td "$b.plain.stripped")))
}
td() { text_data_bss "$1" | awk '{ print $1 + $2 }'; }

# The runtimes: the empty program built plain, mip and mip-co.
for c in plain mip mip-co; do build_a64 empty "$c"; done
read -r rt_file rt_td <<<"$(growth empty mip)"
read -r rt_co_file rt_co_td <<<"$(growth empty mip-co)"

echo "### Stripped size, cross-built for AArch64"
echo
echo "\`-O2\`, lld. MIP's runtime, the growth of the empty program: $rt_file B of" \
  "stripped file, $rt_td B text+data (mip-co: $rt_co_file B, $rt_co_td B)." \
  "Per function: the growth over plain, less that runtime for MIP, divided by the" \
  "functions MIP instruments; pgo-cov and instr lack LLVM's profile runtime (see" \
  "above), so theirs is all instrumentation. Budget: mip's growth at most 8 B per" \
  "function + 8 KiB (the x86-64 goal), in stripped file and in text+data."
echo
echo "| program | functions | plain | mip | per function | budget | mip-co | per function | pgo-cov | per function | instr | per function |"
echo "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
per_function() { awk -v a="$1" -v n="$2" 'BEGIN { printf "%.1f", n ? a / n : 0 }'; }
for p in $PROGRAMS; do
  load_program "$p"
  "$BENCH_DIR/fetch.sh" "$PKG"
  prog_prepare "$PROG_DIR"
  for c in $A64_CONFIGS; do build_a64 "$p" "$c"; done
  funcs=$(mip_functions "$A/$p.mip")
  row="| $p | $funcs | $(stat -c %s "$A/$p.plain.stripped") |"
  read -r file tdg <<<"$(growth "$p" mip)"
  budget=$((8 * funcs + 8192))
  if [ "$file" -le "$budget" ] && [ "$tdg" -le "$budget" ]; then met=met; else met="**not met**"; fi
  row="$row +$file | $(per_function $((file - rt_file)) "$funcs") | $met (+$tdg B text+data of $budget) |"
  read -r file tdg <<<"$(growth "$p" mip-co)"
  row="$row +$file | $(per_function $((file - rt_co_file)) "$funcs") |"
  for c in pgo-cov instr; do
    read -r file tdg <<<"$(growth "$p" "$c")"
    row="$row +$file | $(per_function "$file" "$funcs") |"
  done
  echo "$row"
done
echo
