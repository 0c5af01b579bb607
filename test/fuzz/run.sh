#!/bin/sh
# Runs every fuzz target (test/fuzz/fuzz_*.c), JOBS of them at a time
# (default 1), for SECONDS each on average, on a seed corpus made here
# from real builds (maps, map files, raw profiles, pooled too, indexed
# profiles and binaries of C and C++ programs in every mode); then runs
# each regression input (test/fuzz/regressions/TARGET/*.hex, hex text of
# inputs that once broke a reader) once; then prints a table: per target
# the seconds it ran, its executions and their rate, libFuzzer's coverage
# (cov: edges, ft: features) and corpus at the end, and the failures it
# found.
#
# The targets do not cost the same per input (an indexed profile goes
# through three commands and two merges, a map section through one
# parser): each gets a share of the time by its weight (WEIGHTS below),
# so that each can reach as many executions as the slowest; the slowest
# start first, so that JOBS at a time finish close together.
#
# Any crash, leak, sanitizer report, broken property, timeout or
# out-of-memory fails the run. libFuzzer keeps the input in
# FUZZ_BUILD/fuzz-artifacts/; it is also saved as a regression input,
# test/fuzz/regressions/TARGET/KIND-HASH.hex, to be renamed for what it
# shows once the reader is fixed.
#
# With FUZZ_GOAL set (executions per target), the table says which
# targets fell short of it; that alone does not fail the run (how many
# executions fit in the time depends on the machine and its load).
# FUZZ_ONLY (target names) runs those alone, each for the share it has in
# the whole run, and every regression input still once: to run again a
# target whose share a loaded machine cut short.
#   test/fuzz/run.sh BUILD_DIR FUZZ_BUILD_DIR SECONDS [JOBS]
BUILD=$(cd "$1" && pwd)
FUZZ_BUILD=$(cd "$2" && pwd)
SECONDS_EACH=$3
JOBS=${4:-1}
# TARGET:WEIGHT, slowest first. The weights follow the executions per
# second of CPU time each target makes (test/fuzz/README.md, "Measured
# rates"): profile about 9,000, extract, debuginfo and view 12,000 to
# 15,000, dump 25,000, pool 40,000, raw 50,000, mapfile 90,000, map
# 210,000.
WEIGHTS="profile:20 extract:17 debuginfo:14 view:14 dump:8 pool:8 raw:5 mapfile:2 map:1"
TARGETS=$(for w in $WEIGHTS; do printf '%s ' "${w%%:*}"; done)
FUZZED=${FUZZ_ONLY:-$TARGETS}
for target in $FUZZED; do
  case " $TARGETS " in *" $target "*) ;; *) echo "fuzz/run: FUZZ_ONLY: no target $target (targets: $TARGETS)" >&2; exit 2 ;; esac
