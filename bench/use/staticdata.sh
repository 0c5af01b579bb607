#!/bin/bash
# bench/use/staticdata.sh: what data mode's static data layout buys
# (-fmip-generate=data, then -fmip-use and -fmip-order: hot variables in
# .data.hot. and the like, laid out first by `mipdata order`'s file). The
# program, generated here, has N groups of global variables in source
# order: a hot 8-byte counter and a cold 4 KiB table in .data, the same in
# .bss, and a hot 16-byte constant table and a cold 4 KiB one in .rodata;
# its loop calls the function of a randomly chosen group, which updates
# the hot variables of 8 groups, and nothing touches a cold table. Laid
# out in source order, every hot variable has a page (and a cache line)
# of its own; grouped, they share a few.
#
#   1. profiles it twice: -fmip-generate=counts,order (what -fmip-use knew
#      before data mode) and -fmip-generate=counts,order,data;
#   2. builds it four ways, all -O2, linked by lld, not position-independent
#      (so the trace's addresses are the link's): plain (clang); use
#      (-fmip-use -fmip-order with the first profile: functions ordered,
#      data in source order); data-sections (-fmip-use with the second
#      profile, no ordering file: the prefixed sections alone); data
#      (-fmip-use -fmip-order with the second: sections and order);
#   3. times the workload (median of BENCH_USE_RUNS interleaved runs) with
#      its maximum RSS and minor page faults (GNU time);
#   4. counts data cache misses of a shorter run under cachegrind (D1, and
#      LL as this machine's L2), and the distinct pages of the program's
#      data sections (.rodata, .data.rel.ro, .data, .bss) that a shorter
#      run still loads or stores (valgrind's lackey).
#
# Prints a markdown section on stdout, progress on stderr. Called by
# bench/use/run.sh (make bench-use), or on its own after make:
#   BUILD=build bench/use/staticdata.sh
# Variables: BUILD, MIPCC, MIPDATA, CLANG, LLVM_DIR (bench/lib.sh);
#   BENCH_USE_RUNS        timed runs per build (default 7)
#   BENCH_JOBS            valgrind runs at once (default: cores)
#   STATICDATA_GROUPS     groups of variables (default 1024)
#   STATICDATA_STEPS      loop steps of a timed run (default 20000000)
#   STATICDATA_CG_STEPS   ... under cachegrind (default 1000000)
#   STATICDATA_PAGE_STEPS ... under lackey (default 100000)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

RUNS=${BENCH_USE_RUNS:-7}
JOBS=${BENCH_JOBS:-$(nproc)}
NGROUPS=${STATICDATA_GROUPS:-1024}
STEPS=${STATICDATA_STEPS:-20000000}
CG_STEPS=${STATICDATA_CG_STEPS:-1000000}
PAGE_STEPS=${STATICDATA_PAGE_STEPS:-100000}
PROFILE_STEPS=1000000
MIPDATA=$(abspath "${MIPDATA:-$BUILD/bin/mipdata}")
READELF=${READELF:-$LLVM_DIR/bin/llvm-readelf}
H=$B/use/staticdata
BUILDS=(plain use data-sections data)
declare -A TITLE=(
  [plain]="plain (clang)"
  [use]="-fmip-use -fmip-order, functions' profile"
  [data-sections]="-fmip-use, data profile, no ordering file"
  [data]="-fmip-use -fmip-order, data profile"
)

for v in RUNS JOBS NGROUPS STEPS CG_STEPS PAGE_STEPS; do
  case ${!v} in '' | *[!0-9]* | 0) die "$v must be a positive number, not '${!v}'" ;; esac
done
for t in "$CLANG" "$READELF" valgrind /usr/bin/time awk; do
  command -v "$t" >/dev/null || die "$t not found (scripts/install-deps bench installs what is missing)"
done
for t in "$MIPCC" "$MIPDATA"; do
  [ -x "$t" ] || die "$t missing: run make first"
done

machine_l2

rm -rf "$H"
mkdir -p "$H"
cd "$H"

