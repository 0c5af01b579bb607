#!/bin/bash
# bench/llvm.sh BENCH_DIR DEFAULT [RELEASE...]: the overhead of MIP in each
# LLVM release's build side by side (`make bench`, docs/llvm.md), from
# BENCH_DIR/out/results.tsv (the default release's run) and
# BENCH_DIR/llvm-N/out/results.tsv (each other release's).
set -eu
dir=${1:?usage: llvm.sh BENCH_DIR DEFAULT [RELEASE...]}
default=${2:?usage: llvm.sh BENCH_DIR DEFAULT [RELEASE...]}
shift 2

results_of() {
  if [ "$1" = "$default" ]; then echo "$dir/out/results.tsv"; else echo "$dir/llvm-$1/out/results.tsv"; fi
}

echo "## Per LLVM release"
echo
echo "MIP's overhead over the same release's plain build: instructions (callgrind Ir)," \
  "wall time (median) and stripped size; mip is function-entry coverage," \
  "mip-co counts and order."
echo
echo "| program | LLVM | plain Ir | mip Ir | mip-co Ir | plain time | mip time | mip-co time | mip size |"
echo "|---------|------|----------|--------|-----------|------------|----------|-------------|----------|"
for n in "$default" "$@"; do
  r=$(results_of "$n")
  [ -s "$r" ] || { echo "| (none) | $n | no results in $r | | | | | | |"; continue; }
  awk -v llvm="$n" '
    function median(key,   n, i, j, t, v) {
      n = split(times[key], v, " ")
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
      return n ? (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2) : 0
    }
    function over(a, b) { return b > 0 ? sprintf("%+.1f%%", (a - b) * 100 / b) : "-" }
    $1 == "empty" { next }
    !seen[$1]++ { progs[++np] = $1 }
    $3 == "time" { times[$1 " " $2] = times[$1 " " $2] " " $4 }
    $3 == "ir" || $3 == "stripped" { v[$1 " " $2 " " $3] = $4 }
    END {
      for (i = 1; i <= np; i++) {
        p = progs[i]
        printf "| %s | %s | %d | %s | %s | %.3f s | %s | %s | %s |\n", p, llvm,
          v[p " plain ir"], over(v[p " mip ir"], v[p " plain ir"]),
          over(v[p " mip-co ir"], v[p " plain ir"]), median(p " plain"),
          over(median(p " mip"), median(p " plain")), over(median(p " mip-co"), median(p " plain")),
          over(v[p " mip stripped"], v[p " plain stripped"])
      }
    }' "$r"
done
