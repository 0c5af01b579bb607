#!/bin/sh
# bench/heap/heaptrack.sh DATA PROGRAM [ARGS...]: PROGRAM under heaptrack,
# for `make bench-heap`'s heaptrack column: what the heaptrack script does
# (its preload library writing into a pipe that heaptrack_interpret reads,
# zstd after it, into DATA.zst), without the script's messages, which it
# prints on the program's standard output. Waits for the interpreter, so
# that a timing of this script is the whole process tree's.
set -eu
data=$1
shift
lib=${HEAPTRACK_LIB:-/usr/lib/heaptrack}
pipe=$(mktemp -u "${TMPDIR:-/tmp}/heaptrack-bench.XXXXXX")
mkfifo "$pipe"
trap 'rm -f "$pipe"' EXIT
"$lib/libexec/heaptrack_interpret" <"$pipe" | zstd -q -c >"$data.zst" &
helper=$!
status=0
LD_PRELOAD="$lib/libheaptrack_preload.so${LD_PRELOAD:+:$LD_PRELOAD}" \
  DUMP_HEAPTRACK_OUTPUT="$pipe" "$@" || status=$?
wait "$helper"
exit "$status"
