#!/bin/sh
# bench/diff.sh BUILD_DIR: mipdata diff on two synthetic profiles of
# BENCH_DIFF_CONTEXTS (100,000) heap contexts each, made by
# BUILD_DIR/bench/diff-gen (bench/diff/gen.c); each format timed
# BENCH_DIFF_RUNS (5) times under /usr/bin/time -v: the median wall time
# and the largest peak RSS, against the targets (1 s, 200 MB). Prints a
# markdown table and writes it to BUILD_DIR/bench/diff.md.
set -eu
BUILD=$(cd "$1" && pwd)
MIPDATA=$BUILD/bin/mipdata
GEN=$BUILD/bench/diff-gen
CONTEXTS=${BENCH_DIFF_CONTEXTS:-100000}
RUNS=${BENCH_DIFF_RUNS:-5}
[ -x /usr/bin/time ] || { echo "bench/diff.sh: needs /usr/bin/time (Debian package time)" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

start=$(date +%s.%N)
"$GEN" base.mip "$CONTEXTS" base
"$GEN" new.mip "$CONTEXTS" new
made=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
size() { wc -c <"$1" | awk '{ printf "%.1f MB", $1 / 1e6 }'; }

# The diff itself, once, to show what it compared.
"$MIPDATA" diff base.mip new.mip --format json >diff.json
summary=$(jq -r '.heap.matching | "\(.base.contexts) and \(.new.contexts) contexts, \(.base.matched) and \(.new.matched) matched (\(.matched_fraction * 1000 | round / 10)%), collapsed \(.base.collapsed) and \(.new.collapsed)"' diff.json)

measure() { # FORMAT: "SECONDS CPU-SECONDS KB" of each run, one a line
  i=0
  while [ "$i" -lt "$RUNS" ]; do
    /usr/bin/time -v "$MIPDATA" diff base.mip new.mip --format "$1" \
      --fail-on 'context.bytes>+20%&>64KiB' -o out 2>time.txt || [ $? = 3 ]
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
                  for (k = 1; k <= n; k++) s = s * 60 + t[k] }
                /User time|System time/ { cpu += $2 }
                /Maximum resident set size/ { kb = $2 }
                END { print s, cpu, kb }' time.txt
    i=$((i + 1))
  done
}

{
  echo "# mipdata diff: two profiles of $CONTEXTS heap contexts"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores. Profiles:" \
    "base.mip $(size base.mip), new.mip $(size new.mip), made in $made s."
  echo "$summary."
  echo "Each format $RUNS times, with a --fail-on on every context;" \
    "median wall time and CPU time (user + system), largest peak RSS" \
    "(/usr/bin/time -v), 1 MB = 2^20 bytes. Load average at the start:" \
    "$(cut -d' ' -f1 /proc/loadavg) (the wall time waits for the other" \
    "jobs of a shared machine; the CPU time does not)."
  echo
  echo "| format | wall (s) | CPU (s) | target 1 s | peak RSS (MB) | target 200 MB |"
  echo "| --- | ---: | ---: | --- | ---: | --- |"
  for format in text markdown json; do
    measure "$format" | awk -v f="$format" '
      { w[NR] = $1; c[NR] = $2; if ($3 > kb) kb = $3 }
      function median(v, n,   i, j, t) {
        for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
        return v[int((n + 1) / 2)] }
      END { mw = median(w, NR); mc = median(c, NR); mb = kb / 1024
            printf "| %s | %.2f | %.2f | %s | %.0f | %s |\n", f, mw, mc,
              mw <= 1 ? "met" : mc <= 1 ? "CPU met, wall not" : "**not met**", mb,
              mb <= 200 ? "met" : "**not met**" }'
  done
} | tee "$BUILD/bench/diff.md"