# ---- the program ------------------------------------------------------------
# Each group's variables are written one after the other, as a program's
# globals are, so that without a profile each hot one sits between two
# cold tables. The loop reaches a group's hot variables through a function
# of the group's own, from a table of them, which updates the hot
# variables of 8 groups spread over the program (the group's and those
# 131, 262, ... further): direct accesses, which data mode counts. (A switch whose cases differ only in the variable would
# not do: the optimizer turns it into a table of the variables' addresses,
# and accesses through those are not counted.)
generate() {
  awk -v n="$NGROUPS" 'BEGIN {
    print "#include <stdio.h>"
    print "#include <stdlib.h>"
    for (k = 0; k < n; k++) {
      printf "long hot_%d = %d;\nlong cold_%d[512] = {%d};\n", k, k + 1, k, k + 1
      printf "long hot_b_%d;\nlong cold_b_%d[512];\n", k, k
      printf "const long hot_r_%d[2] = {%d, %d};\n", k, k, 2 * k + 1
      printf "const long cold_r_%d[512] = {%d};\n", k, k + 3
    }
    for (k = 0; k < n; k++) {
      printf "__attribute__((noinline)) static long step_%d(long x) {\n", k
      for (j = 0; j < 8; j++) {
        g = (k + j * 131) % n
        printf "  hot_%d += x;\n  hot_b_%d ^= x;\n  x += hot_r_%d[x & 1];\n", g, g, g
      }
      print "  return x;\n}"
    }
    printf "static long (*const step_of[%d])(long) = {\n", n
    for (k = 0; k < n; k++)
      printf "  step_%d,\n", k
    print "};"
    print "static long rare(unsigned k) {"
    print "  switch (k) {"
    for (k = 0; k < n; k++)
      printf "  case %d: return cold_%d[k] + cold_b_%d[k] + cold_r_%d[k];\n", k, k, k, k
    print "  }"
    print "  return 0;"
    print "}"
    print "int main(int argc, char **argv) {"
    print "  long steps = argc > 1 ? atol(argv[1]) : 1000000, x = 1;"
    print "  unsigned long r = 88172645463325252UL;"
    print "  for (long i = 0; i < steps; i++) {"
    print "    r ^= r << 13; r ^= r >> 7; r ^= r << 17;"
    printf "    x = step_of[r %% %d](x);\n", n
    print "  }"
    print "  if (argc > 2)"
    printf "    x += rare((unsigned)atoi(argv[2]) %% %d);\n", n
    print "  long sum = 0;"
    for (k = 0; k < n; k++)
      printf "  sum += hot_%d + hot_b_%d;\n", k, k
    print "  printf(\"%ld %ld\\n\", x, sum);"
    print "  return 0;"
    print "}"
  }' >staticdata.c
}

CFLAGS=(-O2 -fno-pie)
LDFLAGS=(-no-pie -fuse-ld=lld)

build_all() {
  log "staticdata: profiling ($NGROUPS groups)"
  "$MIPCC" -fmip-generate=counts,order "${CFLAGS[@]}" "${LDFLAGS[@]}" staticdata.c -o gen.fn
  "$MIPCC" -fmip-generate=counts,order,data "${CFLAGS[@]}" "${LDFLAGS[@]}" staticdata.c -o gen.data
  for g in fn data; do
    rm -f "$g".*.mipraw
    MIP_PROFILE_FILE=$g.run.mipraw "./gen.$g" "$PROFILE_STEPS" >/dev/null
    "$MIPDATA" extract "gen.$g" -o "$g.mipmap" >/dev/null
    "$MIPDATA" create -p "$g.mip" "$g.mipmap" >/dev/null
    "$MIPDATA" merge -p "$g.mip" "$g.run.mipraw" >/dev/null
  done
  "$MIPDATA" show -p data.mip --data >data-profile.txt
  log "staticdata: building"
  "$CLANG" "${CFLAGS[@]}" "${LDFLAGS[@]}" staticdata.c -o plain
  "$MIPCC" -fmip-use=fn.mip -fmip-order "${CFLAGS[@]}" "${LDFLAGS[@]}" staticdata.c -o use
  "$MIPCC" -fmip-use=data.mip "${CFLAGS[@]}" -fdata-sections "${LDFLAGS[@]}" staticdata.c -o data-sections
  "$MIPCC" -fmip-use=data.mip -fmip-order "${CFLAGS[@]}" "${LDFLAGS[@]}" staticdata.c -o data
}

# ---- measurements -------------------------------------------------------------
# timed BUILD: one run; appends "wall_s maxrss_kb minor_faults user_s"
timed() {
  /usr/bin/time -f '%e %M %R %U' -o "time.$1.last" "./$1" "$STEPS" >"out.$1"
  cat "time.$1.last" >>"time.$1"
}

# cg BUILD: cachegrind, LL as this machine's L2
cg() {
  valgrind --tool=cachegrind --cache-sim=yes --LL="$l2" \
    --cachegrind-out-file=/dev/null --log-file="cg.$1.log" \
    "./$1" "$CG_STEPS" >"cg.$1.out"
}

