#!/bin/bash
# bench/heap/report.sh ELAPSED: the markdown report of bench/heap/run.sh,
# from the files it left under build/bench/heap. PROGRAMS, RUNS, JOBS and
# PERF_OK come from the environment.
set -eu -o pipefail
. "$(dirname "$0")/../lib.sh"

elapsed=${1:-0}
HB=$B/heap
PROGRAMS=${PROGRAMS:-$HEAP_PROGRAMS}
RUNS=${RUNS:-?}
times=$HB/out/times.tsv

# median PROG CONFIG COLUMN (4 wall µs, 5 peak RSS KiB)
median() {
  awk -F'\t' -v p="$1" -v c="$2" -v k="$3" '$1 == p && $2 == c { print $k }' "$times" |
    sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }
sec() { awk -v u="$1" 'BEGIN { printf "%.3f", u / 1e6 }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
blocks_of() { jq '[.heap // [] | .[] | .AllocCount] | add // 0' "$HB/check/$1.heap/mip.json"; }
clang_version=$("$CLANG" --version | sed -n 1p)

echo "# Heap profiling benchmark"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $clang_version, valgrind $(valgrind --version | sed 's/^valgrind-//'). The benchmark took $((elapsed / 60)) min $((elapsed % 60)) s."
echo
echo "Builds, all \`-O2\` with the flags of \`bench/programs/PROG.sh\`: *plain* (clang), *heap* (\`mipcc -fmip-generate=heap -g\`, which adds frame pointers), *memprof* (\`clang -g -fmemory-profile -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer\`); for the comparisons *dhat* (clang \`-gdwarf-4 -fno-optimize-sibling-calls\`, run under \`valgrind --tool=dhat\`), *heap-nosib* and *memprof-nosib* (heap and memprof with \`-fno-optimize-sibling-calls\`). Workloads: those of \`make bench\` at full size, and cmark converting 40 MB of generated Markdown; each build's output checked identical to plain's."
echo

# ---- overhead ----
echo "## Wall time and peak resident size"
echo
echo "| program | plain s | heap s | memprof s | heap / plain | memprof / plain | plain MiB | heap MiB | memprof MiB | heap / plain | memprof / plain |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
targets=""
ratios=""
for p in $PROGRAMS; do
  tp=$(median "$p" plain 4) th=$(median "$p" heap 4) tm=$(median "$p" memprof 4)
  rp=$(median "$p" plain 5) rh=$(median "$p" heap 5) rm=$(median "$p" memprof 5)
  echo "| $p | $(sec "$tp") | $(sec "$th") | $(sec "$tm") | **$(ratio "$th" "$tp")** | $(ratio "$tm" "$tp") | $(mib "$rp") | $(mib "$rh") | $(mib "$rm") | **$(ratio "$rh" "$rp")** | $(ratio "$rm" "$rp") |"
  ratios="$ratios$(ratio "$th" "$tp") $(ratio "$tm" "$tp") $(ratio "$rh" "$rp") $(ratio "$rm" "$rp")
"
  targets="$targets$(awk -v p="$p" -v t="$(ratio "$th" "$tp")" -v r="$(ratio "$rh" "$rp")" 'BEGIN {
    printf "- %s: wall time %sx plain (target 2x): %s; peak RSS %sx plain (target 1.5x): %s\n", p,
      t, (t + 0 <= 2 ? "met" : "**not met**"), r, (r + 0 <= 1.5 ? "met" : "**not met**") }')
"
done
geo=$(printf '%s' "$ratios" | awk '
  NF == 4 { n++; for (i = 1; i <= 4; i++) l[i] += log($i) }
  END { for (i = 1; i <= 4; i++) printf "%.2f ", n ? exp(l[i] / n) : 0 }')
read -r gh gm grh grm <<<"$geo"
echo "| geomean | | | | **$gh** | $gm | | | | **$grh** | $grm |"
echo
echo "Medians of $RUNS runs per build, interleaved with plain-fp's and heap-stub's (below): each round runs every build once and starts with another. A workload's time is its processes' added up (bzip2: compress, then decompress), from fork to exit, profile writing included; its peak RSS the largest \`ru_maxrss\` of its processes. MemProf's figures are for \`clang -fmemory-profile\` with its defaults. The machine may run other work at the same time: read differences of a few percent as noise."
echo
echo "Targets:"
echo
printf '%s' "$targets"
awk -v t="$gh" -v r="$grh" 'BEGIN {
  printf "- geomean: wall time %sx plain (target 2x): %s; peak RSS %sx plain (target 1.5x): %s\n",
    t, (t + 0 <= 2 ? "met" : "**not met**"), r, (r + 0 <= 1.5 ? "met" : "**not met**") }'
echo

