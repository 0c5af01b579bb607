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

# mip_sites JSON...: per allocation site "file:line blocks bytes", from
# the contexts of show --heap --format json (of one profile or several).
mip_sites() {
  jq -r '.heap[] | select(.site != null)
         | "\(.site.file | split("/") | last):\(.site.line) \(.AllocCount) \(.TotalSize)"' "$@" |
    awk '{ n[$1] += $2; b[$1] += $3 } END { for (s in n) print s, n[s], b[s] }' | sort
}

# dhat_sites DHAT_JSON SOURCE_DIR: the same from valgrind's DHAT: each
# program point under the first frame in one of the files of SOURCE_DIR
# ("0x...: function (file.c:12)"; valgrind names the file with part of
# its directory when the sources and the build directory share a prefix,
# such as /tmp: only the name counts), keeping the lines that call an
# allocator (DHAT also sees libc's own allocations, under the lines that
# call printf and the like).
dhat_sites() {
  ours=$(cd "$2" && ls | tr '\n' '|' | sed 's/|$//; s/\./\\./g')
  jq -r --arg ours "($ours):[0-9]+\\)$" '.ftbl as $f | .pps[]
         | "\(.tbk) \(.tb) " + ([.fs[] | $f[.] | select(test($ours))] | first // "-")' "$1" |
    sed -n 's/^\([0-9]*\) \([0-9]*\) .*(\([^()]*\/\)\{0,1\}\([^()/]*:[0-9]*\))$/\4 \1 \2/p' |
    awk '{ n[$1] += $2; b[$1] += $3 } END { for (s in n) print s, n[s], b[s] }' |
    sort >"$1.all"
  while read -r site blocks bytes; do
    file=${site%:*} line=${site#*:}
    if sed -n "${line}p" "$2/$file" | grep -Eq 'alloc|strn?dup|new |new\(|memalign'; then
      echo "$site $blocks $bytes"
    fi
  done <"$1.all"
}
