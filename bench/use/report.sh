#!/bin/bash
# bench/use/report.sh ELAPSED: the markdown report of bench/use/run.sh, from
# the files it left in build/bench/use/out. PROGRAMS, RUNS, SRUNS, CRUNS,
# ERUNS, RSS_RUNS, HOTCOLD and STATICDATA (none, ok, failed) come from the
# environment.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

elapsed=${1:-0}
D=$B/use/out
PROGRAMS=${PROGRAMS:-$ALL_PROGRAMS}
results=$D/results.tsv faults=$D/faults.tsv ctimes=$D/compile.tsv
[ -s "$results" ] || die "no results in $results"

val() { # PROG BUILD KEY
  awk -F'\t' -v p="$1" -v b="$2" -v k="$3" '$1 == p && $2 == b && $3 == k { v = $4 } END { print v + 0 }' "$results"
}
# stats: "MEDIAN MIN MAX" of the numbers on stdin
stats() {
  sort -g | awk '{ v[NR] = $1 }
    END { if (NR == 0) { print 0, 0, 0; exit }
          m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
          print m, v[1], v[NR] }'
}
times_of() { # PROG BUILD KEY (time or cpu)
  awk -F'\t' -v p="$1" -v b="$2" -v k="$3" '$1 == p && $2 == b && $3 == k { print $4 }' "$results"
}
faults_of() { # PROG BUILD STATE COLUMN (4 minflt, 5 majflt, 6 wall_us, 8 rss KiB)
  awk -F'\t' -v p="$1" -v b="$2" -v s="$3" -v c="$4" '$1 == p && $2 == b && $3 == s { print $c }' "$faults"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else printf "-" }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f%%", 100 * a / b; else printf "-" }'; }
kib() { awk -v n="$1" 'BEGIN { printf "%.1f", n / 1024 }'; }
geomean() { awk '{ s += log($1); n++ } END { if (n) printf "%.3f", exp(s / n); else printf "-" }'; }

echo "# Rebuilding with the profile: \`mipcc -fmip-use\`"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $("$CLANG" --version | head -n 1)," \
  "valgrind $(valgrind --version | sed 's/^valgrind-//'). The benchmark took" \
  "$((elapsed / 60)) min $((elapsed % 60)) s."
echo
echo "Each program is built once instrumented (\`mipcc -fmip-generate=counts,order,blocks\`)," \
  "runs the workload of \`make bench\` at full size, and \`mipdata extract\`, \`create\`" \
  "and \`merge\` make its profile. Then, one object per source, all \`-O2\` with the" \
  "flags of \`bench/programs/PROG.sh\`: *plain* (clang), *use* (\`mipcc -fmip-use=PROFILE\`)" \
  "and *order* (\`mipcc -fmip-use=PROFILE -fmip-order\`: \`-ffunction-sections\`, linked" \
  "by lld with \`mipdata order\`'s symbol ordering file); plain and use are linked by the" \
  "default linker (GNU ld), *plain-lld* is plain linked by lld. Every build's output is" \
  "checked identical to the instrumented build's, at full size and under callgrind."
echo
for p in $PROGRAMS; do
  load_program "$p"
  echo "- $p: $(echo "$WORKLOAD" | tr '\n' ' ')"
done
echo

# ---- 1 ----
echo "## The profiles"
echo
echo "| program | raw profiles | functions | ran | never ran: cold | hot | hot from (calls) | hot functions' share of calls | most calls of a warm function |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for p in $PROGRAMS; do
  awk -F'\t' -v p="$p" -v raw="$(val "$p" gen raw_profiles)" '
    { n++; c[$2]++; all += $3; if ($2 == "hot") { hot += $3; if (min == "" || $3 < min) min = $3 }
      else if ($3 > warm) warm = $3 }
    END { printf "| %s | %d | %d | %d | %d | %d | %d | %.1f%% | %d |\n",
            p, raw, n, n - c["cold"], c["cold"], c["hot"], min, all ? 100 * hot / all : 0, warm }' \
    "$D/$p.decisions"
done
echo
echo "From \`mipdata annotate --all --format json\` (the compiler's rules, \`lib/decide.c\`):" \
  "*cold* never ran; *hot* are the most-called functions that make 90% of all calls" \
  "(\`-fmip-hot-share\`), *hot from* the fewest calls of a hot one; every other" \
  "function has fewer (last column)."