# ---- side by side: MIP exact and sampled, heaptrack, MemProf ----
echo "## Side by side"
echo
echo "Wall time over plain's, medians of the same interleaved runs: *heap* (every block recorded), *heaptrack* (the plain build under heaptrack $(heaptrack --version 2>/dev/null | sed 's/^heaptrack //' || echo '(not installed)'), its interpreter and compressor included: \`bench/heap/heaptrack.sh\`), *memprof*, the heap build sampling at 512 KiB and 64 KiB (*heap-s512K*, *heap-s64K*: \`MIP_OPTIONS=heap_sample=...\`, docs/heap.md), *heap-stub*, the instrumentation without the runtime's work per block, which sampling cannot go below, and the build that counts no accesses (\`-fmip-generate=heap-allocs\`, docs/heap.md \"Allocations only\"), every block recorded (*allocs*) and sampling at 512 KiB (*allocs-s512K*), the mode cheap enough to leave on."
echo
echo "| program | heap | heaptrack | memprof | heaptrack / heap | heap-s512K | heap-s64K | heap-stub | allocs | allocs-s512K | heap RSS | heaptrack RSS | heap-s512K RSS | allocs-s512K RSS |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
side_targets=""
for p in $PROGRAMS; do
  tp=$(median "$p" plain 4) rp=$(median "$p" plain 5)
  th=$(median "$p" heap 4) tk=$(median "$p" heaptrack 4) tm=$(median "$p" memprof 4)
  t5=$(median "$p" heap-s512K 4) t6=$(median "$p" heap-s64K 4) ts=$(median "$p" heap-stub 4)
  rh=$(median "$p" heap 5) rk=$(median "$p" heaptrack 5) r5=$(median "$p" heap-s512K 5)
  ta=$(median "$p" heap-allocs 4) ta5=$(median "$p" heap-allocs-s512K 4) ra5=$(median "$p" heap-allocs-s512K 5)
  echo "| $p | **$(ratio "$th" "$tp")** | $(ratio "$tk" "$tp") | $(ratio "$tm" "$tp") | **$(ratio "$tk" "$th")** | **$(ratio "$t5" "$tp")** | $(ratio "$t6" "$tp") | $(ratio "$ts" "$tp") | $(ratio "$ta" "$tp") | **$(ratio "$ta5" "$tp")** | $(ratio "$rh" "$rp") | $(ratio "$rk" "$rp") | $(ratio "$r5" "$rp") | $(ratio "$ra5" "$rp") |"
  side_targets="$side_targets$(awk -v p="$p" -v h="$(ratio "$th" "$tp")" -v k="$(ratio "$tk" "$th")" -v s="$(ratio "$t5" "$tp")" -v a="$(ratio "$ta5" "$tp")" 'BEGIN {
    printf "- %s: heap %sx plain (target 2x): %s; heaptrack %sx heap (target at least 2x): %s; heap-s512K %sx plain (target 1.15x): %s; allocs-s512K %sx plain: %s\n", p,
      h, (h + 0 <= 2 ? "met" : "**not met**"), k, (k == "-" ? "no heaptrack" : k + 0 >= 2 ? "met" : "**not met**"),
      s, (s + 0 <= 1.15 ? "met" : "**not met**"), a, (a + 0 <= 1.15 ? "met" : "**not met**") }')
"
done
echo
echo "Targets:"
echo
printf '%s' "$side_targets"
echo

# ---- against a baseline build ----
if [ -n "${BASELINE:-}" ]; then
  echo "## Against a baseline"
  echo
  echo "*heap-base* is the heap build made by the MIP build in \`$BASELINE\` (\`BENCH_HEAP_BASELINE\`, commit $(git -C "$BASELINE" rev-parse --short HEAD 2>/dev/null || echo unknown)), timed in the same rounds as the others; instructions from the same callgrind runs as below."
  echo
  echo "| program | heap-base / plain | heap / plain | heap / heap-base | heap-base / plain RSS | heap / plain RSS | heap / heap-base RSS | heap / heap-base Ir |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for p in $PROGRAMS; do
    tp=$(median "$p" plain 4) th=$(median "$p" heap 4) tb=$(median "$p" heap-base 4)
    rp=$(median "$p" plain 5) rh=$(median "$p" heap 5) rb=$(median "$p" heap-base 5)
    ir=$(awk -F'\t' -v p="$p" '$1 == p && $4 > 0 { printf "%.4f", $3 / $4 }' "$HB/out/instructions.tsv")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$(ratio "$tb" "$tp")" "$(ratio "$th" "$tp")" \
      "$(awk -v a="$th" -v b="$tb" 'BEGIN { printf "%.3f", a / b }')" "$(ratio "$rb" "$rp")" "$(ratio "$rh" "$rp")" \
      "$(awk -v a="$rh" -v b="$rb" 'BEGIN { printf "%.3f", a / b }')" "${ir:--}"
  done | awk -F'\t' '{ print "| " $1 " | " $2 " | " $3 " | **" $4 "** | " $5 " | " $6 " | **" $7 "** | " $8 " |"
      for (i = 2; i <= 8; i++) if ($i > 0) { l[i] += log($i); n[i]++ } }
    END { printf "| geomean |"; for (i = 2; i <= 8; i++) printf " %s |", n[i] ? sprintf(i == 4 || i >= 7 ? "%.3f" : "%.2f", exp(l[i] / n[i])) : "-"; print "" }'
  echo
