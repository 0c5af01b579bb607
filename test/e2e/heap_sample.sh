#!/bin/sh
# Sampled heap profiles (MIP_OPTIONS heap_sample=BYTES, docs/heap.md,
# "Sampled heap profiling"): per site, the estimated blocks and bytes of
# many runs, each with its own seed, against the exact run's, within the
# statistical error the docs state, and no block live at exit that the
# program freed; accesses exact for the recorded blocks; what show says;
# merge refusing to mix sampled and exact runs. Blocks freed and
# reallocated by code MIP did not instrument: every block recorded
# (heap_sample=1), the exact run's contexts; most not, none left live
# that died. What a block not recorded costs, under callgrind.
#   test/e2e/heap_sample.sh BUILD_DIR
BUILD=$(cd "$1" && pwd)
. "$(dirname "$0")/lib.sh"
make_tmp
cd "$TMP"
SRC=$HERE/progs/heap_sample
RATE=65536
SEEDS=${HEAP_SAMPLE_SEEDS:-30}

mip_build heap sample -O2 -g -fno-optimize-sibling-calls "$SRC/sample.c"
mip_create sample empty.mip

# run_profile PROG EMPTY NAME [MIP_OPTIONS]: a run of ./PROG into NAME.mip
# (a copy of EMPTY), show --heap as NAME.json
run_profile() {
  cp "$2" "$3.mip"
  MIP_OPTIONS=${4:-} MIP_PROFILE_FILE=$3.mipraw "./$1" >"$3.out"
  "$MIPDATA" merge -p "$3.mip" --debug "$1" "$3.mipraw" >/dev/null
  mip_show "$3.mip" --heap >"$3.json"
}
# profile NAME [MIP_OPTIONS]: as run_profile, for sample
profile() { run_profile sample empty.mip "$@"; }

# site_totals JSON: "line blocks bytes" per allocation site
site_totals() {
  jq -r '[.heap[] | select(.site != null)] | group_by(.site.line)[] |
         "\(.[0].site.line) \(map(.AllocCount) | add) \(map(.TotalSize) | add)"' "$1"
}

profile exact
site_totals exact.json >exact.sites
expect_eq "exact run: sites" "$(wc -l <exact.sites)" 5
expect_eq "exact run: not sampled" "$(jq .heap_stats.sample_bytes exact.json)" 0

: >estimates
s=1
while [ "$s" -le "$SEEDS" ]; do
  profile "s$s" "heap_sample=64K:heap_sample_seed=$s"
  site_totals "s$s.json" | sed "s/^/$s /" >>estimates
  s=$((s + 1))
done

# A recorded block the program freed never stays live: its free found it
# (docs/heap.md: the marks of recorded blocks).
live=$(for j in s*.json; do jq '[.heap[] | .LiveAtExitCount] | add' "$j"; done | sort -u | tr '\n' ' ')
expect_eq "sampled runs: no block live at exit" "$live" "0 "

expect_eq "sampled run: its rate in the statistics" "$(jq .heap_stats.sample_bytes s1.json)" $RATE
recorded=$(jq .heap_stats.recorded_blocks s1.json)
all=$(jq .heap_stats.blocks exact.json)
[ "${recorded:-0}" -gt 0 ] 2>/dev/null && [ $((recorded * 20)) -lt "$all" ] &&
  pass "sampled run: $recorded of $all blocks recorded" ||
  fail "sampled run: $recorded of $all blocks recorded (want a few percent)"
grep -q "^Sampled: heap_sample=$RATE " <<EOF2 && pass "show says the profile is sampled, at what rate" || fail "show does not say the profile is sampled"
$("$MIPDATA" show -p s1.mip --heap)
EOF2

# Each run's estimate of a site's bytes has a standard error of at most
# sqrt(RATE * bytes) (docs/heap.md): every run within 5 of them, the mean
# of the runs within 4 of the mean's. Blocks of one size n: a standard
# error of sqrt(blocks * (1 - p) / p), p = 1 - exp(-n / RATE).
awk -v rate=$RATE -v seeds="$SEEDS" '
  NR == FNR { blocks[$1] = $2; bytes[$1] = $3; next }
  { est_blocks[$2] += $3; est_bytes[$2] += $4; runs[$2]++
    se = sqrt(rate * bytes[$2])
    if (($4 - bytes[$2]) > 5 * se || (bytes[$2] - $4) > 5 * se)
      printf "FAIL seed %d, line %d: %d bytes estimated, %d allocated (5 standard errors: %d)\n", $1, $2, $4, bytes[$2], 5 * se
    else ok++ }
  END {
    printf "ok   every run within 5 standard errors of each site'"'"'s bytes (%d estimates)\n", ok
    for (l in blocks) {
      if (runs[l] != seeds) { printf "FAIL line %d: in %d of %d runs\n", l, runs[l], seeds; continue }
      mean = est_bytes[l] / seeds; se = sqrt(rate * bytes[l] / seeds)
      d = mean - bytes[l]; if (d < 0) d = -d
      printf "%s line %d: mean of %d runs %.0f bytes, allocated %d (%.2f standard errors)\n",
        d <= 4 * se ? "ok  " : "FAIL", l, seeds, mean, bytes[l], d / se
      n = bytes[l] / blocks[l]
      if (n != int(n)) continue
      p = 1 - exp(-n / rate); se = sqrt(blocks[l] * (1 - p) / p / seeds)
      mean = est_blocks[l] / seeds; d = mean - blocks[l]; if (d < 0) d = -d
      printf "%s line %d: mean of %d runs %.1f blocks, allocated %d (%.2f standard errors)\n",
        d <= 4 * se + 1 ? "ok  " : "FAIL", l, seeds, mean, blocks[l], d / se
    }
  }' exact.sites estimates >verdicts