echo

# ---- 2 ----
echo "## Code in hot and unlikely sections"
echo
echo "| program | build | code KiB | in .text.hot | in .text.unlikely | functions | hot | cold | binary .text KiB |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for p in $PROGRAMS; do
  for b in plain use order; do
    t=$(val "$p" "$b" code_bytes) h=$(val "$p" "$b" hot_bytes) u=$(val "$p" "$b" unlikely_bytes)
    printf '| %s | %s | %s | %s KiB (%s) | %s KiB (%s) | %s | %s | %s | %s |\n' "$p" "$b" \
      "$(kib "$t")" "$(kib "$h")" "$(pct "$h" "$t")" "$(kib "$u")" "$(pct "$u" "$t")" \
      "$(val "$p" "$b" functions)" "$(val "$p" "$b" hot_functions)" "$(val "$p" "$b" cold_functions)" \
      "$(kib "$(val "$p" "$b" binary_text)")"
  done
done
echo
echo "*code*: all \`.text*\` sections of the program's objects; *in .text.hot*, *in" \
  ".text.unlikely*: those sections (\`.text.hot.\` and \`.text.unlikely.\` in use, one per" \
  "function in order); *functions*, *hot*, *cold*: function symbols in them (\`llvm-objdump" \
  "-t\`). *binary .text*: the linked program's \`.text\`, with the C start-up files."
echo