fi

# ---- the split ----
echo "What heap mode's wall time is made of, from the same interleaved runs: *plain-fp* is plain with heap's frame pointers (\`-fno-omit-frame-pointer\`), *heap-stub* the heap build with hooks that only mark their site (\`bench/heap/hooks-stub.c\`, linked before \`libmip_rt.a\`): the same inline access counts, hook calls and interposed \`free\` and \`realloc\`, without the runtime's work for each block (no walk, no table, no MemInfoBlock). What the runtime adds per block is heap's median less heap-stub's, over the blocks the run allocated (each born and dead once); the budget is what it could add and keep heap at 2x plain."
echo
echo "| program | blocks | plain s | plain-fp / plain | heap-stub / plain | heap / plain | runtime per block | budget per block for 2x |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for p in $PROGRAMS; do
  tp=$(median "$p" plain 4) tf=$(median "$p" plain-fp 4) ts=$(median "$p" heap-stub 4) th=$(median "$p" heap 4)
  awk -v p="$p" -v nb="$(blocks_of "$p")" -v tp="$tp" -v tf="$tf" -v ts="$ts" -v th="$th" 'BEGIN {
    ns = nb >= 1000 ? sprintf("%.0f ns", (th - ts) * 1000 / nb) : "-"
    budget = nb < 1000 ? "-" : ((2 * tp > ts) ? sprintf("%.0f ns", (2 * tp - ts) * 1000 / nb) : "none")
    if (tp <= 0) tp = 1
    printf "| %s | %d | %.3f | %.2f | %.2f | **%.2f** | %s | %s |\n", p, nb, tp / 1e6,
      tf / tp, ts / tp, th / tp, ns, budget }'
done
echo

# ---- instructions ----
echo "Instructions (callgrind Ir, one run each at the callgrind size of \`make bench\`: sqlite3 20,000 rows, lua 1 round, bzip2 4 MiB, cmark 2 MB of Markdown), which the machine's other work does not change:"
echo
echo "| program | plain Ir | heap Ir | heap / plain |"
echo "| --- | ---: | ---: | ---: |"
awk -F'\t' '{ printf "| %s | %.0f | %.0f | **%.2f** |\n", $1, $2, $3, $3 / $2; l += log($3 / $2); n++ }
  END { if (n) printf "| geomean | | | **%.2f** |\n", exp(l / n) }' "$HB/out/instructions.tsv"
echo
echo "MemProf's runtime cannot run under valgrind (its shadow is one reservation valgrind refuses), so it has no column here."
echo

# ---- DHAT's slowdown ----
# At full size DHAT's run is set against plain's median above; at the small
# size against the plain run the comparison made just before it.
full=1
[ "${BENCH_HEAP_DHAT_SIZE:-full}" = small ] && full=0
echo "For comparison, valgrind's DHAT (\`valgrind --tool=dhat\` on the *dhat* build), one run per program, from the comparison below:"
echo
echo "| program | workload size | plain s | DHAT s | DHAT / plain |"
echo "| --- | --- | ---: | ---: | ---: |"
dratios=""
for p in $PROGRAMS; do
  w=$HB/truth/$p/wall.tsv
  td=$(awk -F'\t' '$1 == "dhat" { print $2 }' "$w")
  if [ "$full" = 1 ]; then
    tp=$(median "$p" plain 4) size="full"
  else
    tp=$(awk -F'\t' '$1 == "plain" { print $2 }' "$w") size="small"
  fi
  echo "| $p | $size | $(sec "$tp") | $(sec "$td") | $(ratio "$td" "$tp") |"
  dratios="$dratios$(ratio "$td" "$tp")
"
done
gd=$(printf '%s' "$dratios" | awk 'NF == 1 { n++; l += log($1) } END { printf "%.1f", n ? exp(l / n) : 0 }')
echo "| geomean | | | | $gd |"
echo
if [ "$full" = 1 ]; then
  echo "Plain is the median above; DHAT's time is one run, made while ${JOBS:-1} programs' comparisons ran at once (each run is one process at a time, so each has a core of its own when the machine has no other work), so it is rougher than the medians. The comparisons also time every process of their plain, heap-nosib and memprof-nosib runs: \`truth/PROG/wall.tsv\`."