# pages BUILD: the distinct 4 KiB pages of the data sections that a run of
# PAGE_STEPS loads or stores (lackey), and the pages those sections span
pages() {
  "$READELF" -S -W "$1" | awk '
    { for (i = 1; i <= NF; i++) if ($i ~ /^\.(rodata|data\.rel\.ro|data|bss)$/) {
        print $(i + 2), $(i + 4) } }' >"sections.$1"
  valgrind --tool=lackey --trace-mem=yes --log-fd=9 "./$1" "$PAGE_STEPS" \
    9>&1 >/dev/null 2>&1 | awk '
    function hex(s,   i, v) {
      v = 0; s = tolower(s)
      for (i = 1; i <= length(s); i++)
        v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
      return v
    }
    NR == FNR { lo[NR] = hex($1); hi[NR] = lo[NR] + hex($2); n = NR
                for (p = int(lo[NR] / 4096); p <= int((hi[NR] - 1) / 4096); p++) span[p] = 1
                next }
    /^ [LSM] / {
      split($2, a, ","); addr = hex(a[1])
      for (i = 1; i <= n; i++)
        if (addr >= lo[i] && addr < hi[i]) { touched[int(addr / 4096)] = 1; break }
    }
    END { t = 0; s = 0; for (p in touched) t++; for (p in span) s++; print t, s }
  ' "sections.$1" - >"pages.$1"
}

generate
build_all
for b in "${BUILDS[@]}"; do : >"time.$b"; done
for ((r = 1; r <= RUNS; r++)); do
  log "staticdata: timed runs, round $r of $RUNS"
  # shellcheck disable=SC2046 # the list is meant to be split
  for b in $(rotated "$r" "${BUILDS[@]}"); do timed "$b"; done
done
log "staticdata: cachegrind ($CG_STEPS steps) and lackey ($PAGE_STEPS steps)"
for b in "${BUILDS[@]}"; do
  for f in cg pages; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
    "$f" "$b" &
  done
done
wait

# ---- the table -------------------------------------------------------------------
column_median() { awk -v c="$2" '{ print $c }' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
column_range() { awk -v c="$2" '{ print $c }' "$1" | sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s", lo, hi }'; }
misses() { sed -n "s/^==[0-9]*== $2: *\([0-9,]*\).*/\1/p" "$1" | head -1; }
same_output() {
  cmp -s "out.$1" out.plain && cmp -s "cg.$1.out" cg.plain.out && echo same || echo "**differs**"
}

# "N global variables: H hot, W warm, C cold; ..."
hot=$(awk '/global variables:/ { print $4 }' data-profile.txt)
cold=$(awk '/global variables:/ { print $8 }' data-profile.txt)
echo "### Static data: hot and cold global variables (data mode)"
echo
echo "A generated program (\`bench/use/staticdata.sh\`) of $NGROUPS groups of global variables," \
  "each a hot 8-byte counter and a cold 4 KiB table in \`.data\`, the same in \`.bss\`," \
  "and a hot 16-byte constant table and a cold 4 KiB one in \`.rodata\`, written in that" \
  "order; its loop calls, per step, the function of one group chosen at random, which" \
  "updates the hot variables of 8 groups spread over the program; nothing touches a cold" \
  "table. Profiled with \`-fmip-generate=counts,order\` (functions)" \
  "and \`-fmip-generate=counts,order,data\` ($hot variables hot, $cold cold: the cold tables" \
  "are read only on a path the workload never takes). All builds \`-O2 -fno-pie\`, linked by lld \`-no-pie\`." \
  "Wall and user time, max RSS and minor faults: median of $RUNS interleaved runs of" \
  "$STEPS steps (GNU time; times fastest-slowest). Misses: one run of $CG_STEPS steps under" \
  "\`valgrind --tool=cachegrind --cache-sim=yes\`, data misses, LL simulated as this" \
  "machine's L2 ($L2_TEXT). Pages: distinct 4 KiB pages of \`.rodata\`, \`.data.rel.ro\`," \
  "\`.data\` and \`.bss\` loaded or stored in a run of $PAGE_STEPS steps (lackey), of the" \
  "pages those sections span."
echo
echo "| build | wall time (s) | user time (s) | max RSS (KiB) | minor faults | D1 misses | LL misses | data pages touched | output |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for b in "${BUILDS[@]}"; do
  read -r touched span <"pages.$b"
  echo "| ${TITLE[$b]} | $(column_median "time.$b" 1) ($(column_range "time.$b" 1)) |" \
    "$(column_median "time.$b" 4) ($(column_range "time.$b" 4)) |" \
    "$(column_median "time.$b" 2) | $(column_median "time.$b" 3) |" \
    "$(misses "cg.$b.log" "D1  misses") | $(misses "cg.$b.log" "LLd misses") |" \
    "$touched of $span | $(same_output "$b") |"
done
echo
for b in "${BUILDS[@]}"; do
  [ "$(same_output "$b")" = same ] || die "staticdata: $b prints something else than plain (see $H/out.*)"
done
