# Shared by the bench scripts (sourced, bash). Paths, tools, logging and
# the compiler configurations.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)

LLVM_DIR=${LLVM_DIR:-/usr/lib/llvm-19}
abspath() { case $1 in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }
BUILD=$(abspath "${BUILD:-build}")

CLANG=${CLANG:-$LLVM_DIR/bin/clang}
CLANGXX=${CLANGXX:-$(dirname "$CLANG")/clang++}
PLUGIN=$(abspath "${PLUGIN:-$BUILD/lib/mip/libmip.so}")
RT_LIB=$(abspath "${RT_LIB:-$BUILD/lib/mip/libmip_rt.a}")
MIPCC=$(abspath "${MIPCC:-$BUILD/bin/mipcc}")
READELF=$LLVM_DIR/bin/llvm-readelf
SIZE=$LLVM_DIR/bin/llvm-size
NM=$LLVM_DIR/bin/llvm-nm
STRIP=${STRIP:-strip}

# BENCH_OUT, BENCH_SRC: another release's run (bench/build.mk) writes apart
# and reads the same sources.
B=${BENCH_OUT:-$BUILD/bench}   # everything the bench makes
SRC=${BENCH_SRC:-$B/src} # fetched Debian sources (kept between runs)
BIN=$B/bin               # BIN/PROG/CONFIG, plus CONFIG.stripped
WORK=$B/work             # generated inputs (kept between runs)
OUT=$B/out               # measurements, logs, callgrind outputs
TMP=$B/tmp               # scratch space of single runs

CONFIGS=${BENCH_CONFIGS:-"plain mip mip-c mip-co mip-co-c pgo-cov instr sancov"}
# make bench-heap (bench/heap/run.sh): plain again, MIP heap profiling and
# clang's MemProf (timed), and the builds compared with DHAT and MemProf.
HEAP_CONFIGS="plain heap heap-allocs memprof plain-fp heap-stub dhat heap-nosib memprof-nosib"
ALL_PROGRAMS="sqlite3 lua bzip2"
# make bench-heap's: those, and two programs that keep millions of small
# blocks live at once: cmark (C) and jsoncpp (C++, its blocks from std
# containers).
HEAP_PROGRAMS="$ALL_PROGRAMS cmark jsoncpp"

log() { printf 'bench: %s\n' "$*" >&2; }

# The configurations that are another one run another way: mip-c and
# mip-co-c are mip and mip-co linked with -fmip-continuous and run in
# continuous mode (%c in MIP_PROFILE_FILE: the counters mapped onto the
# profile). Prints the configuration they compare with, nothing for the
# others.
variant_of() {
  case $1 in
    mip-c) echo mip ;;
    mip-co-c) echo mip-co ;;
  esac
}

# rotated N WORD...: the words, starting with word number N (counted from
# 1, wrapping): round N of interleaved timing runs, so that each round
# starts with another build and machine noise hits all of them alike.
rotated() {
  local n=$1
  shift
  local i
  for ((i = 0; i < $#; i++)); do
    local k=$(((i + n - 1) % $# + 1))
    printf '%s\n' "${!k}"
  done
}
die() { printf 'bench: error: %s\n' "$*" >&2; exit 1; }

# machine_l2: sets l2 to this machine's L2 as cachegrind's --LL takes it
# (SIZE,ASSOC,LINE; 512 KiB, 8-way, 64-byte lines when the system does
# not say) and L2_TEXT to its description ("1024 KiB, 16-way").
machine_l2() {
  l2=$(getconf LEVEL2_CACHE_SIZE 2>/dev/null || true),$(getconf LEVEL2_CACHE_ASSOC 2>/dev/null || true),$(getconf LEVEL2_CACHE_LINESIZE 2>/dev/null || true)
  case $l2 in
    [1-9]*,[1-9]*,[1-9]*) ;;
    *) l2=524288,8,64 ;;
  esac
  L2_TEXT="$((${l2%%,*} / 1024)) KiB, $(echo "$l2" | cut -d, -f2)-way"
}

# Loads bench/programs/PROG.sh: PKG, prog_prepare, PROG_SRCS, PROG_CFLAGS,
# PROG_LIBS, prog_input, prog_run, SIZE_FULL, SIZE_CG, WORKLOAD, and
# PROG_LANG (c, the default, or c++), PROG_HEADER_DIRS (directories of
# headers whose code the program compiles into itself, for heap/truth.sh;
# default none).
load_program() {
  local f=$BENCH_DIR/programs/$1.sh
  [ -f "$f" ] || die "unknown program '$1' (known: $HEAP_PROGRAMS)"
  PROG_LANG=c PROG_HEADER_DIRS=
  # shellcheck source=/dev/null
  . "$f"
  PROG_DIR=$SRC/$PKG
  [ -n "$PKG" ] || PROG_DIR=$BENCH_DIR/programs # sources of our own
}

# Whether build/bin/mipcc exists and instruments a trivial program.
mipcc_works() {
  [ -x "$MIPCC" ] || return 1
  local d=$TMP/mipcc-check
  mkdir -p "$d"
  printf 'int main(void) { return 0; }\n' >"$d/t.c"
  "$MIPCC" -fmip-generate -O2 "$d/t.c" -o "$d/t" >"$d/log" 2>&1 &&
    [ "$(mip_functions "$d/t")" -gt 0 ]
}

# Sets CC_CMD (compiler and flags before the sources) and LINK_EXTRA (after
# them) for configuration $1, with the C++ drivers (clang++, mipc++) when
# the program loaded is C++ (PROG_LANG).
config_flags() {
  c_config_flags "$1"
  [ "${PROG_LANG:-c}" = c++ ] || return 0
  case ${CC_CMD[0]} in
    "$CLANG") CC_CMD[0]=$CLANGXX ;;
    */mipcc) CC_CMD[0]=${CC_CMD[0]%cc}c++ ;;
    *) die "no C++ driver for ${CC_CMD[0]} (configuration $1)" ;;
  esac
}