else
  echo "\`BENCH_HEAP_DHAT_SIZE=small\`: the comparisons ran the callgrind size of \`make bench\` (sqlite3 20,000 rows, lua 1 round, bzip2 4 MiB, cmark 2 MB of Markdown), so DHAT is set against the plain run of the same size made just before it; one run each, made while ${JOBS:-1} programs' comparisons ran at once."
fi
echo

# ---- the live-block sweep ----
if [ "${SWEEP_OK:-0}" = 1 ]; then
  echo "## The live-block sweep"
  echo
  echo "What an allocation and its free cost the runtime as the number of live blocks grows (\`bench/heap/sweep.c\`, built with heap mode, and as *stub* with the hooks that do nothing): the program keeps that many blocks of 16 to 64 bytes live, allocated one after the other as a parser builds a tree, and makes allocations and frees against them. *tree*: all of them allocated, then freed in the same order, again and again (the table grows from empty in each round of 1000, and once, within the round, at the largest counts); *churn*: each operation frees one of the last 256 blocks it allocated, picked at random, and allocates another; *random*: each frees one of the live blocks picked at random and allocates its replacement, which no table that keeps neighbours together can serve from the cache."
  echo
  "$BENCH_DIR/heap/sweep-report.sh" "$HB/sweep"
fi

# ---- perf ----
echo "## Where heap mode's time goes"
echo
if [ "${PERF_OK:-0}" != 1 ]; then
  echo "perf is not available or not allowed here (\`perf record\` failed), so this section is empty."
  echo
else
  rt=$HB/perf/runtime-functions
  echo "| program | blocks allocated | plain s | heap s | program code, heap / plain | clock and CPU reads | stack walk and depot | live-block table | MemInfoBlocks and the rest | runtime per block, all | memcpy/memset ranges |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for p in $PROGRAMS; do
    tp=$(median "$p" plain 4) th=$(median "$p" heap 4) nb=$(blocks_of "$p")
    awk -F'\t' -v p="$p" -v tp="$tp" -v th="$th" -v nb="$nb" '
      function runtime(f) { return (f in rt) || f ~ /clock_gettime|getcpu|^__errno_location$/ }
      function kind(f) {
        if (f ~ /^(__mip_heap_access_range|mip_rt_heap_shadow_touch|mip_rt_heap_shadow_present|mip_rt_heap_start)$/) return "ranges"
        if (f ~ /clock_gettime|getcpu|^mip_rt_heap_(now|cpu|cpu_slow)$/) return "clock"
        if (f ~ /^(mip_rt_heap_(unwind|thread_stack|stack_hash|context_.*|recent_.*))$/) return "stack"
        if (f ~ /^mip_rt_heap_(table_|lock|unlock|try_lock)/ || f ~ /^table_/) return "table"
        return "rest"
      }
      # share of the heap run, and what it is per block
      function cell(x) {
        return sprintf("%.1f%%", 100 * x / sh) (nb >= 1000 ? sprintf(" (%.0f ns)", x / sh * th * 1000 / nb) : "")
      }
      FILENAME == ARGV[1] { rt[$1] = 1; next }
      FILENAME == ARGV[2] { sp += $1; next }
      { sh += $1; if (!runtime($2)) sq += $1; else k[kind($2)] += $1 }
      END {
        if (!sh) sh = 1
        printf "| %s | %d | %.3f | %.3f | %.2f | %s | %s | %s | %s | %s | %.1f%% |\n", p, nb, tp / 1e6, th / 1e6,
          (sp ? sq / sp : 0), cell(k["clock"]), cell(k["stack"]), cell(k["table"]), cell(k["rest"]),
          cell(k["clock"] + k["stack"] + k["table"] + k["rest"]), 100 * k["ranges"] / sh
      }' "$rt" "$HB/perf/$p.plain/symbols.tsv" "$HB/perf/$p.heap/symbols.tsv"
  done
  echo
  echo "From one run of each of plain and heap under \`perf record -F 2999\` (samples per function, user and kernel; the files are in \`build/bench/heap/perf/\`). The heap run's samples are split by function: *program code* is everything outside the runtime (the program, libc, malloc, the kernel), given as its samples over all of the plain run's at the same sampling rate: what counting accesses inline and keeping frame pointers cost. The runtime's work for each block: *clock and CPU reads* (the coarse clock at each birth and death, the CPU from the rseq area, \`sched_getcpu\` where there is none), *stack walk and depot* (\`mip_rt_heap_recent_again\`: checking the thread's recent walks, which most allocations stop at; \`mip_rt_heap_unwind\` and \`mip_rt_heap_context_*\`: the frame-pointer walk, the stack's hash and its depot lookup), *live-block table* (\`mip_rt_heap_table_*\`, \`heap_table.c\`'s own \`table_*\`, and the shard locks), *the rest* (every other function of \`libmip_rt.a\`: the hooks, the interposed free and realloc, the MemInfoBlock merge, counters summed and cleared). Each as a share of the heap run and, in parentheses, that share of the heap build's median time divided by the blocks the run allocated (each born and dead once; not shown below 1000 blocks). *memcpy/memset ranges*: \`__mip_heap_access_range\` and what it calls."
  echo
  echo "Largest runtime functions (share of the heap run):"
  echo
  for p in $PROGRAMS; do
    awk -F'\t' -v p="$p" '
      function runtime(f) { return (f in rt) || f ~ /clock_gettime|getcpu|^__errno_location$/ }
      FILENAME == ARGV[1] { rt[$1] = 1; next }
      { sh += $1; if (runtime($2) && n < 6) { top[++n] = $2; cnt[n] = $1 } }
      END {
        for (i = 1; i <= n; i++) out = out (i > 1 ? ", " : "") sprintf("%s %.1f%%", top[i], 100 * cnt[i] / sh)
        printf "- %s: %s\n", p, out == "" ? "none" : out
      }' "$rt" "$HB/perf/$p.heap/symbols.tsv"
  done
  echo
  echo "Program functions that grew most (heap samples - plain samples, share of the heap run):"
  echo
  for p in $PROGRAMS; do
    awk -F'\t' -v p="$p" '
      function runtime(f) { return (f in rt) || f ~ /clock_gettime|getcpu|^__errno_location$/ }
      FILENAME == ARGV[1] { rt[$1] = 1; next }
      FILENAME == ARGV[2] { pl[$2] = $1; next }
      { sh += $1; if (!runtime($2)) { he[$2] = $1 } }
      END {
        for (f in he) d[f] = he[f] - pl[f]
        n = 0
        while (n < 5) {
          best = ""; for (f in d) if (best == "" || d[f] > d[best]) best = f
          if (best == "" || d[best] <= 0) break
          out = out (n ? ", " : "") sprintf("%s +%.1f%%", best, 100 * d[best] / sh)
          delete d[best]; n++
        }
        printf "- %s: %s\n", p, out == "" ? "none" : out
      }' "$rt" "$HB/perf/$p.plain/symbols.tsv" "$HB/perf/$p.heap/symbols.tsv"
  done
  echo