cat verdicts
checks=$((checks + $(grep -c '^ok\|^FAIL' verdicts)))
failures=$((failures + $(grep -c '^FAIL' verdicts || true)))

# A recorded block's accesses are exact: 3 per middling block, 2 per page.
jq -r '.heap[] | select(.MinSize == 1000 or .MinSize == 4096) |
       "\(.MinSize) \(.MinAccessCount) \(.MaxAccessCount)"' s1.json exact.json | sort -u >accesses
expect_eq "accesses per recorded block, as the exact run's" "$(tr '\n' ' ' <accesses)" "1000 3 3 4096 2 2 "

# Every view of the figures says they are estimates.
"$MIPDATA" diff exact.mip s1.mip >diff.txt
grep -q "^Heap: base exact, new sampled (heap_sample=$RATE): estimates" diff.txt &&
  pass "diff says which side is sampled" || fail "diff does not say which side is sampled"
"$MIPDATA" flamegraph -p s1.mip -o flame.html
grep -q "<title>[^<]*(sampled (heap_sample=$RATE): estimates)" flame.html &&
  pass "the flame graph says it is sampled" || fail "the flame graph does not say it is sampled"
"$MIPDATA" export -p s1.mip --format dhat -o s1.dhat.json
jq -r .cmd s1.dhat.json | grep -q "sampled (heap_sample=$RATE): estimates" &&
  pass "the DHAT export says it is sampled" || fail "the DHAT export does not say it is sampled"

# Blocks freed and reallocated by code MIP did not instrument, beside
# blocks instrumented code frees and reallocates. Every block recorded
# (heap_sample=1: p = 1 for every size here): each context's blocks,
# bytes, reallocations and blocks live at exit are the exact run's, the
# blocks a realloc moved in their first block's context. Few recorded:
# a context with no block live at exit in the exact run has none in the
# sampled one.
mip_build heap-allocs foreign -O2 -g -fno-optimize-sibling-calls "$SRC/foreign.c"
mip_create foreign foreign.mip
# fprofile NAME [MIP_OPTIONS]: as profile, for foreign
fprofile() { run_profile foreign foreign.mip "$@"; }
fprofile fexact
fprofile fall heap_sample=1:heap_sample_seed=7
# Frees and reallocs by uninstrumented code included.
expect_same_contexts "every block recorded" "the exact run" fexact.json \
  sampled fall.json
jq -r '.heap[] | select(.LiveAtExitCount == 0) | [.frames[].function] | join(" ")' \
  fexact.json | sort >fexact.dead
bad=
for s in 1 2 3 4 5; do
  fprofile "f$s" "heap_sample=4K:heap_sample_seed=$s"
  jq -r '.heap[] | select(.LiveAtExitCount > 0) | [.frames[].function] | join(" ")' \
    "f$s.json" | sort | comm -12 - fexact.dead >"f$s.wrong"
  [ -s "f$s.wrong" ] && bad="$bad seed $s: $(head -n 1 "f$s.wrong");"
done
[ -z "$bad" ] && pass "few recorded: no context live at exit that has no live block" ||
  fail "few recorded: blocks left live at exit:$bad"

# What a block not recorded costs, at 512 KiB: the heap-allocs build's
# instructions over the plain build's, per block (a malloc, realloc or
# realloc(NULL, n) and its free; 400,000 of them), under callgrind. 191
# before the free learned from a mark that its block was not recorded,
# and the hooks kept no register for such a block; 65 after.
mip_build heap-allocs churn -O2 "$SRC/churn.c"
"$CLANG" -O2 "$SRC/churn.c" -o churn.plain
# ir BINARY: its instructions under callgrind, sampling at 512 KiB
ir() {
  MIP_OPTIONS=heap_sample=512K MIP_PROFILE_FILE=churn.mipraw \
    valgrind --tool=callgrind --callgrind-out-file="$1.cg" "./$1" >"$1.out" 2>"$1.log" &&
    awk '$1 == "summary:" || $1 == "totals:" { n = $2 } END { print n + 0 }' "$1.cg"
}
per_block=$(( ($(ir churn) - $(ir churn.plain)) / 400000 ))
[ "$per_block" -gt 0 ] && [ "$per_block" -le 100 ] &&
  pass "a block not recorded costs $per_block instructions (at most 100)" ||
  fail "a block not recorded costs $per_block instructions (want 1 to 100)"

# Sampled and exact runs are refused together, unless told.
cp s1.mip mixed.mip
if "$MIPDATA" merge -p mixed.mip --debug sample exact.mipraw 2>mixed.err; then
  fail "merge mixed a sampled and an exact run without --mix-sampled"
else
  grep -q "exact.mipraw: its heap data is exact" mixed.err &&
    pass "merge refuses to mix sampled and exact runs: $(cat mixed.err)" ||
    fail "merge refused, saying: $(cat mixed.err)"
fi
"$MIPDATA" merge -p mixed.mip --mix-sampled --debug sample exact.mipraw
mip_show mixed.mip --heap >mixed.json
want=$(($(jq '[.heap[] | .TotalSize] | add' s1.json) + $(jq '[.heap[] | .TotalSize] | add' exact.json)))
expect_eq "--mix-sampled: the exact run's bytes weigh one each" \
  "$(jq '[.heap[] | .TotalSize] | add' mixed.json)" "$want"

finish