done
# seconds_of TARGET: its share of SECONDS_EACH * (the number of targets)
seconds_of() {
  total=0 mine=0 n=0
  for w in $WEIGHTS; do
    total=$((total + ${w#*:})) n=$((n + 1))
    if [ "${w%%:*}" = "$1" ]; then mine=${w#*:}; fi
  done
  # At least a second: libFuzzer takes -max_total_time=0 as no limit.
  share=$((SECONDS_EACH * n * mine / total))
  echo $((share > 0 ? share : 1))
}
. "$(dirname "$0")/../e2e/lib.sh"
make_tmp
# The targets' scratch files, on tmpfs when there is one
SCRATCH=$(mktemp -d /dev/shm/mip-fuzz.XXXXXX 2>/dev/null || mktemp -d "$TMP/scratch.XXXXXX")
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$TMP" "$SCRATCH"' EXIT
cd "$TMP"
ARTIFACTS=$FUZZ_BUILD/fuzz-artifacts
REGRESSIONS=$HERE/regressions
mkdir -p "$ARTIFACTS"

# ---- seeds: real programs, each built, run, extracted, merged
cat >prog.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
__attribute__((noinline)) char *copy(const char *s) { return strdup(s); }
__attribute__((noinline)) int twice(int x) { return 2 * x; }
__attribute__((noinline)) void never(void) { puts("never"); }
int main(int argc, char **argv) {
  char *keep = malloc(100);
  for (int i = 0; i < 50; i++) {
    char *s = copy(argv[0]);
    void *p = calloc((size_t)i + 1, 16);
    p = realloc(p, (size_t)i * 64 + 8);
    if (i % 3 == 0 && argc > 1)
      twice(i);
    free(p);
    free(s);
  }
  keep[0] = 1;
  printf("%d\n", twice(argc));
  return 0;
}
C
cat >prog.cpp <<'C'
#include <map>
#include <string>
#include <vector>
namespace store {
template <typename T> struct Table {
  std::map<std::string, std::vector<T>> rows;
  __attribute__((noinline)) void add(const std::string &k, T v) { rows[k].push_back(v); }
};
}
int main(int argc, char **) {
  store::Table<long> t;
  for (int i = 0; i < 200; i++)
    t.add(std::to_string(i % 17), i * argc);
  return t.rows.size() == 17 ? 0 : 1;
}
C
mkdir -p seeds/map seeds/mapfile seeds/raw seeds/profile seeds/view seeds/extract
# seed NAME COMPILER MODES SOURCE [RUN ARGS...]
# Each build links pool mode (-fmip-pool: the heap build's runs are
# pooled below) and gets a build-id of its own name and no trace of this
# directory, so that its raw profiles, and the regression inputs made from
# them, merge into the same build's profile in every run.
seed() {
  name=$1 compiler=$2 modes=$3 source=$4
  shift 4
  id=$(printf '%s' "$name" | sha1sum | cut -c1-40)
  "$compiler" -fmip-generate="$modes" -fmip-pool -O1 -gdwarf-4 -fdebug-prefix-map="$TMP"=. \
    -Wl,--build-id=0x"$id" "$source" -o "$name"
  MIP_PROFILE_FILE=$name.mipraw "./$name" "$@" >/dev/null
  mip_create "$name" "$name.fresh.mip"
  mv "$name.fresh.mipmap" "$name.mipmap"
  cp "$name.fresh.mip" "$name.mip"
  "$MIPDATA" merge -p "$name.mip" --debug "$name" "$name.mipraw"
  "$LLVM_BIN/llvm-objcopy" --dump-section=.debug_mip="seeds/map/$name" "$name" /dev/null
  cp "seeds/map/$name" "seeds/mapfile/$name.section"
  cp "$name.mipmap" seeds/mapfile/
  cp "$name.mipraw" seeds/raw/
  cp "$name.mip" "$name.fresh.mip" seeds/profile/
  cp "$name.mip" seeds/view/
  "$LLVM_BIN/llvm-strip" --strip-debug --keep-section=.debug_mip "$name" -o "seeds/extract/$name"
}
seed cov "$MIPCC" coverage prog.c
seed all "$MIPCC" all prog.c x
seed heap "$MIPCC" counts,blocks,heap prog.c x
seed cxx "$MIPCXX" counts,heap prog.cpp
seed edges "$MIPCC" counts,block-counts prog.c x
# A pooled raw profile (pool mode, %1m) of two runs of the heap build:
# an input of mipdata merge, and a file the runtime merges into
mkdir -p seeds/pool
MIP_PROFILE_FILE=pooled-%1m.mipraw ./heap >/dev/null
MIP_PROFILE_FILE=pooled-%1m.mipraw ./heap x >/dev/null
cp pooled-*.mipraw seeds/raw/
cp pooled-*.mipraw heap.mipraw all.mipraw seeds/pool/
# What inputs are merged with: the heap build's profile before and after
# its run, and the binary that symbolizes its raw profiles
FUZZ_PROFILE=$TMP/heap.fresh.mip FUZZ_MERGED=$TMP/heap.mip FUZZ_BINARY=$TMP/heap
# and the run the runtime's pool merge adds to its input
FUZZ_POOL_RUN=$TMP/heap.mipraw
# mipdata dump reads every kind of file: all of the above
mkdir -p seeds/dump
for kind in map mapfile raw profile extract; do
  for seed in "seeds/$kind"/*; do
    cp "$seed" "seeds/dump/$kind-${seed##*/}"
  done
done
export FUZZ_PROFILE FUZZ_MERGED FUZZ_BINARY FUZZ_POOL_RUN
# The debug-info reader's: plain builds with -g -O2, C and C++, DWARF 4
# and 5 (range lists in .debug_ranges and .debug_rnglists: inlined calls
# split in pieces, a unit's functions in sections of their own), kept as
# debug files (--only-keep-debug): the DWARF and the symbols, small
# without the code
mkdir -p seeds/debuginfo
for version in 4 5; do
  "$CLANG" -g -O2 -gdwarf-$version prog.c -o "c$version"
  "$CLANGXX" -g -O2 -gdwarf-$version -ffunction-sections \
    "$HERE/../e2e/progs/ranges/ranges.cpp" -o "cxx$version"
  for binary in "c$version" "cxx$version"; do
    "$LLVM_BIN/llvm-objcopy" --only-keep-debug "$binary" "seeds/debuginfo/$binary.debug"
  done
done

# ---- fuzzing, JOBS targets at a time
# asan_options TARGET: ASan's options for it. libdwarf sizes some of its
# tables by counts in the file and checks what calloc gives it: a count
# no allocation can hold is a calloc that fails, which libdwarf answers
# with an error (as glibc's calloc does outside the sanitizer), not a
# fault of ours. Everything mipdata allocates itself still aborts on
# failure (mip_xcalloc), so the other targets keep ASan's default.
asan_options() {
  case $1 in
    debuginfo) echo "allocator_may_return_null=1" ;;
    *) echo "${ASAN_OPTIONS:-}" ;;
  esac
}

# fuzz TARGET: libFuzzer's log in TARGET.log, the seconds it took in
# TARGET.seconds
fuzz() {
  target=$1
  mkdir -p "corpus/$target"
  rm -f "$ARTIFACTS/$target"-*
  start=$(date +%s) status=0
  TMPDIR=$SCRATCH ASAN_OPTIONS=$(asan_options "$target") \
    "$FUZZ_BUILD/test/fuzz_$target" \
    -max_total_time="$(seconds_of "$target")" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 \
    -artifact_prefix="$ARTIFACTS/$target-" \
    "corpus/$target" "seeds/$target" >"$target.log" 2>&1 || status=$?
  echo "$status" >"$target.status"
  echo "$(($(date +%s) - start))" >"$target.seconds"
}

# The pids among those given that still run.
running() {
  for pid in "$@"; do
    if kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
  done
}

pids=
for target in $FUZZED; do
  # shellcheck disable=SC2086 # a list of pids
  while [ "$(running $pids | wc -l)" -ge "$JOBS" ]; do
    sleep 1
  done
  fuzz "$target" &
  pids="$pids $!"
done
wait

# ---- results
# The failures libFuzzer left for target, each saved as a regression input
saved_failures() {
  for found in "$ARTIFACTS/$1"-crash-* "$ARTIFACTS/$1"-leak-* \
    "$ARTIFACTS/$1"-timeout-* "$ARTIFACTS/$1"-oom-*; do
    [ -e "$found" ] || continue
    kind=${found#"$ARTIFACTS/$1"-}
    kind=${kind%%-*}
    hash=$(sha1sum "$found" | cut -c1-12)
    mkdir -p "$REGRESSIONS/$1"
    basenc --base16 "$found" >"$REGRESSIONS/$1/$kind-$hash.hex"
    echo "$REGRESSIONS/$1/$kind-$hash.hex"
  done
}

# last_of PATTERN LOG: the last match of an extended regular expression
last_of() { grep -a -o -E "$1" "$2" | tail -n 1; }

table=$TMP/table
short=
printf '%-8s %7s %11s %7s %6s %6s %13s %8s\n' target seconds executions \
  exec/s cov ft corpus failures >"$table"
for target in $FUZZED; do
  log=$target.log
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  cov=$(last_of 'cov: [0-9]+' "$log" | cut -d' ' -f2)
  ft=$(last_of 'ft: [0-9]+' "$log" | cut -d' ' -f2)
  corpus=$(last_of 'corp: [0-9]+/[0-9]+[bKM]b' "$log" | cut -d' ' -f2)
  saved=$(saved_failures "$target")
  broken=$(printf '%s' "$saved" | grep -c . || true)
  if [ "$(cat "$target.status")" = 0 ] && [ "$broken" = 0 ]; then
    pass "fuzz_$target: ${runs:-0} runs in $(cat "$target.seconds") s, cov ${cov:-?}, ft ${ft:-?}"
  else
    fail "fuzz_$target: exit status $(cat "$target.status") after ${runs:-?} runs; inputs in $ARTIFACTS, saved as:"
    printf '%s\n' "$saved" | sed 's/^/    /'
    grep -a -E "ERROR|SUMMARY|runtime error|^fuzz: " "$log" | head -n 5 | sed 's/^/    /'
  fi
  if [ -n "${FUZZ_GOAL:-}" ] && [ "${runs:-0}" -lt "$FUZZ_GOAL" ]; then
    short="$short $target"
  fi
  printf '%-8s %7s %11s %7s %6s %6s %13s %8s\n' "$target" \
    "$(cat "$target.seconds")" "${runs:-?}" "${rate:-?}" "${cov:-?}" \
    "${ft:-?}" "${corpus:-?}" "$broken" >>"$table"
done

# ---- regression inputs: each once
for target in $TARGETS; do
  for hex in "$REGRESSIONS/$target"/*.hex; do
    [ -e "$hex" ] || continue
    input=regression-$target-$(basename "$hex" .hex)
    tr -d ' \n' <"$hex" | basenc --base16 -d >"$input"
    if TMPDIR=$SCRATCH ASAN_OPTIONS=$(asan_options "$target") \
      "$FUZZ_BUILD/test/fuzz_$target" "$input" \
      >"$input.log" 2>&1; then
      pass "fuzz_$target regression $(basename "$hex" .hex)"
    else
      fail "fuzz_$target regression $(basename "$hex" .hex):"
      grep -a -E "ERROR|SUMMARY|runtime error|^fuzz: " "$input.log" | head -n 5 | sed 's/^/    /'
    fi
  done
done

echo
cat "$table"
if [ -n "${FUZZ_GOAL:-}" ]; then
  echo "goal: $FUZZ_GOAL executions per target;${short:+ short of it:}${short:- every target reached it}"
fi
finish