fi

# ---- DHAT ----
size_note="at full size"
[ "${BENCH_HEAP_DHAT_SIZE:-full}" = small ] && size_note="at the callgrind size of \`make bench\`"
echo "## Blocks and bytes per allocation site: MIP against DHAT"
echo
echo "| program | by | count | equal | different | MIP only | DHAT only | blocks MIP / DHAT | bytes MIP / DHAT | DHAT: allocated inside library calls (sites, blocks, bytes) | DHAT: no frame in the program (blocks, bytes) |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for p in $PROGRAMS; do
  T=$HB/truth/$p
  lib=$(awk -F'\t' '{ n++; b += $3; s += $4 } END { printf "%d, %d, %d", n, b, s }' "$T/library.tsv")
  none=$(awk -F'\t' '{ b += $2; s += $3 } END { printf "%d, %d", b, s }' "$T/none.tsv")
  # sites.tsv: site alloc mb ms mr db ds; contexts.tsv: context mb ms db ds
  for by in site context; do
    if [ "$by" = site ]; then f=$T/sites.tsv m=3 d=6; else f=$T/contexts.tsv m=2 d=4; fi
    awk -F'\t' -v p="$p" -v by="$by" -v m="$m" -v d="$d" -v lib="$lib" -v none="$none" '
      { n++
        if ($m == "-") donly++
        else if ($d == "-") monly++
        else if ($m == $d && $(m + 1) == $(d + 1)) eq++
        else diff++
        if ($m != "-") { mb += $m; ms += $(m + 1) }
        if ($d != "-") { db += $d; ds += $(d + 1) }
      }
      END { printf "| %s | %s | %d | %d | %d | %d | %d | %d / %d | %d / %d | %s | %s |\n",
        (by == "site" ? p : ""), by, n, eq, diff, monly, donly, mb, db, ms, ds,
        (by == "site" ? lib : ""), (by == "site" ? none : "") }' "$f"
  done