# ---- 3 ----
echo "## Do the sections match the profile?"
echo
echo "| program | profile hot / cold | use: hot / cold set | order: hot / cold set | stale in use | cold that ran under callgrind | remarks: hot / cold / branches weighed | missed remarks |"
echo "| --- | ---: | --- | --- | ---: | ---: | ---: | --- |"
# same PROG BUILD CLASS DECISION: "same" or what differs
same() {
  awk -v cls="$3" -v dec="$4" '
    FNR == NR { if ($2 == dec) want[$1] = 1; next }
    $2 == cls { have[$1] = 1 }
    END {
      for (k in have) if (!(k in want)) extra++
      for (k in want) if (!(k in have)) missing++
      if (!extra && !missing) print "same"
      else printf "%d extra, %d missing\n", extra, missing
    }' "$D/$1.decisions" "$D/$1.$2.functions"
}
for p in $PROGRAMS; do
  ran_cold=$(awk 'FNR == NR { ran[$1] = 1; next } $2 == "unlikely" { k = $1; sub(/.*;/, "", k); if (k in ran) n++ }
    END { print n + 0 }' "$D/$p.ran" "$D/$p.use.functions")
  missed=$(awk '{ n = $1; $1 = ""; printf "%s%d %s", sep, n, substr($0, 2); sep = "; " }' "$D/$p.missed")
  printf '| %s | %s / %s | %s / %s | %s / %s | %s | %s | %s / %s / %s | %s |\n' "$p" \
    "$(awk -F'\t' '$2 == "hot"' "$D/$p.decisions" | wc -l)" \
    "$(awk -F'\t' '$2 == "cold"' "$D/$p.decisions" | wc -l)" \
    "$(same "$p" use hot hot)" "$(same "$p" use unlikely cold)" \
    "$(same "$p" order hot hot)" "$(same "$p" order unlikely cold)" \
    "$(val "$p" use stale)" "$ran_cold" \
    "$(val "$p" use remark_hot)" "$(val "$p" use remark_cold)" "$(val "$p" use remark_weights)" \
    "${missed:-none}"
done
echo
echo "*profile*: the functions \`mipdata annotate\` calls hot and cold. *set*: the" \
  "functions in \`.text.hot*\` and \`.text.unlikely*\` of the build's objects against" \
  "the profile's, by name (and source for \`static\` ones): *same*, or how many are" \
  "in the sections and not in the profile's list (*extra*) and the reverse (*missing*)." \
  "*stale in use*: functions the use build found changed since the profile (its" \
  "warnings): should be 0, the sources and flags being the profiled build's. *cold that" \
  "ran under callgrind*: functions of use's \`.text.unlikely*\` that callgrind saw" \
  "execute in the plain build on the smaller workload (by name): should be 0." \
  "*remarks*: \`-Rpass=mip\` remarks (\`marked hot\`, \`marked cold\`, \`weighed ...\`" \
  "branches) and \`-Rpass-missed=mip\` remarks by kind, from one more compile of each" \
  "source, use's command with \`-Rpass=mip -Rpass-missed=mip\`. A \`-R\` flag makes clang" \
  "keep debug locations in the IR (as \`-g\` does), and that changes the optimised code" \
  "of a few functions, which then no longer match the profile taken without it: they" \
  "are the *profile not used* remarks, and the difference between these counts and the" \
  "profile's."
echo

# ---- 4 ----
echo "## Run time"
echo
echo "| program | build | wall s: median (min-max) | / plain | CPU s: median (min-max) | / plain | instructions (Ir) | / plain |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
: >"$D/ratios.tmp"
for p in $PROGRAMS; do
  read -r tp _ _ <<<"$(times_of "$p" plain time | stats)"
  read -r cp _ _ <<<"$(times_of "$p" plain cpu | stats)"
  ip=$(val "$p" plain ir)
  for b in plain use order; do
    read -r tm tlo thi <<<"$(times_of "$p" "$b" time | stats)"
    read -r cm clo chi <<<"$(times_of "$p" "$b" cpu | stats)"
    ir=$(val "$p" "$b" ir)
    printf '| %s | %s | %.3f (%.3f-%.3f) | %s | %.3f (%.3f-%.3f) | %s | %s | %s |\n' "$p" "$b" \
      "$tm" "$tlo" "$thi" "$(ratio "$tm" "$tp")" "$cm" "$clo" "$chi" "$(ratio "$cm" "$cp")" \
      "$ir" "$(ratio "$ir" "$ip")"
    printf '%s %s %s %s\n' "$b" "$(ratio "$tm" "$tp")" "$(ratio "$cm" "$cp")" "$(ratio "$ir" "$ip")" >>"$D/ratios.tmp"
  done
done
for b in use order; do
  printf '| geomean | %s | | %s | | %s | | %s |\n' "$b" \
    "$(awk -v b="$b" '$1 == b { print $2 }' "$D/ratios.tmp" | geomean)" \
    "$(awk -v b="$b" '$1 == b { print $3 }' "$D/ratios.tmp" | geomean)" \
    "$(awk -v b="$b" '$1 == b { print $4 }' "$D/ratios.tmp" | geomean)"
done
echo
echo "Wall and CPU time: median of $RUNS runs of the workload at full size, the three" \
  "builds interleaved (each round starts with another); CPU is the user + system time" \
  "of the workload's processes (and of \`bench/workload.sh\` around them), which a busy" \
  "machine inflates less than wall time. Instructions: callgrind's total Ir over the" \
  "workload's processes, one run at the smaller size: exact, and the figure to trust." \
  "*Target*: use and order not slower than plain."
echo

# ---- 5 ----
echo "## Start-up page faults"
echo
echo "| program | command | build | minor faults | / plain | major faults | wall ms: median (fastest) | text KiB resident at exit |"
echo "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"
startup_text() {
  case $1 in
    sqlite3) echo "\`sqlite3 :memory: 'select 1;'\`" ;;
    lua) echo "\`lua -e ''\`" ;;
    bzip2) echo "\`bzip2 -c small.txt\` (4 KiB)" ;;
  esac
}
for p in $PROGRAMS; do
  read -r fp _ _ <<<"$(faults_of "$p" plain warm 4 | stats)"
  for b in plain plain-lld use order; do
    read -r f _ _ <<<"$(faults_of "$p" "$b" warm 4 | stats)"
    read -r mj _ _ <<<"$(faults_of "$p" "$b" warm 5 | stats)"
    read -r w wlo _ <<<"$(faults_of "$p" "$b" warm 6 | stats)"
    read -r rss _ _ <<<"$(faults_of "$p" "$b" rss 8 | stats)"
    printf '| %s | %s | %s | %s | %s | %s | %.2f (%.2f) | %s |\n' "$p" "$(startup_text "$p")" "$b" \
      "$f" "$(ratio "$f" "$fp")" "$mj" "$(awk -v u="$w" 'BEGIN { print u / 1000 }')" \
      "$(awk -v u="$wlo" 'BEGIN { print u / 1000 }')" "$rss"
  done
done
echo
echo "Medians of $SRUNS runs with a warm page cache, the four builds interleaved," \
  "through \`bench/startup/faults.c\` (page faults from \`wait4\`); text resident at" \
  "exit: median of $RSS_RUNS runs held at exit (Rss of the executable mapping, which" \
  "includes what fault-around mapped without a fault). order is linked by lld, so" \
  "plain-lld is its baseline for the layout alone."
