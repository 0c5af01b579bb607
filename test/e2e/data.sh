#!/bin/sh
# Data mode against an independent truth: valgrind's lackey traces every
# load and store of one run of test/e2e/progs/data, instrumented, and the
# accesses it sees to each variable (by the variable's address range, from
# nm) must be the ones the profile counted; a variable whose address the
# program gives away must say that it escapes. Then the rebuild: hot and
# cold variables in their prefixed sections (llvm-readelf), and laid out
# by `mipdata order --data`'s file (nm -n).
#   test/e2e/data.sh BUILD_DIR [MIPDATA]
# MIPDATA defaults to BUILD_DIR/bin/mipdata; the sanitizer pass can give a
# mipdata built with ASan and UBSan.
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
if [ -n "${2:-}" ]; then MIPDATA=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
PROG=$HERE/progs/data
NM=$LLVM_BIN/llvm-nm
READELF=$LLVM_BIN/llvm-readelf
OBJDUMP=$LLVM_BIN/llvm-objdump
make_tmp
cd "$TMP"

# Accessed only directly, each counted exactly; buffer escapes.
EXACT="hits limit sbox never_read never_written shared_count tuning grid labels"
VARS="$EXACT events buffer"

# lackey_counts TRACE BINARY: "NAME ACCESSES" for each of VARS, from the
# trace's loads and stores (a modify, M, is a load and a store) inside the
# variable's bytes (nm -S).
lackey_counts() {
  "$NM" -S --defined-only "$2" | awk -v vars="$VARS" '
    function hex(s,   i, n) {
      n = 0
      s = tolower(s)
      for (i = 1; i <= length(s); i++)
        n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return n
    }
    BEGIN { split(vars, want, " "); for (i in want) wanted[want[i]] = 1 }
    NR == FNR {
      if (NF == 4 && ($4 in wanted)) {
        n++; name[n] = $4; lo[n] = hex($1); hi[n] = lo[n] + hex($2)
      }
      next
    }
    /^ [LSM] / {
      split($2, a, ",")
      addr = hex(a[1])
      for (i = 1; i <= n; i++)
        if (addr >= lo[i] && addr < hi[i])
          count[name[i]] += $1 == "M" ? 2 : 1
    }
    END { for (i = 1; i <= n; i++) print name[i], count[name[i]] + 0 }
  ' - "$1"
}

# ---- 1. one run, counted and traced ---------------------------------------
# Not position-independent: the trace's addresses are the link's.
"$MIPCC" -fmip-generate=data -O2 -fno-pie -no-pie "$PROG/main.c" \
  "$PROG/other.c" -o prog
valgrind --tool=lackey --trace-mem=yes --log-file=lackey.txt ./prog >run.out
mip_profile prog prog.mip default.mipraw >/dev/null
mip_show prog.mip --data >data.json
lackey_counts lackey.txt prog | sort >truth.txt
jq -r '.data[] | "\(.name) \(.accesses)"' data.json | sort >counted.txt

# counted NAME / truth NAME: one variable's accesses
counted() { awk -v n="$1" '$1 == n { print $2 }' counted.txt; }
truth() { awk -v n="$1" '$1 == n { print $2 }' truth.txt; }

[ "$(wc -l <truth.txt)" = 11 ] && pass "lackey traced the run: $(tr '\n' ' ' <truth.txt)" ||
  fail "lackey's trace: $(cat truth.txt)"
for v in $EXACT; do
  expect_eq "$v: accesses counted = lackey's" "$(truth "$v")" "$(counted "$v")"
done
# An atomic add is a read and a write: 2. Valgrind makes a locked
# instruction a load and a compare-and-swap, which lackey reports as a
# load and a modify: 3.
check "events, 30 atomic adds and a load: 61 counted, lackey's 30 more" \
  [ "$(counted events)" = 61 ] && [ "$(truth events)" = 91 ]
check "one variable counted by two units (shared_count, 22 = 10 calls' load and store + main's 2)" \
  [ "$(counted shared_count)" = 22 ]
check "untouched variables: 0 accesses, cold" \
  [ "$(jq -r '[.data[] | select(.name == "never_read" or .name == "never_written") |
               select(.accesses == 0 and .temperature == "cold")] | length' data.json)" = 2 ]
buffer_counted=$(counted buffer) buffer_truth=$(truth buffer)
if [ "$buffer_counted" -lt "$buffer_truth" ] &&
  [ "$(jq -r '.data[] | select(.name == "buffer") | .escapes' data.json)" = true ]; then
  pass "buffer, written through a pointer in other.c: $buffer_counted of lackey's $buffer_truth counted, and it escapes"
else
  fail "buffer: counted $buffer_counted, lackey $buffer_truth, $(jq -c '.data[] | select(.name == "buffer")' data.json)"
fi
check "only buffer escapes" \
  [ "$(jq -r '[.data[] | select(.escapes)] | map(.name) | join(" ")' data.json)" = buffer ]

