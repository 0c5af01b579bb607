#!/bin/bash
# bench/heap/sweep-report.sh [DIR]: the markdown tables of the live-block
# sweep (sweep.sh) from its files in DIR (default build/bench/heap/sweep).
set -eu -o pipefail
. "$(dirname "$0")/../lib.sh"

S=${1:-$B/heap/sweep}
[ -s "$S/times.tsv" ] || die "no sweep results in $S (run bench/heap/sweep.sh)"

# Medians per live count, pattern and build: ns per operation and peak
# RSS; then per live count and pattern the heap and stub figures, the
# runtime's (heap - stub), its ratio to the smallest live count's, and
# the runtime's memory per live block (peak RSS, heap - stub).
awk -F'\t' -v OFS='\t' '
  { k = $1 SUBSEP $2 SUBSEP $3; n[k]++; ns[k, n[k]] = $6 / $5; rss[k, n[k]] = $7 }
  function median(a, k, m,   i, j, x, v) {
    for (i = 1; i <= m; i++) v[i] = a[k, i]
    for (i = 2; i <= m; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
    return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
  }
  END { for (k in n) { split(k, f, SUBSEP); print f[1], f[2], f[3], median(ns, k, n[k]), median(rss, k, n[k]), n[k] } }
' "$S/times.tsv" | sort -k2,2 -k1,1n >"$S/medians.tsv"

runs=$(awk -F'\t' '{ print $6; exit }' "$S/medians.tsv")
echo "| pattern | live blocks | heap ns | stub ns | runtime ns | runtime / at $(awk -F'\t' 'NR == 1 || $1 < m { m = $1 } END { print m }' "$S/medians.tsv") live | runtime memory per live block |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
awk -F'\t' '
  $3 == "heap" { h[$2, $1] = $4; hr[$2, $1] = $5; live[$1] = 1; pat[$2] = 1 }
  $3 == "stub" { s[$2, $1] = $4; sr[$2, $1] = $5 }
  END {
    nl = 0; for (l in live) ls[++nl] = l + 0
    for (i = 2; i <= nl; i++) { x = ls[i]; for (j = i - 1; j >= 1 && ls[j] > x; j--) ls[j + 1] = ls[j]; ls[j + 1] = x }
    split("tree churn random", order, " ")
    for (o = 1; o <= 3; o++) {
      p = order[o]; if (!(p in pat)) continue
      base = h[p, ls[1]] - s[p, ls[1]]
      for (i = 1; i <= nl; i++) {
        l = ls[i]; rt = h[p, l] - s[p, l]
        mem = (hr[p, l] - sr[p, l]) * 1024 / l
        printf "| %s | %d | %.1f | %.1f | **%.1f** | %s | %s |\n", p, l, h[p, l], s[p, l], rt,
          (base > 0 ? sprintf("%.2f", rt / base) : "-"), (l >= 100000 ? sprintf("%.0f B", mem) : "-")
      }
    }
  }' "$S/medians.tsv"
echo
echo "Medians of $runs runs of each; ns per operation (one allocation and its free), from the program's own clock around the operations (the live blocks' set-up is not counted). *runtime*: heap less stub, what the runtime's work costs per operation; its ratio to the same pattern at the smallest live count is what the sweep is for. *Runtime memory per live block*: peak RSS, heap less stub, over the live blocks (tables, shadow counters, and what stays of the growth's last replaced table while it is copied)."
echo
if [ -s "$S/instructions.tsv" ]; then
  echo "Instructions per operation (callgrind, the operations alone: \`--toggle-collect=phase\`):"
  echo
  echo "| pattern | live blocks | heap Ir | stub Ir | runtime Ir |"
  echo "| --- | ---: | ---: | ---: | ---: |"
  awk -F'\t' '
    $3 == "heap" { h[$2 SUBSEP $1] = $5 / $4 }
    $3 == "stub" { s[$2 SUBSEP $1] = $5 / $4 }
    END { o["tree"] = 1; o["churn"] = 2; o["random"] = 3
      for (k in h) { split(k, f, SUBSEP); printf "%d\t%s\t%d\t%.0f\t%.0f\t%.0f\n", o[f[1]], f[1], f[2], h[k], s[k], h[k] - s[k] } }' \
    "$S/instructions.tsv" | sort -k1,1n -k3,3n |
    awk -F'\t' '{ printf "| %s | %d | %s | %s | **%s** |\n", $2, $3, $4, $5, $6 }'
  echo
fi
