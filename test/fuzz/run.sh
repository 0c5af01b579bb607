#!/bin/sh
# Runs every fuzz target (test/fuzz/fuzz_*.c) for SECONDS each, on a seed
# corpus made here from real builds (maps, map files, raw profiles, pooled
# too, indexed profiles and binaries of C and C++ programs in every mode),
# then runs each regression input (test/fuzz/regressions/TARGET/*.hex, hex
# text of inputs that once crashed a reader) once. Any crash, leak, sanitizer
# report, timeout or out-of-memory fails; the input is kept in
# FUZZ_BUILD/fuzz-artifacts/.
#   test/fuzz/run.sh BUILD_DIR FUZZ_BUILD_DIR SECONDS
BUILD=$(cd "$1" && pwd)
FUZZ_BUILD=$(cd "$2" && pwd)
SECONDS_EACH=$3
. "$(dirname "$0")/../e2e/lib.sh"
make_tmp
cd "$TMP"
ARTIFACTS=$FUZZ_BUILD/fuzz-artifacts
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
seed() {
  name=$1 compiler=$2 modes=$3 source=$4
  shift 4
  "$compiler" -fmip-generate=$modes -O1 -gdwarf-4 "$source" -o "$name"
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
export FUZZ_PROFILE FUZZ_MERGED FUZZ_BINARY FUZZ_POOL_RUN

# ---- run each target
for target in map mapfile raw profile view extract pool; do
  bin=$FUZZ_BUILD/test/fuzz_$target
  mkdir -p "corpus/$target"
  set +e
  "$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$ARTIFACTS/$target-" \
    "corpus/$target" "seeds/$target" >"$target.log" 2>&1
  rc=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$target.log")
  cov=$(grep -o 'cov: [0-9]*' "$target.log" | tail -n 1)
  if [ "$rc" = 0 ]; then
    pass "fuzz_$target: $runs runs in ${SECONDS_EACH}s, $cov, corpus $(ls "corpus/$target" | wc -l)"
  else
    fail "fuzz_$target: exit status $rc after $runs runs; input in $ARTIFACTS:"
    grep -E "ERROR|SUMMARY|runtime error|==ERROR" "$target.log" | head -n 5 | sed 's/^/    /'
  fi
  # regression inputs: each once
  for hex in "$HERE/regressions/$target"/*.hex; do
    [ -e "$hex" ] || continue
    input=regression-$(basename "$hex" .hex)
    tr -d ' \n' <"$hex" | basenc --base16 -d >"$input"
    if "$bin" "$input" >"$input.log" 2>&1; then
      pass "fuzz_$target regression $(basename "$hex" .hex)"
    else
      fail "fuzz_$target regression $(basename "$hex" .hex):"
      grep -E "ERROR|SUMMARY|runtime error" "$input.log" | head -n 5 | sed 's/^/    /'
    fi
  done
done

finish
