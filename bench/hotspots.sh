#!/bin/bash
# bench/hotspots.sh PROG [COUNT [CONFIG]]: where MIP's (or CONFIG's) extra
# instructions go in PROG.
# Compares the callgrind profiles of the plain and mip builds function by
# function (self cost, summed over the workload's processes) and prints the
# COUNT (default 5) functions with the largest increase as TSV lines:
#   function  calls  plain-Ir  mip-Ir  extra-Ir  plain-Ir-per-call
# The store MIP adds is one instruction per call, so extra-Ir is close to
# the number of calls, and its cost relative to the function is about
# 1 / plain-Ir-per-call.
set -eu
. "$(dirname "$0")/lib.sh"

prog=${1:?usage: hotspots.sh PROG [COUNT [CONFIG]]}
count=${2:-5}
config=${3:-mip}

# function -> "calls Ir" for one configuration's callgrind files.
per_function() { # CONFIG
  local f
  for f in "$OUT/callgrind/$prog.$1"/callgrind.out.*; do
    [ -f "$f" ] || die "$prog/$1: no callgrind profile in $OUT/callgrind/$prog.$1"
    callgrind_annotate --inclusive=no --threshold=100 --tree=caller --auto=no "$f"
  done | awk '
    # "  44,319,411 ( 6.78%)  < ???:caller (2,817,291x) [obj]"  a caller
    # "  44,319,411 ( 6.78%)  *  ???:mainGtU [obj]"             the function
    /^ *[0-9,]+ \( *[0-9.]+%\) +[<*] / {
      rest = substr($0, index($0, "%)") + 2)
      sub(/^ +/, "", rest)
      mark = substr(rest, 1, 1)
      rest = substr(rest, 2); sub(/^ +/, "", rest)
      name = rest; sub(/ .*/, "", name); sub(/^.*:/, "", name)
      obj = ""
      if (index(rest, "[")) { obj = rest; sub(/.*\[/, "", obj); sub(/\].*/, "", obj) }
      if (obj ~ /\/bench\/bin\//) obj = ""; else { sub(/.*\//, "", obj); obj = " (" obj ")" }
      if (mark == "<") {
        if (match(rest, /\([0-9,]+x\)/)) { c = substr(rest, RSTART + 1, RLENGTH - 3); gsub(",", "", c); calls += c }
        next
      }
      ir = $1; gsub(",", "", ir)
      key = name obj
      IR[key] += ir; CALLS[key] += calls; calls = 0
      next
    }
    /^$/ { calls = 0 }
    END { for (k in IR) printf "%s\t%.0f\t%.0f\n", k, CALLS[k], IR[k] }'
}

per_function plain >"$OUT/functions.$prog.plain.tsv"
per_function "$config" >"$OUT/functions.$prog.$config.tsv"
awk -F '\t' -v OFS='\t' '
  NR == FNR { pir[$1] = $3; next }
  { extra = $3 - pir[$1]; if (extra <= 0) next
    per = $2 > 0 ? pir[$1] / $2 : 0
    printf "%s\t%.0f\t%.0f\t%.0f\t%.0f\t%.1f\n", $1, $2, pir[$1], $3, extra, per }' \
  "$OUT/functions.$prog.plain.tsv" "$OUT/functions.$prog.$config.tsv" |
  sort -t "$(printf '\t')" -k5,5nr | head -n "$count"
