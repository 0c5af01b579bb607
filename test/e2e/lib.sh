# Shared by the end-to-end test scripts. Source it after setting BUILD.
set -eu

LLVM_BIN=${LLVM_BIN:-/usr/lib/llvm-19/bin}
CLANG=$LLVM_BIN/clang
CLANGXX=$LLVM_BIN/clang++
MIPCC=$BUILD/bin/mipcc
MIPCXX=$BUILD/bin/mipc++
MIPDATA=$BUILD/bin/mipdata
HERE=$(cd "$(dirname "$0")" && pwd)

failures=0
checks=0

pass() { checks=$((checks + 1)); echo "ok   $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL $*"; }

# A temporary directory removed on exit, unless KEEP_TMP is set.
make_tmp() {
  TMP=$(mktemp -d "${TMPDIR:-/tmp}/mip-test.XXXXXX")
  [ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$TMP"' EXIT
}

finish() {
  echo "$((checks - failures))/$checks checks passed"
  [ "$failures" -eq 0 ]
}