for p in $PROGRAMS; do
  [ -s "$D/$p.order.summary" ] && echo "$p's order file: $(sed 's/^[^:]*: //' "$D/$p.order.summary")"
done | sed 's/^/- /'
echo

# ---- 6 ----
echo "## Compile time with the profile"
echo
# Per source: median user+sys of each compiler.
awk -F'\t' '{ print $1 "\t" $2 "\t" $3 "\t" $5 + $6 }' "$ctimes" | sort -t"$(printf '\t')" -k1,3 -k4,4g |
  awk -F'\t' '
    function flush() { if (n) printf "%s\t%s\t%s\t%d\n", k1, k2, k3, n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
    { k = $1 FS $2 FS $3; if (k != prev) { flush(); n = 0; prev = k; k1 = $1; k2 = $2; k3 = $3 } v[++n] = $4 }
    END { flush() }' >"$D/compile.medians.tsv"
awk -F'\t' '{ m[$1 FS $2, $3] = $4; if (!seen[$1 FS $2]++) order[++n] = $1 FS $2 }
  END { for (i = 1; i <= n; i++) { k = order[i]
          printf "%s\t%d\t%d\t%d\n", k, m[k, "clang"], m[k, "plugin"], m[k, "use"] } }' \
  "$D/compile.medians.tsv" >"$D/compile.tmp"
# PROG SRC clang plugin use usepass (µs)
awk -F'\t' 'FNR == NR { t[$1 FS $2] = $3; next } { print $0 FS t[$1 FS $2] + 0 }' \
  "$D/usepass.tsv" "$D/compile.tmp" >"$D/compile.sources.tsv"
echo "| program | sources | clang CPU s | plugin / clang | use / clang | per source, median: plugin / clang | use / clang | worst source (use / clang) | sources over +5%: use (plugin) | in mip::UsePass: total (share), most of one source | empty source: clang ms, plugin, use |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |"
: >"$D/over.tmp"
for p in $PROGRAMS; do
  awk -F'\t' -v p="$p" '$1 == p && $2 != "-"' "$D/compile.sources.tsv" >"$D/compile.tmp"
  empty=$(awk -F'\t' -v p="$p" '$1 == p && $2 == "-" {
    printf "%.1f, %+.1f, %+.1f", $3 / 1000, ($4 - $3) / 1000, ($5 - $3) / 1000 }' "$D/compile.sources.tsv")
  read -r n c pl u up <<<"$(awk -F'\t' '{ n++; c += $3; p += $4; u += $5; up += $6 } END { print n, c, p, u, up }' "$D/compile.tmp")"
  read -r mp _ _ <<<"$(awk -F'\t' '{ print $4 / $3 }' "$D/compile.tmp" | stats)"
  read -r mu _ _ <<<"$(awk -F'\t' '{ print $5 / $3 }' "$D/compile.tmp" | stats)"
  worst=$(awk -F'\t' '{ r = $5 / $3; if (w == "" || r > w) { w = r; s = $2; a = $3; b = $5 } }
    END { printf "%s: %.3f (%.0f -> %.0f ms)", s, w, a / 1000, b / 1000 }' "$D/compile.tmp")
  over=$(awk -F'\t' '$5 / $3 > 1.05' "$D/compile.tmp" | wc -l)
  pover=$(awk -F'\t' '$4 / $3 > 1.05' "$D/compile.tmp" | wc -l)
  upmax=$(awk -F'\t' '{ r = $6 / $3; if (r > m) { m = r; s = $2 } } END { printf "%.2f%% (%s)", 100 * m, s }' "$D/compile.tmp")
  printf '%s %s %s %s %s\n' "$p" "$over" "$n" "$pover" "$(awk -F'\t' '{ r = $6 / $3; if (r > m) m = r } END { print m + 0 }' "$D/compile.tmp")" >>"$D/over.tmp"
  printf '| %s | %d | %.2f | %s | %s | %.3f | %.3f | %s | %d (%d) | %.1f ms (%s), %s | %s |\n' "$p" "$n" \
    "$(awk -v c="$c" 'BEGIN { print c / 1e6 }')" "$(ratio "$pl" "$c")" "$(ratio "$u" "$c")" \
    "$mp" "$mu" "$worst" "$over" "$pover" "$(awk -v u="$up" 'BEGIN { print u / 1000 }')" "$(pct "$up" "$c")" "$upmax" "${empty:--}"
done
rm -f "$D/compile.tmp"
echo
echo "User + system CPU time of \`clang -O2 -c\` (*clang*), the same with" \
  "\`-fplugin=libmip.so\` and no profile (*plugin*: loading the plugin), and" \
  "\`mipcc -O2 -fmip-use=PROFILE -c\` (*use*: reading the profile and applying it), each" \
  "the median of $CRUNS compiles, one compile at a time, the three back to back per source" \
  "in a rotating order. The totals are sums of the medians. *in mip::UsePass*: the" \
  "profile-use pass's own time (user + system) in one more compile per source with" \
  "\`-ftime-report\`, and its share of clang's time. *empty source*: a one-line source" \
  "with the program's flags and profile, median of ${ERUNS:-?} compiles of each: clang's" \
  "own start-up, and what the plugin and mipcc with the profile add to any compile." \
  "*sources over +5%*: of use, and in parentheses of plugin, which does no work: how" \
  "many sources cross +5% by the machine's noise alone. *Target*: use at most +5% per" \
  "source."
echo
echo "<details><summary>Per source (median ms of CPU)</summary>"
echo
echo "| program | source | clang | plugin | use | plugin / clang | use / clang | mip::UsePass |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
awk -F'\t' '$2 != "-" { printf "| %s | %s | %.0f | %.0f | %.0f | %.3f | %.3f | %.1f |\n", $1, $2, $3 / 1000, $4 / 1000, $5 / 1000, $4 / $3, $5 / $3, $6 / 1000 }' \
  "$D/compile.sources.tsv"
echo
echo "</details>"

# ---- targets ----
echo
echo "## Targets"
echo
awk '$1 == "use" || $1 == "order" { n[$1]++; if ($4 > 1) worse[$1]++ }
  END { printf "- Run time not worse than plain, by instruction count: use %s, order %s (wall and CPU time: see the table, noise of several percent).\n",
          worse["use"] ? "**not met** on " worse["use"] " of " n["use"] " programs" : "met on all " n["use"] " programs",
          worse["order"] ? "**not met** on " worse["order"] " of " n["order"] " programs" : "met on all " n["order"] " programs" }' "$D/ratios.tmp"
awk '{ o += $2; n += $3; po += $4; if ($5 > um) um = $5; if ($2) { list = list sep $1 " " $2 "/" $3; sep = ", " } }
  END { printf "- Compile time with the profile at most +5%% per source: by CPU time %s; the plugin alone, which does no work, crosses +5%% on %d by the machine'"'"'s noise. The profile-use pass itself takes at most %.2f%% of a source'"'"'s compile.\n",
          o ? "**not met** on " o " of " n " sources (" list ")" : "met on all " n " sources", po, 100 * um }' "$D/over.tmp"
nomatch=0
for p in $PROGRAMS; do
  for b in use order; do
    [ "$(same "$p" "$b" hot hot)" = same ] && [ "$(same "$p" "$b" unlikely cold)" = same ] || nomatch=$((nomatch + 1))
  done
done
if [ "$nomatch" = 0 ]; then
  echo "- Hot and unlikely sections exactly the profile's hot and never-run functions: met in every build."
else
  echo "- Hot and unlikely sections exactly the profile's hot and never-run functions: **not met** in $nomatch builds (see above)."
fi
rm -f "$D/ratios.tmp" "$D/over.tmp"

# ---- hotcold.sh ----
case ${HOTCOLD:-none} in
  ok)
    echo
    cat "$D/hotcold.md" ;;
  failed)
    echo
    echo "**bench/use/hotcold.sh failed**: see \`build/bench/use/out/hotcold.log\`." ;;
esac

# ---- staticdata.sh ----
case ${STATICDATA:-none} in
  ok)
    echo
    cat "$D/staticdata.md" ;;
  failed)
    echo
    echo "**bench/use/staticdata.sh failed**: see \`build/bench/use/out/staticdata.log\`." ;;
esac
echo
echo "Raw numbers: \`build/bench/use/out/\` (\`results.tsv\`, \`faults.tsv\`, \`compile.tsv\`," \
  "the functions and their sections per build, the profiles' decisions, the remarks)."
