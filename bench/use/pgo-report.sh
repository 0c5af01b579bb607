#!/bin/bash
# bench/use/pgo-report.sh RESULTS: the markdown table of bench/use/pgo.sh
# from its results.tsv (PROG BUILD KEY VALUE). PROGRAMS and RUNS come from
# the environment.
set -euo pipefail
results=$1

val() { # PROG BUILD KEY: the value, the median for repeated keys
  awk -F'\t' -v p="$1" -v b="$2" -v k="$3" '$1 == p && $2 == b && $3 == k { v[n++] = $4 }
    END {
      if (!n) { print ""; exit }
      for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
      print (n % 2) ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2
    }' "$results"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "") printf "%.3f", a / b; else printf "-" }'; }
share() { # PLAIN USE PGO: the share of PGO's gain USE has
  awk -v p="$1" -v u="$2" -v g="$3" 'BEGIN { if (p > g) printf "%.0f %%", 100 * (p - u) / (p - g); else printf "-" }'
}

row() { # TITLE CELL-COMMAND...: one cell per program
  local title=$1 p
  shift
  printf '| %s |' "$title"
  for p in $PROGRAMS; do printf ' %s |' "$("$@" "$p")"; done
  printf '\n'
}
vs_plain() { # KEY BUILD PROG
  ratio "$(val "$3" "$2" "$1")" "$(val "$3" plain "$1")"
}
ir_share() { # USE PGO PROG
  share "$(val "$3" plain ir)" "$(val "$3" "$1" ir)" "$(val "$3" "$2" ir)"
}

printf '|  |'
for p in $PROGRAMS; do printf ' %s |' "$p"; done
printf '\n| --- |'
for p in $PROGRAMS; do printf ' ---: |'; done
printf '\n'
plain_val() { val "$2" plain "$1"; }
row "instructions, plain" plain_val ir
for b in mip-use mip-noflow mip-late bc-use fe-use ir-use; do row "instructions, $b / plain" vs_plain ir "$b"; done
for b in mip-use bc-use; do
  row "$b: share of IR PGO's gain" ir_share "$b" ir-use
  row "$b: share of front-end PGO's gain" ir_share "$b" fe-use
done
for b in mip-use mip-noflow mip-late bc-use fe-use ir-use; do row "I1 misses, $b / plain" vs_plain i1_misses "$b"; done
for b in mip-use mip-noflow mip-late bc-use fe-use ir-use; do row "LL instruction misses, $b / plain" vs_plain ll_imisses "$b"; done
row ".text bytes, plain" plain_val text
for b in mip-use mip-noflow mip-late bc-use fe-use ir-use; do row ".text, $b / plain" vs_plain text "$b"; done
for b in mip-gen bc-gen fe-gen ir-gen; do row "instrumented cost, $b / plain (instructions)" vs_plain ir "$b"; done
if [ "${RUNS:-0}" -gt 0 ]; then
  for b in mip-use mip-noflow mip-late bc-use fe-use ir-use; do row "CPU time, $b / plain (median of $RUNS)" vs_plain cpu "$b"; done
fi