done
echo
echo "The same run of each program ($size_note) under DHAT (the *dhat* build) and with MIP (*heap-nosib*), from the same directory with the binary at the same path, so that both allocate exactly the same. A site is a file and line: for DHAT the first frame of a program point in the program's own sources, for MIP the allocation call (\`site\` of \`mipdata show --heap\`); blocks are AllocCount and \`tbk\`, bytes TotalSize and \`tb\`. DHAT points whose allocator was called by another library function than strdup, strndup or reallocarray (fopen's FILE, stdio buffers, getpwuid...) are counted apart: MIP hooks the program's own allocation calls, not those inside libc, so it does not see them by design. A *context* is the site and the names of the functions above it in the program's sources, at most 12 (inlined ones included, libraries' left out: DHAT keeps 24 return addresses, \`--num-callers=24\`), summed over the contexts or program points that share it, so both sides merge deeper recursion alike."
echo
echo "## At the global peak: MIP against DHAT"
echo
echo "| program | MIP peak bytes (blocks) | DHAT t-gmax bytes (blocks) | DHAT direct sites' bytes then | sites | equal gb and gbk |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for p in $PROGRAMS; do
  T=$HB/truth/$p
  [ -s "$T/peak.tsv" ] || continue
  read -r mb mk db dk dd <"$T/peak.tsv"
  awk -F'\t' -v p="$p" -v mb="$mb" -v mk="$mk" -v db="$db" -v dk="$dk" -v dd="$dd" '
    # no block of a site live at the peak, and no such site: the same
    { for (i = 2; i <= 5; i++) if ($i == "-") $i = 0
      n++; if ($2 == $4 && $3 == $5) eq++ }
    END { printf "| %s | %s (%s) | %s (%s) | %s | %d | %d |\n", p, mb, mk, db, dk, dd, n, eq }' \
    "$T/peak-sites.tsv"
done
echo
echo "The same runs as above. MIP's peak is the most bytes its blocks held at once (\`heap_peak\`); DHAT's t-gmax counts libc's own blocks too (stdio buffers and the like, which MIP does not see), and so may fall at another moment. Per site (as above), MIP's AtPeakCount and AtPeakSize against DHAT's \`gbk\` and \`gb\`, of the process whose peak is the highest (\`truth/PROG/peak-sites.tsv\`)."
echo
echo "At the peak, sites that differ (a site with no block live then on one side and none at all on the other counts as equal):"
echo
any=0
for p in $PROGRAMS; do
  [ -s "$HB/truth/$p/peak-sites.tsv" ] || continue
  awk -F'\t' -v p="$p" '{ for (i = 2; i <= 5; i++) if ($i == "-") $i = 0 }
    !($2 == $4 && $3 == $5) {
      if (!hdr++) { print "| program | site | MIP AtPeakCount | DHAT gbk | MIP AtPeakSize | DHAT gb |"; print "| --- | --- | ---: | ---: | ---: | ---: |" }
      printf "| %s | %s | %s | %s | %s | %s |\n", p, $1, $2, $4, $3, $5 }' \
    "$HB/truth/$p/peak-sites.tsv" >"$HB/out/peak-diff.$p"
  if [ -s "$HB/out/peak-diff.$p" ]; then
    if [ "$any" = 0 ]; then cat "$HB/out/peak-diff.$p"; else tail -n +3 "$HB/out/peak-diff.$p"; fi
    any=1
  fi
done
[ "$any" = 1 ] || echo "none."
echo
echo "Over the whole run, sites that differ or that one side lacks:"
echo
any=0
for p in $PROGRAMS; do
  awk -F'\t' -v p="$p" '!($3 != "-" && $3 == $6 && $4 == $7) {
      if (!hdr++) { print "| program | site | allocator | MIP blocks | DHAT blocks | MIP bytes | DHAT bytes | MIP ReallocCount |"; print "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |" }
      printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", p, $1, $2, $3, $6, $4, $7, $5 }' \
    "$HB/truth/$p/sites.tsv" >"$HB/out/diff.$p"
  if [ -s "$HB/out/diff.$p" ]; then
    if [ "$any" = 0 ]; then cat "$HB/out/diff.$p"; else tail -n +3 "$HB/out/diff.$p"; fi
    any=1
  fi
done
[ "$any" = 0 ] && echo "none: every site has the same blocks and bytes in both."
echo
echo "Contexts that differ or that one side lacks (at most 10 per program; all in \`truth/PROG/contexts.tsv\`):"
echo
any=0
for p in $PROGRAMS; do
  awk -F'\t' -v p="$p" '!($2 != "-" && $2 == $4 && $3 == $5) && n++ < 10 {
      if (!hdr++) { print "| program | context (site < callers) | MIP blocks | DHAT blocks | MIP bytes | DHAT bytes |"; print "| --- | --- | ---: | ---: | ---: | ---: |" }
      c = $1; gsub(/</, " < ", c)
      printf "| %s | %s | %s | %s | %s | %s |\n", p, c, $2, $4, $3, $5 }' \
    "$HB/truth/$p/contexts.tsv" >"$HB/out/cdiff.$p"
  if [ -s "$HB/out/cdiff.$p" ]; then
    if [ "$any" = 0 ]; then cat "$HB/out/cdiff.$p"; else tail -n +3 "$HB/out/cdiff.$p"; fi
    any=1
  fi