# config_flags for a C program.
c_config_flags() {
  LINK_EXTRA=()
  case $1 in
    plain)   CC_CMD=("$CLANG") ;;
    mip)     CC_CMD=("$MIPCC" -fmip-generate) ;;
    mip-co)  CC_CMD=("$MIPCC" -fmip-generate=counts,order) ;;
    mip-c)   CC_CMD=("$MIPCC" -fmip-generate -fmip-continuous) ;;
    mip-co-c) CC_CMD=("$MIPCC" -fmip-generate=counts,order -fmip-continuous) ;;
    pgo-cov) CC_CMD=("$CLANG" -fprofile-generate -mllvm -pgo-function-entry-coverage) ;;
    instr)   CC_CMD=("$CLANG" -fprofile-instr-generate) ;;
    # Not in CONFIGS: LLVM's runtime counter relocation (what its
    # continuous mode needs on Linux: each counter update loads a bias
    # first), for comparison by hand (docs/runtime.md, continuous mode).
    instr-reloc) CC_CMD=("$CLANG" -fprofile-instr-generate -mllvm -runtime-counter-relocation) ;;
    sancov)
      # Our no-op callbacks instead of the UBSan runtime the driver would link.
      CC_CMD=("$CLANG" -fsanitize-coverage=func,inline-bool-flag -fno-sanitize-link-runtime)
      LINK_EXTRA=("$BIN/sancov-rt.o") ;;
    # The heap benchmark's (bench/heap/run.sh, HEAP_CONFIGS above).
    heap)    CC_CMD=("$MIPCC" -fmip-generate=heap -g) ;;
    # Heap hooks without access counting (docs/heap.md, "Allocations only").
    heap-allocs) CC_CMD=("$MIPCC" -fmip-generate=heap-allocs -g) ;;
    # What heap's cost is made of: plain with heap's frame pointers, and
    # heap with hooks that do nothing (bench/heap/hooks-stub.c).
    plain-fp) CC_CMD=("$CLANG" -fno-omit-frame-pointer) ;;
    heap-stub)
      CC_CMD=("$MIPCC" -fmip-generate=heap -g)
      LINK_EXTRA=("$BIN/heap-hooks-stub.o") ;;
    # heap as another MIP build makes it (BENCH_HEAP_BASELINE: that
    # build's directory), to set a change against in the same runs.
    heap-base)
      [ -x "${BENCH_HEAP_BASELINE:-}/bin/mipcc" ] ||
        die "heap-base needs BENCH_HEAP_BASELINE, the build directory of another MIP checkout (with bin/mipcc)"
      CC_CMD=("$BENCH_HEAP_BASELINE/bin/mipcc" -fmip-generate=heap -g) ;;
    memprof)
      CC_CMD=("$CLANG" -g -fmemory-profile -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer) ;;
    # For DHAT: DWARF 4 (valgrind 3.19 cannot read 5), and no tail calls,
    # which would hide the frame of a function that ends in a call.
    dhat)    CC_CMD=("$CLANG" -gdwarf-4 -fno-optimize-sibling-calls) ;;
    # heap and memprof with the same tail-call setting, for the comparisons.
    heap-nosib) CC_CMD=("$MIPCC" -fmip-generate=heap -g -fno-optimize-sibling-calls) ;;
    memprof-nosib)
      CC_CMD=("$CLANG" -g -fmemory-profile -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer
        -fno-optimize-sibling-calls) ;;
    *) die "unknown configuration '$1'" ;;
  esac
}

# Where each configuration's runtime writes its profile during the bench.
profile_env() { # DIR CONFIG
  export MIP_PROFILE_FILE=$1/default.mipraw
  [ -z "$(variant_of "${2:-}")" ] || export MIP_PROFILE_FILE=$1/default%c.mipraw
  export LLVM_PROFILE_FILE=$1/default.profraw
}

# Number of functions MIP instrumented: each has a coverage byte, the
# local symbol __mip_1.<function> (in a build linked with
# -fmip-continuous the section also holds padding to whole pages).
mip_functions() { # BINARY
  "$NM" "$1" | awk '$3 ~ /^__mip_1\./ { n++ } END { print n + 0 }'
}

# Bytes of all MIP counters (__mip_<kind>.<function>) of a binary, without
# the padding of their sections to whole pages.
mip_counter_bytes() { # BINARY
  "$NM" -S -t d "$1" | awk '$4 ~ /^__mip_[0-9]+\./ { t += $2 } END { print t + 0 }'
}

# Bytes of the MIP counter sections (__mip_*), padding included; with
# TYPE, of those of that type only: PROGBITS are the ones the file holds
# (counters that start as zeros are NOBITS, no file bytes:
# docs/instrumentation.md, "Counter sections").
mip_section_bytes() { # BINARY [TYPE]
  local total=0 hex
  for hex in $("$READELF" -S -W "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
    awk -v type="${2:-}" '$1 ~ /^__mip_/ && (type == "" || $2 == type) { print $5 }'); do
    total=$((total + 16#$hex))
  done
  echo "$total"
}

# text, data and bss of a binary, as "TEXT DATA BSS" (Berkeley format).
text_data_bss() { "$SIZE" -B "$1" | awk 'NR == 2 { print $1, $2, $3 }'; }