# ---- 2. runs add up ----------------------------------------------------------
MIP_PROFILE_FILE=second.mipraw ./prog >/dev/null
mip_profile prog two.mip default.mipraw second.mipraw >/dev/null
check "two runs merged: twice the accesses" \
  [ "$(mip_show two.mip --data | jq '[.data[] | .accesses] | add')" = \
    "$(jq '2 * ([.data[] | .accesses] | add)' data.json)" ]
cp prog.mip three.mip
"$MIPDATA" merge -p three.mip two.mip >/dev/null
check "an indexed profile merged into another: three times" \
  [ "$(mip_show three.mip --data | jq '[.data[] | .accesses] | add')" = \
    "$(jq '3 * ([.data[] | .accesses] | add)' data.json)" ]

# Pooled (%1m): the runs' accesses summed in one file, as merging them
# one by one sums them.
"$MIPCC" -fmip-generate=data -fmip-pool -O2 -fno-pie -no-pie "$PROG/main.c" \
  "$PROG/other.c" -o pooled
for run in 1 2; do MIP_PROFILE_FILE=pool-%1m.mipraw ./pooled >/dev/null; done
mip_profile pooled pooled.mip pool-*.mipraw >/dev/null
check "pooled runs: the accesses of two runs (POOL_DATA)" \
  [ "$(mip_show pooled.mip --data | jq '[.data[] | .accesses] | add')" = \
    "$(jq '2 * ([.data[] | .accesses] | add)' data.json)" ]

# ---- 3. the order file ------------------------------------------------------
# Hot (the most accessed, 90 % of all accesses): sbox and grid; never
# touched: never_read and never_written, last; the rest by accesses (ties
# in the profile's order).
"$MIPDATA" order -p prog.mip --data -o data.txt >summary.txt
want="sbox grid events shared_count hits tuning limit buffer labels never_read never_written"
expect_eq "order --data: hot, warm by accesses, cold" "$(tr '\n' ' ' <data.txt | sed 's/ $//')" "$want"
expect_eq "order --data's summary" "$(cat summary.txt)" \
  "data.txt: 11 data symbols: 2 hot, 7 warm, 2 cold"
check "show --data lists them in the file's order" \
  [ "$(jq -r '.data[].name' data.json | tr '\n' ' ' | sed 's/ $//')" = "$want" ]

# ---- 4. the rebuild: sections, then the layout --------------------------------
"$MIPCC" -fmip-use=prog.mip -O2 -fdata-sections -c "$PROG/main.c" -o main.o
"$MIPCC" -fmip-use=prog.mip -O2 -fdata-sections -c "$PROG/other.c" -o other.o
"$READELF" -S -W main.o other.o >sections.txt
for section in .rodata.hot.sbox .bss.hot.grid .rodata.unlikely.never_read \
  .data.unlikely.never_written .bss.events .bss.shared_count .data.tuning; do
  grep -q " $section " sections.txt && pass "section $section" ||
    fail "no section $section: $(grep -o ' [.][a-z.]*[a-z_]* ' sections.txt | tr -d '\n')"
done
unprefixed() { ! grep -q 'hot[.]events\|unlikely[.]events' sections.txt; }
check "warm variables unprefixed" unprefixed

# layout BINARY: "SECTION NAME" for the profile's variables in BINARY's
# address order (nm -n, the sections from objdump's symbol table)
layout() {
  "$OBJDUMP" -t "$1" | awk 'NF >= 4 { print $NF, $(NF - 2) }' >"$1.sections"
  "$NM" -n "$1" | awk -v vars="$VARS" '
    BEGIN { split(vars, v, " "); for (i in v) want[v[i]] = 1 }
    NR == FNR { section[$1] = $2; next }
    ($3 in want) { print section[$3], $3 }' "$1.sections" -
}
# in_file_order LAYOUT: within each output section, the variables come in
# data.txt's order
in_file_order() {
  awk 'NR == FNR { rank[$1] = NR; next }
       { if ($1 in last && rank[$2] < last[$1]) bad = 1; last[$1] = rank[$2] }
       END { exit bad }' data.txt "$1"
}
"$CLANG" -fuse-ld=lld -no-pie -Wl,--symbol-ordering-file=data.txt \
  -Wl,--no-warn-symbol-ordering main.o other.o -o ordered
"$CLANG" -fuse-ld=lld -no-pie main.o other.o -o plain
layout ordered >ordered.txt
layout plain >plain.txt
check "lld lays the variables out in the file's order (nm -n): $(awk '{print $2}' ordered.txt | tr '\n' ' ')" \
  in_file_order ordered.txt
not_in_file_order() { ! in_file_order "$1"; }
check "without the file, not (the test can fail)" not_in_file_order plain.txt
./ordered >ordered.out
check "the rebuilt program's output is the instrumented one's" cmp -s ordered.out run.out
"$MIPCC" -fmip-use=prog.mip -fmip-order -O2 -no-pie "$PROG/main.c" \
  "$PROG/other.c" -o mipcc_ordered 2>mipcc.err
layout mipcc_ordered >mipcc.txt
check "mipcc -fmip-order: the same order (functions' and variables' file)" \
  in_file_order mipcc.txt
finish