done
[ "$any" = 0 ] && echo "none: every context has the same blocks and bytes in both."
echo
echo "Allocations inside library calls (DHAT only), by the program's call and the outermost library function:"
echo
echo "| program | site | library function | blocks | bytes |"
echo "| --- | --- | --- | ---: | ---: |"
for p in $PROGRAMS; do
  awk -F'\t' -v p="$p" '{ printf "| %s | %s | %s | %d | %d |\n", p, $1, $2, $3, $4 }' "$HB/truth/$p/library.tsv"
done
echo

# ---- MemProf ----
echo "## Access counts: MIP against MemProf"
echo
echo "Known answers first: \`bench/heap/calib.c\`, built with both (\`-O2 -g -fno-optimize-sibling-calls\`), one context per case:"
echo
echo "| case | what it does | MIP | MemProf | by MIP's rule | by MemProf's rule |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
C=$HB/calib
for c in reused set copy length; do
  case $c in
    reused) what="10 times: malloc(56), 1000 stores to byte 0 and 1000 to byte 55, free"; rm_=20000; rp_=20000 ;;
    set) what="aligned_alloc(64, 4096), memset of 4096 bytes"; rm_=64; rp_=512 ;;
    copy) what="aligned_alloc(64, 4096), memcpy of 4096 bytes into it"; rm_=64; rp_=512 ;;
    length) what="aligned_alloc(64, 4096), memset of 4095 bytes, one store, strlen (libc)"; rm_=65; rp_=1025 ;;
  esac
  m=$(awk -F'\t' -v c="$c" '$1 == c { print $3 }' "$C/mip.tsv")
  mp=$(awk -F'\t' -v c="$c" '$1 == c { print $3 }' "$C/memprof.tsv")
  echo "| $c | $what | ${m:--} | ${mp:--} | $rm_ | $rp_ |"
done
echo
echo "MIP's rule: one access per load or store, one per 64-byte granule a memset, memcpy or memmove touches, nothing for what libc functions read or write. MemProf's (LLVM 19): one per load or store, one per 8-byte word for memset/memcpy/memmove and for the ranges its interceptors of libc functions (strlen, memchr, memcmp, strcpy, fread...) see. *reused* shows a MemProf defect: when a block is allocated, \`ClearShadow\` clears the counters of its granules with a memset whose end is one *byte* past the last counter's start (\`MEM_TO_SHADOW(end - 8) + 1\`, ASan's formula, where a counter is one byte), so the last granule's 8-byte counter keeps all but its low byte: counts of earlier blocks at that address (here 1000 = 0x3e8, of which 0x300 = 768 stays) are added to the next block's, 768 x (0 + 1 + ... + 9) = 34560 here. MIP clears whole counters when a block is born."
echo
echo "| program | contexts MIP | MemProf | in both | same blocks and bytes | different blocks (with reallocs in MIP) | MemProf only (blocks) | MIP / MemProf median | min | max | within 10% | correlation of logs | sum MIP / sum MemProf |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
# shellcheck disable=SC2016 # an awk program
stats='
  # key mb ms ma mr pb ps pa
  {
    if ($2 != "-") nm++
    if ($6 != "-") np++
    if ($2 == "-") { ponly++; pblocks += $6 }
    if ($2 == "-" || $6 == "-") next
    both++
    if ($2 != $6 || $3 != $7) { diff++; if ($5 > 0) re++; next }
    if ($3 / $2 < minsize) next
    same++; sm += $4; sp += $8
    if ($4 == 0 && $8 == 0) { within++; next }
    if ($4 == 0 || $8 == 0) next
    r = $4 / $8; v[++k] = r
    x = log($4); y = log($8); sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y
    if (r >= 0.9 && r <= 1.1) within++
  }
  END {
    # insertion sort: a few hundred values
    for (i = 2; i <= k; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
    med = k == 0 ? 0 : (k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2)
    cv = k * sxy - sx * sy; dx = k * sxx - sx * sx; dy = k * syy - sy * sy
    corr = (k > 2 && dx > 0 && dy > 0) ? sprintf("%.3f", cv / sqrt(dx * dy)) : "-"
    printf "| %s | %d | %d | %d | %d | %d (%d) | %d (%d) | %.3f | %.3g | %.3g | %d (%.0f%%) | %s | %.3f |\n", label, nm, np, both, same,
      diff, re, ponly, pblocks, med, (k ? v[1] : 0), (k ? v[k] : 0), within, (same ? 100 * within / same : 0), corr, (sp ? sm / sp : 0)
  }'
for p in $PROGRAMS; do
  awk -F'\t' -v label="$p (contexts)" -v minsize=0 "$stats" "$HB/access/$p/contexts.tsv"
  awk -F'\t' -v label="$p (contexts, blocks of 1 KiB or more)" -v minsize=1024 "$stats" "$HB/access/$p/contexts.tsv"
  awk -F'\t' -v label="$p (allocation calls)" -v minsize=0 "$stats" "$HB/access/$p/sites.tsv"
done
echo
echo "The runs are those of the DHAT comparison, with *heap-nosib* and *memprof-nosib* (no tail calls in either: MemProf's own build would jump to malloc and realloc from wrappers such as Lua's \`l_alloc\`, and its stacks would lack their frames); MemProf keeps up to 255 frames (\`MEMPROF_OPTIONS=malloc_context_size=255\`), MIP 64. A context is keyed by its allocation call (function, line offset from the function's declaration, column: MemProf's frame) and the names of the functions above it; call lines above the leaf are left out, since the two builds' code differs and a call whose location was merged with another's has line 0 in one and a line in the other. *Allocation calls*: the same, summed by the leaf alone. *Blocks of 1 KiB or more*: contexts whose mean block size is at least 1 KiB (the other columns as in the row above). The ratios are over the contexts with the same blocks and bytes on both sides, both counts non-zero; *within 10%* also counts contexts where both are 0; *correlation of logs*: Pearson's r of the logarithms of the two counts over the contexts of the ratios. Blocks differ where realloc moved a block: MIP counts the new block in the context of the block it came from, as DHAT does, MemProf in the realloc call's; so MemProf has contexts of its own at realloc calls, and more for what libc functions allocate (fopen's FILE...), which its interceptors see and MIP's hooks do not."
echo
echo "Largest contexts (same blocks and bytes), by MemProf's count:"
echo
echo "| program | allocation call < caller | blocks | mean size | MIP accesses | MemProf accesses | MIP / MemProf |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
for p in $PROGRAMS; do
  awk -F'\t' -v OFS='\t' '$2 != "-" && $6 != "-" && $2 == $6 && $3 == $7 { print $8, $0 }' "$HB/access/$p/contexts.tsv" |
    sort -t"$(printf '\t')" -k1,1 -rn | awk 'NR <= 5' |
    awk -F'\t' -v p="$p" '{ n = split($2, f, "|"); leaf = f[1] (n > 1 ? " < " f[2] : "")
      printf "| %s | `%s` | %d | %.0f | %d | %d | %s |\n", p, leaf, $3, $4 / $3, $5, $9, $9 ? sprintf("%.3f", $5 / $9) : "-" }'
done
echo
echo "## Raw timings"
echo
echo "| program | build | runs | wall s: median | fastest | slowest | fastest / plain's fastest | peak RSS MiB: median | least | most |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for p in $PROGRAMS; do
  fp=$(awk -F'\t' -v p="$p" '$1 == p && $2 == "plain" && (m == "" || $4 < m) { m = $4 } END { print m + 0 }' "$times")
  for c in plain heap memprof plain-fp heap-stub heap-s512K heap-s64K heap-allocs heap-allocs-s512K heaptrack; do
    awk -F'\t' -v p="$p" -v c="$c" '$1 == p && $2 == c { print $4, $5 }' "$times" |
      sort -n | awk -v p="$p" -v c="$c" -v fp="$fp" '
        { w[NR] = $1; r[NR] = $2 }
        END {
          if (!NR) exit
          for (i = 2; i <= NR; i++) { x = r[i]; for (j = i - 1; j >= 1 && r[j] > x; j--) r[j + 1] = r[j]; r[j + 1] = x }
          mw = NR % 2 ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2
          mr = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
          printf "| %s | %s | %d | %.3f | %.3f | %.3f | %s | %.1f | %.1f | %.1f |\n", p, c, NR,
            mw / 1e6, w[1] / 1e6, w[NR] / 1e6, (c == "plain" || fp <= 0) ? "" : sprintf("%.2f", w[1] / fp),
            mr / 1024, r[1] / 1024, r[NR] / 1024
        }'
  done
done
echo
echo "The fastest runs are the least disturbed by other work on the machine; their ratios are a second reading of the wall-time ratios above."
echo
echo "Raw data: \`build/bench/heap/\` (\`out/times.tsv\`, \`truth/PROG/\`, \`access/PROG/\`, \`perf/\`, \`calib/\`)."
